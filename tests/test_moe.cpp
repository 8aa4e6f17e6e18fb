// The mixture-of-experts block (Mixtral's routing, Switch's capacity and load-balancing loss):
// which experts a token runs and with what weights, the capacity and the slots it drops, the
// parameters and multiply-adds a token uses, gradients against central differences, the three
// faults and the refusals. PyTorch's numbers are in the moe_* fixtures
// (scripts/torch_reference_moe.py).
#include <catch2/catch.hpp>
#include <numeric>

#include "engine/fault.hpp"
#include "engine/macs.hpp"
#include "engine/moe.hpp"
#include "test_support.hpp"

namespace test_moe {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

MoeConfig config_of(Index experts, Index per_token, double capacity_factor = 0.0) {
  MoeConfig config;
  config.hidden_size = 6;
  config.intermediate_size = 5;
  config.num_local_experts = experts;
  config.num_experts_per_tok = per_token;
  config.capacity_factor = capacity_factor;
  return config;
}

MoeParams<double> random_moe(const MoeConfig& config, Rng& rng) {
  MoeParams<double> params(config);
  visit_params(params, "", [&](const std::string&, Matrix<double>& tensor) {
    tensor = random_matrix(tensor.rows(), tensor.cols(), rng, 0.5);
  });
  return params;
}

struct Run {
  Matrix<double> out;
  MoeCache<double> cache;
};

Run forward(const MoeParams<double>& params, const Matrix<double>& x, const MoeConfig& config) {
  Run run;
  moe_forward(run.out, run.cache, x, params, config);
  return run;
}

// The block's output and the load-balancing loss against central differences.
void check_moe_gradients(const MoeConfig& config, std::uint64_t seed) {
  Rng rng(seed);
  MoeParams<double> params = random_moe(config, rng);
  Matrix<double> x = random_matrix(9, config.hidden_size, rng);
  const Matrix<double> dout = random_matrix(9, config.hidden_size, rng);
  MoeCache<double> cache;
  Matrix<double> y;
  const auto loss = [&] {
    moe_forward(y, cache, x, params, config);
    return weighted_sum(y, dout);
  };
  loss();
  const MoeCache<double> routed = cache;
  Matrix<double> dx;
  MoeParams<double> grads;
  moe_backward(dx, grads, dout, x, params, config, cache);
  CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
  check_param_gradients(params, grads, loss);

  const auto aux = [&] {
    moe_forward(y, cache, x, params, config);
    return moe_load_balancing_loss(cache, config);
  };
  aux();
  Matrix<double> aux_dx = Matrix<double>::Zero(x.rows(), x.cols());
  MoeParams<double> aux_grads(config);
  moe_load_balancing_backward(aux_dx, aux_grads, x, params, config, cache);
  CHECK_CLOSE(aux_dx, numeric_gradient(x, aux), kGradTolerance);
  CHECK_CLOSE(aux_grads.gate, numeric_gradient(params.gate, aux), kGradTolerance);
  // the differences moved no choice: the check measured the routing it began with
  aux();
  CHECK(cache.chosen == routed.chosen);
}

}  // namespace

TEST_CASE("a token runs its k most probable experts, mixed by their probabilities renormalised",
          "[engine][moe]") {
  Rng rng(71);
  const MoeConfig config = config_of(5, 2);
  const MoeParams<double> params = random_moe(config, rng);
  const Matrix<double> x = random_matrix(6, 6, rng);
  const Run run = forward(params, x, config);
  for (Index t = 0; t < x.rows(); ++t) {
    INFO("token " << t);
    const auto& chosen = run.cache.chosen[static_cast<std::size_t>(t)];
    REQUIRE(chosen.size() == 2);
    // the two largest probabilities of the softmax over all five logits
    std::vector<double> probs(run.cache.probs.row(t).data(), run.cache.probs.row(t).data() + 5);
    std::vector<double> sorted = probs;
    std::sort(sorted.rbegin(), sorted.rend());
    CHECK(probs[static_cast<std::size_t>(chosen[0])] == sorted[0]);
    CHECK(probs[static_cast<std::size_t>(chosen[1])] == sorted[1]);
    CHECK(run.cache.weights.row(t).sum() == Approx(1.0).epsilon(1e-14));
    CHECK(run.cache.weights(t, 0) / run.cache.weights(t, 1) ==
          Approx(sorted[0] / sorted[1]).epsilon(1e-12));
    // the output is the weighted sum of the two experts' SwiGLU outputs
    Matrix<double> expected = Matrix<double>::Zero(1, 6);
    for (std::size_t r = 0; r < 2; ++r) {
      Matrix<double> y;
      SwigluCache<double> swiglu;
      swiglu_forward(y, swiglu, Matrix<double>(x.row(t)),
                     params.experts[static_cast<std::size_t>(chosen[r])]);
      expected += run.cache.weights(t, static_cast<Index>(r)) * y;
    }
    CHECK_CLOSE(Matrix<double>(run.out.row(t)), expected, 1e-13);
  }
}

TEST_CASE("norm_topk_prob false mixes by the probabilities as they are", "[engine][moe]") {
  Rng rng(72);
  MoeConfig config = config_of(4, 1);
  config.norm_topk_prob = false;
  const MoeParams<double> params = random_moe(config, rng);
  const Run run = forward(params, random_matrix(5, 6, rng), config);
  for (Index t = 0; t < 5; ++t) {
    CHECK(run.cache.weights(t, 0) == run.cache.probs.row(t).maxCoeff());
    CHECK(run.cache.weights(t, 0) < 1.0);
  }
}

TEST_CASE("an expert's capacity is ⌈k·T / N · c⌉ slots, first choices filled before second ones",
          "[engine][moe]") {
  CHECK(moe_capacity(config_of(4, 1, 1.0), 8) == 2);
  CHECK(moe_capacity(config_of(4, 1, 1.25), 8) == 3);
  CHECK(moe_capacity(config_of(4, 2, 1.0), 8) == 4);
  CHECK(moe_capacity(config_of(11, 1, 1.1), 10) == 1);  // 10 × 1.1 / 11 is 1 in binary too
  CHECK(moe_capacity(config_of(4, 2), 8) == 16);        // no factor: no limit

  Rng rng(73);
  const MoeConfig config = config_of(4, 2, 0.5);
  const MoeParams<double> params = random_moe(config, rng);
  const Matrix<double> x = random_matrix(8, 6, rng);
  const Run run = forward(params, x, config);
  REQUIRE(run.cache.capacity == 2);
  std::vector<Index> filled(4, 0);
  for (const MoeDispatch& slot : run.cache.dispatched)
    ++filled[static_cast<std::size_t>(slot.expert)];
  for (const Index count : filled)
    CHECK(count <= 2);
  CHECK(run.cache.dispatched.size() + run.cache.dropped.size() == 16);
  REQUIRE_FALSE(run.cache.dropped.empty());
  // every dropped slot found its expert full of slots filled before it
  for (const MoeDispatch& drop : run.cache.dropped) {
    CHECK(filled[static_cast<std::size_t>(drop.expert)] == 2);
    for (const MoeDispatch& slot : run.cache.dispatched) {
      if (slot.expert != drop.expert) continue;
      CHECK((slot.rank < drop.rank || (slot.rank == drop.rank && slot.token < drop.token)));
    }
  }
  // a token whose every slot was dropped leaves the block with nothing: the residual carries it
  const Run unlimited = forward(params, x, config_of(4, 2));
  for (Index t = 0; t < 8; ++t) {
    const auto dropped = std::count_if(run.cache.dropped.begin(), run.cache.dropped.end(),
                                       [&](const MoeDispatch& slot) { return slot.token == t; });
    if (dropped == 2) CHECK(run.out.row(t).norm() == 0.0);
    if (dropped == 0)
      CHECK_CLOSE(Matrix<double>(run.out.row(t)), Matrix<double>(unlimited.out.row(t)), 0.0);
  }
}

TEST_CASE("a token uses the router's and its k experts' parameters of the N it holds",
          "[engine][moe]") {
  Rng rng(74);
  const MoeConfig config = config_of(8, 2);
  const MoeParams<double> params = random_moe(config, rng);
  const Matrix<double> x = random_matrix(4, 6, rng);
  MacTally tally;
  const Run run = forward(params, x, config);
  const MoeParamUse use = moe_param_use(params, run.cache);
  const std::int64_t per_expert = 3 * 6 * 5;
  CHECK(use.per_expert == per_expert);
  CHECK(use.router == 8 * 6);
  CHECK(use.total == 8 * 6 + 8 * per_expert);
  CHECK(use.active_per_token == 8 * 6 + 2 * per_expert);
  // one multiply-add per weight a token's forward touches: the router and two experts
  CHECK(tally.count().linear == 4 * (8 * 6 + 2 * per_expert));
}

TEST_CASE("the load-balancing loss is α·k spread evenly and grows as routing concentrates",
          "[engine][moe]") {
  const MoeConfig config = config_of(4, 1);
  MoeParams<double> params(config);  // a zero router: every probability 1/4
  Rng rng(75);
  const Matrix<double> x = random_matrix(8, 6, rng);
  Run run = forward(params, x, config);
  // every token picks expert 0 on the tie, yet Pᵢ = 1/4 each: α·N·(1 · 1/4)
  CHECK(moe_load_balancing_loss(run.cache, config) == Approx(0.01).epsilon(1e-14));
  params.gate.row(2).setConstant(0.0);
  params.gate(2, 0) = 50.0;  // tokens with x₀ > 0 all go to expert 2, nearly surely
  run = forward(params, x, config);
  CHECK(moe_load_balancing_loss(run.cache, config) > 0.01);
}

TEST_CASE("moe's gradients match central differences, renormalised, as they are and at capacity",
          "[engine][moe][gradcheck]") {
  check_moe_gradients(config_of(4, 2), 76);
  check_moe_gradients(config_of(4, 1), 77);
  MoeConfig switch_like = config_of(4, 1, 1.0);
  switch_like.norm_topk_prob = false;
  check_moe_gradients(switch_like, 78);
  check_moe_gradients(config_of(3, 2, 0.6), 79);
}

TEST_CASE("renormalised top-1 routing gives the router no gradient from the output",
          "[engine][moe]") {
  Rng rng(80);
  const MoeConfig config = config_of(4, 1);
  const MoeParams<double> params = random_moe(config, rng);
  const Matrix<double> x = random_matrix(6, 6, rng);
  Run run = forward(params, x, config);
  Matrix<double> dx;
  MoeParams<double> grads;
  moe_backward(dx, grads, random_matrix(6, 6, rng), x, params, config, run.cache);
  CHECK(grads.gate.norm() == 0.0);
}

TEST_CASE("moe's faults: weights not renormalised, every expert run, overflow rerouted",
          "[engine][moe][faults]") {
  Rng rng(81);
  const MoeConfig config = config_of(4, 2, 1.0);  // 4 slots an expert, 16 for 16
  const MoeParams<double> params = random_moe(config, rng);
  const Matrix<double> x = random_matrix(8, 6, rng);
  const Run clean = forward(params, x, config);
  REQUIRE_FALSE(clean.cache.dropped.empty());
  {
    const FaultScope scope(Fault::topk_not_renormalised);
    const Run run = forward(params, x, config);
    CHECK(run.cache.chosen == clean.cache.chosen);
    for (Index t = 0; t < 8; ++t)
      CHECK(run.cache.weights.row(t).sum() < 1.0);
  }
  {
    const FaultScope scope(Fault::every_expert_runs);
    const Run run = forward(params, random_matrix(8, 6, rng), config_of(4, 2));
    const MoeParamUse use = moe_param_use(params, run.cache);
    CHECK(use.active_per_token == static_cast<double>(use.total));
  }
  {
    const FaultScope scope(Fault::overflow_rerouted);
    const Run run = forward(params, x, config);
    // a slot over capacity takes a free one elsewhere while any is left: all 16 fill, where
    // the clean block drops slots with room to spare
    CHECK(run.cache.dispatched.size() == 16);
    CHECK(clean.cache.dispatched.size() < 16);
  }
}

TEST_CASE("moe refuses a config out of range and weights of the wrong shape", "[engine][moe]") {
  MoeConfig config = config_of(4, 5);
  CHECK_THROWS_WITH(check_moe_config(config),
                    "num_experts_per_tok must be 1 to num_local_experts (4), got 5");
  config = config_of(4, 2, -1.0);
  CHECK_THROWS_WITH(check_moe_config(config),
                    "capacity_factor must be 0 (no capacity) or positive, got -1");
  config = config_of(4, 2);
  MoeParams<double> params(config);
  params.experts[3].down_proj.resize(6, 4);
  Matrix<double> out;
  MoeCache<double> cache;
  const Matrix<double> zeros = Matrix<double>::Zero(2, 6);
  CHECK_THROWS_WITH(moe_forward(out, cache, zeros, params, config),
                    "moe expert w2 has shape (6, 4), expected (6, 5)");
  params.experts.pop_back();
  CHECK_THROWS_WITH(moe_forward(out, cache, zeros, params, config),
                    "moe holds 3 experts, expected 4");
}

}  // namespace test_moe
