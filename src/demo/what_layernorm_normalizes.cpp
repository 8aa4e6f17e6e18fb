// what-layernorm-normalizes: layer normalization normalises the activations flowing through
// the network, not the weights and not the gradients.
#include "demo/demos.hpp"

#include <cmath>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/linear.hpp"
#include "engine/norm.hpp"
#include "engine/optim.hpp"
#include "engine/rng.hpp"
#include "engine/weight_norm.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using Mat = engine::Matrix<double>;
using Vec = engine::Vector<double>;

namespace {

// The largest |‖w_i‖ − length_i| / length_i over the rows of `weight`.
double largest_relative_gap(const Mat& weight, const Vec& lengths) {
  return ((weight.rowwise().norm() - lengths).array().abs() / lengths.array()).maxCoeff();
}

DemoResult run_what_layernorm_normalizes(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::int64_t tokens = params.integer("tokens");
  const std::int64_t features = params.integer("features");
  engine::Rng rng(seed);
  // Activations far from mean 0, variance 1, then LayerNorm with a learned scale and shift,
  // then a Linear layer reading the normalised activations.
  const Mat activations = random_matrix(tokens, features, rng, 4.0, 7.0);
  engine::NormParams<double> norm(features, true);
  engine::fill_normal(norm.weight, 1.0, 0.2, rng);
  engine::fill_normal(norm.bias, 0.0, 0.2, rng);
  engine::LinearParams<double> linear(features, features, true);
  engine::fill_xavier_uniform(linear.weight, rng);
  const engine::NormParams<double> norm_before = norm;
  const engine::LinearParams<double> linear_before = linear;

  // xhat: what LayerNorm produces before its learned scale and shift.
  Mat xhat, normalized, out;
  Vec mean, rstd;
  engine::layernorm_forward(xhat, mean, rstd, activations,
                            engine::NormParams<double>(features, false), 1e-5);
  engine::layernorm_forward(normalized, mean, rstd, activations, norm, 1e-5);
  engine::linear_forward(out, normalized, linear);
  // Backward from a loss on the output: the gradient reaching the activations.
  const Mat dout = random_matrix(tokens, features, rng, 0.0, 1.0);
  Mat dnormalized, dactivations;
  engine::LinearParams<double> dlinear;
  engine::NormParams<double> dnorm;
  engine::linear_backward(dnormalized, dlinear, dout, normalized, linear);
  engine::layernorm_backward(dactivations, dnorm, dnormalized, activations, norm, mean, rstd);

  const auto [in_mean, in_variance] = row_stats(activations);
  const auto [out_mean, out_variance] = row_stats(xhat);
  const auto [grad_mean, grad_variance] = row_stats(dactivations);
  const bool weights_unchanged = norm.weight == norm_before.weight &&
                                 norm.bias == norm_before.bias &&
                                 linear.weight == linear_before.weight;
  // Then one training step, SGD: what changes the weights. If anything normalised them around
  // a step, they would not be exactly w − lr·∇w afterwards.
  constexpr double kLearningRate = 0.01;
  engine::sgd_step(linear, dlinear, kLearningRate);
  engine::sgd_step(norm, dnorm, kLearningRate);
  const bool weights_follow_sgd =
      linear.weight == Mat(linear_before.weight - kLearningRate * dlinear.weight) &&
      linear.bias == Vec(linear_before.bias - kLearningRate * dlinear.bias) &&
      norm.weight == Vec(norm_before.weight - kLearningRate * dnorm.weight) &&
      norm.bias == Vec(norm_before.bias - kLearningRate * dnorm.bias);
  const Vec lengths_before = linear_before.weight.rowwise().norm();
  const double row_length_change = largest_relative_gap(linear.weight, lengths_before);
  // Beside it, what normalising those weights would be: the same next layer under weight
  // normalisation (torch.nn.utils.weight_norm), v twice its weight and g its rows' lengths, so
  // it starts as the same weight. The same step on g and v leaves every row at length |g|.
  Vec weight_g = lengths_before;
  Mat weight_v = 2.0 * linear_before.weight;
  engine::LinearParams<double> normalized_linear = linear_before;
  engine::weight_norm_forward(normalized_linear.weight, weight_v, weight_g);
  Mat normalized_out, dnormalized_input, dweight_v;
  Vec dweight_g;
  engine::LinearParams<double> dnormalized_linear;
  engine::linear_forward(normalized_out, normalized, normalized_linear);
  engine::linear_backward(dnormalized_input, dnormalized_linear, dout, normalized,
                          normalized_linear);
  engine::weight_norm_backward(dweight_v, dweight_g, dnormalized_linear.weight, weight_v, weight_g);
  engine::sgd_step(weight_g, dweight_g, kLearningRate);
  engine::sgd_step(weight_v, dweight_v, kLearningRate);
  engine::weight_norm_forward(normalized_linear.weight, weight_v, weight_g);
  const double weight_norm_error =
      largest_relative_gap(normalized_linear.weight, weight_g.cwiseAbs());
  DemoResult result;
  result.set("input_token_mean_max", "Largest absolute token mean before LayerNorm",
             in_mean.cwiseAbs().maxCoeff(), Provenance::measured);
  result.set("input_token_var_min", "Smallest token variance before LayerNorm",
             in_variance.minCoeff(), Provenance::measured);
  const std::string normalized_words = " after LayerNorm, before its scale and shift";
  result.set("activation_token_mean_max", "Largest absolute token mean" + normalized_words,
             out_mean.cwiseAbs().maxCoeff(), Provenance::measured);
  result.set("activation_token_var_min", "Smallest token variance" + normalized_words,
             out_variance.minCoeff(), Provenance::measured);
  result.set("activation_token_var_max", "Largest token variance" + normalized_words,
             out_variance.maxCoeff(), Provenance::measured);
  result.set("weights_unchanged", "Weights unchanged by the forward and backward pass",
             weights_unchanged, Provenance::measured);
  result.set("weights_follow_sgd", "Weights after one step are exactly what plain SGD gives",
             weights_follow_sgd, Provenance::measured);
  result.set("weight_row_length_change_max",
             "Largest relative change in a weight row's length after one step", row_length_change,
             Provenance::measured);
  result.set("weight_norm_row_length_error",
             "Largest row-length error after one step under weight normalization",
             weight_norm_error, Provenance::measured);
  // The next layer's weights as the pass left them (the step has moved them since).
  result.set("linear_weight_var", "Mean square of the next layer's weights before the step",
             linear_before.weight.squaredNorm() / static_cast<double>(linear_before.weight.size()),
             Provenance::measured);
  result.set("grad_token_var_min", "Smallest token variance of the gradient at the activations",
             grad_variance.minCoeff(), Provenance::measured);
  result.set("grad_token_var_max", "Largest token variance of the gradient at the activations",
             grad_variance.maxCoeff(), Provenance::measured);
  result.set("gradients_normalized", "Gradient at the activations has variance 1 in every token",
             std::abs(grad_variance.minCoeff() - 1.0) < 1e-3 &&
                 std::abs(grad_variance.maxCoeff() - 1.0) < 1e-3,
             Provenance::measured);

  Mat stats(3, 2);
  stats << in_mean.cwiseAbs().maxCoeff(), in_variance.mean(),  //
      out_mean.cwiseAbs().maxCoeff(), out_variance.mean(),     //
      grad_mean.cwiseAbs().maxCoeff(), grad_variance.mean();
  result.tables.push_back(Table{
      "per_token",
      "per-token statistics",
      {"activations in", "activations out (before γ, β)", "gradient reaching the activations"},
      {"largest |mean|", "mean variance"},
      stats,
      false});
  // "variances 0.999995 to 0.999996", or one number when they read the same.
  const std::string low = text::format_readable(out_variance.minCoeff(), 6);
  const std::string high = text::format_readable(out_variance.maxCoeff(), 6);
  const std::string variances_text = tokens == 1   ? "variance " + low
                                     : low == high ? "every variance " + low
                                                   : "variances " + low + " to " + high;
  result.text = {
      fmt::format("LayerNorm acts on activations: each token's vector comes out with mean 0 and "
                  "variance 1 (largest |mean| {}, {}) before its learned scale and shift.",
                  text::format_short(out_mean.cwiseAbs().maxCoeff()), variances_text),
      "It does not touch the weights: the LayerNorm's own γ and β and the next layer's weights "
      "are bit-for-bit what they were.",
      fmt::format("A training step changes them, and nothing else does: after one SGD step "
                  "(lr {}) {}, and the next layer's weight rows change length by up to {}% — "
                  "nothing rescales them back.",
                  text::format_short(kLearningRate),
                  weights_follow_sgd ? "every weight is exactly w − lr·∇w"
                                     : "the weights are not w − lr·∇w",
                  text::format_short(100.0 * row_length_change)),
      fmt::format("Normalised weights would look different: under weight normalisation (the same "
                  "layer rebuilt as g · v / ‖v‖, given the same step) every row stays at length "
                  "|g| (largest error {}%).",
                  text::format_short(100.0 * weight_norm_error)),
      fmt::format("Nor does it normalise gradients: the gradient flowing back to the activations "
                  "has per-token variance {}, not 1. Stabler gradients are a downstream effect "
                  "of stable activations, not something LayerNorm computes.",
                  span_to(text::format_short(grad_variance.minCoeff()),
                          text::format_short(grad_variance.maxCoeff())))};
  return result;
}

}  // namespace

DemoInfo what_layernorm_normalizes_demo() {
  return DemoInfo{
      "what-layernorm-normalizes",
      "LayerNorm normalises activations",
      "Layer normalization normalizes the activations flowing through the network, "
      "not the weights or the gradients.",
      "What the distractors typically look like",
      {integer_param("tokens", 8, 1, 1024, "tokens"),
       integer_param("features", 16, 2, 1024, "features per token")},
      run_what_layernorm_normalizes,
      {engine::Op::layernorm, engine::Op::linear, engine::Op::optimizer, engine::Op::weight_norm}};
}

}  // namespace proofdeck::demo
