// Integer quantization as PyTorch computes it, so a bank can prove what INT8 and INT4 cost:
// fake quantization (torch.fake_quantize_per_tensor_affine and _per_channel_affine) rounds each
// value to the nearest of 2^bits levels and maps it back,
//   q = clamp(round(x · (1/s)) + z, q_min, q_max),   x̂ = (q − z) · s,
// rounding half to even, and its backward is the straight-through estimator: the gradient passes
// unchanged where round(x · (1/s)) + z lies inside [q_min, q_max] and is 0 where it was clamped.
// The scales come from the tensor's range as PyTorch's MinMax observers compute them, one for the
// whole tensor, one per channel (a row or a column), or one per group of consecutive entries of a
// row (group-wise, as GPTQ and AWQ store INT4 weights: a row split into groups of 128).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/tensor.hpp"

namespace proofdeck::engine {

enum class QuantGranularity : std::uint8_t { tensor, channel, group };

struct QuantConfig {
  QuantGranularity granularity = QuantGranularity::tensor;
  Index axis = 0;  // channel: 0, one scale per row (a Linear's output channel); 1, per column
  Index group_size = 128;  // group: consecutive entries of a row that share a scale
  int bits = 8;            // 2 to 16
  // Symmetric: signed levels −2^(b−1) … 2^(b−1) − 1, zero point 0, the scale from max |x|
  // (PyTorch's per_tensor_symmetric with qint8). Asymmetric: unsigned levels 0 … 2^b − 1, the
  // scale from max − min and a zero point that puts 0 on a level (per_tensor_affine, quint8).
  bool symmetric = true;

  std::int64_t quant_min() const;
  std::int64_t quant_max() const;
};

// Throws EngineError naming the field out of range, or a shape the granularity cannot split.
void check_quant_config(const QuantConfig& config, Index rows, Index cols);

// One scale and zero point per tensor, channel or group, in order (row by row for groups).
template <typename T>
struct QuantParams {
  std::vector<T> scale;
  std::vector<std::int64_t> zero_point;
  std::int64_t quant_min = 0;
  std::int64_t quant_max = 0;
};

// The scales and zero points PyTorch's MinMaxObserver (or PerChannelMinMaxObserver) gives the
// tensor: its range widened to include 0; symmetric s = max(−min, max) / ((q_max − q_min) / 2),
// asymmetric s = (max − min) / (q_max − q_min) and z = q_min − round(min / s); s at least the
// float32 epsilon.
template <typename T>
QuantParams<T> observe_quant_params(const Matrix<T>& x, const QuantConfig& config);

// Which scale entry (x)(row, col) uses under the config, and how many there are for a (rows, cols)
// tensor: 1, one a channel, or one a group of every row.
Index quant_param_index(const QuantConfig& config, Index cols, Index row, Index col);
Index quant_param_count(const QuantConfig& config, Index rows, Index cols);

template <typename T>
struct FakeQuantCache {
  Matrix<T> in_range;  // 1 where the level was not clamped: the straight-through mask
};

template <typename T>
void fake_quantize_forward(Matrix<T>& out, FakeQuantCache<T>& cache, const Matrix<T>& x,
                           const QuantParams<T>& params, const QuantConfig& config);

// The straight-through estimator: dx = dout where the level was inside the range, else 0.
template <typename T>
void fake_quantize_backward(Matrix<T>& dx, const Matrix<T>& dout, const FakeQuantCache<T>& cache);

// SmoothQuant's migration (Xiao et al. 2023, §4): per input feature j, sⱼ = max|Xⱼ|^α /
// max|Wⱼ|^(1−α) from the activations' and the weight's column ranges (a weight is (out, in), so
// feature j is its column j), floored at 1e-5 as the reference implementation does; then X's
// column j is divided by sⱼ and W's multiplied by it, which leaves X·Wᵀ unchanged and moves the
// activations' outliers into the weight, which quantizes per channel.
template <typename T>
std::vector<T> smoothing_factors(const Matrix<T>& x, const Matrix<T>& w, T alpha);
template <typename T>
void smooth_quant(Matrix<T>& x, Matrix<T>& w, T alpha);

}  // namespace proofdeck::engine
