// The depth demos — variance-drift, residual-gradient, pre-vs-post-ln, sqrt-dk-scaling: their
// contract values exist and say what the lesson says, runs are bit-identical for a seed, another
// seed moves the numbers but not the conclusions, and bad parameters are refused.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "demo/demo.hpp"
#include "demo/demos.hpp"
#include "demo_test_support.hpp"

namespace test_demos_depth {

using namespace proofdeck;
using namespace proofdeck::demo;
using proofdeck::testing::flag;
using proofdeck::testing::number;

namespace {

DemoResult run(const DemoInfo& info, const std::vector<std::string>& sets = {},
               std::uint64_t seed = 0) {
  return run_demo(info, resolve_params(info, sets), seed);
}

std::string with_depth(const char* prefix, int depth) {
  return prefix + std::to_string(depth);
}

// The conclusions each demo must reach, whatever the seed.
void check_variance_drift(const DemoResult& result) {
  CHECK(number(result, "variance_no_norm_1") == Approx(2.0).epsilon(0.02));
  CHECK(number(result, "variance_no_norm_5") == Approx(32.0).epsilon(0.02));
  CHECK(number(result, "variance_no_norm_20") == Approx(1048576.0).epsilon(0.02));
  CHECK(number(result, "variance_layernorm_min") > 0.99);
  CHECK(number(result, "variance_layernorm_max") < 1.01);
}

void check_residual_gradient(const DemoResult& result) {
  const double residual = number(result, "first_layer_grad_residual");
  const double plain = number(result, "first_layer_grad_no_residual");
  CHECK(plain < 1e-6 * residual);
  CHECK(number(result, "first_over_output_no_residual") < 1e-6);
  CHECK(number(result, "first_over_output_residual") > 1.0);
  CHECK(number(result, "no_residual_shrink_per_layer") < 0.7);
  // Residual and LayerNorm together: within a small factor of the top at every block.
  CHECK(number(result, "first_over_output_residual_pre_ln") > 0.1);
  CHECK(number(result, "first_over_output_residual_pre_ln") < 10.0);
  CHECK(number(result, "grad_spread_residual_pre_ln") < 10.0);
}

void check_pre_vs_post_ln(const DemoResult& result) {
  for (const int depth : {6, 12, 24}) {
    INFO("L = " << depth);
    CHECK(number(result, with_depth("post_last_over_first_L", depth)) >
          number(result, with_depth("pre_last_over_first_L", depth)));
    CHECK(number(result, with_depth("pre_last_over_first_L", depth)) < 1.0);
    CHECK(number(result, with_depth("post_last_L", depth)) >
          number(result, with_depth("pre_last_L", depth)));
  }
  CHECK(number(result, "pre_last_L6") > number(result, "pre_last_L12"));
  CHECK(number(result, "pre_last_L12") > number(result, "pre_last_L24"));
  CHECK(flag(result, "post_ratio_above_pre"));
  CHECK(flag(result, "pre_last_decreasing"));
}

void check_sqrt_dk_scaling(const DemoResult& result) {
  CHECK(number(result, "max_weight_unscaled_dk512") > 0.9);
  CHECK(number(result, "max_weight_scaled_dk512") < 0.5);
  CHECK(number(result, "entropy_unscaled_dk512") < 0.3);
  CHECK(number(result, "entropy_scaled_dk512") > 1.5);
  CHECK(number(result, "softmax_grad_unscaled_dk512") <
        0.5 * number(result, "softmax_grad_scaled_dk512"));
}

}  // namespace

TEST_CASE("the depth demos name their lesson claim, section and parameters", "[demo]") {
  for (const DemoInfo& info : {variance_drift_demo(), residual_gradient_demo(),
                               pre_vs_post_ln_demo(), sqrt_dk_scaling_demo()}) {
    INFO(info.name);
    CHECK_FALSE(info.title.empty());
    CHECK_FALSE(info.claim.empty());
    CHECK_FALSE(info.section.empty());
    CHECK_FALSE(info.params.empty());
    CHECK(info.run);
  }
  CHECK(variance_drift_demo().name == "variance-drift");
  CHECK(residual_gradient_demo().name == "residual-gradient");
  CHECK(pre_vs_post_ln_demo().name == "pre-vs-post-ln");
  CHECK(sqrt_dk_scaling_demo().name == "sqrt-dk-scaling");
}

TEST_CASE("a sublayer doubling the variance reaches 2^20 in 20 layers — LayerNorm holds 1",
          "[demo]") {
  const DemoResult result = run(variance_drift_demo());
  check_variance_drift(result);
  CHECK(number(result, "variance_ideal_1") == 2.0);
  CHECK(number(result, "variance_ideal_5") == 32.0);
  CHECK(number(result, "variance_ideal_20") == 1048576.0);
  CHECK(number(result, "variance_input") == Approx(1.0).epsilon(1e-12));
  CHECK(number(result, "variance_layernorm_20") == Approx(1.0).epsilon(1e-4));
  // LayerNorm undoes one layer's doubling at a time.
  CHECK(number(result, "layernorm_input_variance_min") > 1.9);
  CHECK(number(result, "layernorm_input_variance_max") < 2.1);
  CHECK(number(result, "log10_variance_no_norm_last") == Approx(6.02).margin(0.02));
  REQUIRE(result.series.size() == 1);
  CHECK(result.series[0].log_scale);
  CHECK(result.series[0].x.size() == 21);  // the input and 20 layers
  REQUIRE(result.series[0].lines.size() == 2);
  CHECK(result.series[0].lines[0].second.back() == number(result, "variance_no_norm_20"));
  REQUIRE(result.tables.size() == 1);
  CHECK(result.tables[0].cells.rows() == 4);  // layers 1, 5, 10 and 20
  CHECK(result.text.size() >= 2);
}

TEST_CASE("gaussian sublayers double the variance only on average", "[demo]") {
  const DemoResult result = run(variance_drift_demo(), {"weights=gaussian"});
  CHECK(number(result, "variance_no_norm_20") > 1048576.0 / 4);
  CHECK(number(result, "variance_no_norm_20") < 1048576.0 * 4);
  CHECK(number(result, "variance_layernorm_max") < 1.01);
}

TEST_CASE("other depths and gains report their own milestones", "[demo]") {
  const DemoResult result = run(variance_drift_demo(), {"layers=8", "gain=0.5"});
  CHECK(number(result, "variance_no_norm_8") == Approx(1.0 / 256).epsilon(0.02));
  CHECK(number(result, "variance_ideal_8") == 1.0 / 256);
  CHECK(result.find("variance_no_norm_20") == nullptr);
  CHECK(number(result, "variance_layernorm_min") > 0.99);
}

TEST_CASE("without residual connections the gradient vanishes toward the input", "[demo]") {
  const DemoResult result = run(residual_gradient_demo());
  check_residual_gradient(result);
  REQUIRE(result.series.size() == 1);
  CHECK(result.series[0].log_scale);
  CHECK(result.series[0].x.size() == 24);
  CHECK(result.series[0].lines.size() == 4);
  // Series run from block 1 (the input end) to block 24.
  const std::vector<double>& plain = result.series[0].lines[1].second;
  CHECK(plain.front() == number(result, "first_layer_grad_no_residual"));
  CHECK(plain.front() < plain.back());
}

TEST_CASE("Post-LN keeps large gradients at the output — Pre-LN's shrink with depth", "[demo]") {
  const DemoResult result = run(pre_vs_post_ln_demo());
  check_pre_vs_post_ln(result);
  // Post-LN's last layer is about as large at every depth (Xiong et al.: independent of L)...
  CHECK(number(result, "post_last_max_over_min") < 1.5);
  // ...so its lead over Pre-LN at the output grows with depth.
  CHECK(number(result, "post_over_pre_last_L24") > number(result, "post_over_pre_last_L6"));
  CHECK(result.series.size() == 4);  // one profile per depth and the last layer against depth
  CHECK(result.series[2].x.size() == 24);
  REQUIRE(result.tables.size() == 1);
  CHECK(result.tables[0].cells.rows() == 3);
}

TEST_CASE(
    "Pre-LN's residual path carries the gradient untouched, Post-LN's runs through "
    "LayerNorm",
    "[demo]") {
  const DemoResult result = run(pre_vs_post_ln_demo());
  // With every sublayer's output projection zeroed, Pre-LN's blocks are x + 0: the identity.
  CHECK(number(result, "pre_path_change") == 0.0);
  // Post-LN's are LN(LN(x + 0) + 0): the gradient is projected and rescaled on every block.
  CHECK(number(result, "post_path_change") > 0.05);
  // Without warmup_steps there is no warm-up and no value claims one.
  CHECK(result.find("warm_post_path_change") == nullptr);
  CHECK(result.text.size() == 5);
}

TEST_CASE("a learning-rate warm-up trains both stacks and leaves LayerNorm where it sits",
          "[demo]") {
  for (const std::uint64_t seed : {0u, 1u, 2u}) {
    INFO("seed " << seed);
    const DemoResult cold = run(pre_vs_post_ln_demo(), {}, seed);
    const DemoResult warm = run(pre_vs_post_ln_demo(), {"warmup_steps=16"}, seed);
    // The warm-up trains: both losses fall, each placement's by its own amount.
    CHECK(number(warm, "warm_loss_ratio_post") < 0.9);
    CHECK(number(warm, "warm_loss_ratio_pre") < 0.9);
    CHECK(number(warm, "warm_loss_ratio_post") != number(warm, "warm_loss_ratio_pre"));
    // ...and leaves the residual paths as they were: Pre-LN's exact, Post-LN's through LayerNorm,
    // now with trained γ and β (so another change than before).
    CHECK(number(warm, "warm_pre_path_change") == 0.0);
    CHECK(number(warm, "warm_post_path_change") > 0.05);
    CHECK(number(warm, "warm_post_path_change") != number(warm, "post_path_change"));
    // Post-LN's profile still rises toward the output against Pre-LN's.
    CHECK(number(warm, "warm_post_last_over_first") > number(warm, "warm_pre_last_over_first"));
    CHECK(number(warm, "warm_post_over_pre_last") > 1.0);
    // The warm-up draws its target after everything else: the measurements at initialisation
    // are the run without it, bit for bit.
    for (const char* name : {"post_last_L24", "pre_first_L6", "post_path_change"})
      CHECK(number(warm, name) == number(cold, name));
    CHECK(warm.text.size() == cold.text.size() + 1);
  }
}

TEST_CASE("a warm-up is measured at the shallowest depth listed", "[demo]") {
  const DemoResult result = run(pre_vs_post_ln_demo(), {"depths=12,3", "warmup_steps=4"});
  CHECK(result.text.back().find("(L = 3)") != std::string::npos);
  CHECK(number(result, "warm_pre_path_change") == 0.0);
}

TEST_CASE("averaging networks and other depth lists keep the Pre-LN conclusions", "[demo]") {
  const DemoResult result =
      run(pre_vs_post_ln_demo(), {"depths=12,4", "trials=2", "zero_qk=false", "d_model=32"});
  CHECK(number(result, "pre_last_L4") > number(result, "pre_last_L12"));
  CHECK(number(result, "post_last_over_first_L12") > number(result, "pre_last_over_first_L12"));
  CHECK(result.find("pre_last_L6") == nullptr);
}

TEST_CASE("without the 1/sqrt(d_k) scale the softmax saturates as d_k grows", "[demo]") {
  const DemoResult result = run(sqrt_dk_scaling_demo());
  check_sqrt_dk_scaling(result);
  for (const int d_k : {4, 8, 16, 32, 64, 128, 256, 512}) {
    INFO("d_k = " << d_k);
    CHECK(number(result, with_depth("score_std_scaled_dk", d_k)) == Approx(1.0).epsilon(0.2));
    CHECK(number(result, with_depth("score_std_unscaled_dk", d_k)) ==
          Approx(std::sqrt(d_k)).epsilon(0.2));
    CHECK(number(result, with_depth("max_weight_scaled_dk", d_k)) < 0.5);
  }
  CHECK(number(result, "max_weight_unscaled_dk4") < number(result, "max_weight_unscaled_dk64"));
  CHECK(number(result, "max_weight_unscaled_dk64") < number(result, "max_weight_unscaled_dk512"));
  CHECK(number(result, "uniform_entropy") == Approx(std::log(16.0)));
  CHECK(number(result, "entropy_scaled_dk512") < number(result, "uniform_entropy"));
  // Weights by rank, one row per d_k: unscaled, the first rank takes nearly everything.
  REQUIRE(result.tables.size() == 3);
  CHECK(result.tables[1].name == "ranked_weights_unscaled");
  CHECK(result.tables[1].heatmap);
  CHECK(result.tables[1].cells(7, 0) == number(result, "max_weight_unscaled_dk512"));
  CHECK(result.tables[0].cells(7, 0) == number(result, "max_weight_scaled_dk512"));
  CHECK(result.series.size() == 2);
}

TEST_CASE("the depth demos are bit-identical for a seed", "[demo]") {
  for (const DemoInfo& info : {variance_drift_demo(), residual_gradient_demo(),
                               pre_vs_post_ln_demo(), sqrt_dk_scaling_demo()}) {
    INFO(info.name);
    CHECK(to_json(run(info, {}, 42)).dump() == to_json(run(info, {}, 42)).dump());
  }
}

TEST_CASE("another seed moves the numbers but not the conclusions", "[demo]") {
  for (const std::uint64_t seed : {1u, 7u, 12345u}) {
    INFO("seed " << seed);
    const DemoResult drift = run(variance_drift_demo(), {}, seed);
    check_variance_drift(drift);
    CHECK(number(drift, "variance_no_norm_20") !=
          number(run(variance_drift_demo(), {}, 0), "variance_no_norm_20"));
    const DemoResult residual = run(residual_gradient_demo(), {}, seed);
    check_residual_gradient(residual);
    CHECK(number(residual, "first_layer_grad_residual") !=
          number(run(residual_gradient_demo(), {}, 0), "first_layer_grad_residual"));
    const DemoResult placement = run(pre_vs_post_ln_demo(), {}, seed);
    check_pre_vs_post_ln(placement);
    CHECK(number(placement, "pre_last_L24") !=
          number(run(pre_vs_post_ln_demo(), {}, 0), "pre_last_L24"));
    const DemoResult scaling = run(sqrt_dk_scaling_demo(), {}, seed);
    check_sqrt_dk_scaling(scaling);
    CHECK(number(scaling, "max_weight_unscaled_dk512") !=
          number(run(sqrt_dk_scaling_demo(), {}, 0), "max_weight_unscaled_dk512"));
  }
}

TEST_CASE("heads that do not divide d_model are refused", "[demo]") {
  REQUIRE_THROWS_WITH(
      run(pre_vs_post_ln_demo(), {"heads=5"}),
      "[proofdeck.demo.param] demo pre-vs-post-ln: heads=5 does not divide d_model=64: every head "
      "gets d_model / heads features, so heads must be a divisor of 64");
  REQUIRE_THROWS_AS(run(residual_gradient_demo(), {"heads=3"}), InputError);
}

TEST_CASE("a depth or width listed twice is refused", "[demo]") {
  REQUIRE_THROWS_WITH(run(pre_vs_post_ln_demo(), {"depths=6,12,6"}),
                      "[proofdeck.demo.param] demo pre-vs-post-ln: depths: 6 appears twice; give "
                      "each value once");
  REQUIRE_THROWS_AS(run(sqrt_dk_scaling_demo(), {"d_k=8,8"}), InputError);
}

TEST_CASE("sizes that would take too long are refused before any work", "[demo]") {
  REQUIRE_THROWS_WITH(run(pre_vs_post_ln_demo(), {"depths=48,47,46,45,44,43", "d_model=256",
                                                  "d_ff=1024", "seq_len=64", "trials=16"}),
                      Catch::Contains("multiply-adds") && Catch::Contains("choose smaller"));
  REQUIRE_THROWS_AS(
      run(residual_gradient_demo(), {"layers=64", "d_model=256", "d_ff=1024", "seq_len=64"}),
      InputError);
}

TEST_CASE("out-of-range depth parameters are refused with the allowed range", "[demo]") {
  for (const auto& [info, assignment] :
       std::vector<std::pair<DemoInfo, std::string>>{{variance_drift_demo(), "layers=0"},
                                                     {variance_drift_demo(), "layers=65"},
                                                     {variance_drift_demo(), "d_model=4096"},
                                                     {variance_drift_demo(), "weights=uniform"},
                                                     {residual_gradient_demo(), "layers=1000"},
                                                     {pre_vs_post_ln_demo(), "depths=6,12,97"},
                                                     {pre_vs_post_ln_demo(), "trials=0"},
                                                     {sqrt_dk_scaling_demo(), "d_k=0"},
                                                     {sqrt_dk_scaling_demo(), "seq_len=1"}}) {
    INFO(info.name << " " << assignment);
    REQUIRE_THROWS_AS(resolve_params(info, {assignment}), InputError);
  }
}

}  // namespace test_demos_depth
