// The engine's large products (product.hpp), computed by Eigen unless the build's matrix library
// takes them (product_library.hpp).
#include "engine/product.hpp"

#include "engine/product_library.hpp"

namespace proofdeck::engine {

template <typename T>
void project(Matrix<T>& out, const Matrix<T>& inp, const Matrix<T>& weight, const Vector<T>& bias) {
  out.resize(inp.rows(), weight.rows());
  const bool biased = bias.size() != 0;
  // A library adds the product to the bias, as PyTorch's addmm does: no pass to clear the output
  // first and none to add the bias after.
  if (biased && product_library::takes(inp.rows(), inp.cols(), weight.rows())) {
    require_size(bias, weight.rows(), "projection bias");
    out.rowwise() = bias.transpose();
  }
  if (product_library::gemm(inp, false, weight, true, biased ? T(1) : T(0), out)) return;
  out.noalias() = inp * weight.transpose();
  if (biased) out.rowwise() += bias.transpose();
}

template <typename T>
void project_back(Matrix<T>& dinp, const Matrix<T>& dout, const Matrix<T>& weight,
                  Accumulate accumulate) {
  const bool add = accumulate == Accumulate::yes;
  if (!add) dinp.resize(dout.rows(), weight.cols());
  require_shape(dinp, dout.rows(), weight.cols(), "accumulated input gradient");
  if (product_library::gemm(dout, false, weight, false, add ? T(1) : T(0), dinp)) return;
  if (add) {
    dinp.noalias() += dout * weight;
  } else {
    dinp.noalias() = dout * weight;
  }
}

template <typename T>
void weight_gradient(Matrix<T>& dweight, const Matrix<T>& dout, const Matrix<T>& inp) {
  dweight.resize(dout.cols(), inp.cols());
  if (product_library::gemm(dout, true, inp, false, T(0), dweight)) return;
  dweight.noalias() = dout.transpose() * inp;
}

const ProductBackend& product_backend() {
  return product_library::backend();
}

void set_blas_threads(int threads) {
  product_library::set_threads(threads);
}

#define PROOFDECK_INSTANTIATE(T)                                                              \
  template void project<T>(Matrix<T>&, const Matrix<T>&, const Matrix<T>&, const Vector<T>&); \
  template void project_back<T>(Matrix<T>&, const Matrix<T>&, const Matrix<T>&, Accumulate);  \
  template void weight_gradient<T>(Matrix<T>&, const Matrix<T>&, const Matrix<T>&);
PROOFDECK_INSTANTIATE(float)
PROOFDECK_INSTANTIATE(double)
#undef PROOFDECK_INSTANTIATE

}  // namespace proofdeck::engine
