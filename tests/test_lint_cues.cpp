// check --lint's testwise-cue and literal-measured rules: the exact tail of a strategy's credit
// and Holm's correction; fixture banks of 20 questions that plant one cue each (the key
// second-longest in 16 of 20, the key sharing most words with the other options, longer
// statements true) caught after correction, and one without a cue that passes; the logit from 30
// questions; --cues' table and JSON; a number a proof measured, planted in a built-in
// explanation, caught.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/builtin.hpp"
#include "bank/cue_stats.hpp"
#include "bank/lint.hpp"
#include "bank/loader.hpp"
#include "bank/proof.hpp"
#include "cli_test_support.hpp"

namespace test_lint_cues {

using namespace cli_test;
using Catch::Matchers::Contains;
using nlohmann::json;
using namespace proofdeck::bank;

namespace {

// Every outcome of the draws enumerated: the probability of earning at least what they earned.
double brute_force_p(const std::vector<CueDraw>& draws) {
  const double observed = credit(draws);
  double tail = 0.0;
  const std::size_t n = draws.size();
  for (std::size_t mask = 0; mask < (std::size_t{1} << n); ++mask) {
    double p = 1.0, total = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const double hit = static_cast<double>(draws[i].tied) / draws[i].options;
      const bool earned = (mask >> i) & 1U;
      p *= earned ? hit : 1.0 - hit;
      total += earned ? 1.0 / draws[i].tied : 0.0;
    }
    if (total >= observed - 1e-12) tail += p;
  }
  return tail;
}

// A word no other option of the fixture shares: letters only, from a counter.
std::string fresh_word() {
  static int next = 0;
  std::string word;
  for (int n = next++; word.size() < 4 || n > 0; n /= 20)
    word += static_cast<char>('b' + n % 20);
  return word;
}

// An option of exactly `columns` columns whose words no other option has.
std::string option_text(int columns) {
  std::string text = fresh_word() + " " + fresh_word();
  while (static_cast<int>(text.size()) < columns)
    text += 'e';
  return text.substr(0, static_cast<std::size_t>(columns));
}

json single(int n, const std::vector<std::string>& texts, std::size_t key) {
  json options = json::array();
  for (std::size_t i = 0; i < texts.size(); ++i) {
    json option = {{"id", std::string(1, static_cast<char>('a' + i))}, {"text", texts[i]}};
    if (i == key) {
      option["correct"] = true;
    } else {
      option["trap"] = "heads-cut";
    }
    options.push_back(option);
  }
  const std::string id = "cue-" + std::to_string(n);
  return {{"id", id},
          {"type", "single"},
          {"topic", "heads"},
          {"concept", id},
          {"prompt", "Which statement about case " + std::to_string(n) + " holds?"},
          {"options", options},
          {"explanation", "Each head reads a slice of the width."},
          {"source", {{"section", "Identity statement"}}}};
}

json truefalse(int n, int columns, bool answer) {
  const std::string id = "tf-" + std::to_string(n);
  return {{"id", id},
          {"type", "truefalse"},
          {"topic", "heads"},
          {"concept", id},
          {"prompt", option_text(columns) + "."},
          {"answer", answer},
          {"trap", "heads-cut"},
          {"explanation", "Each head reads a slice of the width."},
          {"source", {{"section", "Identity statement"}}}};
}

json bank_of(json questions) {
  return {{"format", 1},
          {"bank", {{"id", "cues"}, {"title", "Cues"}, {"lesson", "lesson"}}},
          {"topics", json::array({{{"id", "heads"}, {"name", "Heads"}}})},
          {"traps", json::array({{{"id", "heads-cut"},
                                  {"name", "Heads cut parameters"},
                                  {"misconception", "Splitting attention saves weights."},
                                  {"correction", "The heads hold one full head's weights."},
                                  {"source", {{"section", "Identity statement"}}}}})},
          {"questions", std::move(questions)}};
}

// Four options of 40, 34, 28 and 22 columns, in an order that turns with n; the key is the one of
// rank `rank` (0 the longest).
json by_length(int n, int rank) {
  const std::vector<int> columns = {40, 34, 28, 22};
  std::vector<std::string> texts(4);
  std::size_t key = 0;
  for (int r = 0; r < 4; ++r) {
    const auto at = static_cast<std::size_t>((r + n) % 4);
    texts[at] = option_text(columns[static_cast<std::size_t>(r)]);
    if (r == rank) key = at;
  }
  return single(n, texts, key);
}

// The key second-longest in `cued` of `items` questions, anywhere else in the rest.
json second_longest_bank(int items, int cued) {
  json questions = json::array();
  for (int n = 0; n < items; ++n)
    questions.push_back(by_length(n, n < cued ? 1 : (n % 3 == 0 ? 0 : n % 3 + 1)));
  return bank_of(questions);
}

// Options of one length; the key's three words each shared with two of the three distractors.
json convergence_bank() {
  json questions = json::array();
  for (int n = 0; n < 20; ++n) {
    const std::string a = fresh_word(), b = fresh_word(), c = fresh_word();
    std::vector<std::string> texts = {a + " " + b + " " + c, a + " " + b + " " + fresh_word(),
                                      a + " " + c + " " + fresh_word(),
                                      b + " " + c + " " + fresh_word()};
    const auto key = static_cast<std::size_t>(n % 4);
    std::swap(texts[0], texts[key]);
    questions.push_back(single(n, texts, key));
  }
  return bank_of(questions);
}

// The key at each length rank equally often, no words shared: no strategy has anything to read.
json cue_free_bank() {
  json questions = json::array();
  for (int n = 0; n < 20; ++n)
    questions.push_back(by_length(n, n % 4));
  return bank_of(questions);
}

LintReport lint_of(const json& bank) {
  return lint({load_bank(bank.dump(), "cues.json")});
}

const CueStrategy* strategy(const LintReport& report, const std::string& name) {
  for (const CueAudit& audit : report.cues) {
    for (const CueStrategy& s : audit.strategies) {
      if (s.name == name) return &s;
    }
  }
  return nullptr;
}

std::vector<std::string> cue_findings(const LintReport& report) {
  std::vector<std::string> out;
  for (const LintFinding& f : report.findings) {
    if (f.rule == "testwise-cue") out.push_back(f.message);
  }
  return out;
}

}  // namespace

TEST_CASE(
    "a strategy's p is the exact chance of earning as much, ties and mixed option counts "
    "included",
    "[lint][cues]") {
  CHECK(credit_p_value({{1, 4, true}}) == Approx(0.25));
  CHECK(credit_p_value({{1, 4, true}, {1, 4, true}}) == Approx(1.0 / 16));
  CHECK(credit_p_value({{1, 4, false}}) == Approx(1.0));
  CHECK(credit_p_value({{4, 4, true}}) == Approx(1.0));  // a tie of all options is a guess
  CHECK(credit_p_value({{2, 4, true}}) == Approx(0.5));
  const std::vector<CueDraw> mixed = {{1, 4, true},  {1, 5, false}, {2, 4, true}, {1, 2, true},
                                      {3, 5, false}, {1, 3, true},  {2, 6, true}, {1, 4, false},
                                      {1, 5, true},  {3, 4, true}};
  CHECK(credit_p_value(mixed) == Approx(brute_force_p(mixed)).epsilon(1e-12));
  CHECK(credit(mixed) == Approx(1 + 0.5 + 1 + 1 + 0.5 + 1 + 1.0 / 3));
  CHECK(chance(mixed) ==
        Approx(0.25 + 0.2 + 0.25 + 0.5 + 0.2 + 1.0 / 3 + 1.0 / 6 + 0.25 + 0.2 + 0.25));
}

TEST_CASE("Holm multiplies the k-th smallest p by the hypotheses left, monotone and at most 1",
          "[lint][cues]") {
  const std::vector<double> adjusted = holm({0.01, 0.04, 0.03, 0.5});
  CHECK(adjusted[0] == Approx(0.04));
  CHECK(adjusted[2] == Approx(0.09));
  CHECK(adjusted[1] == Approx(0.09));  // 2 × 0.04 = 0.08, raised to keep the order
  CHECK(adjusted[3] == Approx(0.5));
  CHECK(holm({0.6, 0.7}) == std::vector<double>{1.0, 1.0});
}

TEST_CASE("testwise-cue: the key second-longest in 16 of 20 questions is caught after correction",
          "[lint][cues]") {
  const LintReport report = lint_of(second_longest_bank(20, 16));
  const CueStrategy* second = strategy(report, "second-longest");
  REQUIRE(second != nullptr);
  CHECK(second->credit == Approx(16));
  CHECK(second->chance == Approx(5));
  CHECK(second->p_holm < 0.05);
  CHECK(second->p_holm >= second->p);
  const std::vector<std::string> found = cue_findings(report);
  REQUIRE_FALSE(found.empty());
  CHECK_THAT(found.front(), Contains("picks the second-longest option earns 16.0 of 20 single "
                                     "questions (80%), where guessing earns 5.0 (25%)"));
  CHECK_THAT(found.front(), Contains("It wins on cue-0, cue-1"));
  CHECK(strategy(report, "logit") == nullptr);  // fewer than 30 single questions
}

TEST_CASE("testwise-cue: the key sharing most words with the other options is caught",
          "[lint][cues]") {
  const LintReport report = lint_of(convergence_bank());
  const CueStrategy* convergence = strategy(report, "convergence");
  REQUIRE(convergence != nullptr);
  CHECK(convergence->credit == Approx(20));
  CHECK(convergence->p_holm < 0.05);
  CHECK(strategy(report, "longest")->credit == Approx(5));  // one length: a guess
  const std::vector<std::string> found = cue_findings(report);
  REQUIRE(found.size() == 1);
  CHECK_THAT(found.front(), Contains("sharing most words with the other options"));
}

TEST_CASE("testwise-cue: a bank whose keys sit at every length rank alike passes", "[lint][cues]") {
  const LintReport report = lint_of(cue_free_bank());
  CHECK(cue_findings(report).empty());
  for (const std::string name : {"longest", "second-longest", "shortest"})
    CHECK(strategy(report, name)->credit == Approx(5));
  CHECK(strategy(report, "middle-length")->credit == Approx(5));
}

TEST_CASE("testwise-cue: fewer than 10 single questions are not measured", "[lint][cues]") {
  const LintReport report = lint_of(second_longest_bank(9, 9));
  CHECK(report.cues.empty());
  CHECK(cue_findings(report).empty());
}

TEST_CASE(
    "testwise-cue: longer true/false statements true is caught, and a bank waiver silences it",
    "[lint][cues]") {
  json questions = json::array();
  for (int n = 0; n < 20; ++n) {
    const bool answer = n % 2 == 0;
    questions.push_back(truefalse(n, answer ? 70 + n : 40 + n, answer));
  }
  json bank = bank_of(questions);
  const LintReport report = lint_of(bank);
  REQUIRE(report.cues.size() == 1);
  CHECK(report.cues[0].type == "truefalse");
  CHECK(strategy(report, "longer-is-true")->credit == Approx(20));
  const std::vector<std::string> found = cue_findings(report);
  REQUIRE(found.size() == 1);
  CHECK_THAT(found.front(), Contains("answers true to the longer statements earns 20.0 of 20"));

  bank["bank"]["lint_allow"] =
      json::array({{{"rule", "testwise-cue"}, {"reason", "A fixture of long true statements."}}});
  CHECK(cue_findings(lint_of(bank)).empty());
}

TEST_CASE(
    "testwise-cue: from 30 single questions a logit fitted without each question weighs "
    "every feature, and finds a cue one of them carries",
    "[lint][cues]") {
  const LintReport cued = lint_of(second_longest_bank(32, 24));
  const CueStrategy* logit = strategy(cued, "logit");
  REQUIRE(logit != nullptr);
  CHECK(logit->credit >= 24);
  CHECK(logit->p_holm < 0.05);

  json questions = json::array();
  for (int n = 0; n < 32; ++n)
    questions.push_back(by_length(n, n % 4));
  const LintReport cue_free = lint_of(bank_of(questions));
  const CueStrategy* fair = strategy(cue_free, "logit");
  REQUIRE(fair != nullptr);
  CHECK(fair->p_holm >= 0.05);
}

TEST_CASE("check --lint --cues: a table per bank, and \"cues\" in the JSON", "[lint][cues][cli]") {
  TempDir dir;
  const std::string path = dir.write("cues.json", second_longest_bank(20, 16).dump(2));
  const std::vector<std::string> common = {"check", "--no-builtin", "--bank",
                                           path,    "--color",      "never"};
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = common;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  Cli text;
  REQUIRE(text.run(with({"--lint", "--cues"})) == 0);
  CHECK_THAT(text.out.str(), Contains("  cues · 20 single questions\n"));
  CHECK_THAT(text.out.str(), Contains("    second-longest     16.0  80%     5.0  25%"));
  Cli narrow;  // at 50 columns the shares and the uncorrected p give way
  REQUIRE(narrow.run(with({"--lint", "--cues", "--width", "50"})) == 0);
  CHECK_THAT(narrow.out.str(), Contains("    strategy         earns  guess   p Holm\n"));
  CHECK_THAT(narrow.out.str(), Contains("    second-longest    16.0    5.0  "));

  Cli json_cli;
  REQUIRE(json_cli.run(with({"--lint", "--cues", "--format", "json"})) == 0);
  const json report = json::parse(json_cli.out.str());
  const json& cues = report.at("cues");
  REQUIRE(cues.size() == 1);
  CHECK(cues[0].at("bank") == "cues");
  CHECK(cues[0].at("type") == "single");
  CHECK(cues[0].at("items") == 20);
  const json& first = cues[0].at("strategies").at(0);
  CHECK(first.at("name") == "longest");
  for (const char* field : {"credit", "chance", "p", "p_holm"})
    CHECK(first.at(field).is_number());

  Cli no_cues;
  REQUIRE(no_cues.run(with({"--lint", "--format", "json"})) == 0);
  CHECK_FALSE(json::parse(no_cues.out.str()).contains("cues"));

  Cli strict;
  CHECK(strict.run(with({"--lint", "--strict"})) == 1);
  CHECK_THAT(strict.out.str(), Contains("lint testwise-cue cues:"));

  Cli alone;
  CHECK(alone.run(with({"--cues"})) == 2);
  CHECK_THAT(alone.err.str(), Contains("give it with --lint"));
}

TEST_CASE("literal-measured: a number the proof measured is caught written out, not quoted",
          "[lint][cues][literal]") {
  json bank;
  for (const EmbeddedBank& embedded : builtin_banks()) {
    if (embedded.name == "questions/modern-decoder.json") bank = json::parse(embedded.text);
  }
  REQUIRE_FALSE(bank.is_null());
  json* question = nullptr;
  for (json& q : bank["questions"]) {
    if (q["id"] == "dec-pi-mechanism") question = &q;
  }
  REQUIRE(question != nullptr);
  std::string explanation = (*question)["explanation"];
  const std::string quoted = "{value:scaled_position}";
  REQUIRE(explanation.find(quoted) != std::string::npos);

  const auto literal_findings = [](const json& content) {
    DemoRunner runner = proof_runner(kProofSeed);
    std::vector<std::string> out;
    for (const LintFinding& f :
         lint({load_bank(content.dump(), "modern-decoder.json")}, &runner).findings) {
      if (f.rule == "literal-measured") out.push_back(f.id + ": " + f.message);
    }
    return out;
  };
  CHECK(literal_findings(bank).empty());
  explanation.replace(explanation.find(quoted), quoted.size(), "2,047.5");
  (*question)["explanation"] = explanation;
  const std::vector<std::string> found = literal_findings(bank);
  REQUIRE(found.size() == 1);
  CHECK_THAT(found.front(), Contains("dec-pi-mechanism: the explanation writes 2,047.5, which is "
                                     "scaled_position (2,047.5), measured by its proof: quote it "
                                     "as {value:scaled_position}"));
}

}  // namespace test_lint_cues
