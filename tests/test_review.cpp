// questions/REVIEW.md answers the independent reviews of the built-in banks (verbatim copies in
// tests/review_fixtures/): every finding has a row with a decision and its evidence, no
// severity-2 finding is kept, and what REVIEW.md says was removed or merged is what the built-in
// banks hold. The lesson bank's report names items "id (#n)" in its first column; the report on
// the other three banks names them by id in its second, after the bank.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bank/loader.hpp"

namespace test_review {

using namespace proofdeck::bank;

namespace {

std::string read(const std::string& path) {
  std::ifstream file(path);
  REQUIRE(file.good());
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// A Markdown table row's cells, trimmed; empty for a line that is not a row or is a rule.
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  if (line.size() < 2 || line.front() != '|') return out;
  std::string cell;
  for (std::size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '|') {
      const auto first = cell.find_first_not_of(' ');
      const auto last = cell.find_last_not_of(' ');
      out.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
      cell.clear();
    } else {
      cell += line[i];
    }
  }
  if (!out.empty() && out[0].find_first_not_of("-: ") == std::string::npos) out.clear();
  return out;
}

// The question ids a cell names: "name (#12)" in the lesson bank's tables, bare kebab-case ids
// ("dec-swiglu-structure, dec-swiglu-at-4x-ratio") in the other report's.
std::set<std::string> item_ids(const std::string& cell, bool bare) {
  static const std::regex numbered(R"(([a-z0-9][a-z0-9-]*) \(#\d+\))");
  static const std::regex kebab(R"([a-z][a-z0-9]*(?:-[a-z0-9]+)+)");
  std::set<std::string> ids;
  const std::regex& pattern = bare ? kebab : numbered;
  for (auto it = std::sregex_iterator(cell.begin(), cell.end(), pattern);
       it != std::sregex_iterator(); ++it)
    ids.insert(bare ? it->str() : (*it)[1].str());
  return ids;
}

struct Row {
  std::string item;  // the item cell as written
  std::string severity;
  std::string decision;
  std::string evidence;
};

// Where a table keeps what: the lesson bank's tables start with the item, the others with the
// bank and then the item. `decision` and `evidence` past the row's end read as empty.
struct Layout {
  std::string header;  // the header's first two cells, "a|b", which pick the tables
  std::size_t item, severity, decision, evidence;
  bool bare;  // ids written bare (the second report) or as "id (#n)"
};

const Layout kLessonReport{"question id|sev", 0, 1, 99, 99, false};
const Layout kOtherReport{"bank|question id", 1, 2, 99, 99, true};
const Layout kLessonAnswers{"item|sev", 0, 1, 4, 5, false};
const Layout kOtherAnswers{"bank|item", 1, 2, 5, 6, true};

// The finding rows of a Markdown document's tables whose header starts with the layout's cells.
std::vector<Row> rows(const std::string& text, const Layout& layout) {
  std::vector<Row> out;
  std::istringstream in(text);
  std::string line;
  bool in_table = false;
  const auto cell = [](const std::vector<std::string>& row, std::size_t i) {
    return i < row.size() ? row[i] : std::string();
  };
  while (std::getline(in, line)) {
    const auto row = cells(line);
    if (row.empty()) {
      in_table = in_table && line.rfind('|', 0) == 0;  // a rule line keeps the table open
      continue;
    }
    if (row[0] + "|" + cell(row, 1) == layout.header) {
      in_table = true;
      continue;
    }
    if (!in_table || row.size() <= layout.severity) continue;
    out.push_back(Row{cell(row, layout.item), cell(row, layout.severity),
                      cell(row, layout.decision), cell(row, layout.evidence)});
  }
  return out;
}

const std::string kQuestions = std::string(PROOFDECK_FIXTURE_DIR) + "/../../questions/";
const std::string kReports = std::string(PROOFDECK_FIXTURE_DIR) + "/../review_fixtures/";

// Each report with how it and its answers lay out their tables.
struct Report {
  std::string file;
  Layout findings, answers;
  std::size_t rows;  // how many finding rows the report holds
};
const std::vector<Report> kReports_ = {
    {"2026-12-02-transformer-layer.md", kLessonReport, kLessonAnswers, 63},
    {"2026-12-02-modern-sdpa-architectures.md", kOtherReport, kOtherAnswers, 44}};

}  // namespace

TEST_CASE("REVIEW.md has a row for every item and bank-level finding of the reviews",
          "[review][builtin]") {
  const std::string review = read(kQuestions + "REVIEW.md");
  for (const Report& report : kReports_) {
    INFO(report.file);
    const auto findings = rows(read(kReports + report.file), report.findings);
    CHECK(findings.size() == report.rows);
    std::set<std::string> answered_ids;
    std::set<std::string> answered_rows;
    for (const Row& a : rows(review, report.answers)) {
      answered_rows.insert(a.item);
      for (const std::string& id : item_ids(a.item, report.answers.bare))
        answered_ids.insert(id);
    }
    for (const Row& f : findings) {
      INFO("review row: " << f.item);
      const auto ids = item_ids(f.item, report.findings.bare);
      if (ids.empty()) CHECK(answered_rows.count(f.item) == 1);  // "(bank) …", named as written
      for (const std::string& id : ids) {
        INFO(id);
        CHECK(answered_ids.count(id) == 1);
      }
    }
  }
}

TEST_CASE("REVIEW.md: every row decides and gives its evidence, and no severity 2 is kept",
          "[review][builtin]") {
  std::vector<Row> answers;
  for (const Report& report : kReports_) {
    const auto these = rows(read(kQuestions + "REVIEW.md"), report.answers);
    CHECK(these.size() >= report.rows);
    answers.insert(answers.end(), these.begin(), these.end());
  }
  // "fixed", "kept", "removed", "merged into ID", or one per item of a row naming several
  // ("fixed (#73); merged into ln-variable-length (#74)").
  static const std::regex decision(R"(^(#\d+ )?(fixed|kept|removed|merged into [a-z0-9-]+)\b)");
  for (const Row& a : answers) {
    INFO(a.item << " · " << a.decision);
    CHECK(std::regex_search(a.decision, decision));
    CHECK(a.evidence.size() >= 20);
    for (const char* empty : {"minor", "by design", "style"}) {
      CHECK(a.evidence != empty);
      CHECK(a.evidence.rfind(std::string(empty) + ".", 0) != 0);
    }
    // A severity-2 finding is fixed, in the item or in the item it was merged into.
    if (a.severity == "2") CHECK(a.decision.find("kept") == std::string::npos);
  }
}

TEST_CASE("REVIEW.md's removed and merged items are gone, and what they merged into is there",
          "[review][builtin]") {
  std::set<std::string> loaded;
  for (const Bank& bank : load_banks(BankSources{{}, true}))
    for (const Question& q : bank.questions)
      loaded.insert(q.id);
  std::size_t removed = 0;
  for (const Report& report : kReports_) {
    for (const Row& a : rows(read(kQuestions + "REVIEW.md"), report.answers)) {
      INFO(a.item << " · " << a.decision);
      const bool merged = a.decision.rfind("merged into ", 0) == 0;
      if (a.decision != "removed" && !merged) continue;
      ++removed;
      static const std::regex target(R"(^merged into ([a-z0-9-]+))");
      std::smatch found;
      const std::string into =
          merged && std::regex_search(a.decision, found, target) ? found[1].str() : "";
      if (merged) CHECK(loaded.count(into) == 1);
      const auto ids = item_ids(a.item, report.answers.bare);
      REQUIRE_FALSE(ids.empty());
      for (const std::string& id : ids)
        if (id != into) CHECK(loaded.count(id) == 0);
    }
  }
  CHECK(removed > 0);
}

TEST_CASE("no order question lists its step ids in key order, where an id could give it away",
          "[review][builtin]") {
  // The review's "order items" row: ids s1, s2, … or a, b, … in key order cue the answer to
  // anyone who sees them (an export, a log, a renderer that shows them).
  for (const Bank& bank : load_banks(BankSources{{}, true})) {
    for (const Question& q : bank.questions) {
      if (q.type != QuestionType::order) continue;
      std::vector<std::string> ids;
      for (const auto& step : q.steps)
        ids.push_back(step.id);
      INFO(bank.id << ": " << q.id);
      CHECK_FALSE(std::is_sorted(ids.begin(), ids.end()));
    }
  }
}

}  // namespace test_review
