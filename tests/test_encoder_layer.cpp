// One transformer block: Post-LN and Pre-LN wiring, residuals off, and gradients everywhere.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/encoder_layer.hpp"
#include "gradcheck_support.hpp"
#include "test_support.hpp"

namespace test_encoder_layer {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

EncoderLayerConfig small_config(NormPlacement norm, Activation activation) {
  EncoderLayerConfig config;
  config.d_model = 8;
  config.nhead = 2;
  config.dim_feedforward = 12;
  config.norm = norm;
  config.activation = activation;
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

}  // namespace

TEST_CASE("post-LN ends on a LayerNorm, pre-LN ends on a residual addition", "[engine][encoder]") {
  Rng rng(1);
  const Matrix<double> x = random_matrix(5, 8, rng, 3.0);
  for (const NormPlacement norm : {NormPlacement::post, NormPlacement::pre}) {
    const EncoderLayerConfig config = small_config(norm, Activation::relu);
    EncoderLayerParams<double> params(config);
    init_xavier(params, rng);
    Matrix<double> y;
    EncoderLayerCache<double> cache;
    encoder_layer_forward(y, cache, x, params, config);
    const double row_mean = std::abs(y.row(0).mean());
    if (norm == NormPlacement::post) {
      CHECK(row_mean < 1e-12);  // γ = 1, β = 0: every row normalised
    } else {
      CHECK(y == cache.first_sum + cache.ff_output);
    }
  }
}

TEST_CASE("with residuals off, a block's output is its sublayers alone", "[engine][encoder]") {
  Rng rng(2);
  EncoderLayerConfig config = small_config(NormPlacement::none, Activation::relu);
  config.residual = false;
  EncoderLayerParams<double> params(config);
  init_xavier(params, rng);
  const Matrix<double> x = random_matrix(4, 8, rng);
  Matrix<double> y;
  EncoderLayerCache<double> cache;
  encoder_layer_forward(y, cache, x, params, config);
  CHECK(cache.first_sum == cache.attn_output);
  CHECK(y == cache.ff_output);
}

TEST_CASE("encoder layer gradients match central differences", "[engine][encoder][gradcheck]") {
  struct Case {
    NormPlacement norm;
    Activation activation;
    bool residual;
    bool causal;
  };
  const Case cases[] = {
      {NormPlacement::post, Activation::relu, true, false},
      {NormPlacement::post, Activation::gelu, true, true},
      {NormPlacement::pre, Activation::gelu, true, false},
      {NormPlacement::pre, Activation::gelu_tanh, true, true},
      {NormPlacement::none, Activation::gelu_tanh, true, false},
      {NormPlacement::post, Activation::gelu, false, false},
      {NormPlacement::pre, Activation::gelu, false, false},
      {NormPlacement::none, Activation::gelu, false, false},
  };
  for (const Case& c : cases) {
    EncoderLayerConfig config = small_config(c.norm, c.activation);
    config.residual = c.residual;
    config.attention.causal = c.causal;
    INFO("norm " << norm_placement_name(c.norm) << ", " << activation_name(c.activation)
                 << (c.residual ? ", residual" : ", no residual") << (c.causal ? ", causal" : ""));
    Rng rng(3);
    EncoderLayerParams<double> params(config);
    randomize(params, rng);
    Matrix<double> x = random_matrix(4, 8, rng);
    const Matrix<double> dout = random_matrix(4, 8, rng);
    // dx and every parameter, matched by name between params and grads.
    check_encoder_layer_gradients(params, x, dout, config);
  }
}

TEST_CASE("an encoder layer refuses heads that do not divide d_model and a bad eps",
          "[engine][encoder]") {
  EncoderLayerConfig config = small_config(NormPlacement::post, Activation::relu);
  config.nhead = 3;
  REQUIRE_THROWS_AS(EncoderLayerParams<double>(config), EngineError);
  config.nhead = 2;
  config.layer_norm_eps = 0.0;
  REQUIRE_THROWS_WITH(check_config(config), "layer_norm_eps must be positive, got 0");
}

}  // namespace test_encoder_layer
