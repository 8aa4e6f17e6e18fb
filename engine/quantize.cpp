// Fake quantization: the MinMax observers' scales and zero points, the forward PyTorch's
// fake_quantize kernels compute (x times the reciprocal of the scale, rounded half to even) and
// the straight-through backward.
#include "engine/quantize.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "engine/fault.hpp"

namespace proofdeck::engine {

std::int64_t QuantConfig::quant_min() const {
  return symmetric ? -(std::int64_t{1} << (bits - 1)) : 0;
}

std::int64_t QuantConfig::quant_max() const {
  return symmetric ? (std::int64_t{1} << (bits - 1)) - 1 : (std::int64_t{1} << bits) - 1;
}

void check_quant_config(const QuantConfig& config, Index rows, Index cols) {
  require(config.bits >= 2 && config.bits <= 16,
          "bits must be 2 to 16, got " + std::to_string(config.bits));
  require(rows > 0 && cols > 0, "the tensor to quantize has shape " + shape_string(rows, cols) +
                                    ", expected no empty side");
  if (config.granularity == QuantGranularity::channel) {
    require(
        config.axis == 0 || config.axis == 1,
        "axis must be 0 (a scale per row) or 1 (per column), got " + std::to_string(config.axis));
  }
  if (config.granularity == QuantGranularity::group) {
    require(config.group_size > 0,
            "group_size must be positive, got " + std::to_string(config.group_size));
    require(cols % config.group_size == 0, "group_size " + std::to_string(config.group_size) +
                                               " does not divide the " + std::to_string(cols) +
                                               " entries of a row: every group must be whole");
  }
}

Index quant_param_index(const QuantConfig& config, Index cols, Index row, Index col) {
  switch (config.granularity) {
    case QuantGranularity::tensor:
      return 0;
    case QuantGranularity::channel:
      return config.axis == 0 ? row : col;
    case QuantGranularity::group:
      return row * (cols / config.group_size) + col / config.group_size;
  }
  return 0;
}

Index quant_param_count(const QuantConfig& config, Index rows, Index cols) {
  switch (config.granularity) {
    case QuantGranularity::tensor:
      return 1;
    case QuantGranularity::channel:
      return config.axis == 0 ? rows : cols;
    case QuantGranularity::group:
      return rows * (cols / config.group_size);
  }
  return 1;
}

namespace {

// Round half to even, as std::nearbyint does in the default rounding mode and PyTorch's kernels.
// round-half-away (fault): std::round, which takes a half away from zero.
template <typename T>
T round_level(T value, Fault fault) {
  return fault == Fault::round_half_away ? std::round(value) : std::nearbyint(value);
}

}  // namespace

template <typename T>
QuantParams<T> observe_quant_params(const Matrix<T>& x, const QuantConfig& config) {
  const Fault fault = enter(Op::quantize);
  check_quant_config(config, x.rows(), x.cols());
  // per-channel-as-tensor (fault): every channel or group gets the whole tensor's range.
  const bool whole = fault == Fault::per_channel_as_tensor;
  const Index count = quant_param_count(config, x.rows(), x.cols());
  std::vector<T> low(static_cast<std::size_t>(count), T(0)), high(low);  // the range, with 0
  for (Index r = 0; r < x.rows(); ++r) {
    for (Index c = 0; c < x.cols(); ++c) {
      const auto i = static_cast<std::size_t>(quant_param_index(config, x.cols(), r, c));
      low[i] = std::min(low[i], x(r, c));
      high[i] = std::max(high[i], x(r, c));
    }
  }
  if (whole) {
    const T lowest = *std::min_element(low.begin(), low.end());
    const T highest = *std::max_element(high.begin(), high.end());
    std::fill(low.begin(), low.end(), lowest);
    std::fill(high.begin(), high.end(), highest);
  }
  QuantParams<T> params;
  params.quant_min = config.quant_min();
  params.quant_max = config.quant_max();
  // levels-linear-in-bits (fault): 32 levels a bit, so INT8 keeps its 256 but INT4 gets 128
  // where 2^4 gives 16, as if halving the bits halved the precision.
  if (fault == Fault::levels_linear_in_bits) {
    const std::int64_t count_linear = 32 * config.bits;
    params.quant_min = config.symmetric ? -count_linear / 2 : 0;
    params.quant_max = config.symmetric ? count_linear / 2 - 1 : count_linear - 1;
  }
  const T levels = static_cast<T>(params.quant_max - params.quant_min);
  const T epsilon = static_cast<T>(std::numeric_limits<float>::epsilon());
  for (std::size_t i = 0; i < low.size(); ++i) {
    if (config.symmetric) {
      const T scale = std::max(-low[i], high[i]) / (levels / T(2));
      params.scale.push_back(std::max(scale, epsilon));
      params.zero_point.push_back(0);
    } else {
      const T scale = std::max((high[i] - low[i]) / levels, epsilon);
      const auto zero = static_cast<std::int64_t>(static_cast<T>(params.quant_min) -
                                                  std::nearbyint(low[i] / scale));
      params.scale.push_back(scale);
      params.zero_point.push_back(std::clamp(zero, params.quant_min, params.quant_max));
    }
  }
  return params;
}

template <typename T>
void fake_quantize_forward(Matrix<T>& out, FakeQuantCache<T>& cache, const Matrix<T>& x,
                           const QuantParams<T>& params, const QuantConfig& config) {
  const Fault fault = enter(Op::quantize);
  check_quant_config(config, x.rows(), x.cols());
  const Index count = quant_param_count(config, x.rows(), x.cols());
  require(static_cast<Index>(params.scale.size()) == count &&
              static_cast<Index>(params.zero_point.size()) == count,
          "fake_quantize has " + std::to_string(params.scale.size()) + " scales and " +
              std::to_string(params.zero_point.size()) + " zero points, expected " +
              std::to_string(count) + " each");
  require(params.quant_min < params.quant_max, "quant_min " + std::to_string(params.quant_min) +
                                                   " must be below quant_max " +
                                                   std::to_string(params.quant_max));
  for (const T scale : params.scale) {
    if (!(scale > T(0) && std::isfinite(scale))) {
      throw EngineError("fake_quantize scale " + number_string(static_cast<double>(scale)) +
                        " must be positive and finite");
    }
  }
  out.resize(x.rows(), x.cols());
  cache.in_range.resize(x.rows(), x.cols());
  const auto low = static_cast<T>(params.quant_min), high = static_cast<T>(params.quant_max);
  for (Index r = 0; r < x.rows(); ++r) {
    for (Index c = 0; c < x.cols(); ++c) {
      const auto i = static_cast<std::size_t>(quant_param_index(config, x.cols(), r, c));
      const T scale = params.scale[i];
      const auto zero = static_cast<T>(params.zero_point[i]);
      // PyTorch multiplies by the reciprocal, whose rounding the levels then inherit.
      const T inverse = T(1) / scale;
      const T level = round_level(x(r, c) * inverse, fault) + zero;
      cache.in_range(r, c) = level >= low && level <= high ? T(1) : T(0);
      out(r, c) = (std::min(high, std::max(low, level)) - zero) * scale;
    }
  }
}

template <typename T>
void fake_quantize_backward(Matrix<T>& dx, const Matrix<T>& dout, const FakeQuantCache<T>& cache) {
  enter(Op::quantize);
  require_shape(dout, cache.in_range.rows(), cache.in_range.cols(), "fake_quantize grad_output");
  dx = dout.cwiseProduct(cache.in_range);
}

template <typename T>
std::vector<T> smoothing_factors(const Matrix<T>& x, const Matrix<T>& w, T alpha) {
  const Fault fault = enter(Op::quantize);
  require(x.cols() == w.cols(),
          "smoothing needs the activations' features to match the "
          "weight's input columns, got " +
              shape_string(x.rows(), x.cols()) + " and " + shape_string(w.rows(), w.cols()));
  std::vector<T> factors;
  for (Index j = 0; j < x.cols(); ++j) {
    T activation = x.col(j).cwiseAbs().maxCoeff(), weight = w.col(j).cwiseAbs().maxCoeff();
    // smoothing-factor-inverted (fault): the weight's range on top, which moves the
    // activations' difficulty the wrong way, into themselves.
    if (fault == Fault::smoothing_factor_inverted) std::swap(activation, weight);
    factors.push_back(
        std::max(std::pow(activation, alpha) / std::pow(weight, T(1) - alpha), T(1e-5)));
  }
  return factors;
}

template <typename T>
void smooth_quant(Matrix<T>& x, Matrix<T>& w, T alpha) {
  const std::vector<T> factors = smoothing_factors(x, w, alpha);
  for (Index j = 0; j < x.cols(); ++j) {
    x.col(j) /= factors[static_cast<std::size_t>(j)];
    w.col(j) *= factors[static_cast<std::size_t>(j)];
  }
}

#define PROOFDECK_INSTANTIATE(T)                                                                \
  template QuantParams<T> observe_quant_params(const Matrix<T>&, const QuantConfig&);           \
  template void fake_quantize_forward(Matrix<T>&, FakeQuantCache<T>&, const Matrix<T>&,         \
                                      const QuantParams<T>&, const QuantConfig&);               \
  template void fake_quantize_backward(Matrix<T>&, const Matrix<T>&, const FakeQuantCache<T>&); \
  template std::vector<T> smoothing_factors(const Matrix<T>&, const Matrix<T>&, T);             \
  template void smooth_quant(Matrix<T>&, Matrix<T>&, T);
PROOFDECK_INSTANTIATE(float)
PROOFDECK_INSTANTIATE(double)
#undef PROOFDECK_INSTANTIATE

}  // namespace proofdeck::engine
