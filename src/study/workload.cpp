// The workload simulator (study/workload.hpp).
#include "study/workload.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

namespace proofdeck::study {

namespace {

constexpr double kNegligible = 1e-9;  // cards' worth of memory below this is dropped
constexpr long long kShareOffset = 1LL << 20, kShareMask = (1LL << 21) - 1;

// A share of the cards with one memory: `weight` cards (fractions of cards, in expectation)
// last reviewed on day `last` with this stability (and its logarithm) and difficulty.
struct Branch {
  double weight = 0.0;
  double stability = 0.0;
  double log_stability = 0.0;
  double difficulty = 0.0;
  int last = 0;  // day of the last review (0: today)
};

Branch branch(double weight, double stability, double difficulty, int last) {
  return {weight, stability, std::log(stability), difficulty, last};
}

// The cards' memories by the day they fall due within the days simulated. Shares due the same
// day after a review the same day, with stabilities within 5% and difficulties within 0.25 of
// each other, are one: cards are alike once learned, so the whole deck is one population and its
// shares merge often. Shares due after the last day are only counted: what they recall then.
// A share's key packs its last day, log stability (in twentieths) and difficulty (in quarters),
// each offset into 21 bits, so that keys order as the three do, last day first.
using Share = std::uint64_t;
Share share_key(const Branch& b) {
  const auto field = [](long long value) {
    return static_cast<std::uint64_t>(std::clamp<long long>(value + kShareOffset, 0, kShareMask));
  };
  return field(b.last) << 42 | field(std::llround(b.log_stability * 20.0)) << 21 |
         field(std::llround(b.difficulty * 4.0));
}
struct Population {
  std::vector<std::map<Share, Branch>> by_day;
  double remembered = 0.0;  // Σ weight × recall on the day after the last, of shares due later
  double shown = 0.0;       // their weight
};

void add(Population& population, const Scheduler& fsrs, int due, const Branch& b) {
  if (b.weight < kNegligible) return;
  const auto horizon = static_cast<int>(population.by_day.size());
  if (due >= horizon) {
    population.remembered += b.weight * fsrs.forgetting_curve(horizon - b.last, b.stability);
    population.shown += b.weight;
    return;
  }
  auto [it, added] = population.by_day[static_cast<std::size_t>(due)].try_emplace(share_key(b), b);
  if (added) return;
  Branch& m = it->second;
  const double w = m.weight + b.weight;
  m.log_stability = (m.log_stability * m.weight + b.log_stability * b.weight) / w;
  m.stability = std::exp(m.log_stability);
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
  population.by_day.resize(static_cast<std::size_t>(std::max(options.days, 0)));
  std::size_t fresh = 0;
  for (const PlanCard& plan_card : cards) {
    if (!shown_before(plan_card)) {
      ++fresh;
      continue;
    }
    const Card& card = *plan_card.card;
    const ShownDays shown = shown_days(card, days, today);
    add(population, fsrs, shown.due, branch(1.0, card.stability, card.difficulty, shown.last));
  }
  const LearnedMemory learned = first_day_memory(fsrs);

  WorkloadRow row;
  row.retention = fsrs.options().desired_retention;
  double reviews = 0.0;
  for (int d = 0; d < options.days; ++d) {
    double seconds = 0.0;
    const double reviews_before = reviews;
    {
      const std::map<Share, Branch> shares =
          std::move(population.by_day[static_cast<std::size_t>(d)]);
      for (const auto& [key, b] : shares) {
        const double r = fsrs.forgetting_curve(d - b.last, b.stability);
        const double recalled = fsrs.next_stability(b.difficulty, b.stability, r, Rating::good);
        const double lapsed = fsrs.short_term_stability(
            fsrs.next_stability(b.difficulty, b.stability, r, Rating::again), Rating::good);
        add(population, fsrs, d + fsrs.next_interval_days(recalled),
            branch(b.weight * r, recalled, fsrs.next_difficulty(b.difficulty, Rating::good), d));
        add(population, fsrs, d + fsrs.next_interval_days(lapsed),
            branch(b.weight * (1.0 - r), lapsed,
                   fsrs.next_difficulty(fsrs.next_difficulty(b.difficulty, Rating::again),
                                        Rating::good),
                   d));
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
      add(population, fsrs, d + fsrs.next_interval_days(learned.stability),
          branch(static_cast<double>(introduced), learned.stability, learned.difficulty, d));
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
  // Every share falls due after the last day by now: counted as it was added.
  row.remembered = population.remembered;
  const double shown = population.shown;
  row.shown_recall = shown > 0.0 ? row.remembered / shown : 0.0;
  const double n_days = std::max(1, options.days);
  row.reviews_per_day = reviews / n_days;
  row.minutes_per_day = minutes / n_days;
  row.minutes_per_remembered = row.remembered > 0.0 ? minutes / row.remembered : 0.0;
  return row;
}

}  // namespace proofdeck::study
