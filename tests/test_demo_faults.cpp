// The demos under engine faults, as `check --engine-faults` runs them: every demo declares the
// engine ops it reaches, a fault leaves the random draws as they were, and some faults are subtle
// enough that only a proof reading the right value notices them.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "demo/demo.hpp"
#include "demo_test_support.hpp"
#include "engine/fault.hpp"
#include "engine/rng.hpp"

namespace test_demo_faults {

using namespace proofdeck;
using namespace proofdeck::demo;
using engine::Fault;
using engine::FaultInfo;
using proofdeck::testing::run;

namespace {

std::vector<std::string> op_names(const engine::OpSet& ops) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (ops.test(i)) names.emplace_back(engine::op_name(static_cast<engine::Op>(i)));
  }
  return names;
}

engine::OpSet declared_ops(const DemoInfo& info) {
  engine::OpSet ops;
  for (const engine::Op op : info.ops)
    ops.set(static_cast<std::size_t>(op));
  return ops;
}

// The draws a demo run makes at its defaults, under `fault`.
struct Draws {
  std::uint64_t count = 0;
  std::uint64_t hash = 0;
  bool operator==(const Draws&) const = default;
};

Draws draws_of(const DemoInfo& info, Fault fault) {
  engine::DrawLog log;
  (void)run(info.name, {}, 0, fault);
  return Draws{log.count(), log.hash()};
}

// How far a fault moves a run's measured outputs: ‖faulty − clean‖ / ‖clean‖ over the measured
// numbers (the computations on tensors; counts of a module's structure are left out).
double relative_change(const DemoResult& clean, const DemoResult& faulty) {
  double difference = 0.0, size = 0.0;
  for (const auto& [name, value] : clean.values) {
    if (value.kind != Value::Kind::number || value.provenance != Provenance::measured) continue;
    const Value* other = faulty.find(name);
    if (other == nullptr || !std::isfinite(other->number)) return INFINITY;
    difference += (other->number - value.number) * (other->number - value.number);
    size += value.number * value.number;
  }
  if (size == 0.0) return difference == 0.0 ? 0.0 : INFINITY;
  return std::sqrt(difference / size);
}

}  // namespace

TEST_CASE("every demo declares each engine op it reaches at its defaults", "[demo][fault]") {
  // check --engine-faults skips a fault whose op a demo does not declare; one it reaches
  // undeclared would go untested (check then stops with an internal error).
  for (const DemoInfo& info : catalog()) {
    INFO(info.name << " reaches "
                   << fmt::format("{}", fmt::join(op_names(run(info.name).reached), ", ")));
    const engine::OpSet reached = run(info.name).reached;
    CHECK((reached & ~declared_ops(info)).none());
    // a demo that computes only from its parameters declares nothing, so no fault is run on it
    CHECK(reached.any() != info.ops.empty());
  }
}

TEST_CASE("a fault that keeps every module's shape leaves every random draw as it was",
          "[demo][fault][sweep]") {
  for (const DemoInfo& info : catalog()) {
    const Draws clean = draws_of(info, Fault::none);
    for (const FaultInfo& fault : engine::fault_catalog()) {
      if (fault.reshapes) continue;
      INFO(info.name << " under " << fault.name);
      CHECK(draws_of(info, fault.fault) == clean);
    }
  }
}

TEST_CASE("a fault that reshapes a module draws differently only where the demo fills it",
          "[demo][fault]") {
  // Filling a tensor of another shape takes another number of draws: the reshaping faults are the
  // ones that cannot keep them. Demos that fill no module they build draw the same even so.
  std::size_t differing = 0;
  for (const DemoInfo& info : catalog()) {
    const Draws clean = draws_of(info, Fault::none);
    for (const FaultInfo& fault : engine::fault_catalog()) {
      if (!fault.reshapes) continue;
      const engine::OpSet declared = declared_ops(info);
      if (!declared.test(static_cast<std::size_t>(fault.op))) {
        INFO(info.name << " does not reach " << fault.name << "'s op");
        CHECK(draws_of(info, fault.fault) == clean);
        continue;
      }
      if (!(draws_of(info, fault.fault) == clean)) ++differing;
    }
  }
  CHECK(differing > 0);  // the exception is real, so the rule above is not vacuous
}

TEST_CASE("at least six faults are subtle: they move no demo's measured default outputs by 10%",
          "[demo][fault][sweep]") {
  // A subtle fault leaves the numbers a demo shows at its defaults nearly as they were, so only a
  // proof that reads the right value, or runs at the right edge, can notice it.
  std::vector<std::string> subtle, table;
  for (const FaultInfo& fault : engine::fault_catalog()) {
    double largest = 0.0;
    std::size_t reaching = 0;
    for (const DemoInfo& info : catalog()) {
      const DemoResult clean = run(info.name);
      if (!clean.reached.test(static_cast<std::size_t>(fault.op))) continue;
      ++reaching;
      largest = std::max(largest, relative_change(clean, run(info.name, {}, 0, fault.fault)));
    }
    table.push_back(
        fmt::format("{:<28} {:>2} demos  largest change {:.4f}", fault.name, reaching, largest));
    if (reaching > 0 && largest < 0.10) subtle.emplace_back(fault.name);
  }
  INFO(fmt::format("{}", fmt::join(table, "\n")));
  CHECK(subtle.size() >= 6);
  // The catalog flags the subtle faults (`check --list-faults` shows the flag): a fault that
  // joins or leaves the measured list is a change to make there.
  std::vector<std::string> flagged;
  for (const FaultInfo& fault : engine::fault_catalog())
    if (fault.subtle) flagged.emplace_back(fault.name);
  CHECK(subtle == flagged);
}

}  // namespace test_demo_faults
