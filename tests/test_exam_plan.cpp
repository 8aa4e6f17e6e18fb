// The plan toward an exam date: within the minutes of each day it takes the reviews (early ones
// too) and new cards that add most to recall on the exam day per second, new cards in their
// order; it reports what it expects on the day and when the cards do not fit. drill follows its
// first day, stats shows it, and --exam-date is checked, saved and cleared.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <deque>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "learner_cli_support.hpp"
#include "study/exam_plan.hpp"
#include "study/fsrs.hpp"
#include "study/progress.hpp"
#include "study/workload.hpp"

namespace test_exam_plan {

using nlohmann::json;
using namespace proofdeck::study;
using namespace cli_test;
using Catch::Matchers::Contains;

namespace {

const proofdeck::TimePoint kNow = *proofdeck::parse_time("2026-03-02T09:00:00Z");
const LearnerDays kDays;  // 04:00, UTC (the tests' zone)

LearnerDate day(int offset) {
  return kDays.day_of(kNow) + std::chrono::days(offset);
}

// Questions the planner can take: `n` of them, objective o<i / per>, each of topic "t".
std::deque<proofdeck::bank::Question> questions(int n, int per_objective = 1) {
  std::deque<proofdeck::bank::Question> qs;
  for (int i = 0; i < n; ++i) {
    proofdeck::bank::Question q;
    q.id = "q" + std::to_string(i);
    q.topic = "t";
    q.objective = "o" + std::to_string(i / per_objective);
    qs.push_back(q);
  }
  return qs;
}

// A card in review since `days_ago`, with `stability`.
Card reviewed(int days_ago, double stability) {
  Card c;
  c.state = CardState::review;
  c.stability = stability;
  c.difficulty = 5.0;
  c.last_review = kNow - std::chrono::hours(24 * days_ago);
  c.due = kNow + std::chrono::hours(24 * 30);
  c.reps = 3;
  return c;
}

PlanBudget minutes(int m, double seconds = 20.0) {
  PlanBudget b;
  b.minutes_per_day = m;
  b.seconds_per_card = seconds;
  return b;
}

}  // namespace

TEST_CASE("exam plan: seconds a card are the median of the latest timed drill answers",
          "[exam_plan]") {
  CHECK(seconds_per_card({}) == kDefaultSecondsPerCard);
  std::vector<ReviewRow> rows;
  for (const int ms : {9000, 30000, 12000}) {
    ReviewRow r;
    r.mode = "drill";
    r.duration_ms = ms;
    rows.push_back(r);
  }
  ReviewRow quiz;
  quiz.mode = "quiz";
  quiz.duration_ms = 1;
  rows.push_back(quiz);  // not a drill answer
  CHECK(seconds_per_card(rows) == 12.0);
  // Only the latest 200 count.
  for (int i = 0; i < 200; ++i) {
    ReviewRow r;
    r.mode = "drill";
    r.duration_ms = 5000;
    rows.push_back(r);
  }
  CHECK(seconds_per_card(rows) == 5.0);
}

TEST_CASE("exam plan: the exam is at 09:00 local on its day, which must be after today",
          "[exam_plan]") {
  CHECK(proofdeck::format_time(exam_moment(kDays, day(3))) == "2026-03-05T09:00:00Z");
  const std::deque<proofdeck::bank::Question> qs = questions(1);
  const Scheduler fsrs;
  CHECK_THROWS_AS(plan_for_exam({{&qs[0], std::nullopt}}, fsrs, kDays, kNow, day(0), minutes(30)),
                  std::invalid_argument);
}

TEST_CASE(
    "exam plan: with time enough every new card is learned, in its order, within the "
    "minutes of each day",
    "[exam_plan]") {
  const std::deque<proofdeck::bank::Question> qs = questions(30, 3);
  std::vector<PlanCard> cards;
  for (const auto& q : qs)
    cards.push_back({&q, std::nullopt});
  const Scheduler fsrs;
  const ExamPlan plan = plan_for_exam(cards, fsrs, kDays, kNow, day(10), minutes(5));
  CHECK(plan.days_left == 10);
  CHECK(plan.fits);
  CHECK(plan.unseen_cards == 0);
  CHECK(plan.drilled_on_the_day == 30);
  CHECK(plan.objectives == 10);
  CHECK(plan.unseen_objectives == 0);
  CHECK(plan.busiest_minutes <= 5.0 + 1e-9);
  REQUIRE_FALSE(plan.fresh_today.empty());
  for (std::size_t i = 0; i < plan.fresh_today.size(); ++i)
    CHECK(plan.fresh_today[i]->id == "q" + std::to_string(i));  // in their order
  CHECK(plan.expected_recall_cards > 0.5);
  CHECK(plan.expected_recall_cards <= 1.0);
  // Every objective shown, each recalled as its best card: alike cards, the mean recall.
  CHECK(plan.expected_recall_objectives == Approx(plan.expected_recall_cards * 10));
}

TEST_CASE("exam plan: too little time leaves new cards unseen and says so", "[exam_plan]") {
  const std::deque<proofdeck::bank::Question> qs = questions(100);
  std::vector<PlanCard> cards;
  for (const auto& q : qs)
    cards.push_back({&q, std::nullopt});
  const Scheduler fsrs;
  // One minute a day at 20 s a card: one new card (40 s) a day over 5 days.
  const ExamPlan plan = plan_for_exam(cards, fsrs, kDays, kNow, day(5), minutes(1));
  CHECK_FALSE(plan.fits);
  CHECK(plan.new_cards_per_day <= 1.0);
  CHECK(plan.unseen_cards >= 95);
  CHECK(plan.unseen_objectives == plan.unseen_cards);
}

TEST_CASE(
    "exam plan: no schedule it weighs that fits the minutes leaves more recalled, the "
    "usual one included",
    "[exam_plan]") {
  const std::deque<proofdeck::bank::Question> qs = questions(120, 2);
  std::vector<PlanCard> cards;
  for (const auto& q : qs)
    cards.push_back({&q, std::nullopt});
  cards[0].card = reviewed(3, 4.0);  // one card drilled already
  const Scheduler fsrs;
  const ExamPlan plan = plan_for_exam(cards, fsrs, kDays, kNow, day(30), minutes(15));
  WorkloadOptions options;
  options.days = 30;
  options.seconds_per_day = 15 * 60.0;
  const auto remembered = [&](double retention, int new_per_day) {
    SchedulerOptions scheduler;
    scheduler.desired_retention = retention;
    options.new_per_day = new_per_day;
    const WorkloadRow row = simulate_workload(cards, Scheduler(scheduler), kDays, kNow, options);
    const double busiest = *std::max_element(row.minutes_by_day.begin(), row.minutes_by_day.end());
    return std::pair{row.remembered, busiest};
  };
  const auto [planned, busiest] = remembered(plan.retention, plan.new_per_day);
  CHECK(busiest <= 15.0 + 1e-9);
  CHECK(planned == Approx(plan.expected_recall_cards * plan.drilled_on_the_day));
  for (const double r : kPlanRetentions) {
    for (const int n : kPlanNewPerDay) {
      const auto [other, other_busiest] = remembered(r, n);
      if (other_busiest <= 15.0 + 1e-9) CHECK(other <= planned + 1e-9);
    }
  }
  // drill's own defaults, 90% and 20 new cards a day, within the same minutes: no better.
  CHECK(remembered(0.9, 20).first <= planned + 1e-9);
}

TEST_CASE("exam plan: what was drilled today counts against today's minutes", "[exam_plan]") {
  const std::deque<proofdeck::bank::Question> qs = questions(10);
  std::vector<PlanCard> cards;
  for (const auto& q : qs)
    cards.push_back({&q, std::nullopt});
  const Scheduler fsrs;
  PlanBudget spent = minutes(2);
  spent.seconds_spent_today = 120.0;
  const ExamPlan plan = plan_for_exam(cards, fsrs, kDays, kNow, day(3), spent);
  CHECK(plan.fresh_today.empty());
  CHECK(plan.drilled_on_the_day > 0);  // from tomorrow on
}

TEST_CASE(
    "drill --exam-date saves the exam, drill follows its plan, stats shows it, none clears "
    "it",
    "[exam_plan][cli]") {
  LearnerCli learner;
  // One minute a day at 20 s a card: today's plan is one new card.
  Cli drill;
  REQUIRE(learner.run(drill, {"drill", "--exam-date", "2026-03-20", "--minutes-a-day", "1"},
                      ":q\n") == 0);
  CHECK_THAT(drill.out.str(), Contains("the exam on 2026-03-20, 1 minutes a day") &&
                                  Contains("0 due · 1 new") &&
                                  Contains("Toward your exam on 2026-03-20 (18 days left)"));
  CHECK(learner.count("SELECT count(*) FROM meta WHERE key = 'exam_date' AND value = "
                      "'2026-03-20'") == 1);

  Cli stats;
  REQUIRE(learner.run(stats, {"stats", "--format", "json"}) == 0);
  const json plan = json::parse(stats.out.str()).at("exam_plan");
  CHECK(plan.at("date") == "2026-03-20");
  CHECK(plan.at("days_left") == 18);
  CHECK(plan.at("minutes_per_day") == 1);
  CHECK(plan.at("seconds_per_card") == 20.0);
  CHECK(plan.at("fits") == true);  // three cards in 18 days
  for (const char* key : {"reviews_per_day", "new_per_day", "expected_recall_cards",
                          "expected_recall_objectives", "unseen_objectives"})
    CHECK(plan.contains(key));
  Cli text;
  REQUIRE(learner.run(text, {"stats"}) == 0);
  CHECK_THAT(text.out.str(), Contains("Exam on 2026-03-20 (18 days)") &&
                                 Contains("Readiness on the exam day, if you keep to the plan"));

  // Minutes alone change the saved exam's.
  Cli more;
  REQUIRE(learner.run(more, {"drill", "--minutes-a-day", "45"}, ":q\n") == 0);
  CHECK(learner.count("SELECT value FROM meta WHERE key = 'minutes_a_day'") == 45);

  Cli none;
  REQUIRE(learner.run(none, {"drill", "--exam-date", "none"}, ":q\n") == 0);
  CHECK_THAT(none.out.str(), Contains("Exam date cleared"));
  Cli cleared;
  REQUIRE(learner.run(cleared, {"stats", "--format", "json"}) == 0);
  CHECK(json::parse(cleared.out.str()).at("exam_plan").is_null());
}

TEST_CASE("drill --exam-date: after the day the usual schedule is back", "[exam_plan][cli]") {
  LearnerCli learner;
  Cli set;
  REQUIRE(learner.run(set, {"drill", "--exam-date", "2026-03-05"}, ":q\n") == 0);
  learner.now = "2026-03-06T09:00:00Z";
  Cli after;
  REQUIRE(learner.run(after, {"drill"}, ":q\n") == 0);
  CHECK_THAT(after.out.str(), Contains("Your exam day, 2026-03-05, has come"));
  Cli stats;
  REQUIRE(learner.run(stats, {"stats", "--format", "json"}) == 0);
  CHECK(json::parse(stats.out.str()).at("exam_plan").is_null());
}

TEST_CASE("drill --exam-date refuses a day that is not ahead, or not a date", "[exam_plan][cli]") {
  LearnerCli learner;
  Cli today;
  CHECK(learner.run(today, {"drill", "--exam-date", "2026-03-02"}) == 2);
  CHECK_THAT(today.err.str(), Contains("--exam-date 2026-03-02 is not after today (2026-03-02)"));
  Cli garbled;
  CHECK(learner.run(garbled, {"drill", "--exam-date", "2026-02-30"}) == 2);
  CHECK_THAT(garbled.err.str(), Contains("expected the exam's date as YYYY-MM-DD"));
  Cli minutes_alone;
  CHECK(learner.run(minutes_alone, {"drill", "--minutes-a-day", "20"}) == 2);
  CHECK_THAT(minutes_alone.err.str(), Contains("give the exam's date too"));
  Cli both;
  CHECK(learner.run(both, {"drill", "--exam-date", "none", "--minutes-a-day", "20"}) == 2);
  CHECK_FALSE(std::filesystem::exists(learner.dir.path() / "progress.db"));  // nothing created
}

}  // namespace test_exam_plan
