// pre-vs-post-ln: the FFN output weight's gradient per layer in Post-LN and Pre-LN stacks
// (Xiong et al. 2020's setup), at initialisation; the residual path with the sublayers switched
// off; and, with warmup_steps, the same measurements after a learning-rate warm-up.
#include "demo/demos.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "demo/demo_support.hpp"
#include "demo/stack_support.hpp"
#include "engine/rng.hpp"
#include "engine/stack.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

struct PreVsPostSettings {
  std::vector<std::int64_t> depths{6, 12, 24};  // stack depths L compared
  std::int64_t d_model = 64;                    // embedding width E
  std::int64_t heads = 4;                       // attention heads
  std::int64_t d_ff = 128;                      // feed-forward width F
  std::int64_t seq_len = 16;                    // tokens
  bool zero_qk = true;            // Wq = Wk = 0: uniform attention, as in Xiong et al.'s analysis
  std::int64_t trials = 1;        // independent networks, averaged as a root mean square
  std::int64_t warmup_steps = 0;  // SGD steps of a linear learning-rate warm-up (0: none)
  double warmup_lr = 1.0;         // the learning rate the warm-up rises to (after clipping)
};

// One placement's stack at the shallowest depth, the one the residual path and the warm-up use.
struct PlacementRun {
  engine::StackConfig config;
  engine::StackParams<double> blocks;
};

// The residual path alone: every sublayer's output projection (out_proj, linear2) zeroed, so a
// block adds nothing and only the path from input to output is left. Returns how far the gradient
// reaching the stack's input is from the one entering its last block, relative to it: 0 when the
// path carries the gradient through untouched.
double residual_path_change(const PlacementRun& run, const Mat& input, const Mat& grad_output) {
  engine::StackParams<double> silent = run.blocks;
  for (auto& block : silent.layers) {
    for (engine::LinearParams<double>* sublayer_out :
         {&block.self_attn.out_proj, &block.feedforward.linear2}) {
      sublayer_out->weight.setZero();
      sublayer_out->bias.setZero();
    }
  }
  engine::StackConfig config = run.config;
  config.final_norm = false;  // the path between the blocks, not the stack's last LayerNorm
  silent.final_norm = engine::NormParams<double>();
  Mat output, grad_input;
  engine::StackCache<double> cache;
  engine::StackGrads<double> grads;
  engine::stack_forward(output, cache, input, silent, config);
  engine::stack_backward(grad_input, grads, grad_output, input, silent, cache, config);
  return (grad_input - grad_output).norm() / grad_output.norm();
}

// loss = ½·‖output − target‖² / T: its gradient and its value.
double regression_loss(Mat& grad_output, const Mat& output, const Mat& target) {
  const Mat error = output - target;
  grad_output = error / as_double(output.rows());
  return 0.5 * error.squaredNorm() / as_double(output.rows());
}

// Gradients are clipped to this total norm before each warm-up step, as transformer training
// does (clip_grad_norm_ at 1.0), so a broken engine's gradients cannot blow the weights up.
constexpr double kMaxGradNorm = 1.0;

// A linear warm-up: step t of n (1-based) takes lr·t/n, after clipping. Returns the loss before the
// first step and after the last.
std::pair<double, double> warm_up(PlacementRun& run, const Mat& input, const Mat& target,
                                  std::int64_t steps, double lr) {
  Mat output, grad_output, grad_input;
  engine::StackCache<double> cache;
  engine::StackGrads<double> grads;
  double first_loss = 0.0;
  for (std::int64_t step = 1; step <= steps; ++step) {
    engine::stack_forward(output, cache, input, run.blocks, run.config);
    const double loss = regression_loss(grad_output, output, target);
    if (step == 1) first_loss = loss;
    engine::stack_backward(grad_input, grads, grad_output, input, run.blocks, cache, run.config);
    engine::clip_grad_norm(grads, kMaxGradNorm);
    engine::sgd_step(run.blocks, grads, lr * as_double(step) / as_double(steps));
  }
  engine::stack_forward(output, cache, input, run.blocks, run.config);
  return {first_loss, regression_loss(grad_output, output, target)};
}

// ‖∂loss/∂linear2.weight‖ of the first and the last block under the probe loss Σ G∘output.
std::pair<double, double> first_and_last_gradient(const PlacementRun& run, const Mat& input,
                                                  const Mat& grad_output) {
  Mat output, grad_input;
  engine::StackCache<double> cache;
  engine::StackGrads<double> grads;
  engine::stack_forward(output, cache, input, run.blocks, run.config);
  engine::stack_backward(grad_input, grads, grad_output, input, run.blocks, cache, run.config);
  return {grads.params.layers.front().feedforward.linear2.weight.norm(),
          grads.params.layers.back().feedforward.linear2.weight.norm()};
}

// What the trials leave: the gradient profiles at every depth, and the last trial's stacks at the
// shallowest depth for the residual path and the warm-up.
struct DepthRuns {
  // Squared gradient norms of linear2.weight, summed over trials: [depth][layer].
  std::vector<std::vector<double>> post_squares, pre_squares;
  // Pre-LN's residual stream: variance of the last block's output, before the final LayerNorm.
  std::vector<double> stream_variance;
  // The last trial's network at the shallowest depth (Post-LN, Pre-LN), its input and probe G.
  std::vector<PlacementRun> shallow;
  Mat last_input, last_grad_output;
};

// Both placements at every depth, for each trial's network.
DepthRuns run_depths(const PreVsPostSettings& s, engine::Rng& rng) {
  const std::size_t depth_count = s.depths.size();
  DepthRuns runs;
  runs.post_squares.resize(depth_count);
  runs.pre_squares.resize(depth_count);
  runs.stream_variance.assign(depth_count, 0.0);
  for (std::size_t i = 0; i < depth_count; ++i) {
    runs.post_squares[i].assign(static_cast<std::size_t>(s.depths[i]), 0.0);
    runs.pre_squares[i].assign(static_cast<std::size_t>(s.depths[i]), 0.0);
  }
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
      // W_q and W_k are in_proj's first two thirds, whatever width the heads were built at.
      for (auto& block : blocks.layers) {
        Mat& in_proj = block.self_attn.in_proj.weight;
        in_proj.topRows(2 * (in_proj.rows() / 3)).setZero();
      }
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
          runs.stream_variance[i] += engine::activation_stats(cache.layer_inputs.back()).variance;
        std::vector<double>& squares =
            placement == engine::NormPlacement::post ? runs.post_squares[i] : runs.pre_squares[i];
        for (std::size_t layer = 0; layer < squares.size(); ++layer)
          squares[layer] += grads.params.layers[layer].feedforward.linear2.weight.squaredNorm();
      }
    }
    if (trial + 1 == s.trials) {
      // The blocks now hold the shallowest stack, as the depth loop left them.
      for (const engine::NormPlacement placement :
           {engine::NormPlacement::post, engine::NormPlacement::pre}) {
        runs.shallow.push_back(PlacementRun{
            stack_config(s.depths.front(), s.d_model, s.heads, s.d_ff, placement), blocks});
      }
      runs.shallow[0].blocks.final_norm = engine::NormParams<double>();  // Post-LN has none
      runs.last_input = input;
      runs.last_grad_output = grad_output;
    }
  }
  return runs;
}

// The profiles' first and last layers at each depth, and what they show together.
struct Profiles {
  std::vector<double> post_last, pre_last, post_ratio, pre_ratio;
  double post_spread = 0.0;  // the largest max/min of a Post-LN profile
  bool post_ratio_above_pre = true, pre_last_decreasing = true, pre_falls = true;
  Mat table;  // first, last and last/first of each placement, a row a depth
  std::vector<std::string> rows;
};

// The values of every depth and its profile's chart, then what the depths show together.
Profiles report_profiles(DemoResult& result, const PreVsPostSettings& s, const DepthRuns& runs) {
  const std::size_t depth_count = s.depths.size();
  const auto root_mean = [&](const std::vector<double>& squares) {
    std::vector<double> norms;
    for (const double square : squares)
      norms.push_back(std::sqrt(square / as_double(s.trials)));
    return norms;
  };
  Profiles p;
  p.table.resize(static_cast<Index>(depth_count), 6);
  for (std::size_t i = 0; i < depth_count; ++i) {
    const std::vector<double> post = root_mean(runs.post_squares[i]);
    const std::vector<double> pre = root_mean(runs.pre_squares[i]);
    const std::int64_t depth = s.depths[i];
    p.post_last.push_back(post.back());
    p.pre_last.push_back(pre.back());
    p.post_ratio.push_back(post.back() / post.front());
    p.pre_ratio.push_back(pre.back() / pre.front());
    const auto label = [&](const char* what, const char* placement) {
      return fmt::format("{}, {}, {}-layer stack", what, placement, depth);
    };
    result.set(fmt::format("post_last_over_first_L{}", depth),
               label("FFN output-weight gradient, last layer over first", "Post-LN"),
               p.post_ratio.back(), Provenance::measured);
    result.set(fmt::format("pre_last_over_first_L{}", depth),
               label("FFN output-weight gradient, last layer over first", "Pre-LN"),
               p.pre_ratio.back(), Provenance::measured);
    result.set(fmt::format("post_last_L{}", depth),
               label("FFN output-weight gradient norm, last layer", "Post-LN"), post.back(),
               Provenance::measured);
    result.set(fmt::format("pre_last_L{}", depth),
               label("FFN output-weight gradient norm, last layer", "Pre-LN"), pre.back(),
               Provenance::measured);
    result.set(fmt::format("post_first_L{}", depth),
               label("FFN output-weight gradient norm, first layer", "Post-LN"), post.front(),
               Provenance::measured);
    result.set(fmt::format("pre_first_L{}", depth),
               label("FFN output-weight gradient norm, first layer", "Pre-LN"), pre.front(),
               Provenance::measured);
    result.set(fmt::format("post_over_pre_last_L{}", depth),
               label("FFN output-weight gradient, last layer", "Post-LN over Pre-LN"),
               post.back() / pre.back(), Provenance::measured);
    result.set(fmt::format("pre_stream_variance_L{}", depth),
               label("Residual-stream variance before the final LayerNorm", "Pre-LN"),
               runs.stream_variance[i] / as_double(s.trials), Provenance::measured);
    p.post_spread = std::max(p.post_spread, max_over_min(post));
    result.series.push_back(Series{fmt::format("grad_profile_L{}", depth),
                                   fmt::format("‖∂loss/∂linear2.weight‖ per layer, L = {}", depth),
                                   "layer",
                                   "gradient norm",
                                   count_up(1, depth),
                                   {{"Post-LN", post}, {"Pre-LN", pre}},
                                   false});
    const auto row = static_cast<Index>(i);
    p.table.row(row) << post.front(), post.back(), p.post_ratio.back(), pre.front(), pre.back(),
        p.pre_ratio.back();
    p.rows.push_back(fmt::format("L = {}", depth));
  }
  for (std::size_t i = 0; i < depth_count; ++i) {
    p.post_ratio_above_pre = p.post_ratio_above_pre && p.post_ratio[i] > p.pre_ratio[i];
    p.pre_falls = p.pre_falls && p.pre_ratio[i] < 1.0;
    if (i > 0) p.pre_last_decreasing = p.pre_last_decreasing && p.pre_last[i] < p.pre_last[i - 1];
  }
  result.set("post_ratio_above_pre",
             "Last-over-first gradient ratio higher for Post-LN at every depth",
             p.post_ratio_above_pre, Provenance::measured);
  result.set("pre_last_decreasing", "Last-layer gradient shrinks at each greater depth, Pre-LN",
             p.pre_last_decreasing, Provenance::measured);
  result.set("post_last_max_over_min",
             "Last-layer gradient, largest over smallest across depths, Post-LN",
             max_over_min(p.post_last), Provenance::measured);
  result.set("pre_last_shallow_over_deep",
             "Last-layer gradient, shallowest over deepest stack, Pre-LN",
             p.pre_last.front() / p.pre_last.back(), Provenance::measured);
  return p;
}

// What a warm-up changes, for Post-LN and Pre-LN.
struct WarmUpEffect {
  double loss_ratio[2];  // after / before: Post-LN, Pre-LN
  double ratio[2];       // last / first linear2 gradient
  double last[2];        // the last layer's linear2 gradient
  double path[2];        // residual_path_change
};

// A warm-up trains both stacks from the same weights on one regression target, then the same
// measurements run again: the schedule changes the weights, not where LayerNorm sits.
WarmUpEffect report_warm_up(DemoResult& result, const PreVsPostSettings& s, DepthRuns& runs,
                            engine::Rng& rng) {
  const Mat target = random_matrix(s.seq_len, s.d_model, rng, 0.0, 1.0);  // drawn last
  WarmUpEffect w{};
  for (std::size_t p = 0; p < 2; ++p) {
    const auto [before, after] =
        warm_up(runs.shallow[p], runs.last_input, target, s.warmup_steps, s.warmup_lr);
    const auto [first, last] =
        first_and_last_gradient(runs.shallow[p], runs.last_input, runs.last_grad_output);
    w.loss_ratio[p] = after / before;
    w.ratio[p] = last / first;
    w.last[p] = last;
    w.path[p] = residual_path_change(runs.shallow[p], runs.last_input, runs.last_grad_output);
  }
  result.set("warm_loss_ratio_post", "Loss after the warm-up over loss before it, Post-LN",
             w.loss_ratio[0], Provenance::measured);
  result.set("warm_loss_ratio_pre", "Loss after the warm-up over loss before it, Pre-LN",
             w.loss_ratio[1], Provenance::measured);
  result.set("warm_post_last_over_first",
             "FFN output-weight gradient after warm-up, last layer over first, Post-LN", w.ratio[0],
             Provenance::measured);
  result.set("warm_pre_last_over_first",
             "FFN output-weight gradient after warm-up, last layer over first, Pre-LN", w.ratio[1],
             Provenance::measured);
  result.set("warm_post_over_pre_last",
             "FFN output-weight gradient after warm-up, last layer, Post-LN over Pre-LN",
             w.last[0] / w.last[1], Provenance::measured);
  result.set("warm_post_path_change",
             "Relative gradient change along the residual path after warm-up, Post-LN", w.path[0],
             Provenance::measured);
  result.set("warm_pre_path_change",
             "Relative gradient change along the residual path after warm-up, Pre-LN", w.path[1],
             Provenance::measured);
  return w;
}

// The last layer's gradient against depth, and the first and last layer of each depth's profile.
void add_depth_figures(DemoResult& result, const PreVsPostSettings& s, const Profiles& p) {
  std::vector<double> depth_axis;
  for (const std::int64_t depth : s.depths)
    depth_axis.push_back(as_double(depth));
  result.series.push_back(Series{"last_layer_grad_vs_depth",
                                 "the last layer's ‖∂loss/∂linear2.weight‖ as depth grows",
                                 "depth L",
                                 "gradient norm",
                                 depth_axis,
                                 {{"Post-LN", p.post_last}, {"Pre-LN", p.pre_last}},
                                 false});
  result.tables.push_back(
      Table{"first_and_last_layer",
            "‖∂loss/∂linear2.weight‖ of the first and the last layer; "
            "ratio = last / first",
            p.rows,
            {"Post first", "Post last", "Post ratio", "Pre first", "Pre last", "Pre ratio"},
            p.table,
            false});
}

// The setup, then what the profiles show for Pre-LN and for Post-LN, and how much they vary.
std::vector<std::string> profile_text(const PreVsPostSettings& s, const DepthRuns& runs,
                                      const Profiles& p) {
  const std::size_t depth_count = s.depths.size();
  const auto listed = [](const std::vector<double>& values) {
    std::vector<std::string> parts;
    for (const double value : values)
      parts.push_back(text::format_short(value));
    return fmt::format("{}", fmt::join(parts, ", "));
  };
  std::vector<double> post_over_pre;
  for (std::size_t i = 0; i < depth_count; ++i)
    post_over_pre.push_back(p.post_last[i] / p.pre_last[i]);
  const std::string depth_list = fmt::format("{}", fmt::join(s.depths, ", "));
  std::vector<double> stream_variances;
  for (const double sum : runs.stream_variance)
    stream_variances.push_back(sum / as_double(s.trials));
  const bool one_depth = s.depths.size() == 1;
  const std::string averaged =
      s.trials == 1 ? "one network"
                    : fmt::format("the root mean square over {} independent networks", s.trials);
  return {
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
                        p.pre_falls ? "no growth toward the output — the profile falls from first "
                                      "to last layer"
                                    : "the profile does not fall in this draw",
                        listed(p.pre_ratio), depth_list, listed(p.pre_last),
                        "is " + listed(stream_variances))
          : fmt::format("Pre-LN: {} (last/first {} at L = {}), and the last layer's gradient {} "
                        "as the stack deepens ({}). The residual stream's variance grows with "
                        "depth ({} before the final LayerNorm), and that LayerNorm divides the "
                        "gradient by its scale: Xiong et al.'s O(d·√(ln d / L)).",
                        p.pre_falls ? "no growth toward the output — the profile falls from first "
                                      "to last layer"
                                    : "the profile does not fall at every depth in this draw",
                        listed(p.pre_ratio), depth_list,
                        p.pre_last_decreasing ? "shrinks" : "does not shrink steadily",
                        listed(p.pre_last), listed(stream_variances)),
      fmt::format(
          "Post-LN: the last layer's gradient {}; Xiong et al.'s O(d·√ln d), "
          "independent of L), so near the output Post-LN's gradients are {} times "
          "Pre-LN's — the large gradients near the output that Xiong et al. hold "
          "responsible for Post-LN's need of a learning-rate warm-up. Its last/first "
          "ratio ({}) is {} Pre-LN's{}.",
          one_depth ? "is " + listed(p.post_last) + " (at one depth"
          : max_over_min(p.post_last) < 1.5
              ? "stays about the same as the stack deepens (" + listed(p.post_last)
              : "changes with depth but does not shrink like Pre-LN's (" + listed(p.post_last),
          listed(post_over_pre), listed(p.post_ratio),
          p.post_ratio_above_pre ? "above" : "not above", one_depth ? "" : " at every depth"),
      s.trials == 1
          ? fmt::format("Post-LN's profile changes a lot from one network to the next{}: they "
                        "reach the lower layers only through a LayerNorm on every residual path. "
                        "--set trials=16 averages 16 networks to show the typical shape. Pre-LN's "
                        "falling profile comes out the same draw after draw.",
                        p.post_spread < 1.05
                            ? ""
                            : fmt::format(" (here its per-layer gradients span a factor of up "
                                          "to {})",
                                          text::format_short(p.post_spread)))
          : fmt::format("These are root-mean-square gradients over {} networks; single Post-LN "
                        "networks scatter far more widely (try trials=1 with a few seeds), while "
                        "Pre-LN's falling profile comes out the same draw after draw.",
                        s.trials)};
}

// The residual path alone, and what a warm-up changed (when there was one).
std::vector<std::string> path_and_warm_up_text(const PreVsPostSettings& s, double post_path,
                                               double pre_path,
                                               const std::optional<WarmUpEffect>& warm) {
  const std::int64_t shallowest = s.depths.front();
  std::vector<std::string> paragraphs;
  paragraphs.push_back(fmt::format(
      "The residual path alone (each sublayer's output projection zeroed, L = {}): Pre-LN passes "
      "the gradient from its last block to its input {} (relative change {}); Post-LN sends it "
      "through two LayerNorms per block and changes it by {}.",
      shallowest, pre_path < 1e-12 ? "untouched" : "changed", text::format_short(pre_path),
      text::format_short(post_path)));
  if (warm) {
    const auto shown = [](double x) { return text::format_short(x); };
    paragraphs.push_back(fmt::format(
        "A learning-rate warm-up (L = {}): both stacks take {} SGD steps on one regression target "
        "(½‖output − target‖² per token), the gradients clipped to norm 1 and the learning rate "
        "rising linearly to {}; the loss falls to {} (Post-LN) and {} (Pre-LN) of where it "
        "began. Warm-up changes the weights, not "
        "where LayerNorm sits: afterwards Post-LN's residual path still changes the gradient by "
        "{} and Pre-LN's by {}, and Post-LN's last/first ratio is {} against Pre-LN's {}, its "
        "last layer's gradient {} times Pre-LN's.",
        shallowest, s.warmup_steps, shown(s.warmup_lr), shown(warm->loss_ratio[0]),
        shown(warm->loss_ratio[1]), shown(warm->path[0]), shown(warm->path[1]),
        shown(warm->ratio[0]), shown(warm->ratio[1]), shown(warm->last[0] / warm->last[1])));
  }
  return paragraphs;
}

DemoResult run_pre_vs_post_ln(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::string demo = "pre-vs-post-ln";
  const PreVsPostSettings s{distinct_sorted(demo, "depths", params.integers("depths")),
                            params.integer("d_model"),
                            params.integer("heads"),
                            params.integer("d_ff"),
                            params.integer("seq_len"),
                            params.flag("zero_qk"),
                            params.integer("trials"),
                            params.integer("warmup_steps"),
                            params.number("warmup_lr")};
  check_heads(demo, s.heads, s.d_model);
  std::int64_t total_layers = 0;
  for (const std::int64_t depth : s.depths)
    total_layers += depth;
  // Both placements at every depth and trial; at the shallowest depth the residual path (with
  // and without a warm-up) and each warm-up step.
  const std::int64_t extra_passes = s.depths.front() * 2 * (2 * s.warmup_steps + 3);
  check_work(demo,
             (2.0 * as_double(s.trials * total_layers) + as_double(extra_passes)) *
                 block_work(s.seq_len, s.d_model, s.d_ff),
             fmt::format("depths with {} layers in all, trials={}, warmup_steps={}, d_model={}, "
                         "d_ff={} and seq_len={}",
                         total_layers, s.trials, s.warmup_steps, s.d_model, s.d_ff, s.seq_len));

  engine::Rng rng(seed);
  DepthRuns runs = run_depths(s, rng);
  DemoResult result;
  const Profiles profiles = report_profiles(result, s, runs);

  // The residual path alone, at the shallowest depth: Pre-LN's x + 0 is the identity, Post-LN's
  // LN(x + 0) is a LayerNorm on every block.
  const double post_path =
      residual_path_change(runs.shallow[0], runs.last_input, runs.last_grad_output);
  const double pre_path =
      residual_path_change(runs.shallow[1], runs.last_input, runs.last_grad_output);
  const auto path_label = [&](const char* placement) {
    return fmt::format("Relative gradient change along the residual path alone, {}, {}-layer stack",
                       placement, s.depths.front());
  };
  result.set("post_path_change", path_label("Post-LN"), post_path, Provenance::measured);
  result.set("pre_path_change", path_label("Pre-LN"), pre_path, Provenance::measured);
  std::optional<WarmUpEffect> warm;
  if (s.warmup_steps > 0) warm = report_warm_up(result, s, runs, rng);

  add_depth_figures(result, s, profiles);
  result.text = profile_text(s, runs, profiles);
  for (std::string& paragraph : path_and_warm_up_text(s, post_path, pre_path, warm))
    result.text.push_back(std::move(paragraph));
  return result;
}

}  // namespace

DemoInfo pre_vs_post_ln_demo() {
  const PreVsPostSettings defaults;
  ParamSpec depths = list_param("depths", defaults.depths, 1, 96, "stack depths to compare");
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
       integer_param("trials", defaults.trials, 1, 16, "independent networks averaged"),
       integer_param("warmup_steps", defaults.warmup_steps, 0, 64,
                     "SGD steps of a linear learning-rate warm-up at the shallowest depth, "
                     "then the measurements again (0: none)"),
       number_param("warmup_lr", defaults.warmup_lr, 1e-6, 10.0,
                    "the learning rate the warm-up rises to")},
      run_pre_vs_post_ln,
      {engine::Op::attention, engine::Op::heads, engine::Op::layernorm, engine::Op::residual,
       engine::Op::final_norm, engine::Op::feedforward, engine::Op::linear, engine::Op::optimizer}};
}

}  // namespace proofdeck::demo
