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

// A small XML well-formedness check of an HTML document (the <style> element's CSS skipped):
// every tag closed in order or self-closed, attributes quoted, every '&' an entity. Returns what
// is wrong, or nothing.
inline std::string tag_problems(const std::string& html) {
  std::vector<std::string> open;
  for (std::size_t at = 0; at < html.size(); ++at) {
    if (html[at] == '&') {
      const std::size_t semicolon = html.find(';', at);
      const std::string entity =
          semicolon == std::string::npos ? "" : html.substr(at, semicolon - at + 1);
      if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" &&
          entity != "&#39;") {
        return "bare '&' at offset " + std::to_string(at);
      }
      continue;
    }
    if (html[at] != '<') continue;
    const std::size_t end = html.find('>', at);
    if (end == std::string::npos) return "unterminated tag at offset " + std::to_string(at);
    const std::string tag = html.substr(at + 1, end - at - 1);
    at = end;
    if (tag.rfind("!DOCTYPE", 0) == 0) continue;
    if (tag.empty() || tag[0] == '!') return "unexpected markup <" + tag + ">";
    if (tag == "style") {
      const std::size_t close = html.find("</style>", at);
      if (close == std::string::npos) return "<style> never closed";
      at = close + std::string("</style>").size() - 1;
      continue;
    }
    if (tag[0] == '/') {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name)
        return "</" + name + "> closes <" + (open.empty() ? "nothing" : open.back()) + ">";
      open.pop_back();
      continue;
    }
    const std::string name = tag.substr(0, tag.find_first_of(" /\n"));
    for (std::size_t eq = tag.find('='); eq != std::string::npos; eq = tag.find('=', eq + 1)) {
      const std::size_t quote = tag.find_first_of("\"'", eq);
      const std::size_t close =
          quote == std::string::npos ? quote : tag.find(tag[quote], quote + 1);
      if (quote != eq + 1 || close == std::string::npos)
        return "unquoted attribute in <" + tag + ">";
      eq = close;
    }
    if (tag.back() != '/') open.push_back(name);
  }
  return open.empty() ? "" : "<" + open.back() + "> never closed";
}

}  // namespace print_test
