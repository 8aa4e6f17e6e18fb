// Escaping for terminals, markup and Markdown (see escape.hpp).
#include "text/escape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "text/utf8.hpp"

namespace proofdeck::text {

std::string terminal_safe(std::string_view text, Newlines newlines) {
  std::string safe;
  safe.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    if (byte == '\t' || (byte == '\n' && newlines == Newlines::as_spaces)) {
      safe += ' ';
    } else if ((byte < 0x20 && byte != '\n') || byte == 0x7f) {
      safe += fmt::format("\\x{:02x}", byte);
    } else if (byte == 0xc2 && next >= 0x80 && next <= 0x9f) {
      safe += fmt::format("\\u{:04x}", next);
      ++i;
    } else {
      safe += text[i];
    }
  }
  return safe;
}

std::string markup_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t start = at;
    const CodePoint c = decode(text, at);
    // Not characters in XML 1.0 either: U+FFFE and U+FFFF.
    if (!c.valid || c.code == 0xFFFE || c.code == 0xFFFF) {
      out += "\xEF\xBF\xBD";
      continue;
    }
    switch (c.code) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if ((c.code < 0x20 && c.code != '\t' && c.code != '\n') || c.code == 0x7f) {
          out += fmt::format("\\x{:02x}", c.code);
        } else {
          out.append(text, start, at - start);
        }
    }
  }
  return out;
}

std::string html_text(std::string_view text, std::string_view line_break) {
  std::string unix_lines;
  for (const char c : text)
    if (c != '\r') unix_lines += c;
  std::string out;
  for (const char c : markup_escape(unix_lines)) {
    if (c == '\n') {
      out += line_break;
    } else {
      out += c;
    }
  }
  return out;
}

std::string markdown_escape(std::string_view raw, std::string_view break_indent) {
  const std::string text = terminal_safe(raw);
  std::string out;
  bool line_start = true;
  const auto word_char = [&](std::size_t at) {
    return at < text.size() && (std::isalnum(static_cast<unsigned char>(text[at])) ||
                                static_cast<unsigned char>(text[at]) >= 0x80);
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\r') continue;
    if (c == '\n') {
      out += "  \n";  // a hard line break inside the paragraph
      out += break_indent;
      line_start = true;
      continue;
    }
    // An underscore inside a word (d_model) emphasises nothing in GFM: left as it is.
    const bool inner_underscore = c == '_' && i > 0 && word_char(i - 1) && word_char(i + 1);
    if ((std::string_view("\\`*_[]<>|~&$").find(c) != std::string_view::npos &&
         !inner_underscore) ||
        (line_start && std::string_view("#+-=!").find(c) != std::string_view::npos)) {
      out += '\\';
    }
    // "1. " at the start of a line would begin a list ("0.0039" would not: a marker needs a
    // space or the end of the line after it).
    if (line_start && c >= '0' && c <= '9') {
      const std::size_t digits_end = text.find_first_not_of("0123456789", i);
      const bool marker_ends = digits_end != std::string::npos &&
                               (digits_end + 1 == text.size() || text[digits_end + 1] == ' ' ||
                                text[digits_end + 1] == '\t' || text[digits_end + 1] == '\n');
      if (marker_ends && (text[digits_end] == '.' || text[digits_end] == ')')) {
        out.append(text, i, digits_end - i);
        out += '\\';
        i = digits_end - 1;
        line_start = false;
        continue;
      }
    }
    out += c;
    line_start = line_start && c == ' ';
  }
  return out;
}

std::string markdown_cell(std::string_view text) {
  return markdown_escape(terminal_safe(text, Newlines::as_spaces));
}

std::string markdown_code(std::string_view raw) {
  const std::string text = terminal_safe(raw);
  const bool plain = !text.empty() && text.find_first_of("`|\n\r") == std::string::npos &&
                     text.front() != ' ' && text.back() != ' ';
  return plain ? "`" + text + "`" : markdown_cell(text);
}

std::string shell_word(std::string_view word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_-.,=+:/").find(c) != std::string_view::npos;
  });
  if (plain) return std::string(word);
  std::string quoted = "'";
  for (const char c : word)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string url_path(std::string_view path) {
  std::string out;
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || std::string_view("/._-~").find(c) != std::string_view::npos) {
      out += c;
    } else {
      out += fmt::format("%{:02X}", byte);
    }
  }
  return out;
}

std::string slug(std::string_view text, std::string_view fallback) {
  std::string id;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x80 && std::isalnum(byte)) {
      id += static_cast<char>(std::tolower(byte));
    } else if (!id.empty() && id.back() != '-') {
      id += '-';
    }
  }
  while (!id.empty() && id.back() == '-')
    id.pop_back();
  return id.empty() ? std::string(fallback) : id;
}

bool is_invisible(char32_t code_point) {
  return code_point < 0x20 || (code_point >= 0x7F && code_point < 0xA0) ||
         (code_point >= 0x200B && code_point <= 0x200F) ||
         (code_point >= 0x202A && code_point <= 0x202E) ||
         (code_point >= 0x2060 && code_point <= 0x206F) || code_point == 0xFEFF;
}

std::string one_column_quote(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::size_t end = i;
    const CodePoint c = decode(text, end);
    if (!c.valid) {
      out += '?';
      ++i;
      continue;
    }
    const auto code_point = static_cast<char32_t>(c.code);
    if (code_point < 0x20 || code_point == 0x7F) {
      out += ' ';
    } else if (is_invisible(code_point)) {
      out += '?';
    } else {
      out.append(text.substr(i, end - i));
    }
    i = end;
  }
  return out;
}

}  // namespace proofdeck::text
