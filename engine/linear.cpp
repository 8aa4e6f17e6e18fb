// Forward and backward of nn.Linear.
#include "engine/linear.hpp"

#include "engine/fault.hpp"

namespace proofdeck::engine {

namespace {

// The broken layer reads a square weight's (out, in) storage as (in, out); a non-square one has
// only one reading that fits the input, so it runs as usual.
template <typename T>
bool reads_transposed(Fault fault, const LinearParams<T>& params) {
  return fault == Fault::linear_transposed_weight && params.weight.rows() == params.weight.cols();
}

}  // namespace

template <typename T>
void linear_forward(Matrix<T>& out, const Matrix<T>& inp, const LinearParams<T>& params) {
  const Fault fault = enter(Op::linear);
  require_shape(inp, inp.rows(), params.in_features(), "linear input");
  out.resize(inp.rows(), params.out_features());
  if (reads_transposed(fault, params)) {
    out.noalias() = inp * params.weight;
  } else {
    out.noalias() = inp * params.weight.transpose();
  }
  if (params.has_bias()) out.rowwise() += params.bias.transpose();
}

template <typename T>
void linear_backward(Matrix<T>& dinp, LinearParams<T>& grads, const Matrix<T>& dout,
                     const Matrix<T>& inp, const LinearParams<T>& params) {
  // forward was: out = inp·Wᵀ + b
  const Fault fault = enter(Op::linear);
  require_shape(dout, inp.rows(), params.out_features(), "linear grad_output");
  dinp.resize(inp.rows(), params.in_features());
  grads.weight.resize(params.weight.rows(), params.weight.cols());
  if (reads_transposed(fault, params)) {
    // forward was (broken): out = inp·W + b
    dinp.noalias() = dout * params.weight.transpose();
    grads.weight.noalias() = inp.transpose() * dout;
  } else {
    dinp.noalias() = dout * params.weight;
    grads.weight.noalias() = dout.transpose() * inp;
  }
  if (params.has_bias()) {
    grads.bias = dout.colwise().sum().transpose();
  } else {
    grads.bias.resize(0);
  }
}

template void linear_forward<float>(Matrix<float>&, const Matrix<float>&,
                                    const LinearParams<float>&);
template void linear_forward<double>(Matrix<double>&, const Matrix<double>&,
                                     const LinearParams<double>&);
template void linear_backward<float>(Matrix<float>&, LinearParams<float>&, const Matrix<float>&,
                                     const Matrix<float>&, const LinearParams<float>&);
template void linear_backward<double>(Matrix<double>&, LinearParams<double>&, const Matrix<double>&,
                                      const Matrix<double>&, const LinearParams<double>&);

}  // namespace proofdeck::engine
