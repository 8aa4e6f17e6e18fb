// Engine faults in the layer family (positions, norms, residuals, feed-forwards, Linear): each
// fault changes its op's output on a seeded input and leaves the fault-free path as it was.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/decoder.hpp"
#include "engine/fault.hpp"
#include "engine/param_count.hpp"
#include "engine/positional.hpp"
#include "engine/stack.hpp"
#include "gradcheck_support.hpp"
#include "test_support.hpp"

namespace test_faults_layers {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

bool reached(const FaultScope& scope, Op op) {
  return scope.reached().test(static_cast<std::size_t>(op));
}

// Runs `run` with no scope, inside FaultScope(Fault::none) and inside FaultScope(fault). The
// fault-free runs must agree bit for bit, both scoped runs must reach the fault's op, and the
// faulty output must be finite and of the clean one's shape. Returns ‖faulty − clean‖/‖clean‖.
double relative_change(Fault fault, const std::function<Matrix<double>()>& run) {
  const Op op = fault_info(fault).op;
  const Matrix<double> clean = run();
  Matrix<double> scoped_clean, faulty;
  {
    FaultScope scope(Fault::none);
    scoped_clean = run();
    CHECK(reached(scope, op));
  }
  {
    FaultScope scope(fault);
    faulty = run();
    CHECK(reached(scope, op));
  }
  CHECK(scoped_clean == clean);
  CHECK(faulty.allFinite());
  REQUIRE(faulty.rows() == clean.rows());
  REQUIRE(faulty.cols() == clean.cols());
  return (faulty - clean).norm() / clean.norm();
}

NormParams<double> random_affine(Index channels, Rng& rng, bool bias = true) {
  NormParams<double> params(channels, true, bias);
  params.weight = Vector<double>::Ones(channels) + random_vector(channels, rng, 0.1);
  if (bias) params.bias = random_vector(channels, rng, 0.1);
  return params;
}

// Features with a common offset of 3, so centring has something to remove.
Matrix<double> offset_rows(Index rows, Index cols, Rng& rng) {
  return random_matrix(rows, cols, rng, 2.0).array() + 3.0;
}

EncoderLayerConfig small_layer(NormPlacement norm) {
  EncoderLayerConfig config;
  config.d_model = 8;
  config.nhead = 2;
  config.dim_feedforward = 12;
  config.norm = norm;
  config.activation = Activation::gelu;
  return config;
}

// Random values everywhere, so no gradient path hides behind a zero or a one.
void randomize(EncoderLayerParams<double>& params, Rng& rng) {
  visit_params(params, "", [&rng](const std::string& name, auto& tensor) {
    for (Index i = 0; i < tensor.size(); ++i)
      tensor.data()[i] = rng.normal(0.0, 0.4);
    if (name.find("norm") != std::string::npos && name.ends_with("weight")) tensor.array() += 1.0;
  });
}

StackConfig small_stack() {
  StackConfig config;
  config.layer = small_layer(NormPlacement::pre);
  config.num_layers = 2;
  config.final_norm = true;
  return config;
}

}  // namespace

// --- positions ----------------------------------------------------------------------------------

TEST_CASE("add_positions adds the sinusoidal table or the learned rows, as the demos did inline",
          "[fault][positional]") {
  Rng rng(1);
  const Matrix<double> x = random_matrix(5, 8, rng);
  const Positions positions = sequential_positions(5);
  const Matrix<double> table = random_matrix(7, 8, rng);

  Matrix<double> sinusoidal = x;
  add_positions(sinusoidal, PositionalParams<double>{PositionalKind::sinusoidal, std::nullopt},
                positions);
  Matrix<double> inline_sinusoidal = x;
  inline_sinusoidal += sinusoidal_encoding<double>(positions, 8);
  CHECK(sinusoidal == inline_sinusoidal);

  Matrix<double> learned = x;
  add_positions(learned, PositionalParams<double>{PositionalKind::learned, table}, positions);
  Matrix<double> rows;
  learned_positions_forward(rows, positions, table);
  Matrix<double> inline_learned = x;
  inline_learned += rows;
  CHECK(learned == inline_learned);

  // RoPE acts inside attention and none adds nothing: neither reaches the op.
  for (const PositionalKind kind : {PositionalKind::none, PositionalKind::rope}) {
    FaultScope scope(Fault::positions_not_added);
    Matrix<double> untouched = x;
    add_positions(untouched, PositionalParams<double>{kind, std::nullopt}, positions);
    CHECK(untouched == x);
    CHECK_FALSE(reached(scope, Op::positions_added));
  }
}

TEST_CASE("positions-not-added leaves the embeddings without their positional encoding",
          "[fault][positional]") {
  Rng rng(2);
  const Matrix<double> x = random_matrix(6, 8, rng);
  const Positions positions = sequential_positions(6);
  const Matrix<double> table = random_matrix(10, 8, rng);
  for (const PositionalKind kind : {PositionalKind::sinusoidal, PositionalKind::learned}) {
    INFO(positional_name(kind));
    const PositionalParams<double> params{
        kind, kind == PositionalKind::learned ? std::optional(table) : std::nullopt};
    const auto run = [&] {
      Matrix<double> embeddings = x;
      add_positions(embeddings, params, positions);
      return embeddings;
    };
    const double change = relative_change(Fault::positions_not_added, run);
    CHECK(change > 0.3);
    FaultScope scope(Fault::positions_not_added);
    CHECK(run() == x);
  }
}

TEST_CASE("sinusoidal-one-frequency gives every pair the first pair's frequency",
          "[fault][positional]") {
  const Positions positions = sequential_positions(48);
  const auto run = [&] { return sinusoidal_encoding<double>(positions, 8); };
  const double change = relative_change(Fault::sinusoidal_one_frequency, run);
  CHECK(change > 0.5);

  const Matrix<double> clean = run();
  FaultScope scope(Fault::sinusoidal_one_frequency);
  const Matrix<double> faulty = run();
  for (Index pair = 1; pair < 4; ++pair) {
    CHECK(faulty.col(2 * pair) == faulty.col(0));
    CHECK(faulty.col(2 * pair + 1) == faulty.col(1));
  }
  // 44 ≈ 7·2π: with one frequency, positions 0 and 44 get nearly the same code.
  CHECK((faulty.row(44) - faulty.row(0)).norm() < 0.05);
  CHECK((clean.row(44) - clean.row(0)).norm() > 1.0);
}

TEST_CASE("sinusoidal-trainable builds the sinusoids as a trainable table and adds the same values",
          "[fault][positional]") {
  const auto scheme = [] {
    return make_positional_params<double>(PositionalKind::sinusoidal, 512, 64);
  };
  CHECK(count_params(scheme()).total() == 0);
  FaultScope scope(Fault::sinusoidal_trainable);
  const PositionalParams<double> faulty = scheme();
  CHECK(count_params(faulty).total() == 512 * 64);
  REQUIRE(faulty.table.has_value());
  CHECK(*faulty.table == sinusoidal_encoding<double>(sequential_positions(512), 64));
  // The embeddings gain what they gained before: the fault is in what the module holds.
  Rng rng(17);
  const Matrix<double> x = random_matrix(5, 64, rng);
  Matrix<double> with_table = x;
  add_positions(with_table, faulty, sequential_positions(5));
  CHECK(with_table == x + sinusoidal_encoding<double>(sequential_positions(5), 64));
  // A learned table and no encoding are built as before.
  CHECK(count_params(make_positional_params<double>(PositionalKind::learned, 512, 64)).total() ==
        512 * 64);
  CHECK_FALSE(make_positional_params<double>(PositionalKind::rope, 512, 64).table.has_value());
}

TEST_CASE("learned-table-one-short builds max_len − 1 rows, so the last position has none",
          "[fault][positional]") {
  CHECK(count_params(make_positional_params<double>(PositionalKind::learned, 512, 64)).total() ==
        512 * 64);
  FaultScope scope(Fault::learned_table_one_short);
  const PositionalParams<double> faulty =
      make_positional_params<double>(PositionalKind::learned, 512, 64);
  CHECK(count_params(faulty).total() == 511 * 64);
  Matrix<double> out;
  learned_positions_forward(out, Positions{510}, *faulty.table);
  CHECK(out.rows() == 1);
  CHECK_THROWS_WITH(learned_positions_forward(out, Positions{511}, *faulty.table),
                    Catch::Contains("position 511 is past the learned position table"));
  // One position's table becomes an empty one, still a table.
  CHECK(make_positional_params<double>(PositionalKind::learned, 1, 8).table->rows() == 0);
}

TEST_CASE("learned-positions-clamp reads the last row for a position past the table",
          "[fault][positional][gradcheck]") {
  Rng rng(3);
  const Matrix<double> full_table = random_matrix(12, 4, rng);
  Matrix<double> table = full_table.topRows(6);  // trained up to max_len 6
  const Positions positions = {0, 3, 5, 9, 11};
  Matrix<double> out;
  REQUIRE_THROWS_AS(learned_positions_forward(out, positions, table), EngineError);

  // Against a table that does hold rows 9 and 11, the clamped lookup answers with row 5.
  Matrix<double> true_rows;
  learned_positions_forward(true_rows, positions, full_table);
  {
    FaultScope scope(Fault::learned_positions_clamp);
    learned_positions_forward(out, positions, table);
    CHECK(reached(scope, Op::learned_positions));
  }
  CHECK(out.allFinite());
  CHECK(out.row(3) == table.row(5));
  CHECK(out.row(4) == table.row(5));
  CHECK(out.topRows(3) == true_rows.topRows(3));
  const double change = (out - true_rows).norm() / true_rows.norm();
  CHECK(change > 0.3);

  // Positions inside the table read what they always read.
  const Positions inside = {1, 4, 2};
  const auto run = [&] {
    Matrix<double> rows;
    learned_positions_forward(rows, inside, table);
    return rows;
  };
  CHECK(relative_change(Fault::learned_positions_clamp, run) == 0.0);

  FaultScope scope(Fault::learned_positions_clamp);
  const Matrix<double> dout = random_matrix(5, 4, rng);
  Matrix<double> dtable;
  learned_positions_backward(dtable, dout, positions, 6);
  const auto loss = [&] {
    learned_positions_forward(out, positions, table);
    return weighted_sum(out, dout);
  };
  CHECK_CLOSE(dtable, numeric_gradient(table, loss), kGradTolerance);
  CHECK(dtable.row(5) == dout.row(2) + dout.row(3) + dout.row(4));
}

// --- norms --------------------------------------------------------------------------------------

namespace {

// LayerNorm (eps 1e-5) of `x` under whichever fault is active when it runs.
auto layernorm_of(const Matrix<double>& x, const NormParams<double>& params) {
  return [&x, &params] {
    Matrix<double> y;
    Vector<double> mean, rstd;
    layernorm_forward(y, mean, rstd, x, params, 1e-5);
    return y;
  };
}

}  // namespace

TEST_CASE("layernorm-no-centring normalises by the root mean square, as RMSNorm", "[fault][norm]") {
  Rng rng(4);
  const Matrix<double> x = offset_rows(5, 8, rng);
  const NormParams<double> params = random_affine(8, rng);
  const auto run = layernorm_of(x, params);
  const double change = relative_change(Fault::layernorm_no_centring, run);
  CHECK(change > 0.5);

  const NormParams<double> plain(8, false);
  Matrix<double> rms, y;
  Vector<double> rrms, mean, rstd;
  rmsnorm_forward(rms, rrms, x, plain, 1e-5);
  FaultScope scope(Fault::layernorm_no_centring);
  layernorm_forward(y, mean, rstd, x, plain, 1e-5);
  CHECK(relative_error(y, rms) <= 1e-14);
  CHECK(mean == Vector<double>::Zero(5));
}

TEST_CASE("layernorm-no-scaling only subtracts each row's mean", "[fault][norm]") {
  Rng rng(5);
  const Matrix<double> x = offset_rows(5, 8, rng);
  const NormParams<double> params = random_affine(8, rng);
  const auto run = layernorm_of(x, params);
  const double change = relative_change(Fault::layernorm_no_scaling, run);
  CHECK(change > 0.5);

  const NormParams<double> plain(8, false);
  Matrix<double> y;
  Vector<double> mean, rstd;
  FaultScope scope(Fault::layernorm_no_scaling);
  layernorm_forward(y, mean, rstd, x, plain, 1e-5);
  const Matrix<double> centred = x.colwise() - Vector<double>(x.rowwise().mean());
  CHECK(relative_error(y, centred) <= 1e-14);
  CHECK(y.row(0).squaredNorm() / 8 > 1.5);  // the variance stays the input's (scale 2)
}

TEST_CASE("layernorm-unbiased-variance divides by n − 1, and one feature stays finite",
          "[fault][norm]") {
  Rng rng(6);
  const Matrix<double> x = offset_rows(5, 8, rng);
  const NormParams<double> params = random_affine(8, rng);
  const auto run = layernorm_of(x, params);
  const double change = relative_change(Fault::layernorm_unbiased_variance, run);
  CHECK(change > 0.03);  // √(7/8) ≈ 0.935: every normalised feature shrinks by 6.5%

  const NormParams<double> plain(8, false);
  Matrix<double> y;
  Vector<double> mean, rstd;
  FaultScope scope(Fault::layernorm_unbiased_variance);
  layernorm_forward(y, mean, rstd, x, plain, 1e-5);
  for (Index row = 0; row < 5; ++row)
    CHECK(y.row(row).squaredNorm() / 8 == Approx(7.0 / 8.0).epsilon(1e-4));
  const Matrix<double> one_feature = random_matrix(3, 1, rng);
  layernorm_forward(y, mean, rstd, one_feature, plain, 1e-5);
  CHECK(y.allFinite());
  CHECK(rstd.allFinite());
}

TEST_CASE("layernorm-batch-statistics normalises each feature over the batch, as BatchNorm",
          "[fault][norm]") {
  Rng rng(16);
  const Matrix<double> x = offset_rows(6, 8, rng);
  const NormParams<double> params = random_affine(8, rng);
  const auto run = layernorm_of(x, params);
  const double change = relative_change(Fault::layernorm_batch_statistics, run);
  CHECK(change > 0.5);

  BatchNormParams<double> batch_norm(8);
  batch_norm.affine = params;
  Matrix<double> expected, y;
  Vector<double> mean, rstd;
  batchnorm_train_forward(expected, mean, rstd, x, batch_norm, 1e-5, 0.1);
  FaultScope scope(Fault::layernorm_batch_statistics);
  layernorm_forward(y, mean, rstd, x, params, 1e-5);
  CHECK(relative_error(y, expected) <= 1e-14);
  CHECK(mean.size() == 8);  // one mean per feature, not per token
  // A token's output now depends on its companions, and a lone token normalises to β.
  Matrix<double> other = x;
  other.bottomRows(5) *= 3.0;
  Matrix<double> y_other;
  layernorm_forward(y_other, mean, rstd, other, params, 1e-5);
  CHECK((y_other.row(0) - y.row(0)).cwiseAbs().maxCoeff() > 0.1);
  layernorm_forward(y, mean, rstd, Matrix<double>(x.topRows(1)), params, 1e-5);
  CHECK(y.allFinite());
  CHECK(relative_error(Matrix<double>(y.transpose()), Matrix<double>(params.bias)) <= 1e-14);
}

TEST_CASE("layernorm-normalizes-gradients gives the gradient it passes back mean 0 and variance 1",
          "[fault][norm]") {
  Rng rng(17);
  const Matrix<double> x = offset_rows(5, 8, rng);
  const NormParams<double> params = random_affine(8, rng);
  const Matrix<double> dout = random_matrix(5, 8, rng, 0.1);
  Matrix<double> y, clean, faulty;
  Vector<double> mean, rstd;
  NormParams<double> grads;
  layernorm_forward(y, mean, rstd, x, params, 1e-5);
  layernorm_backward(clean, grads, dout, x, params, mean, rstd);
  {
    FaultScope scope(Fault::layernorm_normalizes_gradients);
    Matrix<double> y_faulty;
    layernorm_forward(y_faulty, mean, rstd, x, params, 1e-5);
    CHECK(y_faulty == y);  // the forward is LayerNorm's
    layernorm_backward(faulty, grads, dout, x, params, mean, rstd);
  }
  for (Index row = 0; row < 5; ++row) {
    CHECK(std::abs(faulty.row(row).mean()) <= 1e-12);
    CHECK(faulty.row(row).squaredNorm() / 8 == Approx(1.0).epsilon(1e-6));
    CHECK(std::abs(clean.row(row).squaredNorm() / 8 - 1.0) > 0.1);  // the true one is not
  }
  {
    FaultScope scope(Fault::layernorm_normalizes_gradients);
    layernorm_backward(faulty, grads, Matrix<double>(Matrix<double>::Zero(5, 8)), x, params, mean,
                       rstd);
  }
  CHECK(faulty == Matrix<double>::Zero(5, 8));  // a zero gradient stays zero, and finite
}

TEST_CASE("rmsnorm-as-layernorm centres each row first", "[fault][norm]") {
  Rng rng(7);
  const Matrix<double> x = offset_rows(5, 8, rng);
  const NormParams<double> params = random_affine(8, rng, false);
  const auto run = [&] {
    Matrix<double> y;
    Vector<double> rrms;
    rmsnorm_forward(y, rrms, x, params, 1e-6);
    return y;
  };
  const double change = relative_change(Fault::rmsnorm_as_layernorm, run);
  CHECK(change > 0.5);

  Matrix<double> layer_norm, y;
  Vector<double> mean, rstd, rrms;
  layernorm_forward(layer_norm, mean, rstd, x, params, 1e-6);
  FaultScope scope(Fault::rmsnorm_as_layernorm);
  rmsnorm_forward(y, rrms, x, params, 1e-6);
  CHECK(relative_error(y, layer_norm) <= 1e-14);
}

TEST_CASE("batchnorm-per-token normalises each token over its features, even a batch of one",
          "[fault][norm]") {
  Rng rng(8);
  const Matrix<double> x = offset_rows(6, 8, rng);
  BatchNormParams<double> initial(8);
  initial.affine = random_affine(8, rng);
  const auto run = [&] {
    BatchNormParams<double> params = initial;
    Matrix<double> y;
    Vector<double> mean, rstd;
    batchnorm_train_forward(y, mean, rstd, x, params, 1e-5, 0.1);
    return y;
  };
  const double change = relative_change(Fault::batchnorm_per_token, run);
  CHECK(change > 0.5);

  Matrix<double> layer_norm, y;
  Vector<double> mean, rstd;
  layernorm_forward(layer_norm, mean, rstd, x, initial.affine, 1e-5);
  FaultScope scope(Fault::batchnorm_per_token);
  BatchNormParams<double> params = initial;
  batchnorm_train_forward(y, mean, rstd, x, params, 1e-5, 0.1);
  CHECK(relative_error(y, layer_norm) <= 1e-14);
  CHECK(params.running_mean == initial.running_mean);  // no per-channel statistics to track
  CHECK(params.running_var == initial.running_var);
  // The broken behaviour: one token no longer fails.
  batchnorm_train_forward(y, mean, rstd, Matrix<double>(x.topRows(1)), params, 1e-5, 0.1);
  CHECK(y.allFinite());
}

TEST_CASE("norm gradients match central differences under each norm fault",
          "[fault][norm][gradcheck]") {
  Rng rng(9);
  Matrix<double> x = offset_rows(5, 6, rng);
  const Matrix<double> dout = random_matrix(5, 6, rng);
  Matrix<double> y, dx;
  Vector<double> mean, rstd;
  NormParams<double> grads;
  for (const Fault fault :
       {Fault::layernorm_no_centring, Fault::layernorm_no_scaling,
        Fault::layernorm_unbiased_variance, Fault::layernorm_batch_statistics}) {
    INFO(fault_info(fault).name);
    FaultScope scope(fault);
    NormParams<double> params = random_affine(6, rng);
    check_layernorm_gradients(params, x, dout);
  }
  {
    FaultScope scope(Fault::layernorm_unbiased_variance);
    Matrix<double> one_feature = random_matrix(3, 1, rng);
    const NormParams<double> params(1, false);
    const Matrix<double> dout_one = random_matrix(3, 1, rng);
    const auto loss = [&] {
      layernorm_forward(y, mean, rstd, one_feature, params, 1e-5);
      return weighted_sum(y, dout_one);
    };
    loss();
    layernorm_backward(dx, grads, dout_one, one_feature, params, mean, rstd);
    CHECK_CLOSE(dx, numeric_gradient(one_feature, loss), kGradTolerance);
  }
  {
    FaultScope scope(Fault::rmsnorm_as_layernorm);
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
  {
    FaultScope scope(Fault::batchnorm_per_token);
    BatchNormParams<double> params(6);
    params.affine = random_affine(6, rng);
    const auto loss = [&] {
      BatchNormParams<double> fresh = params;
      batchnorm_train_forward(y, mean, rstd, x, fresh, 1e-5, 0.1);
      return weighted_sum(y, dout);
    };
    loss();
    batchnorm_train_backward(dx, grads, dout, x, params.affine, mean, rstd);
    CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
    CHECK_CLOSE(grads.weight, numeric_gradient(params.affine.weight, loss), kGradTolerance);
    CHECK_CLOSE(grads.bias, numeric_gradient(params.affine.bias, loss), kGradTolerance);
  }
}

// --- blocks and stacks --------------------------------------------------------------------------

TEST_CASE("residual-dropped runs a block as if its residual connections were off",
          "[fault][encoder]") {
  for (const NormPlacement norm : {NormPlacement::post, NormPlacement::pre, NormPlacement::none}) {
    INFO(norm_placement_name(norm));
    const EncoderLayerConfig config = small_layer(norm);
    Rng rng(10);
    EncoderLayerParams<double> params(config);
    randomize(params, rng);
    const Matrix<double> x = random_matrix(5, 8, rng);
    const auto run = [&] {
      Matrix<double> y;
      EncoderLayerCache<double> cache;
      encoder_layer_forward(y, cache, x, params, config);
      return y;
    };
    const double change = relative_change(Fault::residual_dropped, run);
    CHECK(change > 0.2);

    EncoderLayerConfig no_residual = config;
    no_residual.residual = false;
    Matrix<double> expected;
    EncoderLayerCache<double> cache;
    encoder_layer_forward(expected, cache, x, params, no_residual);
    FaultScope scope(Fault::residual_dropped);
    CHECK(run() == expected);
  }
  // A block built without residuals has nothing to drop and never reaches the op.
  EncoderLayerConfig config = small_layer(NormPlacement::pre);
  config.residual = false;
  EncoderLayerParams<double> params(config);
  Matrix<double> y;
  EncoderLayerCache<double> cache;
  FaultScope scope(Fault::residual_dropped);
  encoder_layer_forward(y, cache, Matrix<double>(Matrix<double>::Ones(3, 8)), params, config);
  CHECK_FALSE(reached(scope, Op::residual));
}

TEST_CASE("pre-ln-no-final-norm ends the stack on its last block's raw output", "[fault][stack]") {
  const StackConfig config = small_stack();
  StackParams<double> params(config);
  Rng rng(11);
  init_xavier(params, rng);
  const Matrix<double> x = random_matrix(5, 8, rng);
  const auto run = [&] {
    Matrix<double> y;
    StackCache<double> cache;
    stack_forward(y, cache, x, params, config);
    return y;
  };
  const double change = relative_change(Fault::pre_ln_no_final_norm, run);
  CHECK(change > 0.2);

  {
    FaultScope scope(Fault::pre_ln_no_final_norm);
    Matrix<double> y;
    StackCache<double> cache;
    stack_forward(y, cache, x, params, config);
    CHECK(y == cache.layer_inputs.back());
  }
  // A stack without a final norm has nothing to leave out and never reaches the op.
  StackConfig no_final = config;
  no_final.final_norm = false;
  StackParams<double> plain(no_final);
  init_xavier(plain, rng);
  Matrix<double> y;
  StackCache<double> cache;
  FaultScope scope(Fault::pre_ln_no_final_norm);
  stack_forward(y, cache, x, plain, no_final);
  CHECK_FALSE(reached(scope, Op::final_norm));
}

TEST_CASE("encoder layer gradients match central differences under each layer-family fault",
          "[fault][encoder][gradcheck]") {
  for (const Fault fault :
       {Fault::residual_dropped, Fault::layernorm_no_centring, Fault::layernorm_no_scaling,
        Fault::layernorm_unbiased_variance, Fault::feedforward_no_activation}) {
    for (const NormPlacement norm : {NormPlacement::post, NormPlacement::pre}) {
      INFO(fault_info(fault).name << ", norm " << norm_placement_name(norm));
      const EncoderLayerConfig config = small_layer(norm);
      FaultScope scope(fault);
      Rng rng(12);
      EncoderLayerParams<double> params(config);
      randomize(params, rng);
      Matrix<double> x = random_matrix(4, 8, rng);
      const Matrix<double> dout = random_matrix(4, 8, rng);
      check_encoder_layer_gradients(params, x, dout, config);
    }
  }
}

TEST_CASE("stack gradients match central differences under each layer-family fault",
          "[fault][stack][gradcheck]") {
  for (const Fault fault : {Fault::pre_ln_no_final_norm, Fault::residual_dropped,
                            Fault::layernorm_no_centring, Fault::layernorm_no_scaling,
                            Fault::layernorm_unbiased_variance, Fault::feedforward_no_activation}) {
    INFO(fault_info(fault).name);
    const StackConfig config = small_stack();
    FaultScope scope(fault);
    StackParams<double> params(config);
    Rng rng(13);
    init_xavier(params, rng);
    params.final_norm.weight += random_vector(8, rng, 0.1);
    params.final_norm.bias += random_vector(8, rng, 0.1);
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
    CHECK(y.allFinite());
    CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
    CHECK_CLOSE(grads.params.layers[0].feedforward.linear1.weight,
                numeric_gradient(params.layers[0].feedforward.linear1.weight, loss),
                kGradTolerance);
    CHECK_CLOSE(grads.params.layers[1].self_attn.out_proj.weight,
                numeric_gradient(params.layers[1].self_attn.out_proj.weight, loss), kGradTolerance);
    CHECK_CLOSE(grads.params.layers[1].norm2.weight,
                numeric_gradient(params.layers[1].norm2.weight, loss), kGradTolerance);
    // Left out under pre-ln-no-final-norm, the final norm's γ and β get zero gradients.
    CHECK_CLOSE(grads.params.final_norm.weight, numeric_gradient(params.final_norm.weight, loss),
                kGradTolerance);
    CHECK_CLOSE(grads.params.final_norm.bias, numeric_gradient(params.final_norm.bias, loss),
                kGradTolerance);
  }
}

// --- feed-forwards and Linear -------------------------------------------------------------------

TEST_CASE("swiglu-no-gate builds SwiGLU without gate_proj: down(silu(up(x)))",
          "[fault][decoder][gradcheck]") {
  // Built inside the run, so the fault shapes the module; the gate is drawn either way, so the
  // other weights are the same draws.
  const auto build = [] {
    SwigluParams<double> params(5, 7);
    Rng rng(14);
    const Matrix<double> gate = random_matrix(7, 5, rng, 0.5);
    if (params.has_gate()) params.gate_proj = gate;
    params.up_proj = random_matrix(7, 5, rng, 0.5);
    params.down_proj = random_matrix(5, 7, rng, 0.5);
    return params;
  };
  Rng rng(15);
  Matrix<double> x = random_matrix(4, 5, rng);
  const auto run = [&] {
    const SwigluParams<double> params = build();
    Matrix<double> y;
    SwigluCache<double> cache;
    swiglu_forward(y, cache, x, params);
    return y;
  };
  const double change = relative_change(Fault::swiglu_no_gate, run);
  CHECK(change > 0.5);
  CHECK(count_params(SwigluParams<double>(5, 7)).tensors == 3);

  FaultScope scope(Fault::swiglu_no_gate);
  SwigluParams<double> params = build();
  CHECK_FALSE(params.has_gate());
  CHECK(params.hidden_size() == 5);
  CHECK(params.intermediate_size() == 7);
  CHECK(count_params(params) == ParamCount{.weights = 2 * 5 * 7, .biases = 0, .tensors = 2});
  Matrix<double> y, dx;
  SwigluCache<double> cache;
  swiglu_forward(y, cache, x, params);
  const Matrix<double> up = x * params.up_proj.transpose();
  const Matrix<double> silu = up.array() / (1.0 + (-up.array()).exp());
  CHECK(relative_error(y, silu * params.down_proj.transpose()) <= 1e-14);

  const Matrix<double> dout = random_matrix(4, 5, rng);
  const auto loss = [&] {
    swiglu_forward(y, cache, x, params);
    return weighted_sum(y, dout);
  };
  loss();
  SwigluParams<double> grads;
  swiglu_backward(dx, grads, dout, x, params, cache);
  CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
  CHECK_CLOSE(grads.up_proj, numeric_gradient(params.up_proj, loss), kGradTolerance);
  CHECK_CLOSE(grads.down_proj, numeric_gradient(params.down_proj, loss), kGradTolerance);
  std::vector<std::string> names;
  visit_params(grads, "", [&](const std::string& name, const auto&) { names.push_back(name); });
  CHECK(names == std::vector<std::string>{"up_proj.weight", "down_proj.weight"});
}

TEST_CASE("linear-no-bias builds a Linear asked for a bias without one, and the counts say so",
          "[fault][linear]") {
  const LinearParams<double> clean(6, 9, true);
  CHECK(clean.has_bias());
  {
    FaultScope scope(Fault::linear_no_bias);
    const LinearParams<double> broken(6, 9, true);
    CHECK_FALSE(broken.has_bias());
    CHECK(broken.weight.size() == 54);  // the weight alone
    // the projections of an attention block lose their 4·E biases with them
    const MhaParams<double> attention(8, 2, true);
    CHECK(count_params(attention).total() == 4 * 8 * 8);
    CHECK(scope.reached().test(static_cast<std::size_t>(Op::linear)));
  }
  {
    // a Linear built without a bias has nothing to drop: the op is not reached
    FaultScope scope(Fault::linear_no_bias);
    const LinearParams<double> plain(6, 9, false);
    CHECK_FALSE(scope.reached().test(static_cast<std::size_t>(Op::linear)));
  }
  CHECK(count_params(MhaParams<double>(8, 2, true)).total() == 4 * 8 * 8 + 4 * 8);
}

TEST_CASE("feedforward-no-activation composes the two Linears with nothing between",
          "[fault][feedforward][gradcheck]") {
  Rng rng(17);
  Matrix<double> x = random_matrix(4, 6, rng);
  FeedForwardParams<double> params(6, 10, true);
  for (LinearParams<double>* linear : {&params.linear1, &params.linear2}) {
    linear->weight = random_matrix(linear->weight.rows(), linear->weight.cols(), rng, 0.5);
    linear->bias = random_vector(linear->bias.size(), rng, 0.5);
  }
  for (const Activation activation : {Activation::relu, Activation::gelu}) {
    INFO(activation_name(activation));
    const auto run = [&] {
      Matrix<double> y;
      FeedForwardCache<double> cache;
      feedforward_forward(y, cache, x, params, activation);
      return y;
    };
    const double change = relative_change(Fault::feedforward_no_activation, run);
    CHECK(change > 0.2);
  }

  FaultScope scope(Fault::feedforward_no_activation);
  Matrix<double> y, dx;
  FeedForwardCache<double> cache;
  feedforward_forward(y, cache, x, params, Activation::relu);
  const Matrix<double> hidden =
      (x * params.linear1.weight.transpose()).rowwise() + params.linear1.bias.transpose();
  const Matrix<double> expected =
      (hidden * params.linear2.weight.transpose()).rowwise() + params.linear2.bias.transpose();
  CHECK(relative_error(y, expected) <= 1e-14);

  const Matrix<double> dout = random_matrix(4, 6, rng);
  const auto loss = [&] {
    feedforward_forward(y, cache, x, params, Activation::relu);
    return weighted_sum(y, dout);
  };
  loss();
  FeedForwardParams<double> grads(6, 10, true);
  feedforward_backward(dx, grads, dout, x, params, cache, Activation::relu);
  CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
  CHECK_CLOSE(grads.linear1.weight, numeric_gradient(params.linear1.weight, loss), kGradTolerance);
  CHECK_CLOSE(grads.linear2.weight, numeric_gradient(params.linear2.weight, loss), kGradTolerance);
}

}  // namespace test_faults_layers
