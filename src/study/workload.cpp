// The workload simulator (study/workload.hpp).
#include "study/workload.hpp"

#include <cmath>
#include <map>
#include <tuple>

namespace proofdeck::study {

namespace {

constexpr double kNegligible = 1e-9;  // cards' worth of memory below this is dropped

// A share of the cards with one memory: `weight` cards (fractions of cards, in expectation)
// last reviewed on day `last` with this stability and difficulty.
struct Branch {
  double weight = 0.0;
  double stability = 0.0;
  double difficulty = 0.0;
  int last = 0;  // day of the last review (0: today)
};

// The cards' memories by the day they fall due. Shares due the same day after a review the same
// day, with stabilities within 5% and difficulties within 0.25 of each other, are one: cards
// are alike once learned, so the whole deck is one population and its shares merge often.
using Share = std::tuple<int, long long, long long>;  // last, log stability, difficulty
using Population = std::map<int, std::map<Share, Branch>>;

void add(Population& population, int due, const Branch& b) {
  if (b.weight < kNegligible) return;
  const Share key{b.last, std::llround(std::log(b.stability) * 20.0),
                  std::llround(b.difficulty * 4.0)};
  auto [it, added] = population[due].try_emplace(key, b);
  if (added) return;
  Branch& m = it->second;
  const double w = m.weight + b.weight;
  m.stability = std::exp((std::log(m.stability) * m.weight + std::log(b.stability) * b.weight) / w);
  m.difficulty = (m.difficulty * m.weight + b.difficulty * b.weight) / w;
  m.weight = w;
}

}  // namespace

bool shown_before(const PlanCard& plan_card) {
  const std::optional<Card>& card = plan_card.card;
  return card && card->state != CardState::fresh && card->stability > 0.0 && card->last_review &&
         card->due;
}

ShownDays shown_days(const Card& card, const LearnerDays& days, LearnerDate today) {
  const int last = static_cast<int>((days.day_of(*card.last_review) - today).count());
  const int due = static_cast<int>((days.day_of(*card.due) - today).count());
  return {last, std::max({due, last + 1, 0})};
}

LearnedMemory first_day_memory(const Scheduler& fsrs) {
  return {fsrs.short_term_stability(fsrs.initial_stability(Rating::good), Rating::good),
          fsrs.next_difficulty(fsrs.initial_difficulty(Rating::good), Rating::good)};
}

WorkloadRow simulate_workload(const std::vector<PlanCard>& cards, const Scheduler& fsrs,
                              const LearnerDays& days, TimePoint now,
                              const WorkloadOptions& options) {
  const LearnerDate today = days.day_of(now);
  const double s = options.seconds_per_card;
  Population population;
  std::size_t fresh = 0;
  for (const PlanCard& plan_card : cards) {
    if (!shown_before(plan_card)) {
      ++fresh;
      continue;
    }
    const Card& card = *plan_card.card;
    const ShownDays shown = shown_days(card, days, today);
    add(population, shown.due, {1.0, card.stability, card.difficulty, shown.last});
  }
  const LearnedMemory learned = first_day_memory(fsrs);

  WorkloadRow row;
  row.retention = fsrs.options().desired_retention;
  double reviews = 0.0;
  for (int d = 0; d < options.days; ++d) {
    double seconds = 0.0;
    const double reviews_before = reviews;
    const auto due = population.find(d);
    if (due != population.end()) {
      const std::map<Share, Branch> shares = std::move(due->second);
      population.erase(due);
      for (const auto& [key, b] : shares) {
        const double r = fsrs.forgetting_curve(d - b.last, b.stability);
        const double recalled = fsrs.next_stability(b.difficulty, b.stability, r, Rating::good);
        const double lapsed = fsrs.short_term_stability(
            fsrs.next_stability(b.difficulty, b.stability, r, Rating::again), Rating::good);
        add(population, d + fsrs.next_interval_days(recalled),
            {b.weight * r, recalled, fsrs.next_difficulty(b.difficulty, Rating::good), d});
        add(population, d + fsrs.next_interval_days(lapsed),
            {b.weight * (1.0 - r), lapsed,
             fsrs.next_difficulty(fsrs.next_difficulty(b.difficulty, Rating::again), Rating::good),
             d});
        reviews += b.weight * (2.0 - r);  // a lapse adds its relearning step
        seconds += b.weight * (2.0 - r) * s;
      }
    }
    const double left = options.seconds_per_day - (d == 0 ? options.spent_today : 0.0) - seconds;
    std::size_t introduced =
        std::min(fresh, static_cast<std::size_t>(std::max(options.new_per_day, 0)));
    if (std::isfinite(left))
      introduced = std::min(introduced, static_cast<std::size_t>(std::max(left, 0.0) / (2.0 * s)));
    if (introduced > 0) {
      add(population, d + fsrs.next_interval_days(learned.stability),
          {static_cast<double>(introduced), learned.stability, learned.difficulty, d});
      fresh -= introduced;
      seconds += 2.0 * s * static_cast<double>(introduced);
    }
    row.minutes_by_day.push_back(seconds / 60.0);
    row.reviews_by_day.push_back(reviews - reviews_before);
    row.new_by_day.push_back(static_cast<int>(introduced));
    row.introduced += static_cast<int>(introduced);
  }
  double minutes = 0.0;
  for (const double m : row.minutes_by_day)
    minutes += m;
  double shown = 0.0;
  for (const auto& [day, shares] : population) {
    for (const auto& [key, b] : shares) {
      row.remembered += b.weight * fsrs.forgetting_curve(options.days - b.last, b.stability);
      shown += b.weight;
    }
  }
  row.shown_recall = shown > 0.0 ? row.remembered / shown : 0.0;
  const double n_days = std::max(1, options.days);
  row.reviews_per_day = reviews / n_days;
  row.minutes_per_day = minutes / n_days;
  row.minutes_per_remembered = row.remembered > 0.0 ? minutes / row.remembered : 0.0;
  return row;
}

}  // namespace proofdeck::study
