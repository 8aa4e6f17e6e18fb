// Reads an engine spec, checks every field against the op's contract, runs the op and writes the
// result. All checks happen here, before the engine sees a tensor, so bad input is an InputError
// naming the field and never an Eigen assertion.
#include "engine_io/spec.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/json_input.hpp"
#include "engine/activation.hpp"
#include "engine/attention.hpp"
#include "engine/decoder.hpp"
#include "engine/decoding.hpp"
#include "engine/encoder_layer.hpp"
#include "engine/linear.hpp"
#include "engine/macs.hpp"
#include "engine/norm.hpp"
#include "engine/optim.hpp"
#include "engine/positional.hpp"
#include "engine/weight_norm.hpp"
#include "engine_io/tensor_json.hpp"

namespace proofdeck::engine_io {

using engine::Matrix;
using engine::Vector;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// Sizes past these would take gigabytes; they are refused with the limit named.
constexpr std::int64_t kMaxDimension = 1 << 16;
constexpr std::int64_t kMaxElements = std::int64_t{1} << 26;

[[noreturn]] void spec_error(const std::string& source, const std::string& id,
                             const std::string& message) {
  throw InputError("spec." + id, source + ": " + message);
}

// Reads `config`, remembering which keys were read so unknown ones can be reported.
class ConfigReader {
 public:
  ConfigReader(const json& config, std::string source, std::string op)
      : config_(config), source_(std::move(source)), op_(std::move(op)) {}

  std::int64_t dimension(const std::string& key, std::optional<std::int64_t> fallback = {}) {
    const json* value = find(key);
    if (value == nullptr) {
      if (fallback) return *fallback;
      spec_error(source_, "config",
                 fmt::format("config.{}: required by {} (a positive integer)", key, op_));
    }
    if (!value->is_number_integer()) {
      spec_error(source_, "config",
                 fmt::format("config.{}: expected a positive integer, got {} {}", key,
                             json_kind(*value), json_preview(*value)));
    }
    // Compared as written: an unsigned value past the int64 range must not wrap around.
    const bool in_range =
        value->is_number_unsigned()
            ? value->get<std::uint64_t>() <= static_cast<std::uint64_t>(kMaxDimension)
            : value->get<std::int64_t>() >= 1 && value->get<std::int64_t>() <= kMaxDimension;
    if (!in_range || value->get<std::int64_t>() < 1) {
      spec_error(
          source_, "config",
          fmt::format("config.{}: expected 1 to {}, got {}", key, kMaxDimension, value->dump()));
    }
    return value->get<std::int64_t>();
  }

  // A count that may be 0 (top_k = 0: off) or a token index (start = 0: the first token).
  std::int64_t count(const std::string& key, std::int64_t fallback) {
    const json* value = find(key);
    if (value == nullptr) return fallback;
    if (!value->is_number_integer() ||
        (!value->is_number_unsigned() && value->get<std::int64_t>() < 0) ||
        value->get<std::uint64_t>() > static_cast<std::uint64_t>(kMaxDimension)) {
      spec_error(source_, "config",
                 fmt::format("config.{}: expected an integer from 0 to {}, got {}", key,
                             kMaxDimension, json_preview(*value)));
    }
    return value->get<std::int64_t>();
  }

  // normalized_shape: an integer or a one-element list, as PyTorch accepts for the last dimension.
  std::int64_t normalized_shape() {
    const json* value = find("normalized_shape");
    if (value != nullptr && value->is_array()) {
      if (value->size() != 1) {
        spec_error(source_, "config",
                   fmt::format("config.normalized_shape: the engine normalises the last dimension "
                               "only; expected one size, got {}",
                               value->dump()));
      }
      json single = {{"normalized_shape", value->front()}};
      return ConfigReader(single, source_, op_).dimension("normalized_shape");
    }
    return dimension("normalized_shape");
  }

  double positive_number(const std::string& key, double fallback) {
    const json* value = find(key);
    if (value == nullptr) return fallback;
    if (!value->is_number() || !(value->get<double>() > 0.0) ||
        !std::isfinite(value->get<double>())) {
      spec_error(
          source_, "config",
          fmt::format("config.{}: expected a positive number, got {}", key, json_preview(*value)));
    }
    return value->get<double>();
  }

  double fraction(const std::string& key, double fallback) {
    const json* value = find(key);
    if (value == nullptr) return fallback;
    if (!value->is_number() || value->get<double>() < 0.0 || value->get<double>() > 1.0) {
      spec_error(
          source_, "config",
          fmt::format("config.{}: expected a number in [0, 1], got {}", key, json_preview(*value)));
    }
    return value->get<double>();
  }

  bool flag(const std::string& key, bool fallback) {
    const json* value = find(key);
    if (value == nullptr) return fallback;
    if (!value->is_boolean()) {
      spec_error(
          source_, "config",
          fmt::format("config.{}: expected true or false, got {}", key, json_preview(*value)));
    }
    return value->get<bool>();
  }

  std::string choice(const std::string& key, const std::string& fallback,
                     const std::vector<std::string>& choices) {
    const json* value = find(key);
    if (value == nullptr) return fallback;
    if (!value->is_string() ||
        std::find(choices.begin(), choices.end(), value->get<std::string>()) == choices.end()) {
      spec_error(source_, "config",
                 fmt::format("config.{}: expected one of {}, got {}", key, fmt::join(choices, ", "),
                             json_preview(*value)));
    }
    return value->get<std::string>();
  }

  // Dropout makes runs random; the engine is deterministic, so only 0 is accepted.
  void require_no_dropout() {
    const double dropout = fraction("dropout", 0.0);
    if (dropout != 0.0) {
      spec_error(source_, "config",
                 fmt::format("config.dropout: the engine is deterministic and runs without "
                             "dropout; expected 0, got {}",
                             dropout));
    }
  }

  const json* raw(const std::string& key) { return find(key); }

  void reject_unknown() const {
    for (const auto& [key, value] : config_.items()) {
      if (!read_.contains(key)) {
        spec_error(source_, "config",
                   fmt::format("config.{}: not a setting of {}; expected one of: {}", key, op_,
                               fmt::join(read_, ", ")));
      }
    }
  }

 private:
  const json* find(const std::string& key) {
    read_.insert(key);
    const auto it = config_.find(key);
    return it == config_.end() ? nullptr : &*it;
  }

  const json& config_;
  std::string source_;
  std::string op_;
  std::set<std::string> read_;
};

// Fills parameters by name, remembering which names were expected.
template <typename T>
class ParamReader {
 public:
  ParamReader(const json& params, std::string source, std::string op)
      : params_(params), source_(std::move(source)), op_(std::move(op)) {}

  void matrix(const std::string& name, Matrix<T>& target, std::int64_t rows, std::int64_t cols) {
    expected_.push_back(name);
    target = matrix_from_json<T>(at(name, fmt::format("a ({}, {}) matrix", rows, cols)),
                                 source_ + ": params." + name, rows, cols);
  }
  void vector(const std::string& name, Vector<T>& target, std::int64_t size) {
    expected_.push_back(name);
    target = vector_from_json<T>(at(name, fmt::format("a list of {} numbers", size)),
                                 source_ + ": params." + name, size);
  }
  // A vector that may be left out, keeping the target's current value.
  void optional_vector(const std::string& name, Vector<T>& target, std::int64_t size) {
    if (params_.contains(name)) {
      vector(name, target, size);
    } else {
      expected_.push_back(name);
    }
  }
  void ignore(const std::string& name) { ignored_.insert(name); }

  void reject_unknown() const {
    for (const auto& [name, value] : params_.items()) {
      if (std::find(expected_.begin(), expected_.end(), name) == expected_.end() &&
          !ignored_.contains(name)) {
        spec_error(source_, "params",
                   fmt::format("params.{}: not a parameter of {} with this config; expected: {}",
                               name, op_,
                               expected_.empty() ? std::string("none")
                                                 : fmt::format("{}", fmt::join(expected_, ", "))));
      }
    }
  }

 private:
  const json& at(const std::string& name, const std::string& expected) const {
    const auto it = params_.find(name);
    if (it == params_.end()) {
      spec_error(source_, "params",
                 fmt::format("params.{}: missing; {} expects {}", name, op_, expected));
    }
    return *it;
  }

  const json& params_;
  std::string source_;
  std::string op_;
  std::vector<std::string> expected_;
  std::set<std::string> ignored_;
};

// Everything one op run needs: the spec's parts and where to put the answer.
template <typename T>
struct OpRun {
  const std::string& source;
  const std::string& op;
  ConfigReader config;
  ParamReader<T> params;
  const json* input;        // never null
  const json* grad_output;  // null when no gradients are asked for
  const json* memory;       // mha's keys' and values' sequence (cross-attention); null otherwise
  const json* key_padding_mask;  // mha: true at a padding key; null when every key is a token
  const json* padding_mask;      // layer_norm, batch_norm: true at a padding row; null: none
  ordered_json& result;

  Matrix<T> input_matrix(std::int64_t rows, std::int64_t cols) const {
    return matrix_from_json<T>(*input, source + ": input", rows, cols);
  }
  std::optional<Matrix<T>> grad_output_matrix(std::int64_t rows, std::int64_t cols) const {
    if (grad_output == nullptr) return std::nullopt;
    return matrix_from_json<T>(*grad_output, source + ": grad_output", rows, cols);
  }
  // Refuses a grad_output for an op that has no gradient, saying why ("sampling has no
  // parameters and cuts tokens out, so there is no gradient to compute").
  void refuse_gradient(const std::string& why) const {
    if (grad_output != nullptr)
      spec_error(source, "grad_output", "grad_output: " + why + "; leave grad_output out");
  }
  // A list of `size` booleans, one per `what` (true: padding); empty when the field is absent.
  std::vector<bool> mask(const json* value, const std::string& field, std::int64_t size,
                         const std::string& what) const {
    if (value == nullptr) return {};
    if (!value->is_array() || static_cast<std::int64_t>(value->size()) != size) {
      spec_error(source, field,
                 fmt::format("{}: expected a list of {} true/false values, one per {} (true: "
                             "padding), got {}",
                             field, size, what,
                             value->is_array()
                                 ? fmt::format("a list of {}", value->size())
                                 : fmt::format("{} {}", json_kind(*value), json_preview(*value))));
    }
    std::vector<bool> mask;
    for (std::size_t i = 0; i < value->size(); ++i) {
      const json& entry = (*value)[i];
      if (!entry.is_boolean()) {
        spec_error(source, field,
                   fmt::format("{}[{}]: expected true (padding) or false (a token), got {}", field,
                               i, json_preview(entry)));
      }
      mask.push_back(entry.get<bool>());
    }
    return mask;
  }
  void check_elements(std::int64_t count, const std::string& what) const {
    if (count > kMaxElements) {
      spec_error(
          source, "limit",
          fmt::format("{} would need {} numbers; the limit is {}", what, count, kMaxElements));
    }
  }
  void finish_reading() {
    config.reject_unknown();
    params.reject_unknown();
  }
};

// config.sgd_lr: after the backward, one torch.optim.SGD(lr) step on the layer's parameters,
// answered as "after_step" (the parameters as the step leaves them). Needs grad_output.
template <typename T>
std::optional<T> sgd_learning_rate(OpRun<T>& run) {
  if (run.config.raw("sgd_lr") == nullptr) return std::nullopt;
  const double lr = run.config.positive_number("sgd_lr", 1.0);
  if (run.grad_output == nullptr) {
    spec_error(run.source, "config",
               "config.sgd_lr: a step needs gradients; give grad_output, or leave sgd_lr out");
  }
  return static_cast<T>(lr);
}

// The forward's multiply-adds by kind, counted from the products it ran (engine/macs.hpp).
ordered_json multiply_adds_json(const engine::MacCount& count) {
  return {{"linear", count.linear},
          {"scores", count.scores},
          {"weighted_values", count.weighted_values},
          {"total", count.total()}};
}

template <typename T>
void run_linear(OpRun<T>& run) {
  const auto in = run.config.dimension("in_features");
  const auto out = run.config.dimension("out_features");
  const bool bias = run.config.flag("bias", true);
  // torch.nn.utils.weight_norm(linear): weight_g (out, 1) and weight_v (out, in) instead of weight
  const bool normalized = run.config.flag("weight_norm", false);
  const std::optional<T> lr = sgd_learning_rate(run);
  engine::LinearParams<T> params;
  Matrix<T> weight_v, weight_g_column;
  if (normalized) {
    run.params.matrix("weight_g", weight_g_column, out, 1);
    run.params.matrix("weight_v", weight_v, out, in);
  } else {
    run.params.matrix("weight", params.weight, out, in);
  }
  if (bias) run.params.vector("bias", params.bias, out);
  run.finish_reading();
  Vector<T> weight_g = normalized ? Vector<T>(weight_g_column.col(0)) : Vector<T>();
  const Matrix<T> x = run.input_matrix(kAnySize, in);
  const auto dout = run.grad_output_matrix(x.rows(), out);

  if (normalized) engine::weight_norm_forward(params.weight, weight_v, weight_g);
  Matrix<T> y;
  const engine::MacTally tally;
  engine::linear_forward(y, x, params);
  run.result["output"] = to_json(y);
  run.result["multiply_adds"] = multiply_adds_json(tally.count());
  if (!dout) return;
  Matrix<T> dx;
  engine::LinearParams<T> grads;
  engine::linear_backward(dx, grads, *dout, x, params);
  run.result["grads"] = {{"input", to_json(dx)}};
  Matrix<T> dweight_v;
  Vector<T> dweight_g;
  if (normalized) {
    engine::weight_norm_backward(dweight_v, dweight_g, grads.weight, weight_v, weight_g);
    run.result["grads"]["weight_g"] = to_json(Matrix<T>(dweight_g));
    run.result["grads"]["weight_v"] = to_json(dweight_v);
  } else {
    run.result["grads"]["weight"] = to_json(grads.weight);
  }
  if (bias) run.result["grads"]["bias"] = to_json(grads.bias);
  if (!lr) return;
  if (normalized) {
    engine::sgd_step(weight_g, dweight_g, *lr);
    engine::sgd_step(weight_v, dweight_v, *lr);
    engine::sgd_step(params.bias, grads.bias, *lr);
    run.result["after_step"] = {{"weight_g", to_json(Matrix<T>(weight_g))},
                                {"weight_v", to_json(weight_v)}};
  } else {
    engine::sgd_step(params, grads, *lr);
    run.result["after_step"] = {{"weight", to_json(params.weight)}};
  }
  if (bias) run.result["after_step"]["bias"] = to_json(params.bias);
}

// layer_norm and rms_norm share their reading; they differ in the formula.
template <typename T>
void run_row_norm(OpRun<T>& run, bool rms) {
  const auto channels = run.config.normalized_shape();
  const double eps = run.config.positive_number(
      "eps", rms ? static_cast<double>(std::numeric_limits<T>::epsilon()) : 1e-5);
  const bool affine = run.config.flag("elementwise_affine", true);
  const bool bias = !rms && run.config.flag("bias", true);
  const std::optional<T> lr = sgd_learning_rate(run);
  if (lr && !affine) {
    spec_error(run.source, "config",
               "config.sgd_lr: without elementwise_affine the norm has no parameters to step");
  }
  engine::NormParams<T> params(channels, affine, bias);
  if (affine) run.params.vector("weight", params.weight, channels);
  if (affine && bias) run.params.vector("bias", params.bias, channels);
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, channels);
  const auto dout = run.grad_output_matrix(x.rows(), channels);

  if (rms && run.padding_mask != nullptr) {
    spec_error(run.source, "padding_mask",
               "padding_mask: rms_norm takes none (it normalises each row by itself, as "
               "layer_norm does); leave it out");
  }
  const std::vector<bool> padding = run.mask(run.padding_mask, "padding_mask", x.rows(), "row");

  Matrix<T> y;
  Vector<T> mean, rstd;
  if (rms) {
    engine::rmsnorm_forward(y, rstd, x, params, eps);
  } else if (!padding.empty()) {
    engine::masked_layernorm_forward(y, mean, rstd, x, padding, params, eps);
  } else {
    engine::layernorm_forward(y, mean, rstd, x, params, eps);
  }
  run.result["output"] = to_json(y);
  if (!dout) return;
  Matrix<T> dx;
  engine::NormParams<T> grads;
  if (rms) {
    engine::rmsnorm_backward(dx, grads, *dout, x, params, rstd);
  } else if (!padding.empty()) {
    engine::masked_layernorm_backward(dx, grads, *dout, x, padding, params, mean, rstd);
  } else {
    engine::layernorm_backward(dx, grads, *dout, x, params, mean, rstd);
  }
  run.result["grads"] = {{"input", to_json(dx)}};
  if (affine) run.result["grads"]["weight"] = to_json(grads.weight);
  if (affine && bias) run.result["grads"]["bias"] = to_json(grads.bias);
  if (!lr) return;
  engine::sgd_step(params, grads, *lr);
  run.result["after_step"] = {{"weight", to_json(params.weight)}};
  if (bias) run.result["after_step"]["bias"] = to_json(params.bias);
}

template <typename T>
void run_batch_norm(OpRun<T>& run) {
  const auto channels = run.config.dimension("num_features");
  const double eps = run.config.positive_number("eps", 1e-5);
  const double momentum = run.config.fraction("momentum", 0.1);
  const bool affine = run.config.flag("affine", true);
  const bool training = run.config.flag("training", true);
  if (!run.config.flag("track_running_stats", true)) {
    spec_error(run.source, "config",
               "config.track_running_stats: only true is supported (the running statistics are "
               "what eval mode normalises with)");
  }
  engine::BatchNormParams<T> params(channels, affine);
  if (affine) {
    run.params.vector("weight", params.affine.weight, channels);
    run.params.vector("bias", params.affine.bias, channels);
  }
  run.params.optional_vector("running_mean", params.running_mean, channels);
  run.params.optional_vector("running_var", params.running_var, channels);
  run.params.ignore("num_batches_tracked");  // in every BatchNorm state_dict; unused here
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, channels);
  const auto dout = run.grad_output_matrix(x.rows(), channels);

  if (!training && run.padding_mask != nullptr) {
    spec_error(run.source, "padding_mask",
               "padding_mask: in eval mode batch_norm normalises with its running statistics, "
               "which no row of the batch moves; a padding mask belongs to training mode");
  }
  const std::vector<bool> padding = run.mask(run.padding_mask, "padding_mask", x.rows(), "row");

  Matrix<T> y, dx;
  Vector<T> mean, rstd;
  engine::NormParams<T> grads;
  if (training && !padding.empty()) {
    engine::masked_batchnorm_train_forward(y, mean, rstd, x, padding, params, eps, momentum);
    if (dout) {
      engine::masked_batchnorm_train_backward(dx, grads, *dout, x, padding, params.affine, mean,
                                              rstd);
    }
  } else if (training) {
    engine::batchnorm_train_forward(y, mean, rstd, x, params, eps, momentum);
    if (dout) engine::batchnorm_train_backward(dx, grads, *dout, x, params.affine, mean, rstd);
  } else {
    engine::batchnorm_eval_forward(y, x, params, eps);
    if (dout) engine::batchnorm_eval_backward(dx, grads, *dout, x, params, eps);
  }
  run.result["output"] = to_json(y);
  run.result["state"] = {{"running_mean", to_json(params.running_mean)},
                         {"running_var", to_json(params.running_var)}};
  if (!dout) return;
  run.result["grads"] = {{"input", to_json(dx)}};
  if (affine) {
    run.result["grads"]["weight"] = to_json(grads.weight);
    run.result["grads"]["bias"] = to_json(grads.bias);
  }
}

template <typename T>
void run_activation(OpRun<T>& run, bool gelu) {
  engine::Activation activation = engine::Activation::relu;
  if (gelu) {
    activation = run.config.choice("approximate", "none", {"none", "tanh"}) == "tanh"
                     ? engine::Activation::gelu_tanh
                     : engine::Activation::gelu;
  }
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, kAnySize);
  const auto dout = run.grad_output_matrix(x.rows(), x.cols());
  Matrix<T> y;
  engine::activation_forward(y, x, activation);
  run.result["output"] = to_json(y);
  if (!dout) return;
  Matrix<T> dx;
  engine::activation_backward(dx, *dout, x, activation);
  run.result["grads"] = {{"input", to_json(dx)}};
}

template <typename T>
void run_embedding(OpRun<T>& run) {
  const auto rows = run.config.dimension("num_embeddings");
  const auto dim = run.config.dimension("embedding_dim");
  Matrix<T> table;
  run.params.matrix("weight", table, rows, dim);
  run.finish_reading();
  const engine::Positions positions =
      positions_from_json(*run.input, run.source + ": input", false);
  const auto dout = run.grad_output_matrix(static_cast<std::int64_t>(positions.size()), dim);
  Matrix<T> y;
  engine::learned_positions_forward(y, positions, table);
  run.result["output"] = to_json(y);
  if (!dout) return;
  Matrix<T> dtable;
  engine::learned_positions_backward(dtable, *dout, positions, rows);
  run.result["grads"] = {{"weight", to_json(dtable)}};
}

// Per-head attention weights, (H, T, T), as nn.MultiheadAttention returns them with
// average_attn_weights=False.
template <typename T>
ordered_json attention_weights_json(const std::vector<Matrix<T>>& probs_per_head) {
  ordered_json heads = ordered_json::array();
  for (const auto& probs : probs_per_head)
    heads.push_back(to_json(probs));
  return heads;
}

template <typename T>
void check_attention_size(const OpRun<T>& run, std::int64_t heads, std::int64_t queries,
                          std::int64_t keys) {
  run.check_elements(heads * queries * keys,
                     queries == keys
                         ? fmt::format("attention over {} token{} with {} head{}", queries,
                                       queries == 1 ? "" : "s", heads, heads == 1 ? "" : "s")
                         : fmt::format("attention of {} quer{} over {} memory position{} with {} "
                                       "head{}",
                                       queries, queries == 1 ? "y" : "ies", keys,
                                       keys == 1 ? "" : "s", heads, heads == 1 ? "" : "s"));
}

// mha with a memory: cross-attention, queries from the input, keys and values from the memory
// (nn.MultiheadAttention(input, memory, memory)); gradients for both.
template <typename T>
void run_cross_attention(OpRun<T>& run, const engine::MhaParams<T>& params, const Matrix<T>& x,
                         engine::AttentionOptions options) {
  const auto embed = static_cast<std::int64_t>(params.embed_dim());
  const Matrix<T> memory =
      matrix_from_json<T>(*run.memory, run.source + ": memory", kAnySize, embed);
  if (options.causal || options.sinusoidal_qk) {
    spec_error(run.source, "config",
               "config.causal and config.sinusoidal_qk: cross-attention reads the whole memory "
               "with no mask or code on q and k; leave them out when a memory is given");
  }
  check_attention_size(run, params.num_heads, x.rows(), memory.rows());
  options.key_padding =
      run.mask(run.key_padding_mask, "key_padding_mask", memory.rows(), "memory row");
  const auto dout = run.grad_output_matrix(x.rows(), embed);
  Matrix<T> y;
  engine::CrossAttentionCache<T> cache;
  const engine::MacTally tally;
  engine::cross_attention_forward(y, cache, x, memory, params, options);
  run.result["output"] = to_json(y);
  run.result["multiply_adds"] = multiply_adds_json(tally.count());
  run.result["attn_weights"] = attention_weights_json(cache.probs);
  if (!dout) return;
  Matrix<T> dx, dmemory;
  engine::MhaParams<T> grads;
  engine::cross_attention_backward(dx, dmemory, grads, *dout, x, memory, params, cache, options);
  run.result["grads"] = {{"input", to_json(dx)}, {"memory", to_json(dmemory)}};
  visit_params(grads, "", [&](const std::string& name, const auto& tensor) {
    run.result["grads"][name] = to_json(tensor);
  });
}

// `width_key` and `heads_key` are the op's own names for E and H, for the message.
template <typename T>
void read_mha_params(OpRun<T>& run, engine::MhaParams<T>& params, const std::string& prefix,
                     std::int64_t embed, std::int64_t heads, bool bias, const char* width_key,
                     const char* heads_key) {
  if (embed % heads != 0) {
    spec_error(run.source, "config",
               fmt::format("config.{0} {2} is not divisible by config.{1} {3}: each head gets an "
                           "equal share of the width ({0} / {1})",
                           width_key, heads_key, embed, heads));
  }
  params.num_heads = heads;
  run.params.matrix(prefix + "in_proj_weight", params.in_proj.weight, 3 * embed, embed);
  if (bias) run.params.vector(prefix + "in_proj_bias", params.in_proj.bias, 3 * embed);
  run.params.matrix(prefix + "out_proj.weight", params.out_proj.weight, embed, embed);
  if (bias) run.params.vector(prefix + "out_proj.bias", params.out_proj.bias, embed);
}

template <typename T>
void run_mha(OpRun<T>& run) {
  const auto embed = run.config.dimension("embed_dim");
  const auto heads = run.config.dimension("num_heads");
  const bool bias = run.config.flag("bias", true);
  engine::AttentionOptions options;
  options.causal = run.config.flag("causal", false);
  // a sinusoidal code added to each head's Q and K after projection, positions 0, 1, …
  options.sinusoidal_qk = run.config.flag("sinusoidal_qk", false);
  run.config.flag("batch_first", true);  // the input is one sequence either way
  run.config.require_no_dropout();
  engine::MhaParams<T> params;
  read_mha_params(run, params, "", embed, heads, bias, "embed_dim", "num_heads");
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, embed);
  if (run.memory != nullptr) {
    run_cross_attention(run, params, x, options);
    return;
  }
  check_attention_size(run, heads, x.rows(), x.rows());
  options.key_padding = run.mask(run.key_padding_mask, "key_padding_mask", x.rows(), "input row");
  const auto dout = run.grad_output_matrix(x.rows(), embed);

  Matrix<T> y;
  engine::MhaCache<T> cache;
  const engine::MacTally tally;
  engine::mha_forward(y, cache, x, params, options);
  run.result["output"] = to_json(y);
  run.result["multiply_adds"] = multiply_adds_json(tally.count());
  run.result["attn_weights"] = attention_weights_json(cache.probs);
  if (!dout) return;
  Matrix<T> dx;
  engine::MhaParams<T> grads;
  engine::mha_backward(dx, grads, *dout, x, params, cache, options);
  run.result["grads"] = {{"input", to_json(dx)}};
  visit_params(grads, "", [&](const std::string& name, const auto& tensor) {
    run.result["grads"][name] = to_json(tensor);
  });
}

template <typename T>
void run_encoder_layer(OpRun<T>& run) {
  engine::EncoderLayerConfig config;
  config.d_model = run.config.dimension("d_model");
  config.nhead = run.config.dimension("nhead");
  config.dim_feedforward = run.config.dimension("dim_feedforward", 2048);
  config.norm = run.config.flag("norm_first", false) ? engine::NormPlacement::pre
                                                     : engine::NormPlacement::post;
  config.activation =
      *engine::parse_activation(run.config.choice("activation", "relu", {"relu", "gelu"}));
  config.layer_norm_eps = run.config.positive_number("layer_norm_eps", 1e-5);
  config.bias = run.config.flag("bias", true);
  config.attention.causal = run.config.flag("causal", false);
  if (!run.config.flag("batch_first", true)) {
    spec_error(run.source, "config",
               "config.batch_first: the engine takes one sequence as (T, E), which is "
               "batch_first=true with the batch dimension left out; expected true");
  }
  run.config.require_no_dropout();

  engine::EncoderLayerParams<T> params;
  read_mha_params(run, params.self_attn, "self_attn.", config.d_model, config.nhead, config.bias,
                  "d_model", "nhead");
  const auto ff = config.dim_feedforward;
  auto& linear1 = params.feedforward.linear1;
  auto& linear2 = params.feedforward.linear2;
  run.params.matrix("linear1.weight", linear1.weight, ff, config.d_model);
  if (config.bias) run.params.vector("linear1.bias", linear1.bias, ff);
  run.params.matrix("linear2.weight", linear2.weight, config.d_model, ff);
  if (config.bias) run.params.vector("linear2.bias", linear2.bias, config.d_model);
  for (auto [name, norm] : {std::pair{"norm1", &params.norm1}, std::pair{"norm2", &params.norm2}}) {
    run.params.vector(std::string(name) + ".weight", norm->weight, config.d_model);
    if (config.bias) run.params.vector(std::string(name) + ".bias", norm->bias, config.d_model);
  }
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, config.d_model);
  check_attention_size(run, config.nhead, x.rows(), x.rows());
  run.check_elements(x.rows() * ff, "the feed-forward hidden layer");
  const auto dout = run.grad_output_matrix(x.rows(), config.d_model);

  Matrix<T> y;
  engine::EncoderLayerCache<T> cache;
  engine::encoder_layer_forward(y, cache, x, params, config);
  run.result["output"] = to_json(y);
  run.result["attn_weights"] = attention_weights_json(cache.attn.probs);
  if (!dout) return;
  Matrix<T> dx;
  engine::EncoderLayerParams<T> grads;
  engine::encoder_layer_backward(dx, grads, *dout, x, params, cache, config);
  run.result["grads"] = {{"input", to_json(dx)}};
  visit_params(grads, "", [&](const std::string& name, const auto& tensor) {
    run.result["grads"][name] = to_json(tensor);
  });
}

template <typename T>
void run_sinusoidal(OpRun<T>& run) {
  const auto d_model = run.config.dimension("d_model");
  const double base = run.config.positive_number("base", 10000.0);
  run.finish_reading();
  run.refuse_gradient(
      "sinusoidal encodings have no parameters and integer inputs, so there is no gradient to "
      "compute");
  const engine::Positions positions =
      positions_from_json(*run.input, run.source + ": input", false);
  run.check_elements(static_cast<std::int64_t>(positions.size()) * d_model, "the encoding table");
  run.result["output"] = to_json(engine::sinusoidal_encoding<T>(positions, d_model, base));
}

template <typename T>
void run_rope(OpRun<T>& run) {
  engine::RopeConfig rope;
  rope.convention = *engine::parse_rope_convention(
      run.config.choice("convention", "half", {"interleaved", "half"}));
  rope.base = run.config.positive_number("base", 10000.0);
  const json* positions_json = run.config.raw("positions");
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, kAnySize);
  if (x.cols() % 2 != 0) {
    spec_error(run.source, "shape",
               fmt::format("input: RoPE rotates pairs of dimensions, so rows need an even width; "
                           "got shape ({}, {})",
                           x.rows(), x.cols()));
  }
  engine::Positions positions = engine::sequential_positions(x.rows());
  if (positions_json != nullptr) {
    positions = positions_from_json(*positions_json, run.source + ": config.positions", true);
    if (static_cast<std::int64_t>(positions.size()) != x.rows()) {
      spec_error(run.source, "shape",
                 fmt::format("config.positions: expected one position per input row ({}), got {}",
                             x.rows(), positions.size()));
    }
  }
  const auto dout = run.grad_output_matrix(x.rows(), x.cols());
  Matrix<T> y;
  engine::rope_forward(y, x, positions, rope);
  run.result["output"] = to_json(y);
  if (!dout) return;
  Matrix<T> dx;
  engine::rope_backward(dx, *dout, positions, rope);
  run.result["grads"] = {{"input", to_json(dx)}};
}

template <typename T>
void run_swiglu_mlp(OpRun<T>& run) {
  const auto hidden = run.config.dimension("hidden_size");
  const auto intermediate = run.config.dimension("intermediate_size");
  // LlamaConfig's name for the gate's activation; SwiGLU's is silu
  run.config.choice("hidden_act", "silu", {"silu"});
  if (run.config.flag("mlp_bias", false)) {
    spec_error(run.source, "config", "config.mlp_bias: Llama's MLP has no biases; expected false");
  }
  engine::SwigluParams<T> params;
  run.params.matrix("gate_proj.weight", params.gate_proj, intermediate, hidden);
  run.params.matrix("up_proj.weight", params.up_proj, intermediate, hidden);
  run.params.matrix("down_proj.weight", params.down_proj, hidden, intermediate);
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, hidden);
  run.check_elements(x.rows() * intermediate, "the SwiGLU hidden layer");
  const auto dout = run.grad_output_matrix(x.rows(), hidden);

  Matrix<T> y;
  engine::SwigluCache<T> cache;
  engine::swiglu_forward(y, cache, x, params);
  run.result["output"] = to_json(y);
  if (!dout) return;
  Matrix<T> dx;
  engine::SwigluParams<T> grads;
  engine::swiglu_backward(dx, grads, *dout, x, params, cache);
  run.result["grads"] = {{"input", to_json(dx)}};
  visit_params(grads, "", [&](const std::string& name, const auto& tensor) {
    run.result["grads"][name] = to_json(tensor);
  });
}

// rope_scaling: null (none) or {"rope_type": "linear", "factor": s > 0}, as in LlamaConfig.
double read_rope_scaling(const json* value, const std::string& source) {
  if (value == nullptr || value->is_null()) return 1.0;
  if (!value->is_object()) {
    spec_error(source, "config",
               fmt::format("config.rope_scaling: expected null or {{\"rope_type\": \"linear\", "
                           "\"factor\": a number > 0}}, got {} {}",
                           json_kind(*value), json_preview(*value)));
  }
  for (const auto& [key, item] : value->items()) {
    if (key != "rope_type" && key != "type" && key != "factor") {
      spec_error(source, "config",
                 fmt::format("config.rope_scaling.{}: not a setting of linear rope_scaling; "
                             "expected rope_type, factor",
                             key));
    }
  }
  const auto type = value->contains("rope_type") ? value->find("rope_type") : value->find("type");
  if (type == value->end() || !type->is_string() || type->get<std::string>() != "linear") {
    spec_error(source, "config",
               fmt::format("config.rope_scaling.rope_type: the engine implements linear position "
                           "interpolation only; expected \"linear\", got {}",
                           type == value->end() ? std::string("nothing") : json_preview(*type)));
  }
  const auto factor = value->find("factor");
  if (factor == value->end() || !factor->is_number() || !(factor->get<double>() > 0.0) ||
      !std::isfinite(factor->get<double>())) {
    spec_error(
        source, "config",
        fmt::format("config.rope_scaling.factor: expected a number > 0, got {}",
                    factor == value->end() ? std::string("nothing") : json_preview(*factor)));
  }
  return factor->get<double>();
}

template <typename T>
void run_gqa(OpRun<T>& run) {
  engine::GqaConfig config;
  config.hidden_size = run.config.dimension("hidden_size");
  config.num_attention_heads = run.config.dimension("num_attention_heads");
  config.num_key_value_heads =
      run.config.dimension("num_key_value_heads", config.num_attention_heads);
  const json* head_dim = run.config.raw("head_dim");
  if (head_dim != nullptr && !head_dim->is_null())
    config.head_dim = run.config.dimension("head_dim");
  config.causal = run.config.flag("causal", true);
  config.rope = run.config.flag("rope", true);
  config.rope_theta = run.config.positive_number("rope_theta", 10000.0);
  config.rope_scaling = read_rope_scaling(run.config.raw("rope_scaling"), run.source);
  config.alibi = run.config.flag("alibi", false);
  if (run.config.flag("attention_bias", false)) {
    spec_error(run.source, "config",
               "config.attention_bias: the engine's gqa has no biases, as Llama's; expected false");
  }
  if (run.config.fraction("attention_dropout", 0.0) != 0.0) {
    spec_error(run.source, "config",
               "config.attention_dropout: the engine is deterministic and runs without dropout; "
               "expected 0");
  }
  const auto heads = config.num_attention_heads;
  const auto kv_heads = config.num_key_value_heads;
  if (heads % kv_heads != 0) {
    spec_error(run.source, "config",
               fmt::format("config.num_attention_heads {} is not divisible by "
                           "config.num_key_value_heads {}: every key/value head serves the same "
                           "number of query heads",
                           heads, kv_heads));
  }
  if (config.head_dim == 0 && config.hidden_size % heads != 0) {
    spec_error(run.source, "config",
               fmt::format("config.hidden_size {} is not divisible by config.num_attention_heads "
                           "{}: give config.head_dim or sizes that divide",
                           config.hidden_size, heads));
  }
  const auto dim = config.resolved_head_dim();
  if (config.rope && dim % 2 != 0) {
    spec_error(run.source, "config",
               fmt::format("config.head_dim {}: RoPE rotates pairs of dimensions, so with rope on "
                           "head_dim must be even",
                           dim));
  }
  if (!(config.rope_theta > 1.0)) {
    spec_error(run.source, "config",
               fmt::format("config.rope_theta: expected a number > 1, got {}", config.rope_theta));
  }
  run.check_elements(heads * dim * config.hidden_size, "q_proj.weight");
  engine::GqaParams<T> params;
  params.config = config;
  run.params.matrix("q_proj.weight", params.q_proj, heads * dim, config.hidden_size);
  run.params.matrix("k_proj.weight", params.k_proj, kv_heads * dim, config.hidden_size);
  run.params.matrix("v_proj.weight", params.v_proj, kv_heads * dim, config.hidden_size);
  run.params.matrix("o_proj.weight", params.o_proj, config.hidden_size, heads * dim);
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, config.hidden_size);
  check_attention_size(run, heads, x.rows(), x.rows());
  const auto dout = run.grad_output_matrix(x.rows(), config.hidden_size);

  Matrix<T> y;
  engine::GqaCache<T> cache;
  engine::gqa_forward(y, cache, x, params);
  run.result["output"] = to_json(y);
  ordered_json weights = ordered_json::array();
  for (const auto& probs : cache.probs)
    weights.push_back(to_json(probs));
  run.result["attn_weights"] = std::move(weights);
  if (!dout) return;
  Matrix<T> dx;
  engine::GqaParams<T> grads;
  engine::gqa_backward(dx, grads, *dout, x, params, cache);
  run.result["grads"] = {{"input", to_json(dx)}};
  visit_params(grads, "", [&](const std::string& name, const auto& tensor) {
    run.result["grads"][name] = to_json(tensor);
  });
}

// The logits warpers as generate() chains them: temperature, top_k, top_p (Hugging Face's names).
template <typename T>
void run_sampling(OpRun<T>& run) {
  engine::SamplingConfig config;
  config.temperature = run.config.positive_number("temperature", 1.0);
  config.top_k = run.config.count("top_k", 0);
  config.top_p = run.config.fraction("top_p", 1.0);
  if (config.top_p == 0.0) {
    spec_error(run.source, "config",
               "config.top_p: expected a number in (0, 1]; 0 would keep no token (1 keeps all)");
  }
  run.finish_reading();
  run.refuse_gradient(
      "sampling has no parameters and cuts tokens out, so there is no gradient to compute");
  const Matrix<T> logits = run.input_matrix(kAnySize, kAnySize);
  Matrix<T> probs, kept;
  engine::sampling_distribution(probs, logits, config, &kept);
  run.result["output"] = to_json(probs);
  run.result["kept"] = to_json(kept);
}

// Beam search over a next-token table (row t: the logits of the token after t), as
// generate(num_beams=B) runs with no end token and no length penalty.
template <typename T>
void run_beam_search(OpRun<T>& run) {
  const auto start = run.config.count("start", 0);
  const auto steps = run.config.dimension("steps");
  const auto beams = run.config.dimension("num_beams", 1);
  run.finish_reading();
  run.refuse_gradient("a search picks tokens, so there is no gradient to compute");
  const Matrix<T> table = run.input_matrix(kAnySize, kAnySize);
  const auto found = engine::beam_search(table, start, steps, beams);
  ordered_json sequences = ordered_json::array();
  ordered_json scores = ordered_json::array();
  for (const auto& c : found) {
    sequences.push_back(c.tokens);
    scores.push_back(c.log_prob);
  }
  run.result["sequences"] = std::move(sequences);
  run.result["sequence_scores"] = std::move(scores);
}

template <typename T>
using OpFunction = std::function<void(OpRun<T>&)>;

template <typename T>
const std::map<std::string_view, OpFunction<T>>& op_table() {
  static const std::map<std::string_view, OpFunction<T>> table = {
      {"linear", run_linear<T>},
      {"layer_norm", [](OpRun<T>& run) { run_row_norm(run, false); }},
      {"rms_norm", [](OpRun<T>& run) { run_row_norm(run, true); }},
      {"batch_norm", run_batch_norm<T>},
      {"relu", [](OpRun<T>& run) { run_activation(run, false); }},
      {"gelu", [](OpRun<T>& run) { run_activation(run, true); }},
      {"embedding", run_embedding<T>},
      {"mha", run_mha<T>},
      {"encoder_layer", run_encoder_layer<T>},
      {"sinusoidal", run_sinusoidal<T>},
      {"rope", run_rope<T>},
      {"swiglu_mlp", run_swiglu_mlp<T>},
      {"gqa", run_gqa<T>},
      {"sampling", run_sampling<T>},
      {"beam_search", run_beam_search<T>},
  };
  return table;
}

bool all_finite(const ordered_json& value) {
  if (value.is_number_float()) return std::isfinite(value.get<double>());
  if (value.is_structured()) {
    for (const auto& item : value) {
      if (!all_finite(item)) return false;
    }
  }
  return true;
}

template <typename T>
ordered_json run_typed(const json& spec, const std::string& source, const std::string& op) {
  static const json empty_object = json::object();
  const auto section = [&](const char* key) -> const json& {
    const auto it = spec.find(key);
    if (it == spec.end()) return empty_object;
    if (!it->is_object()) {
      spec_error(
          source, "type",
          fmt::format("{}: expected an object, got {} {}", key, json_kind(*it), json_preview(*it)));
    }
    return *it;
  };
  const auto input = spec.find("input");
  if (input == spec.end()) {
    spec_error(source, "input", fmt::format("input: missing; {} needs an input", op));
  }
  const auto grad_output = spec.find("grad_output");
  const auto memory = spec.find("memory");
  const auto key_padding_mask = spec.find("key_padding_mask");
  const auto padding_mask = spec.find("padding_mask");
  ordered_json result;
  OpRun<T> run{source,
               op,
               ConfigReader(section("config"), source, op),
               ParamReader<T>(section("params"), source, op),
               &*input,
               grad_output == spec.end() || grad_output->is_null() ? nullptr : &*grad_output,
               memory == spec.end() ? nullptr : &*memory,
               key_padding_mask == spec.end() ? nullptr : &*key_padding_mask,
               padding_mask == spec.end() ? nullptr : &*padding_mask,
               result};
  if (run.key_padding_mask != nullptr && op != "mha") {
    spec_error(source, "key_padding_mask",
               fmt::format("key_padding_mask: only mha takes one (which keys are padding); {} "
                           "does not{}",
                           op,
                           op == "layer_norm" || op == "batch_norm"
                               ? " — give its padding rows as padding_mask"
                               : ""));
  }
  if (run.padding_mask != nullptr && op != "layer_norm" && op != "batch_norm" && op != "rms_norm") {
    spec_error(source, "padding_mask",
               fmt::format("padding_mask: only layer_norm and batch_norm take one (which rows "
                           "are padding); {} does not{}",
                           op, op == "mha" ? " — give its padding keys as key_padding_mask" : ""));
  }
  if (run.memory != nullptr && op != "mha") {
    spec_error(source, "memory",
               fmt::format("memory: only mha takes a memory (cross-attention's keys and values); "
                           "{} does not",
                           op));
  }
  try {
    op_table<T>().at(op)(run);
  } catch (const engine::EngineError& e) {
    // The engine's own checks (e.g. a position past a learned table) are input errors too.
    spec_error(source, "engine", fmt::format("{}: {}", op, e.what()));
  }
  // JSON has no inf or NaN (they would print as null): an overflow is reported, not hidden.
  if (!all_finite(result)) {
    spec_error(source, "overflow",
               fmt::format("{}: the result is not finite in {} (an overflow); use float64 or "
                           "smaller values",
                           op, sizeof(T) == 4 ? "float32" : "float64"));
  }
  return result;
}

}  // namespace

const std::vector<std::string_view>& engine_op_names() {
  static const std::vector<std::string_view> names = {
      "linear", "layer_norm", "rms_norm", "batch_norm",    "relu",
      "gelu",   "embedding",  "mha",      "encoder_layer", "sinusoidal",
      "rope",   "swiglu_mlp", "gqa",      "sampling",      "beam_search"};
  return names;
}

ordered_json run_engine_spec(const json& spec, const std::string& source) {
  if (!spec.is_object()) {
    spec_error(
        source, "type",
        fmt::format("expected a JSON object with \"op\" and \"input\", got {}", json_kind(spec)));
  }
  static const std::set<std::string> known = {
      "op",          "dtype",  "config",           "params",      "input",
      "grad_output", "memory", "key_padding_mask", "padding_mask"};
  for (const auto& [key, value] : spec.items()) {
    if (!known.contains(key)) {
      spec_error(source, "key",
                 fmt::format("{}: not a spec field; expected: {}", key, fmt::join(known, ", ")));
    }
  }
  const auto op_it = spec.find("op");
  if (op_it == spec.end()) {
    spec_error(source, "op",
               fmt::format("op: missing; expected one of {}", fmt::join(engine_op_names(), ", ")));
  }
  if (!op_it->is_string()) {
    spec_error(source, "op",
               fmt::format("op: expected one of {}, got {} {}", fmt::join(engine_op_names(), ", "),
                           json_kind(*op_it), json_preview(*op_it)));
  }
  const auto op = op_it->get<std::string>();
  if (!op_table<double>().contains(op)) {
    spec_error(source, "op",
               fmt::format("op: '{}' is not an engine op; expected one of {}", op,
                           fmt::join(engine_op_names(), ", ")));
  }
  std::string dtype = "float64";
  if (const auto it = spec.find("dtype"); it != spec.end()) {
    if (!it->is_string() || (*it != "float32" && *it != "float64")) {
      spec_error(
          source, "dtype",
          fmt::format("dtype: expected \"float32\" or \"float64\", got {}", json_preview(*it)));
    }
    dtype = it->get<std::string>();
  }
  return dtype == "float32" ? run_typed<float>(spec, source, op)
                            : run_typed<double>(spec, source, op);
}

}  // namespace proofdeck::engine_io
