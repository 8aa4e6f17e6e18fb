// Chances readiness and stats compute with: a blind guess at a question, and at least k of
// independent events.
#pragma once

#include <vector>

#include "bank/model.hpp"

namespace proofdeck::study {

// The chance of answering a question right by a blind guess: 1/n for single choice with n
// options, 1/(2^n − 1) for select-all with n options (any non-empty choice), 1/2 for true or
// false, 1/n! for n steps to order, 0 for a number to type.
double guess_chance(const bank::Question& question);

// The chance that at least `needed` of independent events with these probabilities happen (the
// upper tail of the Poisson-binomial distribution); 1 when needed ≤ 0.
double chance_of_at_least(const std::vector<double>& probabilities, int needed);

}  // namespace proofdeck::study
