// A deterministic random generator of our own: the same seed draws the same numbers with every
// compiler and standard library (std::normal_distribution does not), so printouts and goldens
// are bit-identical everywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/tensor.hpp"

namespace proofdeck::engine {

// SplitMix64 (Steele, Lea, Flood 2014): one 64-bit state, passes BigCrush, trivially seedable.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed), seed_(seed) {}

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
  // out[0 … count) = normal(mean, stddev), drawn in order: the same values as that many calls.
  // While a SharedNormals lives and this generator has drawn nothing else since it was seeded,
  // they are copied from the seed's sequence of normals, computed once for every generator of
  // that seed (fill_normal goes through here).
  template <typename Scalar>
  void fill_normals(Scalar* out, Index count, double mean, double stddev);

 private:
  // Before any draw but fill_normals: puts the state where the normals read so far would have
  // left it.
  void leave_shared() {
    if (shared_) leave_shared_sequence();
  }
  void leave_shared_sequence();

  std::uint64_t state_;
  std::uint64_t seed_;
  std::uint64_t shared_read_ = 0;  // normals read from the seed's shared sequence
  bool shared_ = true;             // nothing but shared normals drawn yet
  bool has_spare_ = false;
  double spare_ = 0.0;
};

// While one lives, generators share the normals their seeds draw (Rng::fill_normals): `check`
// runs hundreds of demos, each from a fresh Rng of the same seed filling its weights with
// normals, so all of them read prefixes of one sequence, computed once (Box–Muller's logarithm,
// sine and cosine were 40% of the runs' time) instead of once a run. Every value is bit-identical
// to drawing it; the sequences (up to 16.8 million normals a seed) are freed when it ends. Open it
// on one thread, around work that may use several; nested ones share the outer's sequences.
class SharedNormals {
 public:
  SharedNormals();
  ~SharedNormals();
  SharedNormals(const SharedNormals&) = delete;
  SharedNormals& operator=(const SharedNormals&) = delete;

 private:
  bool owner_;
};

// Every value any Rng draws on this thread while a DrawLog lives is tallied in it: how many and a
// hash of their sequence. Tests use it to show an engine fault leaves every random draw as it was.
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
