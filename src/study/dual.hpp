// Forward-mode automatic differentiation over a fixed number of inputs: a value and its partial
// derivatives with respect to each input, carried through arithmetic, exp, log and pow. Fitting
// FSRS's 21 weights steps each item's memory through the scheduler's own formulas
// (study/fsrs_formulas.hpp) with weights of this type, so the gradient is that of the very
// computation the scheduler makes, with no hand-written derivative to drift from it.
// min, max and the clamps pass the chosen operand's derivatives (a bound is a constant), as
// PyTorch's and fsrs-rs's clamp gradients do away from the bound.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>

namespace proofdeck::study {

template <std::size_t N>
struct Dual {
  double value = 0.0;
  std::array<double, N> grad{};

  Dual() = default;
  // A constant: no derivative.
  Dual(double constant) : value(constant) {}  // NOLINT(google-explicit-constructor)
  // Input `index` of the N, with value `x`.
  static Dual input(double x, std::size_t index) {
    Dual d(x);
    d.grad[index] = 1.0;
    return d;
  }
};

// Value v and derivative a·x' + b·y' (the chain rule for a function of two duals).
template <std::size_t N>
Dual<N> combine(double v, double a, const Dual<N>& x, double b, const Dual<N>& y) {
  Dual<N> r(v);
  for (std::size_t i = 0; i < N; ++i)
    r.grad[i] = a * x.grad[i] + b * y.grad[i];
  return r;
}

template <std::size_t N>
Dual<N> scaled(double v, double a, const Dual<N>& x) {
  Dual<N> r(v);
  for (std::size_t i = 0; i < N; ++i)
    r.grad[i] = a * x.grad[i];
  return r;
}

template <std::size_t N>
Dual<N> operator+(const Dual<N>& x, const Dual<N>& y) {
  return combine(x.value + y.value, 1.0, x, 1.0, y);
}
template <std::size_t N>
Dual<N> operator-(const Dual<N>& x, const Dual<N>& y) {
  return combine(x.value - y.value, 1.0, x, -1.0, y);
}
template <std::size_t N>
Dual<N> operator*(const Dual<N>& x, const Dual<N>& y) {
  return combine(x.value * y.value, y.value, x, x.value, y);
}
template <std::size_t N>
Dual<N> operator/(const Dual<N>& x, const Dual<N>& y) {
  return combine(x.value / y.value, 1.0 / y.value, x, -x.value / (y.value * y.value), y);
}
template <std::size_t N>
Dual<N> operator-(const Dual<N>& x) {
  return scaled(-x.value, -1.0, x);
}
template <std::size_t N>
Dual<N> operator+(const Dual<N>& x, double c) {
  Dual<N> r = x;
  r.value += c;
  return r;
}
template <std::size_t N>
Dual<N> operator+(double c, const Dual<N>& x) {
  return x + c;
}
template <std::size_t N>
Dual<N> operator-(const Dual<N>& x, double c) {
  return x + -c;
}
template <std::size_t N>
Dual<N> operator-(double c, const Dual<N>& x) {
  return scaled(c - x.value, -1.0, x);
}
template <std::size_t N>
Dual<N> operator*(const Dual<N>& x, double c) {
  return scaled(x.value * c, c, x);
}
template <std::size_t N>
Dual<N> operator*(double c, const Dual<N>& x) {
  return x * c;
}
template <std::size_t N>
Dual<N> operator/(const Dual<N>& x, double c) {
  return scaled(x.value / c, 1.0 / c, x);
}
template <std::size_t N>
Dual<N> operator/(double c, const Dual<N>& x) {
  return scaled(c / x.value, -c / (x.value * x.value), x);
}

template <std::size_t N>
bool operator<(const Dual<N>& x, const Dual<N>& y) {
  return x.value < y.value;
}

template <std::size_t N>
Dual<N> exp(const Dual<N>& x) {
  const double e = std::exp(x.value);
  return scaled(e, e, x);
}
template <std::size_t N>
Dual<N> log(const Dual<N>& x) {
  return scaled(std::log(x.value), 1.0 / x.value, x);
}
// x^y for x > 0: d = y·x^(y−1)·x' + x^y·ln x·y'.
template <std::size_t N>
Dual<N> pow(const Dual<N>& x, const Dual<N>& y) {
  const double p = std::pow(x.value, y.value);
  return combine(p, y.value * std::pow(x.value, y.value - 1.0), x, p * std::log(x.value), y);
}

}  // namespace proofdeck::study
