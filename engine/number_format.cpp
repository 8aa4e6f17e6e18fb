// Rounding to float16 and bfloat16 as a cast does: to the nearest value the format holds, ties to
// the even one, subnormals below the smallest normal number, infinity past the largest.
#include "engine/number_format.hpp"

#include <array>
#include <cmath>
#include <limits>

#include "engine/fault.hpp"

namespace proofdeck::engine {

namespace {

// An IEEE-style format's bits and its exponent bias, 2^(e − 1) − 1.
constexpr NumberFormatInfo describe(std::string_view name, int exponent_bits, int mantissa_bits) {
  NumberFormatInfo info;
  info.name = name;
  info.exponent_bits = exponent_bits;
  info.mantissa_bits = mantissa_bits;
  info.bias = (1 << (exponent_bits - 1)) - 1;
  return info;
}

// Its values: the largest finite (2 − 2^−m)·2^bias, the smallest normal and subnormal, epsilon.
NumberFormatInfo with_values(NumberFormatInfo info) {
  info.max = std::ldexp(2.0 - std::ldexp(1.0, -info.mantissa_bits), info.bias);
  info.min_normal = std::ldexp(1.0, 1 - info.bias);
  info.min_subnormal = std::ldexp(1.0, 1 - info.bias - info.mantissa_bits);
  info.epsilon = std::ldexp(1.0, -info.mantissa_bits);
  return info;
}

const std::array<NumberFormatInfo, 2>& formats() {
  static const std::array<NumberFormatInfo, 2> all{with_values(describe("float16", 5, 10)),
                                                   with_values(describe("bfloat16", 8, 7))};
  return all;
}

}  // namespace

const NumberFormatInfo& number_format_info(NumberFormat format) {
  return formats().at(static_cast<std::size_t>(format));
}

std::optional<NumberFormat> find_number_format(std::string_view name) {
  for (std::size_t i = 0; i < formats().size(); ++i) {
    if (formats()[i].name == name) return static_cast<NumberFormat>(i);
  }
  return std::nullopt;
}

namespace {

double round_with(double x, const NumberFormatInfo& format, Fault fault) {
  const double magnitude = std::abs(x);
  if (std::isnan(x) || std::isinf(x) || magnitude == 0.0) return x;
  // The step between neighbours at x's size: the subnormals' below the smallest normal number,
  // else 2^(e − m) in the binade [2^e, 2^(e+1)). Dividing by a power of two is exact, so
  // nearbyint rounds the significand itself, half to even.
  double step = format.min_subnormal;
  if (magnitude >= format.min_normal) {
    int exponent = 0;
    std::frexp(magnitude, &exponent);  // magnitude = f · 2^exponent, f in [0.5, 1)
    step = std::ldexp(1.0, exponent - 1 - format.mantissa_bits);
  }
  double rounded = std::nearbyint(magnitude / step) * step;
  if (rounded > format.max) rounded = std::numeric_limits<double>::infinity();
  // subnormals-flushed (fault): what would be subnormal becomes 0, as without gradual underflow.
  if (fault == Fault::subnormals_flushed && rounded < format.min_normal) rounded = 0.0;
  return std::copysign(rounded, x);
}

}  // namespace

double round_to_format(double x, NumberFormat format) {
  return round_with(x, number_format_info(format), enter(Op::number_format));
}

template <typename T>
void round_to_format_forward(Matrix<T>& out, const Matrix<T>& x, NumberFormat format) {
  const Fault fault = enter(Op::number_format);
  const NumberFormatInfo& info = number_format_info(format);
  out.resize(x.rows(), x.cols());
  for (Index r = 0; r < x.rows(); ++r) {
    for (Index c = 0; c < x.cols(); ++c)
      out(r, c) = static_cast<T>(round_with(static_cast<double>(x(r, c)), info, fault));
  }
}

template void round_to_format_forward(Matrix<float>&, const Matrix<float>&, NumberFormat);
template void round_to_format_forward(Matrix<double>&, const Matrix<double>&, NumberFormat);

}  // namespace proofdeck::engine
