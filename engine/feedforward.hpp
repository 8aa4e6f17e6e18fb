// The position-wise feed-forward sublayer: linear1 → activation → linear2.
#pragma once

#include "engine/activation.hpp"
#include "engine/linear.hpp"

namespace proofdeck::engine {

template <typename T>
struct FeedForwardParams {
  LinearParams<T> linear1;  // weight (F, E), bias (F)
  LinearParams<T> linear2;  // weight (E, F), bias (E)

  FeedForwardParams() = default;
  FeedForwardParams(Index d_model, Index dim_feedforward, bool has_bias)
      : linear1(d_model, dim_feedforward, has_bias), linear2(dim_feedforward, d_model, has_bias) {}
};

template <typename T>
struct FeedForwardCache {
  Matrix<T> pre_activation;  // (T, F) linear1's output
  Matrix<T> hidden;          // (T, F) after the activation, linear2's input
};

template <typename T>
void feedforward_forward(Matrix<T>& out,  // (T, E)
                         FeedForwardCache<T>& cache,
                         const Matrix<T>& inp,  // (T, E)
                         const FeedForwardParams<T>& params, Activation activation);

template <typename T>
void feedforward_backward(Matrix<T>& dinp,  // (T, E)
                          FeedForwardParams<T>& grads,
                          const Matrix<T>& dout,  // (T, E)
                          const Matrix<T>& inp,   // (T, E)
                          const FeedForwardParams<T>& params, const FeedForwardCache<T>& cache,
                          Activation activation);

}  // namespace proofdeck::engine
