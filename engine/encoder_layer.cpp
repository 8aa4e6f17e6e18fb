// Forward and backward of one transformer block in Post-LN, Pre-LN or unnormalised form.
#include "engine/encoder_layer.hpp"

#include <string>

#include "engine/fault.hpp"

namespace proofdeck::engine {

std::string_view norm_placement_name(NormPlacement placement) {
  switch (placement) {
    case NormPlacement::post:
      return "post";
    case NormPlacement::pre:
      return "pre";
    case NormPlacement::none:
      return "none";
  }
  return "?";
}

void check_config(const EncoderLayerConfig& config) {
  check_head_split(config.d_model, config.nhead);
  require(config.dim_feedforward > 0,
          "dim_feedforward must be positive, got " + std::to_string(config.dim_feedforward));
  require(config.layer_norm_eps > 0.0,
          "layer_norm_eps must be positive, got " + number_string(config.layer_norm_eps));
}

template <typename T>
EncoderLayerParams<T>::EncoderLayerParams(const EncoderLayerConfig& config)
    : self_attn(config.d_model, config.nhead, config.bias),
      feedforward(config.d_model, config.dim_feedforward, config.bias),
      norm1(config.d_model, config.norm != NormPlacement::none, config.bias),
      norm2(config.d_model, config.norm != NormPlacement::none, config.bias) {
  check_config(config);
}

template <typename T>
void init_xavier(EncoderLayerParams<T>& params, Rng& rng) {
  for (LinearParams<T>* linear : {&params.self_attn.in_proj, &params.self_attn.out_proj,
                                  &params.feedforward.linear1, &params.feedforward.linear2}) {
    fill_xavier_uniform(linear->weight, rng);
    linear->bias.setZero();
  }
  for (NormParams<T>* norm : {&params.norm1, &params.norm2}) {
    norm->weight.setOnes();
    norm->bias.setZero();
  }
}

namespace {

// y = a + b, or just b when residual connections are off.
template <typename T>
void residual_add(Matrix<T>& sum, const Matrix<T>& skip, const Matrix<T>& branch, bool residual) {
  if (residual) {
    sum = skip + branch;
  } else {
    sum = branch;
  }
}

}  // namespace

template <typename T>
void encoder_layer_forward(Matrix<T>& out, EncoderLayerCache<T>& cache, const Matrix<T>& inp,
                           const EncoderLayerParams<T>& params, const EncoderLayerConfig& config) {
  check_config(config);
  require_shape(inp, inp.rows(), config.d_model, "encoder layer input");
  // Only a block with residual connections reaches the op: one without has no addition to drop.
  const bool residual = config.residual && enter(Op::residual) != Fault::residual_dropped;
  const double eps = config.layer_norm_eps;
  switch (config.norm) {
    case NormPlacement::post:
      // x1 = LN1(x + SA(x)); out = LN2(x1 + FF(x1))
      mha_forward(cache.attn_output, cache.attn, inp, params.self_attn, config.attention);
      residual_add(cache.first_sum, inp, cache.attn_output, residual);
      layernorm_forward(cache.ff_input, cache.norm1_mean, cache.norm1_rstd, cache.first_sum,
                        params.norm1, eps);
      feedforward_forward(cache.ff_output, cache.feedforward, cache.ff_input, params.feedforward,
                          config.activation);
      residual_add(cache.second_sum, cache.ff_input, cache.ff_output, residual);
      layernorm_forward(out, cache.norm2_mean, cache.norm2_rstd, cache.second_sum, params.norm2,
                        eps);
      return;
    case NormPlacement::pre:
      // x1 = x + SA(LN1(x)); out = x1 + FF(LN2(x1))
      layernorm_forward(cache.attn_input, cache.norm1_mean, cache.norm1_rstd, inp, params.norm1,
                        eps);
      mha_forward(cache.attn_output, cache.attn, cache.attn_input, params.self_attn,
                  config.attention);
      residual_add(cache.first_sum, inp, cache.attn_output, residual);
      layernorm_forward(cache.ff_input, cache.norm2_mean, cache.norm2_rstd, cache.first_sum,
                        params.norm2, eps);
      feedforward_forward(cache.ff_output, cache.feedforward, cache.ff_input, params.feedforward,
                          config.activation);
      residual_add(out, cache.first_sum, cache.ff_output, residual);
      return;
    case NormPlacement::none:
      // x1 = x + SA(x); out = x1 + FF(x1)
      mha_forward(cache.attn_output, cache.attn, inp, params.self_attn, config.attention);
      residual_add(cache.first_sum, inp, cache.attn_output, residual);
      feedforward_forward(cache.ff_output, cache.feedforward, cache.first_sum, params.feedforward,
                          config.activation);
      residual_add(out, cache.first_sum, cache.ff_output, residual);
      return;
  }
}

template <typename T>
void encoder_layer_backward(Matrix<T>& dinp, EncoderLayerParams<T>& grads, const Matrix<T>& dout,
                            const Matrix<T>& inp, const EncoderLayerParams<T>& params,
                            const EncoderLayerCache<T>& cache, const EncoderLayerConfig& config) {
  require_shape(dout, inp.rows(), config.d_model, "encoder layer grad_output");
  // forward was: each addition only with residual connections on and not dropped
  const bool residual = config.residual && enter(Op::residual) != Fault::residual_dropped;
  Matrix<T> dsecond, dff_in, dfirst, dattn_in;
  switch (config.norm) {
    case NormPlacement::post: {
      // forward was: x1 = LN1(x + SA(x)); out = LN2(x1 + FF(x1))
      layernorm_backward(dsecond, grads.norm2, dout, cache.second_sum, params.norm2,
                         cache.norm2_mean, cache.norm2_rstd);
      feedforward_backward(dff_in, grads.feedforward, dsecond, cache.ff_input, params.feedforward,
                           cache.feedforward, config.activation);
      if (residual) dff_in += dsecond;
      layernorm_backward(dfirst, grads.norm1, dff_in, cache.first_sum, params.norm1,
                         cache.norm1_mean, cache.norm1_rstd);
      mha_backward(dinp, grads.self_attn, dfirst, inp, params.self_attn, cache.attn,
                   config.attention);
      if (residual) dinp += dfirst;
      break;
    }
    case NormPlacement::pre: {
      // forward was: x1 = x + SA(LN1(x)); out = x1 + FF(LN2(x1))
      feedforward_backward(dff_in, grads.feedforward, dout, cache.ff_input, params.feedforward,
                           cache.feedforward, config.activation);
      layernorm_backward(dfirst, grads.norm2, dff_in, cache.first_sum, params.norm2,
                         cache.norm2_mean, cache.norm2_rstd);
      if (residual) dfirst += dout;
      mha_backward(dattn_in, grads.self_attn, dfirst, cache.attn_input, params.self_attn,
                   cache.attn, config.attention);
      layernorm_backward(dinp, grads.norm1, dattn_in, inp, params.norm1, cache.norm1_mean,
                         cache.norm1_rstd);
      if (residual) dinp += dfirst;
      break;
    }
    case NormPlacement::none: {
      // forward was: x1 = x + SA(x); out = x1 + FF(x1)
      feedforward_backward(dfirst, grads.feedforward, dout, cache.first_sum, params.feedforward,
                           cache.feedforward, config.activation);
      if (residual) dfirst += dout;
      mha_backward(dinp, grads.self_attn, dfirst, inp, params.self_attn, cache.attn,
                   config.attention);
      if (residual) dinp += dfirst;
      grads.norm1 = NormParams<T>();
      grads.norm2 = NormParams<T>();
      break;
    }
  }
}

#define PROOFDECK_INSTANTIATE(T)                                                                   \
  template struct EncoderLayerParams<T>;                                                           \
  template void init_xavier<T>(EncoderLayerParams<T>&, Rng&);                                      \
  template void encoder_layer_forward<T>(Matrix<T>&, EncoderLayerCache<T>&, const Matrix<T>&,      \
                                         const EncoderLayerParams<T>&, const EncoderLayerConfig&); \
  template void encoder_layer_backward<T>(Matrix<T>&, EncoderLayerParams<T>&, const Matrix<T>&,    \
                                          const Matrix<T>&, const EncoderLayerParams<T>&,          \
                                          const EncoderLayerCache<T>&, const EncoderLayerConfig&);
PROOFDECK_INSTANTIATE(float)
PROOFDECK_INSTANTIATE(double)
#undef PROOFDECK_INSTANTIATE

}  // namespace proofdeck::engine
