// The narrow floating-point formats mixed-precision training and inference store numbers in, and
// rounding to them as a cast does: IEEE 754 half precision (float16: 5 exponent bits, 10
// mantissa bits), bfloat16 (float32's 8 exponent bits, 7 mantissa bits) and the two 8-bit
// formats of the OCP FP8 specification (Micikevicius et al. 2022): E5M2 (IEEE-like, with
// infinities) and E4M3FN (bias 7, no infinities, only S.1111.111 is NaN, so its top binade holds
// numbers and it reaches 448). Each rounds to the nearest representable value, ties to the even
// one, with subnormals below the smallest normal number; past the largest finite value a cast
// gives infinity, or NaN in E4M3FN, unless it saturates to ±max (the specification's saturating
// mode). Range against precision, in numbers: float16 stops at 65,504 and its smallest subnormal
// is 2⁻²⁴, which is why small gradients underflow without loss scaling; bfloat16 reaches
// float32's 3.4 × 10³⁸ with fewer digits.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/tensor.hpp"

namespace proofdeck::engine {

enum class NumberFormat : std::uint8_t { float16, bfloat16, float8_e4m3fn, float8_e5m2 };

struct NumberFormatInfo {
  std::string_view name;  // "float16": torch's dtype name
  int exponent_bits = 0;
  int mantissa_bits = 0;  // stored fraction bits, the implicit leading 1 not counted
  int bias = 0;
  double max = 0;            // the largest finite value
  double min_normal = 0;     // 2^(1 − bias)
  double min_subnormal = 0;  // 2^(1 − bias − mantissa_bits)
  double epsilon = 0;        // the gap from 1 to the next value, 2^−mantissa_bits
  // false for E4M3FN ("finite"): its top exponent holds numbers, overflow is NaN
  bool has_infinity = true;
};

// What a cast does with a value past the largest finite one.
enum class Overflow : std::uint8_t {
  infinity,  // ±∞ (NaN in a format without infinities), as torch's casts do
  saturate,  // ±max, the OCP specification's saturating conversion
};

const NumberFormatInfo& number_format_info(NumberFormat format);
std::optional<NumberFormat> find_number_format(std::string_view name);

// The value the format stores for x: round to nearest, ties to even; past the largest finite value
// (what rounds above it) ±infinity, NaN for E4M3FN, or ±max when saturating; NaN stays NaN.
double round_to_format(double x, NumberFormat format, Overflow overflow = Overflow::infinity);

// The value an 8-bit code stands for in an FP8 format, decoded from its sign, exponent and
// mantissa fields (NaN and ±∞ as the format encodes them).
double float8_value(std::uint8_t code, NumberFormat format);

// Every entry of x rounded to the format: the forward of a cast there and back. Its backward rounds
// the incoming gradient to the format the same way (autograd casts it back through the narrow
// type), which is where a float16 gradient below 2⁻²⁵ becomes 0.
template <typename T>
void round_to_format_forward(Matrix<T>& out, const Matrix<T>& x, NumberFormat format,
                             Overflow overflow = Overflow::infinity);

}  // namespace proofdeck::engine
