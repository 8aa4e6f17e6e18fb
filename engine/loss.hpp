// The training objective of a language model, as PyTorch computes it: next-token cross-entropy
// (torch.nn.functional.cross_entropy over logits N×C and class-index targets, with ignore_index
// and reduction), the perplexity it gives, and the tied LM head — one (vocab × d) matrix used as
// the token embedding and again as the pre-softmax projection (Vaswani et al. §3.4; GPT-2), so
// its gradient is the sum of both uses.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/tensor.hpp"

namespace proofdeck::engine {

// --- cross-entropy ------------------------------------------------------------------------------

enum class Reduction { mean, sum, none };
std::string_view reduction_name(Reduction reduction);
std::optional<Reduction> parse_reduction(std::string_view name);

// PyTorch's default ignore_index.
inline constexpr std::int64_t kIgnoreIndex = -100;

// What the backward pass needs: each row's softmax, which rows count (target ≠ ignore_index),
// and how many.
template <typename T>
struct CrossEntropyCache {
  Matrix<T> probabilities;  // (N, C)
  std::vector<bool> counted;
  Index count = 0;
};

// loss_n = −log softmax(logits_n)[target_n] (0 where target_n = ignore_index). `losses` is
// (N, 1) under `none`, else (1, 1): the sum, or the mean over the counted rows — with none
// counted the mean is 0/0 and refused, as PyTorch's is NaN. A target outside 0…C−1 that is not
// ignore_index is refused. padding-counted-in-mean (fault): the mean divides by every row.
template <typename T>
void cross_entropy_forward(Matrix<T>& losses, CrossEntropyCache<T>& cache,
                           const Matrix<T>& logits,                   // (N, C)
                           const std::vector<std::int64_t>& targets,  // (N)
                           std::int64_t ignore_index, Reduction reduction);

// dlogits_n = g_n (softmax_n − onehot(target_n)), 0 in ignored rows, where g_n is the upstream
// gradient of row n's loss: dloss (1, 1) under `sum`, dloss / count under `mean`, dloss_n (N, 1)
// under `none`.
template <typename T>
void cross_entropy_backward(Matrix<T>& dlogits,      // (N, C), assigned
                            const Matrix<T>& dloss,  // (1, 1), or (N, 1) under none
                            const CrossEntropyCache<T>& cache,
                            const std::vector<std::int64_t>& targets, Reduction reduction);

// exp(mean negative log-likelihood), the loss in nats as cross_entropy gives it: a model as unsure
// as a uniform choice among k tokens has a perplexity of k. perplexity-base-2 (fault): 2 to the
// loss, the base of a loss in bits applied to one in nats.
double perplexity(double mean_nll);

// --- the tied LM head --------------------------------------------------------------------------

// The smallest tied language model: logits = W[tokens] Wᵀ — row t the logits after token
// tokens[t], its embedding read from W and projected back onto the vocabulary through W.
template <typename T>
struct TiedHeadCache {
  Matrix<T> embedded;  // (T, d): W[tokens]
};

template <typename T>
void tied_lm_head_forward(Matrix<T>& logits,  // (T, vocab)
                          TiedHeadCache<T>& cache, const std::vector<std::int64_t>& tokens,
                          const Matrix<T>& weight);  // (vocab, d)

// dW = dlogitsᵀ W[tokens] (the head's use) + the rows of dlogits W scattered to the tokens read
// (the embedding's use); `head_use` and `embedding_use`, when given, receive each apart.
// head-own-copy (fault): dW is the head's use alone, as if the head had its own copy.
template <typename T>
void tied_lm_head_backward(Matrix<T>& dweight,        // (vocab, d), assigned
                           const Matrix<T>& dlogits,  // (T, vocab)
                           const std::vector<std::int64_t>& tokens, const Matrix<T>& weight,
                           const TiedHeadCache<T>& cache, Matrix<T>* head_use = nullptr,
                           Matrix<T>* embedding_use = nullptr);

// The weight matrices an embedding and its LM head hold, as (rows, columns): one vocab × d matrix
// when tied (PyTorch's `weight`, read by both), an embedding and a head when not. head-own-copy
// (fault): the tied head keeps its own copy, so the tied pair holds two as well.
std::vector<std::array<std::int64_t, 2>> lm_head_matrices(std::int64_t vocab, std::int64_t d_model,
                                                          bool tied);
// The parameters those matrices hold: vocab × d once when tied, twice when not.
std::int64_t lm_head_parameters(std::int64_t vocab, std::int64_t d_model, bool tied);

}  // namespace proofdeck::engine
