// Padded batches: a key-padding mask in attention and a length mask in LayerNorm and BatchNorm.
// A real token's output must not depend on the padding — its values or how much of it there is —
// and gradients match central differences; a query left with no real key is refused (PyTorch
// answers NaN); the two padding faults break what they name. PyTorch's own numbers are in the
// mha_key_padding, mha_key_padding_no_key, layer_norm_padded and batch_norm_masked fixtures.
#include <catch2/catch.hpp>
#include <vector>

#include "engine/attention.hpp"
#include "engine/fault.hpp"
#include "engine/norm.hpp"
#include "test_support.hpp"

namespace test_padding {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

MhaParams<double> random_module(Rng& rng) {
  MhaParams<double> params(8, 2, true);
  params.in_proj.weight = random_matrix(24, 8, rng, 0.5);
  params.in_proj.bias = random_vector(24, rng, 0.1);
  params.out_proj.weight = random_matrix(8, 8, rng, 0.5);
  params.out_proj.bias = random_vector(8, rng, 0.1);
  return params;
}

// `tokens` real rows followed by `padding` rows of arbitrary values, and its mask.
struct Padded {
  Matrix<double> rows;
  std::vector<bool> mask;
};

Padded pad(const Matrix<double>& tokens, Index padding, Rng& rng, double pad_scale = 1.0) {
  Padded p{Matrix<double>(tokens.rows() + padding, tokens.cols()), {}};
  p.rows.topRows(tokens.rows()) = tokens;
  p.rows.bottomRows(padding) = random_matrix(padding, tokens.cols(), rng, pad_scale);
  p.mask.assign(static_cast<std::size_t>(tokens.rows()), false);
  p.mask.resize(static_cast<std::size_t>(p.rows.rows()), true);
  return p;
}

Matrix<double> self_attention(const Matrix<double>& x, const MhaParams<double>& params,
                              const AttentionOptions& options) {
  Matrix<double> out;
  MhaCache<double> cache;
  mha_forward(out, cache, x, params, options);
  return out;
}

double largest_gap(const Matrix<double>& a, const Matrix<double>& b) {
  return (a - b).cwiseAbs().maxCoeff();
}

}  // namespace

TEST_CASE("with a key-padding mask, the real tokens attend as if the padding were not there",
          "[engine][attention][padding]") {
  Rng rng(1);
  const MhaParams<double> params = random_module(rng);
  const Matrix<double> tokens = random_matrix(3, 8, rng);
  const Matrix<double> alone = self_attention(tokens, params, {});
  for (const Index padding : {1, 4}) {
    for (const double scale : {1.0, 100.0}) {
      INFO(padding << " padding rows of scale " << scale);
      const Padded p = pad(tokens, padding, rng, scale);
      AttentionOptions options;
      options.key_padding = p.mask;
      Matrix<double> out;
      MhaCache<double> cache;
      mha_forward(out, cache, p.rows, params, options);
      CHECK(largest_gap(out.topRows(3), alone) < 1e-12);
      for (const auto& probs : cache.probs) {
        CHECK(probs.rightCols(padding).cwiseAbs().maxCoeff() == 0.0);  // exactly 0, not small
        CHECK((probs.rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-14);
      }
    }
  }
}

TEST_CASE("without the mask the padding moves the real tokens' outputs",
          "[engine][attention][padding]") {
  Rng rng(2);
  const MhaParams<double> params = random_module(rng);
  const Matrix<double> tokens = random_matrix(3, 8, rng);
  const Padded p = pad(tokens, 2, rng);
  CHECK(largest_gap(self_attention(p.rows, params, {}).topRows(3),
                    self_attention(tokens, params, {})) > 1e-3);
}

TEST_CASE("key-padding and causal masks together: gradients match central differences",
          "[engine][attention][padding][gradcheck]") {
  for (const bool causal : {false, true}) {
    INFO("causal " << causal);
    Rng rng(3);
    MhaParams<double> params = random_module(rng);
    Matrix<double> x = random_matrix(5, 8, rng);
    const Matrix<double> dout = random_matrix(5, 8, rng);
    AttentionOptions options;
    options.causal = causal;
    options.key_padding = {false, true, false, false, true};
    MhaCache<double> cache;
    Matrix<double> out;
    const auto loss = [&] {
      mha_forward(out, cache, x, params, options);
      return weighted_sum(out, dout);
    };
    loss();
    Matrix<double> dx;
    MhaParams<double> grads;
    mha_backward(dx, grads, dout, x, params, cache, options);
    CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
    check_param_gradients(params, grads, loss);
  }
}

TEST_CASE("a query left with only padding keys is refused, naming it, where PyTorch gives NaN",
          "[engine][attention][padding]") {
  Rng rng(4);
  const MhaParams<double> params = random_module(rng);
  const Matrix<double> x = random_matrix(4, 8, rng);
  AttentionOptions left_padded_causal;
  left_padded_causal.causal = true;
  left_padded_causal.key_padding = {true, true, false, false};
  CHECK_THROWS_WITH(self_attention(x, params, left_padded_causal),
                    Catch::Contains("queries 0, 1 have no key to attend to") &&
                        Catch::Contains("PyTorch returns NaN"));
  AttentionOptions all_padding;
  all_padding.key_padding = {true, true, true, true};
  CHECK_THROWS_WITH(self_attention(x, params, all_padding),
                    Catch::Contains("queries 0, 1, 2, 3 have no key to attend to: every key is "
                                    "padding"));
  // The same left padding without the causal mask leaves every query the real keys 2 and 3.
  AttentionOptions left_padded;
  left_padded.key_padding = left_padded_causal.key_padding;
  CHECK(self_attention(x, params, left_padded).allFinite());
  AttentionOptions short_mask;
  short_mask.key_padding = {false, true};
  CHECK_THROWS_WITH(self_attention(x, params, short_mask),
                    Catch::Contains("key_padding_mask has 2 entries for 4 keys"));
}

TEST_CASE("cross-attention takes a key-padding mask over the memory",
          "[engine][attention][padding][cross]") {
  Rng rng(5);
  const MhaParams<double> params = random_module(rng);
  const Matrix<double> x = random_matrix(2, 8, rng);
  const Matrix<double> memory = random_matrix(3, 8, rng);
  const Padded p = pad(memory, 2, rng);
  AttentionOptions options;
  options.key_padding = p.mask;
  Matrix<double> padded_out, out;
  CrossAttentionCache<double> cache;
  cross_attention_forward(padded_out, cache, x, p.rows, params, options);
  cross_attention_forward(out, cache, x, memory, params, {});
  CHECK(largest_gap(padded_out, out) < 1e-12);
}

TEST_CASE("key-padding-ignored: the padding reaches the real tokens", "[engine][padding][faults]") {
  Rng rng(6);
  const MhaParams<double> params = random_module(rng);
  const Matrix<double> tokens = random_matrix(3, 8, rng);
  const Padded p = pad(tokens, 2, rng);
  AttentionOptions options;
  options.key_padding = p.mask;
  const FaultScope scope(Fault::key_padding_ignored);
  CHECK(largest_gap(self_attention(p.rows, params, options).topRows(3),
                    self_attention(tokens, params, {})) > 1e-3);
  CHECK(scope.reached().test(static_cast<std::size_t>(Op::padding)));
}

TEST_CASE("LayerNorm with a length mask: real rows as without padding, padding rows 0",
          "[engine][norm][padding]") {
  Rng rng(7);
  NormParams<double> params(6, true);
  params.weight = random_vector(6, rng);
  params.bias = random_vector(6, rng);
  const Matrix<double> tokens = random_matrix(3, 6, rng);
  Matrix<double> alone, out;
  Vector<double> mean, rstd;
  layernorm_forward(alone, mean, rstd, tokens, params, 1e-5);
  const Padded p = pad(tokens, 4, rng, 50.0);
  masked_layernorm_forward(out, mean, rstd, p.rows, p.mask, params, 1e-5);
  CHECK(largest_gap(out.topRows(3), alone) == 0.0);
  CHECK(out.bottomRows(4).cwiseAbs().maxCoeff() == 0.0);
}

TEST_CASE("BatchNorm with a length mask takes its statistics over the real rows only",
          "[engine][norm][padding]") {
  Rng rng(8);
  const Matrix<double> tokens = random_matrix(5, 4, rng);
  BatchNormParams<double> packed_params(4), masked_params(4), plain_params(4);
  Matrix<double> packed, masked, plain;
  Vector<double> mean, rstd;
  batchnorm_train_forward(packed, mean, rstd, tokens, packed_params, 1e-5, 0.1);
  const Padded p = pad(tokens, 3, rng);
  masked_batchnorm_train_forward(masked, mean, rstd, p.rows, p.mask, masked_params, 1e-5, 0.1);
  CHECK(largest_gap(masked.topRows(5), packed) < 1e-14);
  CHECK(masked.bottomRows(3).cwiseAbs().maxCoeff() == 0.0);
  CHECK(largest_gap(Matrix<double>(masked_params.running_mean.transpose()),
                    Matrix<double>(packed_params.running_mean.transpose())) < 1e-15);
  // Unmasked, the padding is averaged in and every real token moves.
  batchnorm_train_forward(plain, mean, rstd, p.rows, plain_params, 1e-5, 0.1);
  CHECK(largest_gap(plain.topRows(5), packed) > 1e-2);
}

TEST_CASE("masked LayerNorm and BatchNorm gradients match central differences",
          "[engine][norm][padding][gradcheck]") {
  Rng rng(9);
  Matrix<double> x = random_matrix(7, 4, rng);
  const Matrix<double> dout = random_matrix(7, 4, rng);
  const std::vector<bool> padding = {false, false, true, false, false, true, true};
  NormParams<double> ln(4, true);
  ln.weight = random_vector(4, rng);
  ln.bias = random_vector(4, rng);
  BatchNormParams<double> bn(4);
  bn.affine = ln;
  for (const Fault fault : {Fault::none, Fault::padding_in_batch_statistics}) {
    INFO("fault " << fault_info(fault).name);
    const FaultScope scope(fault);
    Matrix<double> out, dx;
    Vector<double> mean, rstd;
    NormParams<double> grads;
    const auto layer_loss = [&] {
      masked_layernorm_forward(out, mean, rstd, x, padding, ln, 1e-5);
      return weighted_sum(out, dout);
    };
    layer_loss();
    masked_layernorm_backward(dx, grads, dout, x, padding, ln, mean, rstd);
    CHECK_CLOSE(dx, numeric_gradient(x, layer_loss), kGradTolerance);
    CHECK(dx.row(2).cwiseAbs().maxCoeff() == 0.0);
    const auto batch_loss = [&] {
      BatchNormParams<double> fresh = bn;  // the running statistics move on every call
      masked_batchnorm_train_forward(out, mean, rstd, x, padding, fresh, 1e-5, 0.1);
      return weighted_sum(out, dout);
    };
    batch_loss();
    masked_batchnorm_train_backward(dx, grads, dout, x, padding, bn.affine, mean, rstd);
    CHECK_CLOSE(dx, numeric_gradient(x, batch_loss), kGradTolerance);
    CHECK_CLOSE(grads.weight, numeric_gradient(bn.affine.weight, batch_loss), kGradTolerance);
  }
}

TEST_CASE("a length mask of the wrong size is refused", "[engine][norm][padding]") {
  Rng rng(10);
  const Matrix<double> x = random_matrix(3, 4, rng);
  BatchNormParams<double> bn(4);
  Matrix<double> out;
  Vector<double> mean, rstd;
  CHECK_THROWS_WITH(
      masked_batchnorm_train_forward(out, mean, rstd, x, {false, true}, bn, 1e-5, 0.1),
      Catch::Contains("batch_norm padding mask has 2 entries for 3 rows"));
  CHECK_THROWS_WITH(
      masked_layernorm_forward(out, mean, rstd, x, {false}, NormParams<double>(4, false), 1e-5),
      Catch::Contains("layer_norm padding mask has 1 entries for 3 rows"));
}

TEST_CASE("padding-in-batch-statistics: masked BatchNorm's real rows move with the padding",
          "[engine][norm][padding][faults]") {
  Rng rng(11);
  const Matrix<double> tokens = random_matrix(5, 4, rng);
  const Padded p = pad(tokens, 3, rng);
  BatchNormParams<double> packed_params(4), masked_params(4);
  Matrix<double> packed, masked;
  Vector<double> mean, rstd;
  batchnorm_train_forward(packed, mean, rstd, tokens, packed_params, 1e-5, 0.1);
  const FaultScope scope(Fault::padding_in_batch_statistics);
  masked_batchnorm_train_forward(masked, mean, rstd, p.rows, p.mask, masked_params, 1e-5, 0.1);
  CHECK(largest_gap(masked.topRows(5), packed) > 1e-2);
  CHECK(scope.reached().test(static_cast<std::size_t>(Op::padding)));
}

}  // namespace test_padding
