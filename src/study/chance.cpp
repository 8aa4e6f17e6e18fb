// A blind guess's chance, and the Poisson-binomial tail (chance.hpp).
#include "study/chance.hpp"

#include <cmath>
#include <cstddef>

namespace proofdeck::study {

double guess_chance(const bank::Question& question) {
  switch (question.type) {
    case bank::QuestionType::single:
      return question.options.empty() ? 0.0 : 1.0 / static_cast<double>(question.options.size());
    case bank::QuestionType::multi:
      return question.options.empty()
                 ? 0.0
                 : 1.0 / (std::pow(2.0, static_cast<double>(question.options.size())) - 1.0);
    case bank::QuestionType::truefalse:
      return 0.5;
    case bank::QuestionType::order: {
      double orderings = 1.0;
      for (std::size_t n = 2; n <= question.steps.size(); ++n)
        orderings *= static_cast<double>(n);
      return 1.0 / orderings;
    }
    case bank::QuestionType::numeric:
      return 0.0;
  }
  return 0.0;
}

double chance_of_at_least(const std::vector<double>& probabilities, int needed) {
  if (needed <= 0) return 1.0;
  // right[k]: the chance of exactly k right among the events seen so far.
  std::vector<double> right(probabilities.size() + 1, 0.0);
  right[0] = 1.0;
  for (std::size_t i = 0; i < probabilities.size(); ++i) {
    const double p = probabilities[i];
    for (std::size_t k = i + 1; k > 0; --k)
      right[k] = right[k] * (1.0 - p) + right[k - 1] * p;
    right[0] *= 1.0 - p;
  }
  double tail = 0.0;
  for (std::size_t k = static_cast<std::size_t>(needed); k < right.size(); ++k)
    tail += right[k];
  return tail;
}

}  // namespace proofdeck::study
