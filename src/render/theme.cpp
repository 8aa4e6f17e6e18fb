// Colour decision, themes and terminal-safe text.
#include "render/theme.hpp"

#include "text/width.hpp"

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

std::string style_lines(const fmt::text_style& style, std::string_view block) {
  std::string out;
  std::size_t at = 0;
  while (at < block.size()) {
    std::size_t end = block.find('\n', at);
    if (end == std::string_view::npos) end = block.size();
    out += fmt::format(style, "{}", block.substr(at, end - at)) + "\n";
    at = end + 1;
  }
  return out;
}

std::string wrap_styled(const fmt::text_style& style, std::string_view text, int width,
                        std::string_view indent, std::string_view hanging) {
  return style_lines(style, text::wrap_block(text, width, indent, hanging));
}

std::string wrap_labelled(std::string_view label, const fmt::text_style& style,
                          std::string_view rest, int width, std::string_view hanging) {
  const std::string plain = std::string(label) + " " + std::string(rest);
  const std::string wrapped = text::wrap_block(plain, width, "", hanging);
  // A label too long for one line is itself wrapped: then the whole entry takes the style.
  if (wrapped.compare(0, label.size(), label) != 0 || wrapped[label.size()] == '\n')
    return wrap_styled(style, plain, width, "", hanging);
  return fmt::format(style, "{}", label) + wrapped.substr(label.size());
}

}  // namespace proofdeck
