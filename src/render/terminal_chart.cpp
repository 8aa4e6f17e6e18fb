// Terminal charts (see terminal_chart.hpp): bars, their value axis and reference levels, and
// sparklines.
#include "render/terminal_chart.hpp"

#include <fmt/color.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "render/parts.hpp"
#include "render/scale.hpp"
#include "text/number.hpp"
#include "text/utf8.hpp"
#include "text/width.hpp"

namespace proofdeck::render::terminal {

using text::pad_left;
using text::pad_right;

namespace {

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

// A value axis's ticks: where each stands in the bars' columns, and its label.
struct Ticks {
  std::vector<int> columns;  // 0 … bar_width - 1
  std::vector<std::string> labels;
};

Ticks ticks_of(const Scale& scale, int bar_width) {
  Ticks ticks;
  for (const double tick : scale.ticks) {
    ticks.columns.push_back(std::clamp(
        static_cast<int>(std::lround(scale.fraction(tick) * bar_width)), 0, bar_width - 1));
    ticks.labels.push_back(scale.log ? decade_label(static_cast<int>(std::lround(std::log10(tick))))
                                     : text::format_short(tick));
  }
  return ticks;
}

// The tick labels in a line of `width` columns whose column `origin` is the bars' column 0: each
// centred on its tick where the line's ends allow, always over it, a space at least from the one
// before. `placed`: which labels fit so (a label that would not is left out).
struct TickLabels {
  std::string line;
  std::vector<bool> placed;
  bool all() const {
    return std::all_of(placed.begin(), placed.end(), [](bool b) { return b; });
  }
};

TickLabels place_labels(const Ticks& ticks, int origin, int width) {
  TickLabels out;
  int used = 0;  // columns written so far
  for (std::size_t i = 0; i < ticks.labels.size(); ++i) {
    const std::string& label = ticks.labels[i];
    const int position = origin + ticks.columns[i];
    const int label_width = text::display_width(label);
    const int start = std::clamp(position - label_width / 2, 0, std::max(width - label_width, 0));
    const bool fits = start >= used + (used > 0 ? 1 : 0) && start + label_width <= width &&
                      start <= position && position < start + label_width;
    out.placed.push_back(fits);
    if (!fits) continue;
    out.line += spaces(start - used) + label;
    used = start + label_width;
  }
  return out;
}

// The value axis under the bars and its labels: the most ticks, up to one every eight columns or
// so (a decade every five on a log scale), whose labels all fit under them. When no two do, the
// widest steps that still give two, and a tick whose label finds no room is not marked either:
// every tick drawn has its label.
Lines value_axis(const std::vector<double>& values, bool log, int bar_width, int origin,
                 const Look& look, int indent) {
  const int width = look.width - indent;
  Ticks ticks;
  TickLabels labels;
  for (int target = std::max(bar_width / (log ? 5 : 8), 2); target >= 1; --target) {
    Ticks candidate = ticks_of(make_scale(values, log, target, false), bar_width);
    if (candidate.labels.size() < 2 && !ticks.labels.empty()) break;
    ticks = std::move(candidate);
    labels = place_labels(ticks, origin, width);
    if (labels.all()) break;
  }
  std::string axis = look.glyphs.corner;
  for (int c = 0; c < bar_width; ++c) {
    bool marked = false;
    for (std::size_t i = 0; i < ticks.columns.size(); ++i)
      marked = marked || (ticks.columns[i] == c && labels.placed[i]);
    axis += marked ? look.glyphs.tick : look.glyphs.horizontal;
  }
  return {spaces(origin + indent - 1) + styled(look.dim, axis),
          spaces(indent) + styled(look.dim, labels.line)};
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

}  // namespace

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
  // The bars' scale: its ends are the axis's whatever its ticks (value_axis).
  const Scale scale = make_scale(values, series.log_scale, 2, false);
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
  append(lines, value_axis(values, series.log_scale, bar_width, x_width + 2, look, indent));
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

}  // namespace proofdeck::render::terminal
