// Weight normalisation (torch.nn.utils.weight_norm on a Linear): the rebuilt weight's rows have
// length |g| whatever v is, before and after an SGD step; gradients against central
// differences; the refusals; and the weight-norm-no-division fault. PyTorch's own numbers are in
// the linear_weight_norm fixture.
#include <catch2/catch.hpp>

#include "engine/fault.hpp"
#include "engine/linear.hpp"
#include "engine/optim.hpp"
#include "engine/weight_norm.hpp"
#include "test_support.hpp"

namespace test_weight_norm {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

struct Normalized {
  Matrix<double> v;
  Vector<double> g;
};

Normalized normalized(std::uint64_t seed) {
  Rng rng(seed);
  Normalized n{random_matrix(3, 5, rng), random_vector(3, rng)};
  return n;
}

double largest_length_gap(const Matrix<double>& weight, const Vector<double>& g) {
  return (weight.rowwise().norm() - g.cwiseAbs()).cwiseAbs().maxCoeff();
}

}  // namespace

TEST_CASE("weight normalisation gives row i of the weight length |g_i| and v's direction",
          "[engine][weight_norm]") {
  Normalized n = normalized(1);
  n.v.row(1) *= 40.0;  // v's scale does not matter
  Matrix<double> weight;
  weight_norm_forward(weight, n.v, n.g);
  CHECK(largest_length_gap(weight, n.g) < 1e-14);
  for (Index row = 0; row < 3; ++row) {
    const double cosine =
        weight.row(row).dot(n.v.row(row)) / (weight.row(row).norm() * n.v.row(row).norm());
    CHECK(std::abs(std::abs(cosine) - 1.0) < 1e-14);
  }
}

TEST_CASE("after an SGD step on g and v the rows still have length |g|, the new g",
          "[engine][weight_norm][optim]") {
  Normalized n = normalized(2);
  Rng rng(3);
  const Matrix<double> dweight = random_matrix(3, 5, rng);
  Matrix<double> dv;
  Vector<double> dg;
  weight_norm_backward(dv, dg, dweight, n.v, n.g);
  sgd_step(n.g, dg, 0.1);
  sgd_step(n.v, dv, 0.1);
  Matrix<double> weight;
  weight_norm_forward(weight, n.v, n.g);
  CHECK(largest_length_gap(weight, n.g) < 1e-14);
}

TEST_CASE("weight normalisation gradients match central differences",
          "[engine][weight_norm][gradcheck]") {
  for (const Fault fault : {Fault::none, Fault::weight_norm_no_division}) {
    INFO("fault " << fault_info(fault).name);
    const FaultScope scope(fault);
    Normalized n = normalized(4);
    Rng rng(5);
    const Matrix<double> x = random_matrix(4, 5, rng);
    const Matrix<double> dout = random_matrix(4, 3, rng);
    LinearParams<double> layer(5, 3, true);
    layer.bias = random_vector(3, rng);
    Matrix<double> y;
    const auto loss = [&] {
      weight_norm_forward(layer.weight, n.v, n.g);
      linear_forward(y, x, layer);
      return weighted_sum(y, dout);
    };
    loss();
    Matrix<double> dx;
    LinearParams<double> grads;
    linear_backward(dx, grads, dout, x, layer);
    Matrix<double> dv;
    Vector<double> dg;
    weight_norm_backward(dv, dg, grads.weight, n.v, n.g);
    CHECK_CLOSE(dv, numeric_gradient(n.v, loss), kGradTolerance);
    CHECK_CLOSE(dg, numeric_gradient(n.g, loss), kGradTolerance);
  }
}

TEST_CASE("weight normalisation refuses a zero row of v and a g of the wrong size",
          "[engine][weight_norm]") {
  Normalized n = normalized(6);
  Matrix<double> weight;
  n.v.row(2).setZero();
  CHECK_THROWS_WITH(weight_norm_forward(weight, n.v, n.g),
                    Catch::Contains("row 2 of weight_v is zero"));
  const Normalized m = normalized(7);
  const Vector<double> short_g = m.g.head(2);
  CHECK_THROWS_WITH(weight_norm_forward(weight, m.v, short_g),
                    Catch::Contains("weight_g has 2 entries, expected one per row"));
}

TEST_CASE("weight-norm-no-division: the rows' lengths follow v as well as g",
          "[engine][weight_norm][faults]") {
  const FaultScope scope(Fault::weight_norm_no_division);
  Normalized n = normalized(8);
  n.v *= 3.0;
  Matrix<double> weight;
  weight_norm_forward(weight, n.v, n.g);
  CHECK(largest_length_gap(weight, n.g) > 0.1);
  CHECK(scope.reached().test(static_cast<std::size_t>(Op::weight_norm)));
}

}  // namespace test_weight_norm
