// stats' readiness section: the estimate (study/readiness.hpp) as stats reports it, with what it
// rests on. Until answers cover kFirstEstimateObjectives objectives (all of a smaller pool) there
// is no number; while more than a fifth of the objectives have no answer there is no verdict
// against the pass mark; an unseen objective or topic is shown as unseen, its estimate labelled
// as borrowed from the learner's level; and what to study next — the weakest topic, what is
// unseen, the misconceptions still held — each with the command that practises it.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/model.hpp"
#include "render/theme.hpp"
#include "study/progress.hpp"

namespace proofdeck::study {

// Objectives answered before readiness gives a first number (all of them, in a smaller pool).
inline constexpr int kFirstEstimateObjectives = 10;
// The most of the objectives that may be unseen while readiness gives a verdict.
inline constexpr double kMostUnseenForVerdict = 0.2;
// Traps "Next" lists at most.
inline constexpr std::size_t kNextTraps = 3;

struct ReadinessViewOptions {
  double pass = 75.0;        // the pass mark readiness is compared with, percent
  int questions = 20;        // on the exam whose pass chance is given
  bool like_latest = false;  // that exam is as long as the latest one taken
};

// {"pass", "overall" (null before a first estimate), "interval": [low, high] or null,
//  "reaches_pass" (null without a verdict), "verdict": "too-early" | "below" | "at-or-above",
//  "unseen": objectives with no answer, "first_estimate_needs": objectives still to answer
//  before a first estimate (0 once there is one), "covers", "weakest", "weakest_objective",
//  "topics": [{"id", "name", "readiness" (null while unseen), "borrowed" (the estimate while
//  unseen, else null), "seen", "questions"}], "objectives": [{"id", "topic", "readiness",
//  "borrowed", "answered", "questions", "weight"}], "not_yet_seen": [objective ids],
//  "next": {"weakest_topic": {"id", "name", "readiness"} or null, "unseen_topics": [{"id",
//  "name", "unseen", "objectives"}] most unseen first, "traps": [{"id", "name", "held"}] most
//  held first}, "exam": {"questions", "needed", "pass_chance" (null before a first estimate),
//  "like_latest"}}. `topics`: the loaded topics in study order. A trap is held while a question's
// latest answer fell into it.
nlohmann::ordered_json readiness_json(const std::vector<bank::Bank>& banks,
                                      const std::vector<const bank::Topic*>& topics,
                                      const std::vector<ReviewRow>& reviews, TimePoint now,
                                      const ReadinessViewOptions& options);

// The section as text at `width`; its commands begin with `program`.
std::string render_readiness(const nlohmann::ordered_json& readiness, const Theme& theme, int width,
                             const std::string& program);

}  // namespace proofdeck::study
