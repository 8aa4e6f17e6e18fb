// The config reader's checks, the error every check throws, and the multiply-add count as JSON:
// the part of op_run.hpp that is not a template.
#include "engine_io/op_run.hpp"

#include <cmath>
#include <limits>

#include "core/errors.hpp"

namespace proofdeck::engine_io::detail {

[[noreturn]] void spec_error(const std::string& source, const std::string& id,
                             const std::string& message) {
  throw InputError("spec." + id, source + ": " + message);
}

std::int64_t ConfigReader::dimension(const std::string& key, std::optional<std::int64_t> fallback) {
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

std::int64_t ConfigReader::count(const std::string& key, std::int64_t fallback) {
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

std::int64_t ConfigReader::integer(const std::string& key, std::int64_t fallback) {
  const json* value = find(key);
  if (value == nullptr) return fallback;
  if (!value->is_number_integer() ||
      (value->is_number_unsigned() &&
       value->get<std::uint64_t>() >
           static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))) {
    spec_error(source_, "config",
               fmt::format("config.{}: expected an integer, got {}", key, json_preview(*value)));
  }
  return value->get<std::int64_t>();
}

std::int64_t ConfigReader::normalized_shape() {
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

double ConfigReader::positive_number(const std::string& key, double fallback) {
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

double ConfigReader::fraction(const std::string& key, double fallback) {
  const json* value = find(key);
  if (value == nullptr) return fallback;
  if (!value->is_number() || value->get<double>() < 0.0 || value->get<double>() > 1.0) {
    spec_error(
        source_, "config",
        fmt::format("config.{}: expected a number in [0, 1], got {}", key, json_preview(*value)));
  }
  return value->get<double>();
}

bool ConfigReader::flag(const std::string& key, bool fallback) {
  const json* value = find(key);
  if (value == nullptr) return fallback;
  if (!value->is_boolean()) {
    spec_error(source_, "config",
               fmt::format("config.{}: expected true or false, got {}", key, json_preview(*value)));
  }
  return value->get<bool>();
}

std::string ConfigReader::choice(const std::string& key, const std::string& fallback,
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

void ConfigReader::require_no_dropout() {
  const double dropout = fraction("dropout", 0.0);
  if (dropout != 0.0) {
    spec_error(source_, "config",
               fmt::format("config.dropout: the engine is deterministic and runs without "
                           "dropout; expected 0, got {}",
                           dropout));
  }
}

void ConfigReader::reject_unknown() const {
  for (const auto& [key, value] : config_.items()) {
    if (!read_.contains(key)) {
      spec_error(source_, "config",
                 fmt::format("config.{}: not a setting of {}; expected one of: {}", key, op_,
                             fmt::join(read_, ", ")));
    }
  }
}

const json* ConfigReader::find(const std::string& key) {
  read_.insert(key);
  const auto it = config_.find(key);
  return it == config_.end() ? nullptr : &*it;
}

ordered_json multiply_adds_json(const engine::MacCount& count) {
  return {{"linear", count.linear},
          {"scores", count.scores},
          {"weighted_values", count.weighted_values},
          {"total", count.total()}};
}

}  // namespace proofdeck::engine_io::detail
