// `engine run`'s normalisations: layer_norm and rms_norm (each row by itself), batch_norm (each
// column over the batch, in training or eval mode), with padding rows masked out on request.
#include "engine_io/ops.hpp"

#include <limits>
#include <optional>
#include <vector>

#include "engine/norm.hpp"
#include "engine/optim.hpp"
#include "engine_io/op_run.hpp"
#include "engine_io/tensor_json.hpp"

namespace proofdeck::engine_io::detail {

// layer_norm and rms_norm share their reading; they differ in the formula.
template <typename T>
void run_row_norm(OpRun<T>& run, bool rms) {
  const auto channels = run.config.normalized_shape();
  const double eps = run.config.positive_number(
      "eps", rms ? static_cast<double>(std::numeric_limits<T>::epsilon()) : 1e-5);
  const bool affine = run.config.flag("elementwise_affine", true);
  const bool bias = !rms && run.config.flag("bias", true);
  const std::optional<T> lr = sgd_learning_rate(run);
  if (lr && !affine) {
    spec_error(run.source, "config",
               "config.sgd_lr: without elementwise_affine the norm has no parameters to step");
  }
  engine::NormParams<T> params(channels, affine, bias);
  if (affine) run.params.vector("weight", params.weight, channels);
  if (affine && bias) run.params.vector("bias", params.bias, channels);
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, channels);
  const auto dout = run.grad_output_matrix(x.rows(), channels);

  if (rms && run.padding_mask != nullptr) {
    spec_error(run.source, "padding_mask",
               "padding_mask: rms_norm takes none (it normalises each row by itself, as "
               "layer_norm does); leave it out");
  }
  const std::vector<bool> padding = run.mask(run.padding_mask, "padding_mask", x.rows(), "row");

  Matrix<T> y;
  Vector<T> mean, rstd;
  if (rms) {
    engine::rmsnorm_forward(y, rstd, x, params, eps);
  } else if (!padding.empty()) {
    engine::masked_layernorm_forward(y, mean, rstd, x, padding, params, eps);
  } else {
    engine::layernorm_forward(y, mean, rstd, x, params, eps);
  }
  run.result["output"] = to_json(y);
  if (!dout) return;
  Matrix<T> dx;
  engine::NormParams<T> grads;
  if (rms) {
    engine::rmsnorm_backward(dx, grads, *dout, x, params, rstd);
  } else if (!padding.empty()) {
    engine::masked_layernorm_backward(dx, grads, *dout, x, padding, params, mean, rstd);
  } else {
    engine::layernorm_backward(dx, grads, *dout, x, params, mean, rstd);
  }
  run.result["grads"] = {{"input", to_json(dx)}};
  if (affine) run.result["grads"]["weight"] = to_json(grads.weight);
  if (affine && bias) run.result["grads"]["bias"] = to_json(grads.bias);
  if (!lr) return;
  engine::sgd_step(params, grads, *lr);
  run.result["after_step"] = {{"weight", to_json(params.weight)}};
  if (bias) run.result["after_step"]["bias"] = to_json(params.bias);
}

template <typename T>
void run_batch_norm(OpRun<T>& run) {
  const auto channels = run.config.dimension("num_features");
  const double eps = run.config.positive_number("eps", 1e-5);
  const double momentum = run.config.fraction("momentum", 0.1);
  const bool affine = run.config.flag("affine", true);
  const bool training = run.config.flag("training", true);
  if (!run.config.flag("track_running_stats", true)) {
    spec_error(run.source, "config",
               "config.track_running_stats: only true is supported (the running statistics are "
               "what eval mode normalises with)");
  }
  engine::BatchNormParams<T> params(channels, affine);
  if (affine) {
    run.params.vector("weight", params.affine.weight, channels);
    run.params.vector("bias", params.affine.bias, channels);
  }
  run.params.optional_vector("running_mean", params.running_mean, channels);
  run.params.optional_vector("running_var", params.running_var, channels);
  run.params.ignore("num_batches_tracked");  // in every BatchNorm state_dict; unused here
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, channels);
  const auto dout = run.grad_output_matrix(x.rows(), channels);

  if (!training && run.padding_mask != nullptr) {
    spec_error(run.source, "padding_mask",
               "padding_mask: in eval mode batch_norm normalises with its running statistics, "
               "which no row of the batch moves; a padding mask belongs to training mode");
  }
  const std::vector<bool> padding = run.mask(run.padding_mask, "padding_mask", x.rows(), "row");

  Matrix<T> y, dx;
  Vector<T> mean, rstd;
  engine::NormParams<T> grads;
  if (training && !padding.empty()) {
    engine::masked_batchnorm_train_forward(y, mean, rstd, x, padding, params, eps, momentum);
    if (dout) {
      engine::masked_batchnorm_train_backward(dx, grads, *dout, x, padding, params.affine, mean,
                                              rstd);
    }
  } else if (training) {
    engine::batchnorm_train_forward(y, mean, rstd, x, params, eps, momentum);
    if (dout) engine::batchnorm_train_backward(dx, grads, *dout, x, params.affine, mean, rstd);
  } else {
    engine::batchnorm_eval_forward(y, x, params, eps);
    if (dout) engine::batchnorm_eval_backward(dx, grads, *dout, x, params, eps);
  }
  run.result["output"] = to_json(y);
  run.result["state"] = {{"running_mean", to_json(params.running_mean)},
                         {"running_var", to_json(params.running_var)}};
  if (!dout) return;
  run.result["grads"] = {{"input", to_json(dx)}};
  if (affine) {
    run.result["grads"]["weight"] = to_json(grads.weight);
    run.result["grads"]["bias"] = to_json(grads.bias);
  }
}

template void run_row_norm<float>(OpRun<float>& run, bool rms);
template void run_row_norm<double>(OpRun<double>& run, bool rms);
template void run_batch_norm<float>(OpRun<float>& run);
template void run_batch_norm<double>(OpRun<double>& run);

}  // namespace proofdeck::engine_io::detail
