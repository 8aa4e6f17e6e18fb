// Timing loop for `engine bench`.
#include "cli/engine_bench.hpp"
#include "core/heap.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <vector>

#include <fmt/format.h>

#include "cli/validators.hpp"
#include "core/errors.hpp"
#include "core/statistics.hpp"
#include "engine/blocking.hpp"
#include "engine/decoder.hpp"
#include "engine/encoder_layer.hpp"
#include "engine/product.hpp"
#include "engine/rng.hpp"

namespace proofdeck {

namespace {

using Clock = std::chrono::steady_clock;

template <typename Body>
double median_ms(int warmup, int iters, Body&& body) {
  for (int i = 0; i < warmup; ++i)
    body();
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(iters));
  for (int i = 0; i < iters; ++i) {
    const auto start = Clock::now();
    body();
    samples.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  return median(std::move(samples));
}

// "--seq 0: expected a whole number from 1 to 4096", as the option's own check says it.
void check_range(const BenchLimit& limit, std::int64_t value, std::int64_t highest) {
  if (value < limit.lowest || value > highest) {
    throw InputError("bench.range", fmt::format("{} {}: expected {}", limit.option, value,
                                                cli::whole_number_words(limit.lowest, highest)));
  }
}

void check_range(const BenchLimit& limit, std::int64_t value) {
  check_range(limit, value, limit.highest);
}

template <typename T>
std::pair<double, double> time_encoder_layer(const BenchOptions& options) {
  engine::EncoderLayerConfig config;
  config.d_model = options.d_model;
  config.nhead = options.heads;
  config.dim_feedforward = options.d_ff;
  config.norm = options.norm == "pre" ? engine::NormPlacement::pre : engine::NormPlacement::post;
  engine::EncoderLayerParams<T> params(config);
  engine::Rng rng(options.seed);
  engine::init_xavier(params, rng);
  engine::Matrix<T> x(options.seq, options.d_model), dout(options.seq, options.d_model);
  engine::fill_normal(x, 0.0, 1.0, rng);
  engine::fill_normal(dout, 0.0, 1.0, rng);

  engine::Matrix<T> y, dx;
  engine::EncoderLayerCache<T> cache;
  engine::EncoderLayerParams<T> grads;
  const double forward = median_ms(options.warmup, options.iters, [&] {
    engine::encoder_layer_forward(y, cache, x, params, config);
  });
  const double forward_backward = median_ms(options.warmup, options.iters, [&] {
    engine::encoder_layer_forward(y, cache, x, params, config);
    engine::encoder_layer_backward(dx, grads, dout, x, params, cache, config);
  });
  return {forward, forward_backward};
}

template <typename T>
std::pair<double, double> time_mha(const BenchOptions& options) {
  engine::MhaParams<T> params(options.d_model, options.heads, true);
  engine::Rng rng(options.seed);
  engine::fill_xavier_uniform(params.in_proj.weight, rng);
  engine::fill_xavier_uniform(params.out_proj.weight, rng);
  engine::Matrix<T> x(options.seq, options.d_model), dout(options.seq, options.d_model);
  engine::fill_normal(x, 0.0, 1.0, rng);
  engine::fill_normal(dout, 0.0, 1.0, rng);
  const engine::AttentionOptions attention;
  engine::Matrix<T> y, dx;
  engine::MhaCache<T> cache;
  engine::MhaParams<T> grads;
  const double forward = median_ms(options.warmup, options.iters,
                                   [&] { engine::mha_forward(y, cache, x, params, attention); });
  const double forward_backward = median_ms(options.warmup, options.iters, [&] {
    engine::mha_forward(y, cache, x, params, attention);
    engine::mha_backward(dx, grads, dout, x, params, cache, attention);
  });
  return {forward, forward_backward};
}

// Llama's attention as it is configured by default: causal, RoPE on q and k, no biases.
template <typename T>
std::pair<double, double> time_gqa(const BenchOptions& options) {
  engine::GqaParams<T> params(
      engine::GqaConfig::of(options.d_model, options.heads, options.kv_heads));
  engine::Rng rng(options.seed);
  for (engine::Matrix<T>* weight : {&params.q_proj, &params.k_proj, &params.v_proj, &params.o_proj})
    engine::fill_xavier_uniform(*weight, rng);
  engine::Matrix<T> x(options.seq, options.d_model), dout(options.seq, options.d_model);
  engine::fill_normal(x, 0.0, 1.0, rng);
  engine::fill_normal(dout, 0.0, 1.0, rng);
  engine::Matrix<T> y, dx;
  engine::GqaCache<T> cache;
  engine::GqaParams<T> grads;
  const double forward =
      median_ms(options.warmup, options.iters, [&] { engine::gqa_forward(y, cache, x, params); });
  const double forward_backward = median_ms(options.warmup, options.iters, [&] {
    engine::gqa_forward(y, cache, x, params);
    engine::gqa_backward(dx, grads, dout, x, params, cache);
  });
  return {forward, forward_backward};
}

}  // namespace

double forward_flops(const BenchOptions& o) {
  const auto t = static_cast<double>(o.seq);
  const auto e = static_cast<double>(o.d_model);
  const auto f = static_cast<double>(o.d_ff);
  if (o.op == "gqa") {
    // K and V project to G heads of E/H: a fraction G/H of the Q projection
    const double kv =
        static_cast<double>(o.kv_heads > 0 ? o.kv_heads : o.heads) / static_cast<double>(o.heads);
    return 2 * t * e * e * (1 + 2 * kv)  // Q, K, V projections
           + 2 * t * t * e               // scores, all heads
           + 2 * t * t * e               // weights · V
           + 2 * t * e * e;              // output projection
  }
  const double attention = 2 * t * e * 3 * e  // Q, K, V projections
                           + 2 * t * t * e    // scores, all heads
                           + 2 * t * t * e    // weights · V
                           + 2 * t * e * e;   // output projection
  const double feedforward = o.op == "encoder_layer" ? 2 * (2 * t * e * f) : 0.0;
  return attention + feedforward;
}

BenchCost estimate_cost(const BenchOptions& o) {
  constexpr double kScoreCost = 250;  // operations per attention score, forward (measured)
  const auto t = static_cast<double>(o.seq);
  const auto e = static_cast<double>(o.d_model);
  const auto h = static_cast<double>(o.heads);
  const bool layer = o.op == "encoder_layer";
  const double f = layer ? static_cast<double>(o.d_ff) : 0.0;
  const double scalar = o.dtype == "float64" ? 8 : 4;
  BenchCost cost;
  cost.bytes = scalar * (1.5 * h * t * t + 32 * t * std::max(e, f) + 2 * (4 * e * e + 2 * e * f));
  const double forward = forward_flops(o) + kScoreCost * h * t * t;
  cost.operations = static_cast<double>(o.warmup + o.iters) * (forward + 3 * forward);
  return cost;
}

nlohmann::ordered_json run_engine_bench(const BenchOptions& options) {
  if (options.op != "encoder_layer" && options.op != "mha" && options.op != "gqa") {
    throw InputError("bench.op",
                     fmt::format("--op {}: expected encoder_layer, mha or gqa", options.op));
  }
  check_range(kBenchSeq, options.seq);
  check_range(kBenchDModel, options.d_model);
  check_range(kBenchHeads, options.heads, options.d_model);
  check_range(kBenchDFf, options.d_ff);
  check_range(kBenchThreads, options.threads);
  if (options.threads > 1 && !engine::product_threads_available()) {
    throw InputError(
        "bench.threads",
        fmt::format("--threads {}: this build has single-threaded matrix products; "
                    "build with -DPROOFDECK_OPENMP=ON (scripts/bench and ./scripts/run "
                    "do) or leave --threads at 1",
                    options.threads));
  }
  check_range(kBenchIters, options.iters);
  check_range(kBenchWarmup, options.warmup);
  if (options.d_model % options.heads != 0) {
    throw InputError("bench.heads", fmt::format("--d-model {} is not divisible by --heads {}",
                                                options.d_model, options.heads));
  }
  if (options.kv_heads != 0) {
    check_range(kBenchKvHeads, options.kv_heads, options.heads);
    if (options.op != "gqa") {
      throw InputError("bench.kv_heads",
                       fmt::format("--kv-heads {}: only --op gqa has key/value heads of its own",
                                   options.kv_heads));
    }
    if (options.heads % options.kv_heads != 0) {
      throw InputError("bench.kv_heads",
                       fmt::format("--heads {} is not divisible by --kv-heads {}: every key/value "
                                   "head serves the same number of query heads",
                                   options.heads, options.kv_heads));
    }
  }
  if (options.op == "gqa" && (options.d_model / options.heads) % 2 != 0) {
    throw InputError("bench.heads",
                     fmt::format("--d-model {} / --heads {} is an odd head width; RoPE rotates "
                                 "pairs of dimensions, so it must be even",
                                 options.d_model, options.heads));
  }
  if (options.norm != "post" && options.norm != "pre") {
    throw InputError("bench.norm", fmt::format("--norm {}: expected post or pre", options.norm));
  }
  if (options.dtype != "float32" && options.dtype != "float64") {
    throw InputError("bench.dtype",
                     fmt::format("--dtype {}: expected float32 or float64", options.dtype));
  }
  const BenchCost cost = estimate_cost(options);
  if (cost.bytes > kBenchMaxBytes) {
    throw InputError(
        "bench.limit",
        fmt::format(
            "--seq {} with --heads {}, --d-model {}{} needs about {:.1f} GiB of memory; the "
            "limit is {:.0f} GiB: choose smaller sizes",
            options.seq, options.heads, options.d_model,
            options.op == "encoder_layer" ? fmt::format(", --d-ff {}", options.d_ff) : "",
            cost.bytes / (1u << 30), kBenchMaxBytes / (1u << 30)));
  }
  if (cost.operations > kBenchMaxOperations) {
    throw InputError(
        "bench.limit",
        fmt::format("{} warm-up and {} timed iterations of this shape are about {:.1e} "
                    "operations; the limit is {:.0e} (about a minute on one core): "
                    "lower --iters or the sizes",
                    options.warmup, options.iters, cost.operations, kBenchMaxOperations));
  }
  keep_freed_memory();  // see heap.hpp: page faults were 13% of forward+backward
  engine::set_product_threads(options.threads);
  const bool single = options.dtype == "float32";
  BenchOptions resolved = options;
  if (resolved.kv_heads == 0) resolved.kv_heads = resolved.heads;
  const auto [forward, forward_backward] =
      options.op == "mha" ? (single ? time_mha<float>(resolved) : time_mha<double>(resolved))
      : options.op == "gqa"
          ? (single ? time_gqa<float>(resolved) : time_gqa<double>(resolved))
          : (single ? time_encoder_layer<float>(resolved) : time_encoder_layer<double>(resolved));
  engine::set_product_threads(1);
  const double total_flops = 3.0 * forward_flops(options);  // backward ≈ 2× forward
  nlohmann::ordered_json result;
  result["impl"] = "proofdeck";
  result["op"] = options.op;
  result["seq"] = options.seq;
  result["d_model"] = options.d_model;
  result["heads"] = options.heads;
  if (options.op == "gqa") {
    result["kv_heads"] = resolved.kv_heads;
    result["causal"] = true;
    result["rope"] = true;
  }
  if (options.op == "encoder_layer") {
    result["d_ff"] = options.d_ff;
    result["norm"] = options.norm;
  }
  result["dtype"] = options.dtype;
  result["threads"] = options.threads;
  result["iters"] = options.iters;
  result["forward_ms"] = forward;
  result["forward_backward_ms"] = forward_backward;
  result["gflops"] = total_flops / (forward_backward * 1e6);
  result["simd"] = Eigen::SimdInstructionSetsInUse();
  // What ran the large products: the instruction set compiled for, and Eigen or OpenBLAS with
  // the kernels it chose (engine/product.hpp).
  const engine::ProductBackend& backend = engine::product_backend();
  result["isa"] = backend.isa;
  result["products"] = backend.library;
  if (!backend.note.empty()) result["products_note"] = backend.note;
  return result;
}

}  // namespace proofdeck
