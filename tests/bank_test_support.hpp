// Shared by the bank, proof and study tests: the worked example of questions/README.md (kept
// equal to tests/banks/worked_example.json by tests/validate_banks.py), as JSON to vary.
#pragma once

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bank/loader.hpp"

namespace bank_test {

inline nlohmann::json worked_example() {
  std::ifstream file(std::string(PROOFDECK_FIXTURE_DIR) + "/../banks/worked_example.json");
  REQUIRE(file.good());
  return nlohmann::json::parse(file);
}

// The problems load_bank reports for `bank` as "bank.json", or none when it loads.
inline std::vector<std::string> problems_of(const nlohmann::json& bank) {
  try {
    proofdeck::bank::load_bank(bank.dump(), "bank.json");
  } catch (const proofdeck::bank::BankErrors& e) {
    return e.problems();
  }
  return {};
}

}  // namespace bank_test
