// Drilling with confidence against drilling without, on simulated learners who hold
// misconceptions and correct them after feedback as the hypercorrection model has it
// (sim_learner.hpp, Hypercorrection — committed before this experiment ran). Each learner lives
// 30 evenings twice from one seed, drilling every card due and 20 new a day: (A) `drill
// --confidence` at drill's 90% desired retention, how sure rating each answer and a miss at 3
// hurried back, as drill does it; (B) plain drill, "How was it?" answered by how easily the
// learner knew it, at the retention (searched over 0.70–0.97) whose minutes over the 30 evenings
// come within 2% of A's. The outcome is the recall of the
// objectives a misconception bit at the start — the mean chance of a right answer over their
// items — the morning after the last evening and a week later. docs/study.md reports it
// (scripts/readiness --confidence), whatever its sign.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bank/model.hpp"
#include "exam_plan_sim.hpp"
#include "readiness_sim.hpp"

namespace readiness_sim {

inline constexpr int kConfidenceDays = 30;
inline constexpr double kConfidenceRetention = 0.9;
inline constexpr double kConfidenceMinutesTolerance = 0.02;
inline constexpr int kConfidenceWeekAfter = 7;

// What one life came to.
struct ConfidenceLife {
  double next_morning = 0;  // recall of the objectives a misconception bit at the start
  double week_later = 0;
  double score = 0;       // expected share right on a fresh exam form, the next morning
  double minutes = 0;     // drilled over the 30 evenings
  int held_at_start = 0;  // misconceptions the bank's traps name that the learner held
  int held_at_end = 0;    // …still (or again) held a week after the last evening
  int confident_misses = 0;
};

// One learner's two lives.
struct ConfidencePair {
  int learner = 0;
  std::string stratum;
  int trap_objectives = 0;  // objectives a held misconception bit at the start
  ConfidenceLife with, without;
  double without_retention = 0;  // B's, as searched
  bool matched = false;          // B's minutes within 2% of A's
};

// What A and B do, beside drilling with confidence or without. The first, as drill does it, is
// the experiment; the others take one thing away to show what the difference comes from: A's miss
// at 3 brought back (`hurries_back`), and B's "How was it?" answered by the true chance of a
// right answer, a perfect judge, or by the same noisy feeling A's confidence comes from
// (`rates_by_feeling`).
struct ConfidenceVariant {
  std::string name;
  bool hurries_back = true;
  bool rates_by_feeling = false;
};
const std::vector<ConfidenceVariant>& confidence_variants();

// `learners` learners of the configuration (strata in turn, drawn from the configuration's seed
// and k as the exam-plan experiment draws them), on `threads` threads; pairs in learner order.
std::vector<ConfidencePair> simulate_confidence(
    const Config& config, const std::vector<proofdeck::bank::Bank>& banks, int learners,
    int threads, const ConfidenceVariant& variant = confidence_variants().front());

// The pairs of each configuration and variant as docs/study.md's table: the paired differences
// with their 95% bootstrap intervals (learners without a misconception on the bank's objectives
// left out).
struct ConfidenceRun {
  std::string config;
  std::string variant;
  std::vector<ConfidencePair> pairs;
};
std::string confidence_markdown(const std::vector<ConfidenceRun>& runs);

}  // namespace readiness_sim
