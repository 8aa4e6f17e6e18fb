// A card's memory through its reviews as fsrs-rs runs it when it fits and evaluates weights
// (docs/fsrs-fit-reference.md, "The model"): the first review sets S = w[G−1] and D = D0(G), each
// later one steps them with the scheduler's formulas (study/fsrs_formulas.hpp) — the short-term
// stability the same day, recall or forget stability a day or more later — with stability kept
// in [0.001, 36500] and difficulty in [1, 10]. For any number type: doubles to predict, dual
// numbers to fit.
#pragma once

#include <algorithm>
#include <cstddef>

#include "study/fsrs.hpp"
#include "study/fsrs_formulas.hpp"
#include "study/fsrs_item.hpp"

namespace proofdeck::study {

inline constexpr double kFitMaxStability = 36500.0;  // fsrs-rs's S_MAX

template <typename T>
struct MemoryState {
  T stability;
  T difficulty;
};

// The memory after the first `count` reviews of `item` (count ≥ 1).
template <typename T>
MemoryState<T> memory_after(const fsrs_formulas::Weights<T>& w, const FsrsItem& item,
                            std::size_t count) {
  namespace f = fsrs_formulas;
  const T decay = f::decay(w);
  const T factor = f::factor(decay);
  const int first = std::clamp(item.front().rating, 1, 4);
  MemoryState<T> state{
      f::clamp_to(w[static_cast<std::size_t>(first - 1)], kStabilityMin, kFitMaxStability),
      f::clamp_to(f::initial_difficulty(w, first), kDifficultyMin, kDifficultyMax)};
  for (std::size_t i = 1; i < count; ++i) {
    const T s = f::clamp_to(state.stability, kStabilityMin, kFitMaxStability);
    const T d = f::clamp_to(state.difficulty, kDifficultyMin, kDifficultyMax);
    const double grade = item[i].rating;
    T next_s;
    if (item[i].delta_t == 0) {
      next_s = s * f::short_term_factor(w, s, grade);
    } else {
      const T r = f::forgetting_curve(decay, factor, T(item[i].delta_t), s);
      next_s = grade == 1.0 ? f::next_forget_stability(w, d, s, r)
                            : f::next_recall_stability(w, d, s, r, grade);
    }
    state = {f::clamp_to(next_s, kStabilityMin, kFitMaxStability),
             f::next_difficulty(w, d, grade, kDifficultyMin, kDifficultyMax)};
  }
  return state;
}

// The probability of recall the weights give the item's last review.
template <typename T>
T recall_of_last(const fsrs_formulas::Weights<T>& w, const FsrsItem& item) {
  namespace f = fsrs_formulas;
  const MemoryState<T> state = memory_after(w, item, item.size() - 1);
  const T decay = f::decay(w);
  return f::forgetting_curve(decay, f::factor(decay), T(item.back().delta_t), state.stability);
}

}  // namespace proofdeck::study
