// Forward and backward through a stack of blocks.
#include "engine/stack.hpp"

#include <cmath>
#include <string>

#include "engine/fault.hpp"
#include "engine/optim.hpp"

namespace proofdeck::engine {

template <typename T>
StackParams<T>::StackParams(const StackConfig& config)
    : final_norm(config.layer.d_model, config.final_norm, config.layer.bias) {
  require(config.num_layers >= 1,
          "a stack needs at least one layer, got " + std::to_string(config.num_layers));
  layers.reserve(static_cast<std::size_t>(config.num_layers));
  for (Index l = 0; l < config.num_layers; ++l)
    layers.emplace_back(config.layer);
}

template <typename T>
void init_xavier(StackParams<T>& params, Rng& rng) {
  for (auto& layer : params.layers)
    init_xavier(layer, rng);
  params.final_norm.weight.setOnes();
  params.final_norm.bias.setZero();
}

template <typename T>
void stack_forward(Matrix<T>& out, StackCache<T>& cache, const Matrix<T>& inp,
                   const StackParams<T>& params, const StackConfig& config) {
  require(static_cast<Index>(params.layers.size()) == config.num_layers,
          "stack has " + std::to_string(params.layers.size()) + " layers of parameters, config " +
              "says " + std::to_string(config.num_layers));
  const std::size_t layer_count = params.layers.size();
  cache.layer_inputs.resize(layer_count + 1);
  cache.layers.resize(layer_count);
  cache.layer_inputs[0] = inp;
  for (std::size_t l = 0; l < layer_count; ++l) {
    encoder_layer_forward(cache.layer_inputs[l + 1], cache.layers[l], cache.layer_inputs[l],
                          params.layers[l], config.layer);
  }
  // Only a stack that ends on a LayerNorm reaches the op; the broken one leaves that norm out.
  if (config.final_norm && enter(Op::final_norm) != Fault::pre_ln_no_final_norm) {
    layernorm_forward(out, cache.final_mean, cache.final_rstd, cache.layer_inputs.back(),
                      params.final_norm, config.layer.layer_norm_eps);
  } else {
    out = cache.layer_inputs.back();
  }
}

template <typename T>
std::vector<ActivationStats> layer_output_stats(const StackCache<T>& cache) {
  std::vector<ActivationStats> stats;
  for (std::size_t l = 1; l < cache.layer_inputs.size(); ++l) {
    stats.push_back(activation_stats(cache.layer_inputs[l]));
  }
  return stats;
}

template <typename T>
void stack_backward(Matrix<T>& dinp, StackGrads<T>& grads, const Matrix<T>& dout,
                    const Matrix<T>& inp, const StackParams<T>& params, const StackCache<T>& cache,
                    const StackConfig& config) {
  const std::size_t layer_count = params.layers.size();
  require_shape(dout, inp.rows(), config.layer.d_model, "stack grad_output");
  grads.params.layers.resize(layer_count);
  grads.layer_input_grads.resize(layer_count);
  Matrix<T> dnext;
  // forward was: out = LN(last block's output) with a final norm not left out, else that output
  if (config.final_norm && enter(Op::final_norm) != Fault::pre_ln_no_final_norm) {
    layernorm_backward(dnext, grads.params.final_norm, dout, cache.layer_inputs.back(),
                       params.final_norm, cache.final_mean, cache.final_rstd);
  } else {
    dnext = dout;
    grads.params.final_norm = NormParams<T>();
    if (config.final_norm) {
      // Left out, the norm's γ and β touch no output: zero gradients of their shapes.
      grads.params.final_norm.weight = Vector<T>::Zero(params.final_norm.weight.size());
      grads.params.final_norm.bias = Vector<T>::Zero(params.final_norm.bias.size());
    }
  }
  for (std::size_t l = layer_count; l-- > 0;) {
    encoder_layer_backward(grads.layer_input_grads[l], grads.params.layers[l], dnext,
                           cache.layer_inputs[l], params.layers[l], cache.layers[l], config.layer);
    dnext = grads.layer_input_grads[l];
  }
  dinp = dnext;
}

template <typename T>
T clip_grad_norm(StackGrads<T>& grads, T max_norm) {
  require(max_norm > T(0), "clip_grad_norm: max_norm must be positive");
  T squares(0);
  for (auto& layer : grads.params.layers) {
    visit_params(layer, "",
                 [&squares](const std::string&, auto& tensor) { squares += tensor.squaredNorm(); });
  }
  squares +=
      grads.params.final_norm.weight.squaredNorm() + grads.params.final_norm.bias.squaredNorm();
  const T total = std::sqrt(squares);
  if (total > max_norm) {
    const T scale = max_norm / total;
    for (auto& layer : grads.params.layers)
      visit_params(layer, "", [scale](const std::string&, auto& tensor) { tensor *= scale; });
    grads.params.final_norm.weight *= scale;
    grads.params.final_norm.bias *= scale;
  }
  return total;
}

template <typename T>
void sgd_step(StackParams<T>& params, const StackGrads<T>& grads, T lr) {
  const std::vector<EncoderLayerParams<T>>& layer_grads = grads.params.layers;
  const auto layers = [](std::size_t n) {
    return std::to_string(n) + (n == 1 ? " layer" : " layers");
  };
  require(layer_grads.size() == params.layers.size(),
          "sgd_step: gradients for " + layers(layer_grads.size()) + ", but the stack has " +
              layers(params.layers.size()));
  for (std::size_t l = 0; l < params.layers.size(); ++l) {
    EncoderLayerParams<T>& layer = params.layers[l];
    const EncoderLayerParams<T>& grad = layer_grads[l];
    sgd_step(layer.self_attn.in_proj, grad.self_attn.in_proj, lr);
    sgd_step(layer.self_attn.out_proj, grad.self_attn.out_proj, lr);
    sgd_step(layer.feedforward.linear1, grad.feedforward.linear1, lr);
    sgd_step(layer.feedforward.linear2, grad.feedforward.linear2, lr);
    sgd_step(layer.norm1, grad.norm1, lr);  // empty norms (no normalization) step nothing
    sgd_step(layer.norm2, grad.norm2, lr);
  }
  sgd_step(params.final_norm, grads.params.final_norm, lr);
}

#define PROOFDECK_INSTANTIATE(T)                                                                  \
  template struct StackParams<T>;                                                                 \
  template void init_xavier<T>(StackParams<T>&, Rng&);                                            \
  template void stack_forward<T>(Matrix<T>&, StackCache<T>&, const Matrix<T>&,                    \
                                 const StackParams<T>&, const StackConfig&);                      \
  template std::vector<ActivationStats> layer_output_stats<T>(const StackCache<T>&);              \
  template void stack_backward<T>(Matrix<T>&, StackGrads<T>&, const Matrix<T>&, const Matrix<T>&, \
                                  const StackParams<T>&, const StackCache<T>&,                    \
                                  const StackConfig&);                                            \
  template T clip_grad_norm<T>(StackGrads<T>&, T);                                                \
  template void sgd_step<T>(StackParams<T>&, const StackGrads<T>&, T);
PROOFDECK_INSTANTIATE(float)
PROOFDECK_INSTANTIATE(double)
#undef PROOFDECK_INSTANTIATE

}  // namespace proofdeck::engine
