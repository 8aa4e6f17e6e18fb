// Proving loaded banks for `check` (see check.hpp).
#include "bank/check.hpp"

#include <algorithm>
#include <set>

#include "bank/instance.hpp"
#include "bank/lint.hpp"
#include "demo/demo.hpp"

namespace proofdeck::bank {

CheckReport prove(const std::vector<Bank>& banks, DemoRunner& runner, bool mutate) {
  CheckReport report;
  std::map<std::string, int> per_topic, per_trap;
  std::set<std::string> demos_used;
  std::vector<std::string> all_traps;
  for (const Bank& b : banks) {
    for (const Trap& trap : b.traps) {
      all_traps.push_back(trap.id);
      per_trap.try_emplace(trap.id, 0);
    }
    for (const Topic& topic : b.topics)
      per_topic.try_emplace(topic.id, 0);
    for (const Question& q : b.questions) {
      report.verdicts.push_back(verify(q, runner));
      ++report.counts[report.verdicts.back().status];
      if (report.verdicts.back().status == Status::unproven && q.unprovable.empty())
        ++report.unproven_without_reason;
      if (const Status s = report.verdicts.back().status;
          mutate && (s == Status::verified || s == Status::computed)) {
        for (Mutation& m : bank::mutate(q, runner))
          report.mutations.push_back(std::move(m));
      }
      ++per_topic[q.topic];
      for (const std::string& trap : question_traps(q))
        ++per_trap[trap];
      if (q.proof) demos_used.insert(q.proof->demo);
    }
  }
  std::vector<std::string> uncovered_traps, unused_demos;
  for (const auto& [trap, count] : per_trap) {
    if (count == 0) uncovered_traps.push_back(trap);
  }
  for (const demo::DemoInfo& info : demo::catalog()) {
    if (!demos_used.contains(info.name)) unused_demos.push_back(info.name);
  }
  nlohmann::ordered_json concepts = nlohmann::ordered_json::object();
  nlohmann::ordered_json objectives = nlohmann::ordered_json::object();
  for (const Bank& b : banks) {
    nlohmann::ordered_json per_concept = nlohmann::ordered_json::object();
    for (const auto& [concept_id, ids] : questions_per_concept(b))
      per_concept[concept_id] = ids.size();
    concepts[b.id] = std::move(per_concept);
    nlohmann::ordered_json per_objective = nlohmann::ordered_json::object();
    for (const auto& [objective, ids] : questions_per_objective(b))
      per_objective[objective] = ids.size();
    objectives[b.id] = std::move(per_objective);
  }
  report.coverage = {{"questions_per_topic", per_topic},
                     {"questions_per_trap", per_trap},
                     {"traps_without_questions", uncovered_traps},
                     {"demos_unused", unused_demos},
                     {"questions_per_concept", concepts},
                     {"questions_per_objective", objectives},
                     {"demo_runs", runner.runs()}};
  return report;
}

std::optional<std::string> uncovered_waiver(const std::vector<Bank>& banks,
                                            const LessonCoverage& coverage) {
  for (const Bank& b : banks) {
    if (b.id != coverage.bank) continue;
    for (const LintWaiver& waiver : b.lint_allow) {
      if (waiver.rule == "uncovered-paragraph") return waiver.reason;
    }
  }
  return std::nullopt;
}

int count(const CheckReport& report, Status status) {
  const auto it = report.counts.find(status);
  return it == report.counts.end() ? 0 : it->second;
}

std::size_t survivors(const CheckReport& report) {
  return static_cast<std::size_t>(std::count_if(report.mutations.begin(), report.mutations.end(),
                                                [](const Mutation& m) { return !m.killed; }));
}

}  // namespace proofdeck::bank
