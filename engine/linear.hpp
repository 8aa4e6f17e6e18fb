// nn.Linear: out = inp·Wᵀ + b, with PyTorch's (out_features, in_features) weight layout.
#pragma once

#include "engine/fault.hpp"
#include "engine/tensor.hpp"

namespace proofdeck::engine {

template <typename T>
struct LinearParams {
  Matrix<T> weight;  // (out, in)
  Vector<T> bias;    // (out), empty when the layer has no bias

  LinearParams() = default;
  // linear-no-bias: a layer asked for a bias is built without one.
  LinearParams(Index in_features, Index out_features, bool has_bias)
      : weight(Matrix<T>::Zero(out_features, in_features)),
        bias(has_bias && enter(Op::linear) != Fault::linear_no_bias ? Vector<T>::Zero(out_features)
                                                                    : Vector<T>()) {}

  Index in_features() const { return weight.cols(); }
  Index out_features() const { return weight.rows(); }
  bool has_bias() const { return bias.size() != 0; }
};

template <typename T>
void linear_forward(Matrix<T>& out,        // (N, out)
                    const Matrix<T>& inp,  // (N, in)
                    const LinearParams<T>& params);

// Gradients are assigned, not accumulated; grads must already have the parameters' shapes.
template <typename T>
void linear_backward(Matrix<T>& dinp,         // (N, in)
                     LinearParams<T>& grads,  // same shapes as params
                     const Matrix<T>& dout,   // (N, out)
                     const Matrix<T>& inp,    // (N, in)
                     const LinearParams<T>& params);

}  // namespace proofdeck::engine
