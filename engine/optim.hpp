// One step of plain SGD, as torch.optim.SGD(params, lr) takes it (no momentum, no weight decay,
// no dampening): every parameter moves against its gradient, p ← p − lr·∇p, and nothing else
// touches it. Grads have the parameters' shapes (a layer's backward fills them).
#pragma once

#include "engine/linear.hpp"
#include "engine/norm.hpp"
#include "engine/tensor.hpp"

namespace proofdeck::engine {

// optimizer-rescales-weights (fault): after the update each row of a weight matrix is scaled back
// to the length it had before the step, as if something normalised the weights around a step.
template <typename T>
void sgd_step(LinearParams<T>& params, const LinearParams<T>& grads, T lr);

// One tensor on its own (weight normalisation's weight_v and weight_g): under the fault a
// matrix's rows, or a vector as a whole, are scaled back to their lengths.
template <typename T>
void sgd_step(Matrix<T>& param, const Matrix<T>& grad, T lr);
template <typename T>
void sgd_step(Vector<T>& param, const Vector<T>& grad, T lr);

// Under the fault γ, the norm's scale, is scaled back to its length too; β and biases are not.
template <typename T>
void sgd_step(NormParams<T>& params, const NormParams<T>& grads, T lr);

}  // namespace proofdeck::engine
