// Normalisation layers: LayerNorm and RMSNorm over each row's features, BatchNorm1d over each
// column's batch. LayerNorm uses only the row itself, which is why it suits variable-length
// sequences and one-token decoding; BatchNorm's statistics depend on the whole batch.
#pragma once

#include "engine/tensor.hpp"

namespace proofdeck::engine {

// weight and bias are (C); both empty when the layer has no affine transform.
template <typename T>
struct NormParams {
  Vector<T> weight;  // (C) scale γ
  Vector<T> bias;    // (C) shift β (empty for RMSNorm)

  NormParams() = default;
  NormParams(Index channels, bool affine, bool has_bias = true)
      : weight(affine ? Vector<T>::Ones(channels) : Vector<T>()),
        bias(affine && has_bias ? Vector<T>::Zero(channels) : Vector<T>()) {}
  bool affine() const { return weight.size() != 0; }
};

// --- LayerNorm: y = (x − mean) / √(var + eps) · γ + β per row, biased variance ---------------
template <typename T>
void layernorm_forward(Matrix<T>& out,        // (N, C)
                       Vector<T>& mean,       // (N) kept for backward
                       Vector<T>& rstd,       // (N) 1/√(var + eps), kept for backward
                       const Matrix<T>& inp,  // (N, C)
                       const NormParams<T>& params, double eps);

template <typename T>
void layernorm_backward(Matrix<T>& dinp,        // (N, C)
                        NormParams<T>& grads,   // same shapes as params
                        const Matrix<T>& dout,  // (N, C)
                        const Matrix<T>& inp,   // (N, C)
                        const NormParams<T>& params, const Vector<T>& mean, const Vector<T>& rstd);

// --- RMSNorm (Zhang & Sennrich 2019): y = x / √(mean(x²) + eps) · γ per row ------------------
template <typename T>
void rmsnorm_forward(Matrix<T>& out,        // (N, C)
                     Vector<T>& rrms,       // (N) 1/√(mean(x²) + eps), kept for backward
                     const Matrix<T>& inp,  // (N, C)
                     const NormParams<T>& params, double eps);

template <typename T>
void rmsnorm_backward(Matrix<T>& dinp, NormParams<T>& grads, const Matrix<T>& dout,
                      const Matrix<T>& inp, const NormParams<T>& params, const Vector<T>& rrms);

// --- BatchNorm1d on (N, C): statistics per channel over the batch ------------------------------
template <typename T>
struct BatchNormParams {
  NormParams<T> affine;    // γ, β
  Vector<T> running_mean;  // (C)
  Vector<T> running_var;   // (C), unbiased like PyTorch's

  BatchNormParams() = default;
  explicit BatchNormParams(Index channels, bool has_affine = true)
      : affine(channels, has_affine),
        running_mean(Vector<T>::Zero(channels)),
        running_var(Vector<T>::Ones(channels)) {}
  Index channels() const { return running_mean.size(); }
};

// Training mode: normalises with the batch's mean and biased variance and moves the running
// statistics by `momentum` (unbiased variance), as nn.BatchNorm1d.train() does. One row is an
// error, as in PyTorch ("Expected more than 1 value per channel when training").
template <typename T>
void batchnorm_train_forward(Matrix<T>& out,        // (N, C)
                             Vector<T>& mean,       // (C) batch mean, kept for backward
                             Vector<T>& rstd,       // (C) 1/√(batch var + eps)
                             const Matrix<T>& inp,  // (N, C)
                             BatchNormParams<T>& params, double eps, double momentum);

template <typename T>
void batchnorm_train_backward(Matrix<T>& dinp, NormParams<T>& grads, const Matrix<T>& dout,
                              const Matrix<T>& inp, const NormParams<T>& params,
                              const Vector<T>& mean, const Vector<T>& rstd);

// Eval mode: the running statistics stand in for the batch's; nothing is updated.
template <typename T>
void batchnorm_eval_forward(Matrix<T>& out, const Matrix<T>& inp, const BatchNormParams<T>& params,
                            double eps);

template <typename T>
void batchnorm_eval_backward(Matrix<T>& dinp, NormParams<T>& grads, const Matrix<T>& dout,
                             const Matrix<T>& inp, const BatchNormParams<T>& params, double eps);

}  // namespace proofdeck::engine
