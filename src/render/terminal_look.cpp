// The terminal figures' glyphs, and their lines of styled, wrapped text (see terminal_look.hpp).
#include "render/terminal_look.hpp"

#include <fmt/color.h>
#include <fmt/format.h>

#include <string>
#include <string_view>

#include "text/width.hpp"

namespace proofdeck::render::terminal {

Glyphs Glyphs::unicode() {
  return {.shades = {" ", "░", "▒", "▓", "█"},
          .eighths = {"▏", "▎", "▍", "▌", "▋", "▊", "▉"},
          .sparks = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"},
          .full = "█",
          .vertical = "│",
          .corner = "└",
          .horizontal = "─",
          .tick = "┬",
          .ellipsis = "…",
          .quote = "│ ",
          .dot = "·",
          .arrow = "→",
          .range = "–",
          .level = "┊"};
}

Glyphs Glyphs::ascii() {
  return {.shades = {" ", ".", ":", "-", "=", "+", "*", "#", "%", "@"},
          .eighths = {},
          .sparks = {"_", ".", ":", "-", "=", "+", "*", "#"},
          .full = "#",
          .vertical = "|",
          .corner = "+",
          .horizontal = "-",
          .tick = "+",
          .ellipsis = "...",
          .quote = "| ",
          .dot = "-",
          .arrow = "->",
          .range = "-",
          .level = ":"};
}

std::string styled(const fmt::text_style& style, std::string_view text) {
  return fmt::format(style, "{}", text);
}

void append(Lines& lines, const Lines& more) {
  lines.insert(lines.end(), more.begin(), more.end());
}

Lines styled_wrap(const fmt::text_style& style, std::string_view text, int width,
                  std::string_view indent) {
  Lines lines;
  for (const std::string& line : text::wrap(text, width - text::display_width(indent))) {
    lines.push_back(std::string(indent) + styled(style, line));
  }
  return lines;
}

Lines block_lines(std::string_view text, int width, std::string_view indent,
                  std::string_view hanging) {
  Lines lines;
  const std::string block = text::wrap_block(text, width, indent, hanging);
  for (std::size_t at = 0; at < block.size();) {
    const std::size_t end = block.find('\n', at);
    lines.push_back(block.substr(at, end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return lines;
}

}  // namespace proofdeck::render::terminal
