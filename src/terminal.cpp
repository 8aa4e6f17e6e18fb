// Colour decision, themes and terminal-safe text.
#include "terminal.hpp"

#include <fmt/format.h>

namespace proofdeck {

std::optional<ColorMode> parse_color_mode(std::string_view text) {
  if (text == "auto") return ColorMode::automatic;
  if (text == "always") return ColorMode::always;
  if (text == "never") return ColorMode::never;
  return std::nullopt;
}

bool should_color(ColorMode mode, bool stdout_is_terminal, const GetEnv& getenv) {
  if (mode == ColorMode::always) return true;
  if (mode == ColorMode::never) return false;
  const auto set = [&](const char* name) {
    const char* value = getenv(name);
    return value != nullptr && *value != '\0';
  };
  if (set("NO_COLOR")) return false;  // https://no-color.org: any non-empty value
  if (set("FORCE_COLOR")) return std::string_view(getenv("FORCE_COLOR")) != "0";
  if (const char* term = getenv("TERM"); term != nullptr && std::string_view(term) == "dumb") {
    return false;
  }
  return stdout_is_terminal;
}

Theme Theme::colored() {
  Theme theme;
  theme.error = fmt::fg(fmt::terminal_color::bright_red) | fmt::emphasis::bold;
  theme.warning = fmt::fg(fmt::terminal_color::yellow) | fmt::emphasis::bold;
  theme.good = fmt::fg(fmt::terminal_color::green);
  theme.bad = fmt::fg(fmt::terminal_color::red);
  theme.emphasis = fmt::emphasis::bold;
  theme.dim = fmt::fg(fmt::terminal_color::bright_black);
  return theme;
}

std::string sanitize_for_terminal(std::string_view text) {
  std::string safe;
  safe.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    if (byte == '\t') {
      safe += ' ';  // a tab's width depends on the column it lands in: wrapping would be wrong
    } else if ((byte < 0x20 && byte != '\n') || byte == 0x7f) {
      safe += fmt::format("\\x{:02x}", byte);
    } else if (byte == 0xc2 && next >= 0x80 && next <= 0x9f) {
      // C1 controls (U+0080–U+009F) in UTF-8: some terminals take U+009B as an escape (CSI).
      safe += fmt::format("\\u{:04x}", next);
      ++i;
    } else {
      safe += text[i];
    }
  }
  return safe;
}

std::string truncate_characters(std::string_view text, std::size_t characters) {
  const auto starts_character = [](char c) {
    return (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  };
  std::size_t count = 0;
  for (const char c : text)
    count += starts_character(c) ? 1u : 0u;
  if (count <= characters) return std::string(text);
  if (characters == 0) return {};
  std::size_t kept = 0, end = 0;
  for (; end < text.size(); ++end) {
    if (starts_character(text[end]) && kept++ == characters - 1) break;
  }
  return std::string(text.substr(0, end)) + "…";
}

}  // namespace proofdeck
