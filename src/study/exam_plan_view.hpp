// What stats shows of the plan toward the exam date (study/exam_plan.hpp): its daily load, the
// recall it expects on the day, and readiness on the day as if the plan were kept, beside
// today's.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/model.hpp"
#include "render/theme.hpp"
#include "study/progress.hpp"
#include "study/readiness_view.hpp"

namespace proofdeck::study {

struct ExamPlanView {
  std::string date;  // "2027-01-20"
  int days_left = 0;
  int minutes_per_day = 0;
  double retention = 0.0;  // the desired retention the plan drills at
  double seconds_per_card = 0.0;
  double reviews_per_day = 0.0;
  double new_per_day = 0.0;
  double minutes_used_per_day = 0.0;
  int cards = 0;
  int drilled_on_the_day = 0;
  double expected_recall_cards = 0.0;  // share of the cards drilled by then
  int objectives = 0;
  double expected_recall_objectives = 0.0;  // expected count
  int unseen_objectives = 0;
  int unseen_cards = 0;
  bool fits = true;
  std::optional<double> readiness_on_the_day;  // overall, as if the plan were kept
  std::optional<double> readiness_today;
};

// The plan over every loaded question, nullopt without an exam date or once its day has come.
// `reviews` are the store's; `view` the options stats estimates readiness with.
std::optional<ExamPlanView> exam_plan_view(ProgressStore& store,
                                           const std::vector<bank::Bank>& banks,
                                           const std::vector<const bank::Question*>& questions,
                                           const std::vector<const bank::Topic*>& topics,
                                           const std::vector<ReviewRow>& reviews, TimePoint now,
                                           const ReadinessViewOptions& view,
                                           std::optional<double> readiness_today);

// {"date", "days_left", "minutes_per_day", "retention", "seconds_per_card", "reviews_per_day",
// "new_per_day", "minutes_used_per_day", "cards", "drilled_on_the_day",
// "expected_recall_cards", "objectives", "expected_recall_objectives", "unseen_objectives",
// "unseen_cards", "fits", "readiness_on_the_day", "readiness_today"}.
void to_json(nlohmann::ordered_json& json, const ExamPlanView& plan);

// "Exam on 2027-01-20 (20 days): about 12 reviews + 4 new a day (~25 min); expected recall on the
// day 78% of drilled cards, 61 of 86 objectives", or "Too close: …", and readiness on the day.
std::string render_exam_plan(const ExamPlanView& plan, const Theme& theme, int width,
                             const std::string& program);

}  // namespace proofdeck::study
