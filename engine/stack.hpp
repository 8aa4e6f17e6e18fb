// A stack of L transformer blocks with an optional final LayerNorm (Pre-LN stacks need one), and
// the per-layer statistics the demos plot: activation mean, variance and norm on the way up,
// gradient norms on the way down.
#pragma once

#include <vector>

#include "engine/encoder_layer.hpp"

namespace proofdeck::engine {

struct StackConfig {
  EncoderLayerConfig layer;  // every block shares this configuration
  Index num_layers = 6;      // L
  bool final_norm = false;   // LayerNorm after the last block (Pre-LN's usual ending)
};

template <typename T>
struct StackParams {
  std::vector<EncoderLayerParams<T>> layers;
  NormParams<T> final_norm;  // empty unless config.final_norm

  StackParams() = default;
  explicit StackParams(const StackConfig& config);
};

template <typename T>
void init_xavier(StackParams<T>& params, Rng& rng);

struct ActivationStats {
  double mean = 0.0;      // over all entries
  double variance = 0.0;  // biased, over all entries
  double norm = 0.0;      // Frobenius norm
};

template <typename Derived>
ActivationStats activation_stats(const Eigen::MatrixBase<Derived>& m) {
  ActivationStats stats;
  if (m.size() == 0) return stats;
  const double count = static_cast<double>(m.size());
  stats.mean = static_cast<double>(m.sum()) / count;
  stats.variance = (m.template cast<double>().array() - stats.mean).square().sum() / count;
  stats.norm = static_cast<double>(m.norm());
  return stats;
}

template <typename T>
struct StackCache {
  std::vector<Matrix<T>>
      layer_inputs;  // L + 1: block l's input; the last is the last block's output
  std::vector<EncoderLayerCache<T>> layers;
  Vector<T> final_mean, final_rstd;
};

template <typename T>
void stack_forward(Matrix<T>& out,  // (T, E)
                   StackCache<T>& cache,
                   const Matrix<T>& inp,  // (T, E)
                   const StackParams<T>& params, const StackConfig& config);

// Statistics of each block's output (index l = block l + 1's input), before any final norm.
template <typename T>
std::vector<ActivationStats> layer_output_stats(const StackCache<T>& cache);

template <typename T>
struct StackGrads {
  StackParams<T> params;                     // gradient of every parameter
  std::vector<Matrix<T>> layer_input_grads;  // L: gradient reaching each block's input
};

template <typename T>
void stack_backward(Matrix<T>& dinp,  // (T, E)
                    StackGrads<T>& grads,
                    const Matrix<T>& dout,  // (T, E)
                    const Matrix<T>& inp,   // (T, E)
                    const StackParams<T>& params, const StackCache<T>& cache,
                    const StackConfig& config);

// torch.nn.utils.clip_grad_norm_(stack.parameters(), max_norm): when the norm of all the
// gradients together exceeds max_norm, every gradient is scaled by max_norm / that norm. Returns
// the norm before clipping.
template <typename T>
T clip_grad_norm(StackGrads<T>& grads, T max_norm);

// One SGD step for every parameter of the stack (optim.hpp's sgd_step for each Linear and each
// norm, so the optimizer-rescales-weights fault keeps the same rule): p ← p − lr·∇p.
template <typename T>
void sgd_step(StackParams<T>& params, const StackGrads<T>& grads, T lr);

}  // namespace proofdeck::engine
