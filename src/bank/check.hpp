// `check`'s verdict on loaded banks: every question proven (bank/proof.hpp's verify), with
// --mutate every verified key swapped for a wrong one that must be caught, and what the banks
// cover — questions per topic, trap and concept, traps without questions, demos no question uses.
// The check command (cli/check_cmd.cpp) adds lint and --source, and writes it as text, JSON or
// JUnit XML.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bank/coverage.hpp"
#include "bank/lint.hpp"
#include "bank/model.hpp"
#include "bank/proof.hpp"

namespace proofdeck::bank {

struct CheckReport {
  std::vector<QuestionVerdict> verdicts;
  std::vector<Mutation> mutations;  // with --mutate
  std::map<Status, int> counts;
  nlohmann::ordered_json coverage;
  std::optional<LintReport> lint;       // with --lint
  std::vector<SourceProblem> sources;   // with --source
  std::vector<LessonCoverage> lessons;  // with --source … --coverage, one per lesson
  int unproven_without_reason = 0;
};

// The reason a bank gives for leaving its lesson's uncovered paragraphs uncovered (a bank-level
// `uncovered-paragraph` waiver), or nullopt when it gives none.
std::optional<std::string> uncovered_waiver(const std::vector<Bank>& banks,
                                            const LessonCoverage& coverage);

// Proves every question of `banks` with `runner` (and mutates the verified ones when `mutate`).
CheckReport prove(const std::vector<Bank>& banks, DemoRunner& runner, bool mutate);

// How many verdicts have `status`.
int count(const CheckReport& report, Status status);
// Mutations no proof caught.
std::size_t survivors(const CheckReport& report);

}  // namespace proofdeck::bank
