// alibi-distance: ALiBi adds −m_h·|i − j| to each head's scores: attention falls off with
// distance, and nothing is added to the input.
#include "demo/demos.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/decoder.hpp"
#include "engine/param_count.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

// Attention weights as a heatmap table with t0, t1, … labels.
Table weights_table(std::string name, std::string title, const Mat& weights) {
  const std::vector<std::string> labels = numbered("t", weights.rows());
  return heatmap(std::move(name), std::move(title), labels, labels, weights);
}

DemoResult run_alibi_distance(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::int64_t heads = params.integer("heads");
  const std::int64_t tokens = params.integer("tokens");
  const std::int64_t far = params.integer("far");
  constexpr std::int64_t head_dim = 8;
  const engine::GqaConfig config = engine::GqaConfig::of(heads * head_dim, heads, heads)
                                       .with_head_dim(head_dim)
                                       .without_rope()
                                       .with_alibi();
  engine::GqaParams<double> with_alibi(config);
  engine::Rng rng(seed);
  // W_q = 0: every content score q·k is 0, so the weights are ALiBi's bias alone.
  engine::fill_xavier_uniform(with_alibi.k_proj, rng);
  engine::fill_xavier_uniform(with_alibi.v_proj, rng);
  engine::fill_xavier_uniform(with_alibi.o_proj, rng);
  engine::GqaParams<double> without = with_alibi;
  without.config.alibi = false;
  const Mat x = random_matrix(tokens, config.hidden_size, rng, 0.0, 1.0);
  Mat out, out_plain;
  engine::GqaCache<double> cache, cache_plain;
  engine::gqa_forward(out, cache, x, with_alibi);
  engine::gqa_forward(out_plain, cache_plain, x, without);

  // With every content score 0, the last query's scores are the bias −m·distance alone, so each
  // head's slope is read off its weights: ln p(distance 0) − ln p(distance 1) = m.
  const Index last = tokens - 1;
  std::vector<double> slopes;
  for (const Mat& probs : cache.probs)
    slopes.push_back(std::log(probs(last, last)) - std::log(probs(last, last - 1)));
  DemoResult result;
  for (std::int64_t h = 0; h < heads; ++h)
    result.set(fmt::format("slope_h{}", h),
               fmt::format("ALiBi slope read off the weights, head {}", h),
               slopes[static_cast<std::size_t>(h)], Provenance::measured);
  bool falls = true;
  for (const Mat& probs : cache.probs) {
    for (Index j = 1; j <= last; ++j)
      falls = falls && probs(last, j) > probs(last, j - 1);
  }
  const std::int64_t last_head = heads - 1;
  std::vector<std::int64_t> ends = {0};
  if (last_head > 0) ends.push_back(last_head);
  for (const std::int64_t h : ends) {
    const Mat& probs = cache.probs[static_cast<std::size_t>(h)];
    result.set(fmt::format("weight_nearest_h{}", h),
               fmt::format("Last token's weight on itself, head {}", h), probs(last, last),
               Provenance::measured);
    result.set(fmt::format("weight_farthest_h{}", h),
               fmt::format("Last token's weight on the first token, head {}", h), probs(last, 0),
               Provenance::measured);
  }
  result.set("falls_with_distance", "Attention weight falls with distance in every head", falls,
             Provenance::measured);
  result.set("bias_at_far_h0",
             fmt::format("ALiBi bias at a distance of {}, head 0", grouped(as_double(far))),
             -slopes.front() * as_double(far), Provenance::measured);
  result.set("position_params", "Trainable parameters ALiBi adds",
             static_cast<double>(engine::count_params(with_alibi).total() -
                                 engine::count_params(without).total()),
             Provenance::counted);
  const double vector_change = std::max({(cache.q - cache_plain.q).cwiseAbs().maxCoeff(),
                                         (cache.k - cache_plain.k).cwiseAbs().maxCoeff(),
                                         (cache.v - cache_plain.v).cwiseAbs().maxCoeff()});
  result.set("embedding_change",
             "Largest change in the queries, keys and values when ALiBi is switched on",
             vector_change, Provenance::measured);

  Series by_distance{
      "weight_by_distance",
      fmt::format("the last token's attention weight by distance ({} tokens)", tokens),
      "distance",
      "weight",
      {},
      {},
      false};
  // At most 16 distances, evenly spread from the token itself to the first.
  std::vector<Index> distances;
  const Index points = std::min<Index>(tokens, 16);
  for (Index i = 0; i < points; ++i)
    distances.push_back(points == 1 ? 0 : i * last / (points - 1));
  for (const Index distance : distances)
    by_distance.x.push_back(static_cast<double>(distance));
  std::vector<std::int64_t> drawn = {0};
  if (heads > 2) drawn.push_back(heads / 2);
  if (heads > 1) drawn.push_back(last_head);
  for (const std::int64_t h : drawn) {
    const Mat& probs = cache.probs[static_cast<std::size_t>(h)];
    std::vector<double> y;
    for (const Index distance : distances)
      y.push_back(probs(last, last - distance));
    by_distance.lines.emplace_back(
        fmt::format("head {} (m = {})", h, text::format_short(slopes[static_cast<std::size_t>(h)])),
        std::move(y));
  }
  result.series.push_back(std::move(by_distance));
  if (tokens <= 16) {
    result.tables.push_back(
        weights_table("weights_h0",
                      fmt::format("head 0 (m = {}): weights with content scores 0",
                                  text::format_short(slopes.front())),
                      cache.probs.front()));
  }

  const double near0 = result.find("weight_nearest_h0")->number;
  const double far0 = result.find("weight_farthest_h0")->number;
  result.text = {
      fmt::format("ALiBi (Press et al. 2022) adds −m_h·|i − j| to head h's scores before the "
                  "softmax, with Press et al.'s slopes (2^(−8(h+1)/H) when H is a power of two): "
                  "{}. With every content score 0, the last of {} tokens gives {} to itself and "
                  "{} to the first: attention falls off with distance{}.",
                  heads == 1
                      ? fmt::format("{} for the one head", text::format_short(slopes.front()))
                      : fmt::format("{} for head 0 down to {} for head {} of {}",
                                    text::format_short(slopes.front()),
                                    text::format_short(slopes.back()), last_head, heads),
                  tokens, text::format_short(near0), text::format_short(far0),
                  heads == 1 ? "" : ", steeply in the first heads and gently in the last"),
      fmt::format(
          "The bias is on the scores: Q, K and V are the same with and without it "
          "(largest change {}), nothing is added to the token vectors, and it has {} "
          "trainable parameters. Nor is there a table: the bias is defined at any "
          "distance, −{} at a distance of {} for head 0, which is what lets a model trained "
          "short attend over longer inputs.",
          text::format_short(vector_change), grouped(result.find("position_params")->number),
          text::format_short(slopes.front() * as_double(far)), grouped(as_double(far)))};
  return result;
}

}  // namespace

DemoInfo alibi_distance_demo() {
  return DemoInfo{
      "alibi-distance",
      "ALiBi: a distance penalty on the scores",
      "ALiBi adds −m_h·|i − j| to each head's scores: attention falls off with "
      "distance, nothing is added to the input, and no table limits the length.",
      "Beyond the lesson: Press et al. 2022 (ALiBi)",
      {integer_param("heads", 8, 1, 64, "attention heads"),
       integer_param("tokens", 16, 2, 512, "tokens"),
       integer_param("far", 100000, 1, 1000000000, "a distance to evaluate the bias at")},
      run_alibi_distance,
      {engine::Op::attention, engine::Op::heads, engine::Op::kv_heads, engine::Op::alibi,
       engine::Op::rope}};
}

}  // namespace proofdeck::demo
