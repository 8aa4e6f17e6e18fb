// layernorm-vs-batchnorm: which axis each normalises over: LayerNorm a token over its own
// features, independent of the batch; BatchNorm a feature over the batch.
#include "demo/demos.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/norm.hpp"
#include "engine/rng.hpp"
#include "engine/tensor.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;
using Vec = engine::Vector<double>;

namespace {

constexpr Index kSentence = 6;  // the short sequence's tokens

// A sentence and a document padded to the document's length (zeros), stacked, and the mask.
struct PaddedBatch {
  Mat rows;
  std::vector<bool> padding;
};

PaddedBatch pad_together(const Mat& sentence, const Mat& document) {
  const Index length = document.rows();
  PaddedBatch batch{Mat::Zero(2 * length, sentence.cols()), {}};
  batch.rows.topRows(sentence.rows()) = sentence;
  batch.rows.bottomRows(length) = document;
  batch.padding.assign(static_cast<std::size_t>(2 * length), false);
  for (Index t = sentence.rows(); t < length; ++t)
    batch.padding[static_cast<std::size_t>(t)] = true;
  return batch;
}

// The sentence's first token in two padded batches: beside a document of `document` tokens, and
// beside another of twice as many (so twice the padding). Each norm's largest change to it.
struct PaddedDiffs {
  double layernorm = 0.0;
  double batchnorm = 0.0;         // the padding rows counted in the statistics
  double masked_batchnorm = 0.0;  // statistics over the real tokens only
  double padding_effect = 0.0;    // in the first batch: padding counted against masked out
};

PaddedDiffs padded_diffs(const Mat& sentence, Index document, engine::Rng& rng) {
  const Index features = sentence.cols();
  const PaddedBatch near =
      pad_together(sentence, random_matrix(document, features, rng, -1.0, 3.0));
  const PaddedBatch far =
      pad_together(sentence, random_matrix(2 * document, features, rng, -1.0, 3.0));
  const engine::NormParams<double> layer_norm(features, false);
  Vec mean, rstd;
  const auto token_gap = [](const Mat& a, const Mat& b) {
    return (a.row(0) - b.row(0)).cwiseAbs().maxCoeff();
  };
  PaddedDiffs diffs;
  Mat a, b;
  engine::masked_layernorm_forward(a, mean, rstd, near.rows, near.padding, layer_norm, 1e-5);
  engine::masked_layernorm_forward(b, mean, rstd, far.rows, far.padding, layer_norm, 1e-5);
  diffs.layernorm = token_gap(a, b);
  engine::BatchNormParams<double> p1(features, false), p2(features, false);
  Mat counted;
  engine::batchnorm_train_forward(counted, mean, rstd, near.rows, p1, 1e-5, 0.1);
  engine::batchnorm_train_forward(b, mean, rstd, far.rows, p2, 1e-5, 0.1);
  diffs.batchnorm = token_gap(counted, b);
  engine::BatchNormParams<double> p3(features, false), p4(features, false);
  engine::masked_batchnorm_train_forward(a, mean, rstd, near.rows, near.padding, p3, 1e-5, 0.1);
  diffs.padding_effect = token_gap(counted, a);
  engine::masked_batchnorm_train_forward(b, mean, rstd, far.rows, far.padding, p4, 1e-5, 0.1);
  diffs.masked_batchnorm = token_gap(a, b);
  return diffs;
}

DemoResult run_layernorm_vs_batchnorm(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::int64_t batch = params.integer("batch");
  const std::int64_t features = params.integer("features");
  const std::int64_t document = params.integer("document");
  engine::Rng rng(seed);
  const Mat first = random_matrix(batch, features, rng, 0.5, 2.0);
  Mat second = random_matrix(batch, features, rng, -1.0, 3.0);
  second.row(0) = first.row(0);  // the same token, among different companions

  const engine::NormParams<double> layer_norm(features, false);
  Mat ln_first, ln_second, bn_first, bn_second;
  Vec mean, rstd;
  engine::layernorm_forward(ln_first, mean, rstd, first, layer_norm, 1e-5);
  engine::layernorm_forward(ln_second, mean, rstd, second, layer_norm, 1e-5);
  engine::BatchNormParams<double> bn_a(features, false), bn_b(features, false);
  engine::batchnorm_train_forward(bn_first, mean, rstd, first, bn_a, 1e-5, 0.1);
  engine::batchnorm_train_forward(bn_second, mean, rstd, second, bn_b, 1e-5, 0.1);

  std::string refusal;
  try {
    engine::BatchNormParams<double> single(features, false);
    Mat out;
    engine::batchnorm_train_forward(out, mean, rstd, Mat(first.topRows(1)), single, 1e-5, 0.1);
  } catch (const engine::EngineError& e) {
    refusal = e.what();
  }
  Mat one_token;
  engine::layernorm_forward(one_token, mean, rstd, Mat(first.topRows(1)), layer_norm, 1e-5);

  const PaddedDiffs padded =
      padded_diffs(random_matrix(kSentence, features, rng, 0.5, 2.0), document, rng);

  const auto [token_mean, token_variance] = row_stats(ln_first);
  DemoResult result;
  result.set("layernorm_batch_diff", "LayerNorm output change for one token between two batches",
             (ln_first.row(0) - ln_second.row(0)).cwiseAbs().maxCoeff(), Provenance::measured);
  result.set("batchnorm_batch_diff", "BatchNorm output change for one token between two batches",
             (bn_first.row(0) - bn_second.row(0)).cwiseAbs().maxCoeff(), Provenance::measured);
  result.set("document_tokens", "Tokens in the document the sentence is padded beside",
             static_cast<double>(document), Provenance::param);
  // In the padded batches, what moves is the sentence's first token (padded_diffs).
  result.set("layernorm_padded_diff", "Masked LayerNorm output change when the document doubles",
             padded.layernorm, Provenance::measured);
  result.set("batchnorm_padded_diff",
             "BatchNorm output change when the document doubles, padding counted", padded.batchnorm,
             Provenance::measured);
  result.set("batchnorm_masked_padded_diff",
             "BatchNorm output change when the document doubles, padding masked",
             padded.masked_batchnorm, Provenance::measured);
  result.set("batchnorm_padding_effect",
             "BatchNorm output change from counting the padding, not masking it",
             padded.padding_effect, Provenance::measured);
  result.set("batchnorm_batch1_refused", "BatchNorm in training mode refuses a batch of one token",
             !refusal.empty(), Provenance::measured);
  // LayerNorm "works" on a lone token when it gives it the output it gets among companions.
  result.set(
      "layernorm_batch1_works", "LayerNorm gives a lone token the same output as in a batch",
      one_token.allFinite() && (one_token - ln_first.topRows(1)).cwiseAbs().maxCoeff() <= 1e-12,
      Provenance::measured);
  result.set("layernorm_token_mean_max", "Largest absolute token mean after LayerNorm",
             token_mean.cwiseAbs().maxCoeff(), Provenance::measured);
  result.set("layernorm_token_var_min", "Smallest token variance after LayerNorm",
             token_variance.minCoeff(), Provenance::measured);
  result.set("layernorm_token_var_max", "Largest token variance after LayerNorm",
             token_variance.maxCoeff(), Provenance::measured);

  const Index shown = std::min<Index>(features, 6);
  Mat rows(4, shown);
  rows << ln_first.row(0).head(shown), ln_second.row(0).head(shown), bn_first.row(0).head(shown),
      bn_second.row(0).head(shown);
  std::vector<std::string> columns;
  for (Index c = 0; c < shown; ++c)
    columns.push_back(fmt::format("feature {}", c));
  result.tables.push_back(Table{
      "token0",
      "token 0's normalised features, in two different batches",
      {"LayerNorm, batch A", "LayerNorm, batch B", "BatchNorm, batch A", "BatchNorm, batch B"},
      columns,
      rows,
      false});
  result.text = {
      fmt::format("The same token sits in two batches with different companions. LayerNorm "
                  "normalises it over its own {} features, so its output is identical in both "
                  "(difference {}); BatchNorm normalises each feature over the batch, so the "
                  "token's output moves with its companions (difference {}).",
                  features, text::format_short(result.find("layernorm_batch_diff")->number),
                  text::format_short(result.find("batchnorm_batch_diff")->number)),
      fmt::format("With one token — one-token-at-a-time decoding — BatchNorm in training mode has "
                  "no batch statistics at all: \"{}\". LayerNorm works unchanged.",
                  refusal),
      fmt::format(
          "Padded batches: a {}-token sentence sits beside a {}-token document, then beside one "
          "of {}, padded to the document's length. LayerNorm with a length mask gives its first "
          "token the same output both times (difference {}). BatchNorm does not average the "
          "padding away: counting it moves the token by {} against statistics over the real "
          "tokens alone. Between the two batches BatchNorm moves it by {} with the padding "
          "counted, and still by {} with it masked out: the document beside it sets the "
          "statistics.",
          kSentence, document, 2 * document,
          text::format_short(result.find("layernorm_padded_diff")->number),
          text::format_short(result.find("batchnorm_padding_effect")->number),
          text::format_short(result.find("batchnorm_padded_diff")->number),
          text::format_short(result.find("batchnorm_masked_padded_diff")->number)),
      "Independent of batch composition and sequence length: that is why transformers use "
      "LayerNorm."};
  return result;
}

}  // namespace

DemoInfo layernorm_vs_batchnorm_demo() {
  return DemoInfo{"layernorm-vs-batchnorm",
                  "LayerNorm is per token, BatchNorm is per batch",
                  "LayerNorm normalises a token over its own features, independent of the batch; "
                  "BatchNorm's statistics depend on the batch's composition.",
                  "Is layer normalization the same as batch normalization?",
                  {integer_param("batch", 8, 2, 1024, "tokens in a batch"),
                   integer_param("features", 16, 2, 1024, "features per token"),
                   integer_param("document", 24, 7, 2048,
                                 "tokens of the document the 6-token sentence is padded beside "
                                 "(then of one twice as long)")},
                  run_layernorm_vs_batchnorm,
                  {engine::Op::layernorm, engine::Op::batchnorm, engine::Op::padding}};
}

}  // namespace proofdeck::demo
