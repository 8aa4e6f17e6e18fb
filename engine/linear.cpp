// Forward and backward of nn.Linear.
#include "engine/linear.hpp"

#include "engine/macs.hpp"
#include "engine/product.hpp"

namespace proofdeck::engine {

template <typename T>
void linear_forward(Matrix<T>& out, const Matrix<T>& inp, const LinearParams<T>& params) {
  require_shape(inp, inp.rows(), params.in_features(), "linear input");
  project(out, inp, params.weight, params.bias);
  count_macs(MacSite::linear, inp.rows(), params.in_features(), params.out_features());
}

template <typename T>
void linear_backward(Matrix<T>& dinp, LinearParams<T>& grads, const Matrix<T>& dout,
                     const Matrix<T>& inp, const LinearParams<T>& params) {
  // forward was: out = inp·Wᵀ + b
  require_shape(dout, inp.rows(), params.out_features(), "linear grad_output");
  project_back(dinp, dout, params.weight);
  weight_gradient(grads.weight, dout, inp);
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
