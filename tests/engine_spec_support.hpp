// What the `engine run` spec tests share: the InputError a spec raises, and a spec's result as
// plain JSON.
#pragma once

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "core/errors.hpp"
#include "engine_io/spec.hpp"

namespace proofdeck::testing {

inline constexpr const char* kNoError = "(no InputError)";

// The message of the InputError the spec must raise (checked to carry exit code 2), or kNoError.
// Any other exception escapes and fails the test with its own message.
inline std::string error_from(const nlohmann::json& spec) {
  try {
    proofdeck::engine_io::run_engine_spec(spec, "spec.json");
  } catch (const proofdeck::InputError& e) {
    CHECK(e.exit_code() == proofdeck::ExitCode::invalid_input);
    return e.message();
  }
  return kNoError;
}

// The result as plain JSON, for comparing with literals.
inline nlohmann::json run(const nlohmann::json& spec) {
  return nlohmann::json::parse(proofdeck::engine_io::run_engine_spec(spec, "spec.json").dump());
}

}  // namespace proofdeck::testing
