// `drill --simulate` (cli/drill_simulate.hpp).
#include "cli/drill_simulate.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/bank_options.hpp"
#include "cli/study_run.hpp"
#include "render/theme.hpp"
#include "study/exam_plan.hpp"
#include "study/progress.hpp"
#include "study/workload.hpp"
#include "text/number.hpp"

namespace proofdeck::cli {

namespace {

// The minutes of each day as a row of block characters, days bucketed to fit `columns`: each
// character the mean of its days, its height the square root of its share of the busiest (so a
// few days of new cards do not flatten the months of reviews after them).
std::string minutes_chart(const std::vector<double>& minutes, int columns) {
  static const char* const kBlocks[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  const std::size_t n = minutes.size();
  const std::size_t width = std::clamp<std::size_t>(static_cast<std::size_t>(columns), 1, n);
  std::vector<double> bucket(width, 0.0);
  for (std::size_t c = 0; c < width; ++c) {
    const std::size_t from = c * n / width, to = (c + 1) * n / width;
    for (std::size_t d = from; d < to; ++d)
      bucket[c] += minutes[d];
    bucket[c] /= static_cast<double>(std::max<std::size_t>(to - from, 1));
  }
  const double top = *std::max_element(bucket.begin(), bucket.end());
  std::string out;
  for (const double b : bucket) {
    const auto level =
        top > 0.0 ? static_cast<std::size_t>(std::lround(std::sqrt(b / top) * 8.0)) : 0;
    out += kBlocks[std::min<std::size_t>(level, 8)];
  }
  return out;
}

nlohmann::ordered_json row_json(const study::WorkloadRow& row) {
  return {{"retention", row.retention},
          {"reviews_per_day", row.reviews_per_day},
          {"minutes_per_day", row.minutes_per_day},
          {"remembered", row.remembered},
          {"minutes_per_remembered", row.minutes_per_remembered}};
}

std::string row_text(const std::string& label, double reviews, double minutes, double remembered,
                     double per) {
  return fmt::format("  {:<10}{:>8.1f}{:>8.1f}{:>11.1f}{:>9.2f}\n", label, reviews, minutes,
                     remembered, per);
}

}  // namespace

void run_drill_simulate(Context& context, study::DrillOptions options, int days,
                        const std::string& format) {
  const LoadedBanks loaded = load_banks(context);
  const std::vector<const bank::Question*> selected = selected_questions(loaded, options.filters);
  std::optional<study::ProgressStore> existing =
      study::ProgressStore::open_existing(data_dir(context));
  study::ProgressStore store = existing ? std::move(*existing) : study::ProgressStore::empty();
  const study::TimePoint now = resolve_now(context);
  const study::LearnerDays learner(store.day_starts_at());
  const std::vector<study::PlanCard> cards = study::plan_cards(store, loaded.banks, selected, now);
  study::WorkloadOptions workload;
  workload.days = days;
  workload.new_per_day = options.new_per_day;
  workload.seconds_per_card = study::seconds_per_card(store.reviews());

  std::vector<study::WorkloadRow> rows;
  std::optional<std::size_t> in_use;
  for (const double retention : study::kSimulatedRetentions) {
    study::SchedulerOptions scheduler;
    scheduler.weights = store.fsrs_weights();
    scheduler.desired_retention = retention;
    rows.push_back(
        study::simulate_workload(cards, study::Scheduler(scheduler), learner, now, workload));
    if (std::abs(retention - options.retention) < 1e-9) in_use = rows.size() - 1;
  }
  const std::optional<study::ExamPlan> plan = study::saved_exam_plan(store, cards, now);
  const double plan_minutes =
      plan ? plan->minutes_used_per_day * static_cast<double>(plan->days_left) : 0.0;
  const double plan_remembered =
      plan ? plan->expected_recall_cards * static_cast<double>(plan->drilled_on_the_day) : 0.0;

  if (format == "json") {
    nlohmann::ordered_json json = {{"days", days},
                                   {"seconds_per_card", workload.seconds_per_card},
                                   {"new_per_day", workload.new_per_day},
                                   {"rows", nlohmann::ordered_json::array()},
                                   {"exam_plan", nullptr}};
    for (const study::WorkloadRow& row : rows)
      json["rows"].push_back(row_json(row));
    if (plan) {
      json["exam_plan"] = {
          {"date", study::format_date(plan->date)},
          {"reviews_per_day", plan->reviews_per_day},
          {"minutes_per_day", plan->minutes_used_per_day},
          {"remembered", plan_remembered},
          {"minutes_per_remembered", plan_remembered > 0.0 ? plan_minutes / plan_remembered : 0.0}};
    }
    context.io.out << json.dump(2) << "\n";
    return;
  }
  const int width = text_width(context);
  std::string out = wrap_styled(
      {},
      fmt::format("The next {} of drilling {} at {} s a card and {} new a day, in expected "
                  "values (no sampling): the recalled rated Good, the forgotten Again and "
                  "relearned once.",
                  text::count(days, "day", "days"), text::count(cards.size(), "card", "cards"),
                  text::format_number(std::round(workload.seconds_per_card * 10) / 10),
                  options.new_per_day),
      width);
  out += fmt::format("  {:<10}{:>8}{:>8}{:>11}{:>9}\n", "retention", "reviews", "minutes",
                     "remembered", "min/card");
  out += fmt::format("  {:<10}{:>8}{:>8}{:>11}{:>9}\n", "", "a day", "a day",
                     fmt::format("on day {}", days), "kept");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out += row_text(text::percent(rows[i].retention) + (in_use == i ? " *" : ""),
                    rows[i].reviews_per_day, rows[i].minutes_per_day, rows[i].remembered,
                    rows[i].minutes_per_remembered);
  }
  if (plan) {
    out += row_text("exam plan", plan->reviews_per_day, plan->minutes_used_per_day, plan_remembered,
                    plan_remembered > 0.0 ? plan_minutes / plan_remembered : 0.0);
    out += wrap_styled(
        context.theme.dim,
        fmt::format("exam plan: to {} ({}), remembered on the exam day",
                    study::format_date(plan->date), text::count(plan->days_left, "day", "days")),
        width, "  ", "    ");
  }
  if (in_use) {
    const study::WorkloadRow& row = rows[*in_use];
    out += wrap_styled(
        context.theme.dim,
        fmt::format("* the desired retention in use (--retention). Its minutes a "
                    "day, today to day {} (busiest {:.1f}; height ∝ √minutes):",
                    days, *std::max_element(row.minutes_by_day.begin(), row.minutes_by_day.end())),
        width, "  ", "    ");
    out += "  " + minutes_chart(row.minutes_by_day, width - 4) + "\n";
  }
  context.io.out << out;
}

}  // namespace proofdeck::cli
