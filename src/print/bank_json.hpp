// A loaded bank written back as bank JSON (questions/README.md), normalized: keys in one order,
// every default filled in (`correct: false`, `relative: false`, a predicate's `tolerance`, empty
// `args`, `show`, `predicates`, `constraints` and `distractors`), whole numbers written as
// integers. Loading the output with --bank gives the same bank, so `check` gives the same verdicts.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "bank/model.hpp"

namespace proofdeck::print {

// The bank with only the given questions (all of them when `questions` is null); topics and traps
// are kept whole so every reference still resolves.
nlohmann::ordered_json bank_json(const bank::Bank& bank,
                                 const std::vector<const bank::Question*>* questions = nullptr);

}  // namespace proofdeck::print
