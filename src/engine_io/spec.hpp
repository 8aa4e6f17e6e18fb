// `proofdeck engine run`: one engine op on explicit weights, read from a JSON spec
//   {"op", "dtype", "config", "params", "input", "grad_output"}
// and answered as {"output", "grads": {"input", <param name>: …}} (docs/ARCHITECTURE.md §
// Contracts). Parameter names and layouts are PyTorch's, so a state_dict exported from PyTorch runs
// unchanged.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace proofdeck::engine_io {

// The ops, in the order `--help` lists them.
const std::vector<std::string_view>& engine_op_names();

// Runs the spec. `source` names it in errors ("spec.json"). Throws InputError (exit 2) for any
// problem with the spec: unknown op or setting, missing or misshaped parameter, non-numeric
// entry, or a shape the op cannot take.
nlohmann::ordered_json run_engine_spec(const nlohmann::json& spec, const std::string& source);

}  // namespace proofdeck::engine_io
