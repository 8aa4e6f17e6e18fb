// Rounding to float16, bfloat16 and the two FP8 formats as casts do: the formats' ranges and steps,
// ties to even, subnormals and underflow, overflow to infinity, NaN or the largest value, and the
// faults. PyTorch's numbers are in the round_to_float16/bfloat16 fixtures
// (scripts/torch_reference_formats.py); FP8's reference is the OCP specification's code table,
// every code decoded in tests/fixtures/float8/ (scripts/reference_float8.py).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

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
  CHECK(find_number_format("float8_e4m3fn") == NumberFormat::float8_e4m3fn);
  CHECK_FALSE(find_number_format("float8_e4m3").has_value());  // the FN variant only
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

// The committed table's 256 values, "nan" and "inf" spelled out.
std::vector<double> code_table(const std::string& name) {
  std::ifstream in(std::string(PROOFDECK_FIXTURE_DIR) + "/float8/" + name + ".tsv");
  REQUIRE(in);
  std::string line;
  std::getline(in, line);  // the header
  std::vector<double> values;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string code, bits, value;
    fields >> code >> bits >> value;
    values.push_back(value == "nan"    ? std::numeric_limits<double>::quiet_NaN()
                     : value == "inf"  ? std::numeric_limits<double>::infinity()
                     : value == "-inf" ? -std::numeric_limits<double>::infinity()
                                       : std::stod(value));
  }
  return values;
}

TEST_CASE("every FP8 code decodes to the OCP specification's value, and every finite one is kept",
          "[engine][formats]") {
  for (const NumberFormat format : {NumberFormat::float8_e4m3fn, NumberFormat::float8_e5m2}) {
    const std::string name(number_format_info(format).name);
    const std::vector<double> table = code_table(name);
    REQUIRE(table.size() == 256);
    int nans = 0;
    for (std::size_t code = 0; code < table.size(); ++code) {
      INFO(name << " code " << code);
      const double value = float8_value(static_cast<std::uint8_t>(code), format);
      if (std::isnan(table[code])) {
        CHECK(std::isnan(value));
        ++nans;
        continue;
      }
      CHECK(value == table[code]);
      CHECK(std::signbit(value) == std::signbit(table[code]));
      if (std::isfinite(value)) CHECK(round_to_format(value, format) == value);
    }
    CHECK(nans == (format == NumberFormat::float8_e4m3fn ? 2 : 6));
  }
}

TEST_CASE("E4M3FN trades E5M2's range for a mantissa bit, and has no infinity",
          "[engine][formats]") {
  const NumberFormatInfo& e4m3 = number_format_info(NumberFormat::float8_e4m3fn);
  const NumberFormatInfo& e5m2 = number_format_info(NumberFormat::float8_e5m2);
  CHECK(e4m3.bias == 7);
  CHECK(e4m3.max == 448.0);
  CHECK(e4m3.min_normal == std::ldexp(1.0, -6));
  CHECK(e4m3.min_subnormal == std::ldexp(1.0, -9));
  CHECK_FALSE(e4m3.has_infinity);
  CHECK(e5m2.bias == 15);
  CHECK(e5m2.max == 57344.0);
  CHECK(e5m2.min_normal == std::ldexp(1.0, -14));  // float16's
  CHECK(e5m2.min_subnormal == std::ldexp(1.0, -16));
  CHECK(e5m2.has_infinity);
  CHECK(float8_value(0x7e, NumberFormat::float8_e4m3fn) == 448.0);  // S.1111.110
  CHECK(std::isnan(float8_value(0x7f, NumberFormat::float8_e4m3fn)));
  CHECK(std::isinf(float8_value(0x7c, NumberFormat::float8_e5m2)));    // S.11111.00
  CHECK(round_to_format(0.3, NumberFormat::float8_e4m3fn) == 0.3125);  // steps of 1/32 there
  CHECK(round_to_format(0.3, NumberFormat::float8_e5m2) == 0.3125);    // steps of 1/16
  CHECK(round_to_format(0.28, NumberFormat::float8_e4m3fn) == 0.28125);
  CHECK(round_to_format(0.28, NumberFormat::float8_e5m2) == 0.25);
}

TEST_CASE("past the largest FP8 value a cast gives NaN in E4M3FN, infinity in E5M2, or saturates",
          "[engine][formats]") {
  CHECK(round_to_format(464.0, NumberFormat::float8_e4m3fn) == 448.0);  // a tie: 448 is even
  CHECK(std::isnan(round_to_format(465.0, NumberFormat::float8_e4m3fn)));
  CHECK(std::isnan(round_to_format(-1e4, NumberFormat::float8_e4m3fn)));
  CHECK(round_to_format(61439.0, NumberFormat::float8_e5m2) == 57344.0);
  CHECK(round_to_format(61440.0, NumberFormat::float8_e5m2) ==
        std::numeric_limits<double>::infinity());  // a tie: the even neighbour is 2^16
  CHECK(round_to_format(1e4, NumberFormat::float8_e4m3fn, Overflow::saturate) == 448.0);
  CHECK(round_to_format(-1e9, NumberFormat::float8_e5m2, Overflow::saturate) == -57344.0);
  CHECK(round_to_format(1e6, NumberFormat::float16, Overflow::saturate) == 65504.0);
}

TEST_CASE("e4m3-top-binade-reserved: E4M3 laid out as IEEE stops at 240",
          "[engine][formats][faults]") {
  const FaultScope scope(Fault::e4m3_top_binade_reserved);
  CHECK(round_to_format(1e4, NumberFormat::float8_e4m3fn, Overflow::saturate) == 240.0);
  CHECK(std::isnan(round_to_format(300.0, NumberFormat::float8_e4m3fn)));
  CHECK(round_to_format(0.3, NumberFormat::float8_e4m3fn) == 0.3125);  // below the top, as before
  CHECK(round_to_format(1e5, NumberFormat::float8_e5m2, Overflow::saturate) == 57344.0);
}

TEST_CASE("overflow-saturates: past the largest value a cast clips instead of overflowing",
          "[engine][formats][faults]") {
  const FaultScope scope(Fault::overflow_saturates);
  CHECK(round_to_format(70000.0, NumberFormat::float16) == 65504.0);
  CHECK(round_to_format(-1e4, NumberFormat::float8_e4m3fn) == -448.0);
  CHECK(round_to_format(3.14159265, NumberFormat::float16) == 3.140625);
}

TEST_CASE("bfloat16-ten-mantissa-bits: bfloat16 rounds as finely as float16",
          "[engine][formats][faults]") {
  const FaultScope scope(Fault::bfloat16_ten_mantissa_bits);
  CHECK(round_to_format(3.14159265, NumberFormat::bfloat16) == 3.140625);  // 10 bits: float16's
  CHECK(round_to_format(1.0 + std::ldexp(1.0, -9), NumberFormat::bfloat16) ==
        1.0 + std::ldexp(1.0, -9));
  CHECK(round_to_format(1e30, NumberFormat::bfloat16) == Approx(1e30).epsilon(1e-3));
  CHECK(round_to_format(1.0 + std::ldexp(1.0, -9), NumberFormat::float16) ==
        1.0 + std::ldexp(1.0, -9));
}

}  // namespace test_number_format
