// A stack of blocks: per-layer statistics, gradients through depth, and bit-identical reruns.
#include <catch2/catch.hpp>

#include "engine/stack.hpp"
#include "test_support.hpp"

namespace test_stack {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

StackConfig small_stack(NormPlacement norm, Index layers, bool final_norm) {
  StackConfig config;
  config.layer.d_model = 8;
  config.layer.nhead = 2;
  config.layer.dim_feedforward = 16;
  config.layer.norm = norm;
  config.num_layers = layers;
  config.final_norm = final_norm;
  return config;
}

}  // namespace

TEST_CASE("a stack traces each layer's output statistics", "[engine][stack]") {
  const StackConfig config = small_stack(NormPlacement::post, 4, false);
  StackParams<double> params(config);
  Rng rng(1);
  init_xavier(params, rng);
  const Matrix<double> x = random_matrix(6, 8, rng, 4.0);
  Matrix<double> y;
  StackCache<double> cache;
  stack_forward(y, cache, x, params, config);
  const std::vector<ActivationStats> stats = layer_output_stats(cache);
  REQUIRE(stats.size() == 4);
  for (const ActivationStats& layer : stats) {
    CHECK(layer.mean == Approx(0.0).margin(1e-12));  // Post-LN: every block ends normalised
    CHECK(layer.variance == Approx(1.0).epsilon(1e-3));
  }
  CHECK(stats.back().norm == Approx(y.norm()));
}

TEST_CASE("the same seed builds a bit-identical stack and output", "[engine][stack]") {
  const StackConfig config = small_stack(NormPlacement::pre, 3, true);
  const auto run = [&config](std::uint64_t seed) {
    StackParams<double> params(config);
    Rng rng(seed);
    init_xavier(params, rng);
    const Matrix<double> x = random_matrix(5, 8, rng);
    Matrix<double> y;
    StackCache<double> cache;
    stack_forward(y, cache, x, params, config);
    return y;
  };
  CHECK(run(7) == run(7));
  CHECK(run(7) != run(8));
}

TEST_CASE("stack gradients match central differences through every layer",
          "[engine][stack][gradcheck]") {
  for (const bool final_norm : {false, true}) {
    const StackConfig config = small_stack(NormPlacement::pre, 3, final_norm);
    StackParams<double> params(config);
    Rng rng(2);
    init_xavier(params, rng);
    Matrix<double> x = random_matrix(4, 8, rng);
    const Matrix<double> dout = random_matrix(4, 8, rng);
    Matrix<double> y, dx;
    StackCache<double> cache;
    const auto loss = [&] {
      stack_forward(y, cache, x, params, config);
      return weighted_sum(y, dout);
    };
    loss();
    StackGrads<double> grads;
    stack_backward(dx, grads, dout, x, params, cache, config);
    CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
    CHECK(grads.layer_input_grads.front() == dx);
    CHECK_CLOSE(grads.params.layers[0].feedforward.linear2.weight,
                numeric_gradient(params.layers[0].feedforward.linear2.weight, loss),
                kGradTolerance);
    CHECK_CLOSE(grads.params.layers[2].self_attn.in_proj.weight,
                numeric_gradient(params.layers[2].self_attn.in_proj.weight, loss), kGradTolerance);
    if (final_norm) {
      CHECK_CLOSE(grads.params.final_norm.weight, numeric_gradient(params.final_norm.weight, loss),
                  kGradTolerance);
    }
  }
}

TEST_CASE("a stack needs at least one layer", "[engine][stack]") {
  REQUIRE_THROWS_WITH(StackParams<double>(small_stack(NormPlacement::post, 0, false)),
                      "a stack needs at least one layer, got 0");
}

}  // namespace test_stack
