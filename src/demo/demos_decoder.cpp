// The modern decoder layer's demos (see demos_decoder.hpp). Every count is read off an engine
// object where one fits in memory, and every "equals" is a measured largest difference.
#include "demo/demos_decoder.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/attention.hpp"
#include "engine/decoder.hpp"
#include "engine/feedforward.hpp"
#include "engine/norm.hpp"
#include "engine/param_count.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;
using Vec = engine::Vector<double>;

namespace {

// "1,048,576": an exact count in prose.
std::string grouped(double count) {
  return text::format_readable(count, 15);
}

// "256 MiB", "4 KiB", "512 bytes": a byte count people read at a glance.
std::string bytes_text(double bytes) {
  constexpr const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
  std::size_t unit = 0;
  double value = bytes;
  while (value >= 1024.0 && unit + 1 < std::size(units)) {
    value /= 1024.0;
    ++unit;
  }
  return text::format_readable(value, 3) + " " + units[unit];
}

// The key/value head count's name: multi-head (MHA) at G = H, multi-query (MQA) at G = 1,
// grouped-query (GQA) between.
std::string attention_kind(std::int64_t kv_heads, std::int64_t heads) {
  if (kv_heads == heads) return "MHA";
  return kv_heads == 1 ? "MQA" : "GQA";
}

void require_kv_divides(const std::string& demo, std::int64_t heads, std::int64_t kv_heads) {
  if (heads % kv_heads == 0) return;
  param_error(demo, fmt::format("kv_heads={}: the {} query heads must share the key/value heads "
                                "evenly, so kv_heads must be one of {}",
                                kv_heads, heads, fmt::join(divisors_of(heads), ", ")));
}

void require_even(const std::string& demo, const char* name, std::int64_t value) {
  if (value % 2 == 0) return;
  param_error(demo, fmt::format("{}={}: RoPE rotates pairs of dimensions, so {} must be even", name,
                                value, name));
}

// Attention weights as a heatmap table with t0, t1, … labels.
Table weights_table(std::string name, std::string title, const Mat& weights) {
  std::vector<std::string> labels;
  for (Index t = 0; t < weights.rows(); ++t)
    labels.push_back(fmt::format("t{}", t));
  return Table{std::move(name), std::move(title), labels, labels, Eigen::MatrixXd(weights), true};
}

// ============================================================================================
// gqa-params
// ============================================================================================

DemoResult run_gqa_params(const Params& params, std::uint64_t) {
  const std::string demo = "gqa-params";
  const std::int64_t d_model = params.integer("d_model");
  const std::int64_t heads = params.integer("heads");
  const std::int64_t layers = params.integer("layers");
  const std::int64_t tokens = params.integer("tokens");
  const std::int64_t bytes = params.integer("bytes");
  require_divides(demo, d_model, heads, "heads");
  std::vector<std::int64_t> kv_list =
      distinct_sorted(demo, "kv_heads", params.integers("kv_heads"));
  for (const std::int64_t kv : kv_list)
    require_kv_divides(demo, heads, kv);
  std::reverse(kv_list.begin(), kv_list.end());  // multi-head first, multi-query last
  const std::int64_t head_dim = d_model / heads;
  const double e = as_double(d_model), d = as_double(head_dim), h = as_double(heads);

  // Counted from engine objects while they fit comfortably in memory (4·E² doubles at most).
  const bool count_modules = d_model <= 1024;
  bool closed_form_matches = true;
  const double mha_params = 4.0 * e * e;
  const double mha_cache = 2.0 * as_double(layers) * h * d * as_double(tokens) * as_double(bytes);
  DemoResult result;
  result.set("head_dim", d);
  Mat table(static_cast<Index>(kv_list.size()), 6);
  std::vector<std::string> rows;
  Series cache{"kv_cache_by_kv_heads",
               fmt::format("KV cache for {} × {}", counted(tokens, "token", "tokens"),
                           counted(layers, "layer", "layers")),
               "key/value heads",
               "bytes",
               {},
               {{"KV cache", {}}},
               false};
  Series sizes{"params_by_kv_heads",
               "attention parameters of one layer",
               "key/value heads",
               "parameters",
               {},
               {{"q_proj + o_proj", {}}, {"k_proj + v_proj", {}}},
               false};
  for (std::size_t i = 0; i < kv_list.size(); ++i) {
    const std::int64_t kv = kv_list[i];
    const double g = as_double(kv);
    const double q_proj = h * d * e, kv_proj = 2.0 * g * d * e, o_proj = e * h * d;
    double total = q_proj + kv_proj + o_proj;
    if (count_modules) {
      engine::GqaConfig config;
      config.hidden_size = d_model;
      config.num_attention_heads = heads;
      config.num_key_value_heads = kv;
      config.head_dim = head_dim;
      config.rope = false;  // RoPE holds no parameters; an odd head_dim is fine to count
      const engine::GqaParams<double> module(config);
      const auto counted = static_cast<double>(engine::count_params(module).total());
      closed_form_matches =
          closed_form_matches && counted == total &&
          static_cast<double>(module.k_proj.size() + module.v_proj.size()) == kv_proj;
      total = counted;
    }
    const double cache_bytes =
        2.0 * as_double(layers) * g * d * as_double(tokens) * as_double(bytes);
    const std::string suffix = fmt::format("_g{}", kv);
    result.set("q_proj" + suffix, q_proj);
    result.set("kv_proj" + suffix, kv_proj);
    result.set("o_proj" + suffix, o_proj);
    result.set("attention_params" + suffix, total);
    result.set("params_ratio" + suffix, total / mha_params);
    result.set("params_saved" + suffix, mha_params - total);
    result.set("queries_per_kv_head" + suffix, h / g);
    result.set("kv_cache_bytes_per_token" + suffix,
               2.0 * as_double(layers) * g * d * as_double(bytes));
    result.set("kv_cache_bytes" + suffix, cache_bytes);
    result.set("kv_cache_ratio" + suffix, cache_bytes / mha_cache);
    const auto row = static_cast<Index>(i);
    table.row(row) << h / g, q_proj + o_proj, kv_proj, total, total / mha_params, cache_bytes;
    rows.push_back(fmt::format("G = {} ({})", kv, attention_kind(kv, heads)));
  }
  // Splitting the heads is the other knob: one head of the full width holds the same 4·E².
  const double one_head = 4.0 * e * e;
  result.set("mha_params", mha_params);
  result.set("one_head_params", one_head);
  result.set("split_saves_params", mha_params < one_head);
  result.set("counted_from_modules", count_modules);
  result.set("closed_form_matches", closed_form_matches);
  result.tables.push_back(
      Table{"by_kv_heads",
            fmt::format("one layer at d_model {}, {} query heads of {}", d_model, heads, head_dim),
            rows,
            {"queries per K/V head", "q_proj + o_proj", "k_proj + v_proj", "parameters",
             "÷ multi-head", "KV cache (bytes)"},
            table,
            false});
  // The charts run along G, fewest key/value heads first (the table reads from multi-head down).
  for (auto kv = kv_list.rbegin(); kv != kv_list.rend(); ++kv) {
    const auto value = [&](const char* name) {
      return result.find(fmt::format("{}_g{}", name, *kv))->number;
    };
    cache.x.push_back(as_double(*kv));
    cache.lines[0].second.push_back(value("kv_cache_bytes"));
    sizes.x.push_back(as_double(*kv));
    sizes.lines[0].second.push_back(value("q_proj") + value("o_proj"));
    sizes.lines[1].second.push_back(value("kv_proj"));
  }
  result.series.push_back(std::move(cache));
  result.series.push_back(std::move(sizes));

  const std::int64_t fewest = kv_list.back();
  const double fewest_total = result.find(fmt::format("attention_params_g{}", fewest))->number;
  const double fewest_cache = result.find(fmt::format("kv_cache_bytes_g{}", fewest))->number;
  result.text = {
      fmt::format("Query head h of {} ({} dimensions each) reads key/value head ⌊h·G/H⌋ of G. Only "
                  "k_proj and v_proj shrink with G (2·G·{}·{} weights); q_proj and o_proj keep "
                  "{} each.",
                  heads, head_dim, head_dim, d_model, grouped(h * d * e)),
      kv_list.size() > 1 || fewest != heads
          ? fmt::format("Sharing K/V saves what splitting heads never did: at G = {} a layer "
                        "holds {} weights against multi-head's {}, and its KV cache for {}, "
                        "{} and {} per value is {} instead of {} — "
                        "{} times smaller, as K and V are stored once per key/value head.",
                        fewest, grouped(fewest_total), grouped(mha_params),
                        counted(tokens, "token", "tokens"), counted(layers, "layer", "layers"),
                        counted(bytes, "byte", "bytes"), bytes_text(fewest_cache),
                        bytes_text(mha_cache), text::format_short(mha_cache / fewest_cache))
          : fmt::format("With G = H = {} this is multi-head attention: {} weights, and a KV "
                        "cache of {} for {}; --set kv_heads={},{},1 compares grouped and "
                        "multi-query attention.",
                        heads, grouped(mha_params), bytes_text(mha_cache),
                        counted(tokens, "token", "tokens"), heads,
                        std::max<std::int64_t>(1, heads / 4)),
      fmt::format("Splitting d_model into heads is a different knob: {}; it changes the "
                  "subspaces, not the count. Sharing K/V trades some quality for memory, which is "
                  "why Ainslie et al. keep several groups (GQA) rather than one (MQA).",
                  heads == 1
                      ? fmt::format("one head of width {} holds 4·d_model² = {} weights, and "
                                    "so would any split into h heads of d_model/h",
                                    d_model, grouped(one_head))
                      : fmt::format("one head of width {} holds the same {} = 4·d_model² "
                                    "weights as {} heads of {}",
                                    d_model, grouped(one_head), heads, head_dim))};
  return result;
}

// ============================================================================================
// kv-cache
// ============================================================================================

DemoResult run_kv_cache(const Params& params, std::uint64_t seed) {
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
  engine::GqaConfig config;
  config.hidden_size = heads * live_dim;
  config.num_attention_heads = heads;
  config.num_key_value_heads = kv_heads;
  config.head_dim = live_dim;
  config.causal = true;
  config.rope = true;
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
  double max_diff = 0.0;
  bool one_row_per_token = true;
  std::vector<double> step_diff;
  for (Index t = 0; t < live_tokens; ++t) {
    Mat out;
    engine::gqa_decode_step(out, cache, Mat(x.row(t)), t, layer);
    step_diff.push_back((out.row(0) - full.row(t)).cwiseAbs().maxCoeff());
    max_diff = std::max(max_diff, step_diff.back());
    one_row_per_token = one_row_per_token && cache.length() == t + 1;
  }
  const auto cache_bytes = [&](std::int64_t count) {
    return as_double(engine::kv_cache_bytes(layers, kv_heads, head_dim, count, bytes));
  };
  const double live_bytes = as_double(cache.keys.size() + cache.values.size()) * as_double(bytes);
  const bool formula_matches =
      as_double(engine::kv_cache_bytes(1, kv_heads, live_dim, live_tokens, bytes)) == live_bytes;
  const double per_token = cache_bytes(1);
  const double at_tokens = cache_bytes(tokens);
  const double at_double = cache_bytes(2 * tokens);

  DemoResult result;
  result.set("live_tokens", as_double(live_tokens));
  result.set("max_diff_decode_vs_full", max_diff);
  result.set("decode_matches_full", max_diff <= 1e-10);
  result.set("cache_rows", as_double(cache.length()));
  result.set("cached_tensors", 2.0);  // KvCache holds keys and values, nothing else
  result.set("cached_queries", 0.0);
  result.set("kv_cache_bytes_per_token", per_token);
  result.set("kv_cache_bytes", at_tokens);
  result.set("kv_cache_bytes_double", at_double);
  result.set("cache_grows_linearly", one_row_per_token && at_double == 2.0 * at_tokens);
  result.set("formula_matches_live_cache", formula_matches);

  // A few decode steps, evenly spread: the cache gains a row of K and of V per token.
  const Index shown = std::min<Index>(live_tokens, 8);
  Mat steps(shown, 3);
  std::vector<std::string> step_rows;
  for (Index i = 0; i < shown; ++i) {
    const Index t = shown == 1 ? 0 : i * (live_tokens - 1) / (shown - 1);
    steps.row(i) << as_double(t + 1), as_double(t + 1), step_diff[static_cast<std::size_t>(t)];
    step_rows.push_back(fmt::format("token {}", t + 1));
  }
  result.tables.push_back(Table{"decode_steps",
                                "after each decode step: rows in the cache, and the output's "
                                "largest difference from the full causal pass",
                                step_rows,
                                {"cached keys", "cached values", "largest difference"},
                                steps,
                                false});
  Series growth{
      "kv_cache_growth",
      fmt::format("KV cache: {}, {} of {}, {} per value", counted(layers, "layer", "layers"),
                  counted(kv_heads, "key/value head", "key/value heads"), head_dim,
                  counted(bytes, "byte", "bytes")),
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
                  heads, counted(kv_heads, "key/value head", "key/value heads"), live_dim,
                  counted(live_tokens, "token", "tokens"), live_tokens,
                  text::format_short(max_diff)),
      "Only K and V are cached: a token's query is used once, at its own step, while every later "
      "token reads the keys and values of all tokens before it. Nor are attention weights "
      "cached: each new query needs fresh scores against every key.",
      fmt::format("The cache grows by one row of K and one of V per token and per layer: 2 × {} "
                  "× {} × {} dims × {} = {} per token, {} for {} and {} for twice "
                  "as many — linear in the length, never a fixed size.",
                  counted(layers, "layer", "layers"), counted(kv_heads, "K/V head", "K/V heads"),
                  head_dim, counted(bytes, "byte", "bytes"), grouped(per_token),
                  bytes_text(at_tokens), counted(tokens, "token", "tokens"),
                  bytes_text(at_double))};
  return result;
}

// ============================================================================================
// rmsnorm-vs-layernorm
// ============================================================================================

DemoResult run_rmsnorm_vs_layernorm(const Params& params, std::uint64_t seed) {
  const std::int64_t features = params.integer("features");
  const std::int64_t tokens = params.integer("tokens");
  const double shift = params.number("shift");
  constexpr double eps = 1e-5;
  engine::Rng rng(seed);
  const Mat input = (random_matrix(tokens, features, rng, 0.0, 1.0).array() + shift).matrix();
  const Mat centred = input.colwise() - Vec(input.rowwise().mean());

  const engine::NormParams<double> layer_norm(features, true);       // γ = 1, β = 0
  const engine::NormParams<double> rms_norm(features, true, false);  // γ = 1, no β
  Vec mean, rstd, rrms;
  Mat ln_out, rms_out, ln_centred, rms_centred;
  engine::layernorm_forward(ln_out, mean, rstd, input, layer_norm, eps);
  engine::rmsnorm_forward(rms_out, rrms, input, rms_norm, eps);
  engine::layernorm_forward(ln_centred, mean, rstd, centred, layer_norm, eps);
  engine::rmsnorm_forward(rms_centred, rrms, centred, rms_norm, eps);

  const Vec rms_means = rms_out.rowwise().mean();
  const Vec ln_means = ln_out.rowwise().mean();
  const double max_diff_shifted = (rms_out - ln_out).cwiseAbs().maxCoeff();
  const double max_diff_centred = (rms_centred - ln_centred).cwiseAbs().maxCoeff();
  const double rms_of_output = std::sqrt(rms_out.squaredNorm() / as_double(rms_out.size()));
  const auto ln_params = static_cast<double>(layer_norm.weight.size() + layer_norm.bias.size());
  const auto rms_params = static_cast<double>(rms_norm.weight.size() + rms_norm.bias.size());

  DemoResult result;
  result.set("input_mean", input.mean());
  result.set("ln_output_mean", ln_means.cwiseAbs().maxCoeff());
  result.set("rms_output_mean", rms_means.mean());
  result.set("rms_centres", rms_means.cwiseAbs().maxCoeff() < 1e-6);
  result.set("max_diff_shifted", max_diff_shifted);
  result.set("max_diff_zero_mean", max_diff_centred);
  result.set("equal_when_zero_mean", max_diff_centred <= 1e-12);
  result.set("rms_params", rms_params);
  result.set("ln_params", ln_params);
  result.set("rms_output_rms", rms_of_output);

  const Index shown = std::min<Index>(features, 6);
  Mat first(4, shown);
  first << input.row(0).head(shown), ln_out.row(0).head(shown), rms_out.row(0).head(shown),
      rms_centred.row(0).head(shown);
  std::vector<std::string> columns;
  for (Index c = 0; c < shown; ++c)
    columns.push_back(fmt::format("feature {}", c));
  result.tables.push_back(Table{"token0",
                                "token 0: its input and both norms' outputs (γ = 1, β = 0)",
                                {"input", "LayerNorm", "RMSNorm", "RMSNorm, input mean removed"},
                                columns,
                                first,
                                false});
  Mat stats(3, 2);
  stats << input.rowwise().mean().mean(), input.norm() / std::sqrt(as_double(input.size())),
      ln_means.mean(), ln_out.norm() / std::sqrt(as_double(ln_out.size())), rms_means.mean(),
      rms_of_output;
  result.tables.push_back(Table{"means",
                                fmt::format("mean and root mean square over {} × {} features",
                                            counted(tokens, "token", "tokens"), features),
                                {"input", "LayerNorm output", "RMSNorm output"},
                                {"mean", "root mean square"},
                                stats,
                                false});

  const Index drawn_tokens = std::min<Index>(tokens, 16);
  Series per_token{
      "output_mean_per_token",
      drawn_tokens < tokens
          ? fmt::format("each token's output mean (the first {} of {})", drawn_tokens, tokens)
          : std::string("each token's output mean"),
      "token",
      "mean",
      {},
      {{"LayerNorm", {}}, {"RMSNorm", {}}},
      false};
  for (Index t = 0; t < drawn_tokens; ++t) {
    per_token.x.push_back(static_cast<double>(t));
    per_token.lines[0].second.push_back(ln_means(t));
    per_token.lines[1].second.push_back(rms_means(t));
  }
  result.series.push_back(std::move(per_token));

  const bool shifted = std::fabs(shift) > 0.0;
  result.text = {
      fmt::format("LayerNorm subtracts each token's mean and divides by its standard deviation; "
                  "RMSNorm (Zhang & Sennrich 2019) only divides by the root mean square, "
                  "√(mean(x²) + ε). On inputs shifted by {} (mean {}), LayerNorm's outputs have "
                  "mean 0 (largest {}) while RMSNorm's keep a mean of {}: it rescales, it does "
                  "not centre.",
                  text::format_short(shift), text::format_short(input.mean()),
                  text::format_short(ln_means.cwiseAbs().maxCoeff()),
                  text::format_short(rms_means.mean())),
      fmt::format("{}Remove each token's mean first and the two agree: largest difference {}, as "
                  "mean(x²) is then the variance. RMSNorm is LayerNorm's output only for "
                  "zero-mean inputs.",
                  shifted ? fmt::format("So the outputs differ (largest difference {}). ",
                                        text::format_short(max_diff_shifted))
                          : std::string(),
                  text::format_short(max_diff_centred)),
      fmt::format("RMSNorm has {} parameters (γ) where LayerNorm has {} (γ and β): it is cheaper "
                  "and, as Llama uses it, works as well — but it is a different function, not "
                  "LayerNorm with fewer parameters.",
                  grouped(rms_params), grouped(ln_params))};
  return result;
}

// ============================================================================================
// swiglu-params
// ============================================================================================

DemoResult run_swiglu_params(const Params& params, std::uint64_t) {
  const std::int64_t d_model = params.integer("d_model");
  const std::int64_t asked = params.integer("intermediate");
  const std::int64_t multiple_of = params.integer("multiple_of");
  // Llama's rule: two thirds of 4·E, rounded up to a multiple of multiple_of.
  const std::int64_t two_thirds = 2 * 4 * d_model / 3;
  const std::int64_t width =
      asked > 0 ? asked : (two_thirds + multiple_of - 1) / multiple_of * multiple_of;
  const double e = as_double(d_model), f = as_double(width);
  const double swiglu_closed = 3.0 * e * f;
  const double ffn_closed = 2.0 * e * 4.0 * e;
  // Counted from engine objects while they fit in memory comfortably.
  const bool count_modules = 3 * d_model * width <= (std::int64_t{1} << 22);
  double swiglu = swiglu_closed, ffn = ffn_closed;
  if (count_modules) {
    swiglu = static_cast<double>(
        engine::count_params(engine::SwigluParams<double>(d_model, width)).total());
    const engine::FeedForwardParams<double> original(d_model, 4 * d_model, false);
    ffn = static_cast<double>(original.linear1.weight.size() + original.linear2.weight.size());
  }
  DemoResult result;
  result.set("intermediate_size", f);
  result.set("swiglu_params", swiglu);
  result.set("swiglu_matrices", 3.0);
  result.set("ffn_params", ffn);
  result.set("ffn_matrices", 2.0);
  result.set("ratio", swiglu / ffn);
  result.set("swiglu_params_at_4e", 3.0 * e * 4.0 * e);
  result.set("ratio_at_4e", 3.0 * e * 4.0 * e / ffn);
  result.set("counted_from_modules", count_modules && swiglu == swiglu_closed && ffn == ffn_closed);

  Mat table(3, 4);
  table << 3.0, f, swiglu, swiglu / ffn,  //
      2.0, 4.0 * e, ffn, 1.0,             //
      3.0, 4.0 * e, 3.0 * e * 4.0 * e, 1.5;
  result.tables.push_back(Table{"feed_forward",
                                fmt::format("feed-forward sublayers at d_model {}", d_model),
                                {fmt::format("SwiGLU, F = {}", grouped(f)),
                                 fmt::format("original FFN, 4E = {}", grouped(4.0 * e)),
                                 fmt::format("SwiGLU at 4E = {}", grouped(4.0 * e))},
                                {"matrices", "hidden width", "parameters", "÷ original"},
                                table,
                                false});
  Series widths{"params_by_width",
                "SwiGLU and the original FFN at the same hidden width",
                "hidden width",
                "parameters",
                {},
                {{"SwiGLU (3 matrices)", {}}, {"original FFN (2 matrices)", {}}},
                false};
  std::vector<double> xs = {e, 2.0 * e, f, 4.0 * e};
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  for (const double x : xs) {
    widths.x.push_back(x);
    widths.lines[0].second.push_back(3.0 * e * x);
    widths.lines[1].second.push_back(2.0 * e * x);
  }
  result.series.push_back(std::move(widths));

  result.text = {
      fmt::format(
          "SwiGLU (Shazeer 2020, as Llama uses it) computes down_proj(silu(gate_proj(x)) "
          "⊙ up_proj(x)): three E×F matrices where the original feed-forward has two of "
          "E×4E. At d_model {} and F = {}{} that is {} weights against the original's "
          "{} (ratio {}).",
          d_model, grouped(f),
          asked > 0 ? std::string()
                    : fmt::format(" (⌊2·4E/3⌋ = {}{})", grouped(as_double(two_thirds)),
                                  multiple_of > 1
                                      ? fmt::format(", rounded up to a multiple of {}", multiple_of)
                                      : std::string()),
          grouped(swiglu), grouped(ffn), text::format_readable(swiglu / ffn, 5)),
      fmt::format("The third matrix is paid for by the narrower width: F ≈ 8/3·E keeps the count "
                  "of the 4E two-matrix FFN. SwiGLU at the full 4E would hold {} weights, 1.5 "
                  "times as many — the gating, not extra parameters, is what Shazeer compared.",
                  grouped(3.0 * e * 4.0 * e))};
  return result;
}

// ============================================================================================
// alibi-distance
// ============================================================================================

DemoResult run_alibi_distance(const Params& params, std::uint64_t seed) {
  const std::int64_t heads = params.integer("heads");
  const std::int64_t tokens = params.integer("tokens");
  const std::int64_t far = params.integer("far");
  constexpr std::int64_t head_dim = 8;
  engine::GqaConfig config;
  config.hidden_size = heads * head_dim;
  config.num_attention_heads = heads;
  config.num_key_value_heads = heads;
  config.head_dim = head_dim;
  config.causal = true;
  config.rope = false;
  config.alibi = true;
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

  const std::vector<double> slopes = engine::alibi_slopes(heads);
  DemoResult result;
  for (std::int64_t h = 0; h < heads; ++h)
    result.set(fmt::format("slope_h{}", h), slopes[static_cast<std::size_t>(h)]);
  const Index last = tokens - 1;
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
    result.set(fmt::format("weight_nearest_h{}", h), probs(last, last));
    result.set(fmt::format("weight_farthest_h{}", h), probs(last, 0));
  }
  result.set("falls_with_distance", falls);
  result.set("bias_at_far_h0", -slopes.front() * as_double(far));
  result.set("position_params", static_cast<double>(engine::count_params(with_alibi).total() -
                                                    engine::count_params(without).total()));
  const double vector_change = std::max({(cache.q - cache_plain.q).cwiseAbs().maxCoeff(),
                                         (cache.k - cache_plain.k).cwiseAbs().maxCoeff(),
                                         (cache.v - cache_plain.v).cwiseAbs().maxCoeff()});
  result.set("embedding_change", vector_change);

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

// ============================================================================================
// rope-scaling
// ============================================================================================

DemoResult run_rope_scaling(const Params& params, std::uint64_t seed) {
  const std::string demo = "rope-scaling";
  const std::int64_t trained = params.integer("trained");
  const double factor = params.number("factor");
  const std::int64_t head_dim = params.integer("head_dim");
  const double base = params.number("base");
  require_even(demo, "head_dim", head_dim);
  const auto extended = static_cast<std::int64_t>(std::floor(as_double(trained) * factor));
  const std::int64_t last = extended - 1;
  const double scaled = as_double(last) / factor;
  // θ₀ = base⁰ = 1 radian per position: the fastest-turning pair sets the widest angle range.
  const double max_trained = as_double(trained - 1);

  // q·k at one offset, at positions across the extended range, with interpolation on.
  engine::Rng rng(seed);
  const Mat q = random_matrix(1, head_dim, rng, 0.0, 1.0);
  const Mat k = random_matrix(1, head_dim, rng, 0.0, 1.0);
  const engine::RopeConfig config{engine::RopeConvention::half, base, factor};
  constexpr std::int64_t offset = 3;
  std::vector<std::int64_t> starts = {0, trained / 2, std::max<std::int64_t>(0, last - offset)};
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  std::vector<double> scores;
  for (const std::int64_t p : starts) {
    Mat rq, rk;
    engine::rope_forward(rq, q, {p}, config);
    engine::rope_forward(rk, k, {p + offset}, config);
    scores.push_back(rq.row(0).dot(rk.row(0)));
  }
  const double spread = *std::max_element(scores.begin(), scores.end()) -
                        *std::min_element(scores.begin(), scores.end());

  DemoResult result;
  result.set("extended_length", as_double(extended));
  result.set("last_position", as_double(last));
  result.set("scaled_position", scaled);
  result.set("max_angle_trained", max_trained);
  result.set("max_angle_extended", as_double(last));
  result.set("max_angle_interpolated", scaled);
  result.set("interpolated_within_trained", scaled < as_double(trained));
  result.set("extended_beyond_trained", last > trained - 1);
  result.set("offset_spread_scaled", spread);
  result.set("depends_only_on_offset", spread <= 1e-12);

  Series angles{"angle_by_position",
                "the fastest pair's rotation angle by position",
                "position",
                "angle (rad)",
                {},
                {{"no scaling", {}},
                 {fmt::format("÷ {}", text::format_short(factor)), {}},
                 {"trained range [0, L) ends", {}}},
                false};
  constexpr int kPoints = 9;
  for (int i = 0; i < kPoints; ++i) {
    const double p = std::round(as_double(last) * i / (kPoints - 1));
    if (!angles.x.empty() && p == angles.x.back()) continue;
    angles.x.push_back(p);
    angles.lines[0].second.push_back(p);
    angles.lines[1].second.push_back(p / factor);
    angles.lines[2].second.push_back(as_double(trained));
  }
  result.series.push_back(std::move(angles));

  result.text = {
      fmt::format("RoPE turns pair i of q and k by position·θᵢ, θᵢ = {}^(−2i/{}); the fastest "
                  "pair turns 1 radian per position, so a model trained on {} positions has "
                  "seen its angles only up to {}. Run {} tokens unchanged and the last position, "
                  "{}, turns it to {} rad — angles it never saw in training: RoPE does not "
                  "extrapolate for free.",
                  text::format_short(base), head_dim, grouped(as_double(trained)),
                  grouped(max_trained), grouped(as_double(extended)), grouped(as_double(last)),
                  grouped(as_double(last))),
      fmt::format("Position interpolation (Chen et al. 2023; rope_scaling {{\"rope_type\": "
                  "\"linear\", \"factor\": {}}}) divides every position by {} first: position {} "
                  "becomes {}, inside the trained range [0, {}), at the cost of finer steps "
                  "between neighbours (a short fine-tune adapts to them).",
                  text::format_short(factor), text::format_short(factor), grouped(as_double(last)),
                  text::format_readable(scaled, 6), grouped(as_double(trained))),
      fmt::format("The rotation is still a rotation by scaled positions, so q·k depends only on "
                  "the (scaled) offset: pairs {} apart at {} score alike "
                  "(spread {}).",
                  offset,
                  starts.size() == 1 ? fmt::format("position {}", starts.front())
                                     : fmt::format("positions {}", fmt::join(starts, ", ")),
                  text::format_short(spread))};
  return result;
}

// ============================================================================================
// tiled-attention
// ============================================================================================

DemoResult run_tiled_attention(const Params& params, std::uint64_t seed) {
  const std::string demo = "tiled-attention";
  const std::int64_t tokens = params.integer("tokens");
  const std::int64_t d_k = params.integer("d_k");
  const std::int64_t tile = params.integer("tile");
  const bool causal = params.flag("causal");
  // Beside the tile asked for, smaller and larger ones, while the runs stay cheap (a template
  // over long sequences runs only the tile it asks about).
  std::vector<std::int64_t> tiles = {tile};
  if (as_double(tokens) * as_double(tokens) * as_double(d_k) <= 4194304.0) {
    tiles = {std::max<std::int64_t>(1, tile / 4), std::max<std::int64_t>(1, tile / 2), tile,
             std::min<std::int64_t>(tokens, 2 * tile), tokens};
  }
  std::sort(tiles.begin(), tiles.end());
  tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
  const double work = as_double(tokens) * as_double(tokens) * as_double(d_k) *
                      as_double(static_cast<std::int64_t>(tiles.size()) + 1);
  if (work > 2e9) {
    param_error(demo, fmt::format("tokens={} and d_k={} need about {} multiply-adds over {} tile "
                                  "sizes, more than one run may take; choose smaller values",
                                  tokens, d_k, text::format_readable(work, 2), tiles.size()));
  }
  engine::Rng rng(seed);
  const Mat q = random_matrix(tokens, d_k, rng, 0.0, 1.0);
  const Mat k = random_matrix(tokens, d_k, rng, 0.0, 1.0);
  const Mat v = random_matrix(tokens, d_k, rng, 0.0, 1.0);
  engine::AttentionOptions options;
  options.causal = causal;
  Mat full(tokens, d_k), probs;
  engine::attention_forward<double>(full, probs, q, k, v, options);

  DemoResult result;
  Mat table(static_cast<Index>(tiles.size()), 3);
  std::vector<std::string> rows;
  Series buffers{"score_buffer_by_tile",
                 "entries of the score buffer held at once",
                 "tile",
                 "entries",
                 {},
                 {{"tiled", {}}, {"full T × T", {}}},
                 true};
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    Mat out(tokens, d_k);
    const engine::TiledAttentionStats stats =
        engine::attention_tiled_forward<double>(out, q, k, v, tiles[i], causal);
    const double diff = (out - full).cwiseAbs().maxCoeff();
    const auto row = static_cast<Index>(i);
    table.row(row) << as_double(stats.score_buffer), as_double(stats.tiles), diff;
    rows.push_back(fmt::format("tile {}", tiles[i]));
    buffers.x.push_back(as_double(tiles[i]));
    buffers.lines[0].second.push_back(as_double(stats.score_buffer));
    buffers.lines[1].second.push_back(as_double(tokens * tokens));
    if (tiles[i] == tile) {
      result.set("max_diff", diff);
      result.set("exact", diff <= 1e-12);
      result.set("full_score_buffer", as_double(tokens * tokens));
      result.set("tiled_score_buffer", as_double(stats.score_buffer));
      result.set("buffer_ratio", as_double(tokens * tokens) / as_double(stats.score_buffer));
      result.set("tiles", as_double(stats.tiles));
    }
  }
  result.tables.push_back(Table{"by_tile",
                                fmt::format("{} queries and keys of {} dims, {}", tokens, d_k,
                                            causal ? "causal" : "bidirectional"),
                                rows,
                                {"score buffer", "blocks", "largest difference"},
                                table,
                                false});
  result.series.push_back(std::move(buffers));

  const double diff = result.find("max_diff")->number;
  result.text = {
      fmt::format("Tiled attention (Dao et al. 2022's online softmax) walks the keys tile by "
                  "tile, keeping for each query a running maximum, a running sum of exponentials "
                  "and an output rescaled whenever the maximum grows. At tile {} its output "
                  "equals softmax(QKᵀ/√d_k)·V over the full {} × {} scores to {} (largest "
                  "difference): exact, not an approximation.",
                  tile, tokens, tokens, text::format_short(diff)),
      result.find("buffer_ratio")->number > 1.0
          ? fmt::format(
                "What changes is memory: it never holds more than {} scores at once "
                "instead of {}, {} times fewer, in {}{}. FlashAttention's speed comes "
                "from that smaller working set staying in fast on-chip memory, not from "
                "computing less.",
                grouped(result.find("tiled_score_buffer")->number),
                grouped(as_double(tokens * tokens)),
                text::format_short(result.find("buffer_ratio")->number),
                counted(static_cast<std::int64_t>(result.find("tiles")->number), "block", "blocks"),
                causal ? " (causal: blocks wholly in the future are skipped)" : "")
          : fmt::format("With a tile as large as the sequence ({} ≥ {}), one block holds all {} "
                        "scores, as the full softmax does: the memory saving needs a smaller "
                        "tile{}.",
                        tile, tokens, counted(tokens * tokens, "score", "scores"),
                        tokens > 1
                            ? fmt::format(" (--set tile={})", std::max<std::int64_t>(1, tokens / 8))
                            : std::string(" and a longer sequence"))};
  return result;
}

// ============================================================================================
// attention-flops
// ============================================================================================

DemoResult run_attention_flops(const Params& params, std::uint64_t) {
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

  // A multiply-add is 2 FLOPs. Each head's QKᵀ is (T, D)·(D, T): summed over the heads it is 2·T²·E
  // whatever their number. AV, (T, T)·(T, D) a head, costs the same.
  const auto score_flops = [&](std::int64_t heads) {
    const double head_dim = as_double(d_model / heads);
    double flops = 0.0;
    for (std::int64_t h = 0; h < heads; ++h)
      flops += 2.0 * t * t * head_dim;
    return flops;
  };
  const double projections = 4.0 * 2.0 * t * e * e;  // W_q, W_k, W_v, W_o: (T, E)·(E, E) each
  const double ffn = 2.0 * 2.0 * t * e * f;          // two (T, E)·(E, F)-sized products
  const double scores = score_flops(head_counts.front());
  const double weighted = scores;
  bool heads_change = false;
  DemoResult result;
  for (const std::int64_t heads : head_counts) {
    const double flops = score_flops(heads);
    heads_change = heads_change || flops != scores;
    result.set(fmt::format("flops_scores_h{}", heads), flops);
  }
  const double attention = projections + scores + weighted;
  result.set("flops_projections", projections);
  result.set("flops_scores", scores);
  result.set("flops_av", weighted);
  result.set("flops_ffn", ffn);
  result.set("flops_attention", attention);
  result.set("flops_layer", attention + ffn);
  result.set("heads_change_flops", heads_change);
  result.set("crossover_tokens", 2.0 * e);
  result.set("quadratic_share", (scores + weighted) / attention);

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
  Series growth{"flops_by_length",
                "attention FLOPs as the sequence grows",
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
  result.series.push_back(std::move(growth));

  const bool past = t > 2.0 * e;
  result.text = {
      fmt::format("At T = {} and d_model {}, the projections cost 8·T·E² = {} FLOPs, QKᵀ "
                  "and AV 2·T²·E = {} each, and the feed-forward 4·T·E·F = {}.",
                  grouped(t), grouped(e), text::format_short(projections),
                  text::format_short(scores), text::format_short(ffn)),
      head_counts.size() > 1
          ? fmt::format("The head count does not change them: {} of {} dims and {} of {} both "
                        "do 2·T²·E for QKᵀ, since each head's share shrinks as their number "
                        "grows.",
                        counted(head_counts.front(), "head", "heads"),
                        grouped(as_double(d_model / head_counts.front())), head_counts.back(),
                        grouped(as_double(d_model / head_counts.back())))
          : fmt::format("With {} of {} dims, QKᵀ costs 2·T²·E whatever the head count: each "
                        "head's share shrinks as their number grows (--set heads=1,8 compares).",
                        counted(head_counts.front(), "head", "heads"),
                        grouped(as_double(d_model / head_counts.front()))),
      fmt::format("The T² terms overtake the projections at T = 2·E = {} tokens; here they are "
                  "{} of attention's FLOPs, {} the crossover.",
                  grouped(2.0 * e),
                  text::format_readable(100.0 * (scores + weighted) / attention, 3) + "%",
                  past ? "past" : (t == 2.0 * e ? "at" : "short of"))};
  return result;
}

}  // namespace

DemoInfo gqa_params_demo() {
  return DemoInfo{
      "gqa-params",
      "Sharing keys and values: multi-head, grouped-query and multi-query attention",
      "Grouped-query attention shares each key/value head among several query heads: k_proj, "
      "v_proj and the KV cache shrink by H/G, which splitting into heads never did.",
      "Beyond the lesson: Shazeer 2019 (MQA), Ainslie et al. 2023 (GQA)",
      {integer_param("d_model", 512, 8, 8192, "embedding width E"),
       integer_param("heads", 8, 1, 128, "query heads H (must divide d_model)"),
       list_param("kv_heads", {8, 2, 1}, 1, 128, "key/value head counts G (each divides heads)"),
       integer_param("layers", 32, 1, 256, "layers, for the KV cache"),
       integer_param("tokens", 4096, 1, 1000000, "tokens in the KV cache"),
       integer_param("bytes", 2, 1, 8, "bytes per cached value (2: fp16/bf16)")},
      run_gqa_params};
}

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
      run_kv_cache};
}

DemoInfo rmsnorm_vs_layernorm_demo() {
  return DemoInfo{"rmsnorm-vs-layernorm",
                  "RMSNorm rescales without centring",
                  "RMSNorm divides by the root mean square and does not subtract the mean: its "
                  "output equals LayerNorm's only when the input's mean is 0.",
                  "Beyond the lesson: Zhang & Sennrich 2019 (RMSNorm)",
                  {integer_param("features", 16, 2, 1024, "features per token"),
                   integer_param("tokens", 8, 1, 1024, "tokens"),
                   number_param("shift", 3.0, -100.0, 100.0, "added to every input entry")},
                  run_rmsnorm_vs_layernorm};
}

DemoInfo swiglu_params_demo() {
  return DemoInfo{"swiglu-params",
                  "SwiGLU: three matrices, the same count",
                  "SwiGLU's feed-forward has three matrices; Llama's width F ≈ 8/3·E keeps the "
                  "parameter count of the original 4E two-matrix FFN.",
                  "Beyond the lesson: Shazeer 2020 (GLU variants), Touvron et al. 2023 (Llama)",
                  {integer_param("d_model", 512, 8, 1024, "embedding width E"),
                   integer_param("intermediate", 0, 0, 16384,
                                 "hidden width F (0: Llama's ⌊8E/3⌋ rounded up to multiple_of)"),
                   integer_param("multiple_of", 1, 1, 1024, "round F up to a multiple of this")},
                  run_swiglu_params};
}

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
      run_alibi_distance};
}

DemoInfo rope_scaling_demo() {
  return DemoInfo{
      "rope-scaling",
      "RoPE position interpolation",
      "Dividing positions by s keeps the rotation angles of an s-times longer context inside the "
      "trained range, and scores still depend only on the (scaled) offset.",
      "Beyond the lesson: Chen et al. 2023 (position interpolation)",
      {integer_param("trained", 2048, 2, 1000000, "context length L trained on"),
       number_param("factor", 2.0, 1.0, 64.0, "scaling factor s"),
       integer_param("head_dim", 128, 2, 1024, "dimensions per head (even)"),
       number_param("base", 10000.0, 2.0, 1e9, "RoPE base (rope_theta)")},
      run_rope_scaling};
}

DemoInfo tiled_attention_demo() {
  return DemoInfo{"tiled-attention",
                  "Tiled attention is exact",
                  "Computing attention in tiles with an online softmax gives the same output as "
                  "the full T×T softmax while the score buffer shrinks to one tile.",
                  "Beyond the lesson: Dao et al. 2022 (FlashAttention)",
                  {integer_param("tokens", 256, 1, 4096, "queries and keys"),
                   integer_param("d_k", 64, 1, 512, "dimensions per head"),
                   integer_param("tile", 32, 1, 4096, "tile size (queries and keys)"),
                   flag_param("causal", false, "causal mask")},
                  run_tiled_attention};
}

DemoInfo attention_flops_demo() {
  return DemoInfo{
      "attention-flops",
      "Where attention's FLOPs go",
      "A layer's projections cost 8·T·E² FLOPs and QKᵀ plus AV 4·T²·E, whatever the head count: "
      "the T² term overtakes the projections at T = 2E.",
      "Beyond the lesson: the cost of attention",
      {integer_param("tokens", 2048, 1, 10000000, "sequence length T"),
       integer_param("d_model", 4096, 1, 1000000, "embedding width E"),
       list_param("heads", {1, 8}, 1, 1000000, "head counts to compare (each divides d_model)"),
       integer_param("d_ff", 0, 0, 10000000, "feed-forward width (0: 4·d_model)")},
      run_attention_flops};
}

}  // namespace proofdeck::demo
