// The FSRS-6 memory formulas, once, for any number type: the scheduler (study/fsrs.cpp) runs them
// on doubles, and fitting the weights to a learner (study/fsrs_fit.cpp) runs the same code on
// dual numbers (study/dual.hpp) to get their gradient. `w` holds w0..w20; `grade` is the rating
// 1..4 as a number. Each formula is py-fsrs 6's Scheduler method of the same name.
#pragma once

#include <array>
#include <cmath>

namespace proofdeck::study::fsrs_formulas {

template <typename T>
using Weights = std::array<T, 21>;

template <typename T>
T clamp_to(const T& x, double low, double high) {
  if (x < T(low)) return T(low);
  if (T(high) < x) return T(high);
  return x;
}

// DECAY = −w20 and FACTOR = 0.9^(1/DECAY) − 1, so that R(S, S) = 0.9.
template <typename T>
T decay(const Weights<T>& w) {
  return -w[20];
}
template <typename T>
T factor(const T& decay) {
  using std::pow;
  return pow(T(0.9), T(1.0) / decay) - 1.0;
}

// R(t, S) = (1 + FACTOR·t/S)^DECAY.
template <typename T>
T forgetting_curve(const T& decay, const T& factor, const T& elapsed_days, const T& stability) {
  using std::pow;
  return pow(T(1.0) + factor * elapsed_days / stability, decay);
}

// D0(G) = w4 − e^(w5·(G−1)) + 1, unclamped.
template <typename T>
T initial_difficulty(const Weights<T>& w, double grade) {
  using std::exp;
  return w[4] - exp(w[5] * (grade - 1.0)) + 1.0;
}

// D' = D − w6·(G−3)·(10−D)/9, then w7·D0(Easy) + (1−w7)·D', clamped to [1, 10].
template <typename T>
T next_difficulty(const Weights<T>& w, const T& difficulty, double grade, double low, double high) {
  const T delta = -(w[6] * (grade - 3.0));
  const T damped = difficulty + (T(10.0) - difficulty) * delta / 9.0;  // linear damping
  const T reverted = w[7] * initial_difficulty(w, 4.0) + (T(1.0) - w[7]) * damped;
  return clamp_to(reverted, low, high);
}

// S·(1 + e^w8·(11−D)·S^(−w9)·(e^(w10·(1−R)) − 1)·(w15 if Hard)·(w16 if Easy)).
template <typename T>
T next_recall_stability(const Weights<T>& w, const T& difficulty, const T& stability,
                        const T& retrievability, double grade) {
  using std::exp;
  using std::pow;
  const T hard_penalty = grade == 2.0 ? w[15] : T(1.0);
  const T easy_bonus = grade == 4.0 ? w[16] : T(1.0);
  return stability *
         (T(1.0) + exp(w[8]) * (T(11.0) - difficulty) * pow(stability, -w[9]) *
                       (exp((T(1.0) - retrievability) * w[10]) - 1.0) * hard_penalty * easy_bonus);
}

// min(w11·D^(−w12)·((S+1)^w13 − 1)·e^(w14·(1−R)), S/e^(w17·w18)): FSRS-6 keeps post-lapse
// stability below the stability before the lapse.
template <typename T>
T next_forget_stability(const Weights<T>& w, const T& difficulty, const T& stability,
                        const T& retrievability) {
  using std::exp;
  using std::pow;
  const T long_term = w[11] * pow(difficulty, -w[12]) * (pow(stability + 1.0, w[13]) - 1.0) *
                      exp((T(1.0) - retrievability) * w[14]);
  const T short_term = stability / exp(w[17] * w[18]);
  return short_term < long_term ? short_term : long_term;
}

// A same-day review's factor on stability, e^(w17·(G−3+w18))·S^(−w19), floored at 1 for Hard,
// Good and Easy (py-fsrs 6.3.2: a same-day pass never lowers stability).
template <typename T>
T short_term_factor(const Weights<T>& w, const T& stability, double grade) {
  using std::exp;
  using std::pow;
  const T increase = exp(w[17] * (grade - 3.0 + w[18])) * pow(stability, -w[19]);
  if (grade != 1.0 && increase < T(1.0)) return T(1.0);
  return increase;
}

}  // namespace proofdeck::study::fsrs_formulas
