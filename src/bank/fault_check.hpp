// `check --engine-faults`: the other half of mutation testing. --mutate breaks the key and asks
// whether the proof notices; this breaks the engine (engine/fault.hpp) and asks the same. Every
// proof runs under every fault of an op its demo declares (DemoInfo::ops), and each question
// learns which faults move its verdict and which move each option's claim.
//
// A fault catches a question when the demo ran to completion, every value the question's
// comparisons read is present and finite, and a comparison's truth changed, so the verdict did.
// A run that throws, takes longer than kFaultRunSeconds or yields NaN/Inf in a value read is
// broken-by-fault and catches nothing. A key whose verdict changes with the seed alone (seeds 0,
// 1 and 2, no fault) is fragile and caught by nothing. A fault that catches more than
// kBroadShare of the proved keys is broad: reported, and it does not by itself confirm a key. A
// template is caught when every combination evaluated is (for more than 8 admitted combinations:
// the first, the last and 6 spread evenly between them).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "bank/model.hpp"
#include "bank/proof.hpp"
#include "engine/fault.hpp"

namespace proofdeck::bank {

inline constexpr double kBroadShare = 0.6;
inline constexpr double kFaultRunSeconds = 60.0;
inline constexpr std::size_t kFaultCombinations = 8;

// The faults that move one option's claim (or a true/false question's claim, or whether a numeric
// question's computed value matches its key or one of its distractors).
struct ClaimFaults {
  std::string option;  // the option's id; "claim" (true/false); "key", "distractor N" (numeric)
  bool keyed = false;
  std::vector<std::string> faults;  // fault names, in catalog order
};

struct QuestionFaults {
  std::string id;
  std::string bank;
  Status status = Status::unproven;    // the verdict without faults
  std::vector<std::string> caught_by;  // faults that change the verdict (every combination)
  std::vector<std::string> broken_by;  // faults under which a run broke (see above)
  std::vector<ClaimFaults> claims;     // per option, the claim, or the key and each distractor
  std::size_t combinations = 0;        // parameter combinations evaluated
  bool fragile = false;
  bool confirmed = false;  // caught by a fault that is not broad, and not fragile
};

struct FaultTally {
  engine::Fault fault = engine::Fault::none;
  std::size_t runs = 0;    // demo runs under the fault
  std::size_t broken = 0;  // of them, broken-by-fault
  std::size_t caught = 0;  // proved keys (verified or computed) it catches
  bool broad = false;
  std::vector<std::string> questions;  // every question it catches
};

struct FaultReport {
  std::vector<QuestionFaults> questions;  // every proved or supported question, in bank order
  std::vector<FaultTally> faults;         // catalog order
  std::size_t proved = 0;                 // verified + computed keys
  std::size_t runs = 0;                   // faulty runs made
  // Measured or counted values (demo: name) that no fault moved in any run; derived or param
  // values that a fault moved (a wrong label: the run-time check below throws for those).
  std::vector<std::string> unmoved_engine_values;
  double seconds = 0.0;
};

// Runs every proof of `banks` under every applicable fault on `threads` threads. `clean` is the
// runner `check` proved with (its runs are reused); `seed` is its seed. Throws std::logic_error
// when a demo reaches an op it does not declare, or a fault moves a value its demo calls derived
// or param — both are the program's errors, not the banks'.
FaultReport check_engine_faults(const std::vector<Bank>& banks, DemoRunner& clean,
                                std::uint64_t seed, unsigned threads);

// Verified keys that no fault confirms (fails `check --strict --engine-faults`).
std::vector<std::string> unconfirmed_verified(const FaultReport& report);

}  // namespace proofdeck::bank
