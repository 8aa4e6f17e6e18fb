// Scaled dot-product attention and nn.MultiheadAttention: self-attention on one sequence, and
// cross-attention of one sequence's queries over another's keys and values.
// Nothing here takes a token's index as input: without a positional signal in the vectors (or
// RoPE's rotation of Q and K), permuting the tokens only permutes the output rows.
#pragma once

#include <concepts>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/fault.hpp"
#include "engine/linear.hpp"
#include "engine/positional.hpp"
#include "engine/tensor.hpp"

namespace proofdeck::engine {

template <typename T>
using ConstRef = Eigen::Ref<const Matrix<T>>;
template <typename T>
using MutableRef = Eigen::Ref<Matrix<T>>;

struct AttentionOptions {
  bool causal = false;             // position t attends to positions ≤ t only
  bool scaled = true;              // divide scores by √d_k; off only for the scaling demo
  std::optional<RopeConfig> rope;  // rotate each head's Q and K after projection
  bool sinusoidal_qk = false;      // add a sinusoidal code to each head's Q and K after projection
                                   // instead (add_positions_to_heads): never with rope
  Positions positions;             // RoPE's or the code's positions, one per row; empty means
                                   // 0, 1, …, T − 1
  // (S) true at a padding key, which no query may weigh: PyTorch's key_padding_mask for one
  // sequence of a padded batch. Empty: every key is a token. A query left with no key at all
  // (every key padded, or the unpadded ones behind its causal mask) is refused: PyTorch returns
  // NaN for that row, because the softmax of scores that are all −∞ is 0/0, and its backward
  // spreads the NaN to the input's and the projections' gradients in every row (NaN · 0 is NaN),
  // even when the loss ignores the row.
  std::vector<bool> key_padding;
};

// --- one head: out = softmax(q·kᵀ/√d_k [+ mask])·v ---------------------------------------------
// Row-wise softmax of `scores` in place. With `causal`, row r is the sequence's place
// first_query + r and sees keys 0..first_query + r only; the rest get weight 0. With a sliding
// `window` W > 0 (Mistral's sliding_window) row r also sees no key before first_query + r − W + 1:
// W keys at most, its own included. window-off-by-one (fault): W + 1 keys.
template <typename T>
void softmax_rows(Matrix<T>& scores, Index first_query, bool causal, Index window = 0);

// The mask softmax_rows and the tiled pass apply under `fault`: whether keys past a query's place
// are hidden, and how many places from its own a query reaches (1: up to itself).
// causal-mask-ignored hides none, causal-mask-off-by-one reaches one further, causal-mask-always
// masks a bidirectional request too.
struct CausalReach {
  bool masked = false;
  Index reach = 1;
};
CausalReach causal_reach(bool causal, Fault fault) noexcept;

// Hides the padding keys from every query: their scores become the lowest finite value, so the
// softmax gives them no weight (PyTorch uses −∞; the two differ only on a row with no key left,
// which is refused, see AttentionOptions::key_padding); attention_forward then sets those weights
// to exactly 0. `reach` is the causal mask the softmax will apply; row r is the sequence's place
// first_query + r. Returns whether the mask was applied.
// key-padding-ignored (fault): the mask is not applied and the padding is weighed as tokens.
template <typename T>
bool mask_padding_keys(Matrix<T>& scores, const std::vector<bool>& key_padding, CausalReach reach,
                       Index first_query);

// The scores attention_forward takes the softmax of: q·kᵀ/√d_k (q·kᵀ when options.scaled is off),
// before any mask.
// T queries attend over S keys and values: S = T in self-attention; in cross-attention S is the
// other sequence's length. A causal mask (self-attention's) hides key s > t from query t.
template <typename T>
void attention_scores(Matrix<T>& scores,  // (T, S)
                      ConstRef<T> query,  // (T, d_k)
                      ConstRef<T> key,    // (S, d_k)
                      const AttentionOptions& options);

template <typename T>
void attention_forward(MutableRef<T> out,  // (T, d_v)
                       Matrix<T>& probs,   // (T, S) attention weights, kept for backward
                       ConstRef<T> query,  // (T, d_k)
                       ConstRef<T> key,    // (S, d_k)
                       ConstRef<T> value,  // (S, d_v)
                       const AttentionOptions& options);

template <typename T>
void attention_backward(MutableRef<T> dquery,  // (T, d_k)
                        MutableRef<T> dkey,    // (S, d_k)
                        MutableRef<T> dvalue,  // (S, d_v)
                        ConstRef<T> dout,      // (T, d_v)
                        ConstRef<T> query, ConstRef<T> key, ConstRef<T> value,
                        const Matrix<T>& probs,  // (T, S) from the forward
                        const AttentionOptions& options);

// --- multi-head attention with PyTorch's packed parameters ------------------------------------
// nn.MultiheadAttention splits E into H heads of D = E / H: in_proj is (3E, E), out_proj (E, E).
// The views below read the split from the tensors themselves — D from out_proj's H·D inputs, and
// D rows of W_q, W_k, W_v per head, or D rows in all when every head reads one shared projection
// — so a module built with other widths runs and counts as it is built.
template <typename T>
struct MhaParams {
  using Scalar = T;
  Index num_heads = 1;
  LinearParams<T> in_proj;   // weight (3·H·D, E): rows [W_q; W_k; W_v], bias (3·H·D)
  LinearParams<T> out_proj;  // weight (E, H·D), bias (E)

  MhaParams() = default;
  // Throws when embed_dim is not divisible by num_heads.
  MhaParams(Index embed_dim, Index heads, bool has_bias);

  Index embed_dim() const { return out_proj.weight.rows(); }
  // The heads' outputs side by side are out_proj's input.
  Index head_dim() const { return out_proj.weight.cols() / num_heads; }
  // Rows of each of W_q, W_k, W_v: H·D, or D when every head reads the same ones.
  Index projection_rows() const { return in_proj.weight.rows() / 3; }
  // Where head h's rows start within W_q (and within W_k, W_v).
  Index head_row(Index head) const {
    return projection_rows() == head_dim() ? 0 : head * head_dim();
  }
  bool has_bias() const { return in_proj.has_bias(); }

  // Head h's own projections are views of the packed in-projection: (head_dim, E) each.
  auto query_weight(Index head) const {
    return in_proj.weight.middleRows(head_row(head), head_dim());
  }
  auto key_weight(Index head) const {
    return in_proj.weight.middleRows(projection_rows() + head_row(head), head_dim());
  }
  auto value_weight(Index head) const {
    return in_proj.weight.middleRows(2 * projection_rows() + head_row(head), head_dim());
  }
};

// Throws EngineError unless embed_dim > 0, num_heads > 0 and embed_dim % num_heads == 0.
void check_head_split(Index embed_dim, Index num_heads);

// The widths MhaParams(embed_dim, heads, …) builds its heads with, without allocating a weight:
// head_dim = embed_dim / heads, and W_q, W_k, W_v of heads · head_dim rows each. heads-full-width
// builds head_dim = embed_dim; heads-share-projection one head_dim-row block every head reads.
struct HeadLayout {
  Index num_heads = 1;
  Index head_dim = 1;
  Index projection_rows = 1;  // rows of each of W_q, W_k, W_v
};
HeadLayout head_layout(Index embed_dim, Index heads);

template <typename T>
struct MhaCache {
  Matrix<T> qkv;                 // (T, 3·H·D) projections; Q and K after RoPE when it is on
  std::vector<Matrix<T>> probs;  // num_heads × (T, T): each head's attention weights
  Matrix<T> heads;               // (T, H·D) the heads' outputs side by side, out_proj's input
  Positions positions;           // the RoPE positions used
};

template <typename T>
void mha_forward(Matrix<T>& out,        // (T, E)
                 MhaCache<T>& cache,    // filled for backward and for inspection
                 const Matrix<T>& inp,  // (T, E)
                 const MhaParams<T>& params, const AttentionOptions& options);

template <typename T>
void mha_backward(Matrix<T>& dinp,        // (T, E)
                  MhaParams<T>& grads,    // same shapes as params
                  const Matrix<T>& dout,  // (T, E)
                  const Matrix<T>& inp,   // (T, E)
                  const MhaParams<T>& params, const MhaCache<T>& cache,
                  const AttentionOptions& options);

// --- cross-attention: nn.MultiheadAttention(query=x, key=memory, value=memory)
// -------------------- An encoder-decoder layer's second attention: the queries come from the
// decoder's sequence x (T tokens), the keys and values from the encoder's output, the memory (S
// tokens), through the same packed parameters (W_q on x; W_k, W_v on the memory). Each of the T
// outputs is a weighted sum over the S memory positions. No causal mask (every decoder position may
// read the whole input) and no positional rotation: options.causal, rope and sinusoidal_qk must be
// off. cross-attention-self-keys (fault): keys and values are projected from x instead of the
// memory, so the decoder attends over itself.
template <typename T>
struct CrossAttentionCache {
  Matrix<T> query;               // (T, H·D) projected queries
  Matrix<T> key_value;           // (S, 2·H·D) projected keys, then values
  std::vector<Matrix<T>> probs;  // num_heads × (T, S)
  Matrix<T> heads;               // (T, H·D) the heads' outputs side by side
  bool keys_from_query = false;  // the fault's wiring, for backward
};

template <typename T>
void cross_attention_forward(Matrix<T>& out,                 // (T, E)
                             CrossAttentionCache<T>& cache,  // filled for backward
                             const Matrix<T>& inp,           // (T, E) the queries' sequence
                             const Matrix<T>& memory,        // (S, E) the keys' and values'
                             const MhaParams<T>& params, const AttentionOptions& options);

template <typename T>
void cross_attention_backward(Matrix<T>& dinp,        // (T, E)
                              Matrix<T>& dmemory,     // (S, E)
                              MhaParams<T>& grads,    // same shapes as params
                              const Matrix<T>& dout,  // (T, E)
                              const Matrix<T>& inp, const Matrix<T>& memory,
                              const MhaParams<T>& params, const CrossAttentionCache<T>& cache,
                              const AttentionOptions& options);

template <typename P>
concept MhaParamsType =
    std::same_as<std::remove_const_t<P>, MhaParams<typename std::remove_const_t<P>::Scalar>>;

// Visits every parameter with PyTorch's state_dict name and the tensor (Matrix or Vector);
// P may be const.
template <MhaParamsType P, typename Visitor>
void visit_params(P& params, const std::string& prefix, Visitor&& visit) {
  visit(prefix + "in_proj_weight", params.in_proj.weight);
  if (params.has_bias()) visit(prefix + "in_proj_bias", params.in_proj.bias);
  visit(prefix + "out_proj.weight", params.out_proj.weight);
  if (params.out_proj.has_bias()) visit(prefix + "out_proj.bias", params.out_proj.bias);
}

}  // namespace proofdeck::engine
