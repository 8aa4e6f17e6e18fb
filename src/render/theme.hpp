// Colour on a terminal, plain text in a pipe: decided once, from --color and the environment.
// "No colour" is an empty fmt::text_style, so printing code never asks.
#pragma once

#include <fmt/color.h>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace proofdeck {

enum class ColorMode { automatic, always, never };

std::optional<ColorMode> parse_color_mode(std::string_view text);

using GetEnv = std::function<const char*(const char*)>;

// always/never win; auto honours NO_COLOR, then FORCE_COLOR, then TERM=dumb, then whether
// standard output is a terminal.
bool should_color(ColorMode mode, bool stdout_is_terminal, const GetEnv& getenv);

struct Theme {
  fmt::text_style error;     // "error:" labels
  fmt::text_style warning;   // "warning:" labels
  fmt::text_style good;      // passed, correct
  fmt::text_style bad;       // failed, wrong
  fmt::text_style emphasis;  // names and key numbers
  fmt::text_style dim;       // secondary detail

  static Theme colored();
  static Theme plain() { return {}; }
};

// Each line of a block (lines ended by "\n") styled on its own, so a style never spans a line
// break: a command block (text::command_block) in a dim note.
std::string style_lines(const fmt::text_style& style, std::string_view block);

// Text wrapped to `width` columns at word boundaries (text::wrap_block: first line indented by
// `indent`, the rest by `hanging`), each line styled on its own so a style never spans a line
// break and escape codes never count as columns.
std::string wrap_styled(const fmt::text_style& style, std::string_view text, int width,
                        std::string_view indent = "", std::string_view hanging = {});

// "label rest…" wrapped the same way with only `label` (the first word) styled: report lines
// such as "unproven id (bank): message" and "proofdeck quiz · 8 questions".
std::string wrap_labelled(std::string_view label, const fmt::text_style& style,
                          std::string_view rest, int width, std::string_view hanging = "  ");

}  // namespace proofdeck
