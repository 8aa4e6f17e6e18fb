// What an engine run carries beside its arguments, in one place: the engine fault in force and
// the ops the run has reached (fault.hpp), the multiply-add tally open (macs.hpp), the draw log
// open and the cache of normals lent to the run (rng.hpp).
//
// One context per thread, the engine's only thread-local storage: the current context, as
// PyTorch keeps its dispatch keys (a thread-local key set that RAII guards change and restore).
// Passing it as an argument instead would add a parameter to every op and module the faults
// reach (the PyTorch-shaped signatures tests and `engine run` call) for state that only `check`,
// the demos and their tests set. Nothing writes a field but the scope that owns it, which
// restores it when it ends — FaultScope (fault, reached), MacTally (tally), DrawLog (draws),
// NormalsScope (normals) — so a context is always what the innermost scopes made it. A thread
// starts with an empty one: a run on a worker thread opens its own scopes (demo::run_demo does).
#pragma once

#include "engine/fault.hpp"

namespace proofdeck::engine {

class MacTally;
class DrawLog;
class NormalCache;

struct RunContext {
  Fault fault = Fault::none;       // the fault in force: none outside a FaultScope
  OpSet reached;                   // the ops entered since the innermost FaultScope began
  MacTally* tally = nullptr;       // the innermost open tally, if any
  DrawLog* draws = nullptr;        // the innermost open draw log, if any
  NormalCache* normals = nullptr;  // where Rng::fill_normals reads its normals, if anywhere
};

// This thread's context. Constant-initialised, so reading it costs what reading a global does
// (no initialisation check): the generator reads `draws` on every draw.
extern constinit thread_local RunContext current_context;
inline RunContext& run_context() noexcept {
  return current_context;
}

}  // namespace proofdeck::engine
