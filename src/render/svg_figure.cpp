// SVG figures (see svg_figure.hpp).
#include "render/svg_figure.hpp"

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

#include "render/color.hpp"
#include "render/parts.hpp"
#include "render/scale.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/utf8.hpp"
#include "text/width.hpp"

namespace proofdeck::render {

namespace {

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

std::string y_tick_label(double tick, bool log) {
  if (!log) return text::markup_escape(text::format_short(tick));
  const int exponent = static_cast<int>(std::lround(std::log10(tick)));
  return fmt::format(R"(10<tspan dy="-6" font-size="9">{}</tspan>)", exponent);
}

}  // namespace

std::string svg_heatmap(const Table& raw) {
  const Table table = readable_heatmap(raw);
  constexpr double font = 12.0;
  constexpr std::size_t max_label = 18;
  std::size_t column_label_chars = 1, row_label_chars = 1;
  for (Eigen::Index c = 0; c < table.cells.cols(); ++c) {
    column_label_chars = std::max(
        column_label_chars, static_cast<std::size_t>(text::display_width(column_label(table, c))));
  }
  for (Eigen::Index r = 0; r < table.cells.rows(); ++r) {
    row_label_chars = std::max(row_label_chars,
                               static_cast<std::size_t>(text::display_width(row_label(table, r))));
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
  const auto cell_top = [&](Eigen::Index r) { return top + static_cast<double>(r) * cell_height; };
  const auto row_heading = [&](Eigen::Index r) {
    fmt::format_to(out,
                   R"(<text x="{}" y="{}" text-anchor="end" dominant-baseline="central" )"
                   R"(fill="#24292f">{}</text>)"
                   "\n",
                   px(left - 8.0), px(cell_top(r) + cell_height / 2),
                   label_text(row_label(table, r)));
  };
  if (numbers) {
    // Each cell outlined in white, its number on it, the number again as its tooltip.
    for (Eigen::Index r = 0; r < table.cells.rows(); ++r) {
      const double y = cell_top(r);
      row_heading(r);
      for (Eigen::Index c = 0; c < table.cells.cols(); ++c) {
        const double v = table.cells(r, c);
        const double fraction = scale(v);
        const double x = left + static_cast<double>(c) * cell_width;
        fmt::format_to(out,
                       R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}" stroke="#ffffff">)"
                       R"(<title>{} → {}: {}</title></rect>)"
                       "\n",
                       px(x), px(y), px(cell_width), px(cell_height), hex(ramp_colour(fraction)),
                       text::markup_escape(row_label(table, r)),
                       text::markup_escape(column_label(table, c)), format_cell(v, 3));
        fmt::format_to(out,
                       R"(<text x="{}" y="{}" text-anchor="middle" dominant-baseline="central" )"
                       R"(fill="{}">{}</text>)"
                       "\n",
                       px(x + cell_width / 2), px(y + cell_height / 2),
                       needs_light_text(fraction) ? "#ffffff" : "#1f2328", format_cell(v, 2));
      }
    }
    svg += "</svg>";
    return svg;
  }

  // Up to 32 columns of small cells: a run of cells in a row holding the same value is one
  // rectangle with one tooltip (a causal mask's zeros are half the grid), and the white outline
  // of every cell is one path drawn over them all, so the figure stays small enough to print.
  for (Eigen::Index r = 0; r < table.cells.rows(); ++r)
    row_heading(r);
  fmt::format_to(out, "<g transform=\"translate({} {})\">\n", px(left), px(top));
  for (Eigen::Index r = 0; r < table.cells.rows(); ++r) {
    for (Eigen::Index c = 0; c < table.cells.cols();) {
      const std::string value = format_cell(table.cells(r, c), 3);
      const std::string colour = hex(ramp_colour(scale(table.cells(r, c))));
      Eigen::Index end = c + 1;
      while (end < table.cells.cols() && format_cell(table.cells(r, end), 3) == value &&
             hex(ramp_colour(scale(table.cells(r, end)))) == colour) {
        ++end;
      }
      const std::string columns =
          end - c == 1 ? column_label(table, c)
                       : column_label(table, c) + " to " + column_label(table, end - 1);
      fmt::format_to(out,
                     R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}">)"
                     R"(<title>{} → {}: {}</title></rect>)"
                     "\n",
                     px(static_cast<double>(c) * cell_width),
                     px(static_cast<double>(r) * cell_height),
                     px(static_cast<double>(end - c) * cell_width), px(cell_height), colour,
                     text::markup_escape(row_label(table, r)), text::markup_escape(columns), value);
      c = end;
    }
  }
  const double grid_width = static_cast<double>(table.cells.cols()) * cell_width;
  const double grid_height = static_cast<double>(table.cells.rows()) * cell_height;
  std::string grid;
  for (Eigen::Index r = 0; r <= table.cells.rows(); ++r)
    grid += fmt::format("M0 {}h{}", px(static_cast<double>(r) * cell_height), px(grid_width));
  for (Eigen::Index c = 0; c <= table.cells.cols(); ++c)
    grid += fmt::format("M{} 0v{}", px(static_cast<double>(c) * cell_width), px(grid_height));
  fmt::format_to(out, "<path d=\"{}\" fill=\"none\" stroke=\"#ffffff\"/>\n</g>\n", grid);
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

namespace {

// The charts' font size, as their <svg> element sets it.
constexpr double kChartFont = 12.0;

// Where a chart's parts go: its value scale, the plot's box and the legend's items, and the
// point an x and a value are drawn at.
struct ChartFrame {
  Scale scale;
  bool bars = false;  // one line: a bar chart, without a legend
  double width = 640.0, height = 0.0;
  double plot_left = 0.0, plot_right = 0.0, plot_top = 0.0, plot_bottom = 0.0;
  std::vector<std::pair<double, double>> legend_at;  // (x, y) per line
  std::size_t count = 0;                             // x values
  double x_min = 0.0, x_max = 1.0;
  bool categories = false;  // x at evenly spaced positions labelled with their values
  double band = 0.0;        // the width of a category

  double y_of(double v) const {
    return plot_bottom - std::clamp(scale.fraction(v), 0.0, 1.0) * (plot_bottom - plot_top);
  }
  double x_of(std::size_t i, double x) const {
    if (categories) return plot_left + (static_cast<double>(i) + 0.5) * band;
    return plot_left + 10.0 + (x - x_min) / (x_max - x_min) * (plot_right - plot_left - 20.0);
  }
};

ChartFrame chart_frame(const Series& series) {
  constexpr double font = kChartFont;
  constexpr double margin_right = 20.0, margin_bottom = 48.0;
  ChartFrame frame;
  const double width = frame.width;
  frame.bars = series.lines.size() == 1;
  const bool bars = frame.bars;
  const std::vector<double> values = all_y(series);
  // Every decade on a log axis (as far as ten of them); about six round steps on a linear one.
  frame.scale = make_scale(values, series.log_scale, series.log_scale ? 10 : 6, true);
  const Scale& scale = frame.scale;
  // Room for the axis name (rotated, at x = 16) and the widest tick label ("250,000,000").
  double widest_tick = 0.0;
  for (const double tick : scale.ticks) {
    // A log tick is 10 and a small exponent; a linear one its number as written.
    const std::string label = scale.log ? "10⁰⁰" : text::format_short(tick);
    widest_tick = std::max(widest_tick, text_width(label, font));
  }
  const double margin_left = std::max(70.0, 24.0 + widest_tick + 12.0);

  // Legend rows above the plot.
  double legend_x = margin_left, legend_y = 16.0;
  if (!bars) {
    for (const auto& [label, y] : series.lines) {
      const double item = 34.0 + text_width(label, font) + 18.0;
      if (legend_x + item > width - margin_right && legend_x > margin_left) {
        legend_x = margin_left;
        legend_y += 20.0;
      }
      frame.legend_at.emplace_back(legend_x, legend_y);
      legend_x += item;
    }
  }
  const double margin_top = bars ? 16.0 : legend_y + 18.0;
  frame.height = margin_top + 260.0 + margin_bottom;
  frame.plot_left = margin_left;
  frame.plot_right = width - margin_right;
  frame.plot_top = margin_top;
  frame.plot_bottom = frame.height - margin_bottom;

  const std::size_t count = series.x.size();
  frame.count = count;
  if (count > 0) {
    frame.x_min = *std::min_element(series.x.begin(), series.x.end());
    frame.x_max = *std::max_element(series.x.begin(), series.x.end());
  }
  if (frame.x_max <= frame.x_min) frame.x_max = frame.x_min + 1.0;
  // Bars, and x values that are not evenly spaced (head counts 1, 2, 4 … 128), sit at evenly
  // spaced positions labelled with their values; evenly spaced x on a linear axis.
  bool evenly_spaced = true;
  for (std::size_t i = 2; i < count; ++i) {
    const double step = series.x[1] - series.x[0];
    evenly_spaced = evenly_spaced && std::fabs(series.x[i] - series.x[i - 1] - step) <=
                                         1e-9 * std::max(std::fabs(step), 1.0);
  }
  frame.categories = bars || (!evenly_spaced && count <= 40);
  frame.band =
      (frame.plot_right - frame.plot_left) / static_cast<double>(std::max<std::size_t>(count, 1));
  return frame;
}

// Grid and value-axis ticks (log: minor ticks at 2…9 × 10^k when the decades have room).
void svg_value_ticks(Out out, const ChartFrame& frame) {
  const Scale& scale = frame.scale;
  for (const double tick : scale.ticks) {
    const double y = frame.y_of(tick);
    fmt::format_to(out,
                   R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#e6e8eb"/>)"
                   "\n"
                   R"(<text x="{3}" y="{1}" text-anchor="end" dominant-baseline="central" )"
                   R"(fill="#424a53">{4}</text>)"
                   "\n",
                   px(frame.plot_left), px(y), px(frame.plot_right), px(frame.plot_left - 8.0),
                   y_tick_label(tick, scale.log));
  }
  if (scale.log && scale.high - scale.low <= 8.0) {
    for (int k = static_cast<int>(scale.low); k < static_cast<int>(scale.high); ++k) {
      for (int m = 2; m <= 9; ++m) {
        const double y = frame.y_of(m * std::pow(10.0, k));
        fmt::format_to(out,
                       R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#57606a"/>)"
                       "\n",
                       px(frame.plot_left - 3.0), px(y), px(frame.plot_left));
      }
    }
  }
}

// Category or value ticks on the x axis, thinned so labels never collide.
void svg_x_ticks(Out out, const Series& series, const ChartFrame& frame) {
  constexpr double font = kChartFont;
  const std::size_t count = frame.count;
  std::size_t widest = 1;
  for (const double x : series.x)
    widest = std::max(widest, static_cast<std::size_t>(text::display_width(text::format_short(x))));
  const double label_room = static_cast<double>(widest) * font * 0.6 + 10.0;
  const bool integral_x =
      std::all_of(series.x.begin(), series.x.end(), [](double x) { return x == std::trunc(x); });
  std::vector<std::pair<double, std::string>> x_ticks;
  if (frame.categories || (integral_x && count <= 30)) {
    const double spacing =
        frame.categories
            ? frame.band
            : (frame.plot_right - frame.plot_left - 20.0) /
                  static_cast<double>(std::max<std::size_t>(count > 0 ? count - 1 : 1, 1));
    const auto stride = static_cast<std::size_t>(std::max(1.0, std::ceil(label_room / spacing)));
    for (std::size_t i = 0; i < count; i += stride) {
      x_ticks.emplace_back(frame.x_of(i, series.x[i]), text::format_short(series.x[i]));
    }
  } else {
    const Scale x_scale = make_scale({frame.x_min, frame.x_max}, false, 6, false);
    for (const double tick : x_scale.ticks) {
      if (tick >= frame.x_min && tick <= frame.x_max)
        x_ticks.emplace_back(frame.x_of(0, tick), text::format_short(tick));
    }
  }
  for (const auto& [x, label] : x_ticks) {
    fmt::format_to(out,
                   R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#57606a"/>)"
                   "\n"
                   R"(<text x="{0}" y="{3}" text-anchor="middle" fill="#424a53">{4}</text>)"
                   "\n",
                   px(x), px(frame.plot_bottom), px(frame.plot_bottom + 4.0),
                   px(frame.plot_bottom + 18.0), text::markup_escape(label));
  }
}

// The one line of a bar chart: a bar for each x, its value over it when there are few.
void svg_bars(Out out, const Series& series, const ChartFrame& frame, const std::string& x_name) {
  const Scale& scale = frame.scale;
  const auto& [label, y] = series.lines.front();
  const double zero =
      scale.log ? frame.plot_bottom : frame.y_of(std::clamp(0.0, scale.low, scale.high));
  const double bar_width = frame.band * 0.7;
  const bool show_values = frame.count <= 16;
  for (std::size_t i = 0; i < points_of(series, y); ++i) {
    if (!scale.drawable(y[i])) continue;
    const double top = frame.y_of(y[i]);
    const double x = frame.x_of(i, series.x[i]);
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
}

// The lines of a line chart, each in its colour and dash, with a dot (and a tooltip) at each
// point and its item in the legend.
void svg_lines(Out out, const Series& series, const ChartFrame& frame, const std::string& x_name) {
  const Scale& scale = frame.scale;
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
      points +=
          (points.empty() ? "" : " ") + px(frame.x_of(i, series.x[i])) + "," + px(frame.y_of(y[i]));
    }
    flush();
    for (std::size_t i = 0; i < points_of(series, y); ++i) {
      if (!scale.drawable(y[i])) continue;
      fmt::format_to(out,
                     R"(<circle cx="{}" cy="{}" r="3" fill="{}"><title>{}, {} {}: {}</title>)"
                     R"(</circle>)"
                     "\n",
                     px(frame.x_of(i, series.x[i])), px(frame.y_of(y[i])), colour,
                     text::markup_escape(label), text::markup_escape(x_name),
                     text::format_short(series.x[i]), text::format_short(y[i]));
    }
    const auto [lx, ly] = frame.legend_at[l];
    fmt::format_to(out,
                   R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="{3}" stroke-width="2"{4}/>)"
                   "\n"
                   R"(<text x="{5}" y="{1}" dominant-baseline="central" fill="#24292f">{6}</text>)"
                   "\n",
                   px(lx), px(ly), px(lx + 26.0), colour, dash_attribute, px(lx + 32.0),
                   text::markup_escape(label));
  }
}

// Axes and their labels, and the end of the drawing.
void svg_axes(Out out, const Series& series, const ChartFrame& frame, const std::string& x_name) {
  // A bar chart has no legend: its one line's label names the axis when the series does not.
  std::string y_name = series.y_label.empty() && frame.bars && !series.lines.empty()
                           ? series.lines.front().first
                           : series.y_label;
  if (frame.scale.log) y_name += y_name.empty() ? "log scale" : " (log scale)";
  fmt::format_to(out,
                 R"(<path d="M{0} {1} V{2} H{3}" fill="none" stroke="#57606a"/>)"
                 "\n"
                 R"(<text x="{4}" y="{5}" text-anchor="middle" fill="#24292f">{6}</text>)"
                 "\n"
                 R"svg(<text transform="translate(16 {7}) rotate(-90)" text-anchor="middle" )svg"
                 R"(fill="#24292f">{8}</text>)"
                 "\n</svg>",
                 px(frame.plot_left), px(frame.plot_top), px(frame.plot_bottom),
                 px(frame.plot_right), px((frame.plot_left + frame.plot_right) / 2),
                 px(frame.plot_bottom + 38.0), text::markup_escape(x_name),
                 px((frame.plot_top + frame.plot_bottom) / 2), text::markup_escape(y_name));
}

}  // namespace

// A line chart (several lines) or a bar chart (one line): value axis linear or log10, with tick
// labels and grid lines, a legend and tooltips.
std::string svg_chart(const Series& series) {
  const ChartFrame frame = chart_frame(series);
  std::string svg;
  Out out(svg);
  const std::string title = text::markup_escape(series_title(series));
  fmt::format_to(out,
                 R"(<svg class="chart" width="{0}" height="{1}" viewBox="0 0 {0} {1}" )"
                 R"(role="img" aria-label="{2}" {3} font-size="12">)"
                 "\n<title>{2}</title>\n",
                 px(frame.width), px(frame.height), title, kSvgFont);
  svg_value_ticks(out, frame);
  svg_x_ticks(out, series, frame);
  const std::string x_name = series.x_label.empty() ? "x" : series.x_label;
  if (frame.bars && !series.lines.empty()) {
    svg_bars(out, series, frame, x_name);
  } else {
    svg_lines(out, series, frame, x_name);
  }
  svg_axes(out, series, frame, x_name);
  return svg;
}

namespace {

// The inline drawing, given the SVG namespace and a white ground (a file viewer may show it on a
// dark background, where the dark labels would vanish).
std::string standalone(const std::string& inline_svg) {
  const std::size_t open_end = inline_svg.find('>');
  return R"(<?xml version="1.0" encoding="UTF-8"?>)"
         "\n"
         R"(<svg xmlns="http://www.w3.org/2000/svg" )" +
         inline_svg.substr(5, open_end - 4) +
         "\n"
         R"(<rect width="100%" height="100%" fill="#ffffff"/>)" +
         inline_svg.substr(open_end + 1) + "\n";
}

}  // namespace

SvgFigure svg_figure_file(const demo::Table& heatmap) {
  const Table table = readable_heatmap(heatmap);
  return {table.name, table_title(table), standalone(svg_heatmap(table))};
}

SvgFigure svg_figure_file(const demo::Series& series) {
  return {series.name, series_title(series), standalone(svg_chart(series))};
}

std::vector<SvgFigure> render_svg_figures(const DemoResult& result) {
  std::vector<SvgFigure> figures;
  for (const Table& table : result.tables) {
    if (table.heatmap) figures.push_back(svg_figure_file(table));
  }
  for (const Series& series : result.series) {
    if (charted(series)) figures.push_back(svg_figure_file(series));
  }
  return figures;
}

}  // namespace proofdeck::render
