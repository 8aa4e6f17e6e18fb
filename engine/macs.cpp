// The multiply-add tally open in the thread's run context (see macs.hpp).
#include "engine/macs.hpp"

#include "engine/fault.hpp"
#include "engine/run_context.hpp"

namespace proofdeck::engine {

MacTally::MacTally() noexcept : previous_(run_context().tally) {
  run_context().tally = this;
}

MacTally::~MacTally() {
  run_context().tally = previous_;
  if (previous_ != nullptr) previous_->count_ += count_;
}

void count_macs(MacSite site, Index rows, Index inner, Index cols) noexcept {
  MacTally* const tally = run_context().tally;
  if (tally == nullptr) return;  // nothing counts: the op is not reached
  const bool one_head = enter(Op::mac_count) == Fault::mac_count_one_head;
  MacCount& count = tally->count_;
  const std::int64_t macs = static_cast<std::int64_t>(rows) * inner * cols;
  switch (site) {
    case MacSite::linear:
      count.linear += macs;
      break;
    case MacSite::scores:
      if (!one_head || count.scores == 0) count.scores += macs;
      break;
    case MacSite::weighted_values:
      if (!one_head || count.weighted_values == 0) count.weighted_values += macs;
      break;
  }
}

}  // namespace proofdeck::engine
