// A study plan toward the learner's exam date: the desired retention and new cards a day that
// leave the most cards recalled at 09:00 on the exam day, within the minutes the learner has a
// day. FSRS's retrievability with the weights in use predicts recall, and the workload simulator
// (study/workload.hpp) prices each candidate in expected values (docs/study.md, "Toward the exam
// date", states the method and its assumptions). Pure computation; drill follows the plan and
// stats shows it.
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
#include "study/workload.hpp"

namespace proofdeck::study {

inline constexpr int kDefaultMinutesPerDay = 30;

// The seconds a review takes this learner: the median answer time of their latest 200 timed
// drill answers, else kDefaultSecondsPerCard.
double seconds_per_card(const std::vector<ReviewRow>& rows);

// 09:00 local on `date`: the moment the plan maximises recall at.
TimePoint exam_moment(const LearnerDays& days, LearnerDate date);

// The desired retentions and new cards a day the plan chooses among.
inline constexpr std::array<double, 10> kPlanRetentions{0.70, 0.75, 0.80, 0.85, 0.88,
                                                        0.90, 0.92, 0.94, 0.96, 0.97};
inline constexpr std::array<int, 14> kPlanNewPerDay{1,  2,  3,  4,  5,  6,   8,
                                                    10, 15, 20, 30, 50, 100, 200};

struct ExamPlan {
  LearnerDate date;   // the exam's
  int days_left = 0;  // learner days from today to the exam day
  int minutes_per_day = kDefaultMinutesPerDay;
  double seconds_per_card = kDefaultSecondsPerCard;
  double retention = 0.9;  // the desired retention drill schedules with until the exam
  int new_per_day = 0;     // new cards a day (fewer on a day the minutes run out)
  std::vector<const bank::Question*> fresh_today;  // the new cards to learn today
  double reviews_per_day = 0.0;                    // mean over the days, expected
  double new_cards_per_day = 0.0;
  double minutes_used_per_day = 0.0;
  double busiest_minutes = 0.0;      // the fullest day's
  int cards = 0;                     // selected
  int drilled_on_the_day = 0;        // of them, shown by the exam day
  double expected_recall_cards = 0;  // share of those recalled on the day
  int objectives = 0;
  double expected_recall_objectives = 0;  // expected count: an objective by the max over its cards
  int unseen_objectives = 0;              // no card of theirs shown by the exam day
  int unseen_cards = 0;                   // new cards the minutes leave out
  bool fits = true;                       // every card shown by the exam day, within the minutes
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

// The plan toward the exam date saved in `store` for `cards` (plan_cards), with the weights,
// seconds per card and today's drilling the store holds; nullopt without an exam date or once
// the exam day has come.
std::optional<ExamPlan> saved_exam_plan(ProgressStore& store, const std::vector<PlanCard>& cards,
                                        TimePoint now);

// Today's part of the plan in drill's queue: the due cards as ever, and today's new cards from
// the plan rather than --new (drill schedules them at the plan's retention).
void follow_exam_plan(DrillPlan& queue, const ExamPlan& plan);

// Readiness's view of the plan kept: each card shown by the exam day answered right at each review
// the plan's schedule gives it when recalled (new cards on the day the plan learns them), at
// 09:00 of those days (today: now).
std::vector<ReviewRow> planned_answers(const ExamPlan& plan, const std::vector<PlanCard>& cards,
                                       const Scheduler& scheduler, const LearnerDays& days,
                                       TimePoint now);

// The plan from `now` to `exam_date` for `cards` (drilled and new; new ones in the order they
// come): of kPlanRetentions × kPlanNewPerDay, the schedule that leaves the most cards expected to
// be recalled on the exam day while no day asks more than the minutes (ties: fewer minutes);
// when none fits, the one that overruns least. Throws std::invalid_argument unless the exam day
// is after today.
ExamPlan plan_for_exam(const std::vector<PlanCard>& cards, const Scheduler& scheduler,
                       const LearnerDays& days, TimePoint now, LearnerDate exam_date,
                       const PlanBudget& budget);

}  // namespace proofdeck::study
