// The decoder layer's parts: SwiGLU feed-forward, grouped-query attention with RoPE or ALiBi,
// decoding with a key/value cache, and tiled attention with an online softmax.
#include "engine/decoder.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "engine/fault.hpp"
#include "engine/macs.hpp"
#include "engine/product.hpp"

namespace proofdeck::engine {

// --- SwiGLU ------------------------------------------------------------------------------------

template <typename T>
SwigluParams<T>::SwigluParams(Index hidden_size, Index intermediate_size) {
  const Fault fault = enter(Op::swiglu);
  require(hidden_size > 0, "hidden_size must be positive, got " + std::to_string(hidden_size));
  require(intermediate_size > 0,
          "intermediate_size must be positive, got " + std::to_string(intermediate_size));
  // Broken, the module holds two matrices as the original feed-forward does, and no gate.
  if (fault != Fault::swiglu_no_gate) gate_proj = Matrix<T>::Zero(intermediate_size, hidden_size);
  up_proj = Matrix<T>::Zero(intermediate_size, hidden_size);
  down_proj = Matrix<T>::Zero(hidden_size, intermediate_size);
}

namespace {

template <typename T>
void check_swiglu_shapes(const SwigluParams<T>& params) {
  const Index hidden = params.hidden_size();
  const Index intermediate = params.intermediate_size();
  require(hidden > 0 && intermediate > 0,
          params.has_gate() ? "swiglu gate_proj.weight has shape " + shape_of(params.gate_proj) +
                                  ", expected (intermediate_size, hidden_size) with both positive"
                            : "swiglu up_proj.weight has shape " + shape_of(params.up_proj) +
                                  ", expected (intermediate_size, hidden_size) with both positive");
  require_shape(params.up_proj, intermediate, hidden, "swiglu up_proj.weight");
  require_shape(params.down_proj, hidden, intermediate, "swiglu down_proj.weight");
}

template <typename T>
T sigmoid(T x) {
  return T(1) / (T(1) + std::exp(-x));
}

// silu(g) = g·σ(g)
template <typename T>
T silu(T g) {
  return g * sigmoid(g);
}

// silu'(g) = σ(g)·(1 + g·(1 − σ(g)))
template <typename T>
T silu_derivative(T g) {
  const T s = sigmoid(g);
  return s * (T(1) + g * (T(1) - s));
}

}  // namespace

template <typename T>
void swiglu_forward(Matrix<T>& out, SwigluCache<T>& cache, const Matrix<T>& inp,
                    const SwigluParams<T>& params) {
  enter(Op::swiglu);  // swiglu-no-gate acts on the module's structure: see the constructor
  check_swiglu_shapes(params);
  require_shape(inp, inp.rows(), params.hidden_size(), "swiglu input");
  project(cache.up, inp, params.up_proj);
  if (params.has_gate()) {
    project(cache.gate, inp, params.gate_proj);
    cache.hidden = cache.gate.unaryExpr(&silu<T>).cwiseProduct(cache.up);
  } else {
    cache.gate.resize(0, 0);
    cache.hidden = cache.up.unaryExpr(&silu<T>);
  }
  project(out, cache.hidden, params.down_proj);
  const Index rows = inp.rows(), hidden = params.hidden_size(), width = params.intermediate_size();
  count_macs(MacSite::linear, rows, hidden, width);
  if (params.has_gate()) count_macs(MacSite::linear, rows, hidden, width);
  count_macs(MacSite::linear, rows, width, hidden);
}

template <typename T>
void swiglu_backward(Matrix<T>& dinp, SwigluParams<T>& grads, const Matrix<T>& dout,
                     const Matrix<T>& inp, const SwigluParams<T>& params,
                     const SwigluCache<T>& cache) {
  // forward was: out = (silu(x·W_gᵀ) ⊙ x·W_uᵀ)·W_dᵀ
  enter(Op::swiglu);
  check_swiglu_shapes(params);
  require_shape(dout, inp.rows(), params.hidden_size(), "swiglu grad_output");
  require_shape(params.has_gate() ? cache.gate : cache.up, inp.rows(), params.intermediate_size(),
                "swiglu cache");
  weight_gradient(grads.down_proj, dout, cache.hidden);
  Matrix<T> dhidden;
  project_back(dhidden, dout, params.down_proj);
  if (!params.has_gate()) {
    // forward was: out = silu(x·W_uᵀ)·W_dᵀ (a module without gate_proj)
    const Matrix<T> dup = dhidden.cwiseProduct(cache.up.unaryExpr(&silu_derivative<T>));
    grads.gate_proj.resize(0, 0);
    weight_gradient(grads.up_proj, dup, inp);
    project_back(dinp, dup, params.up_proj);
    return;
  }
  const Matrix<T> silu_gate = cache.gate.unaryExpr(&silu<T>);
  const Matrix<T> dsilu = cache.gate.unaryExpr(&silu_derivative<T>);
  const Matrix<T> dup = dhidden.cwiseProduct(silu_gate);
  const Matrix<T> dgate = dhidden.cwiseProduct(cache.up).cwiseProduct(dsilu);
  weight_gradient(grads.gate_proj, dgate, inp);
  weight_gradient(grads.up_proj, dup, inp);
  project_back(dinp, dgate, params.gate_proj);
  project_back(dinp, dup, params.up_proj, Accumulate::yes);
}

// --- grouped-query attention --------------------------------------------------------------------

void check_gqa_config(const GqaConfig& config) {
  require(config.hidden_size > 0,
          "hidden_size must be positive, got " + std::to_string(config.hidden_size));
  require(config.num_attention_heads > 0, "num_attention_heads must be positive, got " +
                                              std::to_string(config.num_attention_heads));
  require(config.num_key_value_heads > 0, "num_key_value_heads must be positive, got " +
                                              std::to_string(config.num_key_value_heads));
  if (config.num_attention_heads % config.num_key_value_heads != 0) {
    throw EngineError("num_attention_heads " + std::to_string(config.num_attention_heads) +
                      " is not divisible by num_key_value_heads " +
                      std::to_string(config.num_key_value_heads) +
                      ": every key/value head must serve the same number of query heads");
  }
  require(config.head_dim >= 0,
          "head_dim must be positive (or 0 for hidden_size / num_attention_heads), got " +
              std::to_string(config.head_dim));
  if (config.head_dim == 0 && config.hidden_size % config.num_attention_heads != 0) {
    throw EngineError("hidden_size " + std::to_string(config.hidden_size) +
                      " is not divisible by num_attention_heads " +
                      std::to_string(config.num_attention_heads) +
                      ": give head_dim explicitly or choose sizes that divide");
  }
  const Index head_dim = config.resolved_head_dim();
  require(head_dim > 0, "head_dim must be positive, got " + std::to_string(head_dim));
  if (config.rope && head_dim % 2 != 0) {
    throw EngineError("head_dim " + std::to_string(head_dim) +
                      " must be even with rope on: RoPE rotates pairs of dimensions");
  }
  require(config.rope_theta > 1.0,
          "rope_theta must be > 1, got " + number_string(config.rope_theta));
  require(config.rope_scaling > 0.0 && std::isfinite(config.rope_scaling),
          "rope_scaling factor must be > 0, got " + number_string(config.rope_scaling));
  require(config.sliding_window >= 0,
          "sliding_window must be a positive number of keys (or 0 for none), got " +
              std::to_string(config.sliding_window));
  require(config.sliding_window == 0 || config.causal,
          "sliding_window " + std::to_string(config.sliding_window) +
              " needs the causal mask: a window counts back from each query (causal: true)");
}

Index kv_head_of(Index head, Index heads, Index kv_heads) {
  require(heads > 0 && kv_heads > 0 && heads % kv_heads == 0,
          "kv_head_of needs heads divisible by kv_heads, got " + std::to_string(heads) + " and " +
              std::to_string(kv_heads));
  require(head >= 0 && head < heads,
          "query head " + std::to_string(head) + " is not in 0.." + std::to_string(heads - 1));
  return head * kv_heads / heads;
}

namespace {

// 2^(−8/n), then each next slope that ratio times the last (get_slopes_power_of_2).
std::vector<double> power_of_two_slopes(Index heads) {
  const double start = std::pow(2.0, -8.0 / static_cast<double>(heads));
  std::vector<double> slopes;
  for (Index h = 0; h < heads; ++h)
    slopes.push_back(start * std::pow(start, static_cast<double>(h)));
  return slopes;
}

}  // namespace

std::vector<double> alibi_slopes(Index heads) {
  require(heads > 0, "alibi needs at least one head, got " + std::to_string(heads));
  Index closest = 1;
  while (closest * 2 <= heads)
    closest *= 2;
  std::vector<double> slopes = power_of_two_slopes(closest);
  if (closest == heads) return slopes;
  const std::vector<double> doubled = power_of_two_slopes(2 * closest);
  for (Index i = 0; i < heads - closest; ++i)
    slopes.push_back(doubled[static_cast<std::size_t>(2 * i)]);  // get_slopes(2n)[0::2]
  return slopes;
}

template <typename T>
GqaParams<T>::GqaParams(const GqaConfig& gqa_config) : config(gqa_config) {
  const Fault fault = enter(Op::heads);
  check_gqa_config(config);
  // heads-full-width: every head projects to all of hidden_size; heads-share-projection: one
  // head-width q_proj, k_proj, v_proj that every head reads.
  if (fault == Fault::heads_full_width) config.head_dim = config.hidden_size;
  const bool shared = fault == Fault::heads_share_projection;
  const Index embed = config.hidden_size;
  const Index head_dim = config.resolved_head_dim();
  q_proj = Matrix<T>::Zero((shared ? 1 : config.num_attention_heads) * head_dim, embed);
  k_proj = Matrix<T>::Zero((shared ? 1 : config.num_key_value_heads) * head_dim, embed);
  v_proj = Matrix<T>::Zero((shared ? 1 : config.num_key_value_heads) * head_dim, embed);
  o_proj = Matrix<T>::Zero(embed, config.num_attention_heads * head_dim);
}

namespace {

// How the module's tensors split into heads: blocks of D rows, one per query head in q_proj and
// one per key/value head in k_proj and v_proj — or one block each when every head reads a single
// shared projection.
struct HeadBlocks {
  Index head_dim = 0;  // D
  Index query = 0;     // q_proj's blocks: H (or 1)
  Index kv = 0;        // k_proj's and v_proj's blocks: G (or 1)
};

template <typename T>
HeadBlocks check_gqa_params(const GqaParams<T>& params) {
  const GqaConfig& config = params.config;
  check_gqa_config(config);
  const Index embed = config.hidden_size;
  const Index head_dim = config.resolved_head_dim();
  const bool shared = config.num_attention_heads > 1 && params.q_proj.rows() == head_dim &&
                      params.k_proj.rows() == head_dim && params.v_proj.rows() == head_dim;
  const HeadBlocks blocks{head_dim, shared ? 1 : config.num_attention_heads,
                          shared ? 1 : config.num_key_value_heads};
  require_shape(params.q_proj, blocks.query * head_dim, embed, "q_proj.weight");
  require_shape(params.k_proj, blocks.kv * head_dim, embed, "k_proj.weight");
  require_shape(params.v_proj, blocks.kv * head_dim, embed, "v_proj.weight");
  require_shape(params.o_proj, embed, config.num_attention_heads * head_dim, "o_proj.weight");
  return blocks;
}

// The rotation the attention applies (rope-base-1000 and rope-scaling-ignored: the angles with
// base 1000 and scaling 1).
RopeConfig rope_of(const GqaConfig& config, Fault fault) {
  RopeConfig rope{RopeConvention::half, config.rope_theta, config.rope_scaling};
  if (fault == Fault::rope_base_1000) rope.base = 1000.0;
  if (fault == Fault::rope_scaling_ignored) rope.scaling = 1.0;
  return rope;
}

// Each query head's ALiBi slope m_h, 0 for every head without ALiBi (alibi-equal-slopes: head
// 0's for all; alibi-halved-slopes: m_h / 2).
std::vector<double> head_slopes(const GqaConfig& config, Fault fault) {
  const Index heads = config.num_attention_heads;
  if (!config.alibi) return std::vector<double>(static_cast<std::size_t>(heads));
  std::vector<double> slopes = alibi_slopes(heads);
  if (fault == Fault::alibi_equal_slopes) std::fill(slopes.begin(), slopes.end(), slopes.front());
  if (fault == Fault::alibi_halved_slopes) {
    for (double& slope : slopes)
      slope /= 2.0;
  }
  return slopes;
}

// 1/√D (unscaled-scores: 1; scores-averaged: also ÷ D, the mean of the D products for their sum).
template <typename T>
T gqa_score_scale(Index head_dim, Fault fault) {
  const T averaged = fault == Fault::scores_averaged ? T(1) / static_cast<T>(head_dim) : T(1);
  return averaged *
         (fault == Fault::unscaled_scores ? T(1) : T(1) / std::sqrt(static_cast<T>(head_dim)));
}

// Rotates pair (i, i + D/2) of every head_dim-wide block of `x` (one block per head) in place;
// backward rotates by the opposite angle (R orthogonal: R(p)ᵀ = R(−p)). rope-additive adds each
// pair's (cos, sin) instead, and its backward passes the gradient through.
template <typename T>
void rotate_heads(Matrix<T>& x, Index head_dim, const RopeAngles<T>& table, bool backward,
                  Fault fault) {
  const Index pairs = head_dim / 2;
  if (fault == Fault::rope_additive) {
    if (backward) return;
    for (Index offset = 0; offset < x.cols(); offset += head_dim) {
      x.middleCols(offset, pairs) += table.cos;
      x.middleCols(offset + pairs, pairs) += table.sin;
    }
    return;
  }
  const Matrix<T> sin = backward ? Matrix<T>(-table.sin) : table.sin;
  for (Index offset = 0; offset < x.cols(); offset += head_dim) {
    const Matrix<T> first = x.middleCols(offset, pairs);
    const Matrix<T> second = x.middleCols(offset + pairs, pairs);
    x.middleCols(offset, pairs) = first.cwiseProduct(table.cos) - second.cwiseProduct(sin);
    x.middleCols(offset + pairs, pairs) = first.cwiseProduct(sin) + second.cwiseProduct(table.cos);
  }
}

// One query head's weights over the keys: scaled scores, ALiBi's −m·|i − j| (i, j the rows'
// places in the sequence, offset by `first_query` for a query block past the start), the causal
// mask, and a row-wise softmax. The bias goes on every score: the mask then zeroes what a query
// must not see.
template <typename T>
void head_probs(Matrix<T>& probs, ConstRef<T> query, ConstRef<T> key, Index first_query,
                bool causal, Index window, double slope, T scale) {
  const Index queries = query.rows();
  const Index keys = key.rows();
  probs.resize(queries, keys);
  probs.noalias() = query * key.transpose();
  probs *= scale;
  if (slope != 0.0) {
    for (Index row = 0; row < queries; ++row) {
      const Index place = first_query + row;
      for (Index col = 0; col < keys; ++col) {
        probs(row, col) -=
            static_cast<T>(slope * static_cast<double>(place > col ? place - col : col - place));
      }
    }
  }
  softmax_rows(probs, first_query, causal, window);
}

}  // namespace

template <typename T>
void gqa_forward(Matrix<T>& out, GqaCache<T>& cache, const Matrix<T>& inp,
                 const GqaParams<T>& params, const Positions& positions) {
  const Fault fault = enter(Op::attention);
  enter(Op::kv_heads);
  if (params.config.rope) enter(Op::rope);
  if (params.config.alibi) enter(Op::alibi);
  const HeadBlocks blocks = check_gqa_params(params);
  const GqaConfig& config = params.config;
  const Index embed = config.hidden_size;
  const Index heads = config.num_attention_heads;
  const Index head_dim = blocks.head_dim;
  require_shape(inp, inp.rows(), embed, "attention input");
  const Index steps = inp.rows();
  require(positions.empty() || static_cast<Index>(positions.size()) == steps,
          "gqa has " + std::to_string(steps) + " tokens but " + std::to_string(positions.size()) +
              " positions");
  cache.positions = positions.empty() ? sequential_positions(steps) : positions;

  project(cache.q, inp, params.q_proj);
  project(cache.k, inp, params.k_proj);
  project(cache.v, inp, params.v_proj);
  if (config.rope && fault != Fault::rope_not_applied) {
    const RopeAngles<T> table = rope_angles<T>(cache.positions, head_dim, rope_of(config, fault));
    rotate_heads(cache.q, head_dim, table, false, fault);
    rotate_heads(cache.k, head_dim, table, false, fault);
    if (fault == Fault::rope_on_values) rotate_heads(cache.v, head_dim, table, false, fault);
  }
  const std::vector<double> slopes = head_slopes(config, fault);
  const T scale = gqa_score_scale<T>(head_dim, fault);
  cache.probs.resize(static_cast<std::size_t>(heads));
  cache.kv_head.resize(static_cast<std::size_t>(heads));
  cache.heads.resize(steps, heads * head_dim);
  for (Index h = 0; h < heads; ++h) {
    const Index q = h * blocks.query / heads;
    // query head h reads key/value head ⌊h·G/H⌋ (gqa-all-kv-head-0: head 0)
    const Index g = fault == Fault::gqa_all_kv_head_0 ? 0 : kv_head_of(h, heads, blocks.kv);
    cache.kv_head[static_cast<std::size_t>(h)] = g;
    Matrix<T>& probs = cache.probs[static_cast<std::size_t>(h)];
    head_probs<T>(probs, cache.q.middleCols(q * head_dim, head_dim),
                  cache.k.middleCols(g * head_dim, head_dim), 0, config.causal,
                  config.sliding_window, slopes[static_cast<std::size_t>(h)], scale);
    cache.heads.middleCols(h * head_dim, head_dim).noalias() =
        probs * cache.v.middleCols(g * head_dim, head_dim);
  }
  project(out, cache.heads, params.o_proj);
}

template <typename T>
void gqa_backward(Matrix<T>& dinp, GqaParams<T>& grads, const Matrix<T>& dout, const Matrix<T>& inp,
                  const GqaParams<T>& params, const GqaCache<T>& cache) {
  // forward was: heads_h = softmax(q_h·k_gᵀ/√D + bias)·v_g, g = ⌊h·G/H⌋; out = heads·W_oᵀ
  const Fault fault = enter(Op::attention);
  enter(Op::kv_heads);
  if (params.config.rope) enter(Op::rope);
  if (params.config.sliding_window > 0) enter(Op::sliding_window);
  const HeadBlocks blocks = check_gqa_params(params);
  const GqaConfig& config = params.config;
  const Index embed = config.hidden_size;
  const Index heads = config.num_attention_heads;
  const Index head_dim = blocks.head_dim;
  const Index steps = inp.rows();
  require_shape(dout, steps, embed, "attention grad_output");
  require_shape(cache.heads, steps, heads * head_dim, "gqa cache");
  grads.config = config;

  weight_gradient(grads.o_proj, dout, cache.heads);
  Matrix<T> dheads;
  project_back(dheads, dout, params.o_proj);
  Matrix<T> dq = Matrix<T>::Zero(steps, params.q_proj.rows());
  Matrix<T> dk = Matrix<T>::Zero(steps, params.k_proj.rows());
  Matrix<T> dv = Matrix<T>::Zero(steps, params.v_proj.rows());
  Matrix<T> dq_head(steps, head_dim), dk_head(steps, head_dim), dv_head(steps, head_dim);
  const AttentionOptions scaled;  // the bias and mask are constants: only the 1/√D scale matters
  const bool own_query = blocks.query == heads;  // each head its own rows of q_proj
  for (Index h = 0; h < heads; ++h) {
    const Index q = h * blocks.query / heads;
    // query head h reads key/value head ⌊h·G/H⌋ (gqa-all-kv-head-0: head 0)
    const Index g = fault == Fault::gqa_all_kv_head_0 ? 0 : kv_head_of(h, heads, blocks.kv);
    attention_backward<T>(
        own_query ? MutableRef<T>(dq.middleCols(h * head_dim, head_dim)) : MutableRef<T>(dq_head),
        dk_head, dv_head, dheads.middleCols(h * head_dim, head_dim),
        cache.q.middleCols(q * head_dim, head_dim), cache.k.middleCols(g * head_dim, head_dim),
        cache.v.middleCols(g * head_dim, head_dim), cache.probs[static_cast<std::size_t>(h)],
        scaled);
    // a shared query projection, and a key/value head shared by H/G query heads, gathers all
    // their gradients (repeat_kv)
    if (!own_query) dq.middleCols(q * head_dim, head_dim) += dq_head;
    dk.middleCols(g * head_dim, head_dim) += dk_head;
    dv.middleCols(g * head_dim, head_dim) += dv_head;
  }
  if (config.rope && fault != Fault::rope_not_applied) {
    // forward was: q_h ← R(p)·q_h, k_g ← R(p)·k_g (rope-on-values: v_g ← R(p)·v_g)
    const RopeAngles<T> table = rope_angles<T>(cache.positions, head_dim, rope_of(config, fault));
    rotate_heads(dq, head_dim, table, true, fault);
    rotate_heads(dk, head_dim, table, true, fault);
    if (fault == Fault::rope_on_values) rotate_heads(dv, head_dim, table, true, fault);
  }
  weight_gradient(grads.q_proj, dq, inp);
  weight_gradient(grads.k_proj, dk, inp);
  weight_gradient(grads.v_proj, dv, inp);
  project_back(dinp, dq, params.q_proj);
  project_back(dinp, dk, params.k_proj, Accumulate::yes);
  project_back(dinp, dv, params.v_proj, Accumulate::yes);
}

// --- decoding with a key/value cache ----------------------------------------------------------

template <typename T>
void gqa_decode_step(Matrix<T>& out, KvCache<T>& cache, const Matrix<T>& token,
                     std::int64_t position, const GqaParams<T>& params) {
  const Fault fault = enter(Op::kv_cache);
  enter(Op::attention);
  enter(Op::kv_heads);
  if (params.config.rope) enter(Op::rope);
  if (params.config.alibi) enter(Op::alibi);
  const HeadBlocks blocks = check_gqa_params(params);
  const GqaConfig& config = params.config;
  const Index embed = config.hidden_size;
  const Index heads = config.num_attention_heads;
  const Index head_dim = blocks.head_dim;
  const Index kv_width = blocks.kv * head_dim;
  require_shape(token, 1, embed, "decode token");
  const Index cached = cache.length();
  require(cached == 0 || (cache.keys.cols() == kv_width && cache.values.rows() == cached &&
                          cache.values.cols() == kv_width),
          "kv cache keys " + shape_of(cache.keys) + " and values " + shape_of(cache.values) +
              " do not fit this attention: expected (t, " + std::to_string(kv_width) + ") each");

  Matrix<T> query = token * params.q_proj.transpose();  // (1, H·D)
  Matrix<T> key = token * params.k_proj.transpose();    // (1, G·D)
  Matrix<T> value = token * params.v_proj.transpose();
  if (config.rope && fault != Fault::rope_not_applied) {
    const RopeAngles<T> table =
        rope_angles<T>(Positions{position}, head_dim, rope_of(config, fault));
    rotate_heads(query, head_dim, table, false, fault);
    rotate_heads(key, head_dim, table, false, fault);
    if (fault == Fault::rope_on_values) rotate_heads(value, head_dim, table, false, fault);
  }
  const Index window = config.sliding_window;
  if (window > 0) {
    enter(Op::sliding_window);
    require(!config.alibi,
            "decoding with sliding_window keeps a rolling cache, whose rows hold no token's place, "
            "which ALiBi's bias needs: set alibi or sliding_window, not both");
  }
  if (window > 0 && cached >= window) {
    // The rolling buffer is full: token `position` takes slot position mod W, whose token has
    // just left the window (rolling-cache-wrong-slot: slot (position − 1) mod W, the newest).
    require(position >= window, "position " + std::to_string(position) + " with " +
                                    std::to_string(cached) +
                                    " tokens cached: a rolling cache decodes positions in order");
    const std::int64_t slot =
        (fault == Fault::rolling_cache_wrong_slot ? position - 1 : position) % window;
    cache.keys.row(static_cast<Index>(slot)) = key;
    cache.values.row(static_cast<Index>(slot)) = value;
  } else {
    cache.keys.conservativeResize(cached + 1, kv_width);
    cache.values.conservativeResize(cached + 1, kv_width);
    cache.keys.row(cached) = key;
    cache.values.row(cached) = value;
  }
  if (fault == Fault::kv_cache_keeps_queries) {
    cache.queries.conservativeResize(cache.queries.rows() + 1, query.cols());
    cache.queries.bottomRows(1) = query;
  }
  if (fault == Fault::kv_cache_drops_oldest && cached > 0 &&
      static_cast<std::int64_t>(cached) == position) {
    // the second token arrives while the first is still held: its row goes
    cache.keys = Matrix<T>(cache.keys.bottomRows(cached));
    cache.values = Matrix<T>(cache.values.bottomRows(cached));
  }

  const std::vector<double> slopes = head_slopes(config, fault);
  const T scale = gqa_score_scale<T>(head_dim, fault);
  // The newest token is the last row, or any row of a rolling buffer: every cached token is at or
  // before it, and inside its window.
  const Index newest = cache.length() - 1;
  Matrix<T> heads_out(1, heads * head_dim);
  Matrix<T> probs;
  for (Index h = 0; h < heads; ++h) {
    const Index q = h * blocks.query / heads;
    // query head h reads key/value head ⌊h·G/H⌋ (gqa-all-kv-head-0: head 0)
    const Index g = fault == Fault::gqa_all_kv_head_0 ? 0 : kv_head_of(h, heads, blocks.kv);
    head_probs<T>(probs, query.middleCols(q * head_dim, head_dim),
                  cache.keys.middleCols(g * head_dim, head_dim), newest, false, 0,
                  slopes[static_cast<std::size_t>(h)], scale);
    heads_out.middleCols(h * head_dim, head_dim).noalias() =
        probs * cache.values.middleCols(g * head_dim, head_dim);
  }
  out.resize(1, embed);
  out.noalias() = heads_out * params.o_proj.transpose();
}

std::int64_t kv_cache_bytes(std::int64_t layers, std::int64_t kv_heads, std::int64_t head_dim,
                            std::int64_t tokens, std::int64_t bytes_per_value) {
  require(layers >= 0 && kv_heads >= 0 && head_dim >= 0 && tokens >= 0 && bytes_per_value >= 0,
          "kv_cache_bytes needs sizes ≥ 0");
  return 2 * layers * kv_heads * head_dim * tokens * bytes_per_value;
}

// --- tiled attention with an online softmax ---------------------------------------------------

template <typename T>
TiledAttentionStats attention_tiled_forward(MutableRef<T> out, ConstRef<T> query, ConstRef<T> key,
                                            ConstRef<T> value, Index tile, bool causal) {
  const Fault fault = enter(Op::attention);
  enter(Op::tiled_attention);
  const Index steps = query.rows();
  require(tile > 0, "attention tile must be positive, got " + std::to_string(tile));
  require(key.rows() == steps && value.rows() == steps && key.cols() == query.cols(),
          "attention query " + shape_of(query) + ", key " + shape_of(key) + " and value " +
              shape_of(value) + " must have one row per token and equal query/key widths");
  require_shape(out, steps, value.cols(), "attention output");
  // tiled-attention-materializes: one tile as large as the sequence, the whole score matrix
  if (fault == Fault::tiled_attention_materializes) tile = std::max<Index>(steps, 1);
  const T scale = gqa_score_scale<T>(query.cols(), fault);
  const T minus_infinity = -std::numeric_limits<T>::infinity();
  // The causal mask as softmax_rows applies it: a query sees keys up to its own place.
  const CausalReach mask = causal_reach(causal, fault);
  // key tiles wholly after the query tile's last visible key are never computed
  const auto key_end = [&](Index q0, Index queries) {
    return mask.masked ? std::min(steps, q0 + queries - 1 + mask.reach) : steps;
  };
  const auto visible = [&](Index q0, Index row, Index k0, Index keys) {
    return mask.masked ? std::clamp<Index>(q0 + row - k0 + mask.reach, 0, keys) : keys;
  };
  TiledAttentionStats stats;
  Matrix<T> scores;
  const auto score_block = [&](Index q0, Index queries, Index k0, Index keys) {
    scores.resize(queries, keys);
    scores.noalias() = query.middleRows(q0, queries) * key.middleRows(k0, keys).transpose();
    scores *= scale;
    stats.score_buffer = std::max(stats.score_buffer, scores.size());
    ++stats.tiles;
  };
  if (fault == Fault::softmax_wrong_axis) {
    // Each key's column is normalised over the queries that see it, so a weight needs its whole
    // column first: one pass over the tiles keeps each column's running maximum and sum, a second
    // weights the values.
    Vector<T> column_max = Vector<T>::Constant(steps, minus_infinity);
    Vector<T> column_sum = Vector<T>::Zero(steps);
    for (Index q0 = 0; q0 < steps; q0 += tile) {
      const Index queries = std::min(tile, steps - q0);
      for (Index k0 = 0; k0 < key_end(q0, queries); k0 += tile) {
        const Index keys = std::min(tile, key_end(q0, queries) - k0);
        score_block(q0, queries, k0, keys);
        for (Index row = 0; row < queries; ++row) {
          for (Index col = 0; col < visible(q0, row, k0, keys); ++col) {
            const T score = scores(row, col);
            T& peak = column_max(k0 + col);
            T& total = column_sum(k0 + col);
            if (score > peak) {
              total = total * std::exp(peak - score) + T(1);
              peak = score;
            } else {
              total += std::exp(score - peak);
            }
          }
        }
      }
    }
    for (Index q0 = 0; q0 < steps; q0 += tile) {
      const Index queries = std::min(tile, steps - q0);
      Matrix<T> acc = Matrix<T>::Zero(queries, value.cols());
      for (Index k0 = 0; k0 < key_end(q0, queries); k0 += tile) {
        const Index keys = std::min(tile, key_end(q0, queries) - k0);
        score_block(q0, queries, k0, keys);
        for (Index row = 0; row < queries; ++row) {
          const Index seen = visible(q0, row, k0, keys);
          auto block = scores.row(row).head(seen);
          block = ((block.array() - column_max.segment(k0, seen).transpose().array()).exp() /
                   column_sum.segment(k0, seen).transpose().array())
                      .matrix();
          acc.row(row).noalias() += block * value.middleRows(k0, seen);
        }
      }
      out.middleRows(q0, queries) = acc;
    }
    return stats;
  }
  for (Index q0 = 0; q0 < steps; q0 += tile) {
    const Index queries = std::min(tile, steps - q0);
    Vector<T> running_max = Vector<T>::Constant(queries, minus_infinity);
    Vector<T> running_sum = Vector<T>::Zero(queries);
    Matrix<T> acc = Matrix<T>::Zero(queries, value.cols());
    for (Index k0 = 0; k0 < key_end(q0, queries); k0 += tile) {
      const Index keys = std::min(tile, key_end(q0, queries) - k0);
      score_block(q0, queries, k0, keys);
      for (Index row = 0; row < queries; ++row) {
        const Index seen = visible(q0, row, k0, keys);
        if (seen == 0) continue;
        auto block = scores.row(row).head(seen);
        const T new_max = std::max(running_max(row), block.maxCoeff());
        // m ← max(m, max s); ℓ ← ℓ·e^(m_old − m) + Σ e^(s − m); acc ← acc·e^(m_old − m) + e^(s −
        // m)·v (online-softmax-no-rescale: ℓ and acc keep their old scale)
        const T correction =
            fault == Fault::online_softmax_no_rescale ? T(1) : std::exp(running_max(row) - new_max);
        block = (block.array() - new_max).exp();
        running_sum(row) = running_sum(row) * correction + block.sum();
        acc.row(row) *= correction;
        acc.row(row).noalias() += block * value.middleRows(k0, seen);
        running_max(row) = new_max;
      }
    }
    out.middleRows(q0, queries) = running_sum.cwiseInverse().asDiagonal() * acc;
  }
  return stats;
}

#define PROOFDECK_INSTANTIATE(T)                                                                   \
  template struct SwigluParams<T>;                                                                 \
  template void swiglu_forward<T>(Matrix<T>&, SwigluCache<T>&, const Matrix<T>&,                   \
                                  const SwigluParams<T>&);                                         \
  template void swiglu_backward<T>(Matrix<T>&, SwigluParams<T>&, const Matrix<T>&,                 \
                                   const Matrix<T>&, const SwigluParams<T>&,                       \
                                   const SwigluCache<T>&);                                         \
  template struct GqaParams<T>;                                                                    \
  template void gqa_forward<T>(Matrix<T>&, GqaCache<T>&, const Matrix<T>&, const GqaParams<T>&,    \
                               const Positions&);                                                  \
  template void gqa_backward<T>(Matrix<T>&, GqaParams<T>&, const Matrix<T>&, const Matrix<T>&,     \
                                const GqaParams<T>&, const GqaCache<T>&);                          \
  template void gqa_decode_step<T>(Matrix<T>&, KvCache<T>&, const Matrix<T>&, std::int64_t,        \
                                   const GqaParams<T>&);                                           \
  template TiledAttentionStats attention_tiled_forward<T>(MutableRef<T>, ConstRef<T>, ConstRef<T>, \
                                                          ConstRef<T>, Index, bool);
PROOFDECK_INSTANTIATE(float)
PROOFDECK_INSTANTIATE(double)
#undef PROOFDECK_INSTANTIATE

}  // namespace proofdeck::engine
