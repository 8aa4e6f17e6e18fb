// Terminal tables and value lists (see terminal_table.hpp).
#include "render/terminal_table.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "render/parts.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::render::terminal {

using text::pad_left;
using text::pad_right;

namespace {

// A table too wide for its columns, one record a row: the row's label, then a "column: value"
// line for each column. Nothing is cut: a long line wraps between words, and a number is one.
Lines stacked_records(const Table& table, const std::vector<std::string>& headers,
                      const std::vector<std::vector<std::string>>& cells, const Look& look) {
  Lines lines = styled_wrap(look.heading, one_line(table_title(table)), look.width);
  for (std::size_t r = 0; r < cells.size(); ++r) {
    append(lines, block_lines(one_line(row_label(table, static_cast<Eigen::Index>(r))), look.width,
                              "  ", "    "));
    for (std::size_t c = 0; c < cells[r].size(); ++c) {
      for (std::string& line :
           block_lines(headers[c] + ": " + cells[r][c], look.width, "    ", "      ")) {
        lines.push_back(std::move(line));
      }
    }
  }
  return lines;
}

}  // namespace

Lines numeric_table(const Table& table, const Look& look) {
  Lines lines = styled_wrap(look.heading, one_line(table_title(table)), look.width);
  const Eigen::Index rows = table.cells.rows(), cols = table.cells.cols();
  const std::vector<std::vector<std::string>> cells = cell_texts(table);
  std::vector<int> widths(static_cast<std::size_t>(cols), 1);
  std::vector<std::string> headers;
  for (Eigen::Index c = 0; c < cols; ++c)
    headers.push_back(one_line(column_label(table, c)));
  for (const std::vector<std::string>& row : cells) {
    for (std::size_t c = 0; c < row.size(); ++c)
      widths[c] = std::max(widths[c], text::display_width(row[c]));
  }
  int longest_label = 0;
  for (Eigen::Index r = 0; r < rows; ++r) {
    longest_label = std::max(longest_label, text::display_width(one_line(row_label(table, r))));
  }
  int label_width = std::min(longest_label, std::max(look.width / 3, 4));
  // Column widths: the whole header on one line if every column can have it, else its longest
  // word (the header wraps between words; a word over 12 columns is cut with "…", never split).
  // Two spaces between columns, or one where that makes the table fit; columns that still do not
  // fit are left out, marked "…" at the end of the header.
  int gap = 2;
  const auto total = [&](const std::vector<int>& w, std::size_t shown) {
    int sum = 2 + label_width;
    for (std::size_t c = 0; c < shown; ++c)
      sum += gap + w[c];
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
  widths = total(whole, whole.size()) <= look.width ? whole : by_word;
  if (total(widths, widths.size()) > look.width) gap = 1;
  std::size_t shown = widths.size();
  const int ellipsis = 2 + text::display_width(look.glyphs.ellipsis);
  while (shown > 1 && total(widths, shown) + (shown < widths.size() ? ellipsis : 0) > look.width) {
    --shown;
  }
  // Row labels have a third of the width, and what the columns leave over: a label may lose its
  // end to "…", but not a number in it.
  if (shown == widths.size())
    label_width =
        std::min(longest_label, label_width + std::max(look.width - total(widths, shown), 0));
  bool cuts_a_number = false;
  for (Eigen::Index r = 0; r < rows; ++r) {
    const std::string label = one_line(row_label(table, r));
    cuts_a_number = cuts_a_number || (text::display_width(label) > label_width &&
                                      std::any_of(label.begin(), label.end(),
                                                  [](char c) { return c >= '0' && c <= '9'; }));
  }
  if (shown < widths.size() || cuts_a_number) return stacked_records(table, headers, cells, look);

  // Headers on up to three lines, bottom-aligned over their numbers.
  constexpr std::size_t kHeaderLines = 3;
  std::vector<Lines> header_cells;
  std::size_t header_height = 1;
  for (std::size_t c = 0; c < shown; ++c) {
    std::string fitted;
    std::string_view rest = headers[c];
    while (!rest.empty()) {
      const std::size_t space = rest.find(' ');
      fitted += (fitted.empty() ? "" : " ") + look.fit(rest.substr(0, space), widths[c]);
      rest.remove_prefix(space == std::string_view::npos ? rest.size() : space + 1);
    }
    Lines cell = text::wrap(fitted, widths[c]);
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
      header += spaces(gap) + pad_left(line < blank ? "" : cell[line - blank], widths[c]);
    }
    lines.push_back(styled(look.dim, header));
  }
  for (Eigen::Index r = 0; r < rows; ++r) {
    std::string line =
        "  " + pad_right(look.fit(one_line(row_label(table, r)), label_width), label_width);
    for (std::size_t c = 0; c < shown; ++c) {
      line += spaces(gap) + pad_left(cells[static_cast<std::size_t>(r)][c], widths[c]);
    }
    lines.push_back(line);
  }
  return lines;
}

namespace {

// A label cut to `columns` at the end of a word, then "…": never in a word, and never after a
// number whose unit was cut ("Attention parameters with biases…", not "…biases, 1…", which
// reads as a number cut short).
std::string cut_at_word(const Look& look, const std::string& label, int columns) {
  if (text::display_width(label) <= columns) return label;
  const std::string cut = look.fit(label, columns);
  std::string kept = cut.substr(0, cut.size() - look.glyphs.ellipsis.size());
  // The word the cut went through goes, unless the cut fell just after it.
  if (kept.size() < label.size() && label[kept.size()] != ' ') {
    const std::size_t space = kept.rfind(' ');
    kept.erase(space == std::string::npos ? 0 : space);
  }
  const auto trim = [&kept] {
    while (!kept.empty() && (kept.back() == ' ' || kept.back() == ',' || kept.back() == ';'))
      kept.pop_back();
  };
  trim();
  // A number left at the end has lost what it counts.
  for (std::size_t word = kept.rfind(' ');
       word != std::string::npos &&
       kept.find_first_not_of("0123456789.,", word + 1) == std::string::npos;
       word = kept.rfind(' ')) {
    kept.erase(word);
    trim();
  }
  return kept.empty() ? cut : kept + look.glyphs.ellipsis;
}

}  // namespace

Lines value_list(const std::vector<std::pair<std::string, Value>>& values, const Look& look,
                 bool names) {
  int label_width = 1, value_width = 1, name_width = 0;
  for (const auto& [name, value] : values) {
    label_width = std::max(label_width, text::display_width(one_line(value.label)));
    value_width = std::max(value_width, text::display_width(format_value(value)));
    name_width = std::max(name_width, text::display_width(one_line(name)));
  }
  // The label whole on one line when the width has room for the longest; else, in the full form,
  // each label wraps in its column, its number on its last line, and in quiz feedback (a few
  // lines) it is cut.
  const int room = std::max(look.width - 4 - value_width, 10);
  label_width = std::min(label_width, room);
  // The names, for a bank's proofs and scripts, after the numbers when the line has room.
  const bool named = names && 2 + label_width + 2 + value_width + 2 + name_width <= look.width;
  Lines lines;
  for (const auto& [name, value] : values) {
    const std::vector<std::string> label =
        look.full ? text::wrap(one_line(value.label), label_width)
                  : std::vector<std::string>{cut_at_word(look, one_line(value.label), label_width)};
    for (std::size_t i = 0; i + 1 < label.size(); ++i)
      lines.push_back("  " + label[i]);
    std::string line = "  " + pad_right(label.empty() ? "" : label.back(), label_width) + "  " +
                       styled(look.value, pad_left(format_value(value), value_width));
    if (named) line += "  " + styled(look.dim, one_line(name));
    lines.push_back(line);
  }
  return lines;
}

Lines value_columns(const std::vector<std::pair<std::string, Value>>& values, const Look& look) {
  int label_width = 1, value_width = 1;
  for (const auto& [name, value] : values) {
    label_width = std::max(label_width, text::display_width(one_line(value.label)));
    value_width = std::max(value_width, text::display_width(format_value(value)));
  }
  const int cell = label_width + 2 + value_width;
  if (values.size() < 2 || 2 + cell + 4 + cell > look.width) return value_list(values, look);
  Lines lines;
  const std::size_t half = (values.size() + 1) / 2;
  const auto entry = [&](const std::pair<std::string, Value>& item) {
    return pad_right(one_line(item.second.label), label_width) + "  " +
           styled(look.value, pad_left(format_value(item.second), value_width));
  };
  for (std::size_t i = 0; i < half; ++i) {
    std::string line = "  " + entry(values[i]);
    if (i + half < values.size()) line += "    " + entry(values[i + half]);
    lines.push_back(line);
  }
  return lines;
}

}  // namespace proofdeck::render::terminal
