// gqa-params: sharing each key/value head among a group of query heads (multi-head, grouped-
// query, multi-query) shrinks k_proj, v_proj and the KV cache; splitting into heads does not.
#include "demo/demos.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/decoder.hpp"
#include "engine/param_count.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

// The key/value head count's name: multi-head (MHA) at G = H, multi-query (MQA) at G = 1,
// grouped-query (GQA) between.
std::string attention_kind(std::int64_t kv_heads, std::int64_t heads) {
  if (kv_heads == heads) return "MHA";
  return kv_heads == 1 ? "MQA" : "GQA";
}

// What a run reads: the widths, the key/value head counts (multi-head first, multi-query last)
// and the KV cache's size.
struct GqaSettings {
  std::int64_t d_model = 0;           // embedding width E
  std::int64_t heads = 0;             // query heads H
  std::int64_t layers = 0;            // layers, for the KV cache
  std::int64_t tokens = 0;            // tokens in the KV cache
  std::int64_t bytes = 0;             // bytes per cached value
  std::vector<std::int64_t> kv_list;  // key/value head counts G, multi-head first
  std::int64_t head_dim = 0;          // D = E / H
};

GqaSettings gqa_settings(const Params& params) {
  const std::string demo = "gqa-params";
  GqaSettings s;
  s.d_model = params.integer("d_model");
  s.heads = params.integer("heads");
  s.layers = params.integer("layers");
  s.tokens = params.integer("tokens");
  s.bytes = params.integer("bytes");
  require_divides(demo, s.d_model, s.heads, "heads");
  s.kv_list = distinct_sorted(demo, "kv_heads", params.integers("kv_heads"));
  for (const std::int64_t kv : s.kv_list)
    require_kv_divides(demo, s.heads, kv);
  std::reverse(s.kv_list.begin(), s.kv_list.end());  // multi-head first, multi-query last
  s.head_dim = s.d_model / s.heads;
  return s;
}

// One layer's attention weights at G key/value heads.
struct AttentionWeights {
  double q_proj = 0.0, kv_proj = 0.0, o_proj = 0.0, total = 0.0;
};

// The closed form, or (while modules are counted) the module's own count, checked against it.
AttentionWeights attention_weights(const GqaSettings& s, std::int64_t kv, bool count_modules,
                                   bool& closed_form_matches) {
  const double e = as_double(s.d_model), d = as_double(s.head_dim), h = as_double(s.heads);
  const double g = as_double(kv);
  double q_proj = h * d * e, kv_proj = 2.0 * g * d * e, o_proj = e * h * d;
  double total = q_proj + kv_proj + o_proj;
  if (count_modules) {
    // RoPE holds no parameters; an odd head_dim is fine to count.
    const engine::GqaParams<double> module(
        engine::GqaConfig::of(s.d_model, s.heads, kv).with_head_dim(s.head_dim).without_rope());
    const auto counted = static_cast<double>(engine::count_params(module).total());
    const auto size_of = [](const Mat& weight) { return static_cast<double>(weight.size()); };
    closed_form_matches = closed_form_matches && counted == total &&
                          size_of(module.q_proj) == q_proj &&
                          size_of(module.k_proj) + size_of(module.v_proj) == kv_proj &&
                          size_of(module.o_proj) == o_proj;
    q_proj = size_of(module.q_proj);
    kv_proj = size_of(module.k_proj) + size_of(module.v_proj);
    o_proj = size_of(module.o_proj);
    total = counted;
  }
  return {q_proj, kv_proj, o_proj, total};
}

// How many query heads read key/value head 0. Which K/V head each query head reads depends on H
// and G alone, so it is read from a forward pass through the narrowest module with these heads
// (one dimension per head).
double queries_per_kv_head(std::int64_t heads, std::int64_t kv) {
  const engine::GqaParams<double> probe(
      engine::GqaConfig::of(heads, heads, kv).with_head_dim(1).without_rope());
  Mat probe_out;
  engine::GqaCache<double> probe_cache;
  engine::gqa_forward(probe_out, probe_cache, Mat(Mat::Zero(1, heads)), probe);
  return static_cast<double>(
      std::count(probe_cache.kv_head.begin(), probe_cache.kv_head.end(), Index{0}));
}

// Entries a live KV cache holds per token at G key/value heads: a narrow layer with the run's
// head counts (two dimensions per head, zero weights: only the shapes matter) decodes three
// tokens, and every tensor the cache holds is counted, queries included if it keeps them.
double live_cache_entries_per_token(std::int64_t heads, std::int64_t kv) {
  constexpr std::int64_t kDim = 2;
  constexpr Index kDecoded = 3;
  const engine::GqaParams<double> layer(
      engine::GqaConfig::of(heads * kDim, heads, kv).with_head_dim(kDim).without_rope());
  engine::KvCache<double> cache;
  const Mat tokens = Mat::Ones(kDecoded, heads * kDim);
  for (Index t = 0; t < kDecoded; ++t) {
    Mat out;
    engine::gqa_decode_step(out, cache, Mat(tokens.row(t)), t, layer);
  }
  double entries = 0.0;
  engine::visit_tensors(
      cache, [&](const std::string&, const Mat& tensor) { entries += as_double(tensor.size()); });
  return cache.length() == 0 ? 0.0 : entries / as_double(cache.length());
}

// Multi-head attention's sizes, which every key/value head count is measured against.
struct MultiHeadSizes {
  double params = 0.0;    // one layer's attention weights, 4·E²
  double cache = 0.0;     // the KV cache, in bytes
  double one_head = 0.0;  // one head of the full width
};

// Each key/value head count's weights and KV cache as values and a table row, then what holds
// for all of them.
MultiHeadSizes report_kv_heads(DemoResult& result, const GqaSettings& s) {
  const double e = as_double(s.d_model), d = as_double(s.head_dim), h = as_double(s.heads);
  // Counted from engine objects while they fit comfortably in memory (4·E² doubles at most).
  const bool count_modules = s.d_model <= 1024;
  bool closed_form_matches = true;
  // A layer's total is counted from its module or, past the size counted, the closed form.
  const Provenance totals = count_modules ? Provenance::counted : Provenance::derived;
  MultiHeadSizes mha;
  mha.params = 4.0 * e * e;
  mha.cache = 2.0 * as_double(s.layers) * h * d * as_double(s.tokens) * as_double(s.bytes);
  // D = E / H: the split's arithmetic, as the config gives it to every module.
  result.set("head_dim", "Head dimension, " + text::count(s.heads, "query head", "query heads"), d,
             Provenance::derived);
  Mat table(static_cast<Index>(s.kv_list.size()), 6);
  std::vector<std::string> rows;
  // The cache's share of multi-head's is read from live caches: it depends on H and G alone.
  const double mha_entries = live_cache_entries_per_token(s.heads, s.heads);
  for (std::size_t i = 0; i < s.kv_list.size(); ++i) {
    const std::int64_t kv = s.kv_list[i];
    const double g = as_double(kv);
    const auto [q_proj, kv_proj, o_proj, total] =
        attention_weights(s, kv, count_modules, closed_form_matches);
    const double readers_of_first = queries_per_kv_head(s.heads, kv);
    const double cache_bytes =
        2.0 * as_double(s.layers) * g * d * as_double(s.tokens) * as_double(s.bytes);
    const std::string suffix = fmt::format("_g{}", kv);
    const std::string with_kv = ", " + text::count(kv, "key/value head", "key/value heads");
    result.set("q_proj" + suffix, "Query projection weights" + with_kv, q_proj, totals);
    result.set("kv_proj" + suffix, "Key and value projection weights" + with_kv, kv_proj, totals);
    result.set("o_proj" + suffix, "Output projection weights" + with_kv, o_proj, totals);
    result.set("attention_params" + suffix, "Attention parameters of one layer" + with_kv, total,
               totals);
    result.set("params_ratio" + suffix, "Attention parameters over multi-head's" + with_kv,
               total / mha.params, totals);
    result.set("params_saved" + suffix, "Attention parameters saved against multi-head" + with_kv,
               mha.params - total, totals);
    result.set("queries_per_kv_head" + suffix,
               "Query heads reading the first key/value head" + with_kv, readers_of_first,
               Provenance::counted);
    result.set("kv_cache_bytes_per_token" + suffix,
               "KV cache bytes per token, all layers" + with_kv,
               2.0 * as_double(s.layers) * g * d * as_double(s.bytes), Provenance::derived);
    result.set("kv_cache_bytes" + suffix,
               fmt::format("KV cache bytes for {}, all layers{}",
                           text::count(s.tokens, "token", "tokens"), with_kv),
               cache_bytes, Provenance::derived);
    const double live_entries = live_cache_entries_per_token(s.heads, kv);
    result.set("kv_cache_ratio" + suffix, "KV cache over multi-head's" + with_kv,
               mha_entries == 0.0 ? 0.0 : live_entries / mha_entries, Provenance::counted);
    const auto row = static_cast<Index>(i);
    table.row(row) << readers_of_first, q_proj + o_proj, kv_proj, total, total / mha.params,
        cache_bytes;
    rows.push_back(fmt::format("G = {} ({})", kv, attention_kind(kv, s.heads)));
  }
  // Splitting the heads is the other knob: one head of the full width holds the same 4·E².
  mha.one_head = 4.0 * e * e;
  result.set("mha_params", "Attention parameters of one layer, multi-head", mha.params,
             Provenance::derived);
  result.set("one_head_params", "Attention parameters of one full-width head", mha.one_head,
             Provenance::derived);
  result.set("split_saves_params", "Splitting into heads saves parameters",
             mha.params < mha.one_head, Provenance::derived);
  result.set("counted_from_modules", "Counts taken from real modules", count_modules,
             Provenance::derived);
  result.set("closed_form_matches", "Closed form agrees with the counted modules",
             closed_form_matches, totals);
  result.tables.push_back(Table{
      "by_kv_heads",
      fmt::format("one layer at d_model {}, {} query heads of {}", s.d_model, s.heads, s.head_dim),
      rows,
      {"queries per K/V head", "q_proj + o_proj", "k_proj + v_proj", "parameters", "÷ multi-head",
       "KV cache (bytes)"},
      table,
      false});
  return mha;
}

// The KV cache and the weights against G, fewest key/value heads first (the table reads from
// multi-head down).
void add_kv_charts(DemoResult& result, const GqaSettings& s) {
  Series cache{"kv_cache_by_kv_heads",
               fmt::format("KV cache for {} × {}", text::count(s.tokens, "token", "tokens"),
                           text::count(s.layers, "layer", "layers")),
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
  for (auto kv = s.kv_list.rbegin(); kv != s.kv_list.rend(); ++kv) {
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
}

// Which K/V head a query head reads, what sharing saves, and why splitting heads saves nothing.
std::vector<std::string> gqa_text(const DemoResult& result, const GqaSettings& s,
                                  const MultiHeadSizes& mha) {
  const double e = as_double(s.d_model), d = as_double(s.head_dim), h = as_double(s.heads);
  const std::int64_t heads = s.heads, head_dim = s.head_dim, d_model = s.d_model;
  const std::int64_t fewest = s.kv_list.back();
  const double fewest_total = result.find(fmt::format("attention_params_g{}", fewest))->number;
  const double fewest_cache = result.find(fmt::format("kv_cache_bytes_g{}", fewest))->number;
  return {
      fmt::format("Query head h of {} ({} dimensions each) reads key/value head ⌊h·G/H⌋ of G. Only "
                  "k_proj and v_proj shrink with G (2·G·{}·{} weights); q_proj and o_proj keep "
                  "{} each.",
                  heads, head_dim, head_dim, d_model, grouped(h * d * e)),
      s.kv_list.size() > 1 || fewest != heads
          ? fmt::format("Sharing K/V saves what splitting heads never did: at G = {} a layer "
                        "holds {} weights against multi-head's {}, and its KV cache for {}, "
                        "{} and {} per value is {} instead of {} — "
                        "{} times smaller, as K and V are stored once per key/value head.",
                        fewest, grouped(fewest_total), grouped(mha.params),
                        text::count(s.tokens, "token", "tokens"),
                        text::count(s.layers, "layer", "layers"),
                        text::count(s.bytes, "byte", "bytes"), bytes_text(fewest_cache),
                        bytes_text(mha.cache), text::format_short(mha.cache / fewest_cache))
          : fmt::format("With G = H = {} this is multi-head attention: {} weights, and a KV "
                        "cache of {} for {}; --set kv_heads={},{},1 compares grouped and "
                        "multi-query attention.",
                        heads, grouped(mha.params), bytes_text(mha.cache),
                        text::count(s.tokens, "token", "tokens"), heads,
                        std::max<std::int64_t>(1, heads / 4)),
      fmt::format("Splitting d_model into heads is a different knob: {}; it changes the "
                  "subspaces, not the count. Sharing K/V trades some quality for memory, which is "
                  "why Ainslie et al. keep several groups (GQA) rather than one (MQA).",
                  heads == 1
                      ? fmt::format("one head of width {} holds 4·d_model² = {} weights, and "
                                    "so would any split into h heads of d_model/h",
                                    d_model, grouped(mha.one_head))
                      : fmt::format("one head of width {} holds the same {} = 4·d_model² "
                                    "weights as {} heads of {}",
                                    d_model, grouped(mha.one_head), heads, head_dim))};
}

DemoResult run_gqa_params(const Params& params, std::uint64_t, RunCaches&) {
  const GqaSettings s = gqa_settings(params);
  DemoResult result;
  const MultiHeadSizes mha = report_kv_heads(result, s);
  add_kv_charts(result, s);
  result.text = gqa_text(result, s, mha);
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
      run_gqa_params,
      {engine::Op::attention, engine::Op::heads, engine::Op::kv_heads, engine::Op::kv_cache}};
}

}  // namespace proofdeck::demo
