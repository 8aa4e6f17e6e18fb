// perplexity: a language model's loss is the mean next-token cross-entropy over the tokens it
// predicts, and its perplexity exp(that mean): a uniform guess over k tokens scores exactly k, a
// model's distribution scores the k of the uniform guess it is as unsure as, and padding —
// ignore_index — adds neither loss nor count, so a padded batch scores what its tokens do.
#include "demo/demos.hpp"

#include <cmath>
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

// The mean cross-entropy of `logits` against `targets` (ignore_index rows left out), and how many
// rows it counted.
double mean_loss(const Mat& logits, const std::vector<std::int64_t>& targets, Index& counted) {
  Mat loss;
  engine::CrossEntropyCache<double> cache;
  engine::cross_entropy_forward(loss, cache, logits, targets, engine::kIgnoreIndex,
                                engine::Reduction::mean);
  counted = cache.count;
  return loss(0, 0);
}

// A uniform guess over k tokens, one row per vocabulary size: its loss is log k and its
// perplexity k, measured.
void report_uniform(DemoResult& result, const std::vector<std::int64_t>& vocabularies) {
  Mat rows(static_cast<Index>(vocabularies.size()), 3);
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < vocabularies.size(); ++i) {
    const std::int64_t k = vocabularies[i];
    Index counted = 0;
    const double loss = mean_loss(Mat::Zero(1, k), {k - 1}, counted);
    const std::string words = text::count(k, "token", "tokens");
    result.set(fmt::format("uniform_loss_k{}", k), "Loss of a uniform guess over " + words, loss,
               Provenance::measured);
    result.set(fmt::format("uniform_perplexity_k{}", k),
               "Perplexity of a uniform guess over " + words, engine::perplexity(loss),
               Provenance::measured);
    rows.row(static_cast<Index>(i)) << static_cast<double>(k), loss, engine::perplexity(loss);
    labels.push_back("uniform over " + text::group_digits(std::to_string(k)));
  }
  result.tables.push_back(Table{"uniform",
                                "a uniform guess over k tokens",
                                labels,
                                {"k", "loss (nats)", "perplexity"},
                                rows,
                                false});
}

// A text whose positions are uniform guesses over the listed vocabulary sizes, one position each,
// scored as one batch: its perplexity is the geometric mean of the sizes, not their average.
struct Mixture {
  double perplexity = 0;
  double mean_of_sizes = 0;
};
Mixture report_mixture(DemoResult& result, const std::vector<std::int64_t>& vocabularies) {
  const auto positions = static_cast<Index>(vocabularies.size());
  const std::int64_t widest = vocabularies.back();
  // Row i is uniform over its first k_i tokens; the rest get a logit whose exp is exactly 0.
  Mat logits = Mat::Constant(positions, widest, -1e4);
  std::vector<std::int64_t> targets;
  double mean_of_sizes = 0;
  for (Index i = 0; i < positions; ++i) {
    const std::int64_t k = vocabularies[static_cast<std::size_t>(i)];
    logits.row(i).head(k).setZero();
    targets.push_back(k - 1);
    mean_of_sizes += static_cast<double>(k) / static_cast<double>(positions);
  }
  Index counted = 0;
  const double loss = mean_loss(logits, targets, counted);
  result.set("mixed_loss", "Mean loss of a text mixing those uniform guesses, a position each",
             loss, Provenance::measured);
  result.set("mixed_perplexity", "Perplexity of that text", engine::perplexity(loss),
             Provenance::measured);
  result.set("mixed_mean_of_sizes", "The average of the sizes, which it is not", mean_of_sizes,
             Provenance::derived);
  return {engine::perplexity(loss), mean_of_sizes};
}

DemoResult run_perplexity(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::vector<std::int64_t> vocabularies =
      distinct_sorted("perplexity", "vocab", params.integers("vocab"));
  const std::int64_t vocab = params.integer("model_vocab");
  const std::int64_t tokens = params.integer("tokens");
  const std::int64_t padding = params.integer("padding");
  DemoResult result;
  report_uniform(result, vocabularies);
  const Mixture mixture = report_mixture(result, vocabularies);

  // A small model's next-token logits over `vocab` tokens at `tokens` positions, and the tokens
  // that came: its likeliest token at two positions of three, its second likeliest at the third.
  engine::Rng rng(seed);
  Mat logits(tokens, vocab);
  engine::fill_normal(logits, 0.0, 1.5, rng);
  std::vector<std::int64_t> targets;
  for (Index r = 0; r < tokens; ++r) {
    Index likeliest = 0;
    logits.row(r).maxCoeff(&likeliest);
    Index second = likeliest == 0 ? 1 : 0;
    for (Index c = 0; c < vocab; ++c)
      if (c != likeliest && logits(r, c) > logits(r, second)) second = c;
    targets.push_back(static_cast<std::int64_t>(r % 3 == 2 ? second : likeliest));
  }
  Index counted = 0;
  const double loss = mean_loss(logits, targets, counted);
  const double ppl = engine::perplexity(loss);
  result.set("model_loss", "Mean next-token loss of the model, in nats", loss,
             Provenance::measured);
  result.set("model_perplexity", "Perplexity of the model", ppl, Provenance::measured);
  // Where the right token stood among the model's choices (1 = its likeliest), and how often it
  // was the likeliest: neither is what perplexity reads.
  double rank_total = 0;
  Index top_choice_right = 0;
  for (Index r = 0; r < tokens; ++r) {
    const double right = logits(r, static_cast<Index>(targets[static_cast<std::size_t>(r)]));
    const auto above = (logits.row(r).array() > right).count();
    rank_total += 1.0 + static_cast<double>(above);
    if (above == 0) ++top_choice_right;
  }
  const double mean_rank = rank_total / static_cast<double>(tokens);
  result.set("model_mean_rank", "Mean rank of the right token among the model's choices", mean_rank,
             Provenance::measured);
  result.set("model_top_choice_share", "Share of positions where its likeliest token was right",
             static_cast<double>(top_choice_right) / static_cast<double>(tokens),
             Provenance::measured);
  result.set("model_share_if_error_rate", "1 / perplexity, the share an error rate would give",
             1.0 / ppl, Provenance::measured);

  // The same sequence padded to a batch's length: the padding rows' targets are ignore_index.
  Mat padded(tokens + padding, vocab);
  padded.topRows(tokens) = logits;
  Mat padding_logits(padding, vocab);
  engine::fill_normal(padding_logits, 0.0, 1.5, rng);
  padded.bottomRows(padding) = padding_logits;
  std::vector<std::int64_t> padded_targets = targets;
  padded_targets.resize(static_cast<std::size_t>(tokens + padding), engine::kIgnoreIndex);
  Index padded_counted = 0;
  const double padded_loss = mean_loss(padded, padded_targets, padded_counted);
  result.set("padded_perplexity",
             fmt::format("Perplexity of the same tokens padded with {}",
                         text::count(padding, "position", "positions")),
             engine::perplexity(padded_loss), Provenance::measured);
  // The same batch with the pads' targets left as the pad token (id 0), not ignore_index.
  std::vector<std::int64_t> scored_targets = targets;
  scored_targets.resize(static_cast<std::size_t>(tokens + padding), 0);
  Index scored_counted = 0;
  const double pads_scored = engine::perplexity(mean_loss(padded, scored_targets, scored_counted));
  result.set("pads_scored_perplexity", "Perplexity with the pads scored as token 0, not -100",
             pads_scored, Provenance::measured);
  result.set("tokens_counted", "Tokens the padded batch's mean counts",
             static_cast<double>(padded_counted), Provenance::measured);
  result.set("padding_left_out", "Padding changes neither the loss nor the perplexity",
             std::abs(padded_loss - loss) <= 1e-12 * std::max(1.0, loss), Provenance::measured);
  // What counting the padding would report: the tokens' summed loss over every row.
  const double diluted =
      loss * static_cast<double>(counted) / static_cast<double>(tokens + padding);
  result.set("perplexity_if_padding_counted",
             "Perplexity if the padding counted in the mean (too low: flattering)",
             engine::perplexity(diluted), Provenance::measured);
  const std::int64_t widest = vocabularies.back();
  result.text = {
      fmt::format(
          "A uniform guess over k tokens loses log k nats at every position, so its "
          "perplexity, exp(log k), is k itself: {} over {} tokens.",
          text::format_readable(engine::perplexity(std::log(static_cast<double>(widest))), 6),
          text::group_digits(std::to_string(widest))),
      ppl <= static_cast<double>(vocab)
          ? fmt::format("The model's mean loss over its {} is {:.3f} nats, a perplexity of "
                        "{:.2f}: on average it is as unsure as a uniform choice among {:.2f} of "
                        "its {} tokens. That is no rank: the right token stood at {:.2f} on "
                        "average among its choices.",
                        text::count(tokens, "token", "tokens"), loss, ppl, ppl, vocab, mean_rank)
          : fmt::format("The model's mean loss over its {} is {:.3f} nats, a perplexity of "
                        "{:.2f}: worse than a uniform guess over its {} tokens.",
                        text::count(tokens, "token", "tokens"), loss, ppl, vocab),
      fmt::format("Padded with {} whose targets are ignore_index (-100), the batch counts {} "
                  "and scores the same perplexity: padding adds no loss and no count. Counted in "
                  "the mean, the padding would divide the same loss by {} and report {:.2f}, a "
                  "model better than it is. Left as the pad token (id 0), the pads would be "
                  "scored and counted, {:.2f}, whatever the attention mask says: the loss reads "
                  "the targets.",
                  text::count(padding, "position", "positions"),
                  text::count(padded_counted, "token", "tokens"), tokens + padding,
                  engine::perplexity(diluted), pads_scored)};
  if (vocabularies.size() > 1)
    result.text.insert(
        result.text.begin() + 1,
        fmt::format("A text whose {} positions are uniform guesses over those sizes in turn "
                    "scores {}: the geometric mean of the sizes, as e to a mean of logs is, not "
                    "their average {}.",
                    vocabularies.size(), text::format_readable(mixture.perplexity, 4),
                    text::format_readable(mixture.mean_of_sizes, 6)));
  return result;
}

}  // namespace

DemoInfo perplexity_demo() {
  return DemoInfo{
      "perplexity",
      "Perplexity is a uniform choice's size",
      "A uniform guess over k tokens has perplexity k, and padding left out of the mean leaves a "
      "model's perplexity as its tokens make it.",
      "Beyond the lesson: next-token cross-entropy and perplexity (Radford et al. 2018; "
      "PyTorch's ignore_index)",
      {list_param("vocab", {2, 10, 50257}, 1, 262144, "vocabulary sizes for the uniform guess"),
       integer_param("model_vocab", 8, 2, 4096, "the small model's vocabulary"),
       integer_param("tokens", 6, 1, 4096, "positions the model predicts"),
       integer_param("padding", 3, 0, 4096, "padding positions added to make a batch's length")},
      run_perplexity,
      {engine::Op::cross_entropy}};
}

}  // namespace proofdeck::demo
