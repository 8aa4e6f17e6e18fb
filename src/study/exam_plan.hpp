// A study plan toward the learner's exam date: which reviews (early ones too) and which new
// cards to take each day so that the most cards are recalled at 09:00 on the exam day, within the
// minutes the learner has a day. FSRS's retrievability with the weights in use predicts recall.
// Greedy, day by day: take the review or new card with the largest gain in exam-day recall per
// second until the day's minutes are spent (docs/study.md, "Toward the exam date", states the
// assumptions). Pure computation; drill follows the plan's first day and stats shows it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bank/model.hpp"
#include "study/drill_plan.hpp"
#include "study/fsrs.hpp"
#include "study/learner_day.hpp"
#include "study/progress.hpp"

namespace proofdeck::study {

inline constexpr double kDefaultSecondsPerCard = 20.0;  // before any timed drill answer
inline constexpr int kDefaultMinutesPerDay = 30;

// The seconds a review takes this learner: the median answer time of their latest 200 timed
// drill answers, else kDefaultSecondsPerCard.
double seconds_per_card(const std::vector<ReviewRow>& rows);

// 09:00 local on `date`: the moment the plan maximises recall at.
TimePoint exam_moment(const LearnerDays& days, LearnerDate date);

// A card the plan may take: its question, and its schedule once drill has shown it (nullopt:
// new). New cards are given in the order they may be introduced (the study order).
struct PlanCard {
  const bank::Question* question = nullptr;
  std::optional<Card> card;
};

struct PlanDay {
  LearnerDate date;
  std::vector<const bank::Question*> reviews;  // largest gain per second first
  std::vector<const bank::Question*> fresh;    // new cards, in the order they are introduced
  double seconds = 0.0;                        // expected
};

struct ExamPlan {
  LearnerDate date;   // the exam's
  int days_left = 0;  // learner days from today to the exam day
  int minutes_per_day = kDefaultMinutesPerDay;
  double seconds_per_card = kDefaultSecondsPerCard;
  std::vector<PlanDay> days;     // today first, up to the day before the exam
  double reviews_per_day = 0.0;  // mean over the days
  double new_per_day = 0.0;
  double minutes_used_per_day = 0.0;
  int cards = 0;                     // selected
  int drilled_on_the_day = 0;        // of them, shown by the exam day
  double expected_recall_cards = 0;  // share of those recalled on the day (Σ R / drilled)
  int objectives = 0;
  double expected_recall_objectives = 0;  // Σ over objectives of the best R among its cards
  int unseen_objectives = 0;              // no card of theirs shown by the exam day
  int unseen_cards = 0;                   // new cards the plan has no time for
  bool fits = true;                       // every card shown by the exam day
  std::map<std::string, double> recall_on_the_day;  // by question id
};

struct PlanBudget {
  int minutes_per_day = kDefaultMinutesPerDay;
  double seconds_per_card = kDefaultSecondsPerCard;
  double seconds_spent_today = 0.0;  // already drilled today: the first day has that much less
};

// The `selected` questions as cards to plan: those drill has shown with their schedules, then
// the new ones in the order drill deals them (all of them, no burying).
std::vector<PlanCard> plan_cards(ProgressStore& store, const std::vector<bank::Bank>& banks,
                                 const std::vector<const bank::Question*>& selected, TimePoint now);

// The plan toward the exam date saved in `store` for the `selected` questions (new cards in the
// order drill deals them), with the weights, seconds per card and today's drilling the store
// holds; nullopt without an exam date or once the exam day has come.
std::optional<ExamPlan> saved_exam_plan(ProgressStore& store, const std::vector<bank::Bank>& banks,
                                        const std::vector<const bank::Question*>& selected,
                                        TimePoint now);

// Today's part of the plan in place of drill's ordinary queue: cards due in their (re)learning
// steps still come first, then the reviews the plan takes today (early ones too), then its new
// cards; due cards the plan leaves for later wait.
void follow_exam_plan(DrillPlan& queue, const ExamPlan& plan,
                      const std::map<std::string, Card>& cards);

// Readiness's view of the plan: each planned review and new card as a right drill answer at
// 09:00 of its day (now, today), to estimate readiness on the exam day as if the plan were kept.
std::vector<ReviewRow> planned_answers(const ExamPlan& plan, const LearnerDays& days,
                                       TimePoint now);

// The plan from `now` to `exam_date` for `cards` (drilled and new). Throws std::invalid_argument
// unless the exam day is after today.
ExamPlan plan_for_exam(const std::vector<PlanCard>& cards, const Scheduler& scheduler,
                       const LearnerDays& days, TimePoint now, LearnerDate exam_date,
                       const PlanBudget& budget);

}  // namespace proofdeck::study
