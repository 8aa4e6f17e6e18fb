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

}  // namespace

template <typename T>
void sgd_step(LinearParams<T>& params, const LinearParams<T>& grads, T lr) {
  const Fault fault = enter(Op::optimizer);
  require_same_shape(params.weight, grads.weight, "the weight");
  require_same_shape(params.bias, grads.bias, "the bias");
  if (fault == Fault::optimizer_rescales_weights) {
    const Vector<T> lengths = params.weight.rowwise().norm();
    params.weight -= lr * grads.weight;
    for (Index row = 0; row < params.weight.rows(); ++row) {
      const T length = params.weight.row(row).norm();
      if (length > T(0)) params.weight.row(row) *= lengths(row) / length;
    }
  } else {
    params.weight -= lr * grads.weight;
  }
  params.bias -= lr * grads.bias;
}

template <typename T>
void sgd_step(NormParams<T>& params, const NormParams<T>& grads, T lr) {
  const Fault fault = enter(Op::optimizer);
  require_same_shape(params.weight, grads.weight, "γ");
  require_same_shape(params.bias, grads.bias, "β");
  const T length = params.weight.norm();
  params.weight -= lr * grads.weight;
  const T stepped = params.weight.norm();
  if (fault == Fault::optimizer_rescales_weights && stepped > T(0))
    params.weight *= length / stepped;
  params.bias -= lr * grads.bias;
}

template void sgd_step<float>(LinearParams<float>&, const LinearParams<float>&, float);
template void sgd_step<double>(LinearParams<double>&, const LinearParams<double>&, double);
template void sgd_step<float>(NormParams<float>&, const NormParams<float>&, float);
template void sgd_step<double>(NormParams<double>&, const NormParams<double>&, double);

}  // namespace proofdeck::engine
