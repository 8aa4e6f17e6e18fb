// quiz, exam, drill, stats and list driven through the command line with piped answers, as a
// learner's script would: what they print, what they save, what they refuse, their exit codes.
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "bank/instance.hpp"
#include "bank/sources.hpp"
#include "bank_test_support.hpp"
#include "cli_test_support.hpp"
#include "golden.hpp"
#include "study/progress.hpp"
#include "text/width.hpp"

namespace test_study_cli {

using namespace cli_test;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;
using nlohmann::json;
using proofdeck::testing::read_file;

namespace {

const std::string kBanks = std::string(PROOFDECK_FIXTURE_DIR) + "/../banks";
const std::string kPurpose =
    "Let the model attend to multiple representation subspaces in parallel";

// A study command on the worked example with its own data folder and a fixed clock.
struct Study {
  TempDir dir;
  std::string now = "2026-03-02T09:00:00Z";

  int run(Cli& cli, std::vector<std::string> args, const std::string& input = "") {
    cli.in.str(input);
    // Sessions draw a fresh seed unless given one: these tests repeat a form with seed 0.
    if (std::find(args.begin(), args.end(), "--seed") == args.end())
      args.insert(args.end(), {"--seed", "0"});
    args.insert(args.end(), {"--no-builtin", "--bank", kBanks, "--data-dir", dir.path().string(),
                             "--now", now, "--color", "never"});
    return cli.run(args);
  }

  // The letter the question shows for an option, read from a first run with the same seed.
  std::string letter_of(const std::vector<std::string>& args, const std::string& option) {
    Cli probe;
    run(probe, args, ":q\n");
    const std::regex line("\\n +([a-z])\\) " + option);
    std::smatch match;
    const std::string out = probe.out.str();
    REQUIRE(std::regex_search(out, match, line));
    return match[1];
  }

  json report(const std::string& name) const {
    std::ifstream file(dir.path() / name);
    return json::parse(file);
  }

  int count(const std::string& sql) const {
    SQLite::Database db((dir.path() / "progress.db").string());
    SQLite::Statement query(db, sql);
    query.executeStep();
    return query.getColumn(0).getInt();
  }
};

}  // namespace

// --- quiz ---------------------------------------------------------------------------------------

TEST_CASE("quiz: a proof shows its values in words and its title once, and :d shows it once",
          "[cli][study]") {
  Study study;
  const std::vector<std::string> args = {"quiz", "--question", "mha-purpose", "--seed",
                                         "3",    "--width",    "100"};
  const std::string right = study.letter_of(args, kPurpose);
  const auto count = [](const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
      ++n;
    return n;
  };
  Cli answered;
  REQUIRE(study.run(answered, args, right + "\n") == 0);
  const std::string feedback = answered.out.str();
  CHECK(count(feedback, "Splitting into heads does not save parameters") == 1);
  CHECK_THAT(feedback, !Contains("total_h8") && !Contains(" = 1,048,576"));
  Cli opened;  // the proof opened before answering is not drawn again after the answer
  REQUIRE(study.run(opened, args, ":d\n" + right + "\n") == 0);
  const std::string twice = opened.out.str();
  CHECK(count(twice, "Proof — head-params") == 1);
  CHECK(count(twice, "Attention parameters without biases, 8 heads: 1,048,576") == 1);
  CHECK_THAT(twice, Contains("The proof: above, opened before the answer."));
}

TEST_CASE("quiz: a right answer, then a trap call-out, then the summary and the report",
          "[cli][study]") {
  Study study;
  const std::vector<std::string> args = {"quiz", "--question", "mha-purpose", "--seed", "3"};
  const std::string right = study.letter_of(args, kPurpose);
  const std::string wrong = right == "a" ? "b" : "a";

  Cli ok;
  REQUIRE(study.run(ok, args, right + "\n") == 0);
  CHECK_THAT(ok.out.str(),
             Contains("> " + right + "\n✓ Right.") && Contains("Proof — head-params") &&
                 Contains("\n    Attention parameters without biases, 1 head: 1,048,576\n"
                          "    Attention parameters without biases, 8 heads: 1,048,576\n") &&
                 Contains("Score: 1 of 1 right (100%)"));

  Cli missed;
  std::vector<std::string> reported = args;
  reported.insert(reported.end(), {"--report", (study.dir.path() / "r.json").string()});
  REQUIRE(study.run(missed, reported, wrong + "\n") == 0);
  CHECK_THAT(missed.out.str(),
             Contains("✗ Wrong. The answer: " + right +
                      ") Let the model attend to multiple representation\n  subspaces") &&
                 Contains("Trap: Multi-head attention cuts parameters") &&
                 Contains("Why: Eight heads of width 64") &&
                 Contains("Source: Identity statement") &&
                 Contains("Traps you fell into:\n    Multi-head attention cuts parameters ×1") &&
                 Contains("  To ask again each question whose latest answer was wrong:\n"
                          "    proofdeck quiz --missed\n"));
  CHECK_THAT(ok.out.str(), !Contains("--missed"));  // nothing was missed
  const json report = study.report("r.json");
  CHECK(report["mode"] == "quiz");
  CHECK(report["score"] == json{{"correct", 0}, {"total", 1}});
  CHECK(report["questions"][0]["id"] == "mha-purpose");
  CHECK(report["questions"][0]["answer"] == wrong);
  CHECK(report["questions"][0]["answer_ids"] == "a");
  CHECK(report["questions"][0]["correct"] == false);
  CHECK(report["questions"][0]["trap"] == "mha-cuts-params");
  CHECK(study.count("SELECT count(*) FROM reviews WHERE mode = 'quiz'") == 2);
  CHECK(study.count("SELECT count(*) FROM cards") == 0);  // only drill schedules
}

TEST_CASE(
    "quiz: without --count a form holds 20 facts of those the selection asks, one question "
    "each, and the summary says how to ask more",
    "[cli][study][forms]") {
  TempDir data;
  struct Run {
    std::string out, err;
  };
  const auto quiz = [&](std::vector<std::string> args) {
    Cli cli;
    cli.in.str(":q\n");
    args.insert(args.begin(), "quiz");
    args.insert(args.end(), {"--seed", "0", "--no-demo", "--data-dir", data.path().string(),
                             "--color", "never"});
    REQUIRE(cli.run(args) == 0);  // :q at the first question: the summary of none answered
    return Run{cli.out.str(), cli.err.str()};
  };

  const Run whole = quiz({});
  CHECK_THAT(whole.out, Contains("proofdeck quiz · 20 questions ·"));
  CHECK(whole.err.find("distinct facts") == std::string::npos);
  std::smatch cut;
  REQUIRE(std::regex_search(whole.out, cut,
                            std::regex("\n  20 of the ([0-9]+) facts the matching questions ask "
                                       "were on this quiz; to ask more:\n    proofdeck quiz "
                                       "--count ([0-9]+)\n")));
  CHECK(std::stoi(cut[1]) > 50);  // every built-in objective
  CHECK(cut[2] == "50");

  // The session's filters carry into the command; a count no larger than the facts.
  const Run lesson = quiz({"--from-bank", "transformer-layer"});
  std::smatch facts;
  REQUIRE(std::regex_search(lesson.out, facts,
                            std::regex("\n  20 of the ([0-9]+) facts the matching questions ask "
                                       "were on this quiz; to ask more:\n    proofdeck quiz "
                                       "--from-bank transformer-layer --count ([0-9]+)\n")));
  CHECK(facts[1] == facts[2]);

  // A selection of fewer facts than 20: one question each, said on standard error, and nothing
  // to ask more of. 23 questions of --topic positional and rope ask 10 facts.
  const Run formula = quiz({"--topic", "positional", "--topic", "rope"});
  CHECK_THAT(formula.out, Contains("· 10 questions ·") && !Contains("to ask more"));
  CHECK(formula.err == "10 questions: the selection holds 10 distinct facts\n");
  // --count is the learner's own limit, below 20 or above (still one question per fact).
  CHECK_THAT(quiz({"--count", "3"}).out,
             Contains("proofdeck quiz · 3 questions ·") && !Contains("to ask more"));
  CHECK_THAT(quiz({"--count", "30"}).out,
             Contains("proofdeck quiz · 30 questions ·") && !Contains("to ask more"));
  const Run more = quiz({"--from-bank", "scaled-dot-product-attention", "--count", "30"});
  CHECK_THAT(more.out, Contains("proofdeck quiz · 13 questions ·"));
  CHECK_THAT(more.err, Contains("13 questions: the selection holds 13 distinct facts\n"));
  // --question asks all it names, however many, and --trap all the questions of the trap.
  CHECK_THAT(quiz({"--question", "mha-purpose-subspaces"}).out,
             Contains("proofdeck quiz · 1 question ·"));
  const Run trap = quiz({"--trap", "rope-before-projection"});  // 5 questions, 2 facts
  CHECK_THAT(trap.out, Contains("proofdeck quiz · 5 questions ·"));
  CHECK(trap.err.find("distinct facts") == std::string::npos);
}

TEST_CASE("quiz: the explanation quotes its proof's value, written by the number rule",
          "[cli][study][explanation]") {
  Study study;
  json bank = bank_test::worked_example();
  bank["questions"][0]["explanation"] = "Eight heads need {value:total_h8} weights in all.";
  const std::string path = study.dir.write("quoting.json", bank.dump());
  Cli cli;
  cli.in.str("a\n");
  REQUIRE(cli.run({"quiz", "--question", "mha-purpose", "--seed", "0", "--no-builtin", "--bank",
                   path, "--data-dir", study.dir.path().string(), "--now", study.now, "--color",
                   "never"}) == 0);
  CHECK_THAT(cli.out.str(), Contains("Why: Eight heads need 1,048,576 weights in all."));
}

TEST_CASE("quiz: the same seed asks the same questions in the same order", "[cli][study]") {
  Study study;
  const auto order = [&](const std::string& seed) {
    Cli cli;
    study.run(cli, {"quiz", "--seed", seed, "--no-demo"}, ":s\n:s\n:s\n");
    std::vector<std::string> headers;
    const std::string out = cli.out.str();
    const std::regex header("\\[\\d/3\\] [^\\n]*\\n  ([^\\n]*)");
    for (auto it = std::sregex_iterator(out.begin(), out.end(), header);
         it != std::sregex_iterator(); ++it)
      headers.push_back((*it)[1]);
    return headers;
  };
  CHECK(order("11") == order("11"));
  CHECK(order("11").size() == 3);
}

TEST_CASE("quiz, exam and drill draw a fresh seed each run, show it, and --seed repeats the form",
          "[cli][study]") {
  for (const std::string mode : {"quiz", "exam", "drill"}) {
    INFO(mode);
    TempDir dir;
    const auto run = [&](std::vector<std::string> extra) {
      Cli cli;
      std::vector<std::string> args = {mode,         "--no-demo",
                                       "--data-dir", dir.path().string(),
                                       "--now",      "2026-03-02T09:00:00Z",
                                       "--color",    "never"};
      args.insert(args.end(), extra.begin(), extra.end());
      cli.in.str("");
      REQUIRE(cli.run(args) == 0);
      return cli.out.str();
    };
    const std::regex seed_line("seed (\\d+) — --seed (\\d+) repeats this");
    const auto seed_of = [&](const std::string& out) {
      std::smatch match;
      REQUIRE(std::regex_search(out, match, seed_line));
      CHECK(match[1] == match[2]);
      return match[1].str();
    };
    const std::string first = run({}), second = run({});
    CHECK(seed_of(first) != seed_of(second));
    // The same seed, the same form: questions, order and numbers (the summary's time aside).
    const auto form = [](const std::string& out) { return out.substr(0, out.find(" finished")); };
    const std::string again = run({"--seed", seed_of(first)});
    CHECK(form(again).substr(0, form(again).find("seed ")) ==
          form(first).substr(0, form(first).find("seed ")));
    if (mode == "quiz") CHECK(form(again) == form(first));
  }
}

TEST_CASE("quiz: the report carries the seed", "[cli][study]") {
  Study study;
  const std::string report = (study.dir.path() / "quiz.json").string();
  Cli cli;
  REQUIRE(study.run(cli, {"quiz", "--seed", "48213", "--report", report}, "") == 0);
  const json written = study.report("quiz.json");
  CHECK(written["seed"] == 48213);
  // The whole form in draw order, asked or not (end of input ended the quiz at once).
  CHECK(written["form"].size() >= 1);
  CHECK(written["filters"]["questions"] == json::array());
  CHECK_THAT(cli.out.str(), Contains("seed 48213 — --seed 48213 repeats this"));
}

TEST_CASE("quiz --missed asks the questions whose latest answer was wrong, in any mode",
          "[cli][study]") {
  Study study;
  const std::string right = study.letter_of({"quiz", "--question", "mha-purpose"}, kPurpose);
  const std::string wrong = right == "a" ? "b" : "a";
  Cli nothing;
  REQUIRE(study.run(nothing, {"quiz", "--missed", "--width", "200"}) == 0);
  CHECK_THAT(nothing.out.str(), Contains("Nothing to review: no question's latest answer is "
                                         "wrong, and none was"));
  Cli first;  // wrong in a quiz, and a true/false right in an exam
  REQUIRE(study.run(first, {"quiz", "--question", "mha-purpose", "--no-demo"}, wrong + "\n") == 0);
  Cli exam;
  REQUIRE(study.run(exam, {"exam", "--question", "order-without-pe", "--count", "1"}, "f\n") == 0);
  Cli missed;
  REQUIRE(study.run(missed, {"quiz", "--missed", "--no-demo"}, right + "\n") == 0);
  CHECK_THAT(missed.out.str(), Contains("· 1 question you got wrong or skipped last time ·") &&
                                   Contains(kPurpose) && Contains("Score: 1 of 1 right"));
  Cli fixed;  // answered right since: nothing left
  REQUIRE(study.run(fixed, {"quiz", "--missed"}) == 0);
  CHECK_THAT(fixed.out.str(), Contains("Nothing to review"));
}

TEST_CASE("a skipped question shows its answer after the quiz and is asked again by --missed",
          "[cli][study]") {
  Study study;
  const std::string right = study.letter_of({"quiz", "--question", "mha-purpose"}, kPurpose);
  const std::string wrong = right == "a" ? "b" : "a";
  Cli skipping;
  REQUIRE(study.run(skipping, {"quiz", "--question", "mha-purpose", "--no-demo", "--width", "200"},
                    ":s\n") == 0);
  CHECK_THAT(skipping.out.str(), Contains("Skipped: its answer follows the quiz.") &&
                                     Contains("No question answered (1 skipped)") &&
                                     Contains("Skipped, with the answers:") &&
                                     Contains("To ask again each question answered wrong or "
                                              "skipped:\n    proofdeck quiz --missed\n") &&
                                     Contains("→ " + right + ") Let the model attend to"));
  Cli missed;  // skipped, so --missed asks it; answered wrong, it stays missed
  REQUIRE(study.run(missed, {"quiz", "--missed", "--no-demo"}, wrong + "\n") == 0);
  CHECK_THAT(missed.out.str(),
             Contains("· 1 question you got wrong or skipped last time ·") && Contains(kPurpose));
  Cli again;  // then right: no longer
  REQUIRE(study.run(again, {"quiz", "--missed", "--no-demo"}, right + "\n") == 0);
  CHECK_THAT(again.out.str(), Contains("Score: 1 of 1 right"));
  Cli none;
  REQUIRE(study.run(none, {"quiz", "--missed"}) == 0);
  CHECK_THAT(none.out.str(), Contains("Nothing to review"));
  // One answered, one skipped: the score says how many of the questions were answered. The
  // draw puts the single-answer or the true/false question first: answer whichever it is.
  const std::vector<std::string> two = {
      "quiz",   "--question", "mha-purpose", "--question", "order-without-pe", "--no-demo",
      "--seed", "1"};
  Cli probe;
  REQUIRE(study.run(probe, two, "") == 0);
  const bool single_first = probe.out.str().find("[1/2] Multi-head") != std::string::npos;
  Cli some;
  REQUIRE(study.run(some, two, single_first ? right + "\n:s\n" : "t\n:s\n") == 0);
  CHECK_THAT(some.out.str(), Contains(" right (") && Contains(" · 1 of 2 answered, 1 skipped · "));
}

TEST_CASE("quiz --weakest N asks the questions of the traps fallen into most", "[cli][study]") {
  Study study;
  Cli none;
  REQUIRE(study.run(none, {"quiz", "--weakest", "2"}) == 0);
  CHECK_THAT(none.out.str(), Contains("No traps to review"));
  const std::string right = study.letter_of({"quiz", "--question", "mha-purpose"}, kPurpose);
  Cli wrong;
  REQUIRE(study.run(wrong, {"quiz", "--question", "mha-purpose", "--no-demo"},
                    (right == "a" ? "b" : "a") + std::string("\n")) == 0);
  Cli weakest;
  REQUIRE(study.run(weakest, {"quiz", "--weakest", "1", "--no-demo"}, "") == 0);
  const std::string out = weakest.out.str();
  CHECK_THAT(out, Contains("on your weakest trap: ") && Contains("(1×)"));
  // Every question asked tests that trap: the header counts exactly those.
  const std::vector<proofdeck::bank::Bank> banks =
      proofdeck::bank::load_banks(proofdeck::bank::BankSources{{kBanks}, false});
  REQUIRE(banks.size() == 1);
  int testing = 0;
  for (const proofdeck::bank::Question& q : banks[0].questions) {
    const auto traps = proofdeck::bank::question_traps(q);
    testing += std::find(traps.begin(), traps.end(), "mha-cuts-params") != traps.end();
  }
  CHECK_THAT(out, Contains(fmt::format("· {} question{} on your weakest", testing,
                                       testing == 1 ? "" : "s")));
}

TEST_CASE("quiz: opening the proof before answering makes a right answer count as not known",
          "[cli][study]") {
  Study study;
  const std::string report = (study.dir.path() / "quiz.json").string();
  Cli cli;
  REQUIRE(study.run(cli, {"quiz", "--question", "order-without-pe", "--report", report},
                    ":d\nf\n") == 0);
  const std::string out = cli.out.str();
  CHECK_THAT(out, Contains("Proof — ") &&
                      Contains("You opened the proof before answering: this answer will count "
                               "as not known.") &&
                      Contains("– Right, after opening the proof: counted as not known") &&
                      Contains("Score: 0 of 1 right"));
  const json r = study.report("quiz.json");
  CHECK(r["questions"][0]["correct"] == false);
  CHECK(r["questions"][0]["revealed"] == true);
  CHECK(study.count("SELECT count(*) FROM reviews WHERE correct = 0") == 1);
}

TEST_CASE("quiz: unclear input is asked again with a hint, help and the demo on request",
          "[cli][study]") {
  Study study;
  Cli cli;
  REQUIRE(study.run(cli, {"quiz", "--question", "order-without-pe"}, "maybe\n?\nf\n") == 0);
  const std::string out = cli.out.str();
  CHECK_THAT(out, Contains("> maybe\n  ? type t (true) or f (false)") &&
                      Contains("Commands: :s skip · :d the demo behind the question") &&
                      Contains("Proof — order-blindness") && Contains("✓ Right."));
  CHECK_THAT(out, Contains("Score: 1 of 1 right"));
}

TEST_CASE("quiz: end of input ends the session gracefully with the summary", "[cli][study]") {
  Study study;
  Cli cli;
  REQUIRE(study.run(cli, {"quiz", "--no-demo"}, "") == 0);
  CHECK_THAT(cli.out.str(), Contains("Quiz finished\n  No question answered · 0 s"));
}

TEST_CASE("quiz: filters that name nothing are refused with what exists", "[cli][study]") {
  Study study;
  Cli topic;
  CHECK(study.run(topic, {"quiz", "--topic", "norms"}) == 2);
  CHECK(topic.err.str() == "error: no topic 'norms'; the topics: multi-head, positional\n");
  Cli question;
  CHECK(study.run(question, {"quiz", "--question", "nope"}) == 2);
  CHECK_THAT(question.err.str(), Contains("no question 'nope' in the loaded banks"));
  Cli none;
  CHECK(study.run(none, {"quiz", "--topic", "positional", "--type", "numeric"}) == 2);
  CHECK_THAT(none.err.str(), Contains("no question matches those filters together"));
}

TEST_CASE("a mistyped topic, trap, bank or question is refused with the closest name",
          "[cli][study]") {
  Study study;
  Cli topic;
  CHECK(study.run(topic, {"quiz", "--topic", "multihead"}) == 2);
  CHECK(topic.err.str() ==
        "error: no topic 'multihead'; did you mean 'multi-head'? (the topics: multi-head, "
        "positional)\n");
  Cli trap;
  CHECK(study.run(trap, {"drill", "--trap", "mha-cut-params"}) == 2);
  CHECK_THAT(trap.err.str(),
             StartsWith("error: no trap 'mha-cut-params'; did you mean 'mha-cuts-params'? (the "
                        "traps: mha-cuts-params, "));
  Cli bank;
  CHECK(study.run(bank, {"exam", "--from-bank", "exmaple"}) == 2);
  CHECK(bank.err.str() ==
        "error: no bank 'exmaple'; did you mean 'example'? (the banks: example)\n");
  Cli question;
  CHECK(study.run(question, {"list", "questions", "--question", "mha-purpos"}) == 2);
  CHECK(question.err.str() ==
        "error: no question 'mha-purpos' in the loaded banks; did you mean 'mha-purpose'?\n");
  Cli both;  // every problem at once, each with its own suggestion
  CHECK(study.run(both, {"print", "--topic", "positonal", "--topic", "norms"}) == 2);
  CHECK(both.err.str() ==
        "error: no topic 'positonal'; did you mean 'positional'? (the topics: multi-head, "
        "positional); no topic 'norms'; the topics: multi-head, positional\n");
}

TEST_CASE("quiz: a bad --now is a usage error naming the value", "[cli][study]") {
  Study study;
  study.now = "yesterday";
  Cli cli;
  CHECK(study.run(cli, {"quiz"}) == 2);
  CHECK_THAT(cli.err.str(), Contains("--now 'yesterday': expected an ISO-8601 time"));
}

TEST_CASE("a study command names the progress database it creates, once", "[cli][study]") {
  // A mistyped --data-dir would otherwise start from nothing without a word.
  Study study;
  const std::string note =
      "note: new progress database at " + (study.dir.path() / "progress.db").string() + "\n";
  Cli first;
  REQUIRE(study.run(first, {"quiz", "--count", "1"}, "") == 0);
  CHECK(first.err.str() == note);
  Cli again;
  REQUIRE(study.run(again, {"quiz", "--count", "1"}, "") == 0);
  CHECK(again.err.str().find("new progress database") == std::string::npos);

  for (const std::string command : {"quiz", "exam", "drill"}) {  // whichever comes first
    Study fresh;
    Cli cli;
    REQUIRE(fresh.run(cli, {command}, "") == 0);
    INFO(command);
    CHECK_THAT(cli.err.str(), Contains("note: new progress database at " +
                                       (fresh.dir.path() / "progress.db").string()));
  }
}

TEST_CASE("a filter that names nothing creates no progress database", "[cli][study]") {
  Study study;
  for (const std::string command : {"quiz", "exam", "drill"}) {
    Cli cli;
    CHECK(study.run(cli, {command, "--topic", "norms"}) == 2);
    INFO(command);
    CHECK(cli.err.str() == "error: no topic 'norms'; the topics: multi-head, positional\n");
    CHECK_FALSE(std::filesystem::exists(study.dir.path() / "progress.db"));
  }
}

TEST_CASE("commands that only read create no progress store, no folder and no lock",
          "[cli][study][progress]") {
  TempDir home;  // an empty HOME: progress would go to HOME/.local/share/proofdeck
  TempDir outputs;
  const std::string out = outputs.path().string();
  const std::vector<std::pair<std::vector<std::string>, int>> commands = {
      {{"stats"}, 0},
      {{"stats", "--format", "json"}, 0},
      {{"exam", "--review"}, 2},
      {{"list", "questions"}, 0},
      {{"print", "--count", "2", "-o", out + "/sheet.md"}, 0},
      {{"export", "--to", "gift", "-o", out + "/bank.gift"}, 0},
      {{"analyze", out}, 2},  // no reports there: a usage error, nothing opened
  };
  for (const auto& [command, code] : commands) {
    std::vector<std::string> args = command;
    args.insert(args.end(), {"--no-builtin", "--bank", kBanks, "--color", "never"});
    Cli cli;
    cli.env = {{"HOME", home.path().string()}};
    INFO(fmt::format("{}", fmt::join(command, " ")));
    CHECK(cli.run(args) == code);
    CHECK(home.entries().empty());
  }
}

TEST_CASE("stats with no store says where it looked and what starts one, and JSON has store null",
          "[cli][study][progress]") {
  TempDir home;
  const std::string dir = (home.path() / ".local" / "share" / "proofdeck").string();
  const auto run = [&](Cli& cli, std::vector<std::string> args) {
    args.insert(args.end(),
                {"--no-builtin", "--bank", kBanks, "--color", "never", "--width", "200"});
    cli.env = {{"HOME", home.path().string()}};
    return cli.run(args);
  };
  Cli text;
  REQUIRE(run(text, {"stats"}) == 0);
  // One sentence, however the path wraps it.
  CHECK(std::regex_replace(text.out.str(), std::regex("\n  "), " ") ==
        "No progress yet at " + dir +
            " — quiz, exam or drill start one (--data-dir or PROOFDECK_HOME choose another "
            "folder)\n");
  CHECK(text.err.str().empty());
  Cli data;
  REQUIRE(run(data, {"stats", "--format", "json"}) == 0);
  const json stats = json::parse(data.out.str());
  CHECK(stats["store"].is_null());
  CHECK(stats["reviews"]["total"] == 0);
  CHECK(stats["exams"] == json::array());
  Cli review;
  CHECK(run(review, {"exam", "--review"}) == 2);
  CHECK_THAT(review.err.str(),
             StartsWith("error: --review: no exams yet — there is no progress at " + dir));
  CHECK(home.entries().empty());
  // With a store, JSON names it.
  Cli quiz;
  REQUIRE(run(quiz, {"quiz", "--count", "1", "--seed", "0"}) == 0);
  Cli again;
  REQUIRE(run(again, {"stats", "--format", "json"}) == 0);
  CHECK(json::parse(again.out.str())["store"] == dir + "/progress.db");
}

TEST_CASE("a data folder that is a file is refused, whoever opens it", "[cli][study][progress]") {
  TempDir dir;
  const std::string file = dir.write("notes.txt", "my notes\n");
  for (const std::string command : {"stats", "quiz", "drill", "exam"}) {
    Cli cli;
    INFO(command);
    CHECK(cli.run({command, "--data-dir", file, "--no-builtin", "--bank", kBanks, "--color",
                   "never"}) == 3);
    CHECK(cli.err.str() == "error: " + file +
                               " is a file, not a folder: progress.db is kept in a folder (choose "
                               "one with --data-dir DIR or PROOFDECK_HOME)\n");
  }
}

TEST_CASE("an empty progress file left by a killed first run counts as new", "[cli][study]") {
  Study study;
  study.dir.write("progress.db", "");
  Cli stats;
  REQUIRE(study.run(stats, {"stats"}) == 0);
  CHECK_THAT(stats.out.str(), StartsWith("No progress yet at " + study.dir.path().string()));
  Cli quiz;
  REQUIRE(study.run(quiz, {"quiz", "--count", "1"}, "") == 0);
  CHECK_THAT(quiz.err.str(), Contains("note: new progress database at "));
}

TEST_CASE("quiz: a progress file that is not a database stops the session, untouched",
          "[cli][study]") {
  Study study;
  study.dir.write("progress.db", "not a database");
  Cli cli;
  CHECK(study.run(cli, {"quiz"}, "a\n") == 3);
  CHECK_THAT(cli.err.str(), Contains("progress.db: not a SQLite database"));
  std::ifstream file(study.dir.path() / "progress.db");
  CHECK(std::string(std::istreambuf_iterator<char>(file), {}) == "not a database");
}

// --- drill --------------------------------------------------------------------------------------

TEST_CASE("drill: a new card steps through learning, is saved, and comes back when due",
          "[cli][study]") {
  Study study;
  // order-without-pe: true/false, the key is false.
  const std::vector<std::string> args = {"drill", "--question", "order-without-pe", "--auto-rate"};
  Cli first;
  REQUIRE(study.run(first, args, "f\nf\n") == 0);
  CHECK_THAT(first.out.str(), Contains("0 due · 1 new") && Contains("[drill 1] new") &&
                                  Contains("Rated good · next review in 10 min") &&
                                  Contains("Nothing else is due: reviewing ahead") &&
                                  Contains("[drill 2] learning") &&
                                  Contains("Rated good · next review in 2 days") &&
                                  Contains("2 reviews saved · 0 cards due now"));
  CHECK(study.count("SELECT count(*) FROM reviews WHERE mode = 'drill'") == 2);
  CHECK(study.count("SELECT count(*) FROM cards WHERE state = 'review'") == 1);

  Cli same_day;
  REQUIRE(study.run(same_day, args, "") == 0);
  CHECK_THAT(same_day.out.str(), Contains("Nothing to drill now: the next card is due in 2 days"));

  study.now = "2026-03-05T09:00:00Z";
  Cli later;
  REQUIRE(study.run(later, args, "t\n") == 0);
  CHECK_THAT(later.out.str(), Contains("1 due · 0 new") && Contains("[drill 1] review") &&
                                  Contains("✗ Wrong.") &&
                                  Contains("Rated again · next review in 10 min"));
  CHECK(study.count("SELECT lapses FROM cards WHERE id = 'order-without-pe'") == 1);
  CHECK(study.count("SELECT count(*) FROM cards WHERE state = 'relearning'") == 1);
  CHECK(study.count("SELECT elapsed_days FROM reviews ORDER BY id DESC LIMIT 1") == 3);
}

TEST_CASE("drill: opening the demo before answering rates the card Again", "[cli][study]") {
  Study study;
  Cli cli;
  REQUIRE(study.run(cli, {"drill", "--question", "order-without-pe", "--limit", "1"}, ":d\nf\n") ==
          0);
  CHECK_THAT(cli.out.str(), Contains("– Right, after opening the proof") &&
                                Contains("Rated again · next review in 1 min") &&
                                !Contains("How was it?"));
  CHECK(study.count("SELECT rating FROM reviews") == 1);  // Again
}

TEST_CASE("drill: a right answer left unrated changes no schedule and saves no review",
          "[cli][study]") {
  // The input ends at "How was it?" (as Ctrl-C does there): the answer is in the summary and the
  // report, rated false; the card and the reviews table are as they were.
  Study study;
  TempDir dir;
  const std::string report = (dir.path() / "drill.json").string();
  Cli cli;
  REQUIRE(study.run(cli, {"drill", "--question", "order-without-pe", "--report", report}, "f\n") ==
          0);
  CHECK_THAT(cli.out.str(), Contains("✓ Right.") && Contains("How was it?") &&
                                Contains("Not rated: this card's schedule is unchanged") &&
                                Contains("0 reviews saved") && !Contains("Rated good"));
  CHECK(study.count("SELECT count(*) FROM reviews") == 0);
  CHECK(study.count("SELECT count(*) FROM cards WHERE state != 'new'") == 0);
  const auto written = nlohmann::json::parse(read_file(report));
  REQUIRE(written["questions"].size() == 1);
  CHECK(written["questions"][0]["correct"] == true);
  CHECK(written["questions"][0]["rated"] == false);
  // Rated, the same answer is saved and reported so.
  Cli rated;
  REQUIRE(study.run(rated, {"drill", "--question", "order-without-pe", "--report", report},
                    "f\ng\n") == 0);
  CHECK(study.count("SELECT count(*) FROM reviews") == 1);
  CHECK(nlohmann::json::parse(read_file(report))["questions"][0]["rated"] == true);
}

TEST_CASE("drill: input that ends before the first answer says so, not 'nothing to drill'",
          "[cli][study]") {
  Study study;
  Cli cli;
  REQUIRE(study.run(cli, {"drill", "--new", "3"}, "") == 0);
  CHECK_THAT(cli.out.str(), Contains("No answer read: the input ended before the first one") &&
                                Contains("so 3 waiting cards") &&
                                !Contains("Nothing to drill now"));
  CHECK(study.count("SELECT count(*) FROM cards") == 0);
}

namespace {

// The topic of each new card a first drill deals, skipping every card (`args` added).
std::vector<std::string> dealt_topics(int cards, const std::vector<std::string>& args = {}) {
  TempDir dir;
  Cli cli;
  std::string skips;
  for (int i = 0; i < cards; ++i)
    skips += ":s\n";
  cli.in.str(skips);
  std::vector<std::string> command = {"drill",
                                      "--new",
                                      std::to_string(cards),
                                      "--no-demo",
                                      "--seed",
                                      "0",
                                      "--data-dir",
                                      dir.path().string(),
                                      "--now",
                                      "2026-03-02T09:00:00Z",
                                      "--color",
                                      "never",
                                      "--width",
                                      "200",
                                      "--no-bury"};  // dealing alone, every card of a topic
  command.insert(command.end(), args.begin(), args.end());
  REQUIRE(cli.run(command) == 0);
  const std::string out = cli.out.str();
  std::vector<std::string> topics;
  const std::regex header("\\[drill \\d+\\] new · ([^\\n]+)\\n");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), header); it != std::sregex_iterator();
       ++it)
    topics.push_back((*it)[1]);
  return topics;
}

}  // namespace

TEST_CASE(
    "drill: new cards are dealt round the topics whose prerequisites are met, the "
    "lesson's first in its order",
    "[cli][study]") {
  const std::vector<std::string> topics = dealt_topics(24);
  REQUIRE(topics.size() == 24);
  // The lesson bank's seven topics in the lesson's order, then the attention formula, the one
  // other topic that requires nothing; then the second round begins again with the lesson's.
  CHECK(topics.front() == "Multi-head attention");
  CHECK(std::set<std::string>(topics.begin(), topics.begin() + 8).size() == 8);
  CHECK(topics[7] == "The attention formula: Q, K, V and the softmax");
  CHECK(topics[8] == topics[0]);
  CHECK(topics[9] == topics[1]);
  CHECK(std::set<std::string>(topics.begin(), topics.end()).size() == 8);
}

TEST_CASE("drill: a topic's new cards come after every new card of what it requires",
          "[cli][study][requires]") {
  // scaled-dot-product-attention's 22 cards (the formula's 6 first) before any of
  // modern-decoder's 46, which requires it.
  const std::vector<std::string> topics =
      dealt_topics(68, {"--bank", "scaled-dot-product-attention", "--bank", "modern-decoder"});
  REQUIRE(topics.size() == 68);
  const std::string formula = "The attention formula: Q, K, V and the softmax";
  CHECK(std::count(topics.begin(), topics.begin() + 6, formula) == 6);
  const std::set<std::string> attention = {formula, "Why divide by √d_k", "Masking and cost",
                                           "Attention in practice: numerics and dropout"};
  for (std::size_t i = 0; i < topics.size(); ++i) {
    INFO(i << ": " << topics[i]);
    CHECK(attention.contains(topics[i]) == (i < 22));
  }
  // The modern decoder's topics, round by round in the bank's order, once they may start.
  CHECK(topics[22] == "Grouped-query and multi-query attention");
  CHECK(topics[28] == "FlashAttention and tiled attention");
}

TEST_CASE("drill: a template is one card that draws fresh numbers at each review", "[cli][study]") {
  Study study;
  Cli cli;
  REQUIRE(study.run(cli, {"drill", "--question", "per-head-qkv", "--auto-rate"}, "1\n1\n1\n") == 0);
  const std::string out = cli.out.str();
  std::set<std::string> prompts;
  const std::regex prompt("A model with d_model = [0-9,]+ splits attention into [0-9]+ heads");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), prompt); it != std::sregex_iterator();
       ++it)
    prompts.insert(it->str());
  CHECK(prompts.size() > 1);
  CHECK(study.count("SELECT count(DISTINCT card) FROM reviews") == 1);
}

TEST_CASE("drill: a right answer is rated by the learner, Enter meaning good", "[cli][study]") {
  Study study;
  Cli cli;
  REQUIRE(study.run(cli, {"drill", "--question", "order-without-pe"}, "f\nmeh\n\n") == 0);
  CHECK_THAT(cli.out.str(), Contains("How was it? h hard · g good (Enter) · e easy > meh\n"
                                     "  ? type h, g or e") &&
                                Contains("Rated good · next review in 10 min"));
  CHECK(study.count("SELECT rating FROM reviews") == 3);
}

TEST_CASE("drill: --new caps the new cards a day", "[cli][study]") {
  Study study;
  Cli cli;
  REQUIRE(study.run(cli, {"drill", "--new", "1", "--auto-rate"}, ":s\n") == 0);
  CHECK_THAT(cli.out.str(), Contains("0 due · 1 new (0 of 1 new cards introduced today)"));
}

// --- exam ---------------------------------------------------------------------------------------

TEST_CASE("exam: commands are words that never answer — every question stays open until submit",
          "[cli][study][exam]") {
  Study study;
  const std::string report = (study.dir.path() / "exam.json").string();
  Cli cli;
  REQUIRE(study.run(cli,
                    {"exam", "--count", "3", "--minutes", "5", "--pass", "60", "--report", report},
                    "flag\nnext\nback\ngoto 3\ngoto 9\nreview\nsubmit\nno\nsubmit\nyes\n") == 0);
  const std::string out = cli.out.str();
  CHECK_THAT(out,
             Contains("proofdeck exam · 3 questions · 5 minutes · pass at 60%") &&
                 Contains("\n[0/3 answered] > flag\n  Question 1 flagged for review.") &&
                 Contains("[1/3]") && Contains("[2/3]") && Contains("[3/3]") &&
                 Contains("· flagged") && Contains("No question 9: the questions are 1 to 3.") &&
                 Contains("unanswered · flagged — ") && Contains("0 of 3 answered, 1 flagged, ") &&
                 Contains("3 of 3 are unanswered (they count as wrong). 1 is flagged. "
                          "Submit now?") &&
                 Contains("Not submitted: the exam goes on.") &&
                 Contains("Score: 0 of 3 right (0%), 3 unanswered") &&
                 Contains("Result: 0 of 3 = 0% → FAIL (pass mark 60%)") &&
                 Contains("Questions to review") && Contains("– Not answered. The answer:"));
  CHECK_THAT(out, !Contains("✓ Right.") && !Contains("✗ Wrong."));
  // Back from question 2 shows question 1 again: it is on screen twice before goto 3.
  CHECK(std::regex_search(out, std::regex(R"(\[1/3\][\s\S]*\[2/3\][\s\S]*\[1/3\][\s\S]*\[3/3\])")));
  const json result = study.report("exam.json");
  CHECK(result["mode"] == "exam");
  CHECK(result["score"] == json{{"correct", 0}, {"total", 3}});
  CHECK(result["passed"] == false);
  // What item analysis needs: the form in draw order, the exam's settings, each bank's revision,
  // and every answer in the bank's own ids (null for one never given).
  REQUIRE(result["form"].size() == 3);
  for (std::size_t i = 0; i < 3; ++i)
    CHECK(result["form"][i] == result["questions"][i]["id"]);
  CHECK(result["exam"]["count"] == 3);
  CHECK(result["exam"]["minutes"] == 5.0);
  CHECK(result["exam"]["pass_percent"] == 60.0);
  CHECK(result["exam"]["filters"]["topics"] == json::array());
  for (const json& q : result["questions"]) {
    CHECK(q["answer_ids"].is_null());
    CHECK(result["banks"].contains(q["bank"].get<std::string>()));
  }
  CHECK(study.count("SELECT count(*) FROM sessions WHERE mode = 'exam' AND passed = 0") == 1);
}

TEST_CASE("exam: f on a true/false question answers false, and an answer can be changed",
          "[cli][study][exam]") {
  Study study;
  Cli cli;
  // Answered true (wrong), then back to it and changed to f (false, right); end of input submits.
  REQUIRE(study.run(cli, {"exam", "--question", "order-without-pe", "--count", "1"},
                    "t\ngoto 1\nf\n") == 0);
  const std::string out = cli.out.str();
  CHECK_THAT(out, Contains("Your answer: true (type another to change it, next to keep it)"));
  CHECK_THAT(out, !Contains("· flagged"));
  CHECK_THAT(out, Contains("proofdeck exam · 1 question · 30 minutes · pass at 75%"));
  CHECK_THAT(out, Contains("Result: 1 of 1 = 100% → PASS"));
  CHECK(study.count("SELECT count(*) FROM reviews WHERE mode = 'exam' AND correct = 1") == 1);
  CHECK(study.count("SELECT count(*) FROM reviews WHERE mode = 'exam'") == 1);  // the final one
  CHECK(study.count("SELECT count(*) FROM cards") == 0);
}

TEST_CASE("exam: the results show each missed question with its answer, trap, why and proof",
          "[cli][study][exam]") {
  Study study;
  const std::string right = study.letter_of(
      {"exam", "--question", "mha-purpose", "--count", "1", "--minutes", "1"}, kPurpose);
  Cli cli;
  REQUIRE(study.run(cli, {"exam", "--question", "mha-purpose", "--count", "1", "--minutes", "1"},
                    right == "a" ? "b\nsubmit\nyes\n" : "a\nsubmit\nyes\n") == 0);
  const std::string out = cli.out.str();
  CHECK_THAT(out, Contains("1 minute · pass at 75%") && !Contains("1 minutes"));
  const std::string results = out.substr(out.find("Questions to review"));
  CHECK_THAT(results, Contains("Question 1 · Multi-head attention · single") &&
                          Contains("Your answer: ") && Contains("✗ Wrong. The answer: ") &&
                          Contains("Trap: ") && Contains("Why: ") && Contains("Proof — "));
  CHECK_THAT(results, !Contains("mha-purpose"));  // no internal ids
  const std::string result_json = [&] {
    SQLite::Database db((study.dir.path() / "progress.db").string());
    SQLite::Statement q(db, "SELECT result FROM sessions WHERE mode = 'exam'");
    q.executeStep();
    return q.getColumn(0).getString();
  }();
  const json kept = json::parse(result_json);
  CHECK(kept["topics"] == json{{"multi-head", {{"correct", 0}, {"total", 1}}}});
  CHECK(kept["pass"] == 75);
  CHECK(kept["allowed_minutes"] == 1);
  CHECK(kept["minutes"].get<double>() >= 0);
}

TEST_CASE("exam: a typed number reads back by the number rule in the review and the results",
          "[cli][study][exam]") {
  Study study;
  Cli cli;
  REQUIRE(study.run(cli, {"exam", "--question", "per-head-qkv", "--no-demo"},
                    "2^25\nreview\nsubmit\nyes\n") == 0);
  const std::string out = cli.out.str();
  CHECK_THAT(out, Contains("1. answered 33,554,432 — ") && Contains("Your answer: 33,554,432\n"));
  CHECK_THAT(out, !Contains("33554432"));  // never the machine's digits
}

TEST_CASE("exam: the results end with the score and the verdict again", "[cli][study][exam]") {
  Study study;
  Cli cli;
  REQUIRE(study.run(cli, {"exam", "--count", "3", "--pass", "60"}, "") == 0);
  const std::string out = cli.out.str();
  // After the long review of every missed question, its last lines say how the exam went.
  const std::string ending = out.substr(out.rfind("Questions to review"));
  CHECK_THAT(ending, Contains("\n\n  Score: 0 of 3 right (0%), 3 unanswered · 0 s\n"
                              "  Result: 0 of 3 = 0% → FAIL (pass mark 60%)\n"
                              "  seed 0 — --seed 0 repeats this\n"));
  CHECK_THAT(out.substr(0, out.find("Questions to review")),
             Contains("Result: 0 of 3 = 0% → FAIL (pass mark 60%)"));
}

TEST_CASE("exam: the results list the topics as a table, right of asked, the numbers lined up",
          "[cli][study][exam]") {
  Study study;
  Cli cli;
  REQUIRE(study.run(cli, {"exam", "--count", "6", "--seed", "4", "--width", "100"}, "") == 0);
  const std::string out = cli.out.str();
  const std::size_t table = out.find("\n  By topic (right/asked)\n");
  REQUIRE(table != std::string::npos);
  // One row per topic: "    Name<padding>  0/N", every count ending in the same column.
  std::istringstream rows(out.substr(table + 1));
  std::string line;
  std::getline(rows, line);
  std::set<std::size_t> ends;
  int count = 0;
  while (std::getline(rows, line) && line.starts_with("    ")) {
    CHECK(std::regex_search(line, std::regex(R"(^    \S.*\S  +0/\d+$)")));
    ends.insert(static_cast<std::size_t>(proofdeck::text::display_width(line)));
    ++count;
  }
  CHECK(count >= 2);
  CHECK(ends.size() == 1);
  CHECK_THAT(out, !Contains("By topic:"));
}

// --- exam --review ------------------------------------------------------------------------------

namespace {

// What an exam printed from its title on: the results `exam --review` must rebuild.
std::string results_of(const std::string& out) {
  const std::size_t at = out.find("\nExam submitted\n");
  REQUIRE(at != std::string::npos);
  // What an exam prints after its results: how to see them again.
  const std::size_t hint = out.find("  These results again, any time:\n", at);
  return out.substr(at, hint == std::string::npos ? std::string::npos : hint - at);
}

}  // namespace

TEST_CASE("exam --review rebuilds a past exam's results exactly as they were shown",
          "[cli][study][exam][review]") {
  Study study;
  Cli first;
  // A wrong number typed as a power, a true/false answered, the rest left unanswered.
  REQUIRE(study.run(first, {"exam", "--count", "3", "--seed", "4"},
                    "goto 1\n2^25\nnext\nt\nsubmit\nyes\n") == 0);
  Cli second;
  REQUIRE(study.run(second, {"exam", "--question", "order-without-pe", "--seed", "9"}, "f\n") == 0);

  Cli latest;
  REQUIRE(study.run(latest, {"exam", "--review"}) == 0);
  CHECK_THAT(latest.out.str(),
             StartsWith("proofdeck exam --review 2 · exam 2 of 2, taken 2026-03-02T09:00:00Z"));
  CHECK(results_of(latest.out.str()) == results_of(second.out.str()));
  CHECK_THAT(second.out.str(),
             EndsWith("  These results again, any time:\n    proofdeck exam --review 2\n"));

  Cli earlier;
  REQUIRE(study.run(earlier, {"exam", "--review", "1"}) == 0);
  CHECK(results_of(earlier.out.str()) == results_of(first.out.str()));
  CHECK_THAT(results_of(earlier.out.str()),
             Contains("Your answer: 33,554,432") && Contains("seed 4 — --seed 4 repeats this"));
  // Reviewing saves nothing: still two exams, and their answers only.
  CHECK(study.count("SELECT count(*) FROM sessions") == 2);
  CHECK(study.count("SELECT count(*) FROM reviews") == 3);
}

TEST_CASE("exam --review N names the exams there are when N is none of them",
          "[cli][study][exam][review]") {
  Study study;
  Cli none;
  CHECK(study.run(none, {"exam", "--review"}) == 2);
  CHECK_THAT(none.err.str(), Contains("--review: no exams yet"));
  for (int i = 0; i < 2; ++i) {
    Cli exam;
    REQUIRE(study.run(exam, {"exam", "--question", "order-without-pe"}, "f\n") == 0);
  }
  Cli beyond;
  CHECK(study.run(beyond, {"exam", "--review", "3"}) == 2);
  CHECK_THAT(beyond.err.str(),
             Contains("--review 3: there is no exam 3; proofdeck stats lists 2 exams, numbered 1 "
                      "(the oldest) to 2 (the latest)"));
  Cli zero;
  CHECK(study.run(zero, {"exam", "--review", "0"}) == 2);
  CHECK_THAT(zero.err.str(), Contains("--review 0: expected a whole number from 1 to 1000000"));
  Cli mixed;
  CHECK(study.run(mixed, {"exam", "--review", "1", "--count", "5"}) == 2);
  CHECK_THAT(mixed.err.str(), Contains("--count cannot be given with --review"));
  // stats numbers them the same way.
  Cli stats;
  REQUIRE(study.run(stats, {"stats", "--width", "100"}) == 0);
  CHECK_THAT(stats.out.str(), Contains("\n  #1  2026-03-02") && Contains("\n  #2  2026-03-02"));
}

TEST_CASE("exam --review says an exam saved before exams kept their answers cannot be rebuilt",
          "[cli][study][exam][review]") {
  Study study;
  {
    // What proofdeck wrote before: the settings, the score, per-topic results and minutes, and
    // (earlier still) no result at all.
    auto store = proofdeck::study::ProgressStore::open(study.dir.path());
    const auto at = *proofdeck::study::parse_time("2026-03-01T09:00:00Z");
    const std::string settings =
        R"({"count":1,"minutes":30,"pass":75,"seed":7,"topics":[],"traps":[],"banks":[],)"
        R"("types":[],"questions":[]})";
    const std::int64_t old = store.begin_session("exam", at, settings);
    store.end_session(old, at + std::chrono::minutes(3), 1, 1, true, false,
                      R"({"minutes":3,"allowed_minutes":30,"pass":75,"topics":{}})");
    const std::int64_t older = store.begin_session("exam", at, settings);
    store.end_session(older, at + std::chrono::minutes(4), 0, 1, false, false);
  }
  for (const std::string n : {"1", "2"}) {
    Cli cli;
    CHECK(study.run(cli, {"exam", "--review", n}) == 3);
    CHECK_THAT(cli.err.str(), Contains("exam " + n +
                                       " cannot be rebuilt: it was taken on 2026-03-01T09:00:00Z "
                                       "with an older proofdeck, which kept its score and "
                                       "per-topic results but not its questions and answers as "
                                       "typed"));
    CHECK(cli.out.str().empty());
  }
}

TEST_CASE("exam --review refuses to rebuild an exam from banks that draw it differently",
          "[cli][study][exam][review]") {
  Study study;
  Cli exam;
  REQUIRE(study.run(exam, {"exam", "--count", "2"}, "") == 0);
  // The same data folder, the bank revised since: its questions renamed.
  json revised = bank_test::worked_example();
  for (json& q : revised["questions"])
    q["id"] = q["id"].get<std::string>() + "-v2";
  const std::string other = study.dir.write("revised.json", revised.dump());
  Cli cli;
  cli.in.str("");
  CHECK(cli.run({"exam", "--review", "--no-builtin", "--bank", other, "--data-dir",
                 study.dir.path().string(), "--color", "never"}) == 3);
  CHECK_THAT(cli.err.str(), Contains("exam 1 cannot be rebuilt: ") &&
                                Contains("load the banks it was taken with (--bank)"));
}

TEST_CASE("exam: --no-demo leaves the proof figures out of the results", "[cli][study][exam]") {
  Study study;
  Cli cli;
  REQUIRE(study.run(cli, {"exam", "--question", "order-without-pe", "--count", "1", "--no-demo"},
                    "t\n") == 0);
  CHECK_THAT(cli.out.str(), Contains("✗ Wrong.") && !Contains("Proof — "));
}

TEST_CASE("exam: questions are drawn across topics in proportion", "[cli][study]") {
  Study study;
  const std::string report = (study.dir.path() / "exam.json").string();
  Cli cli;
  REQUIRE(study.run(cli, {"exam", "--count", "3", "--report", report}, "") == 0);
  std::map<std::string, int> topics;
  const json result = study.report("exam.json");
  for (const auto& q : result["questions"])
    ++topics[q["topic"].get<std::string>()];
  CHECK(topics == std::map<std::string, int>{{"multi-head", 2}, {"positional", 1}});
}

TEST_CASE("exam: a question's header gives no topic, a quiz's does", "[cli][study]") {
  // A real exam names no topic beside a question: it would cue the answer.
  Study study;
  Cli exam;
  REQUIRE(study.run(exam, {"exam", "--question", "order-without-pe"}, "") == 0);
  CHECK_THAT(exam.out.str(), Contains("\n[1/1] truefalse · 30:00 left\n") &&
                                 !Contains("[1/1] Positional encoding"));
  Cli quiz;
  REQUIRE(study.run(quiz, {"quiz", "--question", "order-without-pe"}, ":q\n") == 0);
  CHECK_THAT(quiz.out.str(), Contains("[1/1] Positional encoding · truefalse"));
}

// --- stats and list -----------------------------------------------------------------------------

TEST_CASE("an exam taken through the CLI is kept: stats shows its score, verdict and topics",
          "[cli][study][exam]") {
  Study study;
  Cli exam;
  REQUIRE(study.run(exam,
                    {"exam", "--question", "order-without-pe", "--count", "1", "--pass", "60"},
                    "f\nsubmit\nyes\n") == 0);
  Cli stats;
  REQUIRE(study.run(stats, {"stats", "--format", "json"}) == 0);
  const json s = json::parse(stats.out.str());
  REQUIRE(s["exams"].size() == 1);
  const json& kept = s["exams"][0];
  CHECK(kept["at"] == "2026-03-02T09:00:00Z");
  CHECK(kept["score"] == 1);
  CHECK(kept["total"] == 1);
  CHECK(kept["passed"] == true);
  CHECK(kept["minutes"].get<double>() >= 0.0);
  CHECK(kept["topics"] == json{{"positional", {{"correct", 1}, {"total", 1}}}});
  CHECK(s.contains("readiness"));
  Cli text_stats;
  REQUIRE(study.run(text_stats, {"stats"}) == 0);
  CHECK_THAT(text_stats.out.str(),
             Contains("PASS at 60%") && Contains("Readiness: answer questions on "));
}

TEST_CASE("drill: on a card in review, Hard, Good and Easy schedule increasing intervals",
          "[cli][study]") {
  // The same history three times: learned on day 1 (Good, Good: review in 2 days), then reviewed
  // when due and rated h, g or e.
  std::vector<std::string> intervals;
  for (const std::string rating : {"h", "g", "e"}) {
    Study study;
    Cli learn;
    REQUIRE(study.run(learn, {"drill", "--question", "order-without-pe", "--auto-rate"},
                      "f\nf\n") == 0);
    study.now = "2026-03-04T09:00:00Z";
    Cli review;
    REQUIRE(study.run(review, {"drill", "--question", "order-without-pe"}, "f\n" + rating + "\n") ==
            0);
    std::smatch match;
    const std::string out = review.out.str();
    REQUIRE(std::regex_search(out, match, std::regex("next review in (\\d+) days")));
    intervals.push_back(match[1]);
  }
  INFO(intervals[0] << " / " << intervals[1] << " / " << intervals[2]);
  CHECK(std::stoi(intervals[0]) < std::stoi(intervals[1]));
  CHECK(std::stoi(intervals[1]) < std::stoi(intervals[2]));
}

TEST_CASE("stats: reviews, retention, states, forecast and the traps fallen into", "[cli][study]") {
  Study study;
  const std::string right = study.letter_of({"quiz", "--question", "mha-purpose"}, kPurpose);
  Cli quiz;
  REQUIRE(study.run(quiz, {"quiz", "--question", "mha-purpose", "--no-demo"},
                    right == "a" ? "b\n" : "a\n") == 0);
  Cli drill;
  REQUIRE(study.run(drill, {"drill", "--question", "order-without-pe", "--auto-rate"}, "f\nf\n") ==
          0);
  Cli stats;
  REQUIRE(study.run(stats, {"stats", "--format", "json"}) == 0);
  const json s = json::parse(stats.out.str());
  CHECK(s["reviews"]["total"] == 3);
  CHECK(s["reviews"]["by_mode"]["drill"] == 2);
  CHECK(s["cards"]["review"] == 1);
  CHECK(s["cards"]["new"] == 2);
  CHECK(s["forecast"]["next_7"] == 1);
  CHECK(s["traps"][0]["id"] == "mha-cuts-params");
  CHECK(s["traps"][0]["fell"] == 1);
  Cli text;
  REQUIRE(study.run(text, {"stats"}) == 0);
  CHECK_THAT(text.out.str(),
             Contains("Reviews: 3 today · 3 in total (quiz 1 · exam 0 · drill 2)") &&
                 Contains("Multi-head attention cuts parameters") &&
                 Contains("Due next 7 days: 1"));
}

TEST_CASE("list shows banks, topics, traps and questions, as text or JSON", "[cli][study]") {
  Study study;
  Cli banks;
  REQUIRE(study.run(banks, {"list"}) == 0);
  CHECK_THAT(banks.out.str(), StartsWith("example") && Contains("3 questions"));
  Cli traps;
  REQUIRE(study.run(traps, {"list", "traps", "--format", "json"}) == 0);
  const json t = json::parse(traps.out.str());
  CHECK(t.size() == 2);
  CHECK(t[0]["id"] == "mha-cuts-params");
  Cli questions;
  REQUIRE(study.run(questions, {"list", "questions", "--type", "numeric"}) == 0);
  CHECK_THAT(questions.out.str(), StartsWith("per-head-qkv") && EndsWith("\n1 question\n"));
}

TEST_CASE("list counts in the singular when there is one", "[cli][study]") {
  // The example bank: the trap "Multi-head attention cuts parameters" is tested by one question.
  Study study;
  Cli traps;
  REQUIRE(study.run(traps, {"list", "traps"}) == 0);
  CHECK_THAT(traps.out.str(), Contains(" 1 question · ") && EndsWith("\n2 traps\n"));
  CHECK(traps.out.str().find(" 1 questions") == std::string::npos);
  Cli banks;
  REQUIRE(study.run(banks, {"list", "banks"}) == 0);
  CHECK_THAT(banks.out.str(), Contains(" 3 questions · ") && EndsWith("\n1 bank\n"));
}

TEST_CASE("the global bank option selects a loaded bank by id when no such file exists",
          "[cli][study]") {
  Study study;
  Cli selected;
  REQUIRE(study.run(selected, {"list", "questions", "--bank", "example"}) == 0);
  CHECK_THAT(selected.out.str(), Contains("3 questions"));
  Cli typo;
  CHECK(study.run(typo, {"quiz", "--bank", "exampel"}) == 2);
  CHECK(typo.err.str() ==
        "error: --bank exampel: no such file or folder, and no loaded bank has that id; did you "
        "mean 'example'? (the banks: example)\n");
}

}  // namespace test_study_cli
