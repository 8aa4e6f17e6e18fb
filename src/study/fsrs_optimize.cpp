// FSRS-6 weights fitted to a learner's reviews as fsrs-rs's compute_parameters fits them
// (study/fsrs_optimize.hpp; the reference's file and line in docs/fsrs-fit-reference.md).
#include "study/fsrs_optimize.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

#include "engine/rng.hpp"
#include "study/dual.hpp"
#include "study/fsrs.hpp"
#include "study/fsrs_memory.hpp"

namespace proofdeck::study {

namespace {

using Weights = std::array<double, 21>;
using Grad = Dual<21>;

constexpr double kInitialStabilityMax = 100.0;  // fsrs-rs's INIT_S_MAX
constexpr double kMinRecall = 1e-7;             // training clamps R to [1e-7, 1 − 1e-7]

// fsrs-rs's PARAMS_STDDEV: how far each weight strays across Anki users; the L2 pull divides by
// its square.
constexpr Weights kWeightSpread{6.43, 9.66, 17.58, 27.85, 0.57, 0.28, 0.6,  0.12, 0.39, 0.18, 0.33,
                                0.3,  0.09, 0.16,  0.57,  0.25, 1.03, 0.31, 0.32, 0.14, 0.27};

// ---- pre-training w0–w3 ----

struct IntervalRecall {
  double delta_t;
  double recall;  // share recalled, Laplace-smoothed
  double count;
};

// fsrs-rs's pre-training loss of an initial stability: the count-weighted log loss of the
// default forgetting curve at each first interval, plus |s0 − default| / 16.
double initial_stability_loss(const std::vector<IntervalRecall>& data, double s0,
                              double default_s0) {
  namespace f = fsrs_formulas;
  const double decay = f::decay(kDefaultWeights);
  const double factor = f::factor(decay);
  double loss = 0.0;
  for (const IntervalRecall& d : data) {
    const double r = f::forgetting_curve(decay, factor, d.delta_t, s0);
    loss -= (d.recall * std::log(r) + (1.0 - d.recall) * std::log(1.0 - r)) * d.count;
  }
  return loss + std::abs(s0 - default_s0) / 16.0;
}

// The ternary search fsrs-rs runs for each first rating, on [0.001, 100].
double search_initial_stability(const std::vector<IntervalRecall>& data, double default_s0) {
  double low = kStabilityMin, high = kInitialStabilityMax, best = default_s0;
  for (int i = 0; i < 1000 && high - low > std::numeric_limits<double>::epsilon(); ++i) {
    const double mid1 = low + (high - low) / 3.0, mid2 = high - (high - low) / 3.0;
    if (initial_stability_loss(data, mid1, default_s0) <
        initial_stability_loss(data, mid2, default_s0)) {
      high = mid2;
    } else {
      low = mid1;
    }
    best = (high + low) / 2.0;
  }
  return best;
}

// ---- training ----

struct Batch {
  std::vector<const FsrsItem*> items;
  std::vector<double> weights;  // recency
};

// PyTorch's CosineAnnealingLR in its recursive form (fsrs-rs's cosine_annealing.rs), to 0.
class CosineAnnealing {
 public:
  CosineAnnealing(double steps, double rate) : steps_(steps), initial_(rate), rate_(rate) {}
  double next() {
    count_ += 1.0;
    const double pi = std::numbers::pi;
    if (count_ == 0.0) {
      rate_ = initial_;
    } else if (std::fmod(count_ - 1.0 - steps_, 2.0 * steps_) == 0.0) {
      rate_ = initial_ * (1.0 - std::cos(pi / steps_)) / 2.0;
    } else {
      rate_ = (1.0 + std::cos(pi * count_ / steps_)) /
              (1.0 + std::cos(pi * (count_ - 1.0) / steps_)) * rate_;
    }
    return rate_;
  }

 private:
  double steps_, initial_, rate_;
  double count_ = -1.0;
};

// Adam (β1 0.9, β2 0.999, ε 1e-8, bias-corrected, no weight decay).
class Adam {
 public:
  void step(Weights& weights, const Weights& gradient, double rate) {
    ++t_;
    const double bias1 = 1.0 - std::pow(0.9, t_), bias2 = 1.0 - std::pow(0.999, t_);
    for (std::size_t i = 0; i < 21; ++i) {
      m_[i] = 0.9 * m_[i] + 0.1 * gradient[i];
      v_[i] = 0.999 * v_[i] + 0.001 * gradient[i] * gradient[i];
      weights[i] -= rate * (m_[i] / bias1) / (std::sqrt(v_[i] / bias2) + 1e-8);
    }
  }

 private:
  Weights m_{}, v_{};
  int t_ = 0;
};

// The weighted log loss of a batch and, when `gradient` is given, its gradient (added to it).
double batch_loss(const Weights& weights, const Batch& batch, Weights* gradient) {
  std::array<Grad, 21> inputs;
  for (std::size_t i = 0; i < 21; ++i)
    inputs[i] = Grad::input(weights[i], i);
  double loss = 0.0;
  for (std::size_t k = 0; k < batch.items.size(); ++k) {
    const FsrsItem& item = *batch.items[k];
    const double y = item.back().rating > 1 ? 1.0 : 0.0;
    const double w = batch.weights[k];
    if (gradient == nullptr) {
      const double r = std::clamp(recall_of_last(weights, item), kMinRecall, 1.0 - kMinRecall);
      loss -= w * (y * std::log(r) + (1.0 - y) * std::log(1.0 - r));
      continue;
    }
    const Grad raw = recall_of_last(inputs, item);
    const double r = std::clamp(raw.value, kMinRecall, 1.0 - kMinRecall);
    loss -= w * (y * std::log(r) + (1.0 - y) * std::log(1.0 - r));
    if (raw.value <= kMinRecall || raw.value >= 1.0 - kMinRecall) continue;  // clamped: flat
    const double d_loss_d_r = -w * (y / r - (1.0 - y) / (1.0 - r));
    for (std::size_t i = 0; i < 21; ++i)
      (*gradient)[i] += d_loss_d_r * raw.grad[i];
  }
  return loss;
}

// The L2 pull toward the starting weights, scaled by the batch's share of the items, and (when
// `gradient` is given) its gradient added to it.
double pull(const Weights& weights, const Weights& start, double scale, Weights* gradient) {
  double penalty = 0.0;
  for (std::size_t i = 0; i < 21; ++i) {
    const double spread = kWeightSpread[i] * kWeightSpread[i];
    const double delta = weights[i] - start[i];
    penalty += delta * delta / spread * scale;
    if (gradient != nullptr) (*gradient)[i] += 2.0 * delta / spread * scale;
  }
  return penalty;
}

// fsrs-rs's batches: the items sorted by their number of reviews (stably), cut into batch_size.
std::vector<Batch> batches_of(const std::vector<FsrsItem>& items, const FitOptions& options) {
  std::vector<std::pair<const FsrsItem*, double>> weighted;
  for (std::size_t i = 0; i < items.size(); ++i)
    weighted.emplace_back(&items[i], recency_weight(i, items.size()));
  std::erase_if(weighted, [&](const auto& w) { return w.first->size() > options.max_reviews; });
  std::stable_sort(weighted.begin(), weighted.end(),
                   [](const auto& a, const auto& b) { return a.first->size() < b.first->size(); });
  std::vector<Batch> batches;
  for (std::size_t i = 0; i < weighted.size(); i += options.batch_size) {
    Batch batch;
    for (std::size_t k = i; k < std::min(weighted.size(), i + options.batch_size); ++k) {
      batch.items.push_back(weighted[k].first);
      batch.weights.push_back(weighted[k].second);
    }
    batches.push_back(std::move(batch));
  }
  return batches;
}

std::size_t total_items(const std::vector<Batch>& batches) {
  std::size_t n = 0;
  for (const Batch& batch : batches)
    n += batch.items.size();
  return n;
}

// The epoch's loss: every batch's log loss and pull, over the items.
TrainingLoss epoch_loss(const Weights& weights, const Weights& start,
                        const std::vector<Batch>& batches, const FitOptions& options,
                        bool with_gradient) {
  TrainingLoss out;
  const auto total = static_cast<double>(total_items(batches));
  for (const Batch& batch : batches) {
    Weights* gradient = with_gradient ? &out.gradient : nullptr;
    const double scale = options.gamma * static_cast<double>(batch.items.size()) / total;
    out.loss += batch_loss(weights, batch, gradient) + pull(weights, start, scale, gradient);
  }
  out.loss /= total;
  for (double& g : out.gradient)
    g /= total;
  return out;
}

struct Trained {
  Weights weights;
  double loss;
};

// Adam over the batches, in an order `rng` shuffles anew each epoch: the best epoch's weights.
Trained train_once(const std::vector<Batch>& batches, const Weights& start,
                   const FitOptions& options, engine::Rng& rng) {
  const std::size_t total = total_items(batches);
  CosineAnnealing schedule(static_cast<double>((total / options.batch_size + 1) *
                                               static_cast<std::size_t>(options.epochs)),
                           options.learning_rate);
  Weights weights = start;
  Trained best{start, std::numeric_limits<double>::infinity()};
  Adam adam;
  std::vector<std::size_t> order(batches.size());
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    for (std::size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    for (std::size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[rng.below(i)]);
    for (const std::size_t b : order) {
      const double rate = schedule.next();
      Weights gradient{};
      batch_loss(weights, batches[b], &gradient);
      pull(
          weights, start,
          options.gamma * static_cast<double>(batches[b].items.size()) / static_cast<double>(total),
          &gradient);
      adam.step(weights, gradient, rate);
      weights = clip_weights(weights, options.relearning_steps);
    }
    const double loss = epoch_loss(weights, start, batches, options, false).loss;
    if (loss < best.loss) best = {weights, loss};
  }
  return best;
}

// fsrs-rs's training from options.orders batch orders: the run with the lowest loss.
Weights train(const std::vector<Batch>& batches, const Weights& start, const FitOptions& options) {
  engine::Rng rng(options.seed);
  Trained best{start, std::numeric_limits<double>::infinity()};
  for (int run = 0; run < std::max(options.orders, 1); ++run) {
    const Trained trained = train_once(batches, start, options, rng);
    if (trained.loss < best.loss) best = trained;
  }
  return best.weights;
}

}  // namespace

Weights clip_weights(Weights weights, int relearning_steps) {
  double ceiling = kWeightUpperBounds[17];
  if (relearning_steps > 1) {
    const double room =
        -(std::log(weights[11]) + std::log(std::pow(2.0, weights[13]) - 1.0) + 0.3 * weights[14]) /
        relearning_steps;
    ceiling = std::min(std::sqrt(std::max(0.01, room)), kWeightUpperBounds[17]);
  }
  for (std::size_t i = 0; i < 21; ++i) {
    double low = kWeightLowerBounds[i], high = kWeightUpperBounds[i];
    if (i == 17 || i == 18) high = ceiling;
    if (i == 19) low = 0.01;  // short-term memory is fitted
    weights[i] = std::clamp(weights[i], low, high);
  }
  return weights;
}

std::optional<std::array<double, 4>> smooth_and_fill(std::map<int, double> stability,
                                                     const std::map<int, std::size_t>& counts) {
  std::erase_if(stability, [&](const auto& entry) { return !counts.contains(entry.first); });
  constexpr std::array<std::pair<int, int>, 6> kPairs{
      {{1, 2}, {2, 3}, {3, 4}, {1, 3}, {2, 4}, {1, 4}}};
  for (const auto& [small, big] : kPairs) {
    if (!stability.contains(small) || !stability.contains(big)) continue;
    if (stability[small] <= stability[big]) continue;
    if (counts.at(small) > counts.at(big)) {
      stability[big] = stability[small];
    } else {
      stability[small] = stability[big];
    }
  }
  if (stability.empty()) return std::nullopt;
  std::array<std::optional<double>, 5> s;  // s[1] … s[4]
  for (const auto& [rating, value] : stability)
    s[static_cast<std::size_t>(rating)] = value;
  const double w1 = 0.41, w2 = 0.54;
  const auto present = [&](int r) { return s[static_cast<std::size_t>(r)].has_value(); };
  if (stability.size() == 1) {
    const auto [rating, value] = *stability.begin();
    const double scale = value / kDefaultWeights[static_cast<std::size_t>(rating - 1)];
    for (std::size_t r = 1; r <= 4; ++r)
      s[r] = kDefaultWeights[r - 1] * scale;
  } else if (stability.size() == 2) {
    if (present(3) && present(4)) {
      s[2] = std::pow(*s[3], 1.0 / (1.0 - w2)) * std::pow(*s[4], 1.0 - 1.0 / (1.0 - w2));
      s[1] = std::pow(*s[2], 1.0 / w1) * std::pow(*s[3], 1.0 - 1.0 / w1);
    } else if (present(2) && present(4)) {
      s[3] = std::pow(*s[2], 1.0 - w2) * std::pow(*s[4], w2);
      s[1] = std::pow(*s[2], 1.0 / w1) * std::pow(*s[3], 1.0 - 1.0 / w1);
    } else if (present(2) && present(3)) {
      s[4] = std::pow(*s[2], 1.0 - 1.0 / w2) * std::pow(*s[3], 1.0 / w2);
      s[1] = std::pow(*s[2], 1.0 / w1) * std::pow(*s[3], 1.0 - 1.0 / w1);
    } else if (present(1) && present(4)) {
      const double denominator = w1 + w2 - w1 * w2;
      s[2] = std::pow(*s[1], w1 / denominator) * std::pow(*s[4], 1.0 - w1 / denominator);
      s[3] = std::pow(*s[1], 1.0 - w2 / denominator) * std::pow(*s[4], w2 / denominator);
    } else if (present(1) && present(3)) {
      s[2] = std::pow(*s[1], w1) * std::pow(*s[3], 1.0 - w1);
      s[4] = std::pow(*s[2], 1.0 - 1.0 / w2) * std::pow(*s[3], 1.0 / w2);
    } else {  // 1 and 2
      s[3] = std::pow(*s[1], 1.0 - 1.0 / (1.0 - w1)) * std::pow(*s[2], 1.0 / (1.0 - w1));
      s[4] = std::pow(*s[2], 1.0 - 1.0 / w2) * std::pow(*s[3], 1.0 / w2);
    }
  } else if (stability.size() == 3) {
    if (!present(1)) {
      s[1] = std::pow(*s[2], 1.0 / w1) * std::pow(*s[3], 1.0 - 1.0 / w1);
    } else if (!present(2)) {
      s[2] = std::pow(*s[1], w1) * std::pow(*s[3], 1.0 - w1);
    } else if (!present(3)) {
      s[3] = std::pow(*s[2], 1.0 - w2) * std::pow(*s[4], w2);
    } else {
      s[4] = std::pow(*s[2], 1.0 - 1.0 / w2) * std::pow(*s[3], 1.0 / w2);
    }
  }
  std::array<double, 4> out{};
  for (std::size_t r = 1; r <= 4; ++r)
    out[r - 1] = std::clamp(*s[r], kStabilityMin, kInitialStabilityMax);
  return out;
}

std::optional<std::array<double, 4>> pretrain_initial_stability(
    const std::vector<FsrsItem>& initialization, double average_recall,
    std::map<int, std::size_t>& counts) {
  // First rating → first interval → (recalled, seen).
  std::map<int, std::map<int, std::pair<double, double>>> groups;
  for (const FsrsItem& item : initialization) {
    auto& [recalled, seen] = groups[item.front().rating][item.back().delta_t];
    recalled += item.back().rating > 1 ? 1.0 : 0.0;
    seen += 1.0;
  }
  counts.clear();
  std::map<int, double> stability;
  for (const auto& [rating, by_interval] : groups) {
    std::vector<IntervalRecall> data;
    std::size_t seen_in_all = 0;
    for (const auto& [delta_t, tally] : by_interval) {
      const auto [recalled, seen] = tally;
      data.push_back(
          {static_cast<double>(delta_t), (recalled + average_recall) / (seen + 1.0), seen});
      seen_in_all += static_cast<std::size_t>(seen);
    }
    counts[rating] = seen_in_all;
    stability[rating] =
        search_initial_stability(data, kDefaultWeights[static_cast<std::size_t>(rating - 1)]);
  }
  return smooth_and_fill(stability, counts);
}

FsrsFitResult fit_weights(const std::vector<FsrsItem>& items, const FitOptions& options) {
  const FilteredItems filtered = filter_outliers(items);
  FsrsFitResult result;
  result.weights = kDefaultWeights;
  result.items = filtered.kept.size();
  result.initialization_items = filtered.initialization.size();
  if (result.items < kFitMinimumItems) return result;
  const auto recalled = std::count_if(filtered.kept.begin(), filtered.kept.end(),
                                      [](const FsrsItem& item) { return item.back().rating > 1; });
  const double average_recall =
      static_cast<double>(recalled) / static_cast<double>(filtered.kept.size());
  std::map<int, std::size_t> counts;
  result.pretrained = pretrain_initial_stability(filtered.initialization, average_recall, counts);
  if (!result.pretrained) return result;
  Weights start = kDefaultWeights;
  std::copy(result.pretrained->begin(), result.pretrained->end(), start.begin());
  result.weights = start;
  result.stage = FitStage::initial_stability;
  if (result.items == result.initialization_items || result.items < kFitAllWeightsItems)
    return result;

  const Weights trained = train(batches_of(filtered.kept, options), start, options);
  if (!std::all_of(trained.begin(), trained.end(), [](double w) { return std::isfinite(w); }))
    return result;
  std::map<int, double> initial;
  for (int rating = 1; rating <= 4; ++rating)
    initial[rating] = trained[static_cast<std::size_t>(rating - 1)];
  const std::optional<std::array<double, 4>> smoothed = smooth_and_fill(initial, counts);
  result.weights = trained;
  std::copy(smoothed->begin(), smoothed->end(), result.weights.begin());
  result.stage = FitStage::all_weights;
  return result;
}

TrainingLoss training_loss(const Weights& weights, const Weights& start,
                           const std::vector<FsrsItem>& items, const FitOptions& options) {
  return epoch_loss(weights, start, batches_of(items, options), options, true);
}

}  // namespace proofdeck::study
