// Fitting FSRS-6 to a learner: on the committed reference histories (tests/fixtures/fsrs_fit/,
// made with fsrs-rs 6.5.0's Node binding), proofdeck's fit predicts the history as well as
// fsrs-rs's own (log loss within 0.002) and better than the defaults, pre-trains w0–w3 as the
// reference does (within 5%), keeps every weight in its bounds, and keeps the defaults or fits
// w0–w3 only on histories too short for more, as the reference does.
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fsrs_fixture_support.hpp"
#include "study/fsrs.hpp"
#include "study/fsrs_fit.hpp"
#include "study/fsrs_optimize.hpp"

namespace test_fsrs_optimize {

using nlohmann::json;
using namespace proofdeck::study;
using namespace fsrs_fixtures;

namespace {

// The relearning ceiling on w17 and w18 that fsrs-rs's clip computes from w11, w13 and w14.
double ceiling_of(const std::array<double, 21>& w, int steps) {
  return std::min(
      2.0,
      std::sqrt(std::max(
          0.01, -(std::log(w[11]) + std::log(std::pow(2.0, w[13]) - 1.0) + 0.3 * w[14]) / steps)));
}

}  // namespace

// Every weight inside fsrs-rs's clip: the scheduler's bounds, w19 at least 0.01, w17 and w18
// under the relearning ceiling.
void require_within_bounds(const std::array<double, 21>& w, int relearning_steps) {
  for (std::size_t i = 0; i < 21; ++i) {
    INFO("w" << i << " = " << w[i]);
    CHECK(w[i] >= kWeightLowerBounds[i]);
    CHECK(w[i] <= kWeightUpperBounds[i]);
  }
  CHECK(w[19] >= 0.01);
  if (relearning_steps > 1) {
    // The clip caps them with the ceiling of the weights before it, a hair from the final one.
    CHECK(w[17] <= ceiling_of(w, relearning_steps) + 1e-3);
    CHECK(w[18] <= ceiling_of(w, relearning_steps) + 1e-3);
  }
}

TEST_CASE(
    "fsrs fit: on every reference history, as good as fsrs-rs's own fit and better than the "
    "defaults",
    "[fsrs][optimize]") {
  for (const char* name : {"learner_typical", "learner_forgetful", "learner_confident",
                           "bounds_push", "relearning_ceiling"}) {
    INFO(name);
    const json history = fixture(name);
    const std::vector<FsrsItem> items = items_of(history);
    FitOptions options;
    // That history was fitted with three relearning steps, which lower w17 and w18's ceiling.
    if (std::string(name) == "relearning_ceiling") options.relearning_steps = 3;
    const FsrsFitResult fit = fit_weights(items, options);
    REQUIRE(fit.stage == FitStage::all_weights);
    const std::optional<FsrsEvaluation> ours = evaluate_weights(fit.weights, items);
    const std::optional<FsrsEvaluation> theirs =
        evaluate_weights(weights_of(history.at("fitted_weights")), items);
    const std::optional<FsrsEvaluation> defaults = evaluate_weights(kDefaultWeights, items);
    REQUIRE(ours);
    CHECK(ours->log_loss <= theirs->log_loss + 0.002);
    CHECK(ours->log_loss < defaults->log_loss);
    REQUIRE(fit.pretrained);
    const std::array<double, 21> pretrained = weights_of(history.at("pretrained_weights"));
    for (std::size_t i = 0; i < 4; ++i) {
      INFO("w" << i);
      CHECK((*fit.pretrained)[i] == Approx(pretrained[i]).epsilon(0.05));
    }
    require_within_bounds(fit.weights, options.relearning_steps);
  }
}

TEST_CASE("fsrs fit: weights the history pushes past their bounds stop at them",
          "[fsrs][optimize]") {
  // Forgetting almost flat: w20 is driven to its floor, 0.1.
  const FsrsFitResult flat = fit_weights(items_of(fixture("bounds_push")));
  CHECK(flat.weights[20] == 0.1);
  // Three relearning steps: w17 rises to the ceiling w11, w13 and w14 leave it.
  FitOptions three_steps;
  three_steps.relearning_steps = 3;
  const FsrsFitResult capped = fit_weights(items_of(fixture("relearning_ceiling")), three_steps);
  CHECK(capped.weights[17] == Approx(ceiling_of(capped.weights, 3)).margin(0.01));
  CHECK(capped.weights[17] < kDefaultWeights[17]);
}

TEST_CASE("fsrs fit: too short a history keeps the defaults, or fits w0-w3 only",
          "[fsrs][optimize]") {
  const FsrsFitResult tiny = fit_weights(items_of(fixture("tiny_7_items")));
  CHECK(tiny.stage == FitStage::defaults);
  CHECK(tiny.weights == kDefaultWeights);
  CHECK_FALSE(fit_weights({}).pretrained.has_value());

  const json small = fixture("small_63_items");
  const FsrsFitResult fit = fit_weights(items_of(small));
  CHECK(fit.stage == FitStage::initial_stability);
  CHECK(fit.items == 63);
  const std::array<double, 21> reference = weights_of(small.at("fitted_weights"));
  for (std::size_t i = 0; i < 21; ++i) {
    INFO("w" << i);
    if (i < 4) {
      CHECK(fit.weights[i] == Approx(reference[i]).epsilon(0.05));
    } else {
      CHECK(fit.weights[i] == kDefaultWeights[i]);
    }
  }
}

TEST_CASE("fsrs fit: the same history fits the same weights", "[fsrs][optimize]") {
  const std::vector<FsrsItem> items = items_of(fixture("learner_typical"));
  CHECK(fit_weights(items).weights == fit_weights(items).weights);
}

TEST_CASE("fsrs fit: the training gradient is the loss's, by finite differences",
          "[fsrs][optimize]") {
  const std::vector<FsrsItem> items = items_of(fixture("learner_forgetful"));
  const std::vector<FsrsItem> some(items.begin(), items.begin() + 600);
  std::array<double, 21> at = weights_of(fixture("learner_forgetful").at("fitted_weights"));
  const std::array<double, 21> start = kDefaultWeights;
  const TrainingLoss loss = training_loss(at, start, some);
  for (std::size_t i = 0; i < 21; ++i) {
    INFO("w" << i);
    const double h = 1e-6 * std::max(1.0, std::abs(at[i]));
    std::array<double, 21> up = at, down = at;
    up[i] += h;
    down[i] -= h;
    const double numeric =
        (training_loss(up, start, some).loss - training_loss(down, start, some).loss) / (2 * h);
    CHECK(loss.gradient[i] == Approx(numeric).margin(1e-6).epsilon(1e-4));
  }
}

TEST_CASE("fsrs fit: the clip holds each weight in fsrs-rs's range", "[fsrs][optimize]") {
  std::array<double, 21> wild{};
  wild.fill(1000.0);
  const std::array<double, 21> high = clip_weights(wild);
  CHECK(high == kWeightUpperBounds);
  wild.fill(-1000.0);
  std::array<double, 21> low = kWeightLowerBounds;
  low[19] = 0.01;  // short-term memory is fitted
  CHECK(clip_weights(wild) == low);
  // With more than one relearning step, w17 and w18 stay under sqrt(−(ln w11 + ln(2^w13 − 1) +
  // 0.3·w14) / steps).
  std::array<double, 21> w = kDefaultWeights;
  w[17] = w[18] = 1.5;
  const std::array<double, 21> capped = clip_weights(w, 3);
  CHECK(capped[17] == Approx(ceiling_of(kDefaultWeights, 3)));
  CHECK(capped[18] == capped[17]);
  CHECK(clip_weights(w, 1)[17] == 1.5);
}

TEST_CASE("fsrs fit: smooth_and_fill orders the initial stabilities and fills the unseen",
          "[fsrs][optimize]") {
  // Hard above Good: the rating seen less often takes the other's value.
  const auto ordered = smooth_and_fill({{1, 0.5}, {2, 4.0}, {3, 3.0}, {4, 10.0}},
                                       {{1, 30}, {2, 5}, {3, 90}, {4, 20}});
  REQUIRE(ordered);
  CHECK(*ordered == std::array<double, 4>{0.5, 3.0, 3.0, 10.0});
  // Only Good seen: the defaults scaled by its ratio to the default.
  const auto one = smooth_and_fill({{3, 2 * kDefaultWeights[2]}}, {{3, 40}});
  REQUIRE(one);
  for (std::size_t i = 0; i < 4; ++i)
    CHECK((*one)[i] == Approx(2 * kDefaultWeights[i]));
  // Again and Good seen: Hard between them, Easy past Good, by FSRS's geometric rules.
  const auto two = smooth_and_fill({{1, 0.2}, {3, 2.0}}, {{1, 20}, {3, 60}});
  REQUIRE(two);
  CHECK((*two)[1] == Approx(std::pow(0.2, 0.41) * std::pow(2.0, 0.59)));
  CHECK((*two)[0] < (*two)[1]);
  CHECK((*two)[1] < (*two)[2]);
  CHECK((*two)[2] < (*two)[3]);
  // A stability for a rating never seen is ignored; nothing seen, nothing to fill from.
  CHECK_FALSE(smooth_and_fill({{2, 1.0}}, {}).has_value());
}

}  // namespace test_fsrs_optimize
