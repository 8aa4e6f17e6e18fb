// residual-gradient: the gradient reaching each block of a deep stack with and without
// residual connections. Every network is at initialisation (nothing is trained).
#include "demo/demos.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "demo/stack_support.hpp"
#include "engine/rng.hpp"
#include "engine/stack.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

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

// One way of wiring the blocks: their normalization, and whether they add their input back.
struct Wiring {
  std::string label;
  engine::NormPlacement norm;
  bool residual;
};

// The four stacks' passes, and the gradient that entered their top.
struct WiringTraces {
  std::vector<GradientTrace> traces;  // one a wiring, in wiring order
  double output_grad = 0.0;           // ‖G‖
  // Block 1's share of G along the path around the blocks alone (direct_path_share), Pre-LN.
  double direct_path_residual = 0.0, direct_path_no_residual = 0.0;
};

// The path around the blocks alone: every sub-layer's output projection (out_proj, linear2)
// zeroed, so a block adds nothing of its own. Returns block 1's gradient norm over the top's in
// the Pre-LN stack: 1 when an identity path carries the gradient down untouched, 0 with none.
double direct_path_share(const engine::StackParams<double>& blocks,
                         const ResidualGradientSettings& s, bool residual, const Mat& input,
                         const Mat& grad_output) {
  engine::StackParams<double> silent = blocks;
  for (auto& block : silent.layers) {
    for (engine::LinearParams<double>* sublayer_out :
         {&block.self_attn.out_proj, &block.feedforward.linear2}) {
      sublayer_out->weight.setZero();
      sublayer_out->bias.setZero();
    }
  }
  engine::StackConfig config =
      stack_config(s.layers, s.d_model, s.heads, s.d_ff, engine::NormPlacement::pre);
  config.layer.residual = residual;
  config.final_norm = false;  // the path between the blocks, not the stack's last LayerNorm
  silent.final_norm = engine::NormParams<double>();
  return trace_stack(silent, config, input, grad_output).input_grad.front() / grad_output.norm();
}

// One set of Xavier weights serves all four stacks: only the wiring differs.
WiringTraces trace_wirings(const ResidualGradientSettings& s, const std::vector<Wiring>& wirings,
                           std::uint64_t seed) {
  engine::Rng rng(seed);
  engine::StackConfig config =
      stack_config(s.layers, s.d_model, s.heads, s.d_ff, engine::NormPlacement::pre);
  engine::StackParams<double> blocks(config);
  engine::init_xavier(blocks, rng);
  const Mat input = random_matrix(s.seq_len, s.d_model, rng, 0.0, 1.0);
  // loss = Σ G ∘ output for a fixed random G: the gradient entering the top is G itself.
  const Mat grad_output = random_matrix(s.seq_len, s.d_model, rng, 0.0, 1.0);
  WiringTraces runs;
  for (const Wiring& wiring : wirings) {
    config = stack_config(s.layers, s.d_model, s.heads, s.d_ff, wiring.norm);
    config.layer.residual = wiring.residual;
    runs.traces.push_back(trace_stack(blocks, config, input, grad_output));
  }
  runs.output_grad = grad_output.norm();
  runs.direct_path_residual = direct_path_share(blocks, s, true, input, grad_output);
  runs.direct_path_no_residual = direct_path_share(blocks, s, false, input, grad_output);
  return runs;
}

// The gradient at the first and last block of each stack, and how fast the plain one shrinks.
// Returns that shrink per block.
double report_gradients(DemoResult& result, const ResidualGradientSettings& s,
                        const WiringTraces& runs) {
  const GradientTrace& residual = runs.traces[0];
  const GradientTrace& plain = runs.traces[1];
  const GradientTrace& pre_residual = runs.traces[2];
  const GradientTrace& pre_plain = runs.traces[3];
  const double output_grad = runs.output_grad;
  const double layer_count = as_double(s.layers);
  // Each wiring in words, ending the labels of its values.
  const std::string residual_words = ", with residuals, no normalization";
  const std::string plain_words = ", without residuals, no normalization";
  const std::string pre_residual_words = ", with residuals, Pre-LN";
  const std::string pre_plain_words = ", without residuals, Pre-LN";
  result.set("output_grad", "Gradient norm entering the top of the stack", output_grad,
             Provenance::measured);
  result.set("first_layer_grad_residual", "Gradient norm reaching block 1" + residual_words,
             residual.input_grad.front(), Provenance::measured);
  result.set("first_layer_grad_no_residual", "Gradient norm reaching block 1" + plain_words,
             plain.input_grad.front(), Provenance::measured);
  result.set("last_layer_grad_residual", "Gradient norm reaching the last block" + residual_words,
             residual.input_grad.back(), Provenance::measured);
  result.set("last_layer_grad_no_residual", "Gradient norm reaching the last block" + plain_words,
             plain.input_grad.back(), Provenance::measured);
  result.set("no_residual_over_residual",
             "Block 1's gradient norm without residuals over with them, no normalization",
             plain.input_grad.front() / residual.input_grad.front(), Provenance::measured);
  result.set("first_over_output_residual",
             "Block 1's gradient norm over the top's" + residual_words,
             residual.input_grad.front() / output_grad, Provenance::measured);
  result.set("first_over_output_no_residual",
             "Block 1's gradient norm over the top's" + plain_words,
             plain.input_grad.front() / output_grad, Provenance::measured);
  // The geometric mean of one block's factor; 0 once the gradient has underflowed to 0.
  const double shrink_per_layer =
      s.layers == 1 ? 1.0
      : plain.input_grad.front() > 0.0 && plain.input_grad.back() > 0.0
          ? std::pow(plain.input_grad.front() / plain.input_grad.back(), 1.0 / (layer_count - 1.0))
          : 0.0;
  // One block has no factor between blocks to measure: its 1 is set, not computed.
  const Provenance shrink_kind = s.layers == 1 ? Provenance::derived : Provenance::measured;
  result.set("no_residual_shrink_per_layer", "Per-block gradient factor going down" + plain_words,
             shrink_per_layer, shrink_kind);
  result.set("final_variance_residual", "Activation variance after the last block" + residual_words,
             residual.variance.back(), Provenance::measured);
  result.set("final_variance_no_residual", "Activation variance after the last block" + plain_words,
             plain.variance.back(), Provenance::measured);
  result.set("first_layer_grad_residual_pre_ln",
             "Gradient norm reaching block 1" + pre_residual_words, pre_residual.input_grad.front(),
             Provenance::measured);
  result.set("first_layer_grad_no_residual_pre_ln",
             "Gradient norm reaching block 1" + pre_plain_words, pre_plain.input_grad.front(),
             Provenance::measured);
  result.set("first_over_output_residual_pre_ln",
             "Block 1's gradient norm over the top's" + pre_residual_words,
             pre_residual.input_grad.front() / output_grad, Provenance::measured);
  result.set("first_over_output_no_residual_pre_ln",
             "Block 1's gradient norm over the top's" + pre_plain_words,
             pre_plain.input_grad.front() / output_grad, Provenance::measured);
  const std::string direct_words = "Top gradient's share at block 1, sub-layers zeroed";
  result.set("direct_path_residual_pre_ln", direct_words + pre_residual_words,
             runs.direct_path_residual, Provenance::measured);
  result.set("direct_path_no_residual_pre_ln", direct_words + pre_plain_words,
             runs.direct_path_no_residual, Provenance::measured);
  result.set("grad_spread_residual_pre_ln",
             "Largest over smallest block gradient norm" + pre_residual_words,
             max_over_min(pre_residual.input_grad), Provenance::measured);
  result.set("grad_spread_no_residual_pre_ln",
             "Largest over smallest block gradient norm" + pre_plain_words,
             max_over_min(pre_plain.input_grad), Provenance::measured);
  return shrink_per_layer;
}

// Every stack's gradient per block, and a table of its ends.
void add_gradient_figures(DemoResult& result, const ResidualGradientSettings& s,
                          const std::vector<Wiring>& wirings, const WiringTraces& runs) {
  const double output_grad = runs.output_grad;
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
    gradients.lines.emplace_back(wirings[i].label, runs.traces[i].input_grad);
    const auto row = static_cast<Index>(i);
    table(row, 0) = runs.traces[i].input_grad.back();
    table(row, 1) = runs.traces[i].input_grad.front();
    table(row, 2) = runs.traces[i].input_grad.front() / output_grad;
    table(row, 3) = runs.traces[i].variance.back();
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
}

// The setup, then what each wiring does to the gradient on its way down.
std::vector<std::string> residual_gradient_text(const ResidualGradientSettings& s,
                                                const WiringTraces& runs, double shrink_per_layer) {
  const GradientTrace& residual = runs.traces[0];
  const GradientTrace& plain = runs.traces[1];
  const GradientTrace& pre_residual = runs.traces[2];
  const GradientTrace& pre_plain = runs.traces[3];
  const double output_grad = runs.output_grad;
  return {
      fmt::format("{} (d_model {}, {}, feed-forward {}, ReLU) with "
                  "Xavier weights and no training, on {} random tokens. A loss Σ G∘output with a "
                  "fixed random G sends the same gradient (norm {}) into the top of four stacks "
                  "that share every weight and differ only in wiring: with or without residual "
                  "connections, with no normalization or with Pre-LN.",
                  text::count(s.layers, "transformer block", "transformer blocks"), s.d_model,
                  text::count(s.heads, "head", "heads"), s.d_ff, s.seq_len,
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
                        "blocks. Each fix covers one angle; transformers use both."),
      fmt::format("The direct path itself: with every sub-layer's output projection zeroed, so "
                  "that no block adds anything of its own, block 1 of the Pre-LN stack still gets "
                  "the top gradient times {} with residuals, and times {} without them.",
                  text::format_short(runs.direct_path_residual),
                  text::format_short(runs.direct_path_no_residual))};
}

DemoResult run_residual_gradient(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::string demo = "residual-gradient";
  const ResidualGradientSettings s{params.integer("layers"), params.integer("d_model"),
                                   params.integer("heads"), params.integer("d_ff"),
                                   params.integer("seq_len")};
  check_heads(demo, s.heads, s.d_model);
  check_work(demo, 4.0 * as_double(s.layers) * block_work(s.seq_len, s.d_model, s.d_ff),
             fmt::format("layers={}, d_model={}, d_ff={} and seq_len={}", s.layers, s.d_model,
                         s.d_ff, s.seq_len));
  const std::vector<Wiring> wirings = {
      {"no norm, residual", engine::NormPlacement::none, true},
      {"no norm, no residual", engine::NormPlacement::none, false},
      {"Pre-LN, residual", engine::NormPlacement::pre, true},
      {"Pre-LN, no residual", engine::NormPlacement::pre, false},
  };
  const WiringTraces runs = trace_wirings(s, wirings, seed);
  DemoResult result;
  const double shrink_per_layer = report_gradients(result, s, runs);
  add_gradient_figures(result, s, wirings, runs);
  result.text = residual_gradient_text(s, runs, shrink_per_layer);
  return result;
}

}  // namespace

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
      run_residual_gradient,
      {engine::Op::attention, engine::Op::heads, engine::Op::layernorm, engine::Op::residual,
       engine::Op::final_norm, engine::Op::feedforward, engine::Op::linear}};
}

}  // namespace proofdeck::demo
