// attention-flops: where a layer's FLOPs go: the projections' 8·T·E² against QKᵀ and AV's
// 4·T²·E, whatever the head count; the T² term overtakes at T = 2E.
#include "demo/demos.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using Mat = engine::Matrix<double>;

namespace {

DemoResult run_attention_flops(const Params& params, std::uint64_t, RunCaches&) {
  const std::string demo = "attention-flops";
  const std::int64_t tokens = params.integer("tokens");
  const std::int64_t d_model = params.integer("d_model");
  const std::vector<std::int64_t> head_counts =
      distinct_sorted(demo, "heads", params.integers("heads"));
  const std::int64_t asked_ff = params.integer("d_ff");
  const std::int64_t d_ff = asked_ff > 0 ? asked_ff : 4 * d_model;
  for (const std::int64_t heads : head_counts)
    require_divides(demo, d_model, heads, "heads");
  const double t = as_double(tokens), e = as_double(d_model), f = as_double(d_ff);

  // A multiply-add is 2 FLOPs. Each head's QKᵀ is (T, D)·(D, T): summed over the heads it is 2·T²·E
  // whatever their number. AV, (T, T)·(T, D) a head, costs the same.
  const auto score_flops = [&](std::int64_t heads) {
    const double head_dim = as_double(d_model / heads);
    double flops = 0.0;
    for (std::int64_t h = 0; h < heads; ++h)
      flops += 2.0 * t * t * head_dim;
    return flops;
  };
  const double projections = 4.0 * 2.0 * t * e * e;  // W_q, W_k, W_v, W_o: (T, E)·(E, E) each
  const double ffn = 2.0 * 2.0 * t * e * f;          // two (T, E)·(E, F)-sized products
  const double scores = score_flops(head_counts.front());
  const double weighted = scores;
  bool heads_change = false;
  DemoResult result;
  for (const std::int64_t heads : head_counts) {
    const double flops = score_flops(heads);
    heads_change = heads_change || flops != scores;
    result.set(fmt::format("flops_scores_h{}", heads),
               fmt::format("FLOPs of one layer's score products QKᵀ, {}",
                           text::count(heads, "head", "heads")),
               flops, Provenance::derived);
  }
  const double attention = projections + scores + weighted;
  result.set("flops_projections", "FLOPs of one layer's query, key, value and output projections",
             projections, Provenance::derived);
  result.set("flops_scores", "FLOPs of one layer's score products QKᵀ", scores,
             Provenance::derived);
  result.set("flops_av", "FLOPs of one layer's weighted sum of the values AV", weighted,
             Provenance::derived);
  result.set("flops_ffn", "FLOPs of one layer's feed-forward", ffn, Provenance::derived);
  result.set("flops_attention", "FLOPs of one layer's attention, projections included", attention,
             Provenance::derived);
  result.set("flops_layer", "FLOPs of one layer's forward pass, attention and feed-forward",
             attention + ffn, Provenance::derived);
  result.set("heads_change_flops", "Head count changes the score FLOPs", heads_change,
             Provenance::derived);
  result.set("crossover_tokens", "Tokens at which QKᵀ and AV overtake the projections", 2.0 * e,
             Provenance::derived);
  result.set("quadratic_share", "Share of attention FLOPs in QKᵀ and AV",
             (scores + weighted) / attention, Provenance::derived);

  Mat table(4, 2);
  table << projections, projections / (attention + ffn), scores, scores / (attention + ffn),
      weighted, weighted / (attention + ffn), ffn, ffn / (attention + ffn);
  result.tables.push_back(Table{"flops",
                                fmt::format("one layer's forward FLOPs at T = {}, E = {}, F = {}",
                                            grouped(t), grouped(e), grouped(f)),
                                {"projections (Q, K, V, O)", "QKᵀ", "AV", "feed-forward"},
                                {"FLOPs", "share"},
                                table,
                                false});
  Series growth{"flops_by_length",
                "attention FLOPs as the sequence grows",
                "tokens",
                "FLOPs",
                {},
                {{"projections 8·T·E²", {}}, {"QKᵀ + AV 4·T²·E", {}}},
                true};
  for (const double multiple : {0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0}) {
    const double length = std::max(1.0, std::round(2.0 * e * multiple));
    if (!growth.x.empty() && length == growth.x.back()) continue;
    growth.x.push_back(length);
    growth.lines[0].second.push_back(8.0 * length * e * e);
    growth.lines[1].second.push_back(4.0 * length * length * e);
  }
  result.series.push_back(std::move(growth));

  const bool past = t > 2.0 * e;
  result.text = {
      fmt::format("At T = {} and d_model {}, the projections cost 8·T·E² = {} FLOPs, QKᵀ "
                  "and AV 2·T²·E = {} each, and the feed-forward 4·T·E·F = {}.",
                  grouped(t), grouped(e), text::format_short(projections),
                  text::format_short(scores), text::format_short(ffn)),
      head_counts.size() > 1
          ? fmt::format("The head count does not change them: {} of {} dims and {} of {} both "
                        "do 2·T²·E for QKᵀ, since each head's share shrinks as their number "
                        "grows.",
                        text::count(head_counts.front(), "head", "heads"),
                        grouped(as_double(d_model / head_counts.front())), head_counts.back(),
                        grouped(as_double(d_model / head_counts.back())))
          : fmt::format("With {} of {} dims, QKᵀ costs 2·T²·E whatever the head count: each "
                        "head's share shrinks as their number grows (--set heads=1,8 compares).",
                        text::count(head_counts.front(), "head", "heads"),
                        grouped(as_double(d_model / head_counts.front()))),
      fmt::format("The T² terms overtake the projections at T = 2·E = {} tokens; here they are "
                  "{} of attention's FLOPs, {} the crossover.",
                  grouped(2.0 * e),
                  text::format_readable(100.0 * (scores + weighted) / attention, 3) + "%",
                  past ? "past" : (t == 2.0 * e ? "at" : "short of"))};
  return result;
}

}  // namespace

DemoInfo attention_flops_demo() {
  return DemoInfo{
      "attention-flops",
      "Where attention's FLOPs go",
      "A layer's projections cost 8·T·E² FLOPs and QKᵀ plus AV 4·T²·E, whatever the head count: "
      "the T² term overtakes the projections at T = 2E.",
      "Beyond the lesson: the cost of attention",
      {integer_param("tokens", 2048, 1, 10000000, "sequence length T"),
       integer_param("d_model", 4096, 1, 1000000, "embedding width E"),
       list_param("heads", {1, 8}, 1, 1000000, "head counts to compare (each divides d_model)"),
       integer_param("d_ff", 0, 0, 10000000, "feed-forward width (0: 4·d_model)")},
      run_attention_flops,
      {}};
}

}  // namespace proofdeck::demo
