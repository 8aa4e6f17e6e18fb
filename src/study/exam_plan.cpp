// The plan toward the exam date (study/exam_plan.hpp).
#include "study/exam_plan.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <stdexcept>

namespace proofdeck::study {

namespace {

constexpr std::size_t kTimedAnswers = 200;  // the latest drill answers the seconds come from

// What the plan knows of a card's memory: stability and difficulty after its last review, on a
// learner day, and the recall it expects on the exam day.
struct PlannedMemory {
  double stability = 0.0;
  double difficulty = 0.0;
  LearnerDate last{};
  double on_the_day = 0.0;
  bool shown = false;
};

struct PlannedReview {
  std::size_t card;
  double gain;  // in exam-day recall
  double cost;  // seconds
};

// A review on `day` of a card shown before it: the exam-day recall it leads to — recalled (as
// likely as the card's retrievability then) it is rated Good, forgotten it is rated Again and
// relearned the same day — against the recall without it, and the seconds it takes (a lapse adds
// its relearning step).
PlannedReview review_on(const Scheduler& fsrs, const PlannedMemory& m, std::size_t index,
                        LearnerDate day, LearnerDate exam, double seconds) {
  const auto days = [](LearnerDate from, LearnerDate to) {
    return static_cast<double>((to - from).count());
  };
  const double r = fsrs.forgetting_curve(days(m.last, day), m.stability);
  const double recalled = fsrs.next_stability(m.difficulty, m.stability, r, Rating::good);
  const double lapsed = fsrs.short_term_stability(
      fsrs.next_stability(m.difficulty, m.stability, r, Rating::again), Rating::good);
  const double with = r * fsrs.forgetting_curve(days(day, exam), recalled) +
                      (1.0 - r) * fsrs.forgetting_curve(days(day, exam), lapsed);
  const double without = fsrs.forgetting_curve(days(m.last, exam), m.stability);
  return {index, with - without, seconds * (2.0 - r)};
}

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
  const LearnerDate today = days.day_of(now);
  ExamPlan plan;
  plan.date = exam_date;
  plan.days_left = static_cast<int>((exam_date - today).count());
  if (plan.days_left < 1) {
    throw std::invalid_argument("an exam plan needs an exam day after today, not " +
                                format_date(exam_date));
  }
  plan.minutes_per_day = budget.minutes_per_day;
  plan.seconds_per_card = budget.seconds_per_card;
  const double s = budget.seconds_per_card;

  std::vector<PlannedMemory> memory(cards.size());
  std::vector<std::size_t> fresh;  // indexes of new cards, in the order they may come
  for (std::size_t i = 0; i < cards.size(); ++i) {
    const std::optional<Card>& card = cards[i].card;
    if (card && card->state != CardState::fresh && card->stability > 0.0 && card->last_review) {
      memory[i] = {card->stability, card->difficulty, days.day_of(*card->last_review), 0.0, true};
      memory[i].on_the_day = fsrs.forgetting_curve(
          static_cast<double>((exam_date - memory[i].last).count()), card->stability);
    } else {
      fresh.push_back(i);
    }
  }
  // A new card learned on a day: rated Good, then Good again at its learning step.
  const double first_stability =
      fsrs.short_term_stability(fsrs.initial_stability(Rating::good), Rating::good);
  const double first_difficulty =
      fsrs.next_difficulty(fsrs.initial_difficulty(Rating::good), Rating::good);

  std::size_t next_new = 0;
  double total_seconds = 0.0;
  std::size_t total_reviews = 0;
  for (int d = 0; d < plan.days_left; ++d) {
    PlanDay day;
    day.date = today + std::chrono::days(d);
    double left = budget.minutes_per_day * 60.0 - (d == 0 ? budget.seconds_spent_today : 0.0);
    std::vector<PlannedReview> reviews;
    for (std::size_t i = 0; i < cards.size(); ++i) {
      if (memory[i].shown && memory[i].last < day.date)
        reviews.push_back(review_on(fsrs, memory[i], i, day.date, exam_date, s));
    }
    std::sort(reviews.begin(), reviews.end(), [&](const PlannedReview& a, const PlannedReview& b) {
      const double ra = a.gain / a.cost, rb = b.gain / b.cost;
      return ra != rb ? ra > rb : cards[a.card].question->id < cards[b.card].question->id;
    });
    const double new_gain =
        fsrs.forgetting_curve(static_cast<double>((exam_date - day.date).count()), first_stability);
    const double new_cost = 2.0 * s;
    std::size_t r = 0;
    for (;;) {
      while (r < reviews.size() && reviews[r].cost > left)
        ++r;  // longer than what is left of the day
      const bool review_ok = r < reviews.size() && reviews[r].gain > 0.0;
      const bool new_ok = next_new < fresh.size() && new_cost <= left && new_gain > 0.0;
      if (!review_ok && !new_ok) break;
      if (review_ok && (!new_ok || reviews[r].gain / reviews[r].cost >= new_gain / new_cost)) {
        const PlannedReview& c = reviews[r++];
        PlannedMemory& m = memory[c.card];
        const double elapsed = static_cast<double>((day.date - m.last).count());
        const double retrievability = fsrs.forgetting_curve(elapsed, m.stability);
        m.on_the_day += c.gain;
        // Later days follow the recalled branch, the more likely one.
        m.stability = fsrs.next_stability(m.difficulty, m.stability, retrievability, Rating::good);
        m.difficulty = fsrs.next_difficulty(m.difficulty, Rating::good);
        m.last = day.date;
        left -= c.cost;
        day.seconds += c.cost;
        day.reviews.push_back(cards[c.card].question);
      } else {
        PlannedMemory& m = memory[fresh[next_new]];
        m = {first_stability, first_difficulty, day.date, new_gain, true};
        left -= new_cost;
        day.seconds += new_cost;
        day.fresh.push_back(cards[fresh[next_new]].question);
        ++next_new;
      }
    }
    total_seconds += day.seconds;
    total_reviews += day.reviews.size();
    plan.days.push_back(std::move(day));
  }

  const double n_days = static_cast<double>(plan.days_left);
  plan.reviews_per_day = static_cast<double>(total_reviews) / n_days;
  plan.new_per_day = static_cast<double>(next_new) / n_days;
  plan.minutes_used_per_day = total_seconds / n_days / 60.0;
  plan.cards = static_cast<int>(cards.size());
  plan.unseen_cards = static_cast<int>(fresh.size() - next_new);
  plan.fits = plan.unseen_cards == 0;
  std::map<std::string, double> best;  // objective → its best card's recall
  std::set<std::string> seen;
  double recalled = 0.0;
  for (std::size_t i = 0; i < cards.size(); ++i) {
    const std::string objective = cards[i].question->objective_id();
    double& b = best[objective];
    if (!memory[i].shown) continue;
    seen.insert(objective);
    ++plan.drilled_on_the_day;
    recalled += memory[i].on_the_day;
    b = std::max(b, memory[i].on_the_day);
    plan.recall_on_the_day[cards[i].question->id] = memory[i].on_the_day;
  }
  plan.expected_recall_cards =
      plan.drilled_on_the_day > 0 ? recalled / plan.drilled_on_the_day : 0.0;
  plan.objectives = static_cast<int>(best.size());
  for (const auto& [objective, r] : best)
    plan.expected_recall_objectives += r;
  plan.unseen_objectives = plan.objectives - static_cast<int>(seen.size());
  return plan;
}

std::optional<ExamPlan> saved_exam_plan(ProgressStore& store, const std::vector<bank::Bank>& banks,
                                        const std::vector<const bank::Question*>& selected,
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
  return plan_for_exam(plan_cards(store, banks, selected, now), Scheduler(options), days, now,
                       exam->date, budget);
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

void follow_exam_plan(DrillPlan& queue, const ExamPlan& plan,
                      const std::map<std::string, Card>& cards) {
  std::vector<const bank::Question*> due;
  for (const bank::Question* q : queue.due) {
    const auto it = cards.find(q->id);
    if (it != cards.end() &&
        (it->second.state == CardState::learning || it->second.state == CardState::relearning))
      due.push_back(q);
  }
  const PlanDay& today = plan.days.front();
  for (const bank::Question* q : today.reviews) {
    if (std::find(due.begin(), due.end(), q) == due.end()) due.push_back(q);
  }
  queue.due = std::move(due);
  queue.fresh = today.fresh;
  queue.held_back = 0;
}

std::vector<ReviewRow> planned_answers(const ExamPlan& plan, const LearnerDays& days,
                                       TimePoint now) {
  std::vector<ReviewRow> rows;
  for (const PlanDay& day : plan.days) {
    const TimePoint at = std::max(now, exam_moment(days, day.date));
    for (const auto* list : {&day.fresh, &day.reviews}) {
      for (const bank::Question* q : *list) {
        ReviewRow row;
        row.card = q->id;
        row.topic = q->topic;
        row.at = at;
        row.mode = "drill";
        row.correct = true;
        row.rating = 3;
        rows.push_back(std::move(row));
      }
    }
  }
  return rows;
}

}  // namespace proofdeck::study
