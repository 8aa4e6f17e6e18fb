// Markdown figures (see markdown_figure.hpp).
#include "render/markdown_figure.hpp"

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
#include "render/terminal_figure.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/utf8.hpp"
#include "text/width.hpp"

namespace proofdeck::render {

namespace {

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

std::string heading(int level, const std::string& title) {
  return std::string(static_cast<std::size_t>(std::clamp(level, 1, 6)), '#') + " " +
         text::markdown_cell(title) + "\n\n";
}

// A table under its own heading, or under a caption when a pair shares the heading; a heatmap
// as the caller's figure link when it keeps figures as files.
void md_table(std::string& out, const Table& table, const MarkdownOptions& options, int level,
              const std::string& caption = {}) {
  out += caption.empty() ? heading(level, table_title(table))
                         : "*" + text::markdown_cell(caption) + "*\n\n";
  if (table.heatmap && options.link_figure) {
    out += options.link_figure(svg_figure_file(table)) + "\n\n";
    return;
  }
  std::vector<std::string> header{""};
  for (Eigen::Index c = 0; c < table.cells.cols(); ++c)
    header.push_back(text::markdown_cell(column_label(table, c)));
  out += md_row(header) + md_rule(header.size(), true);
  const std::vector<std::vector<std::string>> cells = cell_texts(table);
  for (Eigen::Index r = 0; r < table.cells.rows(); ++r) {
    std::vector<std::string> row{"**" + text::markdown_cell(row_label(table, r)) + "**"};
    for (Eigen::Index c = 0; c < table.cells.cols(); ++c) {
      row.push_back(table.heatmap
                        ? format_cell(table.cells(r, c), 3)
                        : cells[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)]);
    }
    out += md_row(row);
  }
  out += "\n";
}

// A series once: the caller's figure link, or the terminal's text chart in a fence (its bars
// carry their values, so no table of points repeats them).
void md_series(std::string& out, const Series& series, const MarkdownOptions& options, int level) {
  if (!charted(series)) {
    if (one_point(series)) out += text::markdown_escape(one_point_sentence(series)) + "\n\n";
    return;
  }
  out += heading(level, series_title(series));
  if (const std::string subtitle = series_subtitle(series, "·"); !subtitle.empty()) {
    out += "*" + text::markdown_cell(subtitle) + "*\n\n";
  }
  if (options.link_figure) {
    out += options.link_figure(svg_figure_file(series)) + "\n\n";
    return;
  }
  const std::string picture = text_chart(series);
  // The fence is longer than any run of backticks a label could bring into the picture.
  std::size_t run = 0, longest = 0;
  for (const char c : picture) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
  out += fence + "text\n" + picture + fence + "\n\n";
}

}  // namespace

std::string render_markdown(const DemoResult& raw, const DemoInfo& info,
                            const MarkdownOptions& options) {
  const DemoResult result = readable_figures(raw);
  const int level = options.heading_level, part = options.heading_level + 1;
  std::string out = heading(level, info.title.empty() ? info.name : info.title);
  if (!result.claim_of(info).empty())
    out += "> " + text::markdown_cell(result.claim_of(info)) + "\n\n";
  std::string meta = text::markdown_code(info.name.empty() ? result.demo : info.name);
  if (const std::string& section = result.section_of(info); !section.empty())
    meta += " · " + text::markdown_cell(section);
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
    const std::string shared =
        pair ? shared_heading(table_title(tables[i]), table_title(tables[i + 1])) : "";
    if (shared.empty()) {
      md_table(out, tables[i], options, part);
      continue;
    }
    out += heading(part, shared);
    md_table(out, tables[i], options, part, table_title(tables[i]).substr(shared.size() + 2));
    md_table(out, tables[i + 1], options, part,
             table_title(tables[i + 1]).substr(shared.size() + 2));
    ++i;
  }
  for (const Series& series : result.series)
    md_series(out, series, options, part);
  for (const std::string& paragraph : result.text)
    out += text::markdown_escape(paragraph) + "\n\n";
  if (options.values && !result.values.empty()) {
    // The label in words, the number, and the name a bank's proof or a script reads it by.
    out += heading(part, "Values") + md_row({"value", "result", "name"}) + md_rule(3, true);
    for (const auto& [name, value] : result.values)
      out += md_row(
          {text::markdown_cell(value.label), format_value(value), text::markdown_code(name)});
    out += "\n";
  }
  while (out.size() > 1 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n')
    out.pop_back();
  return out;
}

}  // namespace proofdeck::render
