// NF4 quantization as bitsandbytes computes it: block absmax, a value times the reciprocal of its
// block's absmax clamped to [−1, 1], the level whose midpoints bracket it (a value exactly on a
// midpoint takes the lower level), and double quantization of the absmax with the dynamic map.
#include "engine/nf4.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <string>

#include "engine/fault.hpp"

namespace proofdeck::engine {

const std::array<float, 16>& nf4_code_book() {
  static const std::array<float, 16> book{-1.0f,
                                          -0.6961928009986877f,
                                          -0.5250730514526367f,
                                          -0.39491748809814453f,
                                          -0.28444138169288635f,
                                          -0.18477343022823334f,
                                          -0.09105003625154495f,
                                          0.0f,
                                          0.07958029955625534f,
                                          0.16093020141124725f,
                                          0.24611230194568634f,
                                          0.33791524171829224f,
                                          0.44070982933044434f,
                                          0.5626170039176941f,
                                          0.7229568362236023f,
                                          1.0f};
  return book;
}

const std::vector<float>& dynamic_map_8bit() {
  // For each decade i = 0 … 6: 2^i + 1 boundaries evenly spaced over [0.1, 1], the means of
  // neighbouring ones scaled by 10^(i − 6), with both signs; then 0 and 1.
  static const std::vector<float> map = [] {
    std::vector<float> levels;
    for (int i = 0; i < 7; ++i) {
      const int boundaries = (1 << i) + 1;
      const double decade = std::pow(10.0, i - 6);
      for (int b = 0; b + 1 < boundaries; ++b) {
        const double low = 0.1 + 0.9 * b / (boundaries - 1);
        const double high = 0.1 + 0.9 * (b + 1) / (boundaries - 1);
        const auto level = static_cast<float>(decade * (low + high) / 2);
        levels.push_back(level);
        levels.push_back(-level);
      }
    }
    levels.push_back(0.0f);
    levels.push_back(1.0f);
    std::sort(levels.begin(), levels.end());
    return levels;
  }();
  return map;
}

void check_nf4_config(const Nf4Config& config) {
  if (config.block_size < 1)
    throw EngineError("block_size must be at least 1, got " + std::to_string(config.block_size));
  if (config.double_quant_block_size < 1) {
    throw EngineError("the double quantization's block size must be at least 1, got " +
                      std::to_string(config.double_quant_block_size));
  }
}

namespace {

// nf4-uniform-levels (fault): 16 levels evenly spaced from −1 to 1, as an absmax INT4 would be.
const std::array<float, 16>& uniform_levels() {
  static const std::array<float, 16> levels = [] {
    std::array<float, 16> even{};
    for (std::size_t i = 0; i < even.size(); ++i)
      even[i] = static_cast<float>(-1.0 + 2.0 * static_cast<double>(i) / 15.0);
    return even;
  }();
  return levels;
}

// The index of the level nearest v in sorted levels: the number of midpoints below v, a value
// exactly on a midpoint taking the lower level (bitsandbytes' strict comparisons).
template <typename T>
std::size_t nearest_level(T v, std::span<const float> levels) {
  std::size_t index = 0;
  while (index + 1 < levels.size()) {
    const auto midpoint = static_cast<float>(
        (static_cast<double>(levels[index]) + static_cast<double>(levels[index + 1])) / 2);
    if (!(v > static_cast<T>(midpoint))) break;
    ++index;
  }
  return index;
}

// v · (1/scale), clamped to [−1, 1]; 0 for a block of zeros.
template <typename T>
T normalised(T v, T scale) {
  if (scale == T(0)) return T(0);
  return std::clamp(v * (T(1) / scale), T(-1), T(1));
}

// The block constants quantized to 8 bits around their mean, and what the dequantization reads.
template <typename T>
void double_quantize(Nf4Result<T>& out, Index block_size) {
  const std::vector<float>& map = dynamic_map_8bit();
  const std::size_t count = out.absmax_exact.size();
  double sum = 0;
  for (const T a : out.absmax_exact)
    sum += static_cast<double>(a);
  out.offset = static_cast<T>(sum / static_cast<double>(count));
  const auto block = static_cast<std::size_t>(block_size);
  out.absmax.assign(count, T(0));
  out.absmax_codes.assign(count, 0);
  for (std::size_t start = 0; start < count; start += block) {
    const std::size_t end = std::min(count, start + block);
    T scale = 0;
    for (std::size_t i = start; i < end; ++i)
      scale = std::max(scale, std::abs(out.absmax_exact[i] - out.offset));
    out.absmax_scales.push_back(scale);
    for (std::size_t i = start; i < end; ++i) {
      const std::size_t code = nearest_level(normalised(out.absmax_exact[i] - out.offset, scale),
                                             std::span<const float>(map));
      out.absmax_codes[i] = static_cast<std::uint8_t>(code);
      out.absmax[i] = static_cast<T>(map[code]) * scale + out.offset;
    }
  }
}

}  // namespace

template <typename T>
void nf4_quantize(Nf4Result<T>& out, const Matrix<T>& x, const Nf4Config& config) {
  const Fault fault = enter(Op::nf4);
  check_nf4_config(config);
  const std::array<float, 16>& levels =
      fault == Fault::nf4_uniform_levels ? uniform_levels() : nf4_code_book();
  const std::size_t count = static_cast<std::size_t>(x.size());
  const auto block = static_cast<std::size_t>(config.block_size);
  // row-major, as the tensor is flattened
  std::vector<T> flat(count);
  for (Index r = 0; r < x.rows(); ++r)
    for (Index c = 0; c < x.cols(); ++c)
      flat[static_cast<std::size_t>(r * x.cols() + c)] = x(r, c);
  out = Nf4Result<T>{};
  out.codes.assign(count, 0);
  for (std::size_t start = 0; start < count; start += block) {
    const std::size_t end = std::min(count, start + block);
    T absmax = 0;
    for (std::size_t i = start; i < end; ++i)
      absmax = std::max(absmax, std::abs(flat[i]));
    out.absmax_exact.push_back(absmax);
    for (std::size_t i = start; i < end; ++i)
      out.codes[i] = static_cast<std::uint8_t>(
          nearest_level(normalised(flat[i], absmax), std::span<const float>(levels)));
  }
  const std::size_t blocks = out.absmax_exact.size();
  double constant_bits = 32.0 * static_cast<double>(blocks);
  if (config.double_quant && blocks > 0) {
    double_quantize(out, config.double_quant_block_size);
    // 8 bits a block constant, 32 a second-level scale and 32 for the mean
    // double-quant-scales-free (fault): the second level's 32-bit scales and mean left
    // out of the count, as if the constants' own constants were free.
    constant_bits = fault == Fault::double_quant_scales_free
                        ? 8.0 * static_cast<double>(blocks)
                        : 8.0 * static_cast<double>(blocks) +
                              32.0 * static_cast<double>(out.absmax_scales.size()) + 32.0;
  } else {
    out.absmax = out.absmax_exact;
  }
  out.bits_per_parameter = count == 0 ? 0.0 : 4.0 + constant_bits / static_cast<double>(count);
  out.output.resize(x.rows(), x.cols());
  for (std::size_t i = 0; i < count; ++i) {
    out.output(static_cast<Index>(i) / x.cols(), static_cast<Index>(i) % x.cols()) =
        static_cast<T>(levels[out.codes[i]]) * out.absmax[i / block];
  }
}

template void nf4_quantize(Nf4Result<float>&, const Matrix<float>&, const Nf4Config&);
template void nf4_quantize(Nf4Result<double>&, const Matrix<double>&, const Nf4Config&);

}  // namespace proofdeck::engine
