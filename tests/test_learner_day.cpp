// A learner's day, as Anki counts it: from 4:00 local time (TZ) unless `drill --day-starts-at H`
// saved another hour. A card in review is due from the start of the day that holds its due
// time; the --new quota, stats and FSRS's elapsed days count the same days.
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <ctime>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "study/fsrs.hpp"
#include "study/learner_day.hpp"
#include "study/modes.hpp"

namespace test_learner_day {

using namespace proofdeck::study;
using Catch::Matchers::Contains;
using cli_test::Cli;
using cli_test::TempDir;

namespace {

const std::string kBanks = std::string(PROOFDECK_FIXTURE_DIR) + "/../banks";

TimePoint at(const char* text) {
  const auto time = proofdeck::parse_time(text);
  REQUIRE(time);
  return *time;
}

LearnerDate date(int y, unsigned m, unsigned d) {
  return LearnerDate{std::chrono::year{y} / std::chrono::month{m} / std::chrono::day{d}};
}

// A card in review of difficulty 5, last reviewed and due at the times given.
Card in_review(double stability, const char* last_review, const char* due) {
  Card card;
  card.state = CardState::review;
  card.stability = stability;
  card.difficulty = 5.0;
  card.reps = 3;
  card.last_review = at(last_review);
  card.due = at(due);
  return card;
}

// TZ set for a scope (the tests' main runs in UTC), then back to UTC.
class Zone {
 public:
  explicit Zone(const char* name) {
    ::setenv("TZ", name, 1);
    ::tzset();
  }
  ~Zone() {
    ::setenv("TZ", "UTC", 1);
    ::tzset();
  }
  Zone(const Zone&) = delete;
  Zone& operator=(const Zone&) = delete;
};

// A learner's data folder driven through the command line with the worked-example bank.
struct Learner {
  TempDir dir;

  int run(Cli& cli, std::vector<std::string> args, const std::string& now,
          const std::string& input = "") {
    cli.in.str(input);
    args.insert(args.end(),
                {"--seed", "0", "--no-builtin", "--bank", kBanks, "--data-dir", dir.path().string(),
                 "--now", now, "--color", "never", "--width", "200"});
    return cli.run(args);
  }

  // `question` answered right and rated Easy at `now`: a new card straight into review, 8 days.
  void easy(const std::string& question, const std::string& now, const std::string& answer) {
    Cli cli;
    REQUIRE(run(cli, {"drill", "--question", question, "--no-demo"}, now, answer + "\ne\n") == 0);
    REQUIRE_THAT(cli.out.str(), Contains("Rated easy · next review in 8 days"));
  }

  std::string drill_header(const std::string& question, const std::string& now) {
    Cli cli;
    REQUIRE(run(cli, {"drill", "--question", question, "--no-demo"}, now, ":q\n") == 0);
    return cli.out.str();
  }

  nlohmann::json stats(const std::string& now) {
    Cli cli;
    REQUIRE(run(cli, {"stats", "--format", "json"}, now) == 0);
    return nlohmann::json::parse(cli.out.str());
  }

  std::string sql(const std::string& query) const {
    SQLite::Database db((dir.path() / "progress.db").string(), SQLite::OPEN_READWRITE);
    SQLite::Statement statement(db, query);
    return statement.executeStep() ? statement.getColumn(0).getString() : "";
  }
};

}  // namespace

TEST_CASE("a learner's day starts at 4:00 local time: 03:59 belongs to the day before",
          "[study][day]") {
  const LearnerDays days;
  CHECK(days.starts_at() == 4);
  CHECK(days.day_of(at("2026-12-09T03:59:59Z")) == date(2026, 12, 8));
  CHECK(days.day_of(at("2026-12-09T04:00:00Z")) == date(2026, 12, 9));
  CHECK(days.day_of(at("2026-12-09T23:59:59Z")) == date(2026, 12, 9));
  CHECK(days.start_of(date(2026, 12, 9)) == at("2026-12-09T04:00:00Z"));
  CHECK(days.label(at("2026-12-10T01:00:00Z")) == "2026-12-09");
  CHECK(days.days_between(at("2026-12-09T03:59:00Z"), at("2026-12-09T04:00:00Z")) == 1);
  const LearnerDays midnight(0);
  CHECK(midnight.day_of(at("2026-12-09T00:00:00Z")) == date(2026, 12, 9));
  CHECK_THROWS_WITH(LearnerDays(24), Contains("from 0 to 23, not 24"));
  CHECK_THROWS(LearnerDays(-1));
}

TEST_CASE("a card in review is due from the start of its day, a card in its steps by the minute",
          "[study][day]") {
  const LearnerDays days;
  Card review;
  review.state = CardState::review;
  review.due = at("2026-12-09T08:59:00Z");
  CHECK_FALSE(days.due(review, at("2026-12-09T03:59:59Z")));
  CHECK(days.due(review, at("2026-12-09T04:00:00Z")));
  Card learning = review;
  learning.state = CardState::learning;
  CHECK_FALSE(days.due(learning, at("2026-12-09T08:58:59Z")));
  CHECK(days.due(learning, at("2026-12-09T08:59:00Z")));
  CHECK_FALSE(days.due(Card{}, at("2030-01-01T00:00:00Z")));  // new: dealt by --new
}

TEST_CASE("drill says a card in its steps is due now only once it is due", "[study][day][drill]") {
  // "Reviewing ahead (this card is due now…)" contradicted itself: 59 s ahead read as now.
  const LearnerDays days;
  Card learning;
  learning.state = CardState::learning;
  learning.due = at("2026-12-09T09:00:00Z");
  CHECK(due_when(days, learning, at("2026-12-09T09:00:00Z")) == "now");
  CHECK(due_when(days, learning, at("2026-12-09T09:05:00Z")) == "now");  // overdue
  CHECK(due_when(days, learning, at("2026-12-09T08:59:59Z")) == "in under a minute");
  CHECK(due_when(days, learning, at("2026-12-09T08:59:01Z")) == "in under a minute");
  CHECK(due_when(days, learning, at("2026-12-09T08:59:00Z")) == "in 1 minute");
  CHECK(due_when(days, learning, at("2026-12-09T08:35:00Z")) == "in 25 minutes");
  CHECK(due_when(days, learning, at("2026-12-09T06:00:00Z")) == "in 3 hours");
  CHECK(due_when(days, learning, at("2026-12-08T08:00:00Z")) == "tomorrow at 09:00");
  CHECK(due_when(days, learning, at("2026-12-06T08:00:00Z")) == "in 3 days (2026-12-09 at 09:00)");
  Card review = learning;
  review.state = CardState::review;
  CHECK(due_when(days, review, at("2026-12-09T05:00:00Z")) == "today");
  // In the learner's days: two hours before the rollover, tomorrow means from 04:00.
  CHECK(due_when(days, review, at("2026-12-09T02:00:00Z")) == "tomorrow (from 04:00)");
  CHECK(due_when(days, review, at("2026-12-08T09:00:00Z")) == "tomorrow (from 04:00)");
  CHECK(due_when(days, review, at("2026-12-07T09:00:00Z")) == "in 2 days (2026-12-09)");
}

TEST_CASE("FSRS counts whole learner days: 23:00 to 05:00 is a day, 23:00 to 01:00 is not",
          "[study][day][fsrs]") {
  const Scheduler scheduler;
  const LearnerDays days;
  const Card card = in_review(10.0, "2026-12-01T23:00:00Z", "2026-12-11T23:00:00Z");
  // Six hours on the clock, but the next learner day: a review a day later, not the same day.
  const ReviewOutcome next_day =
      days.review(scheduler, card, Rating::good, at("2026-12-02T05:00:00Z"));
  CHECK(next_day.elapsed_days == 1);
  // What the scheduler is given is the two learner dates as midnights (learner_day.hpp): its own
  // arithmetic, unchanged, on whole days.
  Card on_days = card;
  on_days.last_review = at("2026-12-01T00:00:00Z");
  const ReviewOutcome expected =
      scheduler.review(on_days, Rating::good, at("2026-12-02T00:00:00Z"));
  CHECK(next_day.card.stability == expected.card.stability);
  CHECK(next_day.card.difficulty == expected.card.difficulty);
  CHECK(next_day.card.last_review == at("2026-12-02T05:00:00Z"));
  CHECK(next_day.interval == expected.interval);  // no daylight saving in UTC
  CHECK(*next_day.card.due == at("2026-12-02T05:00:00Z") + expected.interval);
  // Two hours later, before the rollover: the same learner day (FSRS's short-term stability).
  const ReviewOutcome same_day =
      days.review(scheduler, card, Rating::good, at("2026-12-02T01:00:00Z"));
  CHECK(same_day.elapsed_days == 0);
  CHECK(same_day.card.stability == Approx(scheduler.short_term_stability(10.0, Rating::good)));
  // A learning step stays in minutes from the real time of the review.
  const ReviewOutcome first =
      days.review(scheduler, Card{}, Rating::good, at("2026-12-02T01:00:00Z"));
  CHECK(first.card.state == CardState::learning);
  CHECK(*first.card.due == at("2026-12-02T01:10:00Z"));
  // Recall, too, after whole learner days.
  CHECK(days.retrievability(scheduler, card, at("2026-12-02T03:59:00Z")) == 1.0);
  CHECK(days.retrievability(scheduler, card, at("2026-12-02T04:00:00Z")) ==
        Approx(scheduler.forgetting_curve(1.0, 10.0)));
}

TEST_CASE("in America/New_York the learner's day that holds 2026-11-01's fall-back lasts 25 h",
          "[study][day]") {
  const Zone zone("America/New_York");
  const LearnerDays days;
  CHECK(days.start_of(date(2026, 10, 31)) == at("2026-10-31T08:00:00Z"));  // 4:00 EDT
  CHECK(days.start_of(date(2026, 11, 1)) == at("2026-11-01T09:00:00Z"));   // 4:00 EST
  CHECK(days.start_of(date(2026, 11, 2)) == at("2026-11-02T09:00:00Z"));
  CHECK(days.day_of(at("2026-11-01T08:59:59Z")) == date(2026, 10, 31));  // 03:59:59 EST
  CHECK(days.day_of(at("2026-11-02T08:59:59Z")) == date(2026, 11, 1));   // 03:59:59 EST
  CHECK(days.day_of(at("2026-11-02T09:00:00Z")) == date(2026, 11, 2));
  CHECK(days.label(at("2026-11-01T03:30:00Z")) == "2026-10-31");  // 23:30 EDT
  // Reviewed at 04:30 EDT on the 31st, a card due N days on is due on the 31st + N, although
  // N × 24 h after 04:30 EDT is 03:30 EST, still the day before: it is due an hour later.
  const Scheduler scheduler;
  const Card card = in_review(3.0, "2026-10-28T12:00:00Z", "2026-10-31T12:00:00Z");
  const TimePoint now = at("2026-10-31T08:30:00Z");
  const ReviewOutcome outcome = days.review(scheduler, card, Rating::hard, now);
  const int n = days.days_between(now, *outcome.card.due);
  REQUIRE(n >= 1);
  CHECK(days.day_of(*outcome.card.due) == date(2026, 10, 31) + std::chrono::days(n));
  CHECK(*outcome.card.due - now == std::chrono::hours(24 * n + 1));
  CHECK(outcome.elapsed_days == 3);
}

TEST_CASE("in Asia/Kolkata (UTC+5:30) the day starts at 22:30 UTC the evening before",
          "[study][day]") {
  const Zone zone("Asia/Kolkata");
  const LearnerDays days;
  CHECK(days.start_of(date(2026, 12, 9)) == at("2026-12-08T22:30:00Z"));
  CHECK(days.day_of(at("2026-12-08T22:29:59Z")) == date(2026, 12, 8));
  CHECK(days.day_of(at("2026-12-08T22:30:00Z")) == date(2026, 12, 9));
  Learner learner;
  learner.easy("order-without-pe", "2026-12-01T09:00:00Z", "f");  // 14:30 IST on the 1st
  CHECK_THAT(learner.drill_header("order-without-pe", "2026-12-08T22:29:00Z"),
             Contains("· 0 due ·") && Contains("the next card is due tomorrow (from 04:00)"));
  CHECK_THAT(learner.drill_header("order-without-pe", "2026-12-08T22:30:00Z"),
             Contains("· 1 due ·"));
}

TEST_CASE("rated Easy at 2026-12-01T09:00Z, a card is due all of 2026-12-09, from 04:00",
          "[study][day][cli]") {
  // The defect: due by the second (09:00Z), it was not due at 08:59 on the day its label names,
  // while stats already counted it for that day.
  Learner learner;
  learner.easy("order-without-pe", "2026-12-01T09:00:00Z", "f");
  CHECK(learner.sql("SELECT due FROM cards") == "2026-12-09T09:00:00Z");
  CHECK_THAT(learner.drill_header("order-without-pe", "2026-12-09T08:59:00Z"),
             Contains("· 1 due ·"));
  CHECK_THAT(learner.drill_header("order-without-pe", "2026-12-09T04:00:00Z"),
             Contains("· 1 due ·"));
  CHECK_THAT(learner.drill_header("order-without-pe", "2026-12-09T03:59:00Z"),
             Contains("· 0 due ·") && Contains("the next card is due tomorrow (from 04:00)"));
  // stats agrees with drill: counted on the 9th, due (not overdue) at 08:59 on the 9th.
  const auto before = learner.stats("2026-12-01T10:00:00Z");
  CHECK(before["forecast"]["days"][8]["date"] == "2026-12-09");
  CHECK(before["forecast"]["days"][8]["due"] == 1);
  const auto on_the_day = learner.stats("2026-12-09T08:59:00Z");
  CHECK(on_the_day["forecast"]["days"][0]["date"] == "2026-12-09");
  CHECK(on_the_day["forecast"]["days"][0]["due"] == 1);
  CHECK(on_the_day["forecast"]["overdue"] == 0);
  CHECK(learner.stats("2026-12-10T04:00:00Z")["forecast"]["overdue"] == 1);
  // The review the next morning is a day after, for FSRS and for true retention.
  Cli review;
  REQUIRE(learner.run(review, {"drill", "--question", "order-without-pe", "--no-demo"},
                      "2026-12-09T05:00:00Z", "f\ng\n") == 0);
  CHECK(learner.sql("SELECT elapsed_days FROM reviews ORDER BY rowid DESC LIMIT 1") == "8");
}

TEST_CASE("new cards introduced count against --new until the next day starts at 04:00",
          "[study][day][cli]") {
  Learner learner;
  learner.easy("order-without-pe", "2026-12-01T03:59:00Z", "f");  // still the 30th's day
  Cli quota;
  REQUIRE(learner.run(quota, {"drill", "--question", "mha-purpose", "--new", "1"},
                      "2026-12-01T03:59:30Z", ":q\n") == 0);
  CHECK_THAT(quota.out.str(), Contains("· 0 new (1 of 1 new cards introduced today)"));
  Cli next_day;
  REQUIRE(learner.run(next_day, {"drill", "--question", "mha-purpose", "--new", "1"},
                      "2026-12-01T04:00:00Z", ":q\n") == 0);
  CHECK_THAT(next_day.out.str(), Contains("· 1 new (0 of 1 new cards introduced today)"));
  CHECK(learner.stats("2026-12-01T03:59:59Z")["reviews"]["today"] == 1);
  CHECK(learner.stats("2026-12-01T04:00:00Z")["reviews"]["today"] == 0);
}

TEST_CASE("stats dates an exam by the learner's day it was taken on", "[study][day][cli]") {
  Learner learner;
  Cli exam;
  learner.run(exam, {"exam", "--question", "order-without-pe"}, "2026-12-02T03:00:00Z", "f\nyes\n");
  const auto stats = learner.stats("2026-12-02T05:00:00Z");
  REQUIRE(stats["exams"].size() == 1);
  CHECK(stats["exams"][0]["at"] == "2026-12-02T03:00:00Z");
  CHECK(stats["exams"][0]["date"] == "2026-12-01");  // before 04:00: the evening's day
  CHECK(stats["reviews"]["today"] == 0);
}

TEST_CASE("drill --day-starts-at H is saved for every later command", "[study][day][cli]") {
  Learner learner;
  learner.easy("order-without-pe", "2026-12-01T05:30:00Z", "f");
  CHECK(learner.stats("2026-12-01T07:00:00Z")["reviews"]["today"] == 1);  // the day began 04:00
  Cli set;
  REQUIRE(learner.run(set, {"drill", "--question", "mha-purpose", "--day-starts-at", "6"},
                      "2026-12-01T07:00:00Z", ":q\n") == 0);
  CHECK_THAT(set.out.str(), Contains("Your day now starts at 06:00 local time"));
  CHECK(learner.sql("SELECT value FROM meta WHERE key = 'day_starts_at'") == "6");
  // 05:30 now belongs to the 30th: stats without the option reads the saved hour.
  CHECK(learner.stats("2026-12-01T07:00:00Z")["reviews"]["today"] == 0);
  Cli again;
  REQUIRE(learner.run(again, {"drill", "--question", "mha-purpose", "--day-starts-at", "6"},
                      "2026-12-01T07:00:00Z", ":q\n") == 0);
  CHECK_THAT(again.out.str(), !Contains("Your day now starts"));  // already so: nothing to say
  Cli bad;
  CHECK(learner.run(bad, {"drill", "--day-starts-at", "24"}, "2026-12-01T07:00:00Z") == 2);
  CHECK_THAT(bad.err.str(), Contains("--day-starts-at") && Contains("0 to 23"));
}

TEST_CASE("a database written before learner days keeps its schedule, read by learner day",
          "[study][day][cli]") {
  // Databases before this change stored due times by the second and no day_starts_at: they open
  // with 4:00, and a card due at 09:00 on the 9th is due from 04:00 that day.
  Learner learner;
  learner.easy("order-without-pe", "2026-12-01T09:00:00Z", "f");
  learner.sql("DELETE FROM meta WHERE key = 'day_starts_at'");
  REQUIRE(learner.sql("SELECT count(*) FROM meta WHERE key = 'day_starts_at'") == "0");
  learner.sql("UPDATE cards SET due = '2026-12-09T09:00:00Z'");
  CHECK_THAT(learner.drill_header("order-without-pe", "2026-12-09T04:00:00Z"),
             Contains("· 1 due ·"));
  // A stored hour that is no hour is named, never guessed.
  learner.sql("INSERT OR REPLACE INTO meta(key, value) VALUES('day_starts_at', 'four')");
  Cli broken;
  CHECK(learner.run(broken, {"stats"}, "2026-12-09T04:00:00Z") == 3);
  CHECK_THAT(broken.err.str(), Contains("day_starts_at is \"four\", not an hour from 0 to 23") &&
                                   Contains("--day-starts-at H"));
}

}  // namespace test_learner_day
