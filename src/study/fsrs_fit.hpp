// Measuring how well FSRS-6 weights predict a learner's own reviews, as fsrs-rs 6.x's
// `FSRS::evaluate` does (docs/fsrs-fit-reference.md): the items a review history makes, the
// outlier filter that decides which of them count, the recency weights, and the two measures —
// log loss and RMSE over (interval, review count, lapses) bins. Pure computation on whole-day
// intervals. Fitting the weights is study/fsrs_optimize.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "study/fsrs_item.hpp"
#include "study/progress.hpp"

namespace proofdeck::study {

// Reviews a day or more after the previous one, the last included.
int long_term_reviews(const FsrsItem& item);

// The probability of recall the weights give the last review: the memory state run through the
// earlier reviews (first review S = w[G−1], D = D0(G); then fsrs-rs's step, stability clamped to
// [0.001, 36500] and difficulty to [1, 10]), and R(Δt, S) = (1 + Δt/S·(0.9^(−1/w20) − 1))^(−w20).
double predicted_recall(const std::array<double, 21>& weights, const FsrsItem& item);

// fsrs-rs's outlier filter over items: of those with one long-term review (a card's first
// interval), grouped by first rating and interval, the smallest groups — at least 20 items, or 5%
// of the rating's, and every interval group under 6 items or past 100 days (365 for Easy) — are
// removed, and so is every item whose first rating and first interval make a removed pair.
struct FilteredItems {
  std::vector<FsrsItem> initialization;  // kept one-interval items, rating by rating, smallest
                                         // interval groups first
  std::vector<FsrsItem> rest;            // kept items with more intervals, in the order given
  std::vector<FsrsItem> kept;            // every kept item, in the order given (what trains)
};
FilteredItems filter_outliers(const std::vector<FsrsItem>& items);

// The items a progress store's drill reviews make, oldest first (by their last review): for each
// card, its rated drill reviews in order (the first with Δt 0, the rest Δt their elapsed days),
// and an item at each review a day or more after the previous one. Quiz, exam and unrated answers
// are not FSRS reviews and are left out.
std::vector<FsrsItem> drill_items(const std::vector<ReviewRow>& rows);

// Each drilled card's memory after its rated drill reviews (read as drill_items reads them), as
// fsrs-rs's memory_state computes it with `weights`: what drill --optimize gives the cards.
std::map<std::string, CardMemory> drill_memory(const std::array<double, 21>& weights,
                                               const std::vector<ReviewRow>& rows);

// The weight of item i of n: 0.25 + 0.75·(i/max(n − 1, 1))³ — recent reviews count up to 4× more.
double recency_weight(std::size_t i, std::size_t n);

struct FsrsEvaluation {
  std::size_t items = 0;   // items evaluated, after the filter
  double log_loss = 0.0;   // recency-weighted binary cross-entropy of recall (rating > 1)
  double rmse_bins = 0.0;  // √(Σ_bins w_b·(mean R_b − recall share_b)² / Σ_bins w_b)
};

// The weights evaluated on the items as the reference's evaluate does: filtered first, then the
// kept one-interval items followed by the rest, weighted by that position. nullopt when no item
// survives the filter (fsrs-rs: NotEnoughData).
std::optional<FsrsEvaluation> evaluate_weights(const std::array<double, 21>& weights,
                                               const std::vector<FsrsItem>& items);

}  // namespace proofdeck::study
