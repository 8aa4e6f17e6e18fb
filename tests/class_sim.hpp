// A simulated class taking one form, for testing `proofdeck analyze` against what was planted.
// Each question gets an item-response curve (discrimination a drawn from 0.5–2, difficulty b from
// N(0, 1)); each learner an ability θ from N(mean, 1). A learner who knows the answer
// (probability σ(a(θ − b))) gives it; one who does not chooses a wrong option whose misconception
// they hold — each trap is held with probability σ(μ − θ), μ drawn per trap, so weaker learners
// hold more — and guesses among all the options when they hold none. Planted faults change one
// question each: its key is wrong, a distractor draws the strong learners, or everyone gets it
// right. (The readiness simulator's learner model lives inside its drill loop and is not per
// option, so this small model is its own.)
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bank/model.hpp"
#include "study/analysis.hpp"

namespace class_sim {

enum class Plant {
  none,
  wrong_key,         // the bank's key is wrong: who knows the topic chooses another option
  upper_distractor,  // a distractor only the strong learners choose (an ambiguity they see)
  everyone_right     // 99% answer it right whatever their ability
};

struct ClassOptions {
  int learners = 200;
  double ability_mean = 0.5;     // the class's mean ability against the items' mean difficulty
  std::uint64_t seed = 0;        // draws the items' curves, the traps and the learners
  std::uint64_t form_seed = 42;  // the seed the reports say the form was drawn with
};

// One class's reports (mode "exam", every learner answers every question of `form`), in learner
// order. `plants`: question id → its planted fault (single-choice questions only).
std::vector<proofdeck::study::SessionReport> simulate_class(
    const std::vector<const proofdeck::bank::Question*>& form,
    const std::map<std::string, Plant>& plants, const ClassOptions& options,
    const std::vector<proofdeck::bank::Bank>& banks);

// A report as `exam --report FILE` writes it (the fields analyze reads).
std::string report_json(const proofdeck::study::SessionReport& report,
                        const std::vector<proofdeck::bank::Bank>& banks);

// A bank of `questions` single-choice questions of four options, each wrong option with its own
// trap, ids q01, q02, …: a form for the tests that is not the built-in banks.
proofdeck::bank::Bank synthetic_bank(int questions);

}  // namespace class_sim
