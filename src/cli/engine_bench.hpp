// `proofdeck engine bench`: times the engine's forward and forward+backward on random weights.
// scripts/bench runs it beside PyTorch on the same shapes; timing is never a test.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace proofdeck {

struct BenchOptions {
  std::string op = "encoder_layer";  // encoder_layer | mha | gqa
  std::int64_t seq = 128;            // tokens T
  std::int64_t d_model = 512;        // width E
  std::int64_t heads = 8;            // attention heads H
  std::int64_t kv_heads = 0;         // key/value heads G (gqa; divides H); 0 means H
  std::int64_t d_ff = 2048;          // feed-forward width F (encoder_layer)
  std::string norm = "post";         // post | pre (encoder_layer)
  std::string dtype = "float32";     // float32 | float64
  int threads = 1;                   // Eigen's threads for matrix products
  int iters = 20;                    // timed iterations; medians are reported
  int warmup = 3;                    // untimed iterations first
  std::uint64_t seed = 0;            // weights and input
};

// What each size may be: bench's options check these, and run_engine_bench refuses anything
// else (and --heads above --d-model or not dividing it, --kv-heads not dividing --heads).
struct BenchLimit {
  const char* option;    // "--seq"
  std::int64_t lowest;   // inclusive
  std::int64_t highest;  // inclusive
};
inline constexpr BenchLimit kBenchSeq{"--seq", 1, 4096};
inline constexpr BenchLimit kBenchDModel{"--d-model", 1, 8192};
inline constexpr BenchLimit kBenchHeads{"--heads", 1, 8192};
inline constexpr BenchLimit kBenchKvHeads{"--kv-heads", 1, 8192};
inline constexpr BenchLimit kBenchDFf{"--d-ff", 1, 32768};
inline constexpr BenchLimit kBenchThreads{"--threads", 1, 256};
inline constexpr BenchLimit kBenchIters{"--iters", 1, 100000};
inline constexpr BenchLimit kBenchWarmup{"--warmup", 0, 100000};

// Throws InputError for sizes past the limits (named in the message).
nlohmann::ordered_json run_engine_bench(const BenchOptions& options);

// Matrix-product FLOPs of one forward pass (2·m·n·k per product).
double forward_flops(const BenchOptions& options);

// What a run would cost, checked before anything is allocated: shapes past either limit would
// take minutes or gigabytes and are refused with the limit named.
//   bytes: the attention weights kept for backward (H·T², about 1.5 copies live at the peak, as
//     measured), activations and caches (~32 per token per width), weights and their gradients.
//   operations: (warmup + iters) forward passes and as many forward+backward passes (3 forwards
//     each), a forward being its matrix-product FLOPs plus the per-score work of softmax and
//     head splitting (kScoreCost per score, which dominates with many narrow heads).
struct BenchCost {
  double bytes = 0;
  double operations = 0;
};
BenchCost estimate_cost(const BenchOptions& options);
inline constexpr double kBenchMaxBytes = 4.0 * (1u << 30);  // 4 GiB
inline constexpr double kBenchMaxOperations = 3e12;         // about a minute on one core

}  // namespace proofdeck
