// The ids of `check --lint`'s item-writing rules (questions/README.md § Lint), known to the
// loader so a waiver naming no rule is refused at load.
#pragma once

#include <array>
#include <string_view>

namespace proofdeck::bank {

inline constexpr std::array<std::string_view, 13> kLintRules = {
    "few-options",     "longest-key",       "length-cue",       "dismissive-option",
    "tf-balance",      "answer-in-stem",    "letter-reference", "near-duplicate",
    "no-concept",      "constant-template", "template-literal", "precision",
    "concept-overload"};

inline bool is_lint_rule(std::string_view rule) {
  for (const std::string_view known : kLintRules) {
    if (known == rule) return true;
  }
  return false;
}

}  // namespace proofdeck::bank
