// FSRS-6 weights measured on a learner's reviews as fsrs-rs's evaluate measures them
// (study/fsrs_fit.hpp; the reference's file and line in docs/fsrs-fit-reference.md).
#include "study/fsrs_fit.hpp"

#include "study/fsrs_memory.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace proofdeck::study {

namespace {

using Weights = std::array<double, 21>;

// fsrs-rs's r_matrix_index: the interval, the review count and the lapses, each on a log scale.
std::tuple<long, long, long> bin_of(const FsrsItem& item) {
  const double delta_t = item.back().delta_t;
  const auto delta_t_bin =
      std::lround(2.48 * std::pow(3.62, std::floor(std::log(delta_t) / std::log(3.62))) * 100.0);
  const double length = long_term_reviews(item) + 1.0;
  const auto length_bin =
      std::lround(1.99 * std::pow(1.89, std::floor(std::log(length) / std::log(1.89))));
  int lapses = 0;
  for (std::size_t i = 0; i + 1 < item.size(); ++i)
    lapses += item[i].rating == 1 && item[i].delta_t > 0 ? 1 : 0;
  if (lapses == 0) return {delta_t_bin, length_bin, 0};
  return {delta_t_bin, length_bin,
          std::lround(1.65 * std::pow(1.73, std::floor(std::log(lapses) / std::log(1.73))))};
}

int first_interval(const FsrsItem& item) {
  for (const FsrsReview& review : item) {
    if (review.delta_t > 0) return review.delta_t;
  }
  return 0;
}

}  // namespace

int long_term_reviews(const FsrsItem& item) {
  return static_cast<int>(
      std::count_if(item.begin(), item.end(), [](const FsrsReview& r) { return r.delta_t > 0; }));
}

double predicted_recall(const Weights& weights, const FsrsItem& item) {
  return recall_of_last(weights, item);
}

FilteredItems filter_outliers(const std::vector<FsrsItem>& items) {
  // First rating → first interval → the one-interval items in the order given.
  std::map<int, std::map<int, std::vector<const FsrsItem*>>> groups;
  for (const FsrsItem& item : items) {
    if (long_term_reviews(item) == 1)
      groups[item.front().rating][item.back().delta_t].push_back(&item);
  }
  FilteredItems out;
  std::set<std::pair<int, int>> removed;  // (first rating, first interval)
  for (const auto& [rating, by_interval] : groups) {
    std::vector<std::pair<int, const std::vector<const FsrsItem*>*>> sub_groups;
    std::size_t total = 0;
    for (const auto& [interval, members] : by_interval) {
      sub_groups.emplace_back(interval, &members);
      total += members.size();
    }
    // Smallest groups first, and of equal size the shorter interval first.
    std::sort(sub_groups.begin(), sub_groups.end(), [](const auto& a, const auto& b) {
      return a.second->size() != b.second->size() ? a.second->size() < b.second->size()
                                                  : a.first < b.first;
    });
    const std::size_t threshold = std::max<std::size_t>(20, total / 20);
    std::size_t removed_so_far = 0;
    for (const auto& [interval, members] : sub_groups) {
      if (removed_so_far + members->size() >= threshold) {
        if (members->size() >= 6 && interval <= (rating != 4 ? 100 : 365)) {
          for (const FsrsItem* item : *members)
            out.initialization.push_back(*item);
        } else {
          removed.emplace(rating, interval);
        }
      } else {
        removed_so_far += members->size();
        removed.emplace(rating, interval);
      }
    }
  }
  for (const FsrsItem& item : items) {
    if (removed.contains({item.front().rating, first_interval(item)})) continue;
    out.kept.push_back(item);
    if (long_term_reviews(item) != 1) out.rest.push_back(item);
  }
  return out;
}

namespace {

// Each card's rated drill reviews, oldest first, as FSRS reviews: the first with Δt 0, the rest
// Δt their elapsed days. `on_review` sees the card and its reviews so far after each one.
template <typename OnReview>
void replay_drill_reviews(const std::vector<ReviewRow>& rows, OnReview on_review) {
  std::map<std::string, FsrsItem> history;
  for (const ReviewRow& row : rows) {
    if (row.mode != "drill" || !row.rating || *row.rating < 1 || *row.rating > 4) continue;
    FsrsItem& reviews = history[row.card];
    const int delta_t = reviews.empty() ? 0 : std::max(0, row.elapsed_days.value_or(0));
    reviews.push_back({*row.rating, delta_t});
    on_review(row.card, reviews);
  }
}

}  // namespace

std::vector<FsrsItem> drill_items(const std::vector<ReviewRow>& rows) {
  std::vector<FsrsItem> items;
  replay_drill_reviews(rows, [&](const std::string&, const FsrsItem& reviews) {
    if (reviews.back().delta_t > 0) items.push_back(reviews);
  });
  return items;
}

std::map<std::string, CardMemory> drill_memory(const Weights& weights,
                                               const std::vector<ReviewRow>& rows) {
  std::map<std::string, FsrsItem> history;
  replay_drill_reviews(
      rows, [&](const std::string& card, const FsrsItem& reviews) { history[card] = reviews; });
  std::map<std::string, CardMemory> memory;
  for (const auto& [card, reviews] : history) {
    const MemoryState<double> state = memory_after(weights, reviews, reviews.size());
    memory[card] = {state.stability, state.difficulty};
  }
  return memory;
}

double recency_weight(std::size_t i, std::size_t n) {
  const double last = std::max(static_cast<double>(n) - 1.0, 1.0);
  return 0.25 + 0.75 * std::pow(static_cast<double>(i) / last, 3);
}

std::optional<FsrsEvaluation> evaluate_weights(const Weights& weights,
                                               const std::vector<FsrsItem>& items) {
  FilteredItems filtered = filter_outliers(items);
  std::vector<FsrsItem> order = std::move(filtered.initialization);
  order.insert(order.end(), filtered.rest.begin(), filtered.rest.end());
  if (order.empty()) return std::nullopt;
  struct Bin {
    double predicted = 0, actual = 0, count = 0, weight = 0;
  };
  std::map<std::tuple<long, long, long>, Bin> bins;
  double loss = 0.0, weight_sum = 0.0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const double p = predicted_recall(weights, order[i]);
    const double y = order[i].back().rating > 1 ? 1.0 : 0.0;
    const double w = recency_weight(i, order.size());
    loss -= w * (y * std::log(p) + (1.0 - y) * std::log(1.0 - p));
    weight_sum += w;
    Bin& bin = bins[bin_of(order[i])];
    bin.predicted += p;
    bin.actual += y;
    bin.count += 1.0;
    bin.weight += w;
  }
  double squared = 0.0, bin_weights = 0.0;
  for (const auto& [key, bin] : bins) {
    const double gap = bin.predicted / bin.count - bin.actual / bin.count;
    squared += gap * gap * bin.weight;
    bin_weights += bin.weight;
  }
  return FsrsEvaluation{order.size(), loss / weight_sum, std::sqrt(squared / bin_weights)};
}

}  // namespace proofdeck::study
