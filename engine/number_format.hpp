// The narrow floating-point formats mixed-precision training and inference store numbers in, and
// rounding to them as a cast does: IEEE 754 half precision (float16: 5 exponent bits, 10
// mantissa bits) and bfloat16 (float32's 8 exponent bits, 7 mantissa bits), each rounding to the
// nearest representable value, ties to the even one, with subnormals below the smallest normal
// number and infinity past the largest finite one (torch's .to(torch.float16) and
// .to(torch.bfloat16)). Range against precision, in numbers: float16 stops at 65,504 and its
// smallest subnormal is 2⁻²⁴, which is why small gradients underflow without loss scaling;
// bfloat16 reaches float32's 3.4 × 10³⁸ with fewer digits.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/tensor.hpp"

namespace proofdeck::engine {

enum class NumberFormat : std::uint8_t { float16, bfloat16 };

struct NumberFormatInfo {
  std::string_view name;  // "float16": torch's dtype name
  int exponent_bits = 0;
  int mantissa_bits = 0;  // stored fraction bits, the implicit leading 1 not counted
  int bias = 0;
  double max = 0;            // the largest finite value
  double min_normal = 0;     // 2^(1 − bias)
  double min_subnormal = 0;  // 2^(1 − bias − mantissa_bits)
  double epsilon = 0;        // the gap from 1 to the next value, 2^−mantissa_bits
};

const NumberFormatInfo& number_format_info(NumberFormat format);
std::optional<NumberFormat> find_number_format(std::string_view name);

// The value the format stores for x: round to nearest, ties to even; ±infinity past the largest
// finite value (at or beyond max + half a step); NaN stays NaN.
double round_to_format(double x, NumberFormat format);

// Every entry of x rounded to the format: the forward of a cast there and back. Its backward rounds
// the incoming gradient to the format the same way (autograd casts it back through the narrow
// type), which is where a float16 gradient below 2⁻²⁵ becomes 0.
template <typename T>
void round_to_format_forward(Matrix<T>& out, const Matrix<T>& x, NumberFormat format);

}  // namespace proofdeck::engine
