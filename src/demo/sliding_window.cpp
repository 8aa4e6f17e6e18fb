// sliding-window: with Mistral's sliding window each query sees only its last W keys, so one
// layer carries information W − 1 positions back and a stack of L layers L·(W − 1) — measured by
// following every nonzero attention weight from each token up to the last position — while
// the decode cache is a rolling buffer of W rows, token i at row i mod W, whatever the length
// (Jiang et al. 2023, Mistral 7B, §2; Beltagy et al. 2020, Longformer, §3.1).
#include "demo/demos.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/decoder.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

using Stack = std::vector<engine::GqaParams<double>>;

// reached(l, j) = 1 when token j can reach the last position's output after layer l + 1: a path
// of nonzero attention weights (any head) or residual steps from j up through the layers, read
// off the weights the engine computed in a residual stack, x ← x + attention(x). Exact where
// watching the output move is not: a path of eight hops at the window's edge multiplies eight
// small weights, and its change falls below one unit in the last place.
Mat tokens_reaching_last(const Stack& stack, const Mat& x) {
  const Index tokens = x.rows();
  // flows(i, j): token j's information is in position i's state so far
  Mat flows = Mat::Identity(tokens, tokens);
  Mat reached = Mat::Zero(static_cast<Index>(stack.size()), tokens);
  Mat current = x;
  for (std::size_t l = 0; l < stack.size(); ++l) {
    Mat out;
    engine::GqaCache<double> cache;
    engine::gqa_forward(out, cache, current, stack[l]);
    current += out;
    Mat step = Mat::Identity(tokens, tokens);  // the residual path
    for (const Mat& weights : cache.probs)
      step = step.cwiseMax((weights.array() != 0.0).cast<double>().matrix());
    flows = ((step * flows).array() > 0.0).cast<double>().matrix();
    reached.row(static_cast<Index>(l)) = flows.row(tokens - 1);
  }
  return reached;
}

// How far back the farthest token that reaches the last position stands, per layer.
std::vector<double> reach_per_layer(const Mat& reached) {
  std::vector<double> reach;
  const Index last = reached.cols() - 1;
  for (Index l = 0; l < reached.rows(); ++l) {
    Index first = last;
    for (Index j = 0; j <= last; ++j) {
      if (reached(l, j) != 0.0) {
        first = j;
        break;
      }
    }
    reach.push_back(static_cast<double>(last - first));
  }
  return reach;
}

struct RollingDecode {
  double rows = 0;       // the cache's rows after the last token
  double worst_gap = 0;  // the largest gap to the full windowed pass, over every token
  double keys_seen = 0;  // the keys the last query weighs in the full pass
};

// The first layer decoded token by token with its rolling cache, against its full pass.
RollingDecode decode_rolling(const engine::GqaParams<double>& layer, const Mat& x) {
  RollingDecode decode;
  Mat full;
  engine::GqaCache<double> pass;
  engine::gqa_forward(full, pass, x, layer);
  const Mat& weights = pass.probs.front();
  decode.keys_seen = static_cast<double>((weights.row(weights.rows() - 1).array() != 0.0).count());
  engine::KvCache<double> cache;
  for (Index t = 0; t < x.rows(); ++t) {
    Mat out;
    engine::gqa_decode_step(out, cache, Mat(x.row(t)), t, layer);
    decode.worst_gap = std::max(decode.worst_gap, (out.row(0) - full.row(t)).cwiseAbs().maxCoeff());
  }
  decode.rows = static_cast<double>(cache.length());
  return decode;
}

DemoResult run_sliding_window(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::int64_t window = params.integer("window");
  const std::int64_t layers = params.integer("layers");
  const std::int64_t tokens = params.integer("tokens");
  const std::int64_t d_model = params.integer("d_model");
  const std::int64_t heads = params.integer("heads");
  require_divides("sliding-window", d_model, heads, "heads");
  if (d_model / heads % 2 != 0) {
    param_error("sliding-window",
                fmt::format("d_model={}, heads={}: each head's {} dimensions must be even, as "
                            "RoPE rotates them in pairs",
                            d_model, heads, d_model / heads));
  }
  engine::Rng rng(seed);
  const engine::GqaConfig config =
      engine::GqaConfig::of(d_model, heads, 1).with_sliding_window(window);
  Stack stack;
  for (std::int64_t l = 0; l < layers; ++l) {
    engine::GqaParams<double>& layer = stack.emplace_back(config);
    engine::fill_xavier_uniform(layer.q_proj, rng);
    engine::fill_xavier_uniform(layer.k_proj, rng);
    engine::fill_xavier_uniform(layer.v_proj, rng);
    engine::fill_xavier_uniform(layer.o_proj, rng);
  }
  const Mat x = random_matrix(tokens, d_model, rng, 0.0, 1.0);
  const Mat reached = tokens_reaching_last(stack, x);
  const std::vector<double> reach = reach_per_layer(reached);
  const RollingDecode decode = decode_rolling(stack.front(), x);

  DemoResult result;
  result.set("keys_seen_last", "Keys the last query weighs in one layer", decode.keys_seen,
             Provenance::measured);
  for (std::size_t l = 0; l < reach.size(); ++l) {
    result.set(fmt::format("reach_layer_{}", l + 1),
               fmt::format("Positions back the last output reaches after layer {}", l + 1),
               reach[l], Provenance::measured);
  }
  const double formula = static_cast<double>(std::min(layers * (window - 1), tokens - 1));
  result.set(
      "reach",
      fmt::format("Positions back it reaches after all {}", text::count(layers, "layer", "layers")),
      reach.back(), Provenance::measured);
  result.set("reach_formula", "L·(W − 1), at most the tokens before it", formula,
             Provenance::derived);
  result.set("reach_is_layers_times_window_minus_one", "The reach is L·(W − 1)",
             reach.back() == formula, Provenance::measured);
  result.set(
      "rolling_cache_rows",
      fmt::format("Rows of the rolling cache after {}", text::count(tokens, "token", "tokens")),
      decode.rows, Provenance::counted);
  result.set("rolling_decode_matches",
             "Decoding with the rolling cache gives the full windowed pass, token by token",
             decode.worst_gap <= 1e-12, Provenance::measured);

  // One row a token, one column a layer: what the last position has read after each layer.
  result.tables.push_back(heatmap("reaches_last",
                                  fmt::format("tokens that reach the last position (1), window "
                                              "{}, after each layer",
                                              window),
                                  numbered("t", tokens), numbered("layer ", layers, 1),
                                  reached.transpose()));
  result.text = {
      fmt::format("Each query weighs its last {} (itself included), so one layer carries a "
                  "token {} back, and each layer above carries it {} further: after {} the last "
                  "position has read tokens up to {} back, L·(W − 1) = {}.",
                  text::count(static_cast<std::int64_t>(decode.keys_seen), "key", "keys"),
                  text::count(window - 1, "position", "positions"), window - 1,
                  text::count(layers, "layer", "layers"), text::format_readable(reach.back(), 6),
                  text::format_readable(formula, 6)),
      fmt::format("Decoding token by token, the cache is a rolling buffer: token i overwrites "
                  "row i mod {}, the token that has just left the window, so after {} it holds "
                  "{} and still gives the full pass's outputs{}.",
                  window, text::count(tokens, "token", "tokens"),
                  text::count(static_cast<std::int64_t>(decode.rows), "row", "rows"),
                  decode.worst_gap <= 1e-12 ? "" : " — not here: it lost a key still in reach")};
  return result;
}

}  // namespace

DemoInfo sliding_window_demo() {
  return DemoInfo{
      "sliding-window",
      "A window's reach grows with depth",
      "Each query sees its last W keys, so a stack of L layers reaches L·(W − 1) positions back, "
      "and the decode cache is a rolling buffer of W rows.",
      "Beyond the lesson: sliding-window attention (Jiang et al. 2023, Mistral 7B, §2; Beltagy "
      "et al. 2020, §3.1)",
      {integer_param("window", 4, 1, 64, "keys each query sees, its own included (W)"),
       integer_param("layers", 4, 1, 16, "attention layers in the stack (L)"),
       integer_param("tokens", 16, 2, 128, "tokens in the sequence"),
       integer_param("d_model", 8, 2, 64, "embedding width"),
       integer_param("heads", 2, 1, 16, "query heads (one key/value head)")},
      run_sliding_window,
      {engine::Op::attention, engine::Op::heads, engine::Op::kv_heads, engine::Op::kv_cache,
       engine::Op::rope, engine::Op::sliding_window}};
}

}  // namespace proofdeck::demo
