// Terminal heatmaps (see terminal_heatmap.hpp): how a grid fits its columns, its cells drawn,
// pairs side by side, and the numbers a grid has no room for.
#include "render/terminal_heatmap.hpp"

#include <fmt/color.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "render/color.hpp"
#include "render/parts.hpp"
#include "text/width.hpp"

namespace proofdeck::render::terminal {

using text::center;
using text::pad_left;
using text::pad_right;

namespace {

// How a grid of cells fits the columns it has.
struct GridPlan {
  int label_width = 1;  // row labels, right-aligned
  int cell_width = 1;
  int gap = 1;          // between cells (none when cells are painted)
  bool numbers = true;  // the value in (painted) or beside (shaded) each cell
  // Column labels too long for their cells: the columns are numbered instead, and the row
  // labels carry the numbers (self-attention: rows and columns are the same tokens) or a key
  // line under the grid lists them.
  bool numbered = false;
  bool same_labels = false;
  int index_digits = 0;
  int shown = 0;  // columns drawn; the rest are cut with an ellipsis
  bool clipped = false;
  bool labels_cut = false;  // the row labels lost their ends: the width left no room
  int width = 0;
};

int digits(int n) {
  return static_cast<int>(std::to_string(n).size());
}

GridPlan plan_grid(const std::vector<const Table*>& tables, const Look& look, int max_width) {
  int number_width = 1, row_label_width = 1, column_label_width = 1;
  Eigen::Index columns_count = 0;
  bool same_labels = true;
  bool numbered_rows = false;  // a row label holds a number
  for (const Table* table : tables) {
    columns_count = std::max(columns_count, table->cells.cols());
    same_labels =
        same_labels && !table->row_labels.empty() && table->row_labels == table->column_labels;
    for (Eigen::Index i = 0; i < table->cells.size(); ++i) {
      number_width =
          std::max(number_width, text::display_width(format_cell(table->cells.data()[i], 2)));
    }
    for (Eigen::Index r = 0; r < table->cells.rows(); ++r) {
      const std::string label = one_line(row_label(*table, r));
      row_label_width = std::max(row_label_width, text::display_width(label));
      numbered_rows = numbered_rows || std::any_of(label.begin(), label.end(),
                                                   [](char c) { return c >= '0' && c <= '9'; });
    }
    for (Eigen::Index c = 0; c < table->cells.cols(); ++c) {
      column_label_width =
          std::max(column_label_width, text::display_width(one_line(column_label(*table, c))));
    }
  }
  const int count = static_cast<int>(columns_count);
  const int gap = look.paint_cells ? 0 : 1;
  // Painted: " 0.62 " on a coloured background. Shaded: "▓▓ 0.62".
  const int number_cell = look.paint_cells ? number_width + 2 : number_width + 3;
  const int shade_cell = look.paint_cells ? 3 : 2;
  const int labelled_cell = std::min(column_label_width, 10) + (look.paint_cells ? 1 : 0);
  const auto label_room = [&](int cell) { return look.paint_cells ? cell - 1 : cell; };
  const auto grid_width = [&](int cell, int shown) {
    return shown * cell + std::max(shown - 1, 0) * gap;
  };

  // Numbers matter more than whole row labels, whole labels more than wide cells: cells as wide
  // as their labels, then as their numbers, then shades alone; row labels take what is left,
  // whole in the first try of each kind, then cut to a few letters.
  struct Try {
    int cell;
    bool numbers;
    bool whole_labels;
  };
  const std::array<Try, 5> tries{{{std::max(number_cell, labelled_cell), true, true},
                                  {number_cell, true, true},
                                  {number_cell, true, false},
                                  {shade_cell, false, true},
                                  {shade_cell, false, false}}};
  GridPlan plan;
  for (const auto& [cell, numbers, whole_labels] : tries) {
    plan = GridPlan{};
    plan.cell_width = cell;
    plan.gap = gap;
    plan.numbers = numbers;
    plan.numbered = column_label_width > label_room(cell);
    plan.same_labels = same_labels;
    plan.index_digits = plan.numbered && same_labels ? digits(count) : 0;
    const int index = plan.index_digits > 0 ? plan.index_digits + 1 : 0;
    const int wanted = row_label_width + index;
    const int room = max_width - kGridIndent - 2 - grid_width(cell, count);
    plan.label_width = std::min(wanted, room);
    plan.shown = count;
    plan.width = kGridIndent + plan.label_width + 2 + grid_width(cell, count);
    // A label may lose its end to "…", but not a number in it ("d_k = 1…").
    const bool cut_allowed = !whole_labels && !numbered_rows;
    plan.labels_cut = plan.label_width < wanted;
    if (plan.label_width >= (cut_allowed ? std::min(wanted, 4 + index) : wanted)) return plan;
  }
  // Too many columns even for shades: as many as fit, then an ellipsis.
  const int index = plan.index_digits > 0 ? plan.index_digits + 1 : 0;
  plan.label_width = std::min(std::min(row_label_width, 16) + index, 6 + index);
  plan.labels_cut = plan.label_width < row_label_width + index;
  const int ellipsis = 1 + text::display_width(look.glyphs.ellipsis);
  plan.shown = std::clamp(
      (max_width - kGridIndent - plan.label_width - 2 - ellipsis + gap) / (plan.cell_width + gap),
      1, std::max(count, 1));
  plan.clipped = plan.shown < count;
  plan.width = kGridIndent + plan.label_width + 2 + grid_width(plan.cell_width, plan.shown) +
               (plan.clipped ? ellipsis : 0);
  return plan;
}

// A heatmap cell painted with a 256-colour background: fmt's rgb styles are truecolor, which
// fewer terminals render, so this escape is built by hand (only ever when the theme has colour).
std::string painted(std::string_view text, double fraction) {
  const int background = xterm_shade(fraction);
  const int foreground = needs_light_text(fraction) ? 231 : 16;
  return fmt::format("\x1b[48;5;{}m\x1b[38;5;{}m{}\x1b[0m", background, foreground, text);
}

// Lines of text all exactly `width` columns wide, to be set side by side.
struct Block {
  std::vector<std::string> lines;
  int width = 0;
};

// `title_height`: lines the title takes at least, blank ones first, so that two grids side by
// side start on one line whatever their titles.
Block heatmap_block(const Table& table, const GridPlan& plan, const Look& look,
                    const std::string& title, const fmt::text_style& title_style,
                    std::size_t title_height = 0) {
  Block block;
  block.width = plan.width;
  const auto add = [&](const std::string& text, const fmt::text_style& style) {
    for (const std::string& line : text::wrap(text, plan.width - kGridIndent)) {
      block.lines.push_back(spaces(kGridIndent) +
                            styled(style, pad_right(line, plan.width - kGridIndent)));
    }
  };
  const std::size_t title_lines =
      title.empty() ? 0 : text::wrap(title, plan.width - kGridIndent).size();
  for (std::size_t i = title_lines; i < title_height; ++i)
    block.lines.push_back(spaces(plan.width));
  if (!title.empty()) add(title, title_style);

  const int label_room = look.paint_cells ? plan.cell_width - 1 : plan.cell_width;
  std::string header = spaces(kGridIndent + plan.label_width + 2);
  for (int c = 0; c < plan.shown; ++c) {
    const std::string label = plan.numbered
                                  ? std::to_string(c + 1)
                                  : look.fit(one_line(column_label(table, c)), label_room);
    if (c > 0) header += spaces(plan.gap);
    header += look.paint_cells ? center(label, plan.cell_width) : pad_left(label, plan.cell_width);
  }
  if (plan.clipped) header += " " + look.glyphs.ellipsis;
  block.lines.push_back(pad_right(header, plan.width));

  const HeatScale scale(table);
  for (Eigen::Index r = 0; r < table.cells.rows(); ++r) {
    std::string label = one_line(row_label(table, r));
    if (plan.index_digits > 0) {
      label = look.fit(label, plan.label_width - plan.index_digits - 1) + " " +
              pad_left(std::to_string(r + 1), plan.index_digits);
    }
    std::string line =
        spaces(kGridIndent) + pad_left(look.fit(label, plan.label_width), plan.label_width) + "  ";
    for (int c = 0; c < plan.shown; ++c) {
      const double v = table.cells(r, c);
      const double fraction = scale(v);
      if (c > 0) line += spaces(plan.gap);
      const std::string number = plan.numbers ? format_cell(v, 2) : std::string();
      if (look.paint_cells) {
        line += painted(center(number, plan.cell_width), fraction);
      } else {
        const std::string shade = repeat(look.shade(fraction), 2);
        line += pad_left(plan.numbers ? shade + " " + number : shade, plan.cell_width);
      }
    }
    if (plan.clipped) line += spaces(1 + text::display_width(look.glyphs.ellipsis));
    block.lines.push_back(pad_right(line, plan.width));
  }
  if (plan.numbered && !plan.same_labels) {
    std::string key = "columns:";
    for (int c = 0; c < plan.shown; ++c) {
      key += (c == 0 ? " " : " " + look.glyphs.dot + " ") + std::to_string(c + 1) + " " +
             one_line(column_label(table, c));
    }
    add(key, look.dim);
  }
  return block;
}

Lines side_by_side(Block left, Block right, int gap) {
  const std::size_t height = std::max(left.lines.size(), right.lines.size());
  left.lines.resize(height, spaces(left.width));
  right.lines.resize(height, spaces(right.width));
  Lines lines;
  for (std::size_t i = 0; i < height; ++i)
    lines.push_back(left.lines[i] + spaces(gap) + right.lines[i]);
  return lines;
}

constexpr int kPairGap = 4;

// The smallest width at which a heatmap's cells hold their numbers, up to kWidestGrid; 0 if none.
constexpr int kWidestGrid = 400;
int width_for_numbers(const Table& table, const Look& look) {
  const auto numbers_at = [&](int width) { return plan_grid({&table}, look, width).numbers; };
  if (!numbers_at(kWidestGrid)) return 0;
  int low = look.width, high = kWidestGrid;  // numbers_at(low) is false, numbers_at(high) true
  while (high - low > 1) {
    const int middle = low + (high - low) / 2;
    (numbers_at(middle) ? high : low) = middle;
  }
  return high;
}

// A heatmap's numbers are cut off when at most this many columns: then they follow the shades,
// a record a row; a wider heatmap says where its numbers are.
constexpr Eigen::Index kRecordColumns = 8;

}  // namespace

Lines heatmap_pair(const Table& a, const Table& b, const Look& look) {
  const int half = (look.width - kPairGap) / 2;
  const GridPlan plan = plan_grid({&a, &b}, look, half);
  // Side by side only when both keep their numbers and their row labels whole: else one above
  // the other, each with the whole width.
  if (!plan.numbers || plan.clipped || plan.labels_cut) return {};
  const std::string title_a = one_line(table_title(a));
  const std::string title_b = one_line(table_title(b));
  const std::string heading = shared_heading(title_a, title_b);
  Lines lines;
  const std::size_t cut = heading.empty() ? 0 : heading.size() + 2;
  const std::string own_a = title_a.substr(cut), own_b = title_b.substr(cut);
  const fmt::text_style own_style = heading.empty() ? look.heading : fmt::text_style{};
  if (!heading.empty()) lines.push_back(styled(look.heading, look.fit(heading, look.width)));
  const std::size_t height = std::max(text::wrap(own_a, plan.width - kGridIndent).size(),
                                      text::wrap(own_b, plan.width - kGridIndent).size());
  append(lines, side_by_side(heatmap_block(a, plan, look, own_a, own_style, height),
                             heatmap_block(b, plan, look, own_b, own_style, height), kPairGap));
  return lines;
}

Lines heatmap_single(const Table& table, const Look& look, const DemoResult& result,
                     const DemoInfo& info) {
  const GridPlan plan = plan_grid({&table}, look, look.width);
  Lines lines = styled_wrap(look.heading, one_line(table_title(table)), look.width);
  Block block = heatmap_block(table, plan, look, {}, {});
  append(lines, block.lines);
  if (!plan.numbers && look.full && table.cells.cols() > kRecordColumns) {
    if (const int needed = width_for_numbers(table, look); needed > 0) {
      append(
          lines,
          styled_wrap(look.dim,
                      fmt::format("the numbers need {} columns: widen the terminal or run", needed),
                      look.width, spaces(kGridIndent)));
      for (const std::string& line :
           text::command_lines(reproduce_command(result, info, look.program) + " --format md",
                               look.width, spaces(kGridIndent + 2)))
        lines.push_back(styled(look.dim, line));
    }
  } else if (!plan.numbers && look.full) {
    // Shades alone: the numbers the cells have no room for follow, a record a row.
    lines.push_back(spaces(kGridIndent) + styled(look.dim, "by row:"));
    for (Eigen::Index r = 0; r < table.cells.rows(); ++r) {
      std::string record = one_line(row_label(table, r)) + ":";
      for (Eigen::Index c = 0; c < table.cells.cols(); ++c) {
        record += (c == 0 ? " " : " " + look.glyphs.dot + " ") + one_line(column_label(table, c)) +
                  "\u00a0" +
                  format_cell(table.cells(r, c), 2);  // a cell's label and number together
      }
      append(lines, block_lines(record, look.width, spaces(kGridIndent), spaces(kGridIndent + 2)));
    }
  }
  return lines;
}

std::string heatmap_legend(const Look& look) {
  std::string ramp;
  if (look.paint_cells) {
    for (int i = 0; i <= 8; ++i)
      ramp += painted("  ", i / 8.0);
  } else {
    for (std::size_t i = 0; i < look.glyphs.shades.size(); ++i) {
      ramp += repeat(look.glyphs.shades[i], 2);
    }
    ramp = "[" + ramp + "]";
  }
  return spaces(kGridIndent) + styled(look.dim, "scale 0 ") + ramp + styled(look.dim, " 1");
}

}  // namespace proofdeck::render::terminal
