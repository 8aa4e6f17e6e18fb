// What the terminal figures share (terminal_figure.cpp and the rooms it draws with): the glyphs
// and styles decided once for a terminal, and lines of styled, wrapped text to stack.
#pragma once

#include <fmt/color.h>

#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "text/width.hpp"

namespace proofdeck::render::terminal {

struct Glyphs {
  std::vector<std::string> shades;   // lightest to darkest, the first is blank
  std::vector<std::string> eighths;  // partial bar cells, 1/8 … 7/8 (empty: whole cells)
  std::vector<std::string> sparks;   // sparkline levels
  std::string full, vertical, corner, horizontal, tick, ellipsis, quote, dot, arrow, range;
  std::string level;  // a reference level's mark across a bar chart's bars

  static Glyphs unicode();
  static Glyphs ascii();
};

// Everything the text renderer decides once: glyphs, styles, how heatmap cells are painted.
struct Look {
  int width = text::kDefaultWidth;
  Glyphs glyphs;
  fmt::text_style heading;                   // titles
  fmt::text_style dim;                       // secondary lines
  fmt::text_style value;                     // the numbers in the value list
  bool full = true;                          // the full form, not quiz feedback
  bool in_proof = false;                     // a proof's figures: no title line, no values
  bool paint_cells = false;                  // 256-colour backgrounds instead of shade characters
  std::vector<fmt::text_style> line_styles;  // bars of a series' lines, cycled
  std::string program;                       // how the reader runs proofdeck

  const fmt::text_style& line_style(std::size_t index) const {
    return line_styles[index % line_styles.size()];
  }
  std::string shade(double fraction) const {
    const auto levels = static_cast<double>(glyphs.shades.size() - 1);
    return glyphs.shades[static_cast<std::size_t>(std::lround(fraction * levels))];
  }
  std::string fit(std::string_view text, int columns_available) const {
    return text::truncate(text, columns_available, glyphs.ellipsis);
  }
};

using Lines = std::vector<std::string>;

std::string styled(const fmt::text_style& style, std::string_view text);

void append(Lines& lines, const Lines& more);

Lines styled_wrap(const fmt::text_style& style, std::string_view text, int width,
                  std::string_view indent = {});

// text::wrap_block as lines: the first indented by `indent`, the rest by `hanging`.
Lines block_lines(std::string_view text, int width, std::string_view indent,
                  std::string_view hanging);

}  // namespace proofdeck::render::terminal
