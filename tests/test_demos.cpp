// The demo catalog: every contract value exists, the lesson's numbers come out, runs are
// bit-identical for a seed, bad parameters are refused, and the outputs match their goldens.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "demo/demo.hpp"
#include "demo_test_support.hpp"
#include "golden.hpp"
#include "number_readback.hpp"
#include "render/figure.hpp"
#include "render/parts.hpp"
#include "text/number.hpp"

namespace test_demos {

using namespace proofdeck;
using namespace proofdeck::demo;
using proofdeck::render::render_text;
using proofdeck::testing::error_of;
using proofdeck::testing::flag;
using proofdeck::testing::number;
using proofdeck::testing::run;

// The one pin of the catalog, its names in order; every other test reads catalog().
TEST_CASE(
    "the catalog holds the thirteen demos of the lesson, ten of the modern decoder, one of "
    "generation, three of the training objective and three of model optimization",
    "[demo]") {
  std::vector<std::string> names;
  for (const DemoInfo& info : catalog())
    names.push_back(info.name);
  CHECK(names == std::vector<std::string>{"order-blindness",
                                          "head-params",
                                          "head-width",
                                          "variance-drift",
                                          "residual-gradient",
                                          "pre-vs-post-ln",
                                          "rope-relative",
                                          "pe-extrapolation",
                                          "layernorm-vs-batchnorm",
                                          "what-layernorm-normalizes",
                                          "sqrt-dk-scaling",
                                          "causal-mask",
                                          "cross-attention",
                                          "padded-attention",
                                          "gqa-params",
                                          "kv-cache",
                                          "rmsnorm-vs-layernorm",
                                          "swiglu-params",
                                          "alibi-distance",
                                          "rope-scaling",
                                          "tiled-attention",
                                          "attention-flops",
                                          "decoding-strategies",
                                          "perplexity",
                                          "weight-tying",
                                          "last-token-classifier",
                                          "sliding-window",
                                          "moe-routing",
                                          "quant-granularity",
                                          "number-formats",
                                          "quant-error"});
  for (const DemoInfo& info : catalog()) {
    INFO(info.name);
    CHECK_FALSE(info.title.empty());
    CHECK_FALSE(info.claim.empty());
    CHECK_FALSE(info.section.empty());
  }
}

TEST_CASE("each demo is one file, named as the CLI names it, that defines its factory", "[demo]") {
  const std::filesystem::path folder =
      std::filesystem::path(PROOFDECK_FIXTURE_DIR) / ".." / ".." / "src" / "demo";
  for (const DemoInfo& info : catalog()) {
    std::string stem = info.name;
    std::replace(stem.begin(), stem.end(), '-', '_');
    INFO(info.name << ": " << (folder / (stem + ".cpp")).lexically_normal());
    std::ifstream file(folder / (stem + ".cpp"));
    REQUIRE(file.good());
    std::stringstream source;
    source << file.rdbuf();
    CHECK_THAT(source.str(), Catch::Matchers::Contains("DemoInfo " + stem + "_demo() {"));
  }
  // And every other source file there is a demo in the catalog.
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    const std::filesystem::path& path = entry.path();
    if (path.extension() != ".cpp" || path.stem() == "demo" || path.stem() == "catalog") continue;
    std::string name = path.stem().string();
    std::replace(name.begin(), name.end(), '_', '-');
    INFO(path.filename().string());
    CHECK(find_demo(name) != nullptr);
  }
}

TEST_CASE("without positions cat bit dog and dog bit cat attend identically", "[demo]") {
  const DemoResult result = run("order-blindness");
  CHECK(number(result, "max_diff_none") <= 1e-12);
  CHECK(number(result, "output_moved_diff_none") <= 1e-12);
  CHECK(flag(result, "identical_without_position"));
  CHECK(number(result, "bit_on_cat_a_none") == Approx(number(result, "bit_on_cat_b_none")));
  CHECK(number(result, "bit_on_dog_a_none") == Approx(number(result, "bit_on_dog_b_none")));
  for (const char* mode : {"sinusoidal", "learned", "rope"}) {
    INFO(mode);
    CHECK(number(result, std::string("max_diff_") + mode) > 1e-3);
    CHECK(number(result, std::string("output_moved_diff_") + mode) > 1e-3);
  }
  CHECK(result.tables.size() == 8);
  CHECK(result.tables[0].row_labels == std::vector<std::string>{"cat", "bit", "dog"});
  CHECK(result.tables[1].row_labels == std::vector<std::string>{"dog", "bit", "cat"});
}

TEST_CASE("order-blindness takes other sentence pairs, repeated words included", "[demo]") {
  const DemoResult result =
      run("order-blindness", {"a=the dog bit the man", "b=the man bit the dog", "focus=bit"});
  CHECK(number(result, "max_diff_none") <= 1e-12);
  CHECK(number(result, "max_diff_sinusoidal") > 1e-3);
}

TEST_CASE("order-blindness repeats one layer whatever the run's seed when weights_seed pins it",
          "[demo]") {
  const DemoResult pinned = run("order-blindness", {"weights_seed=0"}, 2);
  CHECK(number(pinned, "bit_on_dog_b_none") == number(run("order-blindness"), "bit_on_dog_b_none"));
  CHECK(number(run("order-blindness", {}, 2), "bit_on_dog_b_none") !=
        number(pinned, "bit_on_dog_b_none"));
}

TEST_CASE("order-blindness refuses sentences that are not reorderings of each other", "[demo]") {
  CHECK(error_of("order-blindness", {"a=cat bit dog", "b=dog bit man"}) ==
        "demo order-blindness: a=\"cat bit dog\" and b=\"dog bit man\" must use the same words in "
        "a different order (b a reordering of a)");
  CHECK(error_of("order-blindness", {"max_len=2"}) ==
        "demo order-blindness: the sentences have 3 words but the learned position table has "
        "max_len=2 rows; raise max_len to at least 3");
}

TEST_CASE("head-params counts 1,048,576 for one head and for eight", "[demo]") {
  const DemoResult result = run("head-params");
  CHECK(number(result, "total_h1") == 1'048'576);
  CHECK(number(result, "total_h8") == 1'048'576);
  CHECK(number(result, "total_with_bias_h8") == 1'050'624);
  CHECK(number(result, "qkv_total_h8") == 786'432);
  CHECK(number(result, "per_head_qkv_h8") == 98'304);
  CHECK(number(result, "per_head_projection_h8") == 512 * 64);
  CHECK(number(result, "out_proj") == 262'144);
  CHECK(number(result, "head_dim_h8") == 64);
  CHECK(number(result, "ratio_h8_h1") == 1.0);
  CHECK(flag(result, "closed_form_matches"));
  CHECK(flag(result, "counted_from_modules"));
}

TEST_CASE("head-params reaches d_model 8192 through the closed form the module counts prove",
          "[demo]") {
  const DemoResult result = run("head-params", {"d_model=8192", "heads=1,64"});
  CHECK_FALSE(flag(result, "counted_from_modules"));
  CHECK(number(result, "total_h1") == 4.0 * 8192 * 8192);
  CHECK(number(result, "total_h64") == 4.0 * 8192 * 8192);
  CHECK(number(result, "per_head_qkv_h64") == 3.0 * 8192 * 128);
  CHECK(number(result, "total_with_bias_h64") == 4.0 * 8192 * 8192 + 4.0 * 8192);
  CHECK(number(result, "head_dim_h64") == 128);
}

TEST_CASE("head-params refuses a head count that does not divide d_model", "[demo]") {
  CHECK(error_of("head-params", {"d_model=12", "heads=1,5"}) ==
        "demo head-params: heads=5: d_model 12 is not divisible by 5; each head gets d_model / "
        "heads dimensions, so heads must be one of 1, 2, 3, 4, 6, 12");
}

TEST_CASE("head-width shrinks heads to 32 at 16 heads and 4 at 128, rank within head_dim",
          "[demo]") {
  const DemoResult result = run("head-width");
  CHECK(number(result, "head_dim_h1") == 512);
  CHECK(number(result, "head_dim_h16") == 32);
  CHECK(number(result, "head_dim_h128") == 4);
  CHECK(number(result, "rank_h128") == 4);
  CHECK(number(result, "rank_h16") == 32);
  CHECK(number(result, "rank_h1") == 64);  // limited by the 64 tokens
  for (const auto& [name, value] : result.values) {
    if (name.rfind("rank_h", 0) != 0) continue;
    const std::string heads = name.substr(6);
    CHECK(value.number <= number(result, "head_dim_h" + heads));
  }
}

TEST_CASE("head-width counts the score products it ran: seq x seq x d_model for every head count",
          "[demo]") {
  const DemoResult result = run("head-width", {"d_model=64", "heads=1,4,16", "seq=12"});
  for (const int heads : {1, 4, 16}) {
    INFO("heads = " << heads);
    const std::string h = "h" + std::to_string(heads);
    CHECK(number(result, "score_macs_" + h) == 12 * 12 * 64);
    CHECK(number(result, "score_macs_per_head_" + h) == 12 * 12 * (64 / heads));
  }
  CHECK(result.find("qkv_macs_h1") == nullptr);  // the projections run only when asked for

  const DemoResult projected =
      run("head-width", {"d_model=64", "heads=1,8", "seq=12", "projections=true"});
  CHECK(number(projected, "qkv_macs_h1") == 3 * 12 * 64 * 64);
  CHECK(number(projected, "qkv_macs_h8") == 3 * 12 * 64 * 64);
  CHECK(number(projected, "score_macs_h8") == 12 * 12 * 64);
  CHECK(number(projected, "rank_h8") == 8);
}

TEST_CASE("head-width's counts move with the module the engine builds", "[demo][faults]") {
  const std::vector<std::string> sets{"d_model=64", "heads=1,4", "seq=12", "projections=true"};
  const DemoResult wide = run("head-width", sets, 0, engine::Fault::heads_full_width);
  CHECK(number(wide, "score_macs_h4") == 4 * 12 * 12 * 64);
  CHECK(number(wide, "qkv_macs_h4") == 4 * 3 * 12 * 64 * 64);
  const DemoResult shared = run("head-width", sets, 0, engine::Fault::heads_share_projection);
  CHECK(number(shared, "qkv_macs_h4") == 3 * 12 * 64 * 16);
  const DemoResult one_head = run("head-width", sets, 0, engine::Fault::mac_count_one_head);
  CHECK(number(one_head, "score_macs_h4") == 12 * 12 * 16);
  CHECK(number(one_head, "score_macs_h1") == 12 * 12 * 64);
}

TEST_CASE("cross-attention answers one row per decoder position, each over every input position",
          "[demo]") {
  const DemoResult result = run("cross-attention");
  CHECK(number(result, "output_rows") == 3);
  CHECK(number(result, "keys_per_query") == 4);
  CHECK(number(result, "smallest_weight") > 0.01);
  CHECK(number(result, "weight_sum_error_max") < 1e-14);
  CHECK(flag(result, "output_moves_with_encoder"));
  CHECK(flag(result, "output_moves_with_decoder"));
  const DemoResult longer = run("cross-attention", {"decoder_tokens=7", "encoder_tokens=2"});
  CHECK(number(longer, "output_rows") == 7);
  CHECK(number(longer, "keys_per_query") == 2);
}

TEST_CASE("padded-attention: masked, the padding leaves the real tokens as they were", "[demo]") {
  const DemoResult result = run("padded-attention");
  CHECK(number(result, "pad_weight_masked") == 0);
  CHECK(number(result, "output_change_masked") <= 1e-12);
  CHECK(number(result, "pad_weight_unmasked") > 0.1);  // scores of 0 still take e⁰/Σ
  CHECK(number(result, "output_change_unmasked") > 1e-3);
  CHECK(number(result, "unmasked_vs_masked") > 1e-3);
}

TEST_CASE("key-padding-ignored: the padding reaches an encoder's real tokens", "[demo][faults]") {
  const DemoResult result = run("padded-attention", {}, 0, engine::Fault::key_padding_ignored);
  CHECK(number(result, "pad_weight_masked") > 0.1);
  CHECK(number(result, "unmasked_vs_masked") == 0);
}

TEST_CASE("cross-attention-self-keys: the decoder attends over itself, blind to the input",
          "[demo][faults]") {
  const DemoResult result = run("cross-attention", {}, 0, engine::Fault::cross_attention_self_keys);
  // The shapes are the arguments' (derived); what moves is what the output depends on.
  CHECK(number(result, "output_rows") == 3);
  CHECK(number(result, "keys_per_query") == 4);
  CHECK_FALSE(flag(result, "output_moves_with_encoder"));
  CHECK(flag(result, "output_moves_with_decoder"));
}

TEST_CASE("RoPE scores depend only on the offset, sinusoidal ones do not", "[demo]") {
  const DemoResult result = run("rope-relative");
  CHECK(number(result, "max_offset_diff_rope_interleaved") <= 1e-12);
  CHECK(number(result, "max_offset_diff_rope_half") <= 1e-12);
  CHECK(number(result, "max_offset_diff_sinusoidal") > 1e-3);
  CHECK(number(result, "max_offset_diff_rope_before_projection") > 1e-3);
  CHECK(flag(result, "rope_depends_only_on_offset"));
}

TEST_CASE("a learned table refuses position 600 as a value, sinusoids answer it", "[demo]") {
  const DemoResult result = run("pe-extrapolation");
  CHECK(flag(result, "learned_answers_511"));
  CHECK(flag(result, "learned_refuses_600"));
  CHECK(flag(result, "sinusoidal_defined_600"));
  CHECK(number(result, "learned_params") == 262'144);
  CHECK(number(result, "sinusoidal_params") == 0);
}

TEST_CASE("LayerNorm ignores the rest of the batch, BatchNorm does not", "[demo]") {
  const DemoResult result = run("layernorm-vs-batchnorm");
  CHECK(number(result, "layernorm_batch_diff") == 0.0);
  CHECK(number(result, "batchnorm_batch_diff") > 0.01);
  CHECK(flag(result, "batchnorm_batch1_refused"));
  CHECK(flag(result, "layernorm_batch1_works"));
  CHECK(number(result, "layernorm_token_mean_max") < 1e-12);
  CHECK(number(result, "layernorm_token_var_min") > 0.999);
  CHECK(number(result, "layernorm_token_var_max") < 1.0);
}

TEST_CASE("in a padded batch LayerNorm keeps a short sentence's outputs, BatchNorm does not",
          "[demo][padding]") {
  const DemoResult result = run("layernorm-vs-batchnorm");
  CHECK(number(result, "document_tokens") == 24);
  CHECK(number(result, "layernorm_padded_diff") == 0.0);
  // The padding does not average away, and masking it out leaves the document in the statistics.
  CHECK(number(result, "batchnorm_padding_effect") > 0.1);
  CHECK(number(result, "batchnorm_padded_diff") > 0.1);
  CHECK(number(result, "batchnorm_masked_padded_diff") > 0.1);
  const DemoResult counted =
      run("layernorm-vs-batchnorm", {}, 0, engine::Fault::padding_in_batch_statistics);
  CHECK(number(counted, "batchnorm_padding_effect") == 0.0);
}

TEST_CASE("LayerNorm normalises activations, not weights or gradients", "[demo]") {
  const DemoResult result = run("what-layernorm-normalizes");
  CHECK(number(result, "input_token_mean_max") > 1.0);
  CHECK(number(result, "activation_token_mean_max") < 1e-12);
  CHECK(number(result, "activation_token_var_min") > 0.999);
  CHECK(number(result, "activation_token_var_max") < 1.0);
  CHECK(flag(result, "weights_unchanged"));
  CHECK_FALSE(flag(result, "gradients_normalized"));
  CHECK(number(result, "grad_token_var_max") < 0.5);
  // A training step moves the weights by −lr·∇ exactly; their rows' lengths change with it.
  CHECK(flag(result, "weights_follow_sgd"));
  CHECK(number(result, "weight_row_length_change_max") > 0.01);
}

TEST_CASE("weights that something rescales around a step are no longer plain SGD's", "[demo]") {
  const DemoResult result =
      run("what-layernorm-normalizes", {}, 0, engine::Fault::optimizer_rescales_weights);
  CHECK(flag(result, "weights_unchanged"));  // the pass itself still writes no weight
  CHECK_FALSE(flag(result, "weights_follow_sgd"));
  CHECK(number(result, "weight_row_length_change_max") < 1e-12);
}

TEST_CASE("a causal mask gives the future zero weight and keeps earlier outputs", "[demo]") {
  const DemoResult result = run("causal-mask");
  CHECK(number(result, "future_weight_max") == 0.0);
  CHECK(number(result, "earlier_output_change_causal") == 0.0);
  CHECK(number(result, "earlier_output_change_bidirectional") > 1e-3);
  // The last of 6 tokens changes: the 5 before it keep their outputs under the mask, none without.
  CHECK(number(result, "unchanged_positions_causal") == 5);
  CHECK(number(result, "unchanged_positions_bidirectional") == 0);
  CHECK(number(run("causal-mask", {"changed=2"}), "unchanged_positions_causal") == 2);
  CHECK(error_of("causal-mask", {"changed=6"}) ==
        "demo causal-mask: changed=6: positions run from 0 to 5 (seq=6); -1 means the last");
}

TEST_CASE("every demo is bit-identical for a seed and changes with it", "[demo]") {
  for (const DemoInfo& info : catalog()) {
    INFO(info.name);
    const DemoResult first = run(info.name, {}, 7);
    const DemoResult second = run(info.name, {}, 7);
    CHECK(to_json(first).dump() == to_json(second).dump());
    CHECK(first.params.at("seed") == 7);
  }
  CHECK(to_json(run("order-blindness", {}, 1)).dump() !=
        to_json(run("order-blindness", {}, 2)).dump());
}

TEST_CASE("every demo's JSON has the contract's shape", "[demo]") {
  for (const DemoInfo& info : catalog()) {
    INFO(info.name);
    const auto json = to_json(run(info.name));
    CHECK(json.at("demo") == info.name);
    std::vector<std::string> keys;
    for (const auto& [key, unused] : json.items())
      keys.push_back(key);
    CHECK(keys == std::vector<std::string>{"demo", "params", "values", "provenance", "tables",
                                           "series", "text"});
    CHECK(json.at("values").size() >= 3);
    CHECK(json.at("text").size() >= 1);
  }
}

// --- provenance ---------------------------------------------------------------------------------
// Every value says where it comes from, so a reader of a proof can tell a live computation from a
// formula restating the key.

TEST_CASE("the four provenances read back from their names, and nothing else does", "[demo]") {
  for (const Provenance kind :
       {Provenance::measured, Provenance::counted, Provenance::derived, Provenance::param}) {
    INFO(provenance_name(kind));
    CHECK(parse_provenance(provenance_name(kind)) == kind);
  }
  CHECK(provenance_name(Provenance::measured) == "measured");
  CHECK(provenance_name(Provenance::param) == "param");
  CHECK_FALSE(parse_provenance("Measured").has_value());
  CHECK_FALSE(parse_provenance("").has_value());
  CHECK_FALSE(parse_provenance("computed").has_value());
}

TEST_CASE("every demo's JSON names a provenance for exactly its values, in their order", "[demo]") {
  for (const DemoInfo& info : catalog()) {
    INFO(info.name);
    const DemoResult result = run(info.name);
    const auto json = to_json(result);
    const auto& values = json.at("values");
    const auto& provenance = json.at("provenance");
    std::vector<std::string> value_names, provenance_names;
    for (const auto& [name, unused] : values.items())
      value_names.push_back(name);
    for (const auto& [name, kind] : provenance.items()) {
      provenance_names.push_back(name);
      INFO(name);
      REQUIRE(kind.is_string());
      CHECK(parse_provenance(kind.get<std::string>()).has_value());
    }
    CHECK(provenance_names == value_names);
    REQUIRE(result.values.size() == value_names.size());  // no value name given twice
    for (const auto& [name, value] : result.values) {
      INFO(name);
      CHECK(provenance.at(name) == std::string(provenance_name(value.provenance)));
      CHECK_FALSE(values.at(name).is_object());  // the kind is beside the value, never in it
    }
  }
}

// The values a reviewer would question, pinned: a count of a module's tensors is counted, a
// closed form is derived however right it is, and which a run used is what it reports.
TEST_CASE("demo values are labelled by what computes them", "[demo]") {
  struct Case {
    std::string demo;
    std::vector<std::string> sets;
    std::string value;
    Provenance kind;
  };
  const std::vector<Case> cases = {
      // kv-cache: the cache's tensors and rows are counted; its size in bytes is the formula.
      {"kv-cache", {}, "cached_tensors", Provenance::counted},
      {"kv-cache", {}, "cached_queries", Provenance::counted},  // K/V narrower than the queries
      {"kv-cache", {"kv_heads=4"}, "cached_queries", Provenance::measured},  // same shape: compared
      {"kv-cache", {}, "cache_rows", Provenance::counted},
      {"kv-cache", {}, "kv_cache_bytes", Provenance::derived},
      {"kv-cache", {}, "formula_matches_live_cache", Provenance::counted},
      {"kv-cache", {}, "max_diff_decode_vs_full", Provenance::measured},
      {"kv-cache", {}, "live_tokens", Provenance::param},
      {"kv-cache", {"tokens=100"}, "live_tokens", Provenance::derived},  // capped at 64
      // swiglu-params: matrices and weights counted from the modules; the 4E count is arithmetic.
      {"swiglu-params", {}, "swiglu_matrices", Provenance::counted},
      {"swiglu-params", {}, "ffn_matrices", Provenance::counted},
      {"swiglu-params", {}, "swiglu_params", Provenance::counted},
      {"swiglu-params", {}, "swiglu_params_at_4e", Provenance::counted},
      {"swiglu-params", {}, "intermediate_size", Provenance::derived},
      {"swiglu-params", {"intermediate=1024"}, "intermediate_size", Provenance::param},
      // gqa-params: the per-projection sizes are closed forms; the layer's total is counted.
      {"gqa-params", {}, "queries_per_kv_head_g2", Provenance::counted},
      {"gqa-params", {}, "q_proj_g2", Provenance::counted},
      {"gqa-params", {}, "attention_params_g2", Provenance::counted},
      {"gqa-params", {"d_model=2048"}, "attention_params_g2", Provenance::derived},
      {"gqa-params", {}, "split_saves_params", Provenance::derived},
      // attention-flops counts a real forward where it can run one; past that, the closed forms.
      {"attention-flops", {}, "crossover_tokens", Provenance::counted},
      {"attention-flops", {}, "flops_av", Provenance::counted},
      {"attention-flops", {"d_model=4096"}, "crossover_tokens", Provenance::derived},
      {"attention-flops", {"d_model=4096"}, "flops_av", Provenance::derived},
      {"attention-flops", {"d_model=32"}, "crossover_tokens", Provenance::counted},
      {"attention-flops", {"d_model=32", "tokens=2048"}, "flops_av", Provenance::derived},
      {"attention-flops", {"d_model=32", "tokens=64"}, "flops_av", Provenance::counted},
      {"attention-flops", {"d_model=32", "tokens=64"}, "closed_form_matches", Provenance::counted},
      // rope-scaling: the positions are arithmetic; the scores are RoPE's.
      {"rope-scaling", {}, "scaled_position", Provenance::measured},
      {"rope-scaling", {}, "offset_spread_scaled", Provenance::measured},
      // sqrt-dk-scaling: uniform attention is 1/T; the weights are softmax outputs.
      {"sqrt-dk-scaling", {}, "uniform_weight", Provenance::derived},
      {"sqrt-dk-scaling", {}, "max_weight_unscaled_dk512", Provenance::measured},
      // head-params counts real modules up to d_model 1024 and uses the closed form above.
      {"head-params", {}, "total_h8", Provenance::counted},
      {"head-params", {"d_model=2048"}, "total_h8", Provenance::derived},
      {"head-params", {}, "closed_form_matches", Provenance::counted},
      {"head-params", {"d_model=2048"}, "closed_form_matches", Provenance::derived},
      {"head-params", {}, "out_proj", Provenance::derived},
      {"order-blindness", {}, "max_diff_none", Provenance::measured},
      {"alibi-distance", {}, "slope_h0", Provenance::measured},
      {"alibi-distance", {}, "position_params", Provenance::counted},
      // decoding-strategies: every value comes out of the engine's warpers or its beam search.
      {"decoding-strategies", {}, "top_p_kept", Provenance::measured},
      {"decoding-strategies", {}, "beam_prob", Provenance::measured},
      {"tiled-attention", {}, "tiled_score_buffer", Provenance::counted},
      {"tiled-attention", {}, "full_score_buffer", Provenance::derived},
      {"variance-drift", {}, "variance_ideal_20", Provenance::derived},
      {"variance-drift", {}, "variance_no_norm_20", Provenance::measured},
      // Shapes the arguments fix are their arithmetic, not counts: a question keyed on them is
      // `computed` (questions/REVIEW.md).
      {"pe-extrapolation", {}, "learned_params", Provenance::derived},
      {"pe-extrapolation", {}, "sinusoidal_params", Provenance::counted},
      {"head-params", {}, "head_dim_h8", Provenance::derived},
      {"head-width", {}, "head_dim_h8", Provenance::derived},
      {"gqa-params", {}, "head_dim", Provenance::derived},
      {"cross-attention", {}, "output_rows", Provenance::derived},
      {"cross-attention", {}, "keys_per_query", Provenance::derived},
      {"variance-drift", {}, "log10_variance_ideal_last", Provenance::derived},
      {"order-blindness", {"weights_seed=0"}, "bit_on_dog_b_none", Provenance::measured},
      // causal-mask: the default changed=-1 is read as the last position; token 0 has no
      // earlier output, so its change is a 0 the demo sets.
      {"causal-mask", {}, "changed_position", Provenance::derived},
      {"causal-mask", {"changed=2"}, "changed_position", Provenance::param},
      {"causal-mask", {}, "earlier_output_change_causal", Provenance::measured},
      {"causal-mask", {"changed=0"}, "earlier_output_change_causal", Provenance::derived},
      {"residual-gradient", {"layers=1"}, "no_residual_shrink_per_layer", Provenance::derived},
  };
  std::map<std::string, DemoResult> runs;
  for (const Case& c : cases) {
    const std::string key = fmt::format("{} {}", c.demo, fmt::join(c.sets, " "));
    INFO(key << ": " << c.value);
    if (runs.count(key) == 0) runs.emplace(key, run(c.demo, c.sets));
    const Value* value = runs.at(key).find(c.value);
    REQUIRE(value != nullptr);
    CHECK(provenance_name(value->provenance) == provenance_name(c.kind));
  }
}

TEST_CASE("demo parameters are validated with the allowed range named", "[demo]") {
  CHECK(error_of("head-params", {"d_model=0"}) ==
        "demo head-params: d_model=0: expected an integer from 1 to 16384");
  CHECK(error_of("head-params", {"heads=1,x"}) ==
        "demo head-params: heads=1,x: expected 1 to 16 integers from 1 to 16384, separated by "
        "commas");
  CHECK(error_of("head-params", {"head=8"}) ==
        "demo head-params has no parameter 'head'; its parameters: d_model, heads");
  CHECK(error_of("head-params", {"heads"}) == "demo head-params: --set heads: expected KEY=VALUE");
  CHECK(error_of("order-blindness", {"a=cat\x1b[31m bit dog"}) ==
        "demo order-blindness: a=cat\x1b[31m bit dog: expected text of 1 to 16 words");
}

// --- goldens ------------------------------------------------------------------------------------
// Each demo's JSON and text at its defaults, byte for byte: one test per demo, so that one golden
// can be run or rewritten alone, e.g.
//   PROOFDECK_UPDATE_GOLDENS=1 build/proofdeck_tests "demo golden: gqa-params"

namespace {

class DemoGolden : public Catch::ITestInvoker {
 public:
  explicit DemoGolden(std::string name) : name_(std::move(name)) {}
  void invoke() const override {
    const DemoInfo* info = find_demo(name_);
    REQUIRE(info != nullptr);
    const DemoResult result = run(name_);
    proofdeck::testing::check_golden(name_ + ".json", to_json(result).dump(2) + "\n");
    proofdeck::testing::check_golden(name_ + ".txt", render_text(result, *info, Theme::plain()));
    // Every number it computes, as prose (format_readable) and figures (format_short) write it,
    // reads back as that number: never a non-integer shown as an integer beside its key.
    const auto reads_back = [&](const std::string& what, double value) {
      for (const std::string& shown : {text::format_readable(value), text::format_short(value)}) {
        INFO(name_ << ": " << what << " = " << fmt::format("{}", value) << " shown as " << shown);
        CHECK(proofdeck::testing::misreads(shown, value).empty());
      }
    };
    for (const auto& [value_name, value] : result.values) {
      if (value.kind == proofdeck::demo::Value::Kind::number) reads_back(value_name, value.number);
    }
    for (const auto& table : result.tables) {
      for (Eigen::Index i = 0; i < table.cells.size(); ++i)
        reads_back(table.name, table.cells.data()[i]);
    }
    for (const auto& series : result.series) {
      for (const double x : series.x)
        reads_back(series.name + " x", x);
      for (const auto& [line, ys] : series.lines) {
        for (const double y : ys)
          reads_back(series.name + " " + line, y);
      }
    }
  }

 private:
  std::string name_;
};

// Registered when the program starts, a test for every demo the catalog holds.
[[maybe_unused]] const bool demo_goldens_registered = [] {
  for (const DemoInfo& info : catalog()) {
    const std::string name = "demo golden: " + info.name;
    Catch::AutoReg(new DemoGolden(info.name), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                   Catch::NameAndTags(name, "[demo][golden]"));
  }
  return true;
}();

}  // namespace

// --- degenerate settings ------------------------------------------------------------------------
// A demo's prose is written for its defaults, which compare several widths, depths or draws. Run
// at the edges of its parameters — one list entry, every count at its minimum, a sentence paired
// with itself — it must still say only true, non-degenerate things.

namespace {

// What a demo run at its edges can be asked: each list at one entry, each integer at its minimum,
// both together, and settings that leave a comparison with nothing to compare.
std::vector<std::vector<std::string>> edge_settings(const DemoInfo& info) {
  std::vector<std::string> lists, minimums;
  std::vector<std::vector<std::string>> settings;
  for (const ParamSpec& spec : info.params) {
    if (spec.type == ParamSpec::Type::integer_list) {
      lists.push_back(
          fmt::format("{}={}", spec.name, spec.default_value.at(0).get<std::int64_t>()));
    }
    if (spec.type == ParamSpec::Type::integer) {
      const std::string minimum =
          fmt::format("{}={}", spec.name, static_cast<std::int64_t>(spec.min));
      minimums.push_back(minimum);
      settings.push_back({minimum});
    }
  }
  if (!lists.empty()) settings.push_back(lists);
  std::vector<std::string> all = lists;
  all.insert(all.end(), minimums.begin(), minimums.end());
  settings.push_back(all);
  const std::map<std::string, std::vector<std::vector<std::string>>> extra{
      {"order-blindness", {{"b=cat bit dog"}, {"a=cat", "b=cat", "focus=cat"}}},
      {"causal-mask", {{"changed=0"}, {"seq=1"}}},
      {"pe-extrapolation", {{"position=0"}, {"position=3"}}},
      {"rope-relative", {{"positions=5"}, {"positions=4,4"}, {"offset=0"}}},
      {"head-params", {{"heads=8"}, {"heads=1"}}},
      {"head-width", {{"heads=8"}}},
      {"pre-vs-post-ln", {{"depths=6", "trials=1"}}},
      {"sqrt-dk-scaling", {{"d_k=64", "trials=1"}}},
      {"variance-drift", {{"gain=1"}}},
      {"gqa-params", {{"kv_heads=8"}, {"heads=1", "kv_heads=1"}, {"kv_heads=2"}}},
      {"kv-cache", {{"kv_heads=4"}, {"kv_heads=1", "heads=1"}, {"tokens=1"}}},
      {"rmsnorm-vs-layernorm", {{"shift=0"}, {"tokens=1", "features=2"}}},
      {"swiglu-params", {{"intermediate=2048"}, {"intermediate=1"}}},
      {"alibi-distance", {{"heads=1"}, {"heads=2", "tokens=2"}, {"far=1"}}},
      {"rope-scaling", {{"factor=1"}, {"trained=2", "factor=1"}}},
      {"tiled-attention", {{"tile=1", "tokens=1"}, {"tile=4096"}, {"causal=true", "tokens=3"}}},
      {"attention-flops", {{"heads=8"}, {"tokens=8192"}, {"tokens=1", "d_model=1", "heads=1"}}},
      {"decoding-strategies", {{"beams=1"}, {"top_p=1"}, {"top_k=6"}, {"low_temperature=1"}}}};
  if (const auto found = extra.find(info.name); found != extra.end()) {
    settings.insert(settings.end(), found->second.begin(), found->second.end());
  }
  return settings;
}

// A number as the prose writes it: 0.483, 1,048,576, 3.4×10⁻¹⁷.
// (The exponent's group always takes part, empty or not, so a back-reference to it always
// matches what it took: libstdc++ fails one to a group that took no part.)
const std::string kNumber = "([0-9][0-9.,]*[0-9]|[0-9])((?:×10[^ ,;:)]*)?)";

// The ways a sentence written for several points reads at one: "from 0.483 at d_k = 16 to 0.483",
// "between 0.043 and 0.043", "1.2 → 1.2", "5 to 5", "(1 draws)", "1 heads".
std::vector<std::string> degenerate_phrases(const std::string& paragraph) {
  static const std::vector<std::pair<std::string, std::regex>> patterns{
      {"from X to X",
       std::regex("(^|[^0-9.,])from " + kNumber + "[^.;]{0,40}? to \\2\\3(?![0-9])")},
      {"between X and X", std::regex("(^|[^0-9.,])between " + kNumber + " and \\2\\3(?![0-9])")},
      {"X → X", std::regex("(^|[^0-9.,])" + kNumber + " → \\2\\3(?![0-9])")},
      {"X to X", std::regex("(^|[^0-9.,])" + kNumber + " to \\2\\3(?![0-9.])")},
      {"one, plural", std::regex("(^|[^0-9.,])1 (draws|trials|networks|layers|sublayers|blocks|"
                                 "heads|tokens|positions|widths|depths|features|queries|keys)\\b")},
      {"defined at X and at X", std::regex("at " + kNumber + " and at \\1\\2(?![0-9])")}};
  std::vector<std::string> found;
  for (const auto& [name, pattern] : patterns) {
    std::smatch match;
    if (std::regex_search(paragraph, match, pattern))
      found.push_back(name + ": \"" + match.str() + "\"");
  }
  return found;
}

}  // namespace

TEST_CASE("the degenerate-phrase check catches what it is for", "[demo][degenerate]") {
  CHECK(degenerate_phrases("the largest weight climbs from 0.483 at d_k = 16 to 0.483 at 16")
            .size() == 1);
  CHECK(degenerate_phrases("stays between 0.043 and 0.043").size() == 1);
  CHECK(degenerate_phrases("(‖∂softmax/∂scores‖ 3.4×10⁻⁹ → 3.4×10⁻⁹)").size() == 1);
  CHECK(degenerate_phrases("LayerNorm receives 5 to 5").size() == 1);
  CHECK(degenerate_phrases("(1 draws)").size() == 1);
  CHECK(degenerate_phrases("1 heads of width 512").size() == 1);
  CHECK(degenerate_phrases("defined at 0 and at 0 alike").size() == 1);
  // Different numbers, or one that only starts the same, are ranges.
  CHECK(degenerate_phrases("climbs from 0.483 at d_k = 16 to 0.4835 at 256").empty());
  CHECK(degenerate_phrases("between 0.043 and 0.0435, 11 draws, 21 heads, 3.4×10⁻⁹ → 3.4×10⁻¹⁰")
            .empty());
  CHECK(degenerate_phrases("from 2 to 20 layers; 1 to 16; 0.5 to 0.55").empty());
}

TEST_CASE("every demo run at the edges of its parameters says only what it shows",
          "[demo][degenerate]") {
  std::size_t runs = 0;
  for (const DemoInfo& info : catalog()) {
    for (const std::vector<std::string>& sets : edge_settings(info)) {
      INFO(info.name << " --set " << fmt::format("{}", fmt::join(sets, " --set ")));
      DemoResult result;
      try {
        result = run_demo(info, resolve_params(info, sets), 0);
      } catch (const InputError&) {
        continue;  // refused with a message (e.g. heads must divide d_model): nothing drawn
      }
      ++runs;
      for (const std::string& paragraph : result.text) {
        INFO(paragraph);
        CHECK(degenerate_phrases(paragraph).empty());
      }
      // One point is a sentence, not a chart, whatever the format.
      const std::string html = proofdeck::render::render_html(result, info);
      std::size_t one_point_series = 0;
      for (const demo::Series& series : result.series)
        one_point_series += proofdeck::render::one_point(series) ? 1U : 0U;
      std::size_t sentences = 0;
      for (std::size_t at = html.find("class=\"one-point\""); at != std::string::npos;
           at = html.find("class=\"one-point\"", at + 1))
        ++sentences;
      CHECK(sentences == one_point_series);
      CHECK(proofdeck::render::render_svg_figures(result).size() ==
            proofdeck::render::figure_count(result));
      const std::string text = render_text(
          result, info, Theme::plain(),
          proofdeck::render::TextOptions{proofdeck::render::TextForm::full, 400, true, false});
      for (const demo::Series& series : result.series) {
        if (proofdeck::render::one_point(series))
          CHECK_THAT(text,
                     Catch::Matchers::Contains(proofdeck::render::one_point_sentence(series)));
      }
    }
  }
  CHECK(runs >= 40);
}

}  // namespace test_demos
