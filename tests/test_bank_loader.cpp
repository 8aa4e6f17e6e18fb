// Loading banks: the worked example loads into the model; every broken variant is reported with
// its file and JSON pointer, what was expected and what was found, all problems at once.
#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bank/builtin.hpp"
#include "bank/loader.hpp"
#include "bank/proof.hpp"
#include "bank/sources.hpp"
#include "bank_test_support.hpp"
#include "cli_test_support.hpp"

namespace test_bank_loader {

using namespace proofdeck;
using namespace proofdeck::bank;
using bank_test::problems_of;
using bank_test::worked_example;
using cli_test::TempDir;
using nlohmann::json;

TEST_CASE("the worked example loads into the model", "[bank]") {
  const Bank bank = load_bank(worked_example().dump(2), "example.json");
  CHECK(bank.id == "example");
  CHECK(bank.topics.size() == 2);
  CHECK(bank.find_trap("mha-cuts-params")->name == "Multi-head attention cuts parameters");
  REQUIRE(bank.questions.size() == 3);

  const Question& single = bank.questions[0];
  CHECK(single.type == QuestionType::single);
  CHECK(single.pointer == "/questions/0");
  CHECK(single.options[1].correct);
  CHECK(single.options[0].trap == "mha-cuts-params");
  REQUIRE(single.options[0].claim.has_value());
  CHECK(single.options[0].claim->comparator == Comparator::lt);
  CHECK(single.proof->demo == "head-params");
  CHECK(single.proof->show == std::vector<std::string>{"total_h1", "total_h8", "ratio_h8_h1"});

  const Question& truefalse = bank.questions[1];
  CHECK_FALSE(truefalse.answer);
  CHECK(truefalse.trap == "attention-knows-order");
  CHECK(truefalse.proof->predicates.size() == 1);

  const Question& numeric = bank.questions[2];
  REQUIRE(numeric.templ.has_value());
  CHECK(numeric.templ->params.size() == 2);
  CHECK(numeric.templ->combinations == 24);  // every pair leaves a head at least 8 dimensions
  CHECK(numeric.key.computed == "per_head_qkv_h{heads}");
  CHECK(numeric.templ->answer->evaluate({{"d_model", 512}, {"heads", 8}}) == 98'304);
  CHECK(numeric.distractors[0].trap == "mha-cuts-params");
}

TEST_CASE("malformed JSON names the file, line and column", "[bank]") {
  REQUIRE_THROWS_WITH(load_bank("{\n  \"format\": 1,\n  \"bank\": }", "bank.json"),
                      "[proofdeck.json.parse] bank.json:3:11: syntax error while parsing value - "
                      "unexpected '}'; expected '[', '{', or a literal\n      \"bank\": }\n"
                      "              ^");
}

TEST_CASE("every problem of a bank is reported at once, each with its pointer", "[bank]") {
  json bank = worked_example();
  bank["questions"][0]["options"][0]["correct"] = true;
  bank["questions"][1]["topic"] = "attention";
  bank["questions"][2]["answer"].erase("tolerance");
  CHECK(problems_of(bank) ==
        std::vector<std::string>{
            "bank.json: /questions/0/options: a single question needs exactly one correct "
            "option; found 2 (a, b)",
            "bank.json: /questions/2/answer: a numeric answer needs a tolerance (0 for an exact "
            "answer)",
            "bank.json: /questions/1/topic: unknown topic 'attention'; the bank's topics: "
            "multi-head, positional"});
}

TEST_CASE("a bank's revised date is a date or a UTC date-time, kept as written", "[bank]") {
  json bank = worked_example();
  CHECK_FALSE(load_bank(bank.dump(), "bank.json").revised_at.has_value());
  bank["bank"]["revised"] = "2026-12-01";
  const Bank dated = load_bank(bank.dump(), "bank.json");
  CHECK(dated.revised == "2026-12-01");
  CHECK(format_time(*dated.revised_at) == "2026-12-01T00:00:00Z");
  bank["bank"]["revised"] = "2026-12-01T09:30:00Z";
  CHECK(format_time(*load_bank(bank.dump(), "bank.json").revised_at) == "2026-12-01T09:30:00Z");
  for (const char* wrong : {"2026-02-30", "2026-12-01T09:30:00+02:00", "1 December 2026", "2026"}) {
    bank["bank"]["revised"] = wrong;
    CHECK(problems_of(bank) ==
          std::vector<std::string>{fmt::format(
              "bank.json: /bank/revised: '{}' is not a date; expected an ISO-8601 date such as "
              "2026-12-01 or a UTC date-time such as 2026-12-01T09:00:00Z",
              wrong)});
  }
  bank["bank"]["revised"] = 20261201;
  CHECK(problems_of(bank) == std::vector<std::string>{"bank.json: /bank/revised: expected "
                                                      "non-empty text, found number 20261201"});
}

TEST_CASE("unknown keys are named with the keys that are allowed", "[bank]") {
  json bank = worked_example();
  bank["questions"][0]["hint"] = "think";
  const auto problems = problems_of(bank);
  REQUIRE(problems.size() == 1);
  CHECK_THAT(problems[0], Catch::StartsWith("bank.json: /questions/0/hint: unknown key 'hint'; "
                                            "expected one of id, type, topic"));
}

TEST_CASE("a wrong kind of value says what was expected and what was found", "[bank]") {
  json bank = worked_example();
  bank["questions"][1]["answer"] = "false";
  bank["questions"][0]["prompt"] = 42;
  CHECK(problems_of(bank) ==
        std::vector<std::string>{
            "bank.json: /questions/0/prompt: expected non-empty text, found number 42",
            "bank.json: /questions/1/answer: expected true or false, found string \"false\""});
}

TEST_CASE("references to traps and topics must exist", "[bank]") {
  json bank = worked_example();
  bank["questions"][0]["options"][0]["trap"] = "no-such-trap";
  CHECK(problems_of(bank) ==
        std::vector<std::string>{"bank.json: /questions/0/options/0/trap: unknown trap "
                                 "'no-such-trap'; the bank's traps: attention-knows-order, "
                                 "mha-cuts-params"});
  bank["questions"][0]["options"][0]["trap"] = "mha-cut-params";
  bank["questions"][1]["topic"] = "multihead";
  CHECK(problems_of(bank) ==
        std::vector<std::string>{
            "bank.json: /questions/0/options/0/trap: unknown trap 'mha-cut-params'; did you mean "
            "'mha-cuts-params'? (the bank's traps: attention-knows-order, mha-cuts-params)",
            "bank.json: /questions/1/topic: unknown topic 'multihead'; did you mean 'multi-head'? "
            "(the bank's topics: multi-head, positional)"});
}

TEST_CASE("duplicate ids are refused within a bank and across banks, naming both places",
          "[bank]") {
  json bank = worked_example();
  bank["questions"][2]["id"] = "mha-purpose";
  CHECK(problems_of(bank) ==
        std::vector<std::string>{
            "bank.json: /questions/2/id: question id 'mha-purpose' is used twice"});

  const Bank first = load_bank(worked_example().dump(), "one.json");
  json other = worked_example();
  other["bank"]["id"] = "other";
  const Bank second = load_bank(other.dump(), "two.json");
  try {
    check_unique_ids({first, second});
    FAIL("duplicates were not reported");
  } catch (const BankErrors& e) {
    REQUIRE(e.problems().size() == 3);
    CHECK(e.problems()[0] ==
          "two.json: /questions/0/id: question id 'mha-purpose' is already "
          "used at one.json: /questions/0");
  }
}

TEST_CASE("template formulas are parsed at load and may use only the template's parameters",
          "[bank]") {
  json bank = worked_example();
  bank["questions"][2]["template"]["answer"] = "3 * d_model * (d_model // head)";
  bank["questions"][2]["template"]["constraints"][0] = "d_model % heads ==";
  CHECK(problems_of(bank) ==
        std::vector<std::string>{
            "bank.json: /questions/2/template/constraints/0: unexpected end of formula at column "
            "19 in `d_model % heads ==`",
            "bank.json: /questions/2/template/answer: 'head' is not a template parameter; "
            "parameters: d_model, heads"});
}

TEST_CASE("a template whose constraints admit nothing, or too much, is refused", "[bank]") {
  json bank = worked_example();
  bank["questions"][2]["template"]["constraints"] = {"heads > d_model"};
  CHECK(problems_of(bank) ==
        std::vector<std::string>{"bank.json: /questions/2/template/constraints: the constraints "
                                 "admit no parameter combination"});
  bank["questions"][2]["template"]["constraints"] = json::array();
  json rows = json::array(), columns = json::array();
  for (int i = 1; i <= 65; ++i)
    rows.push_back(i);
  for (int i = 1; i <= 64; ++i)
    columns.push_back(i);
  bank["questions"][2]["template"]["params"] = {{"d_model", rows}, {"heads", columns}};
  CHECK(problems_of(bank) ==
        std::vector<std::string>{"bank.json: /questions/2/template/constraints: the constraints "
                                 "admit 4160 combinations; the limit is 4096"});
}

TEST_CASE("predicates need exactly one comparator of the right kind", "[bank]") {
  json bank = worked_example();
  bank["questions"][0]["options"][0]["claim"] = {{"value", "ratio_h8_h1"}, {"lt", 1}, {"gt", 0}};
  bank["questions"][0]["options"][1]["claim"] = {{"value", "ratio_h8_h1"}, {"is", 1}};
  CHECK(problems_of(bank) ==
        std::vector<std::string>{
            "bank.json: /questions/0/options/0/claim: a comparison takes one comparator; found "
            "lt, gt",
            "bank.json: /questions/0/options/1/claim/is: 'is' compares a true/false value; "
            "expected true or false, found number 1"});
}

TEST_CASE("keys of another question type are refused", "[bank]") {
  json bank = worked_example();
  bank["questions"][1]["options"] = bank["questions"][0]["options"];
  CHECK(problems_of(bank) ==
        std::vector<std::string>{
            "bank.json: /questions/1/options: 'options' does not apply to a truefalse question"});
}

TEST_CASE("hostile sizes are refused before they cost anything", "[bank]") {
  LoadLimits limits;
  limits.max_bytes = 100;
  REQUIRE_THROWS_WITH(load_bank(std::string(200, ' '), "big.json", limits),
                      "[proofdeck.io.too_large] big.json: 200 bytes is over the limit of 100 "
                      "bytes");
  std::string deep(40, '[');
  REQUIRE_THROWS_WITH(load_bank(deep, "deep.json"),
                      "[proofdeck.json.depth] deep.json: nesting deeper than 32 levels");
  json bank = worked_example();
  std::string long_text;
  for (int i = 0; i < 1400; ++i)
    long_text += "√";  // 3 bytes each: the limit counts bytes
  bank["questions"][0]["prompt"] = long_text;
  CHECK(problems_of(bank) == std::vector<std::string>{"bank.json: /questions/0/prompt: text of "
                                                      "4200 bytes is over the limit of 4000"});
}

TEST_CASE("an explanation may not name an option by its letter, since options are shuffled",
          "[bank]") {
  json bank = worked_example();
  bank["questions"][0]["explanation"] = "Option a is the parameter trap.";
  CHECK(problems_of(bank) ==
        std::vector<std::string>{"bank.json: /questions/0/explanation: refers to \"Option a\", "
                                 "but options are shuffled when asked, so a letter names a "
                                 "different option each time; name the option by what it says"});
  bank["questions"][0]["explanation"] = "An option about bias (a separate count) is not the point.";
  CHECK(problems_of(bank).empty());
}

TEST_CASE("a predicate that cannot depend on the computation is refused", "[bank]") {
  json bank = worked_example();
  bank["questions"][0]["options"][1]["claim"] = {{"value", "total_h8"},
                                                 {"eq", {{"value", "total_h8"}}}};
  bank["questions"][1]["claim"] = {{"any", json::array()}};
  CHECK(problems_of(bank) ==
        std::vector<std::string>{
            "bank.json: /questions/0/options/1/claim: compares 'total_h8' with itself, which "
            "holds (or fails) whatever the demo computes, so it proves nothing",
            "bank.json: /questions/1/claim/any: expected at least one predicate"});
}

TEST_CASE("a distractor formula may use only the template's parameters", "[bank]") {
  json bank = worked_example();
  bank["questions"][2]["distractors"].push_back(
      {{"formula", "3 * d_model * head"}, {"trap", "mha-cuts-params"}});
  CHECK(problems_of(bank) ==
        std::vector<std::string>{"bank.json: /questions/2/distractors/1/formula: 'head' is not a "
                                 "template parameter; parameters: d_model, heads"});

  json fixed = worked_example();
  json& q = fixed["questions"][2];
  q.erase("template");
  q["answer"] = {{"value", 786432}, {"tolerance", 0}};
  q["distractors"][0]["formula"] = "3 * d_model";
  CHECK(problems_of(fixed) ==
        std::vector<std::string>{"bank.json: /questions/2/distractors/0/formula: 'd_model' is not "
                                 "defined; only a question with a 'template' has parameters"});
}

TEST_CASE("the key and every distractor must evaluate in every combination a quiz may draw",
          "[bank]") {
  // A wrong answer is matched against the distractors; one that cannot be evaluated would end
  // the session, so it is refused at load, with the first combination that fails.
  json bank = worked_example();
  bank["questions"][2]["distractors"].push_back(
      {{"formula", "3 * d_model * d_model / (heads - 8)"}, {"trap", "mha-cuts-params"}});
  bank["questions"][2]["template"]["answer"] = "3 * d_model * sqrt(16 - heads)";
  CHECK(problems_of(bank) ==
        std::vector<std::string>{
            "bank.json: /questions/2/distractors/1/formula: division by zero at column 23 in "
            "`3 * d_model * d_model / (heads - 8)` with d_model = 256, heads = 8",
            "bank.json: /questions/2/template/answer: sqrt needs a number >= 0, got -16 at column "
            "15 in `3 * d_model * sqrt(16 - heads)` with d_model = 256, heads = 32"});

  json fixed = worked_example();
  fixed["questions"][2].erase("template");
  fixed["questions"][2]["answer"] = {{"value", 786432}, {"tolerance", 0}};
  fixed["questions"][2]["distractors"][0]["formula"] = "2 ^ 2000";
  CHECK(problems_of(fixed) ==
        std::vector<std::string>{"bank.json: /questions/2/distractors/0/formula: '^' overflows "
                                 "at column 3 in `2 ^ 2000`"});
}

// --- the proofs' problems listed with the file's own --------------------------------------------

namespace {

json builtin_bank(std::string_view name) {
  for (const EmbeddedBank& embedded : builtin_banks()) {
    if (embedded.name == name) return json::parse(embedded.text);
  }
  FAIL("no built-in bank " << name);
  return {};
}

// The problems of `bank` loaded as the one --bank file `file` of `dir`, its proofs checked against
// the demo catalog as every command checks them; none when it loads.
std::vector<std::string> problems_with_proofs(const json& bank, const TempDir& dir,
                                              const std::string& file) {
  dir.write(file, bank.dump());
  DemoRunner runner(kProofSeed);
  try {
    load_banks(BankSources{{(dir.path() / file).string()}, false}, ProofCheck{.runner = runner});
  } catch (const BankErrors& e) {
    return e.problems();
  }
  return {};
}

}  // namespace

TEST_CASE("an unknown demo is listed with the bank's schema problems, each at its pointer",
          "[bank][proof]") {
  json bank = builtin_bank("questions/modern-decoder.json");
  bank["questions"][0]["proof"]["demo"] = "no-such-demo";
  bank["questions"][1]["difficulty"] = "hard";
  bank["questions"][2]["topic"] = 7;
  TempDir dir;
  const std::string file = (dir.path() / "b.json").string();
  const std::vector<std::string> problems = problems_with_proofs(bank, dir, "b.json");
  REQUIRE(problems.size() == 3);
  CHECK(problems[0] ==
        file + ": /questions/1/difficulty: expected a number, found string \"hard\"");
  CHECK(problems[1] == file + ": /questions/2/topic: expected non-empty text, found number 7");
  std::vector<std::string> demos;
  for (const demo::DemoInfo& info : demo::catalog())
    demos.push_back(info.name);
  CHECK(problems[2] == file +
                           ": /questions/0/proof/demo: no demo named 'no-such-demo'; the demos: " +
                           fmt::format("{}", fmt::join(demos, ", ")));
}

TEST_CASE("a proof's problems are listed beside those in keys the proof does not read",
          "[bank][proof]") {
  json bank = worked_example();
  bank["questions"][0]["difficulty"] = 5;
  bank["questions"][0]["proof"]["show"] = json::array({"total_h9"});
  bank["questions"][1]["proof"]["args"] = {{"sentence", "cat bit dog"}};
  bank["questions"][1]["lint_allow"] = json::array({{{"rule", "no-such-rule"}, {"reason", "r"}}});
  TempDir dir;
  const std::vector<std::string> problems = problems_with_proofs(bank, dir, "bank.json");
  REQUIRE(problems.size() == 4);
  CHECK_THAT(problems[0],
             Catch::EndsWith("bank.json: /questions/0/difficulty: expected 1, 2 or 3"));
  CHECK_THAT(problems[1],
             Catch::Contains("bank.json: /questions/1/lint_allow/0/rule: no lint rule"));
  CHECK_THAT(problems[2],
             Catch::Contains("bank.json: /questions/0/proof/show/0: head-params has no "
                             "value 'total_h9'"));
  CHECK_THAT(problems[3], Catch::Contains("bank.json: /questions/1/proof/args/sentence: demo "
                                          "order-blindness has no parameter 'sentence'"));
}

TEST_CASE("a proof is not checked when a problem lies in what it reads, so none is listed twice",
          "[bank][proof]") {
  TempDir dir;
  // A control character in the demo's name: reported, and the name no longer names anything.
  json control = worked_example();
  control["questions"][0]["proof"]["demo"] = "head-params\u0007";
  const std::vector<std::string> named = problems_with_proofs(control, dir, "control.json");
  REQUIRE(named.size() == 1);
  CHECK_THAT(named[0], Catch::Contains("/questions/0/proof/demo: the text holds the control "
                                       "character U+0007 (bell)"));
  // A misspelt template: its parameters never reach the proof's "{heads}".
  json misspelt = worked_example();
  misspelt["questions"][2]["templte"] = misspelt["questions"][2]["template"];
  misspelt["questions"][2].erase("template");
  const std::vector<std::string> unread = problems_with_proofs(misspelt, dir, "misspelt.json");
  CHECK_FALSE(unread.empty());
  for (const std::string& problem : unread)
    CHECK_THAT(problem,
               Catch::Contains(": /questions/2/") && !Catch::Contains(": /questions/2/proof"));
  // A format this proofdeck does not read: no proof of it is checked.
  json format = worked_example();
  format["format"] = 2;
  format["questions"][0]["proof"]["demo"] = "no-such-demo";
  CHECK(problems_with_proofs(format, dir, "format.json").size() == 1);
}

}  // namespace test_bank_loader
