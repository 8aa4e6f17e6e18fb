// Forward and backward of scaled dot-product attention and multi-head attention.
#include "engine/attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace proofdeck::engine {

void check_head_split(Index embed_dim, Index num_heads) {
  require(embed_dim > 0, "embed_dim must be positive, got " + std::to_string(embed_dim));
  require(num_heads > 0, "num_heads must be positive, got " + std::to_string(num_heads));
  if (embed_dim % num_heads != 0) {
    throw EngineError("embed_dim " + std::to_string(embed_dim) + " is not divisible by num_heads " +
                      std::to_string(num_heads) +
                      ": each head must get an equal share (head_dim = embed_dim / num_heads)");
  }
}

template <typename T>
MhaParams<T>::MhaParams(Index embed_dim, Index heads, bool has_bias)
    : num_heads(heads),
      in_proj(embed_dim, 3 * embed_dim, has_bias),
      out_proj(embed_dim, embed_dim, has_bias) {
  check_head_split(embed_dim, heads);
}

namespace {

template <typename T>
T score_scale(Index head_dim, const AttentionOptions& options) {
  return options.scaled ? T(1) / std::sqrt(static_cast<T>(head_dim)) : T(1);
}

}  // namespace

template <typename T>
void softmax_rows(Matrix<T>& scores, Index first_query, bool causal) {
  const Index keys = scores.cols();
  for (Index row = 0; row < scores.rows(); ++row) {
    const Index visible = causal ? std::min(keys, first_query + row + 1) : keys;
    auto seen = scores.row(row).head(visible);
    const T max_score = seen.maxCoeff();
    seen = (seen.array() - max_score).exp();
    seen /= seen.sum();
    if (visible < keys) scores.row(row).tail(keys - visible).setZero();
  }
}

template <typename T>
void attention_forward(MutableRef<T> out, Matrix<T>& probs, ConstRef<T> query, ConstRef<T> key,
                       ConstRef<T> value, const AttentionOptions& options) {
  const Index steps = query.rows();
  require(key.rows() == steps && value.rows() == steps && key.cols() == query.cols(),
          "attention query " + shape_of(query) + ", key " + shape_of(key) + " and value " +
              shape_of(value) + " must have one row per token and equal query/key widths");
  require_shape(out, steps, value.cols(), "attention output");
  probs.resize(steps, steps);
  probs.noalias() = query * key.transpose();
  probs *= score_scale<T>(query.cols(), options);
  softmax_rows(probs, 0, options.causal);
  out.noalias() = probs * value;
}

template <typename T>
void attention_backward(MutableRef<T> dquery, MutableRef<T> dkey, MutableRef<T> dvalue,
                        ConstRef<T> dout, ConstRef<T> query, ConstRef<T> key, ConstRef<T> value,
                        const Matrix<T>& probs, const AttentionOptions& options) {
  // forward was: out = P·v, P = softmax(s) by rows, s = scale·q·kᵀ (masked entries have P = 0)
  require_shape(dout, query.rows(), value.cols(), "attention grad_output");
  dvalue.noalias() = probs.transpose() * dout;
  Matrix<T> dprobs = dout * value.transpose();
  // softmax backward: ds = P ∘ (dP − Σ_j P·dP), row by row
  const Vector<T> row_dot = probs.cwiseProduct(dprobs).rowwise().sum();
  Matrix<T> dscores = probs.cwiseProduct(dprobs.colwise() - row_dot);
  dscores *= score_scale<T>(query.cols(), options);
  dquery.noalias() = dscores * key;
  dkey.noalias() = dscores.transpose() * query;
}

template <typename T>
void mha_forward(Matrix<T>& out, MhaCache<T>& cache, const Matrix<T>& inp,
                 const MhaParams<T>& params, const AttentionOptions& options) {
  const Index embed = params.embed_dim();
  check_head_split(embed, params.num_heads);
  require_shape(params.in_proj.weight, 3 * embed, embed, "in_proj_weight");
  require_shape(inp, inp.rows(), embed, "attention input");
  const Index steps = inp.rows();
  const Index head_dim = params.head_dim();

  linear_forward(cache.qkv, inp, params.in_proj);
  if (options.rope) {
    cache.positions = options.positions.empty() ? sequential_positions(steps) : options.positions;
    Matrix<T> rotated;
    for (Index h = 0; h < params.num_heads; ++h) {
      for (const Index offset : {h * head_dim, embed + h * head_dim}) {  // Q then K of head h
        rope_forward<T>(rotated, cache.qkv.middleCols(offset, head_dim), cache.positions,
                        *options.rope);
        cache.qkv.middleCols(offset, head_dim) = rotated;
      }
    }
  }
  cache.probs.resize(static_cast<std::size_t>(params.num_heads));
  cache.heads.resize(steps, embed);
  for (Index h = 0; h < params.num_heads; ++h) {
    attention_forward<T>(cache.heads.middleCols(h * head_dim, head_dim),
                         cache.probs[static_cast<std::size_t>(h)],
                         cache.qkv.middleCols(h * head_dim, head_dim),
                         cache.qkv.middleCols(embed + h * head_dim, head_dim),
                         cache.qkv.middleCols(2 * embed + h * head_dim, head_dim), options);
  }
  linear_forward(out, cache.heads, params.out_proj);
}

template <typename T>
void mha_backward(Matrix<T>& dinp, MhaParams<T>& grads, const Matrix<T>& dout, const Matrix<T>& inp,
                  const MhaParams<T>& params, const MhaCache<T>& cache,
                  const AttentionOptions& options) {
  // forward was: heads = [attention(q_h, k_h, v_h)]_h; out = heads·W_oᵀ + b_o
  const Index embed = params.embed_dim();
  const Index head_dim = params.head_dim();
  const Index steps = inp.rows();
  require_shape(dout, steps, embed, "attention grad_output");
  grads.num_heads = params.num_heads;

  Matrix<T> dheads;
  linear_backward(dheads, grads.out_proj, dout, cache.heads, params.out_proj);
  Matrix<T> dqkv(steps, 3 * embed);
  for (Index h = 0; h < params.num_heads; ++h) {
    attention_backward<T>(
        dqkv.middleCols(h * head_dim, head_dim), dqkv.middleCols(embed + h * head_dim, head_dim),
        dqkv.middleCols(2 * embed + h * head_dim, head_dim),
        dheads.middleCols(h * head_dim, head_dim), cache.qkv.middleCols(h * head_dim, head_dim),
        cache.qkv.middleCols(embed + h * head_dim, head_dim),
        cache.qkv.middleCols(2 * embed + h * head_dim, head_dim),
        cache.probs[static_cast<std::size_t>(h)], options);
  }
  if (options.rope) {
    // forward was: q_h ← R(p)·q_h, k_h ← R(p)·k_h
    Matrix<T> unrotated;
    for (Index h = 0; h < params.num_heads; ++h) {
      for (const Index offset : {h * head_dim, embed + h * head_dim}) {
        rope_backward<T>(unrotated, dqkv.middleCols(offset, head_dim), cache.positions,
                         *options.rope);
        dqkv.middleCols(offset, head_dim) = unrotated;
      }
    }
  }
  linear_backward(dinp, grads.in_proj, dqkv, inp, params.in_proj);
}

#define PROOFDECK_INSTANTIATE(T)                                                                \
  template struct MhaParams<T>;                                                                 \
  template void softmax_rows<T>(Matrix<T>&, Index, bool);                                       \
  template void attention_forward<T>(MutableRef<T>, Matrix<T>&, ConstRef<T>, ConstRef<T>,       \
                                     ConstRef<T>, const AttentionOptions&);                     \
  template void attention_backward<T>(MutableRef<T>, MutableRef<T>, MutableRef<T>, ConstRef<T>, \
                                      ConstRef<T>, ConstRef<T>, ConstRef<T>, const Matrix<T>&,  \
                                      const AttentionOptions&);                                 \
  template void mha_forward<T>(Matrix<T>&, MhaCache<T>&, const Matrix<T>&, const MhaParams<T>&, \
                               const AttentionOptions&);                                        \
  template void mha_backward<T>(Matrix<T>&, MhaParams<T>&, const Matrix<T>&, const Matrix<T>&,  \
                                const MhaParams<T>&, const MhaCache<T>&, const AttentionOptions&);
PROOFDECK_INSTANTIATE(float)
PROOFDECK_INSTANTIATE(double)
#undef PROOFDECK_INSTANTIATE

}  // namespace proofdeck::engine
