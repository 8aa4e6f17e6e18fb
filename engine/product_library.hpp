// The seam between the engine's products (product.cpp, Eigen) and a matrix library a build may
// hand the large ones to: engine/openblas.cpp in the tuned build (CMake's PROOFDECK_BLAS),
// engine/eigen_only.cpp everywhere else, which takes none. The one place the engine touches the
// process — loading a shared library and setting the environment it reads as it loads — is
// openblas.cpp (docs/ARCHITECTURE.md, "Where the engine touches the process").
#pragma once

#include <string>
#include <string_view>

#include "engine/tensor.hpp"

namespace proofdeck::engine {

// What computes the products: the instruction set the build was compiled for ("AVX-512",
// "AVX2+FMA", "SSE2"), and the library with the kernels it chose ("OpenBLAS 0.3.21, Haswell
// kernels" or "Eigen 3.4.0"), with the reason when a BLAS was linked but is not used.
struct ProductBackend {
  std::string isa;
  std::string library;
  std::string note;  // empty, or why the linked BLAS is not used
};

}  // namespace proofdeck::engine

namespace proofdeck::engine::product_library {

// The instruction set this build was compiled for: "AVX-512", "AVX2+FMA", "AVX" or "SSE2".
constexpr std::string_view compiled_isa() {
#if defined(__AVX512F__)
  return "AVX-512";
#elif defined(__AVX2__) && defined(__FMA__)
  return "AVX2+FMA";
#elif defined(__AVX__)
  return "AVX";
#else
  return "SSE2";
#endif
}

// "Eigen 3.4.0".
inline std::string eigen_name() {
  return "Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." +
         std::to_string(EIGEN_MAJOR_VERSION) + "." + std::to_string(EIGEN_MINOR_VERSION);
}

// Whether the library computes a product of these dimensions (rows × inner times inner × cols).
bool takes(Index rows, Index inner, Index cols);

// c = op(a)·op(b) + beta·c by the library, every matrix row-major as the engine keeps them, c
// already of the product's shape; false, with nothing computed, when the product is Eigen's.
bool gemm(const Matrix<float>& a, bool transpose_a, const Matrix<float>& b, bool transpose_b,
          float beta, Matrix<float>& c);
bool gemm(const Matrix<double>& a, bool transpose_a, const Matrix<double>& b, bool transpose_b,
          double beta, Matrix<double>& c);

// What computes the products (product_backend()).
const ProductBackend& backend();

// Threads the library may use for one product; nothing to do without one.
void set_threads(int threads);

}  // namespace proofdeck::engine::product_library
