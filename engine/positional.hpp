// Positional encodings. Attention compares content only, so order must be put into the vectors:
// sinusoidal and learned encodings are added to the embeddings before the first layer; RoPE
// rotates Q and K after their projections, just before QKᵀ.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/tensor.hpp"

namespace proofdeck::engine {

using Positions = std::vector<std::int64_t>;

enum class PositionalKind { none, sinusoidal, learned, rope };
std::string_view positional_name(PositionalKind kind);
std::optional<PositionalKind> parse_positional(std::string_view name);

// The trainable tensors a scheme adds to a model: a learned table holds one (max_len × d, named
// "weight" as nn.Embedding names it); sinusoidal, RoPE and no encoding are formulas and hold none.
// count_params (param_count.hpp) counts them like any module.
template <typename T>
struct PositionalParams {
  using Scalar = T;
  PositionalKind kind = PositionalKind::none;
  std::optional<Matrix<T>> table;  // (max_len, d) learned only
};

// A scheme's module: a learned table of zeros (to be filled), or no tensor at all.
template <typename T>
PositionalParams<T> make_positional_params(PositionalKind kind, Index max_len, Index d_model);

template <typename P>
concept PositionalParamsType =
    std::same_as<std::remove_const_t<P>, PositionalParams<typename std::remove_const_t<P>::Scalar>>;

template <PositionalParamsType P, typename Visitor>
void visit_params(P& params, const std::string& prefix, Visitor&& visit) {
  if (params.table) visit(prefix + "weight", *params.table);
}

// --- sinusoidal (Vaswani et al. 2017) ----------------------------------------------------------
// PE[p, 2i] = sin(p / base^(2i/d)), PE[p, 2i+1] = cos(p / base^(2i/d)); no parameters, defined for
// every position, so it needs no training and extends past any length seen in training.
template <typename T>
Matrix<T> sinusoidal_encoding(const Positions& positions, Index d_model, double base = 10000.0);

// --- learned table (nn.Embedding indexed by position) -----------------------------------------
// A row per position up to max_len; a position past the table has no row and is an error.
template <typename T>
void learned_positions_forward(Matrix<T>& out,              // (T, d)
                               const Positions& positions,  // (T)
                               const Matrix<T>& table);     // (max_len, d)

template <typename T>
void learned_positions_backward(Matrix<T>& dtable,           // (max_len, d), assigned
                                const Matrix<T>& dout,       // (T, d)
                                const Positions& positions,  // (T)
                                Index max_len);

// --- adding the encoding to the embeddings ---------------------------------------------------
// Row t of the embeddings gains the encoding of positions[t]: the sinusoidal table (base 10,000)
// or the learned table's row. RoPE acts on Q and K inside attention and no encoding adds nothing,
// so both leave the embeddings as they are.
template <typename T>
void add_positions(Matrix<T>& embeddings,  // (T, d)
                   const PositionalParams<T>& params,
                   const Positions& positions);  // (T)

// --- a sinusoidal code added to Q and K after their projections ------------------------------
// Every head_dim-wide block of `qk` (one per head) gains the sinusoidal encoding of its rows'
// positions, head_dim wide: an added code where RoPE rotates. No standard model does this; it is
// the design the trap rope-is-additive pictures, run so a proof can measure what it gives (q·k
// keeps terms in the absolute positions). The addition passes the gradient through unchanged.
template <typename T>
void add_positions_to_heads(Matrix<T>& qk,               // (T, H·D)
                            const Positions& positions,  // (T)
                            Index head_dim, double base = 10000.0);

// --- rotary (Su et al. 2021) -------------------------------------------------------------------
enum class RopeConvention {
  interleaved,  // pairs (x[2i], x[2i+1]), as the RoFormer paper and Meta's original Llama
  half,         // pairs (x[i], x[i + d/2]), "rotate_half" as Hugging Face's Llama
};
std::string_view rope_convention_name(RopeConvention convention);
std::optional<RopeConvention> parse_rope_convention(std::string_view name);

struct RopeConfig {
  RopeConvention convention = RopeConvention::half;  // pairing of dimensions
  double base = 10000.0;                             // θ_i = base^(−2i/d)
  double scaling = 1.0;  // linear position interpolation (Chen et al. 2023): angles at p / scaling
};

// cos and sin of every angle (positions[t] / scaling)·θ_i: (T, d/2), one row per position and
// one column per pair, the same for every head — rope_forward and the decoder's attention rotate
// by them.
template <typename T>
struct RopeAngles {
  Matrix<T> cos;
  Matrix<T> sin;
};

template <typename T>
RopeAngles<T> rope_angles(const Positions& positions, Index dim, const RopeConfig& config);

// Rotates pair i of row t by (positions[t] / scaling)·θ_i. The dot product of a rotated query at p
// and a rotated key at q then depends only on p − q. d must be even.
template <typename T>
void rope_forward(Matrix<T>& out,              // (T, d)
                  const Matrix<T>& inp,        // (T, d)
                  const Positions& positions,  // (T)
                  const RopeConfig& config);

// The rotation is orthogonal: its backward rotates the gradient by the opposite angle.
template <typename T>
void rope_backward(Matrix<T>& dinp,        // (T, d)
                   const Matrix<T>& dout,  // (T, d)
                   const Positions& positions, const RopeConfig& config);

// Positions 0, 1, …, count − 1.
Positions sequential_positions(Index count);

}  // namespace proofdeck::engine
