// Integer fake quantization (PyTorch's fake_quantize ops and MinMax observers): the levels a bit
// width gives, the scales and zero points observed per tensor, channel and group, rounding half
// to even, clamping and the straight-through gradient, the two faults and the refusals.
// PyTorch's numbers are in the fake_quantize_* fixtures (scripts/torch_reference_quantize.py).
#include <catch2/catch.hpp>
#include <cmath>

#include "engine/fault.hpp"
#include "engine/quantize.hpp"
#include "test_support.hpp"

namespace test_quantize {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

QuantConfig config_of(QuantGranularity granularity, int bits, bool symmetric = true) {
  QuantConfig config;
  config.granularity = granularity;
  config.bits = bits;
  config.symmetric = symmetric;
  return config;
}

Matrix<double> quantized(const Matrix<double>& x, const QuantConfig& config) {
  Matrix<double> out;
  FakeQuantCache<double> cache;
  fake_quantize_forward(out, cache, x, observe_quant_params(x, config), config);
  return out;
}

// Root-mean-square error of column `col` after quantization.
double column_error(const Matrix<double>& x, const Matrix<double>& q, Index col) {
  return std::sqrt((x.col(col) - q.col(col)).squaredNorm() / static_cast<double>(x.rows()));
}

}  // namespace

TEST_CASE("b bits give 2^b levels: signed when symmetric, unsigned with a zero point otherwise",
          "[engine][quantize]") {
  CHECK(config_of(QuantGranularity::tensor, 8).quant_min() == -128);
  CHECK(config_of(QuantGranularity::tensor, 8).quant_max() == 127);
  CHECK(config_of(QuantGranularity::tensor, 4).quant_min() == -8);
  CHECK(config_of(QuantGranularity::tensor, 4).quant_max() == 7);
  CHECK(config_of(QuantGranularity::tensor, 4, false).quant_min() == 0);
  CHECK(config_of(QuantGranularity::tensor, 4, false).quant_max() == 15);
}

TEST_CASE("the observers' scales: max |x| over half the levels, or the range and a zero point",
          "[engine][quantize]") {
  Matrix<double> x(2, 3);
  x << 0.3, -2.55, 1.0,  //
      0.1, 0.2, 1.275;
  const QuantParams<double> symmetric =
      observe_quant_params(x, config_of(QuantGranularity::tensor, 8));
  CHECK(symmetric.scale.front() == Approx(2.55 / 127.5).epsilon(1e-15));
  CHECK(symmetric.zero_point.front() == 0);
  Matrix<double> positive(1, 2);
  positive << -0.5, 1.0;
  const QuantParams<double> affine =
      observe_quant_params(positive, config_of(QuantGranularity::tensor, 4, false));
  CHECK(affine.scale.front() == Approx(0.1).epsilon(1e-15));  // 1.5 over 15 steps
  CHECK(affine.zero_point.front() == 5);                      // 0 − round(−0.5 / 0.1)
  // per row (a Linear's output channel) and per group of two entries of a row
  QuantConfig rows = config_of(QuantGranularity::channel, 8);
  const QuantParams<double> per_row = observe_quant_params(x, rows);
  REQUIRE(per_row.scale.size() == 2);
  CHECK(per_row.scale[1] == Approx(1.275 / 127.5).epsilon(1e-15));
  Matrix<double> wide(1, 4);
  wide << 1.0, -2.0, 0.5, 0.25;
  QuantConfig groups = config_of(QuantGranularity::group, 8);
  groups.group_size = 2;
  const QuantParams<double> per_group = observe_quant_params(wide, groups);
  REQUIRE(per_group.scale.size() == 2);
  CHECK(per_group.scale[0] == Approx(2.0 / 127.5).epsilon(1e-15));
  CHECK(per_group.scale[1] == Approx(0.5 / 127.5).epsilon(1e-15));
}

TEST_CASE("a value halfway between two levels rounds to the even one, as PyTorch's kernels do",
          "[engine][quantize]") {
  QuantParams<double> params;
  params.scale = {0.5};
  params.zero_point = {0};
  params.quant_min = -8;
  params.quant_max = 7;
  const QuantConfig config = config_of(QuantGranularity::tensor, 4);
  Matrix<double> x(1, 4);
  x << 1.25, 1.75, -1.25, 0.25;  // 2.5, 3.5, −2.5 and 0.5 steps
  Matrix<double> out;
  FakeQuantCache<double> cache;
  fake_quantize_forward(out, cache, x, params, config);
  CHECK(out(0, 0) == 1.0);   // level 2
  CHECK(out(0, 1) == 2.0);   // level 4
  CHECK(out(0, 2) == -1.0);  // level −2
  CHECK(out(0, 3) == 0.0);
  const FaultScope scope(Fault::round_half_away);
  fake_quantize_forward(out, cache, x, params, config);
  CHECK(out(0, 0) == 1.5);
  CHECK(out(0, 2) == -1.5);
  CHECK(out(0, 3) == 0.5);
}

TEST_CASE("values past the last level are clamped, and the straight-through gradient stops there",
          "[engine][quantize]") {
  QuantParams<double> params;
  params.scale = {0.25};
  params.zero_point = {0};
  params.quant_min = -8;
  params.quant_max = 7;
  Matrix<double> x(1, 3);
  x << 1.9, 2.5, -1.9;  // 7.6 steps round to 8, past 7; 10 steps; −7.6 steps round to −8
  Matrix<double> out, dx;
  FakeQuantCache<double> cache;
  fake_quantize_forward(out, cache, x, params, config_of(QuantGranularity::tensor, 4));
  CHECK(out(0, 0) == 1.75);
  CHECK(out(0, 1) == 1.75);
  CHECK(out(0, 2) == -2.0);
  Matrix<double> dout(1, 3);
  dout << 1.0, 2.0, 3.0;
  fake_quantize_backward(dx, dout, cache);
  CHECK(dx(0, 0) == 0.0);  // clamped, as PyTorch's mask takes the rounded level
  CHECK(dx(0, 1) == 0.0);
  CHECK(dx(0, 2) == 3.0);  // −8 is the lowest level, not past it
}

TEST_CASE(
    "one outlier column ruins a per-tensor scale for every other column, not a per-column one",
    "[engine][quantize]") {
  Rng rng(91);
  Matrix<double> x = random_matrix(64, 8, rng);
  x.col(3) *= 40.0;
  QuantConfig per_tensor = config_of(QuantGranularity::tensor, 8);
  QuantConfig per_column = config_of(QuantGranularity::channel, 8);
  per_column.axis = 1;
  const Matrix<double> tensor_q = quantized(x, per_tensor);
  const Matrix<double> column_q = quantized(x, per_column);
  CHECK(column_error(x, tensor_q, 0) > 20.0 * column_error(x, column_q, 0));
  CHECK(column_error(x, tensor_q, 3) == Approx(column_error(x, column_q, 3)).epsilon(0.5));
  const FaultScope scope(Fault::per_channel_as_tensor);
  CHECK(quantized(x, per_column) == tensor_q);
}

TEST_CASE("INT4 over one range steps about 17 times as coarsely as INT8", "[engine][quantize]") {
  Rng rng(92);
  const Matrix<double> x = random_matrix(1, 4096, rng);
  const double int8 = observe_quant_params(x, config_of(QuantGranularity::tensor, 8)).scale[0];
  const double int4 = observe_quant_params(x, config_of(QuantGranularity::tensor, 4)).scale[0];
  CHECK(int4 / int8 == Approx(127.5 / 7.5).epsilon(1e-12));  // 17
  const FaultScope scope(Fault::levels_linear_in_bits);
  const QuantParams<double> linear =
      observe_quant_params(x, config_of(QuantGranularity::tensor, 4));
  CHECK(linear.quant_min == -64);
  CHECK(linear.quant_max == 63);
  CHECK(linear.scale[0] / int8 == Approx(127.5 / 63.5).epsilon(1e-12));  // about 2
  CHECK(observe_quant_params(x, config_of(QuantGranularity::tensor, 8)).scale[0] == int8);
}

TEST_CASE(
    "SmoothQuant moves an activation outlier into the weight and leaves the product as it was",
    "[engine][quantize]") {
  Rng rng(93);
  Matrix<double> x = random_matrix(8, 4, rng);
  x.col(2) *= 50.0;
  Matrix<double> w = random_matrix(3, 4, rng, 0.02);
  const Matrix<double> product = x * w.transpose();
  const std::vector<double> factors = smoothing_factors(x, w, 0.5);
  CHECK(factors[2] ==
        Approx(std::sqrt(x.col(2).cwiseAbs().maxCoeff() / w.col(2).cwiseAbs().maxCoeff())));
  Matrix<double> xs = x, ws = w;
  smooth_quant(xs, ws, 0.5);
  CHECK((xs * ws.transpose() - product).cwiseAbs().maxCoeff() < 1e-14);
  // α = ½ leaves feature 2's activations and weights with equal ranges
  CHECK(xs.col(2).cwiseAbs().maxCoeff() == Approx(ws.col(2).cwiseAbs().maxCoeff()));
  CHECK(xs.cwiseAbs().maxCoeff() < x.cwiseAbs().maxCoeff() / 10);
  const FaultScope scope(Fault::smoothing_factor_inverted);
  CHECK(smoothing_factors(x, w, 0.5)[2] == Approx(1.0 / factors[2]));
}

TEST_CASE("fake quantization refuses a bit width, axis or group it cannot use",
          "[engine][quantize]") {
  QuantConfig config = config_of(QuantGranularity::tensor, 1);
  CHECK_THROWS_WITH(check_quant_config(config, 2, 2), "bits must be 2 to 16, got 1");
  config = config_of(QuantGranularity::group, 8);
  config.group_size = 3;
  CHECK_THROWS_WITH(check_quant_config(config, 2, 8),
                    "group_size 3 does not divide the 8 entries of a row: every group must be "
                    "whole");
  config = config_of(QuantGranularity::channel, 8);
  config.axis = 2;
  CHECK_THROWS_WITH(check_quant_config(config, 2, 8),
                    "axis must be 0 (a scale per row) or 1 (per column), got 2");
}

}  // namespace test_quantize
