// Loading question banks: JSON with located parse errors, then every structural and semantic
// check that needs no demo run, with all problems of a run collected and reported together:
//   bank.json: /questions/3/options: a single question needs exactly one correct option; found 2
//   (a, c)
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bank/load_limits.hpp"
#include "bank/model.hpp"
#include "core/errors.hpp"

namespace proofdeck::bank {

// Every problem found, one line each ("file: /pointer: what was expected, what was found").
class BankErrors : public InputError {
 public:
  explicit BankErrors(std::vector<std::string> problems);
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  std::vector<std::string> problems_;
};

// Parses and validates one bank. `file` names it in messages. Throws BankErrors (exit 2) with
// every problem found, or InputError for JSON that does not parse.
Bank load_bank(std::string_view text, const std::string& file, const LoadLimits& limits = {});

// One bank as far as it reads: the model, every problem found, and the questions whose proofs can
// still be checked against the demo catalog (resolve_problems, bank/proof.hpp) — those with no
// problem in anything such a check reads — so that a caller lists the proofs' problems with the
// file's own and none that follows from one of them. InputError for JSON that does not parse.
struct BankReading {
  Bank bank;
  std::vector<std::string> problems;
  std::vector<std::size_t> provable;  // indices into bank.questions; all of them without problems
};
BankReading read_bank(std::string_view text, const std::string& file,
                      const LoadLimits& limits = {});

// Question and bank ids must be unique across every loaded bank; BankErrors names both places.
void check_unique_ids(const std::vector<Bank>& banks);

// Objective ids are global: each is defined by one loaded bank, and every question's `objective`
// names one some loaded bank defines. BankErrors lists every problem.
void check_objectives(const std::vector<Bank>& banks);

// Every id of a question's `same_fact_as` names another loaded question, of another objective
// (one objective is one fact already). BankErrors lists every problem.
void check_same_facts(const std::vector<Bank>& banks);

// The reasons an out_of_scope entry may give, as a bank writes them.
inline constexpr std::array<std::string_view, 4> kOutOfScopeReasons = {"exam-meta", "scenario-data",
                                                                       "summary", "lesson-error"};
std::optional<OutOfScopeReason> parse_out_of_scope_reason(std::string_view name);
std::string_view out_of_scope_reason_name(OutOfScopeReason reason);

}  // namespace proofdeck::bank
