// The exam plan against the ordinary schedule, on simulated learners (sim_learner.hpp) with an
// exam 30 days out. Each learner lives the 30 days twice from one seed — the same ability,
// misconceptions, memory and pace — drilling every evening through the real code: (A) toward the
// exam date at 20 minutes a day, as `drill --exam-date` plans it; (B) the ordinary schedule at
// the desired retention, searched over 0.70–0.97, whose minutes over the 30 days come within 5% of
// A's. The outcome is the truth on the exam morning (09:00): the learner's expected score on a
// fresh exam form. docs/study.md reports the paired differences (scripts/readiness --exam-plan).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bank/model.hpp"
#include "readiness_sim.hpp"

namespace readiness_sim {

inline constexpr int kPlanDays = 30;
inline constexpr int kPlanMinutesPerDay = 20;
inline constexpr double kMedianSecondsPerReview = 15.0;
inline constexpr double kSecondsSpreadBetweenLearners = 0.4;  // sd of log seconds
inline constexpr double kSecondsSpreadWithinLearner = 0.3;    // one answer's around its median

// One learner's two lives.
struct PlanPair {
  int learner = 0;
  std::string stratum;
  double seconds_per_review = 0;  // the learner's median
  double plan_score = 0;          // true expected score on the exam morning, a share
  double ordinary_score = 0;
  double plan_minutes = 0;  // drilled over the 30 days
  double ordinary_minutes = 0;
  double plan_retention = 0;      // the plan's desired retention on the first day
  double ordinary_retention = 0;  // B's, as searched
  bool matched = false;           // B's minutes within 5% of A's
  double difference() const { return plan_score - ordinary_score; }
};

// The desired retention, over 0.70–0.97, at which a life's minutes come nearest `target`:
// bisection (more retention, more reviews) until within `tolerance` × target, 8 steps at most.
// `live(retention)` lives it; `minutes_of` reads its minutes. Returns the nearest life and its
// retention.
template <typename Live, typename Minutes>
auto match_minutes(double target, double tolerance, Live live, Minutes minutes_of)
    -> std::pair<decltype(live(0.0)), double> {
  using Life = decltype(live(0.0));
  constexpr double kLowest = 0.70, kHighest = 0.97;
  constexpr int kSteps = 8;
  const auto off = [&](const Life& l) { return std::fabs(minutes_of(l) - target); };
  const auto within = [&](const Life& l) { return off(l) <= tolerance * target; };
  double low = kLowest, high = kHighest;
  Life at_low = live(low);
  if (within(at_low) || minutes_of(at_low) > target) return {at_low, low};
  Life at_high = live(high);
  if (within(at_high) || minutes_of(at_high) < target) return {at_high, high};
  std::pair<Life, double> nearest = target - minutes_of(at_low) < minutes_of(at_high) - target
                                        ? std::pair{at_low, low}
                                        : std::pair{at_high, high};
  for (int step = 0; step < kSteps; ++step) {
    const double middle = (low + high) / 2.0;
    Life at_middle = live(middle);
    if (off(at_middle) < off(nearest.first)) nearest = {at_middle, middle};
    if (within(at_middle)) break;
    (minutes_of(at_middle) < target ? low : high) = middle;
  }
  return nearest;
}

// Learner k's seed: their ability, memory and study draws in both lives.
std::uint64_t plan_learner_seed(const Config& config, int k);

// The time model: a learner's median seconds a review, lognormal across learners (median 15 s,
// sd 0.4 in log), drawn from their seed; each answer then takes that times a lognormal factor
// (sd 0.3 in log).
double review_seconds_median(std::uint64_t learner_seed);

// `learners` learners of the configuration (spread evenly over the strata, learner k drawn from
// the configuration's seed and k), on `threads` threads; pairs in learner order.
std::vector<PlanPair> simulate_exam_plans(const Config& config,
                                          const std::vector<proofdeck::bank::Bank>& banks,
                                          int learners, int threads);

// The paired mean difference A − B in points, with its 95% percentile bootstrap interval (pairs
// resampled whole, 2,000 times, from a fixed seed): of the pairs, or of differences given as
// shares.
struct PairedDifference {
  double mean = 0, low = 0, high = 0;
};
PairedDifference paired_difference(const std::vector<PlanPair>& pairs);
PairedDifference paired_difference(const std::vector<double>& differences);

// The pairs of each configuration as docs/study.md's table and its notes.
std::string exam_plan_markdown(
    const std::vector<std::pair<std::string, std::vector<PlanPair>>>& configurations);

}  // namespace readiness_sim
