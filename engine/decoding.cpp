// The logits warpers and beam search (see decoding.hpp).
#include "engine/decoding.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include "engine/fault.hpp"

namespace proofdeck::engine {

namespace {

// log_softmax of one row, in double.
template <typename Row>
std::vector<double> log_softmax(const Row& row) {
  double top = -std::numeric_limits<double>::infinity();
  for (Index v = 0; v < row.size(); ++v)
    top = std::max(top, static_cast<double>(row(v)));
  double total = 0.0;
  for (Index v = 0; v < row.size(); ++v)
    total += std::exp(static_cast<double>(row(v)) - top);
  const double log_total = top + std::log(total);
  std::vector<double> out(static_cast<std::size_t>(row.size()));
  for (Index v = 0; v < row.size(); ++v)
    out[static_cast<std::size_t>(v)] = static_cast<double>(row(v)) - log_total;
  return out;
}

}  // namespace

template <typename T>
void sampling_distribution(Matrix<T>& probs, const Matrix<T>& logits, const SamplingConfig& config,
                           Matrix<T>* kept) {
  const Fault fault = enter(Op::decoding);
  require(
      std::isfinite(config.temperature) && config.temperature > 0.0,
      "sampling: temperature must be a positive number, got " + number_string(config.temperature));
  require(config.top_k >= 0, "sampling: top_k must be 0 (off) or a positive count, got " +
                                 std::to_string(config.top_k));
  require(config.top_p > 0.0 && config.top_p <= 1.0,
          "sampling: top_p must be in (0, 1], got " + number_string(config.top_p));
  require(logits.cols() > 0, "sampling: the logits have no tokens " + shape_of(logits));
  const Index vocab = logits.cols();
  probs.resize(logits.rows(), vocab);
  if (kept != nullptr) kept->resize(logits.rows(), vocab);
  const double minus_infinity = -std::numeric_limits<double>::infinity();
  for (Index row = 0; row < logits.rows(); ++row) {
    // 1. temperature
    std::vector<double> scores(static_cast<std::size_t>(vocab));
    for (Index v = 0; v < vocab; ++v) {
      const double logit = static_cast<double>(logits(row, v));
      require(std::isfinite(logit), "sampling: logit " + std::to_string(v) + " of row " +
                                        std::to_string(row) + " is not finite");
      scores[static_cast<std::size_t>(v)] = fault == Fault::temperature_inverted
                                                ? logit * config.temperature
                                                : logit / config.temperature;
    }
    // Tokens from the most likely to the least (ties: the lower token first).
    std::vector<std::size_t> order(scores.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
    // 2. top-k: below the k-th largest score goes.
    if (config.top_k > 0 && config.top_k < vocab) {
      const double kth = scores[order[static_cast<std::size_t>(config.top_k - 1)]];
      for (double& s : scores) {
        if (s < kth) s = minus_infinity;
      }
    }
    // 3. top-p on the softmax of what top-k left: a token stays while the tokens more likely
    // than it hold less than top_p (HF: the ascending running total above 1 − top_p).
    if (config.top_p < 1.0) {
      const std::vector<double> log_p = log_softmax(
          Eigen::Map<const Eigen::VectorXd>(scores.data(), static_cast<Index>(scores.size())));
      std::vector<double> p(log_p.size());
      for (std::size_t i = 0; i < p.size(); ++i)
        p[i] = std::exp(log_p[i]);
      // HF sums from the least likely token up and removes a token whose total is at most
      // 1 − top_p; the most likely token always stays.
      double from_bottom = 0.0;
      std::vector<double> total_up_to(p.size());
      for (auto it = order.rbegin(); it != order.rend(); ++it) {
        from_bottom += p[*it];
        total_up_to[*it] = from_bottom;
      }
      // Broken (top-p-share-of-vocabulary): p read as a share of the vocabulary, so the ⌈p·V⌉
      // likeliest tokens stay whatever their probabilities.
      const auto share =
          static_cast<std::size_t>(std::ceil(config.top_p * static_cast<double>(vocab)));
      double above = 0.0;  // the mass of the tokens more likely than this one
      for (std::size_t rank = 0; rank < order.size(); ++rank) {
        const std::size_t token = order[rank];
        bool removed = total_up_to[token] <= 1.0 - config.top_p;
        if (fault == Fault::top_p_drops_crossing_token) removed = above + p[token] >= config.top_p;
        if (fault == Fault::top_p_share_of_vocabulary) removed = rank >= share;
        if (rank > 0 && removed) scores[token] = minus_infinity;
        above += p[token];
      }
    }
    const std::vector<double> final_log_p = log_softmax(
        Eigen::Map<const Eigen::VectorXd>(scores.data(), static_cast<Index>(scores.size())));
    for (Index v = 0; v < vocab; ++v) {
      const bool stays = scores[static_cast<std::size_t>(v)] != minus_infinity;
      probs(row, v) =
          stays ? static_cast<T>(std::exp(final_log_p[static_cast<std::size_t>(v)])) : T(0);
      if (kept != nullptr) (*kept)(row, v) = stays ? T(1) : T(0);
    }
  }
}

template <typename T>
std::vector<Continuation> beam_search(const Matrix<T>& next_logits, Index start, Index steps,
                                      Index beams) {
  const Fault fault = enter(Op::decoding);
  const Index vocab = next_logits.cols();
  require(vocab > 0 && next_logits.rows() == vocab,
          "beam_search: next_logits has shape " + shape_of(next_logits) +
              ", expected (vocab, vocab): row t the logits of the token after t");
  require(start >= 0 && start < vocab, "beam_search: start token " + std::to_string(start) +
                                           " is not in the vocabulary of " + std::to_string(vocab));
  require(steps >= 1, "beam_search: steps must be at least 1, got " + std::to_string(steps));
  Index sequences = 1;  // vocab^steps, the sequences there are, counted up to `beams`
  for (Index step = 0; step < steps && sequences < beams; ++step)
    sequences *= vocab;
  require(beams >= 1 && beams <= sequences,
          "beam_search: beams must be between 1 and vocab^steps (" + std::to_string(vocab) + "^" +
              std::to_string(steps) + "), got " + std::to_string(beams));
  const Index keep = fault == Fault::beam_keeps_one ? 1 : beams;
  std::vector<std::vector<double>> row_log_probs;
  for (Index t = 0; t < vocab; ++t)
    row_log_probs.push_back(log_softmax(next_logits.row(t)));

  std::vector<Continuation> alive = {Continuation{}};
  for (Index step = 0; step < steps; ++step) {
    struct Candidate {
      double score;
      std::size_t beam;
      Index token;
    };
    std::vector<Candidate> candidates;
    for (std::size_t b = 0; b < alive.size(); ++b) {
      const Index last = alive[b].tokens.empty() ? start : alive[b].tokens.back();
      const auto& log_p = row_log_probs[static_cast<std::size_t>(last)];
      for (Index v = 0; v < vocab; ++v)
        candidates.push_back({alive[b].log_prob + log_p[static_cast<std::size_t>(v)], b, v});
    }
    const std::size_t kept = std::min(candidates.size(), static_cast<std::size_t>(keep));
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    std::vector<Continuation> next;
    for (std::size_t i = 0; i < kept; ++i) {
      Continuation extended = alive[candidates[i].beam];
      extended.tokens.push_back(candidates[i].token);
      extended.log_prob = candidates[i].score;
      next.push_back(std::move(extended));
    }
    alive = std::move(next);
  }
  return alive;
}

template void sampling_distribution<float>(Matrix<float>&, const Matrix<float>&,
                                           const SamplingConfig&, Matrix<float>*);
template void sampling_distribution<double>(Matrix<double>&, const Matrix<double>&,
                                            const SamplingConfig&, Matrix<double>*);
template std::vector<Continuation> beam_search<float>(const Matrix<float>&, Index, Index, Index);
template std::vector<Continuation> beam_search<double>(const Matrix<double>&, Index, Index, Index);

}  // namespace proofdeck::engine
