// The depth demos: variance drift through unnormalised sublayers, the gradient a residual
// connection carries down a deep stack, Pre-LN against Post-LN gradients (Xiong et al. 2020) and
// the 1/√d_k of scaled dot-product attention. Every network is at initialisation (nothing is
// trained) and every random number comes from engine::Rng(seed).
#include "demo/demos_depth.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "demo/demo_support.hpp"
#include "engine/attention.hpp"
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
// The most multiply-adds one run may cost (a second or two on one core); larger sizes are refused.
constexpr double work_limit = 4e9;

std::vector<double> count_up(std::int64_t from, std::int64_t to) {
  std::vector<double> xs;
  for (std::int64_t i = from; i <= to; ++i)
    xs.push_back(as_double(i));
  return xs;
}

void check_work(const std::string& demo, double work, const std::string& sizes) {
  if (work > work_limit) {
    param_error(demo, fmt::format("{} need about {} multiply-adds, more than the {} one run may "
                                  "take; choose smaller values",
                                  sizes, text::format_readable(work, 2),
                                  text::format_readable(work_limit, 1)));
  }
}

void check_heads(const std::string& demo, std::int64_t heads, std::int64_t d_model) {
  if (d_model % heads != 0) {
    param_error(demo, fmt::format("heads={} does not divide d_model={}: every head gets "
                                  "d_model / heads features, so heads must be a divisor of {}",
                                  heads, d_model, d_model));
  }
}

// Multiply-adds of one transformer block's forward and backward pass, roughly: per token the
// projections (4·E²), the feed-forward sublayer (2·E·F) and the attention scores (2·T·E), with
// the backward pass costing twice the forward.
double block_work(std::int64_t tokens, std::int64_t d_model, std::int64_t d_ff) {
  const double t = as_double(tokens), e = as_double(d_model), f = as_double(d_ff);
  return 3.0 * t * (4.0 * e * e + 2.0 * e * f + 2.0 * t * e);
}

engine::StackConfig stack_config(std::int64_t layers, std::int64_t d_model, std::int64_t heads,
                                 std::int64_t d_ff, engine::NormPlacement norm) {
  engine::StackConfig config;
  config.layer.d_model = d_model;
  config.layer.nhead = heads;
  config.layer.dim_feedforward = d_ff;
  config.layer.norm = norm;
  config.layer.activation = engine::Activation::relu;
  config.num_layers = layers;
  config.final_norm = norm == engine::NormPlacement::pre;  // Pre-LN ends with a LayerNorm
  return config;
}

// ============================================================================================
// variance-drift: sublayers that each double the variance, with and without LayerNorm
// ============================================================================================

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

DemoResult run_variance_drift(const Params& params, std::uint64_t seed) {
  const std::string demo = "variance-drift";
  const VarianceDriftSettings s{params.integer("layers"), params.integer("d_model"),
                                params.integer("seq_len"), params.number("gain"),
                                params.text("weights")};
  const double d = as_double(s.d_model);
  check_work(demo, as_double(s.layers) * (3.0 * d * d * d + 2.0 * as_double(s.seq_len) * d * d),
             fmt::format("layers={}, d_model={} and seq_len={}", s.layers, s.d_model, s.seq_len));
  const bool orthogonal = s.weights == "orthogonal";

  engine::Rng rng(seed);
  // The input starts at variance exactly 1 over all its entries (the lesson's "starting at 1.0").
  Mat input = random_matrix(s.seq_len, s.d_model, rng, 0.0, 1.0);
  const engine::ActivationStats start = engine::activation_stats(input);
  input = (input.array() - start.mean) / std::sqrt(start.variance);

  // Two copies of the same stack of sublayers: one plain, one with LayerNorm after each.
  const engine::NormParams<double> norm(s.d_model, true);  // γ = 1, β = 0
  engine::LinearParams<double> sublayer(s.d_model, s.d_model, false);
  Mat plain = input, normalized = input, projected;
  Vec mean, rstd;
  std::vector<double> plain_variance{engine::activation_stats(plain).variance};
  std::vector<double> normalized_variance{engine::activation_stats(normalized).variance};
  std::vector<double> norm_input_variance;  // what each LayerNorm receives: one layer's drift
  for (std::int64_t layer = 1; layer <= s.layers; ++layer) {
    sublayer.weight = orthogonal
                          ? orthogonal_weight(s.d_model, s.gain, rng)
                          : random_matrix(s.d_model, s.d_model, rng, 0.0, std::sqrt(s.gain / d));
    engine::linear_forward(projected, plain, sublayer);
    plain = projected;
    plain_variance.push_back(engine::activation_stats(plain).variance);
    engine::linear_forward(projected, normalized, sublayer);
    norm_input_variance.push_back(engine::activation_stats(projected).variance);
    engine::layernorm_forward(normalized, mean, rstd, projected, norm, layer_norm_eps);
    normalized_variance.push_back(engine::activation_stats(normalized).variance);
  }

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
    result.set(fmt::format("variance_no_norm_{}", layer), at(plain_variance, layer));
  for (const std::int64_t layer : milestones)
    result.set(fmt::format("variance_ideal_{}", layer), std::pow(s.gain, as_double(layer)));
  for (const std::int64_t layer : milestones)
    result.set(fmt::format("variance_layernorm_{}", layer), at(normalized_variance, layer));
  // After each layer (the input, entry 0, is left out) and what each LayerNorm received.
  const auto [ln_low, ln_high] =
      std::minmax_element(normalized_variance.begin() + 1, normalized_variance.end());
  const auto [drift_low, drift_high] =
      std::minmax_element(norm_input_variance.begin(), norm_input_variance.end());
  const double ln_min = *ln_low, ln_max = *ln_high, drift_min = *drift_low, drift_max = *drift_high;
  const double last = plain_variance.back();
  const double ideal_last = std::pow(s.gain, as_double(s.layers));
  result.set("variance_layernorm_min", ln_min);
  result.set("variance_layernorm_max", ln_max);
  result.set("layernorm_input_variance_min", drift_min);
  result.set("layernorm_input_variance_max", drift_max);
  result.set("variance_input", plain_variance.front());
  result.set("no_norm_over_ideal_last", last / ideal_last);
  result.set("log10_variance_no_norm_last", std::log10(last));

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
                  map_text, counted(s.seq_len, "token", "tokens"), s.d_model),
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

// ============================================================================================
// residual-gradient: the gradient reaching each block with and without residual connections
// ============================================================================================

struct ResidualGradientSettings {
  std::int64_t layers = 24;   // transformer blocks
  std::int64_t d_model = 32;  // embedding width E
  std::int64_t heads = 4;     // attention heads
  std::int64_t d_ff = 64;     // feed-forward width F
  std::int64_t seq_len = 16;  // tokens
};

// One stack's forward and backward pass.
struct GradientTrace {
  std::vector<double> input_grad;  // ‖∂loss/∂(block l's input)‖, l = 1 … L
  std::vector<double> variance;    // activation variance after each block
};

GradientTrace trace_stack(const engine::StackParams<double>& blocks,
                          const engine::StackConfig& config, const Mat& input,
                          const Mat& grad_output) {
  Mat output, grad_input;
  engine::StackCache<double> cache;
  engine::stack_forward(output, cache, input, blocks, config);
  engine::StackGrads<double> grads;
  engine::stack_backward(grad_input, grads, grad_output, input, blocks, cache, config);
  GradientTrace trace;
  for (const Mat& grad : grads.layer_input_grads)
    trace.input_grad.push_back(grad.norm());
  for (const engine::ActivationStats& stats : engine::layer_output_stats(cache))
    trace.variance.push_back(stats.variance);
  return trace;
}

// Largest over smallest of the positive values (a gradient that died is exactly 0; 1 if all are).
double max_over_min(const std::vector<double>& values) {
  double low = 0.0, high = 0.0;
  for (const double value : values) {
    if (value <= 0.0) continue;
    low = low == 0.0 ? value : std::min(low, value);
    high = std::max(high, value);
  }
  return low > 0.0 ? high / low : 1.0;
}

DemoResult run_residual_gradient(const Params& params, std::uint64_t seed) {
  const std::string demo = "residual-gradient";
  const ResidualGradientSettings s{params.integer("layers"), params.integer("d_model"),
                                   params.integer("heads"), params.integer("d_ff"),
                                   params.integer("seq_len")};
  check_heads(demo, s.heads, s.d_model);
  check_work(demo, 4.0 * as_double(s.layers) * block_work(s.seq_len, s.d_model, s.d_ff),
             fmt::format("layers={}, d_model={}, d_ff={} and seq_len={}", s.layers, s.d_model,
                         s.d_ff, s.seq_len));

  // One set of Xavier weights serves all four stacks: only the wiring differs.
  engine::Rng rng(seed);
  engine::StackConfig config =
      stack_config(s.layers, s.d_model, s.heads, s.d_ff, engine::NormPlacement::pre);
  engine::StackParams<double> blocks(config);
  engine::init_xavier(blocks, rng);
  const Mat input = random_matrix(s.seq_len, s.d_model, rng, 0.0, 1.0);
  // loss = Σ G ∘ output for a fixed random G: the gradient entering the top is G itself.
  const Mat grad_output = random_matrix(s.seq_len, s.d_model, rng, 0.0, 1.0);

  struct Wiring {
    std::string label;
    engine::NormPlacement norm;
    bool residual;
  };
  const std::vector<Wiring> wirings = {
      {"no norm, residual", engine::NormPlacement::none, true},
      {"no norm, no residual", engine::NormPlacement::none, false},
      {"Pre-LN, residual", engine::NormPlacement::pre, true},
      {"Pre-LN, no residual", engine::NormPlacement::pre, false},
  };
  std::vector<GradientTrace> traces;
  for (const Wiring& wiring : wirings) {
    config = stack_config(s.layers, s.d_model, s.heads, s.d_ff, wiring.norm);
    config.layer.residual = wiring.residual;
    traces.push_back(trace_stack(blocks, config, input, grad_output));
  }
  const GradientTrace& residual = traces[0];
  const GradientTrace& plain = traces[1];
  const GradientTrace& pre_residual = traces[2];
  const GradientTrace& pre_plain = traces[3];

  const double output_grad = grad_output.norm();
  const double layer_count = as_double(s.layers);
  DemoResult result;
  result.set("output_grad", output_grad);
  result.set("first_layer_grad_residual", residual.input_grad.front());
  result.set("first_layer_grad_no_residual", plain.input_grad.front());
  result.set("last_layer_grad_residual", residual.input_grad.back());
  result.set("last_layer_grad_no_residual", plain.input_grad.back());
  result.set("no_residual_over_residual", plain.input_grad.front() / residual.input_grad.front());
  result.set("first_over_output_residual", residual.input_grad.front() / output_grad);
  result.set("first_over_output_no_residual", plain.input_grad.front() / output_grad);
  // The geometric mean of one block's factor; 0 once the gradient has underflowed to 0.
  const double shrink_per_layer =
      s.layers == 1 ? 1.0
      : plain.input_grad.front() > 0.0 && plain.input_grad.back() > 0.0
          ? std::pow(plain.input_grad.front() / plain.input_grad.back(), 1.0 / (layer_count - 1.0))
          : 0.0;
  result.set("no_residual_shrink_per_layer", shrink_per_layer);
  result.set("final_variance_residual", residual.variance.back());
  result.set("final_variance_no_residual", plain.variance.back());
  result.set("first_layer_grad_residual_pre_ln", pre_residual.input_grad.front());
  result.set("first_layer_grad_no_residual_pre_ln", pre_plain.input_grad.front());
  result.set("first_over_output_residual_pre_ln", pre_residual.input_grad.front() / output_grad);
  result.set("first_over_output_no_residual_pre_ln", pre_plain.input_grad.front() / output_grad);
  result.set("grad_spread_residual_pre_ln", max_over_min(pre_residual.input_grad));
  result.set("grad_spread_no_residual_pre_ln", max_over_min(pre_plain.input_grad));

  Series gradients{"grad_per_layer",
                   "gradient norm reaching each block's input",
                   "block",
                   "‖∂loss/∂input‖",
                   count_up(1, s.layers),
                   {},
                   true};
  Mat table(static_cast<Index>(wirings.size()), 4);
  std::vector<std::string> rows;
  for (std::size_t i = 0; i < wirings.size(); ++i) {
    gradients.lines.emplace_back(wirings[i].label, traces[i].input_grad);
    const auto row = static_cast<Index>(i);
    table(row, 0) = traces[i].input_grad.back();
    table(row, 1) = traces[i].input_grad.front();
    table(row, 2) = traces[i].input_grad.front() / output_grad;
    table(row, 3) = traces[i].variance.back();
    rows.push_back(wirings[i].label);
  }
  result.series.push_back(std::move(gradients));
  result.tables.push_back(Table{
      "gradient_summary",
      fmt::format("gradient entering the top: {}", text::format_short(output_grad)),
      rows,
      {fmt::format("at block {}", s.layers), "at block 1", "block 1 / top", "output variance"},
      table,
      false});

  result.text = {
      fmt::format("{} (d_model {}, {}, feed-forward {}, ReLU) with "
                  "Xavier weights and no training, on {} random tokens. A loss Σ G∘output with a "
                  "fixed random G sends the same gradient (norm {}) into the top of four stacks "
                  "that share every weight and differ only in wiring: with or without residual "
                  "connections, with no normalization or with Pre-LN.",
                  counted(s.layers, "transformer block", "transformer blocks"), s.d_model,
                  counted(s.heads, "head", "heads"), s.d_ff, s.seq_len,
                  text::format_short(output_grad)),
      fmt::format("Without residual connections (and no normalization) the gradient has to pass "
                  "back through every weight matrix and nonlinearity: it shrinks by about ×{:.2f} "
                  "per block and reaches block 1 {}. With output = Layer(x) + x the identity path "
                  "carries it down instead: block 1 receives {}.",
                  shrink_per_layer,
                  plain.input_grad.front() > 0.0
                      ? fmt::format("at {}, {} times less than entered the top",
                                    text::format_short(plain.input_grad.front()),
                                    text::format_short(output_grad / plain.input_grad.front()))
                      : std::string("as exactly 0: it fell below the smallest double"),
                  text::format_short(residual.input_grad.front())),
      fmt::format("{} With Pre-LN as well, the residual stack delivers {} to block 1{} — the "
                  "lesson's \"combined with residual connections — keeps very deep stacks "
                  "trainable\".",
                  residual.input_grad.front() > 10.0 * output_grad
                      ? fmt::format("The residual stack without normalization errs the other "
                                    "way: every block adds its output to the stream, so the "
                                    "activation variance grows to {} and the gradient with it.",
                                    text::format_short(residual.variance.back()))
                      : fmt::format("Without normalization the residual stream's variance still "
                                    "grows, to {} here.",
                                    text::format_short(residual.variance.back())),
                  text::format_short(pre_residual.input_grad.front()),
                  s.layers == 1 ? std::string(", its only block: --set layers=20 shows the depth "
                                              "where the difference grows")
                                : fmt::format(" and stays within a factor of {:.1f} across all {} "
                                              "blocks",
                                              max_over_min(pre_residual.input_grad), s.layers)),
      pre_plain.input_grad.front() > 0.0
          ? fmt::format("LayerNorm without residuals rescales every block's input, so at "
                        "initialization this stack's gradient {} ({} at block 1){}. Each fix "
                        "covers one angle; transformers use both.",
                        pre_plain.input_grad.front() > 0.01 * output_grad ? "does not collapse"
                                                                          : "shrinks too",
                        text::format_short(pre_plain.input_grad.front()),
                        s.layers == 1
                            ? std::string()
                            : fmt::format(", but it wanders by a factor of {} from block to "
                                          "block with no direct path to steady it",
                                          text::format_short(max_over_min(pre_plain.input_grad))))
          : std::string("LayerNorm without residuals does not save this stack: its gradient "
                        "dies out entirely (exactly 0 at block 1) with no direct path around the "
                        "blocks. Each fix covers one angle; transformers use both.")};
  return result;
}

// ============================================================================================
// pre-vs-post-ln: the FFN output weight's gradient per layer (Xiong et al. 2020's setup)
// ============================================================================================

struct PreVsPostSettings {
  std::vector<std::int64_t> depths{6, 12, 24};  // stack depths L compared
  std::int64_t d_model = 64;                    // embedding width E
  std::int64_t heads = 4;                       // attention heads
  std::int64_t d_ff = 128;                      // feed-forward width F
  std::int64_t seq_len = 16;                    // tokens
  bool zero_qk = true;      // Wq = Wk = 0: uniform attention, as in Xiong et al.'s analysis
  std::int64_t trials = 1;  // independent networks, averaged as a root mean square
};

DemoResult run_pre_vs_post_ln(const Params& params, std::uint64_t seed) {
  const std::string demo = "pre-vs-post-ln";
  const PreVsPostSettings s{distinct_sorted(demo, "depths", params.integers("depths")),
                            params.integer("d_model"),
                            params.integer("heads"),
                            params.integer("d_ff"),
                            params.integer("seq_len"),
                            params.flag("zero_qk"),
                            params.integer("trials")};
  check_heads(demo, s.heads, s.d_model);
  std::int64_t total_layers = 0;
  for (const std::int64_t depth : s.depths)
    total_layers += depth;
  check_work(demo,
             2.0 * as_double(s.trials * total_layers) * block_work(s.seq_len, s.d_model, s.d_ff),
             fmt::format("depths with {} layers in all, trials={}, d_model={}, d_ff={} and "
                         "seq_len={}",
                         total_layers, s.trials, s.d_model, s.d_ff, s.seq_len));

  const std::size_t depth_count = s.depths.size();
  // Squared gradient norms of linear2.weight, summed over trials: [depth][layer].
  std::vector<std::vector<double>> post_squares(depth_count), pre_squares(depth_count);
  // Pre-LN's residual stream: variance of the last block's output, before the final LayerNorm.
  std::vector<double> stream_variance(depth_count, 0.0);
  for (std::size_t i = 0; i < depth_count; ++i) {
    post_squares[i].assign(static_cast<std::size_t>(s.depths[i]), 0.0);
    pre_squares[i].assign(static_cast<std::size_t>(s.depths[i]), 0.0);
  }
  engine::Rng rng(seed);
  Mat output, grad_input;
  engine::StackCache<double> cache;
  engine::StackGrads<double> grads;
  for (std::int64_t trial = 0; trial < s.trials; ++trial) {
    // A shallower stack is the first L blocks of the deepest: the depths run deepest first and
    // the stack drops its top blocks in between. Both placements use the same weights, input and
    // loss, so only where LayerNorm sits differs.
    engine::StackParams<double> blocks(
        stack_config(s.depths.back(), s.d_model, s.heads, s.d_ff, engine::NormPlacement::pre));
    engine::init_xavier(blocks, rng);
    if (s.zero_qk) {
      for (auto& block : blocks.layers)
        block.self_attn.in_proj.weight.topRows(2 * s.d_model).setZero();
    }
    const Mat input = random_matrix(s.seq_len, s.d_model, rng, 0.0, 1.0);
    // loss = Σ G ∘ output for a fixed random G: the gradient entering the top is G itself.
    const Mat grad_output = random_matrix(s.seq_len, s.d_model, rng, 0.0, 1.0);
    for (std::size_t i = depth_count; i-- > 0;) {
      blocks.layers.erase(blocks.layers.begin() + s.depths[i], blocks.layers.end());
      for (const engine::NormPlacement placement :
           {engine::NormPlacement::post, engine::NormPlacement::pre}) {
        // Post-LN has no final LayerNorm; the blocks' own norms serve both placements.
        const engine::StackConfig config =
            stack_config(s.depths[i], s.d_model, s.heads, s.d_ff, placement);
        engine::stack_forward(output, cache, input, blocks, config);
        engine::stack_backward(grad_input, grads, grad_output, input, blocks, cache, config);
        if (placement == engine::NormPlacement::pre)
          stream_variance[i] += engine::activation_stats(cache.layer_inputs.back()).variance;
        std::vector<double>& squares =
            placement == engine::NormPlacement::post ? post_squares[i] : pre_squares[i];
        for (std::size_t layer = 0; layer < squares.size(); ++layer)
          squares[layer] += grads.params.layers[layer].feedforward.linear2.weight.squaredNorm();
      }
    }
  }
  const auto root_mean = [&](const std::vector<double>& squares) {
    std::vector<double> norms;
    for (const double square : squares)
      norms.push_back(std::sqrt(square / as_double(s.trials)));
    return norms;
  };

  DemoResult result;
  std::vector<double> post_last, pre_last, post_ratio, pre_ratio;
  double post_spread = 0.0;  // the largest max/min of a Post-LN profile
  Mat table(static_cast<Index>(depth_count), 6);
  std::vector<std::string> rows;
  for (std::size_t i = 0; i < depth_count; ++i) {
    const std::vector<double> post = root_mean(post_squares[i]);
    const std::vector<double> pre = root_mean(pre_squares[i]);
    const std::int64_t depth = s.depths[i];
    post_last.push_back(post.back());
    pre_last.push_back(pre.back());
    post_ratio.push_back(post.back() / post.front());
    pre_ratio.push_back(pre.back() / pre.front());
    result.set(fmt::format("post_last_over_first_L{}", depth), post_ratio.back());
    result.set(fmt::format("pre_last_over_first_L{}", depth), pre_ratio.back());
    result.set(fmt::format("post_last_L{}", depth), post.back());
    result.set(fmt::format("pre_last_L{}", depth), pre.back());
    result.set(fmt::format("post_first_L{}", depth), post.front());
    result.set(fmt::format("pre_first_L{}", depth), pre.front());
    result.set(fmt::format("post_over_pre_last_L{}", depth), post.back() / pre.back());
    result.set(fmt::format("pre_stream_variance_L{}", depth),
               stream_variance[i] / as_double(s.trials));
    post_spread = std::max(post_spread, max_over_min(post));
    result.series.push_back(Series{fmt::format("grad_profile_L{}", depth),
                                   fmt::format("‖∂loss/∂linear2.weight‖ per layer, L = {}", depth),
                                   "layer",
                                   "gradient norm",
                                   count_up(1, depth),
                                   {{"Post-LN", post}, {"Pre-LN", pre}},
                                   false});
    const auto row = static_cast<Index>(i);
    table.row(row) << post.front(), post.back(), post_ratio.back(), pre.front(), pre.back(),
        pre_ratio.back();
    rows.push_back(fmt::format("L = {}", depth));
  }
  bool post_ratio_above_pre = true, pre_last_decreasing = true, pre_falls = true;
  for (std::size_t i = 0; i < depth_count; ++i) {
    post_ratio_above_pre = post_ratio_above_pre && post_ratio[i] > pre_ratio[i];
    pre_falls = pre_falls && pre_ratio[i] < 1.0;
    if (i > 0) pre_last_decreasing = pre_last_decreasing && pre_last[i] < pre_last[i - 1];
  }
  result.set("post_ratio_above_pre", post_ratio_above_pre);
  result.set("pre_last_decreasing", pre_last_decreasing);
  result.set("post_last_max_over_min", max_over_min(post_last));
  result.set("pre_last_shallow_over_deep", pre_last.front() / pre_last.back());

  std::vector<double> depth_axis;
  for (const std::int64_t depth : s.depths)
    depth_axis.push_back(as_double(depth));
  result.series.push_back(Series{"last_layer_grad_vs_depth",
                                 "the last layer's ‖∂loss/∂linear2.weight‖ as depth grows",
                                 "depth L",
                                 "gradient norm",
                                 depth_axis,
                                 {{"Post-LN", post_last}, {"Pre-LN", pre_last}},
                                 false});
  result.tables.push_back(
      Table{"first_and_last_layer",
            "‖∂loss/∂linear2.weight‖ of the first and the last layer; "
            "ratio = last / first",
            rows,
            {"Post first", "Post last", "Post ratio", "Pre first", "Pre last", "Pre ratio"},
            table,
            false});

  const auto listed = [](const std::vector<double>& values) {
    std::vector<std::string> parts;
    for (const double value : values)
      parts.push_back(text::format_short(value));
    return fmt::format("{}", fmt::join(parts, ", "));
  };
  std::vector<double> post_over_pre;
  for (std::size_t i = 0; i < depth_count; ++i)
    post_over_pre.push_back(post_last[i] / pre_last[i]);
  const std::string depth_list = fmt::format("{}", fmt::join(s.depths, ", "));
  std::vector<double> stream_variances;
  for (const double sum : stream_variance)
    stream_variances.push_back(sum / as_double(s.trials));
  const bool one_depth = s.depths.size() == 1;
  const std::string averaged =
      s.trials == 1 ? "one network"
                    : fmt::format("the root mean square over {} independent networks", s.trials);
  result.text = {
      fmt::format("Xiong et al. 2020's setup at initialization: Xavier weights{}, a ReLU "
                  "feed-forward sublayer, a final LayerNorm for Pre-LN; d_model {}, feed-forward "
                  "{}, {} tokens, loss Σ G∘output for a fixed random G. The stacks of {} layers "
                  "share their first blocks, input and loss, so only where LayerNorm sits "
                  "differs. Shown: the gradient norm of each layer's FFN output weight "
                  "(linear2.weight), from {}.",
                  s.zero_qk ? ", Wq = Wk = 0 (uniform attention)" : "", s.d_model, s.d_ff,
                  s.seq_len, depth_list, averaged),
      one_depth
          ? fmt::format("Pre-LN: {} (last/first {} at L = {}); the last layer's gradient is {}, "
                        "and the residual stream's variance before the final LayerNorm {}, which "
                        "that LayerNorm divides the gradient by: Xiong et al.'s O(d·√(ln d / L)). "
                        "One depth shows no trend with depth; --set depths=3,6,12,24 compares "
                        "several.",
                        pre_falls ? "no growth toward the output — the profile falls from first "
                                    "to last layer"
                                  : "the profile does not fall in this draw",
                        listed(pre_ratio), depth_list, listed(pre_last),
                        "is " + listed(stream_variances))
          : fmt::format("Pre-LN: {} (last/first {} at L = {}), and the last layer's gradient {} "
                        "as the stack deepens ({}). The residual stream's variance grows with "
                        "depth ({} before the final LayerNorm), and that LayerNorm divides the "
                        "gradient by its scale: Xiong et al.'s O(d·√(ln d / L)).",
                        pre_falls ? "no growth toward the output — the profile falls from first "
                                    "to last layer"
                                  : "the profile does not fall at every depth in this draw",
                        listed(pre_ratio), depth_list,
                        pre_last_decreasing ? "shrinks" : "does not shrink steadily",
                        listed(pre_last), listed(stream_variances)),
      fmt::format(
          "Post-LN: the last layer's gradient {}; Xiong et al.'s O(d·√ln d), "
          "independent of L), so near the output Post-LN's gradients are {} times "
          "Pre-LN's — the large gradients near the output that Xiong et al. hold "
          "responsible for Post-LN's need of a learning-rate warm-up. Its last/first "
          "ratio ({}) is {} Pre-LN's{}.",
          one_depth ? "is " + listed(post_last) + " (at one depth"
          : max_over_min(post_last) < 1.5
              ? "stays about the same as the stack deepens (" + listed(post_last)
              : "changes with depth but does not shrink like Pre-LN's (" + listed(post_last),
          listed(post_over_pre), listed(post_ratio), post_ratio_above_pre ? "above" : "not above",
          one_depth ? "" : " at every depth"),
      s.trials == 1
          ? fmt::format("Post-LN's profile changes a lot from one network to the next{}: they "
                        "reach the lower layers only through a LayerNorm on every residual path. "
                        "--set trials=16 averages 16 networks to show the typical shape. Pre-LN's "
                        "falling profile comes out the same draw after draw.",
                        post_spread < 1.05
                            ? ""
                            : fmt::format(" (here its per-layer gradients span a factor of up "
                                          "to {})",
                                          text::format_short(post_spread)))
          : fmt::format("These are root-mean-square gradients over {} networks; single Post-LN "
                        "networks scatter far more widely (try trials=1 with a few seeds), while "
                        "Pre-LN's falling profile comes out the same draw after draw.",
                        s.trials)};
  return result;
}

// ============================================================================================
// sqrt-dk-scaling: softmax saturation as the head width grows, with and without 1/√d_k
// ============================================================================================

struct SqrtDkSettings {
  std::vector<std::int64_t> head_dims{4, 8, 16, 32, 64, 128, 256, 512};  // d_k values compared
  std::int64_t seq_len = 16;  // queries and keys per draw
  std::int64_t trials = 8;    // independent draws of q and k, averaged
};

// Averages over every query row of every draw.
struct SoftmaxStats {
  double max_weight = 0.0;  // largest attention weight of a row
  double entropy = 0.0;     // −Σ p·ln p of a row, in nats
  double jacobian = 0.0;  // ‖diag(p) − p·pᵀ‖_F: how much the row still responds to scores
  double score_variance = 0.0;
  Vec sorted;  // the row's weights, largest first
};

void accumulate_rows(SoftmaxStats& stats, const Mat& probs) {
  for (Index row = 0; row < probs.rows(); ++row) {
    const auto p = probs.row(row).array();
    stats.max_weight += p.maxCoeff();
    double entropy = 0.0;
    for (Index key = 0; key < p.size(); ++key) {
      if (p(key) > 0.0) entropy -= p(key) * std::log(p(key));
    }
    stats.entropy += entropy;
    // ‖diag(p) − p·pᵀ‖²_F = Σ p_i²(1 − p_i)² + (Σ p_i²)² − Σ p_i⁴
    const double sum_squares = p.square().sum();
    const double jacobian_squared = (p.square() * (1.0 - p).square()).sum() +
                                    sum_squares * sum_squares - p.square().square().sum();
    stats.jacobian += std::sqrt(std::max(jacobian_squared, 0.0));
    Vec weights = p.matrix().transpose();
    std::sort(weights.begin(), weights.end(), std::greater<>());
    if (stats.sorted.size() == 0) stats.sorted = Vec::Zero(weights.size());
    stats.sorted += weights;
  }
}

DemoResult run_sqrt_dk_scaling(const Params& params, std::uint64_t seed) {
  const std::string demo = "sqrt-dk-scaling";
  const SqrtDkSettings s{distinct_sorted(demo, "d_k", params.integers("d_k")),
                         params.integer("seq_len"), params.integer("trials")};
  std::int64_t width_sum = 0;
  for (const std::int64_t d_k : s.head_dims)
    width_sum += d_k;
  const double tokens = as_double(s.seq_len);
  check_work(demo, 2.0 * as_double(s.trials * width_sum) * tokens * tokens,
             fmt::format("d_k values summing to {} with seq_len={} and trials={}", width_sum,
                         s.seq_len, s.trials));

  engine::Rng rng(seed);
  const Mat identity = Mat::Identity(s.seq_len, s.seq_len);  // value = I: the output is P itself
  const double rows = as_double(s.trials) * tokens;
  std::vector<double> max_scaled, max_unscaled, entropy_scaled, entropy_unscaled, jacobian_scaled,
      jacobian_unscaled;
  // Mean weights by rank (largest first) for each d_k, the top `ranks` of them.
  const Index ranks = std::min<Index>(s.seq_len, 8);
  const auto width_count = static_cast<Index>(s.head_dims.size());
  Mat ranked_scaled(width_count, ranks), ranked_unscaled(width_count, ranks);
  DemoResult result;
  for (const std::int64_t d_k : s.head_dims) {
    SoftmaxStats scaled, unscaled;
    for (std::int64_t trial = 0; trial < s.trials; ++trial) {
      // Unit-variance entries: each q·k is a sum of d_k unit-variance products.
      const Mat query = random_matrix(s.seq_len, d_k, rng, 0.0, 1.0);
      const Mat key = random_matrix(s.seq_len, d_k, rng, 0.0, 1.0);
      const Mat scores = query * key.transpose();
      unscaled.score_variance += engine::activation_stats(scores).variance;
      for (const bool scale : {true, false}) {
        engine::AttentionOptions options;
        options.scaled = scale;
        Mat output(s.seq_len, s.seq_len), probs;
        engine::attention_forward<double>(output, probs, query, key, identity, options);
        accumulate_rows(scale ? scaled : unscaled, probs);
      }
    }
    const double score_std = std::sqrt(unscaled.score_variance / as_double(s.trials));
    const auto width_row = static_cast<Index>(max_scaled.size());
    ranked_scaled.row(width_row) = scaled.sorted.head(ranks).transpose() / rows;
    ranked_unscaled.row(width_row) = unscaled.sorted.head(ranks).transpose() / rows;
    max_scaled.push_back(scaled.max_weight / rows);
    max_unscaled.push_back(unscaled.max_weight / rows);
    entropy_scaled.push_back(scaled.entropy / rows);
    entropy_unscaled.push_back(unscaled.entropy / rows);
    jacobian_scaled.push_back(scaled.jacobian / rows);
    jacobian_unscaled.push_back(unscaled.jacobian / rows);
    result.set(fmt::format("score_std_unscaled_dk{}", d_k), score_std);
    result.set(fmt::format("score_std_scaled_dk{}", d_k), score_std / std::sqrt(as_double(d_k)));
    result.set(fmt::format("max_weight_scaled_dk{}", d_k), max_scaled.back());
    result.set(fmt::format("max_weight_unscaled_dk{}", d_k), max_unscaled.back());
    result.set(fmt::format("entropy_scaled_dk{}", d_k), entropy_scaled.back());
    result.set(fmt::format("entropy_unscaled_dk{}", d_k), entropy_unscaled.back());
    result.set(fmt::format("softmax_grad_scaled_dk{}", d_k), jacobian_scaled.back());
    result.set(fmt::format("softmax_grad_unscaled_dk{}", d_k), jacobian_unscaled.back());
  }
  const double uniform_entropy = std::log(tokens);
  result.set("uniform_entropy", uniform_entropy);
  result.set("uniform_weight", 1.0 / tokens);

  std::vector<double> widths;
  for (const std::int64_t d_k : s.head_dims)
    widths.push_back(as_double(d_k));
  result.series.push_back(Series{"max_weight",
                                 "largest attention weight of a query (mean)",
                                 "d_k",
                                 "max weight",
                                 widths,
                                 {{"÷√d_k", max_scaled}, {"unscaled", max_unscaled}},
                                 false});
  result.series.push_back(
      Series{"entropy",
             "attention entropy of a query (mean, nats)",
             "d_k",
             "entropy",
             widths,
             {{"÷√d_k", entropy_scaled},
              {"unscaled", entropy_unscaled},
              {"uniform (ln T)", std::vector<double>(widths.size(), uniform_entropy)}},
             false});
  const std::int64_t widest = s.head_dims.back();
  std::vector<std::string> rows_labels, rank_labels;
  for (const std::int64_t d_k : s.head_dims)
    rows_labels.push_back(fmt::format("d_k = {}", d_k));
  for (Index rank = 1; rank <= ranks; ++rank)
    rank_labels.push_back(fmt::format("#{}", rank));
  result.tables.push_back(Table{"ranked_weights_scaled",
                                "÷√d_k: a query's weights, largest first (mean)", rows_labels,
                                rank_labels, ranked_scaled, true});
  result.tables.push_back(Table{"ranked_weights_unscaled",
                                "unscaled: a query's weights, largest first (mean)", rows_labels,
                                rank_labels, ranked_unscaled, true});
  Mat summary(width_count, 4);
  for (Index i = 0; i < width_count; ++i) {
    const auto at = static_cast<std::size_t>(i);
    summary.row(i) << max_scaled[at], max_unscaled[at], entropy_scaled[at], entropy_unscaled[at];
  }
  result.tables.push_back(Table{"saturation",
                                "mean over queries: largest weight and entropy (nats)",
                                rows_labels,
                                {"max ÷√d_k", "max unscaled", "entropy ÷√d_k", "entropy unscaled"},
                                summary,
                                false});

  const std::string first = std::to_string(s.head_dims.front());
  const std::string last = std::to_string(widest);
  const auto shown = [](double x) { return text::format_short(x); };
  const auto lowest = [](const std::vector<double>& v) {
    return *std::min_element(v.begin(), v.end());
  };
  const auto highest = [](const std::vector<double>& v) {
    return *std::max_element(v.begin(), v.end());
  };
  const bool one_width = s.head_dims.size() == 1;
  result.text = {
      fmt::format("For each d_k, {} queries and {} keys with independent unit-variance entries "
                  "({}): a dot product q·k sums d_k unit-variance products, so its standard "
                  "deviation grows like √d_k — {} at d_k = {}. Dividing by √d_k brings it back to "
                  "about 1 at every width.",
                  s.seq_len, s.seq_len, counted(s.trials, "draw", "draws"),
                  shown(result.find("score_std_unscaled_dk" + last)->number), last),
      one_width
          ? fmt::format("Unscaled, the softmax saturates as d_k grows: at d_k = {} the largest "
                        "weight is {} and the entropy {} nats, and ‖∂softmax/∂scores‖ is {}. One "
                        "width shows no growth; --set d_k=16,64,256,1024 compares several.",
                        first, shown(max_unscaled.front()), shown(entropy_unscaled.front()),
                        shown(jacobian_unscaled.front()))
          : fmt::format(
                "Unscaled, the softmax saturates as d_k grows: the largest weight climbs "
                "from {} at d_k = {} to {} at {}, and the entropy falls from {} to {} "
                "nats — each query puts almost all its weight on one key, and the softmax "
                "stops responding to its scores (‖∂softmax/∂scores‖ {}), so little "
                "gradient gets through.",
                shown(max_unscaled.front()), first, shown(max_unscaled.back()), last,
                shown(entropy_unscaled.front()), shown(entropy_unscaled.back()),
                span_arrow(shown(jacobian_unscaled.front()), shown(jacobian_unscaled.back()))),
      fmt::format(
          "Scaled, {}: the largest weight {} and the entropy {} nats (uniform attention "
          "would be {} = ln {}).",
          one_width ? "the scores keep unit scale" : "the width hardly matters",
          one_width
              ? "is " + shown(max_scaled.front())
              : "stays " + span_between(shown(lowest(max_scaled)), shown(highest(max_scaled))),
          one_width ? "is " + shown(entropy_scaled.front())
                    : span_between(shown(lowest(entropy_scaled)), shown(highest(entropy_scaled))),
          shown(uniform_entropy), s.seq_len),
      "That is the 1/√dₖ in softmax(QKᵀ/√dₖ)·V, the scaled dot-product attention each head "
      "runs: it keeps the scores' scale independent of the head width."};
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
      run_variance_drift};
}

DemoInfo residual_gradient_demo() {
  const ResidualGradientSettings defaults;
  return DemoInfo{
      "residual-gradient",
      "Residual connections carry the gradient down a deep stack",
      "Without the residual path a gradient has to flow back through every nonlinearity and "
      "weight matrix, and across dozens of layers it shrinks toward zero.",
      "L2 — Mechanism",
      {integer_param("layers", defaults.layers, 1, 64, "transformer blocks"),
       integer_param("d_model", defaults.d_model, 8, 256, "embedding width"),
       integer_param("heads", defaults.heads, 1, 16, "attention heads (must divide d_model)"),
       integer_param("d_ff", defaults.d_ff, 8, 1024, "feed-forward width"),
       integer_param("seq_len", defaults.seq_len, 2, 64, "tokens")},
      run_residual_gradient};
}

DemoInfo pre_vs_post_ln_demo() {
  const PreVsPostSettings defaults;
  ParamSpec depths = list_param("depths", defaults.depths, 1, 48, "stack depths to compare");
  depths.max_items = 6;
  return DemoInfo{
      "pre-vs-post-ln",
      "Post-LN against Pre-LN: gradients at depth",
      "Post-LN puts normalization on the residual path; Pre-LN leaves the residual addition a "
      "clean gradient path, which keeps gradients well-behaved as layer count grows.",
      "Edge case: Post-LN vs Pre-LN",
      {depths, integer_param("d_model", defaults.d_model, 8, 256, "embedding width"),
       integer_param("heads", defaults.heads, 1, 16, "attention heads (must divide d_model)"),
       integer_param("d_ff", defaults.d_ff, 8, 1024, "feed-forward width"),
       integer_param("seq_len", defaults.seq_len, 2, 64, "tokens"),
       flag_param("zero_qk", defaults.zero_qk, "Wq = Wk = 0 (uniform attention), as Xiong et al."),
       integer_param("trials", defaults.trials, 1, 16, "independent networks averaged")},
      run_pre_vs_post_ln};
}

DemoInfo sqrt_dk_scaling_demo() {
  const SqrtDkSettings defaults;
  ParamSpec head_dims = list_param("d_k", defaults.head_dims, 1, 4096, "head widths to compare");
  head_dims.max_items = 12;
  return DemoInfo{
      "sqrt-dk-scaling",
      "Why attention divides by √d_k",
      "Scaled dot-product attention divides QKᵀ by √dₖ so the softmax does not saturate as the "
      "head width grows.",
      "Prerequisite: scaled dot-product attention",
      {head_dims, integer_param("seq_len", defaults.seq_len, 2, 256, "queries and keys"),
       integer_param("trials", defaults.trials, 1, 64, "independent draws averaged")},
      run_sqrt_dk_scaling};
}

}  // namespace proofdeck::demo
