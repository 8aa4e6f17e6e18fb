// Forward and backward of scaled dot-product attention and multi-head attention.
#include "engine/attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "engine/fault.hpp"
#include "engine/macs.hpp"

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

HeadLayout head_layout(Index embed_dim, Index heads) {
  const Fault fault = enter(Op::heads);
  check_head_split(embed_dim, heads);
  // heads-full-width: every head projects to all of d_model; heads-share-projection: one
  // head-width W_q, W_k, W_v that every head reads.
  const Index head_dim = fault == Fault::heads_full_width ? embed_dim : embed_dim / heads;
  const Index projection_rows =
      fault == Fault::heads_share_projection ? head_dim : heads * head_dim;
  return HeadLayout{heads, head_dim, projection_rows};
}

template <typename T>
MhaParams<T>::MhaParams(Index embed_dim, Index heads, bool has_bias) : num_heads(heads) {
  const HeadLayout layout = head_layout(embed_dim, heads);
  in_proj = LinearParams<T>(embed_dim, 3 * layout.projection_rows, has_bias);
  out_proj = LinearParams<T>(heads * layout.head_dim, embed_dim, has_bias);
}

namespace {

// 1/√d_k when scaled (unscaled-scores: 1); scores-averaged also divides by d_k, taking the mean of
// the d_k products q_i·k_i for their sum.
template <typename T>
T score_scale(Index head_dim, const AttentionOptions& options, Fault fault) {
  const bool scaled = options.scaled && fault != Fault::unscaled_scores;
  const T averaged = fault == Fault::scores_averaged ? T(1) / static_cast<T>(head_dim) : T(1);
  return averaged * (scaled ? T(1) / std::sqrt(static_cast<T>(head_dim)) : T(1));
}

// The heads' widths come from the module's own tensors: out_proj takes H·D inputs, and W_q, W_k,
// W_v hold D rows for each head or D rows that every head shares.
template <typename T>
void check_mha_params(const MhaParams<T>& params) {
  const Index embed = params.embed_dim();
  check_head_split(embed, params.num_heads);
  const Index head_dim = params.head_dim();
  require(head_dim > 0 && params.out_proj.weight.cols() == params.num_heads * head_dim,
          "out_proj.weight has shape " + shape_of(params.out_proj.weight) + ": its " +
              std::to_string(params.out_proj.weight.cols()) +
              " inputs must split evenly into num_heads " + std::to_string(params.num_heads));
  const bool shared = params.num_heads > 1 && params.in_proj.weight.rows() == 3 * head_dim;
  const Index projection_rows = shared ? head_dim : params.num_heads * head_dim;
  require_shape(params.in_proj.weight, 3 * projection_rows, embed, "in_proj_weight");
}

}  // namespace

CausalReach causal_reach(bool causal, Fault fault) noexcept {
  const bool masked =
      causal ? fault != Fault::causal_mask_ignored : fault == Fault::causal_mask_always;
  return CausalReach{masked, fault == Fault::causal_mask_off_by_one ? Index{2} : Index{1}};
}

template <typename T>
void softmax_rows(Matrix<T>& scores, Index first_query, bool causal, Index window) {
  const Fault fault = enter(Op::attention);
  if (window > 0) enter(Op::sliding_window);
  const Index queries = scores.rows();
  const Index keys = scores.cols();
  // The keys row r sees: all of them, or under the causal mask those up to its own place
  // first_query + r; under a sliding window none before its place − span + 1.
  const CausalReach mask = causal_reach(causal, fault);
  const auto visible = [&](Index row) {
    return mask.masked ? std::min(keys, first_query + row + mask.reach) : keys;
  };
  const Index span = window > 0 ? window + (fault == Fault::window_off_by_one ? 1 : 0) : 0;
  const auto first_visible = [&](Index row) {
    return span > 0 ? std::clamp<Index>(first_query + row - span + 1, 0, keys) : Index{0};
  };
  if (fault == Fault::softmax_wrong_axis) {
    // Each key's column is normalised over the queries that see it; a column no query sees
    // keeps weight 0.
    for (Index col = 0; col < keys; ++col) {
      Index first_row = 0;
      while (first_row < queries && visible(first_row) <= col)
        ++first_row;
      Index end_row = first_row;
      while (end_row < queries && first_visible(end_row) <= col)
        ++end_row;
      auto seen = scores.col(col).segment(first_row, end_row - first_row);
      if (seen.size() > 0) {
        const T max_score = seen.maxCoeff();
        seen = (seen.array() - max_score).exp();
        seen /= seen.sum();
      }
      scores.col(col).head(first_row).setZero();
      scores.col(col).tail(queries - end_row).setZero();
    }
    return;
  }
  for (Index row = 0; row < queries; ++row) {
    const Index first_key = first_visible(row);
    const Index seen_keys = visible(row);
    auto seen = scores.row(row).segment(first_key, seen_keys - first_key);
    const T max_score = seen.maxCoeff();
    seen = (seen.array() - max_score).exp();
    seen /= seen.sum();
    if (first_key > 0) scores.row(row).head(first_key).setZero();
    if (seen_keys < keys) scores.row(row).tail(keys - seen_keys).setZero();
  }
}

template <typename T>
bool mask_padding_keys(Matrix<T>& scores, const std::vector<bool>& key_padding, CausalReach reach,
                       Index first_query) {
  if (key_padding.empty()) return false;
  const Fault fault = enter(Op::padding);
  const Index keys = scores.cols();
  require(static_cast<Index>(key_padding.size()) == keys,
          "key_padding_mask has " + std::to_string(key_padding.size()) + " entries for " +
              std::to_string(keys) + " keys; expected one per key");
  if (fault == Fault::key_padding_ignored) return false;
  // The queries left with no key: every key padded, or the real ones behind the causal mask.
  std::string stranded;
  Index count = 0;
  for (Index row = 0; row < scores.rows(); ++row) {
    const Index seen = reach.masked ? std::min(keys, first_query + row + reach.reach) : keys;
    const auto first = key_padding.begin();
    if (std::find(first, first + seen, false) != first + seen) continue;
    stranded += (count++ == 0 ? "" : ", ") + std::to_string(first_query + row);
  }
  if (count > 0) {
    throw EngineError(
        (count == 1 ? "query " + stranded + " has" : "queries " + stranded + " have") +
        " no key to attend to: every key " + (reach.masked ? "its causal mask leaves " : "") +
        "is padding. PyTorch returns NaN for such a row (the softmax of scores that are all -inf "
        "is 0/0), and its backward spreads the NaN to the input's and the projections' gradients "
        "in every row, even where the loss ignores the row. Pad on the right, or leave each query "
        "at least one real key");
  }
  for (Index key = 0; key < keys; ++key) {
    if (key_padding[static_cast<std::size_t>(key)])
      scores.col(key).setConstant(std::numeric_limits<T>::lowest());
  }
  return true;
}

template <typename T>
void zero_padding_weights(Matrix<T>& probs, const std::vector<bool>& key_padding) {
  // A vectorised exp of the lowest score leaves a denormal (~1e-309), not 0.
  for (Index key = 0; key < probs.cols(); ++key) {
    if (key_padding[static_cast<std::size_t>(key)]) probs.col(key).setZero();
  }
}

namespace {

template <typename T>
void scaled_scores(Matrix<T>& scores, ConstRef<T> query, ConstRef<T> key,
                   const AttentionOptions& options, Fault fault) {
  scores.resize(query.rows(), key.rows());
  scores.noalias() = query * key.transpose();
  count_macs(MacSite::scores, query.rows(), query.cols(), key.rows());
  scores *= score_scale<T>(query.cols(), options, fault);
}

}  // namespace

template <typename T>
void attention_scores(Matrix<T>& scores, ConstRef<T> query, ConstRef<T> key,
                      const AttentionOptions& options) {
  const Fault fault = enter(Op::attention);
  require(key.cols() == query.cols(), "attention query " + shape_of(query) + " and key " +
                                          shape_of(key) + " must have equal widths");
  scaled_scores(scores, query, key, options, fault);
}

template <typename T>
void attention_forward(MutableRef<T> out, Matrix<T>& probs, ConstRef<T> query, ConstRef<T> key,
                       ConstRef<T> value, const AttentionOptions& options) {
  const Fault fault = enter(Op::attention);
  // T queries attend over S keys: S = T in self-attention, the memory's length in cross-attention
  require(value.rows() == key.rows() && key.cols() == query.cols(),
          "attention query " + shape_of(query) + ", key " + shape_of(key) + " and value " +
              shape_of(value) + " must have one key row per value row and equal query/key widths");
  require_shape(out, query.rows(), value.cols(), "attention output");
  scaled_scores(probs, query, key, options, fault);
  const bool padded =
      mask_padding_keys(probs, options.key_padding, causal_reach(options.causal, fault), 0);
  softmax_rows(probs, 0, options.causal);
  if (padded) zero_padding_weights(probs, options.key_padding);
  out.noalias() = probs * value;
  count_macs(MacSite::weighted_values, probs.rows(), probs.cols(), value.cols());
}

template <typename T>
void attention_backward(MutableRef<T> dquery, MutableRef<T> dkey, MutableRef<T> dvalue,
                        ConstRef<T> dout, ConstRef<T> query, ConstRef<T> key, ConstRef<T> value,
                        const Matrix<T>& probs, const AttentionOptions& options) {
  // forward was: out = P·v, P = softmax(s) by rows, s = scale·q·kᵀ (masked entries have P = 0)
  const Fault fault = enter(Op::attention);
  require_shape(dout, query.rows(), value.cols(), "attention grad_output");
  dvalue.noalias() = probs.transpose() * dout;
  Matrix<T> dprobs = dout * value.transpose();
  Matrix<T> dscores;
  if (fault == Fault::softmax_wrong_axis) {
    // the forward normalised columns: ds = P ∘ (dP − Σ_i P·dP), column by column
    const Eigen::Matrix<T, 1, Eigen::Dynamic> column_dot =
        probs.cwiseProduct(dprobs).colwise().sum();
    dscores = probs.cwiseProduct(dprobs.rowwise() - column_dot);
  } else {
    // softmax backward: ds = P ∘ (dP − Σ_j P·dP), row by row
    const Vector<T> row_dot = probs.cwiseProduct(dprobs).rowwise().sum();
    dscores = probs.cwiseProduct(dprobs.colwise() - row_dot);
  }
  dscores *= score_scale<T>(query.cols(), options, fault);
  dquery.noalias() = dscores * key;
  dkey.noalias() = dscores.transpose() * query;
}

template <typename T>
void mha_forward(Matrix<T>& out, MhaCache<T>& cache, const Matrix<T>& inp,
                 const MhaParams<T>& params, const AttentionOptions& options) {
  const Fault fault = enter(Op::attention);
  enter(Op::heads);
  if (options.rope) enter(Op::rope);
  check_mha_params(params);
  require_shape(inp, inp.rows(), params.embed_dim(), "attention input");
  const Index steps = inp.rows();
  const Index head_dim = params.head_dim();
  const Index rows = params.projection_rows();  // qkv holds Q, K and V, `rows` columns each

  require(!(options.rope && options.sinusoidal_qk),
          "attention takes RoPE or a sinusoidal code on Q and K, not both");
  linear_forward(cache.qkv, inp, params.in_proj);
  if (options.rope || options.sinusoidal_qk)
    cache.positions = options.positions.empty() ? sequential_positions(steps) : options.positions;
  if (options.sinusoidal_qk) {
    // Q and K gain the code, head block by head block; V is left as it is.
    Matrix<T> qk = cache.qkv.leftCols(2 * rows);
    add_positions_to_heads(qk, cache.positions, head_dim);
    cache.qkv.leftCols(2 * rows) = qk;
  }
  if (options.rope) {
    // Q and K, head block by head block (rope-on-values: V as well)
    const Index rotated_columns = (fault == Fault::rope_on_values ? 3 : 2) * rows;
    Matrix<T> rotated;
    for (Index offset = 0; offset < rotated_columns; offset += head_dim) {
      rope_forward<T>(rotated, cache.qkv.middleCols(offset, head_dim), cache.positions,
                      *options.rope);
      cache.qkv.middleCols(offset, head_dim) = rotated;
    }
  }
  cache.probs.resize(static_cast<std::size_t>(params.num_heads));
  cache.heads.resize(steps, params.num_heads * head_dim);
  for (Index h = 0; h < params.num_heads; ++h) {
    const Index row = params.head_row(h);
    attention_forward<T>(
        cache.heads.middleCols(h * head_dim, head_dim), cache.probs[static_cast<std::size_t>(h)],
        cache.qkv.middleCols(row, head_dim), cache.qkv.middleCols(rows + row, head_dim),
        cache.qkv.middleCols(2 * rows + row, head_dim), options);
  }
  linear_forward(out, cache.heads, params.out_proj);
}

template <typename T>
void mha_backward(Matrix<T>& dinp, MhaParams<T>& grads, const Matrix<T>& dout, const Matrix<T>& inp,
                  const MhaParams<T>& params, const MhaCache<T>& cache,
                  const AttentionOptions& options) {
  // forward was: heads = [attention(q_h, k_h, v_h)]_h; out = heads·W_oᵀ + b_o (a sinusoidal code
  // added to q_h and k_h passes their gradients through)
  const Fault fault = enter(Op::attention);
  enter(Op::heads);
  if (options.rope) enter(Op::rope);
  check_mha_params(params);
  const Index embed = params.embed_dim();
  const Index head_dim = params.head_dim();
  const Index rows = params.projection_rows();
  const Index steps = inp.rows();
  require_shape(dout, steps, embed, "attention grad_output");
  grads.num_heads = params.num_heads;

  Matrix<T> dheads;
  linear_backward(dheads, grads.out_proj, dout, cache.heads, params.out_proj);
  Matrix<T> dqkv = Matrix<T>::Zero(steps, 3 * rows);
  Matrix<T> dq_head(steps, head_dim), dk_head(steps, head_dim), dv_head(steps, head_dim);
  for (Index h = 0; h < params.num_heads; ++h) {
    const Index row = params.head_row(h);
    // The first head to read a block of rows writes its gradient there; a head that reads the
    // same block after it (one projection shared by every head) adds its own.
    const bool first_reader = h == 0 || params.head_row(h - 1) != row;
    const auto block = [&](Index offset, Matrix<T>& gathered) {
      return first_reader ? MutableRef<T>(dqkv.middleCols(offset, head_dim))
                          : MutableRef<T>(gathered);
    };
    attention_backward<T>(
        block(row, dq_head), block(rows + row, dk_head), block(2 * rows + row, dv_head),
        dheads.middleCols(h * head_dim, head_dim), cache.qkv.middleCols(row, head_dim),
        cache.qkv.middleCols(rows + row, head_dim), cache.qkv.middleCols(2 * rows + row, head_dim),
        cache.probs[static_cast<std::size_t>(h)], options);
    if (!first_reader) {
      dqkv.middleCols(row, head_dim) += dq_head;
      dqkv.middleCols(rows + row, head_dim) += dk_head;
      dqkv.middleCols(2 * rows + row, head_dim) += dv_head;
    }
  }
  if (options.rope) {
    // forward was: q_h ← R(p)·q_h, k_h ← R(p)·k_h (rope-on-values: v_h ← R(p)·v_h)
    const Index rotated_columns = (fault == Fault::rope_on_values ? 3 : 2) * rows;
    Matrix<T> unrotated;
    for (Index offset = 0; offset < rotated_columns; offset += head_dim) {
      rope_backward<T>(unrotated, dqkv.middleCols(offset, head_dim), cache.positions,
                       *options.rope);
      dqkv.middleCols(offset, head_dim) = unrotated;
    }
  }
  linear_backward(dinp, grads.in_proj, dqkv, inp, params.in_proj);
}

namespace {

// W_q's rows of the packed in-projection, or W_k's and W_v's together, as a Linear of their own.
template <typename T>
LinearParams<T> in_projection_part(const MhaParams<T>& params, bool keys_and_values) {
  const Index rows = params.projection_rows();
  const Index first = keys_and_values ? rows : 0;
  const Index count = keys_and_values ? 2 * rows : rows;
  LinearParams<T> part;
  part.weight = params.in_proj.weight.middleRows(first, count);
  if (params.has_bias()) part.bias = params.in_proj.bias.segment(first, count);
  return part;
}

template <typename T>
void check_cross_attention(const MhaParams<T>& params, const Matrix<T>& inp,
                           const Matrix<T>& memory, const AttentionOptions& options) {
  check_mha_params(params);
  require(!options.causal && !options.rope && !options.sinusoidal_qk,
          "cross-attention takes no causal mask and no positional rotation: every query reads "
          "the whole memory");
  require_shape(inp, inp.rows(), params.embed_dim(), "cross-attention input");
  require(memory.rows() > 0,
          "cross-attention memory has no rows: the queries need at least one "
          "key to attend to");
  require_shape(memory, memory.rows(), params.embed_dim(), "cross-attention memory");
}

}  // namespace

template <typename T>
void cross_attention_forward(Matrix<T>& out, CrossAttentionCache<T>& cache, const Matrix<T>& inp,
                             const Matrix<T>& memory, const MhaParams<T>& params,
                             const AttentionOptions& options) {
  const Fault fault = enter(Op::cross_attention);
  enter(Op::attention);
  enter(Op::heads);
  check_cross_attention(params, inp, memory, options);
  const Index head_dim = params.head_dim();
  const Index rows = params.projection_rows();
  cache.keys_from_query = fault == Fault::cross_attention_self_keys;
  linear_forward(cache.query, inp, in_projection_part(params, false));
  linear_forward(cache.key_value, cache.keys_from_query ? inp : memory,
                 in_projection_part(params, true));
  cache.probs.resize(static_cast<std::size_t>(params.num_heads));
  cache.heads.resize(inp.rows(), params.num_heads * head_dim);
  for (Index h = 0; h < params.num_heads; ++h) {
    const Index row = params.head_row(h);
    attention_forward<T>(
        cache.heads.middleCols(h * head_dim, head_dim), cache.probs[static_cast<std::size_t>(h)],
        cache.query.middleCols(row, head_dim), cache.key_value.middleCols(row, head_dim),
        cache.key_value.middleCols(rows + row, head_dim), options);
  }
  linear_forward(out, cache.heads, params.out_proj);
}

template <typename T>
void cross_attention_backward(Matrix<T>& dinp, Matrix<T>& dmemory, MhaParams<T>& grads,
                              const Matrix<T>& dout, const Matrix<T>& inp, const Matrix<T>& memory,
                              const MhaParams<T>& params, const CrossAttentionCache<T>& cache,
                              const AttentionOptions& options) {
  // forward was: q = x·W_qᵀ + b_q; [k v] = m·[W_k; W_v]ᵀ + [b_k; b_v] (m = x under the fault);
  // heads = [attention(q_h, k_h, v_h)]_h; out = heads·W_oᵀ + b_o
  enter(Op::cross_attention);
  enter(Op::attention);
  enter(Op::heads);
  check_cross_attention(params, inp, memory, options);
  const Index head_dim = params.head_dim();
  const Index rows = params.projection_rows();
  const Matrix<T>& source = cache.keys_from_query ? inp : memory;
  require_shape(dout, inp.rows(), params.embed_dim(), "cross-attention grad_output");
  grads.num_heads = params.num_heads;

  Matrix<T> dheads;
  linear_backward(dheads, grads.out_proj, dout, cache.heads, params.out_proj);
  Matrix<T> dquery = Matrix<T>::Zero(inp.rows(), rows);
  Matrix<T> dkey_value = Matrix<T>::Zero(source.rows(), 2 * rows);
  Matrix<T> dq_head(inp.rows(), head_dim), dk_head(source.rows(), head_dim),
      dv_head(source.rows(), head_dim);
  for (Index h = 0; h < params.num_heads; ++h) {
    const Index row = params.head_row(h);
    attention_backward<T>(dq_head, dk_head, dv_head, dheads.middleCols(h * head_dim, head_dim),
                          cache.query.middleCols(row, head_dim),
                          cache.key_value.middleCols(row, head_dim),
                          cache.key_value.middleCols(rows + row, head_dim),
                          cache.probs[static_cast<std::size_t>(h)], options);
    // heads that read one shared block (heads-share-projection) add their gradients there
    dquery.middleCols(row, head_dim) += dq_head;
    dkey_value.middleCols(row, head_dim) += dk_head;
    dkey_value.middleCols(rows + row, head_dim) += dv_head;
  }
  const LinearParams<T> query_part = in_projection_part(params, false);
  const LinearParams<T> key_value_part = in_projection_part(params, true);
  LinearParams<T> dquery_part, dkey_value_part;
  Matrix<T> dsource;
  linear_backward(dinp, dquery_part, dquery, inp, query_part);
  linear_backward(dsource, dkey_value_part, dkey_value, source, key_value_part);
  grads.in_proj.weight.resize(params.in_proj.weight.rows(), params.in_proj.weight.cols());
  grads.in_proj.weight << dquery_part.weight, dkey_value_part.weight;
  if (params.has_bias()) {
    grads.in_proj.bias.resize(params.in_proj.bias.size());
    grads.in_proj.bias << dquery_part.bias, dkey_value_part.bias;
  } else {
    grads.in_proj.bias.resize(0);
  }
  if (cache.keys_from_query) {
    dinp += dsource;
    dmemory = Matrix<T>::Zero(memory.rows(), memory.cols());
  } else {
    dmemory = std::move(dsource);
  }
}

#define PROOFDECK_INSTANTIATE(T)                                                                   \
  template struct MhaParams<T>;                                                                    \
  template void softmax_rows<T>(Matrix<T>&, Index, bool, Index);                                   \
  template bool mask_padding_keys<T>(Matrix<T>&, const std::vector<bool>&, CausalReach, Index);    \
  template void attention_scores<T>(Matrix<T>&, ConstRef<T>, ConstRef<T>,                          \
                                    const AttentionOptions&);                                      \
  template void attention_forward<T>(MutableRef<T>, Matrix<T>&, ConstRef<T>, ConstRef<T>,          \
                                     ConstRef<T>, const AttentionOptions&);                        \
  template void attention_backward<T>(MutableRef<T>, MutableRef<T>, MutableRef<T>, ConstRef<T>,    \
                                      ConstRef<T>, ConstRef<T>, ConstRef<T>, const Matrix<T>&,     \
                                      const AttentionOptions&);                                    \
  template void mha_forward<T>(Matrix<T>&, MhaCache<T>&, const Matrix<T>&, const MhaParams<T>&,    \
                               const AttentionOptions&);                                           \
  template void mha_backward<T>(Matrix<T>&, MhaParams<T>&, const Matrix<T>&, const Matrix<T>&,     \
                                const MhaParams<T>&, const MhaCache<T>&, const AttentionOptions&); \
  template void cross_attention_forward<T>(Matrix<T>&, CrossAttentionCache<T>&, const Matrix<T>&,  \
                                           const Matrix<T>&, const MhaParams<T>&,                  \
                                           const AttentionOptions&);                               \
  template void cross_attention_backward<T>(                                                       \
      Matrix<T>&, Matrix<T>&, MhaParams<T>&, const Matrix<T>&, const Matrix<T>&, const Matrix<T>&, \
      const MhaParams<T>&, const CrossAttentionCache<T>&, const AttentionOptions&);
PROOFDECK_INSTANTIATE(float)
PROOFDECK_INSTANTIATE(double)
#undef PROOFDECK_INSTANTIATE

}  // namespace proofdeck::engine
