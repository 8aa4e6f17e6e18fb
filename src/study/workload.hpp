// The workload simulator: what drilling costs and keeps over the coming days at each desired
// retention, as Anki's simulator answers "how many reviews and minutes a day, and how much do I
// remember?" — here in expected values, no sampling, so the same store gives the same figures.
// Each card is a set of weighted branches of its memory: a review splits a branch into the
// recalled one (rated Good, as likely as its retrievability) and the forgotten one (Again, then
// one relearning step, Good); branches that meet again merge. New cards come --new a day in
// drill's order and are learned on their first day (Good at each of their two steps).
#pragma once

#include <array>
#include <limits>
#include <optional>
#include <vector>

#include "bank/model.hpp"
#include "study/fsrs.hpp"
#include "study/learner_day.hpp"

namespace proofdeck::study {

inline constexpr std::array<double, 6> kSimulatedRetentions{0.70, 0.75, 0.80, 0.85, 0.90, 0.95};
inline constexpr double kDefaultSecondsPerCard = 20.0;  // before any timed drill answer

// A card to simulate or plan: its question, and its schedule once drill has shown it (nullopt:
// new). New cards are given in the order they may be introduced (the study order).
struct PlanCard {
  const bank::Question* question = nullptr;
  std::optional<Card> card;
};

// Whether drill has shown the card: a schedule with a memory, a last review and a due date.
bool shown_before(const PlanCard& card);

// A shown card's learner days counted from `today`: its last review's, and the one it falls due
// (never before today, nor on the day of its last review).
struct ShownDays {
  int last = 0;
  int due = 0;
};
ShownDays shown_days(const Card& card, const LearnerDays& days, LearnerDate today);

// A new card's memory once learned on its first day: rated Good, then Good again at its step.
struct LearnedMemory {
  double stability = 0.0;
  double difficulty = 0.0;
};
LearnedMemory first_day_memory(const Scheduler& scheduler);

struct WorkloadRow {
  double retention = 0.0;
  double reviews_per_day = 0.0;  // answers to learned cards, relearning steps included
  double minutes_per_day = 0.0;  // every answer, new cards' steps included
  double remembered = 0.0;       // Σ retrievability over the cards on the last day
  double minutes_per_remembered = 0.0;
  std::vector<double> minutes_by_day;  // day 0 (today) first
  std::vector<double> reviews_by_day;
  std::vector<int> new_by_day;
  int introduced = 0;         // new cards learned over the days
  double shown_recall = 0.0;  // mean retrievability, on the last day, of the cards shown by then
};

struct WorkloadOptions {
  int days = 365;
  int new_per_day = 20;
  double seconds_per_card = kDefaultSecondsPerCard;
  // A day's new cards stop where the day's minutes would be exceeded (reviews are always done);
  // the first day has `spent_today` seconds less.
  double seconds_per_day = std::numeric_limits<double>::infinity();
  double spent_today = 0.0;
};

// One row for `retention`: `cards` (drilled and new, new ones in the order they come) from the
// day `now` falls on, over options.days days; remembered is counted on the day after the last.
WorkloadRow simulate_workload(const std::vector<PlanCard>& cards, const Scheduler& scheduler,
                              const LearnerDays& days, TimePoint now,
                              const WorkloadOptions& options);

}  // namespace proofdeck::study
