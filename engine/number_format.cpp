// Rounding to float16, bfloat16 and the two FP8 formats as a cast does: to the nearest value the
// format holds, ties to the even one, subnormals below the smallest normal number, infinity (NaN
// in E4M3FN) or the largest finite value past the largest.
#include "engine/number_format.hpp"

#include <array>
#include <cmath>
#include <limits>

#include "engine/fault.hpp"

namespace proofdeck::engine {

namespace {

// A format's bits and its exponent bias, 2^(e − 1) − 1.
constexpr NumberFormatInfo describe(std::string_view name, int exponent_bits, int mantissa_bits,
                                    bool has_infinity = true) {
  NumberFormatInfo info;
  info.name = name;
  info.exponent_bits = exponent_bits;
  info.mantissa_bits = mantissa_bits;
  info.bias = (1 << (exponent_bits - 1)) - 1;
  info.has_infinity = has_infinity;
  return info;
}

// Its values: the largest finite, the smallest normal and subnormal, epsilon. An IEEE-style format
// reserves its top exponent for ∞ and NaN, so its largest is (2 − 2^−m)·2^bias; E4M3FN keeps only
// the all-ones code for NaN, so its top exponent 2^(bias + 1) holds numbers up to a mantissa one
// below all ones: (2 − 2^(1 − m))·2^(bias + 1) = 448.
NumberFormatInfo with_values(NumberFormatInfo info) {
  info.max = info.has_infinity
                 ? std::ldexp(2.0 - std::ldexp(1.0, -info.mantissa_bits), info.bias)
                 : std::ldexp(2.0 - std::ldexp(1.0, 1 - info.mantissa_bits), info.bias + 1);
  info.min_normal = std::ldexp(1.0, 1 - info.bias);
  info.min_subnormal = std::ldexp(1.0, 1 - info.bias - info.mantissa_bits);
  info.epsilon = std::ldexp(1.0, -info.mantissa_bits);
  return info;
}

const std::array<NumberFormatInfo, 4>& formats() {
  static const std::array<NumberFormatInfo, 4> all{
      with_values(describe("float16", 5, 10)), with_values(describe("bfloat16", 8, 7)),
      with_values(describe("float8_e4m3fn", 4, 3, false)),
      with_values(describe("float8_e5m2", 5, 2))};
  return all;
}

// e4m3-top-binade-reserved (fault): E4M3 laid out as the IEEE formats and E5M2 are, its top
// exponent given up to ∞ and NaN, so it stops at 240 instead of 448.
const NumberFormatInfo& e4m3_as_ieee() {
  static const NumberFormatInfo info = [] {
    NumberFormatInfo ieee = with_values(describe("float8_e4m3fn", 4, 3));
    ieee.has_infinity = false;  // still no infinity: what overflows is NaN
    return ieee;
  }();
  return info;
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

double round_with(double x, const NumberFormatInfo& format, Overflow overflow, Fault fault) {
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
  if (rounded > format.max) {
    // overflow-saturates (fault): past the largest value a cast clips to it, as if it saturated.
    if (overflow == Overflow::saturate || fault == Fault::overflow_saturates) {
      rounded = format.max;
    } else if (!format.has_infinity) {
      return std::numeric_limits<double>::quiet_NaN();
    } else {
      rounded = std::numeric_limits<double>::infinity();
    }
  }
  // subnormals-flushed (fault): what would be subnormal becomes 0, as without gradual underflow.
  if (fault == Fault::subnormals_flushed && rounded < format.min_normal) rounded = 0.0;
  return std::copysign(rounded, x);
}

// bfloat16-ten-mantissa-bits (fault): bfloat16 with float16's 10 mantissa bits, float32's range
// at float16's precision, as if the narrower format cost nothing.
const NumberFormatInfo& bfloat16_with_ten_bits() {
  static const NumberFormatInfo info = with_values(describe("bfloat16", 8, 10));
  return info;
}

// The format a cast rounds to under the active fault.
const NumberFormatInfo& rounding_format(NumberFormat format, Fault fault) {
  if (format == NumberFormat::float8_e4m3fn && fault == Fault::e4m3_top_binade_reserved)
    return e4m3_as_ieee();
  if (format == NumberFormat::bfloat16 && fault == Fault::bfloat16_ten_mantissa_bits)
    return bfloat16_with_ten_bits();
  return number_format_info(format);
}

}  // namespace

double round_to_format(double x, NumberFormat format, Overflow overflow) {
  const Fault fault = enter(Op::number_format);
  return round_with(x, rounding_format(format, fault), overflow, fault);
}

double float8_value(std::uint8_t code, NumberFormat format) {
  const NumberFormatInfo& info = number_format_info(format);
  const int mantissa_bits = info.mantissa_bits;
  const int exponent_field = (code >> mantissa_bits) & ((1 << info.exponent_bits) - 1);
  const int mantissa = code & ((1 << mantissa_bits) - 1);
  const double sign = (code & 0x80) != 0 ? -1.0 : 1.0;
  const int top = (1 << info.exponent_bits) - 1;
  if (info.has_infinity && exponent_field == top) {
    return mantissa == 0 ? sign * std::numeric_limits<double>::infinity()
                         : std::numeric_limits<double>::quiet_NaN();
  }
  if (!info.has_infinity && exponent_field == top && mantissa == (1 << mantissa_bits) - 1)
    return std::numeric_limits<double>::quiet_NaN();
  if (exponent_field == 0)  // subnormal: 0.m · 2^(1 − bias)
    return sign * std::ldexp(mantissa, 1 - info.bias - mantissa_bits);
  return sign *
         std::ldexp((1 << mantissa_bits) + mantissa, exponent_field - info.bias - mantissa_bits);
}

template <typename T>
void round_to_format_forward(Matrix<T>& out, const Matrix<T>& x, NumberFormat format,
                             Overflow overflow) {
  const Fault fault = enter(Op::number_format);
  const NumberFormatInfo& info = rounding_format(format, fault);
  out.resize(x.rows(), x.cols());
  for (Index r = 0; r < x.rows(); ++r) {
    for (Index c = 0; c < x.cols(); ++c)
      out(r, c) = static_cast<T>(round_with(static_cast<double>(x(r, c)), info, overflow, fault));
  }
}

template void round_to_format_forward(Matrix<float>&, const Matrix<float>&, NumberFormat, Overflow);
template void round_to_format_forward(Matrix<double>&, const Matrix<double>&, NumberFormat,
                                      Overflow);

}  // namespace proofdeck::engine
