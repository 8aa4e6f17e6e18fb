// FSRS-6 scheduling: the formulas, py-fsrs 6's state machine over learning and relearning steps,
// the interval fuzz and ts-fsrs's Hard < Good < Easy order of review intervals (due dates are
// written and read by core/time.hpp).
#include "study/fsrs.hpp"

#include "study/fsrs_formulas.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <system_error>

namespace proofdeck::study {

namespace {

constexpr double kFuzzMinimumDays = 2.5;  // py-fsrs fuzzes intervals of at least 2.5 days

double grade(Rating rating) {
  return static_cast<double>(static_cast<int>(rating));
}

double clamp_difficulty(double difficulty) {
  return std::min(std::max(difficulty, kDifficultyMin), kDifficultyMax);
}

double clamp_stability(double stability) {
  return std::max(stability, kStabilityMin);
}

// Python's round(): to nearest, ties to even (the default floating-point rounding mode).
double round_half_even(double value) {
  return std::nearbyint(value);
}

// Shortest text that reads back as `value` ("0.001", "100", "nan").
std::string number_text(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string text;
  for (const std::string& part : parts) {
    if (!text.empty()) text += separator;
    text += part;
  }
  return text;
}

void check_steps(const std::vector<std::chrono::seconds>& steps, std::string_view name,
                 std::vector<std::string>& problems) {
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (steps[i] <= std::chrono::seconds::zero()) {
      problems.push_back(std::string(name) + "[" + std::to_string(i) +
                         "] = " + std::to_string(steps[i].count()) + "s is not positive");
    }
  }
}

// A non-new card must carry what py-fsrs asserts it has: a stability, a difficulty, a last review.
void check_memory_state(const Card& card) {
  const std::string state(state_name(card.state));
  if (!(std::isfinite(card.stability) && card.stability > 0.0)) {
    throw std::invalid_argument("a card in state " + state + " needs a positive stability, got " +
                                number_text(card.stability));
  }
  if (!(card.difficulty >= kDifficultyMin && card.difficulty <= kDifficultyMax)) {
    throw std::invalid_argument("a card in state " + state +
                                " needs a difficulty in [1, 10], got " +
                                number_text(card.difficulty));
  }
  if (!card.last_review) {
    throw std::invalid_argument("a card in state " + state + " needs its last review time");
  }
  if (card.step < 0) {
    throw std::invalid_argument("a card's step cannot be negative, got " +
                                std::to_string(card.step));
  }
}

// The days each passing rating would schedule a card in review.
struct PassingDays {
  int hard;
  int good;
  int easy;
};

int days_for(const PassingDays& days, Rating rating) {
  switch (rating) {
    case Rating::hard:
      return days.hard;
    case Rating::good:
      return days.good;
    case Rating::easy:
      return days.easy;
    case Rating::again:
      break;
  }
  throw std::invalid_argument("only Hard, Good and Easy schedule a passing review");
}

// ts-fsrs's BasicScheduler.next_interval (Anki does the same): Hard no longer than Good, Good at
// least a day past Hard, Easy at least a day past Good, so the three buttons never offer the
// same interval. ts-fsrs then lets Good and Easy pass maximum_interval by a day or two; like
// Anki, we keep the maximum, so at the cap the intervals may tie.
PassingDays keep_in_order(PassingDays days, int maximum_interval) {
  days.hard = std::min(days.hard, days.good);
  days.good = std::max(days.good, days.hard + 1);
  days.easy = std::max(days.easy, days.good + 1);
  days.good = std::min(days.good, maximum_interval);
  days.easy = std::min(days.easy, maximum_interval);
  return days;
}

}  // namespace

std::string_view state_name(CardState state) {
  switch (state) {
    case CardState::fresh:
      return "new";
    case CardState::learning:
      return "learning";
    case CardState::review:
      return "review";
    case CardState::relearning:
      return "relearning";
  }
  return "unknown";
}

std::optional<CardState> parse_state(std::string_view name) {
  for (const CardState state :
       {CardState::fresh, CardState::learning, CardState::review, CardState::relearning}) {
    if (state_name(state) == name) return state;
  }
  return std::nullopt;
}

int elapsed_days(TimePoint last_review, TimePoint now) {
  return static_cast<int>(std::chrono::floor<std::chrono::days>(now - last_review).count());
}

Scheduler::Scheduler(SchedulerOptions options) : options_(std::move(options)) {
  std::vector<std::string> problems;
  for (std::size_t i = 0; i < options_.weights.size(); ++i) {
    const double weight = options_.weights[i];
    if (!(weight >= kWeightLowerBounds[i] && weight <= kWeightUpperBounds[i])) {
      problems.push_back("weights[" + std::to_string(i) + "] = " + number_text(weight) +
                         " is outside [" + number_text(kWeightLowerBounds[i]) + ", " +
                         number_text(kWeightUpperBounds[i]) + "]");
    }
  }
  if (!(options_.desired_retention > 0.0 && options_.desired_retention < 1.0)) {
    problems.push_back("desired_retention = " + number_text(options_.desired_retention) +
                       " is outside (0, 1)");
  }
  check_steps(options_.learning_steps, "learning_steps", problems);
  check_steps(options_.relearning_steps, "relearning_steps", problems);
  if (options_.maximum_interval < 1) {
    problems.push_back("maximum_interval = " + std::to_string(options_.maximum_interval) +
                       " days is below 1");
  }
  if (!problems.empty()) {
    throw std::invalid_argument("invalid FSRS scheduler options: " + join(problems, "; "));
  }
  decay_ = fsrs_formulas::decay(options_.weights);
  factor_ = fsrs_formulas::factor(decay_);
  interval_term_ = std::pow(options_.desired_retention, 1.0 / decay_) - 1.0;
}

double Scheduler::forgetting_curve(double elapsed, double stability) const {
  return fsrs_formulas::forgetting_curve(decay_, factor_, elapsed, stability);
}

double Scheduler::retrievability(const Card& card, TimePoint now) const {
  if (card.state == CardState::fresh || !card.last_review || !(card.stability > 0.0)) return 0.0;
  const int elapsed = std::max(0, elapsed_days(*card.last_review, now));
  return forgetting_curve(static_cast<double>(elapsed), card.stability);
}

int Scheduler::next_interval_days(double stability) const {
  if (!(std::isfinite(stability) && stability > 0.0)) {
    throw std::invalid_argument("next_interval_days needs a positive stability, got " +
                                number_text(stability));
  }
  const double interval = (stability / factor_) * interval_term_;
  const double maximum = static_cast<double>(options_.maximum_interval);
  return static_cast<int>(std::min(std::max(round_half_even(interval), 1.0), maximum));
}

double Scheduler::initial_stability(Rating rating) const {
  return clamp_stability(options_.weights.at(static_cast<std::size_t>(rating) - 1));
}

double Scheduler::initial_difficulty(Rating rating, bool clamp) const {
  const double difficulty = fsrs_formulas::initial_difficulty(options_.weights, grade(rating));
  return clamp ? clamp_difficulty(difficulty) : difficulty;
}

double Scheduler::next_difficulty(double difficulty, Rating rating) const {
  return fsrs_formulas::next_difficulty(options_.weights, difficulty, grade(rating), kDifficultyMin,
                                        kDifficultyMax);
}

double Scheduler::next_recall_stability(double difficulty, double stability, double retrievability,
                                        Rating rating) const {
  return fsrs_formulas::next_recall_stability(options_.weights, difficulty, stability,
                                              retrievability, grade(rating));
}

double Scheduler::next_forget_stability(double difficulty, double stability,
                                        double retrievability) const {
  return fsrs_formulas::next_forget_stability(options_.weights, difficulty, stability,
                                              retrievability);
}

double Scheduler::next_stability(double difficulty, double stability, double retrievability,
                                 Rating rating) const {
  const double next = rating == Rating::again
                          ? next_forget_stability(difficulty, stability, retrievability)
                          : next_recall_stability(difficulty, stability, retrievability, rating);
  return clamp_stability(next);
}

double Scheduler::short_term_stability(double stability, Rating rating) const {
  return clamp_stability(
      stability * fsrs_formulas::short_term_factor(options_.weights, stability, grade(rating)));
}

FuzzRange Scheduler::fuzz_range(int interval_days) const {
  const double days = static_cast<double>(interval_days);
  double delta = 1.0;
  for (const FuzzBand& band : kFuzzBands) {
    delta += band.factor * std::max(std::min(days, band.end) - band.start, 0.0);
  }
  const double maximum = static_cast<double>(options_.maximum_interval);
  const int max_days = static_cast<int>(std::min(round_half_even(days + delta), maximum));
  const int min_days =
      std::min(std::max(2, static_cast<int>(round_half_even(days - delta))), max_days);
  return {min_days, max_days};
}

int Scheduler::fuzzed_interval_days(int interval_days, double uniform) const {
  if (static_cast<double>(interval_days) < kFuzzMinimumDays) return interval_days;
  const FuzzRange range = fuzz_range(interval_days);
  const double fuzzed = uniform * static_cast<double>(range.max_days - range.min_days + 1) +
                        static_cast<double>(range.min_days);
  return static_cast<int>(
      std::min(round_half_even(fuzzed), static_cast<double>(options_.maximum_interval)));
}

double Scheduler::reviewed_stability(const Card& card, Rating rating, TimePoint now,
                                     bool same_day) const {
  if (same_day) return short_term_stability(card.stability, rating);
  return next_stability(card.difficulty, card.stability, retrievability(card, now), rating);
}

void Scheduler::update_memory_state(Card& card, Rating rating, TimePoint now, bool same_day) const {
  card.stability = reviewed_stability(card, rating, now, same_day);
  card.difficulty = next_difficulty(card.difficulty, rating);
}

std::optional<double> Scheduler::fuzz_draw(int interval_days,
                                           const std::function<double()>& uniform) const {
  if (!options_.fuzz || static_cast<double>(interval_days) < kFuzzMinimumDays) return std::nullopt;
  const double draw = uniform();
  if (!(draw >= 0.0 && draw < 1.0)) {
    throw std::invalid_argument("the uniform random source must return values in [0, 1), got " +
                                number_text(draw));
  }
  return draw;
}

int Scheduler::passing_review_days(const Card& card, Rating rating, TimePoint now, bool same_day,
                                   const std::function<double()>& uniform) const {
  const auto days_after = [&](Rating passing) {
    return next_interval_days(reviewed_stability(card, passing, now, same_day));
  };
  const PassingDays unfuzzed{days_after(Rating::hard), days_after(Rating::good),
                             days_after(Rating::easy)};
  // One draw fuzzes all three, as ts-fsrs fuzzes each rating from the same seed. As in py-fsrs it
  // is drawn only when the chosen interval can be fuzzed, so seeded sources replay py-fsrs's
  // draws. Not drawing changes nothing: stability grows with the rating (w15 <= 1 <= w16), so
  // below a chosen interval under 2.5 days nothing is fuzzed either, and above it every interval,
  // fuzzed or not, is at least as long (a fuzzed one is at least 2 days).
  const std::optional<double> draw = fuzz_draw(days_for(unfuzzed, rating), uniform);
  const auto fuzz = [&](int days) { return draw ? fuzzed_interval_days(days, *draw) : days; };
  const PassingDays ordered = keep_in_order(
      {fuzz(unfuzzed.hard), fuzz(unfuzzed.good), fuzz(unfuzzed.easy)}, options_.maximum_interval);
  return days_for(ordered, rating);
}

std::chrono::seconds Scheduler::advance_steps(Card& card, Rating rating,
                                              const std::vector<std::chrono::seconds>& steps,
                                              std::optional<int>& graduated_days) const {
  const auto graduate = [&] {
    card.state = CardState::review;
    card.step = 0;
    graduated_days = next_interval_days(card.stability);
    return std::chrono::seconds(kDay * *graduated_days);
  };
  const auto step = static_cast<std::size_t>(card.step);
  // A card on a step this scheduler does not have (scheduled with more steps) graduates.
  if (steps.empty() || (step >= steps.size() && rating != Rating::again)) return graduate();
  switch (rating) {
    case Rating::again:
      card.step = 0;
      return steps[0];
    case Rating::hard:
      if (step == 0 && steps.size() == 1) {
        return std::chrono::round<std::chrono::seconds>(std::chrono::duration<double>(steps[0]) *
                                                        1.5);
      }
      if (step == 0) {
        return std::chrono::round<std::chrono::seconds>(
            std::chrono::duration<double>(steps[0] + steps[1]) / 2.0);
      }
      return steps[step];
    case Rating::good:
      if (step + 1 == steps.size()) return graduate();
      card.step += 1;
      return steps[step + 1];
    case Rating::easy:
      return graduate();
  }
  throw std::invalid_argument("rating must be 1..4");
}

ReviewOutcome Scheduler::review(const Card& card, Rating rating, TimePoint now,
                                std::function<double()> uniform) const {
  if (static_cast<int>(rating) < 1 || static_cast<int>(rating) > 4) {
    throw std::invalid_argument("rating must be 1 (again) to 4 (easy), got " +
                                std::to_string(static_cast<int>(rating)));
  }
  if (options_.fuzz && !uniform) {
    throw std::invalid_argument("fuzz is enabled, so review() needs a uniform random source");
  }
  if (card.state != CardState::fresh) check_memory_state(card);

  Card next = card;
  const int elapsed = card.state == CardState::fresh ? 0 : elapsed_days(*card.last_review, now);
  const bool same_day = elapsed < 1;
  std::chrono::seconds interval{0};
  // An interval in days still to be fuzzed: a graduation, or a lapse without relearning steps.
  std::optional<int> days_to_fuzz;

  switch (card.state) {
    case CardState::fresh:
      // py-fsrs: a new card is a learning card on step 0 without a memory state.
      next.state = CardState::learning;
      next.step = 0;
      next.stability = initial_stability(rating);
      next.difficulty = initial_difficulty(rating);
      interval = advance_steps(next, rating, options_.learning_steps, days_to_fuzz);
      break;
    case CardState::learning:
      update_memory_state(next, rating, now, same_day);
      interval = advance_steps(next, rating, options_.learning_steps, days_to_fuzz);
      break;
    case CardState::review:
      update_memory_state(next, rating, now, same_day);
      next.step = 0;
      if (rating != Rating::again) {
        // Every passing rating's interval first, then the chosen one (ts-fsrs reviewState).
        interval = kDay * passing_review_days(card, rating, now, same_day, uniform);
        break;
      }
      next.lapses += 1;
      if (!options_.relearning_steps.empty()) {
        next.state = CardState::relearning;
        interval = options_.relearning_steps[0];
        break;
      }
      days_to_fuzz = next_interval_days(next.stability);
      interval = kDay * *days_to_fuzz;
      break;
    case CardState::relearning:
      update_memory_state(next, rating, now, same_day);
      interval = advance_steps(next, rating, options_.relearning_steps, days_to_fuzz);
      break;
  }

  if (days_to_fuzz) {
    if (const std::optional<double> draw = fuzz_draw(*days_to_fuzz, uniform)) {
      interval = kDay * fuzzed_interval_days(*days_to_fuzz, *draw);
    }
  }

  next.due = now + interval;
  next.last_review = now;
  next.reps += 1;
  return {next, std::max(elapsed, 0), interval};
}

}  // namespace proofdeck::study
