// One gradient check per op, shared by the op's own tests and the engine-fault tests:
// the op's backward against central differences of the loss Σ y ⊙ dout (test_support.hpp), for
// the input and, where the op has them, every parameter by name.
#pragma once

#include "engine/attention.hpp"
#include "engine/decoder.hpp"
#include "engine/encoder_layer.hpp"
#include "engine/norm.hpp"
#include "test_support.hpp"

namespace proofdeck::testing {

// Scaled dot-product attention: dq, dk and dv.
inline void check_attention_gradients(engine::Matrix<double>& query, engine::Matrix<double>& key,
                                      engine::Matrix<double>& value,
                                      const engine::Matrix<double>& dout,
                                      const engine::AttentionOptions& options) {
  engine::Matrix<double> out(query.rows(), value.cols()), probs;
  const auto loss = [&] {
    engine::attention_forward<double>(out, probs, query, key, value, options);
    return weighted_sum(out, dout);
  };
  loss();
  engine::Matrix<double> dq(query.rows(), query.cols()), dk(key.rows(), key.cols()),
      dv(value.rows(), value.cols());
  engine::attention_backward<double>(dq, dk, dv, dout, query, key, value, probs, options);
  CHECK_CLOSE(dq, numeric_gradient(query, loss), kGradTolerance);
  CHECK_CLOSE(dk, numeric_gradient(key, loss), kGradTolerance);
  CHECK_CLOSE(dv, numeric_gradient(value, loss), kGradTolerance);
}

// Multi-head attention (PyTorch's nn.MultiheadAttention): dx and every parameter.
inline void check_mha_gradients(engine::MhaParams<double>& params, engine::Matrix<double>& x,
                                const engine::Matrix<double>& dout,
                                const engine::AttentionOptions& options) {
  engine::Matrix<double> y, dx;
  engine::MhaCache<double> cache;
  const auto loss = [&] {
    engine::mha_forward(y, cache, x, params, options);
    return weighted_sum(y, dout);
  };
  loss();
  engine::MhaParams<double> grads;
  engine::mha_backward(dx, grads, dout, x, params, cache, options);
  CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
  check_param_gradients(params, grads, loss);
}

// A grouped-query attention layer of `config` with weights drawn from `rng`, N(0, 0.5²).
inline engine::GqaParams<double> random_gqa(const engine::GqaConfig& config, engine::Rng& rng) {
  engine::GqaParams<double> params(config);
  params.q_proj = random_matrix(params.q_proj.rows(), params.q_proj.cols(), rng, 0.5);
  params.k_proj = random_matrix(params.k_proj.rows(), params.k_proj.cols(), rng, 0.5);
  params.v_proj = random_matrix(params.v_proj.rows(), params.v_proj.cols(), rng, 0.5);
  params.o_proj = random_matrix(params.o_proj.rows(), params.o_proj.cols(), rng, 0.5);
  return params;
}

// Grouped-query attention (Llama's): dx and every parameter, at `positions` (0, 1, … when empty).
inline void check_gqa_gradients(engine::GqaParams<double>& params, engine::Matrix<double>& x,
                                const engine::Matrix<double>& dout,
                                const engine::Positions& positions = {}) {
  engine::Matrix<double> y, dx;
  engine::GqaCache<double> cache;
  const auto loss = [&] {
    engine::gqa_forward(y, cache, x, params, positions);
    return weighted_sum(y, dout);
  };
  loss();
  engine::GqaParams<double> grads;
  engine::gqa_backward(dx, grads, dout, x, params, cache);
  CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
  check_param_gradients(params, grads, loss);
}

// LayerNorm over each row (eps 1e-5): dx, and the weight's and bias's gradients.
inline void check_layernorm_gradients(engine::NormParams<double>& params, engine::Matrix<double>& x,
                                      const engine::Matrix<double>& dout) {
  engine::Matrix<double> y, dx;
  engine::Vector<double> mean, rstd;
  engine::NormParams<double> grads;
  const auto loss = [&] {
    engine::layernorm_forward(y, mean, rstd, x, params, 1e-5);
    return weighted_sum(y, dout);
  };
  loss();
  engine::layernorm_backward(dx, grads, dout, x, params, mean, rstd);
  CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
  CHECK_CLOSE(grads.weight, numeric_gradient(params.weight, loss), kGradTolerance);
  CHECK_CLOSE(grads.bias, numeric_gradient(params.bias, loss), kGradTolerance);
}

// A transformer encoder layer (PyTorch's nn.TransformerEncoderLayer): a finite output, dx and
// every parameter.
inline void check_encoder_layer_gradients(engine::EncoderLayerParams<double>& params,
                                          engine::Matrix<double>& x,
                                          const engine::Matrix<double>& dout,
                                          const engine::EncoderLayerConfig& config) {
  engine::Matrix<double> y, dx;
  engine::EncoderLayerCache<double> cache;
  const auto loss = [&] {
    engine::encoder_layer_forward(y, cache, x, params, config);
    return weighted_sum(y, dout);
  };
  loss();
  engine::EncoderLayerParams<double> grads;
  engine::encoder_layer_backward(dx, grads, dout, x, params, cache, config);
  CHECK(y.allFinite());
  CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
  check_param_gradients(params, grads, loss);
}

}  // namespace proofdeck::testing
