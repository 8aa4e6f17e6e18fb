// nn.Linear: the forward formula, finite-difference gradients and shape errors.
#include <catch2/catch.hpp>

#include "engine/linear.hpp"
#include "test_support.hpp"

namespace test_linear {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

TEST_CASE("linear computes inp·Wᵀ + b with PyTorch's (out, in) weight", "[engine][linear]") {
  LinearParams<double> params(2, 3, true);
  params.weight << 1, 2,  //
      3, 4,               //
      5, 6;
  params.bias << 0.5, -0.5, 1;
  Matrix<double> x(1, 2);
  x << 1, -1;
  Matrix<double> y;
  linear_forward(y, x, params);
  Matrix<double> expected(1, 3);
  expected << -0.5, -1.5, 0;
  CHECK(y == expected);
}

TEST_CASE("linear gradients match central differences, with and without bias",
          "[engine][linear][gradcheck]") {
  for (const bool bias : {true, false}) {
    Rng rng(5);
    LinearParams<double> params(4, 3, bias);
    params.weight = random_matrix(3, 4, rng);
    if (bias) params.bias = random_vector(3, rng);
    Matrix<double> x = random_matrix(5, 4, rng);
    const Matrix<double> dout = random_matrix(5, 3, rng);
    Matrix<double> y, dx;
    const auto loss = [&] {
      linear_forward(y, x, params);
      return weighted_sum(y, dout);
    };
    LinearParams<double> grads;
    linear_backward(dx, grads, dout, x, params);
    CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
    CHECK_CLOSE(grads.weight, numeric_gradient(params.weight, loss), kGradTolerance);
    if (bias) CHECK_CLOSE(grads.bias, numeric_gradient(params.bias, loss), kGradTolerance);
    CHECK(grads.has_bias() == bias);
  }
}

TEST_CASE("linear refuses an input whose width is not in_features", "[engine][linear]") {
  LinearParams<double> params(4, 3, true);
  Matrix<double> x(2, 5), y;
  REQUIRE_THROWS_WITH(linear_forward(y, x, params),
                      "linear input has shape (2, 5), expected (2, 4)");
}

}  // namespace test_linear
