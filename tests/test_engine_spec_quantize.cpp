// `engine run` specs of the number formats: fake_quantize (the observer's scales or the ones
// given) and round_to_format, what each reports beside its output, and every problem named (the
// engine's own numbers are in tests/test_quantize.cpp and tests/test_number_format.cpp,
// PyTorch's in the fake_quantize_* and round_to_* fixtures).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "engine_spec_support.hpp"

namespace test_engine_spec_quantize {

using nlohmann::json;
using proofdeck::testing::error_from;
using proofdeck::testing::kNoError;
using proofdeck::testing::run;

namespace {

// Two rows of four: row 0's largest magnitude 2.55, row 1's 1.275.
json quantize_spec() {
  return R"({"op": "fake_quantize", "config": {"bits": 4},
             "input": [[0.3, -2.55, 1.0, 0.5], [0.1, 0.2, 1.275, -0.4]]})"_json;
}

}  // namespace

TEST_CASE("fake_quantize reports the scales and zero points it used", "[spec][quantize]") {
  json spec = quantize_spec();
  json result = run(spec);
  // symmetric 4-bit: 16 levels −8 … 7, the scale max |x| / 7.5
  CHECK(result["quant_min"] == -8);
  CHECK(result["quant_max"] == 7);
  CHECK(result["scale"][0].get<double>() == Approx(2.55 / 7.5));
  CHECK(result["zero_point"] == json::array({0}));
  spec["config"]["granularity"] = "channel";  // one scale per row
  result = run(spec);
  CHECK(result["scale"].size() == 2);
  CHECK(result["scale"][1].get<double>() == Approx(1.275 / 7.5));
  spec["config"] = R"({"scale": [0.5, 0.25], "granularity": "channel"})"_json;
  result = run(spec);  // the scales given, 8-bit levels by default
  CHECK(result["output"][0] == R"([0.5, -2.5, 1.0, 0.5])"_json);
  CHECK(result["quant_min"] == -128);
}

TEST_CASE("fake_quantize refuses a granularity, group or scale it cannot use", "[spec][quantize]") {
  json spec = quantize_spec();
  spec["config"]["granularity"] = "block";
  CHECK(error_from(spec) ==
        "spec.json: config.granularity: expected one of tensor, channel, group, got \"block\"");
  spec = quantize_spec();
  spec["config"] = R"({"granularity": "group", "group_size": 3})"_json;
  CHECK(error_from(spec) ==
        "spec.json: config: group_size 3 does not divide the 4 entries of a "
        "row: every group must be whole");
  spec = quantize_spec();
  spec["config"]["bits"] = 1;
  CHECK(error_from(spec) == "spec.json: config.bits: expected 2 to 16, got 1");
  spec = quantize_spec();
  spec["config"] = R"({"scale": [0.5, 0.25]})"_json;
  CHECK(error_from(spec) ==
        "spec.json: config.scale: expected 1 number (one per tensor), got 2 entries");
  spec["config"] = R"({"scale": -1})"_json;
  CHECK(error_from(spec) == "spec.json: config.scale: expected positive scales, got -1");
  spec["config"] = R"({"scale": 0.5, "zero_point": 9, "quant_min": -8, "quant_max": 7})"_json;
  CHECK(error_from(spec) ==
        "spec.json: config.zero_point: 9 is outside quant_min … quant_max (-8 … 7)");
  spec["config"] = R"({"zero_point": 3})"_json;
  CHECK(error_from(spec) ==
        "spec.json: config.zero_point, quant_min and quant_max go with config.scale; without a "
        "scale the observer computes them from bits and symmetric");
  spec["config"] = R"({"scale": 0.5, "zero_point": 2})"_json;
  CHECK(error_from(spec) == kNoError);
}

TEST_CASE("round_to_format names the format and refuses a value that becomes infinity",
          "[spec][formats]") {
  json spec = R"({"op": "round_to_format", "config": {"format": "float16"},
                  "input": [[1.00048828125, 65519, 3e-8]], "grad_output": [[1, 2, 1e-8]]})"_json;
  json result = run(spec);
  CHECK(result["output"] == R"([[1.0, 65504.0, 5.960464477539063e-08]])"_json);
  CHECK(result["format"]["max"] == 65504.0);
  // the gradient goes back through the narrow format too: 1e-8 is below float16's half step
  CHECK(result["grads"]["input"] == R"([[1.0, 2.0, 0.0]])"_json);
  spec["input"][0][1] = 70000;
  CHECK(error_from(spec) ==
        "spec.json: input[0][1]: 70000 is past float16's largest finite value, 65504, and "
        "rounds to infinity, which JSON cannot hold; \"saturate\": true clamps it to ±65504");
  spec["config"]["saturate"] = true;
  CHECK(run(spec)["output"][0][1] == 65504.0);
  spec["config"]["format"] = "float8";
  CHECK(error_from(spec) ==
        "spec.json: config.format: expected one of float16, bfloat16, "
        "float8_e4m3fn, float8_e5m2, got \"float8\"");
}

TEST_CASE("round_to_format in E4M3FN: NaN past 448 unless it saturates, the gradient as well",
          "[spec][formats]") {
  json spec = R"({"op": "round_to_format", "config": {"format": "float8_e4m3fn"},
                  "input": [[0.3, 464, 500]], "grad_output": [[1, 1, 1]]})"_json;
  CHECK(error_from(spec) ==
        "spec.json: input[0][2]: 500 is past float8_e4m3fn's largest finite value, 448, and "
        "rounds to NaN (the format has no infinity), which JSON cannot hold; \"saturate\": true "
        "clamps it to ±448");
  spec["config"]["saturate"] = true;
  json result = run(spec);
  CHECK(result["output"] == R"([[0.3125, 448.0, 448.0]])"_json);
  CHECK(result["format"]["has_infinity"] == false);
  CHECK(result["format"]["bias"] == 7);
  spec["config"]["saturate"] = false;
  spec["input"][0][2] = 1;
  spec["grad_output"][0][1] = -1000;
  CHECK(error_from(spec) ==
        "spec.json: grad_output[0][1]: -1000 is past float8_e4m3fn's largest finite value, 448, "
        "and rounds to NaN (the format has no infinity), which JSON cannot hold; \"saturate\": "
        "true clamps it to ±448");
}

TEST_CASE("nf4_quantize returns codes, block constants and their cost, and has no gradient",
          "[spec][nf4]") {
  json spec = R"({"op": "nf4_quantize", "config": {"block_size": 2},
                  "input": [[1, -0.5, 0.25, 0]]})"_json;
  json result = run(spec);
  CHECK(result["codes"] == R"([[15, 2, 15, 7]])"_json);
  CHECK(result["absmax"] == R"([1.0, 0.25])"_json);
  CHECK(result["bits_per_parameter"] == 20.0);  // 4 bits + a 32-bit absmax per 2 values
  CHECK_FALSE(result.contains("double_quant"));
  spec["config"]["double_quant"] = true;
  result = run(spec);
  CHECK(result["double_quant"]["offset"] == 0.625);
  CHECK(result["bits_per_parameter"] == 4.0 + (8.0 * 2 + 32 + 32) / 4);
  spec["grad_output"] = R"([[1, 1, 1, 1]])"_json;
  CHECK(error_from(spec) ==
        "spec.json: grad_output: nf4_quantize has no gradient: QLoRA freezes the quantized "
        "weights and trains adapters; leave grad_output out");
  spec.erase("grad_output");
  spec["config"]["block_size"] = 0;
  CHECK(error_from(spec).rfind("spec.json: config.block_size", 0) == 0);
}

}  // namespace test_engine_spec_quantize
