// Forward and backward of the feed-forward sublayer.
#include "engine/feedforward.hpp"

#include <utility>

#include "engine/fault.hpp"

namespace proofdeck::engine {

template <typename T>
void feedforward_forward(Matrix<T>& out, FeedForwardCache<T>& cache, const Matrix<T>& inp,
                         const FeedForwardParams<T>& params, Activation activation) {
  const Fault fault = enter(Op::feedforward);
  linear_forward(cache.pre_activation, inp, params.linear1);
  if (fault == Fault::feedforward_no_activation) {
    cache.hidden = cache.pre_activation;  // broken: two Linears compose into one linear map
  } else {
    activation_forward(cache.hidden, cache.pre_activation, activation);
  }
  linear_forward(out, cache.hidden, params.linear2);
}

template <typename T>
void feedforward_backward(Matrix<T>& dinp, FeedForwardParams<T>& grads, const Matrix<T>& dout,
                          const Matrix<T>& inp, const FeedForwardParams<T>& params,
                          const FeedForwardCache<T>& cache, Activation activation) {
  // forward was: out = act(inp·W1ᵀ + b1)·W2ᵀ + b2, without act under feedforward-no-activation
  const Fault fault = enter(Op::feedforward);
  Matrix<T> dhidden;
  linear_backward(dhidden, grads.linear2, dout, cache.hidden, params.linear2);
  Matrix<T> dpre;
  if (fault == Fault::feedforward_no_activation) {
    dpre = std::move(dhidden);
  } else {
    activation_backward(dpre, dhidden, cache.pre_activation, activation);
  }
  linear_backward(dinp, grads.linear1, dpre, inp, params.linear1);
}

template void feedforward_forward<float>(Matrix<float>&, FeedForwardCache<float>&,
                                         const Matrix<float>&, const FeedForwardParams<float>&,
                                         Activation);
template void feedforward_forward<double>(Matrix<double>&, FeedForwardCache<double>&,
                                          const Matrix<double>&, const FeedForwardParams<double>&,
                                          Activation);
template void feedforward_backward<float>(Matrix<float>&, FeedForwardParams<float>&,
                                          const Matrix<float>&, const Matrix<float>&,
                                          const FeedForwardParams<float>&,
                                          const FeedForwardCache<float>&, Activation);
template void feedforward_backward<double>(Matrix<double>&, FeedForwardParams<double>&,
                                           const Matrix<double>&, const Matrix<double>&,
                                           const FeedForwardParams<double>&,
                                           const FeedForwardCache<double>&, Activation);

}  // namespace proofdeck::engine
