// Cross-entropy, perplexity and the tied LM head (see loss.hpp).
#include "engine/loss.hpp"

#include <cmath>
#include <string>

#include "engine/fault.hpp"

namespace proofdeck::engine {

std::string_view reduction_name(Reduction reduction) {
  switch (reduction) {
    case Reduction::mean:
      return "mean";
    case Reduction::sum:
      return "sum";
    case Reduction::none:
      return "none";
  }
  return "mean";
}

std::optional<Reduction> parse_reduction(std::string_view name) {
  for (const Reduction r : {Reduction::mean, Reduction::sum, Reduction::none})
    if (reduction_name(r) == name) return r;
  return std::nullopt;
}

template <typename T>
void cross_entropy_forward(Matrix<T>& losses, CrossEntropyCache<T>& cache, const Matrix<T>& logits,
                           const std::vector<std::int64_t>& targets, std::int64_t ignore_index,
                           Reduction reduction) {
  const bool dilute = enter(Op::cross_entropy) == Fault::padding_counted_in_mean;
  const Index rows = logits.rows(), classes = logits.cols();
  require(static_cast<Index>(targets.size()) == rows,
          std::to_string(targets.size()) + " targets for " + std::to_string(rows) +
              " rows of logits; expected one target a row");
  require(classes > 0, "the logits have no classes (0 columns)");
  cache.probabilities.resize(rows, classes);
  cache.counted.assign(static_cast<std::size_t>(rows), false);
  cache.count = 0;
  Matrix<T> each = Matrix<T>::Zero(rows, 1);
  for (Index n = 0; n < rows; ++n) {
    const std::int64_t target = targets[static_cast<std::size_t>(n)];
    // log softmax, stably: the row's largest logit taken out before exponentiating (one entry at
    // a time: GCC 12 warns falsely inside Eigen's AVX-512 exp when it is vectorised here)
    const T largest = logits.row(n).maxCoeff();
    T total = 0;
    for (Index c = 0; c < classes; ++c) {
      cache.probabilities(n, c) = std::exp(logits(n, c) - largest);
      total += cache.probabilities(n, c);
    }
    cache.probabilities.row(n) /= total;
    const T log_total = std::log(total);
    if (target == ignore_index) continue;
    require(target >= 0 && target < classes,
            "target " + std::to_string(target) + " of row " + std::to_string(n) +
                " is not a class (0.." + std::to_string(classes - 1) + ") nor ignore_index (" +
                std::to_string(ignore_index) + ")");
    cache.counted[static_cast<std::size_t>(n)] = true;
    ++cache.count;
    each(n, 0) = log_total - (logits(n, static_cast<Index>(target)) - largest);
  }
  if (reduction == Reduction::none) {
    losses = each;
    return;
  }
  require(reduction == Reduction::sum || cache.count > 0,
          "every target is ignore_index (" + std::to_string(ignore_index) +
              "), so the mean is over no token (0/0; PyTorch gives nan)");
  if (dilute) cache.count = rows;  // padding-counted-in-mean: every row in the count
  const T total = each.sum();
  losses.resize(1, 1);
  losses(0, 0) = reduction == Reduction::sum ? total : total / static_cast<T>(cache.count);
}

template <typename T>
void cross_entropy_backward(Matrix<T>& dlogits, const Matrix<T>& dloss,
                            const CrossEntropyCache<T>& cache,
                            const std::vector<std::int64_t>& targets, Reduction reduction) {
  // forward was: loss_n = −log softmax(logits_n)[target_n], reduced (the mean over cache.count
  // rows, every row under padding-counted-in-mean)
  enter(Op::cross_entropy);
  const Index rows = cache.probabilities.rows();
  require_shape(dloss, reduction == Reduction::none ? rows : 1, 1, "cross_entropy grad_output");
  dlogits = Matrix<T>::Zero(rows, cache.probabilities.cols());
  for (Index n = 0; n < rows; ++n) {
    if (!cache.counted[static_cast<std::size_t>(n)]) continue;
    const T upstream = reduction == Reduction::none  ? dloss(n, 0)
                       : reduction == Reduction::sum ? dloss(0, 0)
                                                     : dloss(0, 0) / static_cast<T>(cache.count);
    dlogits.row(n) = upstream * cache.probabilities.row(n);
    dlogits(n, static_cast<Index>(targets[static_cast<std::size_t>(n)])) -= upstream;
  }
}

double perplexity(double mean_nll) {
  if (enter(Op::cross_entropy) == Fault::perplexity_base_2) return std::exp2(mean_nll);
  return std::exp(mean_nll);
}

template <typename T>
void tied_lm_head_forward(Matrix<T>& logits, TiedHeadCache<T>& cache,
                          const std::vector<std::int64_t>& tokens, const Matrix<T>& weight) {
  enter(Op::weight_tying);
  const Index vocab = weight.rows();
  cache.embedded.resize(static_cast<Index>(tokens.size()), weight.cols());
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    require(tokens[t] >= 0 && tokens[t] < vocab,
            "token " + std::to_string(tokens[t]) + " at position " + std::to_string(t) +
                " is past the vocabulary (0.." + std::to_string(vocab - 1) + ")");
    cache.embedded.row(static_cast<Index>(t)) = weight.row(static_cast<Index>(tokens[t]));
  }
  logits.noalias() = cache.embedded * weight.transpose();
}

template <typename T>
void tied_lm_head_backward(Matrix<T>& dweight, const Matrix<T>& dlogits,
                           const std::vector<std::int64_t>& tokens, const Matrix<T>& weight,
                           const TiedHeadCache<T>& cache, Matrix<T>* head_use,
                           Matrix<T>* embedding_use) {
  // forward was: E = W[tokens]; logits = E Wᵀ
  const bool own_copy = enter(Op::weight_tying) == Fault::head_own_copy;
  require_shape(dlogits, static_cast<Index>(tokens.size()), weight.rows(),
                "tied_lm_head grad_output");
  Matrix<T> head = dlogits.transpose() * cache.embedded;  // through Wᵀ
  const Matrix<T> dembedded = dlogits * weight;           // into E
  Matrix<T> embedding = Matrix<T>::Zero(weight.rows(), weight.cols());
  for (std::size_t t = 0; t < tokens.size(); ++t)
    embedding.row(static_cast<Index>(tokens[t])) += dembedded.row(static_cast<Index>(t));
  // head-own-copy: the embedding's use goes to a copy the weight never sees
  dweight = own_copy ? head : Matrix<T>(head + embedding);
  if (head_use != nullptr) *head_use = std::move(head);
  if (embedding_use != nullptr) *embedding_use = std::move(embedding);
}

std::vector<std::array<std::int64_t, 2>> lm_head_matrices(std::int64_t vocab, std::int64_t d_model,
                                                          bool tied) {
  const bool own_copy = enter(Op::weight_tying) == Fault::head_own_copy;
  std::vector<std::array<std::int64_t, 2>> matrices{{vocab, d_model}};  // the embedding
  if (!tied || own_copy) matrices.push_back({vocab, d_model});          // the head's own
  return matrices;
}

std::int64_t lm_head_parameters(std::int64_t vocab, std::int64_t d_model, bool tied) {
  std::int64_t total = 0;
  for (const auto& [rows, columns] : lm_head_matrices(vocab, d_model, tied))
    total += rows * columns;
  return total;
}

template void cross_entropy_forward<float>(Matrix<float>&, CrossEntropyCache<float>&,
                                           const Matrix<float>&, const std::vector<std::int64_t>&,
                                           std::int64_t, Reduction);
template void cross_entropy_forward<double>(Matrix<double>&, CrossEntropyCache<double>&,
                                            const Matrix<double>&, const std::vector<std::int64_t>&,
                                            std::int64_t, Reduction);
template void cross_entropy_backward<float>(Matrix<float>&, const Matrix<float>&,
                                            const CrossEntropyCache<float>&,
                                            const std::vector<std::int64_t>&, Reduction);
template void cross_entropy_backward<double>(Matrix<double>&, const Matrix<double>&,
                                             const CrossEntropyCache<double>&,
                                             const std::vector<std::int64_t>&, Reduction);
template void tied_lm_head_forward<float>(Matrix<float>&, TiedHeadCache<float>&,
                                          const std::vector<std::int64_t>&, const Matrix<float>&);
template void tied_lm_head_forward<double>(Matrix<double>&, TiedHeadCache<double>&,
                                           const std::vector<std::int64_t>&, const Matrix<double>&);
template void tied_lm_head_backward<float>(Matrix<float>&, const Matrix<float>&,
                                           const std::vector<std::int64_t>&, const Matrix<float>&,
                                           const TiedHeadCache<float>&, Matrix<float>*,
                                           Matrix<float>*);
template void tied_lm_head_backward<double>(Matrix<double>&, const Matrix<double>&,
                                            const std::vector<std::int64_t>&, const Matrix<double>&,
                                            const TiedHeadCache<double>&, Matrix<double>*,
                                            Matrix<double>*);

}  // namespace proofdeck::engine
