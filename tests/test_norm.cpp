// LayerNorm, RMSNorm and BatchNorm1d: what each normalises over, PyTorch's conventions, gradients.
#include <catch2/catch.hpp>

#include "engine/norm.hpp"
#include "gradcheck_support.hpp"
#include "test_support.hpp"

namespace test_norm {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

NormParams<double> random_affine(Index channels, Rng& rng, bool bias = true) {
  NormParams<double> params(channels, true, bias);
  params.weight = Vector<double>::Ones(channels) + random_vector(channels, rng, 0.1);
  if (bias) params.bias = random_vector(channels, rng, 0.1);
  return params;
}

}  // namespace

TEST_CASE("layer norm gives every row mean 0 and variance 1 before the affine step",
          "[engine][norm]") {
  Rng rng(1);
  const Matrix<double> x = random_matrix(4, 16, rng, 5.0).array() + 3.0;
  const NormParams<double> params(16, false);
  Matrix<double> y;
  Vector<double> mean, rstd;
  layernorm_forward(y, mean, rstd, x, params, 1e-5);
  for (Index row = 0; row < y.rows(); ++row) {
    CHECK(y.row(row).mean() == Approx(0.0).margin(1e-12));
    CHECK(y.row(row).squaredNorm() / 16 == Approx(1.0).epsilon(1e-5));
  }
}

TEST_CASE("layer norm of a token does not depend on the rest of the batch, batch norm does",
          "[engine][norm]") {
  Rng rng(2);
  const Matrix<double> batch = random_matrix(6, 8, rng);
  Matrix<double> other_batch = random_matrix(6, 8, rng);
  other_batch.row(0) = batch.row(0);  // same first token, different companions

  const NormParams<double> ln(8, false);
  Matrix<double> y1, y2;
  Vector<double> mean, rstd;
  layernorm_forward(y1, mean, rstd, batch, ln, 1e-5);
  layernorm_forward(y2, mean, rstd, other_batch, ln, 1e-5);
  CHECK(y1.row(0) == y2.row(0));

  BatchNormParams<double> bn1(8, false), bn2(8, false);
  batchnorm_train_forward(y1, mean, rstd, batch, bn1, 1e-5, 0.1);
  batchnorm_train_forward(y2, mean, rstd, other_batch, bn2, 1e-5, 0.1);
  CHECK((y1.row(0) - y2.row(0)).cwiseAbs().maxCoeff() > 0.01);
}

TEST_CASE("batch norm in training mode refuses one value per channel, as PyTorch does",
          "[engine][norm]") {
  BatchNormParams<double> params(3);
  Matrix<double> x(1, 3), y;
  Vector<double> mean, rstd;
  REQUIRE_THROWS_WITH(batchnorm_train_forward(y, mean, rstd, x, params, 1e-5, 0.1),
                      "Expected more than 1 value per channel when training, got input of shape "
                      "(1, 3)");
}

TEST_CASE("batch norm moves running statistics by momentum, with the unbiased variance",
          "[engine][norm]") {
  Matrix<double> x(2, 1);
  x << 1.0, 3.0;  // mean 2, biased variance 1, unbiased variance 2
  BatchNormParams<double> params(1, false);
  Matrix<double> y;
  Vector<double> mean, rstd;
  batchnorm_train_forward(y, mean, rstd, x, params, 1e-12, 0.1);
  CHECK(params.running_mean[0] == Approx(0.9 * 0.0 + 0.1 * 2.0));
  CHECK(params.running_var[0] == Approx(0.9 * 1.0 + 0.1 * 2.0));
  CHECK(y(0, 0) == Approx(-1.0));  // normalised with the biased variance
}

TEST_CASE("norm gradients match central differences", "[engine][norm][gradcheck]") {
  Rng rng(4);
  Matrix<double> x = random_matrix(5, 6, rng, 2.0);
  const Matrix<double> dout = random_matrix(5, 6, rng);
  Matrix<double> y, dx;
  Vector<double> mean, rstd;
  NormParams<double> grads;

  SECTION("layer norm") {
    NormParams<double> params = random_affine(6, rng);
    check_layernorm_gradients(params, x, dout);
  }
  SECTION("layer norm without affine parameters") {
    const NormParams<double> params(6, false);
    const auto loss = [&] {
      layernorm_forward(y, mean, rstd, x, params, 1e-5);
      return weighted_sum(y, dout);
    };
    loss();
    layernorm_backward(dx, grads, dout, x, params, mean, rstd);
    CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
    CHECK(grads.weight.size() == 0);
  }
  SECTION("RMS norm") {
    NormParams<double> params = random_affine(6, rng, false);
    const auto loss = [&] {
      rmsnorm_forward(y, rstd, x, params, 1e-6);
      return weighted_sum(y, dout);
    };
    loss();
    rmsnorm_backward(dx, grads, dout, x, params, rstd);
    CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
    CHECK_CLOSE(grads.weight, numeric_gradient(params.weight, loss), kGradTolerance);
  }
  SECTION("batch norm, training mode") {
    BatchNormParams<double> params(6);
    params.affine = random_affine(6, rng);
    const auto loss = [&] {
      BatchNormParams<double> fresh = params;  // running statistics must not drift between calls
      batchnorm_train_forward(y, mean, rstd, x, fresh, 1e-5, 0.1);
      return weighted_sum(y, dout);
    };
    loss();
    batchnorm_train_backward(dx, grads, dout, x, params.affine, mean, rstd);
    CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
    CHECK_CLOSE(grads.weight, numeric_gradient(params.affine.weight, loss), kGradTolerance);
    CHECK_CLOSE(grads.bias, numeric_gradient(params.affine.bias, loss), kGradTolerance);
  }
  SECTION("batch norm, eval mode") {
    BatchNormParams<double> params(6);
    params.affine = random_affine(6, rng);
    params.running_mean = random_vector(6, rng);
    params.running_var = Vector<double>::Ones(6) + random_vector(6, rng, 0.1).cwiseAbs();
    const auto loss = [&] {
      batchnorm_eval_forward(y, x, params, 1e-5);
      return weighted_sum(y, dout);
    };
    batchnorm_eval_backward(dx, grads, dout, x, params, 1e-5);
    CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
    CHECK_CLOSE(grads.weight, numeric_gradient(params.affine.weight, loss), kGradTolerance);
    CHECK_CLOSE(grads.bias, numeric_gradient(params.affine.bias, loss), kGradTolerance);
  }
}

TEST_CASE("a norm whose scale has the wrong length is refused with both sizes", "[engine][norm]") {
  NormParams<double> params(4, true);
  Matrix<double> x(2, 5), y;
  Vector<double> mean, rstd;
  REQUIRE_THROWS_WITH(layernorm_forward(y, mean, rstd, x, params, 1e-5),
                      "layer_norm weight has 4 elements, expected 5 (one per feature)");
}

}  // namespace test_norm
