// `engine run` specs of the training objective: cross_entropy's loss, counted tokens, perplexity
// and gradient, and tied_lm_head's parameter counts and uses; every problem named (the engine's
// own numbers are in tests/test_loss.cpp, PyTorch's in the fixtures).
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "engine_spec_support.hpp"

namespace test_engine_spec_loss {

using Catch::Matchers::Contains;
using nlohmann::json;
using proofdeck::testing::error_from;
using proofdeck::testing::run;

TEST_CASE("cross_entropy answers its loss, the tokens counted and their perplexity", "[spec]") {
  // Two rows over four classes, the second padding: a uniform row's loss is log 4.
  json spec = R"({"op": "cross_entropy", "input": [[0, 0, 0, 0], [1, 2, 3, 4]],
                  "target": [1, -100], "grad_output": 2})"_json;
  const json result = run(spec);
  CHECK(result["output"].get<double>() == Approx(std::log(4.0)));
  CHECK(result["tokens_counted"] == 1);
  CHECK(result["perplexity"].get<double>() == Approx(4.0));
  CHECK(result["grads"]["input"] == json::parse("[[0.5, -1.5, 0.5, 0.5], [0, 0, 0, 0]]"));
  spec["config"] = {{"reduction", "none"}};
  spec["grad_output"] = {1, 1};
  CHECK(run(spec)["output"][1] == 0.0);
}

TEST_CASE("cross_entropy's targets, reduction and upstream gradient are checked, each named",
          "[spec]") {
  const json good = R"({"op": "cross_entropy", "input": [[0, 0], [1, 2]], "target": [1, 0]})"_json;
  json spec = good;
  spec.erase("target");
  CHECK_THAT(error_from(spec), Contains("target: missing; expected a list of 2 class indices"));
  spec = good;
  spec["target"] = {1};
  CHECK_THAT(error_from(spec),
             Contains("target: expected a list of 2 class indices, one a row of the input, got a "
                      "list of 1"));
  spec["target"] = {1, 0.5};
  CHECK_THAT(error_from(spec), Contains("target[1]: expected an integer, got number 0.5"));
  spec["target"] = {1, 2};
  CHECK_THAT(error_from(spec), Contains("target 2 of row 1 is not a class (0..1)"));
  spec = good;
  spec["config"] = {{"reduction", "average"}};
  CHECK_THAT(error_from(spec), Contains("config.reduction"));
  spec = good;
  spec["config"] = {{"ignore_index", 1.5}};
  CHECK_THAT(error_from(spec), Contains("config.ignore_index: expected an integer, got 1.5"));
  spec = good;
  spec["grad_output"] = {{1}};
  CHECK_THAT(error_from(spec), Contains("grad_output: expected a number, the loss's upstream "
                                        "gradient (reduction mean)"));
  spec["config"] = {{"reduction", "none"}};
  spec["grad_output"] = {1, "x"};
  CHECK_THAT(error_from(spec), Contains("grad_output[1]: expected a number"));
  spec =
      R"({"op": "linear", "config": {"in_features": 1, "out_features": 1}, "params": {"weight": [[1]], "bias": [0]}, "input": [[1]]})"_json;
  spec["target"] = {0};
  CHECK_THAT(error_from(spec), Contains("target: only cross_entropy takes targets"));
}

TEST_CASE("tied_lm_head answers both parameter counts and each use's gradient", "[spec]") {
  const json result = run(R"({"op": "tied_lm_head",
      "config": {"num_embeddings": 3, "embedding_dim": 2},
      "params": {"weight": [[1, 0], [0, 1], [1, 1]]}, "input": [0, 2],
      "grad_output": [[1, 0, 0], [0, 0, 1]]})"_json);
  CHECK(result["output"] == json::parse("[[1, 0, 1], [1, 1, 2]]"));
  CHECK(result["parameters"] == json{{"tied", 6}, {"untied", 12}});
  CHECK(result["grads"]["weight"] == json::parse("[[2, 0], [0, 0], [2, 2]]"));
  CHECK(result["weight_uses"]["head"] == json::parse("[[1, 0], [0, 0], [1, 1]]"));
  CHECK_THAT(error_from(R"({"op": "tied_lm_head", "config": {"num_embeddings": 3,
      "embedding_dim": 2}, "params": {"weight": [[1, 0], [0, 1], [1, 1]]}, "input": [0, 3]})"_json),
             Contains("token 3 at position 1 is past the vocabulary (0..2)"));
}

}  // namespace test_engine_spec_loss
