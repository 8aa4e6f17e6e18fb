// SplitMix64, Box–Muller normals and the weight initialisers.
#include "engine/rng.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace proofdeck::engine {

namespace {
thread_local DrawLog* active_log = nullptr;
}  // namespace

DrawLog::DrawLog() noexcept : previous_(active_log) {
  active_log = this;
}

DrawLog::~DrawLog() {
  active_log = previous_;
}

void DrawLog::record(std::uint64_t value) noexcept {
  ++count_;
  hash_ = (hash_ ^ value) * 0x100000001b3ULL;  // FNV-1a's prime, a word at a time
  if (previous_ != nullptr) previous_->record(value);
}

std::uint64_t Rng::next_u64() {
  state_ += 0x9E3779B97F4A7C15ULL;
  std::uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  if (active_log != nullptr) active_log->record(z);
  return z;
}

double Rng::uniform() {
  constexpr double two_to_minus_53 = 1.0 / 9007199254740992.0;
  return static_cast<double>(next_u64() >> 11) * two_to_minus_53;
}

double Rng::uniform(double low, double high) {
  return low + (high - low) * uniform();
}

std::size_t Rng::below(std::size_t n) {
  // A product that rounds up to n stays in range.
  return std::min(n - 1, static_cast<std::size_t>(uniform() * static_cast<double>(n)));
}

double Rng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  // u1 in (0, 1] so the logarithm is finite.
  const double u1 = 1.0 - uniform();
  const double u2 = uniform();
  const double radius = std::sqrt(-2.0 * std::log(u1));
  const double angle = 2.0 * std::numbers::pi * u2;
  spare_ = radius * std::sin(angle);
  has_spare_ = true;
  return radius * std::cos(angle);
}

namespace {

// Fills storage in order, one draw per entry.
template <typename Tensor, typename Draw>
void fill(Tensor& tensor, Draw&& draw) {
  using Scalar = typename Tensor::Scalar;
  for (Index i = 0; i < tensor.size(); ++i)
    tensor.data()[i] = static_cast<Scalar>(draw());
}

}  // namespace

template <typename T>
void fill_normal(Matrix<T>& m, double mean, double stddev, Rng& rng) {
  fill(m, [&] { return rng.normal(mean, stddev); });
}
template <typename T>
void fill_normal(Vector<T>& v, double mean, double stddev, Rng& rng) {
  fill(v, [&] { return rng.normal(mean, stddev); });
}
template <typename T>
void fill_uniform(Matrix<T>& m, double low, double high, Rng& rng) {
  fill(m, [&] { return rng.uniform(low, high); });
}
template <typename T>
void fill_uniform(Vector<T>& v, double low, double high, Rng& rng) {
  fill(v, [&] { return rng.uniform(low, high); });
}
template <typename T>
void fill_xavier_uniform(Matrix<T>& weight, Rng& rng, double gain) {
  const double fan_in = static_cast<double>(weight.cols());
  const double fan_out = static_cast<double>(weight.rows());
  const double bound = gain * std::sqrt(6.0 / (fan_in + fan_out));
  fill_uniform(weight, -bound, bound, rng);
}

#define PROOFDECK_INSTANTIATE(T)                                   \
  template void fill_normal<T>(Matrix<T>&, double, double, Rng&);  \
  template void fill_normal<T>(Vector<T>&, double, double, Rng&);  \
  template void fill_uniform<T>(Matrix<T>&, double, double, Rng&); \
  template void fill_uniform<T>(Vector<T>&, double, double, Rng&); \
  template void fill_xavier_uniform<T>(Matrix<T>&, Rng&, double);
PROOFDECK_INSTANTIATE(float)
PROOFDECK_INSTANTIATE(double)
#undef PROOFDECK_INSTANTIATE

}  // namespace proofdeck::engine
