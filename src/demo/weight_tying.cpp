// weight-tying: one (vocab × d) matrix serves as the token embedding and again as the LM head's
// pre-softmax projection (Vaswani et al. §3.4; GPT-2, Press & Wolf 2017): the model holds it once,
// and its gradient is the sum of what both uses send back.
#include "demo/demos.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/loss.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

DemoResult run_weight_tying(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::int64_t vocab = params.integer("vocab");
  const std::int64_t d_model = params.integer("d_model");
  DemoResult result;

  // The parameter counts at the model's size, from the matrices each holds: vocab × d once tied,
  // twice untied.
  const auto tied = static_cast<double>(engine::lm_head_parameters(vocab, d_model, true));
  const auto untied = static_cast<double>(engine::lm_head_parameters(vocab, d_model, false));
  result.set("params_tied", "Embedding and LM head parameters, tied", tied, Provenance::counted);
  result.set("params_untied", "Embedding and LM head parameters, untied", untied,
             Provenance::counted);
  result.set("params_saved", "Parameters tying saves", untied - tied, Provenance::counted);

  // A small tied model's backward: 6 tokens over a vocabulary of 8, width 4, token 5 read twice
  // and token 7 never; the upstream gradient drawn from the seed.
  constexpr Index kVocab = 8, kWidth = 4;
  const std::vector<std::int64_t> tokens = {1, 5, 2, 5, 0, 3};
  engine::Rng rng(seed);
  Mat weight(kVocab, kWidth), dlogits(static_cast<Index>(tokens.size()), kVocab);
  engine::fill_normal(weight, 0.0, 0.5, rng);
  engine::fill_normal(dlogits, 0.0, 1.0, rng);
  Mat logits, dweight, head, embedding;
  engine::TiedHeadCache<double> cache;
  engine::tied_lm_head_forward(logits, cache, tokens, weight);
  engine::tied_lm_head_backward(dweight, dlogits, tokens, weight, cache, &head, &embedding);
  const double gap = (dweight - (head + embedding)).norm();
  result.set("gradient_norm", "Norm of the tied weight's gradient", dweight.norm(),
             Provenance::measured);
  result.set("head_use_norm", "Norm of the LM head's part of it", head.norm(),
             Provenance::measured);
  result.set("embedding_use_norm", "Norm of the embedding's part of it", embedding.norm(),
             Provenance::measured);
  result.set("gradient_is_sum_of_uses", "The tied gradient is the sum of both uses",
             gap <= 1e-12 * dweight.norm(), Provenance::measured);
  result.set("unread_row_embedding_use", "Embedding's part for a token the input never read",
             embedding.row(kVocab - 1).norm(), Provenance::measured);
  result.set("unread_row_gradient", "Tied gradient for a token the input never read",
             dweight.row(kVocab - 1).norm(), Provenance::measured);

  Mat rows(kVocab, 3);
  std::vector<std::string> labels;
  for (Index t = 0; t < kVocab; ++t) {
    rows.row(t) << head.row(t).norm(), embedding.row(t).norm(), dweight.row(t).norm();
    labels.push_back(fmt::format("token {}", t));
  }
  result.tables.push_back(Table{"uses",
                                "each token's row of the gradient, as norms: the head's use, "
                                "the embedding's, and the tied row, their vector sum",
                                labels,
                                {"head", "embedding", "tied"},
                                rows,
                                false});
  result.text = {
      fmt::format("At a vocabulary of {} and width {}, the embedding and the LM head hold {} "
                  "weights apart and {} tied: tying saves {}.",
                  text::group_digits(std::to_string(vocab)), d_model,
                  text::group_digits(std::to_string(static_cast<std::int64_t>(untied))),
                  text::group_digits(std::to_string(static_cast<std::int64_t>(tied))),
                  text::group_digits(std::to_string(static_cast<std::int64_t>(untied - tied)))),
      "The one matrix is read twice — a row per input token as its embedding, every row as the "
      "head's projection onto the vocabulary — so its gradient adds both: each row gets the "
      "head's part, and the rows of the tokens read also get the embedding's (token 5, read "
      "twice, gets two).",
      "A token the input never read still learns through the head: its embedding part is 0, its "
      "gradient is not."};
  return result;
}

}  // namespace

DemoInfo weight_tying_demo() {
  return DemoInfo{
      "weight-tying",
      "A tied embedding learns from both its uses",
      "Tying the embedding and the LM head keeps one vocab × d matrix, and its gradient is the sum "
      "of what the embedding and the head send back.",
      "Beyond the lesson: weight tying (Vaswani et al. 2017, §3.4; Press & Wolf 2017; GPT-2)",
      {integer_param("vocab", 50257, 2, 1000000, "vocabulary size for the parameter counts"),
       integer_param("d_model", 768, 1, 65536, "embedding width for the parameter counts")},
      run_weight_tying,
      {engine::Op::weight_tying}};
}

}  // namespace proofdeck::demo
