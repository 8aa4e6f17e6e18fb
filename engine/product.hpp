// The engine's large matrix products: the projections of every Linear and attention layer, their
// forward (x·Wᵀ) and the two products of their backward (dy·W for the input, dyᵀ·x for the
// weight). Eigen computes them, bit-identically on every machine in the portable build. A build
// configured with PROOFDECK_BLAS (the tuned build, build-run/) hands the large ones to OpenBLAS
// instead, on one thread, when OpenBLAS runs kernels for at least the instruction set the build
// was compiled for (docs/performance.md, "Matrix products"); otherwise Eigen computes them there
// too. The small per-head products of attention stay with Eigen in every build.
#pragma once

#include <string>

#include "engine/product_library.hpp"
#include "engine/tensor.hpp"

namespace proofdeck::engine {

// out = inp·weightᵀ + bias: a Linear's forward, weight (out_features, in_features) as PyTorch lays
// it out; an empty bias adds nothing.
template <typename T>
void project(Matrix<T>& out, const Matrix<T>& inp, const Matrix<T>& weight,
             const Vector<T>& bias = Vector<T>());

// dinp = dout·weight, or dinp += dout·weight: the gradient a projection passes to its input.
enum class Accumulate : bool { no, yes };
template <typename T>
void project_back(Matrix<T>& dinp, const Matrix<T>& dout, const Matrix<T>& weight,
                  Accumulate accumulate = Accumulate::no);

// dweight = doutᵀ·inp: a projection's weight gradient (assigned, not accumulated).
template <typename T>
void weight_gradient(Matrix<T>& dweight, const Matrix<T>& dout, const Matrix<T>& inp);

// What computes the products in this build on this machine (product_library.hpp), for
// `engine bench` and `--version`.
const ProductBackend& product_backend();

// Threads OpenBLAS may use for one product (1 unless `engine bench --threads` asks for more); a
// no-op without PROOFDECK_BLAS. engine/blocking.hpp's set_product_threads calls it.
void set_blas_threads(int threads);

}  // namespace proofdeck::engine
