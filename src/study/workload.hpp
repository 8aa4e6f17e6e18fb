// The workload simulator: what drilling costs and keeps over the coming days at each desired
// retention, as Anki's simulator answers "how many reviews and minutes a day, and how much do I
// remember?" — here in expected values, no sampling, so the same store gives the same figures.
// Each card is a set of weighted branches of its memory: a review splits a branch into the
// recalled one (rated Good, as likely as its retrievability) and the forgotten one (Again, then
// one relearning step, Good); branches that meet again merge. New cards come --new a day in
// drill's order and are learned on their first day (Good at each of their two steps).
#pragma once

#include <optional>
#include <vector>

#include "bank/model.hpp"
#include "study/exam_plan.hpp"
#include "study/fsrs.hpp"
#include "study/learner_day.hpp"

namespace proofdeck::study {

inline constexpr std::array<double, 6> kSimulatedRetentions{0.70, 0.75, 0.80, 0.85, 0.90, 0.95};

struct WorkloadRow {
  double retention = 0.0;
  double reviews_per_day = 0.0;  // answers to learned cards, relearning steps included
  double minutes_per_day = 0.0;  // every answer, new cards' steps included
  double remembered = 0.0;       // Σ retrievability over the cards on the last day
  double minutes_per_remembered = 0.0;
  std::vector<double> minutes_by_day;  // day 0 (today) first
};

struct WorkloadOptions {
  int days = 365;
  int new_per_day = 20;
  double seconds_per_card = kDefaultSecondsPerCard;
};

// One row for `retention`: `cards` (drilled and new, new ones in the order they come) from the
// day `now` falls on, over options.days days; remembered is counted on the day after the last.
WorkloadRow simulate_workload(const std::vector<PlanCard>& cards, const Scheduler& scheduler,
                              const LearnerDays& days, TimePoint now,
                              const WorkloadOptions& options);

}  // namespace proofdeck::study
