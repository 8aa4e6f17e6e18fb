// The engine against PyTorch's own modules: every fixture in tests/fixtures (written by
// scripts/torch_reference.py) is run through `engine run`'s code path and compared, output,
// gradients and extras, to 1e-10 relative in double and 1e-5 in float.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/json_input.hpp"
#include "engine_io/spec.hpp"

namespace test_torch_fixtures {

namespace {

using nlohmann::json;

double max_relative_error(const json& actual, const json& expected, double& scale) {
  if (expected.is_number()) {
    REQUIRE(actual.is_number());
    scale = std::max(scale, std::abs(expected.get<double>()));
    return std::abs(actual.get<double>() - expected.get<double>());
  }
  REQUIRE(expected.is_array());
  REQUIRE(actual.is_array());
  REQUIRE(actual.size() == expected.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    worst = std::max(worst, max_relative_error(actual[i], expected[i], scale));
  }
  return worst;
}

// Objects must have exactly the expected keys, except at the top, where the engine may add
// results PyTorch's module does not return (encoder_layer's attention weights).
void compare(const json& actual, const json& expected, const std::string& where, double tolerance,
             bool top = false) {
  INFO(where);
  if (expected.is_object()) {
    REQUIRE(actual.is_object());
    std::set<std::string> expected_keys, actual_keys;
    for (const auto& [key, value] : expected.items())
      expected_keys.insert(key);
    for (const auto& [key, value] : actual.items()) {
      if (!top || expected.contains(key)) actual_keys.insert(key);
    }
    CHECK(actual_keys == expected_keys);
    for (const auto& [key, value] : expected.items()) {
      if (actual.contains(key)) compare(actual.at(key), value, where + "." + key, tolerance);
    }
    return;
  }
  double scale = 1.0;
  const double error = max_relative_error(actual, expected, scale) / scale;
  INFO("relative error " << error);
  CHECK(error <= tolerance);
}

}  // namespace

TEST_CASE("every engine op matches PyTorch on the committed fixtures", "[engine][torch]") {
  std::size_t fixtures = 0;
  for (const auto& entry : std::filesystem::directory_iterator(PROOFDECK_FIXTURE_DIR)) {
    if (entry.path().extension() != ".json") continue;
    ++fixtures;
    const std::string name = entry.path().stem().string();
    SECTION(name) {
      const json fixture = proofdeck::parse_json(
          proofdeck::read_text_file(entry.path().string(), 1u << 26, std::cin), name);
      const json& spec = fixture.at("spec");
      const double tolerance = spec.value("dtype", "float64") == "float32" ? 1e-5 : 1e-10;
      if (fixture.contains("expected_nan")) {
        // PyTorch answered NaN (JSON holds none): the engine refuses exactly the queries whose
        // output rows PyTorch made NaN, and says why.
        const auto rows = fixture.at("expected_nan").at("output_rows").get<std::vector<int>>();
        REQUIRE_FALSE(rows.empty());
        const std::string queries =
            fmt::format("{} {} ", rows.size() == 1 ? "query" : "queries", fmt::join(rows, ", "));
        CHECK_THROWS_WITH(proofdeck::engine_io::run_engine_spec(spec, name),
                          Catch::Contains(queries + (rows.size() == 1 ? "has" : "have") +
                                          " no key to attend to") &&
                              Catch::Contains("PyTorch returns NaN"));
      } else {
        const json result = proofdeck::engine_io::run_engine_spec(spec, name);
        compare(result, fixture.at("expected"), name, tolerance, true);
      }
    }
  }
  CHECK(fixtures >= 48);
}

TEST_CASE("the fixtures cover every engine op", "[engine][torch]") {
  std::set<std::string> covered;
  for (const auto& entry : std::filesystem::directory_iterator(PROOFDECK_FIXTURE_DIR)) {
    if (entry.path().extension() != ".json") continue;
    const json fixture =
        proofdeck::parse_json(proofdeck::read_text_file(entry.path().string(), 1u << 26, std::cin),
                              entry.path().string());
    covered.insert(fixture.at("spec").at("op").get<std::string>());
  }
  for (const auto op : proofdeck::engine_io::engine_op_names()) {
    INFO(op);
    CHECK(covered.contains(std::string(op)));
  }
}

}  // namespace test_torch_fixtures
