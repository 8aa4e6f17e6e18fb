// What the demo runs of one process share, in one object the proving runner owns
// (bank::DemoRunner) and lends to each run (demo::run_demo): no demo keeps static state.
//   normals   every run's weights are drawn from fresh generators of one seed (engine/rng.hpp)
//   ranks     head-width's column-pivoted QR ranks: a dozen settings give the first head the same
//             scores, so a rank is kept beside the matrix it came from
//   decodes   kv-cache's one layer decoded live: some fifty settings share three
// Header-only (src/demo's .cpp files are its demos). Each is safe to use from several threads at
// once, and holds results that depend on nothing but their key, so a value read from it is the
// value a run would compute.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/fault.hpp"
#include "engine/rng.hpp"
#include "engine/tensor.hpp"

namespace proofdeck::demo {

// Ranks by the matrix they came from, compared entry by entry; up to 64 MiB of matrices, past
// which ranks are no longer kept.
class MatrixRanks {
 public:
  std::optional<double> find(const engine::Matrix<double>& matrix) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [known, rank] : known_) {
      if (known.rows() == matrix.rows() && known.cols() == matrix.cols() && known == matrix)
        return rank;
    }
    return std::nullopt;
  }
  void keep(const engine::Matrix<double>& matrix, double rank) {
    const std::size_t bytes = static_cast<std::size_t>(matrix.size()) * sizeof(double);
    const std::lock_guard<std::mutex> lock(mutex_);
    if (kept_bytes_ + bytes > kMaxKeptBytes) return;
    known_.emplace_back(matrix, rank);
    kept_bytes_ += bytes;
  }

 private:
  static constexpr std::size_t kMaxKeptBytes = std::size_t{64} << 20;
  mutable std::mutex mutex_;
  std::vector<std::pair<engine::Matrix<double>, double>> known_;
  std::size_t kept_bytes_ = 0;
};

// What one layer decoding live measured (kv-cache): everything the demo reports but the byte
// counts of the configuration asked for, and the engine ops the decode entered.
struct LiveDecode {
  double max_diff = 0.0;
  std::vector<double> step_diff;  // each step's largest difference from the full pass
  bool one_row_per_token = true;
  engine::Index cache_rows = 0;
  double cache_entries = 0.0;  // numbers the cache holds, keys and values
  double cached_tensors = 0.0, cached_queries = 0.0;
  bool compared_entries = false;
  engine::OpSet reached;
};

// Live decodes by what they depend on: seed, the fault in force, heads, kv heads, head width,
// tokens.
class LiveDecodes {
 public:
  using Key = std::tuple<std::uint64_t, engine::Fault, std::int64_t, std::int64_t, std::int64_t,
                         std::int64_t>;
  std::optional<LiveDecode> find(const Key& key) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (const auto it = decoded_.find(key); it != decoded_.end()) return it->second;
    return std::nullopt;
  }
  void keep(const Key& key, const LiveDecode& decode) {
    const std::lock_guard<std::mutex> lock(mutex_);
    decoded_.try_emplace(key, decode);
  }

 private:
  mutable std::mutex mutex_;
  std::map<Key, LiveDecode> decoded_;
};

struct RunCaches {
  engine::NormalCache normals;
  MatrixRanks ranks;
  LiveDecodes decodes;
};

}  // namespace proofdeck::demo
