// Shared by the print and export tests: golden files (PROOFDECK_UPDATE_GOLDENS=1 rewrites them),
// a bank whose every string is hostile to some output format, and small text helpers.
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

#ifndef PROOFDECK_GOLDEN_DIR
#define PROOFDECK_GOLDEN_DIR PROOFDECK_FIXTURE_DIR "/../golden"
#endif

namespace print_test {

namespace fs = std::filesystem;

// The folder of the worked example (questions/README.md), for --bank.
inline const std::string kWorkedBanks = std::string(PROOFDECK_FIXTURE_DIR) + "/../banks";

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);)
    lines.push_back(line);
  return lines;
}

inline std::size_t count(const std::string& text, const std::string& piece) {
  std::size_t found = 0;
  for (std::size_t at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1))
    ++found;
  return found;
}

inline std::string read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), {}};
}

// Compares with tests/golden/NAME byte for byte, or rewrites it when PROOFDECK_UPDATE_GOLDENS=1.
inline void check_golden(const std::string& name, const std::string& actual) {
  const fs::path golden = (fs::path(PROOFDECK_GOLDEN_DIR) / name).lexically_normal();
  const char* update = std::getenv("PROOFDECK_UPDATE_GOLDENS");
  if (update != nullptr && std::string(update) == "1") {
    fs::create_directories(golden.parent_path());
    std::ofstream(golden, std::ios::binary) << actual;
    WARN("rewrote " << golden.string());
    return;
  }
  if (!fs::exists(golden)) {
    FAIL_CHECK(golden.string() << " is missing; run the tests with PROOFDECK_UPDATE_GOLDENS=1");
    return;
  }
  const std::string expected = read_file(golden);
  if (actual == expected) {
    SUCCEED(golden.string() << " matches");
    return;
  }
  const fs::path written = fs::temp_directory_path() / ("proofdeck-actual-" + name);
  std::ofstream(written, std::ios::binary) << actual;
  const auto want = lines_of(expected), got = lines_of(actual);
  std::size_t line = 0;
  while (line < want.size() && line < got.size() && want[line] == got[line])
    ++line;
  FAIL_CHECK(golden.string() << " differs from the output, first at line " << line + 1 << ":\n"
                             << "  expected: "
                             << (line < want.size() ? want[line] : "(end of file)")
                             << "\n  actual:   " << (line < got.size() ? got[line] : "(end)")
                             << "\nsee: diff -u " << golden.string() << ' ' << written.string()
                             << "\naccept with: PROOFDECK_UPDATE_GOLDENS=1 and rerun the tests");
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
