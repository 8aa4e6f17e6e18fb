// libFuzzer target: `proofdeck engine run SPEC.json` on an untrusted spec — parse_json, then
// run_engine_spec and the result's dump, as cli/engine_cmd.cpp does.
//
// run_engine_spec accepts sizes up to 65,536 per dimension and 2^26 numbers per tensor, which a
// few bytes can ask for (a linear layer with out_features = 65536, a sinusoidal table of that
// width). Such specs are correct to run but take seconds, so the target skips specs over the
// bounds of small_enough; specs that ask for more than the engine's limits still run, since
// refusing them is cheap and worth testing.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "asan_options.hpp"
#include "core/errors.hpp"
#include "core/json_input.hpp"
#include "engine_io/spec.hpp"

namespace {

using namespace proofdeck;
using nlohmann::json;

// Measured in this build: (256, 256) attention weights with their gradients take 0.3 s,
// (1024, 1024) take 18 s.
constexpr double kMaxOutput = double{1 << 16};
constexpr double kMaxWork = double{1 << 22};
constexpr std::int64_t kEngineMaxDimension = 1 << 16;  // engine_io/op_run.hpp's limit

// The largest size the spec names: a config integer within the engine's limit, or the length of
// a list in it other than the input's (and grad_output's) rows: row widths, parameters, position
// lists. Parameters cover sizes left to their defaults (dim_feedforward = 2048), since they must
// then have that size.
void largest_size(const json& value, bool in_config, bool rows, double& largest) {
  if (in_config && value.is_number_integer()) {
    const double number = value.get<double>();
    if (number <= kEngineMaxDimension) largest = std::max(largest, number);
  } else if (value.is_array() && !rows) {
    largest = std::max(largest, static_cast<double>(value.size()));
  }
  if (value.is_structured()) {
    for (const auto& item : value)
      largest_size(item, in_config, false, largest);
  }
}

// Every op's output is at most about rows · max(rows, size) numbers and its work that times size,
// with rows the input's length and size the largest dimension: attention weights are (T, T) per
// head, a linear layer or feed-forward block takes T · in · out, a positional table T · d_model.
bool small_enough(const json& spec) {
  if (!spec.is_object()) return true;
  double rows = 1, size = 1;
  for (const char* key : {"input", "grad_output"}) {
    if (const auto it = spec.find(key); it != spec.end() && it->is_array()) {
      rows = std::max(rows, static_cast<double>(it->size()));
    }
  }
  for (const auto& [key, value] : spec.items()) {
    largest_size(value, key == "config", key == "input" || key == "grad_output", size);
  }
  const double output = rows * std::max(rows, size);
  return output <= kMaxOutput && output * size <= kMaxWork;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const json spec = parse_json(text, "fuzz.json");
    if (!small_enough(spec)) return 0;
    const nlohmann::ordered_json result = engine_io::run_engine_spec(spec, "fuzz.json");
    const std::string printed = result.dump() + "\n";
  } catch (const Error&) {
    // InputError: a spec that does not parse, names an unknown op or setting, is misshaped, ...
  }
  return 0;
}
