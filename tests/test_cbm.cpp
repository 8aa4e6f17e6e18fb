// Certainty-based marking (study/cbm.hpp) against a table computed by hand from Moodle's formulas
// (tests/fixtures/cbm/hand_table.json: every level right and wrong, and four whole sessions, one
// with questions unanswered), and the sentence the results say it in.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "study/cbm.hpp"

namespace test_cbm {

using namespace proofdeck::study;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

json hand_table() {
  std::ifstream in(std::string(PROOFDECK_FIXTURE_DIR) + "/cbm/hand_table.json");
  REQUIRE(in);
  return json::parse(in);
}

std::vector<CbmAnswer> answers_of(const json& session) {
  std::vector<CbmAnswer> answers;
  for (const json& given : session["given"]) {
    for (int k = 0; k < given[2].get<int>(); ++k)
      answers.push_back({given[0].get<int>(), given[1].get<bool>()});
  }
  for (int k = 0; k < session["unanswered"].get<int>(); ++k)
    answers.push_back({std::nullopt, false});
  return answers;
}

void check_figures(const CbmFigures& f, const json& expected) {
  CHECK(f.total == Approx(expected["total"].get<double>()));
  CHECK(f.average == Approx(expected["average"].get<double>()));
  CHECK(f.accuracy == Approx(expected["accuracy"].get<double>()));
  CHECK(f.bonus == Approx(expected["bonus"].get<double>()).margin(1e-12));
  CHECK(f.accuracy_plus_bonus == Approx(expected["accuracy_plus_bonus"].get<double>()));
}

}  // namespace

TEST_CASE("each level's mark right and wrong is Moodle's: +1/+2/+3, 0/−2/−6", "[cbm]") {
  const json table = hand_table();
  for (const json& row : table["marks"]) {
    INFO(row.dump());
    CHECK(cbm_mark(row["level"], row["correct"]) == row["mark"].get<int>());
  }
  CHECK_THROWS_WITH(cbm_mark(4, true), Contains("1, 2 or 3, not 4"));
  CHECK_THROWS_WITH(cbm_mark(0, false), Contains("not 0"));
}

TEST_CASE("claiming 3 pays only above 80% right and 2 above two thirds", "[cbm]") {
  // Where two levels expect the same mark, the window changes hands.
  CHECK(cbm_expected_mark(2, 2.0 / 3.0) == Approx(cbm_expected_mark(1, 2.0 / 3.0)));
  CHECK(cbm_expected_mark(3, 0.8) == Approx(cbm_expected_mark(2, 0.8)));
  CHECK(cbm_expected_mark(3, 0.79) < cbm_expected_mark(2, 0.79));
  CHECK(cbm_expected_mark(3, 0.81) > cbm_expected_mark(2, 0.81));
  CHECK(cbm_window(1).high == Approx(2.0 / 3.0));
  CHECK(cbm_window(2).low == Approx(2.0 / 3.0));
  CHECK(cbm_window(3).low == Approx(0.8));
}

TEST_CASE("four whole sessions: total, average, accuracy, bonus and judgements as by hand",
          "[cbm]") {
  const json table = hand_table();
  REQUIRE(table["sessions"].size() == 4);
  for (const json& session : table["sessions"]) {
    INFO(session["name"].get<std::string>());
    const CbmSummary summary = summarize_cbm(answers_of(session));
    check_figures(summary.all, session);
    CHECK(summary.unanswered == session["unanswered"].get<int>());
    if (session.contains("for_answered")) {
      REQUIRE(summary.answered);
      CHECK(summary.answered->questions == session["for_answered"]["questions"].get<int>());
      check_figures(*summary.answered, session["for_answered"]);
    } else {
      CHECK_FALSE(summary.answered);
    }
    std::vector<int> judged;
    for (const json& level : session["levels"]) {
      const CbmLevel& l = summary.levels[level["level"].get<std::size_t>() - 1];
      INFO("level " << l.level);
      CHECK(l.answers == level["answers"].get<int>());
      CHECK(l.right == level["right"].get<int>());
      REQUIRE(l.judgement);
      CHECK(*l.judgement == level["judgement"].get<std::string>());
      judged.push_back(l.level);
    }
    for (const CbmLevel& l : summary.levels) {
      if (std::find(judged.begin(), judged.end(), l.level) != judged.end()) continue;
      CHECK(l.answers == 0);
      CHECK_FALSE(l.judgement);
    }
  }
}

TEST_CASE("the results say where confidence and knowledge part ways, in one sentence", "[cbm]") {
  const json table = hand_table();
  const json& sessions = table["sessions"];
  // Sure of everything and right 60% of the time.
  CHECK(cbm_sentence(summarize_cbm(answers_of(sessions[1]))) ==
        "Over-confident: when you said 3 (sure) you were right 12 of 20 times (60%), but 3 pays "
        "only when you are right over 80% of the time; say 2 when you are that unsure.");
  // Sure only of what is known.
  CHECK(cbm_sentence(summarize_cbm(answers_of(sessions[2]))) ==
        "Your confidence was well judged: at each level you used, you were right about as often "
        "as its marks reward.");
  // The exam: right every time at 1, the level furthest from its window.
  CHECK(cbm_sentence(summarize_cbm(answers_of(sessions[3]))) ==
        "Slightly under-confident: when you said 1 (guessing) you were right 2 of 2 times "
        "(100%); you know more than you think — say 2 when you are that sure.");
  CHECK(cbm_sentence(summarize_cbm({{std::nullopt, false}})) ==
        "No answer was given, so there is no confidence to judge.");
}

TEST_CASE("a judgement needs answers", "[cbm]") {
  CHECK_THROWS_WITH(cbm_judgement(2, 0, 0), Contains("needs answers"));
  CHECK(summarize_cbm({}).all.questions == 0);
  CHECK(summarize_cbm({}).all.average == 0.0);
}

}  // namespace test_cbm
