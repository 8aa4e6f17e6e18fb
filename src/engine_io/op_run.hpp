// What every `engine run` op reads its spec with: the config and params readers, which remember
// what was read so an unknown key is named; OpRun, one run's spec and answer; the size limits; and
// what more than one op family answers with (sgd_lr's step, the multiply-add count). The runners
// (ops.hpp) and spec.cpp share it, so it lives in namespace detail: engine_io's own, not its face
// (spec.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/json_input.hpp"
#include "engine/macs.hpp"
#include "engine/tensor.hpp"
#include "engine_io/tensor_json.hpp"

namespace proofdeck::engine_io::detail {

using engine::Matrix;
using engine::Vector;
using nlohmann::json;
using nlohmann::ordered_json;

// Sizes past these would take gigabytes; they are refused with the limit named.
inline constexpr std::int64_t kMaxDimension = 1 << 16;
inline constexpr std::int64_t kMaxElements = std::int64_t{1} << 26;

// Throws InputError "spec.<id>" whose message is "<source>: <message>".
[[noreturn]] void spec_error(const std::string& source, const std::string& id,
                             const std::string& message);

// Reads `config`, remembering which keys were read so unknown ones can be reported.
class ConfigReader {
 public:
  ConfigReader(const json& config, std::string source, std::string op)
      : config_(config), source_(std::move(source)), op_(std::move(op)) {}

  std::int64_t dimension(const std::string& key, std::optional<std::int64_t> fallback = {});
  // A count that may be 0 (top_k = 0: off) or a token index (start = 0: the first token).
  std::int64_t count(const std::string& key, std::int64_t fallback);
  // normalized_shape: an integer or a one-element list, as PyTorch accepts for the last dimension.
  std::int64_t normalized_shape();
  double positive_number(const std::string& key, double fallback);
  double fraction(const std::string& key, double fallback);
  bool flag(const std::string& key, bool fallback);
  // Any integer (negative too, as cross_entropy's ignore_index is).
  std::int64_t integer(const std::string& key, std::int64_t fallback);
  std::string choice(const std::string& key, const std::string& fallback,
                     const std::vector<std::string>& choices);
  // Dropout makes runs random; the engine is deterministic, so only 0 is accepted.
  void require_no_dropout();

  const json* raw(const std::string& key) { return find(key); }

  void reject_unknown() const;

 private:
  const json* find(const std::string& key);

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
  const json* target;            // cross_entropy: a class index a row; null otherwise
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
ordered_json multiply_adds_json(const engine::MacCount& count);

}  // namespace proofdeck::engine_io::detail
