// drill --cram: practice that leaves the schedule alone. It asks the drilled cards least likely
// recalled now first, saves each answer as mode "cram" with no rating, writes no card, and its
// answers count in stats but never as drill reviews (so never in --optimize).
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "learner_cli_support.hpp"
#include "study/fsrs_fit.hpp"
#include "study/progress.hpp"

namespace test_cram {

using nlohmann::json;
using namespace proofdeck::study;
using namespace cli_test;
using Catch::Matchers::Contains;

namespace {

struct Learner : LearnerCli {
  Learner() { now = "2026-03-12T09:00:00Z"; }

  // Every row of a table, as text, in id order: to compare before and after.
  std::string dump(const std::string& table) const {
    SQLite::Database db((dir.path() / "progress.db").string());
    SQLite::Statement query(db, "SELECT * FROM " + table + " ORDER BY 1");
    std::string rows;
    while (query.executeStep()) {
      for (int i = 0; i < query.getColumnCount(); ++i)
        rows += query.getColumn(i).getString() + "|";
      rows += "\n";
    }
    return rows;
  }
  // A drill review of `card` ten days ago that left it in review with `stability`.
  void drilled(const std::string& card, double stability) {
    ProgressStore store = ProgressStore::open(dir.path());
    AnswerRecord answer;
    answer.card = card;
    answer.at = *parse_time("2026-03-02T09:00:00Z");
    answer.mode = "drill";
    answer.correct = true;
    answer.rating = Rating::good;
    answer.elapsed_days = 0;
    Card schedule;
    schedule.state = CardState::review;
    schedule.stability = stability;
    schedule.difficulty = 5.0;
    schedule.last_review = answer.at;
    schedule.due = answer.at + std::chrono::hours(24 * 30);
    schedule.reps = 1;
    store.record(answer, schedule);
  }
};

}  // namespace

TEST_CASE(
    "drill --cram asks the least remembered drilled card first and leaves the schedule "
    "alone",
    "[cli][study][cram]") {
  Learner learner;
  learner.drilled("order-without-pe", 100.0);  // ten days on, still well remembered
  learner.drilled("mha-purpose", 1.0);         // ten days on, mostly forgotten
  const std::string cards = learner.dump("cards");

  Cli cram;
  REQUIRE(learner.run(cram, {"drill", "--cram", "--limit", "1"}, "a\n") == 0);
  CHECK_THAT(cram.out.str(), Contains("1 card, least remembered first") && Contains("left alone") &&
                                 Contains("No card's schedule changed"));
  // Not due for weeks, yet asked: the card least likely recalled now.
  CHECK(learner.count("SELECT count(*) FROM reviews WHERE mode = 'cram' AND card = "
                      "'mha-purpose' AND rating IS NULL") == 1);
  CHECK(learner.count("SELECT count(*) FROM reviews WHERE mode = 'drill'") == 2);
  CHECK(learner.count("SELECT count(*) FROM sessions WHERE mode = 'cram'") == 1);
  CHECK(learner.dump("cards") == cards);  // byte for byte

  // Without --limit, every drilled card (up to 20), ignoring due dates and burying.
  Cli all;
  REQUIRE(learner.run(all, {"drill", "--cram"}, "a\nf\n") == 0);
  CHECK_THAT(all.out.str(), Contains("2 cards, least remembered first"));
  CHECK(learner.count("SELECT count(*) FROM reviews WHERE mode = 'cram'") == 3);
  CHECK(learner.dump("cards") == cards);

  // Stats counts them; the FSRS history does not.
  Cli stats;
  REQUIRE(learner.run(stats, {"stats", "--format", "json"}) == 0);
  CHECK(json::parse(stats.out.str())["reviews"]["by_mode"]["cram"] == 3);
  ProgressStore store = ProgressStore::open(learner.dir.path());
  CHECK(drill_items(store.reviews()).empty());  // one drill review a card: nothing to fit on
}

TEST_CASE("drill --cram with nothing drilled says what to do first", "[cli][study][cram]") {
  Learner learner;
  Cli cram;
  REQUIRE(learner.run(cram, {"drill", "--cram"}) == 0);
  CHECK_THAT(cram.out.str(), Contains("Nothing to cram") && Contains("proofdeck drill."));
  CHECK(learner.count("SELECT count(*) FROM sessions") == 0);
  Cli both;
  CHECK(learner.run(both, {"drill", "--cram", "--optimize"}) == 2);
}

}  // namespace test_cram
