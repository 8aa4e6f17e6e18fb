// The exam plan as stats shows it (study/exam_plan_view.hpp).
#include "study/exam_plan_view.hpp"

#include <cmath>

#include <fmt/format.h>

#include "render/theme.hpp"
#include "study/exam_plan.hpp"
#include "study/json_null.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

std::optional<ExamPlanView> exam_plan_view(ProgressStore& store,
                                           const std::vector<bank::Bank>& banks,
                                           const std::vector<const bank::Question*>& questions,
                                           const std::vector<const bank::Topic*>& topics,
                                           const std::vector<ReviewRow>& reviews, TimePoint now,
                                           const ReadinessViewOptions& view,
                                           std::optional<double> readiness_today) {
  if (!store.exam_date()) return std::nullopt;
  const std::vector<PlanCard> cards = plan_cards(store, banks, questions, now);
  const std::optional<ExamPlan> plan = saved_exam_plan(store, cards, now);
  if (!plan) return std::nullopt;
  ExamPlanView v;
  v.date = format_date(plan->date);
  v.days_left = plan->days_left;
  v.minutes_per_day = plan->minutes_per_day;
  v.seconds_per_card = plan->seconds_per_card;
  v.reviews_per_day = plan->reviews_per_day;
  v.new_per_day = plan->new_cards_per_day;
  v.retention = plan->retention;
  v.minutes_used_per_day = plan->minutes_used_per_day;
  v.cards = plan->cards;
  v.drilled_on_the_day = plan->drilled_on_the_day;
  v.expected_recall_cards = plan->expected_recall_cards;
  v.objectives = plan->objectives;
  v.expected_recall_objectives = plan->expected_recall_objectives;
  v.unseen_objectives = plan->unseen_objectives;
  v.unseen_cards = plan->unseen_cards;
  v.fits = plan->fits;
  v.readiness_today = readiness_today;
  const LearnerDays days(store.day_starts_at());
  std::vector<ReviewRow> kept = reviews;
  SchedulerOptions options;
  options.weights = store.fsrs_weights();
  const std::vector<ReviewRow> planned =
      planned_answers(*plan, cards, Scheduler(options), days, now);
  kept.insert(kept.end(), planned.begin(), planned.end());
  v.readiness_on_the_day =
      readiness_view(banks, topics, kept, exam_moment(days, plan->date), view).overall;
  return v;
}

void to_json(nlohmann::ordered_json& json, const ExamPlanView& p) {
  json = {{"date", p.date},
          {"days_left", p.days_left},
          {"minutes_per_day", p.minutes_per_day},
          {"retention", p.retention},
          {"seconds_per_card", p.seconds_per_card},
          {"reviews_per_day", p.reviews_per_day},
          {"new_per_day", p.new_per_day},
          {"minutes_used_per_day", p.minutes_used_per_day},
          {"cards", p.cards},
          {"drilled_on_the_day", p.drilled_on_the_day},
          {"expected_recall_cards", p.expected_recall_cards},
          {"objectives", p.objectives},
          {"expected_recall_objectives", p.expected_recall_objectives},
          {"unseen_objectives", p.unseen_objectives},
          {"unseen_cards", p.unseen_cards},
          {"fits", p.fits},
          {"readiness_on_the_day", or_null(p.readiness_on_the_day)},
          {"readiness_today", or_null(p.readiness_today)}};
}

std::string render_exam_plan(const ExamPlanView& p, const Theme& theme, int width,
                             const std::string& program) {
  const std::string load = fmt::format(
      "Exam on {} ({}): about {} {} + {} new a day (~{} min, at {} desired retention); "
      "expected recall on the day {} of drilled cards, {} of {} objectives.",
      p.date, text::count(p.days_left, "day", "days"),
      text::format_number(std::round(p.reviews_per_day)),
      std::round(p.reviews_per_day) == 1.0 ? "review" : "reviews",
      text::format_number(std::round(p.new_per_day)),
      text::format_number(std::round(p.minutes_used_per_day)), text::percent(p.retention),
      text::percent(p.expected_recall_cards),
      text::format_number(std::round(p.expected_recall_objectives)), p.objectives);
  std::string out = "\n" +
                    wrap_labelled("Toward the exam", theme.emphasis,
                                  "(drill follows this plan; docs/study.md)", width) +
                    text::wrap_block(load, width, "  ", "    ");
  if (!p.fits) {
    out += wrap_styled(
        theme.warning,
        fmt::format("Too close: at {} min a day, {} stay unseen on the exam day "
                    "({} objectives). More minutes: {} drill --minutes-a-day N",
                    p.minutes_per_day, text::count(p.unseen_cards, "new card", "new cards"),
                    p.unseen_objectives, program),
        width, "  ", "    ");
  }
  if (p.readiness_on_the_day) {
    out += text::wrap_block(
        fmt::format("Readiness on the exam day, if you keep to the plan and answer its reviews "
                    "right: {} ({}).",
                    text::percent(*p.readiness_on_the_day),
                    p.readiness_today ? "today " + text::percent(*p.readiness_today)
                                      : std::string("today: no estimate yet")),
        width, "  ", "    ");
  }
  return out;
}

}  // namespace proofdeck::study
