// last-token-classifier: under a causal mask, position t's output depends on tokens 0…t only, so
// the last position is the one that has seen the whole sequence — the one a decoder-only
// classifier reads (Radford et al. 2018, §3.2; Hugging Face's *ForSequenceClassification reads
// the last non-pad token), where an encoder's every position, [CLS] included, sees all of it.
#include "demo/demos.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/attention.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

// seen(t, i) = 1 when changing token i moves position t's output, measured by changing each
// token in turn.
Mat tokens_seen(const engine::MhaParams<double>& mha, const Mat& x, const Mat& replacement,
                bool causal) {
  const auto run = [&](const Mat& input) {
    engine::AttentionOptions options;
    options.causal = causal;
    Mat out;
    engine::MhaCache<double> cache;
    engine::mha_forward(out, cache, input, mha, options);
    return out;
  };
  const Mat clean = run(x);
  Mat seen = Mat::Zero(x.rows(), x.rows());
  for (Index i = 0; i < x.rows(); ++i) {
    Mat changed = x;
    changed.row(i) = replacement.row(i);
    const Mat out = run(changed);
    for (Index t = 0; t < x.rows(); ++t)
      seen(t, i) = out.row(t) == clean.row(t) ? 0.0 : 1.0;
  }
  return seen;
}

DemoResult run_last_token_classifier(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::int64_t seq = params.integer("seq");
  const std::int64_t d_model = params.integer("d_model");
  const std::int64_t heads = params.integer("heads");
  require_divides("last-token-classifier", d_model, heads, "heads");
  engine::Rng rng(seed);
  engine::MhaParams<double> mha(d_model, heads, true);
  engine::fill_xavier_uniform(mha.in_proj.weight, rng);
  engine::fill_xavier_uniform(mha.out_proj.weight, rng);
  const Mat x = random_matrix(seq, d_model, rng, 0.0, 1.0);
  const Mat replacement = random_matrix(seq, d_model, rng, 0.0, 1.0);
  const Mat causal = tokens_seen(mha, x, replacement, true);
  const Mat bidirectional = tokens_seen(mha, x, replacement, false);

  const auto seeing_all = [&](const Mat& seen) {
    double count = 0.0;
    for (Index t = 0; t < seen.rows(); ++t)
      count += seen.row(t).sum() == static_cast<double>(seq) ? 1.0 : 0.0;
    return count;
  };
  DemoResult result;
  result.set("positions_seeing_all_causal", "Positions whose output every token moves, causal",
             seeing_all(causal), Provenance::measured);
  result.set("positions_seeing_all_bidirectional",
             "Positions whose output every token moves, bidirectional", seeing_all(bidirectional),
             Provenance::measured);
  result.set("last_position_sees_all", "The last position's output is moved by every token",
             causal.row(seq - 1).sum() == static_cast<double>(seq), Provenance::measured);
  result.set("tokens_seen_first_causal", "Tokens that move position 0's output, causal",
             causal.row(0).sum(), Provenance::measured);
  result.set("tokens_seen_first_bidirectional",
             "Tokens that move position 0's output, bidirectional", bidirectional.row(0).sum(),
             Provenance::measured);

  Mat rows(seq, 2);
  std::vector<std::string> labels;
  for (Index t = 0; t < seq; ++t) {
    rows.row(t) << causal.row(t).sum(), bidirectional.row(t).sum();
    labels.push_back(fmt::format("t{}", t));
  }
  result.tables.push_back(Table{"tokens_seen",
                                "tokens whose change moves each position's output",
                                labels,
                                {"causal", "bidirectional"},
                                rows,
                                false});
  // Whether position t was moved by exactly tokens 0…t, as a causal mask should leave it.
  bool triangular = true;
  for (Index t = 0; t < seq; ++t)
    for (Index i = 0; i < seq; ++i)
      triangular = triangular && causal(t, i) == (i <= t ? 1.0 : 0.0);
  result.text = {
      seq == 1 ? std::string("With a single token, position 0 is also the last and has seen all "
                             "there is: --set seq=6 gives it a sequence to watch.")
      : triangular
          ? fmt::format("Change each of the {} tokens in turn and watch which outputs move: "
                        "with a causal mask, position t moves only for tokens 0 to t, so "
                        "position 0 has seen 1 token and only the last, t{}, has seen them all.",
                        seq, seq - 1)
          : fmt::format("Change each of the {} tokens in turn and watch which outputs move: "
                        "with this mask they do not follow tokens 0 to t (the table shows how "
                        "many move each), so the positions are not what a causal mask leaves.",
                        seq),
      "That is why a decoder-only classifier reads the last token's output (the last non-pad "
      "one in a right-padded batch): a classifier on position 0, as BERT's [CLS], would read a "
      "representation that has seen only the first token.",
      fmt::format("Without the mask (an encoder) every position is moved by every token ({} of "
                  "{}), so any position, [CLS] at 0 included, can summarise the sequence.",
                  result.find("positions_seeing_all_bidirectional")->number, seq)};
  return result;
}

}  // namespace

DemoInfo last_token_classifier_demo() {
  return DemoInfo{
      "last-token-classifier",
      "A decoder classifier reads the last token",
      "Under a causal mask only the last position has seen the whole sequence, so a decoder-only "
      "classifier reads its output.",
      "Beyond the lesson: classification with a decoder (Radford et al. 2018, §3.2)",
      {integer_param("seq", 6, 1, 64, "tokens"),
       integer_param("d_model", 16, 1, 256, "embedding width"),
       integer_param("heads", 2, 1, 16, "attention heads (must divide d_model)")},
      run_last_token_classifier,
      {engine::Op::attention, engine::Op::heads, engine::Op::linear}};
}

}  // namespace proofdeck::demo
