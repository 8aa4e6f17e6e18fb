// Reading UTF-8 one character at a time. Bytes that do not form a character (a stray
// continuation byte, an overlong form, a surrogate, a cut-off sequence) are read one at a time as
// invalid, so a caller can replace or show them and never loops or reads past the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace proofdeck::text {

struct CodePoint {
  std::uint32_t code = 0;  // U+FFFD when invalid
  bool valid = false;
};

// The character that starts at byte `at`; `at` moves past it (one byte when invalid).
CodePoint decode(std::string_view text, std::size_t& at);

// '0' to '9' and nothing else (std::isdigit asks for an unsigned char and the locale).
constexpr bool is_ascii_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace proofdeck::text
