// File reading and JSON parsing with located, readable errors.
#include "core/json_input.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>

#include "core/errors.hpp"

namespace proofdeck {

std::string read_text_file(const std::string& path, std::size_t max_bytes,
                           std::istream& standard_input) {
  std::string text;
  if (path == "-") {
    std::ostringstream buffer;
    buffer << standard_input.rdbuf();
    text = std::move(buffer).str();
  } else {
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) {
      throw InputError("io.read", fmt::format("{}: is a directory, expected a file", path));
    }
    std::ifstream file(path, std::ios::binary);
    if (!file) {
      throw InputError("io.read", fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
    }
    text.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    if (file.bad()) {
      throw InputError("io.read", fmt::format("{}: read failed: {}", path, std::strerror(errno)));
    }
  }
  if (text.size() > max_bytes) {
    throw InputError("io.too_large",
                     fmt::format("{}: {} bytes is over the limit of {} bytes",
                                 path == "-" ? "<stdin>" : path, text.size(), max_bytes));
  }
  return text;
}

namespace {

// 1-based line and column of byte offset `offset` (0-based).
std::pair<std::size_t, std::size_t> line_and_column(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const std::string_view before = text.substr(0, offset);
  const std::size_t line =
      1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
  const std::size_t last_newline = before.rfind('\n');
  const std::size_t column =
      last_newline == std::string_view::npos ? offset + 1 : offset - last_newline;
  return {line, column};
}

std::string_view line_at(std::string_view text, std::size_t line) {
  std::size_t start = 0;
  for (std::size_t l = 1; l < line; ++l) {
    const std::size_t next = text.find('\n', start);
    if (next == std::string_view::npos) return {};
    start = next + 1;
  }
  const std::size_t end = text.find('\n', start);
  return text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

// nlohmann says "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error
// while parsing value - invalid literal; last read: 'tru,'": keep what follows the location.
std::string parse_error_detail(const char* what) {
  const std::string_view message(what);
  const std::size_t column = message.find("column ");
  const std::size_t colon = message.find(": ", column == std::string_view::npos ? 0 : column);
  if (colon == std::string_view::npos) return std::string(message);
  return std::string(message.substr(colon + 2));
}

// "name:line:column: detail", then the line around the column with a caret under it.
[[noreturn]] void located_parse_error(std::string_view text, const std::string& display,
                                      std::size_t offset, const std::string& detail) {
  const auto [line, column] = line_and_column(text, offset);
  // A window of the line around the column, so the caret stays on screen in long lines.
  const std::string_view full_line = line_at(text, line);
  constexpr std::size_t kBefore = 60, kAfter = 40;
  const std::size_t at = column > 0 ? column - 1 : 0;
  const std::size_t start = at > kBefore ? at - kBefore : 0;
  std::string excerpt(full_line.substr(std::min(start, full_line.size()), kBefore + kAfter));
  std::replace_if(
      excerpt.begin(), excerpt.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; },
      ' ');
  std::size_t caret_column = std::min(at - start, excerpt.size());
  if (start > 0) {
    excerpt = "…" + excerpt;
    caret_column += 1;  // the ellipsis is one column wide
  }
  if (start + kBefore + kAfter < full_line.size()) excerpt += "…";
  const std::string caret(caret_column, ' ');
  throw InputError("json.parse", fmt::format("{}:{}:{}: {}\n    {}\n    {}^", display, line, column,
                                             detail, excerpt, caret));
}

}  // namespace

nlohmann::json parse_json(std::string_view text, const std::string& name,
                          const JsonLimits& limits) {
  const std::string display = name == "-" ? "<stdin>" : name;
  if (text.size() > limits.max_bytes) {
    throw InputError("io.too_large", fmt::format("{}: {} bytes is over the limit of {} bytes",
                                                 display, text.size(), limits.max_bytes));
  }
  // Depth is checked as the parser goes, so a hostile file cannot exhaust the stack later.
  // `depth` counts the containers already open, so opening one more at max_depth is too deep.
  auto depth_guard = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
    const bool opens = event == nlohmann::json::parse_event_t::object_start ||
                       event == nlohmann::json::parse_event_t::array_start;
    if (opens && static_cast<std::size_t>(depth) >= limits.max_depth) {
      throw InputError("json.depth",
                       fmt::format("{}: nesting deeper than {} levels", display, limits.max_depth));
    }
    return true;
  };
  try {
    return nlohmann::json::parse(text, depth_guard);
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based and points at the last character read.
    located_parse_error(text, display, e.byte == 0 ? 0 : e.byte - 1, parse_error_detail(e.what()));
  } catch (const nlohmann::json::out_of_range& e) {
    // A number too large for a double (406): "... number overflow parsing '1e400'" carries no
    // position, so the caret goes under the first occurrence of the number.
    const std::string_view message(e.what());
    const std::size_t open = message.find('\'');
    const std::size_t close = message.rfind('\'');
    const std::string_view number =
        open < close ? message.substr(open + 1, close - open - 1) : std::string_view();
    const std::size_t offset = number.empty() ? std::string_view::npos : text.find(number);
    const std::size_t prefix_end = message.find("] ");
    located_parse_error(
        text, display, offset == std::string_view::npos ? text.size() : offset,
        std::string(prefix_end == std::string_view::npos ? message
                                                         : message.substr(prefix_end + 2)));
  }
}

std::string json_kind(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::object:
      return "object";
    case nlohmann::json::value_t::array:
      return "array";
    case nlohmann::json::value_t::string:
      return "string";
    case nlohmann::json::value_t::boolean:
      return "boolean";
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
      return "number";
    default:
      return "value";
  }
}

std::string json_preview(const nlohmann::json& value) {
  if (value.is_array()) return value.empty() ? "[]" : "[…]";
  if (value.is_object()) return value.empty() ? "{}" : "{…}";
  std::string text = value.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
  if (text.size() > 40) text = text.substr(0, 40) + "…";
  return text;
}

}  // namespace proofdeck
