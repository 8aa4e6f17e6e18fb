// FSRS-6 weights measured on a learner's reviews: on the committed reference histories
// (tests/fixtures/fsrs_fit/, made with fsrs-rs 6.5.0's Node binding), proofdeck's log loss and
// RMSE over bins equal the reference's evaluate within 1e-4 for the default weights and for the
// reference's fitted ones; a history the outlier filter empties has nothing to evaluate; and the
// pieces — the filter, the recency weights, the prediction — behave as the reference's do.
#include <array>
#include <catch2/catch.hpp>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "fsrs_fixture_support.hpp"
#include "study/fsrs.hpp"
#include "study/fsrs_fit.hpp"
#include "study/progress.hpp"

namespace test_fsrs_fit {

using nlohmann::json;
using namespace proofdeck::study;
using namespace fsrs_fixtures;
using namespace cli_test;
using Catch::Matchers::Contains;

namespace {}  // namespace

TEST_CASE("fsrs evaluate: log loss and RMSE(bins) equal fsrs-rs's within 1e-4 on every history",
          "[fsrs][fit]") {
  for (const char* name : {"learner_typical", "learner_forgetful", "learner_confident",
                           "bounds_push", "relearning_ceiling", "small_63_items"}) {
    const json history = fixture(name);
    const std::vector<FsrsItem> items = items_of(history);
    REQUIRE(items.size() == history.at("item_count").get<std::size_t>());
    for (const char* which : {"default_weights", "fitted_weights"}) {
      INFO(name << ", " << which);
      const json& reference = history.at("evaluate").at(which);
      const std::optional<FsrsEvaluation> ours =
          evaluate_weights(weights_of(history.at(which)), items);
      REQUIRE(ours.has_value());
      CHECK(ours->log_loss == Approx(reference.at("log_loss").get<double>()).margin(1e-4));
      CHECK(ours->rmse_bins == Approx(reference.at("rmse_bins").get<double>()).margin(1e-4));
    }
  }
}

TEST_CASE("fsrs evaluate: a history the outlier filter empties has nothing to evaluate",
          "[fsrs][fit]") {
  const json history = fixture("tiny_7_items");
  CHECK(history.at("evaluate").at("default_weights").at("error") ==
        "Evaluation failed: NotEnoughData");
  const std::vector<FsrsItem> items = items_of(history);
  REQUIRE(items.size() == 7);
  CHECK_FALSE(evaluate_weights(kDefaultWeights, items).has_value());
  CHECK_FALSE(evaluate_weights(kDefaultWeights, {}).has_value());
}

TEST_CASE("fsrs evaluate: the outlier filter drops first intervals seen too rarely",
          "[fsrs][fit]") {
  // Good: 30 cards first reviewed after 3 days, 2 after 40. The smallest groups go first until
  // 20 items are gone; the 2 do not reach 20, so the 40-day pair goes and the 30 stay.
  // Easy: 10 cards after 5 days — under 20 in all, so the whole rating goes.
  std::vector<FsrsItem> items;
  for (int i = 0; i < 30; ++i)
    items.push_back({{3, 0}, {3, 3}});
  for (int i = 0; i < 2; ++i)
    items.push_back({{3, 0}, {3, 40}});
  for (int i = 0; i < 10; ++i)
    items.push_back({{4, 0}, {3, 5}});
  items.push_back({{3, 0}, {3, 40}, {3, 90}});  // a later item of a removed pair goes too
  items.push_back({{4, 0}, {3, 5}, {3, 20}});
  items.push_back({{3, 0}, {3, 3}, {3, 9}});  // one of a kept pair stays
  const FilteredItems kept = filter_outliers(items);
  CHECK(kept.initialization.size() == 30);
  REQUIRE(kept.rest.size() == 1);
  CHECK(kept.rest.front().back().delta_t == 9);
}

TEST_CASE("fsrs evaluate: recent items weigh up to four times the oldest", "[fsrs][fit]") {
  CHECK(recency_weight(0, 5) == Approx(0.25));
  CHECK(recency_weight(4, 5) == Approx(1.0));
  CHECK(recency_weight(2, 5) == Approx(0.25 + 0.75 * 0.125));
  CHECK(recency_weight(0, 1) == Approx(0.25));
}

TEST_CASE("fsrs evaluate: the prediction is the scheduler's forgetting curve after the history",
          "[fsrs][fit]") {
  const Scheduler scheduler;
  // One Good, then recall 10 days later: R(10, w2).
  CHECK(predicted_recall(kDefaultWeights, {{3, 0}, {3, 10}}) ==
        Approx(scheduler.forgetting_curve(10, kDefaultWeights[2])));
  // A same-day Good in between grows stability by the short-term formula first.
  const double short_term = scheduler.short_term_stability(kDefaultWeights[2], Rating::good);
  CHECK(predicted_recall(kDefaultWeights, {{3, 0}, {3, 0}, {3, 10}}) ==
        Approx(scheduler.forgetting_curve(10, short_term)));
}

TEST_CASE("fsrs evaluate: a card's rated drill reviews make an item at each review a day later",
          "[fsrs][fit]") {
  const auto row = [](const std::string& card, const std::string& mode, std::optional<int> rating,
                      int elapsed) {
    ReviewRow r;
    r.card = card;
    r.mode = mode;
    r.rating = rating;
    r.elapsed_days = elapsed;
    return r;
  };
  const std::vector<FsrsItem> items = drill_items({
      row("a", "drill", 3, 5),            // a card's first review: Δt 0 whatever is recorded
      row("a", "drill", 3, 0),            // the same day: history only
      row("b", "quiz", std::nullopt, 0),  // a quiz answer is no FSRS review
      row("a", "drill", 1, 4),
      row("b", "drill", 4, 0),
      row("a", "drill", 3, 1),
      row("b", "drill", 3, 9),
  });
  REQUIRE(items.size() == 3);
  CHECK(items[0].size() == 3);
  CHECK(items[0].front().delta_t == 0);
  CHECK(items[0].back().rating == 1);
  CHECK(items[1].size() == 4);
  CHECK(items[2].size() == 2);
  CHECK(items[2].back().delta_t == 9);
}

TEST_CASE("drill --evaluate measures the weights on the learner's drill history, text or json",
          "[fsrs][fit][cli]") {
  // The learner_typical history recorded as drill reviews in the order fsrs-rs was given its
  // items: drill --evaluate reaches the reference's measures of the default weights.
  const json history = fixture("learner_typical");
  TempDir data;
  record_history(data.path(), history);
  Cli json_cli;
  REQUIRE(json_cli.run({"drill", "--evaluate", "--format", "json", "--data-dir",
                        data.path().string()}) == 0);
  const json report = json::parse(json_cli.out.str());
  const json& reference = history.at("evaluate").at("default_weights");
  CHECK(report.at("default").at("log_loss").get<double>() ==
        Approx(reference.at("log_loss").get<double>()).margin(1e-4));
  CHECK(report.at("default").at("rmse_bins").get<double>() ==
        Approx(reference.at("rmse_bins").get<double>()).margin(1e-4));
  CHECK(report.at("in_use") == report.at("default"));
  CHECK(report.at("items").get<std::size_t>() <= history.at("item_count").get<std::size_t>());

  Cli text;
  REQUIRE(text.run({"drill", "--evaluate", "--data-dir", data.path().string(), "--color",
                    "never"}) == 0);
  CHECK_THAT(text.out.str(), Contains("975 items evaluated"));
  CHECK_THAT(text.out.str(), Contains("1,164"));
  CHECK_THAT(text.out.str(), Contains("  default (in use)"));

  Cli empty;
  TempDir none;
  REQUIRE(empty.run({"drill", "--evaluate", "--format", "json", "--data-dir",
                     none.path().string()}) == 0);
  CHECK(json::parse(empty.out.str()) ==
        json({{"items", 0}, {"default", nullptr}, {"in_use", nullptr}}));
  CHECK_FALSE(std::filesystem::exists(none.path() / "progress.db"));  // read, never created

  Cli format_alone;
  CHECK(format_alone.run({"drill", "--format", "json", "--data-dir", none.path().string()}) == 2);
  CHECK_THAT(format_alone.err.str(), Contains("give one of them"));
}

}  // namespace test_fsrs_fit
