// The ids of `check --lint`'s item-writing rules (questions/README.md § Lint), known to the
// loader so a waiver naming no rule is refused at load.
#pragma once

#include <array>
#include <string_view>
#include <utility>

namespace proofdeck::bank {

inline constexpr std::array<std::string_view, 23> kLintRules = {
    "few-options",        "longest-key",         "length-cue",           "dismissive-option",
    "tf-balance",         "answer-in-stem",      "letter-reference",     "near-duplicate",
    "no-objective",       "constant-template",   "template-literal",     "precision",
    "objective-overload", "objective-unused",    "stem-cites-material",  "tf-length-cue",
    "absolute-cue",       "untagged-distractor", "cross-bank-duplicate", "uncovered-paragraph",
    "testwise-cue",       "literal-measured",    "distractors-coincide"};

// Rules renamed when banks gained objectives: a waiver naming the old id (third-party banks
// written for proofdeck 0.2) waives the rule that replaced it.
inline constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kLintAliases = {{
    {"no-concept", "no-objective"},
    {"concept-overload", "objective-overload"},
}};

// The rule a waiver's id stands for: itself, or the rule an alias names.
inline std::string_view canonical_lint_rule(std::string_view rule) {
  for (const auto& [alias, current] : kLintAliases) {
    if (alias == rule) return current;
  }
  return rule;
}

inline bool is_lint_rule(std::string_view rule) {
  rule = canonical_lint_rule(rule);
  for (const std::string_view known : kLintRules) {
    if (known == rule) return true;
  }
  return false;
}

}  // namespace proofdeck::bank
