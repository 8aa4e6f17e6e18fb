// Pointwise activations of the feed-forward sublayer: ReLU, exact GELU (erf) and tanh-GELU.
#pragma once

#include <optional>
#include <string_view>

#include "engine/tensor.hpp"

namespace proofdeck::engine {

enum class Activation {
  relu,       // max(0, x)
  gelu,       // x·Φ(x) with the exact normal CDF (nn.GELU(approximate="none"))
  gelu_tanh,  // ½x(1 + tanh(√(2/π)(x + 0.044715x³))) (nn.GELU(approximate="tanh"))
};

std::string_view activation_name(Activation activation);
std::optional<Activation> parse_activation(std::string_view name);

template <typename T>
void activation_forward(Matrix<T>& out, const Matrix<T>& inp, Activation activation);

template <typename T>
void activation_backward(Matrix<T>& dinp,        // same shape as inp
                         const Matrix<T>& dout,  // same shape as inp
                         const Matrix<T>& inp, Activation activation);

}  // namespace proofdeck::engine
