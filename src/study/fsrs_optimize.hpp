// Fitting the 21 FSRS-6 weights to a learner's own reviews, as fsrs-rs 6.x's
// `compute_parameters` does (docs/fsrs-fit-reference.md): the outlier filter, w0–w3 pre-trained
// per first rating and smoothed, then Adam on recency-weighted log loss with an L2 pull toward
// the starting weights and a clip to fsrs-rs's bounds after every step; the epoch with the lowest
// loss wins. The gradient is exact: the memory runs on dual numbers through the scheduler's own
// formulas. Deterministic: the batch order is shuffled from a seed. Pure computation.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "study/fsrs_fit.hpp"

namespace proofdeck::study {

// fsrs-rs's thresholds on training items (after the outlier filter).
inline constexpr std::size_t kFitMinimumItems = 8;      // fewer: the defaults stay
inline constexpr std::size_t kFitAllWeightsItems = 64;  // fewer: w0–w3 only

// fsrs-rs's TrainingConfig::default() and ModelConfig.
struct FitOptions {
  int epochs = 5;
  std::size_t batch_size = 512;
  double learning_rate = 0.04;
  double gamma = 1.0;         // weight of the L2 pull toward the starting weights
  std::uint64_t seed = 2023;  // the batch orders' shuffles
  // Training runs from this many batch orders and keeps the one with the lowest loss. fsrs-rs
  // trains once; with its handful of Adam steps the result hangs on the order (on one of the
  // reference histories, some orders end worse than the defaults).
  int orders = 8;
  std::size_t max_reviews = 256;  // longer items are left out of training
  int relearning_steps = 1;       // above 1, w17·w18 is capped (clip_weights)
};

// fsrs-rs's clip_parameters: every weight into its range, w17 and w18 under the relearning
// ceiling (2 with one relearning step) and w19 at least 0.01 (short-term memory fitted).
std::array<double, 21> clip_weights(std::array<double, 21> weights, int relearning_steps = 1);

// fsrs-rs's smooth_and_fill: the initial stabilities fitted per first rating (`stability`, only
// ratings present in `counts` are used), put in order — of a pair out of order, the rating seen
// less often takes the other's value — and the ratings never seen filled in from those seen by
// FSRS's geometric rules; each clamped to [0.001, 100]. nullopt when no rating was seen.
std::optional<std::array<double, 4>> smooth_and_fill(std::map<int, double> stability,
                                                     const std::map<int, std::size_t>& counts);

// w0–w3 pre-trained as fsrs-rs's initialize_stability_parameters does, from the kept
// one-interval items: per first rating, the S0 whose forgetting curve (default w20) best fits
// the recall at each first interval (Laplace-smoothed toward `average_recall`, a ternary search
// with a pull toward the default S0), then smooth_and_fill. `counts` gets the items per rating.
std::optional<std::array<double, 4>> pretrain_initial_stability(
    const std::vector<FsrsItem>& initialization, double average_recall,
    std::map<int, std::size_t>& counts);

enum class FitStage {
  defaults,           // too few items (or no first interval to pre-train on): nothing fitted
  initial_stability,  // w0–w3 fitted, the rest the defaults
  all_weights,        // all 21 fitted
};

struct FsrsFitResult {
  FitStage stage = FitStage::defaults;
  std::array<double, 21> weights{};      // the defaults at stage `defaults`
  std::size_t items = 0;                 // training items after the outlier filter
  std::size_t initialization_items = 0;  // of them, a card's first interval (pre-training)
  std::optional<std::array<double, 4>> pretrained;  // w0–w3 before training
};

// The weights fitted to `items` (oldest first, as drill_items gives them).
FsrsFitResult fit_weights(const std::vector<FsrsItem>& items, const FitOptions& options = {});

// The loss training minimises at `weights`, per item: the recency-weighted log loss (R clamped to
// [1e-7, 1 − 1e-7]) plus the L2 pull toward `start`, summed over the batches and divided by the
// items — fsrs-rs's epoch loss. With its gradient with respect to the weights, for tests.
struct TrainingLoss {
  double loss = 0.0;
  std::array<double, 21> gradient{};
};
TrainingLoss training_loss(const std::array<double, 21>& weights,
                           const std::array<double, 21>& start, const std::vector<FsrsItem>& items,
                           const FitOptions& options = {});

}  // namespace proofdeck::study
