// The demo catalog: every contract value exists, the lesson's numbers come out, runs are
// bit-identical for a seed, bad parameters are refused, and the outputs match their goldens.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"
#include "demo/demo.hpp"
#include "demo_test_support.hpp"
#include "render/figure.hpp"

using namespace proofdeck;
using namespace proofdeck::demo;
using proofdeck::render::render_text;
using proofdeck::testing::flag;
using proofdeck::testing::number;

namespace {

DemoResult run(const std::string& name, const std::vector<std::string>& sets = {},
               std::uint64_t seed = 0) {
  const DemoInfo* info = find_demo(name);
  REQUIRE(info != nullptr);
  return run_demo(*info, resolve_params(*info, sets), seed);
}

std::string error_of(const std::string& name, const std::vector<std::string>& sets) {
  try {
    run(name, sets);
  } catch (const InputError& e) {
    return e.message();
  }
  return "(no InputError)";
}

}  // namespace

TEST_CASE("the catalog holds the twelve demos the contract names", "[demo]") {
  std::vector<std::string> names;
  for (const DemoInfo& info : catalog())
    names.push_back(info.name);
  CHECK(names == std::vector<std::string>{"order-blindness", "head-params", "head-width",
                                          "variance-drift", "residual-gradient", "pre-vs-post-ln",
                                          "rope-relative", "pe-extrapolation",
                                          "layernorm-vs-batchnorm", "what-layernorm-normalizes",
                                          "sqrt-dk-scaling", "causal-mask"});
  for (const DemoInfo& info : catalog()) {
    INFO(info.name);
    CHECK_FALSE(info.title.empty());
    CHECK_FALSE(info.claim.empty());
    CHECK_FALSE(info.section.empty());
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

TEST_CASE("LayerNorm normalises activations, not weights or gradients", "[demo]") {
  const DemoResult result = run("what-layernorm-normalizes");
  CHECK(number(result, "input_token_mean_max") > 1.0);
  CHECK(number(result, "activation_token_mean_max") < 1e-12);
  CHECK(number(result, "activation_token_var_min") > 0.999);
  CHECK(number(result, "activation_token_var_max") < 1.0);
  CHECK(flag(result, "weights_unchanged"));
  CHECK_FALSE(flag(result, "gradients_normalized"));
  CHECK(number(result, "grad_token_var_max") < 0.5);
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
    for (const char* key : {"params", "values", "tables", "series", "text"})
      CHECK(json.contains(key));
    CHECK(json.at("values").size() >= 3);
    CHECK(json.at("text").size() >= 1);
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

TEST_CASE("demo outputs match their goldens", "[demo][golden]") {
  // Regenerate with PROOFDECK_UPDATE_GOLDENS=1 after an intended change; review the diff.
  const bool update = std::getenv("PROOFDECK_UPDATE_GOLDENS") != nullptr;
  const std::filesystem::path dir = std::filesystem::path(PROOFDECK_GOLDEN_DIR);
  for (const DemoInfo& info : catalog()) {
    const DemoResult result = run(info.name);
    const std::pair<std::string, std::string> outputs[] = {
        {info.name + ".json", to_json(result).dump(2) + "\n"},
        {info.name + ".txt", render_text(result, info, Theme::plain())}};
    for (const auto& [file, text] : outputs) {
      INFO(file);
      const auto path = dir / file;
      if (update) {
        std::ofstream(path, std::ios::binary) << text;
        continue;
      }
      std::ifstream golden(path, std::ios::binary);
      REQUIRE(golden.good());
      std::stringstream expected;
      expected << golden.rdbuf();
      CHECK(text == expected.str());
    }
  }
}
