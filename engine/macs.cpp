// The thread's open multiply-add tally (see macs.hpp).
#include "engine/macs.hpp"

#include "engine/fault.hpp"

namespace proofdeck::engine {

namespace {

thread_local MacTally* open_tally = nullptr;

}  // namespace

MacTally::MacTally() noexcept : previous_(open_tally) {
  open_tally = this;
}

MacTally::~MacTally() {
  open_tally = previous_;
  if (previous_ != nullptr) previous_->count_ += count_;
}

void count_macs(MacSite site, Index rows, Index inner, Index cols) noexcept {
  if (open_tally == nullptr) return;  // nothing counts: the op is not reached
  const bool one_head = enter(Op::mac_count) == Fault::mac_count_one_head;
  MacCount& count = open_tally->count_;
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
