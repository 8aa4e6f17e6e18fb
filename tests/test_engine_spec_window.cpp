// `engine run` specs of sliding-window attention: gqa's `sliding_window` (Mistral's config key,
// null or absent for none) and every problem with it named (the engine's own numbers are in
// tests/test_sliding_window.cpp, PyTorch's in the gqa_window_* and mha_window fixtures).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "engine_spec_support.hpp"

namespace test_engine_spec_window {

using nlohmann::json;
using proofdeck::testing::error_from;
using proofdeck::testing::kNoError;
using proofdeck::testing::run;

namespace {

// One head of width 2 over three tokens, the projections the identity: the attention weights
// read straight off the inputs.
json window_spec() {
  return R"({"op": "gqa",
             "config": {"hidden_size": 2, "num_attention_heads": 1, "rope": false,
                        "sliding_window": 1},
             "params": {"q_proj.weight": [[1, 0], [0, 1]], "k_proj.weight": [[1, 0], [0, 1]],
                        "v_proj.weight": [[1, 0], [0, 1]], "o_proj.weight": [[1, 0], [0, 1]]},
             "input": [[1, 0], [0, 1], [1, 1]]})"_json;
}

}  // namespace

TEST_CASE("gqa's sliding_window keeps each query to its last W keys", "[spec]") {
  json spec = window_spec();
  // A window of one: each token reads its own value, so the output is the input.
  CHECK(run(spec)["output"] == spec["input"]);
  spec["config"]["sliding_window"] = nullptr;  // Mistral's config writes null for no window
  CHECK(run(spec)["output"] != spec["input"]);
  spec["config"].erase("sliding_window");
  CHECK(error_from(spec) == kNoError);
}

TEST_CASE("gqa's sliding_window is refused when not a positive count or without the causal mask",
          "[spec]") {
  json spec = window_spec();
  spec["config"]["sliding_window"] = 0;
  CHECK(error_from(spec) == "spec.json: config.sliding_window: expected 1 to 65536, got 0");
  spec["config"]["sliding_window"] = "4";
  CHECK(error_from(spec) ==
        "spec.json: config.sliding_window: expected a positive integer, got string \"4\"");
  spec["config"]["sliding_window"] = 2;
  spec["config"]["causal"] = false;
  CHECK(error_from(spec) ==
        "spec.json: gqa: sliding_window 2 needs the causal mask: a window "
        "counts back from each query (causal: true)");
}

}  // namespace test_engine_spec_window
