// causal-mask: a causal mask gives every future position a weight of exactly 0, and
// changing a later token leaves the earlier outputs as they were.
#include "demo/demos.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/attention.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

DemoResult run_causal_mask(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::int64_t seq = params.integer("seq");
  const std::int64_t d_model = params.integer("d_model");
  const std::int64_t heads = params.integer("heads");
  std::int64_t changed = params.integer("changed");
  require_divides("causal-mask", d_model, heads, "heads");
  if (changed < 0) changed = seq - 1;
  if (changed >= seq) {
    param_error("causal-mask", fmt::format("changed={}: positions run from 0 to {} (seq={}); -1 "
                                           "means the last",
                                           changed, seq - 1, seq));
  }
  engine::Rng rng(seed);
  engine::MhaParams<double> mha(d_model, heads, true);
  engine::fill_xavier_uniform(mha.in_proj.weight, rng);
  engine::fill_xavier_uniform(mha.out_proj.weight, rng);
  const Mat x = random_matrix(seq, d_model, rng, 0.0, 1.0);
  Mat x_changed = x;
  x_changed.row(changed) = random_matrix(1, d_model, rng, 0.0, 1.0).row(0);

  const auto run = [&](const Mat& input, bool causal) {
    engine::AttentionOptions options;
    options.causal = causal;
    Mat out;
    engine::MhaCache<double> cache;
    engine::mha_forward(out, cache, input, mha, options);
    return std::pair{out, cache.probs};
  };
  const auto [causal_out, causal_probs] = run(x, true);
  const auto [causal_changed, unused_probs] = run(x_changed, true);
  const auto [full_out, full_probs] = run(x, false);
  const auto [full_changed, unused_full] = run(x_changed, false);
  double future = 0.0;
  for (const Mat& probs : causal_probs) {
    for (Index r = 0; r < probs.rows(); ++r) {
      for (Index c = r + 1; c < probs.cols(); ++c)
        future = std::max(future, probs(r, c));
    }
  }
  const auto earlier_change = [&](const Mat& before, const Mat& after) {
    return changed == 0 ? 0.0
                        : (before.topRows(changed) - after.topRows(changed)).cwiseAbs().maxCoeff();
  };
  // Positions whose output is exactly the same after the change, counted row by row.
  const auto unchanged_rows = [&](const Mat& before, const Mat& after) {
    std::int64_t count = 0;
    for (Index r = 0; r < before.rows(); ++r)
      count += before.row(r) == after.row(r) ? 1 : 0;
    return static_cast<double>(count);
  };
  // Changing token 0 leaves no earlier output to compare: that change is a 0 the demo sets.
  const Provenance earlier = changed == 0 ? Provenance::derived : Provenance::measured;
  // changed=-1 (the default) is read as the last position, seq - 1.
  const Provenance changed_kind =
      params.integer("changed") < 0 ? Provenance::derived : Provenance::param;
  DemoResult result;
  const std::string when_changed = fmt::format("when token {} changes", changed);
  result.set("future_weight_max", "Largest attention weight on a future position, causal mask",
             future, Provenance::measured);
  result.set("earlier_output_change_causal",
             "Largest change in earlier outputs " + when_changed + ", causal mask",
             earlier_change(causal_out, causal_changed), earlier);
  result.set("earlier_output_change_bidirectional",
             "Largest change in earlier outputs " + when_changed + ", no mask",
             earlier_change(full_out, full_changed), earlier);
  result.set("changed_position", "Position of the changed token", static_cast<double>(changed),
             changed_kind);
  result.set("unchanged_positions_causal",
             "Outputs left exactly unchanged " + when_changed + ", causal mask",
             unchanged_rows(causal_out, causal_changed), Provenance::measured);
  result.set("unchanged_positions_bidirectional",
             "Outputs left exactly unchanged " + when_changed + ", no mask",
             unchanged_rows(full_out, full_changed), Provenance::measured);
  const std::vector<std::string> labels = numbered("t", seq);
  result.tables.push_back(heatmap("weights_causal", "causal (decoder) attention, head 0", labels,
                                  labels, causal_probs[0]));
  result.tables.push_back(heatmap("weights_bidirectional",
                                  "bidirectional (encoder) attention, head 0", labels, labels,
                                  full_probs[0]));
  result.text = {
      fmt::format("A causal mask sets every score above the diagonal to −∞ before the softmax, so "
                  "a position gives its future exactly zero weight (largest: {}).",
                  future),
      changed == 0
          ? fmt::format("Change token t0: no position comes before it, so there is no earlier "
                        "output for the mask to keep still{}.",
                        seq > 1 ? fmt::format("; --set changed={} changes the last token and "
                                              "leaves {} unmoved with the mask",
                                              seq - 1,
                                              seq == 2 ? std::string("t0")
                                                       : fmt::format("t0 to t{}", seq - 2))
                                : std::string("; --set seq=6 gives it neighbours"))
          : fmt::format(
                "Change token t{}: with the mask, outputs at earlier positions do not "
                "move (largest change {}); without it every position sees t{} and they "
                "all move (largest change {}).",
                changed, text::format_short(result.find("earlier_output_change_causal")->number),
                changed,
                text::format_short(result.find("earlier_output_change_bidirectional")->number)),
      "This is what lets decoder-only models train on every next-token prediction of a "
      "sequence at once: no position can peek at the token it must predict."};
  return result;
}

}  // namespace

DemoInfo causal_mask_demo() {
  return DemoInfo{
      "causal-mask",
      "A causal mask hides the future",
      "Decoder-only models attend only to earlier positions: future weights are exactly 0.",
      "What comes next: decoder-only models",
      {integer_param("seq", 6, 1, 256, "tokens"),
       integer_param("d_model", 16, 1, 256, "embedding width"),
       integer_param("heads", 2, 1, 16, "attention heads (must divide d_model)"),
       integer_param("changed", -1, -1, 255, "the position whose token changes (-1: the last)")},
      run_causal_mask,
      {engine::Op::attention, engine::Op::heads, engine::Op::linear}};
}

}  // namespace proofdeck::demo
