// decoding-strategies: how a decoder picks its next token. Temperature rescales the logits
// (below 1 sharpens, above 1 flattens, the ranking never changes); top-k keeps a fixed number of
// tokens, top-p the smallest set whose probability reaches p; greedy takes the likeliest token
// at every step and can miss the likeliest sequence, which a beam of two finds.
#include "demo/demos.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/decoding.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

// "The cat sat on the ___": six candidate words and the logits a model gave them.
constexpr std::array<const char*, 6> kWords = {"mat", "rug", "sofa", "floor", "bed", "moon"};
constexpr std::array<double, 6> kLogits = {2.0, 1.5, 1.0, 0.5, 0.0, -1.0};

// A four-token bigram model, row t the next-token probabilities after token t (as logits, their
// logarithms). Greedy takes "the" (0.50) first and then has at best 0.40; "my" (0.39) is followed
// by "cat" at 0.90, the likelier sequence.
constexpr std::array<const char*, 4> kTokens = {"<s>", "the", "my", "cat"};
constexpr std::array<std::array<double, 4>, 4> kNext = {{{0.01, 0.50, 0.39, 0.10},
                                                         {0.20, 0.30, 0.10, 0.40},
                                                         {0.03, 0.02, 0.05, 0.90},
                                                         {0.25, 0.25, 0.25, 0.25}}};

Mat logits_row() {
  Mat logits(1, static_cast<Index>(kLogits.size()));
  for (std::size_t v = 0; v < kLogits.size(); ++v)
    logits(0, static_cast<Index>(v)) = kLogits[v];
  return logits;
}

Mat sampling(const engine::SamplingConfig& config) {
  Mat probs;
  engine::sampling_distribution(probs, logits_row(), config);
  return probs;
}

double entropy(const Mat& probs) {
  double h = 0.0;
  for (Index v = 0; v < probs.cols(); ++v) {
    if (probs(0, v) > 0.0) h -= probs(0, v) * std::log(probs(0, v));
  }
  return h;
}

Index kept_count(const Mat& probs) {
  Index kept = 0;
  for (Index v = 0; v < probs.cols(); ++v)
    kept += probs(0, v) > 0.0 ? 1 : 0;
  return kept;
}

std::string sequence_text(const engine::Continuation& c) {
  std::string text = kTokens[0];
  for (const Index t : c.tokens)
    text += fmt::format(" {}", kTokens[static_cast<std::size_t>(t)]);
  return text;
}

// Greedy decoding against a beam of `beams` over the bigram table, two steps from <s>: their
// values, then the likeliest continuation each found (greedy's first).
std::pair<engine::Continuation, engine::Continuation> greedy_against_beam(DemoResult& result,
                                                                          std::int64_t beams) {
  Mat table(4, 4);
  for (Index r = 0; r < 4; ++r)
    for (Index c = 0; c < 4; ++c)
      table(r, c) = std::log(kNext[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)]);
  const auto greedy = engine::beam_search(table, 0, 2, 1).front();
  const auto beam = engine::beam_search(table, 0, 2, beams).front();
  const std::string with_beams = text::count(beams, "beam", "beams");
  result.set("greedy_prob", "Probability of the sequence greedy decoding picks",
             std::exp(greedy.log_prob), Provenance::measured);
  result.set("beam_prob", "Probability of the best sequence beam search finds, " + with_beams,
             std::exp(beam.log_prob), Provenance::measured);
  result.set("beam_beats_greedy", "Beam search finds a likelier sequence than greedy decoding",
             beam.log_prob > greedy.log_prob + 1e-12, Provenance::measured);
  result.set("greedy_first_token_prob", "Probability of greedy decoding's first token",
             kNext[0][static_cast<std::size_t>(greedy.tokens.front())], Provenance::measured);
  result.set("beam_first_token_prob",
             "Probability of the first token of the best beam sequence, " + with_beams,
             kNext[0][static_cast<std::size_t>(beam.tokens.front())], Provenance::measured);
  return {greedy, beam};
}

DemoResult run_decoding_strategies(const Params& params, std::uint64_t /*seed: no draw*/,
                                   RunCaches&) {
  const double low = params.number("low_temperature");
  const double high = params.number("high_temperature");
  const std::int64_t top_k = params.integer("top_k");
  const double top_p = params.number("top_p");
  const std::int64_t beams = params.integer("beams");
  DemoResult result;

  // Temperature: the same logits at T = low, 1 and high.
  const std::vector<std::pair<std::string, double>> temperatures = {
      {"low", low}, {"t1", 1.0}, {"high", high}};
  // Each temperature in a label, the low and high ones named so that a low of 1 reads apart.
  const auto at_temperature = [](const std::string& which, double t) {
    const std::string kind = which == "low" ? "the low " : which == "high" ? "the high " : "";
    return fmt::format("at {}temperature {}", kind, text::format_short(t));
  };
  std::vector<Mat> by_temperature;
  bool same_argmax = true;
  Index argmax_t1 = 0;
  for (const auto& [label, t] : temperatures) {
    engine::SamplingConfig config;
    config.temperature = t;
    Mat probs = sampling(config);
    Index argmax = 0;
    probs.row(0).maxCoeff(&argmax);
    if (label == "t1") argmax_t1 = argmax;
    if (!by_temperature.empty()) {
      Index first = 0;
      by_temperature.front().row(0).maxCoeff(&first);
      same_argmax = same_argmax && first == argmax;
    }
    result.set("top_prob_" + label,
               "Probability of the likeliest next word " + at_temperature(label, t),
               probs.maxCoeff(), Provenance::measured);
    result.set("entropy_" + label, "Next-word entropy in nats " + at_temperature(label, t),
               entropy(probs), Provenance::measured);
    by_temperature.push_back(std::move(probs));
  }
  result.set("same_top_token_every_temperature", "Same likeliest word at every temperature",
             same_argmax, Provenance::measured);

  // Top-k and top-p at T = 1.
  engine::SamplingConfig k_config;
  k_config.top_k = top_k;
  const Mat k_probs = sampling(k_config);
  engine::SamplingConfig p_config;
  p_config.top_p = top_p;
  const Mat p_probs = sampling(p_config);
  const Mat& plain = by_temperature[1];
  double p_mass = 0.0;
  double least_kept = 1.0;
  for (Index v = 0; v < plain.cols(); ++v) {
    if (p_probs(0, v) <= 0.0) continue;
    p_mass += plain(0, v);
    least_kept = std::min(least_kept, plain(0, v));
  }
  const double p_mass_but_least = p_mass - least_kept;
  double k_mass = 0.0;
  for (Index v = 0; v < plain.cols(); ++v)
    k_mass += k_probs(0, v) > 0.0 ? plain(0, v) : 0.0;
  const std::string with_k = fmt::format("top-k with k = {}", top_k);
  const std::string with_p = fmt::format("top-p with p = {}", text::format_short(top_p));
  result.set("top_k_kept", "Words kept by " + with_k, static_cast<double>(kept_count(k_probs)),
             Provenance::measured);
  result.set("top_k_mass", "Probability mass of the words kept by " + with_k, k_mass,
             Provenance::measured);
  result.set("top_p_kept", "Words kept by " + with_p + " at temperature 1",
             static_cast<double>(kept_count(p_probs)), Provenance::measured);
  result.set("top_p_mass", "Probability mass of the words kept by " + with_p, p_mass,
             Provenance::measured);
  result.set("top_p_mass_without_least_kept",
             "Probability mass kept by " + with_p + " without its least likely word",
             p_mass_but_least, Provenance::measured);
  result.set("top_p_top_prob", "Probability of the likeliest next word after " + with_p,
             p_probs.maxCoeff(), Provenance::measured);
  // The same top-p on the flatter distribution of the high temperature needs more words.
  engine::SamplingConfig p_high_config;
  p_high_config.temperature = high;
  p_high_config.top_p = top_p;
  result.set("top_p_kept_high", "Words kept by " + with_p + " " + at_temperature("high", high),
             static_cast<double>(kept_count(sampling(p_high_config))), Provenance::measured);

  const auto [greedy, beam] = greedy_against_beam(result, beams);

  // One row a word, so the tables stay narrow: the temperatures, then the two filters at T = 1.
  std::vector<std::string> words(kWords.begin(), kWords.end());
  const auto word_rows = static_cast<Index>(words.size());
  Table temperature_table{"probabilities_by_temperature",
                          "next-word probabilities for \"The cat sat on the ___\"",
                          words,
                          {fmt::format("T {}", text::format_short(low)), "T 1",
                           fmt::format("T {}", text::format_short(high))},
                          Eigen::MatrixXd(word_rows, 3),
                          true};
  for (Index c = 0; c < 3; ++c)
    temperature_table.cells.col(c) = by_temperature[static_cast<std::size_t>(c)].row(0).transpose();
  result.tables.push_back(std::move(temperature_table));
  Table filter_table{"probabilities_after_filters",
                     fmt::format("after top-k {} and top-p {} at T = 1, renormalised", top_k,
                                 text::format_short(top_p)),
                     words,
                     {"top-k", "top-p"},
                     Eigen::MatrixXd(word_rows, 2),
                     true};
  filter_table.cells.col(0) = k_probs.row(0).transpose();
  filter_table.cells.col(1) = p_probs.row(0).transpose();
  result.tables.push_back(std::move(filter_table));

  const auto value = [&](const char* name) { return result.find(name)->number; };
  result.text = {
      fmt::format("Temperature divides the logits before the softmax: the likeliest word, \"{}\", "
                  "has {} at T = 1, {} at T = {} (sharper) and {} at T = {} (flatter); the "
                  "ranking is the same at every temperature{}.",
                  kWords[static_cast<std::size_t>(argmax_t1)],
                  text::format_short(value("top_prob_t1")),
                  text::format_short(value("top_prob_low")), text::format_short(low),
                  text::format_short(value("top_prob_high")), text::format_short(high),
                  same_argmax ? "" : " (not here: a fault is active)"),
      fmt::format("Top-k {} keeps {} words whatever their probabilities ({} of the mass); top-p "
                  "{} keeps the {} likeliest words, the smallest set whose probability reaches "
                  "{} ({}; without the last of them {}), and renormalises them; at T = {} the "
                  "same top-p keeps {}.",
                  top_k, grouped(value("top_k_kept")), text::format_short(value("top_k_mass")),
                  text::format_short(top_p), grouped(value("top_p_kept")),
                  text::format_short(top_p), text::format_short(value("top_p_mass")),
                  text::format_short(value("top_p_mass_without_least_kept")),
                  text::format_short(high), grouped(value("top_p_kept_high"))),
      fmt::format("Greedy decoding takes \"{}\" first ({}) and ends at \"{}\", probability {}; "
                  "{}",
                  kTokens[static_cast<std::size_t>(greedy.tokens.front())],
                  text::format_short(value("greedy_first_token_prob")), sequence_text(greedy),
                  text::format_short(value("greedy_prob")),
                  beam.log_prob > greedy.log_prob + 1e-12
                      ? fmt::format("a beam of {} keeps \"{}\" ({}) too and finds \"{}\" at {}: "
                                    "the likeliest first word is not always the start of the "
                                    "likeliest sequence.",
                                    beams, kTokens[static_cast<std::size_t>(beam.tokens.front())],
                                    text::format_short(value("beam_first_token_prob")),
                                    sequence_text(beam), text::format_short(value("beam_prob")))
                      : fmt::format("a beam of {} finds nothing likelier{}.", beams,
                                    beams == 1 ? " (a beam of one is greedy decoding)" : ""))};
  return result;
}

}  // namespace

DemoInfo decoding_strategies_demo() {
  return DemoInfo{
      "decoding-strategies",
      "Choosing the next token: temperature, top-k, top-p, greedy and beam",
      "Temperature below 1 sharpens the next-token distribution and above 1 flattens it without "
      "changing the ranking; top-k keeps k tokens, top-p the smallest set reaching p; greedy "
      "can miss the likeliest sequence that a beam finds.",
      "Beyond the lesson: Holtzman et al. 2020 (nucleus sampling); Hugging Face generate()",
      {number_param("low_temperature", 0.5, 0.05, 1.0, "a temperature below 1"),
       number_param("high_temperature", 2.0, 1.0, 20.0, "a temperature above 1"),
       integer_param("top_k", 2, 1, 6, "tokens top-k keeps"),
       number_param("top_p", 0.9, 0.05, 1.0, "the probability top-p's set must reach"),
       integer_param("beams", 2, 1, 8, "beam width")},
      run_decoding_strategies,
      {engine::Op::decoding}};
}

}  // namespace proofdeck::demo
