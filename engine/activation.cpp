// Forward and backward of the pointwise activations.
#include "engine/activation.hpp"

#include <cmath>
#include <numbers>

namespace proofdeck::engine {

std::string_view activation_name(Activation activation) {
  switch (activation) {
    case Activation::relu:
      return "relu";
    case Activation::gelu:
      return "gelu";
    case Activation::gelu_tanh:
      return "gelu_tanh";
  }
  return "?";
}

std::optional<Activation> parse_activation(std::string_view name) {
  if (name == "relu") return Activation::relu;
  if (name == "gelu") return Activation::gelu;
  if (name == "gelu_tanh") return Activation::gelu_tanh;
  return std::nullopt;
}

namespace {

constexpr double kSqrt2OverPi = 0.7978845608028654;  // √(2/π)
constexpr double kGeluCubic = 0.044715;

template <typename T>
T gelu_exact(T x) {
  return T(0.5) * x * (T(1) + std::erf(x / T(std::numbers::sqrt2)));
}
template <typename T>
T gelu_exact_grad(T x) {
  // d/dx x·Φ(x) = Φ(x) + x·φ(x)
  const T cdf = T(0.5) * (T(1) + std::erf(x / T(std::numbers::sqrt2)));
  const T pdf = std::exp(T(-0.5) * x * x) / T(std::sqrt(2.0 * std::numbers::pi));
  return cdf + x * pdf;
}
template <typename T>
T gelu_tanh(T x) {
  const T inner = T(kSqrt2OverPi) * (x + T(kGeluCubic) * x * x * x);
  return T(0.5) * x * (T(1) + std::tanh(inner));
}
template <typename T>
T gelu_tanh_grad(T x) {
  const T inner = T(kSqrt2OverPi) * (x + T(kGeluCubic) * x * x * x);
  const T tanh_inner = std::tanh(inner);
  const T sech2 = T(1) - tanh_inner * tanh_inner;
  const T dinner = T(kSqrt2OverPi) * (T(1) + T(3 * kGeluCubic) * x * x);
  return T(0.5) * (T(1) + tanh_inner) + T(0.5) * x * sech2 * dinner;
}

}  // namespace

template <typename T>
void activation_forward(Matrix<T>& out, const Matrix<T>& inp, Activation activation) {
  switch (activation) {
    case Activation::relu:
      out = inp.cwiseMax(T(0));
      return;
    case Activation::gelu:
      out = inp.unaryExpr([](T x) { return gelu_exact(x); });
      return;
    case Activation::gelu_tanh:
      out = inp.unaryExpr([](T x) { return gelu_tanh(x); });
      return;
  }
}

template <typename T>
void activation_backward(Matrix<T>& dinp, const Matrix<T>& dout, const Matrix<T>& inp,
                         Activation activation) {
  require_shape(dout, inp.rows(), inp.cols(), "activation grad_output");
  switch (activation) {
    case Activation::relu:
      // PyTorch's convention: the derivative at exactly 0 is 0.
      dinp = (inp.array() > T(0)).select(dout, T(0));
      return;
    case Activation::gelu:
      dinp = dout.cwiseProduct(inp.unaryExpr([](T x) { return gelu_exact_grad(x); }));
      return;
    case Activation::gelu_tanh:
      dinp = dout.cwiseProduct(inp.unaryExpr([](T x) { return gelu_tanh_grad(x); }));
      return;
  }
}

template void activation_forward<float>(Matrix<float>&, const Matrix<float>&, Activation);
template void activation_forward<double>(Matrix<double>&, const Matrix<double>&, Activation);
template void activation_backward<float>(Matrix<float>&, const Matrix<float>&, const Matrix<float>&,
                                         Activation);
template void activation_backward<double>(Matrix<double>&, const Matrix<double>&,
                                          const Matrix<double>&, Activation);

}  // namespace proofdeck::engine
