// The committed FSRS reference histories (tests/fixtures/fsrs_fit/, made with fsrs-rs 6.5.0's
// Node binding; tests/fixtures/README.md): read, and turned into the items the reference was given.
#pragma once

#include <array>
#include <catch2/catch.hpp>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "study/fsrs_item.hpp"

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

}  // namespace fsrs_fixtures
