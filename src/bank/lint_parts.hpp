// What the lint rule families share (lint.cpp runs them, one family a file): the Linter every
// finding goes through, the measures of text and numeric keys more than one family takes, and
// each family's rules.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bank/model.hpp"

namespace proofdeck::bank {

struct LintReport;  // bank/lint.hpp
struct CueAudit;
class DemoRunner;  // bank/proof.hpp
struct LintWaiverUse;

// Adds each finding to the report unless its question (the bank, for a bank-level finding) waives
// the rule; lists every waiver with the findings it silenced (defined in lint.cpp).
class Linter {
 public:
  explicit Linter(LintReport& report) : report_(report) {}

  void add(const Bank& bank, const Question* q, std::string_view rule, std::string message);

  void list_waivers(const Bank& bank);

 private:
  LintWaiverUse& waiver_use(const Bank& bank, const Question* q, const LintWaiver& waiver);

  LintReport& report_;
};

// Lower-cased words of letters and digits (other bytes, UTF-8 included, separate them).
std::vector<std::string> words(std::string_view text);

// Words joined by single spaces: "The key, said plainly." and "the key said plainly" match.
std::string normalized(std::string_view text);

bool near_integer(double value);

// Whether the text has an absolute: always, never, only, cannot, entirely, none, every, or "all"
// before what it quantifies (lint_options.cpp).
bool has_absolute(const std::string& text);

// The keys a numeric question can have: its value, or its template's answer in every admitted
// combination (up to a limit), with the bindings that give each.
std::vector<std::pair<Bindings, double>> numeric_keys(const Question& q);

// The options and true/false statements (lint_options.cpp).
void few_options(Linter& linter, const Bank& bank, const Question& q);
void longest_key(Linter& linter, const Bank& bank, const Question& q);
void length_cue(Linter& linter, const Bank& bank);
void dismissive_option(Linter& linter, const Bank& bank, const Question& q);
void tf_balance(Linter& linter, const Bank& bank);
void tf_length_cue(Linter& linter, const Bank& bank);
void absolute_cue(Linter& linter, const Bank& bank);
void untagged_distractor(Linter& linter, const Bank& bank, const Question& q);

// A test-wise candidate's strategies against chance, with Holm's correction (lint_cues.cpp):
// appends the bank's measures to `cues` and a finding for each strategy that beats chance.
void testwise_cue(Linter& linter, const Bank& bank, std::vector<CueAudit>& cues);

// The prompt and the explanation (lint_stem.cpp).
void answer_in_stem(Linter& linter, const Bank& bank, const Question& q);
void letter_references(Linter& linter, const Bank& bank, const Question& q);
void stem_cites_material(Linter& linter, const Bank& bank, const Question& q);

// Templates and numeric keys (lint_numbers.cpp).
void constant_template(Linter& linter, const Bank& bank, const Question& q);
void template_literal(Linter& linter, const Bank& bank, const Question& q);
void distractors_coincide(Linter& linter, const Bank& bank, const Question& q);
// A number the proof measured, written out rather than quoted (lint_measured.cpp).
void literal_measured(Linter& linter, const Bank& bank, const Question& q, DemoRunner& runner);
void precision(Linter& linter, const Bank& bank, const Question& q);

// Objectives, across the loaded banks (lint_objectives.cpp).
void no_objective(Linter& linter, const Bank& bank, const Question& q);
void objective_overload(Linter& linter, const std::vector<Bank>& banks);
void objective_unused(Linter& linter, const std::vector<Bank>& banks);

// Questions that ask one thing twice, across the loaded banks (lint_duplicates.cpp).
void near_duplicates(Linter& linter, const std::vector<Bank>& banks);
void cross_bank_duplicates(Linter& linter, const std::vector<Bank>& banks);

}  // namespace proofdeck::bank
