// Where banks come from: the built-in ones and `--bank FILE|DIR` (repeatable). Every problem in
// every file is collected and reported together; ids must be unique across all of them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "bank/loader.hpp"
#include "bank/proof.hpp"

namespace proofdeck::bank {

struct BankSources {
  std::vector<std::string> paths;  // --bank: files, or folders of *.json (schema.json skipped)
  bool builtin = true;             // false with --no-builtin
};

// Throws BankErrors (exit 2) with every problem found (ids repeated across banks, a `requires`
// that names nothing loaded or closes a cycle among them), or InputError for a path that cannot
// be read.
std::vector<Bank> load_banks(const BankSources& sources, const LoadLimits& limits = {});

// The proofs load_banks checks against the demo catalog as it loads (resolve_problems), so that
// their problems are listed with the files' own: an unknown demo, parameter or value is reported
// beside a schema problem elsewhere in the bank, not after it is fixed. A question with a problem
// in what such a check reads is not checked (BankReading::provable).
struct ProofCheck {
  DemoRunner& runner;
  bool builtin = false;  // the built-in banks' proofs too (`check`; CI proves them otherwise)
  unsigned threads = 1;  // the demo runs made ahead on this many threads (DemoRunner::prefetch)
};
std::vector<Bank> load_banks(const BankSources& sources, const ProofCheck& proofs,
                             const LoadLimits& limits = {});

}  // namespace proofdeck::bank
