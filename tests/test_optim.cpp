// SGD's step: the update torch.optim.SGD(lr) makes (PyTorch's own numbers are in the
// linear_sgd_step and layer_norm_sgd_step fixtures), that it descends, shape errors, and the
// optimizer-rescales-weights fault.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "engine/fault.hpp"
#include "engine/linear.hpp"
#include "engine/norm.hpp"
#include "engine/optim.hpp"
#include "test_support.hpp"

namespace test_optim {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

struct LinearCase {
  LinearParams<double> params{4, 3, true};
  LinearParams<double> grads{4, 3, true};
};

LinearCase linear_case(std::uint64_t seed) {
  Rng rng(seed);
  LinearCase c;
  c.params.weight = random_matrix(3, 4, rng);
  c.params.bias = random_vector(3, rng);
  c.grads.weight = random_matrix(3, 4, rng);
  c.grads.bias = random_vector(3, rng);
  return c;
}

// ½‖linear(x)‖², whose gradient with respect to the output is the output itself.
double half_squared_output(const Matrix<double>& x, const LinearParams<double>& params) {
  Matrix<double> y;
  linear_forward(y, x, params);
  return 0.5 * y.squaredNorm();
}

}  // namespace

TEST_CASE("an SGD step moves every parameter by -lr times its gradient and by nothing else",
          "[engine][optim]") {
  LinearCase c = linear_case(3);
  const LinearParams<double> before = c.params;
  sgd_step(c.params, c.grads, 0.1);
  CHECK(c.params.weight == Matrix<double>(before.weight - 0.1 * c.grads.weight));
  CHECK(c.params.bias == Vector<double>(before.bias - 0.1 * c.grads.bias));

  Rng rng(4);
  NormParams<float> norm(5, true);
  norm.weight = random_vector(5, rng).cast<float>();
  NormParams<float> dnorm(5, true);
  dnorm.weight = random_vector(5, rng).cast<float>();
  dnorm.bias = random_vector(5, rng).cast<float>();
  const NormParams<float> norm_before = norm;
  sgd_step(norm, dnorm, 0.5f);
  CHECK(norm.weight == Vector<float>(norm_before.weight - 0.5f * dnorm.weight));
  CHECK(norm.bias == Vector<float>(norm_before.bias - 0.5f * dnorm.bias));
}

TEST_CASE("a small SGD step lowers the loss by lr times the squared gradient, to first order",
          "[engine][optim]") {
  Rng rng(9);
  LinearParams<double> params(4, 3, true);
  params.weight = random_matrix(3, 4, rng);
  params.bias = random_vector(3, rng);
  const Matrix<double> x = random_matrix(6, 4, rng);
  Matrix<double> y, dx;
  linear_forward(y, x, params);
  LinearParams<double> grads;
  linear_backward(dx, grads, y, x, params);  // d(½‖y‖²)/dy = y
  const double squared_gradient = grads.weight.squaredNorm() + grads.bias.squaredNorm();
  const double lr = 1e-6;
  const double loss = half_squared_output(x, params);
  sgd_step(params, grads, lr);
  const double decrease = loss - half_squared_output(x, params);
  CHECK(decrease > 0.0);
  CHECK(decrease == Approx(lr * squared_gradient).epsilon(1e-4));
}

TEST_CASE("a gradient of another shape than its parameter is refused, naming both shapes",
          "[engine][optim]") {
  LinearCase c = linear_case(5);
  c.grads.weight = Matrix<double>::Zero(4, 3);
  REQUIRE_THROWS_WITH(sgd_step(c.params, c.grads, 0.1),
                      Catch::Contains("the gradient of the weight is 4×3, the parameter 3×4"));
  NormParams<double> norm(4, true), dnorm(3, true);
  REQUIRE_THROWS_WITH(sgd_step(norm, dnorm, 0.1),
                      Catch::Contains("the gradient of γ is 3×1, the parameter 4×1"));
}

TEST_CASE("optimizer-rescales-weights steps the weights but scales each row back to its length",
          "[engine][optim][fault]") {
  LinearCase plain = linear_case(7);
  LinearCase faulty = linear_case(7);
  const Vector<double> lengths = faulty.params.weight.rowwise().norm();
  sgd_step(plain.params, plain.grads, 0.1);
  OpSet reached;
  {
    const FaultScope scope(Fault::optimizer_rescales_weights);
    sgd_step(faulty.params, faulty.grads, 0.1);
    reached = scope.reached();
  }
  CHECK(reached.test(static_cast<std::size_t>(Op::optimizer)));
  for (Index row = 0; row < 3; ++row) {
    INFO("row " << row);
    CHECK(faulty.params.weight.row(row).norm() == Approx(lengths(row)).epsilon(1e-12));
    CHECK(std::abs(plain.params.weight.row(row).norm() - lengths(row)) > 1e-6);
    // Still the step's direction: the faulty row is the plain row, rescaled.
    const Vector<double> plain_row = plain.params.weight.row(row).transpose();
    const Vector<double> faulty_row = faulty.params.weight.row(row).transpose();
    CHECK(faulty_row.normalized().isApprox(plain_row.normalized(), 1e-12));
  }
  CHECK(faulty.params.bias == plain.params.bias);
}

}  // namespace test_optim
