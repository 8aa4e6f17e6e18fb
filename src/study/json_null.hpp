// The one rule the study wing's JSON follows for a value that may be absent: written when
// present, null when not (stats, readiness, item analysis).
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

namespace proofdeck::study {

template <typename T>
nlohmann::ordered_json or_null(const std::optional<T>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

}  // namespace proofdeck::study
