// Drawing a DemoResult for people: terminal text (heatmaps, bar charts, full or compact),
// Markdown and self-contained HTML with inline SVG. Every string that comes from a result is
// made safe for its destination here (terminal controls shown as \x1b, Markdown and HTML
// escaped), and the output is a pure function of its inputs: same result, same bytes.
#include "render/figure.hpp"

#include <fmt/color.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/utf8.hpp"
#include "text/width.hpp"

namespace proofdeck::render {

using demo::DemoInfo;
using demo::DemoResult;
using demo::Series;
using demo::Table;
using demo::Value;
using text::center;
using text::pad_left;
using text::pad_right;

namespace {

// A result's string on one terminal line: controls shown, tabs and newlines as spaces.
std::string one_line(std::string_view s) {
  return text::terminal_safe(s, text::Newlines::as_spaces);
}

// ============================================================================================
// Shared: measuring text, formatting numbers, the colour ramp, scales
// ============================================================================================

std::string repeat(std::string_view piece, int count) {
  std::string out;
  for (int i = 0; i < count; ++i)
    out += piece;
  return out;
}

std::string spaces(int count) {
  return std::string(static_cast<std::size_t>(std::max(count, 0)), ' ');
}

std::string format_value(const Value& value) {
  if (value.kind == Value::Kind::boolean) return value.boolean ? "yes" : "no";
  return text::format_short(value.number);
}

// Heatmap cells: fixed decimals so the columns line up; never "-0.00". An exact zero (a masked
// weight) reads 0, unlike a small weight rounded to 0.00.
std::string format_cell(double x, int decimals) {
  if (std::isnan(x)) return "nan";
  if (x == 0.0) return "0";
  std::string text = fmt::format("{:.{}f}", x, decimals);
  if (text.find_first_not_of("-0.") == std::string::npos && text[0] == '-') text.erase(0, 1);
  return text;
}

// Tick labels for a log axis in text: 0.01 … 100, then 1e3, 1e4 …
std::string decade_label(int exponent) {
  if (exponent >= -2 && exponent <= 2) return text::format_short(std::pow(10.0, exponent));
  return fmt::format("1e{}", exponent);
}

struct Rgb {
  int red = 0, green = 0, blue = 0;
};

// White to dark blue (ColorBrewer "Blues"): the one ramp for terminal cells and SVG fills.
constexpr std::array<Rgb, 5> kRamp{
    {{247, 251, 255}, {198, 219, 239}, {107, 174, 214}, {33, 113, 181}, {8, 48, 107}}};

Rgb ramp_colour(double shade) {
  shade = std::isnan(shade) ? 0.0 : std::clamp(shade, 0.0, 1.0);
  const double position = shade * static_cast<double>(kRamp.size() - 1);
  const std::size_t low = std::min(static_cast<std::size_t>(position), kRamp.size() - 2);
  const double fraction = position - static_cast<double>(low);
  const auto mix = [&](int a, int b) {
    return static_cast<int>(std::lround(a + (b - a) * fraction));
  };
  const Rgb& a = kRamp[low];
  const Rgb& b = kRamp[low + 1];
  return {mix(a.red, b.red), mix(a.green, b.green), mix(a.blue, b.blue)};
}

bool needs_light_text(double shade) {
  return shade > 0.55;
}

std::string hex(Rgb colour) {
  return fmt::format("#{:02x}{:02x}{:02x}", colour.red, colour.green, colour.blue);
}

// The ramp in xterm's 256 colours, picked by hand: the nearest cube colours to the ramp drift
// to teal, these stay blue. White (231) … navy (17).
constexpr std::array<int, 9> kXtermRamp{231, 189, 153, 110, 74, 32, 25, 24, 17};

int xterm_shade(double shade) {
  shade = std::isnan(shade) ? 0.0 : std::clamp(shade, 0.0, 1.0);
  return kXtermRamp[static_cast<std::size_t>(
      std::lround(shade * static_cast<double>(kXtermRamp.size() - 1)))];
}

// Where a heatmap value falls on the ramp: weights in [0, 1] as they are (so tables compare),
// anything else stretched over the table's own range.
struct HeatScale {
  double low = 0.0;
  double high = 1.0;

  explicit HeatScale(const Table& table) {
    double min = 0.0, max = 0.0;
    bool any = false;
    for (Eigen::Index i = 0; i < table.cells.size(); ++i) {
      const double v = table.cells.data()[i];
      if (!std::isfinite(v)) continue;
      min = any ? std::min(min, v) : v;
      max = any ? std::max(max, v) : v;
      any = true;
    }
    if (any && (min < 0.0 || max > 1.0)) {
      low = min;
      high = max > min ? max : min + 1.0;
    }
  }
  bool unit() const { return low == 0.0 && high == 1.0; }
  // A missing value (NaN) reads as the lightest shade.
  double operator()(double v) const {
    return std::isnan(v) ? 0.0 : std::clamp((v - low) / (high - low), 0.0, 1.0);
  }
};

// A value axis shared by the text bars and the SVG charts: log10 over whole decades, or linear
// from zero (or below, when values are negative) with round tick steps.
struct Scale {
  bool log = false;
  double low = 0.0;   // log: the lowest decade's exponent; linear: the lowest value
  double high = 1.0;  // log: the highest decade's exponent; linear: the highest value
  std::vector<double> ticks;

  bool drawable(double v) const { return std::isfinite(v) && (!log || v > 0.0); }
  double fraction(double v) const {
    const double position = log ? std::log10(v) : v;
    return (position - low) / (high - low);
  }
};

double nice_step(double span, int target_ticks) {
  const double raw = span / std::max(target_ticks, 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double normalized = raw / magnitude;
  const double nice = normalized < 1.5   ? 1.0
                      : normalized < 3.0 ? 2.0
                      : normalized < 7.0 ? 5.0
                                         : 10.0;
  return nice * magnitude;
}

Scale make_scale(const std::vector<double>& values, bool log, int target_ticks, bool round_out) {
  Scale scale;
  double min = 0.0, max = 0.0;
  bool any = false;
  for (const double v : values) {
    if (!std::isfinite(v) || (log && v <= 0.0)) continue;
    min = any ? std::min(min, v) : v;
    max = any ? std::max(max, v) : v;
    any = true;
  }
  if (log && any) {
    scale.log = true;
    scale.low = std::floor(std::log10(min));
    scale.high = std::ceil(std::log10(max));
    if (scale.high <= scale.low) scale.high = scale.low + 1.0;
    const int decades = static_cast<int>(scale.high - scale.low);
    const int stride = std::max(1, (decades + target_ticks - 1) / std::max(target_ticks, 1));
    for (int k = static_cast<int>(scale.low); k <= static_cast<int>(scale.high); k += stride) {
      scale.ticks.push_back(std::pow(10.0, k));
    }
    return scale;
  }
  scale.low = std::min(0.0, min);
  scale.high = std::max(0.0, max);
  if (scale.high <= scale.low) scale.high = scale.low + 1.0;
  const double step = nice_step(scale.high - scale.low, target_ticks);
  if (round_out) {
    scale.low = std::floor(scale.low / step) * step;
    scale.high = std::ceil(scale.high / step) * step;
  }
  const double first = std::ceil(scale.low / step - 1e-9);
  for (int i = 0;; ++i) {
    const double tick = (first + i) * step;
    if (tick > scale.high + step * 1e-9) break;
    scale.ticks.push_back(std::fabs(tick) < step * 1e-9 ? 0.0 : tick);
  }
  return scale;
}

// Every heatmap holds values in [0, 1] (weights), so one 0-to-1 legend explains them all.
bool unit_heatmaps(const DemoResult& result) {
  return std::all_of(result.tables.begin(), result.tables.end(),
                     [](const Table& table) { return !table.heatmap || HeatScale(table).unit(); });
}

std::size_t points_of(const Series& series, const std::vector<double>& y) {
  return std::min(series.x.size(), y.size());
}

std::vector<double> all_y(const Series& series) {
  std::vector<double> values;
  for (const auto& [label, y] : series.lines) {
    values.insert(values.end(), y.begin(),
                  y.begin() + static_cast<std::ptrdiff_t>(points_of(series, y)));
  }
  return values;
}

std::string table_title(const Table& table) {
  return table.title.empty() ? table.name : table.title;
}
std::string series_title(const Series& series) {
  return series.title.empty() ? series.name : series.title;
}

std::string row_label(const Table& table, Eigen::Index row) {
  const auto index = static_cast<std::size_t>(row);
  return index < table.row_labels.size() ? table.row_labels[index] : std::to_string(row + 1);
}
std::string column_label(const Table& table, Eigen::Index column) {
  const auto index = static_cast<std::size_t>(column);
  return index < table.column_labels.size() ? table.column_labels[index]
                                            : std::to_string(column + 1);
}

bool same_shape(const Table& a, const Table& b) {
  return a.cells.rows() == b.cells.rows() && a.cells.cols() == b.cells.cols();
}

// Two titles "no positional encoding: cat bit dog" and "no positional encoding: dog bit cat"
// share a heading; each figure keeps only what differs.
std::string shared_heading(const std::string& a, const std::string& b) {
  const std::size_t colon = a.find(": ");
  if (colon == std::string::npos || colon == 0 || b.size() <= colon + 2) return {};
  if (a.compare(0, colon + 2, b, 0, colon + 2) != 0 || a.size() <= colon + 2) return {};
  return a.substr(0, colon);
}

// As `--set` takes it: a="cat bit dog", seed=42.
std::string parameter_text(const nlohmann::ordered_json& value) {
  if (!value.is_string()) return value.dump();
  const std::string text = value.get<std::string>();
  return text.empty() || text.find(' ') != std::string::npos ? '"' + text + '"' : text;
}

std::vector<std::pair<std::string, std::string>> parameters(const DemoResult& result) {
  std::vector<std::pair<std::string, std::string>> list;
  if (!result.params.is_object()) return list;
  for (const auto& [key, value] : result.params.items())
    list.emplace_back(key, parameter_text(value));
  return list;
}

// ============================================================================================
// Text
// ============================================================================================


struct Glyphs {
  std::vector<std::string> shades;   // lightest to darkest, the first is blank
  std::vector<std::string> eighths;  // partial bar cells, 1/8 … 7/8 (empty: whole cells)
  std::vector<std::string> sparks;   // sparkline levels
  std::string full, vertical, corner, horizontal, tick, ellipsis, quote, dot, arrow, range;

  static Glyphs unicode() {
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
            .range = "–"};
  }
  static Glyphs ascii() {
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
            .range = "-"};
  }
};

bool has_colour(const Theme& theme) {
  for (const fmt::text_style* style :
       {&theme.error, &theme.warning, &theme.good, &theme.bad, &theme.emphasis, &theme.dim}) {
    if (style->has_foreground() || style->has_background() || style->has_emphasis()) return true;
  }
  return false;
}

// Everything the text renderer decides once: glyphs, styles, how heatmap cells are painted.
struct Look {
  int width = 80;
  Glyphs glyphs;
  fmt::text_style heading;                   // titles
  fmt::text_style dim;                       // secondary lines
  fmt::text_style value;                     // the numbers in the value list
  bool paint_cells = false;                  // 256-colour backgrounds instead of shade characters
  std::vector<fmt::text_style> line_styles;  // bars of a series' lines, cycled

  Look(const Theme& theme, const TextOptions& options)
      : width(std::max(options.width, 1)),
        glyphs(options.unicode ? Glyphs::unicode() : Glyphs::ascii()),
        heading(theme.emphasis),
        dim(theme.dim),
        value(theme.emphasis),
        paint_cells(options.color256 && has_colour(theme)) {
    if (has_colour(theme)) {
      // Readable on dark and light backgrounds alike (blue text is not, on dark ones).
      for (const auto colour :
           {fmt::terminal_color::cyan, fmt::terminal_color::magenta, fmt::terminal_color::green,
            fmt::terminal_color::yellow, fmt::terminal_color::blue, fmt::terminal_color::red}) {
        line_styles.push_back(fmt::fg(colour));
      }
    } else {
      line_styles.emplace_back();
    }
  }

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

std::string styled(const fmt::text_style& style, std::string_view text) {
  return fmt::format(style, "{}", text);
}

// A heatmap cell painted with a 256-colour background: fmt's rgb styles are truecolor, which
// fewer terminals render, so this escape is built by hand (only ever when the theme has colour).
std::string painted(std::string_view text, double fraction) {
  const int background = xterm_shade(fraction);
  const int foreground = needs_light_text(fraction) ? 231 : 16;
  return fmt::format("\x1b[48;5;{}m\x1b[38;5;{}m{}\x1b[0m", background, foreground, text);
}

// The guarantee behind every other function: no line is wider than the terminal. Escape
// sequences take no columns; a line cut inside a style is reset.
std::string clip(const std::string& line, int width) {
  std::string out;
  int used = 0;
  bool escaped = false;
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] == '\x1b') {
      std::size_t end = i + 1;
      if (end < line.size() && line[end] == '[') {
        ++end;
        while (end < line.size() && !(line[end] >= 0x40 && line[end] <= 0x7e))
          ++end;
      }
      end = std::min(end + 1, line.size());
      out.append(line, i, end - i);
      escaped = true;
      i = end;
      continue;
    }
    std::size_t end = i;
    text::decode(line, end);
    const int columns = text::display_width(std::string_view(line).substr(i, end - i));
    if (used + columns > width) {
      if (escaped) out += "\x1b[0m";
      return out;
    }
    out.append(line, i, end - i);
    used += columns;
    i = end;
  }
  return out;
}

// Lines of text all exactly `width` columns wide, to be set side by side.
struct Block {
  std::vector<std::string> lines;
  int width = 0;
};

using Lines = std::vector<std::string>;

void append(Lines& lines, const Lines& more) {
  lines.insert(lines.end(), more.begin(), more.end());
}

Lines styled_wrap(const fmt::text_style& style, std::string_view text, int width,
                  std::string_view indent = {}) {
  Lines lines;
  for (const std::string& line : text::wrap(text, width - text::display_width(indent))) {
    lines.push_back(std::string(indent) + styled(style, line));
  }
  return lines;
}

// --- heatmaps -------------------------------------------------------------------------------

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
  int width = 0;
};

// Grids sit two columns in from their titles.
constexpr int kGridIndent = 2;

int digits(int n) {
  return static_cast<int>(std::to_string(n).size());
}

GridPlan plan_grid(const std::vector<const Table*>& tables, const Look& look, int max_width) {
  int number_width = 1, row_label_width = 1, column_label_width = 1;
  Eigen::Index columns_count = 0;
  bool same_labels = true;
  for (const Table* table : tables) {
    columns_count = std::max(columns_count, table->cells.cols());
    same_labels =
        same_labels && !table->row_labels.empty() && table->row_labels == table->column_labels;
    for (Eigen::Index i = 0; i < table->cells.size(); ++i) {
      number_width = std::max(number_width, text::display_width(format_cell(table->cells.data()[i], 2)));
    }
    for (Eigen::Index r = 0; r < table->cells.rows(); ++r) {
      row_label_width = std::max(row_label_width, text::display_width(one_line(row_label(*table, r))));
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
    const int wanted = std::min(row_label_width, 16) + index;
    const int room = max_width - kGridIndent - 2 - grid_width(cell, count);
    plan.label_width = std::min(wanted, room);
    plan.shown = count;
    plan.width = kGridIndent + plan.label_width + 2 + grid_width(cell, count);
    if (plan.label_width >= (whole_labels ? wanted : std::min(wanted, 4 + index))) return plan;
  }
  // Too many columns even for shades: as many as fit, then an ellipsis.
  const int index = plan.index_digits > 0 ? plan.index_digits + 1 : 0;
  plan.label_width = std::min(std::min(row_label_width, 16) + index, 6 + index);
  const int ellipsis = 1 + text::display_width(look.glyphs.ellipsis);
  plan.shown = std::clamp(
      (max_width - kGridIndent - plan.label_width - 2 - ellipsis + gap) / (plan.cell_width + gap),
      1, std::max(count, 1));
  plan.clipped = plan.shown < count;
  plan.width = kGridIndent + plan.label_width + 2 + grid_width(plan.cell_width, plan.shown) +
               (plan.clipped ? ellipsis : 0);
  return plan;
}

Block heatmap_block(const Table& table, const GridPlan& plan, const Look& look,
                    const std::string& title, const fmt::text_style& title_style) {
  Block block;
  block.width = plan.width;
  const auto add = [&](const std::string& text, const fmt::text_style& style) {
    for (const std::string& line : text::wrap(text, plan.width - kGridIndent)) {
      block.lines.push_back(spaces(kGridIndent) +
                            styled(style, pad_right(line, plan.width - kGridIndent)));
    }
  };
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

// Two heatmaps of one shape side by side, if both fit with their numbers; empty otherwise.
Lines heatmap_pair(const Table& a, const Table& b, const Look& look) {
  const int half = (look.width - kPairGap) / 2;
  const GridPlan plan = plan_grid({&a, &b}, look, half);
  if (!plan.numbers || plan.clipped) return {};
  const std::string title_a = one_line(table_title(a));
  const std::string title_b = one_line(table_title(b));
  const std::string heading = shared_heading(title_a, title_b);
  Lines lines;
  if (!heading.empty()) {
    lines.push_back(styled(look.heading, look.fit(heading, look.width)));
    const std::size_t cut = heading.size() + 2;
    append(lines, side_by_side(heatmap_block(a, plan, look, title_a.substr(cut), {}),
                               heatmap_block(b, plan, look, title_b.substr(cut), {}), kPairGap));
  } else {
    append(lines, side_by_side(heatmap_block(a, plan, look, title_a, look.heading),
                               heatmap_block(b, plan, look, title_b, look.heading), kPairGap));
  }
  return lines;
}

Lines heatmap_single(const Table& table, const Look& look) {
  const GridPlan plan = plan_grid({&table}, look, look.width);
  Lines lines = styled_wrap(look.heading, one_line(table_title(table)), look.width);
  Block block = heatmap_block(table, plan, look, {}, {});
  append(lines, block.lines);
  return lines;
}

// "0 ░░▒▒▓▓██ 1": what the shades mean, once under the heatmaps.
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

// Heatmap groups (pairs where they fit, singles otherwise) and numeric tables, in result order.
struct TableGroup {
  Lines lines;
  bool heatmap = false;
};

Lines numeric_table(const Table& table, const Look& look);

std::vector<TableGroup> table_groups(const DemoResult& result, const Look& look) {
  std::vector<TableGroup> groups;
  const auto& tables = result.tables;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    const Table& table = tables[i];
    if (!table.heatmap) {
      groups.push_back({numeric_table(table, look), false});
      continue;
    }
    if (i + 1 < tables.size() && tables[i + 1].heatmap && same_shape(table, tables[i + 1])) {
      if (Lines pair = heatmap_pair(table, tables[i + 1], look); !pair.empty()) {
        groups.push_back({std::move(pair), true});
        ++i;
        continue;
      }
    }
    groups.push_back({heatmap_single(table, look), true});
  }
  return groups;
}

// --- numeric tables -------------------------------------------------------------------------

Lines numeric_table(const Table& table, const Look& look) {
  Lines lines = styled_wrap(look.heading, one_line(table_title(table)), look.width);
  const Eigen::Index rows = table.cells.rows(), cols = table.cells.cols();
  std::vector<std::vector<std::string>> cells(static_cast<std::size_t>(rows));
  std::vector<int> widths(static_cast<std::size_t>(cols), 1);
  std::vector<std::string> headers;
  for (Eigen::Index c = 0; c < cols; ++c)
    headers.push_back(one_line(column_label(table, c)));
  for (Eigen::Index r = 0; r < rows; ++r) {
    for (Eigen::Index c = 0; c < cols; ++c) {
      std::string text = text::format_short(table.cells(r, c));
      widths[static_cast<std::size_t>(c)] =
          std::max(widths[static_cast<std::size_t>(c)], text::display_width(text));
      cells[static_cast<std::size_t>(r)].push_back(std::move(text));
    }
  }
  int label_width = 0;
  for (Eigen::Index r = 0; r < rows; ++r) {
    label_width = std::max(label_width, text::display_width(one_line(row_label(table, r))));
  }
  label_width = std::min(label_width, std::max(look.width / 3, 4));
  // Column widths: the whole header on one line if every column can have it, else its longest
  // word (the header wraps), else just the numbers (the header wraps inside them).
  const auto total = [&](const std::vector<int>& w, std::size_t shown) {
    int sum = 2 + label_width;
    for (std::size_t c = 0; c < shown; ++c)
      sum += 2 + w[c];
    return sum;
  };
  std::vector<int> whole = widths, by_word = widths;
  for (std::size_t c = 0; c < widths.size(); ++c) {
    whole[c] = std::max(widths[c], std::min(text::display_width(headers[c]), 16));
    int longest_word = 0;
    std::string_view rest = headers[c];
    while (!rest.empty()) {
      const std::size_t space = rest.find(' ');
      longest_word = std::max(longest_word, text::display_width(rest.substr(0, space)));
      rest.remove_prefix(space == std::string_view::npos ? rest.size() : space + 1);
    }
    by_word[c] = std::max(widths[c], std::min(longest_word, 12));
  }
  if (total(whole, whole.size()) <= look.width) {
    widths = whole;
  } else if (total(by_word, by_word.size()) <= look.width) {
    widths = by_word;
  }
  std::size_t shown = widths.size();
  const int ellipsis = 2 + text::display_width(look.glyphs.ellipsis);
  while (shown > 1 && total(widths, shown) + (shown < widths.size() ? ellipsis : 0) > look.width) {
    --shown;
  }
  const bool clipped = shown < widths.size();

  // Headers on up to three lines, bottom-aligned over their numbers.
  constexpr std::size_t kHeaderLines = 3;
  std::vector<Lines> header_cells;
  std::size_t header_height = 1;
  for (std::size_t c = 0; c < shown; ++c) {
    Lines cell = text::wrap(headers[c], widths[c]);
    if (cell.size() > kHeaderLines) {
      cell.resize(kHeaderLines);
      cell.back() = look.fit(cell.back() + " " + look.glyphs.ellipsis, widths[c]);
    }
    header_height = std::max(header_height, cell.size());
    header_cells.push_back(std::move(cell));
  }
  for (std::size_t line = 0; line < header_height; ++line) {
    std::string header = spaces(2 + label_width);
    for (std::size_t c = 0; c < shown; ++c) {
      const Lines& cell = header_cells[c];
      const std::size_t blank = header_height - cell.size();
      header += "  " + pad_left(line < blank ? "" : cell[line - blank], widths[c]);
    }
    if (clipped && line + 1 == header_height) header += "  " + look.glyphs.ellipsis;
    lines.push_back(styled(look.dim, header));
  }
  for (Eigen::Index r = 0; r < rows; ++r) {
    std::string line =
        "  " + pad_right(look.fit(one_line(row_label(table, r)), label_width), label_width);
    for (std::size_t c = 0; c < shown; ++c) {
      line += "  " + pad_left(cells[static_cast<std::size_t>(r)][c], widths[c]);
    }
    lines.push_back(line);
  }
  return lines;
}

// --- series: horizontal bars ------------------------------------------------------------------

std::string series_subtitle(const Series& series, const Look& look) {
  std::string text = one_line(series.y_label);
  if (!series.x_label.empty()) {
    text += (text.empty() ? "by " : " by ") + one_line(series.x_label);
  }
  if (series.log_scale) text += (text.empty() ? "" : " " + look.glyphs.dot + " ") + "log scale";
  return text;
}

// A bar of `cells` columns (fractional with eighth blocks when the glyphs have them).
std::string bar(double cells, const Look& look) {
  if (look.glyphs.eighths.empty()) {
    return repeat(look.glyphs.full, static_cast<int>(std::lround(cells)));
  }
  const long eighths = std::lround(cells * 8.0);
  std::string text = repeat(look.glyphs.full, static_cast<int>(eighths / 8));
  if (eighths % 8 != 0) text += look.glyphs.eighths[static_cast<std::size_t>(eighths % 8 - 1)];
  return text;
}

// Tick labels centred under their ticks, dropped where they would overlap a neighbour.
std::string axis_labels(const std::vector<std::pair<int, std::string>>& ticks, int width) {
  std::string line;
  int used = 0;  // columns written so far
  for (const auto& [position, label] : ticks) {
    const int label_width = text::display_width(label);
    const int start = std::clamp(position - label_width / 2, 0, std::max(width - label_width, 0));
    if (start < used + (used > 0 ? 1 : 0) || start + label_width > width) continue;
    line += spaces(start - used) + label;
    used = start + label_width;
  }
  return line;
}

// One bar of a chart: an x (or a run of x with the same value, "1–20") and its value.
struct BarRow {
  std::string x;
  double value = 0.0;
};

// Consecutive points that read the same (LayerNorm's variance: 1, 1, 1 …) share one bar; runs
// shorter than three stay as they are.
std::vector<BarRow> bar_rows(const Series& series, const std::vector<double>& y, const Look& look) {
  std::vector<BarRow> rows;
  const std::size_t count = points_of(series, y);
  for (std::size_t i = 0; i < count;) {
    std::size_t last = i;
    while (last + 1 < count && text::format_short(y[last + 1]) == text::format_short(y[i]))
      ++last;
    if (last - i >= 2) {
      rows.push_back(
          {text::format_short(series.x[i]) + look.glyphs.range + text::format_short(series.x[last]), y[i]});
      i = last + 1;
    } else {
      rows.push_back({text::format_short(series.x[i]), y[i]});
      ++i;
    }
  }
  return rows;
}

Lines series_bars(const Series& series, const Look& look) {
  Lines lines = styled_wrap(look.heading, one_line(series_title(series)), look.width);
  if (const std::string subtitle = series_subtitle(series, look); !subtitle.empty()) {
    append(lines, styled_wrap(look.dim, subtitle, look.width));
  }
  const std::vector<double> values = all_y(series);
  if (values.empty()) {
    lines.push_back(styled(look.dim, "  (no data)"));
    return lines;
  }
  std::vector<std::vector<BarRow>> rows;
  int x_width = 1, value_width = 1;
  for (const auto& [label, y] : series.lines) {
    rows.push_back(bar_rows(series, y, look));
    for (const BarRow& row : rows.back()) {
      x_width = std::max(x_width, text::display_width(row.x));
      value_width = std::max(value_width, text::display_width(text::format_short(row.value)));
    }
  }
  constexpr int indent = 4;
  const int bar_width = std::clamp(look.width - indent - x_width - 2 - 1 - value_width, 1, 60);
  // Every decade on a log scale; round steps about eight columns apart on a linear one.
  const Scale scale = make_scale(values, series.log_scale,
                                 std::max(bar_width / (series.log_scale ? 5 : 8), 2), false);
  const double zero = scale.log ? 0.0 : std::clamp(scale.fraction(0.0), 0.0, 1.0) * bar_width;
  const int zero_column = static_cast<int>(std::lround(zero));

  for (std::size_t l = 0; l < series.lines.size(); ++l) {
    const std::string& label = series.lines[l].first;
    const fmt::text_style& style = look.line_style(l);
    if (!label.empty() || series.lines.size() > 1) {
      lines.push_back("  " + styled(style, look.fit(one_line(label), look.width - 2)));
    }
    for (const BarRow& row : rows[l]) {
      const double v = row.value;
      std::string drawn;
      if (scale.drawable(v)) {
        const double end = std::clamp(scale.fraction(v), 0.0, 1.0) * bar_width;
        if (v >= 0.0 || scale.log) {
          drawn = spaces(zero_column) + bar(std::max(end - zero, 0.0), look);
          // Every positive value leaves a mark, however short.
          if (text::display_width(drawn) == zero_column && v > 0.0) {
            drawn += look.glyphs.eighths.empty() ? look.glyphs.full : look.glyphs.eighths[0];
          }
        } else {
          const int cells = static_cast<int>(std::lround(zero - end));
          drawn = spaces(zero_column - cells) + repeat(look.glyphs.full, cells);
        }
      }
      lines.push_back(spaces(indent) + pad_left(row.x, x_width) + " " +
                      styled(look.dim, look.glyphs.vertical) + styled(style, drawn) + " " +
                      text::format_short(v));
    }
  }

  // The value axis, shared by every line of the series.
  std::string axis = look.glyphs.corner;
  std::vector<std::pair<int, std::string>> ticks;
  std::vector<int> tick_columns;
  for (const double tick : scale.ticks) {
    const int column = std::clamp(static_cast<int>(std::lround(scale.fraction(tick) * bar_width)),
                                  0, bar_width - 1);
    tick_columns.push_back(column);
    const std::string label = scale.log
                                  ? decade_label(static_cast<int>(std::lround(std::log10(tick))))
                                  : text::format_short(tick);
    ticks.emplace_back(x_width + 2 + column, label);
  }
  for (int c = 0; c < bar_width; ++c) {
    const bool is_tick =
        std::find(tick_columns.begin(), tick_columns.end(), c) != tick_columns.end();
    axis += is_tick ? look.glyphs.tick : look.glyphs.horizontal;
  }
  lines.push_back(spaces(indent + x_width + 1) + styled(look.dim, axis));
  lines.push_back(spaces(indent) + styled(look.dim, axis_labels(ticks, look.width - indent)));
  return lines;
}

// "no normalization  ▁▁▂▃▄▅▆█  2.01 → 1,052,871": the series' title, then one line per series
// line, all on one scale and of one length, for the compact form.
Lines series_sparklines(const Series& series, const Look& look) {
  std::string title = one_line(series_title(series));
  if (series.log_scale) title += " " + look.glyphs.dot + " log scale";
  Lines lines = styled_wrap(look.heading, title, look.width);
  const Scale scale = make_scale(all_y(series), series.log_scale, 2, false);
  int label_width = 0, range_width = 0;
  std::size_t count = 0;
  const auto range_of = [&](const std::vector<double>& y, std::size_t points) {
    return text::format_short(y.front()) + " " + look.glyphs.arrow + " " + text::format_short(y[points - 1]);
  };
  for (const auto& [label, y] : series.lines) {
    const std::size_t points = points_of(series, y);
    if (points == 0) continue;
    label_width = std::max(label_width, text::display_width(one_line(label)));
    range_width = std::max(range_width, text::display_width(range_of(y, points)));
    count = std::max(count, points);
  }
  label_width = std::min(label_width, look.width / 3);
  const int room = look.width - 2 - label_width - 2 - 2 - range_width;
  const int shown = std::min(static_cast<int>(count), std::max(room, 1));
  const auto levels = static_cast<double>(look.glyphs.sparks.size() - 1);
  for (std::size_t l = 0; l < series.lines.size(); ++l) {
    const auto& [label, y] = series.lines[l];
    const std::size_t points = points_of(series, y);
    if (points == 0) continue;
    std::string spark;
    for (int i = 0; i < shown; ++i) {
      // Evenly spaced samples when the line has more points than columns.
      const auto index = static_cast<std::size_t>(
          shown == 1 ? 0 : std::lround(i * static_cast<double>(points - 1) / (shown - 1)));
      const double v = y[index];
      spark += scale.drawable(v) ? look.glyphs.sparks[static_cast<std::size_t>(std::lround(
                                       std::clamp(scale.fraction(v), 0.0, 1.0) * levels))]
                                 : " ";
    }
    lines.push_back("  " + pad_right(look.fit(one_line(label), label_width), label_width) +
                    "  " + styled(look.line_style(l), spark) + "  " +
                    styled(look.dim, range_of(y, points)));
  }
  return lines;
}

// --- values ---------------------------------------------------------------------------------

Lines value_list(const std::vector<std::pair<std::string, Value>>& values, const Look& look) {
  int name_width = 1, value_width = 1;
  for (const auto& [name, value] : values) {
    name_width = std::max(name_width, text::display_width(one_line(name)));
    value_width = std::max(value_width, text::display_width(format_value(value)));
  }
  name_width = std::min(name_width, std::max(look.width - 6 - value_width, 4));
  Lines lines;
  for (const auto& [name, value] : values) {
    lines.push_back("  " + pad_right(look.fit(one_line(name), name_width), name_width) + "  " +
                    styled(look.value, pad_left(format_value(value), value_width)));
  }
  return lines;
}

// Values in two columns when they fit, to keep quiz feedback short.
Lines value_columns(const std::vector<std::pair<std::string, Value>>& values, const Look& look) {
  int name_width = 1, value_width = 1;
  for (const auto& [name, value] : values) {
    name_width = std::max(name_width, text::display_width(one_line(name)));
    value_width = std::max(value_width, text::display_width(format_value(value)));
  }
  const int cell = name_width + 2 + value_width;
  if (values.size() < 2 || 2 + cell + 4 + cell > look.width) return value_list(values, look);
  Lines lines;
  const std::size_t half = (values.size() + 1) / 2;
  const auto entry = [&](const std::pair<std::string, Value>& item) {
    return pad_right(one_line(item.first), name_width) + "  " +
           styled(look.value, pad_left(format_value(item.second), value_width));
  };
  for (std::size_t i = 0; i < half; ++i) {
    std::string line = "  " + entry(values[i]);
    if (i + half < values.size()) line += "    " + entry(values[i + half]);
    lines.push_back(line);
  }
  return lines;
}

// --- the two forms --------------------------------------------------------------------------

std::string meta_line(const DemoInfo& info, const DemoResult& result, const Look& look) {
  std::string meta = one_line(info.name.empty() ? result.demo : info.name);
  if (!info.section.empty()) meta += " " + look.glyphs.dot + " " + one_line(info.section);
  return meta;
}

Lines header_lines(const DemoResult& result, const DemoInfo& info, const Look& look) {
  const std::string title = one_line(info.title.empty() ? info.name : info.title);
  const std::string meta = meta_line(info, result, look);
  Lines lines;
  if (text::display_width(title) + 4 + text::display_width(meta) <= look.width) {
    lines.push_back(styled(look.heading, title) +
                    spaces(look.width - text::display_width(title) - text::display_width(meta)) + styled(look.dim, meta));
  } else {
    append(lines, styled_wrap(look.heading, title, look.width));
    append(lines, styled_wrap(look.dim, meta, look.width));
  }
  return lines;
}

Lines full_text(const DemoResult& result, const DemoInfo& info, const Look& look) {
  std::vector<Lines> sections;
  Lines head = header_lines(result, info, look);
  if (!info.claim.empty()) {
    for (const std::string& line : text::wrap(one_line(info.claim), look.width - 2)) {
      head.push_back(styled(look.dim, look.glyphs.quote) + line);
    }
  }
  if (const auto params = parameters(result); !params.empty()) {
    std::string text = "parameters:";
    for (std::size_t i = 0; i < params.size(); ++i) {
      text += (i == 0 ? " " : " " + look.glyphs.dot + " ") + one_line(params[i].first) + "=" +
              one_line(params[i].second);
    }
    append(head, styled_wrap(look.dim, text, look.width));
  }
  sections.push_back(std::move(head));

  std::vector<TableGroup> groups = table_groups(result, look);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    // The shade legend goes under the last heatmap.
    const bool last_heatmap =
        groups[g].heatmap && std::none_of(groups.begin() + static_cast<std::ptrdiff_t>(g) + 1,
                                          groups.end(), [](const auto& x) { return x.heatmap; });
    if (last_heatmap) {
      groups[g].lines.push_back(unit_heatmaps(result)
                                    ? heatmap_legend(look)
                                    : spaces(kGridIndent) +
                                          styled(look.dim, "shades span each table's own range"));
    }
    sections.push_back(std::move(groups[g].lines));
  }
  for (const Series& series : result.series)
    sections.push_back(series_bars(series, look));
  if (!result.values.empty()) {
    Lines values{styled(look.heading, "Values")};
    append(values, value_list(result.values, look));
    sections.push_back(std::move(values));
  }
  for (const std::string& paragraph : result.text) {
    sections.push_back(text::wrap(text::terminal_safe(paragraph), look.width));
  }

  Lines lines;
  for (const Lines& section : sections) {
    if (section.empty()) continue;
    if (!lines.empty()) lines.emplace_back();
    append(lines, section);
  }
  return lines;
}

// Quiz feedback: the heatmaps and charts that fit in about a dozen lines, then six values.
Lines compact_text(const DemoResult& result, const DemoInfo& info, const Look& look) {
  constexpr std::size_t kMaxLines = 12;
  constexpr std::size_t kMaxValues = 6;
  const std::string title = one_line(info.title.empty() ? info.name : info.title);
  const std::string name = one_line(info.name.empty() ? result.demo : info.name);
  const std::string suffix = " " + look.glyphs.dot + " " + name;
  Lines lines{text::display_width(title) + text::display_width(suffix) <= look.width
                  ? styled(look.heading, title) + styled(look.dim, suffix)
                  : styled(look.heading, look.fit(title, look.width))};

  // The first figure is the picture the feedback is for: it comes before the values, which keep
  // at least two lines and give up the rest when the figure needs them.
  std::vector<std::pair<std::string, Value>> values(
      result.values.begin(), result.values.begin() + static_cast<std::ptrdiff_t>(std::min(
                                                         result.values.size(), kMaxValues)));
  const std::size_t value_reserve = std::min<std::size_t>(value_columns(values, look).size(), 2);
  std::vector<Lines> candidates;
  for (TableGroup& group : table_groups(result, look)) {
    if (group.heatmap) candidates.push_back(std::move(group.lines));
  }
  for (const Series& series : result.series)
    candidates.push_back(series_sparklines(series, look));
  const std::size_t figures_total =
      candidates.size() +
      static_cast<std::size_t>(std::count_if(result.tables.begin(), result.tables.end(),
                                             [](const Table& table) { return !table.heatmap; }));

  std::size_t budget = kMaxLines - lines.size() - value_reserve;
  std::size_t shown = 0;
  for (Lines& figure : candidates) {
    if (figure.size() > budget) continue;
    budget -= figure.size();
    append(lines, figure);
    ++shown;
  }
  Lines value_lines = value_columns(values, look);
  while (!values.empty() && lines.size() + value_lines.size() > kMaxLines) {
    values.pop_back();
    value_lines = value_columns(values, look);
  }
  append(lines, value_lines);
  if (shown < figures_total && lines.size() < kMaxLines) {
    const std::size_t left_out = figures_total - shown;
    lines.push_back(
        styled(look.dim, look.fit(fmt::format("{} more {}: proofdeck demo run {}", left_out,
                                              left_out == 1 ? "figure" : "figures", name),
                                  look.width)));
  }
  return lines;
}

// ============================================================================================
// Markdown
// ============================================================================================

std::string md_row(const std::vector<std::string>& cells) {
  std::string row = "|";
  for (const std::string& cell : cells)
    row += " " + cell + " |";
  return row + "\n";
}

std::string md_rule(std::size_t count, bool first_left) {
  std::string row = "|";
  for (std::size_t i = 0; i < count; ++i)
    row += (i == 0 && first_left) ? " --- |" : " ---: |";
  return row + "\n";
}

// A table under its own heading, or under a caption when a pair shares the heading.
void md_table(std::string& out, const Table& table, const std::string& caption = {}) {
  out += caption.empty() ? "### " + text::markdown_cell(table_title(table)) + "\n\n"
                         : "*" + text::markdown_cell(caption) + "*\n\n";
  std::vector<std::string> header{""};
  for (Eigen::Index c = 0; c < table.cells.cols(); ++c)
    header.push_back(text::markdown_cell(column_label(table, c)));
  out += md_row(header) + md_rule(header.size(), true);
  for (Eigen::Index r = 0; r < table.cells.rows(); ++r) {
    std::vector<std::string> row{"**" + text::markdown_cell(row_label(table, r)) + "**"};
    for (Eigen::Index c = 0; c < table.cells.cols(); ++c) {
      row.push_back(table.heatmap ? format_cell(table.cells(r, c), 3)
                                  : text::format_short(table.cells(r, c)));
    }
    out += md_row(row);
  }
  out += "\n";
}

void md_series(std::string& out, const Series& series) {
  const Look look(Theme::plain(), TextOptions{TextForm::full, 80, true, false});
  out += "### " + text::markdown_cell(series_title(series)) + "\n\n";
  if (const std::string subtitle = series_subtitle(series, look); !subtitle.empty()) {
    out += "*" + text::markdown_cell(subtitle) + "*\n\n";
  }
  std::vector<std::string> header{series.x_label.empty() ? "x" : text::markdown_cell(series.x_label)};
  for (const auto& [label, y] : series.lines)
    header.push_back(text::markdown_cell(label));
  out += md_row(header) + md_rule(header.size(), false);
  for (std::size_t i = 0; i < series.x.size(); ++i) {
    std::vector<std::string> row{text::format_short(series.x[i])};
    for (const auto& [label, y] : series.lines)
      row.push_back(i < y.size() ? text::format_short(y[i]) : "");
    out += md_row(row);
  }
  // The picture too: a fenced copy of the terminal bar chart, without its title.
  Lines bars = series_bars(series, look);
  const std::size_t skip = 1 + (series_subtitle(series, look).empty() ? 0 : 1);
  std::string picture;
  for (std::size_t i = std::min(skip, bars.size()); i < bars.size(); ++i) {
    std::string line = bars[i];
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    picture += line + "\n";
  }
  // The fence is longer than any run of backticks a label could bring into the picture.
  std::size_t run = 0, longest = 0;
  for (const char c : picture) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
  out += "\n" + fence + "text\n" + picture + fence + "\n\n";
}

// ============================================================================================
// HTML
// ============================================================================================

std::string px(double v) {
  std::string text = fmt::format("{:.1f}", v);
  text::strip_trailing_zeros(text);
  return text == "-0" ? "0" : text;
}

// Approximate width of SVG text in the monospace face the charts use.
double text_width(std::string_view text, double font_size) {
  return text::display_width(text) * font_size * 0.6;
}

constexpr std::string_view kSvgFont =
    R"(font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace")";
constexpr std::array<std::string_view, 6> kLineColours{"#2166ac", "#d6604d", "#1b7837",
                                                       "#762a83", "#b35806", "#01665e"};
// Dashes tell the lines apart on a black-and-white printout.
constexpr std::array<std::string_view, 4> kLineDashes{"", "7 4", "2 3", "9 3 2 3"};

using Out = std::back_insert_iterator<std::string>;

std::string svg_heatmap(const Table& table) {
  constexpr double font = 12.0;
  constexpr std::size_t max_label = 18;
  std::size_t column_label_chars = 1, row_label_chars = 1;
  for (Eigen::Index c = 0; c < table.cells.cols(); ++c) {
    column_label_chars =
        std::max(column_label_chars, static_cast<std::size_t>(text::display_width(column_label(table, c))));
  }
  for (Eigen::Index r = 0; r < table.cells.rows(); ++r) {
    row_label_chars =
        std::max(row_label_chars, static_cast<std::size_t>(text::display_width(row_label(table, r))));
  }
  column_label_chars = std::min(column_label_chars, max_label);
  row_label_chars = std::min(row_label_chars, max_label);
  // Numbers in the cells up to 12 columns; beyond, smaller cells and the number as a tooltip.
  // Column labels longer than a cell are set at 45°.
  const bool numbers = table.cells.cols() <= 12;
  const double cell_width = numbers ? 46.0 : 24.0;
  const double cell_height = numbers ? 30.0 : 22.0;
  const double column_label_width = text_width(std::string(column_label_chars, 'x'), font);
  const bool slanted = column_label_width > cell_width - 6.0;
  const double left = text_width(std::string(row_label_chars, 'x'), font) + 12.0;
  const double top = slanted ? column_label_width * 0.71 + 14.0 : 22.0;
  // Slanted labels lean right, past the last column.
  const double right = slanted ? column_label_width * 0.71 : 0.0;
  const double width = left + static_cast<double>(table.cells.cols()) * cell_width + right + 1.0;
  const double height = top + static_cast<double>(table.cells.rows()) * cell_height + 1.0;
  const auto label_text = [&](const std::string& label) {
    return text::markup_escape(text::truncate(label, static_cast<int>(max_label), "…"));
  };

  std::string svg;
  Out out(svg);
  fmt::format_to(out,
                 R"(<svg class="heatmap" width="{0}" height="{1}" viewBox="0 0 {0} {1}" )"
                 R"(role="img" aria-label="{2}" {3} font-size="12">)"
                 "\n<title>{2}</title>\n",
                 px(width), px(height), text::markup_escape(table_title(table)), kSvgFont);
  for (Eigen::Index c = 0; c < table.cells.cols(); ++c) {
    const double x = left + (static_cast<double>(c) + 0.5) * cell_width;
    if (slanted) {
      fmt::format_to(
          out,
          R"svg(<text transform="translate({} {}) rotate(-45)" fill="#24292f">{}</text>)svg"
          "\n",
          px(x - 3.0), px(top - 6.0), label_text(column_label(table, c)));
    } else {
      fmt::format_to(out,
                     R"(<text x="{}" y="{}" text-anchor="middle" fill="#24292f">{}</text>)"
                     "\n",
                     px(x), px(top - 8.0), label_text(column_label(table, c)));
    }
  }
  const HeatScale scale(table);
  for (Eigen::Index r = 0; r < table.cells.rows(); ++r) {
    const double y = top + static_cast<double>(r) * cell_height;
    fmt::format_to(out,
                   R"(<text x="{}" y="{}" text-anchor="end" dominant-baseline="central" )"
                   R"(fill="#24292f">{}</text>)"
                   "\n",
                   px(left - 8.0), px(y + cell_height / 2), label_text(row_label(table, r)));
    for (Eigen::Index c = 0; c < table.cells.cols(); ++c) {
      const double v = table.cells(r, c);
      const double fraction = scale(v);
      const double x = left + static_cast<double>(c) * cell_width;
      fmt::format_to(out,
                     R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}" stroke="#ffffff">)"
                     R"(<title>{} → {}: {}</title></rect>)"
                     "\n",
                     px(x), px(y), px(cell_width), px(cell_height), hex(ramp_colour(fraction)),
                     text::markup_escape(row_label(table, r)), text::markup_escape(column_label(table, c)),
                     format_cell(v, 3));
      if (numbers) {
        fmt::format_to(out,
                       R"(<text x="{}" y="{}" text-anchor="middle" dominant-baseline="central" )"
                       R"(fill="{}">{}</text>)"
                       "\n",
                       px(x + cell_width / 2), px(y + cell_height / 2),
                       needs_light_text(fraction) ? "#ffffff" : "#1f2328", format_cell(v, 2));
      }
    }
  }
  svg += "</svg>";
  return svg;
}

std::string svg_legend() {
  constexpr int steps = 10;
  constexpr double swatch = 18.0;
  std::string svg;
  Out out(svg);
  fmt::format_to(out,
                 R"(<svg class="legend" width="{0}" height="18" viewBox="0 0 {0} 18" )"
                 R"(role="img" aria-label="shade scale from 0 to 1" {1} font-size="11">)"
                 "\n",
                 px(steps * swatch + 44.0), kSvgFont);
  fmt::format_to(out, R"(<text x="12" y="9" text-anchor="end" dominant-baseline="central">0</text>)"
                      "\n");
  for (int i = 0; i < steps; ++i) {
    fmt::format_to(out,
                   R"(<rect x="{}" y="2" width="{}" height="14" fill="{}"/>)"
                   "\n",
                   px(16.0 + i * swatch), px(swatch), hex(ramp_colour(i / (steps - 1.0))));
  }
  fmt::format_to(out,
                 R"(<rect x="16" y="2" width="{}" height="14" fill="none" stroke="#d0d7de"/>)"
                 "\n"
                 R"(<text x="{}" y="9" dominant-baseline="central">1</text>)"
                 "\n</svg>",
                 px(steps * swatch), px(20.0 + steps * swatch));
  return svg;
}

std::string y_tick_label(double tick, bool log) {
  if (!log) return text::markup_escape(text::format_short(tick));
  const int exponent = static_cast<int>(std::lround(std::log10(tick)));
  return fmt::format(R"(10<tspan dy="-6" font-size="9">{}</tspan>)", exponent);
}

// A line chart (several lines) or a bar chart (one line): value axis linear or log10, with tick
// labels and grid lines, a legend and tooltips.
std::string svg_chart(const Series& series) {
  constexpr double width = 640.0, font = 12.0;
  constexpr double margin_left = 70.0, margin_right = 20.0, margin_bottom = 48.0;
  const bool bars = series.lines.size() == 1;
  const std::vector<double> values = all_y(series);
  // Every decade on a log axis (as far as ten of them); about six round steps on a linear one.
  const Scale scale = make_scale(values, series.log_scale, series.log_scale ? 10 : 6, true);

  // Legend rows above the plot.
  std::vector<std::pair<double, double>> legend_at;  // (x, y) per line
  double legend_x = margin_left, legend_y = 16.0;
  if (!bars) {
    for (const auto& [label, y] : series.lines) {
      const double item = 34.0 + text_width(label, font) + 18.0;
      if (legend_x + item > width - margin_right && legend_x > margin_left) {
        legend_x = margin_left;
        legend_y += 20.0;
      }
      legend_at.emplace_back(legend_x, legend_y);
      legend_x += item;
    }
  }
  const double margin_top = bars ? 16.0 : legend_y + 18.0;
  const double height = margin_top + 260.0 + margin_bottom;
  const double plot_left = margin_left, plot_right = width - margin_right;
  const double plot_top = margin_top, plot_bottom = height - margin_bottom;
  const auto y_of = [&](double v) {
    return plot_bottom - std::clamp(scale.fraction(v), 0.0, 1.0) * (plot_bottom - plot_top);
  };

  const std::size_t count = series.x.size();
  double x_min = 0.0, x_max = 1.0;
  if (count > 0) {
    x_min = *std::min_element(series.x.begin(), series.x.end());
    x_max = *std::max_element(series.x.begin(), series.x.end());
  }
  if (x_max <= x_min) x_max = x_min + 1.0;
  // Bars, and x values that are not evenly spaced (head counts 1, 2, 4 … 128), sit at evenly
  // spaced positions labelled with their values; evenly spaced x on a linear axis.
  bool evenly_spaced = true;
  for (std::size_t i = 2; i < count; ++i) {
    const double step = series.x[1] - series.x[0];
    evenly_spaced = evenly_spaced && std::fabs(series.x[i] - series.x[i - 1] - step) <=
                                         1e-9 * std::max(std::fabs(step), 1.0);
  }
  const bool categories = bars || (!evenly_spaced && count <= 40);
  const double band =
      (plot_right - plot_left) / static_cast<double>(std::max<std::size_t>(count, 1));
  const auto x_of = [&](std::size_t i, double x) {
    if (categories) return plot_left + (static_cast<double>(i) + 0.5) * band;
    return plot_left + 10.0 + (x - x_min) / (x_max - x_min) * (plot_right - plot_left - 20.0);
  };

  std::string svg;
  Out out(svg);
  const std::string title = text::markup_escape(series_title(series));
  fmt::format_to(out,
                 R"(<svg class="chart" width="{0}" height="{1}" viewBox="0 0 {0} {1}" )"
                 R"(role="img" aria-label="{2}" {3} font-size="12">)"
                 "\n<title>{2}</title>\n",
                 px(width), px(height), title, kSvgFont);

  // Grid and value-axis ticks (log: minor ticks at 2…9 × 10^k when the decades have room).
  for (const double tick : scale.ticks) {
    const double y = y_of(tick);
    fmt::format_to(out,
                   R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#e6e8eb"/>)"
                   "\n"
                   R"(<text x="{3}" y="{1}" text-anchor="end" dominant-baseline="central" )"
                   R"(fill="#424a53">{4}</text>)"
                   "\n",
                   px(plot_left), px(y), px(plot_right), px(plot_left - 8.0),
                   y_tick_label(tick, scale.log));
  }
  if (scale.log && scale.high - scale.low <= 8.0) {
    for (int k = static_cast<int>(scale.low); k < static_cast<int>(scale.high); ++k) {
      for (int m = 2; m <= 9; ++m) {
        const double y = y_of(m * std::pow(10.0, k));
        fmt::format_to(out,
                       R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#57606a"/>)"
                       "\n",
                       px(plot_left - 3.0), px(y), px(plot_left));
      }
    }
  }

  // Category or value ticks on the x axis, thinned so labels never collide.
  std::size_t widest = 1;
  for (const double x : series.x)
    widest = std::max(widest, static_cast<std::size_t>(text::display_width(text::format_short(x))));
  const double label_room = static_cast<double>(widest) * font * 0.6 + 10.0;
  const bool integral_x =
      std::all_of(series.x.begin(), series.x.end(), [](double x) { return x == std::trunc(x); });
  std::vector<std::pair<double, std::string>> x_ticks;
  if (categories || (integral_x && count <= 30)) {
    const double spacing =
        categories ? band
                   : (plot_right - plot_left - 20.0) /
                         static_cast<double>(std::max<std::size_t>(count > 0 ? count - 1 : 1, 1));
    const auto stride = static_cast<std::size_t>(std::max(1.0, std::ceil(label_room / spacing)));
    for (std::size_t i = 0; i < count; i += stride) {
      x_ticks.emplace_back(x_of(i, series.x[i]), text::format_short(series.x[i]));
    }
  } else {
    const Scale x_scale = make_scale({x_min, x_max}, false, 6, false);
    for (const double tick : x_scale.ticks) {
      if (tick >= x_min && tick <= x_max) x_ticks.emplace_back(x_of(0, tick), text::format_short(tick));
    }
  }
  for (const auto& [x, label] : x_ticks) {
    fmt::format_to(out,
                   R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#57606a"/>)"
                   "\n"
                   R"(<text x="{0}" y="{3}" text-anchor="middle" fill="#424a53">{4}</text>)"
                   "\n",
                   px(x), px(plot_bottom), px(plot_bottom + 4.0), px(plot_bottom + 18.0),
                   text::markup_escape(label));
  }

  // The data.
  const std::string x_name = series.x_label.empty() ? "x" : series.x_label;
  if (bars && !series.lines.empty()) {
    const auto& [label, y] = series.lines.front();
    const double zero = scale.log ? plot_bottom : y_of(std::clamp(0.0, scale.low, scale.high));
    const double bar_width = band * 0.7;
    const bool show_values = count <= 16;
    for (std::size_t i = 0; i < points_of(series, y); ++i) {
      if (!scale.drawable(y[i])) continue;
      const double top = y_of(y[i]);
      const double x = x_of(i, series.x[i]);
      fmt::format_to(out,
                     R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}">)"
                     R"(<title>{} {}: {}</title></rect>)"
                     "\n",
                     px(x - bar_width / 2), px(std::min(top, zero)), px(bar_width),
                     px(std::fabs(zero - top)), kLineColours[0], text::markup_escape(x_name),
                     text::format_short(series.x[i]), text::format_short(y[i]));
      if (show_values) {
        // Above a bar that rises, below one that falls.
        const double label_y = y[i] < 0.0 && !scale.log ? top + 12.0 : std::min(top, zero) - 4.0;
        fmt::format_to(out,
                       R"(<text x="{}" y="{}" text-anchor="middle" font-size="10" )"
                       R"(fill="#24292f">{}</text>)"
                       "\n",
                       px(x), px(label_y), text::markup_escape(text::format_short(y[i])));
      }
    }
  } else {
    for (std::size_t l = 0; l < series.lines.size(); ++l) {
      const auto& [label, y] = series.lines[l];
      const std::string_view colour = kLineColours[l % kLineColours.size()];
      const std::string_view dash = kLineDashes[l % kLineDashes.size()];
      const std::string dash_attribute =
          dash.empty() ? std::string() : fmt::format(R"( stroke-dasharray="{}")", dash);
      // A value the scale cannot draw (≤ 0 on a log axis) breaks the line.
      std::string points;
      const auto flush = [&] {
        if (points.empty()) return;
        fmt::format_to(out,
                       R"(<polyline points="{}" fill="none" stroke="{}" stroke-width="2"{}/>)"
                       "\n",
                       points, colour, dash_attribute);
        points.clear();
      };
      for (std::size_t i = 0; i < points_of(series, y); ++i) {
        if (!scale.drawable(y[i])) {
          flush();
          continue;
        }
        points += (points.empty() ? "" : " ") + px(x_of(i, series.x[i])) + "," + px(y_of(y[i]));
      }
      flush();
      for (std::size_t i = 0; i < points_of(series, y); ++i) {
        if (!scale.drawable(y[i])) continue;
        fmt::format_to(out,
                       R"(<circle cx="{}" cy="{}" r="3" fill="{}"><title>{}, {} {}: {}</title>)"
                       R"(</circle>)"
                       "\n",
                       px(x_of(i, series.x[i])), px(y_of(y[i])), colour, text::markup_escape(label),
                       text::markup_escape(x_name), text::format_short(series.x[i]), text::format_short(y[i]));
      }
      const auto [lx, ly] = legend_at[l];
      fmt::format_to(
          out,
          R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="{3}" stroke-width="2"{4}/>)"
          "\n"
          R"(<text x="{5}" y="{1}" dominant-baseline="central" fill="#24292f">{6}</text>)"
          "\n",
          px(lx), px(ly), px(lx + 26.0), colour, dash_attribute, px(lx + 32.0), text::markup_escape(label));
    }
  }

  // Axes and their labels.
  // A bar chart has no legend: its one line's label names the axis when the series does not.
  std::string y_name = series.y_label.empty() && bars && !series.lines.empty()
                           ? series.lines.front().first
                           : series.y_label;
  if (scale.log) y_name += y_name.empty() ? "log scale" : " (log scale)";
  fmt::format_to(out,
                 R"(<path d="M{0} {1} V{2} H{3}" fill="none" stroke="#57606a"/>)"
                 "\n"
                 R"(<text x="{4}" y="{5}" text-anchor="middle" fill="#24292f">{6}</text>)"
                 "\n"
                 R"svg(<text transform="translate(16 {7}) rotate(-90)" text-anchor="middle" )svg"
                 R"(fill="#24292f">{8}</text>)"
                 "\n</svg>",
                 px(plot_left), px(plot_top), px(plot_bottom), px(plot_right),
                 px((plot_left + plot_right) / 2), px(plot_bottom + 38.0), text::markup_escape(x_name),
                 px((plot_top + plot_bottom) / 2), text::markup_escape(y_name));
  return svg;
}

std::string html_matrix(const Table& table) {
  std::string html;
  Out out(html);
  fmt::format_to(out, "<table class=\"matrix\">\n<caption>{}</caption>\n<thead><tr><th></th>",
                 text::markup_escape(table_title(table)));
  for (Eigen::Index c = 0; c < table.cells.cols(); ++c) {
    fmt::format_to(out, "<th scope=\"col\">{}</th>", text::markup_escape(column_label(table, c)));
  }
  html += "</tr></thead>\n<tbody>\n";
  for (Eigen::Index r = 0; r < table.cells.rows(); ++r) {
    fmt::format_to(out, "<tr><th scope=\"row\">{}</th>", text::markup_escape(row_label(table, r)));
    for (Eigen::Index c = 0; c < table.cells.cols(); ++c) {
      fmt::format_to(out, "<td>{}</td>", text::markup_escape(text::format_short(table.cells(r, c))));
    }
    html += "</tr>\n";
  }
  html += "</tbody>\n</table>\n";
  return html;
}

std::string html_heatmap_figure(const Table& table, const std::string& caption) {
  return fmt::format("<figure class=\"heatmap\">\n<figcaption>{}</figcaption>\n{}\n</figure>\n",
                     text::markup_escape(caption), svg_heatmap(table));
}

}  // namespace

// ============================================================================================
// Public API
// ============================================================================================

std::string render_text(const DemoResult& result, const DemoInfo& info, const Theme& theme,
                        const TextOptions& options) {
  const Look look(theme, options);
  const Lines lines = options.form == TextForm::compact ? compact_text(result, info, look)
                                                        : full_text(result, info, look);
  std::string text;
  for (const std::string& line : lines) {
    std::string fitted = clip(line, look.width);
    // Padding at the end of a line is invisible in a terminal and noise in a file.
    while (!fitted.empty() && fitted.back() == ' ')
      fitted.pop_back();
    text += fitted + "\n";
  }
  return text;
}

std::string render_markdown(const DemoResult& result, const DemoInfo& info) {
  std::string out;
  out += "## " + text::markdown_cell(info.title.empty() ? info.name : info.title) + "\n\n";
  if (!info.claim.empty()) out += "> " + text::markdown_cell(info.claim) + "\n\n";
  std::string meta = text::markdown_code(info.name.empty() ? result.demo : info.name);
  if (!info.section.empty()) meta += " · " + text::markdown_cell(info.section);
  out += meta + "\n\n";
  if (const auto params = parameters(result); !params.empty()) {
    out += "Parameters:";
    for (const auto& [key, value] : params)
      out += " " + text::markdown_code(key + "=" + value);
    out += "\n\n";
  }
  const auto& tables = result.tables;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    const bool pair = tables[i].heatmap && i + 1 < tables.size() && tables[i + 1].heatmap &&
                      same_shape(tables[i], tables[i + 1]);
    const std::string heading =
        pair ? shared_heading(table_title(tables[i]), table_title(tables[i + 1])) : "";
    if (heading.empty()) {
      md_table(out, tables[i]);
      continue;
    }
    out += "### " + text::markdown_cell(heading) + "\n\n";
    md_table(out, tables[i], table_title(tables[i]).substr(heading.size() + 2));
    md_table(out, tables[i + 1], table_title(tables[i + 1]).substr(heading.size() + 2));
    ++i;
  }
  for (const Series& series : result.series)
    md_series(out, series);
  if (!result.values.empty()) {
    out += "### Values\n\n" + md_row({"value", "result"}) + md_rule(2, true);
    for (const auto& [name, value] : result.values)
      out += md_row({text::markdown_code(name), format_value(value)});
    out += "\n";
  }
  for (const std::string& paragraph : result.text)
    out += text::markdown_escape(paragraph) + "\n\n";
  while (out.size() > 1 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n')
    out.pop_back();
  return out;
}

const std::string& html_stylesheet() {
  static const std::string css = R"(:root { color-scheme: light; }
body { margin: 2rem auto; max-width: 62rem; padding: 0 1.25rem; color: #1f2328; background: #ffffff;
  font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
section.demo { margin: 0 0 3.5rem; }
section.demo > header h2 { margin: 0; font-size: 1.6rem; line-height: 1.25; }
section.demo h3 { margin: 2rem 0 .6rem; font-size: 1.1rem; }
.meta { margin: .3rem 0 1rem; color: #59636e; font-size: .9rem; }
.params { margin: .75rem 0 1.5rem; color: #59636e; font-size: .85rem; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em;
  background: #f3f4f6; padding: .05em .3em; border-radius: 3px; }
blockquote.claim { margin: 1rem 0; padding: .6rem 1rem; border-left: 4px solid #2166ac;
  background: #f2f7fc; font-size: 1.05rem; }
blockquote.claim p { margin: 0; }
.heatmaps { display: flex; flex-wrap: wrap; gap: 1.25rem 3rem; align-items: flex-start; }
.pair-title { margin: 0 0 .4rem; font-weight: 600; }
.pair-figures { display: flex; flex-wrap: wrap; gap: 1.25rem 2rem; }
figure { margin: 0 0 1.25rem; }
figure.chart { margin: 1.5rem 0; }
figcaption { margin: 0 0 .35rem; font-size: .9rem; font-weight: 600; }
.pair-figures figcaption { font-weight: 400; color: #424a53; }
figure.legend { margin: -.25rem 0 1.5rem; display: flex; align-items: center; gap: .6rem; }
figure.legend figcaption { margin: 0; font-size: .8rem; font-weight: 400; color: #59636e; }
svg { max-width: 100%; height: auto; overflow: visible; }
table { border-collapse: collapse; margin: .5rem 0 1.5rem; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding-bottom: .35rem; }
th, td { padding: .25rem .8rem; border-bottom: 1px solid #d8dee4; }
thead th { border-bottom: 2px solid #afb8c1; text-align: right; }
thead th:first-child { text-align: left; }
tbody th { text-align: left; font-weight: 500; }
td { text-align: right; }
table.values td:first-child { text-align: left; }
.notes p { margin: .6rem 0; max-width: 48rem; }
section.demo { overflow-wrap: anywhere; }
* { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
@media print {
  @page { margin: 16mm 14mm; }
  body { margin: 0; max-width: none; padding: 0; font-size: 11pt; }
  section.demo { margin-bottom: 2rem; }
  figure, .heatmap-pair, table, blockquote, svg { break-inside: avoid; page-break-inside: avoid; }
  h2, h3, .pair-title, caption { break-after: avoid; page-break-after: avoid; }
}
)";
  return css;
}

std::string render_html_section(const DemoResult& result, const DemoInfo& info) {
  const std::string name = info.name.empty() ? result.demo : info.name;
  std::string html;
  Out out(html);
  fmt::format_to(out, "<section class=\"demo\" id=\"demo-{}\">\n<header>\n<h2>{}</h2>\n",
                 text::slug(name, "demo"), text::markup_escape(info.title.empty() ? name : info.title));
  fmt::format_to(out, "<p class=\"meta\"><code>{}</code>", text::markup_escape(name));
  if (!info.section.empty()) fmt::format_to(out, " · {}", text::markup_escape(info.section));
  html += "</p>\n</header>\n";
  if (!info.claim.empty()) {
    fmt::format_to(out, "<blockquote class=\"claim\"><p>{}</p></blockquote>\n",
                   text::markup_escape(info.claim));
  }
  if (const auto params = parameters(result); !params.empty()) {
    html += "<p class=\"params\">Parameters:";
    for (const auto& [key, value] : params) {
      fmt::format_to(out, " <code>{}={}</code>", text::markup_escape(key), text::markup_escape(value));
    }
    html += "</p>\n";
  }

  // Tables in order; consecutive heatmaps share a flowing container, same-shape neighbours
  // stay together as a pair, and the shade legend follows the last heatmap.
  const auto& tables = result.tables;
  bool in_heatmaps = false;
  const auto close_heatmaps = [&](std::size_t next) {
    if (!in_heatmaps) return;
    html += "</div>\n";
    in_heatmaps = false;
    const bool more = std::any_of(tables.begin() + static_cast<std::ptrdiff_t>(next), tables.end(),
                                  [](const Table& table) { return table.heatmap; });
    if (!more && unit_heatmaps(result)) {
      html += "<figure class=\"legend\">\n" + svg_legend() +
              "\n<figcaption>cell shade: the value, 0 to 1</figcaption>\n</figure>\n";
    }
  };
  for (std::size_t i = 0; i < tables.size(); ++i) {
    const Table& table = tables[i];
    if (!table.heatmap) {
      close_heatmaps(i);
      html += html_matrix(table);
      continue;
    }
    if (!in_heatmaps) html += "<div class=\"heatmaps\">\n";
    in_heatmaps = true;
    if (i + 1 < tables.size() && tables[i + 1].heatmap && same_shape(table, tables[i + 1])) {
      const Table& next = tables[i + 1];
      const std::string title_a = table_title(table), title_b = table_title(next);
      const std::string heading = shared_heading(title_a, title_b);
      html += "<div class=\"heatmap-pair\">\n";
      if (!heading.empty()) {
        fmt::format_to(out, "<p class=\"pair-title\">{}</p>\n", text::markup_escape(heading));
      }
      const std::size_t cut = heading.empty() ? 0 : heading.size() + 2;
      html += "<div class=\"pair-figures\">\n" + html_heatmap_figure(table, title_a.substr(cut)) +
              html_heatmap_figure(next, title_b.substr(cut)) + "</div>\n</div>\n";
      ++i;
      continue;
    }
    html += html_heatmap_figure(table, table_title(table));
  }
  close_heatmaps(tables.size());

  for (const Series& series : result.series) {
    fmt::format_to(out, "<figure class=\"chart\">\n<figcaption>{}</figcaption>\n{}\n</figure>\n",
                   text::markup_escape(series_title(series)), svg_chart(series));
  }
  if (!result.values.empty()) {
    html +=
        "<table class=\"values\">\n<caption>Values</caption>\n"
        "<thead><tr><th scope=\"col\">value</th><th scope=\"col\">result</th></tr></thead>\n"
        "<tbody>\n";
    for (const auto& [value_name, value] : result.values) {
      fmt::format_to(out, "<tr><td><code>{}</code></td><td>{}</td></tr>\n", text::markup_escape(value_name),
                     text::markup_escape(format_value(value)));
    }
    html += "</tbody>\n</table>\n";
  }
  if (!result.text.empty()) {
    html += "<div class=\"notes\">\n";
    for (const std::string& paragraph : result.text)
      html += "<p>" + text::html_text(paragraph) + "</p>\n";
    html += "</div>\n";
  }
  html += "</section>\n";
  return html;
}

std::vector<SvgFigure> render_svg_figures(const DemoResult& result) {
  // The inline drawing, given the SVG namespace and a white ground (a file viewer may show it on
  // a dark background, where the dark labels would vanish).
  const auto standalone = [](const std::string& inline_svg) {
    const std::size_t open_end = inline_svg.find('>');
    return R"(<?xml version="1.0" encoding="UTF-8"?>)"
           "\n"
           R"(<svg xmlns="http://www.w3.org/2000/svg" )" +
           inline_svg.substr(5, open_end - 4) +
           "\n"
           R"(<rect width="100%" height="100%" fill="#ffffff"/>)" +
           inline_svg.substr(open_end + 1) + "\n";
  };
  std::vector<SvgFigure> figures;
  for (const Table& table : result.tables) {
    if (table.heatmap)
      figures.push_back({table.name, table_title(table), standalone(svg_heatmap(table))});
  }
  for (const Series& series : result.series)
    figures.push_back({series.name, series_title(series), standalone(svg_chart(series))});
  return figures;
}

std::string render_html(const DemoResult& result, const DemoInfo& info) {
  const std::string name = info.name.empty() ? result.demo : info.name;
  const std::string title = info.title.empty() ? name : info.title;
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n"
      "<meta name=\"generator\" content=\"proofdeck\" />\n"
      "<title>{} · proofdeck</title>\n<style>\n{}</style>\n</head>\n<body>\n{}</body>\n</html>\n",
      text::markup_escape(title), html_stylesheet(), render_html_section(result, info));
}

}  // namespace proofdeck::render
