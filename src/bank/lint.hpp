// `check --lint`: item-writing flaws a test-wise candidate could exploit, in the spirit of
// Haladyna, Downing & Rodriguez (2002). Each rule has a stable id (bank/lint_rules.hpp) and each
// finding says which question and what to change. Findings are warnings; `--strict` fails them.
// A question (or a bank, for bank-level rules) may waive a rule with a reason; waivers are
// listed in every report.
#pragma once

#include <string>
#include <vector>

#include "bank/model.hpp"

namespace proofdeck::bank {

struct LintFinding {
  std::string id;    // the question; empty for a bank-level finding
  std::string bank;  // the bank's id
  std::string rule;  // a rule id of kLintRules
  std::string message;
};

struct LintWaiverUse {
  std::string id;  // the question; empty for a bank-level waiver
  std::string bank;
  std::string rule;
  std::string reason;
  int waived = 0;  // findings it silenced in this run
};

// testwise-cue's measures (`check --lint --cues`): what each test-wise strategy earns over a
// bank's single-answer or true/false questions, against chance.
struct CueStrategy {
  std::string name;               // "second-longest", "convergence", "logit", "longer-is-true", …
  double credit = 0.0;            // items it answers right, a tie of k options counting 1/k
  double chance = 0.0;            // what guessing earns: Σ 1/options
  double p = 1.0;                 // one-sided, exact (bank/cue_stats.hpp)
  double p_holm = 1.0;            // Holm-corrected over the bank's strategies
  std::vector<std::string> wins;  // the items it alone (no tie of all options) answered right
};

struct CueAudit {
  std::string bank;
  std::string type;  // "single" or "truefalse"
  std::size_t items = 0;
  std::vector<CueStrategy> strategies;
};

struct LintReport {
  std::vector<LintFinding> findings;  // after waivers, in bank and question order
  std::vector<LintWaiverUse> waivers;
  std::vector<CueAudit> cues;  // each bank's measured strategies, in bank order
};

class DemoRunner;  // bank/proof.hpp

// Every rule over every loaded bank (near-duplicates are looked for across banks). The rules
// that read a proof's numbers (literal-measured) run only with a runner, through which the demos
// run (check's, so the runs it proved with are reused).
LintReport lint(const std::vector<Bank>& banks, DemoRunner* runner = nullptr);

// Two questions that ask one thing (near-duplicate's rule): prompts sharing at least 60% of their
// word trigrams, or one numeric key proven by one run. `second` comes later in the banks; forms
// never hold both (bank/form.hpp).
struct NearDuplicate {
  std::string first;
  std::string second;
  std::string reason;  // "their prompts share 74% of their word trigrams"
};
std::vector<NearDuplicate> near_duplicate_pairs(const std::vector<Bank>& banks);

// The questions of each objective (Question::objective_id: a concept stands in for a missing
// objective), per bank, in file order: what `check` reports as questions per objective.
std::vector<std::pair<std::string, std::vector<std::string>>> questions_per_objective(
    const Bank& bank);

// The questions of each concept, per bank, in file order (a question without a concept is left
// out): what `check` reports as questions per concept.
std::vector<std::pair<std::string, std::vector<std::string>>> questions_per_concept(
    const Bank& bank);

}  // namespace proofdeck::bank

namespace proofdeck::bank {

// `check --source FILE`: in the banks keyed to `lesson_name` (the lesson file's name without its
// extension), every source quote must appear in the lesson word for word (runs of white space
// aside) and every section must start a line of it (a heading, or a paragraph's lead-in such as
// "Identity statement:"). One message per problem, naming the question or trap.
struct SourceProblem {
  std::string id;  // the question, or empty for a trap (named in the message)
  std::string bank;
  std::string message;
};
std::vector<SourceProblem> check_sources(const std::vector<Bank>& banks,
                                         const std::string& lesson_name, std::string_view lesson);

}  // namespace proofdeck::bank
