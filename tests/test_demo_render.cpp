// The demo renderers: terminal text that fits its width and never passes a label's escape codes
// through, Markdown that escapes its cells, HTML that is self-contained and well-formed, all of it
// deterministic and pinned by golden files (tests/golden.hpp).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "demo_test_support.hpp"
#include "golden.hpp"
#include "html_test_support.hpp"
#include "render/figure.hpp"
#include "render/parts.hpp"
#include "render/theme.hpp"

namespace test_demo_render {

namespace {

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using proofdeck::Theme;
using proofdeck::demo::DemoInfo;
using proofdeck::demo::DemoResult;
using proofdeck::demo::Provenance;
using proofdeck::demo::Series;
using proofdeck::demo::Table;
using proofdeck::render::TextForm;
using proofdeck::render::TextOptions;
using proofdeck::testing::check_golden;
using proofdeck::testing::lines_of;

// --- samples ----------------------------------------------------------------------------------

Table attention(std::string name, std::string title, std::vector<std::string> tokens,
                Eigen::MatrixXd weights) {
  Table table;
  table.name = std::move(name);
  table.title = std::move(title);
  table.row_labels = tokens;
  table.column_labels = std::move(tokens);
  table.cells = std::move(weights);
  table.heatmap = true;
  return table;
}

// "cat bit dog" and "dog bit cat" without positional encoding: the same weights, permuted.
std::pair<Table, Table> sentence_pair() {
  Eigen::MatrixXd a(3, 3);
  a << 0.62, 0.21, 0.17,  //
      0.40, 0.35, 0.25,   //
      0.05, 0.15, 0.80;
  Eigen::MatrixXd swap(3, 3);
  swap << 0, 0, 1, 0, 1, 0, 1, 0, 0;
  const Eigen::MatrixXd b = swap * a * swap;
  return {
      attention("weights_none_a", "no positional encoding: cat bit dog", {"cat", "bit", "dog"}, a),
      attention("weights_none_b", "no positional encoding: dog bit cat", {"dog", "bit", "cat"}, b)};
}

Series variance_series() {
  Series series;
  series.name = "variance_per_layer";
  series.title = "Activation variance per layer";
  series.x_label = "layer";
  series.y_label = "variance";
  for (int layer = 1; layer <= 20; ++layer)
    series.x.push_back(layer);
  series.lines.push_back(
      {"no normalization", {2.01,    4.05,    8.02,     16.3,     32.1,     64.8,     129.0,
                            258.5,   515.0,   1031.2,   2061.7,   4115.9,   8240.3,   16511.2,
                            32987.5, 65844.1, 131870.6, 263391.9, 527125.4, 1052871.3}});
  series.lines.push_back(
      {"LayerNorm after each layer",
       {1.0, 0.99998, 1.00001, 0.99999, 1.0, 1.00002, 0.99997, 1.0, 1.00001, 0.99999,
        1.0, 1.0,     0.99998, 1.00002, 1.0, 0.99999, 1.00001, 1.0, 1.0,     1.0}});
  series.log_scale = true;
  return series;
}

DemoInfo sample_info() {
  DemoInfo info;
  info.name = "order-blindness";
  info.title = "Attention is blind to word order";
  info.claim =
      "Without positional information, self-attention gives the same weights to a sentence and "
      "to its reordering: each token's output is the same vector, only moved.";
  info.section = "L1 — Intuition";
  return info;
}

DemoResult sample_result() {
  DemoResult result;
  result.demo = "order-blindness";
  result.params = {{"a", "cat bit dog"}, {"b", "dog bit cat"}, {"seed", 42}};
  const auto [a, b] = sentence_pair();
  result.tables = {a, b};
  Table counts;
  counts.name = "parameter_counts";
  counts.title = "Parameters of one attention layer (d_model 512)";
  counts.row_labels = {"1 head", "8 heads"};
  counts.column_labels = {"per head Q/K/V", "Q/K/V total", "output", "total"};
  counts.cells.resize(2, 4);
  counts.cells << 786432, 786432, 262144, 1048576,  //
      98304, 786432, 262144, 1048576;
  result.tables.push_back(counts);
  result.series = {variance_series()};
  result.set("max_diff_none",
             "Largest attention-weight difference between the orders, no positional encoding", 0.0,
             Provenance::measured);
  result.set("max_diff_sinusoidal",
             "Largest attention-weight difference between the orders, sinusoidal encoding", 0.08341,
             Provenance::measured);
  result.set("max_diff_float_noise", "A difference at rounding level", 1e-12, Provenance::measured);
  result.set("total_h8", "Attention parameters without biases, 8 heads", 1048576.0,
             Provenance::counted);
  result.set("variance_no_norm_5", "Activation variance after layer 5, no normalization", 32.14,
             Provenance::measured);
  result.set("learned_refuses_600", "Learned position table refuses position 600", true,
             Provenance::measured);
  result.set("sinusoidal_defined_600", "Sinusoidal encoding defined at positions 600 and 6000",
             false, Provenance::measured);
  result.text = {
      "Without a positional encoding the two grids hold the same numbers, rows and columns "
      "permuted with the words: attention alone cannot tell the sentences apart.",
      "Any positional scheme (sinusoidal, learned or rotary) breaks the symmetry."};
  return result;
}

// Only the two heatmaps, for layout tests.
DemoResult pair_only() {
  DemoResult result;
  result.demo = "order-blindness";
  const auto [a, b] = sentence_pair();
  result.tables = {a, b};
  return result;
}

// Everything at once, and awkward: a 20×20 heatmap, long labels, a negative linear series.
DemoResult stress_result() {
  DemoResult result = sample_result();
  std::vector<std::string> tokens;
  for (int i = 0; i < 20; ++i)
    tokens.push_back("token_number_" + std::to_string(i));
  Eigen::MatrixXd weights = Eigen::MatrixXd::Constant(20, 20, 0.05);
  weights.diagonal().setConstant(0.9);
  result.tables.push_back(attention("big", "a long sentence", tokens, weights));
  Series signed_series;
  signed_series.name = "signed";
  signed_series.title = "A linear series with negative values and a very long title that wraps";
  signed_series.x = {1, 2, 3, 4};
  signed_series.lines = {{"line", {-3.5, 0.0, 2.25, 10.0}}};
  result.series.push_back(signed_series);
  result.set(std::string(70, 'n'), std::string(90, 'l'), 123456789.0, Provenance::derived);
  result.text.push_back(std::string(150, 'w') + " short words after a very long one");
  return result;
}

// --- helpers ----------------------------------------------------------------------------------

std::string strip_escapes(const std::string& text) {
  std::string plain;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      i += 2;
      while (i < text.size() && !(text[i] >= 0x40 && text[i] <= 0x7e))
        ++i;
      continue;
    }
    plain += text[i];
  }
  return plain;
}

// Display columns: one per UTF-8 code point.
int display_width(const std::string& line) {
  return static_cast<int>(std::count_if(line.begin(), line.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

int widest_line(const std::string& text) {
  int widest = 0;
  for (const std::string& line : lines_of(strip_escapes(text))) {
    widest = std::max(widest, display_width(line));
  }
  return widest;
}

std::string text_of(const DemoResult& result, int width, const Theme& theme = Theme::plain(),
                    TextForm form = TextForm::full, bool unicode = true) {
  return proofdeck::render::render_text(result, sample_info(), theme,
                                        TextOptions{form, width, unicode, true});
}

std::size_t count(const std::string& text, const std::string& piece) {
  std::size_t found = 0;
  for (std::size_t at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) {
    ++found;
  }
  return found;
}

// How a value reads in the full text form's value list.
std::string value_text(double number) {
  DemoResult result;
  result.set("probe", "A number at the edge of the width", number, Provenance::derived);
  // "  A number at the edge of the width  1,048,576  probe": the word before the name.
  for (std::string line : lines_of(text_of(result, 80))) {
    if (line.find("probe") == std::string::npos) continue;
    line.erase(line.find_last_not_of(' ', line.rfind("probe") - 1) + 1);
    return line.substr(line.find_last_of(' ') + 1);
  }
  return "(missing)";
}

using html_test::tag_problems;

}  // namespace

// --- text -------------------------------------------------------------------------------------

TEST_CASE("text never exceeds the width it is given", "[render]") {
  const DemoResult result = stress_result();
  for (const int width : {8, 20, 32, 40, 57, 80, 100, 132, 200}) {
    for (const TextForm form : {TextForm::full, TextForm::compact}) {
      for (const bool unicode : {true, false}) {
        for (const Theme& theme : {Theme::plain(), Theme::colored()}) {
          const std::string text = text_of(result, width, theme, form, unicode);
          INFO("width " << width << (form == TextForm::full ? " full" : " compact")
                        << (unicode ? " unicode" : " ascii") << "\n"
                        << text);
          CHECK(widest_line(text) <= width);
        }
      }
    }
  }
}

TEST_CASE("empty and degenerate results render in every format", "[render]") {
  DemoResult odd;
  Table empty;
  empty.heatmap = true;
  Table unlabelled;
  unlabelled.cells = Eigen::MatrixXd::Constant(2, 3, std::nan(""));
  unlabelled.cells(0, 0) = 7.5;  // outside [0, 1]: shaded over the table's own range
  unlabelled.heatmap = true;
  Series no_points;
  no_points.lines = {{"nothing", {}}};
  Series log_of_nothing;
  log_of_nothing.x = {1, 2};
  log_of_nothing.lines = {{"zero and below", {0.0, -1.0}}};
  log_of_nothing.log_scale = true;
  odd.tables = {empty, unlabelled};
  odd.series = {no_points, log_of_nothing};
  for (const DemoResult& result : {DemoResult{}, odd}) {
    for (const int width : {1, 5, 12, 80}) {
      for (const TextForm form : {TextForm::full, TextForm::compact}) {
        for (const Theme& theme : {Theme::plain(), Theme::colored()}) {
          const std::string text = proofdeck::render::render_text(
              result, DemoInfo{}, theme, TextOptions{form, width, true, true});
          CHECK(widest_line(text) <= width);
        }
      }
    }
    CHECK_NOTHROW(proofdeck::render::render_markdown(result, DemoInfo{}));
    CHECK(tag_problems(proofdeck::render::render_html(result, DemoInfo{})).empty());
  }
}

// d_k = 16 alone: what sqrt-dk-scaling draws when it is given one width.
DemoResult one_width_result() {
  Series weights;
  weights.name = "max_weight";
  weights.title = "largest attention weight of a query (mean)";
  weights.x_label = "d_k";
  weights.y_label = "max weight";
  weights.x = {16};
  weights.lines = {{"÷√d_k", {0.334}}, {"unscaled", {0.483}}};
  DemoResult result;
  result.demo = "sqrt-dk-scaling";
  result.series = {weights};
  result.set("max_weight_unscaled_dk16", "Mean largest attention weight at head width 16, unscaled",
             0.483, Provenance::measured);
  return result;
}

TEST_CASE("one point is a sentence in every format, never a chart", "[render][degenerate]") {
  const DemoResult result = one_width_result();
  const std::string sentence =
      "largest attention weight of a query (mean) at d_k = 16: ÷√d_k 0.334, unscaled 0.483.";
  CHECK(proofdeck::render::one_point_sentence(result.series.front()) == sentence);
  CHECK_FALSE(proofdeck::render::charted(result.series.front()));
  CHECK_FALSE(proofdeck::render::draws_figures(result));
  CHECK(proofdeck::render::figure_count(result) == 0);

  const std::string text = proofdeck::render::render_text(
      result, DemoInfo{}, Theme::plain(), TextOptions{TextForm::full, 160, true, false});
  CHECK_THAT(text, Contains(sentence));
  CHECK_THAT(text, !Contains("█"));       // no bar
  CHECK_THAT(text, !Contains("by d_k"));  // no chart subtitle
  const std::string compact = proofdeck::render::render_text(
      result, DemoInfo{}, Theme::plain(), TextOptions{TextForm::compact, 80, true, false});
  CHECK_THAT(compact, !Contains("more figure"));

  const std::string markdown = proofdeck::render::render_markdown(result, DemoInfo{});
  CHECK_THAT(markdown, Contains(sentence));
  CHECK_THAT(markdown, !Contains("```text"));
  proofdeck::render::MarkdownOptions linking;
  int links = 0;
  linking.link_figure = [&](const proofdeck::render::SvgFigure&) {
    ++links;
    return std::string("![figure](f.svg)");
  };
  CHECK_THAT(proofdeck::render::render_markdown(result, DemoInfo{}, linking), Contains(sentence));
  CHECK(links == 0);

  const std::string html = proofdeck::render::render_html(result, DemoInfo{});
  CHECK_THAT(html, Contains("<p class=\"one-point\">largest attention weight"));
  CHECK_THAT(html, !Contains("<svg"));
  CHECK_THAT(html, !Contains("<details"));  // the values are all there is to look at
  CHECK(proofdeck::render::render_svg_figures(result).empty());
}

TEST_CASE("two points are a chart again", "[render][degenerate]") {
  DemoResult result = one_width_result();
  result.series.front().x = {16, 256};
  result.series.front().lines = {{"÷√d_k", {0.334, 0.335}}, {"unscaled", {0.483, 0.97}}};
  CHECK(proofdeck::render::charted(result.series.front()));
  CHECK(proofdeck::render::one_point_sentence(result.series.front()).empty());
  CHECK(proofdeck::render::figure_count(result) == 1);
  CHECK_THAT(proofdeck::render::render_html(result, DemoInfo{}), Contains("<svg"));
  CHECK_THAT(proofdeck::render::render_markdown(result, DemoInfo{}), Contains("```text"));
  CHECK(proofdeck::render::render_svg_figures(result).size() == 1);
}

TEST_CASE("the plain theme writes no escape codes", "[render]") {
  for (const TextForm form : {TextForm::full, TextForm::compact}) {
    const std::string text = text_of(stress_result(), 80, Theme::plain(), form);
    CHECK(text.find('\x1b') == std::string::npos);
  }
}

TEST_CASE("the coloured theme paints heatmap cells from the 256-colour palette", "[render]") {
  const std::string text = text_of(sample_result(), 80, Theme::colored());
  CHECK_THAT(text, Contains("\x1b[48;5;"));
  CHECK_THAT(text, Contains("\x1b[1m"));      // the title, bold
  CHECK_THAT(text, !Contains("\x1b[48;2;"));  // never truecolor
}

TEST_CASE("without 256 colours heatmaps fall back to shade characters", "[render]") {
  const std::string text = proofdeck::render::render_text(
      pair_only(), sample_info(), Theme::colored(), TextOptions{TextForm::full, 80, true, false});
  CHECK_THAT(text, !Contains("\x1b[48;5;"));
  CHECK_THAT(text, Contains("▓▓ 0.80"));
}

TEST_CASE("heatmaps without colour show shades and numbers, in ASCII when asked", "[render]") {
  const std::string unicode = text_of(pair_only(), 80);
  CHECK_THAT(unicode, Contains("▓▓ 0.80"));  // 5 steps: " ░▒▓█"
  CHECK_THAT(unicode, Contains("▒▒ 0.62"));
  CHECK_THAT(unicode, Contains("░░ 0.15"));
  CHECK_THAT(unicode, Contains("   0.05"));
  DemoResult ascii_only = pair_only();
  const std::string ascii = proofdeck::render::render_text(
      ascii_only, DemoInfo{"order-blindness", "Blind", "", "", {}, {}, {}}, Theme::plain(),
      TextOptions{TextForm::full, 80, false, true});
  CHECK(std::all_of(ascii.begin(), ascii.end(),
                    [](char c) { return static_cast<unsigned char>(c) < 0x80; }));
  CHECK_THAT(ascii, Contains("** 0.62"));  // 0.62 on the 10-step ramp " .:-=+*#%@"
}

TEST_CASE("two heatmaps of one shape sit side by side when they fit", "[render]") {
  const auto side_by_side = [](const std::string& text) {
    const auto lines = lines_of(text);
    return std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
      return count(line, "0.62") == 2 || count(line, "bit") == 2;
    });
  };
  CHECK(side_by_side(text_of(pair_only(), 100)));
  CHECK(side_by_side(text_of(pair_only(), 80)));
  CHECK_FALSE(side_by_side(text_of(pair_only(), 40)));
  // Stacked, both are still drawn in full.
  CHECK(count(text_of(pair_only(), 40), "0.62") == 2);
}

TEST_CASE("a shared title prefix becomes one heading over the pair", "[render]") {
  const auto lines = lines_of(text_of(pair_only(), 80));
  CHECK(std::count(lines.begin(), lines.end(), "no positional encoding") == 1);
  CHECK(std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
    return line.find("cat bit dog") != std::string::npos &&
           line.find("dog bit cat") != std::string::npos;
  }));
}

TEST_CASE("side-by-side heatmaps start their grids on one line when their titles differ in height",
          "[render]") {
  DemoResult result = pair_only();
  result.tables[1].title =
      "no positional encoding: dog bit cat, the same three words the other "
      "way round, a title that wraps";
  const auto lines = lines_of(text_of(result, 80));
  // Every row of cells holds a cell of each grid: "cat  ░░ 0.62 …    dog  …".
  for (const std::string& line : lines) {
    if (line.find("0.") == std::string::npos) continue;
    INFO(line);
    CHECK(count(line, "0.") == 6);
  }
  CHECK(std::count_if(lines.begin(), lines.end(),
                      [](const std::string& line) { return count(line, "0.") == 6; }) == 3);
}

TEST_CASE("labels from a result reach the terminal sanitized", "[render]") {
  DemoResult result = pair_only();
  result.tables[0].row_labels[0] = "\x1b[31mred";
  result.tables[0].title = "evil\x07 title";
  result.set("\x1b]0;pwned\x07", "\x1b]0;pwned\x07", 1.0, Provenance::derived);
  result.text = {"a \x1b[2J paragraph"};
  for (const Theme& theme : {Theme::plain(), Theme::colored()}) {
    const std::string text = text_of(result, 120, theme);
    CHECK_THAT(text, Contains("\\x1b[31"));
    CHECK_THAT(text, Contains("evil\\x07 title"));
    CHECK_THAT(text, Contains("\\x1b]0;pwned\\x07"));
    CHECK_THAT(text, Contains("a \\x1b[2J paragraph"));
    CHECK_THAT(text, !Contains("\x1b[31m"));
    CHECK_THAT(text, !Contains("\x07"));
    CHECK_THAT(text, !Contains("\x1b]"));
  }
  const std::string markdown = proofdeck::render::render_markdown(result, sample_info());
  CHECK(markdown.find('\x1b') == std::string::npos);
  const std::string html = proofdeck::render::render_html(result, sample_info());
  CHECK(html.find('\x1b') == std::string::npos);
  CHECK(html.find('\x07') == std::string::npos);
}

TEST_CASE("a long row label is whole where the width has room, cut with an ellipsis where not",
          "[render]") {
  DemoResult result = pair_only();
  result.tables[0].row_labels[1] = "an extraordinarily long token label";
  const std::string roomy = text_of(result, 80);
  CHECK_THAT(roomy, Contains("an extraordinarily long token label  ▒▒ 0.40"));
  CHECK(widest_line(roomy) <= 80);
  const std::string narrow = text_of(result, 40);
  CHECK_THAT(narrow, Contains("an extra") && Contains("…  ▒▒ 0.40"));
  CHECK_THAT(narrow, !Contains("long token label"));
  CHECK(widest_line(narrow) <= 40);
}

TEST_CASE("an exact zero in a heatmap reads 0, a small weight 0.00", "[render]") {
  DemoResult result;
  Eigen::MatrixXd weights(2, 2);
  weights << 1.0, 0.0,  //
      0.996, 0.004;
  result.tables = {attention("causal", "causal", {"t0", "t1"}, weights)};
  const std::string text = text_of(result, 80);
  CHECK_THAT(text, Contains("t0  ██ 1.00       0"));
  CHECK_THAT(text, Contains("t1  ██ 1.00    0.00"));
}

TEST_CASE("table headers wrap rather than lose words", "[render]") {
  DemoResult result;
  Table table;
  table.title = "token 0's features";
  table.row_labels = {"LayerNorm, batch A", "BatchNorm, batch A"};
  for (int c = 0; c < 6; ++c)
    table.column_labels.push_back("feature " + std::to_string(c));
  table.cells = Eigen::MatrixXd::Constant(2, 6, -0.657);
  result.tables = {table};
  const std::string text = text_of(result, 80);
  INFO(text);
  CHECK_THAT(text, Contains("feature  feature"));
  CHECK_THAT(text, Contains("      0        1"));
  CHECK_THAT(text, !Contains("…"));
  CHECK(widest_line(text) <= 80);
}

TEST_CASE("compact feedback shows the first figure before the values", "[render]") {
  DemoResult result;
  Eigen::MatrixXd weights = Eigen::MatrixXd::Zero(6, 6);
  for (int r = 0; r < 6; ++r)
    weights.row(r).head(r + 1).setConstant(1.0 / (r + 1));
  const std::vector<std::string> tokens{"t0", "t1", "t2", "t3", "t4", "t5"};
  result.tables = {attention("causal", "causal attention", tokens, weights),
                   attention("bidirectional", "bidirectional attention", tokens,
                             Eigen::MatrixXd::Constant(6, 6, 1.0 / 6))};
  result.set("future_weight_max", "Largest attention weight on a future position, causal mask", 0.0,
             Provenance::measured);
  result.set("earlier_output_change_causal",
             "Largest change in earlier outputs when token 5 changes, causal mask", 0.0,
             Provenance::measured);
  result.set("earlier_output_change_bidirectional",
             "Largest change in earlier outputs when token 5 changes, no mask", 0.786,
             Provenance::measured);
  result.set("changed_position", "Position of the changed token", 5.0, Provenance::derived);
  const std::string text = text_of(result, 80, Theme::plain(), TextForm::compact);
  INFO(text);
  CHECK(lines_of(text).size() <= 12);
  CHECK_THAT(text, Contains("causal attention"));
  CHECK_THAT(text, Contains("t5  ░░ 0.17"));
  CHECK_THAT(text, Contains("Largest attention weight on a future position, causal mask  0"));
}

TEST_CASE("numbers read the way people write them", "[render]") {
  CHECK(value_text(1048576) == "1,048,576");
  CHECK(value_text(-1024) == "-1,024");
  CHECK(value_text(0.0) == "0");
  CHECK(value_text(-0.0) == "0");
  CHECK(value_text(1e-12) == "1×10⁻¹²");
  CHECK(value_text(3.4e-17) == "3.4×10⁻¹⁷");
  CHECK(value_text(0.08341) == "0.0834");
  CHECK(value_text(32.14) == "32.1");
  CHECK(value_text(2.0) == "2");
  CHECK(value_text(1052871.3) == "1,052,871.3");  // never a non-integer as an integer
  CHECK(value_text(2.5e15) == "2.5×10¹⁵");
  DemoResult booleans;
  booleans.set("refused", "Refused", true, Provenance::measured);
  booleans.set("defined", "Defined", false, Provenance::measured);
  const std::string text = text_of(booleans, 80);
  CHECK_THAT(text, Contains("Refused  yes"));
  CHECK_THAT(text, Contains("Defined   no"));
}

TEST_CASE("a log-scale series is drawn as bars and says so", "[render]") {
  const std::string text = text_of(sample_result(), 80);
  CHECK_THAT(text, Contains("variance by layer · log scale"));
  CHECK_THAT(text, Contains("1,052,871.3"));  // the value at the end of the longest bar
  CHECK_THAT(text, Contains("10⁶"));          // a decade on the axis
  const auto lines = lines_of(text);
  const auto bar_of_layer = [&](const std::string& layer) {
    const auto line = std::find_if(lines.begin(), lines.end(), [&](const std::string& line_text) {
      const std::size_t at = line_text.find(layer + " │");
      return at != std::string::npos && at == line_text.find_first_not_of(' ');
    });
    return line == lines.end() ? 0 : static_cast<int>(count(*line, "█"));
  };
  // log10 from 0.1: layer 5 (32.1) reaches 2.5 decades, layer 20 (1.05e6) 7.
  const int bar_5 = bar_of_layer("5");
  const int bar_20 = bar_of_layer("20");
  CHECK(bar_5 > 0);
  // Whole blocks are counted, so each bar may be up to one block short of its length.
  CHECK(bar_20 * 25 > bar_5 * 70 - 70 - 25);
  CHECK(bar_20 * 25 < bar_5 * 70 + 70 + 25);
  // A run of layers with the same value is one bar; a value just off 1 is not written as 1, so
  // LayerNorm's jitter keeps its own bars.
  CHECK_THAT(text, Contains("18–20 │"));
  CHECK_THAT(text, Contains("0.99998"));
  CHECK_THAT(text, !Contains("1–20 │"));
}

TEST_CASE(
    "a line that reads the same at every x is a level marked across the other bars, not one "
    "bar for the whole range",
    "[render]") {
  DemoResult result = sample_result();
  Series ceiling;
  ceiling.name = "angle";
  ceiling.title = "angle by position";
  ceiling.x_label = "position";
  ceiling.x = {0, 1, 2, 3, 4, 5, 6, 7};
  ceiling.lines = {{"unscaled", {0, 1, 2, 3, 4, 5, 6, 7}},
                   {"trained range ends", {4, 4, 4, 4, 4, 4, 4, 4}}};
  result.series = {ceiling};
  const std::string text = text_of(result, 80);
  CHECK_THAT(text, Contains("┊ trained range ends = 4, the same from position 0 to 7") &&
                       !Contains("0–7 │"));
  const auto lines = lines_of(text);
  const auto row = [&](const std::string& x) {
    const auto line = std::find_if(lines.begin(), lines.end(), [&](const std::string& l) {
      return l.find(x + " │") != std::string::npos;
    });
    REQUIRE(line != lines.end());
    return *line;
  };
  // The mark stands in one column: past a short bar's value, across a long bar.
  const std::size_t column = row("1").rfind("┊");
  REQUIRE(column != std::string::npos);
  CHECK(row("1").find(" 1 ", row("1").find("│")) < column);  // the value beside its bar
  CHECK(row("7").find("┊") != std::string::npos);
  CHECK(proofdeck::text::display_width(row("1").substr(0, column)) ==
        proofdeck::text::display_width(row("7").substr(0, row("7").find("┊"))));
  CHECK_THAT(row("7"), Contains("┊█"));

  // Every line flat: no line to mark them on, so each is drawn as it is.
  ceiling.lines = {{"a", {2, 2, 2, 2, 2, 2, 2, 2}}, {"b", {3, 3, 3, 3, 3, 3, 3, 3}}};
  result.series = {ceiling};
  CHECK_THAT(text_of(result, 80), Contains("0–7 │") && !Contains("┊"));
}

TEST_CASE("the compact form fits quiz feedback", "[render]") {
  const std::string text = text_of(sample_result(), 80, Theme::plain(), TextForm::compact);
  INFO(text);
  CHECK(lines_of(text).size() <= 12);
  CHECK_THAT(text, Contains("0.62"));                                 // the heatmaps
  CHECK_THAT(text, Contains("Largest attention-weight difference"));  // the values, in words
  CHECK_THAT(text, !Contains("max_diff_none"));                       // not by their names
  CHECK_THAT(text, !Contains("Sinusoidal encoding defined"));         // only the first six
  CHECK_THAT(text, !Contains("permuted with the words"));             // no paragraphs
}

TEST_CASE("text output is deterministic", "[render]") {
  for (const Theme& theme : {Theme::plain(), Theme::colored()}) {
    CHECK(text_of(stress_result(), 80, theme) == text_of(stress_result(), 80, theme));
  }
}

// --- markdown ---------------------------------------------------------------------------------

TEST_CASE("markdown has a heading, the claim quoted and GFM tables", "[render]") {
  const std::string markdown = proofdeck::render::render_markdown(sample_result(), sample_info());
  CHECK_THAT(markdown, StartsWith("## Attention is blind to word order\n"));
  CHECK_THAT(markdown, Contains("\n> Without positional information"));
  CHECK_THAT(markdown, Contains("|  | cat | bit | dog |\n| --- | ---: | ---: | ---: |\n"));
  CHECK_THAT(markdown, Contains("| **cat** | 0.620 | 0.210 | 0.170 |"));
  // Each value in words, its number, and the name a proof reads it by.
  CHECK_THAT(markdown, Contains("| value | result | name |\n| --- | ---: | ---: |\n"));
  CHECK_THAT(markdown,
             Contains("| Attention parameters without biases, 8 heads | 1,048,576 | `total_h8` |"));
  CHECK_THAT(
      markdown,
      Contains("| Learned position table refuses position 600 | yes | `learned_refuses_600` |"));
}

TEST_CASE("markdown draws each figure once: a series as its text chart, not also as a table",
          "[render][markdown]") {
  const std::string markdown = proofdeck::render::render_markdown(sample_result(), sample_info());
  CHECK_THAT(markdown, Contains("```text\n"));
  CHECK_THAT(markdown, !Contains("| layer | no normalization | LayerNorm after each layer |"));
}

TEST_CASE("markdown with figure files links each heatmap and series once instead of drawing it",
          "[render][markdown]") {
  proofdeck::render::MarkdownOptions options;
  std::vector<std::string> linked;
  options.link_figure = [&](const proofdeck::render::SvgFigure& figure) {
    linked.push_back(figure.name);
    CHECK_THAT(figure.svg, StartsWith("<?xml"));
    return "![" + figure.title + "](figures/" + figure.name + ".svg)";
  };
  const DemoResult result = sample_result();
  const std::string markdown = proofdeck::render::render_markdown(result, sample_info(), options);
  std::vector<std::string> expected;
  for (const auto& table : result.tables)
    if (table.heatmap) expected.push_back(table.name);
  for (const auto& series : result.series)
    expected.push_back(series.name);
  CHECK(linked == expected);
  CHECK_THAT(markdown, !Contains("```text"));                      // no text chart beside the file
  CHECK_THAT(markdown, !Contains("| **cat** | 0.620 | 0.210 |"));  // no heatmap table either
  for (const std::string& name : expected)
    CHECK_THAT(markdown, Contains("](figures/" + name + ".svg)"));
}

TEST_CASE("markdown can sit under a question's heading and leave its values out",
          "[render][markdown]") {
  proofdeck::render::MarkdownOptions options;
  options.heading_level = 4;
  options.values = false;
  const std::string markdown =
      proofdeck::render::render_markdown(sample_result(), sample_info(), options);
  CHECK_THAT(markdown, StartsWith("#### Attention is blind to word order\n"));
  CHECK_THAT(markdown, Contains("\n##### "));
  CHECK_THAT(markdown, !Contains("Values"));
  CHECK_THAT(markdown, !Contains("`total_h8`"));
}

TEST_CASE("markdown escapes what it would otherwise act on", "[render]") {
  DemoResult result = pair_only();
  result.tables[0].column_labels[0] = "a|b";
  result.tables[0].row_labels[0] = "<b>&*x*";
  result.text = {"# not a heading", "1. not a list"};
  const std::string markdown = proofdeck::render::render_markdown(result, sample_info());
  CHECK_THAT(markdown, Contains("| a\\|b |"));
  CHECK_THAT(markdown, Contains("**\\<b\\>\\&\\*x\\***"));
  CHECK_THAT(markdown, Contains("\n\\# not a heading\n"));
  CHECK_THAT(markdown, Contains("\n1\\. not a list\n"));
  // Every row of the table still has its four cells.
  for (const std::string& line : lines_of(markdown)) {
    if (line.rfind("| **", 0) != 0) continue;
    std::size_t pipes = 0;
    for (std::size_t i = 0; i < line.size(); ++i)
      pipes += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    CHECK(pipes == 5);
  }
}

// --- html -------------------------------------------------------------------------------------

TEST_CASE("html is one self-contained document", "[render]") {
  const std::string html = proofdeck::render::render_html(stress_result(), sample_info());
  CHECK_THAT(html, StartsWith("<!DOCTYPE html>\n<html lang=\"en\">"));
  CHECK_THAT(html, Contains("<meta charset=\"utf-8\" />"));
  CHECK_THAT(html, Contains("<title>Attention is blind to word order · proofdeck</title>"));
  CHECK_THAT(html, Contains("<style>"));
  CHECK_THAT(html, Contains("break-inside: avoid"));
  CHECK_THAT(html, Contains("<svg class=\"heatmap\""));
  CHECK_THAT(html, Contains("<svg class=\"chart\""));
  for (const char* forbidden :
       {"<script", "http", "//", "url(", "@import", "src=", "href=", "&nbsp;", "<link"}) {
    INFO(forbidden);
    CHECK(html.find(forbidden) == std::string::npos);
  }
}

TEST_CASE("html escapes every string from the result", "[render]") {
  DemoResult result = pair_only();
  result.tables[0].row_labels[0] = "<b>&";
  result.tables[0].title = "\"quoted\" 'title'";
  result.set("<i>", "<i>", true, Provenance::derived);
  result.text = {"<script>alert(1)</script>"};
  DemoInfo info = sample_info();
  info.title = "A <title> & more";
  const std::string html = proofdeck::render::render_html(result, info);
  CHECK_THAT(html, Contains("&lt;b&gt;&amp;"));
  CHECK_THAT(html, Contains("&quot;quoted&quot; &#39;title&#39;"));
  CHECK_THAT(html, Contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
  CHECK_THAT(html, Contains("<title>A &lt;title&gt; &amp; more · proofdeck</title>"));
  CHECK_THAT(html, !Contains("<b>"));
  CHECK_THAT(html, !Contains("<i>"));
  CHECK(tag_problems(html).empty());
}

TEST_CASE("html is well-formed", "[render]") {
  for (const DemoResult& result : {sample_result(), stress_result(), pair_only(), DemoResult{}}) {
    const std::string document = proofdeck::render::render_html(result, sample_info());
    INFO(tag_problems(document));
    CHECK(tag_problems(document).empty());
    const std::string section = proofdeck::render::render_html_section(result, sample_info());
    CHECK_THAT(section, StartsWith("<section class=\"demo\" id=\"demo-order-blindness\">"));
    CHECK(tag_problems(section).empty());
  }
}

TEST_CASE("the tag checker catches what it is for", "[render]") {
  CHECK_FALSE(tag_problems("<p><b>x</p></b>").empty());
  CHECK_FALSE(tag_problems("<p>x").empty());
  CHECK_FALSE(tag_problems("<p class=x>y</p>").empty());
  CHECK_FALSE(tag_problems("<p>a & b</p>").empty());
  CHECK(tag_problems("<p class=\"x\">a &amp; b<br /></p>").empty());
  // A stylesheet is not markup, and a no-break space is one of the entities the renderers write.
  CHECK(tag_problems("<html><style>p > b { color: red }</style><p>a&#160;b</p></html>").empty());
  CHECK_FALSE(tag_problems("<html><style>p { }</html>").empty());
}

TEST_CASE("markdown and html are deterministic", "[render]") {
  CHECK(proofdeck::render::render_markdown(stress_result(), sample_info()) ==
        proofdeck::render::render_markdown(stress_result(), sample_info()));
  CHECK(proofdeck::render::render_html(stress_result(), sample_info()) ==
        proofdeck::render::render_html(stress_result(), sample_info()));
}

// --- large heatmaps -----------------------------------------------------------------------------
// A figure is drawn at a size a reader can read: a heatmap over 32 rows or columns (a causal mask
// over 256 tokens) in blocks, each the largest value in it, in every format, and it says so.

namespace {

// Causal attention over `seq` tokens t0, t1, …: each position spreads its weight over itself and
// the positions before it, and gives the future exactly zero.
Table causal_weights(Eigen::Index seq) {
  Eigen::MatrixXd weights = Eigen::MatrixXd::Zero(seq, seq);
  for (Eigen::Index r = 0; r < seq; ++r)
    weights.row(r).head(r + 1).setConstant(1.0 / static_cast<double>(r + 1));
  std::vector<std::string> tokens;
  for (Eigen::Index t = 0; t < seq; ++t)
    tokens.push_back("t" + std::to_string(t));
  return attention("weights_causal", "causal (decoder) attention, head 0", tokens, weights);
}

DemoResult causal_result(Eigen::Index seq) {
  DemoResult result;
  result.demo = "causal-mask";
  result.tables = {causal_weights(seq)};
  return result;
}

}  // namespace

TEST_CASE("a heatmap up to 32 cells a side is drawn cell for cell", "[render][large]") {
  const Table table = causal_weights(32);
  const Table drawn = proofdeck::render::readable_heatmap(table);
  CHECK(drawn.cells == table.cells);
  CHECK(drawn.title == table.title);
  CHECK(drawn.row_labels == table.row_labels);
}

TEST_CASE("a 256-token heatmap is drawn as 16×16 blocks, each the largest value in it",
          "[render][large]") {
  const Table table = causal_weights(256);
  const Table drawn = proofdeck::render::readable_heatmap(table);
  REQUIRE(drawn.cells.rows() == 16);
  REQUIRE(drawn.cells.cols() == 16);
  CHECK(drawn.title ==
        "causal (decoder) attention, head 0 (256×256, drawn as 16×16 blocks of "
        "16×16: each the largest value in it)");
  CHECK(drawn.row_labels.front() == "t0–t15");
  CHECK(drawn.column_labels.back() == "t240–t255");
  CHECK(drawn.row_labels == drawn.column_labels);
  // The first position attends only to itself (weight 1); a block above the diagonal holds only
  // masked weights, so it stays an exact zero.
  CHECK(drawn.cells(0, 0) == 1.0);
  CHECK(drawn.cells(0, 1) == 0.0);
  CHECK(drawn.cells(15, 14) == table.cells.block(240, 224, 16, 16).maxCoeff());
  CHECK(drawn.cells.triangularView<Eigen::StrictlyUpper>().toDenseMatrix().isZero(0.0));
  // Fewer blocks when fewer fit (a narrow terminal), never more than 24 a side.
  CHECK(proofdeck::render::readable_heatmap(table, 8).cells.rows() == 8);
  CHECK(proofdeck::render::readable_heatmap(causal_weights(48), 100).cells.rows() == 24);
}

TEST_CASE(
    "blocks cover as many cells each where a divisor allows, and say when the last are "
    "smaller",
    "[render][large]") {
  const Table drawn = proofdeck::render::readable_heatmap(causal_weights(70));
  CHECK(drawn.cells.rows() == 14);  // 70 = 14 blocks of 5
  CHECK_THAT(drawn.title, Contains("(70×70, drawn as 14×14 blocks of 5×5:"));
  const Table odd = proofdeck::render::readable_heatmap(causal_weights(97));
  CHECK(odd.cells.rows() == 20);  // 97 is prime: 19 blocks of 5, then one of 2
  CHECK_THAT(odd.title, Contains("blocks of 5×5, the last ones smaller"));
  CHECK(odd.row_labels.back() == "t95–t96");
}

TEST_CASE("a missing value is never hidden inside a block", "[render][large]") {
  Table table = causal_weights(64);
  table.cells(10, 3) = std::nan("");
  const Table drawn = proofdeck::render::readable_heatmap(table);  // 16 blocks of 4
  CHECK(std::isnan(drawn.cells(2, 0)));
  CHECK(!std::isnan(drawn.cells(2, 1)));
}

TEST_CASE("a 256-token heatmap is a readable figure in SVG, HTML, Markdown and text",
          "[render][large]") {
  const DemoResult result = causal_result(256);
  // Every block a different value: no run of equal cells to draw as one.
  DemoResult varied = result;
  for (Eigen::Index i = 0; i < varied.tables.front().cells.size(); ++i)
    varied.tables.front().cells.data()[i] = static_cast<double>((i * 7919) % 1000) / 1000.0;
  CHECK(proofdeck::render::svg_heatmap(varied.tables.front()).size() < 100'000);
  const std::string svg = proofdeck::render::svg_heatmap(result.tables.front());
  CHECK(svg.size() < 100'000);
  CHECK(count(svg, "<rect ") <= 16 * 16);
  CHECK_THAT(svg, Contains("drawn as 16×16 blocks of 16×16"));
  CHECK(tag_problems(svg).empty());
  const std::string html = proofdeck::render::render_html(result, sample_info());
  CHECK(html.size() < 120'000);
  CHECK_THAT(html, Contains("<figcaption>causal (decoder) attention, head 0 (256×256, drawn as"));
  const std::string markdown = proofdeck::render::render_markdown(result, sample_info());
  CHECK(count(markdown, "\n| **t") == 16);
  const auto figures = proofdeck::render::render_svg_figures(result);
  REQUIRE(figures.size() == 1);
  CHECK(figures.front().svg.size() < 100'000);
  // On a terminal, as many blocks as fit the width with their shades, none cut off.
  for (const int width : {60, 100, 160}) {
    const std::string text = text_of(result, width);
    INFO("width " << width << "\n" << text);
    CHECK(widest_line(text) <= width);
    CHECK(count(text, "…") == 0);
    CHECK_THAT(text, Contains("blocks of"));
  }
}

// --- goldens ----------------------------------------------------------------------------------

TEST_CASE("the sample renders exactly as its golden files", "[render][golden]") {
  const DemoResult result = sample_result();
  check_golden("render_sample.txt", text_of(result, 80));
  check_golden("render_sample.md", proofdeck::render::render_markdown(result, sample_info()));
  check_golden("render_sample.html", proofdeck::render::render_html(result, sample_info()));
}

// --- the command that draws a run again ---------------------------------------------------------

namespace {

// The words of a command as a POSIX shell splits them (single quotes only, as written).
std::vector<std::string> shell_words(const std::string& command) {
  std::vector<std::string> words;
  std::string word;
  bool quoted = false, any = false;
  for (const char c : command) {
    if (c == '\'') {
      quoted = !quoted;
      any = true;
    } else if (c == ' ' && !quoted) {
      if (any) words.push_back(std::exchange(word, {}));
      any = false;
    } else {
      word += c;
      any = true;
    }
  }
  if (any) words.push_back(word);
  return words;
}

}  // namespace

TEST_CASE("a run's command names every parameter it changed, and reproduces the run", "[render]") {
  using proofdeck::render::reproduce_command;
  const auto info = [](const std::string& name) { return *proofdeck::demo::find_demo(name); };
  CHECK(reproduce_command(proofdeck::testing::run("rope-scaling"), info("rope-scaling")) ==
        "proofdeck demo run rope-scaling");
  CHECK(reproduce_command(proofdeck::testing::run("head-params", {"heads=1,4", "d_model=256"}, 7),
                          info("head-params")) ==
        "proofdeck demo run head-params --set d_model=256 --set heads=1,4 --seed 7");
  CHECK(
      reproduce_command(proofdeck::testing::run(
                            "order-blindness", {"a=the cat's toy", "b=toy cat's the", "focus=toy"}),
                        info("order-blindness")) ==
      "proofdeck demo run order-blindness --set 'a=the cat'\\''s toy' --set 'b=toy cat'\\''s "
      "the' --set focus=toy");
  // Read back as `demo run` reads it, the command gives the same parameters and seed.
  for (const auto& [name, sets] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"rope-scaling", {"factor=4", "trained=1024"}},
           {"sqrt-dk-scaling", {"d_k=8,64", "trials=3"}},
           {"order-blindness", {"a=one two three", "b=three two one", "focus=two"}},
           {"variance-drift", {"layers=12"}}}) {
    const DemoResult result = proofdeck::testing::run(name, sets, 5);
    const std::vector<std::string> words = shell_words(reproduce_command(result, info(name)));
    INFO(reproduce_command(result, info(name)));
    REQUIRE(words.size() >= 4);
    std::vector<std::string> assignments;
    std::uint64_t seed = 0;
    for (std::size_t i = 4; i + 1 < words.size(); i += 2) {
      if (words[i] == "--set") assignments.push_back(words[i + 1]);
      if (words[i] == "--seed") seed = std::stoull(words[i + 1]);
    }
    const DemoResult again = proofdeck::demo::run_demo(
        info(name), proofdeck::demo::resolve_params(info(name), assignments), seed);
    CHECK(again.params == result.params);
  }
}

}  // namespace test_demo_render
