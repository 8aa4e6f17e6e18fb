// `engine run` specs of the mixture-of-experts block: Mixtral's config keys and parameter names,
// what the op reports beside its output, and every problem named (the engine's own numbers are in
// tests/test_moe.cpp, PyTorch's in the moe_* fixtures).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "engine_spec_support.hpp"

namespace test_engine_spec_moe {

using nlohmann::json;
using proofdeck::testing::error_from;
using proofdeck::testing::kNoError;
using proofdeck::testing::run;

namespace {

// Three experts of width 2 on two features, the router reading the features straight: token 0
// scores experts 0 and 2 alike, token 3 prefers expert 2, then 0.
json moe_spec() {
  return R"({"op": "moe",
             "config": {"hidden_size": 2, "intermediate_size": 2, "num_local_experts": 3,
                        "num_experts_per_tok": 2, "capacity_factor": 1.0},
             "params": {"gate.weight": [[1, 0], [0, 1], [1, 1]],
                        "experts.0.w1.weight": [[1, 0], [0, 1]],
                        "experts.0.w2.weight": [[1, 0], [0, 1]],
                        "experts.0.w3.weight": [[1, 0], [0, 1]],
                        "experts.1.w1.weight": [[1, 0], [0, 1]],
                        "experts.1.w2.weight": [[1, 0], [0, 1]],
                        "experts.1.w3.weight": [[2, 0], [0, 1]],
                        "experts.2.w1.weight": [[1, 0], [0, 1]],
                        "experts.2.w2.weight": [[1, 0], [0, 1]],
                        "experts.2.w3.weight": [[3, 0], [0, 1]]},
             "input": [[1, 0], [0, 1], [1, 1], [2, 1]]})"_json;
}

}  // namespace

TEST_CASE("moe reports each token's experts, their weights, the capacity and what it dropped",
          "[spec][moe]") {
  const json result = run(moe_spec());
  CHECK(result["selected_experts"] == R"([[0, 2], [1, 2], [2, 0], [2, 0]])"_json);
  CHECK(result["routing_weights"][0] == R"([0.5, 0.5])"_json);
  // ⌈2 · 4 / 3 · 1.0⌉ = 3 slots an expert: expert 2 is full when token 1's second choice comes
  CHECK(result["capacity"] == 3);
  CHECK(result["dropped"] == R"([[1, 1]])"_json);
  CHECK(result["parameters"] ==
        R"({"total": 42, "router": 6, "per_expert": 12, "active_per_token": 27.0})"_json);
  json spec = moe_spec();
  spec["config"]["capacity_factor"] = nullptr;  // no capacity: nothing dropped
  CHECK(run(spec)["dropped"] == json::array());
}

TEST_CASE("moe refuses a config it cannot run and names the parameter it lacks", "[spec][moe]") {
  json spec = moe_spec();
  spec["config"]["num_experts_per_tok"] = 4;
  CHECK(error_from(spec) ==
        "spec.json: config.num_experts_per_tok: a token runs at most the 3 "
        "experts there are (num_local_experts), got 4");
  spec = moe_spec();
  spec["config"]["capacity_factor"] = -1;
  CHECK(error_from(spec) ==
        "spec.json: config.capacity_factor: expected a number ≥ 0 (0 or null: no capacity), "
        "got -1");
  spec = moe_spec();
  spec["config"]["router_jitter_noise"] = 0.1;
  CHECK(error_from(spec) ==
        "spec.json: config.router_jitter_noise: the engine is deterministic "
        "and routes without noise; expected 0");
  spec = moe_spec();
  spec["params"].erase("experts.2.w2.weight");
  CHECK(error_from(spec) ==
        "spec.json: params.experts.2.w2.weight: missing; moe expects a (2, 2) matrix");
  spec = moe_spec();
  spec["params"]["experts.3.w1.weight"] = R"([[1]])"_json;
  CHECK(error_from(spec).starts_with(
      "spec.json: params.experts.3.w1.weight: not a parameter of moe with this config"));
  spec = moe_spec();
  spec["config"]["router_aux_loss_coef"] = 0;
  CHECK(error_from(spec) == kNoError);
}

}  // namespace test_engine_spec_moe
