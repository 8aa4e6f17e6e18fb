// `engine run`'s number formats: fake_quantize, integer quantization as
// torch.fake_quantize_per_tensor_affine and torch.fake_quantize_per_channel_affine compute it
// (group-wise: per channel over a row's groups), with the scales PyTorch's MinMax observers give
// the input, or the scales and zero points given; round_to_format, a cast to float16, bfloat16
// or an FP8 format and back (x.to(torch.float16).to(torch.float32)), overflowing as torch's casts
// do or saturating as the OCP FP8 specification allows; nf4_quantize, QLoRA's 4-bit NormalFloat
// with bitsandbytes' blocks and double quantization.
#include <cmath>
#include <string>
#include <vector>

#include "engine/nf4.hpp"
#include "engine/number_format.hpp"
#include "engine/quantize.hpp"
#include "engine_io/op_run.hpp"
#include "engine_io/ops.hpp"
#include "engine_io/tensor_json.hpp"

namespace proofdeck::engine_io::detail {

namespace {

engine::QuantConfig read_quant_config(ConfigReader& config, const std::string& source) {
  engine::QuantConfig quant;
  const std::string granularity =
      config.choice("granularity", "tensor", {"tensor", "channel", "group"});
  quant.granularity = granularity == "channel" ? engine::QuantGranularity::channel
                      : granularity == "group" ? engine::QuantGranularity::group
                                               : engine::QuantGranularity::tensor;
  quant.axis = config.count("axis", 0);
  if (quant.axis > 1) {
    spec_error(source, "config",
               fmt::format("config.axis: expected 0 (a scale per row) or 1 (per column), got {}",
                           quant.axis));
  }
  quant.group_size = config.dimension("group_size", 128);
  const std::int64_t bits = config.count("bits", 8);
  if (bits < 2 || bits > 16) {
    spec_error(source, "config", fmt::format("config.bits: expected 2 to 16, got {}", bits));
  }
  quant.bits = static_cast<int>(bits);
  quant.symmetric = config.flag("symmetric", true);
  return quant;
}

// A number or a list of `count` numbers (a list of one for a single value).
std::vector<double> numbers_from(const std::string& source, const json& value,
                                 const std::string& field, std::size_t count, bool integers) {
  std::vector<json> items;
  if (value.is_array()) {
    items.assign(value.begin(), value.end());
  } else {
    items.push_back(value);
  }
  const char* kind = integers ? "integer" : "number";
  if (items.size() != count) {
    spec_error(
        source, "config",
        fmt::format(
            "config.{}: expected {} {} (one per {}), got {}", field, count,
            count == 1 ? kind : std::string(kind) + "s", count == 1 ? "tensor" : "channel or group",
            value.is_array() ? fmt::format("{} entries", items.size()) : json_preview(value)));
  }
  std::vector<double> out;
  for (const json& item : items) {
    if (!item.is_number() || (integers && !item.is_number_integer()) ||
        !std::isfinite(item.get<double>())) {
      spec_error(source, "config",
                 fmt::format("config.{}: expected {}s, got {}", field, kind, json_preview(item)));
    }
    out.push_back(item.get<double>());
  }
  return out;
}

template <typename T>
engine::QuantParams<T> given_params(OpRun<T>& run, const engine::QuantConfig& quant,
                                    std::size_t count) {
  engine::QuantParams<T> params;
  const json* scale = run.config.raw("scale");
  const json* zero_point = run.config.raw("zero_point");
  for (const double s : numbers_from(run.source, *scale, "scale", count, false)) {
    if (!(s > 0.0)) {
      spec_error(run.source, "config",
                 fmt::format("config.scale: expected positive scales, got {}", s));
    }
    params.scale.push_back(static_cast<T>(s));
  }
  params.quant_min = run.config.integer("quant_min", quant.quant_min());
  params.quant_max = run.config.integer("quant_max", quant.quant_max());
  if (params.quant_min >= params.quant_max) {
    spec_error(run.source, "config",
               fmt::format("config.quant_min: {} must be below quant_max {}", params.quant_min,
                           params.quant_max));
  }
  if (zero_point == nullptr) {
    params.zero_point.assign(count, 0);
    return params;
  }
  for (const double z : numbers_from(run.source, *zero_point, "zero_point", count, true)) {
    if (z < static_cast<double>(params.quant_min) || z > static_cast<double>(params.quant_max)) {
      spec_error(run.source, "config",
                 fmt::format("config.zero_point: {} is outside quant_min … quant_max ({} … {})", z,
                             params.quant_min, params.quant_max));
    }
    params.zero_point.push_back(static_cast<std::int64_t>(z));
  }
  return params;
}

}  // namespace

template <typename T>
void run_fake_quantize(OpRun<T>& run) {
  const engine::QuantConfig quant = read_quant_config(run.config, run.source);
  const bool given = run.config.raw("scale") != nullptr;
  if (!given &&
      (run.config.raw("zero_point") != nullptr || run.config.raw("quant_min") != nullptr ||
       run.config.raw("quant_max") != nullptr)) {
    spec_error(run.source, "config",
               "config.zero_point, quant_min and quant_max go with config.scale; without a scale "
               "the observer computes them from bits and symmetric");
  }
  const Matrix<T> x = run.input_matrix(kAnySize, kAnySize);
  try {
    engine::check_quant_config(quant, x.rows(), x.cols());
  } catch (const engine::EngineError& error) {
    spec_error(run.source, "config", std::string("config: ") + error.what());
  }
  engine::QuantParams<T> params;
  if (given) {
    const Index count = engine::quant_param_count(quant, x.rows(), x.cols());
    params = given_params(run, quant, static_cast<std::size_t>(count));
  }
  run.finish_reading();
  const auto dout = run.grad_output_matrix(x.rows(), x.cols());
  if (!given) params = engine::observe_quant_params(x, quant);
  Matrix<T> y;
  engine::FakeQuantCache<T> cache;
  engine::fake_quantize_forward(y, cache, x, params, quant);
  run.result["output"] = to_json(y);
  run.result["scale"] = params.scale;
  run.result["zero_point"] = params.zero_point;
  run.result["quant_min"] = params.quant_min;
  run.result["quant_max"] = params.quant_max;
  if (!dout) return;
  Matrix<T> dx;
  engine::fake_quantize_backward(dx, *dout, cache);
  run.result["grads"] = {{"input", to_json(dx)}};
}

template void run_fake_quantize<float>(OpRun<float>& run);
template void run_fake_quantize<double>(OpRun<double>& run);

namespace {

// JSON holds neither infinity nor NaN: a value the cast sends past the format's range is refused,
// naming the first and what would keep it.
template <typename T>
void refuse_overflow(const OpRun<T>& run, std::string_view field, const Matrix<T>& before,
                     const Matrix<T>& after, const engine::NumberFormatInfo& info) {
  for (Index r = 0; r < after.rows(); ++r) {
    for (Index c = 0; c < after.cols(); ++c) {
      if (std::isfinite(after(r, c)) || !std::isfinite(before(r, c))) continue;
      spec_error(run.source, std::string(field),
                 fmt::format("{}[{}][{}]: {} is past {}'s largest finite value, {}, and rounds to "
                             "{}, which JSON cannot hold; \"saturate\": true clamps it to ±{}",
                             field, r, c, static_cast<double>(before(r, c)), info.name, info.max,
                             info.has_infinity ? "infinity" : "NaN (the format has no infinity)",
                             info.max));
    }
  }
}

}  // namespace

template <typename T>
void run_round_to_format(OpRun<T>& run) {
  const std::string name = run.config.choice(
      "format", "float16", {"float16", "bfloat16", "float8_e4m3fn", "float8_e5m2"});
  const engine::NumberFormat format = *engine::find_number_format(name);
  const engine::Overflow overflow =
      run.config.flag("saturate", false) ? engine::Overflow::saturate : engine::Overflow::infinity;
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, kAnySize);
  const auto dout = run.grad_output_matrix(x.rows(), x.cols());
  Matrix<T> y;
  engine::round_to_format_forward(y, x, format, overflow);
  const engine::NumberFormatInfo& info = engine::number_format_info(format);
  refuse_overflow(run, "input", x, y, info);
  run.result["output"] = to_json(y);
  run.result["format"] = {{"name", info.name},
                          {"exponent_bits", info.exponent_bits},
                          {"mantissa_bits", info.mantissa_bits},
                          {"bias", info.bias},
                          {"has_infinity", info.has_infinity},
                          {"max", info.max},
                          {"min_normal", info.min_normal},
                          {"min_subnormal", info.min_subnormal},
                          {"epsilon", info.epsilon}};
  if (!dout) return;
  // autograd casts the gradient back through the narrow format: it is rounded there too
  Matrix<T> dx;
  engine::round_to_format_forward(dx, *dout, format, overflow);
  refuse_overflow(run, "grad_output", *dout, dx, info);
  run.result["grads"] = {{"input", to_json(dx)}};
}

template void run_round_to_format<float>(OpRun<float>& run);
template void run_round_to_format<double>(OpRun<double>& run);

template <typename T>
void run_nf4_quantize(OpRun<T>& run) {
  engine::Nf4Config nf4;
  nf4.block_size = run.config.dimension("block_size", 64);
  nf4.double_quant = run.config.flag("double_quant", false);
  run.finish_reading();
  run.refuse_gradient(
      "nf4_quantize has no gradient: QLoRA freezes the quantized weights and trains adapters");
  const Matrix<T> x = run.input_matrix(kAnySize, kAnySize);
  engine::Nf4Result<T> q;
  engine::nf4_quantize(q, x, nf4);
  run.result["output"] = to_json(q.output);
  std::vector<std::vector<int>> codes(static_cast<std::size_t>(x.rows()));
  for (std::size_t i = 0; i < q.codes.size(); ++i)
    codes[i / static_cast<std::size_t>(x.cols())].push_back(q.codes[i]);
  run.result["codes"] = codes;
  run.result["absmax"] = q.absmax;
  run.result["bits_per_parameter"] = q.bits_per_parameter;
  if (!nf4.double_quant) return;
  run.result["double_quant"] = {{"absmax_exact", q.absmax_exact},
                                {"offset", q.offset},
                                {"codes", q.absmax_codes},
                                {"scales", q.absmax_scales}};
}

template void run_nf4_quantize<float>(OpRun<float>& run);
template void run_nf4_quantize<double>(OpRun<double>& run);

}  // namespace proofdeck::engine_io::detail
