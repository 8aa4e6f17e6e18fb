// quant-granularity: one outlier channel in a weight matrix sets a per-tensor INT8 scale for
// every channel, so the ordinary channels lose most of their levels, while a scale per channel
// (or per group of a row) keeps each channel's own range — LLM.int8()'s outlier features
// (Dettmers et al. 2022, §3) and why weights are quantized per channel. On activations, whose
// outliers sit in a few input features and are quantized per tensor, SmoothQuant (Xiao et al.
// 2023, §4) divides each feature by sⱼ = max|Xⱼ|^α / max|Wⱼ|^(1−α) and multiplies the weight's
// column by it: the product is unchanged and the activations quantize with less error.
#include "demo/demos.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/quantize.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

engine::QuantConfig quant_config(engine::QuantGranularity granularity, std::int64_t bits,
                                 Index group_size = 128) {
  engine::QuantConfig config;
  config.granularity = granularity;
  config.bits = static_cast<int>(bits);
  config.group_size = group_size;
  return config;
}

struct Quantized {
  Mat values;
  engine::QuantParams<double> params;
};

Quantized fake_quantized(const Mat& x, const engine::QuantConfig& config) {
  Quantized q;
  q.params = engine::observe_quant_params(x, config);
  engine::FakeQuantCache<double> cache;
  engine::fake_quantize_forward(q.values, cache, x, q.params, config);
  return q;
}

double row_rms_error(const Mat& x, const Mat& q, Index row) {
  return std::sqrt((x.row(row) - q.row(row)).squaredNorm() / static_cast<double>(x.cols()));
}

// RMS error over every row but the outlier's.
double rms_error_without(const Mat& x, const Mat& q, Index outlier) {
  double sum = 0;
  for (Index r = 0; r < x.rows(); ++r)
    if (r != outlier) sum += (x.row(r) - q.row(r)).squaredNorm();
  return std::sqrt(sum / static_cast<double>((x.rows() - 1) * x.cols()));
}

// The median, over the ordinary rows, of the distinct values a row's quantization kept.
double median_levels_used(const Mat& q, Index outlier) {
  std::vector<double> counts;
  for (Index r = 0; r < q.rows(); ++r) {
    if (r == outlier) continue;
    const std::set<double> levels(q.row(r).begin(), q.row(r).end());
    counts.push_back(static_cast<double>(levels.size()));
  }
  return median(counts);
}

struct Smoothing {
  double product_gap = 0;   // max |X·Wᵀ − X'·W'ᵀ|
  double error_before = 0;  // relative error of the W8A8 product
  double error_after = 0;
};

// The W8A8 product: activations quantized per tensor, weights per output channel, both INT8.
Mat w8a8_product(const Mat& x, const Mat& w) {
  const Mat xq = fake_quantized(x, quant_config(engine::QuantGranularity::tensor, 8)).values;
  const Mat wq = fake_quantized(w, quant_config(engine::QuantGranularity::channel, 8)).values;
  return xq * wq.transpose();
}

// SmoothQuant's migration on the engine: the product before and after, and its INT8 error.
Smoothing smooth(const Mat& x, const Mat& w, double alpha) {
  Mat xs = x, ws = w;
  engine::smooth_quant(xs, ws, alpha);
  const Mat exact = x * w.transpose();
  Smoothing out;
  out.product_gap = (exact - xs * ws.transpose()).cwiseAbs().maxCoeff();
  out.error_before = (w8a8_product(x, w) - exact).norm() / exact.norm();
  out.error_after = (w8a8_product(xs, ws) - exact).norm() / exact.norm();
  return out;
}

void set_smoothing(DemoResult& result, const Smoothing& s) {
  result.set("smooth_product_gap", "Largest change smoothing makes to the exact product X·Wᵀ",
             s.product_gap, Provenance::measured);
  result.set("w8a8_error_before", "Relative error of the INT8 product, activations as they are",
             s.error_before, Provenance::measured);
  result.set("w8a8_error_after", "Relative error of the INT8 product, smoothed", s.error_after,
             Provenance::measured);
  result.set("smooth_error_ratio", "Error before smoothing over the error after",
             s.error_before / s.error_after, Provenance::measured);
}

DemoResult run_quant_granularity(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::int64_t channels = params.integer("channels");
  const std::int64_t width = params.integer("width");
  const double outlier = params.number("outlier");
  const std::int64_t bits = params.integer("bits");
  const std::int64_t group_size = params.integer("group_size");
  const double alpha = params.number("alpha");
  const std::int64_t tokens = params.integer("tokens");
  if (width % group_size != 0) {
    param_error("quant-granularity",
                fmt::format("group_size={} does not divide width={}: every group of a row must "
                            "be whole; use a divisor of {}",
                            group_size, width, width));
  }
  engine::Rng rng(seed);
  Mat w = random_matrix(channels, width, rng, 0.0, 0.02);
  const Index hot = std::min<Index>(3, channels - 1);  // the outlier channel
  w.row(hot) *= outlier;
  const Quantized per_tensor =
      fake_quantized(w, quant_config(engine::QuantGranularity::tensor, bits));
  const Quantized per_channel =
      fake_quantized(w, quant_config(engine::QuantGranularity::channel, bits));
  const Quantized per_group =
      fake_quantized(w, quant_config(engine::QuantGranularity::group, bits, group_size));

  DemoResult result;
  std::vector<double> ordinary_scales;
  for (Index r = 0; r < channels; ++r)
    if (r != hot) ordinary_scales.push_back(per_channel.params.scale[static_cast<std::size_t>(r)]);
  const double scale_tensor = per_tensor.params.scale.front();
  const double scale_channel = median(ordinary_scales);
  result.set("scale_per_tensor", "The per-tensor scale, set by the outlier channel", scale_tensor,
             Provenance::measured);
  result.set("scale_median_channel", "The median scale of an ordinary channel's own", scale_channel,
             Provenance::measured);
  result.set("scale_ratio", "Per-tensor scale over an ordinary channel's",
             scale_tensor / scale_channel, Provenance::measured);
  const double e_tensor = rms_error_without(w, per_tensor.values, hot);
  const double e_channel = rms_error_without(w, per_channel.values, hot);
  const double e_group = rms_error_without(w, per_group.values, hot);
  result.set("error_per_tensor", "RMS error of the ordinary channels, one scale for the tensor",
             e_tensor, Provenance::measured);
  result.set("error_per_channel", "RMS error of the ordinary channels, a scale per channel",
             e_channel, Provenance::measured);
  result.set("error_group", "Group-wise RMS error of the ordinary channels", e_group,
             Provenance::measured);
  result.set("error_ratio", "Per-tensor error over per-channel error, ordinary channels",
             e_tensor / e_channel, Provenance::measured);
  result.set("group_over_channel", "Group-wise error over per-channel error", e_group / e_channel,
             Provenance::measured);
  result.set("error_outlier_per_tensor", "The outlier channel's RMS error, per-tensor scale",
             row_rms_error(w, per_tensor.values, hot), Provenance::measured);
  result.set("error_outlier_per_channel", "The outlier channel's RMS error, its own scale",
             row_rms_error(w, per_channel.values, hot), Provenance::measured);
  result.set("levels_per_tensor", "Distinct levels an ordinary channel keeps, per-tensor scale",
             median_levels_used(per_tensor.values, hot), Provenance::measured);
  result.set("levels_per_channel", "Distinct levels an ordinary channel keeps, its own scale",
             median_levels_used(per_channel.values, hot), Provenance::measured);

  // Activations: one input feature carries the outlier; a fresh ordinary weight.
  Mat x = random_matrix(tokens, width, rng, 0.0, 1.0);
  x.col(hot) *= outlier;
  const Mat w_act = random_matrix(channels, width, rng, 0.0, 0.02);
  const Smoothing smoothing = smooth(x, w_act, alpha);
  set_smoothing(result, smoothing);

  Series by_channel{"rms_error_by_channel",
                    fmt::format("INT{} error of each channel, channel {} ×{}", bits, hot,
                                text::format_readable(outlier, 4)),
                    "channel",
                    "RMS error",
                    count_up(0, channels - 1),
                    {{"one scale for the tensor", {}}, {"a scale per channel", {}}},
                    true};
  for (Index r = 0; r < channels; ++r) {
    by_channel.lines[0].second.push_back(row_rms_error(w, per_tensor.values, r));
    by_channel.lines[1].second.push_back(row_rms_error(w, per_channel.values, r));
  }
  result.series.push_back(std::move(by_channel));
  result.text = {
      fmt::format("Channel {}'s weights are {} times the others', so one INT{} scale for the "
                  "whole tensor is {} times what an ordinary channel needs: its weights fall on "
                  "{} of the levels instead of {}, and their error is {} times what a scale per "
                  "channel gives. The outlier itself loses nothing either way.",
                  hot, text::format_readable(outlier, 4), bits,
                  text::format_readable(scale_tensor / scale_channel, 3),
                  text::format_readable(median_levels_used(per_tensor.values, hot), 4),
                  text::format_readable(median_levels_used(per_channel.values, hot), 4),
                  text::format_readable(e_tensor / e_channel, 3)),
      fmt::format("Activations are quantized per tensor, and their outliers sit in a few input "
                  "features. Dividing feature j by sⱼ and multiplying the weight's column j by "
                  "it leaves X·Wᵀ as it was (to {}) and cuts the INT8 product's error {} times.",
                  text::format_readable(smoothing.product_gap, 2),
                  text::format_readable(smoothing.error_before / smoothing.error_after, 3))};
  return result;
}

}  // namespace

DemoInfo quant_granularity_demo() {
  return DemoInfo{
      "quant-granularity",
      "One outlier channel and the scale it sets",
      "A per-tensor scale is set by the largest weight, so one outlier channel costs every other "
      "channel its precision; a scale per channel or group keeps each one's own range.",
      "Beyond the lesson: quantization granularity (Dettmers et al. 2022, LLM.int8(), §3; Xiao "
      "et al. 2023, SmoothQuant, §4)",
      {integer_param("channels", 8, 2, 64, "output channels (rows) of the weight"),
       integer_param("width", 64, 4, 1024, "input features (columns)"),
       number_param("outlier", 20.0, 1.0, 1000.0, "how many times larger the outlier channel is"),
       integer_param("bits", 8, 2, 16, "bits a weight (symmetric levels)"),
       integer_param("group_size", 16, 1, 1024, "weights of a row sharing a group-wise scale"),
       number_param("alpha", 0.5, 0.0, 1.0, "SmoothQuant's migration strength α"),
       integer_param("tokens", 16, 1, 256, "activation rows (tokens) for SmoothQuant")},
      run_quant_granularity,
      {engine::Op::quantize}};
}

}  // namespace proofdeck::demo
