// Confidence with each answer (--confidence): the prompt and what it reads, the choice kept for
// later sessions, the level saved with the answer and in the report, drill's ratings from it, a
// confident miss brought back in the session, the exam's marks with unanswered questions, and two
// scripted learners — one sure of everything, one sure only of what it knows.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include "cli_test_support.hpp"
#include "learner_cli_support.hpp"
#include "study/calibration_view.hpp"

namespace test_confidence {

using nlohmann::json;
using namespace cli_test;
using Catch::Matchers::Contains;

namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Forty statements, one topic: s01–s24 true, s25–s40 false; each its own objective.
std::string statements_bank() {
  json questions = json::array();
  for (int k = 1; k <= 40; ++k) {
    const std::string id = fmt::format("s{:02}", k);
    questions.push_back({{"id", id},
                         {"type", "truefalse"},
                         {"topic", "facts"},
                         {"prompt", fmt::format("Statement {} holds.", k)},
                         {"answer", k <= 24},
                         {"explanation", "As stated."},
                         {"source", {{"section", "s"}}}});
  }
  return json{
      {"format", 1},
      {"bank", {{"id", "statements"}, {"title", "Statements"}, {"lesson", "000_ca7851e78539aec3"}}},
      {"topics", {{{"id", "facts"}, {"name", "Facts"}}}},
      {"traps", json::array()},
      {"questions", questions}}
      .dump();
}

// A learner on the forty statements, each run at a fixed clock and seed.
struct Statements {
  TempDir dir;
  std::string bank = dir.write("statements.json", statements_bank());

  int run(Cli& cli, std::vector<std::string> args, const std::string& input = "") {
    cli.in.str(input);
    args.insert(args.end(), {"--no-builtin", "--bank", bank, "--data-dir",
                             (dir.path() / "data").string(), "--now", "2026-03-02T09:00:00Z",
                             "--color", "never", "--seed", "7", "--width", "100"});
    return cli.run(args);
  }
  // The order the seed's quiz of all forty asks them in, read from a report of a quiz skipped
  // through (in a folder of its own, so that the learner's starts empty).
  std::vector<std::string> order() {
    Statements probe;
    Cli cli;
    const std::string report = (probe.dir.path() / "order.json").string();
    std::string skips;
    for (int k = 0; k < 40; ++k)
      skips += ":s\n";
    REQUIRE(probe.run(cli, {"quiz", "--count", "40", "--report", report, "--no-confidence"},
                      skips) == 0);
    std::vector<std::string> ids;
    const json report_json = json::parse(read_file(probe.dir.path() / "order.json"));
    for (const json& q : report_json["form"])
      ids.push_back(q.get<std::string>());
    REQUIRE(ids.size() == 40);
    return ids;
  }
};

}  // namespace

TEST_CASE(
    "quiz --confidence asks how sure before the feedback, saves the level, and keeps the "
    "choice for later sessions",
    "[cli][study][confidence]") {
  LearnerCli learner;
  Cli quiz;
  REQUIRE(learner.run(quiz, {"quiz", "--question", "order-without-pe", "--confidence", "--no-demo"},
                      "f\n3\n") == 0);
  const std::string out = quiz.out.str();
  CHECK_THAT(out, Contains("How sure? 1 guessing · 2 fairly sure · 3 sure (? explains the marks)"));
  // Asked before the verdict.
  CHECK(out.find("How sure?") < out.find("Right."));
  CHECK(learner.count("SELECT confidence FROM reviews") == 3);
  CHECK_THAT(out, Contains("Confidence: average mark 3.00") && Contains("At 3 sure: 1 of 1 right"));

  // Kept: the next quiz asks without the flag.
  Cli again;
  REQUIRE(learner.run(again, {"quiz", "--question", "order-without-pe", "--no-demo"}, "t\n2\n") ==
          0);
  CHECK_THAT(again.out.str(), Contains("How sure?"));
  CHECK(learner.count("SELECT count(*) FROM reviews WHERE confidence = 2 AND correct = 0") == 1);

  // --no-confidence stops asking, for later sessions too.
  Cli off;
  REQUIRE(learner.run(off,
                      {"quiz", "--question", "order-without-pe", "--no-demo", "--no-confidence"},
                      "f\n") == 0);
  CHECK_THAT(off.out.str(), !Contains("How sure?") && !Contains("Confidence:"));
  Cli later;
  REQUIRE(learner.run(later, {"quiz", "--question", "order-without-pe", "--no-demo"}, "f\n") == 0);
  CHECK_THAT(later.out.str(), !Contains("How sure?"));
  CHECK(learner.count("SELECT count(*) FROM reviews WHERE confidence IS NULL") == 2);
}

TEST_CASE("the prompt takes 1, 2 or 3 only, ? explains the marks, :q keeps the answer and stops",
          "[cli][study][confidence]") {
  SECTION("other input is asked again, with the way out") {
    LearnerCli learner;
    Cli quiz;
    REQUIRE(learner.run(quiz,
                        {"quiz", "--question", "order-without-pe", "--confidence", "--no-demo"},
                        "f\nsure\n4\n?\n2\n") == 0);
    const std::string out = quiz.out.str();
    CHECK_THAT(out, Contains("type 1, 2 or 3 for how sure you are"));
    CHECK_THAT(out, Contains("at 3, +3 or -6") && Contains("80%") && Contains("two thirds"));
    CHECK(learner.count("SELECT confidence FROM reviews") == 2);
  }
  SECTION(":q records the answer at 1 and stops; 3:q at the level typed") {
    for (const auto& [typed, level] : std::map<std::string, int>{{":q", 1}, {"3:q", 3}}) {
      LearnerCli learner;
      Cli quiz;
      REQUIRE(learner.run(quiz, {"quiz", "--confidence", "--no-demo", "--count", "3"},
                          "f\n" + typed + "\nf\n1\n") == 0);
      INFO(typed);
      CHECK(learner.count("SELECT count(*) FROM reviews") == 1);
      CHECK(learner.count("SELECT confidence FROM reviews") == level);
      CHECK_THAT(quiz.out.str(), Contains("Quiz finished"));
    }
  }
  SECTION("the end of input takes 1, Moodle's default, and keeps the answer") {
    LearnerCli learner;
    Cli quiz;
    REQUIRE(learner.run(quiz, {"quiz", "--confidence", "--no-demo", "--count", "3"}, "f\n") == 0);
    CHECK(learner.count("SELECT count(*) FROM reviews") == 1);
    CHECK(learner.count("SELECT confidence FROM reviews") == 1);
  }
  SECTION("a skipped question is not asked; an answer after the demo counts wrong at 1, unasked") {
    LearnerCli learner;
    Cli quiz;
    REQUIRE(learner.run(quiz,
                        {"quiz", "--question", "order-without-pe", "--question", "mha-purpose",
                         "--confidence", "--no-demo"},
                        ":s\n:d\nf\n") == 0);
    CHECK(quiz.out.str().find("How sure?") == std::string::npos);
    CHECK(learner.count("SELECT count(*) FROM reviews WHERE confidence = 1 AND correct = 0") == 1);
  }
}

TEST_CASE("both --confidence and --no-confidence at once are refused, and nothing is saved",
          "[cli][study][confidence]") {
  LearnerCli learner;
  Cli quiz;
  CHECK(learner.run(quiz, {"quiz", "--confidence", "--no-confidence"}, "f\n") == 2);
  CHECK_THAT(quiz.err.str(), Contains("--confidence and --no-confidence: give one"));
  CHECK(learner.count("SELECT count(*) FROM reviews") == 0);
  CHECK(learner.count("SELECT count(*) FROM meta WHERE key = 'confidence'") == 0);
}

TEST_CASE("the report carries each answer's confidence and the certainty-based marks",
          "[cli][study][confidence]") {
  LearnerCli learner;
  Cli quiz;
  const std::string report = (learner.dir.path() / "quiz.json").string();
  REQUIRE(learner.run(quiz,
                      {"quiz", "--question", "order-without-pe", "--confidence", "--no-demo",
                       "--report", report},
                      "t\n3\n") == 0);
  const json r = json::parse(read_file(learner.dir.path() / "quiz.json"));
  CHECK(r["questions"][0]["confidence"] == 3);
  const json& cbm = r["cbm"];
  CHECK(cbm["total"] == -6.0);
  CHECK(cbm["average"] == -6.0);
  CHECK(cbm["accuracy"] == 0.0);
  CHECK(cbm["bonus"].get<double>() == Approx(-0.6));  // 0.1 × (−6 − 0: the best at 0% is 1's)
  CHECK(cbm["unanswered"] == 0);
  CHECK(cbm["levels"][2] == json{{"level", 3},
                                 {"answers", 1},
                                 {"right", 0},
                                 {"accuracy", 0.0},
                                 {"judgement", "over-confident"}});
  CHECK(cbm["levels"][0]["judgement"].is_null());
  CHECK(cbm["for_answered"].is_null());
}

TEST_CASE("drill with confidence rates by it: right at 1 Hard, at 2 or 3 Good, wrong Again",
          "[cli][study][confidence]") {
  LearnerCli learner;
  Cli drill;
  // Three new cards: order-without-pe (false) right at 1, then the others as they come.
  REQUIRE(learner.run(drill,
                      {"drill", "--question", "order-without-pe", "--confidence", "--no-demo"},
                      "f\n1\n") == 0);
  CHECK_THAT(drill.out.str(), !Contains("How was it?"));
  CHECK(learner.count("SELECT rating FROM reviews") == 2);  // Hard
  learner.now = "2026-03-09T09:00:00Z";
  Cli next;
  REQUIRE(learner.run(next,
                      {"drill", "--question", "order-without-pe", "--confidence", "--no-demo"},
                      "f\n2\n") == 0);
  CHECK(learner.count("SELECT rating FROM reviews ORDER BY id DESC LIMIT 1") == 3);  // Good
}

TEST_CASE("a miss at 3 comes back in the same drill, after the other cards, a minute's step",
          "[cli][study][confidence]") {
  LearnerCli learner;
  Cli drill;
  // Seed 0 deals mha-purpose (a wrong, b right), order-without-pe, then per-head-qkv: the first
  // missed at 3, the others answered at 1, then the first again (its options shuffled anew).
  const std::string input = "a\n3\nf\n1\n7\n1\nb\n3\n";
  REQUIRE(learner.run(drill,
                      {"drill", "--confidence", "--no-demo", "--question", "order-without-pe",
                       "--question", "mha-purpose", "--question", "per-head-qkv"},
                      input) == 0);
  SQLite::Database db((learner.dir.path() / "progress.db").string());
  SQLite::Statement rows(db, "SELECT card, rating, confidence FROM reviews ORDER BY id");
  std::vector<std::string> cards;
  std::vector<int> ratings;
  while (rows.executeStep()) {
    cards.push_back(rows.getColumn(0).getString());
    ratings.push_back(rows.getColumn(1).getInt());
  }
  CHECK(cards ==
        std::vector<std::string>{"mha-purpose", "order-without-pe", "per-head-qkv", "mha-purpose"});
  CHECK(ratings.front() == 1);  // Again
  CHECK_THAT(drill.out.str(), Contains("Rated again · next review in 1 minute"));
}

TEST_CASE("an exam asks after each answer and again when it changes, unanswered ones score 0",
          "[cli][study][confidence][exam]") {
  LearnerCli learner;
  Cli exam;
  const std::string report = (learner.dir.path() / "exam.json").string();
  // Question 1 answered at 3, question 2 answered, then changed (asked again: 2), question 3
  // left unanswered.
  REQUIRE(learner.run(exam,
                      {"exam", "--count", "3", "--minutes", "30", "--confidence", "--no-demo",
                       "--report", report},
                      "f\n3\nback\nt\n1\nf\n2\nnext\nsubmit\nyes\n") == 0);
  const json r = json::parse(read_file(learner.dir.path() / "exam.json"));
  int asked = 0;
  for (const json& q : r["questions"])
    asked += q.contains("confidence") ? 1 : 0;
  CHECK(r["cbm"]["unanswered"].get<int>() == 3 - asked);
  REQUIRE(r["cbm"]["for_answered"].is_object());
  CHECK_THAT(exam.out.str(), Contains("Confidence: average mark") && Contains("unanswered, "
                                                                              "scoring 0"));
  // The review rebuilds the same marks.
  Cli review;
  REQUIRE(learner.run(review, {"exam", "--review"}) == 0);
  const auto marks = [](const std::string& text) {
    const auto from = text.find("Confidence:");
    return text.substr(from, text.find('\n', text.find("\n  ", from) + 1) - from);
  };
  CHECK(marks(review.out.str()) == marks(exam.out.str()));
}

TEST_CASE(
    "scripted learners: sure of everything and right 60% reads over-confident at 3, sure "
    "only of what it knows reads well judged",
    "[cli][study][confidence]") {
  Statements statements;
  const std::vector<std::string> order = statements.order();
  SECTION("over-confident") {
    std::string input;
    for (std::size_t k = 0; k < order.size(); ++k)
      input += "t\n3\n";  // 24 of the 40 are true
    Cli quiz;
    REQUIRE(statements.run(quiz, {"quiz", "--count", "40", "--confidence", "--no-demo"}, input) ==
            0);
    CHECK_THAT(quiz.out.str(),
               Contains("At 3 sure: 24 of 40 right (60%) · over-confident") &&
                   Contains("Over-confident: when you said 3 (sure) you were right 24 of 40"));
    Cli stats;
    REQUIRE(statements.run(stats, {"stats", "--format", "json"}) == 0);
    const json calibration = json::parse(stats.out.str())["calibration"];
    CHECK(calibration[2]["answers"] == 40);
    CHECK(calibration[2]["judgement"] == "over-confident");
    CHECK(calibration[2]["interval"][0].get<double>() == Approx(0.4460).epsilon(1e-3));
    Cli text;
    REQUIRE(statements.run(text, {"stats"}) == 0);
    CHECK_THAT(text.out.str(),
               Contains("60% right of 40 (45–74%) · pays from 80% · over-confident"));
  }
  SECTION("calibrated") {
    // Knows s01–s20 (all true: t at 3); guesses t at 1 on the rest (4 of 20 true).
    std::string input;
    for (const std::string& id : order)
      input += std::stoi(id.substr(1)) <= 20 ? "t\n3\n" : "t\n1\n";
    Cli quiz;
    REQUIRE(statements.run(quiz, {"quiz", "--count", "40", "--confidence", "--no-demo"}, input) ==
            0);
    const std::string out = quiz.out.str();
    CHECK_THAT(out, Contains("At 1 guessing: 4 of 20 right (20%) · well judged") &&
                        Contains("At 3 sure: 20 of 20 right (100%) · well judged") &&
                        Contains("Your confidence was well judged"));
    Cli stats;
    REQUIRE(statements.run(stats, {"stats", "--format", "json"}) == 0);
    const json calibration = json::parse(stats.out.str())["calibration"];
    REQUIRE(calibration.size() == 3);
    for (const json& level : calibration) {
      INFO(level.dump());
      if (level["answers"].get<int>() >= 20) CHECK(level["judgement"] == "well judged");
    }
  }
}

TEST_CASE("stats lists the traps fallen into at 3 with the demo that refutes each",
          "[cli][study][confidence]") {
  LearnerCli learner;
  // order-without-pe is false: t falls into attention-knows-order, at 3 twice and at 1 once.
  for (const char* input : {"t\n3\n", "t\n3\n", "t\n1\n"}) {
    Cli quiz;
    REQUIRE(learner.run(quiz,
                        {"quiz", "--question", "order-without-pe", "--confidence", "--no-demo"},
                        input) == 0);
  }
  Cli stats;
  REQUIRE(learner.run(stats, {"stats", "--format", "json"}) == 0);
  const json out = json::parse(stats.out.str());
  CHECK(out["confident_misconceptions"] ==
        json::array({{{"trap", "attention-knows-order"},
                      {"name", "Attention already handles order"},
                      {"times", 2},
                      {"demo", "order-blindness"},
                      {"command", "proofdeck quiz --trap attention-knows-order"}}}));
  CHECK(out["calibration"][0]["answers"] == 1);
  CHECK(out["calibration"][1]["share_right"].is_null());
  Cli text;
  REQUIRE(learner.run(text, {"stats"}) == 0);
  CHECK_THAT(text.out.str(), Contains("Attention already handles order — 2 times at 3") &&
                                 Contains("proofdeck demo run order-blindness") &&
                                 Contains("proofdeck quiz --trap attention-knows-order"));
}

TEST_CASE("the interval around a share right is Wilson's at 95%", "[confidence]") {
  const auto [low, high] = proofdeck::study::wilson_interval(12, 20);
  CHECK(low == Approx(0.3866).epsilon(1e-3));
  CHECK(high == Approx(0.7812).epsilon(1e-3));
  CHECK(proofdeck::study::wilson_interval(0, 2).first == 0.0);
  CHECK(proofdeck::study::wilson_interval(5, 5).second == Approx(1.0));
}

TEST_CASE("analyze gives each question's answers wrong at 3 and the class's calibration",
          "[cli][analysis][confidence]") {
  TempDir reports;
  // Three learners take one form (seed 0: order-without-pe, mha-purpose, per-head-qkv): each
  // falls for attention-knows-order at 3, answers mha-purpose at 2 and the number at 1.
  for (int k = 0; k < 3; ++k) {
    LearnerCli learner;
    Cli quiz;
    REQUIRE(learner.run(quiz,
                        {"quiz", "--confidence", "--no-demo", "--report",
                         (reports.path() / fmt::format("l{}.json", k)).string()},
                        "t\n3\na\n2\n5\n1\n") == 0);
  }
  Cli analyze;
  analyze.in.str("");
  REQUIRE(analyze.run({"analyze", reports.path().string(), "--no-builtin", "--bank",
                       std::string(PROOFDECK_FIXTURE_DIR) + "/../banks", "--format", "json"}) == 0);
  const json group = json::parse(analyze.out.str())["groups"][0];
  for (const json& q : group["questions"]) {
    INFO(q["id"]);
    if (q["id"] == "order-without-pe") {
      CHECK(q["confident_wrong"] == json{{"with_level", 3},
                                         {"wrong_at_3", 3},
                                         {"share", 1.0},
                                         {"trap", "attention-knows-order"}});
    } else {
      CHECK(q["confident_wrong"]["wrong_at_3"] == 0);
    }
  }
  CHECK(group["calibration"][2]["answers"] == 3);
  CHECK(group["calibration"][2]["interval"][0] == 0.0);
  CHECK(group["calibration"][2]["judgement"] == "over-confident");

  Cli text;
  REQUIRE(text.run({"analyze", reports.path().string(), "--no-builtin", "--bank",
                    std::string(PROOFDECK_FIXTURE_DIR) + "/../banks", "--color", "never", "--width",
                    "100"}) == 0);
  CHECK_THAT(text.out.str(),
             Contains("Confidence, the class (9 answers given with a level)") &&
                 Contains("order-without-pe — 3 of 3 answers given with a level (100%), most") &&
                 Contains("Attention already handles order"));

  // The CSV's confidence columns, and the HTML's line per question and the class's table.
  Cli csv;
  REQUIRE(csv.run({"analyze", reports.path().string(), "--no-builtin", "--bank",
                   std::string(PROOFDECK_FIXTURE_DIR) + "/../banks", "--format", "csv"}) == 0);
  CHECK_THAT(csv.out.str(),
             Contains(",flags,with_level,wrong_at_3,wrong_at_3_share,wrong_at_3_trap\r\n") &&
                 Contains(",3,3,1,attention-knows-order\r\n"));
  Cli html;
  REQUIRE(html.run({"analyze", reports.path().string(), "--no-builtin", "--bank",
                    std::string(PROOFDECK_FIXTURE_DIR) + "/../banks", "--format", "html"}) == 0);
  CHECK_THAT(html.out.str(),
             Contains("Wrong at 3 (sure): 3 of 3 answers given with a level (100%), most into "
                      "Attention already handles order") &&
                 Contains("<h2>Confidence, the class</h2>") &&
                 Contains("<tr><th>3 sure</th><td>3</td><td>0</td><td>0%</td>"));
}

TEST_CASE("a report whose confidence is not 1, 2 or 3 is skipped, with the field named",
          "[cli][analysis][confidence]") {
  TempDir reports;
  LearnerCli learner;
  Cli quiz;
  const std::string path = (reports.path() / "l.json").string();
  REQUIRE(learner.run(quiz, {"quiz", "--confidence", "--no-demo", "--report", path},
                      "t\n3\na\n2\n5\n1\n") == 0);
  json report = json::parse(read_file(path));
  report["questions"][0]["confidence"] = 5;
  std::ofstream(path) << report.dump();
  Cli analyze;
  analyze.run({"analyze", path, "--no-builtin", "--bank",
               std::string(PROOFDECK_FIXTURE_DIR) + "/../banks"});
  // The message is wrapped where its path (the temporary folder's) ends: read it unwrapped.
  std::string said;
  for (const char c : analyze.out.str() + analyze.err.str()) {
    if (c == '\n' || c == ' ') {
      if (!said.empty() && said.back() != ' ') said += ' ';
    } else {
      said += c;
    }
  }
  CHECK_THAT(said, Contains("\"confidence\" is 5, expected 1, 2 or 3") && Contains("skipped:"));
}

}  // namespace test_confidence
