// The numbers a figure prints agree with themselves: a table that samples its rows keeps the one
// its values name, a chart's value axis labels every tick it marks, and a table of numbers keeps
// its grid where one space between columns makes it fit.
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
        if (line.starts_with("  max_diff_decode_vs_full ")) value = read_number(fields.back());
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

}  // namespace test_demo_render_numbers
