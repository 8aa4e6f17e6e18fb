// The lint rules on objectives (questions/README.md § Lint): a question that names none, an
// objective asked too often across the loaded banks, one no loaded question tests.
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/lint_parts.hpp"

namespace proofdeck::bank {

// A bank written before objectives names a concept instead, which stands in for one.
void no_objective(Linter& linter, const Bank& bank, const Question& q) {
  if (!q.objective.empty() || !q.concept_id.empty()) return;
  linter.add(bank, &q, "no-objective",
             "no `objective`: name the fact or skill it tests (an objective of a loaded bank), "
             "so a form asks it once and check counts questions per objective");
}

namespace {

constexpr std::size_t kMaxPerObjective = 6;  // objective-overload

// The bank a finding about an objective belongs to: the one defining it, else (a concept standing
// in for an objective) the bank of its first question.
const Bank* objective_home(const std::vector<Bank>& banks, const std::string& objective,
                           const Bank& first_asker) {
  for (const Bank& bank : banks) {
    for (const Objective& defined : bank.objectives) {
      if (defined.id == objective) return &bank;
    }
  }
  return &first_asker;
}

}  // namespace

void objective_overload(Linter& linter, const std::vector<Bank>& banks) {
  std::vector<std::pair<std::string, std::vector<const Question*>>> per_objective;
  std::map<std::string, std::size_t> index;
  std::map<const Question*, const Bank*> bank_of;
  for (const Bank& bank : banks) {
    for (const Question& q : bank.questions) {
      const auto [it, inserted] = index.emplace(q.objective_id(), per_objective.size());
      if (inserted) per_objective.emplace_back(q.objective_id(), std::vector<const Question*>{});
      per_objective[it->second].second.push_back(&q);
      bank_of[&q] = &bank;
    }
  }
  for (const auto& [objective, questions] : per_objective) {
    if (questions.size() <= kMaxPerObjective) continue;
    std::vector<std::string> ids;
    for (const Question* q : questions)
      ids.push_back(q->id);
    linter.add(*objective_home(banks, objective, *bank_of[questions.front()]), nullptr,
               "objective-overload",
               fmt::format("objective '{}' has {} questions ({}); at most {}: one fact asked "
                           "again and again inflates a score, so merge variants into a template, "
                           "drop near-duplicates and spend the rest on objectives no question "
                           "asks yet",
                           objective, ids.size(), fmt::join(ids, ", "), kMaxPerObjective));
  }
}

void objective_unused(Linter& linter, const std::vector<Bank>& banks) {
  std::set<std::string> asked;
  for (const Bank& bank : banks) {
    for (const Question& q : bank.questions)
      asked.insert(q.objective);
  }
  for (const Bank& bank : banks) {
    for (const Objective& objective : bank.objectives) {
      if (asked.contains(objective.id)) continue;
      linter.add(bank, nullptr, "objective-unused",
                 fmt::format("objective '{}' is defined but no loaded question tests it; write "
                             "one, or drop the objective",
                             objective.id));
    }
  }
}

}  // namespace proofdeck::bank
