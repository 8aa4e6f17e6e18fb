// The quantization demos' step sizes: quant-error measures the step at any two integer widths
// as PyTorch's symmetric observer sets it, (2^high − 1) / (2^low − 1) apart over one range, and
// refuses a pair whose narrower width is not below the wider.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "demo_test_support.hpp"

namespace test_demos_quantization {

using proofdeck::testing::error_of;
using proofdeck::testing::number;
using proofdeck::testing::run;

TEST_CASE("quant-error's step grows by (2^high − 1) / (2^low − 1) between two widths", "[demo]") {
  const struct { int high, low; } pairs[] = {{8, 4}, {8, 2}, {16, 3}, {16, 8}, {5, 4}};
  for (const auto& [high, low] : pairs) {
    INFO(high << " and " << low << " bits");
    const auto result = run(
        "quant-error", {"high_bits=" + std::to_string(high), "low_bits=" + std::to_string(low)});
    const double expected = (std::ldexp(1.0, high) - 1) / (std::ldexp(1.0, low) - 1);
    CHECK(number(result, "step_ratio_bits") == Approx(expected).epsilon(1e-12));
    CHECK(number(result, "half_span_high_bits") == (std::ldexp(1.0, high) - 1) / 2);
    CHECK(number(result, "half_span_low_bits") == (std::ldexp(1.0, low) - 1) / 2);
    CHECK(number(result, "step_low_bits") / number(result, "step_high_bits") ==
          Approx(expected).epsilon(1e-12));
  }
}

TEST_CASE("quant-error's default widths are INT8 and INT4: the step 17 times as coarse", "[demo]") {
  const auto result = run("quant-error");
  CHECK(number(result, "step_ratio_bits") == Approx(17.0).epsilon(1e-12));
  CHECK(number(result, "int4_over_int8_error") > 15.0);
  CHECK(number(result, "int4_over_int8_error") < 19.0);
}

TEST_CASE("quant-error refuses a narrower width that is not below the wider, saying how to ask",
          "[demo]") {
  CHECK(error_of("quant-error", {"high_bits=4", "low_bits=4"}) ==
        "demo quant-error: low_bits=4 is not below high_bits=4: the step ratio compares a "
        "narrower width with a wider one, e.g. --set high_bits=8 --set low_bits=4");
  CHECK(error_of("quant-error", {"high_bits=4", "low_bits=8"}) ==
        "demo quant-error: low_bits=8 is not below high_bits=4: the step ratio compares a "
        "narrower width with a wider one, e.g. --set high_bits=8 --set low_bits=4");
  CHECK(error_of("quant-error", {"low_bits=1"}) ==
        "demo quant-error: low_bits=1: expected an integer from 2 to 15");
}

}  // namespace test_demos_quantization
