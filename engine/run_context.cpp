// The thread's run context, and the fault scope and entry that set and read its fault (declared
// in fault.hpp, defined beside the context they use).
#include "engine/run_context.hpp"

namespace proofdeck::engine {

constinit thread_local RunContext current_context;

Fault enter(Op op) noexcept {
  RunContext& context = run_context();
  context.reached.set(static_cast<std::size_t>(op));
  return context.fault;
}

FaultScope::FaultScope(Fault fault) noexcept
    : previous_fault_(run_context().fault), previous_reached_(run_context().reached) {
  run_context().fault = fault;
  run_context().reached.reset();
}

FaultScope::~FaultScope() {
  run_context().fault = previous_fault_;
  run_context().reached |= previous_reached_;
}

OpSet FaultScope::reached() const noexcept {
  return run_context().reached;
}

}  // namespace proofdeck::engine
