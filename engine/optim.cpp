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

// p ← p − lr·∇p; under the fault each row of a matrix (rows) or the whole tensor is then scaled
// back to the length it had.
template <typename Tensor, typename T>
void step(Tensor& param, const Tensor& grad, T lr, bool rescale, bool by_rows, const char* what) {
  require_same_shape(param, grad, what);
  if (!rescale) {
    param -= lr * grad;
    return;
  }
  if (by_rows) {
    const Vector<T> lengths = param.rowwise().norm();
    param -= lr * grad;
    for (Index row = 0; row < param.rows(); ++row)
      keep_length(param.row(row), lengths(row));
  } else {
    const T length = param.norm();
    param -= lr * grad;
    keep_length(param, length);
  }
}

}  // namespace

template <typename T>
void sgd_step(LinearParams<T>& params, const LinearParams<T>& grads, T lr) {
  const bool rescale = enter(Op::optimizer) == Fault::optimizer_rescales_weights;
  // both shapes before anything moves
  require_same_shape(params.weight, grads.weight, "the weight");
  require_same_shape(params.bias, grads.bias, "the bias");
  step(params.weight, grads.weight, lr, rescale, true, "the weight");
  step(params.bias, grads.bias, lr, false, false, "the bias");
}

template <typename T>
void sgd_step(NormParams<T>& params, const NormParams<T>& grads, T lr) {
  const bool rescale = enter(Op::optimizer) == Fault::optimizer_rescales_weights;
  require_same_shape(params.weight, grads.weight, "γ");  // both shapes before anything moves
  require_same_shape(params.bias, grads.bias, "β");
  step(params.weight, grads.weight, lr, rescale, false, "γ");
  step(params.bias, grads.bias, lr, false, false, "β");
}

template <typename T>
void sgd_step(Matrix<T>& param, const Matrix<T>& grad, T lr) {
  const bool rescale = enter(Op::optimizer) == Fault::optimizer_rescales_weights;
  step(param, grad, lr, rescale, true, "the tensor");
}

template <typename T>
void sgd_step(Vector<T>& param, const Vector<T>& grad, T lr) {
  const bool rescale = enter(Op::optimizer) == Fault::optimizer_rescales_weights;
  step(param, grad, lr, rescale, false, "the tensor");
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
