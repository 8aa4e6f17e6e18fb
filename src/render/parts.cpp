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
#include <limits>
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

namespace {

// Columns named alike but for their numbers ("dim 0" … "dim 7"): one quantity, several places.
bool one_quantity(const Table& table) {
  if (table.cells.cols() < 2 || table.column_labels.empty()) return false;
  const auto letters = [&](Eigen::Index column) {
    std::string label = column_label(table, column);
    std::erase_if(label, [](char c) { return c >= '0' && c <= '9'; });
    return label;
  };
  const std::string first = letters(0);
  if (first.find_first_not_of(' ') == std::string::npos) return false;  // numbers alone say nothing
  for (Eigen::Index c = 1; c < table.cells.cols(); ++c)
    if (letters(c) != first) return false;
  return true;
}

}  // namespace

std::vector<std::vector<std::string>> cell_texts(const Table& table) {
  const Eigen::Index rows = table.cells.rows(), columns = table.cells.cols();
  std::vector<std::vector<std::string>> texts(
      static_cast<std::size_t>(rows), std::vector<std::string>(static_cast<std::size_t>(columns)));
  // Each column alone, or the whole table as one.
  const Eigen::Index span = one_quantity(table) ? columns : 1;
  for (Eigen::Index first = 0; first < columns; first += span) {
    std::vector<double> values;
    for (Eigen::Index c = first; c < first + span; ++c)
      for (Eigen::Index r = 0; r < rows; ++r)
        values.push_back(table.cells(r, c));
    const std::vector<std::string> column = text::format_column(values);
    auto text = column.begin();
    for (Eigen::Index c = first; c < first + span; ++c)
      for (Eigen::Index r = 0; r < rows; ++r)
        texts[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] = *text++;
  }
  return texts;
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

namespace {

// How many rows (or columns) one block covers so that `cells` fit in at most `blocks`: a divisor
// of `cells` where one is near, so that every block covers as many, else the smallest that fits.
Eigen::Index block_size(Eigen::Index cells, Eigen::Index blocks) {
  const Eigen::Index least = (cells + blocks - 1) / blocks;
  for (Eigen::Index size = least; size <= 2 * least && size < cells; ++size) {
    if (cells % size == 0) return size;
  }
  return least;
}

// "t0–t7": the first and last label a block covers.
std::string span_label(const std::string& first, const std::string& last) {
  return first == last ? first : first + "–" + last;
}

}  // namespace

Table readable_heatmap(const Table& table, Eigen::Index blocks) {
  const Eigen::Index rows = table.cells.rows(), columns = table.cells.cols();
  if (!table.heatmap || (rows <= kMaxHeatmapCells && columns <= kMaxHeatmapCells)) return table;
  blocks = std::clamp<Eigen::Index>(blocks, 1, kHeatmapBlocks);
  const Eigen::Index row_block = block_size(rows, blocks);
  const Eigen::Index column_block = block_size(columns, blocks);
  const Eigen::Index block_rows = (rows + row_block - 1) / row_block;
  const Eigen::Index block_columns = (columns + column_block - 1) / column_block;

  Table binned;
  binned.name = table.name;
  binned.heatmap = true;
  binned.cells.resize(block_rows, block_columns);
  for (Eigen::Index r = 0; r < block_rows; ++r) {
    const Eigen::Index top = r * row_block, height = std::min(row_block, rows - top);
    for (Eigen::Index c = 0; c < block_columns; ++c) {
      const Eigen::Index left = c * column_block, width = std::min(column_block, columns - left);
      // The largest value, or NaN when the block holds one: a missing value is never hidden.
      double largest = -std::numeric_limits<double>::infinity();
      for (Eigen::Index i = top; i < top + height; ++i) {
        for (Eigen::Index j = left; j < left + width; ++j) {
          const double v = table.cells(i, j);
          largest = std::isnan(v) || std::isnan(largest) ? std::nan("") : std::max(largest, v);
        }
      }
      binned.cells(r, c) = largest;
    }
  }
  for (Eigen::Index r = 0; r < block_rows; ++r) {
    const Eigen::Index top = r * row_block, last = std::min(top + row_block, rows) - 1;
    binned.row_labels.push_back(span_label(row_label(table, top), row_label(table, last)));
  }
  for (Eigen::Index c = 0; c < block_columns; ++c) {
    const Eigen::Index left = c * column_block, last = std::min(left + column_block, columns) - 1;
    binned.column_labels.push_back(
        span_label(column_label(table, left), column_label(table, last)));
  }
  const bool even = rows % row_block == 0 && columns % column_block == 0;
  binned.title =
      fmt::format("{} ({}×{}, drawn as {}×{} blocks of {}×{}{}: each the largest value in it)",
                  table_title(table), rows, columns, block_rows, block_columns, row_block,
                  column_block, even ? "" : ", the last ones smaller");
  return binned;
}

DemoResult readable_figures(const DemoResult& result, Eigen::Index blocks) {
  DemoResult readable = result;
  for (Table& table : readable.tables)
    table = readable_heatmap(table, blocks);
  return readable;
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

namespace {

// A --set value as the demo reads it back: lists comma-joined, text as it is.
std::string assignment_value(const nlohmann::ordered_json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (!value.is_array()) return value.dump();
  std::string joined;
  for (const auto& item : value)
    joined += (joined.empty() ? "" : ",") + assignment_value(item);
  return joined;
}

}  // namespace

std::string reproduce_command(const DemoResult& result, const DemoInfo& info,
                              std::string_view program) {
  std::string command = std::string(program) + " demo run " +
                        text::shell_word(info.name.empty() ? result.demo : info.name);
  if (!result.params.is_object()) return command;
  for (const demo::ParamSpec& spec : info.params) {
    const auto given = result.params.find(spec.name);
    // Compared as one JSON type, so 2 and 2.0 are the same default.
    if (given == result.params.end() || nlohmann::json::parse(given->dump()) == spec.default_value)
      continue;
    command += " --set " + text::shell_word(spec.name + "=" + assignment_value(*given));
  }
  if (const auto seed = result.params.find("seed");
      seed != result.params.end() && seed->is_number() && *seed != 0)
    command += " --seed " + seed->dump();
  return command;
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
