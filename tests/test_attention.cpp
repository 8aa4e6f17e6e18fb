// Scaled dot-product and multi-head attention: softmax rows, masking, order-blindness without
// positions, per-head views, and gradients in every configuration.
#include <catch2/catch.hpp>

#include "engine/attention.hpp"
#include "engine/fault.hpp"
#include "gradcheck_support.hpp"
#include "test_support.hpp"

namespace test_attention {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

MhaParams<double> random_mha(Index embed, Index heads, bool bias, Rng& rng) {
  MhaParams<double> params(embed, heads, bias);
  params.in_proj.weight = random_matrix(3 * embed, embed, rng, 0.5);
  params.out_proj.weight = random_matrix(embed, embed, rng, 0.5);
  if (bias) {
    params.in_proj.bias = random_vector(3 * embed, rng, 0.1);
    params.out_proj.bias = random_vector(embed, rng, 0.1);
  }
  return params;
}

}  // namespace

TEST_CASE("attention weights are a softmax: each row is positive and sums to one",
          "[engine][attention]") {
  Rng rng(1);
  const MhaParams<double> params = random_mha(8, 2, true, rng);
  const Matrix<double> x = random_matrix(5, 8, rng);
  Matrix<double> y;
  MhaCache<double> cache;
  mha_forward(y, cache, x, params, AttentionOptions{});
  REQUIRE(cache.probs.size() == 2);
  for (const auto& probs : cache.probs) {
    CHECK((probs.rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-14);
    CHECK(probs.minCoeff() > 0.0);
  }
}

TEST_CASE("a causal mask gives future positions exactly zero weight", "[engine][attention]") {
  Rng rng(2);
  const MhaParams<double> params = random_mha(4, 1, true, rng);
  const Matrix<double> x = random_matrix(4, 4, rng);
  AttentionOptions options;
  options.causal = true;
  Matrix<double> y;
  MhaCache<double> cache;
  mha_forward(y, cache, x, params, options);
  const Matrix<double>& probs = cache.probs[0];
  CHECK(probs(0, 0) == 1.0);
  for (Index row = 0; row < 4; ++row) {
    for (Index col = row + 1; col < 4; ++col)
      CHECK(probs(row, col) == 0.0);
  }
}

TEST_CASE("without positions, reordering the tokens only reorders the attention",
          "[engine][attention][order]") {
  // The lesson's "cat bit dog" and "dog bit cat": same embeddings, same weights.
  Rng rng(3);
  const MhaParams<double> params = random_mha(8, 2, true, rng);
  const Matrix<double> cat = random_matrix(1, 8, rng), bit = random_matrix(1, 8, rng),
                       dog = random_matrix(1, 8, rng);
  Matrix<double> first(3, 8), second(3, 8);
  first << cat, bit, dog;
  second << dog, bit, cat;
  Matrix<double> y1, y2;
  MhaCache<double> c1, c2;
  mha_forward(y1, c1, first, params, AttentionOptions{});
  mha_forward(y2, c2, second, params, AttentionOptions{});
  for (std::size_t h = 0; h < 2; ++h) {
    // "bit" (row 1 in both) weighs cat and dog identically in both sentences.
    CHECK(std::abs(c1.probs[h](1, 0) - c2.probs[h](1, 2)) <= 1e-12);  // bit → cat
    CHECK(std::abs(c1.probs[h](1, 2) - c2.probs[h](1, 0)) <= 1e-12);  // bit → dog
  }
  // Each output row is the same vector, only moved.
  CHECK((y1.row(0) - y2.row(2)).cwiseAbs().maxCoeff() <= 1e-12);
  CHECK((y1.row(1) - y2.row(1)).cwiseAbs().maxCoeff() <= 1e-12);
  CHECK((y1.row(2) - y2.row(0)).cwiseAbs().maxCoeff() <= 1e-12);

  SECTION("adding sinusoidal positions before attention tells the sentences apart") {
    const Matrix<double> positions = sinusoidal_encoding<double>(sequential_positions(3), 8);
    mha_forward(y1, c1, Matrix<double>(first + positions), params, AttentionOptions{});
    mha_forward(y2, c2, Matrix<double>(second + positions), params, AttentionOptions{});
    CHECK(std::abs(c1.probs[0](1, 0) - c2.probs[0](1, 2)) > 1e-6);
  }
  SECTION("rotating Q and K by position (RoPE) tells the sentences apart") {
    AttentionOptions rope;
    rope.rope = RopeConfig{RopeConvention::half, 10000.0};
    mha_forward(y1, c1, first, params, rope);
    mha_forward(y2, c2, second, params, rope);
    CHECK(std::abs(c1.probs[0](1, 0) - c2.probs[0](1, 2)) > 1e-6);
  }
}

TEST_CASE("each head's projections are views of the packed in-projection", "[engine][attention]") {
  Rng rng(4);
  const MhaParams<double> params = random_mha(8, 4, false, rng);
  CHECK(params.head_dim() == 2);
  CHECK(params.query_weight(1) == params.in_proj.weight.middleRows(2, 2));
  CHECK(params.key_weight(0) == params.in_proj.weight.middleRows(8, 2));
  CHECK(params.value_weight(3) == params.in_proj.weight.middleRows(22, 2));
  CHECK(params.query_weight(2).data() == params.in_proj.weight.row(4).data());  // no copy
}

TEST_CASE("a head count that does not divide d_model is refused", "[engine][attention]") {
  REQUIRE_THROWS_WITH((MhaParams<double>(512, 7, true)),
                      "embed_dim 512 is not divisible by num_heads 7: each head must get an equal "
                      "share (head_dim = embed_dim / num_heads)");
  REQUIRE_THROWS_AS((MhaParams<double>(8, 0, true)), EngineError);
}

TEST_CASE("dropping the 1/√d_k scale sharpens the softmax", "[engine][attention]") {
  Rng rng(5);
  const MhaParams<double> params = random_mha(16, 1, false, rng);
  const Matrix<double> x = random_matrix(6, 16, rng, 2.0);
  Matrix<double> y;
  MhaCache<double> scaled, unscaled;
  mha_forward(y, scaled, x, params, AttentionOptions{});
  AttentionOptions no_scale;
  no_scale.scaled = false;
  mha_forward(y, unscaled, x, params, no_scale);
  CHECK(unscaled.probs[0].rowwise().maxCoeff().mean() >
        scaled.probs[0].rowwise().maxCoeff().mean());
}

TEST_CASE("scaled dot-product attention gradients match central differences",
          "[engine][attention][gradcheck]") {
  for (const bool causal : {false, true}) {
    for (const bool unscaled : {false, true}) {
      CAPTURE(causal, unscaled);
      Rng rng(8);
      Matrix<double> query = random_matrix(5, 4, rng), key = random_matrix(5, 4, rng);
      Matrix<double> value = random_matrix(5, 3, rng);
      AttentionOptions options;
      options.causal = causal;
      options.scaled = !unscaled;
      check_attention_gradients(query, key, value, random_matrix(5, 3, rng), options);
    }
  }
}

TEST_CASE("multi-head attention gradients match central differences",
          "[engine][attention][gradcheck]") {
  struct Case {
    const char* name;
    Index heads;
    bool bias;
    AttentionOptions options;
  };
  AttentionOptions causal, unscaled, rope_half, rope_interleaved, code_on_qk;
  causal.causal = true;
  code_on_qk.sinusoidal_qk = true;
  code_on_qk.positions = {3, 1, 4, 1, 5};
  unscaled.scaled = false;
  rope_half.rope = RopeConfig{RopeConvention::half, 10000.0};
  rope_interleaved.rope = RopeConfig{RopeConvention::interleaved, 100.0};
  rope_interleaved.positions = {3, 1, 4, 1, 5};
  rope_interleaved.causal = true;
  const Case cases[] = {
      {"2 heads with bias", 2, true, {}},
      {"1 head, no bias", 1, false, {}},
      {"4 heads, causal", 4, true, causal},
      {"unscaled", 2, true, unscaled},
      {"RoPE rotate-half", 2, true, rope_half},
      {"RoPE interleaved, causal, explicit positions", 2, false, rope_interleaved},
      {"a sinusoidal code added to Q and K, explicit positions", 2, true, code_on_qk}};
  for (const Case& c : cases) {
    INFO(c.name);
    Rng rng(6);
    MhaParams<double> params = random_mha(8, c.heads, c.bias, rng);
    Matrix<double> x = random_matrix(5, 8, rng);
    const Matrix<double> dout = random_matrix(5, 8, rng);
    check_mha_gradients(params, x, dout, c.options);
  }
}

TEST_CASE("a sinusoidal code on Q and K is added to every head's q and k and leaves v alone",
          "[engine][attention][positional]") {
  Rng rng(8);
  const MhaParams<double> params = random_mha(8, 2, true, rng);
  const Matrix<double> x = random_matrix(5, 8, rng);
  AttentionOptions options;
  options.sinusoidal_qk = true;
  Matrix<double> y, y_plain;
  MhaCache<double> cache, plain;
  mha_forward(y, cache, x, params, options);
  mha_forward(y_plain, plain, x, params, AttentionOptions{});
  const Matrix<double> code = sinusoidal_encoding<double>(sequential_positions(5), 4);
  for (Index block = 0; block < 4; ++block) {  // q of heads 0 and 1, then k of heads 0 and 1
    CHECK((cache.qkv.middleCols(4 * block, 4) - plain.qkv.middleCols(4 * block, 4) - code)
              .cwiseAbs()
              .maxCoeff() <= 1e-15);
  }
  CHECK(cache.qkv.rightCols(8) == plain.qkv.rightCols(8));
  CHECK((y - y_plain).cwiseAbs().maxCoeff() > 1e-3);

  // positions-not-added is the fault of this addition too: without it the module is plain.
  {
    FaultScope scope(Fault::positions_not_added);
    mha_forward(y, cache, x, params, options);
    CHECK(y == y_plain);
  }
  options.rope = RopeConfig{RopeConvention::half, 10000.0};
  CHECK_THROWS_WITH(mha_forward(y, cache, x, params, options),
                    Catch::Contains("RoPE or a sinusoidal code on Q and K, not both"));
  Matrix<double> wrong = Matrix<double>::Zero(5, 6);
  CHECK_THROWS_WITH(add_positions_to_heads(wrong, sequential_positions(5), 4),
                    Catch::Contains("do not split into heads of width 4"));
}

}  // namespace test_attention
