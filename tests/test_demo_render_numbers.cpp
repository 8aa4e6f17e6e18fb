// The numbers a figure prints agree with themselves: a table that samples its rows keeps the one
// its values name.
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

}  // namespace test_demo_render_numbers
