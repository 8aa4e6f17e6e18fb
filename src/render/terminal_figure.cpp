// Terminal figures (see terminal_figure.hpp).
#include "render/terminal_figure.hpp"

#include <fmt/color.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "render/parts.hpp"
#include "render/scale.hpp"
#include "render/terminal_heatmap.hpp"
#include "render/terminal_look.hpp"
#include "render/terminal_table.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/utf8.hpp"
#include "text/width.hpp"

namespace proofdeck::render::terminal {

using text::pad_left;
using text::pad_right;

namespace {

bool has_colour(const Theme& theme) {
  for (const fmt::text_style* style :
       {&theme.error, &theme.warning, &theme.good, &theme.bad, &theme.emphasis, &theme.dim}) {
    if (style->has_foreground() || style->has_background() || style->has_emphasis()) return true;
  }
  return false;
}

// The look of a figure, decided once from the theme and the options.
Look make_look(const Theme& theme, const TextOptions& options) {
  Look look{.width = std::max(options.width, 1),
            .glyphs = options.unicode ? Glyphs::unicode() : Glyphs::ascii(),
            .heading = theme.emphasis,
            .dim = theme.dim,
            .value = theme.emphasis,
            .full = options.form == TextForm::full,
            .paint_cells = options.color256 && has_colour(theme),
            .line_styles = {},
            .program = options.program};
  if (has_colour(theme)) {
    // Readable on dark and light backgrounds alike (blue text is not, on dark ones).
    for (const auto colour :
         {fmt::terminal_color::cyan, fmt::terminal_color::magenta, fmt::terminal_color::green,
          fmt::terminal_color::yellow, fmt::terminal_color::blue, fmt::terminal_color::red}) {
      look.line_styles.push_back(fmt::fg(colour));
    }
  } else {
    look.line_styles.emplace_back();
  }
  return look;
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
          {text::format_short(series.x[i]) + look.glyphs.range + text::format_short(series.x[last]),
           y[i]});
      i = last + 1;
    } else {
      rows.push_back({text::format_short(series.x[i]), y[i]});
      ++i;
    }
  }
  return rows;
}

// `drawn` (a bar of one-column glyphs) with `mark` in column `column`, over the bar or past it.
std::string with_mark(const std::string& drawn, int column, const std::string& mark) {
  std::vector<std::string> cells;
  for (std::size_t at = 0; at < drawn.size();) {
    const std::size_t start = at;
    text::decode(drawn, at);
    cells.push_back(drawn.substr(start, at - start));
  }
  if (static_cast<int>(cells.size()) <= column)
    cells.resize(static_cast<std::size_t>(column) + 1, " ");
  cells[static_cast<std::size_t>(column)] = mark;
  std::string out;
  for (const std::string& cell : cells)
    out += cell;
  return out;
}

// The series' title and subtitle, then a bar for each x (runs of one value share a bar) on an
// axis shared by its lines; a line that stays at one value is a level marked across the bars.
Lines series_bars(const Series& series, const Look& look) {
  Lines lines = styled_wrap(look.heading, one_line(series_title(series)), look.width);
  if (const std::string subtitle = series_subtitle(series, look.glyphs.dot); !subtitle.empty()) {
    append(lines, styled_wrap(look.dim, subtitle, look.width));
  }
  const std::vector<double> values = all_y(series);
  if (values.empty()) {
    lines.push_back(styled(look.dim, "  (no data)"));
    return lines;
  }
  std::vector<std::vector<BarRow>> rows;
  for (const auto& [label, y] : series.lines)
    rows.push_back(bar_rows(series, y, look));
  // A line that reads the same over the whole x range, beside lines that do not (the trained
  // range's end beside the angles), is a reference level: a mark down the other lines' bars at
  // its value, named under the axis, rather than one bar for every x.
  std::vector<bool> level(series.lines.size(), false);
  for (std::size_t l = 0; l < series.lines.size(); ++l)
    level[l] = series.x.size() >= 3 && rows[l].size() == 1;
  if (std::all_of(level.begin(), level.end(), [](bool b) { return b; }))
    level.assign(level.size(), false);  // nothing to mark them on
  int x_width = 1, value_width = 1;
  for (std::size_t l = 0; l < series.lines.size(); ++l) {
    if (level[l]) continue;
    for (const BarRow& row : rows[l]) {
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
  std::vector<int> level_columns;  // where each level's mark goes, in the bars' columns
  for (std::size_t l = 0; l < series.lines.size(); ++l) {
    if (!level[l] || !scale.drawable(rows[l][0].value)) continue;
    const double end = std::clamp(scale.fraction(rows[l][0].value), 0.0, 1.0) * bar_width;
    level_columns.push_back(std::clamp(static_cast<int>(std::lround(end)), 0, bar_width - 1));
  }

  for (std::size_t l = 0; l < series.lines.size(); ++l) {
    if (level[l]) continue;
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
      // A level's mark crosses the bar, or stands past its value; where the value would touch
      // it, that row goes without.
      const std::string value = text::format_short(v);
      std::string after;  // past the value: spaces and marks
      int column_after = text::display_width(drawn) + 1 + text::display_width(value);
      for (const int column : level_columns) {
        if (column < text::display_width(drawn)) {
          drawn = with_mark(drawn, column, look.glyphs.level);
        } else if (column > column_after) {
          after += spaces(column - column_after) + look.glyphs.level;
          column_after = column + 1;
        }
      }
      lines.push_back(spaces(indent) + pad_left(row.x, x_width) + " " +
                      styled(look.dim, look.glyphs.vertical) + styled(style, drawn) + " " + value +
                      after);
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
  for (std::size_t l = 0; l < series.lines.size(); ++l) {
    if (!level[l]) continue;
    const std::string x_label = series.x_label.empty() ? "x" : one_line(series.x_label);
    append(lines, styled_wrap(look.line_style(l),
                              fmt::format("{} {} = {}, the same from {} {} to {}",
                                          look.glyphs.level, one_line(series.lines[l].first),
                                          text::format_short(rows[l][0].value), x_label,
                                          text::format_short(series.x.front()),
                                          text::format_short(series.x.back())),
                              look.width, "  "));
  }
  return lines;
}

// "no normalization  ▁▁▂▃▄▅▆█  2.01 → 1,052,871": the series' title, then one line per series
// line, all on one scale and of one length, then the first and last x under the sparks, for the
// compact form. Nothing is cut: when the labels, the sparks and the ranges do not fit on one line,
// each label goes on a line of its own above its sparks.
Lines series_sparklines(const Series& series, const Look& look) {
  std::string title = one_line(series_title(series));
  if (series.log_scale) title += " " + look.glyphs.dot + " log scale";
  Lines lines = styled_wrap(look.heading, title, look.width);
  const Scale scale = make_scale(all_y(series), series.log_scale, 2, false);
  int label_width = 0, range_width = 0;
  std::size_t count = 0;
  const auto range_of = [&](const std::vector<double>& y, std::size_t points) {
    return text::format_short(y.front()) + " " + look.glyphs.arrow + " " +
           text::format_short(y[points - 1]);
  };
  for (const auto& [label, y] : series.lines) {
    const std::size_t points = points_of(series, y);
    if (points == 0) continue;
    label_width = std::max(label_width, text::display_width(one_line(label)));
    range_width = std::max(range_width, text::display_width(range_of(y, points)));
    count = std::max(count, points);
  }
  if (count == 0) return lines;
  const int wanted = static_cast<int>(std::min<std::size_t>(count, 8));
  // Beside the labels when the sparks get as many columns as they have points (up to eight).
  const bool beside = look.width - 2 - label_width - 2 - 2 - range_width >= wanted;
  const int spark_column = beside ? 2 + label_width + 2 : 4;
  // The range after the sparks, or under them when even a line of its own leaves no room.
  const bool range_after = look.width - spark_column - 2 - range_width >= wanted;
  const int room = look.width - spark_column - (range_after ? 2 + range_width : 0);
  const int shown = std::clamp(room, 1, static_cast<int>(count));
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
    spark = styled(look.line_style(l), pad_right(spark, shown));
    const std::string range = styled(look.dim, range_of(y, points));
    if (beside) {
      lines.push_back("  " + pad_right(one_line(label), label_width) + "  " + spark + "  " + range);
      continue;
    }
    append(lines, block_lines(one_line(label), look.width, "  ", "    "));
    if (range_after) {
      lines.push_back(spaces(spark_column) + spark + "  " + range);
    } else {
      lines.push_back(spaces(spark_column) + spark);
      lines.push_back(spaces(spark_column) + range);
    }
  }
  // The x axis: the first x under the first spark, the last under the last, then what x is.
  const std::string first = text::format_short(series.x.front());
  const std::string last = text::format_short(series.x[count - 1]);
  const int gap = std::max(shown - text::display_width(first) - text::display_width(last), 1);
  std::string axis = first + spaces(gap) + last;
  if (!series.x_label.empty()) axis += " " + one_line(series.x_label);
  if (spark_column + text::display_width(axis) <= look.width) {
    lines.push_back(spaces(spark_column) + styled(look.dim, axis));
    return lines;
  }
  for (const std::string& line :
       block_lines(axis, look.width, spaces(spark_column), spaces(spark_column))) {
    lines.push_back(styled(look.dim, line));
  }
  return lines;
}

// Heatmap groups (pairs where they fit, singles otherwise) and numeric tables, in result order.
struct TableGroup {
  Lines lines;
  bool heatmap = false;
  std::size_t tables = 1;  // two for a pair
};

std::vector<TableGroup> table_groups(const DemoResult& result, const DemoInfo& info,
                                     const Look& look) {
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
        groups.push_back({std::move(pair), true, 2});
        ++i;
        continue;
      }
    }
    groups.push_back({heatmap_single(table, look, result, info), true});
  }
  return groups;
}

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
                    spaces(look.width - text::display_width(title) - text::display_width(meta)) +
                    styled(look.dim, meta));
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

  std::vector<TableGroup> groups = table_groups(result, info, look);
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
  for (const Series& series : result.series) {
    if (charted(series)) {
      sections.push_back(series_bars(series, look));
    } else if (one_point(series)) {
      sections.push_back(text::wrap(one_point_sentence(series), look.width));
    }
  }
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

// The figures and values of quiz feedback, without the line that says what is left out.
struct CompactLayout {
  Lines lines;
  std::size_t shown = 0;  // figures drawn
  std::size_t total = 0;  // figures the result has
};

// Quiz feedback: the heatmaps and charts that fit in about a dozen lines, then six values.
// `reserve` lines of the dozen are kept for saying what is left out: the values give them up.
CompactLayout compact_layout(const DemoResult& result, const DemoInfo& info, const Look& look,
                             std::size_t reserve) {
  constexpr std::size_t kMaxLines = 12;
  constexpr std::size_t kMaxValues = 6;
  const std::string title = one_line(info.title.empty() ? info.name : info.title);
  const std::string name = one_line(info.name.empty() ? result.demo : info.name);
  const std::string suffix = " " + look.glyphs.dot + " " + name;
  CompactLayout layout;
  Lines& lines = layout.lines;
  lines.push_back(text::display_width(title) + text::display_width(suffix) <= look.width
                      ? styled(look.heading, title) + styled(look.dim, suffix)
                      : styled(look.heading, look.fit(title, look.width)));

  // The first figure is the picture the feedback is for: it comes before the values, which keep
  // at least two lines and give up the rest when the figure needs them.
  std::vector<std::pair<std::string, Value>> values(
      result.values.begin(), result.values.begin() + static_cast<std::ptrdiff_t>(std::min(
                                                         result.values.size(), kMaxValues)));
  const std::size_t value_reserve = std::min<std::size_t>(value_columns(values, look).size(), 2);
  // Each with the number of figures it draws (a pair of heatmaps is two).
  std::vector<std::pair<Lines, std::size_t>> candidates;
  for (TableGroup& group : table_groups(result, info, look)) {
    if (group.heatmap) candidates.emplace_back(std::move(group.lines), group.tables);
  }
  // A one-point series has no picture: its number is among the values.
  for (const Series& series : result.series) {
    if (charted(series)) candidates.emplace_back(series_sparklines(series, look), 1);
  }
  layout.total = result.tables.size() + static_cast<std::size_t>(std::count_if(
                                            result.series.begin(), result.series.end(), charted));

  std::size_t budget = kMaxLines - lines.size() - value_reserve;
  for (auto& [figure, count] : candidates) {
    if (figure.size() > budget) continue;
    budget -= figure.size();
    append(lines, figure);
    layout.shown += count;
  }
  Lines value_lines = value_columns(values, look);
  while (!values.empty() && lines.size() + value_lines.size() + reserve > kMaxLines) {
    values.pop_back();
    value_lines = value_columns(values, look);
  }
  append(lines, value_lines);
  return layout;
}

// The smallest width, up to kWidestLook, at which quiz feedback shows more than `shown`
// figures; 0 if none does.
constexpr int kWidestLook = 240;
int width_showing_more(const DemoResult& result, const DemoInfo& info, const Look& look,
                       std::size_t shown) {
  const auto more_at = [&](int width) {
    Look wider = look;
    wider.width = width;
    return compact_layout(result, info, wider, 0).shown > shown;
  };
  if (look.width >= kWidestLook || !more_at(kWidestLook)) return 0;
  int low = look.width, high = kWidestLook;  // more_at(low) is false, more_at(high) true
  while (high - low > 1) {
    const int middle = low + (high - low) / 2;
    (more_at(middle) ? high : low) = middle;
  }
  return high;
}

// What is left out says so, and how to see it: a command never cut, to copy as it is.
Lines left_out_lines(const DemoResult& result, const DemoInfo& info, const Look& look,
                     const CompactLayout& layout) {
  Lines lines;
  const std::size_t left_out = layout.total - layout.shown;
  const std::string command = reproduce_command(result, info, look.program);
  const int wider = width_showing_more(result, info, look, layout.shown);
  std::string message;
  if (wider == 0) {
    message = fmt::format("{} more {}:", left_out, left_out == 1 ? "figure" : "figures");
  } else if (left_out == 1) {
    message = fmt::format("1 figure needs {} columns: widen the terminal or run", wider);
  } else {
    message = fmt::format("{} more figures, some shown at {} columns: widen the terminal or run",
                          left_out, wider);
  }
  if (text::display_width(message) + 1 + text::display_width(command) <= look.width) {
    lines.push_back(styled(look.dim, message + " " + command));
    return lines;
  }
  append(lines, styled_wrap(look.dim, message, look.width));
  for (const std::string& line : text::command_lines(command, look.width, "  "))
    lines.push_back(styled(look.dim, line));
  return lines;
}

Lines compact_text(const DemoResult& result, const DemoInfo& info, const Look& look) {
  CompactLayout layout = compact_layout(result, info, look, 0);
  if (layout.shown >= layout.total) return layout.lines;
  // The note on what is left out takes lines of the dozen, so there is room for it.
  layout = compact_layout(result, info, look, left_out_lines(result, info, look, layout).size());
  Lines lines = std::move(layout.lines);
  append(lines, left_out_lines(result, info, look, layout));
  return lines;
}

}  // namespace

}  // namespace proofdeck::render::terminal

namespace proofdeck::render {

std::string text_chart(const demo::Series& series) {
  const terminal::Look look = terminal::make_look(
      Theme::plain(), TextOptions{TextForm::full, text::kDefaultWidth, true, false});
  terminal::Lines bars = terminal::series_bars(series, look);
  const std::size_t skip = 1 + (series_subtitle(series, look.glyphs.dot).empty() ? 0 : 1);
  std::string picture;
  for (std::size_t i = std::min(skip, bars.size()); i < bars.size(); ++i) {
    std::string line = bars[i];
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    picture += line + "\n";
  }
  return picture;
}

std::string render_text(const DemoResult& result, const DemoInfo& info, const Theme& theme,
                        const TextOptions& options) {
  const terminal::Look look = terminal::make_look(theme, options);
  // A large heatmap in as many blocks as fit the width, shades alone: three columns a block, and
  // about sixteen for the indent and the row labels ("t248–t255").
  const DemoResult drawn =
      readable_figures(result, std::clamp<Eigen::Index>((look.width - 16) / 3, 4, kHeatmapBlocks));
  const terminal::Lines lines = options.form == TextForm::compact
                                    ? terminal::compact_text(drawn, info, look)
                                    : terminal::full_text(drawn, info, look);
  std::string text;
  for (const std::string& line : lines) {
    std::string fitted = terminal::clip(line, look.width);
    // Padding at the end of a line is invisible in a terminal and noise in a file.
    while (!fitted.empty() && fitted.back() == ' ')
      fitted.pop_back();
    text += fitted + "\n";
  }
  return text;
}

}  // namespace proofdeck::render
