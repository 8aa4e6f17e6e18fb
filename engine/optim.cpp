// SGD's step (see optim.hpp).
#include "engine/optim.hpp"

#include <string>

#include "engine/fault.hpp"

namespace proofdeck::engine {

namespace {

template <typename Tensor>
void require_same_shape(const Tensor& param, const Tensor& grad, const char* what) {
  require(param.rows() == grad.rows() && param.cols() == grad.cols(),
          std::string("sgd_step: the gradient of ") + what + " is " + std::to_string(grad.rows()) +
              "×" + std::to_string(grad.cols()) + ", the parameter " +
              std::to_string(param.rows()) + "×" + std::to_string(param.cols()));
}

// optimizer-rescales-weights: a stepped row (or vector) scaled back to the length it had.
template <typename Row, typename T>
void keep_length(Row&& row, T length) {
  const T stepped = row.norm();
  if (stepped > T(0)) row *= length / stepped;
}

}  // namespace

template <typename T>
void sgd_step(LinearParams<T>& params, const LinearParams<T>& grads, T lr) {
  const bool rescale = enter(Op::optimizer) == Fault::optimizer_rescales_weights;
  require_same_shape(params.weight, grads.weight, "the weight");
  require_same_shape(params.bias, grads.bias, "the bias");
  const Vector<T> lengths = rescale ? Vector<T>(params.weight.rowwise().norm()) : Vector<T>();
  params.weight -= lr * grads.weight;
  params.bias -= lr * grads.bias;
  if (!rescale) return;
  for (Index row = 0; row < params.weight.rows(); ++row)
    keep_length(params.weight.row(row), lengths(row));
}

template <typename T>
void sgd_step(NormParams<T>& params, const NormParams<T>& grads, T lr) {
  const bool rescale = enter(Op::optimizer) == Fault::optimizer_rescales_weights;
  require_same_shape(params.weight, grads.weight, "γ");
  require_same_shape(params.bias, grads.bias, "β");
  const T length = rescale ? params.weight.norm() : T(0);
  params.weight -= lr * grads.weight;
  params.bias -= lr * grads.bias;
  if (rescale) keep_length(params.weight, length);
}

template <typename T>
void sgd_step(Matrix<T>& param, const Matrix<T>& grad, T lr) {
  const bool rescale = enter(Op::optimizer) == Fault::optimizer_rescales_weights;
  require_same_shape(param, grad, "the tensor");
  const Vector<T> lengths = rescale ? Vector<T>(param.rowwise().norm()) : Vector<T>();
  param -= lr * grad;
  if (!rescale) return;
  for (Index row = 0; row < param.rows(); ++row)
    keep_length(param.row(row), lengths(row));
}

template <typename T>
void sgd_step(Vector<T>& param, const Vector<T>& grad, T lr) {
  const bool rescale = enter(Op::optimizer) == Fault::optimizer_rescales_weights;
  require_same_shape(param, grad, "the tensor");
  const T length = rescale ? param.norm() : T(0);
  param -= lr * grad;
  if (rescale) keep_length(param, length);
}

template void sgd_step<float>(Matrix<float>&, const Matrix<float>&, float);
template void sgd_step<double>(Matrix<double>&, const Matrix<double>&, double);
template void sgd_step<float>(Vector<float>&, const Vector<float>&, float);
template void sgd_step<double>(Vector<double>&, const Vector<double>&, double);
template void sgd_step<float>(LinearParams<float>&, const LinearParams<float>&, float);
template void sgd_step<double>(LinearParams<double>&, const LinearParams<double>&, double);
template void sgd_step<float>(NormParams<float>&, const NormParams<float>&, float);
template void sgd_step<double>(NormParams<double>&, const NormParams<double>&, double);

}  // namespace proofdeck::engine
