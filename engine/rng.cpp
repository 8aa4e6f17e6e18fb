// SplitMix64, Box–Muller normals and the weight initialisers.
#include "engine/rng.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <numbers>
#include <tuple>

#include "engine/run_context.hpp"

namespace proofdeck::engine {

DrawLog::DrawLog() noexcept : previous_(run_context().draws) {
  run_context().draws = this;
}

DrawLog::~DrawLog() {
  run_context().draws = previous_;
}

void DrawLog::record(std::uint64_t value) noexcept {
  ++count_;
  hash_ = (hash_ ^ value) * 0x100000001b3ULL;  // FNV-1a's prime, a word at a time
  if (previous_ != nullptr) previous_->record(value);
}

namespace {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;  // SplitMix64's increment, γ

// γ⁻¹ modulo 2⁶⁴ (γ is odd), by Newton's iteration: each step doubles the bits that are right.
constexpr std::uint64_t inverse_of(std::uint64_t odd) {
  std::uint64_t inverse = odd;  // right in the low 3 bits
  for (int i = 0; i < 5; ++i)
    inverse *= 2 - odd * inverse;
  return inverse;
}
constexpr std::uint64_t kGoldenInverse = inverse_of(kGolden);
static_assert(kGolden * kGoldenInverse == 1);

// SplitMix64's output for a state already advanced.
std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

double unit_interval(std::uint64_t bits) {
  constexpr double two_to_minus_53 = 1.0 / 9007199254740992.0;
  return static_cast<double>(bits >> 11) * two_to_minus_53;
}

// Box–Muller from two uniform draws: the pair (returned first, kept as the spare).
std::pair<double, double> normal_pair(std::uint64_t first, std::uint64_t second) {
  // u1 in (0, 1] so the logarithm is finite.
  const double u1 = 1.0 - unit_interval(first);
  const double u2 = unit_interval(second);
  const double radius = std::sqrt(-2.0 * std::log(u1));
  const double angle = 2.0 * std::numbers::pi * u2;
  return {radius * std::cos(angle), radius * std::sin(angle)};
}

// A block holds the normals of kBlock / 2 consecutive pairs: those drawn from the states at
// positions P, P + 2, … P + kBlock − 2 of the stream (position k is the state k·γ).
constexpr std::uint64_t kBlock = std::uint64_t{1} << 15;  // even: a block holds whole pairs
constexpr std::size_t kMaxBlocks = 512;

}  // namespace

struct NormalCache::Blocks {
  std::mutex mutex;
  std::map<std::uint64_t, std::unique_ptr<double[]>> by_start;  // keyed by P
};

NormalCache::NormalCache() : blocks_(std::make_unique<Blocks>()) {}

NormalCache::~NormalCache() = default;

std::span<const double> NormalCache::normals_from(std::uint64_t state, std::uint64_t wanted) {
  // A pair drawn from position p belongs to the block of p's parity that holds it.
  const std::uint64_t position = state * kGoldenInverse;
  const std::uint64_t parity = position & 1;
  const std::uint64_t at = (position - parity) & (kBlock - 1);  // even
  const std::uint64_t start = position - at;
  const std::uint64_t take = std::min(wanted, kBlock - at);
  {
    const std::lock_guard<std::mutex> lock(blocks_->mutex);
    if (const auto it = blocks_->by_start.find(start); it != blocks_->by_start.end())
      return {it->second.get() + at, take};
    if (blocks_->by_start.size() >= kMaxBlocks) return {};
  }
  // Computed outside the lock; two threads may compute one block, and the first to keep it wins
  // (their values are equal).
  auto values = std::make_unique<double[]>(kBlock);
  std::uint64_t drawn = start * kGolden;
  for (std::uint64_t i = 0; i < kBlock; i += 2) {
    const std::uint64_t first = mix(drawn += kGolden);
    const std::uint64_t second = mix(drawn += kGolden);
    std::tie(values[i], values[i + 1]) = normal_pair(first, second);
  }
  const std::lock_guard<std::mutex> lock(blocks_->mutex);
  const auto [it, added] = blocks_->by_start.try_emplace(start, std::move(values));
  return {it->second.get() + at, take};
}

NormalsScope::NormalsScope(NormalCache* cache) noexcept : previous_(run_context().normals) {
  run_context().normals = cache;
}

NormalsScope::~NormalsScope() {
  run_context().normals = previous_;
}

template <typename Scalar>
void Rng::fill_normals(Scalar* out, Index count, double mean, double stddev) {
  const RunContext& context = run_context();
  Index i = 0;
  // A DrawLog counts every draw as it happens, so a logged thread draws them itself; a pending
  // normal comes first, so one is drawn too.
  if (context.normals != nullptr && context.draws == nullptr && !has_spare_ && count > 0) {
    // The count asked and, when it is odd, the pair's second normal a draw would keep pending.
    const Index total = count + count % 2;
    while (i < total) {
      const std::span<const double> run =
          context.normals->normals_from(state_, static_cast<std::uint64_t>(total - i));
      if (run.empty()) break;  // the cache is full: drawn below
      for (const double z : run) {
        if (i < count) {
          out[i] = static_cast<Scalar>(mean + stddev * z);
        } else {
          spare_ = z;
          has_spare_ = true;
        }
        ++i;
      }
      state_ += kGolden * run.size();  // each normal read is one draw taken
    }
  }
  for (; i < count; ++i)
    out[i] = static_cast<Scalar>(normal(mean, stddev));
}

std::uint64_t Rng::next_u64() {
  state_ += kGolden;
  const std::uint64_t z = mix(state_);
  if (DrawLog* const log = run_context().draws; log != nullptr) log->record(z);
  return z;
}

double Rng::uniform() {
  return unit_interval(next_u64());
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
  const std::uint64_t first = next_u64();
  const std::uint64_t second = next_u64();
  const auto [value, spare] = normal_pair(first, second);
  spare_ = spare;
  has_spare_ = true;
  return value;
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
  rng.fill_normals(m.data(), m.size(), mean, stddev);
}
template <typename T>
void fill_normal(Vector<T>& v, double mean, double stddev, Rng& rng) {
  rng.fill_normals(v.data(), v.size(), mean, stddev);
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
  template void Rng::fill_normals<T>(T*, Index, double, double);   \
  template void fill_normal<T>(Matrix<T>&, double, double, Rng&);  \
  template void fill_normal<T>(Vector<T>&, double, double, Rng&);  \
  template void fill_uniform<T>(Matrix<T>&, double, double, Rng&); \
  template void fill_uniform<T>(Vector<T>&, double, double, Rng&); \
  template void fill_xavier_uniform<T>(Matrix<T>&, Rng&, double);
PROOFDECK_INSTANTIATE(float)
PROOFDECK_INSTANTIATE(double)
#undef PROOFDECK_INSTANTIATE

}  // namespace proofdeck::engine
