// Choosing the next token from a model's logits, as Hugging Face's generate() does it: the
// logits warpers (temperature, then top-k, then top-p, each on the previous one's output, in
// that order) turn one row of logits into the distribution a sampler draws from, and greedy and
// beam search pick a whole continuation from next-token log-probabilities. None of these is
// trained, so none has a backward.
//
// The next-token model a search walks is a table: row t holds the logits of the token that
// follows token t (a bigram model), which is enough to show what a search explores and what it
// misses.
#pragma once

#include <vector>

#include "engine/tensor.hpp"

namespace proofdeck::engine {

// How generate() turns logits into a sampling distribution. temperature > 0; top_k = 0 keeps
// every token; top_p = 1 keeps every token.
struct SamplingConfig {
  double temperature = 1.0;
  Index top_k = 0;
  double top_p = 1.0;
};

// The distribution a sampler draws from, one row per row of logits (batch, vocab):
//   1. temperature (TemperatureLogitsWarper): logits / T, so T < 1 sharpens and T > 1 flattens;
//   2. top-k (TopKLogitsWarper): tokens whose logit is below the k-th largest are removed (ties
//      with the k-th stay);
//   3. top-p (TopPLogitsWarper, nucleus sampling, Holtzman et al. 2020): the smallest set of the
//      most likely tokens whose probability reaches top_p stays — the token that takes the
//      running total to top_p or past it is kept — and at least one token always stays;
// then a softmax over what stays; removed tokens get probability exactly 0. `kept` (optional)
// receives 1 for a kept token and 0 for a removed one.
// temperature-inverted (fault): logits · T instead of logits / T, so a high temperature sharpens.
// top-p-drops-crossing-token (fault): the token that takes the running total to top_p or past it
//   is removed (unless it is the most likely), so the kept mass falls short of top_p.
template <typename T>
void sampling_distribution(Matrix<T>& probs,         // (batch, vocab)
                           const Matrix<T>& logits,  // (batch, vocab)
                           const SamplingConfig& config, Matrix<T>* kept = nullptr);

// A continuation found by a search: the tokens after the start token and the sum of their
// log-probabilities (each the log-softmax of the table row of the token before it).
struct Continuation {
  std::vector<Index> tokens;
  double log_prob = 0.0;
};

// Beam search without length penalty or end token, as generate(num_beams=B) runs when no
// sequence ends early: from `start`, each step extends every kept sequence by every token,
// scores each by its total log-probability and keeps the B best (ties: the lower beam, then the
// lower token, first), for `steps` steps; returns the kept sequences, best first. B = 1 is
// greedy decoding: the single most likely token at every step.
// beam-keeps-one (fault): every step keeps one sequence whatever B is, so beam search is greedy.
template <typename T>
std::vector<Continuation> beam_search(const Matrix<T>& next_logits,  // (vocab, vocab)
                                      Index start, Index steps, Index beams);

}  // namespace proofdeck::engine
