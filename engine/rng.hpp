// A deterministic random generator of our own: the same seed draws the same numbers with every
// compiler and standard library (std::normal_distribution does not), so printouts and goldens
// are bit-identical everywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "engine/tensor.hpp"

namespace proofdeck::engine {

// SplitMix64 (Steele, Lea, Flood 2014): one 64-bit state, passes BigCrush, trivially seedable.
// A plain value: what it draws next depends on its state and pending normal alone.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next_u64();
  // Uniform in [0, 1) with 53 random bits.
  double uniform();
  // Uniform in [low, high).
  double uniform(double low, double high);
  // Uniform over 0 … n − 1 (n ≥ 1), from one uniform() draw.
  std::size_t below(std::size_t n);
  // Standard normal by the Box–Muller transform; the second draw of each pair is kept.
  double normal();
  double normal(double mean, double stddev) { return mean + stddev * normal(); }
  // out[0 … count) = normal(mean, stddev), drawn in order: the same values as that many calls,
  // and the state left as they would leave it. With a NormalCache in the thread's run context
  // and no normal pending, they are copied from the cache (fill_normal goes through here).
  template <typename Scalar>
  void fill_normals(Scalar* out, Index count, double mean, double stddev);

 private:
  std::uint64_t state_;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

// Normals computed once for every generator that reads them: `check` runs hundreds of demos,
// each from a fresh Rng of one seed filling its weights with normals, so all of them read stretches
// of the same stream (Box–Muller's logarithm, sine and cosine were 40% of the runs' time).
// SplitMix64's state after k draws is k·γ past the state at 0, so every state sits somewhere on
// one stream: the cache holds it in blocks, computed on first use by whichever thread needs one
// (up to 512 blocks of 32,768 normals, 128 MB; past that, generators draw their own). Every value
// is bit-identical to drawing it. The demo runner owns one (bank/proof.hpp) and lends it to each
// run with a NormalsScope; safe to read from several threads at once.
class NormalCache {
 public:
  NormalCache();
  ~NormalCache();
  NormalCache(const NormalCache&) = delete;
  NormalCache& operator=(const NormalCache&) = delete;
  // The normals of the Box–Muller pairs a generator in `state` draws next, in order: `wanted`
  // of them (even) or fewer, up to the end of a block; none once the cache is full.
  std::span<const double> normals_from(std::uint64_t state, std::uint64_t wanted);

 private:
  struct Blocks;
  std::unique_ptr<Blocks> blocks_;
};

// Lends `cache` to this thread's generators for as long as it lives (run_context.hpp).
class NormalsScope {
 public:
  explicit NormalsScope(NormalCache* cache) noexcept;
  ~NormalsScope();
  NormalsScope(const NormalsScope&) = delete;
  NormalsScope& operator=(const NormalsScope&) = delete;

 private:
  NormalCache* previous_;
};

// Every value any Rng draws on this thread while a DrawLog lives is tallied in it: how many and a
// hash of their sequence. Tests use it to show an engine fault leaves every random draw as it was.
// A thread with a log open draws every normal itself, so that each is counted.
class DrawLog {
 public:
  DrawLog() noexcept;
  ~DrawLog();
  DrawLog(const DrawLog&) = delete;
  DrawLog& operator=(const DrawLog&) = delete;
  void record(std::uint64_t value) noexcept;
  std::uint64_t count() const noexcept { return count_; }
  std::uint64_t hash() const noexcept { return hash_; }

 private:
  DrawLog* previous_;
  std::uint64_t count_ = 0;
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;  // FNV-1a's offset basis
};

// Fisher–Yates: every order of items equally likely, one below() draw per item past the first,
// from the back. Every seeded shuffle in the program (options, steps, forms) goes through it.
template <typename T>
void shuffle(std::vector<T>& items, Rng& rng) {
  for (std::size_t i = items.size(); i > 1; --i)
    std::swap(items[i - 1], items[rng.below(i)]);
}

// Initialisers, drawing row by row in storage order.
template <typename T>
void fill_normal(Matrix<T>& m, double mean, double stddev, Rng& rng);
template <typename T>
void fill_normal(Vector<T>& v, double mean, double stddev, Rng& rng);
template <typename T>
void fill_uniform(Matrix<T>& m, double low, double high, Rng& rng);
template <typename T>
void fill_uniform(Vector<T>& v, double low, double high, Rng& rng);
// Glorot & Bengio 2010, as torch.nn.init.xavier_uniform_: U(±gain·√(6 / (fan_in + fan_out)))
// with fan_in = cols, fan_out = rows of a (out, in) weight.
template <typename T>
void fill_xavier_uniform(Matrix<T>& weight, Rng& rng, double gain = 1.0);

}  // namespace proofdeck::engine
