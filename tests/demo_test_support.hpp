// Reading a DemoResult in tests: a named value must exist and be of the kind asked for.
#pragma once

#include <catch2/catch.hpp>
#include <string>

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

}  // namespace proofdeck::testing
