// Normalisation layers: LayerNorm and RMSNorm over each row's features, BatchNorm1d over each
// column's batch. LayerNorm uses only the row itself, which is why it suits variable-length
// sequences and one-token decoding; BatchNorm's statistics depend on the whole batch.
#pragma once

#include <vector>

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

// --- padded batches: the same layers with a length mask --------------------------------------
// `padding` (N) is true at a row that pads a short sequence to the batch's length. The padding
// rows' outputs and input gradients are 0; the real rows get what the layer gives them without
// the padding:
// - LayerNorm needs nothing from the mask: each row is normalised over its own features, so the
//   padding never enters a real token's statistics (the mask only zeroes the padding's output);
// - BatchNorm's per-feature statistics are taken over the real rows only, as nn.BatchNorm1d on
//   the packed real tokens; the running statistics move by those rows' mean and variance.
//   padding-in-batch-statistics (fault): the padding rows are counted in the statistics too.
template <typename T>
void masked_layernorm_forward(Matrix<T>& out, Vector<T>& mean, Vector<T>& rstd,
                              const Matrix<T>& inp, const std::vector<bool>& padding,
                              const NormParams<T>& params, double eps);

template <typename T>
void masked_layernorm_backward(Matrix<T>& dinp, NormParams<T>& grads, const Matrix<T>& dout,
                               const Matrix<T>& inp, const std::vector<bool>& padding,
                               const NormParams<T>& params, const Vector<T>& mean,
                               const Vector<T>& rstd);

template <typename T>
void masked_batchnorm_train_forward(Matrix<T>& out, Vector<T>& mean, Vector<T>& rstd,
                                    const Matrix<T>& inp, const std::vector<bool>& padding,
                                    BatchNormParams<T>& params, double eps, double momentum);

template <typename T>
void masked_batchnorm_train_backward(Matrix<T>& dinp, NormParams<T>& grads, const Matrix<T>& dout,
                                     const Matrix<T>& inp, const std::vector<bool>& padding,
                                     const NormParams<T>& params, const Vector<T>& mean,
                                     const Vector<T>& rstd);

}  // namespace proofdeck::engine
