// The decoder layer's parts: SwiGLU, grouped-query attention with RoPE or ALiBi, decoding with a
// key/value cache and tiled attention — their contracts, failure paths and gradients.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "engine/decoder.hpp"
#include "engine/param_count.hpp"
#include "gradcheck_support.hpp"
#include "test_support.hpp"

namespace test_decoder {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

GqaConfig gqa_config(Index embed, Index heads, Index kv_heads) {
  return GqaConfig::of(embed, heads, kv_heads);
}

SwigluParams<double> random_swiglu(Index hidden, Index intermediate, Rng& rng) {
  SwigluParams<double> params(hidden, intermediate);
  params.gate_proj = random_matrix(intermediate, hidden, rng, 0.5);
  params.up_proj = random_matrix(intermediate, hidden, rng, 0.5);
  params.down_proj = random_matrix(hidden, intermediate, rng, 0.5);
  return params;
}

double max_abs_difference(const Matrix<double>& a, const Matrix<double>& b) {
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  return (a - b).cwiseAbs().maxCoeff();
}

}  // namespace

// --- SwiGLU -------------------------------------------------------------------------------------

TEST_CASE("swiglu computes down_proj(silu(gate_proj(x)) ⊙ up_proj(x))", "[engine][decoder]") {
  Rng rng(11);
  const SwigluParams<double> params = random_swiglu(4, 6, rng);
  const Matrix<double> x = random_matrix(3, 4, rng);
  Matrix<double> y;
  SwigluCache<double> cache;
  swiglu_forward(y, cache, x, params);
  const Matrix<double> gate = x * params.gate_proj.transpose();
  const Matrix<double> up = x * params.up_proj.transpose();
  const Matrix<double> silu = gate.array() / (1.0 + (-gate.array()).exp());
  const Matrix<double> expected = silu.cwiseProduct(up) * params.down_proj.transpose();
  CHECK(max_abs_difference(y, expected) <= 1e-14);
  CHECK(cache.hidden.rows() == 3);
  CHECK(cache.hidden.cols() == 6);
}

TEST_CASE("swiglu gradients match central differences", "[engine][decoder][gradcheck]") {
  Rng rng(12);
  SwigluParams<double> params = random_swiglu(5, 7, rng);
  Matrix<double> x = random_matrix(4, 5, rng);
  const Matrix<double> dout = random_matrix(4, 5, rng);
  Matrix<double> y, dx;
  SwigluCache<double> cache;
  const auto loss = [&] {
    swiglu_forward(y, cache, x, params);
    return weighted_sum(y, dout);
  };
  loss();
  SwigluParams<double> grads;
  swiglu_backward(dx, grads, dout, x, params, cache);
  CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
  CHECK_CLOSE(grads.gate_proj, numeric_gradient(params.gate_proj, loss), kGradTolerance);
  CHECK_CLOSE(grads.up_proj, numeric_gradient(params.up_proj, loss), kGradTolerance);
  CHECK_CLOSE(grads.down_proj, numeric_gradient(params.down_proj, loss), kGradTolerance);
}

TEST_CASE("swiglu refuses non-positive sizes and misshaped weights", "[engine][decoder]") {
  REQUIRE_THROWS_WITH((SwigluParams<double>(0, 4)), "hidden_size must be positive, got 0");
  REQUIRE_THROWS_WITH((SwigluParams<double>(4, -1)), "intermediate_size must be positive, got -1");
  SwigluParams<double> params(4, 6);
  params.down_proj = Matrix<double>::Zero(6, 4);
  Matrix<double> y;
  SwigluCache<double> cache;
  REQUIRE_THROWS_WITH(swiglu_forward(y, cache, Matrix<double>(Matrix<double>::Zero(2, 4)), params),
                      "swiglu down_proj.weight has shape (6, 4), expected (4, 6)");
  REQUIRE_THROWS_WITH(swiglu_forward(y, cache, Matrix<double>(Matrix<double>::Zero(2, 3)),
                                     SwigluParams<double>(4, 6)),
                      "swiglu input has shape (2, 3), expected (2, 4)");
}

TEST_CASE("swiglu has three weight matrices and no biases, under Llama's names",
          "[engine][decoder][params]") {
  const SwigluParams<float> params(8, 20);
  CHECK(count_params(params) == ParamCount{.weights = 3 * 8 * 20, .biases = 0, .tensors = 3});
  std::vector<std::string> names;
  visit_params(params, "mlp.",
               [&](const std::string& name, const auto&) { names.push_back(name); });
  CHECK(names == std::vector<std::string>{"mlp.gate_proj.weight", "mlp.up_proj.weight",
                                          "mlp.down_proj.weight"});
}

// --- configuration ------------------------------------------------------------------------------

TEST_CASE("a gqa config built from its defaults changes one setting a call", "[engine][decoder]") {
  const GqaConfig plain = GqaConfig::of(512, 8, 2);
  CHECK(plain.hidden_size == 512);
  CHECK(plain.num_attention_heads == 8);
  CHECK(plain.num_key_value_heads == 2);
  CHECK(plain.resolved_head_dim() == 64);
  CHECK(plain.causal);
  CHECK(plain.rope);
  CHECK(plain.rope_theta == 10000.0);
  CHECK(plain.rope_scaling == 1.0);
  CHECK_FALSE(plain.alibi);
  const GqaConfig changed = GqaConfig::of(512, 8, 2)
                                .with_head_dim(32)
                                .with_rope_theta(500000.0)
                                .without_rope()
                                .without_causal_mask()
                                .with_alibi();
  CHECK(changed.resolved_head_dim() == 32);
  CHECK(changed.rope_theta == 500000.0);
  CHECK_FALSE(changed.rope);
  CHECK_FALSE(changed.causal);
  CHECK(changed.alibi);
  CHECK(changed.num_key_value_heads == 2);
}

TEST_CASE("a gqa config is checked field by field", "[engine][decoder]") {
  GqaConfig config = gqa_config(8, 4, 3);
  REQUIRE_THROWS_WITH(check_gqa_config(config),
                      "num_attention_heads 4 is not divisible by num_key_value_heads 3: every "
                      "key/value head must serve the same number of query heads");
  config = gqa_config(12, 4, 2);  // head_dim 3
  REQUIRE_THROWS_WITH(check_gqa_config(config),
                      "head_dim 3 must be even with rope on: RoPE rotates pairs of dimensions");
  config.rope = false;
  CHECK_NOTHROW(check_gqa_config(config));
  config = gqa_config(8, 2, 2);
  config.rope_scaling = 0.0;
  REQUIRE_THROWS_WITH(check_gqa_config(config), "rope_scaling factor must be > 0, got 0");
  config.rope_scaling = -2.0;
  REQUIRE_THROWS_WITH(check_gqa_config(config), "rope_scaling factor must be > 0, got -2");
  config = gqa_config(10, 4, 2);
  REQUIRE_THROWS_WITH(check_gqa_config(config),
                      "hidden_size 10 is not divisible by num_attention_heads 4: give head_dim "
                      "explicitly or choose sizes that divide");
  config.head_dim = 6;
  CHECK_NOTHROW(check_gqa_config(config));
  config = gqa_config(8, 2, 2);
  config.rope_theta = 1.0;
  REQUIRE_THROWS_WITH(check_gqa_config(config), "rope_theta must be > 1, got 1");
  REQUIRE_THROWS_WITH(check_gqa_config(gqa_config(0, 2, 2)), "hidden_size must be positive, got 0");
  REQUIRE_THROWS_WITH(check_gqa_config(gqa_config(8, 2, 0)),
                      "num_key_value_heads must be positive, got 0");
  REQUIRE_THROWS_AS(GqaParams<double>(gqa_config(8, 4, 3)), EngineError);
}

TEST_CASE("gqa refuses weights of the wrong shape, naming the weight", "[engine][decoder]") {
  GqaParams<double> params(gqa_config(8, 4, 2));  // D = 2: q (8, 8), k and v (4, 8), o (8, 8)
  params.k_proj = Matrix<double>::Zero(8, 8);
  Matrix<double> y;
  GqaCache<double> cache;
  REQUIRE_THROWS_WITH(gqa_forward(y, cache, Matrix<double>(Matrix<double>::Zero(3, 8)), params),
                      "k_proj.weight has shape (8, 8), expected (4, 8)");
  params = GqaParams<double>(gqa_config(8, 4, 2));
  REQUIRE_THROWS_WITH(gqa_forward(y, cache, Matrix<double>(Matrix<double>::Zero(3, 6)), params),
                      "attention input has shape (3, 6), expected (3, 8)");
  REQUIRE_THROWS_WITH(
      gqa_forward(y, cache, Matrix<double>(Matrix<double>::Zero(3, 8)), params, Positions{0, 1}),
      "gqa has 3 tokens but 2 positions");
}

TEST_CASE("query head h reads key/value head ⌊h·G/H⌋, as repeat_kv lays them out",
          "[engine][decoder]") {
  CHECK(kv_head_of(0, 8, 2) == 0);
  CHECK(kv_head_of(3, 8, 2) == 0);
  CHECK(kv_head_of(4, 8, 2) == 1);
  CHECK(kv_head_of(7, 8, 2) == 1);
  for (Index h = 0; h < 6; ++h) {
    CHECK(kv_head_of(h, 6, 6) == h);  // multi-head: its own
    CHECK(kv_head_of(h, 6, 1) == 0);  // multi-query: the one
  }
  REQUIRE_THROWS_AS(kv_head_of(8, 8, 2), EngineError);
  REQUIRE_THROWS_AS(kv_head_of(0, 8, 3), EngineError);
}

TEST_CASE("ALiBi slopes for 8 heads are 1/2, 1/4, …, 1/256", "[engine][decoder][alibi]") {
  const std::vector<double> slopes = alibi_slopes(8);
  REQUIRE(slopes.size() == 8);
  for (std::size_t h = 0; h < 8; ++h)
    CHECK(slopes[h] == std::ldexp(1.0, -static_cast<int>(h + 1)));
}

TEST_CASE("ALiBi slopes for 6 heads follow Press et al.'s interleaved construction",
          "[engine][decoder][alibi]") {
  // get_slopes(6) = get_slopes_power_of_2(4) + get_slopes_power_of_2(8)[0::2][:2]
  const std::vector<double> expected = {1.0 / 4, 1.0 / 16, 1.0 / 64, 1.0 / 256, 1.0 / 2, 1.0 / 8};
  CHECK(alibi_slopes(6) == expected);
  CHECK(alibi_slopes(1) == std::vector<double>{1.0 / 256});
  const std::vector<double> twelve = alibi_slopes(12);  // 8 + the first 4 of 16's even-indexed
  REQUIRE(twelve.size() == 12);
  CHECK(std::abs(twelve[8] - std::pow(2.0, -0.5)) <= 1e-15);
  CHECK(std::abs(twelve[11] - std::pow(2.0, -3.5)) <= 1e-15);
}

// --- grouped-query attention --------------------------------------------------------------------

TEST_CASE("with G = H and no positions, gqa is nn.MultiheadAttention without biases",
          "[engine][decoder]") {
  Rng rng(21);
  for (const bool causal : {false, true}) {
    INFO("causal " << causal);
    GqaConfig config = gqa_config(8, 2, 2);
    config.rope = false;
    config.causal = causal;
    const GqaParams<double> gqa = random_gqa(config, rng);
    MhaParams<double> mha(8, 2, false);
    mha.in_proj.weight << gqa.q_proj, gqa.k_proj, gqa.v_proj;
    mha.out_proj.weight = gqa.o_proj;
    const Matrix<double> x = random_matrix(5, 8, rng);
    Matrix<double> y_gqa, y_mha;
    GqaCache<double> gqa_cache;
    MhaCache<double> mha_cache;
    AttentionOptions options;
    options.causal = causal;
    gqa_forward(y_gqa, gqa_cache, x, gqa);
    mha_forward(y_mha, mha_cache, x, mha, options);
    CHECK(max_abs_difference(y_gqa, y_mha) <= 1e-12);
    for (std::size_t h = 0; h < 2; ++h)
      CHECK(max_abs_difference(gqa_cache.probs[h], mha_cache.probs[h]) <= 1e-12);

    // and with RoPE on, nn.MultiheadAttention with RoPE
    GqaParams<double> rotated = gqa;
    rotated.config.rope = true;
    options.rope = RopeConfig{RopeConvention::half, 10000.0};
    gqa_forward(y_gqa, gqa_cache, x, rotated);
    mha_forward(y_mha, mha_cache, x, mha, options);
    CHECK(max_abs_difference(y_gqa, y_mha) <= 1e-12);
  }
}

TEST_CASE("query heads that share a key/value head see the same keys", "[engine][decoder]") {
  Rng rng(22);
  GqaConfig config = gqa_config(8, 4, 1);  // multi-query: one K and V for every head
  GqaParams<double> params = random_gqa(config, rng);
  params.q_proj.middleRows(2, 2) = params.q_proj.middleRows(0, 2);  // heads 0 and 1 ask alike
  Matrix<double> y;
  GqaCache<double> cache;
  gqa_forward(y, cache, random_matrix(5, 8, rng), params);
  CHECK(cache.k.cols() == 2);
  CHECK(cache.v.cols() == 2);
  CHECK(max_abs_difference(cache.probs[0], cache.probs[1]) == 0.0);
  CHECK(max_abs_difference(cache.probs[0], cache.probs[2]) > 1e-3);
}

TEST_CASE("ALiBi adds −m_h·|i − j| to head h's scores", "[engine][decoder][alibi]") {
  // Zero queries and keys: the scores are the bias alone, so the weights are softmax(−m·|i − j|).
  GqaConfig config = gqa_config(4, 2, 2);
  config.rope = false;
  config.alibi = true;
  config.causal = false;
  GqaParams<double> params(config);
  Rng rng(23);
  params.v_proj = random_matrix(4, 4, rng);
  params.o_proj = random_matrix(4, 4, rng);
  Matrix<double> y;
  GqaCache<double> cache;
  gqa_forward(y, cache, random_matrix(3, 4, rng), params);
  const double m = 1.0 / 16;  // head 0 of 2: 2^(−8/2)
  const double row0 = 1 + std::exp(-m) + std::exp(-2 * m);
  CHECK(std::abs(cache.probs[0](0, 0) - 1 / row0) <= 1e-15);
  CHECK(std::abs(cache.probs[0](0, 2) - std::exp(-2 * m) / row0) <= 1e-15);
  CHECK(std::abs(cache.probs[0](1, 0) - cache.probs[0](1, 2)) <= 1e-15);  // |i − j| is symmetric
  CHECK(cache.probs[1](0, 2) > cache.probs[0](0, 2));  // head 1's gentler 1/256 reaches further
}

TEST_CASE("a linear rope_scaling s puts position p where RoPE would put p / s",
          "[engine][decoder]") {
  Rng rng(24);
  GqaConfig config = gqa_config(8, 2, 1);
  config.rope_scaling = 2.0;
  const GqaParams<double> scaled = random_gqa(config, rng);
  GqaParams<double> plain = scaled;
  plain.config.rope_scaling = 1.0;
  const Matrix<double> x = random_matrix(4, 8, rng);
  Matrix<double> y_scaled, y_plain;
  GqaCache<double> c1, c2;
  gqa_forward(y_scaled, c1, x, scaled, Positions{0, 2, 4, 6});
  gqa_forward(y_plain, c2, x, plain, Positions{0, 1, 2, 3});
  CHECK(max_abs_difference(y_scaled, y_plain) <= 1e-12);
}

TEST_CASE("gqa gradients match central differences", "[engine][decoder][gradcheck]") {
  struct Case {
    const char* name;
    Index heads, kv_heads, head_dim;
    bool causal, rope, alibi;
    double scaling;
    Positions positions;
  };
  const Case cases[] = {{"GQA 4/2, causal, RoPE", 4, 2, 0, true, true, false, 1.0, {}},
                        {"GQA 4/2, not causal, RoPE", 4, 2, 0, false, true, false, 1.0, {}},
                        {"MQA, causal, RoPE scaled, explicit positions",
                         4,
                         1,
                         0,
                         true,
                         true,
                         false,
                         2.0,
                         {3, 1, 4, 1, 5}},
                        {"MHA, ALiBi, causal", 2, 2, 0, true, false, true, 1.0, {}},
                        {"ALiBi 6 heads, not causal", 6, 3, 2, false, false, true, 1.0, {}},
                        {"ALiBi and RoPE, head_dim 6", 4, 2, 6, true, true, true, 1.0, {}}};
  for (const Case& c : cases) {
    INFO(c.name);
    Rng rng(25);
    GqaConfig config = gqa_config(8, c.heads, c.kv_heads);
    config.head_dim = c.head_dim;
    config.causal = c.causal;
    config.rope = c.rope;
    config.alibi = c.alibi;
    config.rope_scaling = c.scaling;
    GqaParams<double> params = random_gqa(config, rng);
    Matrix<double> x = random_matrix(5, 8, rng);
    const Matrix<double> dout = random_matrix(5, 8, rng);
    check_gqa_gradients(params, x, dout, c.positions);
  }
}

TEST_CASE("gqa's parameters are q/k/v/o_proj, with K and V shrunk by H/G",
          "[engine][decoder][params]") {
  GqaConfig config = gqa_config(64, 8, 2);  // D = 8
  const GqaParams<float> params(config);
  CHECK(count_params(params) ==
        ParamCount{.weights = 64 * 64 + 2 * (16 * 64) + 64 * 64, .biases = 0, .tensors = 4});
  config.num_key_value_heads = 8;
  CHECK(count_params(GqaParams<float>(config)).total() == 4 * 64 * 64);
  std::vector<std::string> names;
  visit_params(params, "self_attn.",
               [&](const std::string& name, const auto&) { names.push_back(name); });
  CHECK(names == std::vector<std::string>{"self_attn.q_proj.weight", "self_attn.k_proj.weight",
                                          "self_attn.v_proj.weight", "self_attn.o_proj.weight"});
}

// --- decoding with a KV cache
// ---------------------------------------------------------------------

TEST_CASE("decoding token by token with a KV cache reproduces the causal forward row by row",
          "[engine][decoder][kvcache]") {
  struct Case {
    const char* name;
    bool rope, alibi;
    Index kv_heads;
  };
  const Case cases[] = {{"RoPE, GQA", true, false, 2},
                        {"no positions, MQA", false, false, 1},
                        {"ALiBi, MHA", false, true, 4},
                        {"RoPE and ALiBi", true, true, 2}};
  for (const Case& c : cases) {
    INFO(c.name);
    Rng rng(31);
    GqaConfig config = gqa_config(8, 4, c.kv_heads);
    config.rope = c.rope;
    config.alibi = c.alibi;
    const GqaParams<double> params = random_gqa(config, rng);
    const Matrix<double> x = random_matrix(6, 8, rng);
    Matrix<double> full;
    GqaCache<double> cache;
    gqa_forward(full, cache, x, params);

    KvCache<double> kv;
    CHECK(kv.length() == 0);
    Matrix<double> row;
    for (Index t = 0; t < 6; ++t) {
      gqa_decode_step(row, kv, Matrix<double>(x.row(t)), t, params);
      CHECK(kv.length() == t + 1);
      CHECK(kv.keys.cols() == c.kv_heads * 2);
      CHECK(kv.values.rows() == t + 1);
      CHECK(max_abs_difference(row, full.row(t)) <= 1e-12);
    }
    // The cache holds exactly the forward's (rotated) keys and values.
    CHECK(max_abs_difference(kv.keys, cache.k) <= 1e-12);
    CHECK(max_abs_difference(kv.values, cache.v) <= 1e-12);
  }
}

TEST_CASE("a KV cache holds two tensors, the keys and the values, and no queries",
          "[engine][decoder][kvcache]") {
  Rng rng(7);
  const GqaParams<double> params = random_gqa(gqa_config(8, 4, 4), rng);  // MHA: K is Q's width
  const Matrix<double> x = random_matrix(3, 8, rng);
  Matrix<double> full;
  GqaCache<double> pass;
  gqa_forward(full, pass, x, params);
  KvCache<double> kv;
  Matrix<double> row;
  for (Index t = 0; t < 3; ++t)
    gqa_decode_step(row, kv, Matrix<double>(x.row(t)), t, params);
  std::vector<std::string> names;
  std::vector<Index> rows;
  visit_tensors(kv, [&](const std::string& name, const Matrix<double>& tensor) {
    names.push_back(name);
    rows.push_back(tensor.rows());
    CHECK(max_abs_difference(tensor, name == "keys" ? pass.k : pass.v) <= 1e-12);
    CHECK(max_abs_difference(tensor, pass.q) > 1e-3);  // same shape as the queries, not them
  });
  CHECK(names == std::vector<std::string>{"keys", "values"});
  CHECK(rows == std::vector<Index>{3, 3});  // one row per decoded token
}

TEST_CASE("a KV cache of another attention's width is refused", "[engine][decoder][kvcache]") {
  const GqaParams<double> params(gqa_config(8, 4, 2));
  KvCache<double> kv;
  kv.keys = Matrix<double>::Zero(2, 8);
  kv.values = Matrix<double>::Zero(2, 8);
  Matrix<double> out;
  REQUIRE_THROWS_WITH(
      gqa_decode_step(out, kv, Matrix<double>(Matrix<double>::Zero(1, 8)), 2, params),
      "kv cache keys (2, 8) and values (2, 8) do not fit this attention: expected "
      "(t, 4) each");
  kv = KvCache<double>{};
  REQUIRE_THROWS_WITH(
      gqa_decode_step(out, kv, Matrix<double>(Matrix<double>::Zero(2, 8)), 0, params),
      "decode token has shape (2, 8), expected (1, 8)");
}

TEST_CASE("a KV cache takes 2 × layers × G × D × T × bytes", "[engine][decoder][kvcache]") {
  // Llama 2 70B's shape: 80 layers, 8 KV heads of 128, a 4096-token context in fp16.
  CHECK(kv_cache_bytes(80, 8, 128, 4096, 2) == 1'342'177'280);
  // Multi-head (64 KV heads) would hold 8 times as much.
  CHECK(kv_cache_bytes(80, 64, 128, 4096, 2) == 8 * kv_cache_bytes(80, 8, 128, 4096, 2));
  CHECK(kv_cache_bytes(1, 1, 1, 0, 4) == 0);
  REQUIRE_THROWS_AS(kv_cache_bytes(-1, 1, 1, 1, 1), EngineError);
}

// --- tiled attention ---------------------------------------------------------------------------

TEST_CASE("tiled attention with an online softmax equals attention_forward",
          "[engine][decoder][tiled]") {
  Rng rng(41);
  const Index steps = 10;
  const Matrix<double> q = random_matrix(steps, 4, rng, 2.0);
  const Matrix<double> k = random_matrix(steps, 4, rng, 2.0);
  const Matrix<double> v = random_matrix(steps, 3, rng);
  for (const bool causal : {false, true}) {
    AttentionOptions options;
    options.causal = causal;
    Matrix<double> expected(steps, 3), probs;
    attention_forward<double>(expected, probs, q, k, v, options);
    for (const Index tile : {Index{1}, Index{3}, Index{4}, Index{10}, Index{16}}) {
      INFO("causal " << causal << ", tile " << tile);
      Matrix<double> out(steps, 3);
      const TiledAttentionStats stats = attention_tiled_forward<double>(out, q, k, v, tile, causal);
      CHECK(max_abs_difference(out, expected) <= 1e-12);
      CHECK(stats.score_buffer <= tile * tile);
      CHECK(stats.score_buffer == std::min(tile, steps) * std::min(tile, steps));
      const Index blocks = (steps + tile - 1) / tile;
      // causal walks only the key tiles at or before each query tile: n(n + 1)/2 of n²
      CHECK(stats.tiles == (causal ? blocks * (blocks + 1) / 2 : blocks * blocks));
    }
  }
}

TEST_CASE("tiled attention refuses a tile of zero and mismatched shapes",
          "[engine][decoder][tiled]") {
  const Matrix<double> q = Matrix<double>::Zero(4, 2);
  Matrix<double> out(4, 2);
  REQUIRE_THROWS_WITH(attention_tiled_forward<double>(out, q, q, q, 0, false),
                      "attention tile must be positive, got 0");
  REQUIRE_THROWS_AS(
      attention_tiled_forward<double>(out, q, Matrix<double>::Zero(3, 2), q, 2, false),
      EngineError);
}

}  // namespace test_decoder
