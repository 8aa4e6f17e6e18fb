// Cross-attention (nn.MultiheadAttention(query=x, key=memory, value=memory)): T queries over S
// memory positions, its gradients against central differences, that it is self-attention when
// the memory is x itself, its refusals, its multiply-adds, and the cross-attention-self-keys
// fault. PyTorch's own numbers are in the mha_cross fixture.
#include <catch2/catch.hpp>
#include <string>

#include "engine/attention.hpp"
#include "engine/fault.hpp"
#include "engine/macs.hpp"
#include "test_support.hpp"

namespace test_cross_attention {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

MhaParams<double> random_module(Index embed, Index heads, bool bias, Rng& rng) {
  MhaParams<double> params(embed, heads, bias);
  params.in_proj.weight =
      random_matrix(params.in_proj.weight.rows(), params.in_proj.weight.cols(), rng, 0.5);
  params.out_proj.weight =
      random_matrix(params.out_proj.weight.rows(), params.out_proj.weight.cols(), rng, 0.5);
  if (bias) {
    params.in_proj.bias = random_vector(params.in_proj.bias.size(), rng, 0.1);
    params.out_proj.bias = random_vector(params.out_proj.bias.size(), rng, 0.1);
  }
  return params;
}

struct Problem {
  MhaParams<double> params;
  Matrix<double> x;       // the decoder's 3 tokens
  Matrix<double> memory;  // the encoder's 5
};

Problem problem(Index heads = 2, bool bias = true) {
  Rng rng(11);
  Problem p{random_module(8, heads, bias, rng), random_matrix(3, 8, rng), random_matrix(5, 8, rng)};
  return p;
}

Matrix<double> cross(const Problem& p, CrossAttentionCache<double>& cache) {
  Matrix<double> out;
  cross_attention_forward(out, cache, p.x, p.memory, p.params, {});
  return out;
}

}  // namespace

TEST_CASE("each of T queries weighs all S memory positions, and the output has one row per query",
          "[engine][attention][cross]") {
  const Problem p = problem();
  CrossAttentionCache<double> cache;
  const Matrix<double> out = cross(p, cache);
  CHECK(out.rows() == 3);
  CHECK(out.cols() == 8);
  REQUIRE(cache.probs.size() == 2);
  for (const Matrix<double>& weights : cache.probs) {
    CHECK(weights.rows() == 3);
    CHECK(weights.cols() == 5);
    CHECK((weights.rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-14);
    CHECK(weights.minCoeff() > 0.0);
  }
}

TEST_CASE("with the memory equal to x, cross-attention is self-attention",
          "[engine][attention][cross]") {
  Problem p = problem();
  p.memory = p.x;
  CrossAttentionCache<double> cache;
  const Matrix<double> crossed = cross(p, cache);
  Matrix<double> self;
  MhaCache<double> self_cache;
  mha_forward(self, self_cache, p.x, p.params, {});
  CHECK((crossed - self).cwiseAbs().maxCoeff() < 1e-14);
}

TEST_CASE("the output moves with the memory and with the queries' sequence",
          "[engine][attention][cross]") {
  Problem p = problem();
  CrossAttentionCache<double> cache;
  const Matrix<double> before = cross(p, cache);
  Problem other_memory = p;
  other_memory.memory(4, 0) += 1.0;  // the last encoder position only
  const Matrix<double> after = cross(other_memory, cache);
  // every decoder position reads the last memory position, so every output row moves
  CHECK((after - before).rowwise().norm().minCoeff() > 1e-6);
}

TEST_CASE("cross-attention gradients match central differences",
          "[engine][attention][cross][gradcheck]") {
  struct Case {
    const char* name;
    Index heads;
    bool bias;
    Fault fault;
  };
  const Case cases[] = {
      {"2 heads with bias", 2, true, Fault::none},
      {"1 head, no bias", 1, false, Fault::none},
      {"4 heads sharing one projection", 4, true, Fault::heads_share_projection},
      {"keys and values from x (the fault)", 2, true, Fault::cross_attention_self_keys}};
  for (const Case& c : cases) {
    INFO(c.name);
    const FaultScope scope(c.fault);
    Problem p = problem(c.heads, c.bias);
    Rng rng(12);
    const Matrix<double> dout = random_matrix(3, 8, rng);
    Matrix<double> y, dx, dmemory;
    CrossAttentionCache<double> cache;
    const auto loss = [&] {
      cross_attention_forward(y, cache, p.x, p.memory, p.params, {});
      return weighted_sum(y, dout);
    };
    loss();
    MhaParams<double> grads;
    cross_attention_backward(dx, dmemory, grads, dout, p.x, p.memory, p.params, cache, {});
    CHECK_CLOSE(dx, numeric_gradient(p.x, loss), kGradTolerance);
    CHECK_CLOSE(dmemory, numeric_gradient(p.memory, loss), kGradTolerance);
    CHECK_CLOSE(grads.in_proj.weight, numeric_gradient(p.params.in_proj.weight, loss),
                kGradTolerance);
    CHECK_CLOSE(grads.out_proj.weight, numeric_gradient(p.params.out_proj.weight, loss),
                kGradTolerance);
    if (c.bias) {
      CHECK_CLOSE(grads.in_proj.bias, numeric_gradient(p.params.in_proj.bias, loss),
                  kGradTolerance);
      CHECK_CLOSE(grads.out_proj.bias, numeric_gradient(p.params.out_proj.bias, loss),
                  kGradTolerance);
    }
  }
}

TEST_CASE("cross-attention counts T x d_k x S score multiply-adds per head",
          "[engine][attention][cross][macs]") {
  const Problem p = problem(2);
  CrossAttentionCache<double> cache;
  const MacTally tally;
  cross(p, cache);
  CHECK(tally.count().scores == 2 * 3 * 4 * 5);
  CHECK(tally.count().weighted_values == 2 * 3 * 5 * 4);
  CHECK(tally.count().linear == 3 * 8 * 8 + 5 * 8 * 16 + 3 * 8 * 8);  // W_q on x, W_k|W_v, W_o
}

TEST_CASE("cross-attention refuses a causal mask, a rotation, an empty memory and a wrong width",
          "[engine][attention][cross]") {
  Problem p = problem();
  CrossAttentionCache<double> cache;
  Matrix<double> out;
  AttentionOptions causal;
  causal.causal = true;
  CHECK_THROWS_WITH(cross_attention_forward(out, cache, p.x, p.memory, p.params, causal),
                    Catch::Contains("no causal mask"));
  AttentionOptions rope;
  rope.rope = RopeConfig{RopeConvention::half, 10000.0};
  CHECK_THROWS_AS(cross_attention_forward(out, cache, p.x, p.memory, p.params, rope), EngineError);
  const Matrix<double> empty(0, 8);
  CHECK_THROWS_WITH(cross_attention_forward(out, cache, p.x, empty, p.params, {}),
                    Catch::Contains("memory has no rows"));
  const Matrix<double> narrow = Matrix<double>::Zero(5, 6);
  CHECK_THROWS_WITH(cross_attention_forward(out, cache, p.x, narrow, p.params, {}),
                    Catch::Contains("cross-attention memory has shape (5, 6), expected (5, 8)"));
}

TEST_CASE("cross-attention-self-keys: the decoder attends over itself and ignores the memory",
          "[engine][attention][cross][faults]") {
  const FaultScope scope(Fault::cross_attention_self_keys);
  Problem p = problem();
  CrossAttentionCache<double> cache;
  const Matrix<double> before = cross(p, cache);
  CHECK(cache.probs[0].cols() == 3);  // T keys: its own tokens
  p.memory.setRandom();
  CHECK(cross(p, cache) == before);
  CHECK(scope.reached().test(static_cast<std::size_t>(Op::cross_attention)));
}

}  // namespace test_cross_attention
