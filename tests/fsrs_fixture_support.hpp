// The committed FSRS reference histories (tests/fixtures/fsrs_fit/, made with fsrs-rs 6.5.0's
// Node binding; tests/fixtures/README.md): read, and turned into the items the reference was given.
#pragma once

#include <array>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "study/fsrs_item.hpp"
#include "study/progress.hpp"

namespace fsrs_fixtures {

inline nlohmann::json fixture(const std::string& name) {
  std::ifstream in(std::string(PROOFDECK_FIXTURE_DIR) + "/fsrs_fit/" + name + ".json");
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

// The items in the order the reference was given them: [card, last] is the card's reviews up to
// and including `last`.
inline std::vector<proofdeck::study::FsrsItem> items_of(const nlohmann::json& history) {
  std::vector<proofdeck::study::FsrsItem> items;
  for (const nlohmann::json& ref : history.at("items")) {
    const nlohmann::json& card = history.at("cards").at(ref.at(0).get<std::size_t>());
    proofdeck::study::FsrsItem item;
    for (std::size_t i = 0; i <= ref.at(1).get<std::size_t>(); ++i)
      item.push_back({card.at(i).at(0).get<int>(), card.at(i).at(1).get<int>()});
    items.push_back(std::move(item));
  }
  return items;
}

inline std::array<double, 21> weights_of(const nlohmann::json& list) {
  std::array<double, 21> weights{};
  REQUIRE(list.size() == 21);
  for (std::size_t i = 0; i < 21; ++i)
    weights[i] = list.at(i).get<double>();
  return weights;
}

// The history recorded as a learner's drill reviews in `dir`'s progress database, in the order the
// reference was given its items, a second apart; each review leaves its card in review, due a
// day later.
inline void record_history(const std::filesystem::path& dir, const nlohmann::json& history) {
  using namespace proofdeck::study;
  ProgressStore store = ProgressStore::open(dir);
  std::vector<std::size_t> recorded(history.at("cards").size(), 0);
  std::int64_t second = 0;
  for (const nlohmann::json& ref : history.at("items")) {
    const auto card = ref.at(0).get<std::size_t>();
    const nlohmann::json& reviews = history.at("cards").at(card);
    for (; recorded[card] <= ref.at(1).get<std::size_t>(); ++recorded[card]) {
      const nlohmann::json& review = reviews.at(recorded[card]);
      AnswerRecord answer;
      answer.card = "card-" + std::to_string(card);
      answer.at = proofdeck::TimePoint(std::chrono::seconds(1'700'000'000 + ++second));
      answer.mode = "drill";
      answer.correct = review.at(0).get<int>() > 1;
      answer.rating = static_cast<Rating>(review.at(0).get<int>());
      answer.elapsed_days = review.at(1).get<int>();
      Card schedule;
      schedule.state = CardState::review;
      schedule.stability = 1.0;
      schedule.difficulty = 5.0;
      schedule.last_review = answer.at;
      schedule.due = answer.at + std::chrono::hours(24);
      schedule.reps = static_cast<int>(recorded[card]) + 1;
      store.record(answer, schedule);
    }
  }
}

}  // namespace fsrs_fixtures
