// Titles, labels and values of demo results (see parts.hpp).
#include "render/parts.hpp"

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
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/utf8.hpp"
#include "text/width.hpp"

namespace proofdeck::render {

std::string one_line(std::string_view s) {
  return text::terminal_safe(s, text::Newlines::as_spaces);
}

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

std::string format_cell(double x, int decimals) {
  if (std::isnan(x)) return "nan";
  if (x == 0.0) return "0";
  std::string text = fmt::format("{:.{}f}", x, decimals);
  if (text.find_first_not_of("-0.") == std::string::npos && text[0] == '-') text.erase(0, 1);
  return text;
}

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

namespace {

// Points every line of the series has (a line shorter than x stops where it stops).
std::size_t common_points(const Series& series) {
  std::size_t points = series.x.size();
  for (const auto& line : series.lines)
    points = std::min(points, line.second.size());
  return series.lines.empty() ? 0 : points;
}

}  // namespace

bool charted(const Series& series) {
  return common_points(series) >= 2;
}

bool one_point(const Series& series) {
  return common_points(series) == 1;
}

std::string one_point_sentence(const Series& series) {
  if (!one_point(series)) return {};
  std::string sentence = one_line(series_title(series));
  const std::string x = text::format_short(series.x.front());
  sentence += series.x_label.empty() ? " at " + x : " at " + one_line(series.x_label) + " = " + x;
  sentence += ":";
  for (std::size_t l = 0; l < series.lines.size(); ++l) {
    const auto& [label, y] = series.lines[l];
    sentence += l == 0 ? " " : ", ";
    if (!label.empty() && (series.lines.size() > 1 || label != series.y_label)) {
      sentence += one_line(label) + " ";
    }
    sentence += text::format_short(y.front());
  }
  return sentence + ".";
}

bool draws_figures(const DemoResult& result) {
  return !result.tables.empty() ||
         std::any_of(result.series.begin(), result.series.end(),
                     [](const Series& series) { return charted(series); });
}

std::size_t figure_count(const DemoResult& result) {
  const auto heatmaps = std::count_if(result.tables.begin(), result.tables.end(),
                                      [](const Table& table) { return table.heatmap; });
  const auto charts = std::count_if(result.series.begin(), result.series.end(),
                                    [](const Series& series) { return charted(series); });
  return static_cast<std::size_t>(heatmaps + charts);
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

std::string shared_heading(const std::string& a, const std::string& b) {
  const std::size_t colon = a.find(": ");
  if (colon == std::string::npos || colon == 0 || b.size() <= colon + 2) return {};
  if (a.compare(0, colon + 2, b, 0, colon + 2) != 0 || a.size() <= colon + 2) return {};
  return a.substr(0, colon);
}

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

std::string series_subtitle(const Series& series, std::string_view dot) {
  std::string subtitle = one_line(series.y_label);
  if (!series.x_label.empty()) {
    subtitle += (subtitle.empty() ? "by " : " by ") + one_line(series.x_label);
  }
  if (series.log_scale) {
    subtitle += (subtitle.empty() ? "" : " " + std::string(dot) + " ") + "log scale";
  }
  return subtitle;
}

}  // namespace proofdeck::render
