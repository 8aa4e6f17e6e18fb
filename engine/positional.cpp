// Sinusoidal, learned and rotary positional encodings.
#include "engine/positional.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "engine/fault.hpp"

namespace proofdeck::engine {

std::string_view positional_name(PositionalKind kind) {
  switch (kind) {
    case PositionalKind::none:
      return "none";
    case PositionalKind::sinusoidal:
      return "sinusoidal";
    case PositionalKind::learned:
      return "learned";
    case PositionalKind::rope:
      return "rope";
  }
  return "?";
}

std::optional<PositionalKind> parse_positional(std::string_view name) {
  if (name == "none") return PositionalKind::none;
  if (name == "sinusoidal") return PositionalKind::sinusoidal;
  if (name == "learned") return PositionalKind::learned;
  if (name == "rope") return PositionalKind::rope;
  return std::nullopt;
}

std::string_view rope_convention_name(RopeConvention convention) {
  return convention == RopeConvention::interleaved ? "interleaved" : "half";
}

std::optional<RopeConvention> parse_rope_convention(std::string_view name) {
  if (name == "interleaved") return RopeConvention::interleaved;
  if (name == "half") return RopeConvention::half;
  return std::nullopt;
}

Positions sequential_positions(Index count) {
  Positions positions(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < positions.size(); ++i)
    positions[i] = static_cast<std::int64_t>(i);
  return positions;
}

template <typename T>
Matrix<T> sinusoidal_encoding(const Positions& positions, Index d_model, double base) {
  const Fault fault = enter(Op::sinusoidal);
  require(d_model > 0, "sinusoidal encoding needs d_model > 0, got " + std::to_string(d_model));
  require(base > 1.0, "sinusoidal encoding needs base > 1, got " + number_string(base));
  // Pair i turns at 1 / base^(2i/d) radians per position: geometric frequencies, so no two
  // positions share a code. The broken table gives every pair the first pair's frequency, 1.
  std::vector<double> divisors(static_cast<std::size_t>((d_model + 1) / 2), 1.0);
  if (fault != Fault::sinusoidal_one_frequency) {
    for (Index even = 0; even < d_model; even += 2) {
      divisors[static_cast<std::size_t>(even / 2)] =
          std::pow(base, static_cast<double>(even) / static_cast<double>(d_model));
    }
  }
  Matrix<T> table(static_cast<Index>(positions.size()), d_model);
  for (Index row = 0; row < table.rows(); ++row) {
    const double position = static_cast<double>(positions[static_cast<std::size_t>(row)]);
    for (Index even = 0; even < d_model; even += 2) {
      const double angle = position / divisors[static_cast<std::size_t>(even / 2)];
      table(row, even) = static_cast<T>(std::sin(angle));
      if (even + 1 < d_model) table(row, even + 1) = static_cast<T>(std::cos(angle));
    }
  }
  return table;
}

namespace {

// The last row a position may read: the table's last under the clamp fault, else no limit (a
// position past the table is then refused by the caller's range check).
std::int64_t last_readable_row(Fault fault, Index max_len) {
  return fault == Fault::learned_positions_clamp ? static_cast<std::int64_t>(max_len) - 1
                                                 : std::numeric_limits<std::int64_t>::max();
}

}  // namespace

template <typename T>
void learned_positions_forward(Matrix<T>& out, const Positions& positions, const Matrix<T>& table) {
  const Fault fault = enter(Op::learned_positions);
  const Index max_len = table.rows();
  const std::int64_t last_row = last_readable_row(fault, max_len);
  out.resize(static_cast<Index>(positions.size()), table.cols());
  for (std::size_t t = 0; t < positions.size(); ++t) {
    const std::int64_t position = positions[t];
    const std::int64_t row = std::min(position, last_row);
    if (row < 0 || row >= max_len) {
      throw EngineError("position " + std::to_string(position) +
                        " is past the learned position table (max_len " + std::to_string(max_len) +
                        ": rows 0.." + std::to_string(max_len - 1) +
                        "); a learned table has no row for positions it was not trained on");
    }
    out.row(static_cast<Index>(t)) = table.row(row);
  }
}

template <typename T>
void learned_positions_backward(Matrix<T>& dtable, const Matrix<T>& dout,
                                const Positions& positions, Index max_len) {
  // forward was: out[t] = table[positions[t]] (the last row past the table under the clamp)
  const Fault fault = enter(Op::learned_positions);
  require(dout.rows() == static_cast<Index>(positions.size()),
          "learned positions grad_output has " + std::to_string(dout.rows()) +
              " rows, expected one per position (" + std::to_string(positions.size()) + ")");
  const std::int64_t last_row = last_readable_row(fault, max_len);
  dtable = Matrix<T>::Zero(max_len, dout.cols());
  for (std::size_t t = 0; t < positions.size(); ++t) {
    const std::int64_t position = positions[t];
    const std::int64_t row = std::min(position, last_row);
    require(row >= 0 && row < max_len,
            "position " + std::to_string(position) + " is past the learned position table");
    dtable.row(row) += dout.row(static_cast<Index>(t));  // a repeated position accumulates
  }
}

template <typename T>
PositionalParams<T> make_positional_params(PositionalKind kind, Index max_len, Index d_model) {
  PositionalParams<T> params{kind, std::nullopt};
  if (kind == PositionalKind::learned) {
    // learned-table-one-short: a fencepost, one row fewer than the positions it must serve
    const bool short_table = enter(Op::learned_positions) == Fault::learned_table_one_short;
    params.table =
        Matrix<T>::Zero(short_table ? std::max<Index>(max_len - 1, 0) : max_len, d_model);
  }
  // sinusoidal-trainable: the sinusoids stored as a max_len-row trainable table, as a learned
  // scheme's, so the counts see max_len × d_model parameters (the values added stay the same)
  if (kind == PositionalKind::sinusoidal && enter(Op::sinusoidal) == Fault::sinusoidal_trainable) {
    params.table = sinusoidal_encoding<T>(sequential_positions(max_len), d_model);
  }
  return params;
}

template <typename T>
void add_positions(Matrix<T>& embeddings, const PositionalParams<T>& params,
                   const Positions& positions) {
  // RoPE rotates Q and K inside attention and no encoding adds nothing: neither reaches the op.
  if (params.kind == PositionalKind::none || params.kind == PositionalKind::rope) return;
  const Fault fault = enter(Op::positions_added);
  require(embeddings.rows() == static_cast<Index>(positions.size()),
          "embeddings have " + std::to_string(embeddings.rows()) + " rows but " +
              std::to_string(positions.size()) + " positions");
  if (fault == Fault::positions_not_added) return;
  if (params.kind == PositionalKind::sinusoidal) {
    embeddings += sinusoidal_encoding<T>(positions, embeddings.cols());
    return;
  }
  require(params.table.has_value(), "learned positions have no table");
  require_shape(*params.table, params.table->rows(), embeddings.cols(), "learned position table");
  Matrix<T> rows;
  learned_positions_forward(rows, positions, *params.table);
  embeddings += rows;
}

template <typename T>
void add_positions_to_heads(Matrix<T>& qk, const Positions& positions, Index head_dim,
                            double base) {
  const Fault fault = enter(Op::positions_added);
  require(head_dim > 0 && qk.cols() % head_dim == 0, "Q/K of shape " + shape_of(qk) +
                                                         " do not split into heads of width " +
                                                         std::to_string(head_dim));
  require(qk.rows() == static_cast<Index>(positions.size()),
          "Q/K have " + std::to_string(qk.rows()) + " rows but " +
              std::to_string(positions.size()) + " positions");
  if (fault == Fault::positions_not_added) return;
  const Matrix<T> code = sinusoidal_encoding<T>(positions, head_dim, base);
  for (Index offset = 0; offset < qk.cols(); offset += head_dim)
    qk.middleCols(offset, head_dim) += code;
}

template <typename T>
RopeAngles<T> rope_angles(const Positions& positions, Index dim, const RopeConfig& config) {
  require(config.base > 1.0, "rope base must be > 1, got " + number_string(config.base));
  require(config.scaling > 0.0,
          "rope scaling factor must be > 0, got " + number_string(config.scaling));
  const Index pairs = dim / 2;
  const auto rows = static_cast<Index>(positions.size());
  RopeAngles<T> angles{Matrix<T>(rows, pairs), Matrix<T>(rows, pairs)};
  for (Index t = 0; t < rows; ++t) {
    // Linear position interpolation divides the position, as Hugging Face's linear rope_scaling.
    const double position =
        static_cast<double>(positions[static_cast<std::size_t>(t)]) / config.scaling;
    for (Index i = 0; i < pairs; ++i) {
      const double theta =
          1.0 / std::pow(config.base, static_cast<double>(2 * i) / static_cast<double>(dim));
      angles.cos(t, i) = static_cast<T>(std::cos(position * theta));
      angles.sin(t, i) = static_cast<T>(std::sin(position * theta));
    }
  }
  return angles;
}

namespace {

// Rotates every pair by positions[t]·θ_i; `undo` rotates by the opposite angle. `fault` is the
// rotating op's: rope-not-applied leaves the rows as they are, rope-base-1000 and
// rope-scaling-ignored compute the angles with base 1000 and scaling 1, rope-additive adds each
// pair's (cos, sin) instead of rotating by it (and its backward, `undo`, passes the rows through).
template <typename T>
void rotate_pairs(Matrix<T>& out, const Matrix<T>& inp, const Positions& positions,
                  const RopeConfig& config, bool undo, const char* what, Fault fault) {
  const Index dim = inp.cols();
  require(dim % 2 == 0, std::string(what) + " needs an even feature size, got " +
                            std::to_string(dim) + " (RoPE rotates pairs of dimensions)");
  require(inp.rows() == static_cast<Index>(positions.size()),
          std::string(what) + " has " + std::to_string(inp.rows()) + " rows but " +
              std::to_string(positions.size()) + " positions");
  const bool additive = fault == Fault::rope_additive;
  if (fault == Fault::rope_not_applied || (additive && undo)) {
    out = inp;
    return;
  }
  RopeConfig rotation = config;
  if (fault == Fault::rope_base_1000) rotation.base = 1000.0;
  if (fault == Fault::rope_scaling_ignored) rotation.scaling = 1.0;
  const RopeAngles<T> angles = rope_angles<T>(positions, dim, rotation);
  const Index pairs = dim / 2;
  const bool interleaved = config.convention == RopeConvention::interleaved;
  // The columns of pair i: (2i, 2i + 1) interleaved, (i, i + D/2) in halves.
  const auto columns = [&](Index i) {
    return interleaved ? std::pair{2 * i, 2 * i + 1} : std::pair{i, i + pairs};
  };
  out.resize(inp.rows(), dim);
  if (additive) {
    for (Index t = 0; t < inp.rows(); ++t) {
      for (Index i = 0; i < pairs; ++i) {
        const auto [a, b] = columns(i);
        out(t, a) = inp(t, a) + angles.cos(t, i);
        out(t, b) = inp(t, b) + angles.sin(t, i);
      }
    }
    return;
  }
  for (Index t = 0; t < inp.rows(); ++t) {
    for (Index i = 0; i < pairs; ++i) {
      const T cos_angle = angles.cos(t, i);
      const T sin_angle = undo ? -angles.sin(t, i) : angles.sin(t, i);
      const auto [a, b] = columns(i);
      const T x_a = inp(t, a);
      const T x_b = inp(t, b);
      out(t, a) = x_a * cos_angle - x_b * sin_angle;
      out(t, b) = x_a * sin_angle + x_b * cos_angle;
    }
  }
}

}  // namespace

template <typename T>
void rope_forward(Matrix<T>& out, const Matrix<T>& inp, const Positions& positions,
                  const RopeConfig& config) {
  const Fault fault = enter(Op::rope);
  rotate_pairs(out, inp, positions, config, false, "rope input", fault);
}

template <typename T>
void rope_backward(Matrix<T>& dinp, const Matrix<T>& dout, const Positions& positions,
                   const RopeConfig& config) {
  // forward was: out = R(p)·x per row, R orthogonal, so dinp = R(p)ᵀ·dout = R(−p)·dout
  const Fault fault = enter(Op::rope);
  rotate_pairs(dinp, dout, positions, config, true, "rope grad_output", fault);
}

#define PROOFDECK_INSTANTIATE(T)                                                              \
  template Matrix<T> sinusoidal_encoding<T>(const Positions&, Index, double);                 \
  template void learned_positions_forward<T>(Matrix<T>&, const Positions&, const Matrix<T>&); \
  template void learned_positions_backward<T>(Matrix<T>&, const Matrix<T>&, const Positions&, \
                                              Index);                                         \
  template void add_positions<T>(Matrix<T>&, const PositionalParams<T>&, const Positions&);   \
  template PositionalParams<T> make_positional_params<T>(PositionalKind, Index, Index);       \
  template void add_positions_to_heads<T>(Matrix<T>&, const Positions&, Index, double);       \
  template RopeAngles<T> rope_angles<T>(const Positions&, Index, const RopeConfig&);          \
  template void rope_forward<T>(Matrix<T>&, const Matrix<T>&, const Positions&,               \
                                const RopeConfig&);                                           \
  template void rope_backward<T>(Matrix<T>&, const Matrix<T>&, const Positions&, const RopeConfig&);
PROOFDECK_INSTANTIATE(float)
PROOFDECK_INSTANTIATE(double)
#undef PROOFDECK_INSTANTIATE

}  // namespace proofdeck::engine
