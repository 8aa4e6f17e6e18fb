// Where banks come from: the built-in ones and `--bank FILE|DIR` (repeatable). Every problem in
// every file is collected and reported together; ids must be unique across all of them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "bank/loader.hpp"

namespace proofdeck::bank {

struct BankSources {
  std::vector<std::string> paths;  // --bank: files, or folders of *.json (schema.json skipped)
  bool builtin = true;             // false with --no-builtin
};

// Throws BankErrors (exit 2) with every problem found (ids repeated across banks, a `requires`
// that names nothing loaded or closes a cycle among them), or InputError for a path that cannot
// be read.
std::vector<Bank> load_banks(const BankSources& sources, const LoadLimits& limits = {});

}  // namespace proofdeck::bank
