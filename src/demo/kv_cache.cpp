// kv-cache: decoding token by token with a cache of keys and values equals the full causal
// pass; the cache holds only K and V and grows by one row per token.
#include "demo/demos.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/decoder.hpp"
#include "engine/fault.hpp"
#include "engine/rng.hpp"
#include "engine/run_context.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

LiveDecode decode_live(std::uint64_t seed, std::int64_t heads, std::int64_t kv_heads,
                       std::int64_t live_dim, std::int64_t live_tokens) {
  LiveDecode live;
  const engine::GqaConfig config =
      engine::GqaConfig::of(heads * live_dim, heads, kv_heads).with_head_dim(live_dim);
  engine::GqaParams<double> layer(config);
  engine::Rng rng(seed);
  engine::fill_xavier_uniform(layer.q_proj, rng);
  engine::fill_xavier_uniform(layer.k_proj, rng);
  engine::fill_xavier_uniform(layer.v_proj, rng);
  engine::fill_xavier_uniform(layer.o_proj, rng);
  const Mat x = random_matrix(live_tokens, config.hidden_size, rng, 0.0, 1.0);

  Mat full;
  engine::GqaCache<double> pass;
  engine::gqa_forward(full, pass, x, layer);
  engine::KvCache<double> cache;
  for (Index t = 0; t < live_tokens; ++t) {
    Mat out;
    engine::gqa_decode_step(out, cache, Mat(x.row(t)), t, layer);
    live.step_diff.push_back((out.row(0) - full.row(t)).cwiseAbs().maxCoeff());
    live.max_diff = std::max(live.max_diff, live.step_diff.back());
    live.one_row_per_token = live.one_row_per_token && cache.length() == t + 1;
  }
  live.cache_rows = cache.length();
  live.cache_entries = as_double(cache.keys.size() + cache.values.size());
  // What the cache holds, tensor by tensor, and how many of its tensors are the queries the full
  // pass computed (a cache that kept queries would hold one equal to them). A tensor of another
  // shape is told apart by its shape alone (counted); one of the queries' shape only by comparing
  // its entries with theirs (measured).
  engine::visit_tensors(cache, [&](const std::string&, const Mat& tensor) {
    live.cached_tensors += 1.0;
    if (tensor.rows() != pass.q.rows() || tensor.cols() != pass.q.cols()) return;
    live.compared_entries = true;
    if ((tensor - pass.q).cwiseAbs().maxCoeff() <= 1e-10) live.cached_queries += 1.0;
  });
  return live;
}

// The live decode depends on nothing but its arguments and the engine fault in force, and check
// runs kv-cache at some fifty settings that share three of them (the live run is capped at 64
// tokens and 256 dimensions whatever the configuration asked): each is decoded once by the runner
// whose caches the run is lent (run_caches.hpp). A decode read from there adds the engine ops it
// reached to the result's, as the run that decoded it recorded them.
LiveDecode live_decode(std::uint64_t seed, std::int64_t heads, std::int64_t kv_heads,
                       std::int64_t live_dim, std::int64_t live_tokens, LiveDecodes& decodes) {
  const LiveDecodes::Key key{seed,       engine::run_context().fault, heads, kv_heads, live_dim,
                             live_tokens};
  if (std::optional<LiveDecode> known = decodes.find(key)) return *std::move(known);
  LiveDecode live;
  {
    const engine::FaultScope scope(engine::run_context().fault);
    live = decode_live(seed, heads, kv_heads, live_dim, live_tokens);
    live.reached = scope.reached();
  }
  decodes.keep(key, live);
  return live;
}

DemoResult run_kv_cache(const Params& params, std::uint64_t seed, RunCaches& caches) {
  const std::string demo = "kv-cache";
  const std::int64_t heads = params.integer("heads");
  const std::int64_t kv_heads = params.integer("kv_heads");
  const std::int64_t head_dim = params.integer("head_dim");
  const std::int64_t tokens = params.integer("tokens");
  const std::int64_t layers = params.integer("layers");
  const std::int64_t bytes = params.integer("bytes");
  require_kv_divides(demo, heads, kv_heads);
  require_even(demo, "head_dim", head_dim);

  // One layer decoded live at a size that runs in a moment; the byte counts below are for the
  // configuration asked, from the formula the live cache is checked against.
  const std::int64_t live_tokens = std::min<std::int64_t>(tokens, 64);
  // Up to 32 dimensions a head, and a model at most 256 wide (at least 2 dimensions a head).
  const std::int64_t live_dim = std::max<std::int64_t>(
      2, std::min<std::int64_t>(head_dim, std::min<std::int64_t>(32, 256 / heads)) / 2 * 2);
  const LiveDecode live = live_decode(seed, heads, kv_heads, live_dim, live_tokens, caches.decodes);
  const double max_diff = live.max_diff;
  const std::vector<double>& step_diff = live.step_diff;
  const Provenance queries_kind =
      live.compared_entries ? Provenance::measured : Provenance::counted;
  const auto cache_bytes = [&](std::int64_t count) {
    return as_double(engine::kv_cache_bytes(layers, kv_heads, head_dim, count, bytes));
  };
  const double live_bytes = live.cache_entries * as_double(bytes);
  const bool formula_matches =
      as_double(engine::kv_cache_bytes(1, kv_heads, live_dim, live_tokens, bytes)) == live_bytes;
  const double per_token = cache_bytes(1);
  const double at_tokens = cache_bytes(tokens);
  const double at_double = cache_bytes(2 * tokens);

  // The tokens asked for, unless the live run was capped at 64.
  const Provenance live_kind = live_tokens == tokens ? Provenance::param : Provenance::derived;
  DemoResult result;
  result.reached = live.reached;  // a decode kept from another run entered these ops there
  result.set("live_tokens", "Tokens decoded one by one in the live run", as_double(live_tokens),
             live_kind);
  result.set("max_diff_decode_vs_full",
             "Largest output difference between cached decoding and the full causal pass", max_diff,
             Provenance::measured);
  result.set("decode_matches_full", "Cached decoding matches the full causal pass",
             max_diff <= 1e-10, Provenance::measured);
  result.set("cache_rows", "Rows in the cache after the last token", as_double(live.cache_rows),
             Provenance::counted);
  result.set("cached_tensors", "Tensors the cache holds", live.cached_tensors, Provenance::counted);
  result.set("cached_queries", "Cached tensors equal to the queries", live.cached_queries,
             queries_kind);
  result.set("kv_cache_bytes_per_token", "KV cache bytes per token, all layers", per_token,
             Provenance::derived);
  result.set(
      "kv_cache_bytes",
      fmt::format("KV cache bytes for {}, all layers", text::count(tokens, "token", "tokens")),
      at_tokens, Provenance::derived);
  result.set(
      "kv_cache_bytes_double",
      fmt::format("KV cache bytes for {}, all layers", text::count(2 * tokens, "token", "tokens")),
      at_double, Provenance::derived);
  result.set("cache_grows_linearly", "Cache grows by one row per token, linear in the length",
             live.one_row_per_token && at_double == 2.0 * at_tokens, Provenance::counted);
  result.set("formula_matches_live_cache", "Byte formula matches the live cache's size",
             formula_matches, Provenance::counted);

  // The decode steps: the cache gains a row of K and of V per token. Every step while they are
  // few; past that, some evenly spread and the one with the largest difference, so that the
  // table holds the largest difference the values and the text give.
  constexpr Index kEveryStep = 16, kSpread = 8;
  std::vector<Index> shown;
  if (live_tokens <= kEveryStep) {
    for (Index t = 0; t < live_tokens; ++t)
      shown.push_back(t);
  } else {
    for (Index i = 0; i < kSpread; ++i)
      shown.push_back(i * (live_tokens - 1) / (kSpread - 1));
    const Index largest = std::max_element(step_diff.begin(), step_diff.end()) - step_diff.begin();
    if (std::find(shown.begin(), shown.end(), largest) == shown.end())
      shown.insert(std::upper_bound(shown.begin(), shown.end(), largest), largest);
  }
  Mat steps(static_cast<Index>(shown.size()), 3);
  std::vector<std::string> step_rows;
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const Index t = shown[i];
    steps.row(static_cast<Index>(i)) << as_double(t + 1), as_double(t + 1),
        step_diff[static_cast<std::size_t>(t)];
    step_rows.push_back(fmt::format("token {}", t + 1));
  }
  const std::string steps_shown =
      std::cmp_equal(shown.size(), live_tokens)
          ? "after each decode step"
          : fmt::format(
                "after {} of {} decode steps (evenly spread, and the one with the largest "
                "difference)",
                shown.size(), live_tokens);
  result.tables.push_back(Table{"decode_steps",
                                steps_shown +
                                    ": rows in the cache, and the output's largest difference "
                                    "from the full causal pass",
                                step_rows,
                                {"cached keys", "cached values", "largest difference"},
                                steps,
                                false});
  Series growth{
      "kv_cache_growth",
      fmt::format("KV cache: {}, {} of {}, {} per value", text::count(layers, "layer", "layers"),
                  text::count(kv_heads, "key/value head", "key/value heads"), head_dim,
                  text::count(bytes, "byte", "bytes")),
      "tokens",
      "bytes",
      {},
      {{"KV cache", {}}},
      false};
  for (const std::int64_t multiple : {1, 2, 3, 4}) {
    growth.x.push_back(as_double(multiple * tokens));
    growth.lines[0].second.push_back(cache_bytes(multiple * tokens));
  }
  result.series.push_back(std::move(growth));

  result.text = {
      fmt::format("One causal layer ({} query heads, {}, {} dimensions each, RoPE) decodes {} "
                  "token by token: each step projects the new token's q, k and v, appends k and "
                  "v to the cache and attends over every cached key. Its outputs equal the full "
                  "causal pass over all {} at once (largest difference {}).",
                  heads, text::count(kv_heads, "key/value head", "key/value heads"), live_dim,
                  text::count(live_tokens, "token", "tokens"), live_tokens,
                  text::format_short(max_diff)),
      "Only K and V are cached: a token's query is used once, at its own step, while every later "
      "token reads the keys and values of all tokens before it. Nor are attention weights "
      "cached: each new query needs fresh scores against every key.",
      fmt::format("The cache grows by one row of K and one of V per token and per layer: 2 × {} "
                  "× {} × {} dims × {} = {} per token, {} for {} and {} for twice "
                  "as many — linear in the length, never a fixed size.",
                  text::count(layers, "layer", "layers"),
                  text::count(kv_heads, "K/V head", "K/V heads"), head_dim,
                  text::count(bytes, "byte", "bytes"), grouped(per_token), bytes_text(at_tokens),
                  text::count(tokens, "token", "tokens"), bytes_text(at_double))};
  return result;
}

}  // namespace

DemoInfo kv_cache_demo() {
  return DemoInfo{
      "kv-cache",
      "Decoding with a key/value cache",
      "Decoding token by token with a cache of keys and values equals the full causal pass; the "
      "cache holds only K and V and grows linearly with the length.",
      "Beyond the lesson: incremental decoding (Shazeer 2019)",
      {integer_param("heads", 4, 1, 64, "query heads"),
       integer_param("kv_heads", 2, 1, 64, "key/value heads (divides heads)"),
       integer_param("head_dim", 16, 2, 256, "dimensions per head (even)"),
       integer_param("tokens", 16, 1, 1000000, "tokens decoded (live: up to 64)"),
       integer_param("layers", 32, 1, 256, "layers, for the cache size"),
       integer_param("bytes", 2, 1, 8, "bytes per cached value")},
      run_kv_cache,
      {engine::Op::attention, engine::Op::heads, engine::Op::kv_heads, engine::Op::kv_cache,
       engine::Op::rope}};
}

}  // namespace proofdeck::demo
