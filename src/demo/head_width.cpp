// head-width: splitting a fixed width into more heads narrows each head: its dimension and
// the rank of its QKᵀ fall as the head count grows.
#include "demo/demos.hpp"

#include <Eigen/QR>
#include <cstdint>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/rng.hpp"

namespace proofdeck::demo {

using Mat = engine::Matrix<double>;

namespace {

DemoResult run_head_width(const Params& params, std::uint64_t seed) {
  const std::int64_t d_model = params.integer("d_model");
  const std::vector<std::int64_t> head_counts = params.integers("heads");
  const std::int64_t seq = params.integer("seq");
  for (const auto heads : head_counts)
    require_divides("head-width", d_model, heads, "heads");
  engine::Rng rng(seed);
  const Mat x = random_matrix(seq, d_model, rng, 0.0, 1.0);
  DemoResult result;
  Series series{"head_width", "head dimension and the rank of one head's QKᵀ", "heads", "",
                {},           {{"head dim", {}}, {"rank of QKᵀ", {}}},         true};
  for (const auto heads : head_counts) {
    const std::int64_t head_dim = d_model / heads;
    Mat wq(head_dim, d_model), wk(head_dim, d_model);
    engine::fill_xavier_uniform(wq, rng);
    engine::fill_xavier_uniform(wk, rng);
    const Mat scores = (x * wq.transpose()) * (x * wk.transpose()).transpose();
    Eigen::ColPivHouseholderQR<Mat> qr(scores);
    qr.setThreshold(1e-10);
    const auto rank = static_cast<double>(qr.rank());
    result.set(fmt::format("head_dim_h{}", heads), static_cast<double>(head_dim),
               Provenance::derived);
    result.set(fmt::format("rank_h{}", heads), rank, Provenance::measured);
    series.x.push_back(static_cast<double>(heads));
    series.lines[0].second.push_back(static_cast<double>(head_dim));
    series.lines[1].second.push_back(rank);
  }
  result.series.push_back(std::move(series));
  result.text = {
      head_counts.front() == head_counts.back()
          ? fmt::format("With d_model {} fixed, each of h heads gets d_model / h dimensions: {} "
                        "with {}.",
                        d_model, d_model / head_counts.front(),
                        counted(head_counts.front(), "head", "heads"))
          : fmt::format("With d_model {} fixed, each of h heads gets d_model / h dimensions: {} "
                        "with {}, {} with {}.",
                        d_model, d_model / head_counts.front(),
                        counted(head_counts.front(), "head", "heads"), d_model / head_counts.back(),
                        head_counts.back()),
      fmt::format("A head compares tokens through q·k in its own head_dim-wide space, so its "
                  "{}×{} comparison matrix QKᵀ has rank at most head_dim: a head of width 4 can "
                  "express at most 4 independent directions of relevance, however many heads "
                  "there are.",
                  seq, seq),
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
       integer_param("seq", 64, 2, 512, "tokens in the comparison")},
      run_head_width,
      {}};
}

}  // namespace proofdeck::demo
