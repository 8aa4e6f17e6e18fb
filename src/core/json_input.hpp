// Reading JSON that a person wrote: files with size limits, and parse errors that point at the
// line and column with the offending line and a caret under it.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace proofdeck {

struct JsonLimits {
  std::size_t max_bytes = 64u << 20;  // a spec or bank larger than this is refused
  std::size_t max_depth = 64;         // nesting deeper than this is refused
};

// Reads a whole file, or `standard_input` for "-"; InputError when it cannot be read or is
// larger than the limit.
std::string read_text_file(const std::string& path, std::size_t max_bytes,
                           std::istream& standard_input);

// Parses text; on failure throws InputError "name:line:column: message" followed by the
// offending line and a caret.
nlohmann::json parse_json(std::string_view text, const std::string& name,
                          const JsonLimits& limits = {});

// "object", "array", "string", "number", "boolean" or "null", for messages.
std::string json_kind(const nlohmann::json& value);

// The value shortened for a message: `"abc"`, `12`, `[…]` or `{…}`.
std::string json_preview(const nlohmann::json& value);

}  // namespace proofdeck
