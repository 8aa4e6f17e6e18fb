// quant-error: INT8, INT4 and NF4 on one matrix of normally distributed weights, each with an
// absmax scale per block of 64. INT4's step is 17 times INT8's (7.5 levels a side against
// 127.5), and so is its error, not twice; NF4 puts its 16 levels at a standard normal's quantiles
// (Dettmers et al. 2023, QLoRA, §3), so normal weights spread over them and the error falls below
// INT4's at the same 4 bits; double quantization takes the block constants from 0.5 to about
// 0.127 bits a weight. And the storage arithmetic of a 7-billion-parameter model at each width.
#include "demo/demos.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/nf4.hpp"
#include "engine/quantize.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

struct IntResult {
  Mat values;
  double median_step = 0;
  std::vector<double> level_share;  // share of the weights on each level, lowest first
};

// Symmetric absmax quantization at `bits` with a scale per block of a row (group-wise).
engine::QuantConfig group_config(std::int64_t bits, Index block) {
  engine::QuantConfig config;
  config.granularity = engine::QuantGranularity::group;
  config.group_size = block;
  config.bits = static_cast<int>(bits);
  return config;
}

IntResult int_quantized(const Mat& w, std::int64_t bits, Index block) {
  const engine::QuantConfig config = group_config(bits, block);
  const engine::QuantParams<double> params = engine::observe_quant_params(w, config);
  IntResult out;
  engine::FakeQuantCache<double> cache;
  engine::fake_quantize_forward(out.values, cache, w, params, config);
  out.median_step = median(params.scale);
  const auto levels = static_cast<std::size_t>(params.quant_max - params.quant_min + 1);
  out.level_share.assign(levels, 0.0);
  for (Index r = 0; r < w.rows(); ++r) {
    for (Index c = 0; c < w.cols(); ++c) {
      const double scale =
          params.scale[static_cast<std::size_t>(engine::quant_param_index(config, w.cols(), r, c))];
      const auto level = static_cast<std::int64_t>(std::lround(out.values(r, c) / scale));
      out.level_share[static_cast<std::size_t>(level - params.quant_min)] += 1.0;
    }
  }
  for (double& share : out.level_share)
    share /= static_cast<double>(w.size());
  return out;
}

// The median scale PyTorch's symmetric observer gives the blocks at a width: the step, alone.
double median_step(const Mat& w, std::int64_t bits, Index block) {
  return median(engine::observe_quant_params(w, group_config(bits, block)).scale);
}

double rms(const Mat& a, const Mat& b) {
  return std::sqrt((a - b).squaredNorm() / static_cast<double>(a.size()));
}

engine::Nf4Result<double> nf4_quantized(const Mat& w, Index block, bool double_quant) {
  engine::Nf4Config config;
  config.block_size = block;
  config.double_quant = double_quant;
  engine::Nf4Result<double> out;
  engine::nf4_quantize(out, w, config);
  return out;
}

std::vector<double> nf4_level_share(const engine::Nf4Result<double>& q) {
  std::vector<double> share(16, 0.0);
  for (const std::uint8_t code : q.codes)
    share[code] += 1.0;
  for (double& s : share)
    s /= static_cast<double>(q.codes.size());
  return share;
}

// fake_quantize of 0.625 with scale 0.25 and zero point 0: 2.5 levels, a tie.
double halfway_result() {
  engine::QuantConfig config;
  engine::QuantParams<double> params;
  params.scale = {0.25};
  params.zero_point = {0};
  params.quant_min = config.quant_min();
  params.quant_max = config.quant_max();
  Mat x(1, 1);
  x(0, 0) = 0.625;
  Mat out;
  engine::FakeQuantCache<double> cache;
  engine::fake_quantize_forward(out, cache, x, params, config);
  return out(0, 0);
}

void set_storage(DemoResult& result, double model_params, double bits_nf4_dq) {
  constexpr std::array<std::pair<const char*, double>, 4> widths{
      {{"float32", 32}, {"float16", 16}, {"int8", 8}, {"int4", 4}}};
  for (const auto& [name, bits] : widths) {
    result.set(fmt::format("gb_{}", name), fmt::format("Gigabytes of the model in {}", name),
               model_params * bits / 8 / 1e9, Provenance::derived);
  }
  result.set("gb_nf4_dq", "Gigabytes in NF4, double-quantized",
             model_params * bits_nf4_dq / 8 / 1e9, Provenance::derived);
}

DemoResult run_quant_error(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::int64_t rows = params.integer("rows");
  const std::int64_t cols = params.integer("cols");
  const double std_dev = params.number("std");
  const std::int64_t block = params.integer("block");
  const double model_params = params.number("model_params");
  const std::int64_t high_bits = params.integer("high_bits");
  const std::int64_t low_bits = params.integer("low_bits");
  if (cols % block != 0) {
    param_error("quant-error", fmt::format("block={} does not divide cols={}: INT blocks run "
                                           "along a row and must be whole; use a divisor of {}",
                                           block, cols, cols));
  }
  if (low_bits >= high_bits) {
    param_error(
        "quant-error",
        fmt::format("low_bits={} is not below high_bits={}: the step ratio compares a "
                    "narrower width with a wider one, e.g. --set high_bits=8 --set low_bits=4",
                    low_bits, high_bits));
  }
  engine::Rng rng(seed);
  const Mat w = random_matrix(rows, cols, rng, 0.0, std_dev);
  const IntResult int8 = int_quantized(w, 8, block);
  const IntResult int4 = int_quantized(w, 4, block);
  const engine::Nf4Result<double> nf4 = nf4_quantized(w, block, false);
  const engine::Nf4Result<double> nf4_dq = nf4_quantized(w, block, true);
  const double e8 = rms(w, int8.values), e4 = rms(w, int4.values);
  const double e_nf4 = rms(w, nf4.output), e_nf4_dq = rms(w, nf4_dq.output);

  DemoResult result;
  result.set("error_int8", "RMS error in INT8", e8, Provenance::measured);
  result.set("error_int4", "RMS error in INT4", e4, Provenance::measured);
  result.set("error_nf4", "RMS error in NF4", e_nf4, Provenance::measured);
  result.set("error_nf4_dq", "RMS error in NF4 with double quantization", e_nf4_dq,
             Provenance::measured);
  result.set("int4_over_int8_error", "INT4's error over INT8's", e4 / e8, Provenance::measured);
  result.set("nf4_over_int4_error", "NF4's error over INT4's", e_nf4 / e4, Provenance::measured);
  for (const std::int64_t bits : {high_bits, low_bits}) {
    result.set(fmt::format("half_span_{}_bits", bits == high_bits ? "high" : "low"),
               fmt::format("Half the level span at {} bits", bits),
               (std::ldexp(1.0, static_cast<int>(bits)) - 1) / 2, Provenance::derived);
  }
  const double step_high = median_step(w, high_bits, block);
  const double step_low = median_step(w, low_bits, block);
  result.set("step_high_bits", fmt::format("Median step at {} bits", high_bits), step_high,
             Provenance::measured);
  result.set("step_low_bits", fmt::format("Median step at {} bits", low_bits), step_low,
             Provenance::measured);
  result.set("step_ratio_bits",
             fmt::format("The {}-bit step over the {}-bit step", low_bits, high_bits),
             step_low / step_high, Provenance::measured);
  const double b = as_double(block);
  result.set("bits_int8", "Bits a weight in INT8, with its scale", 8 + 32 / b, Provenance::derived);
  result.set("bits_int4", "Bits a weight in INT4, with its scale", 4 + 32 / b, Provenance::derived);
  result.set("bits_nf4", "Bits a weight in NF4, with its absmax", nf4.bits_per_parameter,
             Provenance::counted);
  result.set("bits_nf4_dq", "Bits a weight in NF4, double-quantized", nf4_dq.bits_per_parameter,
             Provenance::counted);
  result.set("double_quant_saving", "Bits a weight double quantization saves",
             nf4.bits_per_parameter - nf4_dq.bits_per_parameter, Provenance::counted);
  const double halfway = halfway_result();
  result.set("halfway_result", "0.625 fake-quantized at scale 0.25", halfway, Provenance::measured);
  result.set("halfway_rounds_to_even", "The tie went to the even level, 2", halfway == 0.5,
             Provenance::measured);
  const std::vector<double> share_nf4 = nf4_level_share(nf4);
  result.set("busiest_level_share_nf4", "Share of the weights on NF4's busiest level",
             *std::max_element(share_nf4.begin(), share_nf4.end()), Provenance::measured);
  result.set("busiest_level_share_int4", "Share of the weights on INT4's busiest level",
             *std::max_element(int4.level_share.begin(), int4.level_share.end()),
             Provenance::measured);
  // a 7e9 model's constants: NF4's bits with double quantization at a large block count
  const double blocks = model_params / b;
  const double bits_large = 4 + (8 * blocks + 32 * std::ceil(blocks / 256) + 32) / model_params;
  set_storage(result, model_params, bits_large);

  Series levels{"share_per_level",
                "share of the weights on each of the 16 levels",
                "level (code)",
                "share of weights",
                count_up(0, 15),
                {{"NF4", share_nf4}, {"INT4 (levels −8 … 7)", int4.level_share}},
                false};
  result.series.push_back(std::move(levels));
  result.text = {
      fmt::format("With a scale per {} weights, INT4 steps {} times as coarsely as INT8, and its "
                  "error is {} times INT8's: halving the bits divides the levels by 16. NF4's "
                  "levels sit at a normal's quantiles, so its busiest level holds {}% of the "
                  "weights against INT4's {}%, and its error is {} of INT4's.",
                  block, text::format_readable(int4.median_step / int8.median_step, 3),
                  text::format_readable(e4 / e8, 3),
                  text::format_readable(100 * result.find("busiest_level_share_nf4")->number, 3),
                  text::format_readable(100 * result.find("busiest_level_share_int4")->number, 3),
                  text::format_readable(e_nf4 / e4, 2)),
      fmt::format("A 32-bit absmax per {} weights costs {} bits a weight; double quantization "
                  "stores it in 8 bits with a 32-bit scale per 256 blocks: {} here, about {} for "
                  "a whole model, whose {} parameters then take {} GB.",
                  block, text::format_readable(32 / b, 3),
                  text::format_readable(nf4_dq.bits_per_parameter - 4, 3),
                  text::format_readable(bits_large - 4, 3), grouped(model_params),
                  text::format_readable(model_params * bits_large / 8 / 1e9, 3))};
  if (high_bits != 8 || low_bits != 4) {
    result.text.push_back(fmt::format(
        "Between {} and {} bits the step grows {} times: the scale divides max |x| by half the "
        "level span, (2^{} − 1) / 2 against (2^{} − 1) / 2.",
        high_bits, low_bits, text::format_readable(step_low / step_high, 4), high_bits, low_bits));
  }
  return result;
}

}  // namespace

DemoInfo quant_error_demo() {
  return DemoInfo{
      "quant-error",
      "INT8, INT4 and NF4 on normal weights",
      "Over one range INT4 steps 17 times as coarsely as INT8, not twice; NF4's levels at a "
      "normal's quantiles beat INT4's evenly spaced ones at the same 4 bits.",
      "Beyond the lesson: weight quantization (Dettmers et al. 2023, QLoRA, §3; Dettmers et al. "
      "2022, LLM.int8(), §3)",
      {integer_param("rows", 64, 1, 2048, "rows of the weight matrix"),
       integer_param("cols", 64, 1, 2048, "columns of the weight matrix"),
       number_param("std", 0.02, 1e-6, 10.0, "standard deviation of the weights"),
       integer_param("block", 64, 2, 1024, "weights sharing one absmax scale"),
       number_param("model_params", 7e9, 1e6, 1e13, "parameters of the model whose size is shown"),
       integer_param("high_bits", 8, 3, 16, "the wider of the two widths whose steps are compared"),
       integer_param("low_bits", 4, 2, 15, "the narrower width, below high_bits")},
      run_quant_error,
      {engine::Op::quantize, engine::Op::nf4}};
}

}  // namespace proofdeck::demo
