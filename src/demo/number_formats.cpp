// number-formats: range against precision in the narrow float formats, measured by rounding on
// the engine. float16 stops at 65,504 and keeps values down to 2⁻²⁴, so a share of small
// gradients becomes 0 unless the loss is scaled up first (Micikevicius et al. 2018, §3.2), and a
// scale too large overflows to infinity, which dynamic loss scaling answers by skipping the step
// and halving the scale; bfloat16 keeps float32's range with 7 mantissa bits (Kalamkar et al.
// 2019); FP8's E4M3 reaches 448 with 3 mantissa bits and E5M2 57,344 with 2 (Micikevicius et al.
// 2022, §3).
#include "demo/demos.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/number_format.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::NumberFormat;

namespace {

struct FormatRow {
  NumberFormat format;
  const char* key;    // value names: max_<key>
  const char* label;  // for people
};

constexpr std::array<FormatRow, 4> kFormats{{{NumberFormat::float16, "float16", "float16"},
                                             {NumberFormat::bfloat16, "bfloat16", "bfloat16"},
                                             {NumberFormat::float8_e4m3fn, "e4m3", "FP8 E4M3"},
                                             {NumberFormat::float8_e5m2, "e5m2", "FP8 E5M2"}}};

// The largest finite value: a huge number cast with saturation.
double largest_finite(NumberFormat format) {
  return engine::round_to_format(1e300, format, engine::Overflow::saturate);
}

// The smallest positive power of two the format keeps, halving from 1 until a cast gives 0.
double smallest_kept(NumberFormat format) {
  double kept = 1.0;
  for (int k = 1; k < 200; ++k) {
    const double value = std::ldexp(1.0, -k);
    if (engine::round_to_format(value, format) == 0.0) break;
    kept = value;
  }
  return kept;
}

double mean_relative_error(const std::vector<double>& xs, NumberFormat format) {
  double sum = 0;
  for (const double x : xs)
    sum += std::abs(engine::round_to_format(x, format) - x) / std::abs(x);
  return sum / static_cast<double>(xs.size());
}

// The share of gradients a float16 round trip turns into 0 at a loss scale (1: none).
double zero_share(const std::vector<double>& grads, NumberFormat format, double scale) {
  std::size_t zeros = 0;
  for (const double g : grads)
    if (engine::round_to_format(g * scale, format) / scale == 0.0) ++zeros;
  return static_cast<double>(zeros) / static_cast<double>(grads.size());
}

struct DynamicScaling {
  double skipped = 0;
  double final_scale = 0;
};

// Dynamic loss scaling from 2^start: a step whose scaled gradients overflow float16 to infinity
// is skipped and the scale halved, until one passes.
DynamicScaling dynamic_scaling(const std::vector<double>& grads, int start_log2) {
  DynamicScaling out;
  double scale = std::ldexp(1.0, start_log2);
  for (int step = 0; step < 256; ++step) {
    bool overflow = false;
    for (const double g : grads)
      overflow = overflow || std::isinf(engine::round_to_format(g * scale, NumberFormat::float16));
    if (!overflow) break;
    out.skipped += 1;
    scale /= 2;
  }
  out.final_scale = scale;
  return out;
}

// One row a power of two, largest first, one column a format: 1 where the format holds it as a
// normal number, ½ where only as a subnormal, 0 where a cast loses it (to 0 or past the largest
// value). A number line each column, read top to bottom.
Table number_line(int high_log2, int low_log2, int step) {
  std::vector<std::string> rows, columns;
  for (int k = high_log2; k >= low_log2; k -= step)
    rows.push_back(fmt::format("2^{}", k));
  engine::Matrix<double> cells(static_cast<engine::Index>(rows.size()),
                               static_cast<engine::Index>(kFormats.size()));
  for (std::size_t f = 0; f < kFormats.size(); ++f) {
    columns.emplace_back(kFormats[f].key);
    const double normal = engine::number_format_info(kFormats[f].format).min_normal;
    engine::Index r = 0;
    for (int k = high_log2; k >= low_log2; k -= step, ++r) {
      const double value = std::ldexp(1.0, k);
      const bool kept = engine::round_to_format(value, kFormats[f].format) == value;
      cells(r, static_cast<engine::Index>(f)) = !kept ? 0.0 : value >= normal ? 1.0 : 0.5;
    }
  }
  return heatmap("number_line",
                 "the powers of two each format holds: 1 normal, 0.5 subnormal, 0 lost", rows,
                 columns, cells);
}

void set_ranges(DemoResult& result, const std::vector<double>& samples) {
  std::array<double, 4> errors{};
  for (std::size_t f = 0; f < kFormats.size(); ++f) {
    const FormatRow& row = kFormats[f];
    result.set(fmt::format("max_{}", row.key), fmt::format("Largest finite {} value", row.label),
               largest_finite(row.format), Provenance::measured);
    result.set(fmt::format("smallest_{}", row.key),
               fmt::format("Smallest power of two {} keeps above 0", row.label),
               smallest_kept(row.format), Provenance::measured);
    errors[f] = mean_relative_error(samples, row.format);
    result.set(fmt::format("rel_error_{}", row.key),
               fmt::format("Mean relative error, {}", row.label), errors[f], Provenance::measured);
  }
  result.set("bf16_over_fp16_error", "Rounding error of bfloat16 over float16's",
             errors[1] / errors[0], Provenance::measured);
  result.set("e5m2_over_e4m3_error", "E5M2's rounding error over E4M3's", errors[3] / errors[2],
             Provenance::measured);
}

DemoResult run_number_formats(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::int64_t samples = params.integer("samples");
  const std::int64_t low = params.integer("grad_log2_min");
  const std::int64_t high = params.integer("grad_log2_max");
  const auto scale_log2 = static_cast<int>(params.integer("loss_scale_log2"));
  const auto start_log2 = static_cast<int>(params.integer("start_scale_log2"));
  if (low >= high) {
    param_error("number-formats",
                fmt::format("grad_log2_min={} must be below grad_log2_max={}", low, high));
  }
  engine::Rng rng(seed);
  std::vector<double> normal(static_cast<std::size_t>(samples));
  for (double& x : normal) {
    do
      x = rng.normal();
    while (x == 0.0);
  }
  // gradients: magnitudes log-uniform between 2^low and 2^high, random signs
  std::vector<double> grads(static_cast<std::size_t>(samples));
  for (double& g : grads) {
    const double exponent = as_double(low) + rng.uniform() * as_double(high - low);
    g = (rng.uniform() < 0.5 ? -1.0 : 1.0) * std::exp2(exponent);
  }
  DemoResult result;
  set_ranges(result, normal);
  const double scale = std::ldexp(1.0, scale_log2);
  const double zero_plain = zero_share(grads, NumberFormat::float16, 1.0);
  const double zero_scaled = zero_share(grads, NumberFormat::float16, scale);
  result.set("grad_zero_share_float16", "Share of the gradients float16 turns into 0", zero_plain,
             Provenance::measured);
  result.set("grad_zero_share_scaled", "Share lost when the loss is scaled first", zero_scaled,
             Provenance::measured);
  result.set("grad_zero_share_bfloat16", "Share of the gradients bfloat16 turns into 0",
             zero_share(grads, NumberFormat::bfloat16, 1.0), Provenance::measured);
  const DynamicScaling dynamic = dynamic_scaling(grads, start_log2);
  result.set(
      "skipped_steps",
      fmt::format("Steps dynamic loss scaling skips from 2^{} before none overflows", start_log2),
      dynamic.skipped, Provenance::measured);
  result.set("loss_scale_final", "The loss scale it settles on", dynamic.final_scale,
             Provenance::measured);
  result.set("float16_overflow_is_inf", "70,000 cast to float16 is infinity",
             std::isinf(engine::round_to_format(70000.0, NumberFormat::float16)),
             Provenance::measured);
  result.tables.push_back(number_line(20, -40, 4));
  result.text = {
      fmt::format("float16 reaches {} and keeps values down to {}; bfloat16 reaches {} with the "
                  "same 8 exponent bits as float32 but rounds {} times as coarsely. FP8's E4M3 "
                  "stops at {}, E5M2 at {}, which rounds {} times as coarsely.",
                  grouped(result.find("max_float16")->number),
                  text::format_readable(result.find("smallest_float16")->number, 3),
                  text::format_readable(result.find("max_bfloat16")->number, 3),
                  text::format_readable(result.find("bf16_over_fp16_error")->number, 3),
                  grouped(result.find("max_e4m3")->number),
                  grouped(result.find("max_e5m2")->number),
                  text::format_readable(result.find("e5m2_over_e4m3_error")->number, 3)),
      fmt::format("Of {} gradients between 2^{} and 2^{}, float16 turns {}% into 0; scaling the "
                  "loss by 2^{} first (and the gradients back down in float32) loses {}%. Start "
                  "the scale at 2^{} and the largest gradients overflow to infinity: dynamic loss "
                  "scaling skips {} and settles at 2^{}.",
                  grouped(as_double(samples)), low, high,
                  text::format_readable(100 * zero_plain, 3), scale_log2,
                  text::format_readable(100 * zero_scaled, 3), start_log2,
                  text::count(static_cast<std::int64_t>(dynamic.skipped), "step", "steps"),
                  text::format_readable(std::log2(dynamic.final_scale), 3))};
  return result;
}

}  // namespace

DemoInfo number_formats_demo() {
  return DemoInfo{
      "number-formats",
      "Float formats: range against precision",
      "float16 keeps 10 mantissa bits but stops at 65,504 and loses gradients below 2⁻²⁴ unless "
      "the loss is scaled; bfloat16 keeps float32's range with 7; FP8's E4M3 and E5M2 trade the "
      "same way.",
      "Beyond the lesson: mixed precision (Micikevicius et al. 2018, §3; Kalamkar et al. 2019; "
      "Micikevicius et al. 2022, §3)",
      {integer_param("samples", 4096, 16, 1000000, "values and gradients drawn"),
       integer_param("grad_log2_min", -34, -60, 10, "the smallest gradient magnitude, log2"),
       integer_param("grad_log2_max", -10, -59, 20, "the largest gradient magnitude, log2"),
       integer_param("loss_scale_log2", 10, 0, 40, "the loss scale, log2"),
       integer_param("start_scale_log2", 32, 0, 60, "dynamic loss scaling's first scale, log2")},
      run_number_formats,
      {engine::Op::number_format}};
}

}  // namespace proofdeck::demo
