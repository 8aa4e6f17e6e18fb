// drill --optimize and --reset as a learner uses them: the fit is made from the drill history in
// progress.db, stored with the cards' memory recomputed and their due dates kept, reported by
// stats and --evaluate, and used by the next drill; too short a history keeps the defaults or
// fits w0–w3 and says how much more it needs; a fit no better than the one in use is not taken.
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <array>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "fsrs_fixture_support.hpp"
#include "learner_cli_support.hpp"
#include "study/fsrs.hpp"
#include "study/fsrs_fit.hpp"
#include "study/fsrs_optimize.hpp"
#include "study/progress.hpp"

namespace test_drill_optimize {

using nlohmann::json;
using namespace proofdeck::study;
using namespace cli_test;
using namespace fsrs_fixtures;
using Catch::Matchers::Contains;

namespace {

const std::string kNow = "2026-03-02T09:00:00Z";

struct Learner : LearnerCli {
  json run_json(std::vector<std::string> args) {
    Cli cli;
    args.insert(args.end(), {"--format", "json"});
    REQUIRE(run(cli, args) == 0);
    return json::parse(cli.out.str());
  }
  Card card(const std::string& id) {
    ProgressStore store = ProgressStore::open(dir.path());
    const std::optional<Card> found = store.card(id);
    REQUIRE(found);
    return *found;
  }
};

std::array<double, 21> weights_in(const json& list) {
  return weights_of(list);
}

// The text with its line breaks and indents read as single spaces, as a reader reads it.
std::string flat(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\n';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return out;
}

}  // namespace

TEST_CASE(
    "drill --optimize fits the weights to the drill history, stores them, recomputes the "
    "cards' memory and keeps their due dates",
    "[fsrs][optimize][cli]") {
  const json history = fixture("learner_typical");
  Learner learner;
  record_history(learner.dir.path(), history);
  const Card before = learner.card("card-0");

  const json fit = learner.run_json({"drill", "--optimize"});
  CHECK(fit.at("stage") == "all_weights");
  CHECK(fit.at("items") == 975);
  CHECK(fit.at("reviews") == learner.count("SELECT count(*) FROM reviews WHERE mode = 'drill'"));
  CHECK(fit.at("needed").is_null());
  CHECK(fit.at("cards_updated") == 300);
  CHECK(fit.at("fitted_at") == kNow);
  CHECK(fit.at("fitted").at("log_loss").get<double>() <
        fit.at("default").at("log_loss").get<double>());
  CHECK(fit.at("before") == fit.at("default"));  // the defaults were in use
  const std::array<double, 21> weights = weights_in(fit.at("weights"));
  CHECK(weights == fit_weights(items_of(history)).weights);

  // The cards' memory is the new weights' replay of their history; their due dates stay.
  const Card after = learner.card("card-0");
  CHECK(after.due == before.due);
  CHECK(after.state == before.state);
  ProgressStore store = ProgressStore::open(learner.dir.path());
  const CardMemory memory = drill_memory(weights, store.reviews()).at("card-0");
  CHECK(after.stability == memory.stability);
  CHECK(after.difficulty == memory.difficulty);
  CHECK(after.stability != before.stability);

  // stats and --evaluate report the fit in use.
  const json stats = learner.run_json({"stats"});
  CHECK(stats.at("fsrs").at("fitted") == true);
  CHECK(stats.at("fsrs").at("fitted_at") == kNow);
  CHECK(stats.at("fsrs").at("reviews") == fit.at("reviews"));
  CHECK(weights_in(stats.at("fsrs").at("weights")) == weights);
  const json evaluated = learner.run_json({"drill", "--evaluate"});
  CHECK(evaluated.at("in_use") == fit.at("fitted"));
  CHECK(evaluated.at("default") == fit.at("default"));
  CHECK(learner.count("SELECT count(*) FROM fsrs_fits") == 1);

  // Fitting again gives no better weights: the ones in use stay, and nothing is appended.
  const json again = learner.run_json({"drill", "--optimize"});
  CHECK(again.at("stage") == "kept");
  CHECK(weights_in(again.at("weights")) == weights);
  CHECK(learner.count("SELECT count(*) FROM fsrs_fits") == 1);
  Cli kept;
  REQUIRE(learner.run(kept, {"drill", "--optimize"}) == 0);
  CHECK_THAT(kept.out.str(), Contains("drill keeps them"));

  // --reset: the defaults again, the cards' memory with them; the fit stays on record.
  Cli reset;
  REQUIRE(learner.run(reset, {"drill", "--optimize", "--reset"}) == 0);
  CHECK_THAT(flat(reset.out.str()), Contains("Back to FSRS-6's default weights") &&
                                        Contains("300 cards' stability and difficulty"));
  const json defaults = learner.run_json({"stats"});
  CHECK(defaults.at("fsrs").at("fitted") == false);
  CHECK(defaults.at("fsrs").at("fitted_at").is_null());
  CHECK(weights_in(defaults.at("fsrs").at("weights")) == kDefaultWeights);
  CHECK(learner.count("SELECT count(*) FROM fsrs_fits") == 1);
  CHECK(learner.card("card-0").stability ==
        drill_memory(kDefaultWeights, store.reviews()).at("card-0").stability);
  CHECK(learner.card("card-0").due == before.due);
}

TEST_CASE("drill --optimize says what it fitted, in text", "[fsrs][optimize][cli]") {
  Learner learner;
  record_history(learner.dir.path(), fixture("learner_typical"));
  Cli text;
  REQUIRE(learner.run(text, {"drill", "--optimize"}) == 0);
  const std::string out = flat(text.out.str());
  CHECK_THAT(out, Contains("Fitted all 21 FSRS-6 weights to your drill history: 975 training "
                           "items from 1,787 drill reviews."));
  CHECK_THAT(text.out.str(), Contains("  default (until now)       0.4120        0.0901"));
  CHECK_THAT(text.out.str(), Contains("  fitted now (in use)"));
  CHECK_THAT(out, Contains("w0–w3, a new card's stability after Again, Hard, Good, Easy:"));
  CHECK_THAT(out, Contains("proofdeck drill --optimize --reset"));
  Cli stats;
  REQUIRE(learner.run(stats, {"stats"}) == 0);
  CHECK_THAT(flat(stats.out.str()),
             Contains("Scheduling: FSRS-6 fitted to your 1,787 drill reviews on "
                      "2026-03-02"));
}

TEST_CASE(
    "drill --optimize on a short history keeps the defaults or fits w0-w3 only, and says "
    "how much more it needs",
    "[fsrs][optimize][cli]") {
  Learner tiny;
  record_history(tiny.dir.path(), fixture("tiny_7_items"));
  const json none = tiny.run_json({"drill", "--optimize"});
  CHECK(none.at("stage") == "defaults");
  CHECK(none.at("needed") == 8);  // all 7 fall to the outlier filter
  CHECK(weights_in(none.at("weights")) == kDefaultWeights);
  Cli none_text;
  REQUIRE(tiny.run(none_text, {"drill", "--optimize"}) == 0);
  CHECK_THAT(flat(none_text.out.str()),
             Contains("Too little drill history to fit FSRS-6: 0 training "
                      "items of the 8 it needs") &&
                 Contains("Drill on: at least 8 more such reviews.") &&
                 Contains("Drill keeps FSRS-6's default weights."));
  CHECK(tiny.count("SELECT count(*) FROM fsrs_fits") == 0);
  CHECK(tiny.run_json({"stats"}).at("fsrs").at("fitted") == false);

  Learner small;
  const json history = fixture("small_63_items");
  record_history(small.dir.path(), history);
  const json some = small.run_json({"drill", "--optimize"});
  CHECK(some.at("stage") == "initial_stability");
  CHECK(some.at("items") == 63);
  CHECK(some.at("needed") == 1);
  const std::array<double, 21> weights = weights_in(some.at("weights"));
  const std::array<double, 21> reference = weights_of(history.at("fitted_weights"));
  for (std::size_t i = 0; i < 21; ++i) {
    INFO("w" << i);
    CHECK(weights[i] == (i < 4 ? Approx(reference[i]).epsilon(0.05) : Approx(kDefaultWeights[i])));
  }
  Learner small_text;
  record_history(small_text.dir.path(), history);
  Cli text;
  REQUIRE(small_text.run(text, {"drill", "--optimize"}) == 0);
  CHECK_THAT(flat(text.out.str()),
             Contains("Fitted w0–w3 (a new card's first stability) to your 63 "
                      "training items; the other 17 weights keep their "
                      "defaults until 64 — at least 1 more review a day"));

  Learner nobody;
  const json empty = nobody.run_json({"drill", "--optimize"});
  CHECK(empty.at("stage") == "defaults");
  CHECK_FALSE(std::filesystem::exists(nobody.dir.path() / "progress.db"));
}

TEST_CASE("after drill --optimize, the next drill schedules with the fitted weights",
          "[fsrs][optimize][cli]") {
  Learner learner;
  record_history(learner.dir.path(), fixture("learner_typical"));
  const json fit = learner.run_json({"drill", "--optimize"});
  const double good = weights_in(fit.at("weights"))[2];
  REQUIRE(good != Approx(kDefaultWeights[2]));
  // order-without-pe: a new true/false card whose key is false; rated Good, its first stability
  // is w2 — the fitted one.
  Cli drill;
  REQUIRE(learner.run(drill,
                      {"drill", "--question", "order-without-pe", "--auto-rate", "--limit", "1"},
                      "f\n") == 0);
  CHECK(learner.card("order-without-pe").stability == Approx(good));
}

TEST_CASE("drill --optimize: misuse and a damaged fit are refused with the fix",
          "[fsrs][optimize][cli]") {
  Learner learner;
  Cli reset_alone;
  CHECK(learner.run(reset_alone, {"drill", "--reset"}) == 2);
  CHECK_THAT(reset_alone.err.str(), Contains("--reset goes with --optimize: proofdeck drill "
                                             "--optimize --reset"));
  Cli both;
  CHECK(learner.run(both, {"drill", "--optimize", "--evaluate"}) == 2);
  CHECK_THAT(both.err.str(), Contains("give one of them"));

  record_history(learner.dir.path(), fixture("small_63_items"));
  {
    SQLite::Database db((learner.dir.path() / "progress.db").string(), SQLite::OPEN_READWRITE);
    db.exec(R"(INSERT INTO meta(key, value) VALUES('fsrs_fit', '{"weights": [1, 2]}'))");
  }
  Cli stats;
  CHECK(learner.run(stats, {"stats"}) == 3);
  CHECK_THAT(stats.err.str(), Contains("meta's fsrs_fit is not a fit proofdeck wrote (\"weights\" "
                                       "is not a list of 21 numbers)") &&
                                  Contains("drill --optimize --reset"));
  Cli reset;
  REQUIRE(learner.run(reset, {"drill", "--optimize", "--reset"}) == 0);
  Cli fine;
  CHECK(learner.run(fine, {"stats"}) == 0);

  // A fit rewrites the cards' memory: never while a drill session holds the store.
  const DrillLock session(learner.dir.path());
  Cli locked;
  CHECK(learner.run(locked, {"drill", "--optimize"}) == 3);
  CHECK(learner.count("SELECT count(*) FROM fsrs_fits") == 0);
}

}  // namespace test_drill_optimize
