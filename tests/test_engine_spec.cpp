// `engine run` specs: every problem with a spec is an InputError (exit 2) whose message names the
// field and what was expected; a good spec answers with the contract's keys. Also the JSON reader's
// located parse errors and its nesting limit.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "core/json_input.hpp"
#include "engine_io/spec.hpp"
#include "engine_spec_support.hpp"

namespace test_engine_spec {

namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using nlohmann::json;
using proofdeck::engine_io::run_engine_spec;
using proofdeck::testing::error_from;
using proofdeck::testing::kNoError;
using proofdeck::testing::run;

// The message of the InputError parsing the text must raise, or kNoError.
std::string parse_error(std::string_view text, const std::string& name) {
  try {
    proofdeck::parse_json(text, name);
  } catch (const proofdeck::InputError& e) {
    CHECK(e.exit_code() == proofdeck::ExitCode::invalid_input);
    return e.message();
  }
  return kNoError;
}

// y = x·Wᵀ + b with W (2, 3): small integers, so every result is exact.
json linear_spec() {
  return R"({"op": "linear", "config": {"in_features": 3, "out_features": 2},
             "params": {"weight": [[1, 2, 3], [4, 5, 6]], "bias": [0.5, -0.5]},
             "input": [[1, 0, -1]]})"_json;
}

// Self-attention with E = 2, H = 2 over T = 3 tokens.
json mha_spec() {
  return R"({"op": "mha", "config": {"embed_dim": 2, "num_heads": 2},
             "params": {"in_proj_weight": [[1, 0], [0, 1], [1, 1], [0, 1], [1, 0], [1, -1]],
                        "in_proj_bias": [0, 0.5, 0, 0, 0, 0],
                        "out_proj.weight": [[1, 0], [0, 1]], "out_proj.bias": [0, 0]},
             "input": [[1, 0], [0, 1], [1, 1]]})"_json;
}

json embedding_spec() {
  return R"({"op": "embedding", "config": {"num_embeddings": 2, "embedding_dim": 2},
             "params": {"weight": [[1, 2], [3, 4]]}, "input": [0, 1]})"_json;
}

json zeros(std::size_t rows, std::size_t cols) {
  return json(rows, json(cols, 0));
}

// Llama's MLP with E = 2, F = 3.
json swiglu_spec() {
  return R"({"op": "swiglu_mlp", "config": {"hidden_size": 2, "intermediate_size": 3},
             "params": {"gate_proj.weight": [[1, 0], [0, 1], [1, 1]],
                        "up_proj.weight": [[1, -1], [0, 2], [1, 0]],
                        "down_proj.weight": [[1, 0, 1], [0, 1, -1]]},
             "input": [[1, 0], [0, 1]]})"_json;
}

// Llama's attention with E = 4, H = 2 query heads sharing G = 1 key/value head of D = 2.
json gqa_spec() {
  return R"({"op": "gqa",
             "config": {"hidden_size": 4, "num_attention_heads": 2, "num_key_value_heads": 1},
             "params": {"q_proj.weight": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
                        "k_proj.weight": [[1, 1, 0, 0], [0, 0, 1, 1]],
                        "v_proj.weight": [[1, 0, 1, 0], [0, 1, 0, 1]],
                        "o_proj.weight": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]},
             "input": [[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0]]})"_json;
}

// `depth` arrays nested in each other around `innermost`.
std::string nested_arrays(std::size_t depth, const std::string& innermost) {
  return std::string(depth, '[') + innermost + std::string(depth, ']');
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) {
    lines.push_back(line);
  }
  return lines;
}

// The excerpt's character that the '^' of the caret line points at, counting columns as a
// terminal does: one per UTF-8 character, so an ellipsis "…" is one column.
char character_above_caret(const std::string& excerpt, const std::string& caret_line) {
  const std::size_t caret = caret_line.find('^');
  std::size_t column = 0;
  for (const char c : excerpt) {
    if ((static_cast<unsigned char>(c) & 0xC0) == 0x80) continue;  // inside a UTF-8 character
    if (column++ == caret) return c;
  }
  return '\0';  // the caret is past the excerpt
}

constexpr const char* kOps =
    "linear, layer_norm, rms_norm, batch_norm, relu, gelu, embedding, mha, encoder_layer, "
    "sinusoidal, rope, swiglu_mlp, gqa, sampling, beam_search, cross_entropy, tied_lm_head, moe, "
    "fake_quantize, round_to_format, nf4_quantize";

}  // namespace

// --- the spec's shape -------------------------------------------------------------------------

TEST_CASE("a spec must be a JSON object", "[spec]") {
  CHECK(error_from(R"([1, 2])"_json) ==
        R"(spec.json: expected a JSON object with "op" and "input", got array)");
}

TEST_CASE("an unknown top-level key is refused with the spec fields listed", "[spec]") {
  json spec = linear_spec();
  spec["inputs"] = spec["input"];
  CHECK(error_from(spec) ==
        "spec.json: inputs: not a spec field; expected: config, dtype, grad_output, input, "
        "key_padding_mask, memory, op, padding_mask, params, target");
}

TEST_CASE("a spec without op lists the ops", "[spec]") {
  json spec = linear_spec();
  spec.erase("op");
  CHECK(error_from(spec) == std::string("spec.json: op: missing; expected one of ") + kOps);
}

TEST_CASE("an op that is not a string is shown as given", "[spec]") {
  json spec = linear_spec();
  spec["op"] = 5;
  CHECK(error_from(spec) ==
        std::string("spec.json: op: expected one of ") + kOps + ", got number 5");
}

TEST_CASE("a result that overflows is an error, never a silent null", "[spec]") {
  const json spec = R"({"op": "linear", "dtype": "float32",
                        "config": {"in_features": 1, "out_features": 1, "bias": false},
                        "params": {"weight": [[3e38]]}, "input": [[3e38]]})"_json;
  CHECK(error_from(spec) ==
        "spec.json: linear: the result is not finite in float32 (an overflow); use float64 or "
        "smaller values");
}

TEST_CASE("an unknown op is named and the ops listed", "[spec]") {
  json spec = linear_spec();
  spec["op"] = "attention";
  CHECK(error_from(spec) ==
        std::string("spec.json: op: 'attention' is not an engine op; expected one of ") + kOps);
}

TEST_CASE("dtype must be float32 or float64", "[spec]") {
  json spec = linear_spec();
  spec["dtype"] = "float16";
  CHECK(error_from(spec) == R"(spec.json: dtype: expected "float32" or "float64", got "float16")");
}

TEST_CASE("a spec without input is refused", "[spec]") {
  json spec = linear_spec();
  spec.erase("input");
  CHECK(error_from(spec) == "spec.json: input: missing; linear needs an input");
}

// --- config -----------------------------------------------------------------------------------

TEST_CASE("a missing required config key is named with what it must be", "[spec]") {
  json spec = linear_spec();
  spec["config"].erase("in_features");
  CHECK(error_from(spec) ==
        "spec.json: config.in_features: required by linear (a positive integer)");
}

TEST_CASE("a dimension of the wrong type is refused with the value it got", "[spec]") {
  json spec = linear_spec();
  spec["config"]["in_features"] = "3";
  CHECK(error_from(spec) ==
        R"(spec.json: config.in_features: expected a positive integer, got string "3")");
}

TEST_CASE("dimensions must be between 1 and 65536", "[spec]") {
  const auto with_in_features = [](const json& value) {
    json spec = linear_spec();
    spec["config"]["in_features"] = value;
    return spec;
  };
  CHECK(error_from(with_in_features(0)) ==
        "spec.json: config.in_features: expected 1 to 65536, got 0");
  CHECK(error_from(with_in_features(-3)) ==
        "spec.json: config.in_features: expected 1 to 65536, got -3");
  CHECK(error_from(with_in_features(65537)) ==
        "spec.json: config.in_features: expected 1 to 65536, got 65537");
}

TEST_CASE("a dimension past the 64-bit range is reported as written", "[spec]") {
  json spec = linear_spec();
  spec["config"]["in_features"] = R"(18446744073709551615)"_json;
  CHECK(error_from(spec) ==
        "spec.json: config.in_features: expected 1 to 65536, got 18446744073709551615");
}

TEST_CASE("an unknown config key is refused with the op's settings listed", "[spec]") {
  json spec = linear_spec();
  spec["config"]["bias_init"] = true;
  CHECK(error_from(spec) ==
        "spec.json: config.bias_init: not a setting of linear; expected one of: bias, "
        "in_features, out_features, sgd_lr, weight_norm");
}

TEST_CASE("an SGD step answers the parameters it leaves, and needs gradients and parameters",
          "[spec]") {
  json spec = linear_spec();
  spec["config"]["sgd_lr"] = 0.5;
  spec["grad_output"] = R"([[1, -2]])"_json;
  const json result = proofdeck::engine_io::run_engine_spec(spec, "spec.json");
  // dW = doutᵀ·x = [[1, 0, -1], [-2, 0, 2]], db = [1, -2]; W − 0.5·dW and b − 0.5·db.
  CHECK(result.at("after_step").at("weight") == R"([[0.5, 2, 3.5], [5, 5, 5]])"_json);
  CHECK(result.at("after_step").at("bias") == R"([0, 0.5])"_json);

  spec.erase("grad_output");
  CHECK(error_from(spec) ==
        "spec.json: config.sgd_lr: a step needs gradients; give grad_output, or leave sgd_lr out");
  spec["grad_output"] = R"([[1, -2]])"_json;
  spec["config"]["sgd_lr"] = -1;
  CHECK(error_from(spec) == "spec.json: config.sgd_lr: expected a positive number, got -1");
  const json norm = R"({"op": "layer_norm",
                        "config": {"normalized_shape": 2, "elementwise_affine": false,
                                   "sgd_lr": 0.1},
                        "input": [[1, 2]], "grad_output": [[1, 0]]})"_json;
  CHECK(error_from(norm) ==
        "spec.json: config.sgd_lr: without elementwise_affine the norm has "
        "no parameters to step");
}

TEST_CASE("dropout other than 0 is refused: the engine is deterministic", "[spec]") {
  json spec = mha_spec();
  spec["config"]["dropout"] = 0.1;
  CHECK(error_from(spec) ==
        "spec.json: config.dropout: the engine is deterministic and runs without dropout; "
        "expected 0, got 0.1");
}

TEST_CASE("mha refuses an embed_dim not divisible by num_heads", "[spec]") {
  const json spec = R"({"op": "mha", "config": {"embed_dim": 4, "num_heads": 3},
                        "input": [[0, 0, 0, 0]]})"_json;
  CHECK(error_from(spec) ==
        "spec.json: config.embed_dim 4 is not divisible by config.num_heads 3: each head gets an "
        "equal share of the width (embed_dim / num_heads)");
}

TEST_CASE("encoder_layer refuses a d_model not divisible by nhead, in its own key names",
          "[spec]") {
  const json spec = R"({"op": "encoder_layer",
                        "config": {"d_model": 4, "nhead": 3, "dim_feedforward": 8},
                        "input": [[0, 0, 0, 0]]})"_json;
  CHECK(error_from(spec) ==
        "spec.json: config.d_model 4 is not divisible by config.nhead 3: each head gets an equal "
        "share of the width (d_model / nhead)");
}

TEST_CASE("layer_norm refuses a normalized_shape of more than one dimension", "[spec]") {
  const json spec = R"({"op": "layer_norm", "config": {"normalized_shape": [2, 2]},
                        "input": [[1, 2]]})"_json;
  CHECK(error_from(spec) ==
        "spec.json: config.normalized_shape: the engine normalises the last dimension only; "
        "expected one size, got [2,2]");
}

TEST_CASE("gqa refuses query heads that the key/value heads do not divide", "[spec][gqa]") {
  json spec = gqa_spec();
  spec["config"]["num_key_value_heads"] = 3;
  CHECK(error_from(spec) ==
        "spec.json: config.num_attention_heads 2 is not divisible by config.num_key_value_heads "
        "3: every key/value head serves the same number of query heads");
}

TEST_CASE("gqa refuses an odd head_dim with rope on, and takes it with rope off", "[spec][gqa]") {
  json spec = R"({"op": "gqa",
                  "config": {"hidden_size": 3, "num_attention_heads": 1},
                  "input": [[0, 0, 0]]})"_json;
  CHECK(error_from(spec) ==
        "spec.json: config.head_dim 3: RoPE rotates pairs of dimensions, so with rope on head_dim "
        "must be even");
  spec["config"]["rope"] = false;
  spec["params"] = {{"q_proj.weight", zeros(3, 3)},
                    {"k_proj.weight", zeros(3, 3)},
                    {"v_proj.weight", zeros(3, 3)},
                    {"o_proj.weight", zeros(3, 3)}};
  CHECK(error_from(spec) == kNoError);
}

TEST_CASE("gqa refuses a hidden_size the heads do not divide unless head_dim is given",
          "[spec][gqa]") {
  json spec = gqa_spec();
  spec["config"]["num_attention_heads"] = 3;
  spec["config"]["num_key_value_heads"] = 1;
  CHECK(error_from(spec) ==
        "spec.json: config.hidden_size 4 is not divisible by config.num_attention_heads 3: give "
        "config.head_dim or sizes that divide");
}

TEST_CASE("gqa's rope_scaling must be linear with a positive factor", "[spec][gqa]") {
  const auto with_scaling = [](const json& value) {
    json spec = gqa_spec();
    spec["config"]["rope_scaling"] = value;
    return spec;
  };
  CHECK(error_from(with_scaling(R"({"rope_type": "linear", "factor": 0})"_json)) ==
        "spec.json: config.rope_scaling.factor: expected a number > 0, got 0");
  CHECK(error_from(with_scaling(R"({"rope_type": "linear", "factor": -2})"_json)) ==
        "spec.json: config.rope_scaling.factor: expected a number > 0, got -2");
  CHECK(error_from(with_scaling(R"({"rope_type": "linear"})"_json)) ==
        "spec.json: config.rope_scaling.factor: expected a number > 0, got nothing");
  CHECK(error_from(with_scaling(R"({"rope_type": "yarn", "factor": 2})"_json)) ==
        "spec.json: config.rope_scaling.rope_type: the engine implements linear position "
        "interpolation only; expected \"linear\", got \"yarn\"");
  CHECK(error_from(with_scaling(2)) ==
        "spec.json: config.rope_scaling: expected null or {\"rope_type\": \"linear\", "
        "\"factor\": a number > 0}, got number 2");
  CHECK(error_from(with_scaling(R"({"rope_type": "linear", "factor": 2, "low": 1})"_json)) ==
        "spec.json: config.rope_scaling.low: not a setting of linear rope_scaling; expected "
        "rope_type, factor");
  CHECK(error_from(with_scaling(R"({"rope_type": "linear", "factor": 2})"_json)) == kNoError);
  CHECK(error_from(with_scaling(nullptr)) == kNoError);
}

TEST_CASE("gqa refuses projection weights of the wrong shape, naming the weight", "[spec][gqa]") {
  json spec = gqa_spec();
  spec["params"]["k_proj.weight"] = zeros(4, 4);  // multi-head's shape, but G = 1
  CHECK(error_from(spec) ==
        "spec.json: params.k_proj.weight: expected a (2, 4) matrix (a list of 2 rows of 4 "
        "numbers), got 4 rows");
  spec = gqa_spec();
  spec["params"].erase("o_proj.weight");
  CHECK(error_from(spec) ==
        "spec.json: params.o_proj.weight: missing; gqa expects a (4, 4) matrix");
  spec = gqa_spec();
  spec["params"]["q_proj.bias"] = json::array({0, 0, 0, 0});
  CHECK_THAT(error_from(spec),
             StartsWith("spec.json: params.q_proj.bias: not a parameter of gqa with this config"));
}

TEST_CASE("gqa refuses biases and dropout, which Llama's attention does not have", "[spec][gqa]") {
  json spec = gqa_spec();
  spec["config"]["attention_bias"] = true;
  CHECK(error_from(spec) ==
        "spec.json: config.attention_bias: the engine's gqa has no biases, as Llama's; expected "
        "false");
  spec = gqa_spec();
  spec["config"]["attention_dropout"] = 0.1;
  CHECK(error_from(spec) ==
        "spec.json: config.attention_dropout: the engine is deterministic and runs without "
        "dropout; expected 0");
}

TEST_CASE("swiglu_mlp refuses weights of the wrong shape and biases", "[spec][swiglu]") {
  json spec = swiglu_spec();
  spec["params"]["down_proj.weight"] = zeros(3, 2);
  CHECK(error_from(spec) ==
        "spec.json: params.down_proj.weight: expected a (2, 3) matrix (a list of 2 rows of 3 "
        "numbers), got 3 rows");
  spec = swiglu_spec();
  spec["config"]["mlp_bias"] = true;
  CHECK(error_from(spec) ==
        "spec.json: config.mlp_bias: Llama's MLP has no biases; expected false");
  spec = swiglu_spec();
  spec["config"].erase("intermediate_size");
  CHECK(error_from(spec) ==
        "spec.json: config.intermediate_size: required by swiglu_mlp (a positive integer)");
}

// --- params -----------------------------------------------------------------------------------

TEST_CASE("a missing parameter is named with the shape it must have", "[spec]") {
  json spec = linear_spec();
  spec["params"].erase("weight");
  CHECK(error_from(spec) == "spec.json: params.weight: missing; linear expects a (2, 3) matrix");
}

TEST_CASE("a parameter with the wrong number of rows is refused with the shape expected",
          "[spec]") {
  json spec = linear_spec();
  spec["params"]["weight"] = R"([[1, 2, 3], [4, 5, 6], [7, 8, 9]])"_json;
  CHECK(error_from(spec) ==
        "spec.json: params.weight: expected a (2, 3) matrix (a list of 2 rows of 3 numbers), got "
        "3 rows");
}

TEST_CASE("a ragged parameter row is refused at that row", "[spec]") {
  json spec = linear_spec();
  spec["params"]["weight"] = R"([[1, 2, 3], [4, 5]])"_json;
  CHECK(error_from(spec) ==
        "spec.json: params.weight[1]: expected a row of 3 numbers, got 2 (the matrix must be "
        "(2, 3))");
}

TEST_CASE("a non-numeric entry is named by its path", "[spec]") {
  json spec = linear_spec();
  spec["params"]["weight"] = R"([[1, 2, 3], [4, 5, "6"]])"_json;
  CHECK(error_from(spec) == R"(spec.json: params.weight[1][2]: expected a number, got string "6")");
}

TEST_CASE("an unknown parameter is refused with the op's parameters listed", "[spec]") {
  json spec = linear_spec();
  spec["params"]["weights"] = spec["params"]["weight"];
  CHECK(error_from(spec) ==
        "spec.json: params.weights: not a parameter of linear with this config; expected: "
        "weight, bias");
}

TEST_CASE("a bias=false spec refuses a bias parameter", "[spec]") {
  json spec = linear_spec();
  spec["config"]["bias"] = false;
  CHECK(error_from(spec) ==
        "spec.json: params.bias: not a parameter of linear with this config; expected: weight");
}

// --- input and grad_output --------------------------------------------------------------------

TEST_CASE("an input of the wrong width is refused with the shape expected", "[spec]") {
  json spec = linear_spec();
  spec["input"] = R"([[1, 0]])"_json;
  CHECK(error_from(spec) ==
        "spec.json: input[0]: expected a row of 3 numbers, got 2 (the matrix must be (1, 3))");
}

TEST_CASE("a grad_output that does not match the output's shape is refused", "[spec]") {
  json spec = linear_spec();
  spec["grad_output"] = R"([[1, 1, 1]])"_json;
  CHECK(error_from(spec) ==
        "spec.json: grad_output[0]: expected a row of 2 numbers, got 3 (the matrix must be "
        "(1, 2))");
}

TEST_CASE("a float32 spec refuses a value beyond float range", "[spec]") {
  json spec = linear_spec();
  spec["dtype"] = "float32";
  spec["input"] = R"([[1e39, 0, 0]])"_json;
  CHECK(error_from(spec) == "spec.json: input[0][0]: 1e+39 is out of range for float32");
}

// --- positions --------------------------------------------------------------------------------

TEST_CASE("learned positions cannot go past the table", "[spec]") {
  json spec = embedding_spec();
  spec["input"] = R"([0, 2])"_json;
  spec["grad_output"] = R"([[1, 1], [1, 1]])"_json;
  CHECK(error_from(spec) ==
        "spec.json: embedding: position 2 is past the learned position table (max_len 2: rows "
        "0..1); a learned table has no row for positions it was not trained on");
}

TEST_CASE("negative positions are refused", "[spec]") {
  json spec = embedding_spec();
  spec["input"] = R"([0, -1])"_json;
  CHECK(error_from(spec) == "spec.json: input[1]: positions start at 0, got -1");
}

TEST_CASE("non-integer positions are refused", "[spec]") {
  json spec = embedding_spec();
  spec["input"] = R"([0, 1.5])"_json;
  CHECK(error_from(spec) == "spec.json: input[1]: expected an integer position, got number 1.5");
}

TEST_CASE("sinusoidal encodings refuse a grad_output: there is nothing to differentiate",
          "[spec]") {
  const json spec = R"({"op": "sinusoidal", "config": {"d_model": 2}, "input": [0, 1],
                        "grad_output": [[1, 1], [1, 1]]})"_json;
  CHECK(error_from(spec) ==
        "spec.json: grad_output: sinusoidal encodings have no parameters and integer inputs, so "
        "there is no gradient to compute; leave grad_output out");
}

TEST_CASE("rope needs an even width", "[spec]") {
  const json spec = R"({"op": "rope", "input": [[1, 2, 3]]})"_json;
  CHECK(error_from(spec) ==
        "spec.json: input: RoPE rotates pairs of dimensions, so rows need an even width; got "
        "shape (1, 3)");
}

TEST_CASE("rope config.positions needs one position per input row", "[spec]") {
  const json spec = R"({"op": "rope", "config": {"positions": [0, 1, 2]},
                        "input": [[1, 2], [3, 4]]})"_json;
  CHECK(error_from(spec) ==
        "spec.json: config.positions: expected one position per input row (2), got 3");
}

// --- size limits ------------------------------------------------------------------------------

TEST_CASE("attention whose H·T² is past 2^26 is refused before it runs", "[spec]") {
  json spec = mha_spec();
  spec["input"] = zeros(5793, 2);  // 2 · 5793² = 67,117,698 > 2^26 = 67,108,864
  CHECK(error_from(spec) ==
        "spec.json: attention over 5793 tokens with 2 heads would need 67117698 numbers; the "
        "limit is 67108864");
}

TEST_CASE("a sinusoidal table past 2^26 numbers is refused before it is built", "[spec]") {
  json spec = R"({"op": "sinusoidal", "config": {"d_model": 65536}})"_json;
  spec["input"] = json::array();
  for (int position = 0; position < 1025; ++position) {
    spec["input"].push_back(position);
  }
  CHECK(error_from(spec) ==
        "spec.json: the encoding table would need 67174400 numbers; the limit is 67108864");
}

TEST_CASE("batch_norm in training mode needs more than one row, as PyTorch says", "[spec]") {
  const json spec = R"({"op": "batch_norm", "config": {"num_features": 2},
                        "params": {"weight": [1, 1], "bias": [0, 0]},
                        "input": [[1, 2]]})"_json;
  CHECK(error_from(spec) ==
        "spec.json: batch_norm: Expected more than 1 value per channel when training, got input "
        "of shape (1, 2)");
}

// --- results ----------------------------------------------------------------------------------

TEST_CASE("linear answers with output and gradients for the input and every parameter", "[spec]") {
  json spec = linear_spec();
  spec["grad_output"] = R"([[1, 2]])"_json;
  CHECK(run(spec) == R"({"output": [[-1.5, -2.5]],
                         "grads": {"input": [[9, 12, 15]],
                                   "weight": [[1, 0, -1], [2, 0, -2]],
                                   "bias": [1, 2]},
                         "multiply_adds": {"linear": 6, "scores": 0, "weighted_values": 0, "total": 6}})"_json);
}

TEST_CASE("without grad_output the result has no grads", "[spec]") {
  CHECK(run(linear_spec()) == R"({"output": [[-1.5, -2.5]],
                                  "multiply_adds": {"linear": 6, "scores": 0, "weighted_values": 0, "total": 6}})"_json);
}

TEST_CASE("a bias=false linear takes no bias and returns no bias gradient", "[spec]") {
  json spec = linear_spec();
  spec["config"]["bias"] = false;
  spec["params"].erase("bias");
  spec["grad_output"] = R"([[1, 2]])"_json;
  CHECK(run(spec) == R"({"output": [[-2, -2]],
                         "grads": {"input": [[9, 12, 15]],
                                   "weight": [[1, 0, -1], [2, 0, -2]]},
                         "multiply_adds": {"linear": 6, "scores": 0, "weighted_values": 0, "total": 6}})"_json);
}

TEST_CASE("mha returns attention weights per head, H×T×T, each row summing to one", "[spec]") {
  const json result = run(mha_spec());
  const json& weights = result.at("attn_weights");
  REQUIRE(weights.size() == 2);
  for (const auto& head : weights) {
    REQUIRE(head.size() == 3);
    for (const auto& row : head) {
      REQUIRE(row.size() == 3);
      CHECK(row[0].get<double>() + row[1].get<double>() + row[2].get<double>() ==
            Approx(1.0).epsilon(1e-12));
    }
  }
}

TEST_CASE("mha answers the multiply-adds its forward ran: projections, scores and weighted sums",
          "[spec]") {
  // E = 2, 2 heads of width 1, T = 3: in-projection 3·2·6, out-projection 3·2·2, and per head
  // 3·1·3 scores and 3·3·1 weighted values
  CHECK(run(mha_spec()).at("multiply_adds") ==
        R"({"linear": 48, "scores": 18, "weighted_values": 18, "total": 84})"_json);
}

TEST_CASE(
    "mha with a memory is cross-attention: T query rows over S memory positions, "
    "gradients for both",
    "[spec]") {
  json spec = mha_spec();
  spec["input"] = R"([[1, 0]])"_json;  // one query
  spec["memory"] = R"([[1, 0], [0, 1], [1, 1], [2, 0]])"_json;
  spec["grad_output"] = R"([[1, -1]])"_json;
  const json result = run(spec);
  CHECK(result.at("output").size() == 1);
  const json& weights = result.at("attn_weights");
  REQUIRE(weights.size() == 2);
  CHECK(weights[0].size() == 1);
  CHECK(weights[0][0].size() == 4);
  CHECK(result.at("grads").at("input").size() == 1);
  CHECK(result.at("grads").at("memory").size() == 4);
  // W_q on 1 query (1·2·2), W_k|W_v on 4 memory rows (4·2·4), W_o (1·2·2); per head 1·1·4 twice
  CHECK(result.at("multiply_adds") ==
        R"({"linear": 40, "scores": 8, "weighted_values": 8, "total": 56})"_json);
}

TEST_CASE("a memory is refused outside mha, with a causal mask, and at the wrong width", "[spec]") {
  json linear = linear_spec();
  linear["memory"] = R"([[1, 2, 3]])"_json;
  CHECK(error_from(linear) ==
        "spec.json: memory: only mha takes a memory (cross-attention's keys and values); linear "
        "does not");
  json causal = mha_spec();
  causal["config"]["causal"] = true;
  causal["memory"] = R"([[1, 0]])"_json;
  CHECK(error_from(causal) ==
        "spec.json: config.causal and config.sinusoidal_qk: cross-attention reads the whole "
        "memory with no mask or code on q and k; leave them out when a memory is given");
  json narrow = mha_spec();
  narrow["memory"] = R"([[1, 0, 0]])"_json;
  CHECK_THAT(error_from(narrow), Catch::Contains("memory") && Catch::Contains("3"));
  json empty = mha_spec();
  empty["memory"] = json::array();
  CHECK(error_from(empty) != kNoError);
}

TEST_CASE("mha's key_padding_mask gives the padding keys weight 0", "[spec][padding]") {
  json spec = mha_spec();
  spec["key_padding_mask"] = R"([false, true, false])"_json;
  const json result = run(spec);
  for (const json& head : result.at("attn_weights")) {
    for (const json& row : head)
      CHECK(row[1].get<double>() == 0.0);
  }
}

TEST_CASE("a padding mask is refused where it does not fit, naming the field and what it expects",
          "[spec][padding]") {
  json wrong_size = mha_spec();
  wrong_size["key_padding_mask"] = R"([false, true])"_json;
  CHECK(error_from(wrong_size) ==
        "spec.json: key_padding_mask: expected a list of 3 true/false values, one per input row "
        "(true: padding), got a list of 2");
  json not_bool = mha_spec();
  not_bool["key_padding_mask"] = R"([false, 1, false])"_json;
  CHECK(error_from(not_bool) ==
        "spec.json: key_padding_mask[1]: expected true (padding) or false (a token), got 1");
  json every_key = mha_spec();
  every_key["key_padding_mask"] = R"([true, true, true])"_json;
  CHECK_THAT(error_from(every_key),
             Catch::Contains("queries 0, 1, 2 have no key to attend to: every key is padding") &&
                 Catch::Contains("PyTorch returns NaN"));
  json on_linear = linear_spec();
  on_linear["key_padding_mask"] = R"([false])"_json;
  CHECK(error_from(on_linear) ==
        "spec.json: key_padding_mask: only mha takes one (which keys are padding); linear does "
        "not");
  json rows_on_mha = mha_spec();
  rows_on_mha["padding_mask"] = R"([false, false, true])"_json;
  CHECK(error_from(rows_on_mha) ==
        "spec.json: padding_mask: only layer_norm and batch_norm take one (which rows are "
        "padding); mha does not — give its padding keys as key_padding_mask");
}

TEST_CASE("mha gradients cover the input and every parameter", "[spec]") {
  json spec = mha_spec();
  spec["grad_output"] = R"([[1, 0], [0, 1], [1, -1]])"_json;
  const json result = run(spec);
  CHECK(result.at("output").size() == 3);
  CHECK(result.at("grads").size() == 5);
  for (const char* name :
       {"input", "in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"}) {
    CAPTURE(name);
    CHECK(result.at("grads").contains(name));
  }
}

TEST_CASE("a bias=false mha takes only the projection weights", "[spec]") {
  json spec = mha_spec();
  spec["config"]["bias"] = false;
  spec["params"].erase("in_proj_bias");
  spec["params"].erase("out_proj.bias");
  spec["grad_output"] = R"([[1, 0], [0, 1], [1, -1]])"_json;
  const json grads = run(spec).at("grads");
  CHECK(grads.size() == 3);
  CHECK(grads.contains("input"));
  CHECK(grads.contains("in_proj_weight"));
  CHECK(grads.contains("out_proj.weight"));
}

TEST_CASE("mha accepts dropout 0", "[spec]") {
  json spec = mha_spec();
  spec["config"]["dropout"] = 0.0;
  CHECK(run(spec).at("output").size() == 3);
}

TEST_CASE("swiglu_mlp answers down_proj(silu(gate) ⊙ up) with every gradient", "[spec][swiglu]") {
  json spec = swiglu_spec();
  spec["grad_output"] = R"([[1, 0], [0, 1]])"_json;
  const json result = run(spec);
  // x = (1, 0): gate (1, 0, 1), up (1, 0, 1); silu(1) = σ(1); hidden (σ(1), 0, σ(1))
  const double s1 = 1.0 / (1.0 + std::exp(-1.0));
  CHECK(result.at("output")[0][0].get<double>() == Approx(2 * s1).epsilon(1e-14));
  CHECK(result.at("output")[0][1].get<double>() == Approx(-s1).epsilon(1e-14));
  const json& grads = result.at("grads");
  CHECK(grads.size() == 4);
  for (const char* name : {"input", "gate_proj.weight", "up_proj.weight", "down_proj.weight"}) {
    CAPTURE(name);
    CHECK(grads.contains(name));
  }
}

TEST_CASE("gqa answers with attention weights per query head and every gradient", "[spec][gqa]") {
  json spec = gqa_spec();
  spec["grad_output"] = R"([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]])"_json;
  const json result = run(spec);
  const json& weights = result.at("attn_weights");
  REQUIRE(weights.size() == 2);  // H query heads, though only G = 1 key/value head
  for (const auto& head : weights) {
    CHECK(head[0][0] == 1.0);  // causal by default: the first token sees itself only
    CHECK(head[0][1] == 0.0);
  }
  const json& grads = result.at("grads");
  CHECK(grads.size() == 5);
  CHECK(grads.at("k_proj.weight").size() == 2);
  CHECK(grads.at("q_proj.weight").size() == 4);
}

TEST_CASE("gqa's config defaults are Llama's: causal, RoPE, G = H", "[spec][gqa]") {
  json spec = gqa_spec();
  spec["config"].erase("num_key_value_heads");
  spec["params"]["k_proj.weight"] = zeros(4, 4);
  spec["params"]["v_proj.weight"] = zeros(4, 4);
  CHECK(error_from(spec) == kNoError);
  json explicit_spec = gqa_spec();
  explicit_spec["config"].update(R"({"causal": true, "rope": true, "rope_theta": 10000.0,
                                     "alibi": false, "rope_scaling": null})"_json);
  CHECK(run(explicit_spec) == run(gqa_spec()));
}

TEST_CASE("batch_norm reports its running statistics as state", "[spec]") {
  // PyTorch's update: running = 0.9 · running + 0.1 · batch (unbiased variance for running_var).
  const json spec = R"({"op": "batch_norm", "config": {"num_features": 2},
                        "params": {"weight": [1, 1], "bias": [0, 0]},
                        "input": [[1, 2], [3, 4]]})"_json;
  const json state = run(spec).at("state");
  CHECK(state.at("running_mean")[0].get<double>() == Approx(0.2));
  CHECK(state.at("running_mean")[1].get<double>() == Approx(0.3));
  CHECK(state.at("running_var")[0].get<double>() == Approx(1.1));
  CHECK(state.at("running_var")[1].get<double>() == Approx(1.1));
}

TEST_CASE("layer_norm takes normalized_shape as a one-element list, as PyTorch does", "[spec]") {
  json spec = R"({"op": "layer_norm", "config": {"normalized_shape": [4]},
                  "params": {"weight": [1, 2, 1, 1], "bias": [0, 0, 1, 0]},
                  "input": [[1, 2, 3, 6]], "grad_output": [[1, 0, 0, 1]]})"_json;
  const json from_list = run(spec);
  spec["config"]["normalized_shape"] = 4;
  CHECK(from_list == run(spec));
}

// --- parse_json -------------------------------------------------------------------------------

TEST_CASE("a syntax error names file, line and column, and shows the line with a caret",
          "[spec][json]") {
  const std::string text =
      "{\n"
      "  \"op\": \"linear\",\n"
      "  \"input\": [1,,2]\n"
      "}\n";
  CHECK(parse_error(text, "spec.json") ==
        "spec.json:3:15: syntax error while parsing value - unexpected ','; expected '[', '{', or "
        "a literal\n"
        "      \"input\": [1,,2]\n"
        "                  ^");
}

TEST_CASE("a number too large for a double is a located input error", "[spec][json]") {
  CHECK(parse_error("{\n  \"input\": [[1, -1e400]]\n}\n", "spec.json") ==
        "spec.json:2:17: number overflow parsing '-1e400'\n"
        "      \"input\": [[1, -1e400]]\n"
        "                    ^");
}

TEST_CASE("a syntax error on standard input is named <stdin>", "[spec][json]") {
  CHECK_THAT(parse_error("[1,", "-"), StartsWith("<stdin>:1:4: "));
}

TEST_CASE("a syntax error far along a long line shows the text around the column", "[spec][json]") {
  // Minified JSON is one long line: the excerpt must reach the column, not stop at its start.
  const std::string text = "{\"input\": " + zeros(200, 2).dump() + ", \"zzz\": tru}";
  const std::vector<std::string> lines = split_lines(parse_error(text, "spec.json"));
  REQUIRE(lines.size() == 3);
  CHECK_THAT(lines[0], StartsWith("spec.json:1:1224: "));
  CHECK_THAT(lines[1], Contains("\"zzz\": tru}"));
  CHECK(character_above_caret(lines[1], lines[2]) == '}');
}

TEST_CASE("nesting deeper than the limit is refused", "[spec][json]") {
  CHECK_NOTHROW(proofdeck::parse_json(nested_arrays(64, "1"), "deep.json"));
  CHECK(parse_error(nested_arrays(65, "1"), "deep.json") ==
        "deep.json: nesting deeper than 64 levels");
}

TEST_CASE("empty containers count toward the nesting limit", "[spec][json]") {
  CHECK_NOTHROW(proofdeck::parse_json(nested_arrays(64, ""), "deep.json"));
  CHECK(parse_error(nested_arrays(65, ""), "deep.json") ==
        "deep.json: nesting deeper than 64 levels");
}

TEST_CASE("sampling and beam_search refuse what generate() would not take, naming the field",
          "[spec]") {
  const json logits = R"([[2.0, 1.5, 1.0]])"_json;
  CHECK(error_from({{"op", "sampling"}, {"config", {{"top_p", 0}}}, {"input", logits}}) ==
        "spec.json: config.top_p: expected a number in (0, 1]; 0 would keep no token (1 keeps "
        "all)");
  CHECK(error_from({{"op", "sampling"}, {"config", {{"top_k", -2}}}, {"input", logits}}) ==
        "spec.json: config.top_k: expected an integer from 0 to " + std::to_string(1 << 16) +
            ", got -2");
  CHECK(error_from({{"op", "sampling"}, {"input", logits}, {"grad_output", logits}}) ==
        "spec.json: grad_output: sampling has no parameters and cuts tokens out, so there is no "
        "gradient to compute; leave grad_output out");
  const json table = R"([[0.0, 1.0], [1.0, 0.0]])"_json;
  CHECK_THAT(
      error_from(
          {{"op", "beam_search"}, {"config", {{"steps", 1}, {"start", 5}}}, {"input", table}}),
      Contains("start token 5 is not in the vocabulary of 2"));
  CHECK_THAT(error_from({{"op", "beam_search"}, {"input", table}}),
             Contains("config.steps: required by beam_search"));
  CHECK(error_from({{"op", "beam_search"},
                    {"config", {{"steps", 2}, {"num_beams", 4}}},
                    {"input", table}}) == kNoError);
}

}  // namespace test_engine_spec
