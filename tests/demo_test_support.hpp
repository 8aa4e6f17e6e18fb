// Reading a DemoResult in tests: a named value must exist and be of the kind asked for.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.hpp"

#include "demo/demo.hpp"

namespace proofdeck::testing {

inline double number(const demo::DemoResult& result, const std::string& name) {
  const demo::Value* value = result.find(name);
  INFO(result.demo << ": " << name);
  REQUIRE(value != nullptr);
  REQUIRE(value->kind == demo::Value::Kind::number);
  return value->number;
}

inline bool flag(const demo::DemoResult& result, const std::string& name) {
  const demo::Value* value = result.find(name);
  INFO(result.demo << ": " << name);
  REQUIRE(value != nullptr);
  REQUIRE(value->kind == demo::Value::Kind::boolean);
  return value->boolean;
}

// Runs the demo of that name with `--set` assignments, as `demo run` does — or, given a fault,
// on an engine with that mechanism broken, as `check --engine-faults` does.
inline demo::DemoResult run(const std::string& name, const std::vector<std::string>& sets = {},
                            std::uint64_t seed = 0, engine::Fault fault = engine::Fault::none) {
  const demo::DemoInfo* info = demo::find_demo(name);
  INFO("demo " << name);
  REQUIRE(info != nullptr);
  return demo::run_demo(*info, demo::resolve_params(*info, sets), seed, fault);
}

// The InputError message the run gives, or "(no InputError)".
inline std::string error_of(const std::string& name, const std::vector<std::string>& sets) {
  try {
    run(name, sets);
  } catch (const InputError& e) {
    return e.message();
  }
  return "(no InputError)";
}

}  // namespace proofdeck::testing
