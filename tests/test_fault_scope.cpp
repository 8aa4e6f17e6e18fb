// The fault catalog and the run context's active fault: names are unique contract names, every
// fault names the op it changes and the trap it breaks, a scope sets and restores the fault and
// records the ops reached, two threads carry two faults at once, and a thread's run context
// starts empty and is restored field by field as its scopes end.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <thread>

#include "engine/fault.hpp"
#include "engine/macs.hpp"
#include "engine/rng.hpp"
#include "engine/run_context.hpp"

namespace test_fault_scope {

using namespace proofdeck::engine;

TEST_CASE("every fault has a unique kebab-case name, a change and the claim it breaks", "[fault]") {
  std::set<std::string_view> names;
  for (const FaultInfo& info : fault_catalog()) {
    CAPTURE(info.name);
    CHECK(info.fault != Fault::none);
    CHECK(names.insert(info.name).second);
    CHECK(info.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") ==
          std::string_view::npos);
    CHECK_FALSE(info.change.empty());
    CHECK_FALSE(info.claim.empty());
    CHECK(info.claim.find(": ") != 0);  // a claim, not "trap-id: the claim"
    CHECK(find_fault(info.name) == info.fault);
    CHECK(fault_info(info.fault).name == info.name);
  }
  CHECK(fault_catalog().size() >= 27);
  CHECK_FALSE(find_fault("no-such-fault").has_value());
}

TEST_CASE("every engine op has a fault that breaks it", "[fault]") {
  OpSet broken;
  for (const FaultInfo& info : fault_catalog())
    broken.set(static_cast<std::size_t>(info.op));
  for (std::size_t op = 0; op < kOpCount; ++op) {
    CAPTURE(op_name(static_cast<Op>(op)));
    CHECK(broken.test(op));
  }
}

TEST_CASE("every engine op has a unique kebab-case name", "[fault]") {
  std::set<std::string> names;
  for (std::size_t op = 0; op < kOpCount; ++op) {
    const std::string name(op_name(static_cast<Op>(op)));
    CAPTURE(op, name);
    CHECK_FALSE(name.empty());
    CHECK(name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos);
    CHECK(names.insert(name).second);
  }
}

TEST_CASE("a fault scope sets the thread's fault and restores the one before it", "[fault]") {
  CHECK(enter(Op::attention) == Fault::none);
  {
    FaultScope outer(Fault::unscaled_scores);
    CHECK(enter(Op::layernorm) == Fault::unscaled_scores);
    {
      FaultScope inner(Fault::residual_dropped);
      CHECK(inner.reached().none());
      CHECK(enter(Op::rope) == Fault::residual_dropped);
      CHECK(inner.reached().test(static_cast<std::size_t>(Op::rope)));
    }
    CHECK(enter(Op::attention) == Fault::unscaled_scores);
    // The outer record keeps its own ops and gains the inner scope's.
    CHECK(outer.reached().test(static_cast<std::size_t>(Op::layernorm)));
    CHECK(outer.reached().test(static_cast<std::size_t>(Op::rope)));
    CHECK_FALSE(outer.reached().test(static_cast<std::size_t>(Op::swiglu)));
  }
  CHECK(enter(Op::attention) == Fault::none);
}

TEST_CASE("two threads carry two faults at the same time", "[fault]") {
  Fault seen_a = Fault::none, seen_b = Fault::none;
  std::thread a([&] {
    FaultScope scope(Fault::rope_base_1000);
    std::this_thread::yield();
    seen_a = enter(Op::rope);
  });
  std::thread b([&] {
    FaultScope scope(Fault::alibi_halved_slopes);
    std::this_thread::yield();
    seen_b = enter(Op::alibi);
  });
  a.join();
  b.join();
  CHECK(seen_a == Fault::rope_base_1000);
  CHECK(seen_b == Fault::alibi_halved_slopes);
  CHECK(enter(Op::rope) == Fault::none);
}

TEST_CASE("a run context: a new thread's is empty, and each scope restores what it set",
          "[fault][context]") {
  NormalCache cache;
  RunContext seen_inside, seen_after;
  std::thread worker([&] {
    seen_after = run_context();  // empty: nothing of the opening thread's scopes
    {
      const FaultScope fault(Fault::unscaled_scores);
      const MacTally tally;
      const DrawLog log;
      const NormalsScope normals(&cache);
      enter(Op::linear);
      seen_inside = run_context();
    }
    const RunContext& after = run_context();
    CHECK(after.fault == Fault::none);
    CHECK(after.tally == nullptr);
    CHECK(after.draws == nullptr);
    CHECK(after.normals == nullptr);
  });
  const FaultScope opener(Fault::residual_dropped);  // the opening thread's, not the worker's
  worker.join();
  CHECK(seen_after.fault == Fault::none);
  CHECK(seen_after.reached.none());
  CHECK(seen_after.tally == nullptr);
  CHECK(seen_inside.fault == Fault::unscaled_scores);
  CHECK(seen_inside.reached.test(static_cast<std::size_t>(Op::linear)));
  CHECK(seen_inside.tally != nullptr);
  CHECK(seen_inside.draws != nullptr);
  CHECK(seen_inside.normals == &cache);
  CHECK(run_context().fault == Fault::residual_dropped);
}

}  // namespace test_fault_scope
