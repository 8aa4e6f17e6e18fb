// Every text output fits the width it is given: --width 40, 60, 100 and 160 (the terminal's
// width, $COLUMNS or 80 otherwise, tested in test_cli.cpp). Two rules, checked on real output:
//  - no line is wider than the width, unless it is one word longer than the whole line;
//  - wrapping never splits a word: prose reads the same words in the same order at any width.
#include <algorithm>
#include <catch2/catch.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "demo/demo.hpp"
#include "render/parts.hpp"
#include "render/terminal_figure.hpp"
#include "text/width.hpp"

namespace test_width {

namespace {

using cli_test::Cli;
using cli_test::TempDir;

constexpr int kWidths[] = {40, 60, 100, 160};

std::string without_escapes(const std::string& text) {
  static const std::regex escape("\x1b\\[[0-9;]*[A-Za-z]");
  return std::regex_replace(text, escape, "");
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(without_escapes(text));
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(without_escapes(text));
  for (std::string word; in >> word;)
    words.push_back(word);
  return words;
}

// Lines wider than `width` that are not a single over-long word.
std::vector<std::string> too_wide(const std::string& output, int width) {
  std::vector<std::string> wide;
  for (const std::string& line : lines_of(output)) {
    if (proofdeck::text::display_width(line) <= width) continue;
    if (words_of(line).size() == 1) continue;  // the one exception
    wide.push_back(line);
  }
  return wide;
}

std::string run_at(int width, std::vector<std::string> args, const std::string& input = "",
                   bool colour = false) {
  Cli cli;
  cli.in.str(input);
  if (colour) cli.env = {{"FORCE_COLOR", "1"}};
  args.insert(args.begin(), {"--width", std::to_string(width)});
  cli.run(args);
  return cli.out.str();
}

void check_fits(const std::vector<std::string>& args, const std::string& input = "") {
  for (const int width : kWidths) {
    for (const bool colour : {false, true}) {
      INFO("--width " << width << (colour ? " in colour: " : ": ") << args.front() << " "
                      << (args.size() > 1 ? args[1] : ""));
      const std::string output = run_at(width, args, input, colour);
      REQUIRE_FALSE(output.empty());
      CHECK(too_wide(output, width) == std::vector<std::string>{});
    }
  }
}

// The first word of `wrapped` that differs from `whole`, or "" when they read the same. A word
// longer than `longest` (no line could hold it) may come in pieces.
std::string first_split_word(const std::vector<std::string>& wrapped,
                             const std::vector<std::string>& whole, int longest) {
  std::size_t w = 0;
  for (const std::string& word : whole) {
    if (w < wrapped.size() && wrapped[w] == word) {
      ++w;
      continue;
    }
    if (proofdeck::text::display_width(word) <= longest) return word;
    std::string joined;
    while (w < wrapped.size() && joined.size() < word.size())
      joined += wrapped[w++];
    if (joined != word) return word;
  }
  return w == wrapped.size() ? "" : wrapped[w];
}

// Prose: the same words, in the same order, at every width as on an unlimited line.
void check_never_splits_words(const std::vector<std::string>& args) {
  const std::vector<std::string> unwrapped = words_of(run_at(10000, args));
  for (const int width : kWidths) {
    INFO("--width " << width << ": " << args.front() << " " << (args.size() > 1 ? args[1] : ""));
    // Continuation lines are indented up to a third of the line: a longer word cannot fit.
    CHECK(first_split_word(words_of(run_at(width, args)), unwrapped, width - width / 3) == "");
  }
}

}  // namespace

TEST_CASE("--help fits every width and never splits a word", "[width][cli]") {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--help"},
                                             {"quiz", "--help"},
                                             {"exam", "--help"},
                                             {"drill", "--help"},
                                             {"stats", "--help"},
                                             {"check", "--help"},
                                             {"print", "--help"},
                                             {"export", "--help"},
                                             {"list", "--help"},
                                             {"demo", "run", "--help"},
                                             {"engine", "run", "--help"}}) {
    check_fits(args);
    check_never_splits_words(args);
  }
}

TEST_CASE("check's report fits every width and never splits a word", "[width][check]") {
  // The worked example: lint findings and coverage lines of every kind, in a second per run.
  const std::vector<std::string> example = {"check", "--lint", "--no-builtin", "--bank",
                                            PROOFDECK_FIXTURE_DIR "/../banks/worked_example.json"};
  check_fits(example);
  check_never_splits_words(example);
#if !PROOFDECK_SANITIZED
  // And the built-in banks' report (unproven reasons, concepts), once: minutes under ASan.
  const int width = 60;
  CHECK(too_wide(run_at(width, {"check", "--lint"}), width) == std::vector<std::string>{});
#endif
}

TEST_CASE("list fits every width and keeps ids whole", "[width][list]") {
  for (const std::string what : {"banks", "topics", "traps", "questions"}) {
    check_fits({"list", what});
    // Every id stays whole on some line, whatever the width.
    for (const int width : kWidths) {
      Cli json;
      REQUIRE(json.run({"list", what, "--format", "json"}) == 0);
      const std::string text = run_at(width, {"list", what});
      for (const auto& item : nlohmann::json::parse(json.out.str())) {
        CHECK(text.find(item["id"].get<std::string>()) != std::string::npos);
      }
    }
  }
}

TEST_CASE("every demo's figure fits every width", "[width][demo]") {
  check_fits({"demo", "list"});
  for (const proofdeck::demo::DemoInfo& info : proofdeck::demo::catalog()) {
    INFO(info.name);
    // Through the command line at the narrowest and widest width …
    for (const int width : {kWidths[0], kWidths[3]}) {
      CHECK(too_wide(run_at(width, {"demo", "run", info.name}), width) ==
            std::vector<std::string>{});
    }
    // … and the same result drawn at every width, plain and in colour, full and compact (quiz
    // feedback), without running the demo again each time.
    const proofdeck::demo::DemoResult result =
        proofdeck::demo::run_demo(info, proofdeck::demo::resolve_params(info, {}), 0);
    for (const int width : kWidths) {
      for (const bool colour : {false, true}) {
        for (const auto form :
             {proofdeck::render::TextForm::full, proofdeck::render::TextForm::compact}) {
          proofdeck::render::TextOptions options;
          options.form = form;
          options.width = width;
          const std::string drawn = proofdeck::render::render_text(
              result, info, colour ? proofdeck::Theme::colored() : proofdeck::Theme::plain(),
              options);
          CHECK(too_wide(drawn, width) == std::vector<std::string>{});
        }
      }
    }
  }
}

namespace {

// The numbers in a figure, as whole tokens: "8,796,093,022,208", "0.28", "1.73×10⁻¹⁴". Digits
// inside names (head_dim_h1, t0, L1) are not numbers.
std::vector<std::string> numbers_in(const std::string& text) {
  static const std::regex number(
      "(^|[^A-Za-z_0-9.,])([0-9](?:[0-9,.]*[0-9])?(?:×10)?(?:⁻|⁰|¹|²|³|⁴|⁵|⁶|⁷|⁸|⁹)*)");
  // A value axis's tick labels are chosen for the width: they are not the figure's numbers.
  std::string plain;
  bool axis = false;
  for (const std::string& line : lines_of(text)) {
    if (!axis) plain += line + "\n";
    const std::size_t start = line.find_first_not_of(' ');
    axis = start != std::string::npos && line.compare(start, 3, "└") == 0;
  }
  std::vector<std::string> numbers;
  for (auto it = std::sregex_iterator(plain.begin(), plain.end(), number);
       it != std::sregex_iterator(); ++it) {
    numbers.push_back((*it)[2].str());
  }
  return numbers;
}

// A command wrapped the way a shell reads it (a line ending in " \" goes on with the next, its
// indent ignored) back on one line.
std::string joined_continuations(const std::string& text) {
  static const std::regex continuation(" \\\\\n *");
  return std::regex_replace(without_escapes(text), continuation, " ");
}

// Every "proofdeck …" command in the text, to the end of its (joined) line.
std::vector<std::string> commands_in(const std::string& text) {
  std::vector<std::string> commands;
  std::istringstream in(joined_continuations(text));
  for (std::string line; std::getline(in, line);) {
    if (const std::size_t at = line.find("proofdeck "); at != std::string::npos)
      commands.push_back(line.substr(at));
  }
  return commands;
}

bool has_token(const std::vector<std::string>& tokens, const std::string& token) {
  return std::find(tokens.begin(), tokens.end(), token) != tokens.end();
}

// What is wrong with a figure drawn at `width` columns, against the same figure at 160: "" when
// nothing is.
std::string figure_problem(const std::string& drawn, int width,
                           const std::vector<std::string>& wide_numbers,
                           const std::string& command) {
  for (const std::string& line : lines_of(drawn)) {
    if (proofdeck::text::display_width(line) > width) return "a line is too wide: " + line;
  }
  // A command is there to be copied: it is never cut, and it draws this run (as text, or as
  // Markdown tables that hold every number).
  const std::vector<std::string> commands = commands_in(drawn);
  for (const std::string& shown : commands) {
    if (shown != command && shown != command + " --format md")
      return "a command is not whole: " + shown;
  }
  // A number is whole, or not there at all: none is cut to a shorter one ("→ 8,796,") or to
  // "…".
  const std::vector<std::string> numbers = numbers_in(drawn);
  for (const std::string& number : numbers) {
    if (drawn.find(number + "…") != std::string::npos) return "a number is cut: " + number + "…";
    if (!has_token(wide_numbers, number) && drawn.find(number + ",\n") != std::string::npos)
      return "a number is cut: " + number + ",";
  }
  // Every number the widest figure shows is there too, unless a figure that is left out says so
  // and how to see it.
  if (commands.empty()) {
    for (const std::string& number : wide_numbers) {
      if (!has_token(numbers, number)) return "a number drawn at 160 columns is missing: " + number;
    }
  }
  return "";
}

}  // namespace

TEST_CASE("every demo's figure keeps its numbers and commands whole at every width from 40 to 160",
          "[width][demo][sweep]") {
  using proofdeck::render::TextForm;
  for (const proofdeck::demo::DemoInfo& info : proofdeck::demo::catalog()) {
    const proofdeck::demo::DemoResult result =
        proofdeck::demo::run_demo(info, proofdeck::demo::resolve_params(info, {}), 0);
    const std::string command = proofdeck::render::reproduce_command(result, info);
    for (const TextForm form : {TextForm::full, TextForm::compact}) {
      const auto draw = [&](int width) {
        proofdeck::render::TextOptions options;
        options.form = form;
        options.width = width;
        return proofdeck::render::render_text(result, info, proofdeck::Theme::plain(), options);
      };
      // Quiz feedback lists as many of the first six values as its dozen lines leave room for:
      // its figures' numbers are the ones it must keep.
      const auto figures_of = [&](const std::string& drawn) {
        if (form == TextForm::full) return drawn;
        std::string figures;
        for (const std::string& line : lines_of(drawn)) {
          // "  Decoder positions, where the…        3" (and a second value beside it, at 160
          // columns): a line that begins with a value's label, or the start of one.
          const std::string text = line.substr(std::min(line.size(), line.find_first_not_of(' ')));
          const bool value_line =
              std::any_of(result.values.begin(), result.values.end(), [&](const auto& value) {
                const std::string& label = value.second.label;
                return text.starts_with(label.substr(0, std::min<std::size_t>(label.size(), 12)));
              });
          if (!value_line) figures += line + "\n";
        }
        return figures;
      };
      const std::vector<std::string> wide_numbers = numbers_in(figures_of(draw(160)));
      // The first width at which something is wrong, if any.
      for (int width = 40; width <= 160; ++width) {
        const std::string drawn = draw(width);
        const std::string problem = figure_problem(drawn, width, wide_numbers, command);
        INFO(info.name << (form == TextForm::full ? " in full" : " compact") << " at " << width
                       << " columns: " << problem << "\n"
                       << drawn);
        CHECK(problem == "");
        if (!problem.empty()) break;
      }
    }
  }
}

TEST_CASE("quiz, exam and drill screens fit every width", "[width][study]") {
  for (const int width : kWidths) {
    TempDir home;
    const std::vector<std::string> data = {"--data-dir", home.path().string(), "--seed", "3"};
    const auto with = [&](std::vector<std::string> args) {
      args.insert(args.end(), data.begin(), data.end());
      return args;
    };
    // In colour at one width: styles are applied after the line breaks, so they cannot move them.
    for (const bool colour :
         width == 60 ? std::vector<bool>{false, true} : std::vector<bool>{false}) {
      INFO("--width " << width << (colour ? " in colour" : ""));
      // Answers that are right, wrong and unclear, ? for help and d for the demo.
      const std::string quiz =
          run_at(width, with({"quiz", "--count", "6"}), "?\n:d\nzz\na\nb\n1024\nt\nc\nb\n", colour);
      CHECK(too_wide(quiz, width) == std::vector<std::string>{});
      const std::string exam =
          run_at(width, with({"exam", "--count", "4"}), "a\nf\nb\n\n\n\n\n", colour);
      CHECK(too_wide(exam, width) == std::vector<std::string>{});
      const std::string drill =
          run_at(width, with({"drill", "--new", "3"}), "a\ng\nb\nx\ng\nc\ne\n", colour);
      CHECK(too_wide(drill, width) == std::vector<std::string>{});
      const std::string stats = run_at(width, with({"stats"}), "", colour);
      CHECK(too_wide(stats, width) == std::vector<std::string>{});
    }
  }
}

TEST_CASE("at 40 columns a quiz's closing commands wrap between shell words", "[width][study]") {
  TempDir home;
  const std::string quiz = run_at(40,
                                  {"quiz", "--type", "single", "--count", "3", "--seed", "3",
                                   "--data-dir", home.path().string()},
                                  "a\nb\n:s\n");
  CHECK(too_wide(quiz, 40) == std::vector<std::string>{});
  CHECK_THAT(quiz,
             Catch::Matchers::Contains("    proofdeck quiz --type single \\\n      --missed\n"));
}

TEST_CASE("a session takes the terminal's width again before each question (a resize)",
          "[width][study]") {
  TempDir home;
  Cli cli;
  cli.in.str("b\nb\n");
  cli.out_is_terminal = true;
  cli.terminal_columns = 160;
  // The terminal is 160 columns wide for the first question, then resized to 50.
  int measured = 0;
  cli.measure_columns = [&measured] { return ++measured <= 2 ? 160 : 50; };
  REQUIRE(cli.run({"quiz", "--type", "single", "--count", "2", "--seed", "3", "--no-demo",
                   "--color", "never", "--data-dir", home.path().string()}) == 0);
  const std::string out = cli.out.str();
  const std::size_t second = out.find("\n[2/2]");
  REQUIRE(second != std::string::npos);
  CHECK_FALSE(too_wide(out.substr(0, second), 50).empty());  // the first, at 160
  CHECK(too_wide(out.substr(second), 50) == std::vector<std::string>{});
  CHECK(measured >= 3);
  // With --width the terminal is not asked again.
  Cli fixed;
  fixed.in.str("b\nb\n");
  fixed.out_is_terminal = true;
  int asked = 0;
  fixed.measure_columns = [&asked] { return ++asked, 50; };
  REQUIRE(fixed.run({"quiz", "--type", "single", "--count", "2", "--seed", "3", "--no-demo",
                     "--color", "never", "--width", "160", "--data-dir", home.path().string()}) ==
          0);
  CHECK(asked == 0);
}

TEST_CASE("a suggested command begins with PROOFDECK_COMMAND and wraps between its words",
          "[width][study]") {
  TempDir home;
  Cli cli;
  const std::string program = "/home/learner/src/proofdeck/scripts/run";
  cli.env = {{"PROOFDECK_COMMAND", program}};
  REQUIRE(cli.run({"drill", "--new", "0", "--width", "40", "--data-dir", home.path().string(),
                   "--color", "never"}) == 0);
  CHECK_THAT(cli.out.str(), Catch::Matchers::EndsWith("Nothing to drill now. The forecast:\n    " +
                                                      program + " \\\n      stats\n"));
  // A value that would not print as typed is not taken for a command.
  Cli odd;
  odd.env = {{"PROOFDECK_COMMAND", "run\x1b[2J"}};
  REQUIRE(odd.run({"drill", "--new", "0", "--data-dir", home.path().string(), "--color",
                   "never"}) == 0);
  CHECK_THAT(odd.out.str(), Catch::Matchers::EndsWith("    proofdeck stats\n"));
}

TEST_CASE("a quiz's prose never splits a word at any width", "[width][study]") {
  TempDir home;
  check_never_splits_words(
      {"quiz", "--count", "5", "--no-demo", "--data-dir", home.path().string(), "--seed", "7"});
}

TEST_CASE("prose wraps at 100 columns at most, while figures and tables take the whole width",
          "[width][study][demo]") {
  const auto widest = [](const std::string& output) {
    int widest_line = 0;
    for (const std::string& line : lines_of(output))
      widest_line = std::max(widest_line, proofdeck::text::display_width(line));
    return widest_line;
  };
  TempDir home;
  const std::vector<std::string> quiz = {
      "quiz", "--count", "5", "--no-demo", "--data-dir", home.path().string(), "--seed", "7"};
  for (const int width : {100, 160, 400}) {
    INFO("--width " << width);
    const int prose = widest(run_at(width, quiz, "a\nb\nt\n1024\nc\n"));
    CHECK(prose <= proofdeck::text::kProseWidth);
    CHECK(prose > 90);  // the measure is used, not a narrower default
    CHECK(widest(run_at(width, {"--help"})) <= proofdeck::text::kProseWidth);
    CHECK(widest(run_at(width, {"quiz", "--help"})) <= proofdeck::text::kProseWidth);
  }
  // A table as wide as the terminal lets it be.
  CHECK(widest(run_at(160, {"demo", "run", "head-params"})) > 120);
}

}  // namespace test_width
