// A stack of blocks: per-layer statistics, gradients through depth, bit-identical reruns, and one
// SGD step over all of its parameters.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "engine/fault.hpp"
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

// Every parameter of a stack with its PyTorch name (nn.TransformerEncoder's: layers.N.…, norm.…),
// copied, so two states can be compared tensor by tensor.
std::vector<std::pair<std::string, Matrix<double>>> named_tensors(const StackParams<double>& p) {
  std::vector<std::pair<std::string, Matrix<double>>> tensors;
  for (std::size_t l = 0; l < p.layers.size(); ++l) {
    visit_params(p.layers[l], "layers." + std::to_string(l) + ".",
                 [&](const std::string& name, const auto& tensor) {
                   tensors.emplace_back(name, Matrix<double>(tensor));
                 });
  }
  if (p.final_norm.affine()) {
    tensors.emplace_back("norm.weight", Matrix<double>(p.final_norm.weight));
    tensors.emplace_back("norm.bias", Matrix<double>(p.final_norm.bias));
  }
  return tensors;
}

// A Pre-LN stack with a final norm, its gradients under Σ G∘output, and the input.
struct SteppedStack {
  StackConfig config = small_stack(NormPlacement::pre, 2, true);
  StackParams<double> params{config};
  StackGrads<double> grads;
};

SteppedStack stack_with_gradients(std::uint64_t seed) {
  SteppedStack s;
  Rng rng(seed);
  init_xavier(s.params, rng);
  const Matrix<double> x = random_matrix(4, 8, rng);
  const Matrix<double> dout = random_matrix(4, 8, rng);
  Matrix<double> y, dx;
  StackCache<double> cache;
  stack_forward(y, cache, x, s.params, s.config);
  stack_backward(dx, s.grads, dout, x, s.params, cache, s.config);
  return s;
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

TEST_CASE("an SGD step over a stack moves every parameter, the final norm's too, by -lr·grad",
          "[engine][stack][optim]") {
  SteppedStack s = stack_with_gradients(3);
  const auto before = named_tensors(s.params);
  const auto gradients = named_tensors(s.grads.params);
  sgd_step(s.params, s.grads, 0.25);
  const auto after = named_tensors(s.params);
  // Per block a weight and a bias for in_proj, out_proj, linear1, linear2, norm1 and norm2.
  REQUIRE(before.size() == 2 * 12 + 2);
  REQUIRE(gradients.size() == before.size());
  REQUIRE(after.size() == before.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    INFO(before[i].first);
    CHECK(after[i].first == before[i].first);
    CHECK(gradients[i].first == before[i].first);
    CHECK(after[i].second == Matrix<double>(before[i].second - 0.25 * gradients[i].second));
  }
}

TEST_CASE("a stack's SGD step under optimizer-rescales-weights keeps each weight row's length",
          "[engine][stack][optim][fault]") {
  SteppedStack s = stack_with_gradients(4);
  const Matrix<double> linear2 = s.params.layers[1].feedforward.linear2.weight;
  const Vector<double> bias = s.params.layers[1].feedforward.linear2.bias;
  {
    const FaultScope scope(Fault::optimizer_rescales_weights);
    sgd_step(s.params, s.grads, 0.25);
  }
  const Matrix<double>& stepped = s.params.layers[1].feedforward.linear2.weight;
  for (Index row = 0; row < linear2.rows(); ++row) {
    INFO("row " << row);
    CHECK(stepped.row(row).norm() == Approx(linear2.row(row).norm()).epsilon(1e-12));
  }
  CHECK(stepped != linear2);
  // Biases step as usual: the fault rescales weights, not biases.
  CHECK(s.params.layers[1].feedforward.linear2.bias ==
        Vector<double>(bias - 0.25 * s.grads.params.layers[1].feedforward.linear2.bias));
}

TEST_CASE(
    "clip_grad_norm scales every gradient by max_norm over their joint norm, and only "
    "above it",
    "[engine][stack][optim]") {
  SteppedStack s = stack_with_gradients(6);
  const auto before = named_tensors(s.grads.params);
  double squares = 0.0;
  for (const auto& [name, tensor] : before)
    squares += tensor.squaredNorm();
  const double total = std::sqrt(squares);
  REQUIRE(total > 0.5);
  // Above the norm: returned unclipped, every tensor scaled by one factor.
  CHECK(clip_grad_norm(s.grads, 0.5) == Approx(total).epsilon(1e-12));
  const auto clipped = named_tensors(s.grads.params);
  double clipped_squares = 0.0;
  for (std::size_t i = 0; i < before.size(); ++i) {
    INFO(before[i].first);
    CHECK_CLOSE(clipped[i].second, Matrix<double>(before[i].second * (0.5 / total)), 1e-15);
    clipped_squares += clipped[i].second.squaredNorm();
  }
  CHECK(std::sqrt(clipped_squares) == Approx(0.5).epsilon(1e-12));
  // At or under the norm: untouched.
  CHECK(clip_grad_norm(s.grads, 10.0) == Approx(0.5).epsilon(1e-12));
  CHECK(named_tensors(s.grads.params) == clipped);
  REQUIRE_THROWS_WITH(clip_grad_norm(s.grads, 0.0), "clip_grad_norm: max_norm must be positive");
}

TEST_CASE("a stack's SGD step refuses gradients of another depth before moving anything",
          "[engine][stack][optim]") {
  SteppedStack s = stack_with_gradients(5);
  s.grads.params.layers.pop_back();
  const auto before = named_tensors(s.params);
  REQUIRE_THROWS_WITH(sgd_step(s.params, s.grads, 0.25),
                      "sgd_step: gradients for 1 layer, but the stack has 2 layers");
  CHECK(named_tensors(s.params) == before);
}

}  // namespace test_stack
