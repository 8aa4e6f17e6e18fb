// What every figure renderer reads off a demo result the same way: titles and labels of tables
// and series, parameters as `--set` takes them, values and cells as text.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "demo/demo.hpp"

namespace proofdeck::render {

using demo::DemoInfo;
using demo::DemoResult;
using demo::Series;
using demo::Table;
using demo::Value;

// A result's string on one terminal line: controls shown, tabs and newlines as spaces.
std::string one_line(std::string_view s);

// `piece` `count` times; `count` spaces (none when negative).
std::string repeat(std::string_view piece, int count);
std::string spaces(int count);

// A named value for people: yes/no, or a number as text::format_short writes it.
std::string format_value(const Value& value);

// Heatmap cells: fixed decimals so the columns line up; never "-0.00". An exact zero (a masked
// weight) reads 0, unlike a small weight rounded to 0.00.
std::string format_cell(double x, int decimals);

// A numeric table's cells for people, [row][column]: the numbers down each column with one number
// of decimals (text::format_column: "0.350" beside "0.414"). A table whose columns are named alike
// but for their numbers ("feature 0", "feature 1" …) holds one quantity: all its numbers share one.
std::vector<std::vector<std::string>> cell_texts(const Table& table);

// Every heatmap holds values in [0, 1] (weights), so one 0-to-1 legend explains them all.
bool unit_heatmaps(const DemoResult& result);

std::size_t points_of(const Series& series, const std::vector<double>& y);

std::vector<double> all_y(const Series& series);

// A series is drawn as a chart only where it has something to show: two points or more. One point
// is a sentence instead (one_point_sentence), and a series with no point is left out; every
// renderer asks here, so the text, Markdown, HTML and SVG figures agree.
bool charted(const Series& series);
bool one_point(const Series& series);

// A one-point series in words: "largest attention weight of a query (mean) at d_k = 16: ÷√d_k
// 0.334, unscaled 0.483."
std::string one_point_sentence(const Series& series);

// Whether the result draws a figure (a table, or a series charted) besides its list of values.
bool draws_figures(const DemoResult& result);

// How many figures a page of the result shows: heatmaps and charted series.
std::size_t figure_count(const DemoResult& result);

std::string table_title(const Table& table);

std::string series_title(const Series& series);

std::string row_label(const Table& table, Eigen::Index row);

std::string column_label(const Table& table, Eigen::Index column);

bool same_shape(const Table& a, const Table& b);

// Two titles "no positional encoding: cat bit dog" and "no positional encoding: dog bit cat"
// share a heading; each figure keeps only what differs.
std::string shared_heading(const std::string& a, const std::string& b);

// As `--set` takes it: a="cat bit dog", seed=42.
std::string parameter_text(const nlohmann::ordered_json& value);

std::vector<std::pair<std::string, std::string>> parameters(const DemoResult& result);

// The command that draws this run again: `proofdeck demo run NAME`, with a `--set` for every
// parameter not at its default and `--seed` unless 0 (the demo's own), quoted for a POSIX shell
// where a value needs it: "proofdeck demo run rope-scaling --set factor=4.0 --set trained=1024".
// `program`: how the reader runs proofdeck (PROOFDECK_COMMAND; the installed name by default).
std::string reproduce_command(const DemoResult& result, const DemoInfo& info,
                              std::string_view program = "proofdeck");

// A heatmap a reader can read: one with more than kMaxHeatmapCells rows or columns is drawn in
// blocks, at most `blocks` a side (capped at kHeatmapBlocks), each block one cell holding the
// largest value in it (so an exact zero, a masked weight, stays zero only where every cell is),
// its labels the first and last of the rows or columns it covers ("t0–t15"), and its title saying
// so. Every other table is returned as it is. The renderers draw these, never the raw cells of a
// large table (a 256×256 heatmap is 65,536 SVG cells: 8 MB a figure); JSON keeps every cell.
// 24 blocks of 24 pixels fit a printed page beside their labels.
inline constexpr Eigen::Index kMaxHeatmapCells = 32;
inline constexpr Eigen::Index kHeatmapBlocks = 24;
Table readable_heatmap(const Table& table, Eigen::Index blocks = kHeatmapBlocks);

// The result with every heatmap readable (readable_heatmap), the rest unchanged.
DemoResult readable_figures(const DemoResult& result, Eigen::Index blocks = kHeatmapBlocks);

// "variance by layer · log scale": what a series' axes show, `dot` between the parts.
std::string series_subtitle(const Series& series, std::string_view dot);

}  // namespace proofdeck::render
