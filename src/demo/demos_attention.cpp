// Attention and position demos. Each builds its experiment from engine pieces with weights drawn
// from the seed, and reports the numbers the lesson's claims rest on.
#include "demo/demos_attention.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "demo/demo_support.hpp"
#include "engine/attention.hpp"
#include "engine/param_count.hpp"
#include "engine/positional.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using engine::Matrix;
using Mat = Matrix<double>;

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

Table heatmap(std::string name, std::string title, std::vector<std::string> rows,
              std::vector<std::string> columns, Mat cells) {
  return Table{std::move(name),    std::move(title),       std::move(rows),
               std::move(columns), Eigen::MatrixXd(cells), true};
}

// --- order-blindness --------------------------------------------------------------------------

struct SentenceRun {
  Mat weights;  // (T, T) head 0's attention weights
  Mat output;   // (T, E)
};

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

DemoResult run_order_blindness(const Params& params, std::uint64_t seed) {
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

  // Same embeddings for a word in both sentences, same weights for every mode.
  engine::Rng rng(seed);
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
    engine::AttentionOptions options;
    if (kind == engine::PositionalKind::sinusoidal) {
      x += engine::sinusoidal_encoding<double>(positions, d_model);
    } else if (kind == engine::PositionalKind::learned) {
      Mat rows;
      engine::learned_positions_forward(rows, positions, learned_table);
      x += rows;
    } else if (kind == engine::PositionalKind::rope) {
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
    result.set("max_diff_" + mode, max_diff);
    // Permutation equivariance: each word's output row against the same word's row in b (for a
    // repeated word, the nearest of its occurrences).
    double output_diff = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      double nearest = INFINITY;
      for (std::size_t j = 0; j < b.size(); ++j) {
        if (b[j] != a[i]) continue;
        nearest = std::min(nearest, (run_a.output.row(static_cast<Index>(i)) -
                                     run_b.output.row(static_cast<Index>(j)))
                                        .cwiseAbs()
                                        .maxCoeff());
      }
      output_diff = std::max(output_diff, nearest);
    }
    result.set("output_moved_diff_" + mode, output_diff);
    // The focus word's weights on every other word, in both sentences.
    const Mat by_word_a = weights_by_word(run_a.weights, a, vocabulary);
    const Mat by_word_b = weights_by_word(run_b.weights, b, vocabulary);
    const auto focus_index = static_cast<Index>(
        std::find(vocabulary.begin(), vocabulary.end(), focus) - vocabulary.begin());
    for (std::size_t k = 0; k < vocabulary.size(); ++k) {
      if (vocabulary[k] == focus) continue;
      const auto column = static_cast<Index>(k);
      result.set(fmt::format("{}_on_{}_a_{}", name_part(focus), name_part(vocabulary[k]), mode),
                 by_word_a(focus_index, column));
      result.set(fmt::format("{}_on_{}_b_{}", name_part(focus), name_part(vocabulary[k]), mode),
                 by_word_b(focus_index, column));
    }
    const std::string label = mode == "none" ? "no positional encoding" : mode;
    result.tables.push_back(heatmap("weights_" + mode + "_a",
                                    fmt::format("{}: \"{}\"", label, params.text("a")), a, a,
                                    run_a.weights));
    result.tables.push_back(heatmap("weights_" + mode + "_b",
                                    fmt::format("{}: \"{}\"", label, params.text("b")), b, b,
                                    run_b.weights));
  }
  result.set("identical_without_position", result.find("max_diff_none")->number <= 1e-12);
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

// --- rope-relative ----------------------------------------------------------------------------

DemoResult run_rope_relative(const Params& params, std::uint64_t seed) {
  const std::int64_t offset = params.integer("offset");
  const std::vector<std::int64_t> starts = params.integers("positions");
  const std::int64_t dim = params.integer("d_model");
  const double base = params.number("base");
  if (dim % 2 != 0) {
    param_error("rope-relative", fmt::format("d_model={}: RoPE rotates pairs of dimensions, so "
                                             "d_model must be even",
                                             dim));
  }
  engine::Rng rng(seed);
  // Two token embeddings and the projections W_q, W_k (E → E).
  const Mat query_token = random_matrix(1, dim, rng, 0.0, 1.0);
  const Mat key_token = random_matrix(1, dim, rng, 0.0, 1.0);
  Mat wq(dim, dim), wk(dim, dim);
  engine::fill_xavier_uniform(wq, rng);
  engine::fill_xavier_uniform(wk, rng);
  const Mat q = query_token * wq.transpose();
  const Mat k = key_token * wk.transpose();

  const auto rope_score = [&](engine::RopeConvention convention, std::int64_t p, std::int64_t s) {
    Mat rq, rk;
    engine::rope_forward(rq, q, {p}, engine::RopeConfig{convention, base});
    engine::rope_forward(rk, k, {s}, engine::RopeConfig{convention, base});
    return rq.row(0).dot(rk.row(0));
  };
  // Sinusoidal: added to the embeddings, before the projections.
  const auto sinusoidal_score = [&](std::int64_t p, std::int64_t s) {
    const Mat qp =
        (query_token + engine::sinusoidal_encoding<double>({p}, dim, base)) * wq.transpose();
    const Mat ks =
        (key_token + engine::sinusoidal_encoding<double>({s}, dim, base)) * wk.transpose();
    return qp.row(0).dot(ks.row(0));
  };
  // RoPE in the wrong place: rotating the embeddings before W_q, W_k loses the property.
  const auto rope_before_projection_score = [&](std::int64_t p, std::int64_t s) {
    Mat rq, rk;
    const engine::RopeConfig config{engine::RopeConvention::half, base};
    engine::rope_forward(rq, query_token, {p}, config);
    engine::rope_forward(rk, key_token, {s}, config);
    return (rq * wq.transpose()).row(0).dot((rk * wk.transpose()).row(0));
  };

  Mat scores(static_cast<Index>(starts.size()), 4);
  std::vector<std::string> rows;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const std::int64_t p = starts[i];
    const auto row = static_cast<Index>(i);
    scores(row, 0) = rope_score(engine::RopeConvention::interleaved, p, p + offset);
    scores(row, 1) = rope_score(engine::RopeConvention::half, p, p + offset);
    scores(row, 2) = sinusoidal_score(p, p + offset);
    scores(row, 3) = rope_before_projection_score(p, p + offset);
    rows.push_back(fmt::format("({}, {})", p, p + offset));
  }
  const auto spread = [&](Index column) {
    return scores.col(column).maxCoeff() - scores.col(column).minCoeff();
  };
  DemoResult result;
  result.set("max_offset_diff_rope_interleaved", spread(0));
  result.set("max_offset_diff_rope_half", spread(1));
  result.set("max_offset_diff_sinusoidal", spread(2));
  result.set("max_offset_diff_rope_before_projection", spread(3));
  result.set("rope_depends_only_on_offset", spread(0) <= 1e-12 && spread(1) <= 1e-12);
  result.tables.push_back(Table{"scores",
                                fmt::format("q·k for query/key positions {} apart", offset),
                                rows,
                                {"RoPE interleaved", "RoPE half", "sinusoidal added", "RoPE on x"},
                                scores,
                                false});
  const std::set<std::int64_t> distinct(starts.begin(), starts.end());
  if (distinct.size() < 2) {
    result.text = {
        fmt::format("RoPE rotates the query and the key after their projections, by angles "
                    "proportional to their positions, so q·k depends only on the distance "
                    "between them. Here every pair {} apart starts at query position {}, so "
                    "there is no second pair to compare it with: --set positions=2,10,100 scores "
                    "the same offset at three places, where RoPE's scores agree and sinusoidal "
                    "ones do not.",
                    offset, *distinct.begin()),
        "The pipeline is x → W_q, W_k → rotate q and k → q·kᵀ."};
    return result;
  }
  result.text = {
      fmt::format("RoPE rotates the query and the key after their projections, by angles "
                  "proportional to their positions, so q·k depends only on the distance: every "
                  "pair {} apart scores the same (spread {} interleaved, {} rotate-half).",
                  offset, text::format_short(spread(0)), text::format_short(spread(1))),
      fmt::format("Added sinusoidal vectors ride inside the embeddings through W_q and W_k, and "
                  "the score changes with the absolute positions (spread {}).",
                  text::format_short(spread(2))),
      fmt::format("Where RoPE acts matters: rotating the embeddings before the projections "
                  "instead of Q and K after them loses the property (spread {}). The "
                  "pipeline is x → W_q, W_k → rotate q and k → q·kᵀ.",
                  text::format_short(spread(3)))};
  return result;
}

// --- pe-extrapolation -------------------------------------------------------------------------

DemoResult run_pe_extrapolation(const Params& params, std::uint64_t seed) {
  const std::int64_t max_len = params.integer("max_len");
  const std::int64_t d_model = params.integer("d_model");
  const std::int64_t position = params.integer("position");
  if (max_len * d_model > (std::int64_t{1} << 22)) {
    param_error("pe-extrapolation",
                fmt::format("max_len={} × d_model={} = {} table entries; the limit is {}", max_len,
                            d_model, max_len * d_model, std::int64_t{1} << 22));
  }
  // A learned table of the real shape (max_len rows of d_model). Only the rows this demo reads
  // are drawn: filling a 4-million-entry table with normals would dominate `check` on templates.
  engine::Rng rng(seed);
  Mat table = Mat::Zero(max_len, d_model);
  for (const std::int64_t row : {std::int64_t{0}, std::int64_t{1}, max_len - 1}) {
    if (row < max_len) table.row(row) = random_matrix(1, d_model, rng, 0.0, 1.0);
  }
  DemoResult result;
  Mat looked_up;
  engine::learned_positions_forward(looked_up, {max_len - 1}, table);
  result.set(fmt::format("learned_answers_{}", max_len - 1), looked_up.allFinite());
  std::string refusal;
  try {
    engine::learned_positions_forward(looked_up, {position}, table);
  } catch (const engine::EngineError& e) {
    refusal = e.what();
  }
  result.set(fmt::format("learned_refuses_{}", position), !refusal.empty());
  const Mat far = engine::sinusoidal_encoding<double>({position, 10 * position}, d_model);
  result.set(fmt::format("sinusoidal_defined_{}", position),
             far.allFinite() && far.cwiseAbs().maxCoeff() <= 1.0);
  // Counted from the schemes' trainable tensors, as for any module.
  const engine::PositionalParams<double> learned{engine::PositionalKind::learned, table};
  const auto sinusoidal_scheme =
      engine::make_positional_params<double>(engine::PositionalKind::sinusoidal, max_len, d_model);
  result.set("learned_params", static_cast<double>(engine::count_params(learned).total()));
  result.set("sinusoidal_params",
             static_cast<double>(engine::count_params(sinusoidal_scheme).total()));

  const std::vector<std::int64_t> shown = {0, 1, max_len - 1, position, 10 * position};
  const Index columns = std::min<Index>(d_model, 8);
  const Mat sinusoidal = engine::sinusoidal_encoding<double>(shown, d_model);
  std::vector<std::string> rows, column_labels;
  for (const auto p : shown)
    rows.push_back(fmt::format("position {}", p));
  for (Index c = 0; c < columns; ++c)
    column_labels.push_back(fmt::format("dim {}", c));
  result.tables.push_back(Table{"sinusoidal", "sinusoidal encoding, first dimensions", rows,
                                column_labels, sinusoidal.leftCols(columns), false});
  result.text = {
      refusal.empty()
          ? fmt::format("A learned table has one trained row per position below max_len = {}: "
                        "position {} is one of them, so the table answers it. Past the table it "
                        "has nothing to give: --set position={} asks for one it refuses.",
                        max_len, position, std::max<std::int64_t>(600, max_len + 1))
          : fmt::format("A learned table has one trained row per position up to max_len = {}: "
                        "position {} has a row, position {} has none. The engine says: {}",
                        max_len, max_len - 1, position, refusal),
      fmt::format("Sinusoidal encoding is a formula, sin and cos of position at fixed "
                  "frequencies: {}, with 0 trainable parameters against {} for the table ({} × "
                  "{}).",
                  position == 0
                      ? std::string("defined at every position alike")
                      : fmt::format("defined at {} and at {} alike", position, 10 * position),
                  text::group_digits(std::to_string(max_len * d_model)), max_len, d_model),
      "That is why the lesson says sinusoidal needs no training and in principle extends past "
      "the lengths seen in training, while a learned table can only represent positions it has "
      "rows for."};
  return result;
}

// --- causal-mask ------------------------------------------------------------------------------

DemoResult run_causal_mask(const Params& params, std::uint64_t seed) {
  const std::int64_t seq = params.integer("seq");
  const std::int64_t d_model = params.integer("d_model");
  const std::int64_t heads = params.integer("heads");
  std::int64_t changed = params.integer("changed");
  require_divides("causal-mask", d_model, heads, "heads");
  if (changed < 0) changed = seq - 1;
  if (changed >= seq) {
    param_error("causal-mask", fmt::format("changed={}: positions run from 0 to {} (seq={}); -1 "
                                           "means the last",
                                           changed, seq - 1, seq));
  }
  engine::Rng rng(seed);
  engine::MhaParams<double> mha(d_model, heads, true);
  engine::fill_xavier_uniform(mha.in_proj.weight, rng);
  engine::fill_xavier_uniform(mha.out_proj.weight, rng);
  const Mat x = random_matrix(seq, d_model, rng, 0.0, 1.0);
  Mat x_changed = x;
  x_changed.row(changed) = random_matrix(1, d_model, rng, 0.0, 1.0).row(0);

  const auto run = [&](const Mat& input, bool causal) {
    engine::AttentionOptions options;
    options.causal = causal;
    Mat out;
    engine::MhaCache<double> cache;
    engine::mha_forward(out, cache, input, mha, options);
    return std::pair{out, cache.probs};
  };
  const auto [causal_out, causal_probs] = run(x, true);
  const auto [causal_changed, unused_probs] = run(x_changed, true);
  const auto [full_out, full_probs] = run(x, false);
  const auto [full_changed, unused_full] = run(x_changed, false);
  double future = 0.0;
  for (const Mat& probs : causal_probs) {
    for (Index r = 0; r < probs.rows(); ++r) {
      for (Index c = r + 1; c < probs.cols(); ++c)
        future = std::max(future, probs(r, c));
    }
  }
  const auto earlier_change = [&](const Mat& before, const Mat& after) {
    return changed == 0 ? 0.0
                        : (before.topRows(changed) - after.topRows(changed)).cwiseAbs().maxCoeff();
  };
  // Positions whose output is exactly the same after the change, counted row by row.
  const auto unchanged_rows = [&](const Mat& before, const Mat& after) {
    std::int64_t count = 0;
    for (Index r = 0; r < before.rows(); ++r)
      count += before.row(r) == after.row(r) ? 1 : 0;
    return static_cast<double>(count);
  };
  DemoResult result;
  result.set("future_weight_max", future);
  result.set("earlier_output_change_causal", earlier_change(causal_out, causal_changed));
  result.set("earlier_output_change_bidirectional", earlier_change(full_out, full_changed));
  result.set("changed_position", static_cast<double>(changed));
  result.set("unchanged_positions_causal", unchanged_rows(causal_out, causal_changed));
  result.set("unchanged_positions_bidirectional", unchanged_rows(full_out, full_changed));
  std::vector<std::string> labels;
  for (std::int64_t t = 0; t < seq; ++t)
    labels.push_back(fmt::format("t{}", t));
  result.tables.push_back(heatmap("weights_causal", "causal (decoder) attention, head 0", labels,
                                  labels, causal_probs[0]));
  result.tables.push_back(heatmap("weights_bidirectional",
                                  "bidirectional (encoder) attention, head 0", labels, labels,
                                  full_probs[0]));
  result.text = {
      fmt::format("A causal mask sets every score above the diagonal to −∞ before the softmax, so "
                  "a position gives its future exactly zero weight (largest: {}).",
                  future),
      changed == 0
          ? fmt::format("Change token t0: no position comes before it, so there is no earlier "
                        "output for the mask to keep still{}.",
                        seq > 1 ? fmt::format("; --set changed={} changes the last token and "
                                              "leaves {} unmoved with the mask",
                                              seq - 1,
                                              seq == 2 ? std::string("t0")
                                                       : fmt::format("t0 to t{}", seq - 2))
                                : std::string("; --set seq=6 gives it neighbours"))
          : fmt::format(
                "Change token t{}: with the mask, outputs at earlier positions do not "
                "move (largest change {}); without it every position sees t{} and they "
                "all move (largest change {}).",
                changed, text::format_short(result.find("earlier_output_change_causal")->number),
                changed,
                text::format_short(result.find("earlier_output_change_bidirectional")->number)),
      "This is what lets decoder-only models train on every next-token prediction of a "
      "sequence at once: no position can peek at the token it must predict."};
  return result;
}

// --- head-params ------------------------------------------------------------------------------

DemoResult run_head_params(const Params& params, std::uint64_t) {
  const std::int64_t d_model = params.integer("d_model");
  const std::vector<std::int64_t> head_counts = params.integers("heads");
  for (const auto heads : head_counts)
    require_divides("head-params", d_model, heads, "heads");

  DemoResult result;
  Mat rows(static_cast<Index>(head_counts.size()), 7);
  std::vector<std::string> row_labels;
  bool closed_form_matches = true;
  // Up to this width the counts come from real modules (float: the smallest type that still
  // allocates every weight) and are checked against the closed form; wider models (a d_model 8192
  // block holds 268 million weights, 1 GiB) use the closed form the smaller sizes prove.
  constexpr std::int64_t kLargestCountedWidth = 1024;
  const bool count_modules = d_model <= kLargestCountedWidth;
  for (std::size_t i = 0; i < head_counts.size(); ++i) {
    const std::int64_t heads = head_counts[i];
    const auto closed = engine::attention_params_closed_form(d_model, heads, false);
    const auto closed_with_bias = engine::attention_params_closed_form(d_model, heads, true);
    const auto counted =
        count_modules
            ? engine::count_attention_params(engine::MhaParams<float>(d_model, heads, false))
            : closed;
    const auto with_bias =
        count_modules
            ? engine::count_attention_params(engine::MhaParams<float>(d_model, heads, true))
            : closed_with_bias;
    closed_form_matches = closed_form_matches && counted == closed && with_bias == closed_with_bias;
    const std::string h = fmt::format("h{}", heads);
    result.set("head_dim_" + h, static_cast<double>(counted.head_dim));
    result.set("per_head_projection_" + h, static_cast<double>(counted.per_head_projection));
    result.set("per_head_qkv_" + h, static_cast<double>(counted.per_head_qkv));
    result.set("qkv_total_" + h, static_cast<double>(counted.qkv_weights));
    result.set("total_" + h, static_cast<double>(counted.total()));
    result.set("total_with_bias_" + h, static_cast<double>(with_bias.total()));
    const auto row = static_cast<Index>(i);
    rows.row(row) << static_cast<double>(counted.head_dim),
        static_cast<double>(counted.per_head_projection), static_cast<double>(counted.per_head_qkv),
        static_cast<double>(counted.qkv_weights), static_cast<double>(counted.output_weights),
        static_cast<double>(counted.total()), static_cast<double>(with_bias.total());
    row_labels.push_back(fmt::format("{} head{}", heads, heads == 1 ? "" : "s"));
  }
  result.set("out_proj", static_cast<double>(d_model * d_model));
  result.set("closed_form_matches", closed_form_matches);
  result.set("counted_from_modules", count_modules);
  const std::int64_t first = head_counts.front();
  const std::int64_t last = head_counts.back();
  result.set(fmt::format("ratio_h{}_h{}", last, first),
             result.find(fmt::format("total_h{}", last))->number /
                 result.find(fmt::format("total_h{}", first))->number);
  result.tables.push_back(
      Table{"parameters",
            fmt::format("attention parameters at d_model {}", d_model),
            row_labels,
            {"head dim", "W_q/head", "QKV/head", "QKV total", "W_o", "total", "+ biases"},
            rows,
            false});
  const std::int64_t many = head_counts.size() > 1 ? head_counts[1] : first;
  result.text = {
      fmt::format("One head projects d_model {0} into Q, K and V of width {0}: 3 × {0} × {0} = "
                  "{1} weights, plus the output projection {0} × {0} = {2}.",
                  d_model, text::group_digits(std::to_string(3 * d_model * d_model)),
                  text::group_digits(std::to_string(d_model * d_model))),
      many == 1
          ? fmt::format("With more heads each one's W_q, W_k, W_v shrink by exactly the factor "
                        "the head count grows, so the Q/K/V total stays {}: --set heads=1,8 "
                        "counts one head beside eight.",
                        text::group_digits(std::to_string(3 * d_model * d_model)))
          : fmt::format("{0} heads of width {1} each need their own W_q, W_k, W_v of {2} × {1}: "
                        "{3} per head, × {0} heads = {4}, the same Q/K/V total, because the "
                        "per-head matrices shrink by exactly the factor the head count grows.",
                        many, d_model / many, d_model,
                        text::group_digits(std::to_string(3 * d_model * (d_model / many))),
                        text::group_digits(std::to_string(3 * d_model * d_model))),
      "Splitting into heads is not a compression trick: the total is the same for every head "
      "count. What changes is that each head can specialise in its own subspace."};
  return result;
}

// --- head-width -------------------------------------------------------------------------------

DemoResult run_head_width(const Params& params, std::uint64_t seed) {
  const std::int64_t d_model = params.integer("d_model");
  const std::vector<std::int64_t> head_counts = params.integers("heads");
  const std::int64_t seq = params.integer("seq");
  for (const auto heads : head_counts)
    require_divides("head-width", d_model, heads, "heads");
  engine::Rng rng(seed);
  const Mat x = random_matrix(seq, d_model, rng, 0.0, 1.0);
  DemoResult result;
  Series series{"head_width", "head dimension and the rank of one head's QKᵀ", "heads", "",
                {},           {{"head dim", {}}, {"rank of QKᵀ", {}}},         true};
  for (const auto heads : head_counts) {
    const std::int64_t head_dim = d_model / heads;
    Mat wq(head_dim, d_model), wk(head_dim, d_model);
    engine::fill_xavier_uniform(wq, rng);
    engine::fill_xavier_uniform(wk, rng);
    const Mat scores = (x * wq.transpose()) * (x * wk.transpose()).transpose();
    Eigen::ColPivHouseholderQR<Mat> qr(scores);
    qr.setThreshold(1e-10);
    const auto rank = static_cast<double>(qr.rank());
    result.set(fmt::format("head_dim_h{}", heads), static_cast<double>(head_dim));
    result.set(fmt::format("rank_h{}", heads), rank);
    series.x.push_back(static_cast<double>(heads));
    series.lines[0].second.push_back(static_cast<double>(head_dim));
    series.lines[1].second.push_back(rank);
  }
  result.series.push_back(std::move(series));
  result.text = {
      head_counts.front() == head_counts.back()
          ? fmt::format("With d_model {} fixed, each of h heads gets d_model / h dimensions: {} "
                        "with {}.",
                        d_model, d_model / head_counts.front(),
                        counted(head_counts.front(), "head", "heads"))
          : fmt::format("With d_model {} fixed, each of h heads gets d_model / h dimensions: {} "
                        "with {}, {} with {}.",
                        d_model, d_model / head_counts.front(),
                        counted(head_counts.front(), "head", "heads"), d_model / head_counts.back(),
                        head_counts.back()),
      fmt::format("A head compares tokens through q·k in its own head_dim-wide space, so its "
                  "{}×{} comparison matrix QKᵀ has rank at most head_dim: a head of width 4 can "
                  "express at most 4 independent directions of relevance, however many heads "
                  "there are.",
                  seq, seq),
      "Real architectures balance more subspaces against enough width per head; the lesson's "
      "16 heads of 32 dimensions versus 8 of 64 is that trade-off."};
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
       integer_param("max_len", 16, 1, 1024, "rows of the learned position table")},
      run_order_blindness};
}

DemoInfo rope_relative_demo() {
  return DemoInfo{
      "rope-relative",
      "RoPE scores depend on relative position",
      "RoPE rotates Q and K after projection so that q·k depends on the distance i − j.",
      "L2 — Mechanism",
      {integer_param("offset", 3, -1000, 1000, "distance between key and query positions"),
       list_param("positions", {2, 10, 100}, 0, 100000, "query positions"),
       integer_param("d_model", 16, 2, 512, "width of q and k (even)"),
       number_param("base", 10000.0, 2.0, 1e9, "RoPE and sinusoidal frequency base")},
      run_rope_relative};
}

DemoInfo pe_extrapolation_demo() {
  return DemoInfo{
      "pe-extrapolation",
      "Learned tables stop at max_len; sinusoids go on",
      "A learned position table can only represent positions it has rows for; sinusoidal "
      "encoding is defined for any position and needs no training.",
      "L2 — Mechanism",
      {integer_param("max_len", 512, 1, 65536, "rows of the learned table"),
       integer_param("d_model", 512, 2, 4096, "embedding width"),
       integer_param("position", 600, 0, 1000000, "the position asked for")},
      run_pe_extrapolation};
}

DemoInfo causal_mask_demo() {
  return DemoInfo{
      "causal-mask",
      "A causal mask hides the future",
      "Decoder-only models attend only to earlier positions: future weights are exactly 0.",
      "What comes next: decoder-only models",
      {integer_param("seq", 6, 1, 256, "tokens"),
       integer_param("d_model", 16, 1, 256, "embedding width"),
       integer_param("heads", 2, 1, 16, "attention heads (must divide d_model)"),
       integer_param("changed", -1, -1, 255, "the position whose token changes (-1: the last)")},
      run_causal_mask};
}

DemoInfo head_params_demo() {
  return DemoInfo{
      "head-params",
      "Splitting into heads does not save parameters",
      "One head of width 512 or eight heads of 64: 1,048,576 attention weights either way.",
      "Why splitting into heads is (almost) parameter-neutral",
      {integer_param("d_model", 512, 1, 16384,
                     "embedding width (counted from real modules up to 1024, closed form above)"),
       list_param("heads", {1, 8}, 1, 16384, "head counts to compare (each must divide d_model)")},
      run_head_params};
}

DemoInfo head_width_demo() {
  return DemoInfo{
      "head-width",
      "More heads, narrower heads",
      "Splitting a fixed width into more heads shrinks each head: 32 dimensions at 16 heads, 4 at "
      "128, too little room for a useful comparison.",
      "How many heads?",
      {integer_param("d_model", 512, 1, 2048, "embedding width"),
       list_param("heads", {1, 2, 4, 8, 16, 32, 64, 128}, 1, 2048,
                  "head counts (each must divide d_model)"),
       integer_param("seq", 64, 2, 512, "tokens in the comparison")},
      run_head_width};
}

}  // namespace proofdeck::demo
