// drill --simulate: the workload at each desired retention in expected values — the same store
// and clock give the same figures (a golden holds them), a higher retention asks more reviews a
// day and more minutes for each card kept, and the exam plan joins the table when a date is set.
#include <catch2/catch.hpp>
#include <deque>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "golden.hpp"
#include "learner_cli_support.hpp"
#include "study/exam_plan.hpp"
#include "study/fsrs.hpp"
#include "study/workload.hpp"

namespace test_workload {

using nlohmann::json;
using namespace proofdeck::study;
using namespace cli_test;
using Catch::Matchers::Contains;

TEST_CASE(
    "workload: a deck of new cards costs its learning, then fewer reviews at a lower "
    "retention",
    "[workload]") {
  std::deque<proofdeck::bank::Question> qs(100);
  std::vector<PlanCard> cards;
  for (std::size_t i = 0; i < qs.size(); ++i) {
    qs[i].id = "q" + std::to_string(i);
    cards.push_back({&qs[i], std::nullopt});
  }
  const proofdeck::TimePoint now = *proofdeck::parse_time("2026-03-02T09:00:00Z");
  WorkloadOptions options;
  options.days = 200;
  options.new_per_day = 10;
  std::vector<WorkloadRow> rows;
  for (const double retention : kSimulatedRetentions) {
    SchedulerOptions scheduler;
    scheduler.desired_retention = retention;
    rows.push_back(simulate_workload(cards, Scheduler(scheduler), LearnerDays(), now, options));
  }
  for (const WorkloadRow& row : rows) {
    REQUIRE(row.minutes_by_day.size() == 200);
    // Ten days of ten new cards at two steps of 20 s each, then reviews only.
    CHECK(row.minutes_by_day[0] == Approx(10 * 2 * 20 / 60.0));
    CHECK(row.remembered > 0.0);
    CHECK(row.remembered <= 100.0);
  }
  // Reviews a day need not rise all the way (a lower retention lapses more, and a lapse is
  // relearned and soon due again: the workload curve Anki's simulator draws), but near the top
  // they climb steeply, and each card kept costs more minutes the higher the retention.
  CHECK(rows[5].reviews_per_day > rows[4].reviews_per_day);
  CHECK(rows[4].reviews_per_day > rows[3].reviews_per_day);
  CHECK(rows[5].reviews_per_day > rows[0].reviews_per_day);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    INFO("retention " << rows[i].retention);
    CHECK(rows[i].minutes_per_remembered > rows[i - 1].minutes_per_remembered);
  }
}

TEST_CASE("drill --simulate 365 on the lesson's bank, a new learner (golden)", "[workload][cli]") {
  // The built-in lesson bank, not the test bank: three cards would show nothing. A change to
  // that bank's questions changes the golden (PROOFDECK_UPDATE_GOLDENS=1 rewrites it).
  TempDir dir;
  const std::vector<std::string> args = {
      "drill",      "--simulate",        "365",   "--from-bank",          "transformer-layer",
      "--data-dir", dir.path().string(), "--now", "2026-03-02T09:00:00Z", "--width",
      "80",         "--color",           "never"};
  Cli text;
  REQUIRE(text.run(args) == 0);
  proofdeck::testing::check_golden("drill_simulate_365.txt", text.out.str());
  CHECK_FALSE(std::filesystem::exists(dir.path() / "progress.db"));  // nothing written
  Cli again;
  REQUIRE(again.run(args) == 0);
  CHECK(again.out.str() == text.out.str());
}

TEST_CASE(
    "drill --simulate --format json lists each retention, and the exam plan once a date "
    "is set",
    "[workload][cli]") {
  LearnerCli learner;
  Cli plain;
  REQUIRE(learner.run(plain, {"drill", "--simulate", "30", "--format", "json"}) == 0);
  const json none = json::parse(plain.out.str());
  CHECK(none.at("days") == 30);
  CHECK(none.at("seconds_per_card") == 20.0);
  REQUIRE(none.at("rows").size() == 6);
  CHECK(none.at("rows").at(0).at("retention") == 0.7);
  for (const char* key :
       {"reviews_per_day", "minutes_per_day", "remembered", "minutes_per_remembered"})
    CHECK(none.at("rows").at(5).contains(key));
  CHECK(none.at("exam_plan").is_null());

  Cli set;
  REQUIRE(learner.run(set, {"drill", "--exam-date", "2026-03-20"}, ":q\n") == 0);
  Cli planned;
  REQUIRE(learner.run(planned, {"drill", "--simulate", "30", "--format", "json"}) == 0);
  const json with = json::parse(planned.out.str());
  CHECK(with.at("exam_plan").at("date") == "2026-03-20");
  CHECK(with.at("exam_plan").at("remembered").get<double>() > 0.0);
  Cli text;
  REQUIRE(learner.run(text, {"drill", "--simulate", "30"}) == 0);
  CHECK_THAT(text.out.str(), Contains("exam plan") && Contains("90% *"));

  Cli both;
  CHECK(learner.run(both, {"drill", "--simulate", "30", "--cram"}) == 2);
  Cli zero;
  CHECK(learner.run(zero, {"drill", "--simulate", "0"}) == 2);
}

}  // namespace test_workload
