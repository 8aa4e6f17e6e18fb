// The numbers a figure prints agree with themselves: a table that samples its rows keeps the one
// its values name, a chart's value axis labels every tick it marks, a table of numbers keeps its
// grid where one space between columns makes it fit, and the numbers down a table's column share
// their decimals — in text, Markdown and HTML alike.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "demo_test_support.hpp"
#include "golden.hpp"
#include "number_readback.hpp"
#include "render/figure.hpp"
#include "render/theme.hpp"

namespace test_demo_render_numbers {

namespace {

using Catch::Matchers::Contains;
using proofdeck::Theme;
using proofdeck::demo::DemoInfo;
using proofdeck::demo::DemoResult;
using proofdeck::demo::Series;
using proofdeck::demo::Table;
using proofdeck::render::TextForm;
using proofdeck::render::TextOptions;
using proofdeck::testing::lines_of;

// --- reading printed numbers back ----------------------------------------------------------------

// "1,048,576" → 1048576, "1.33×10⁻¹⁵" → 1.33e-15.
double read_number(std::string_view printed) {
  const auto read = proofdeck::testing::read_back(printed);
  REQUIRE(read);
  return read->value;
}

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::string word;
  for (const char c : line + " ") {
    if (c != ' ') {
      word += c;
    } else if (!word.empty()) {
      out.push_back(std::move(word));
      word.clear();
    }
  }
  return out;
}

std::string text_of(const DemoResult& result, const DemoInfo& info, int width) {
  return proofdeck::render::render_text(result, info, Theme::plain(),
                                        TextOptions{TextForm::full, width, true, true});
}

const DemoInfo& info_of(const std::string& name) {
  const DemoInfo* info = proofdeck::demo::find_demo(name);
  REQUIRE(info != nullptr);
  return *info;
}

}  // namespace

// --- a sampled table keeps the row its values name -----------------------------------------------

TEST_CASE("the kv-cache step table's largest difference is the one its values print",
          "[render][kv-cache]") {
  const std::vector<std::vector<std::string>> settings{
      {}, {"tokens=64"}, {"tokens=40", "kv_heads=1"}, {"tokens=5"}, {"tokens=1"}};
  for (const std::vector<std::string>& sets : settings) {
    for (const std::uint64_t seed : {0u, 1u, 2u, 7u}) {
      const DemoResult result = proofdeck::testing::run("kv-cache", sets, seed);
      const std::string text = text_of(result, info_of("kv-cache"), 100);
      INFO("seed " << seed << ", " << sets.size() << " settings\n" << text);
      double table_max = -1.0, value = -2.0;
      int rows = 0;
      for (const std::string& line : lines_of(text)) {
        const std::vector<std::string> fields = words(line);
        if (line.starts_with("  token ")) {
          table_max = std::max(table_max, read_number(fields.back()));
          ++rows;
        }
        // The value by its label, its number last (or before its name, when that fits too).
        const std::string& label = result.find("max_diff_decode_vs_full")->label;
        if (line.starts_with("  " + label + " ")) {
          value = read_number(fields.back() == "max_diff_decode_vs_full" ? fields[fields.size() - 2]
                                                                         : fields.back());
        }
      }
      CHECK(rows > 0);
      CHECK(table_max == value);
      const auto live_tokens = static_cast<int>(proofdeck::testing::number(result, "live_tokens"));
      const std::string& title = result.tables.front().title;
      if (rows < live_tokens) {
        CHECK_THAT(title, Contains(std::to_string(rows) + " of " + std::to_string(live_tokens)));
      } else {
        CHECK(rows == live_tokens);
        CHECK_THAT(title, Contains("after each decode step"));
      }
    }
  }
}

// --- every tick on a value axis has its label ----------------------------------------------------

namespace {

// The glyphs of a line, one a column (every glyph these figures use is one column wide).
std::vector<std::string> columns_of(const std::string& line) {
  std::vector<std::string> glyphs;
  for (std::size_t at = 0; at < line.size();) {
    std::size_t end = at + 1;
    while (end < line.size() && (static_cast<unsigned char>(line[end]) & 0xC0) == 0x80)
      ++end;
    glyphs.push_back(line.substr(at, end - at));
    at = end;
  }
  return glyphs;
}

// The axis line (└┬──┬──) and the labels under it: at least two ticks, each under one label, and
// each label over one tick.
void check_axis(const std::string& axis_line, const std::string& label_line) {
  INFO(axis_line << "\n" << label_line);
  const std::vector<std::string> axis = columns_of(axis_line), labels = columns_of(label_line);
  std::vector<std::size_t> ticks;
  for (std::size_t c = 0; c < axis.size(); ++c)
    if (axis[c] == "┬") ticks.push_back(c);
  CHECK(ticks.size() >= 2);
  std::size_t labelled = 0;
  for (std::size_t start = 0; start < labels.size();) {
    if (labels[start] == " ") {
      ++start;
      continue;
    }
    std::size_t end = start;
    while (end < labels.size() && labels[end] != " ")
      ++end;
    const auto under = std::count_if(ticks.begin(), ticks.end(),
                                     [&](std::size_t tick) { return tick >= start && tick < end; });
    CHECK(under == 1);
    labelled += static_cast<std::size_t>(under);
    start = end;
  }
  CHECK(labelled == ticks.size());
}

void check_axes(const std::string& text) {
  const std::vector<std::string> lines = lines_of(text);
  std::size_t axes = 0;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    if (lines[i].find("└") == std::string::npos) continue;
    check_axis(lines[i], lines[i + 1]);
    ++axes;
  }
  CHECK(axes > 0);
}

// A wide-valued linear series and a signed one, beside the demos' own.
DemoResult awkward_charts() {
  DemoResult result;
  result.demo = "charts";
  Series bytes;
  bytes.name = "bytes";
  bytes.title = "bytes";
  bytes.x = {1, 2, 8};
  bytes.lines = {{"KV cache", {33554432.0, 67108864.0, 268435456.0}}};
  Series signed_series;
  signed_series.name = "signed";
  signed_series.title = "signed";
  signed_series.x = {1, 2, 3, 4};
  signed_series.lines = {{"line", {-3.5, 0.0, 2.25, 10.0}}};
  Series decades;
  decades.name = "decades";
  decades.title = "decades";
  decades.x = {1, 2, 3};
  decades.lines = {{"gradient", {3.4e-9, 16.05, 7857485.6}}};
  decades.log_scale = true;
  result.series = {bytes, signed_series, decades};
  return result;
}

}  // namespace

TEST_CASE("every chart labels each tick of its value axis, at every width from 40",
          "[render][axis]") {
  for (const DemoInfo& info : proofdeck::demo::catalog()) {
    const DemoResult result = proofdeck::testing::run(info.name);
    if (result.series.empty()) continue;
    for (const int width : {40, 50, 64, 80, 100, 160}) {
      INFO(info.name << " at " << width);
      check_axes(text_of(result, info, width));
    }
  }
  DemoInfo info;
  info.name = "charts";
  for (const int width : {40, 50, 64, 80, 100, 160}) {
    INFO("awkward charts at " << width);
    check_axes(text_of(awkward_charts(), info, width));
  }
}

// --- a table keeps its grid where it can ---------------------------------------------------------

TEST_CASE(
    "a table one space a column from fitting keeps its grid, and its labels take the room left",
    "[render][table]") {
  DemoResult result;
  result.demo = "features";
  Table table;
  table.name = "token0";
  table.title = "token 0";
  table.row_labels = {"input", "RMSNorm, input mean removed"};
  table.column_labels = {"feature 0", "feature 1", "feature 2",
                         "feature 3", "feature 4", "feature 5"};
  table.cells.resize(2, 6);
  table.cells << 1.12, 3.86, 3.23, 2.96, 2.78, 3.42,  //
      -2.11, 1.56, 0.713, 0.353, 0.114, 0.969;
  result.tables = {table};
  DemoInfo info;
  info.name = "features";
  const std::string text = text_of(result, info, 80);
  INFO(text);
  CHECK_THAT(text, !Contains("feature 0:"));  // not one record a row
  const std::vector<std::string> lines = lines_of(text);
  const auto row = std::find_if(lines.begin(), lines.end(), [](const std::string& line) {
    return line.starts_with("  RMSNorm, input mean removed ");
  });
  REQUIRE(row != lines.end());
  CHECK(words(*row).size() == 4 + 6);
}

// --- one column, one number of decimals ----------------------------------------------------------

namespace {

constexpr std::string_view kTimesTen = "×10";

bool scientific(std::string_view number) {
  return number.find(kTimesTen) != std::string_view::npos;
}

// Decimals of a plain number, or of a scientific one's mantissa: "0.350" 3, "1.5×10⁻¹⁶" 1.
int decimals(std::string_view number) {
  const std::string_view mantissa = number.substr(0, number.find(kTimesTen));
  const std::size_t dot = mantissa.find('.');
  return dot == std::string_view::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
}

bool is_number(std::string_view text) {
  return !text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) != 0 ||
                           (text[0] == '-' && text.size() > 1));
}

// Each column's numbers: plain ones with one number of decimals, scientific ones with one number
// of decimals in the mantissa. `whole_table`: the whole table's alike.
void check_decimals(const std::vector<std::vector<std::string>>& rows, bool whole_table) {
  std::vector<std::vector<std::string>> columns;
  for (const std::vector<std::string>& row : rows) {
    columns.resize(std::max(columns.size(), whole_table ? 1 : row.size()));
    for (std::size_t c = 0; c < row.size(); ++c)
      if (is_number(row[c])) columns[whole_table ? 0 : c].push_back(row[c]);
  }
  for (const std::vector<std::string>& column : columns) {
    for (const bool exponent : {false, true}) {
      std::vector<int> seen;
      std::string numbers;
      for (const std::string& number : column) {
        if (scientific(number) != exponent) continue;
        seen.push_back(decimals(number));
        numbers += number + "  ";
      }
      INFO(numbers);
      CHECK(std::adjacent_find(seen.begin(), seen.end(), std::not_equal_to<>()) == seen.end());
    }
  }
}

// Columns named alike but for their numbers ("feature 0", "feature 1") hold one quantity.
bool one_quantity(const Table& table) {
  const auto letters = [](std::string label) {
    std::erase_if(label, [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
    return label;
  };
  return table.column_labels.size() > 1 &&
         std::all_of(table.column_labels.begin(), table.column_labels.end(),
                     [&](const std::string& label) {
                       return letters(label) == letters(table.column_labels.front());
                     });
}

// The cells of each Markdown table: rows that start with a bold label, the label left out.
std::vector<std::vector<std::vector<std::string>>> markdown_tables(const std::string& markdown) {
  std::vector<std::vector<std::vector<std::string>>> tables;
  bool in_table = false;
  for (const std::string& line : lines_of(markdown)) {
    if (!line.starts_with("| **")) {
      in_table = false;
      continue;
    }
    if (!in_table) tables.emplace_back();
    in_table = true;
    std::vector<std::string> cells;
    for (std::size_t at = line.find(" | ", 2); at != std::string::npos;) {
      const std::size_t end = line.find(" |", at + 3);
      cells.push_back(line.substr(at + 3, end - at - 3));
      at = line.find(" | ", end);
    }
    tables.back().push_back(std::move(cells));
  }
  return tables;
}

}  // namespace

TEST_CASE("numbers down a table's column share their decimals, in text, Markdown and HTML",
          "[render][decimals]") {
  DemoResult result;
  result.demo = "columns";
  Table table;
  table.name = "columns";
  table.title = "shares and differences";
  table.row_labels = {"a", "b", "c"};
  table.column_labels = {"share", "difference", "count"};
  table.cells.resize(3, 3);
  table.cells << 0.35, 1.5e-16, 2,  //
      0.414, 1.33e-15, 1024,        //
      0.5, 0.0, 3;
  result.tables = {table};
  DemoInfo info;
  info.name = "columns";
  const std::string text = text_of(result, info, 80);
  INFO(text);
  for (const std::string& form : {text, proofdeck::render::render_markdown(result, info),
                                  proofdeck::render::render_html(result, info)}) {
    CHECK_THAT(form, Contains("0.350") && Contains("0.414") && Contains("0.500"));
    CHECK_THAT(form, Contains("1.50×10⁻¹⁶") && Contains("1.33×10⁻¹⁵"));
    CHECK_THAT(form, Contains("1,024") && !Contains("1,024.0") && !Contains("2.0"));
  }
}

TEST_CASE("every demo's tables share decimals down each column", "[render][decimals]") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> runs{
      {"kv-cache", {"tokens=64"}},
      {"gqa-params", {"kv_heads=8,4,2,1"}},
      {"residual-gradient", {"layers=12"}},
      {"pre-vs-post-ln", {"depths=3,6"}},
      {"sqrt-dk-scaling", {"d_k=2,3,5,700"}},
      {"swiglu-params", {"d_model=768"}}};
  std::vector<std::pair<std::string, DemoResult>> results;
  for (const DemoInfo& info : proofdeck::demo::catalog())
    results.emplace_back(info.name, proofdeck::testing::run(info.name));
  for (const auto& [name, sets] : runs)
    results.emplace_back(name, proofdeck::testing::run(name, sets));
  for (auto& [name, result] : results) {
    // Heatmaps have their own fixed decimals (an exact zero, a masked weight, reads 0).
    std::erase_if(result.tables, [](const Table& table) { return table.heatmap; });
    proofdeck::render::MarkdownOptions options;
    options.values = false;
    const auto tables =
        markdown_tables(proofdeck::render::render_markdown(result, info_of(name), options));
    REQUIRE(tables.size() == result.tables.size());
    for (std::size_t t = 0; t < tables.size(); ++t) {
      INFO(name << ": " << result.tables[t].title);
      check_decimals(tables[t], one_quantity(result.tables[t]));
    }
  }
}

TEST_CASE("a run with sentences of its own names them in its headline, its rows whole",
          "[render][demo]") {
  const DemoResult result = proofdeck::testing::run(
      "order-blindness",
      {"a=transformers attend everywhere", "b=everywhere transformers attend", "focus=attend"}, 0);
  for (const int width : {80, 100, 160}) {
    const std::string text = text_of(result, info_of("order-blindness"), width);
    INFO("at " << width << " columns:\n" << text);
    const std::vector<std::string> lines = lines_of(text);
    REQUIRE(lines.size() > 3);
    const std::string head = lines[0] + "\n" + lines[1] + "\n" + lines[2] + "\n" + lines[3];
    CHECK_THAT(head, Contains("transformers attend everywhere") && !Contains("cat bit dog"));
    // The heatmaps' row labels are the words, whole: side by side only where both fit whole.
    CHECK_THAT(text, Contains("  transformers ") && Contains(" everywhere ") &&
                         !Contains("transfor…") && !Contains("everywhe…"));
  }
}

}  // namespace test_demo_render_numbers
