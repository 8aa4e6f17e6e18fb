// Activations: reference values, PyTorch's ReLU convention at 0, and gradients.
#include <catch2/catch.hpp>

#include "engine/activation.hpp"
#include "test_support.hpp"

namespace test_activation {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

TEST_CASE("activations take their reference values", "[engine][activation]") {
  Matrix<double> x(1, 3);
  x << -1.0, 0.0, 1.0;
  Matrix<double> y;
  activation_forward(y, x, Activation::relu);
  CHECK(y(0, 0) == 0.0);
  CHECK(y(0, 2) == 1.0);
  activation_forward(y, x, Activation::gelu);
  CHECK(y(0, 2) == Approx(0.8413447460685429).epsilon(1e-15));  // Φ(1)
  CHECK(y(0, 0) == Approx(-0.15865525393145707).epsilon(1e-15));
  CHECK(y(0, 1) == 0.0);
  activation_forward(y, x, Activation::gelu_tanh);
  CHECK(y(0, 2) == Approx(0.8411919906082768).epsilon(1e-15));
}

TEST_CASE("ReLU's gradient at exactly zero is zero, as in PyTorch", "[engine][activation]") {
  Matrix<double> x = Matrix<double>::Zero(1, 2), dout = Matrix<double>::Ones(1, 2), dx;
  activation_backward(dx, dout, x, Activation::relu);
  CHECK(dx.isZero());
}

TEST_CASE("activation gradients match central differences", "[engine][activation][gradcheck]") {
  for (const Activation activation : {Activation::relu, Activation::gelu, Activation::gelu_tanh}) {
    INFO(activation_name(activation));
    Rng rng(9);
    Matrix<double> x = random_matrix(4, 6, rng, 2.0);
    const Matrix<double> dout = random_matrix(4, 6, rng);
    Matrix<double> y, dx;
    activation_backward(dx, dout, x, activation);
    const auto loss = [&] {
      activation_forward(y, x, activation);
      return weighted_sum(y, dout);
    };
    CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
  }
}

TEST_CASE("activation names round-trip and unknown names are refused", "[engine][activation]") {
  for (const Activation activation : {Activation::relu, Activation::gelu, Activation::gelu_tanh}) {
    CHECK(parse_activation(activation_name(activation)) == activation);
  }
  CHECK_FALSE(parse_activation("swish").has_value());
}

}  // namespace test_activation
