// Which questions a command works on: the filters every command that selects takes (quiz, exam,
// drill, print, export, list) and the one rule that applies them.
#pragma once

#include <string>
#include <vector>

#include "bank/model.hpp"

namespace proofdeck::bank {

// --topic, --trap, --bank/--from-bank, --type, --question (each repeatable; empty: no
// restriction).
struct Filters {
  std::vector<std::string> topics;
  std::vector<std::string> traps;
  std::vector<std::string> banks;
  std::vector<std::string> types;
  std::vector<std::string> questions;
};

// The questions that pass every filter, in bank order. InputError (exit 2) for a filter value
// that names nothing loaded (listing what exists), or when no question passes them all.
std::vector<const Question*> select_questions(const std::vector<Bank>& banks,
                                              const Filters& filters);

}  // namespace proofdeck::bank
