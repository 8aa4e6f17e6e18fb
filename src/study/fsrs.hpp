// The FSRS-6 spaced-repetition scheduler: given a card's memory state (stability, difficulty),
// its learning step and a rating, compute the next state and when the card is due. The formulas,
// the learning-step rules and the interval fuzz follow py-fsrs 6 (fsrs/scheduler.py,
// Scheduler.review_card) with the 21 FSRS-6 default weights, so tests can replay the reference
// implementations' published vectors; review intervals keep Hard < Good < Easy in days as
// ts-fsrs and Anki do (py-fsrs does not). Pure computation: no I/O, no clock, no global randomness
// (fuzz draws from a source the caller passes in).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/time.hpp"

namespace proofdeck::study {

// FSRS-6 default weights w0..w20 (py-fsrs DEFAULT_PARAMETERS, fsrs-rs DEFAULT_PARAMETERS).
inline constexpr std::array<double, 21> kDefaultWeights{
    0.212,  1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001,  1.8722, 0.1666, 0.796,
    1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542};

// The range py-fsrs accepts for each weight (LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS).
inline constexpr std::array<double, 21> kWeightLowerBounds{
    0.001, 0.001, 0.001, 0.001, 1.0, 0.001, 0.001, 0.001, 0.0, 0.0, 0.001,
    0.001, 0.001, 0.001, 0.0,   0.0, 1.0,   0.0,   0.0,   0.0, 0.1};
inline constexpr std::array<double, 21> kWeightUpperBounds{
    100.0, 100.0, 100.0, 100.0, 10.0, 4.0, 4.0, 0.75, 4.5, 0.8, 3.5,
    5.0,   0.25,  0.9,   4.0,   1.0,  6.0, 2.0, 2.0,  0.8, 0.8};

inline constexpr double kStabilityMin = 0.001;  // days; every stability update is floored here
inline constexpr double kDifficultyMin = 1.0;
inline constexpr double kDifficultyMax = 10.0;

// One band of py-fsrs's FUZZ_RANGES: intervals between start and end days add factor per day to
// the fuzz half-width.
struct FuzzBand {
  double start;   // days
  double end;     // days
  double factor;  // half-width added per day inside the band
};
inline constexpr std::array<FuzzBand, 3> kFuzzBands{{
    {2.5, 7.0, 0.15},
    {7.0, 20.0, 0.1},
    {20.0, std::numeric_limits<double>::infinity(), 0.05},
}};

enum class Rating { again = 1, hard = 2, good = 3, easy = 4 };

// "new" is a keyword, so a card never reviewed is `fresh`; it is stored and shown as "new".
enum class CardState { fresh, learning, review, relearning };

// "new", "learning", "review", "relearning".
std::string_view state_name(CardState state);
// The inverse of state_name; nullopt for anything else.
std::optional<CardState> parse_state(std::string_view name);

using Clock = std::chrono::system_clock;
using TimePoint = proofdeck::TimePoint;  // whole seconds, UTC
constexpr std::chrono::seconds kDay = std::chrono::hours(24);

struct Card {
  CardState state = CardState::fresh;
  int step = 0;                          // index into the (re)learning steps; 0 in review
  double stability = 0.0;                // days; 0 while new
  double difficulty = 0.0;               // 1..10; 0 while new
  std::optional<TimePoint> due;          // nullopt while new
  std::optional<TimePoint> last_review;  // nullopt while new
  int reps = 0;                          // reviews so far
  int lapses = 0;                        // Again on a card in review
};

struct SchedulerOptions {
  std::array<double, 21> weights = kDefaultWeights;  // FSRS-6 w0..w20
  double desired_retention = 0.9;                    // recall probability the intervals aim at
  std::vector<std::chrono::seconds> learning_steps{std::chrono::minutes(1),
                                                   std::chrono::minutes(10)};    // new cards
  std::vector<std::chrono::seconds> relearning_steps{std::chrono::minutes(10)};  // after a lapse
  int maximum_interval = 36500;                                                  // days
  bool fuzz = false;  // spread review intervals as py-fsrs does (needs a random source)
};

struct ReviewOutcome {
  Card card;                      // the card after the review
  int elapsed_days;               // whole days since the previous review (0 for the first)
  std::chrono::seconds interval;  // from the review to card.due
};

// Smallest and largest fuzzed interval py-fsrs allows for an interval (its _get_fuzz_range).
struct FuzzRange {
  int min_days;
  int max_days;
};

// Whole days from last_review to now: the floor of the difference over 24 h (Python's
// timedelta.days), so 23 h 59 min is 0 and a clock that went backwards gives a negative count.
int elapsed_days(TimePoint last_review, TimePoint now);

class Scheduler {
 public:
  // Throws std::invalid_argument naming every bad option: a weight outside py-fsrs's bounds or
  // not finite, desired_retention outside (0, 1), a step that is not positive, or
  // maximum_interval below 1.
  explicit Scheduler(SchedulerOptions options = {});

  const SchedulerOptions& options() const { return options_; }
  double decay() const { return decay_; }    // DECAY = -w20
  double factor() const { return factor_; }  // FACTOR = 0.9^(1/DECAY) - 1

  // The card after `rating` at `now`, as py-fsrs's Scheduler.review_card computes it, except that
  // a Hard, Good or Easy on a card in review is scheduled as ts-fsrs's BasicScheduler does: all
  // three intervals are computed (and fuzzed with one draw), then Hard is kept no longer than
  // Good, Good at least a day past Hard and Easy at least a day past Good, and the chosen one
  // applies; unlike ts-fsrs (like Anki) none goes past maximum_interval. Learning and relearning
  // cards, graduations included, are not ordered (nor are they in ts-fsrs). `uniform` (values in
  // [0, 1)) is required when the options enable fuzz and ignored otherwise; it is called at most
  // once a review. Throws std::invalid_argument for a rating outside 1..4, a reviewed card
  // without a valid memory state (stability > 0, difficulty in [1, 10], a last review,
  // step >= 0), a missing random source, or a draw outside [0, 1).
  ReviewOutcome review(const Card& card, Rating rating, TimePoint now,
                       std::function<double()> uniform = {}) const;

  // Probability of recall at `now`, from whole elapsed days (negative counted as 0); 0 for a card
  // never reviewed.
  double retrievability(const Card& card, TimePoint now) const;

  // The interval reaching desired_retention, S/FACTOR·(r^(1/DECAY) − 1), rounded half to even
  // (Python's round) and clamped to [1, maximum_interval]. Throws std::invalid_argument unless
  // stability is finite and positive.
  int next_interval_days(double stability) const;

  // R(t, S) = (1 + FACTOR·t/S)^DECAY.
  double forgetting_curve(double elapsed_days, double stability) const;

  // The FSRS-6 formulas, one per py-fsrs Scheduler method, for tests and previews.
  // S0(G) = w[G−1], floored at kStabilityMin.
  double initial_stability(Rating rating) const;
  // D0(G) = w4 − e^(w5·(G−1)) + 1, clamped to [1, 10] when `clamp`.
  double initial_difficulty(Rating rating, bool clamp = true) const;
  // D' = D − w6·(G−3)·(10−D)/9, then w7·D0(Easy) + (1−w7)·D' with D0(Easy) unclamped, then
  // clamped to [1, 10].
  double next_difficulty(double difficulty, Rating rating) const;
  // S·(1 + e^w8·(11−D)·S^(−w9)·(e^(w10·(1−R)) − 1)·(w15 if Hard)·(w16 if Easy)), unclamped.
  double next_recall_stability(double difficulty, double stability, double retrievability,
                               Rating rating) const;
  // min(w11·D^(−w12)·((S+1)^w13 − 1)·e^(w14·(1−R)), S/e^(w17·w18)), unclamped.
  double next_forget_stability(double difficulty, double stability, double retrievability) const;
  // Recall or forget stability by rating, floored at kStabilityMin (a review a day or more later).
  double next_stability(double difficulty, double stability, double retrievability,
                        Rating rating) const;
  // Same-day review: S·e^(w17·(G−3+w18))·S^(−w19), the factor floored at 1 for Hard, Good and
  // Easy (py-fsrs 6.3.2), the result floored at kStabilityMin.
  double short_term_stability(double stability, Rating rating) const;

  // py-fsrs's fuzz range for an interval of at least 3 days: interval ± (1 + the FUZZ_RANGES
  // widths), each end rounded half to even, the low end at least 2, the high end at most
  // maximum_interval.
  FuzzRange fuzz_range(int interval_days) const;
  // py-fsrs's _get_fuzzed_interval with `uniform` in [0, 1): intervals under 2.5 days unchanged,
  // others round(uniform·(max−min+1) + min) capped at maximum_interval. As in py-fsrs, rounding
  // lets the result reach max_days + 1 for draws in the top half of the last slot.
  int fuzzed_interval_days(int interval_days, double uniform) const;

 private:
  // Stability after `rating` on a card already reviewed (py-fsrs's same-day or long-term branch).
  double reviewed_stability(const Card& card, Rating rating, TimePoint now, bool same_day) const;
  // Updates stability and difficulty of a card already reviewed.
  void update_memory_state(Card& card, Rating rating, TimePoint now, bool same_day) const;
  // Days until the next review after a Hard, Good or Easy on a card in review: all three
  // intervals, fuzzed, then kept in order; the one for `rating`.
  int passing_review_days(const Card& card, Rating rating, TimePoint now, bool same_day,
                          const std::function<double()>& uniform) const;
  // One value from `uniform` when fuzz is on and can change an interval of `interval_days`;
  // nullopt (nothing drawn) otherwise. Throws std::invalid_argument for a value outside [0, 1).
  std::optional<double> fuzz_draw(int interval_days, const std::function<double()>& uniform) const;
  // Moves a (re)learning card through `steps`; returns the wait, or sets `graduated_days` when
  // the card graduates to review.
  std::chrono::seconds advance_steps(Card& card, Rating rating,
                                     const std::vector<std::chrono::seconds>& steps,
                                     std::optional<int>& graduated_days) const;

  SchedulerOptions options_;
  double decay_ = 0.0;          // -w20
  double factor_ = 0.0;         // 0.9^(1/decay) - 1
  double interval_term_ = 0.0;  // retention^(1/decay) - 1, an interval per stability × factor
};

// Due dates are stored as ISO-8601 UTC (core/time.hpp).
using proofdeck::format_time;
using proofdeck::parse_time;

}  // namespace proofdeck::study
