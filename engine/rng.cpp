// SplitMix64, Box–Muller normals and the weight initialisers.
#include "engine/rng.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
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

namespace {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;  // SplitMix64's increment

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

// A seed's sequence of normals, in blocks computed on first use by whichever thread needs one.
// Block b holds normals b·kBlock …, the pairs that start 2·b·kBlock draws into the seed's stream.
constexpr std::uint64_t kBlock = std::uint64_t{1} << 15;  // even: a block holds whole pairs
constexpr std::uint64_t kBlocks = 512;
class NormalSequence {
 public:
  explicit NormalSequence(std::uint64_t seed) : seed_(seed) {}
  ~NormalSequence() {
    for (std::atomic<const double*>& block : blocks_)
      delete[] block.load();
  }
  NormalSequence(const NormalSequence&) = delete;
  NormalSequence& operator=(const NormalSequence&) = delete;

  const double* block(std::uint64_t b) {
    if (const double* ready = blocks_[b].load(std::memory_order_acquire)) return ready;
    auto values = std::make_unique<double[]>(kBlock);
    std::uint64_t state = seed_ + kGolden * (b * kBlock);
    for (std::uint64_t i = 0; i < kBlock; i += 2) {
      const std::uint64_t first = mix(state += kGolden);
      const std::uint64_t second = mix(state += kGolden);
      std::tie(values[i], values[i + 1]) = normal_pair(first, second);
    }
    // Two threads may compute the same block; the first to publish it wins, with equal values.
    const double* expected = nullptr;
    if (blocks_[b].compare_exchange_strong(expected, values.get(), std::memory_order_acq_rel))
      return values.release();
    return expected;
  }

 private:
  std::uint64_t seed_;
  std::array<std::atomic<const double*>, kBlocks> blocks_{};
};

struct SharedSequences {
  std::mutex mutex;
  std::map<std::uint64_t, std::unique_ptr<NormalSequence>> by_seed;

  NormalSequence& of(std::uint64_t seed) {
    const std::lock_guard<std::mutex> lock(mutex);
    std::unique_ptr<NormalSequence>& sequence = by_seed[seed];
    if (!sequence) sequence = std::make_unique<NormalSequence>(seed);
    return *sequence;
  }
};

std::atomic<SharedSequences*> shared_sequences{nullptr};

}  // namespace

SharedNormals::SharedNormals() {
  SharedSequences* none = nullptr;
  auto sequences = std::make_unique<SharedSequences>();
  owner_ = shared_sequences.compare_exchange_strong(none, sequences.get());
  if (owner_) static_cast<void>(sequences.release());
}

SharedNormals::~SharedNormals() {
  if (owner_) delete shared_sequences.exchange(nullptr);
}

template <typename Scalar>
void Rng::fill_normals(Scalar* out, Index count, double mean, double stddev) {
  SharedSequences* sequences = shared_sequences.load(std::memory_order_acquire);
  const auto wanted = static_cast<std::uint64_t>(std::max<Index>(count, 0));
  // A DrawLog counts every draw as it happens, so a logged thread draws them itself.
  if (shared_ && sequences != nullptr && active_log == nullptr &&
      shared_read_ + wanted <= kBlock * kBlocks) {
    NormalSequence& sequence = sequences->of(seed_);
    for (std::uint64_t i = 0; i < wanted;) {
      const std::uint64_t at = shared_read_ + i;
      const double* block = sequence.block(at / kBlock);
      const std::uint64_t take = std::min(wanted - i, kBlock - at % kBlock);
      for (std::uint64_t j = 0; j < take; ++j)
        out[i + j] = static_cast<Scalar>(mean + stddev * block[at % kBlock + j]);
      i += take;
    }
    shared_read_ += wanted;
    return;
  }
  for (Index i = 0; i < count; ++i)
    out[i] = static_cast<Scalar>(normal(mean, stddev));
}

void Rng::leave_shared_sequence() {
  shared_ = false;
  // n normals read: ⌊n/2⌋ whole pairs, and with n odd the first of one more, its second pending.
  state_ = seed_ + kGolden * (2 * (shared_read_ / 2));
  if (shared_read_ % 2 == 1) {
    // Recomputed, not drawn again: no DrawLog sees it (the first time, none did either).
    const std::uint64_t first = mix(state_ += kGolden);
    const std::uint64_t second = mix(state_ += kGolden);
    spare_ = normal_pair(first, second).second;
    has_spare_ = true;
  }
}

std::uint64_t Rng::next_u64() {
  leave_shared();
  state_ += kGolden;
  const std::uint64_t z = mix(state_);
  if (active_log != nullptr) active_log->record(z);
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
  leave_shared();
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
