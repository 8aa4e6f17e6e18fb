// order-blindness: without positional encoding, "cat bit dog" and "dog bit cat" attend
// identically; sinusoidal, learned and rotary positions tell them apart.
#include "demo/demos.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/attention.hpp"
#include "engine/positional.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : text + " ") {
    if (c == ' ' || c == '\t') {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  return words;
}

// A word as part of a value name: lower-case letters, digits and underscores only.
std::string name_part(const std::string& word) {
  std::string part;
  for (const char c : word) {
    const auto byte = static_cast<unsigned char>(c);
    part += std::isalnum(byte) != 0 ? static_cast<char>(std::tolower(byte)) : '_';
  }
  return part;
}

// A positional mode in a value's label: "no positional encoding", "RoPE".
std::string mode_words(const std::string& mode) {
  if (mode == "none") return "no positional encoding";
  if (mode == "sinusoidal") return "sinusoidal encoding";
  if (mode == "learned") return "learned position table";
  return "RoPE";
}

struct SentenceRun {
  Mat weights;  // (T, T) head 0's attention weights
  Mat output;   // (T, E)
};

// Permutation equivariance: the largest difference between a word's output row in sentence a and
// the same word's row in b (for a repeated word, the nearest of its occurrences).
double word_output_diff(const Mat& output_a, const std::vector<std::string>& a, const Mat& output_b,
                        const std::vector<std::string>& b) {
  double largest = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    double nearest = INFINITY;
    for (std::size_t j = 0; j < b.size(); ++j) {
      if (b[j] != a[i]) continue;
      nearest = std::min(nearest,
                         (output_a.row(static_cast<Index>(i)) - output_b.row(static_cast<Index>(j)))
                             .cwiseAbs()
                             .maxCoeff());
    }
    largest = std::max(largest, nearest);
  }
  return largest;
}

// Weight each occurrence of a query word puts on each key word, averaged over the query word's
// occurrences and summed over the key word's: comparable between reorderings of the same words.
Mat weights_by_word(const Mat& weights, const std::vector<std::string>& words,
                    const std::vector<std::string>& vocabulary) {
  const auto index = [&](const std::string& w) {
    return static_cast<Index>(std::find(vocabulary.begin(), vocabulary.end(), w) -
                              vocabulary.begin());
  };
  const auto size = static_cast<Index>(vocabulary.size());
  Mat sums = Mat::Zero(size, size);
  Eigen::VectorXd counts = Eigen::VectorXd::Zero(size);
  for (std::size_t q = 0; q < words.size(); ++q) {
    counts[index(words[q])] += 1.0;
    for (std::size_t k = 0; k < words.size(); ++k) {
      sums(index(words[q]), index(words[k])) +=
          weights(static_cast<Index>(q), static_cast<Index>(k));
    }
  }
  for (Index r = 0; r < size; ++r)
    sums.row(r) /= counts[r];
  return sums;
}

DemoResult run_order_blindness(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::string demo = "order-blindness";
  const std::vector<std::string> a = split_words(params.text("a"));
  const std::vector<std::string> b = split_words(params.text("b"));
  const std::int64_t d_model = params.integer("d_model");
  const std::int64_t heads = params.integer("heads");
  const std::int64_t max_len = params.integer("max_len");
  const std::string focus = params.text("focus");
  require_divides(demo, d_model, heads, "heads");
  if ((d_model / heads) % 2 != 0) {
    param_error(demo, fmt::format("d_model={} with heads={}: RoPE needs an even head dimension, "
                                  "got {}",
                                  d_model, heads, d_model / heads));
  }
  if (std::multiset<std::string>(a.begin(), a.end()) !=
      std::multiset<std::string>(b.begin(), b.end())) {
    param_error(demo, fmt::format("a=\"{}\" and b=\"{}\" must use the same words in a different "
                                  "order (b a reordering of a)",
                                  params.text("a"), params.text("b")));
  }
  if (static_cast<std::int64_t>(a.size()) > max_len) {
    param_error(demo, fmt::format("the sentences have {} words but the learned position table "
                                  "has max_len={} rows; raise max_len to at least {}",
                                  a.size(), max_len, a.size()));
  }
  if (std::find(a.begin(), a.end(), focus) == a.end()) {
    param_error(demo, fmt::format("focus=\"{}\" is not a word of the sentences", focus));
  }

  // Same embeddings for a word in both sentences, same weights for every mode; a question that
  // quotes one layer's weights pins that layer's seed.
  const std::int64_t weights_seed = params.integer("weights_seed");
  engine::Rng rng(weights_seed < 0 ? seed : static_cast<std::uint64_t>(weights_seed));
  std::vector<std::string> vocabulary;
  for (const auto& w : a) {
    if (std::find(vocabulary.begin(), vocabulary.end(), w) == vocabulary.end()) {
      vocabulary.push_back(w);
    }
  }
  std::map<std::string, Eigen::RowVectorXd> embedding;
  for (const auto& w : vocabulary) {
    embedding[w] = random_matrix(1, d_model, rng, 0.0, 1.0).row(0);
  }
  engine::MhaParams<double> mha(d_model, heads, false);
  engine::fill_xavier_uniform(mha.in_proj.weight, rng);
  engine::fill_xavier_uniform(mha.out_proj.weight, rng);
  const Mat learned_table = random_matrix(max_len, d_model, rng, 0.0, 1.0);

  const auto embed = [&](const std::vector<std::string>& words) {
    Mat x(static_cast<Index>(words.size()), d_model);
    for (std::size_t t = 0; t < words.size(); ++t)
      x.row(static_cast<Index>(t)) = embedding[words[t]];
    return x;
  };
  const auto run_sentence = [&](const std::vector<std::string>& words,
                                engine::PositionalKind kind) {
    Mat x = embed(words);
    const engine::Positions positions = engine::sequential_positions(x.rows());
    // Sinusoidal and learned encodings are added to the embeddings; RoPE acts inside attention.
    engine::PositionalParams<double> encoding{kind, std::nullopt};
    if (kind == engine::PositionalKind::learned) encoding.table = learned_table;
    engine::add_positions(x, encoding, positions);
    engine::AttentionOptions options;
    if (kind == engine::PositionalKind::rope) {
      options.rope = engine::RopeConfig{engine::RopeConvention::half, 10000.0};
    }
    SentenceRun run;
    engine::MhaCache<double> cache;
    engine::mha_forward(run.output, cache, x, mha, options);
    run.weights = cache.probs[0];
    return std::pair{run, cache.probs};
  };

  DemoResult result;
  const std::vector<std::string> modes = {"none", "sinusoidal", "learned", "rope"};
  for (const std::string& mode : modes) {
    const auto kind = *engine::parse_positional(mode);
    const auto [run_a, probs_a] = run_sentence(a, kind);
    const auto [run_b, probs_b] = run_sentence(b, kind);
    double max_diff = 0.0;
    for (std::size_t h = 0; h < probs_a.size(); ++h) {
      const Mat by_word_a = weights_by_word(probs_a[h], a, vocabulary);
      const Mat by_word_b = weights_by_word(probs_b[h], b, vocabulary);
      max_diff = std::max(max_diff, (by_word_a - by_word_b).cwiseAbs().maxCoeff());
    }
    const std::string words = mode_words(mode);
    result.set("max_diff_" + mode,
               "Largest attention-weight difference between the orders, " + words, max_diff,
               Provenance::measured);
    result.set("output_moved_diff_" + mode,
               "Largest word-output difference between the orders, " + words,
               word_output_diff(run_a.output, a, run_b.output, b), Provenance::measured);
    // The focus word's weights on every other word, in both sentences.
    const Mat by_word_a = weights_by_word(run_a.weights, a, vocabulary);
    const Mat by_word_b = weights_by_word(run_b.weights, b, vocabulary);
    const auto focus_index = static_cast<Index>(
        std::find(vocabulary.begin(), vocabulary.end(), focus) - vocabulary.begin());
    for (std::size_t k = 0; k < vocabulary.size(); ++k) {
      if (vocabulary[k] == focus) continue;
      const auto column = static_cast<Index>(k);
      const auto weight_label = [&](const char* sentence) {
        return fmt::format("Weight \"{}\" puts on \"{}\"{}, {} sentence, {}", focus, vocabulary[k],
                           heads > 1 ? " in head 0" : "", sentence, words);
      };
      result.set(fmt::format("{}_on_{}_a_{}", name_part(focus), name_part(vocabulary[k]), mode),
                 weight_label("first"), by_word_a(focus_index, column), Provenance::measured);
      result.set(fmt::format("{}_on_{}_b_{}", name_part(focus), name_part(vocabulary[k]), mode),
                 weight_label("second"), by_word_b(focus_index, column), Provenance::measured);
    }
    const std::string label = mode == "none" ? "no positional encoding" : mode;
    result.tables.push_back(heatmap("weights_" + mode + "_a",
                                    fmt::format("{}: \"{}\"", label, params.text("a")), a, a,
                                    run_a.weights));
    result.tables.push_back(heatmap("weights_" + mode + "_b",
                                    fmt::format("{}: \"{}\"", label, params.text("b")), b, b,
                                    run_b.weights));
  }
  result.set("identical_without_position",
             "Both orders attend identically without positional encoding",
             result.find("max_diff_none")->number <= 1e-12, Provenance::measured);
  // The headline in this run's sentences (the lesson's own are the defaults).
  result.claim = fmt::format("Without positional encoding, \"{}\" and \"{}\" attend identically.",
                             params.text("a"), params.text("b"));
  result.section = "Constructed scenario: " + params.text("a");
  result.text = {
      fmt::format("Both sentences use the same words, so without positional encoding every word "
                  "has the same embedding, the same Q, K and V in both, and \"{}\" weighs the "
                  "other words identically (largest difference {}). Each output row is the "
                  "same vector, only moved to the word's new place.",
                  focus, text::format_short(result.find("max_diff_none")->number)),
      a == b ? std::string("Here the two sentences are in the same order, so even with a "
                           "position signal they attend identically: the demo shows order only "
                           "between two different orders of the same words, as its defaults "
                           "\"cat bit dog\" and \"dog bit cat\".")
             : fmt::format("Add a position signal and the sentences come apart: largest weight "
                           "difference {} with sinusoidal encoding, {} with a learned table, {} "
                           "with RoPE.",
                           text::format_short(result.find("max_diff_sinusoidal")->number),
                           text::format_short(result.find("max_diff_learned")->number),
                           text::format_short(result.find("max_diff_rope")->number)),
      "Attention compares content only: nothing in softmax(QKᵀ/√d_k)·V takes a token's index, "
      "so order must be put into the vectors (sinusoidal, learned) or into Q and K (RoPE)."};
  return result;
}

}  // namespace

DemoInfo order_blindness_demo() {
  return DemoInfo{
      "order-blindness",
      "Attention is blind to word order",
      "Without positional encoding, \"cat bit dog\" and \"dog bit cat\" attend identically.",
      "Constructed scenario: cat bit dog",
      {text_param("a", "cat bit dog", 16, "the first sentence"),
       text_param("b", "dog bit cat", 16, "the same words in another order"),
       text_param("focus", "bit", 1, "the word whose attention is reported"),
       integer_param("d_model", 16, 2, 256, "embedding width"),
       integer_param("heads", 1, 1, 16, "attention heads (must divide d_model)"),
       integer_param("max_len", 16, 1, 1024, "rows of the learned position table"),
       integer_param("weights_seed", -1, -1, 1'000'000'000,
                     "seed of the embeddings and weights, whatever the run's (-1: the run's)")},
      run_order_blindness,
      {engine::Op::attention, engine::Op::heads, engine::Op::positions_added,
       engine::Op::sinusoidal, engine::Op::learned_positions, engine::Op::rope,
       engine::Op::linear}};
}

}  // namespace proofdeck::demo
