// Shared by the print and export tests: golden files (tests/golden.hpp), a bank whose every string
// is hostile to some output format, and small text helpers.
#pragma once

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "bank/sources.hpp"
#include "bank_test_support.hpp"
#include "golden.hpp"
#include "html_test_support.hpp"

namespace print_test {

namespace fs = std::filesystem;

// The folder of the worked example (questions/README.md), for --bank.
inline const std::string kWorkedBanks = std::string(PROOFDECK_FIXTURE_DIR) + "/../banks";

using proofdeck::testing::check_golden;
using proofdeck::testing::lines_of;
using proofdeck::testing::read_file;

inline std::size_t count(const std::string& text, const std::string& piece) {
  std::size_t found = 0;
  for (std::size_t at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1))
    ++found;
  return found;
}

// What the built-in banks hold (they grow while these tests stand still).
struct BuiltinCounts {
  std::size_t questions = 0, topics = 0, truefalse = 0, numeric = 0, order = 0;
  std::map<std::string, std::size_t> per_bank;
};

inline BuiltinCounts builtin_counts() {
  BuiltinCounts counts;
  for (const auto& bank : proofdeck::bank::load_banks(proofdeck::bank::BankSources{{}, true})) {
    counts.topics += bank.topics.size();
    counts.per_bank[bank.id] = bank.questions.size();
    for (const auto& q : bank.questions) {
      ++counts.questions;
      counts.truefalse += q.type == proofdeck::bank::QuestionType::truefalse;
      counts.numeric += q.type == proofdeck::bank::QuestionType::numeric;
      counts.order += q.type == proofdeck::bank::QuestionType::order;
    }
  }
  return counts;
}

// Every character some format acts on, in one string.
inline const std::string kHostile =
    "<script>alert(1)</script> & \"q\" 'a' ~ = # { } : \\ | *b* _u_ `t` [l](x) $m$\ttab\nline";

// The worked example with hostile text in the title, a topic, a trap, the first question's
// prompt, options and explanation, and an option's feedback.
inline nlohmann::json hostile_bank() {
  nlohmann::json bank = bank_test::worked_example();
  bank["bank"]["title"] = "Title " + kHostile;
  bank["topics"][0]["name"] = "Topic " + kHostile;
  bank["traps"][0]["name"] = "Trap " + kHostile;
  bank["traps"][0]["correction"] = "Correction " + kHostile;
  auto& question = bank["questions"][0];
  question["prompt"] = "Prompt " + kHostile;
  question["options"][0]["text"] = "Wrong " + kHostile;
  question["options"][1]["text"] = "Right " + kHostile;
  question["options"][1]["feedback"] = "Feedback " + kHostile;
  question["explanation"] = "Explanation " + kHostile;
  return bank;
}

using html_test::tag_problems;

}  // namespace print_test
