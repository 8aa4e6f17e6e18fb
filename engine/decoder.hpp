// The decoder layer as today's LLMs build it, with Llama's module and parameter names (Hugging
// Face's LlamaMLP, LlamaAttention and LlamaConfig), so a checkpoint's tensors run unchanged:
// the SwiGLU feed-forward, grouped-query attention (multi-head at G = H, multi-query at G = 1)
// with RoPE — optionally position-interpolated — or ALiBi, decoding token by token with a
// key/value cache, and attention computed in tiles with an online softmax (exact, as
// FlashAttention computes it). RMSNorm is in norm.hpp.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/attention.hpp"
#include "engine/positional.hpp"
#include "engine/tensor.hpp"

namespace proofdeck::engine {

// --- SwiGLU feed-forward (Shazeer 2020; LlamaMLP) ---------------------------------------------
// y = down_proj(silu(gate_proj(x)) ⊙ up_proj(x)), no biases: three matrices where the original
// feed-forward has two.
template <typename T>
struct SwigluParams {
  using Scalar = T;
  Matrix<T> gate_proj;  // (F, E)
  Matrix<T> up_proj;    // (F, E)
  Matrix<T> down_proj;  // (E, F)

  SwigluParams() = default;
  // Zeros of the right shapes; throws EngineError unless both sizes are positive.
  SwigluParams(Index hidden_size, Index intermediate_size);

  // False for a module built without gate_proj (the swiglu-no-gate fault): down(silu(up(x))).
  bool has_gate() const { return gate_proj.size() != 0; }
  // Read from the gate when there is one, else from up_proj: the two share their shape.
  Index hidden_size() const { return (has_gate() ? gate_proj : up_proj).cols(); }
  Index intermediate_size() const { return (has_gate() ? gate_proj : up_proj).rows(); }
};

template <typename T>
struct SwigluCache {
  Matrix<T> gate;    // (T, F) gate_proj(x), before silu; empty without gate_proj
  Matrix<T> up;      // (T, F) up_proj(x)
  Matrix<T> hidden;  // (T, F) silu(gate) ⊙ up, down_proj's input
};

template <typename T>
void swiglu_forward(Matrix<T>& out,  // (T, E)
                    SwigluCache<T>& cache,
                    const Matrix<T>& inp,  // (T, E)
                    const SwigluParams<T>& params);

template <typename T>
void swiglu_backward(Matrix<T>& dinp,         // (T, E)
                     SwigluParams<T>& grads,  // same shapes as params, assigned
                     const Matrix<T>& dout,   // (T, E)
                     const Matrix<T>& inp,    // (T, E)
                     const SwigluParams<T>& params, const SwigluCache<T>& cache);

template <typename P>
concept SwigluParamsType =
    std::same_as<std::remove_const_t<P>, SwigluParams<typename std::remove_const_t<P>::Scalar>>;

// Visits the tensors the module holds: gate_proj only when it has one.
template <SwigluParamsType P, typename Visitor>
void visit_params(P& params, const std::string& prefix, Visitor&& visit) {
  if (params.has_gate()) visit(prefix + "gate_proj.weight", params.gate_proj);
  visit(prefix + "up_proj.weight", params.up_proj);
  visit(prefix + "down_proj.weight", params.down_proj);
}

// --- grouped-query attention (Ainslie et al. 2023; LlamaAttention) ----------------------------
// Self-attention on one sequence (T, E). H query heads share G key/value heads: query head h
// reads key/value head ⌊h·G/H⌋ (Hugging Face's repeat_kv). Scores are scaled by 1/√D.
struct GqaConfig {
  Index hidden_size = 0;          // E
  Index num_attention_heads = 1;  // H
  Index num_key_value_heads = 1;  // G: divides H; G = H is multi-head, G = 1 multi-query
  Index head_dim = 0;             // D; 0 means E / H
  bool causal = true;             // position t attends to positions ≤ t only
  bool rope = true;               // RoPE, "half" convention, on q and k of every head
  double rope_theta = 10000.0;    // LlamaConfig.rope_theta
  double rope_scaling = 1.0;      // rope_scaling {"rope_type": "linear", "factor": s}: p / s
  bool alibi = false;             // head h adds −m_h·|i − j| to its scores (Press et al. 2022)
  // Mistral's sliding_window W: query i sees keys i − W + 1 … i only (0: every earlier key); its
  // decode cache is a rolling buffer of W rows (Jiang et al. 2023, §2).
  Index sliding_window = 0;

  Index resolved_head_dim() const {
    return head_dim > 0 ? head_dim : hidden_size / num_attention_heads;
  }

  // Width E with H query heads reading G key/value heads, everything else Llama's default above
  // (causal, RoPE at θ = 10,000, head_dim E / H); each with_… or without_… call changes one:
  //   GqaConfig::of(512, 8, 2).with_head_dim(32).without_rope()
  static GqaConfig of(Index width, Index heads, Index kv_heads) {
    GqaConfig config;
    config.hidden_size = width;
    config.num_attention_heads = heads;
    config.num_key_value_heads = kv_heads;
    return config;
  }
  GqaConfig& with_head_dim(Index dim) {
    head_dim = dim;
    return *this;
  }
  GqaConfig& with_rope_theta(double theta) {
    rope_theta = theta;
    return *this;
  }
  GqaConfig& with_alibi() {
    alibi = true;
    return *this;
  }
  GqaConfig& with_sliding_window(Index window) {
    sliding_window = window;
    return *this;
  }
  GqaConfig& without_rope() {
    rope = false;
    return *this;
  }
  GqaConfig& without_causal_mask() {
    causal = false;
    return *this;
  }
};

// Throws EngineError naming the field unless E > 0, H > 0, G > 0, H % G == 0, D > 0 (and E % H
// == 0 when head_dim is 0), D even when rope is on, rope_theta > 1, rope_scaling > 0 and
// sliding_window ≥ 0 (a window only with the causal mask).
void check_gqa_config(const GqaConfig& config);

// The key/value head query head `head` reads: ⌊head·G/H⌋.
Index kv_head_of(Index head, Index heads, Index kv_heads);

// Press et al. 2022's slopes: m_h = 2^(−8(h+1)/H) when H is a power of two; otherwise the
// slopes of the largest power of two n below H, then the first H − n of the odd-indexed slopes
// of 2n heads (their interleaved construction).
std::vector<double> alibi_slopes(Index heads);

// The forward reads the heads from the tensors: D rows of q_proj per query head and of k_proj and
// v_proj per key/value head — or, in a module whose heads all read one shared projection, D rows
// of each in all.
template <typename T>
struct GqaParams {
  using Scalar = T;
  GqaConfig config;
  Matrix<T> q_proj;  // (H·D, E)
  Matrix<T> k_proj;  // (G·D, E)
  Matrix<T> v_proj;  // (G·D, E)
  Matrix<T> o_proj;  // (E, H·D)

  GqaParams() = default;
  // Zeros of the right shapes; throws EngineError for a bad config (check_gqa_config).
  explicit GqaParams(const GqaConfig& config);
};

template <typename T>
struct GqaCache {
  Matrix<T> q;                   // (T, H·D) after RoPE when it is on
  Matrix<T> k;                   // (T, G·D) after RoPE when it is on
  Matrix<T> v;                   // (T, G·D)
  std::vector<Matrix<T>> probs;  // H × (T, T): each query head's attention weights
  Matrix<T> heads;               // (T, H·D) the heads' outputs side by side, o_proj's input
  Positions positions;           // the positions used
  std::vector<Index> kv_head;    // H: the key/value head each query head read
};

// `positions` empty means 0, 1, …, T − 1.
template <typename T>
void gqa_forward(Matrix<T>& out,  // (T, E)
                 GqaCache<T>& cache,
                 const Matrix<T>& inp,  // (T, E)
                 const GqaParams<T>& params, const Positions& positions = {});

template <typename T>
void gqa_backward(Matrix<T>& dinp,        // (T, E)
                  GqaParams<T>& grads,    // same shapes as params, assigned
                  const Matrix<T>& dout,  // (T, E)
                  const Matrix<T>& inp,   // (T, E)
                  const GqaParams<T>& params, const GqaCache<T>& cache);

template <typename P>
concept GqaParamsType =
    std::same_as<std::remove_const_t<P>, GqaParams<typename std::remove_const_t<P>::Scalar>>;

template <GqaParamsType P, typename Visitor>
void visit_params(P& params, const std::string& prefix, Visitor&& visit) {
  visit(prefix + "q_proj.weight", params.q_proj);
  visit(prefix + "k_proj.weight", params.k_proj);
  visit(prefix + "v_proj.weight", params.v_proj);
  visit(prefix + "o_proj.weight", params.o_proj);
}

// --- decoding with a key/value cache ----------------------------------------------------------
// Only keys and values are cached: a new token's query is used once, at its own step, while every
// later token reads the keys and values of all before it.
template <typename T>
struct KvCache {
  using Scalar = T;
  Matrix<T> keys;    // (t, G·D) every token's key so far, after RoPE when it is on
  Matrix<T> values;  // (t, G·D)
  // Empty: decoding never reads a past query; only the kv-cache-keeps-queries fault fills it.
  Matrix<T> queries;  // (t, H·D)
  Index length() const { return keys.rows(); }
};

template <typename C>
concept KvCacheType =
    std::same_as<std::remove_const_t<C>, KvCache<typename std::remove_const_t<C>::Scalar>>;

// Visits every tensor the cache holds, by member name: "keys" and "values" (and "queries" when
// it holds any). C may be const.
template <KvCacheType C, typename Visitor>
void visit_tensors(C& cache, Visitor&& visit) {
  visit("keys", cache.keys);
  visit("values", cache.values);
  if (cache.queries.size() != 0) visit("queries", cache.queries);
}

// Decodes the token at `position` (its embedding a (1, E) row): projects its q, k and v, appends
// k and v to the cache, and attends over every cached token — a causal pass needs nothing more.
// With a sliding window W the cache is a rolling buffer of W rows: once full, token i overwrites
// row i mod W, the token that has just left the window (positions decoded in order; no ALiBi).
// out: (1, E). Equals the row of gqa_forward's causal (and windowed) output for that token.
template <typename T>
void gqa_decode_step(Matrix<T>& out, KvCache<T>& cache, const Matrix<T>& token,
                     std::int64_t position, const GqaParams<T>& params);

// 2 × layers × G × D × T × bytes per value: keys and values, every layer, every token so far.
std::int64_t kv_cache_bytes(std::int64_t layers, std::int64_t kv_heads, std::int64_t head_dim,
                            std::int64_t tokens, std::int64_t bytes_per_value);

// --- tiled attention with an online softmax (Dao et al. 2022) --------------------------------
// One head, out = softmax(q·kᵀ/√d [+ causal mask])·v, computed tile by tile: each query tile
// walks the key tiles keeping a running maximum, a running sum and a rescaled output, so the
// full (T, T) score matrix never exists — the largest score buffer is tile × tile. Exact: the
// same result as attention_forward up to rounding, not an approximation.
struct TiledAttentionStats {
  Index score_buffer = 0;  // entries of the largest score block held at once (≤ tile²)
  Index tiles = 0;         // query-tile × key-tile blocks computed (causal skips the future)
};

template <typename T>
TiledAttentionStats attention_tiled_forward(MutableRef<T> out,  // (T, d_v)
                                            ConstRef<T> query,  // (T, d_k)
                                            ConstRef<T> key,    // (T, d_k)
                                            ConstRef<T> value,  // (T, d_v)
                                            Index tile, bool causal);

}  // namespace proofdeck::engine
