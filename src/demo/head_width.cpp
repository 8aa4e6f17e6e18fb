// head-width: splitting a fixed width into more heads narrows each head: its dimension and
// the rank of its QKᵀ fall as the head count grows.
#include "demo/demos.hpp"

#include <Eigen/QR>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "demo/demo_support.hpp"
#include "engine/attention.hpp"
#include "engine/linear.hpp"
#include "engine/macs.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using Mat = engine::Matrix<double>;

namespace {

// One head count's score products QKᵀ, run by the engine under a multiply-add tally with the
// widths the engine builds heads with (so heads built wider run and count as built). With
// `projections`, Q and K come from a real module's Q/K/V in-projection of x, counted too; without,
// each head's Q and K are drawn at random with its width — the count and the rank depend on the
// widths alone.
struct HeadProducts {
  engine::MacCount count;
  engine::Index head_dim = 0;
  Mat first_scores;  // head 0's QKᵀ/√d_k, (seq, seq)
};

HeadProducts run_head_products(std::int64_t d_model, std::int64_t heads, const Mat& x,
                               std::int64_t seq, bool projections, engine::Rng& rng) {
  HeadProducts run;
  const engine::MacTally tally;
  Mat scores;
  if (projections) {
    engine::MhaParams<double> module(d_model, heads, false);
    engine::fill_xavier_uniform(module.in_proj.weight, rng);
    Mat qkv;
    engine::linear_forward(qkv, x, module.in_proj);
    run.head_dim = module.head_dim();
    const engine::Index rows = module.projection_rows();
    for (engine::Index h = 0; h < module.num_heads; ++h) {
      const engine::Index row = module.head_row(h);
      engine::attention_scores<double>(scores, qkv.middleCols(row, run.head_dim),
                                       qkv.middleCols(rows + row, run.head_dim), {});
      if (h == 0) run.first_scores = scores;
    }
  } else {
    const engine::HeadLayout layout = engine::head_layout(d_model, heads);
    run.head_dim = layout.head_dim;
    Mat query(seq, layout.head_dim), key(seq, layout.head_dim);
    for (engine::Index h = 0; h < layout.num_heads; ++h) {
      engine::fill_normal(query, 0.0, 1.0, rng);
      engine::fill_normal(key, 0.0, 1.0, rng);
      engine::attention_scores<double>(scores, query, key, {});
      if (h == 0) run.first_scores = scores;
    }
  }
  run.count = tally.count();
  return run;
}

// The score products' multiply-adds, per head count, in one sentence.
std::string score_macs_text(const DemoResult& result, const std::vector<std::int64_t>& head_counts,
                            std::int64_t d_model, std::int64_t seq, bool projections) {
  const auto number = [&](const std::string& name) {
    return text::group_digits(fmt::format("{:.0f}", result.find(name)->number));
  };
  std::vector<std::string> parts;
  bool all_equal = true;
  const double first = result.find(fmt::format("score_macs_h{}", head_counts.front()))->number;
  for (const auto heads : head_counts) {
    const std::string h = fmt::format("h{}", heads);
    all_equal = all_equal && result.find("score_macs_" + h)->number == first;
    parts.push_back(fmt::format("{} × {}", text::count(heads, "head", "heads"),
                                number("score_macs_per_head_" + h)));
  }
  const std::string closed = text::group_digits(std::to_string(seq * seq * d_model));
  const std::string head =
      all_equal ? fmt::format(
                      ": the same {} = seq × seq × d_model for every head "
                      "count, so heads split the work rather than cut it",
                      closed)
                : fmt::format(": the totals differ (seq × seq × d_model = {})", closed);
  std::string projection;
  if (projections) {
    std::vector<std::string> costs;
    for (const auto heads : head_counts)
      costs.push_back(number(fmt::format("qkv_macs_h{}", heads)));
    projection = fmt::format(
        " The Q/K/V in-projections before them cost {} (3 × seq × d_model² = {}).",
        fmt::join(costs, ", "), text::group_digits(std::to_string(3 * seq * d_model * d_model)));
  }
  return fmt::format(
      "Counted from the products the engine ran, the score matrices QKᵀ of {} tokens cost {} "
      "multiply-adds{}.{}",
      seq, fmt::join(parts, ", "), head, projection);
}

// The rank of one head's scores by column-pivoted QR, the demo's costliest step. check runs
// head-width at a dozen settings where d_model / heads gives the first head the same width, and
// that head's Q and K, drawn first from the same seed, are then the same numbers: an equal matrix
// reuses the rank its runner kept (run_caches.hpp).
double rank_of_scores(const Mat& scores, MatrixRanks& ranks) {
  if (const std::optional<double> known = ranks.find(scores)) return *known;
  Eigen::ColPivHouseholderQR<Mat> qr(scores);
  qr.setThreshold(1e-10);
  const auto rank = static_cast<double>(qr.rank());
  ranks.keep(scores, rank);
  return rank;
}

DemoResult run_head_width(const Params& params, std::uint64_t seed, RunCaches& caches) {
  const std::int64_t d_model = params.integer("d_model");
  const std::vector<std::int64_t> head_counts = params.integers("heads");
  const std::int64_t seq = params.integer("seq");
  const bool projections = params.flag("projections");
  for (const auto heads : head_counts)
    require_divides("head-width", d_model, heads, "heads");
  // per head count: the score products (seq²·d_model) and a QR of one head's (seq²·head_dim at
  // most), with the in-projection 3·seq·d_model² more
  const double width = as_double(d_model);
  const double tokens = as_double(seq);
  const double per_count =
      2.0 * tokens * tokens * width + (projections ? 3.0 * tokens * width * width : 0.0);
  check_work("head-width", per_count * as_double(static_cast<std::int64_t>(head_counts.size())),
             fmt::format("{} with d_model={} and seq={}{}",
                         text::count(static_cast<std::int64_t>(head_counts.size()), "head count",
                                     "head counts"),
                         d_model, seq, projections ? " and projections" : ""));
  engine::Rng rng(seed);
  const Mat x = projections ? random_matrix(seq, d_model, rng, 0.0, 1.0) : Mat();
  DemoResult result;
  Series series{"head_width", "head dimension and the rank of one head's QKᵀ", "heads", "",
                {},           {{"head dim", {}}, {"rank of QKᵀ", {}}},         true};
  Mat macs(static_cast<engine::Index>(head_counts.size()), projections ? 3 : 2);
  std::vector<std::string> row_labels;
  for (const auto heads : head_counts) {
    const HeadProducts run = run_head_products(d_model, heads, x, seq, projections, rng);
    const engine::MacCount& count = run.count;
    const double rank = rank_of_scores(run.first_scores, caches.ranks);
    // d_model / h: the split's arithmetic (the module's own width drives the products and rank).
    const auto head_dim = as_double(d_model / heads);
    const std::string h = fmt::format("h{}", heads);
    const std::string with_heads = text::count(heads, "head", "heads");
    result.set("head_dim_" + h, "Head dimension, " + with_heads, head_dim, Provenance::derived);
    result.set("rank_" + h, "Rank of the first head's score matrix, " + with_heads, rank,
               Provenance::measured);
    series.x.push_back(static_cast<double>(heads));
    series.lines[0].second.push_back(head_dim);
    series.lines[1].second.push_back(rank);

    const auto per_head = static_cast<double>(count.scores) / static_cast<double>(heads);
    result.set("score_macs_" + h, "Multiply-adds in all heads' score products, " + with_heads,
               static_cast<double>(count.scores), Provenance::counted);
    result.set("score_macs_per_head_" + h,
               "Multiply-adds in one head's score products, " + with_heads, per_head,
               Provenance::counted);
    const auto row = static_cast<engine::Index>(row_labels.size());
    macs(row, 0) = per_head;
    macs(row, 1) = static_cast<double>(count.scores);
    if (projections) {
      result.set("qkv_macs_" + h,
                 "Multiply-adds in the query, key and value projections, " + with_heads,
                 static_cast<double>(count.linear), Provenance::counted);
      macs(row, 2) = static_cast<double>(count.linear);
    }
    row_labels.push_back(text::count(heads, "head", "heads"));
  }
  std::vector<std::string> columns{"QKᵀ per head", "QKᵀ all heads"};
  if (projections) columns.emplace_back("Q/K/V projections");
  result.tables.push_back(Table{"multiply_adds",
                                fmt::format("multiply-adds the engine ran for {} tokens", seq),
                                row_labels, columns, macs, false});
  result.series.push_back(std::move(series));
  result.text = {
      head_counts.front() == head_counts.back()
          ? fmt::format("With d_model {} fixed, each of h heads gets d_model / h dimensions: {} "
                        "with {}.",
                        d_model, d_model / head_counts.front(),
                        text::count(head_counts.front(), "head", "heads"))
          : fmt::format("With d_model {} fixed, each of h heads gets d_model / h dimensions: {} "
                        "with {}, {} with {}.",
                        d_model, d_model / head_counts.front(),
                        text::count(head_counts.front(), "head", "heads"),
                        d_model / head_counts.back(), head_counts.back()),
      fmt::format("A head compares tokens through q·k in its own head_dim-wide space, so its "
                  "{}×{} comparison matrix QKᵀ has rank at most head_dim: a head of width 4 can "
                  "express at most 4 independent directions of relevance, however many heads "
                  "there are.",
                  seq, seq),
      score_macs_text(result, head_counts, d_model, seq, projections),
      "Real architectures balance more subspaces against enough width per head; the lesson's "
      "16 heads of 32 dimensions versus 8 of 64 is that trade-off."};
  return result;
}

}  // namespace

DemoInfo head_width_demo() {
  return DemoInfo{
      "head-width",
      "More heads, narrower heads",
      "Splitting a fixed width into more heads shrinks each head: 32 dimensions at 16 heads, 4 at "
      "128, too little room for a useful comparison.",
      "How many heads?",
      {integer_param("d_model", 512, 1, 2048, "embedding width"),
       list_param("heads", {1, 2, 4, 8, 16, 32, 64, 128}, 1, 2048,
                  "head counts (each must divide d_model)"),
       integer_param("seq", 64, 2, 512, "tokens in the comparison"),
       flag_param("projections", false,
                  "also run each head count's Q/K/V in-projection and count its multiply-adds "
                  "(3·seq·d_model² each: slow at large sizes)")},
      run_head_width,
      {engine::Op::heads, engine::Op::attention, engine::Op::mac_count}};
}

}  // namespace proofdeck::demo
