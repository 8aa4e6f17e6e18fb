// padded-attention: an encoder's self-attention over a right-padded sentence. With a key-padding
// mask the real tokens attend as if the padding were not there; without one they weigh the pad
// keys, whose scores are 0, not −∞, and their outputs change with how much padding the batch
// needed.
#include "demo/demos.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
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

// One bidirectional self-attention run: the output and head 0's weights.
struct PaddedRun {
  Mat output;
  Mat weights;
};

PaddedRun attend(const Mat& x, const engine::MhaParams<double>& module, std::vector<bool> padding) {
  engine::AttentionOptions options;
  options.key_padding = std::move(padding);
  PaddedRun run;
  engine::MhaCache<double> cache;
  engine::mha_forward(run.output, cache, x, module, options);
  run.weights = cache.probs.front();
  return run;
}

// The largest total weight a real token's query puts on the pad keys (columns from `tokens` on).
double pad_weight(const Mat& weights, Index tokens) {
  const Index pads = weights.cols() - tokens;
  if (pads == 0) return 0.0;
  return weights.topRows(tokens).rightCols(pads).rowwise().sum().maxCoeff();
}

DemoResult run_padded_attention(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::string demo = "padded-attention";
  const std::int64_t tokens = params.integer("tokens");
  const std::int64_t pad = params.integer("pad");
  const std::int64_t d_model = params.integer("d_model");
  const std::int64_t heads = params.integer("heads");
  require_divides(demo, d_model, heads, "heads");
  engine::Rng rng(seed);
  // Bias-free projections: a pad token embedded as zeros has q = k = v = 0, so every score on a
  // pad key is exactly 0 — the score that still gets the weight e⁰/Σ.
  engine::MhaParams<double> module(d_model, heads, false);
  engine::fill_xavier_uniform(module.in_proj.weight, rng);
  engine::fill_xavier_uniform(module.out_proj.weight, rng);
  const Mat sentence = random_matrix(tokens, d_model, rng, 0.0, 1.0);
  Mat padded = Mat::Zero(tokens + pad, d_model);
  padded.topRows(tokens) = sentence;
  std::vector<bool> padding(static_cast<std::size_t>(tokens + pad), false);
  std::fill(padding.begin() + tokens, padding.end(), true);

  const PaddedRun alone = attend(sentence, module, {});
  const PaddedRun masked = attend(padded, module, padding);
  const PaddedRun unmasked = attend(padded, module, {});
  const auto change = [&](const PaddedRun& run) {
    return (run.output.topRows(tokens) - alone.output).cwiseAbs().maxCoeff();
  };
  DemoResult result;
  result.set("pad_weight_masked", "Largest weight a real token puts on the pads, masked",
             pad_weight(masked.weights, tokens), Provenance::measured);
  result.set("pad_weight_unmasked", "Largest weight a real token puts on the pads, unmasked",
             pad_weight(unmasked.weights, tokens), Provenance::measured);
  result.set("output_change_masked",
             "Largest change padding makes to a real token's output, masked", change(masked),
             Provenance::measured);
  result.set("output_change_unmasked",
             "Largest change padding makes to a real token's output, unmasked", change(unmasked),
             Provenance::measured);
  result.set("unmasked_vs_masked",
             "Largest gap between a real token's outputs, unmasked and masked",
             (unmasked.output - masked.output).topRows(tokens).cwiseAbs().maxCoeff(),
             Provenance::measured);

  std::vector<std::string> labels;
  for (Index t = 0; t < tokens + pad; ++t)
    labels.push_back(t < tokens ? fmt::format("t{}", t) : fmt::format("pad{}", t - tokens));
  result.tables.push_back(heatmap("weights_masked", "head 0 with the key-padding mask", labels,
                                  labels, masked.weights));
  result.tables.push_back(
      heatmap("weights_unmasked", "head 0 without a mask", labels, labels, unmasked.weights));
  const auto shown = [](double x) { return text::format_short(x); };
  result.claim =
      "A key-padding mask keeps the padding out of the real tokens' outputs; an encoder "
      "needs it even though it needs no causal mask.";
  result.text = {
      fmt::format("A sentence of {} is padded on the right with {} embedded as zeros, and an "
                  "encoder's self-attention (no causal mask) reads it.",
                  text::count(tokens, "token", "tokens"), text::count(pad, "pad", "pads")),
      fmt::format("With the key-padding mask the pads' weight is {} and the real tokens' outputs "
                  "differ from the unpadded sentence's by {}. Without it each real token puts up "
                  "to {} of its weight on the pads, whose scores are 0, not −∞, and its output "
                  "moves by {}.",
                  shown(result.find("pad_weight_masked")->number),
                  shown(result.find("output_change_masked")->number),
                  shown(result.find("pad_weight_unmasked")->number),
                  shown(result.find("output_change_unmasked")->number)),
      "Masking the future and masking padding are two jobs: an encoder has only the second."};
  return result;
}

}  // namespace

DemoInfo padded_attention_demo() {
  return DemoInfo{
      "padded-attention",
      "Padding in an encoder: masked or weighed",
      "A key-padding mask keeps the padding out of the real tokens' outputs; an encoder needs it "
      "even though it needs no causal mask.",
      "What comes next: encoder-decoder models",
      {integer_param("tokens", 4, 1, 64, "real tokens in the sentence"),
       integer_param("pad", 3, 0, 64, "pad tokens after it"),
       integer_param("d_model", 8, 1, 256, "embedding width"),
       integer_param("heads", 2, 1, 16, "attention heads (must divide d_model)")},
      run_padded_attention,
      {engine::Op::attention, engine::Op::heads, engine::Op::padding, engine::Op::linear}};
}

}  // namespace proofdeck::demo
