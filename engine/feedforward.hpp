// The position-wise feed-forward sublayer: linear1 → activation → linear2.
#pragma once

#include <concepts>
#include <string>
#include <type_traits>

#include "engine/activation.hpp"
#include "engine/linear.hpp"

namespace proofdeck::engine {

template <typename T>
struct FeedForwardParams {
  using Scalar = T;
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

template <typename P>
concept FeedForwardParamsType =
    std::same_as<std::remove_const_t<P>,
                 FeedForwardParams<typename std::remove_const_t<P>::Scalar>>;

// Visits every parameter under nn.TransformerEncoderLayer's state_dict names (linear1.weight,
// linear1.bias, linear2.weight, linear2.bias; no bias without one); P may be const.
template <FeedForwardParamsType P, typename Visitor>
void visit_params(P& params, const std::string& prefix, Visitor&& visit) {
  visit(prefix + "linear1.weight", params.linear1.weight);
  if (params.linear1.has_bias()) visit(prefix + "linear1.bias", params.linear1.bias);
  visit(prefix + "linear2.weight", params.linear2.weight);
  if (params.linear2.has_bias()) visit(prefix + "linear2.bias", params.linear2.bias);
}

}  // namespace proofdeck::engine
