// Reads an engine spec's fields, runs its op by the table below (each op family's runner in a file
// of its own, ops.hpp) and checks the answer. All checks happen in engine_io, before the engine
// sees a tensor, so bad input is an InputError naming the field and never an Eigen assertion.
#include "engine_io/spec.hpp"

#include <cmath>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/json_input.hpp"
#include "engine/tensor.hpp"
#include "engine_io/op_run.hpp"
#include "engine_io/ops.hpp"

namespace proofdeck::engine_io {

using nlohmann::json;
using nlohmann::ordered_json;

namespace detail {
namespace {

template <typename T>
using OpFunction = std::function<void(OpRun<T>&)>;

template <typename T>
const std::map<std::string_view, OpFunction<T>>& op_table() {
  static const std::map<std::string_view, OpFunction<T>> table = {
      {"linear", run_linear<T>},
      {"layer_norm", [](OpRun<T>& run) { run_row_norm(run, false); }},
      {"rms_norm", [](OpRun<T>& run) { run_row_norm(run, true); }},
      {"batch_norm", run_batch_norm<T>},
      {"relu", [](OpRun<T>& run) { run_activation(run, false); }},
      {"gelu", [](OpRun<T>& run) { run_activation(run, true); }},
      {"embedding", run_embedding<T>},
      {"mha", run_mha<T>},
      {"encoder_layer", run_encoder_layer<T>},
      {"sinusoidal", run_sinusoidal<T>},
      {"rope", run_rope<T>},
      {"swiglu_mlp", run_swiglu_mlp<T>},
      {"gqa", run_gqa<T>},
      {"sampling", run_sampling<T>},
      {"beam_search", run_beam_search<T>},
      {"cross_entropy", run_cross_entropy<T>},
      {"tied_lm_head", run_tied_lm_head<T>},
      {"moe", run_moe<T>},
      {"fake_quantize", run_fake_quantize<T>},
      {"round_to_format", run_round_to_format<T>},
      {"nf4_quantize", run_nf4_quantize<T>},
  };
  return table;
}

bool all_finite(const ordered_json& value) {
  if (value.is_number_float()) return std::isfinite(value.get<double>());
  if (value.is_structured()) {
    for (const auto& item : value) {
      if (!all_finite(item)) return false;
    }
  }
  return true;
}

template <typename T>
ordered_json run_typed(const json& spec, const std::string& source, const std::string& op) {
  static const json empty_object = json::object();
  const auto section = [&](const char* key) -> const json& {
    const auto it = spec.find(key);
    if (it == spec.end()) return empty_object;
    if (!it->is_object()) {
      spec_error(
          source, "type",
          fmt::format("{}: expected an object, got {} {}", key, json_kind(*it), json_preview(*it)));
    }
    return *it;
  };
  const auto input = spec.find("input");
  if (input == spec.end()) {
    spec_error(source, "input", fmt::format("input: missing; {} needs an input", op));
  }
  const auto grad_output = spec.find("grad_output");
  const auto memory = spec.find("memory");
  const auto key_padding_mask = spec.find("key_padding_mask");
  const auto padding_mask = spec.find("padding_mask");
  const auto target = spec.find("target");
  ordered_json result;
  OpRun<T> run{source,
               op,
               ConfigReader(section("config"), source, op),
               ParamReader<T>(section("params"), source, op),
               &*input,
               grad_output == spec.end() || grad_output->is_null() ? nullptr : &*grad_output,
               memory == spec.end() ? nullptr : &*memory,
               key_padding_mask == spec.end() ? nullptr : &*key_padding_mask,
               padding_mask == spec.end() ? nullptr : &*padding_mask,
               target == spec.end() ? nullptr : &*target,
               result};
  if (run.key_padding_mask != nullptr && op != "mha") {
    spec_error(source, "key_padding_mask",
               fmt::format("key_padding_mask: only mha takes one (which keys are padding); {} "
                           "does not{}",
                           op,
                           op == "layer_norm" || op == "batch_norm"
                               ? " — give its padding rows as padding_mask"
                               : ""));
  }
  if (run.padding_mask != nullptr && op != "layer_norm" && op != "batch_norm" && op != "rms_norm") {
    spec_error(source, "padding_mask",
               fmt::format("padding_mask: only layer_norm and batch_norm take one (which rows "
                           "are padding); {} does not{}",
                           op, op == "mha" ? " — give its padding keys as key_padding_mask" : ""));
  }
  if (run.target != nullptr && op != "cross_entropy") {
    spec_error(source, "target",
               fmt::format("target: only cross_entropy takes targets (a class index a row); {} "
                           "does not",
                           op));
  }
  if (run.memory != nullptr && op != "mha") {
    spec_error(source, "memory",
               fmt::format("memory: only mha takes a memory (cross-attention's keys and values); "
                           "{} does not",
                           op));
  }
  try {
    op_table<T>().at(op)(run);
  } catch (const engine::EngineError& e) {
    // The engine's own checks (e.g. a position past a learned table) are input errors too.
    spec_error(source, "engine", fmt::format("{}: {}", op, e.what()));
  }
  // JSON has no inf or NaN (they would print as null): an overflow is reported, not hidden.
  if (!all_finite(result)) {
    spec_error(source, "overflow",
               fmt::format("{}: the result is not finite in {} (an overflow); use float64 or "
                           "smaller values",
                           op, sizeof(T) == 4 ? "float32" : "float64"));
  }
  return result;
}

}  // namespace
}  // namespace detail

const std::vector<std::string_view>& engine_op_names() {
  static const std::vector<std::string_view> names = {
      "linear",        "layer_norm",   "rms_norm", "batch_norm",    "relu",
      "gelu",          "embedding",    "mha",      "encoder_layer", "sinusoidal",
      "rope",          "swiglu_mlp",   "gqa",      "sampling",      "beam_search",
      "cross_entropy", "tied_lm_head", "moe",      "fake_quantize", "round_to_format",
      "nf4_quantize"};
  return names;
}

ordered_json run_engine_spec(const json& spec, const std::string& source) {
  if (!spec.is_object()) {
    detail::spec_error(
        source, "type",
        fmt::format("expected a JSON object with \"op\" and \"input\", got {}", json_kind(spec)));
  }
  static const std::set<std::string> known = {
      "op",          "dtype",  "config",           "params",       "input",
      "grad_output", "memory", "key_padding_mask", "padding_mask", "target"};
  for (const auto& [key, value] : spec.items()) {
    if (!known.contains(key)) {
      detail::spec_error(
          source, "key",
          fmt::format("{}: not a spec field; expected: {}", key, fmt::join(known, ", ")));
    }
  }
  const auto op_it = spec.find("op");
  if (op_it == spec.end()) {
    detail::spec_error(
        source, "op",
        fmt::format("op: missing; expected one of {}", fmt::join(engine_op_names(), ", ")));
  }
  if (!op_it->is_string()) {
    detail::spec_error(
        source, "op",
        fmt::format("op: expected one of {}, got {} {}", fmt::join(engine_op_names(), ", "),
                    json_kind(*op_it), json_preview(*op_it)));
  }
  const auto op = op_it->get<std::string>();
  if (!detail::op_table<double>().contains(op)) {
    detail::spec_error(source, "op",
                       fmt::format("op: '{}' is not an engine op; expected one of {}", op,
                                   fmt::join(engine_op_names(), ", ")));
  }
  std::string dtype = "float64";
  if (const auto it = spec.find("dtype"); it != spec.end()) {
    if (!it->is_string() || (*it != "float32" && *it != "float64")) {
      detail::spec_error(
          source, "dtype",
          fmt::format("dtype: expected \"float32\" or \"float64\", got {}", json_preview(*it)));
    }
    dtype = it->get<std::string>();
  }
  return dtype == "float32" ? detail::run_typed<float>(spec, source, op)
                            : detail::run_typed<double>(spec, source, op);
}

}  // namespace proofdeck::engine_io
