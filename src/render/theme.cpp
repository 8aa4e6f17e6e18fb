// Colour decision, themes and terminal-safe text.
#include "render/theme.hpp"

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

}  // namespace proofdeck
