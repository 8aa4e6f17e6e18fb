// variance-drift: sublayers that each double the variance, with and without LayerNorm: 2^20
// after 20 unnormalised layers, about 1 with a LayerNorm after each.
#include "demo/demos.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "demo/demo_support.hpp"
#include "engine/linear.hpp"
#include "engine/norm.hpp"
#include "engine/rng.hpp"
#include "engine/stack.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;
using Vec = engine::Vector<double>;

namespace {

constexpr double layer_norm_eps = 1e-5;  // PyTorch's default

struct VarianceDriftSettings {
  std::int64_t layers = 20;            // sublayers, none with a residual connection
  std::int64_t d_model = 64;           // features per token
  std::int64_t seq_len = 16;           // tokens
  double gain = 2.0;                   // what one sublayer multiplies the variance by
  std::string weights = "orthogonal";  // orthogonal: exactly ×gain; gaussian: ×gain on average
};

// √gain·Q with Q a random orthogonal matrix (QR of a Gaussian matrix, column signs fixed by R's
// diagonal): it multiplies every token's squared norm by exactly `gain`.
Mat orthogonal_weight(Index size, double gain, engine::Rng& rng) {
  const Eigen::MatrixXd gaussian = random_matrix(size, size, rng, 0.0, 1.0);
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(gaussian);
  Eigen::MatrixXd q = qr.householderQ();
  for (Index c = 0; c < size; ++c) {
    if (qr.matrixQR()(c, c) < 0.0) q.col(c) *= -1.0;
  }
  return std::sqrt(gain) * q;
}

// The activation variance through two copies of the same stack of sublayers, one plain and one
// with LayerNorm after each: entry 0 is the input's, entry l what layer l puts out.
struct VarianceTrace {
  std::vector<double> plain;
  std::vector<double> normalized;
  std::vector<double> norm_input;  // what each LayerNorm receives: one layer's drift (from layer 1)
};

VarianceTrace trace_variance(const VarianceDriftSettings& s, engine::Rng& rng) {
  const bool orthogonal = s.weights == "orthogonal";
  const double d = as_double(s.d_model);
  // The input starts at variance exactly 1 over all its entries (the lesson's "starting at 1.0").
  Mat input = random_matrix(s.seq_len, s.d_model, rng, 0.0, 1.0);
  const engine::ActivationStats start = engine::activation_stats(input);
  input = (input.array() - start.mean) / std::sqrt(start.variance);

  const engine::NormParams<double> norm(s.d_model, true);  // γ = 1, β = 0
  engine::LinearParams<double> sublayer(s.d_model, s.d_model, false);
  Mat plain = input, normalized = input, projected;
  Vec mean, rstd;
  VarianceTrace trace;
  trace.plain.push_back(engine::activation_stats(plain).variance);
  trace.normalized.push_back(engine::activation_stats(normalized).variance);
  for (std::int64_t layer = 1; layer <= s.layers; ++layer) {
    sublayer.weight = orthogonal
                          ? orthogonal_weight(s.d_model, s.gain, rng)
                          : random_matrix(s.d_model, s.d_model, rng, 0.0, std::sqrt(s.gain / d));
    engine::linear_forward(projected, plain, sublayer);
    plain = projected;
    trace.plain.push_back(engine::activation_stats(plain).variance);
    engine::linear_forward(projected, normalized, sublayer);
    trace.norm_input.push_back(engine::activation_stats(projected).variance);
    engine::layernorm_forward(normalized, mean, rstd, projected, norm, layer_norm_eps);
    trace.normalized.push_back(engine::activation_stats(normalized).variance);
  }
  return trace;
}

DemoResult run_variance_drift(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::string demo = "variance-drift";
  const VarianceDriftSettings s{params.integer("layers"), params.integer("d_model"),
                                params.integer("seq_len"), params.number("gain"),
                                params.text("weights")};
  const double d = as_double(s.d_model);
  check_work(demo, as_double(s.layers) * (3.0 * d * d * d + 2.0 * as_double(s.seq_len) * d * d),
             fmt::format("layers={}, d_model={} and seq_len={}", s.layers, s.d_model, s.seq_len));
  const bool orthogonal = s.weights == "orthogonal";

  engine::Rng rng(seed);
  const VarianceTrace trace = trace_variance(s, rng);
  const std::vector<double>& plain_variance = trace.plain;
  const std::vector<double>& normalized_variance = trace.normalized;
  const std::vector<double>& norm_input_variance = trace.norm_input;

  std::vector<std::int64_t> milestones;
  for (const std::int64_t layer :
       {std::int64_t{1}, std::int64_t{5}, std::int64_t{10}, std::int64_t{20}, s.layers}) {
    if (layer <= s.layers &&
        std::find(milestones.begin(), milestones.end(), layer) == milestones.end()) {
      milestones.push_back(layer);
    }
  }
  std::sort(milestones.begin(), milestones.end());

  DemoResult result;
  const auto at = [](const std::vector<double>& per_layer, std::int64_t layer) {
    return per_layer[static_cast<std::size_t>(layer)];
  };
  for (const std::int64_t layer : milestones)
    result.set(fmt::format("variance_no_norm_{}", layer),
               fmt::format("Activation variance after layer {}, no normalization", layer),
               at(plain_variance, layer), Provenance::measured);
  for (const std::int64_t layer : milestones)
    result.set(
        fmt::format("variance_ideal_{}", layer),
        fmt::format("Idealised variance after layer {}, the gain to the power {}", layer, layer),
        std::pow(s.gain, as_double(layer)), Provenance::derived);
  for (const std::int64_t layer : milestones)
    result.set(fmt::format("variance_layernorm_{}", layer),
               fmt::format("Activation variance after layer {}, LayerNorm after each layer", layer),
               at(normalized_variance, layer), Provenance::measured);
  // After each layer (the input, entry 0, is left out) and what each LayerNorm received.
  const auto [ln_low, ln_high] =
      std::minmax_element(normalized_variance.begin() + 1, normalized_variance.end());
  const auto [drift_low, drift_high] =
      std::minmax_element(norm_input_variance.begin(), norm_input_variance.end());
  const double ln_min = *ln_low, ln_max = *ln_high, drift_min = *drift_low, drift_max = *drift_high;
  const double last = plain_variance.back();
  const double ideal_last = std::pow(s.gain, as_double(s.layers));
  result.set("variance_layernorm_min",
             "Smallest activation variance over the layers, LayerNorm after each layer", ln_min,
             Provenance::measured);
  result.set("variance_layernorm_max",
             "Largest activation variance over the layers, LayerNorm after each layer", ln_max,
             Provenance::measured);
  result.set("layernorm_input_variance_min",
             "Smallest variance a LayerNorm receives over the layers", drift_min,
             Provenance::measured);
  result.set("layernorm_input_variance_max",
             "Largest variance a LayerNorm receives over the layers", drift_max,
             Provenance::measured);
  result.set("variance_input", "Activation variance of the input, before any layer",
             plain_variance.front(), Provenance::measured);
  result.set("no_norm_over_ideal_last",
             "Variance after the last layer over the idealised one, no normalization",
             last / ideal_last, Provenance::measured);
  result.set("log10_variance_no_norm_last",
             "Base-10 logarithm of the variance after the last layer, no normalization",
             std::log10(last), Provenance::measured);
  result.set("log10_variance_ideal_last",
             "Base-10 logarithm of the idealised variance after the last layer",
             std::log10(ideal_last), Provenance::derived);

  result.series.push_back(Series{
      "variance_per_layer",
      "activation variance after each sublayer",
      "layer",
      "variance",
      count_up(0, s.layers),
      {{"no normalization", plain_variance}, {"LayerNorm after each layer", normalized_variance}},
      true});
  Mat table(static_cast<Index>(milestones.size()), 3);
  std::vector<std::string> rows;
  for (std::size_t i = 0; i < milestones.size(); ++i) {
    const auto row = static_cast<Index>(i);
    table(row, 0) = std::pow(s.gain, as_double(milestones[i]));
    table(row, 1) = at(plain_variance, milestones[i]);
    table(row, 2) = at(normalized_variance, milestones[i]);
    rows.push_back(fmt::format("layer {}", milestones[i]));
  }
  result.tables.push_back(
      Table{"variance_milestones",
            "output variance: the lesson's idealised drift against the measured one",
            rows,
            {fmt::format("lesson: {}^n", text::format_short(s.gain)), "no norm", "LayerNorm"},
            table,
            false});

  const std::string map_text =
      orthogonal ? fmt::format(
                       "√{}·Q, with Q a random orthogonal matrix, so it multiplies the "
                       "variance of whatever passes through by exactly {}",
                       text::format_short(s.gain), text::format_short(s.gain))
                 : fmt::format(
                       "a random matrix with N(0, {}/{}) entries, so it multiplies the "
                       "variance by {} only on average",
                       text::format_short(s.gain), s.d_model, text::format_short(s.gain));
  const std::string layernorm_range =
      fmt::format("{:.6f}", ln_min) == fmt::format("{:.6f}", ln_max)
          ? fmt::format("stays at {:.6f}", ln_min)
          : fmt::format("stays between {:.6f} and {:.6f}", ln_min, ln_max);
  const auto milestone_text = [&](const std::vector<double>& per_layer) {
    std::vector<std::string> parts;
    for (const std::int64_t layer : milestones)
      parts.push_back(
          fmt::format("{} after layer {}", text::format_short(at(per_layer, layer)), layer));
    return fmt::format("{}", fmt::join(parts, ", "));
  };
  result.text = {
      fmt::format("{} multiplies its input by {} — no residual connection, no normalization. "
                  "The input ({} × {} features) starts at variance 1.0.",
                  s.layers == 1 ? std::string("The one sublayer")
                                : fmt::format("Each of the {} sublayers", s.layers),
                  map_text, text::count(s.seq_len, "token", "tokens"), s.d_model),
      fmt::format("Without normalization the drift compounds: {}. The lesson's idealised "
                  "1.0 × {}^{} is {}; the measurement is {:.4f} times that, {}.",
                  milestone_text(plain_variance), text::format_short(s.gain), s.layers,
                  text::format_short(ideal_last), last / ideal_last,
                  std::fabs(std::log10(last)) < 0.05
                      ? std::string("about where it started")
                      : fmt::format("{:.1f} orders of magnitude {} where it started",
                                    std::fabs(std::log10(last)), last >= 1.0 ? "above" : "below")),
      fmt::format("With LayerNorm after each layer, every sublayer still multiplies its input's "
                  "variance (LayerNorm receives {}), but the norm brings each token back to "
                  "mean 0, variance 1: the output variance {} at every layer (just under 1 "
                  "because of LayerNorm's ε = 1e-5) — \"drift never compounds across layers\".",
                  span_to(text::format_short(drift_min), text::format_short(drift_max)),
                  layernorm_range),
      fmt::format("Like the lesson's, this is a constructed scenario: a map built to scale the "
                  "variance stands in for real sublayers, whose drift is learned and less "
                  "regular. {}",
                  orthogonal ? fmt::format("--set weights=gaussian draws a random map that "
                                           "multiplies it by {} only on average.",
                                           text::format_short(s.gain))
                             : std::string("The default, weights=orthogonal, scales it exactly."))};
  return result;
}

}  // namespace

DemoInfo variance_drift_demo() {
  const VarianceDriftSettings defaults;
  return DemoInfo{
      "variance-drift",
      "Unnormalised layers compound variance; LayerNorm stops it",
      "A sublayer that doubles activation variance reaches about 1,048,576 after 20 layers; with "
      "layer normalization after every layer the variance stays at about 1.0.",
      "Constructed scenario: variance drift",
      {integer_param("layers", defaults.layers, 1, 64, "sublayers stacked"),
       integer_param("d_model", defaults.d_model, 8, 256, "features per token"),
       integer_param("seq_len", defaults.seq_len, 1, 256, "tokens"),
       number_param("gain", defaults.gain, 0.25, 4.0,
                    "what one sublayer multiplies the variance by (the lesson: 2)"),
       choice_param("weights", defaults.weights, {"orthogonal", "gaussian"},
                    "orthogonal: exactly ×gain per layer; gaussian: ×gain on average")},
      run_variance_drift,
      {engine::Op::linear, engine::Op::layernorm}};
}

}  // namespace proofdeck::demo
