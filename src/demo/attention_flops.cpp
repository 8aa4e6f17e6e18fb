// attention-flops: where a layer's FLOPs go: the projections' 8·T·E² against QKᵀ and AV's
// 4·T²·E, whatever the head count; the T² term overtakes at T = 2E. The counts come from the
// engine's multiply-add tally over a real layer forward, and the crossover from a search over
// tallied runs, wherever the sizes are small enough to run; past them, from the closed forms the
// runs match.
#include "demo/demos.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/activation.hpp"
#include "engine/attention.hpp"
#include "engine/feedforward.hpp"
#include "engine/macs.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using Mat = engine::Matrix<double>;

namespace {

// The most multiply-adds the runs at the asked length may take together (every head count's
// attention and the feed-forward); the widest d_model whose crossover is searched by runs (its
// longest run, at T = 128, takes 4.2 million); and the most one run of the search may take, which
// only a fault that moves the crossover far out reaches.
constexpr double kCountedWork = 16'777'216.0;  // 2²⁴
constexpr std::int64_t kSearchWidth = 64;
constexpr double kSearchRunWork = 67'108'864.0;  // 2²⁶

// Multiply-adds one attention forward of T tokens takes by the closed forms: the four projections'
// 4·T·E² and QKᵀ plus AV's 2·T²·E.
double attention_work(std::int64_t tokens, std::int64_t d_model) {
  const double t = as_double(tokens), e = as_double(d_model);
  return 4.0 * t * e * e + 2.0 * t * t * e;
}

// A layer's multiply-adds as the engine's tally counted them.
struct LayerMacs {
  double projections = 0.0;  // W_q, W_k, W_v (the packed in-projection) and W_o
  double scores = 0.0;       // every head's QKᵀ
  double weighted = 0.0;     // every head's AV
  double attention() const { return scores + weighted; }
};

// nn.MultiheadAttention's forward over the tokens `x` (no bias, no mask: every score computed)
// with a multiply-add tally open: what its in-projection, score products, weighted sums and
// out-projection multiplied.
LayerMacs count_attention(const engine::MhaParams<double>& module, const Mat& x) {
  Mat out;
  engine::MhaCache<double> cache;
  const engine::MacTally tally;
  engine::mha_forward<double>(out, cache, x, module, {});
  const engine::MacCount& count = tally.count();
  return {as_double(count.linear), as_double(count.scores), as_double(count.weighted_values)};
}

engine::MhaParams<double> attention_module(std::int64_t d_model, std::int64_t heads,
                                           engine::Rng& rng) {
  engine::MhaParams<double> module(d_model, heads, false);
  engine::fill_xavier_uniform(module.in_proj.weight, rng);
  engine::fill_xavier_uniform(module.out_proj.weight, rng);
  return module;
}

// The feed-forward's two Linears over the tokens `x`, tallied.
double count_feedforward(const Mat& x, std::int64_t d_ff, engine::Rng& rng) {
  engine::FeedForwardParams<double> module(x.cols(), d_ff, false);
  engine::fill_xavier_uniform(module.linear1.weight, rng);
  engine::fill_xavier_uniform(module.linear2.weight, rng);
  Mat out;
  engine::FeedForwardCache<double> cache;
  const engine::MacTally tally;
  engine::feedforward_forward<double>(out, cache, x, module, engine::Activation::relu);
  return as_double(tally.count().total());
}

// The smallest length at which the tallied QKᵀ and AV multiply-adds reach the projections': the
// length doubles from 1 until they do, then bisection between the last two lengths, each probe a
// real forward at that length. Every probe reads the first T rows of one block of 4·E random
// tokens, drawn before the search (repeated past 4·E, where only a broken tally leads it), so a
// fault that moves the crossover changes the probes but not the draws. If the doubling would pass
// kSearchRunWork first (only a broken tally gets there: a correct one crosses at 2E), the crossover
// is extrapolated from the last run's counts, attention's growing as T² and the projections' as T.
struct Crossover {
  std::int64_t tokens = 0;
  std::int64_t runs = 0;      // forwards the search ran
  bool reached = true;        // false: extrapolated past the last run
  LayerMacs at_crossover;     // the counts at `tokens` (reached) or at the last run
  LayerMacs below_crossover;  // the counts one length short of it (reached, tokens > 1)
};

Crossover find_crossover(std::int64_t d_model, std::int64_t heads, engine::Rng& rng) {
  const engine::MhaParams<double> module = attention_module(d_model, heads, rng);
  const Mat block = random_matrix(4 * d_model, d_model, rng, 0.0, 1.0);
  Crossover found;
  LayerMacs below_macs, at_macs;
  const auto overtakes = [&](std::int64_t tokens, LayerMacs& macs) {
    ++found.runs;
    const engine::Index copies = (tokens + block.rows() - 1) / block.rows();
    const Mat x = block.replicate(copies, 1).topRows(tokens);
    macs = count_attention(module, x);
    return macs.attention() >= macs.projections;
  };
  std::int64_t below = 0, at = 1;  // attention is short of the projections at `below` (0: no run)
  while (!overtakes(at, at_macs)) {
    below = at;
    below_macs = at_macs;
    if (attention_work(2 * at, d_model) > kSearchRunWork) {
      const double per_token = below_macs.projections / as_double(below);
      const double per_token_squared = below_macs.attention() / as_double(below * below);
      // 0 when the tally saw no QKᵀ or AV at all: no length would reach the projections
      found.tokens = per_token_squared > 0.0
                         ? static_cast<std::int64_t>(std::ceil(per_token / per_token_squared))
                         : 0;
      found.reached = false;
      found.at_crossover = below_macs;
      return found;
    }
    at *= 2;
  }
  while (at - below > 1) {
    const std::int64_t middle = below + (at - below) / 2;
    LayerMacs macs;
    if (overtakes(middle, macs)) {
      at = middle;
      at_macs = macs;
    } else {
      below = middle;
      below_macs = macs;
    }
  }
  found.tokens = at;
  found.at_crossover = at_macs;
  found.below_crossover = below_macs;
  return found;
}

// The layer's FLOPs at the asked length (2 per multiply-add), counted or by the closed forms.
struct LayerFlops {
  std::vector<double> scores_per_heads;  // QKᵀ, one per head count asked
  // The layer's terms at the most heads asked, where a tally that missed a head would show:
  double projections = 0.0;
  double scores = 0.0;    // QKᵀ
  double weighted = 0.0;  // AV
  double ffn = 0.0;
  bool counted = false;
};

LayerFlops layer_flops(const std::vector<std::int64_t>& head_counts, std::int64_t tokens,
                       std::int64_t d_model, std::int64_t d_ff, engine::Rng& rng) {
  const double t = as_double(tokens), e = as_double(d_model), f = as_double(d_ff);
  LayerFlops flops;
  const double work =
      attention_work(tokens, d_model) * as_double(static_cast<std::int64_t>(head_counts.size())) +
      2.0 * t * e * f;
  flops.counted = work <= kCountedWork;
  if (!flops.counted) {
    // A multiply-add is 2 FLOPs. Each head's QKᵀ is (T, D)·(D, T): summed over the heads it is
    // 2·T²·E whatever their number. AV, (T, T)·(T, D) a head, costs the same.
    flops.projections = 4.0 * 2.0 * t * e * e;  // W_q, W_k, W_v, W_o: (T, E)·(E, E) each
    flops.scores = flops.weighted = 2.0 * t * t * e;
    flops.scores_per_heads.assign(head_counts.size(), flops.scores);
    flops.ffn = 2.0 * 2.0 * t * e * f;  // two (T, E)·(E, F)-sized products
    return flops;
  }
  const Mat x = random_matrix(tokens, d_model, rng, 0.0, 1.0);
  for (const std::int64_t heads : head_counts) {
    const LayerMacs macs = count_attention(attention_module(d_model, heads, rng), x);
    flops.scores_per_heads.push_back(2.0 * macs.scores);
    if (heads != head_counts.back()) continue;
    flops.projections = 2.0 * macs.projections;
    flops.scores = 2.0 * macs.scores;
    flops.weighted = 2.0 * macs.weighted;
  }
  flops.ffn = 2.0 * count_feedforward(x, d_ff, rng);
  return flops;
}

Series growth_series(double e) {
  Series growth{"flops_by_length",
                "attention FLOPs as the sequence grows (closed forms)",
                "tokens",
                "FLOPs",
                {},
                {{"projections 8·T·E²", {}}, {"QKᵀ + AV 4·T²·E", {}}},
                true};
  for (const double multiple : {0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0}) {
    const double length = std::max(1.0, std::round(2.0 * e * multiple));
    if (!growth.x.empty() && length == growth.x.back()) continue;
    growth.x.push_back(length);
    growth.lines[0].second.push_back(8.0 * length * e * e);
    growth.lines[1].second.push_back(4.0 * length * length * e);
  }
  return growth;
}

// Where the numbers came from, in one paragraph.
std::string provenance_text(const LayerFlops& flops, bool matches, const Crossover* search,
                            std::int64_t tokens, std::int64_t d_model, std::int64_t search_heads) {
  const std::string layer =
      flops.counted
          ? fmt::format(
                "The FLOPs above are twice the multiply-adds the engine's tally counted "
                "over a real forward of {} through the layer; the closed forms {} them.",
                text::count(tokens, "token", "tokens"), matches ? "match" : "miss")
          : fmt::format(
                "At T = {} and d_model {} the layer is past what the demo runs (more than "
                "{} multiply-adds), so the FLOPs above are the closed forms, which the "
                "tally matches wherever it runs (the defaults, T = 128 and d_model 64, count "
                "them).",
                grouped(as_double(tokens)), grouped(as_double(d_model)),
                text::format_readable(kCountedWork, 2));
  if (search == nullptr) {
    return layer + fmt::format(
                       " The crossover 2·E is the closed form too: it is searched by runs up to "
                       "d_model {}.",
                       kSearchWidth);
  }
  if (!search->reached) {
    return layer + fmt::format(
                       " The tallied runs of {} had not reached the crossover by T = {}; it is "
                       "extrapolated from their counts.",
                       text::count(search_heads, "head", "heads"),
                       grouped(as_double(search->tokens)));
  }
  return layer + fmt::format(
                     " The crossover was found by {} forwards of {} at d_model {}, the tally open: "
                     "at T = {} QKᵀ and AV counted {} multiply-adds against the projections' {}{}.",
                     search->runs, text::count(search_heads, "head", "heads"),
                     grouped(as_double(d_model)), grouped(as_double(search->tokens)),
                     grouped(search->at_crossover.attention()),
                     grouped(search->at_crossover.projections),
                     search->tokens > 1 ? fmt::format(", and at T = {} {} against {}",
                                                      grouped(as_double(search->tokens - 1)),
                                                      grouped(search->below_crossover.attention()),
                                                      grouped(search->below_crossover.projections))
                                        : "");
}

DemoResult run_attention_flops(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::string demo = "attention-flops";
  const std::int64_t tokens = params.integer("tokens");
  const std::int64_t d_model = params.integer("d_model");
  const std::vector<std::int64_t> head_counts =
      distinct_sorted(demo, "heads", params.integers("heads"));
  const std::int64_t asked_ff = params.integer("d_ff");
  const std::int64_t d_ff = asked_ff > 0 ? asked_ff : 4 * d_model;
  for (const std::int64_t heads : head_counts)
    require_divides(demo, d_model, heads, "heads");
  const double t = as_double(tokens), e = as_double(d_model), f = as_double(d_ff);

  engine::Rng rng(seed);
  const LayerFlops flops = layer_flops(head_counts, tokens, d_model, d_ff, rng);
  // The search runs the most heads asked, where a tally that missed a head would show.
  const std::int64_t search_heads = head_counts.back();
  const bool search = d_model <= kSearchWidth;
  const Crossover crossover =
      search ? find_crossover(d_model, search_heads, rng) : Crossover{2 * d_model, 0, true, {}, {}};
  const Provenance layer_kind = flops.counted ? Provenance::counted : Provenance::derived;
  const Provenance crossover_kind = search ? Provenance::counted : Provenance::derived;

  const double projections = flops.projections, scores = flops.scores;
  const double weighted = flops.weighted, ffn = flops.ffn;
  bool heads_change = false;
  bool closed_form_matches = projections == 8.0 * t * e * e && scores == 2.0 * t * t * e &&
                             weighted == scores && ffn == 4.0 * t * e * f &&
                             crossover.tokens == 2 * d_model;
  DemoResult result;
  for (std::size_t i = 0; i < head_counts.size(); ++i) {
    heads_change = heads_change || flops.scores_per_heads[i] != scores;
    closed_form_matches = closed_form_matches && flops.scores_per_heads[i] == 2.0 * t * t * e;
    result.set(fmt::format("flops_scores_h{}", head_counts[i]),
               fmt::format("FLOPs of one layer's score products QKᵀ, {}",
                           text::count(head_counts[i], "head", "heads")),
               flops.scores_per_heads[i], layer_kind);
  }
  const double attention = projections + scores + weighted;
  result.set("flops_projections", "FLOPs of one layer's query, key, value and output projections",
             projections, layer_kind);
  result.set("flops_scores", "FLOPs of one layer's score products QKᵀ", scores, layer_kind);
  result.set("flops_av", "FLOPs of one layer's weighted sum of the values AV", weighted,
             layer_kind);
  result.set("flops_ffn", "FLOPs of one layer's feed-forward", ffn, layer_kind);
  result.set("flops_attention", "FLOPs of one layer's attention, projections included", attention,
             layer_kind);
  result.set("flops_layer", "FLOPs of one layer's forward pass, attention and feed-forward",
             attention + ffn, layer_kind);
  result.set("heads_change_flops", "Head count changes the score FLOPs", heads_change, layer_kind);
  result.set("crossover_tokens", "Tokens at which QKᵀ and AV overtake the projections",
             as_double(crossover.tokens), crossover_kind);
  result.set("quadratic_share", "Share of attention FLOPs in QKᵀ and AV",
             (scores + weighted) / attention, layer_kind);
  result.set("closed_form_matches", "The closed forms agree with the tallied runs",
             closed_form_matches,
             flops.counted || search ? Provenance::counted : Provenance::derived);

  Mat table(4, 2);
  table << projections, projections / (attention + ffn), scores, scores / (attention + ffn),
      weighted, weighted / (attention + ffn), ffn, ffn / (attention + ffn);
  result.tables.push_back(Table{"flops",
                                fmt::format("one layer's forward FLOPs at T = {}, E = {}, F = {}",
                                            grouped(t), grouped(e), grouped(f)),
                                {"projections (Q, K, V, O)", "QKᵀ", "AV", "feed-forward"},
                                {"FLOPs", "share"},
                                table,
                                false});
  result.series.push_back(growth_series(e));

  const double cross = as_double(crossover.tokens);
  const bool past = t > cross;
  result.text = {
      fmt::format("At T = {} and d_model {}, the projections cost {} FLOPs (8·T·E²), QKᵀ "
                  "and AV {} each (2·T²·E), and the feed-forward {} (4·T·E·F).",
                  grouped(t), grouped(e), text::format_short(projections),
                  text::format_short(scores), text::format_short(ffn)),
      head_counts.size() > 1
          ? fmt::format("The head count does not change them: {} of {} dims and {} of {} both "
                        "do 2·T²·E for QKᵀ, since each head's share shrinks as their number "
                        "grows.",
                        text::count(head_counts.front(), "head", "heads"),
                        grouped(as_double(d_model / head_counts.front())), head_counts.back(),
                        grouped(as_double(d_model / head_counts.back())))
          : fmt::format("With {} of {} dims, QKᵀ costs 2·T²·E whatever the head count: each "
                        "head's share shrinks as their number grows (--set heads=1,8 compares).",
                        text::count(head_counts.front(), "head", "heads"),
                        grouped(as_double(d_model / head_counts.front()))),
      fmt::format("The T² terms overtake the projections at T = {} tokens (2·E = {}); here they "
                  "are {} of attention's FLOPs, {} the crossover.",
                  grouped(cross), grouped(2.0 * e),
                  text::format_readable(100.0 * (scores + weighted) / attention, 3) + "%",
                  past ? "past" : (t == cross ? "at" : "short of")),
      provenance_text(flops, closed_form_matches, search ? &crossover : nullptr, tokens, d_model,
                      search_heads)};
  return result;
}

}  // namespace

DemoInfo attention_flops_demo() {
  return DemoInfo{
      "attention-flops",
      "Where attention's FLOPs go",
      "A layer's projections cost 8·T·E² FLOPs and QKᵀ plus AV 4·T²·E, whatever the head count: "
      "the T² term overtakes the projections at T = 2E.",
      "Beyond the lesson: the cost of attention",
      {integer_param("tokens", 128, 1, 10000000, "sequence length T"),
       integer_param("d_model", 64, 1, 1000000, "embedding width E"),
       list_param("heads", {1, 8}, 1, 1000000, "head counts to compare (each divides d_model)"),
       integer_param("d_ff", 0, 0, 10000000, "feed-forward width (0: 4·d_model)")},
      run_attention_flops,
      {engine::Op::attention, engine::Op::heads, engine::Op::feedforward, engine::Op::mac_count}};
}

}  // namespace proofdeck::demo
