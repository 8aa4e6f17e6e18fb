// No matrix library: Eigen computes every product (product_library.hpp), as the portable build
// does so that its numbers are bit-identical on every machine.
#include "engine/product_library.hpp"

namespace proofdeck::engine::product_library {

bool takes(Index, Index, Index) {
  return false;
}

bool gemm(const Matrix<float>&, bool, const Matrix<float>&, bool, float, Matrix<float>&) {
  return false;
}

bool gemm(const Matrix<double>&, bool, const Matrix<double>&, bool, double, Matrix<double>&) {
  return false;
}

const ProductBackend& backend() {
  static const ProductBackend eigen{std::string(compiled_isa()), eigen_name(), ""};
  return eigen;
}

void set_threads(int) {}

}  // namespace proofdeck::engine::product_library
