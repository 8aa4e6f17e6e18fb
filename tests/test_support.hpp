// Shared helpers for engine tests: seeded random tensors, closeness checks, and central-difference
// gradients against which every backward is checked.
#pragma once

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <map>
#include <sstream>
#include <string>

#include "engine/rng.hpp"
#include "engine/tensor.hpp"

namespace proofdeck::testing {

using engine::Index;
using engine::Matrix;
using engine::Vector;

inline Matrix<double> random_matrix(Index rows, Index cols, engine::Rng& rng, double scale = 1.0) {
  Matrix<double> m(rows, cols);
  engine::fill_normal(m, 0.0, scale, rng);
  return m;
}

inline Vector<double> random_vector(Index size, engine::Rng& rng, double scale = 1.0) {
  Vector<double> v(size);
  engine::fill_normal(v, 0.0, scale, rng);
  return v;
}

// max |a − b| / max(1, max |b|): relative for large values, absolute near zero.
template <typename A, typename B>
double relative_error(const Eigen::MatrixBase<A>& actual, const Eigen::MatrixBase<B>& expected) {
  if (actual.rows() != expected.rows() || actual.cols() != expected.cols()) return INFINITY;
  if (expected.size() == 0) return 0.0;
  const double scale = std::max(1.0, static_cast<double>(expected.cwiseAbs().maxCoeff()));
  return static_cast<double>((actual - expected).cwiseAbs().maxCoeff()) / scale;
}

// Central differences (f(x + h) − f(x − h)) / 2h of a scalar loss, entry by entry of `x`,
// which the loss must read by reference.
template <typename Tensor>
Tensor numeric_gradient(Tensor& x, const std::function<double()>& loss, double step = 1e-6) {
  Tensor grad = Tensor::Zero(x.rows(), x.cols());
  for (Index i = 0; i < x.size(); ++i) {
    const double saved = x.data()[i];
    x.data()[i] = saved + step;
    const double plus = loss();
    x.data()[i] = saved - step;
    const double minus = loss();
    x.data()[i] = saved;
    grad.data()[i] = (plus - minus) / (2 * step);
  }
  return grad;
}

// Loss Σ out ∘ dout, whose gradient with respect to out is dout.
inline double weighted_sum(const Matrix<double>& out, const Matrix<double>& dout) {
  return out.cwiseProduct(dout).sum();
}

// Tolerance for central differences in double with step 1e-6.
inline constexpr double kGradTolerance = 1e-7;

// Every parameter of a module against central differences of `loss`, matched by the name
// visit_params gives it in `params` and in `grads` (the same module type, or one visited with
// the same names): a gradient a backward forgets, or a parameter it never fills, fails by name.
template <typename Params, typename Grads>
void check_param_gradients(Params& params, const Grads& grads, const std::function<double()>& loss,
                           double tolerance = kGradTolerance) {
  std::map<std::string, Eigen::MatrixXd> analytic;
  visit_params(grads, "", [&](const std::string& name, const auto& tensor) {
    analytic[name] = tensor.template cast<double>();
  });
  std::size_t visited = 0;
  visit_params(params, "", [&](const std::string& name, auto& tensor) {
    INFO(name);
    ++visited;
    REQUIRE(analytic.contains(name));
    const Eigen::MatrixXd numeric = numeric_gradient(tensor, loss).template cast<double>();
    CHECK(relative_error(analytic[name], numeric) <= tolerance);
  });
  CHECK(visited == analytic.size());
}

}  // namespace proofdeck::testing

#define CHECK_CLOSE(actual, expected, tolerance)                                        \
  do {                                                                                  \
    const double pd_error = ::proofdeck::testing::relative_error((actual), (expected)); \
    INFO(#actual " vs " #expected ": relative error " << pd_error);                     \
    CHECK(pd_error <= (tolerance));                                                     \
  } while (false)
