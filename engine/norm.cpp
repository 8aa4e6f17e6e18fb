// Forward and backward of LayerNorm, RMSNorm and BatchNorm1d.
#include "engine/norm.hpp"

#include <cmath>
#include <string>

#include "engine/fault.hpp"

namespace proofdeck::engine {

namespace {

template <typename T>
void check_affine(const NormParams<T>& params, Index channels, const char* layer) {
  if (!params.affine()) return;
  require(params.weight.size() == channels,
          std::string(layer) + " weight has " + std::to_string(params.weight.size()) +
              " elements, expected " + std::to_string(channels) + " (one per feature)");
  require(params.bias.size() == 0 || params.bias.size() == channels,
          std::string(layer) + " bias has " + std::to_string(params.bias.size()) +
              " elements, expected " + std::to_string(channels) + " (one per feature)");
}

// out = xhat·γ + β, row by row.
template <typename T>
void apply_affine(Matrix<T>& out, const NormParams<T>& params) {
  if (!params.affine()) return;
  out.array().rowwise() *= params.weight.transpose().array();
  if (params.bias.size() != 0) out.rowwise() += params.bias.transpose();
}

// dγ = Σ dout·xhat, dβ = Σ dout over rows; returns dxhat = dout·γ.
template <typename T>
Matrix<T> affine_backward(NormParams<T>& grads, const Matrix<T>& dout, const Matrix<T>& xhat,
                          const NormParams<T>& params) {
  if (!params.affine()) {
    grads = NormParams<T>();
    return dout;
  }
  grads.weight = dout.cwiseProduct(xhat).colwise().sum().transpose();
  if (params.bias.size() != 0) {
    grads.bias = dout.colwise().sum().transpose();
  } else {
    grads.bias.resize(0);
  }
  Matrix<T> dxhat = dout;
  dxhat.array().rowwise() *= params.weight.transpose().array();
  return dxhat;
}

// LayerNorm's statistics of each row: mean (N) and rstd (N) = 1/√(var + eps), with the biased
// variance — or, broken, no centring (mean 0), no scaling (rstd 1) or the unbiased variance.
// BatchNorm per token (a fault) normalises its rows with the same arithmetic.
template <typename T>
void normalize_rows(Matrix<T>& out, Vector<T>& mean, Vector<T>& rstd, const Matrix<T>& inp,
                    double eps, Fault fault) {
  const T n = static_cast<T>(inp.cols());
  if (fault == Fault::layernorm_no_centring) {
    mean = Vector<T>::Zero(inp.rows());
  } else {
    mean = inp.rowwise().sum() / n;
  }
  out = inp.colwise() - mean;
  // One feature has no n − 1 to divide by; the broken variance falls back to n there.
  const T divisor = fault == Fault::layernorm_unbiased_variance && inp.cols() > 1 ? n - T(1) : n;
  const Vector<T> var = out.rowwise().squaredNorm() / divisor;  // biased (÷ n), as PyTorch
  if (fault == Fault::layernorm_no_scaling) {
    rstd = Vector<T>::Ones(inp.rows());
  } else {
    rstd = (var.array() + static_cast<T>(eps)).rsqrt();
  }
  out.array().colwise() *= rstd.array();
}

// The backward of normalize_rows under the same fault, from dxhat = dout·γ.
template <typename T>
void normalize_rows_backward(Matrix<T>& dinp, const Matrix<T>& dxhat, const Matrix<T>& xhat,
                             const Vector<T>& rstd, Fault fault) {
  // forward was: xhat = (x − mean)·rstd, mean and rstd functions of the row
  const T n = static_cast<T>(xhat.cols());
  if (fault == Fault::layernorm_no_scaling) {
    // forward was: xhat = x − mean
    dinp = dxhat.colwise() - Vector<T>(dxhat.rowwise().sum() / n);
    return;
  }
  const T divisor = fault == Fault::layernorm_unbiased_variance && xhat.cols() > 1 ? n - T(1) : n;
  const Vector<T> mean_dxhat_xhat = dxhat.cwiseProduct(xhat).rowwise().sum() / divisor;
  if (fault == Fault::layernorm_no_centring) {
    dinp = dxhat;  // the mean is 0 whatever x, so it passes no gradient
  } else {
    const Vector<T> mean_dxhat = dxhat.rowwise().sum() / n;
    dinp = dxhat.colwise() - mean_dxhat;
  }
  dinp.array() -= xhat.array().colwise() * mean_dxhat_xhat.array();
  dinp.array().colwise() *= rstd.array();
}

}  // namespace

template <typename T>
void layernorm_forward(Matrix<T>& out, Vector<T>& mean, Vector<T>& rstd, const Matrix<T>& inp,
                       const NormParams<T>& params, double eps) {
  const Fault fault = enter(Op::layernorm);
  check_affine(params, inp.cols(), "layer_norm");
  require(inp.cols() > 0, "layer_norm needs at least one feature");
  if (fault == Fault::layernorm_batch_statistics) {
    // Broken: each feature normalised over the rows, as BatchNorm in training, so mean and rstd
    // are (F) and a token's output depends on its companions; a lone row normalises to 0.
    Matrix<T> by_feature;
    normalize_rows(by_feature, mean, rstd, Matrix<T>(inp.transpose()), eps, Fault::none);
    out = by_feature.transpose();
  } else {
    normalize_rows(out, mean, rstd, inp, eps, fault);
  }
  apply_affine(out, params);
}

template <typename T>
void layernorm_backward(Matrix<T>& dinp, NormParams<T>& grads, const Matrix<T>& dout,
                        const Matrix<T>& inp, const NormParams<T>& params, const Vector<T>& mean,
                        const Vector<T>& rstd) {
  // forward was: xhat = (x − mean)·rstd; out = xhat·γ + β
  const Fault fault = enter(Op::layernorm);
  require_shape(dout, inp.rows(), inp.cols(), "layer_norm grad_output");
  if (fault == Fault::layernorm_batch_statistics) {
    // forward was (broken): xhat = (x − mean_feature)·rstd_feature per column
    Matrix<T> xhat = inp.rowwise() - mean.transpose();
    xhat.array().rowwise() *= rstd.transpose().array();
    const Matrix<T> dxhat = affine_backward(grads, dout, xhat, params);
    Matrix<T> by_feature;
    normalize_rows_backward(by_feature, Matrix<T>(dxhat.transpose()), Matrix<T>(xhat.transpose()),
                            rstd, Fault::none);
    dinp = by_feature.transpose();
    return;
  }
  Matrix<T> xhat = inp.colwise() - mean;
  xhat.array().colwise() *= rstd.array();
  const Matrix<T> dxhat = affine_backward(grads, dout, xhat, params);
  normalize_rows_backward(dinp, dxhat, xhat, rstd, fault);
  if (fault == Fault::layernorm_normalizes_gradients) {
    // Broken: the gradient passed back is normalised as the forward's activations are, to mean 0
    // and variance 1 in each token (a token whose gradient is 0 keeps it: the ε guards it).
    constexpr double kGradientEps = 1e-12;
    Vector<T> grad_mean, grad_rstd;
    normalize_rows(dinp, grad_mean, grad_rstd, Matrix<T>(dinp), kGradientEps, Fault::none);
  }
}

template <typename T>
void rmsnorm_forward(Matrix<T>& out, Vector<T>& rrms, const Matrix<T>& inp,
                     const NormParams<T>& params, double eps) {
  const Fault fault = enter(Op::rmsnorm);
  check_affine(params, inp.cols(), "rms_norm");
  require(inp.cols() > 0, "rms_norm needs at least one feature");
  const T n = static_cast<T>(inp.cols());
  // Broken, each row is centred first as LayerNorm's: its root mean square is then its std.
  const bool centre = fault == Fault::rmsnorm_as_layernorm;
  Matrix<T> centred;
  if (centre) centred = inp.colwise() - Vector<T>(inp.rowwise().mean());
  const Matrix<T>& x = centre ? centred : inp;
  rrms = (x.rowwise().squaredNorm() / n).array() + static_cast<T>(eps);
  rrms = rrms.array().rsqrt();
  out = x;
  out.array().colwise() *= rrms.array();
  apply_affine(out, params);
}

template <typename T>
void rmsnorm_backward(Matrix<T>& dinp, NormParams<T>& grads, const Matrix<T>& dout,
                      const Matrix<T>& inp, const NormParams<T>& params, const Vector<T>& rrms) {
  // forward was: xhat = x·rrms, rrms = (mean(x²) + eps)^(−½); out = xhat·γ
  const Fault fault = enter(Op::rmsnorm);
  require_shape(dout, inp.rows(), inp.cols(), "rms_norm grad_output");
  const bool centre = fault == Fault::rmsnorm_as_layernorm;
  Matrix<T> xhat = inp;
  if (centre) xhat = inp.colwise() - Vector<T>(inp.rowwise().mean());
  xhat.array().colwise() *= rrms.array();
  const Matrix<T> dxhat = affine_backward(grads, dout, xhat, params);
  const T n = static_cast<T>(inp.cols());
  const Vector<T> mean_dxhat_xhat = dxhat.cwiseProduct(xhat).rowwise().sum() / n;
  if (centre) {
    // forward was: x − mean(x) in place of x, so the gradient loses its row mean as LayerNorm's
    dinp = dxhat.colwise() - Vector<T>(dxhat.rowwise().mean());
  } else {
    dinp = dxhat;
  }
  dinp.array() -= xhat.array().colwise() * mean_dxhat_xhat.array();
  dinp.array().colwise() *= rrms.array();
}

namespace {

template <typename T>
void check_batchnorm(const Matrix<T>& inp, const BatchNormParams<T>& params) {
  require(inp.cols() == params.channels(), "batch_norm input has " + std::to_string(inp.cols()) +
                                               " channels (shape " + shape_of(inp) +
                                               "), expected " + std::to_string(params.channels()));
  require(params.running_var.size() == params.channels(),
          "batch_norm running_var has " + std::to_string(params.running_var.size()) +
              " elements, expected " + std::to_string(params.channels()));
  check_affine(params.affine, params.channels(), "batch_norm");
}

}  // namespace

template <typename T>
void batchnorm_train_forward(Matrix<T>& out, Vector<T>& mean, Vector<T>& rstd, const Matrix<T>& inp,
                             BatchNormParams<T>& params, double eps, double momentum) {
  const Fault fault = enter(Op::batchnorm);
  check_batchnorm(inp, params);
  if (fault == Fault::batchnorm_per_token) {
    // Broken: each token normalised over its own features as LayerNorm does, so mean and rstd
    // are (N) and one token is enough; with no per-channel statistics, the running ones stay.
    normalize_rows(out, mean, rstd, inp, eps, Fault::none);
    apply_affine(out, params.affine);
    return;
  }
  if (inp.rows() <= 1) {
    throw EngineError("Expected more than 1 value per channel when training, got input of shape " +
                      shape_of(inp));
  }
  const T n = static_cast<T>(inp.rows());
  mean = inp.colwise().sum().transpose() / n;
  out = inp.rowwise() - mean.transpose();
  const Vector<T> var = out.colwise().squaredNorm().transpose() / n;  // biased, for normalising
  rstd = (var.array() + static_cast<T>(eps)).rsqrt();
  out.array().rowwise() *= rstd.transpose().array();
  apply_affine(out, params.affine);

  const T m = static_cast<T>(momentum);
  const Vector<T> unbiased_var = var * (n / (n - T(1)));
  params.running_mean = (T(1) - m) * params.running_mean + m * mean;
  params.running_var = (T(1) - m) * params.running_var + m * unbiased_var;
}

template <typename T>
void batchnorm_train_backward(Matrix<T>& dinp, NormParams<T>& grads, const Matrix<T>& dout,
                              const Matrix<T>& inp, const NormParams<T>& params,
                              const Vector<T>& mean, const Vector<T>& rstd) {
  // forward was: xhat = (x − mean_batch)·rstd_batch per column; out = xhat·γ + β
  const Fault fault = enter(Op::batchnorm);
  require_shape(dout, inp.rows(), inp.cols(), "batch_norm grad_output");
  if (fault == Fault::batchnorm_per_token) {
    // forward was (broken): xhat = (x − mean_token)·rstd_token per row, as LayerNorm's
    Matrix<T> xhat = inp.colwise() - mean;
    xhat.array().colwise() *= rstd.array();
    normalize_rows_backward(dinp, affine_backward(grads, dout, xhat, params), xhat, rstd,
                            Fault::none);
    return;
  }
  Matrix<T> xhat = inp.rowwise() - mean.transpose();
  xhat.array().rowwise() *= rstd.transpose().array();
  const Matrix<T> dxhat = affine_backward(grads, dout, xhat, params);
  const T n = static_cast<T>(inp.rows());
  const Vector<T> mean_dxhat = dxhat.colwise().sum().transpose() / n;
  const Vector<T> mean_dxhat_xhat = dxhat.cwiseProduct(xhat).colwise().sum().transpose() / n;
  dinp = dxhat.rowwise() - mean_dxhat.transpose();
  dinp.array() -= xhat.array().rowwise() * mean_dxhat_xhat.transpose().array();
  dinp.array().rowwise() *= rstd.transpose().array();
}

template <typename T>
void batchnorm_eval_forward(Matrix<T>& out, const Matrix<T>& inp, const BatchNormParams<T>& params,
                            double eps) {
  check_batchnorm(inp, params);
  const Vector<T> rstd = (params.running_var.array() + static_cast<T>(eps)).rsqrt();
  out = inp.rowwise() - params.running_mean.transpose();
  out.array().rowwise() *= rstd.transpose().array();
  apply_affine(out, params.affine);
}

template <typename T>
void batchnorm_eval_backward(Matrix<T>& dinp, NormParams<T>& grads, const Matrix<T>& dout,
                             const Matrix<T>& inp, const BatchNormParams<T>& params, double eps) {
  // forward was: out = (x − running_mean)·rstd_running·γ + β, a per-channel affine map
  require_shape(dout, inp.rows(), inp.cols(), "batch_norm grad_output");
  const Vector<T> rstd = (params.running_var.array() + static_cast<T>(eps)).rsqrt();
  Matrix<T> xhat = inp.rowwise() - params.running_mean.transpose();
  xhat.array().rowwise() *= rstd.transpose().array();
  dinp = affine_backward(grads, dout, xhat, params.affine);
  dinp.array().rowwise() *= rstd.transpose().array();
}

namespace {

void check_padding(const std::vector<bool>& padding, Index rows, const char* layer) {
  require(static_cast<Index>(padding.size()) == rows,
          std::string(layer) + " padding mask has " + std::to_string(padding.size()) +
              " entries for " + std::to_string(rows) + " rows; expected one per row");
}

// The rows a masked BatchNorm takes its statistics over: the real ones, or under
// padding-in-batch-statistics every row.
std::vector<Index> statistics_rows(const std::vector<bool>& padding, Fault fault) {
  std::vector<Index> rows;
  for (std::size_t row = 0; row < padding.size(); ++row) {
    if (!padding[row] || fault == Fault::padding_in_batch_statistics)
      rows.push_back(static_cast<Index>(row));
  }
  return rows;
}

template <typename T>
void zero_padding_rows(Matrix<T>& m, const std::vector<bool>& padding) {
  for (std::size_t row = 0; row < padding.size(); ++row) {
    if (padding[row]) m.row(static_cast<Index>(row)).setZero();
  }
}

}  // namespace

template <typename T>
void masked_layernorm_forward(Matrix<T>& out, Vector<T>& mean, Vector<T>& rstd,
                              const Matrix<T>& inp, const std::vector<bool>& padding,
                              const NormParams<T>& params, double eps) {
  enter(Op::padding);
  check_padding(padding, inp.rows(), "layer_norm");
  layernorm_forward(out, mean, rstd, inp, params, eps);
  zero_padding_rows(out, padding);
}

template <typename T>
void masked_layernorm_backward(Matrix<T>& dinp, NormParams<T>& grads, const Matrix<T>& dout,
                               const Matrix<T>& inp, const std::vector<bool>& padding,
                               const NormParams<T>& params, const Vector<T>& mean,
                               const Vector<T>& rstd) {
  // forward was: out = LayerNorm(x) on real rows, 0 on padding rows
  enter(Op::padding);
  check_padding(padding, inp.rows(), "layer_norm");
  require_shape(dout, inp.rows(), inp.cols(), "layer_norm grad_output");
  Matrix<T> real_dout = dout;
  zero_padding_rows(real_dout, padding);
  layernorm_backward(dinp, grads, real_dout, inp, params, mean, rstd);
}

template <typename T>
void masked_batchnorm_train_forward(Matrix<T>& out, Vector<T>& mean, Vector<T>& rstd,
                                    const Matrix<T>& inp, const std::vector<bool>& padding,
                                    BatchNormParams<T>& params, double eps, double momentum) {
  const Fault fault = enter(Op::padding);
  check_padding(padding, inp.rows(), "batch_norm");
  const std::vector<Index> rows = statistics_rows(padding, fault);
  Matrix<T> normalized;
  batchnorm_train_forward(normalized, mean, rstd, Matrix<T>(inp(rows, Eigen::all)), params, eps,
                          momentum);
  out = Matrix<T>::Zero(inp.rows(), inp.cols());
  out(rows, Eigen::all) = normalized;
  zero_padding_rows(out, padding);
}

template <typename T>
void masked_batchnorm_train_backward(Matrix<T>& dinp, NormParams<T>& grads, const Matrix<T>& dout,
                                     const Matrix<T>& inp, const std::vector<bool>& padding,
                                     const NormParams<T>& params, const Vector<T>& mean,
                                     const Vector<T>& rstd) {
  // forward was: the statistics rows normalised as one BatchNorm batch; padding rows' output 0
  const Fault fault = enter(Op::padding);
  check_padding(padding, inp.rows(), "batch_norm");
  require_shape(dout, inp.rows(), inp.cols(), "batch_norm grad_output");
  const std::vector<Index> rows = statistics_rows(padding, fault);
  Matrix<T> real_dout = dout;
  zero_padding_rows(real_dout, padding);
  Matrix<T> dselected;
  batchnorm_train_backward(dselected, grads, Matrix<T>(real_dout(rows, Eigen::all)),
                           Matrix<T>(inp(rows, Eigen::all)), params, mean, rstd);
  dinp = Matrix<T>::Zero(inp.rows(), inp.cols());
  dinp(rows, Eigen::all) = dselected;
}

#define PROOFDECK_INSTANTIATE(T)                                                                   \
  template void layernorm_forward<T>(Matrix<T>&, Vector<T>&, Vector<T>&, const Matrix<T>&,         \
                                     const NormParams<T>&, double);                                \
  template void layernorm_backward<T>(Matrix<T>&, NormParams<T>&, const Matrix<T>&,                \
                                      const Matrix<T>&, const NormParams<T>&, const Vector<T>&,    \
                                      const Vector<T>&);                                           \
  template void rmsnorm_forward<T>(Matrix<T>&, Vector<T>&, const Matrix<T>&, const NormParams<T>&, \
                                   double);                                                        \
  template void rmsnorm_backward<T>(Matrix<T>&, NormParams<T>&, const Matrix<T>&,                  \
                                    const Matrix<T>&, const NormParams<T>&, const Vector<T>&);     \
  template void batchnorm_train_forward<T>(Matrix<T>&, Vector<T>&, Vector<T>&, const Matrix<T>&,   \
                                           BatchNormParams<T>&, double, double);                   \
  template void batchnorm_train_backward<T>(Matrix<T>&, NormParams<T>&, const Matrix<T>&,          \
                                            const Matrix<T>&, const NormParams<T>&,                \
                                            const Vector<T>&, const Vector<T>&);                   \
  template void batchnorm_eval_forward<T>(Matrix<T>&, const Matrix<T>&, const BatchNormParams<T>&, \
                                          double);                                                 \
  template void batchnorm_eval_backward<T>(Matrix<T>&, NormParams<T>&, const Matrix<T>&,           \
                                           const Matrix<T>&, const BatchNormParams<T>&, double);   \
  template void masked_layernorm_forward<T>(Matrix<T>&, Vector<T>&, Vector<T>&, const Matrix<T>&,  \
                                            const std::vector<bool>&, const NormParams<T>&,        \
                                            double);                                               \
  template void masked_layernorm_backward<T>(                                                      \
      Matrix<T>&, NormParams<T>&, const Matrix<T>&, const Matrix<T>&, const std::vector<bool>&,    \
      const NormParams<T>&, const Vector<T>&, const Vector<T>&);                                   \
  template void masked_batchnorm_train_forward<T>(Matrix<T>&, Vector<T>&, Vector<T>&,              \
                                                  const Matrix<T>&, const std::vector<bool>&,      \
                                                  BatchNormParams<T>&, double, double);            \
  template void masked_batchnorm_train_backward<T>(                                                \
      Matrix<T>&, NormParams<T>&, const Matrix<T>&, const Matrix<T>&, const std::vector<bool>&,    \
      const NormParams<T>&, const Vector<T>&, const Vector<T>&);
PROOFDECK_INSTANTIATE(float)
PROOFDECK_INSTANTIATE(double)
#undef PROOFDECK_INSTANTIATE

}  // namespace proofdeck::engine
