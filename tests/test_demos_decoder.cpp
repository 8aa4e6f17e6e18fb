// The modern decoder layer's demos — gqa-params, kv-cache, rmsnorm-vs-layernorm, swiglu-params,
// alibi-distance, rope-scaling, tiled-attention, attention-flops, decoding-strategies: the numbers
// each one's claim rests on, at the defaults and at other settings, whatever the seed; and bad
// parameters refused with the allowed values named.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "demo/demo.hpp"
#include "demo_test_support.hpp"

namespace test_demos_decoder {

using namespace proofdeck;
using namespace proofdeck::demo;
using proofdeck::testing::error_of;
using proofdeck::testing::flag;
using proofdeck::testing::number;
using proofdeck::testing::run;

TEST_CASE("gqa-params: sharing K/V shrinks k_proj, v_proj and the cache — splitting heads does not",
          "[demo][decoder]") {
  const DemoResult result = run("gqa-params");
  CHECK(number(result, "head_dim") == 64);
  CHECK(number(result, "attention_params_g8") == 1048576);  // multi-head: 4·512²
  CHECK(number(result, "attention_params_g2") == 655360);
  CHECK(number(result, "attention_params_g1") == 589824);  // multi-query
  CHECK(number(result, "kv_proj_g2") == 131072);
  CHECK(number(result, "q_proj_g1") == number(result, "q_proj_g8"));  // queries never shrink
  CHECK(number(result, "params_saved_g1") == 458752);
  CHECK(number(result, "queries_per_kv_head_g2") == 4);
  CHECK(number(result, "kv_cache_bytes_g8") == 268435456);  // 2·32·8·64·4096·2
  CHECK(number(result, "kv_cache_bytes_g1") == 33554432);
  CHECK(number(result, "kv_cache_ratio_g2") == 0.25);
  CHECK(number(result, "kv_cache_bytes_per_token_g8") == 65536);
  CHECK(number(result, "mha_params") == number(result, "one_head_params"));
  CHECK_FALSE(flag(result, "split_saves_params"));
  CHECK(flag(result, "counted_from_modules"));
  CHECK(flag(result, "closed_form_matches"));
}

TEST_CASE("gqa-params reaches Llama sizes through the closed form and refuses uneven groups",
          "[demo][decoder]") {
  const DemoResult llama = run("gqa-params", {"d_model=8192", "heads=64", "kv_heads=64,8"});
  CHECK_FALSE(flag(llama, "counted_from_modules"));
  CHECK(number(llama, "head_dim") == 128);
  CHECK(number(llama, "kv_cache_ratio_g8") == 0.125);
  CHECK(error_of("gqa-params", {"kv_heads=8,3"}) ==
        "demo gqa-params: kv_heads=3: the 8 query heads must share the key/value heads evenly, "
        "so kv_heads must be one of 1, 2, 4, 8");
  CHECK(error_of("gqa-params", {"kv_heads=2,2"}) ==
        "demo gqa-params: kv_heads: 2 appears twice; give each value once");
}

TEST_CASE("kv-cache: decoding with the cache equals the full causal pass — only K and V grow",
          "[demo][decoder]") {
  for (const std::uint64_t seed : {0U, 1U}) {
    const DemoResult result = run("kv-cache", {}, seed);
    CHECK(number(result, "max_diff_decode_vs_full") <= 1e-12);
    CHECK(flag(result, "decode_matches_full"));
    CHECK(number(result, "cache_rows") == 16);
    CHECK(number(result, "cached_tensors") == 2);
    CHECK(number(result, "cached_queries") == 0);
    CHECK(number(result, "kv_cache_bytes_per_token") == 4096);  // 2·32·2·16·2
    CHECK(number(result, "kv_cache_bytes") == 65536);
    CHECK(number(result, "kv_cache_bytes_double") == 131072);
    CHECK(flag(result, "cache_grows_linearly"));
    CHECK(flag(result, "formula_matches_live_cache"));
  }
  // Llama 2 7B's cache at 4,096 tokens: 2 GiB in fp16. The live decode stays small.
  const DemoResult llama =
      run("kv-cache", {"heads=32", "kv_heads=32", "head_dim=128", "tokens=4096", "layers=32"});
  CHECK(number(llama, "kv_cache_bytes") == 2147483648.0);
  CHECK(number(llama, "live_tokens") == 64);
  CHECK(flag(llama, "decode_matches_full"));
  CHECK(flag(run("kv-cache", {"kv_heads=1", "tokens=1"}), "decode_matches_full"));
  // Multi-head: the cached keys have the queries' shape, and still no cached tensor is them.
  const DemoResult mha = run("kv-cache", {"kv_heads=4"});
  CHECK(number(mha, "cached_tensors") == 2);
  CHECK(number(mha, "cached_queries") == 0);
  CHECK(error_of("kv-cache", {"head_dim=15"}) ==
        "demo kv-cache: head_dim=15: RoPE rotates pairs of dimensions, so head_dim must be even");
}

TEST_CASE("rmsnorm-vs-layernorm: RMSNorm keeps the mean, and equals LayerNorm only at mean 0",
          "[demo][decoder]") {
  const DemoResult result = run("rmsnorm-vs-layernorm");
  CHECK(number(result, "input_mean") == Approx(3.0).margin(0.5));
  CHECK(number(result, "ln_output_mean") <= 1e-12);
  CHECK(number(result, "rms_output_mean") > 0.8);
  CHECK_FALSE(flag(result, "rms_centres"));
  CHECK(number(result, "max_diff_shifted") > 0.5);
  CHECK(number(result, "max_diff_zero_mean") <= 1e-12);
  CHECK(flag(result, "equal_when_zero_mean"));
  CHECK(number(result, "rms_params") == 16);
  CHECK(number(result, "ln_params") == 32);
  CHECK(number(result, "rms_output_rms") == Approx(1.0).margin(1e-3));
}

TEST_CASE("swiglu-params: 8/3·E keeps the two-matrix count — the full 4E would hold 1.5 times it",
          "[demo][decoder]") {
  const DemoResult result = run("swiglu-params");
  CHECK(number(result, "intermediate_size") == 1365);
  CHECK(number(result, "swiglu_params") == 2096640);
  CHECK(number(result, "ffn_params") == 2097152);
  CHECK(number(result, "ratio") == Approx(0.999756).margin(1e-6));
  CHECK(number(result, "swiglu_matrices") == 3);  // counted from the modules' tensors
  CHECK(number(result, "ffn_matrices") == 2);
  CHECK(number(result, "ratio_at_4e") == 1.5);
  CHECK(flag(result, "counted_from_modules"));
  // Llama rounds up to a multiple of 256: d_model 4096 gives 11,008, 512 gives 1,536.
  CHECK(number(run("swiglu-params", {"multiple_of=256"}), "intermediate_size") == 1536);
  CHECK(number(run("swiglu-params", {"intermediate=2048"}), "ratio") == 1.5);
  // Past what it builds in memory the counts are closed forms; the matrices are still counted.
  const DemoResult wide = run("swiglu-params", {"d_model=1024", "intermediate=16384"});
  CHECK_FALSE(flag(wide, "counted_from_modules"));
  CHECK(number(wide, "swiglu_params") == 3.0 * 1024 * 16384);
  CHECK(number(wide, "swiglu_matrices") == 3);
  CHECK(number(wide, "ffn_matrices") == 2);
}

TEST_CASE("alibi-distance: slopes of Press et al., weights falling with distance, nothing added",
          "[demo][decoder]") {
  const DemoResult result = run("alibi-distance");
  // Read off the weights (ln p(0) − ln p(1)), so to rounding rather than bit for bit.
  CHECK(number(result, "slope_h0") == Approx(0.5).epsilon(1e-12));
  CHECK(number(result, "slope_h7") == Approx(0.00390625).epsilon(1e-12));
  CHECK(flag(result, "falls_with_distance"));
  CHECK(number(result, "weight_nearest_h0") > number(result, "weight_farthest_h0"));
  CHECK(number(result, "weight_nearest_h7") > number(result, "weight_farthest_h7"));
  CHECK(number(result, "weight_nearest_h0") > number(result, "weight_nearest_h7"));
  CHECK(number(result, "bias_at_far_h0") == Approx(-50000).epsilon(1e-12));
  CHECK(number(result, "position_params") == 0);
  CHECK(number(result, "embedding_change") == 0);
  // Six heads: the slopes of four, then every other slope of eight.
  const DemoResult six = run("alibi-distance", {"heads=6"});
  const std::vector<double> expected = {0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125};
  for (std::size_t h = 0; h < expected.size(); ++h)
    CHECK(number(six, "slope_h" + std::to_string(h)) == Approx(expected[h]).epsilon(1e-12));
}

TEST_CASE("rope-scaling: interpolation brings 4,096 positions inside the 2,048 trained",
          "[demo][decoder]") {
  const DemoResult result = run("rope-scaling");
  CHECK(number(result, "extended_length") == 4096);
  CHECK(number(result, "last_position") == 4095);
  CHECK(number(result, "scaled_position") == 2047.5);
  CHECK(number(result, "max_angle_trained") == 2047);
  CHECK(number(result, "max_angle_extended") == 4095);
  CHECK(flag(result, "interpolated_within_trained"));
  CHECK(flag(result, "extended_beyond_trained"));
  CHECK(number(result, "offset_spread_scaled") <= 1e-12);
  CHECK(flag(result, "depends_only_on_offset"));
  const DemoResult unscaled = run("rope-scaling", {"factor=1"});
  CHECK_FALSE(flag(unscaled, "extended_beyond_trained"));
  CHECK(number(run("rope-scaling", {"trained=4096", "factor=8"}), "scaled_position") ==
        32767.0 / 8.0);
}

TEST_CASE("tiled-attention: the online softmax is exact and holds a tile of scores",
          "[demo][decoder]") {
  const DemoResult result = run("tiled-attention");
  CHECK(number(result, "max_diff") <= 1e-12);
  CHECK(flag(result, "exact"));
  CHECK(number(result, "full_score_buffer") == 65536);
  CHECK(number(result, "tiled_score_buffer") == 1024);
  CHECK(number(result, "buffer_ratio") == 64);
  CHECK(number(result, "tiles") == 64);
  for (const auto& sets : std::vector<std::vector<std::string>>{
           {"causal=true"}, {"tokens=100", "tile=7"}, {"tile=1", "tokens=9"}, {"tile=512"}}) {
    INFO(sets.front());
    CHECK(flag(run("tiled-attention", sets), "exact"));
  }
  CHECK(number(run("tiled-attention", {"causal=true"}), "tiles") < 64);
}

TEST_CASE("attention-flops: the head count changes nothing — T² overtakes at T = 2E",
          "[demo][decoder]") {
  const DemoResult result = run("attention-flops", {"tokens=2048", "d_model=4096"});
  CHECK(number(result, "flops_projections") == 274877906944.0);  // 8·2048·4096²
  CHECK(number(result, "flops_scores") == 34359738368.0);        // 2·2048²·4096
  CHECK(number(result, "flops_av") == number(result, "flops_scores"));
  CHECK(number(result, "flops_scores_h1") == number(result, "flops_scores_h8"));
  CHECK_FALSE(flag(result, "heads_change_flops"));
  CHECK(number(result, "crossover_tokens") == 8192);
  CHECK(number(result, "flops_ffn") == 4.0 * 2048 * 4096 * 16384);
  const DemoResult at_crossover = run("attention-flops", {"tokens=8192", "d_model=4096"});
  CHECK(number(at_crossover, "flops_scores") + number(at_crossover, "flops_av") ==
        number(at_crossover, "flops_projections"));
  CHECK(error_of("attention-flops", {"d_model=100", "heads=3"})
            .rfind("demo attention-flops: heads=3: d_model 100 is not divisible by 3", 0) == 0);
}

TEST_CASE("attention-flops: the tally of a real layer forward equals the closed forms",
          "[demo][decoder]") {
  struct Size {
    double tokens, d_model;
  };
  for (const Size size : {Size{16, 8}, Size{5, 8}, Size{64, 32}, Size{128, 64}}) {
    const double t = size.tokens, e = size.d_model;
    INFO("T = " << t << ", E = " << e);
    const DemoResult result = run("attention-flops", {fmt::format("tokens={}", t),
                                                      fmt::format("d_model={}", e), "heads=1,4,8"});
    CHECK(result.find("flops_projections")->provenance == Provenance::counted);
    CHECK(number(result, "flops_projections") == 8 * t * e * e);
    CHECK(number(result, "flops_scores") == 2 * t * t * e);
    CHECK(number(result, "flops_av") == 2 * t * t * e);
    CHECK(number(result, "flops_scores_h4") == 2 * t * t * e);
    CHECK(number(result, "flops_scores_h8") == 2 * t * t * e);
    CHECK(number(result, "flops_ffn") == 4 * t * e * 4 * e);
    CHECK(flag(result, "closed_form_matches"));
  }
  // 8 tokens through d_model 8, one head: W_q, W_k, W_v, W_o each 8 × 8 × 8 = 512 multiply-adds,
  // QKᵀ and AV 8 × 8 × 8 each; 2 FLOPs a multiply-add.
  const DemoResult by_hand = run("attention-flops", {"tokens=8", "d_model=8", "heads=1"});
  CHECK(number(by_hand, "flops_projections") == 2 * 4 * 512);
  CHECK(number(by_hand, "flops_scores") == 2 * 512);
  // Past the sizes the demo runs, the closed forms stand in, and say so.
  const DemoResult wide = run("attention-flops", {"tokens=2048", "d_model=4096"});
  CHECK(wide.find("flops_projections")->provenance == Provenance::derived);
  CHECK(wide.find("crossover_tokens")->provenance == Provenance::derived);
}

TEST_CASE("attention-flops: the crossover is searched by tallied runs, not set to 2·E",
          "[demo][decoder]") {
  for (const double e : {8.0, 16.0, 24.0, 64.0}) {
    INFO("E = " << e);
    const DemoResult result = run("attention-flops", {fmt::format("d_model={}", e)});
    CHECK(result.find("crossover_tokens")->provenance == Provenance::counted);
    CHECK(number(result, "crossover_tokens") == 2 * e);
  }
  // A tally that keeps one head's QKᵀ and AV sees attention cost an eighth of what runs, so the
  // search walks on to 2·E·8 = 128 at d_model 8 — where a constant 2·E would stay at 16.
  const DemoResult one_head =
      run("attention-flops", {"d_model=8", "tokens=16"}, 0, engine::Fault::mac_count_one_head);
  CHECK(number(one_head, "crossover_tokens") == 128);
  CHECK_FALSE(flag(one_head, "closed_form_matches"));
  // Heads that all read one shared D-row block of W_q, W_k, W_v shrink the in-projection to 3·D·E
  // a token (D = 1 here): the projections' 3·8 + 8·8 = 88 per token meet attention's 2·8·T at
  // ⌈88 / 16⌉ = 6.
  const DemoResult shared =
      run("attention-flops", {"d_model=8"}, 0, engine::Fault::heads_share_projection);
  CHECK(number(shared, "crossover_tokens") == 6);
  // At d_model 64 the doubling under mac-count-one-head would pass the run budget before T = 1,024,
  // so the crossover is extrapolated from the last tally, still off 2·E.
  const DemoResult far =
      run("attention-flops", {"d_model=64", "tokens=16"}, 0, engine::Fault::mac_count_one_head);
  CHECK(number(far, "crossover_tokens") == 1024);
}

TEST_CASE(
    "decoding-strategies: temperature reshapes without reranking, top-p reaches p, beam beats "
    "greedy",
    "[demo][decoder]") {
  const DemoResult result = run("decoding-strategies");
  // logits 2, 1.5, 1, 0.5, 0, −1: softmax at T = 1 gives "mat" e²/Σ = 0.41970...
  CHECK(number(result, "top_prob_t1") == Approx(0.4197).epsilon(1e-3));
  CHECK(number(result, "top_prob_low") > number(result, "top_prob_t1"));
  CHECK(number(result, "top_prob_high") < number(result, "top_prob_t1"));
  CHECK(number(result, "entropy_high") > number(result, "entropy_t1"));
  CHECK(flag(result, "same_top_token_every_temperature"));
  CHECK(number(result, "top_k_kept") == 2);
  // cumulative 0.420, 0.674, 0.829, 0.922: the fourth word is the one that reaches 0.9
  CHECK(number(result, "top_p_kept") == 4);
  CHECK(number(result, "top_p_mass") >= 0.9);
  CHECK(number(result, "top_p_mass_without_least_kept") < 0.9);
  CHECK(number(result, "greedy_prob") == Approx(0.5 * 0.4).epsilon(1e-12));
  CHECK(number(result, "beam_prob") == Approx(0.39 * 0.9).epsilon(1e-12));
  CHECK(flag(result, "beam_beats_greedy"));
  // A beam of one is greedy; top-p 1 keeps all six words.
  CHECK_FALSE(flag(run("decoding-strategies", {"beams=1"}), "beam_beats_greedy"));
  CHECK(number(run("decoding-strategies", {"top_p=1"}), "top_p_kept") == 6);
  SECTION("each decoding fault moves the value that exposes it") {
    using engine::Fault;
    const DemoResult inverted = run("decoding-strategies", {}, 0, Fault::temperature_inverted);
    CHECK(number(inverted, "top_prob_high") > number(inverted, "top_prob_t1"));
    const DemoResult short_nucleus =
        run("decoding-strategies", {}, 0, Fault::top_p_drops_crossing_token);
    CHECK(number(short_nucleus, "top_p_kept") == 3);
    CHECK(number(short_nucleus, "top_p_mass") < 0.9);
    CHECK_FALSE(
        flag(run("decoding-strategies", {}, 0, Fault::beam_keeps_one), "beam_beats_greedy"));
  }
}

TEST_CASE("the decoder demos reach the same conclusions whatever the seed", "[demo][decoder]") {
  for (const std::uint64_t seed : {3U, 11U, 2026U}) {
    INFO("seed " << seed);
    CHECK(flag(run("kv-cache", {}, seed), "decode_matches_full"));
    const DemoResult norms = run("rmsnorm-vs-layernorm", {}, seed);
    CHECK_FALSE(flag(norms, "rms_centres"));
    CHECK(flag(norms, "equal_when_zero_mean"));
    CHECK(flag(run("alibi-distance", {}, seed), "falls_with_distance"));
    CHECK(flag(run("rope-scaling", {}, seed), "depends_only_on_offset"));
    CHECK(flag(run("tiled-attention", {"causal=true"}, seed), "exact"));
  }
}

// The values these demos once set from formulas are now read from the engine, so breaking the
// mechanism behind each moves it: the fault that catches it is named beside it.
TEST_CASE("the counted and measured decoder values move with the engine fault that breaks them",
          "[demo][decoder][fault]") {
  using engine::Fault;
  SECTION("queries per K/V head: counted from the mapping a forward pass used") {
    CHECK(number(run("gqa-params"), "queries_per_kv_head_g2") == 4);
    // every query head reads head 0: all 8 of them
    CHECK(number(run("gqa-params", {}, 0, Fault::gqa_all_kv_head_0), "queries_per_kv_head_g2") ==
          8);
  }
  SECTION("q_proj and o_proj: counted from the module's tensors") {
    const DemoResult full = run("gqa-params", {}, 0, Fault::heads_full_width);
    CHECK(number(full, "q_proj_g2") == 8 * 512 * 512);  // 8 heads of width 512
    CHECK(number(full, "o_proj_g2") == 512 * 8 * 512);
    const DemoResult shared = run("gqa-params", {}, 0, Fault::heads_share_projection);
    CHECK(number(shared, "q_proj_g2") == 64 * 512);  // one head-width W_q
    CHECK(number(shared, "kv_proj_g2") == number(shared, "kv_proj_g8"));
  }
  SECTION("SwiGLU at 4·E: counted from a SwiGLU module of that width") {
    CHECK(number(run("swiglu-params"), "ratio_at_4e") == 1.5);
    // without gate_proj the module holds two matrices, as the original feed-forward
    CHECK(number(run("swiglu-params", {}, 0, Fault::swiglu_no_gate), "ratio_at_4e") == 1.0);
  }
  SECTION("the interpolated position: read off the rotation of the slowest pair") {
    CHECK(number(run("rope-scaling"), "scaled_position") == Approx(2047.5).epsilon(1e-12));
    CHECK(number(run("rope-scaling", {}, 0, Fault::rope_scaling_ignored), "scaled_position") ==
          Approx(4095).epsilon(1e-12));
    CHECK(number(run("rope-scaling", {}, 0, Fault::rope_base_1000), "scaled_position") !=
          Approx(2047.5).epsilon(1e-3));
  }
  SECTION("ALiBi's slopes: read off the weights") {
    CHECK(number(run("alibi-distance", {}, 0, Fault::alibi_halved_slopes), "slope_h0") ==
          Approx(0.25).epsilon(1e-12));
    const DemoResult equal = run("alibi-distance", {}, 0, Fault::alibi_equal_slopes);
    CHECK(number(equal, "slope_h0") == Approx(number(equal, "slope_h7")).epsilon(1e-12));
  }
}

TEST_CASE("moe-routing: a token uses the router and k of N experts, attention keeps its T²",
          "[demo][decoder][moe]") {
  const DemoResult result = run("moe-routing");  // N = 8, k = 2, E = 16, F = 32, T = 16
  const double expert = 3 * 16 * 32;
  CHECK(number(result, "expert_params") == expert);
  CHECK(number(result, "router_params") == 8 * 16);
  CHECK(number(result, "total_params") == 8 * 16 + 8 * expert);
  CHECK(number(result, "active_params_per_token") == 8 * 16 + 2 * expert);
  CHECK(number(result, "slots_per_token") == 2);
  CHECK(number(result, "dense_ffn_params") == 2 * expert);
  // one multiply-add per weight a token touches, tallied where the products ran
  CHECK(number(result, "moe_macs_per_token") == number(result, "active_params_per_token"));
  CHECK(number(result, "dense_macs_per_token") == 2 * expert);
  CHECK(number(result, "moe_macs_growth") == 2);
  CHECK(number(result, "attention_scores_growth") == 4);
  CHECK(number(result, "mixing_weights_sum") == Approx(1.0).epsilon(1e-14));
  CHECK(flag(result, "weights_proportional"));
  CHECK_FALSE(flag(result, "weights_equal"));
  // the load-balancing loss: near α·k for the drawn tokens, higher under a surer router, and
  // higher still for a batch of one token repeated, which every token routes alike
  CHECK(number(result, "aux_loss_balanced") == Approx(0.02).epsilon(1e-14));
  CHECK(number(result, "aux_loss") >= number(result, "aux_loss_balanced"));
  CHECK(number(result, "aux_loss_sharp") > number(result, "aux_loss"));
  CHECK(number(result, "aux_loss_alike") > number(result, "aux_loss_sharp"));
}

TEST_CASE(
    "moe-routing: a Switch layer drops what its capacity cannot take, and the residual "
    "carries it",
    "[demo][decoder][moe]") {
  const DemoResult tight = run("moe-routing");  // capacity factor 1.0: 2 slots an expert
  CHECK(number(tight, "switch_capacity") == 2);
  CHECK(number(tight, "switch_dropped") > 0);
  CHECK(number(tight, "switch_dropped") + number(tight, "switch_ran") == 16);
  CHECK(number(tight, "switch_output_rows") == 16);
  CHECK(flag(tight, "dropped_pass_through"));
  const DemoResult roomy = run("moe-routing", {"capacity=8"});  // every token fits
  CHECK(number(roomy, "switch_capacity") == 16);
  CHECK(number(roomy, "switch_dropped") == 0);
  CHECK(error_of("moe-routing", {"experts=2", "per_token=3"}) ==
        "demo moe-routing: per_token=3: a token runs at most the 2 experts there are; give "
        "per_token ≤ experts");
}

}  // namespace test_demos_decoder
