// Rounding to float16 and bfloat16 as torch's casts do: the formats' ranges and steps, ties to
// even, subnormals and underflow, overflow to infinity, the fault and the op's refusals. PyTorch's
// numbers are in the round_to_* fixtures (scripts/torch_reference_formats.py).
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "engine/fault.hpp"
#include "engine/number_format.hpp"

namespace test_number_format {

using namespace proofdeck::engine;

TEST_CASE("float16 has more precision, bfloat16 float32's range", "[engine][formats]") {
  const NumberFormatInfo& half = number_format_info(NumberFormat::float16);
  const NumberFormatInfo& brain = number_format_info(NumberFormat::bfloat16);
  CHECK(half.max == 65504.0);
  CHECK(half.min_normal == std::ldexp(1.0, -14));
  CHECK(half.min_subnormal == std::ldexp(1.0, -24));
  CHECK(half.epsilon == std::ldexp(1.0, -10));
  CHECK(brain.max == Approx(3.3895313892515355e38).epsilon(1e-15));
  CHECK(brain.min_normal == static_cast<double>(std::numeric_limits<float>::min()));
  CHECK(brain.epsilon == std::ldexp(1.0, -7));  // 8 times float16's step at 1
  CHECK(find_number_format("bfloat16") == NumberFormat::bfloat16);
  CHECK_FALSE(find_number_format("float8_e4m3fn").has_value());
}

TEST_CASE("a value halfway between two neighbours rounds to the even one", "[engine][formats]") {
  const double step = std::ldexp(1.0, -10);
  CHECK(round_to_format(1.0 + step / 2, NumberFormat::float16) == 1.0);
  CHECK(round_to_format(1.0 + 3 * step / 2, NumberFormat::float16) == 1.0 + 2 * step);
  CHECK(round_to_format(-(1.0 + step / 2), NumberFormat::float16) == -1.0);
  CHECK(round_to_format(3.14159265, NumberFormat::float16) == 3.140625);
  CHECK(round_to_format(3.14159265, NumberFormat::bfloat16) == 3.140625);
  CHECK(round_to_format(1000.3, NumberFormat::bfloat16) == 1000.0);  // steps of 4 from 512
}

TEST_CASE("past the largest finite value a cast gives infinity, and 0 below the smallest subnormal",
          "[engine][formats]") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(round_to_format(65519.0, NumberFormat::float16) == 65504.0);
  CHECK(round_to_format(65520.0, NumberFormat::float16) == inf);  // halfway to 2^16: even is out
  CHECK(round_to_format(-1e6, NumberFormat::float16) == -inf);
  CHECK(round_to_format(1e6, NumberFormat::bfloat16) == 999424.0);
  const double tiny = std::ldexp(1.0, -24);
  CHECK(round_to_format(tiny, NumberFormat::float16) == tiny);
  CHECK(round_to_format(0.75 * tiny, NumberFormat::float16) == tiny);
  CHECK(round_to_format(tiny / 2, NumberFormat::float16) == 0.0);  // halfway to 0: even
  CHECK(round_to_format(1e-8, NumberFormat::float16) == 0.0);      // a gradient lost
  CHECK(round_to_format(1e-8, NumberFormat::bfloat16) != 0.0);     // bfloat16 keeps it
  CHECK(std::isnan(round_to_format(std::nan(""), NumberFormat::float16)));
}

TEST_CASE("subnormals-flushed: what would be subnormal becomes 0", "[engine][formats][faults]") {
  const double tiny = std::ldexp(1.0, -24);
  const FaultScope scope(Fault::subnormals_flushed);
  CHECK(round_to_format(3 * tiny, NumberFormat::float16) == 0.0);
  CHECK(round_to_format(std::ldexp(1.0, -14), NumberFormat::float16) == std::ldexp(1.0, -14));
  CHECK(round_to_format(1.0, NumberFormat::float16) == 1.0);
}

}  // namespace test_number_format
