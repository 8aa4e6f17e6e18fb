// The bank model: what a question bank file says (questions/README.md), after loading and
// validation. Every node keeps its JSON pointer so later errors (check, feedback) can say where.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bank/formula.hpp"
#include "core/time.hpp"

namespace proofdeck::bank {

// The lesson the built-in banks are keyed to (its file is 000_ca7851e78539aec3.txt): a bank whose
// "lesson" names it is the lesson's own bank, which a new learner meets first.
inline constexpr std::string_view kLessonId = "000_ca7851e78539aec3";

struct Source {
  std::string section;    // section of the lesson
  std::string quote;      // optional quotation
  std::string reference;  // a paper or book, for material beyond the lesson
};

// A lint rule a question (or a bank) cannot meet, and why; listed in every `check --lint` report.
struct LintWaiver {
  std::string rule;    // a rule id of kLintRules
  std::string reason;  // why the item cannot meet it
  std::string pointer;
};

// An id named in a list of a bank file, with where: in a `requires` list, a bank or a topic that
// must come first (bank/prerequisites.hpp resolves it across the loaded banks); in a question's
// `same_fact_as`, another question (resolved by check_same_facts).
struct Requirement {
  std::string id;
  std::string pointer;  // "/topics/2/requires/0"
};

// A fact or skill a candidate must hold, stated as a sentence (questions/README.md § Objectives):
// the unit forms draw once, drill buries and readiness pools. Ids are global: a question may name
// an objective another loaded bank defines.
struct Objective {
  std::string id;
  std::string statement;
  Source source;        // the lesson's words (quote, section) or a paper (reference)
  std::string bank;     // the bank that defines it
  std::string pointer;  // "/objectives/2"
};

// Why a paragraph of the lesson is asked by no objective (check --source … --coverage).
enum class OutOfScopeReason {
  exam_meta,      // about the exam, not the material
  scenario_data,  // a worked scenario's numbers, which its concluding paragraph carries
  summary,        // a summary whose points map to paragraphs that are covered
  lesson_error,   // the lesson is wrong here; `correction` and `reference` say what is right
};

struct OutOfScope {
  std::string quote;  // words of the paragraph, enough to find it
  OutOfScopeReason reason = OutOfScopeReason::exam_meta;
  std::string note;        // optional
  std::string correction;  // lesson-error: the correct claim
  std::string reference;   // lesson-error: the paper that says so
  std::string pointer;     // "/out_of_scope/0"
};

struct Topic {
  std::string id;
  std::string name;
  std::string description;
  std::vector<Requirement> prerequisites;  // "requires": topics or banks met before this one
};

struct Trap {
  std::string id;
  std::string name;           // how feedback names it
  std::string misconception;  // what the learner believes
  std::string correction;     // what is true instead
  Source source;
};

enum class Comparator { eq, ne, lt, le, gt, ge, is };

// A predicate over a demo's values: a comparison, or all/any/not of predicates.
struct Predicate {
  enum class Kind { compare, all, any, negate };
  Kind kind = Kind::compare;
  std::string pointer;  // where it stands in the file
  // compare:
  std::string value;  // the value's name ({param} placeholders in templates)
  Comparator comparator = Comparator::eq;
  std::optional<double> number;  // compared with a number…
  std::string other_value;       // …or with another value
  bool boolean = false;          // for `is`
  double tolerance = 0.0;        // for eq and ne
  // all, any, not:
  std::vector<Predicate> children;
};

struct Proof {
  std::string pointer;
  std::string demo;
  nlohmann::ordered_json args = nlohmann::ordered_json::object();
  std::vector<std::string> show;
  std::vector<Predicate> predicates;
};

struct Option {
  std::string id;
  std::string text;
  bool correct = false;
  std::string trap;  // empty when none
  std::optional<Predicate> claim;
  std::string feedback;
};

struct NumericKey {
  std::optional<double> value;  // absent in templates: the template's formula gives it
  double tolerance = 0.0;
  bool relative = false;
  std::string unit;
  std::string computed;  // the demo value the key must equal

  // How far an answer may lie from `key` (the key as drawn) and still count: the tolerance, or
  // for a relative one that fraction of |key|. Grading, printouts, exports and lint all read it.
  double allowed(double key) const { return relative ? tolerance * std::fabs(key) : tolerance; }
};

using Bindings = std::map<std::string, double, std::less<>>;  // template parameter values

struct Template {
  std::vector<std::pair<std::string, std::vector<double>>> params;  // in file order
  std::vector<Formula> constraints;
  std::optional<Formula> answer;
  std::int64_t combinations = 0;  // admitted by the constraints, counted at load
};

// A wrong numeric answer that embodies a trap: a number, or (in templates) a formula over the
// drawn parameters; the loader admits exactly one of the two.
struct Distractor {
  std::optional<double> number;
  std::optional<Formula> formula;
  std::string trap;

  // Its value for a draw's parameters (empty bindings outside templates): the formula evaluated,
  // else the number. InputError when the formula is undefined for them (a division by zero).
  double value(const Bindings& bindings) const {
    return formula ? formula->evaluate(bindings) : number.value_or(0.0);
  }
};

struct Step {
  std::string id;
  std::string text;
};

enum class QuestionType { single, multi, truefalse, numeric, order };

// Every question type and its one name: a bank's "type", --type, reports, listings and headers.
struct QuestionTypeName {
  QuestionType type;
  std::string_view name;
};
inline constexpr std::array<QuestionTypeName, 5> kQuestionTypes = {{
    {QuestionType::single, "single"},
    {QuestionType::multi, "multi"},
    {QuestionType::truefalse, "truefalse"},
    {QuestionType::numeric, "numeric"},
    {QuestionType::order, "order"},
}};
std::string_view question_type_name(QuestionType type);
// The names of kQuestionTypes, in its order.
std::vector<std::string> question_type_names();

struct Question {
  std::string bank;     // the bank's id
  std::string file;     // the file it came from
  std::string pointer;  // "/questions/3"
  std::string id;
  QuestionType type = QuestionType::single;
  std::string topic;
  std::string prompt;
  std::string explanation;
  Source source;
  std::optional<Proof> proof;
  std::string unprovable;
  int difficulty = 0;      // 0: not given
  std::string concept_id;  // the one idea it tests (a short id); empty when not given
  std::string objective;   // the objective it tests, as written; empty when not given
  // Questions of other objectives that ask this one's fact: no form holds it with any of them.
  std::vector<Requirement> same_fact_as;
  std::vector<LintWaiver> lint_allow;
  // single, multi:
  std::vector<Option> options;
  // truefalse:
  bool answer = false;
  std::string trap;
  std::optional<Predicate> claim;
  // numeric:
  NumericKey key;
  std::optional<Template> templ;
  std::vector<Distractor> distractors;
  // order:
  std::vector<Step> steps;

  // The objective forms, drill and readiness count it under: its own; in a bank written before
  // objectives, its concept; else the question alone.
  const std::string& objective_id() const {
    return !objective.empty() ? objective : !concept_id.empty() ? concept_id : id;
  }
};

struct Bank {
  std::string file;      // as given, for messages
  bool builtin = false;  // embedded in the binary (proven by CI), not from --bank
  // FNV-1a over the JSON text it was loaded from (0 for a bank built in code): two banks of the
  // same id and another content tell apart by it.
  std::uint64_t content_hash = 0;
  std::string id;
  std::string title;
  std::string lesson;
  std::string description;
  // When the bank's content last changed, as written ("2026-12-01" or "2026-12-01T09:00:00Z";
  // empty when not given) and as a time. An Anki package dates its notes by it, so a note that
  // changed imports as newer (print/apkg.hpp).
  std::string revised;
  std::optional<TimePoint> revised_at;
  std::vector<LintWaiver> lint_allow;      // bank-level rules (tf-balance, length-cue) waived
  std::vector<Requirement> prerequisites;  // "requires": banks whose topics come before all of
                                           // this bank's
  std::vector<Topic> topics;
  std::vector<Trap> traps;
  std::vector<Objective> objectives;
  std::vector<OutOfScope> out_of_scope;  // lesson paragraphs no objective asks, and why
  std::vector<Question> questions;

  const Topic* find_topic(std::string_view id) const;
  const Trap* find_trap(std::string_view id) const;
};

}  // namespace proofdeck::bank
