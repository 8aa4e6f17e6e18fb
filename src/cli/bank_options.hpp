// What every command that works on questions shares: the banks (--bank files and folders, the
// built-in ones unless --no-builtin, --bank ID selecting a loaded bank), the question filters, and
// the questions they select together.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "bank/model.hpp"
#include "bank/selection.hpp"
#include "cli/context.hpp"

namespace proofdeck::cli {

// The banks a command works on. `--bank` takes files and folders to load; a value that is
// neither but names a loaded bank's id selects that bank instead (the quiz filter `--bank ID`),
// as `--from-bank ID` does.
struct LoadedBanks {
  std::vector<bank::Bank> banks;
  std::vector<std::string> selected;  // bank ids given to --bank
};

// Loads the banks; the proofs of banks from --bank files are also checked against the demo
// catalog (the built-in ones are proven by CI). BankErrors (exit 2) with every problem, the
// proofs' listed with the files' own.
LoadedBanks load_banks(const Context& context);

// The banks --bank ID selected, added to the filters' --from-bank.
void add_selected_banks(const LoadedBanks& loaded, bank::Filters& filters);

// The questions `filters` select, with the banks --bank ID selected added to them (so the filters
// a session records say what it asked). InputError (exit 2) for a filter that names nothing.
std::vector<const bank::Question*> selected_questions(const LoadedBanks& loaded,
                                                      bank::Filters& filters);

// --topic, --trap, --type, --question (each repeatable); the bank filter is --from-bank, since
// --bank already loads a bank file.
void add_filter_options(CLI::App* command, bank::Filters& filters);

}  // namespace proofdeck::cli
