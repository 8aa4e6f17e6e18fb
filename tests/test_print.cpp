// `proofdeck print`: handouts and worksheets pinned by golden files; a worksheet and its key agree
// with each other and with what a quiz shows for the same seed; every bank string escaped for
// HTML and Markdown; self-contained HTML with a section per topic and a figure per proof; the
// figure files of --assets; usage and I/O errors with their exit codes.
#include <algorithm>
#include <catch2/catch.hpp>
#include <regex>
#include <set>

#include "bank/instance.hpp"
#include "bank/sources.hpp"
#include "cli_test_support.hpp"
#include "engine/rng.hpp"
#include "print/handout.hpp"
#include "print/printable.hpp"
#include "print_test_support.hpp"
#include "study/session.hpp"
#include "text/escape.hpp"

namespace test_print {

using namespace cli_test;
using namespace print_test;
using Catch::Matchers::Contains;

namespace {

// `proofdeck print ARGS` on the worked example only.
std::string print_worked(const std::vector<std::string>& args, int expected_exit = 0) {
  Cli cli;
  std::vector<std::string> all{"print", "--no-builtin", "--bank", kWorkedBanks};
  all.insert(all.end(), args.begin(), args.end());
  const int exit_code = cli.run(all);
  INFO(cli.err.str());
  REQUIRE(exit_code == expected_exit);
  return cli.out.str();
}

// `proofdeck export ARGS` on the worked example only.
std::string export_text(const std::vector<std::string>& args) {
  Cli cli;
  std::vector<std::string> all{"export", "--no-builtin", "--bank", kWorkedBanks};
  all.insert(all.end(), args.begin(), args.end());
  const int exit_code = cli.run(all);
  INFO(cli.err.str());
  REQUIRE(exit_code == 0);
  return cli.out.str();
}

// The worksheet part of a document: from the first topic to the key (or the end).
std::string questions_part(const std::string& html) {
  const std::size_t begin = html.find("<section class=\"topic\"");
  std::size_t end = html.find("<section class=\"answer-key\"");
  if (end == std::string::npos) end = html.find("</main>");
  return html.substr(begin, end - begin);
}

std::vector<std::string> matches(const std::string& text, const std::string& pattern) {
  std::vector<std::string> found;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it)
    found.push_back((*it)[1].str());
  return found;
}

}  // namespace

// --- goldens ----------------------------------------------------------------------------------

TEST_CASE("print: the worked example renders exactly as its golden files", "[print][golden]") {
  check_golden("print_worked_example.md", print_worked({"--format", "md", "--seed", "3"}));
  check_golden("print_worked_example_appendix.md",
               print_worked({"--format", "md", "--seed", "3", "--answers", "appendix"}));
  check_golden("print_worked_example_blank.md",
               print_worked({"--format", "md", "--seed", "3", "--answers", "none"}));
  check_golden("print_worked_example.html", print_worked({"--format", "html", "--seed", "3"}));
  check_golden("print_worked_example_appendix.html",
               print_worked({"--format", "html", "--seed", "3", "--answers", "appendix"}));
}

TEST_CASE("print: the same seed prints the same bytes", "[print]") {
  const auto html = print_worked({"--format", "html", "--seed", "11"});
  CHECK(html == print_worked({"--format", "html", "--seed", "11"}));
}

// --- worksheets and keys ----------------------------------------------------------------------

TEST_CASE("print: a worksheet and its key printed separately show the same questions", "[print]") {
  for (const std::string seed : {"1", "2", "5", "42"}) {
    const std::string blank =
        print_worked({"--format", "html", "--seed", seed, "--answers", "none"});
    const std::string keyed =
        print_worked({"--format", "html", "--seed", seed, "--answers", "appendix"});
    CHECK(questions_part(blank) == questions_part(keyed));
  }
}

TEST_CASE("print: the key's letters are the ones a quiz with the same seed expects", "[print]") {
  const std::vector<proofdeck::bank::Bank> banks =
      proofdeck::bank::load_banks(proofdeck::bank::BankSources{{}, true});
  const auto selected = proofdeck::bank::select_questions(banks, {});
  for (const std::uint64_t seed : {0u, 7u, 99u}) {
    const auto groups = proofdeck::print::arrange(banks, selected, seed);
    // The same draws, one generator, in the printed order.
    proofdeck::engine::Rng rng(seed);
    int number = 0;
    for (const auto& group : groups) {
      for (const auto& printed : group.questions) {
        CHECK(printed.number == ++number);
        const auto again = proofdeck::bank::instantiate(printed.question(), rng);
        CHECK(again.order == printed.instance.order);
        const auto facts = proofdeck::print::facts_of(printed, *printed.bank);
        std::string letters = proofdeck::bank::expected_input(printed.instance);
        if (printed.question().type == proofdeck::bank::QuestionType::multi ||
            printed.question().type == proofdeck::bank::QuestionType::single) {
          letters = std::regex_replace(letters, std::regex(","), ", ");
          CHECK(facts.answer_letters == letters);
        }
        if (printed.question().type == proofdeck::bank::QuestionType::order) {
          CHECK(facts.answer_letters == std::regex_replace(letters, std::regex(" "), " → "));
        }
      }
    }
    CHECK(number == static_cast<int>(selected.size()));
  }
}

TEST_CASE("print: a worksheet numbers 1..N and its key lists every number once", "[print]") {
  Cli cli;
  REQUIRE(cli.run({"print", "--format", "html", "--answers", "appendix", "--seed", "4", "--topic",
                   "multi-head", "--topic", "rope"}) == 0);
  const std::string html = cli.out.str();
  const auto numbers = matches(html, "<span class=\"qnum\">([0-9]+)\\.</span>");
  REQUIRE(!numbers.empty());
  for (std::size_t i = 0; i < numbers.size(); ++i)
    CHECK(numbers[i] == std::to_string(i + 1));
  const auto keyed = matches(html, "<a class=\"key-number\" href=\"#key-([0-9]+)\">");
  CHECK(keyed == numbers);
  CHECK(count(html, "<section class=\"topic\"") == 2);
  CHECK(count(html, "<section class=\"answer-key\"") == 1);
}

TEST_CASE("print: a blank worksheet gives away no answer", "[print]") {
  const std::string html = print_worked({"--format", "html", "--answers", "none"});
  CHECK(html.find("class=\"answer-block\"") == std::string::npos);
  CHECK(html.find("class=\"correct\"") == std::string::npos);
  CHECK(html.find("class=\"proof\"") == std::string::npos);
  CHECK(html.find("id=\"answer-key\"") == std::string::npos);
  CHECK(html.find("<svg") == std::string::npos);
  CHECK_THAT(html, Contains("<span class=\"blank\"></span>"));
  const std::string md = print_worked({"--format", "md", "--answers", "none"});
  CHECK(md.find("[x]") == std::string::npos);
  CHECK(md.find("**Answer:** \\_\\_") != std::string::npos);
  CHECK(md.find("Why:") == std::string::npos);
}

// --- HTML -------------------------------------------------------------------------------------

TEST_CASE("print: HTML is one well-formed, self-contained file", "[print]") {
  for (const std::string answers : {"inline", "appendix", "none"}) {
    const std::string html = print_worked({"--format", "html", "--answers", answers});
    INFO(answers);
    CHECK(tag_problems(html).empty());
    CHECK(html.find("<script") == std::string::npos);
    CHECK(!std::regex_search(html, std::regex("(href|src)=\"[a-z]+:")));
    CHECK(html.find("http://") == std::string::npos);
    CHECK(html.find("https://") == std::string::npos);
    CHECK(html.find("@media print") != std::string::npos);
    CHECK(count(html, "<section class=\"topic\"") == 2);
  }
}

TEST_CASE("print: each proof's figures are inline SVG, one per heatmap or chart", "[print]") {
  const std::string html = print_worked({"--format", "html", "--seed", "1"});
  const std::regex proof("<div class=\"proof\" id=\"proof-([0-9]+)\" data-figures=\"([0-9]+)\">");
  std::size_t proofs = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), proof);
       it != std::sregex_iterator(); ++it, ++proofs) {
    const std::size_t begin = static_cast<std::size_t>(it->position());
    const std::size_t end = html.find("</article>", begin);
    const std::string block = html.substr(begin, end - begin);
    const std::size_t drawn =
        count(block, "<svg class=\"heatmap\"") + count(block, "<svg class=\"chart\"");
    CHECK(drawn == std::stoul((*it)[2].str()));
  }
  CHECK(proofs == 3);
  // order-blindness draws heatmaps; head-params at least a table of values.
  CHECK(count(html, "<svg class=\"heatmap\"") >= 2);
}

TEST_CASE("print: every bank string is escaped in HTML", "[print]") {
  TempDir dir;
  const std::string bank = dir.write("hostile.json", hostile_bank().dump());
  for (const std::string answers : {"inline", "appendix"}) {
    Cli cli;
    REQUIRE(cli.run({"print", "--no-builtin", "--bank", bank, "--format", "html", "--answers",
                     answers}) == 0);
    const std::string html = cli.out.str();
    INFO(answers);
    CHECK(tag_problems(html).empty());
    CHECK(html.find("<script>") == std::string::npos);
    CHECK_THAT(html, Contains("Prompt &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; "
                              "&#39;a&#39; ~ = # { } : \\ | *b* _u_ `t` [l](x) $m$ tab<br />\n"
                              "line"));
    // A worksheet shows no bank title (it can state an answer); a study sheet does.
    if (answers == "inline") CHECK_THAT(html, Contains("Title &lt;script&gt;"));
    CHECK_THAT(html, Contains("Trap &lt;script&gt;"));
  }
  Cli titled;
  REQUIRE(titled.run({"print", "--no-builtin", "--bank", bank, "--format", "html", "--answers",
                      "none", "--title", "Quiz <b>1</b> & \"more\""}) == 0);
  CHECK_THAT(titled.out.str(),
             Contains("<h1>Quiz &lt;b&gt;1&lt;/b&gt; &amp; &quot;more&quot;</h1>") &&
                 Contains("<title>Quiz &lt;b&gt;1&lt;/b&gt; &amp; &quot;more&quot; · Worksheet"
                          "</title>"));
}

TEST_CASE(
    "print: a study sheet prints a page per topic, a worksheet's topics flow with no "
    "question split, and the key starts a page",
    "[print]") {
  const std::string css = proofdeck::print::handout_stylesheet();
  const std::string print = css.substr(css.find("@media print"));
  CHECK_THAT(print, Contains("body.study-sheet section.topic { break-before: page;"));
  CHECK_THAT(print, !Contains("body.worksheet section.topic { break-before"));
  CHECK_THAT(print, Contains("body.worksheet article.question { margin: .9rem 0; break-inside: "
                             "avoid;"));
  CHECK_THAT(print, Contains("section.answer-key { break-before: page;"));
  CHECK_THAT(print, Contains("html, body.handout { font-size: 10pt; }"));
  CHECK_THAT(print_worked({"--format", "html", "--answers", "none"}),
             Contains("<body class=\"handout worksheet\">"));
}

TEST_CASE("print: the traps box may break between traps, never inside one", "[print]") {
  // Kept whole, a long box moved to the second page and left the first with the title alone.
  const std::string css = proofdeck::print::handout_stylesheet();
  const std::string print = css.substr(css.find("@media print"));
  CHECK_THAT(print, Contains("aside.traps dd, "));
  CHECK_THAT(print, Contains("aside.traps dt { break-after: avoid;"));
  CHECK_THAT(print, !Contains("aside.traps,"));
}

// --- Markdown ---------------------------------------------------------------------------------

TEST_CASE("print: every bank string is escaped in Markdown", "[print]") {
  TempDir dir;
  const std::string bank = dir.write("hostile.json", hostile_bank().dump());
  Cli cli;
  REQUIRE(cli.run({"print", "--no-builtin", "--bank", bank, "--format", "md", "--answers",
                   "appendix"}) == 0);
  const std::string md = cli.out.str();
  const std::string escaped =
      "\\<script\\>alert(1)\\</script\\> \\& \"q\" 'a' \\~ = # { } : \\\\ \\| \\*b\\* \\_u\\_ "
      "\\`t\\` \\[l\\](x) \\$m\\$ tab";
  CHECK_THAT(md, Contains("Prompt " + escaped + "  \nline"));
  // In the key's table a line break would end the row: the prompt stays on one line there.
  CHECK_THAT(md, Contains("#### 1. Prompt " + escaped + " line"));
  CHECK(md.find("<script>") == std::string::npos);
  CHECK(md.find("\t") == std::string::npos);
}

TEST_CASE("print: --assets writes each figure as an SVG file the Markdown links to", "[print]") {
  TempDir dir;
  const std::string output = (dir.path() / "sheet.md").string();
  const std::string assets = (dir.path() / "figures").string();
  print_worked({"--format", "md", "--output", output, "--assets", assets});
  const std::string md = read_file(output);
  const auto links = matches(md, "!\\[[^\\]]*\\]\\(([^)]+)\\)");
  REQUIRE(!links.empty());
  std::set<std::string> files;
  for (const auto& entry : fs::directory_iterator(assets))
    files.insert("figures/" + entry.path().filename().string());
  CHECK(std::set<std::string>(links.begin(), links.end()) == files);
  for (const std::string& link : links) {
    const std::string svg = read_file(dir.path() / link);
    CHECK(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=", 0) == 0);
    CHECK(tag_problems(svg.substr(svg.find("<svg"))).empty());
  }
  // Without --assets: tables only.
  CHECK(print_worked({"--format", "md"}).find("![") == std::string::npos);
}

TEST_CASE("print: the format follows --output's extension when --format is not given", "[print]") {
  TempDir dir;
  const std::string html = (dir.path() / "h.html").string();
  const std::string md = (dir.path() / "h.md").string();
  print_worked({"--output", html});
  print_worked({"--output", md});
  CHECK(read_file(html).rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(read_file(md).rfind("# ", 0) == 0);
}

// --- the built-in banks -----------------------------------------------------------------------

TEST_CASE("print: every built-in question prints, a section per topic", "[print]") {
  // Every question but those a note on standard error names as left out, each because another
  // question on the sheet states its answer (test_form.cpp); named with --question, they print.
  Cli cli;
  REQUIRE(cli.run({"print", "--format", "html", "--answers", "appendix"}) == 0);
  const std::string html = cli.out.str();
  const BuiltinCounts builtin = builtin_counts();
  const std::string notes = cli.err.str();
  std::vector<std::string> left_out;
  const std::regex note(R"(note: (\S+) is left out: )");
  for (auto it = std::sregex_iterator(notes.begin(), notes.end(), note);
       it != std::sregex_iterator(); ++it)
    left_out.push_back((*it)[1]);
  CHECK(count(notes, "\n") == left_out.size());  // a note says nothing else
  CHECK(left_out.size() < 20);
  const std::size_t printed = builtin.questions - left_out.size();
  CHECK(tag_problems(html).empty());
  CHECK(count(html, "<section class=\"topic\"") == builtin.topics);
  CHECK(count(html, "<article class=\"question\"") == printed);
  CHECK(count(html, "<article class=\"key-entry\"") == printed);
  CHECK(html.find("could not run") == std::string::npos);
  Cli md;
  REQUIRE(md.run({"print", "--format", "md"}) == 0);
  CHECK(count(md.out.str(), "\n### Question ") == printed);
  std::vector<std::string> named{"print", "--format", "html", "--answers", "appendix"};
  for (const std::string& id : left_out)
    named.insert(named.end(), {"--question", id});
  Cli those;
  REQUIRE(those.run(named) == 0);
  CHECK(count(those.out.str(), "<article class=\"question\"") == left_out.size());
  CHECK(those.out.str().find("could not run") == std::string::npos);
}

TEST_CASE("print: every figure of the every-question worksheet stays small enough to print",
          "[print][large][sweep]") {
  // A 256×256 heatmap drawn cell for cell was 8 MB of SVG, and the worksheet 17.6 MB, more than a
  // browser prints in five minutes. Seeds 0 and 7 draw different template combinations (7 draws
  // the causal mask over 256 tokens).
  for (const std::string seed : {"0", "7"}) {
    Cli cli;
    REQUIRE(cli.run({"print", "--format", "html", "--answers", "appendix", "--seed", seed}) == 0);
    const std::string html = cli.out.str();
    INFO("seed " << seed);
    CHECK(html.size() < 3'000'000);
    std::size_t largest = 0;
    for (std::size_t at = html.find("<svg"); at != std::string::npos;
         at = html.find("<svg", at + 1)) {
      largest = std::max(largest, html.find("</svg>", at) - at);
    }
    CHECK(largest < 100'000);
  }
}

TEST_CASE("print: nothing a learner receives carries a question's or a trap's id",
          "[print][ids][sweep]") {
  // Ids name what a question tests ("sdpa-scaled-not-uniform" under a "nearly uniform?" item):
  // neither the text nor the HTML source of a worksheet or a study sheet may show one. Only the
  // answer key, for the instructor, maps numbers to ids.
  std::vector<std::string> ids, topic_ids;
  for (const auto& bank : proofdeck::bank::load_banks(proofdeck::bank::BankSources{{}, true})) {
    for (const auto& q : bank.questions)
      ids.push_back(q.id);
    for (const auto& trap : bank.traps)
      ids.push_back(trap.id);
    for (const auto& topic : bank.topics)
      topic_ids.push_back(topic.id);
  }
  for (const std::string format : {"html", "md"}) {
    for (const std::string answers : {"none", "inline", "appendix"}) {
      Cli cli;
      REQUIRE(cli.run({"print", "--format", format, "--answers", answers}) == 0);
      std::string sheet = cli.out.str();
      if (answers == "appendix") sheet = sheet.substr(0, sheet.find("nswer key"));
      INFO(format << " --answers " << answers);
      for (const std::string& id : ids) {
        INFO(id);
        CHECK(sheet.find(id) == std::string::npos);
      }
      // Topic ids are ordinary words ("residual"): only in the attributes that address things.
      for (const std::string& id : topic_ids) {
        INFO(id);
        CHECK(!std::regex_search(
            sheet, std::regex("(id|href|class|name|data-[a-z-]+)=\"[^\"]*\\b" + id + "\\b")));
      }
    }
  }
}

namespace {

// The lines of a worksheet outside its questions (and before its key), as a reader sees them:
// HTML with its tags stripped and entities read, Markdown as written.
std::vector<std::string> lines_outside_questions(std::string document, bool html) {
  std::vector<std::string> lines;
  if (html) {
    document = document.substr(document.find("<body"));
    document = document.substr(
        0, std::min(document.find("<section class=\"answer-key\""), document.find("</main>")));
    document = std::regex_replace(document,
                                  std::regex("<article class=\"question\"[^]*?</article>"), "\n");
    document = std::regex_replace(document, std::regex("<[^>]*>"), "");
    for (const auto& [entity, character] : std::vector<std::pair<std::string, std::string>>{
             {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&amp;", "&"}})
      document = std::regex_replace(document, std::regex(entity), character);
  } else {
    document = document.substr(0, document.find("\n## Answer key"));
  }
  bool in_question = false;
  for (const std::string& raw : lines_of(document)) {
    const std::string line = std::regex_replace(raw, std::regex("^\\s+|\\s+$"), "");
    if (!html && line.rfind("### Question ", 0) == 0) in_question = true;
    if (!html && (line.rfind("## ", 0) == 0 || line == "---")) in_question = false;
    if (!line.empty() && !in_question) lines.push_back(line);
  }
  return lines;
}

}  // namespace

TEST_CASE(
    "print: a worksheet shows nothing outside its questions but topic names, its title "
    "and fixed labels",
    "[print][sweep]") {
  // The defect: topic descriptions stated answers ("dot products of unit-variance d_k-vectors
  // have variance d_k" over a question on their standard deviation).
  namespace print = proofdeck::print;
  namespace bank = proofdeck::bank;
  const std::vector<bank::Bank> banks = bank::load_banks(bank::BankSources{{}, true});
  std::set<std::string> names;  // as HTML shows a topic name, and as Markdown writes it
  for (const bank::Bank& b : banks) {
    for (const bank::Topic& topic : b.topics) {
      names.insert(topic.name);
      names.insert(proofdeck::text::markdown_escape(topic.name));
    }
  }
  const std::regex fixed(
      "(# )?Worksheet — \\d+ questions?|\\d+ questions? · \\d+ topics? · seed \\d+ · (no "
      "answers|answer "
      "key at the end)|Name Date|Name: (\\\\_)+ · Date: (\\\\_)+|Answer key|---");
  const std::regex topic_line("(## )?(.+?)( (question \\d+|questions \\d+–\\d+))?");
  const auto allowed = [&](const std::string& line) {
    if (std::regex_match(line, fixed)) return true;
    if (line.rfind("**Topics:** ", 0) == 0) {  // Markdown's contents: "name (1–3) · name (4)"
      const std::string dot = " · ";
      std::string rest = line.substr(12) + dot;
      for (std::size_t at; (at = rest.find(dot)) != std::string::npos;
           rest.erase(0, at + dot.size())) {
        const std::string entry =
            std::regex_replace(rest.substr(0, at), std::regex(" \\(\\d+(–\\d+)?\\)$"), "");
        if (!names.contains(entry)) return false;
      }
      return true;
    }
    std::smatch match;
    return std::regex_match(line, match, topic_line) && names.contains(match[2].str());
  };
  bank::DemoRunner runner = bank::proof_runner(bank::kProofSeed);
  std::vector<std::vector<std::string>> selections = {{}};  // every bank, then each alone
  for (const bank::Bank& b : banks)
    selections.push_back({b.id});
  std::size_t sheets = 0;
  for (const std::vector<std::string>& selection : selections) {
    std::vector<const bank::Question*> selected;
    for (const bank::Bank& b : banks) {
      if (!selection.empty() && b.id != selection.front()) continue;
      for (const bank::Question& q : b.questions)
        selected.push_back(&q);
    }
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
      std::vector<std::string> notes;
      const auto groups = print::draw_sheet(banks, selected, 20, seed, false, false, notes);
      for (const auto answers : {print::AnswerPlacement::none, print::AnswerPlacement::appendix}) {
        for (const auto format : {print::HandoutFormat::html, print::HandoutFormat::markdown}) {
          print::HandoutOptions options;
          options.format = format;
          options.answers = answers;
          options.seed = seed;
          const std::string document = print::render_handout(groups, options, runner).document;
          ++sheets;
          for (const std::string& line :
               lines_outside_questions(document, format == print::HandoutFormat::html)) {
            if (allowed(line)) continue;
            INFO((selection.empty() ? "every bank" : selection.front()) << ", seed " << seed);
            FAIL_CHECK("a line outside the questions: " << line);
          }
          if (selection.empty() && seed == 3 && answers == print::AnswerPlacement::none) {
            CHECK(document.find("variance d_k") == std::string::npos);
            CHECK(document.find("variance d\\_k") == std::string::npos);
            CHECK(document.find("RoPE adds nothing") == std::string::npos);
          }
        }
      }
    }
  }
  CHECK(sheets == 50 * 2 * 2 * selections.size());
}

TEST_CASE("print: the key may name each question, so an instructor can find it in its bank",
          "[print][ids]") {
  const std::string html = print_worked({"--format", "html", "--answers", "appendix"});
  const std::string key = html.substr(html.find("<section class=\"answer-key\""));
  CHECK_THAT(key, Contains("<code>mha-purpose</code>"));
}

TEST_CASE("print: the key's list of trapped wrong answers says what each option reads", "[print]") {
  // Worked example, seed 3: b) of question 1 embodies the parameters trap.
  const std::string html =
      print_worked({"--format", "html", "--seed", "3", "--answers", "appendix"});
  CHECK_THAT(html, Contains("<li><span class=\"wrong-answer\">b)</span> <span "
                            "class=\"option-text\">Reduce the number of parameters in the "
                            "attention block</span> <span class=\"trap-note\">"));
  const std::string md = print_worked({"--format", "md", "--seed", "3", "--answers", "appendix"});
  // The key names the trap; its correction is the study sheet's.
  CHECK_THAT(md, Contains("- ✗ **b)** Reduce the number of parameters in the attention block  \n"
                          "  *Trap: Multi-head attention cuts parameters*\n"));
}

TEST_CASE("print: no trapped wrong answer in a built-in key is its letter alone",
          "[print][sweep]") {
  for (const std::string format : {"html", "md"}) {
    Cli cli;
    REQUIRE(cli.run({"print", "--format", format, "--answers", "appendix"}) == 0);
    INFO(format);
    const std::string key = cli.out.str().substr(cli.out.str().find("nswer key"));
    CHECK(matches(key, R"((<span class="wrong-answer">[a-z]\)</span> <span class="trap-note">))")
              .empty());
    CHECK(matches(key, R"((- ✗ \*\*[a-z]\)\*\* *(\*Trap|\n)))").empty());
  }
}

TEST_CASE("print: the proofs are the computations check proves, whatever --seed draws", "[print]") {
  // An explanation quotes the numbers its demo computes at seed 0 ("a difference below 1e-16");
  // a sheet printed with another seed must print those same numbers beside it.
  for (const std::string seed : {"0", "7", "12345"}) {
    INFO("--seed " << seed);
    CHECK_THAT(print_worked({"--format", "md", "--seed", seed}),
               Contains("Largest attention-weight difference between the orders, sinusoidal "
                        "encoding: 0.1521"));
    CHECK_THAT(export_text({"--to", "anki", "--seed", seed}),
               Contains("Largest attention-weight difference between the orders, sinusoidal "
                        "encoding: 0.1521"));
  }
}

TEST_CASE("print: a Markdown handout draws each figure once", "[print][markdown]") {
  // Without --assets a heatmap is its shaded table and a series its text chart; with --assets
  // each is an SVG link instead, never both, and never a table of the series' points as well.
  const std::string plain = print_worked({"--format", "md", "--seed", "1"});
  TempDir dir;
  const std::string output = (dir.path() / "sheet.md").string();
  print_worked({"--format", "md", "--seed", "1", "--output", output, "--assets",
                (dir.path() / "figures").string()});
  const std::string linked = read_file(output);
  CHECK(count(plain, "![") == 0);
  CHECK(count(linked, "```text") == 0);
  CHECK(count(linked, "![") >= 2);
  // The heatmaps' shaded cells are in the plain sheet only.
  CHECK(count(plain, "| **") > count(linked, "| **"));
}

// --- errors -----------------------------------------------------------------------------------

TEST_CASE("print: unknown formats and answer placements are usage errors", "[print]") {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--format", "pdf"},
                                               {"--answers", "maybe"},
                                               {"--format", "html", "--assets", "figures"}}) {
    Cli cli;
    std::vector<std::string> all{"print", "--no-builtin", "--bank", kWorkedBanks};
    all.insert(all.end(), args.begin(), args.end());
    CHECK(cli.run(all) == 2);
    CHECK(!cli.err.str().empty());
  }
}

TEST_CASE("print: an output or assets folder that cannot be written is exit 3", "[print]") {
  TempDir dir;
  Cli cli;
  CHECK(cli.run({"print", "--no-builtin", "--bank", kWorkedBanks, "--output",
                 (dir.path() / "missing" / "sheet.html").string()}) == 3);
  CHECK_THAT(cli.err.str(), Contains("cannot write"));
  const std::string in_the_way = dir.write("figures", "a file");
  Cli assets;
  CHECK(assets.run({"print", "--no-builtin", "--bank", kWorkedBanks, "--format", "md", "--assets",
                    in_the_way}) == 3);
  CHECK_THAT(assets.err.str(), Contains("--assets"));
}

}  // namespace test_print
