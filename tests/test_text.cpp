// The text layer: how wide text is on a terminal, fitting and wrapping it at word boundaries,
// the one rule for numbers, escaping for terminals, markup and Markdown, and "did you mean". Every
// output path of proofdeck goes through these, so each rule is pinned here once.
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "number_readback.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/suggest.hpp"
#include "text/utf8.hpp"
#include "text/width.hpp"

namespace test_text {

namespace {

namespace text = proofdeck::text;
namespace testing = proofdeck::testing;
using Lines = std::vector<std::string>;

bool valid_utf8(const std::string& s) {
  for (std::size_t at = 0; at < s.size();)
    if (!text::decode(s, at).valid) return false;
  return true;
}

}  // namespace

TEST_CASE("display width counts columns, not bytes", "[text][width]") {
  CHECK(text::display_width("") == 0);
  CHECK(text::display_width("d_model") == 7);
  CHECK(text::display_width("W_Q·x → α") == 9);  // multi-byte, one column each
  CHECK(text::display_width("注意力") == 6);     // wide: two columns each
  CHECK(text::display_width("e\u0301") == 1);    // a combining accent joins its letter
  CHECK(text::display_width("\xff") == 1);       // an invalid byte shows as one U+FFFD
}

TEST_CASE("truncation ends with an ellipsis and never splits a character", "[text][width]") {
  CHECK(text::truncate("attention", 20) == "attention");
  CHECK(text::truncate("attention", 6) == "atten…");
  CHECK(text::truncate("αβγδε", 3) == "αβ…");
  CHECK(text::truncate("注意力机制", 5) == "注意…");  // 4 columns + "…", never half a glyph
  CHECK(text::truncate("anything", 0).empty());
  for (int width = 1; width < 12; ++width) {
    const std::string cut = text::truncate("ŝčâłéđ ðøť-πŗøđüçť", width);
    CHECK(valid_utf8(cut));
    CHECK(text::display_width(cut) <= width);
  }
}

TEST_CASE("fit and padding give exactly the asked width", "[text][width]") {
  CHECK(text::fit("heads", 8) == "heads   ");
  CHECK(text::fit("multi-head attention", 8) == "multi-h…");
  CHECK(text::pad_left("7", 3) == "  7");
  CHECK(text::center("ab", 6) == "  ab  ");
  CHECK(text::pad_right("longer", 3) == "longer");
}

TEST_CASE("wrapping breaks between words only", "[text][wrap]") {
  SECTION("greedy, every line within the width") {
    CHECK(text::wrap("eight heads of width 64 each", 12) ==
          Lines{"eight heads", "of width 64", "each"});
  }
  SECTION("a word is split only when it is longer than a whole line") {
    CHECK(text::wrap("see W_k_projection now", 6) == Lines{"see", "W_k_pr", "ojecti", "on now"});
  }
  SECTION("newlines end lines, empty lines stay, runs of spaces collapse") {
    CHECK(text::wrap("a  b\n\nc", 10) == Lines{"a b", "", "c"});
    CHECK(text::wrap("", 10) == Lines{""});
  }
  SECTION("width counts display columns") {
    CHECK(text::wrap("αβγ δεζ", 7) == Lines{"αβγ δεζ"});
    CHECK(text::wrap("注意 力", 4) == Lines{"注意", "力"});
  }
  SECTION("no word is ever cut at any width from 20 to 160") {
    const std::string prose =
        "Multi-head attention splits a 512-dimensional hidden size into 8 heads of width 64; "
        "the total parameter count stays 1,048,576 with or without the split.";
    for (int width = 20; width <= 160; ++width) {
      for (const std::string& line : text::wrap(prose, width)) {
        CHECK(text::display_width(line) <= width);
        CHECK(prose.find(line) != std::string::npos);  // whole words, in order
      }
    }
  }
}

TEST_CASE("a wrapped block indents its first line and hangs the rest", "[text][wrap]") {
  CHECK(text::wrap_block("a) one two three four five", 15, "  ", "     ") ==
        "  a) one two\n     three four\n     five\n");
  // However deep the indent, a line keeps room for 10 columns of text.
  CHECK(text::wrap_block("one two three", 12, "      ") == "      one two\n      three\n");
  CHECK(text::wrap_block("short", 40, "  ") == "  short\n");
}

TEST_CASE("a command wraps between shell words, each line but the last ending with a backslash",
          "[text][wrap]") {
  CHECK(text::command_lines("./scripts/run quiz --type single --missed", 40, "    ") ==
        Lines{"    ./scripts/run quiz --type single \\", "      --missed"});
  // A quoted word is one word, an escaped quote ('\'') included, and a word wider than the line
  // stays whole.
  CHECK(text::command_lines("/home/a\\ b/scripts/run demo run x --set 'a=it'\\''s here'", 24, "") ==
        Lines{"/home/a\\ b/scripts/run \\", "  demo run x --set \\", "  'a=it'\\''s here'"});
  CHECK(text::command_lines("./scripts/run stats", 80, "  ") == Lines{"  ./scripts/run stats"});
  CHECK(text::command_block("./scripts/run quiz --missed", 20, "") ==
        "./scripts/run quiz \\\n  --missed\n");
}

TEST_CASE("one grouping rule: four or more integer digits", "[text][number]") {
  CHECK(text::group_digits("512") == "512");
  CHECK(text::group_digits("1024") == "1,024");
  CHECK(text::group_digits("1048576") == "1,048,576");
  CHECK(text::group_digits("-12345.678") == "-12,345.678");
  CHECK(text::group_digits("1.5e-07") == "1.5e-07");
  CHECK(text::group_digits("nan") == "nan");
  CHECK(text::format_number(0) == "0");
  CHECK(text::format_number(-0.0) == "0");
  CHECK(text::format_number(512) == "512");
  CHECK(text::format_number(1024) == "1,024");
  CHECK(text::format_number(-12345) == "-12,345");
  CHECK(text::format_number(1048576) == "1,048,576");
  CHECK(text::format_number(0.5) == "0.5");
  CHECK(text::format_number(2.50) == "2.5");
  CHECK(text::format_number(1e-5) == "0.00001");
  CHECK(text::format_number(1.0 / 3) == "0.3333333333");
  CHECK(text::format_number(-1048575.99998) == "-1,048,575.99998");      // never to an integer
  CHECK(text::format_number(9007199254740992.0) == "9.007199255×10¹⁵");  // 2^53: not exact
  // Below 2^53 every integer is exact, and is written in full so that it reads back as typed
  // (fuzz_answer found 9007199254640993 written as 9.007199255×10¹⁵).
  CHECK(text::format_number(9007199254640993.0) == "9,007,199,254,640,993");
  CHECK(text::format_number(9007199127370496.0) == "9,007,199,127,370,496");
  CHECK(text::format_number(1e15) == "1,000,000,000,000,000");
  CHECK(text::format_short(1024) == "1,024");
  CHECK(text::format_short(0.08342) == "0.0834");
  CHECK(text::format_short(32.14) == "32.1");
  CHECK(text::format_short(1.05e16) == "1.05×10¹⁶");
  CHECK(text::format_short(3.4e-17) == "3.4×10⁻¹⁷");
  CHECK(text::format_short(0.000244) == "0.000244");  // no exponent the value does not need
}

TEST_CASE("numbers in prose are plain decimals unless their size needs an exponent",
          "[text][number]") {
  CHECK(text::format_readable(1048576) == "1,048,576");
  CHECK(text::format_readable(0.40113) == "0.4011");
  CHECK(text::format_readable(15.051499783199059) == "15.05");
  CHECK(text::format_readable(1.0 / 65536) == "0.00001526");
  CHECK(text::format_readable(0.000099996) == "0.0001");  // rounded before it is written
  CHECK(text::format_readable(-2.5e-3) == "-0.0025");
  CHECK(text::format_readable(12345.678) == "12,345.7");  // no invented zeros, no false integer
  CHECK(text::format_readable(3.3671e-9) == "3.367×10⁻⁹");
  CHECK(text::format_readable(1.11e-16) == "1.11×10⁻¹⁶");
  CHECK(text::format_readable(2.5e20) == "2.5×10²⁰");
  CHECK(text::format_readable(0.1234567, 2) == "0.12");
  CHECK(text::format_readable(-0.0) == "0");
  CHECK(text::format_readable(std::nan("")) == "nan");
}

TEST_CASE("a non-integer is never written as an integer: its first differing decimal shows",
          "[text][number]") {
  CHECK(text::format_readable(2047.875) == "2,047.9");  // rope-scaling's key, not "2,048"
  CHECK(text::format_short(2047.875) == "2,047.9");
  CHECK(text::format_readable(1365.33) == "1,365.3");
  CHECK(text::format_short(4095.5) == "4,095.5");
  CHECK(text::format_readable(0.99996) == "0.99996");  // rounds to 1.000: one more decimal
  CHECK(text::format_readable(-1999.9999) == "-1,999.9999");
  CHECK(text::format_readable(2048.0) == "2,048");
  // Arithmetic noise past what a double holds for sure is not spelled out.
  CHECK(text::format_readable(8.000000000000002) == "8");
  CHECK(text::format_readable(0.1 + 0.2) == "0.3");
}

TEST_CASE("every number written for people reads back as itself", "[text][number]") {
  // Across magnitudes from 10^-20 to 10^20, near-integers and halves among them, at every
  // precision the renderers use: within half a unit of the last digit, and a non-integer never
  // written as an integer.
  std::mt19937_64 draw(29);
  std::uniform_real_distribution<double> exponent(-20.0, 20.0), unit(0.0, 1.0);
  for (int i = 0; i < 20000; ++i) {
    double value = std::pow(10.0, exponent(draw)) * (unit(draw) < 0.5 ? -1 : 1);
    const double pick = unit(draw);
    if (pick < 0.2)
      value = std::round(value) + (unit(draw) - 0.5) * 1e-3;  // just off an integer
    else if (pick < 0.3)
      value = std::round(value) + 0.5;
    else if (pick < 0.4)
      value = std::round(value);
    for (const int significant : {1, 2, 3, 4, 10}) {
      const std::string shown = text::format_readable(value, significant);
      INFO(fmt::format("{} at {} digits: {}", value, significant, shown));
      REQUIRE(testing::misreads(shown, value).empty());
    }
    const std::string exact = text::format_number(value);
    INFO(fmt::format("{} exactly: {}", value, exact));
    REQUIRE(testing::misreads(exact, value).empty());
  }
}

TEST_CASE("a column's numbers share their decimals, each still reading back as itself",
          "[text][number]") {
  using Column = std::vector<std::string>;
  CHECK(text::format_column({0.35, 0.414}) == Column{"0.350", "0.414"});
  CHECK(text::format_column({1.0, 0.625, 0.5625}) == Column{"1.000", "0.625", "0.562"});
  CHECK(text::format_column({1.5e-16, 1.33e-15, 0.0}) == Column{"1.50×10⁻¹⁶", "1.33×10⁻¹⁵", "0"});
  CHECK(text::format_column({2, 1024, -3}) == Column{"2", "1,024", "-3"});  // integers stay so
  CHECK(text::format_column({1047656.1274, 0.25}) == Column{"1,047,656.13", "0.25"});
  CHECK(text::format_column({-0.0, 0.5, std::nan("")}) == Column{"0.0", "0.5", "nan"});
  // The mantissa keeps its exponent's place: 9.996×10⁻¹⁶ rounds to 1.00×10⁻¹⁵ at two decimals.
  CHECK(text::format_column({9.996e-16, 1.33e-15}) == Column{"1.00×10⁻¹⁵", "1.33×10⁻¹⁵"});
  std::mt19937_64 draw(31);
  std::uniform_real_distribution<double> exponent(-20.0, 20.0), unit(0.0, 1.0);
  for (int i = 0; i < 2000; ++i) {
    std::vector<double> column;
    for (int j = 0; j < 5; ++j) {
      const double value = std::pow(10.0, exponent(draw)) * (unit(draw) < 0.5 ? -1 : 1);
      column.push_back(unit(draw) < 0.2 ? std::round(value) : value);
    }
    const Column shown = text::format_column(column);
    for (std::size_t j = 0; j < column.size(); ++j) {
      INFO(fmt::format("{} in its column: {}", column[j], shown[j]));
      REQUIRE(testing::misreads(shown[j], column[j]).empty());
    }
  }
}

TEST_CASE("a number needs the digits that keep it within what is allowed", "[text][number]") {
  CHECK(text::digits_within(15.051499783199059, 0.015) == 4);
  CHECK(text::digits_within(15.051499783199059, 0.0001) == 6);
  CHECK(text::digits_within(0.00390625, 0) == 6);  // exact in six
  CHECK(text::digits_within(0.1, 0) == 4);         // never fewer than asked
  CHECK(text::digits_within(1.0 / 3, 0) == 16);    // the shortest form that reads back
}

TEST_CASE("a count is singular for exactly one and grouped like every number", "[text][number]") {
  CHECK(text::count(1, "question", "questions") == "1 question");
  CHECK(text::count(0, "question", "questions") == "0 questions");
  CHECK(text::count(std::size_t{3}, "question", "questions") == "3 questions");
  CHECK(text::count(1024, "question", "questions") == "1,024 questions");
  CHECK(text::count(2.5, "minute", "minutes") == "2.5 minutes");
}

TEST_CASE("a share is a whole percent, an exact half rounded to even", "[text][number]") {
  CHECK(text::percent(0.716) == "72%");
  CHECK(text::percent(0) == "0%");
  CHECK(text::percent(1) == "100%");
  CHECK(text::percent(0.125) == "12%");
  CHECK(text::percent(-0.004) == "-0%");
  // A share of counts is computed from the counts, so 23 of 40 is exactly 57.5%.
  CHECK(text::percent_of(23, 40) == "58%");
  CHECK(text::percent(23.0 / 40) == "57%");
  CHECK(text::percent_of(1, 8) == "12%");
  CHECK(text::percent_of(7, 7) == "100%");
  CHECK(text::percent_range(0.654, 0.8) == "65–80");
  CHECK(text::percent_range(0, 1) == "0–100");
}

TEST_CASE("terminal text never carries a control character", "[text][escape]") {
  CHECK(text::terminal_safe("a\x1b[31mred") == "a\\x1b[31mred");
  CHECK(text::terminal_safe("tab\there") == "tab here");
  CHECK(text::terminal_safe("csi\xc2\x9b") == "csi\\u009b");
  CHECK(text::terminal_safe("caf\xc3\xa9 \xc2\xa0") == "caf\xc3\xa9 \xc2\xa0");  // not C1
  CHECK(text::terminal_safe("two\nlines") == "two\nlines");
  CHECK(text::terminal_safe("two\nlines", text::Newlines::as_spaces) == "two lines");
}

TEST_CASE("markup escaping makes well-formed XML and HTML", "[text][escape]") {
  CHECK(text::markup_escape("a < b && \"c\" 'd'") ==
        "a &lt; b &amp;&amp; &quot;c&quot; &#39;d&#39;");
  CHECK(text::markup_escape("bad\xff byte") == "bad\xEF\xBF\xBD byte");
  CHECK(text::markup_escape("bell\x07") == "bell\\x07");
  CHECK(text::html_text("one\r\ntwo") == "one<br />\ntwo");
  CHECK(text::html_text("one\ntwo", "<br>") == "one<br>two");
}

TEST_CASE("Markdown escaping leaves nothing for a renderer to act on", "[text][escape]") {
  CHECK(text::markdown_escape("*bold* [link] <b> | x") == "\\*bold\\* \\[link\\] \\<b\\> \\| x");
  CHECK(text::markdown_escape("d_model stays") == "d_model stays");
  CHECK(text::markdown_escape("_emphasis_") == "\\_emphasis\\_");
  CHECK(text::markdown_escape("# not a heading") == "\\# not a heading");
  CHECK(text::markdown_escape("1. not a list") == "1\\. not a list");
  CHECK(text::markdown_escape("0.0039 (±0.0001)") == "0.0039 (±0.0001)");  // a number, not a list
  CHECK(text::markdown_escape("2)") == "2\\)");
  CHECK(text::markdown_escape("line\nbreak", "   ") == "line  \n   break");
  CHECK(text::markdown_cell("line\nbreak") == "line break");
  CHECK(text::markdown_code("head_dim") == "`head_dim`");
  CHECK(text::markdown_code("a`b") == "a\\`b");
}

TEST_CASE("slugs and URL paths", "[text][escape]") {
  CHECK(text::slug("Scaled Dot-Product Attention!", "x") == "scaled-dot-product-attention");
  CHECK(text::slug("—", "demo") == "demo");
  CHECK(text::url_path("figures/a b.svg") == "figures/a%20b.svg");
}

TEST_CASE("edit distance counts insertions, deletions, replacements and swaps", "[text][suggest]") {
  CHECK(text::edit_distance("quiz", "quiz") == 0);
  CHECK(text::edit_distance("", "exam") == 4);
  CHECK(text::edit_distance("exam", "") == 4);
  CHECK(text::edit_distance("qiuz", "quiz") == 1);   // two neighbours swapped
  CHECK(text::edit_distance("drll", "drill") == 1);  // one left out
  CHECK(text::edit_distance("stats", "stat") == 1);  // one too many
  CHECK(text::edit_distance("demo", "demi") == 1);   // one replaced
  CHECK(text::edit_distance("ca", "abc") == 3);      // optimal string alignment, not 2
  CHECK(text::edit_distance("QUIZ", "quiz") == 0);   // letters regardless of case
}

TEST_CASE("the closest candidate is suggested only when it is a likely typo", "[text][suggest]") {
  const std::vector<std::string> commands = {"quiz",  "exam",  "drill",  "stats",  "demo",
                                             "check", "print", "export", "engine", "list"};
  CHECK(text::closest("qiuz", commands) == "quiz");
  CHECK(text::closest("exma", commands) == "exam");
  CHECK(text::closest("Drill", commands) == "drill");
  CHECK(text::closest("egnine", commands) == "engine");
  CHECK(text::closest("xyzzy", commands) == std::nullopt);
  CHECK(text::closest("qz", commands) == std::nullopt);              // two edits from quiz: too far
  CHECK(text::closest("strcit", {"strict", "source"}) == "strict");  // six letters allow two
  CHECK(text::closest("cuont", {"count", "topic", "report"}) == "count");
  CHECK(text::closest("anything", {}) == std::nullopt);
}

TEST_CASE("an unknown name is told the closest one, or the only one it begins, then the list",
          "[text][suggest]") {
  const std::vector<std::string> topics = {"multi-head", "positional", "layer-norm",
                                           "ln-placement"};
  CHECK(text::did_you_mean("multihead", topics) == "; did you mean 'multi-head'?");
  CHECK(text::did_you_mean("Positonal", topics) == "; did you mean 'positional'?");
  CHECK(text::did_you_mean("layer", topics) == "; did you mean 'layer-norm'?");  // cut short
  CHECK(text::did_you_mean("lay", topics).empty());  // too short a start to tell
  CHECK(text::did_you_mean("ln-p", {"ln-placement", "ln-post"}).empty());  // begins two
  CHECK(text::did_you_mean("norms", topics).empty());
  CHECK(text::unknown_name_hint("multihead", topics, "the topics: multi-head, positional") ==
        "; did you mean 'multi-head'? (the topics: multi-head, positional)");
  CHECK(text::unknown_name_hint("norms", topics, "the topics: multi-head, positional") ==
        "; the topics: multi-head, positional");
}

TEST_CASE("a choice is suggested for a slip or for the only choice a word abbreviates",
          "[text][suggest]") {
  const std::vector<std::string> types = {"single", "multi", "truefalse", "numeric", "order"};
  CHECK(text::closest_choice("singel", types) == "single");   // a slip first
  CHECK(text::closest_choice("num", types) == "numeric");     // the only choice it begins
  CHECK(text::closest_choice("m", types) == "multi");         // one letter begins one choice
  CHECK(text::closest_choice("tf", types) == "truefalse");    // its letters in order
  CHECK(text::closest_choice("TF", types) == "truefalse");    // regardless of case
  CHECK(text::closest_choice("ft", types) == std::nullopt);   // not from the first letter
  CHECK(text::closest_choice("xyz", types) == std::nullopt);  // nothing plausibly meant
  CHECK(text::closest_choice("", types) == std::nullopt);
  CHECK(text::closest_choice("multiple", types) == std::nullopt);  // longer than any it begins
  const std::vector<std::string> colors = {"auto", "always", "never"};
  CHECK(text::closest_choice("a", colors) == std::nullopt);  // begins two
  CHECK(text::closest_choice("al", colors) == "always");
  CHECK(text::closest_choice("aw", colors) == "always");
  const std::vector<std::string> lists = {"banks", "topics", "traps", "objectives", "questions"};
  CHECK(text::closest_choice("tp", lists) == std::nullopt);  // abbreviates two
  CHECK(text::closest_choice("tr", lists) == "traps");
  // A choice begun outranks one only abbreviated: "al" begins "always", abbreviates "autoload".
  CHECK(text::closest_choice("al", {"autoload", "always"}) == "always");
}

TEST_CASE("a tie between candidates goes to the earliest", "[text][suggest]") {
  CHECK(text::closest("dat", {"bat", "cat"}) == "bat");
  CHECK(text::closest("dat", {"cat", "bat"}) == "cat");
}

}  // namespace test_text
