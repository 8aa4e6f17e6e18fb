// The plan toward the exam date (study/exam_plan.hpp).
#include "study/exam_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

namespace proofdeck::study {

namespace {

constexpr std::size_t kTimedAnswers = 200;  // the latest drill answers the seconds come from

}  // namespace

double seconds_per_card(const std::vector<ReviewRow>& rows) {
  std::vector<double> seconds;
  for (auto it = rows.rbegin(); it != rows.rend() && seconds.size() < kTimedAnswers; ++it) {
    if (it->mode == "drill" && it->duration_ms > 0)
      seconds.push_back(static_cast<double>(it->duration_ms) / 1000.0);
  }
  if (seconds.empty()) return kDefaultSecondsPerCard;
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size();
  return n % 2 == 1 ? seconds[n / 2] : (seconds[n / 2 - 1] + seconds[n / 2]) / 2.0;
}

TimePoint exam_moment(const LearnerDays& days, LearnerDate date) {
  return days.start_of(date) + std::chrono::hours(9 - days.starts_at());
}

ExamPlan plan_for_exam(const std::vector<PlanCard>& cards, const Scheduler& fsrs,
                       const LearnerDays& days, TimePoint now, LearnerDate exam_date,
                       const PlanBudget& budget) {
  ExamPlan plan;
  plan.date = exam_date;
  plan.days_left = static_cast<int>((exam_date - days.day_of(now)).count());
  if (plan.days_left < 1) {
    throw std::invalid_argument("an exam plan needs an exam day after today, not " +
                                format_date(exam_date));
  }
  plan.minutes_per_day = budget.minutes_per_day;
  plan.seconds_per_card = budget.seconds_per_card;
  std::vector<std::size_t> fresh;  // new cards, in the order they come
  for (std::size_t i = 0; i < cards.size(); ++i) {
    if (!shown_before(cards[i])) fresh.push_back(i);
  }

  WorkloadOptions options;
  options.days = plan.days_left;
  options.seconds_per_card = budget.seconds_per_card;
  options.seconds_per_day = budget.minutes_per_day * 60.0;
  options.spent_today = budget.seconds_spent_today;
  std::optional<WorkloadRow> best;
  double best_overrun = 0.0;
  for (const double retention : kPlanRetentions) {
    SchedulerOptions scheduler = fsrs.options();
    scheduler.desired_retention = retention;
    const Scheduler candidate(scheduler);
    for (const int new_per_day : kPlanNewPerDay) {
      // More new cards a day than there are new cards changes nothing.
      if (new_per_day > 1 && static_cast<std::size_t>(new_per_day) > fresh.size() &&
          static_cast<std::size_t>(new_per_day / 2) >= fresh.size())
        continue;
      options.new_per_day = new_per_day;
      WorkloadRow row = simulate_workload(cards, candidate, days, now, options);
      // Where no day took as many new cards as it might, the new cards or the minutes ran out
      // first: more a day would change nothing, so the larger numbers are the same schedule.
      const bool capped = std::find(row.new_by_day.begin(), row.new_by_day.end(), new_per_day) !=
                          row.new_by_day.end();
      double busiest = 0.0;
      for (std::size_t d = 0; d < row.minutes_by_day.size(); ++d) {
        const double spent = d == 0 ? budget.seconds_spent_today / 60.0 : 0.0;
        busiest = std::max(busiest, row.minutes_by_day[d] + spent);
      }
      const double overrun = std::max(0.0, busiest - budget.minutes_per_day);
      const bool better =
          !best || overrun < best_overrun - 1e-9 ||
          (overrun <= best_overrun + 1e-9 && (row.remembered > best->remembered + 1e-9 ||
                                              (row.remembered > best->remembered - 1e-9 &&
                                               row.minutes_per_day < best->minutes_per_day)));
      if (better) {
        best = std::move(row);
        best_overrun = overrun;
        plan.retention = retention;
        plan.new_per_day = new_per_day;
        plan.busiest_minutes = busiest;
      }
      if (!capped) break;
    }
  }

  const WorkloadRow& row = *best;
  const double n_days = static_cast<double>(plan.days_left);
  for (const double r : row.reviews_by_day)
    plan.reviews_per_day += r / n_days;
  plan.new_cards_per_day = static_cast<double>(row.introduced) / n_days;
  plan.minutes_used_per_day = row.minutes_per_day;
  const auto today_new = static_cast<std::size_t>(row.new_by_day.empty() ? 0 : row.new_by_day[0]);
  for (std::size_t k = 0; k < today_new && k < fresh.size(); ++k)
    plan.fresh_today.push_back(cards[fresh[k]].question);
  plan.cards = static_cast<int>(cards.size());
  plan.unseen_cards = static_cast<int>(fresh.size()) - row.introduced;
  plan.drilled_on_the_day = plan.cards - plan.unseen_cards;
  plan.expected_recall_cards = row.shown_recall;
  plan.fits = plan.unseen_cards == 0 && best_overrun <= 0.0;
  // Shown by the exam day: the cards drilled before, and the first `introduced` new ones.
  std::vector<bool> shown(cards.size(), true);
  for (std::size_t k = static_cast<std::size_t>(row.introduced); k < fresh.size(); ++k)
    shown[fresh[k]] = false;
  std::map<std::string, int> shown_cards;  // objective → its cards shown by the exam day
  for (std::size_t i = 0; i < cards.size(); ++i)
    shown_cards[cards[i].question->objective_id()] += shown[i] ? 1 : 0;
  plan.objectives = static_cast<int>(shown_cards.size());
  for (const auto& [objective, k] : shown_cards) {
    if (k == 0) ++plan.unseen_objectives;
    // As recalled as the best recalled of its cards shown; the simulator's cards are alike once
    // learned, so that is the mean recall of a shown card.
    if (k > 0) plan.expected_recall_objectives += row.shown_recall;
  }
  return plan;
}

std::optional<ExamPlan> saved_exam_plan(ProgressStore& store, const std::vector<PlanCard>& cards,
                                        TimePoint now) {
  const std::optional<ExamDate> exam = store.exam_date();
  const LearnerDays days(store.day_starts_at());
  if (!exam || exam->date <= days.day_of(now)) return std::nullopt;
  const std::vector<ReviewRow> reviews = store.reviews();
  PlanBudget budget;
  budget.minutes_per_day = exam->minutes_a_day;
  budget.seconds_per_card = seconds_per_card(reviews);
  const TimePoint today = days.start_of(days.day_of(now));
  for (const ReviewRow& r : reviews) {
    if (r.mode == "drill" && r.at >= today) {
      budget.seconds_spent_today +=
          r.duration_ms > 0 ? static_cast<double>(r.duration_ms) / 1000.0 : budget.seconds_per_card;
    }
  }
  SchedulerOptions options;
  options.weights = store.fsrs_weights();
  return plan_for_exam(cards, Scheduler(options), days, now, exam->date, budget);
}

std::vector<PlanCard> plan_cards(ProgressStore& store, const std::vector<bank::Bank>& banks,
                                 const std::vector<const bank::Question*>& selected,
                                 TimePoint now) {
  const std::map<std::string, Card> cards = store.cards();
  // New cards in the order drill deals them, every one of them, with no burying.
  const DrillPlan order =
      plan_drill(banks, selected, cards, store.reviews(), LearnerDays(store.day_starts_at()), now,
                 std::numeric_limits<int>::max() / 2, false);
  std::vector<PlanCard> out;
  std::set<std::string> listed;
  for (const bank::Question* q : selected) {
    const auto it = cards.find(q->id);
    if (it == cards.end() || it->second.state == CardState::fresh || !listed.insert(q->id).second)
      continue;
    out.push_back({q, it->second});
  }
  for (const bank::Question* q : order.fresh) {
    if (listed.insert(q->id).second) out.push_back({q, std::nullopt});
  }
  return out;
}

void follow_exam_plan(DrillPlan& queue, const ExamPlan& plan) {
  queue.fresh = plan.fresh_today;
  queue.held_back = 0;
}

std::vector<ReviewRow> planned_answers(const ExamPlan& plan, const std::vector<PlanCard>& cards,
                                       const Scheduler& fsrs, const LearnerDays& days,
                                       TimePoint now) {
  SchedulerOptions options = fsrs.options();
  options.desired_retention = plan.retention;
  const Scheduler scheduler(options);
  const LearnerDate today = days.day_of(now);
  const int exam_day = plan.days_left;
  std::vector<ReviewRow> rows;
  const auto answer = [&](const bank::Question* q, int day) {
    ReviewRow row;
    row.card = q->id;
    row.topic = q->topic;
    row.at = day == 0 ? now : exam_moment(days, today + std::chrono::days(day));
    row.mode = "drill";
    row.correct = true;
    row.rating = 3;
    rows.push_back(std::move(row));
  };
  // Each shown card's recalled path: a review each time the plan's schedule makes it due.
  const auto follow = [&](const bank::Question* q, double stability, double difficulty, int last,
                          int due) {
    while (due < exam_day) {
      const double r = scheduler.forgetting_curve(due - last, stability);
      stability = scheduler.next_stability(difficulty, stability, r, Rating::good);
      difficulty = scheduler.next_difficulty(difficulty, Rating::good);
      answer(q, due);
      last = due;
      due += scheduler.next_interval_days(stability);
    }
  };
  const LearnedMemory memory = first_day_memory(scheduler);
  int learned = 0, day = 0, left_today = 0;
  bool first = true;
  for (const PlanCard& c : cards) {
    if (shown_before(c)) {
      const ShownDays shown = shown_days(*c.card, days, today);
      follow(c.question, c.card->stability, c.card->difficulty, shown.last, shown.due);
      continue;
    }
    if (learned >= plan.drilled_on_the_day) continue;
    // New cards at the plan's rate from today; today's are the ones drill asks now.
    if (first) {
      left_today = static_cast<int>(plan.fresh_today.size());
      first = false;
      if (left_today == 0) {
        day = 1;
        left_today = plan.new_per_day;
      }
    }
    while (left_today == 0 && day < exam_day) {
      ++day;
      left_today = plan.new_per_day;
    }
    if (day >= exam_day) continue;
    answer(c.question, day);
    follow(c.question, memory.stability, memory.difficulty, day,
           day + scheduler.next_interval_days(memory.stability));
    --left_today;
    ++learned;
  }
  return rows;
}

}  // namespace proofdeck::study
