// `requires`: what a bank or a topic needs first, and the one order it gives the loaded banks'
// topics (drill's new cards, list) — checked where banks combine, every unknown id and every
// cycle reported with its file and pointer.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bank/prerequisites.hpp"
#include "bank/sources.hpp"
#include "bank_test_support.hpp"
#include "cli_test_support.hpp"

namespace test_prerequisites {

using namespace proofdeck::bank;
using bank_test::problems_of;
using bank_test::worked_example;
using Catch::Matchers::Contains;
using cli_test::Cli;
using cli_test::TempDir;
using nlohmann::json;

namespace {

// A bank with no questions: its id, its lesson, and its topics as {id, requires...} (an empty
// `requires` left out); bank_requires, when given, is the bank's own `requires`.
json bank_json(const std::string& id, const std::string& lesson,
               const std::vector<std::vector<std::string>>& topics,
               const std::vector<std::string>& bank_requires = {}) {
  json bank{{"format", 1},
            {"bank", {{"id", id}, {"title", id}, {"lesson", lesson}}},
            {"topics", json::array()},
            {"traps", json::array()},
            {"questions", json::array()}};
  if (!bank_requires.empty()) bank["bank"]["requires"] = bank_requires;
  for (const auto& topic : topics) {
    json item{{"id", topic.front()}, {"name", topic.front()}};
    if (topic.size() > 1)
      item["requires"] = std::vector<std::string>(topic.begin() + 1, topic.end());
    bank["topics"].push_back(item);
  }
  return bank;
}

Bank loaded(const json& bank) {
  return load_bank(bank.dump(), bank["bank"]["id"].get<std::string>() + ".json");
}

// The topics in study order, as "bank/topic".
std::vector<std::string> order_of(const std::vector<Bank>& banks) {
  std::vector<std::string> order;
  const StudyOrder study_order(banks);
  for (const OrderedTopic& t : study_order.topics())
    order.push_back(t.bank->id + "/" + t.topic->id);
  return order;
}

// The problems the order reports for `banks`, or none.
std::vector<std::string> order_problems(const std::vector<Bank>& banks) {
  try {
    check_prerequisites(banks);
  } catch (const BankErrors& e) {
    return e.problems();
  }
  return {};
}

const std::string kLesson(kLessonId);

}  // namespace

TEST_CASE("with nothing required, topics keep their order, the lesson's bank first",
          "[bank][requires]") {
  const std::vector<Bank> banks = {loaded(bank_json("alpha", "another lesson", {{"a1"}, {"a2"}})),
                                   loaded(bank_json("lesson", kLesson, {{"l1"}, {"l2"}}))};
  CHECK(order_of(banks) ==
        std::vector<std::string>{"lesson/l1", "lesson/l2", "alpha/a1", "alpha/a2"});
  const StudyOrder order(banks);
  REQUIRE(order.banks().size() == 2);
  CHECK(order.banks()[0]->id == "lesson");
  CHECK(order.position("alpha", "a2") == 3);
  CHECK(order.position("alpha", "l1") == 4);  // no such topic in that bank
}

TEST_CASE("a topic comes after the topics it requires, and nothing else moves",
          "[bank][requires]") {
  const std::vector<Bank> banks = {
      loaded(bank_json("lesson", kLesson, {{"t1", "t4"}, {"t2"}, {"t3", "t1"}, {"t4"}, {"t5"}}))};
  CHECK(order_of(banks) ==
        std::vector<std::string>{"lesson/t2", "lesson/t4", "lesson/t1", "lesson/t3", "lesson/t5"});
}

TEST_CASE("a bank that requires another bank has all its topics after that bank's",
          "[bank][requires]") {
  const std::vector<Bank> banks = {
      loaded(bank_json("decoder", "d", {{"d1"}, {"d2"}}, {"attention"})),
      loaded(bank_json("attention", "a", {{"a1"}, {"a2"}})),
      loaded(bank_json("lesson", kLesson, {{"l1"}}))};
  CHECK(order_of(banks) == std::vector<std::string>{"lesson/l1", "attention/a1", "attention/a2",
                                                    "decoder/d1", "decoder/d2"});
  const StudyOrder order(banks);
  CHECK(order.banks()[1]->id == "attention");
  CHECK(order.banks()[2]->id == "decoder");
}

TEST_CASE("a topic may require a topic of another bank, or a whole bank", "[bank][requires]") {
  const std::vector<Bank> banks = {
      loaded(
          bank_json("decoder", "d", {{"gqa", "multi-head"}, {"flash", "attention"}, {"swiglu"}})),
      loaded(bank_json("attention", "a", {{"formula"}, {"scaling"}})),
      loaded(bank_json("lesson", kLesson, {{"positional"}, {"multi-head"}}))};
  CHECK(order_of(banks) == std::vector<std::string>{"lesson/positional", "lesson/multi-head",
                                                    "decoder/gqa", "decoder/swiglu",
                                                    "attention/formula", "attention/scaling",
                                                    "decoder/flash"});
}

TEST_CASE("a topic's id names its own bank's topic before another bank's", "[bank][requires]") {
  const std::vector<Bank> banks = {
      loaded(bank_json("lesson", kLesson, {{"basics"}, {"intro"}})),
      loaded(bank_json("extra", "e", {{"advanced", "intro"}, {"intro"}}))};
  CHECK(order_of(banks) ==
        std::vector<std::string>{"lesson/basics", "lesson/intro", "extra/intro", "extra/advanced"});
}

TEST_CASE(
    "requirements are met once every topic required, or every topic of a required bank, "
    "is done",
    "[bank][requires]") {
  const std::vector<Bank> banks = {loaded(bank_json("lesson", kLesson, {{"l1"}, {"l2"}})),
                                   loaded(bank_json("extra", "e", {{"e1", "l2"}}, {"lesson"}))};
  const StudyOrder order(banks);
  REQUIRE(order.position("extra", "e1") == 2);
  CHECK(order.requirements_met(0, {false, false, false}));
  CHECK_FALSE(order.requirements_met(2, {false, true, false}));
  CHECK_FALSE(order.requirements_met(2, {true, false, false}));
  CHECK(order.requirements_met(2, {true, true, false}));
}

TEST_CASE(
    "an unknown bank in a bank's requires names the file, the pointer, what was expected "
    "and the nearest id",
    "[bank][requires]") {
  const std::vector<Bank> banks = {
      loaded(bank_json("lesson", kLesson, {{"l1"}})),
      loaded(bank_json("decoder", "d", {{"d1"}}, {"lesson", "lesson-two", "lessn"}))};
  CHECK(order_problems(banks) ==
        std::vector<std::string>{
            "decoder.json: /bank/requires/1: unknown bank 'lesson-two' (expected the id of "
            "another loaded bank: lesson)",
            "decoder.json: /bank/requires/2: unknown bank 'lessn'; did you mean 'lesson'? "
            "(expected the id of another loaded bank: lesson)"});
  CHECK(order_problems({banks[1]}) ==
        std::vector<std::string>{
            "decoder.json: /bank/requires/0: unknown bank 'lesson' (no other bank is loaded)",
            "decoder.json: /bank/requires/1: unknown bank 'lesson-two' (no other bank is loaded)",
            "decoder.json: /bank/requires/2: unknown bank 'lessn' (no other bank is loaded)"});
}

TEST_CASE(
    "an unknown id in a topic's requires names the file, the pointer, what was expected "
    "and the nearest id",
    "[bank][requires]") {
  const std::vector<Bank> banks = {
      loaded(bank_json("lesson", kLesson, {{"multi-head"}, {"positional"}})),
      loaded(bank_json("decoder", "d", {{"gqa", "multi-haed"}, {"alibi", "gqa", "nothing-like"}}))};
  REQUIRE_THROWS_WITH(
      check_prerequisites(banks),
      "[proofdeck.bank.invalid] 2 problems in the question banks:\n"
      "  decoder.json: /topics/0/requires/0: unknown topic or bank 'multi-haed'; did you mean "
      "'multi-head'? (expected a topic of this bank or of another loaded bank, or a loaded "
      "bank's id; this bank's other topics: alibi; the banks: lesson, decoder)\n"
      "  decoder.json: /topics/1/requires/1: unknown topic or bank 'nothing-like' (expected a "
      "topic of this bank or of another loaded bank, or a loaded bank's id; this bank's other "
      "topics: gqa; the banks: lesson, decoder)");
}

TEST_CASE(
    "load_banks checks requires once every bank is loaded, so a bank that requires "
    "another does not load alone",
    "[bank][requires]") {
  TempDir dir;
  const std::string lesson =
      dir.write("lesson.json", bank_json("lesson", kLesson, {{"l1"}}).dump());
  const std::string extra =
      dir.write("extra.json", bank_json("extra", "e", {{"e1", "l1"}}, {"lesson"}).dump());
  CHECK(load_banks(BankSources{{lesson, extra}, false}).size() == 2);
  try {
    load_banks(BankSources{{extra}, false});
    FAIL("an unknown id was not reported");
  } catch (const BankErrors& e) {
    CHECK(e.problems() ==
          std::vector<std::string>{
              extra + ": /bank/requires/0: unknown bank 'lesson' (no other bank is loaded)",
              extra + ": /topics/0/requires/0: unknown topic or bank 'l1' (expected a topic of "
                      "this bank or of another loaded bank, or a loaded bank's id; this bank's "
                      "other topics: none; the banks: extra)"});
  }
}

TEST_CASE("topics that require each other are refused, the cycle told link by link",
          "[bank][requires]") {
  const std::vector<Bank> banks = {
      loaded(bank_json("lesson", kLesson, {{"a", "c"}, {"b", "a"}, {"c", "b"}, {"d"}})),
      loaded(bank_json("other", "o", {{"x", "y"}, {"y", "x"}, {"z", "x"}}))};
  CHECK(order_problems(banks) ==
        std::vector<std::string>{
            "lesson.json: /topics/0/requires/0: the requirements form a cycle, so none of them "
            "can come first: a requires c, which requires b (lesson.json: /topics/2/requires/0), "
            "which requires a (lesson.json: /topics/1/requires/0)",
            "other.json: /topics/0/requires/0: the requirements form a cycle, so none of them "
            "can come first: x requires y, which requires x (other.json: /topics/1/requires/0)"});
}

TEST_CASE("banks that require each other are refused, the cycle told through their topics",
          "[bank][requires]") {
  const std::vector<Bank> banks = {loaded(bank_json("one", "1", {{"o1"}}, {"two"})),
                                   loaded(bank_json("two", "2", {{"t1"}, {"t2", "one"}}))};
  CHECK(order_problems(banks) ==
        std::vector<std::string>{
            "one.json: /bank/requires/0: the requirements form a cycle, so none of them can come "
            "first: o1 requires bank two, whose topic t2 requires bank one (two.json: "
            "/topics/1/requires/0), whose topic o1"});
}

TEST_CASE("requires is a list of distinct ids, and nothing requires itself", "[bank][requires]") {
  json bank = worked_example();
  bank["topics"][0]["requires"] = "positional";
  bank["topics"][1]["requires"] = json::array({"multi-head", 7, "Multi Head", "multi-head"});
  CHECK(problems_of(bank) ==
        std::vector<std::string>{
            "bank.json: /topics/0/requires: expected a list, found string \"positional\"",
            "bank.json: /topics/1/requires/1: expected the id of a topic or bank, found number 7",
            "bank.json: /topics/1/requires/2: 'Multi Head' is not a valid id; expected lower-case "
            "words joined by hyphens, like 'multi-head'",
            "bank.json: /topics/1/requires/3: 'multi-head' is required twice"});

  bank = worked_example();
  bank["bank"]["requires"] = json::array({"example"});
  bank["topics"][0]["requires"] = json::array({"multi-head"});
  bank["topics"][1]["requires"] = json::array({"example"});
  CHECK(problems_of(bank) ==
        std::vector<std::string>{
            "bank.json: /bank/requires/0: bank 'example' requires itself",
            "bank.json: /topics/0/requires/0: topic 'multi-head' requires itself",
            "bank.json: /topics/1/requires/0: topic 'positional' requires its own bank "
            "'example', so itself; name the topics of this bank it requires"});
}

TEST_CASE(
    "the built-in banks: the lesson's first, model optimization next (it needs only the layer), "
    "attention before the modern decoder",
    "[bank][requires]") {
  const std::vector<Bank> banks = load_banks(BankSources{{}, true});
  const StudyOrder order(banks);
  std::vector<std::string> bank_order;
  for (const Bank* b : order.banks())
    bank_order.push_back(b->id);
  CHECK(bank_order == std::vector<std::string>{"transformer-layer", "model-optimization",
                                               "scaled-dot-product-attention",
                                               "transformer-architectures", "modern-decoder"});
  CHECK(order.topics().front().topic->id == "multi-head");
  CHECK(order.position("scaled-dot-product-attention", "sdpa-formula") <
        order.position("scaled-dot-product-attention", "sdpa-scaling"));
  for (const char* modern : {"gqa-mqa", "flash-attention", "alibi"})
    CHECK(order.position("modern-decoder", modern) >
          order.position("scaled-dot-product-attention", "sdpa-scaling"));
}

TEST_CASE("list topics and list banks follow the study order, as text and as JSON",
          "[cli][requires]") {
  Cli topics;
  REQUIRE(topics.run({"list", "topics", "--format", "json"}) == 0);
  const json listed = json::parse(topics.out.str());
  const std::vector<Bank> builtin = load_banks(BankSources{{}, true});
  const StudyOrder order(builtin);
  REQUIRE(listed.size() == order.topics().size());
  for (std::size_t p = 0; p < listed.size(); ++p) {
    INFO(p);
    CHECK(listed[p]["id"] == order.topics()[p].topic->id);
  }
  CHECK(listed[7]["id"] == "integer-quantization");
  CHECK(listed[13]["id"] == "sdpa-formula");
  CHECK(listed[14]["id"] == "sdpa-scaling");

  Cli text;
  REQUIRE(text.run({"list", "topics", "--color", "never", "--width", "100"}) == 0);
  const std::string out = text.out.str();
  CHECK(out.find("\nsdpa-scaling ") < out.find("\ngqa-mqa "));
  CHECK(out.rfind("multi-head ", 0) == 0);

  Cli banks;
  REQUIRE(banks.run({"list", "banks", "--format", "json"}) == 0);
  const json listed_banks = json::parse(banks.out.str());
  CHECK(listed_banks.front()["id"] == "transformer-layer");
  CHECK(listed_banks.back()["id"] == "modern-decoder");
}

TEST_CASE("list questions lists them topic by topic in the study order", "[cli][requires]") {
  Cli cli;
  REQUIRE(cli.run({"list", "questions", "--bank", "scaled-dot-product-attention", "--format",
                   "json"}) == 0);
  const json listed = json::parse(cli.out.str());
  REQUIRE(listed.size() == 22);
  std::vector<std::string> runs;
  for (const json& q : listed)
    if (runs.empty() || runs.back() != q["topic"]) runs.push_back(q["topic"]);
  CHECK(runs == std::vector<std::string>{"sdpa-formula", "sdpa-scaling", "sdpa-masking-cost",
                                         "sdpa-practice"});
}

TEST_CASE("export --to json keeps requires as the bank wrote it", "[cli][requires]") {
  Cli cli;
  REQUIRE(cli.run({"export", "--to", "json", "--bank", "modern-decoder"}) == 0);
  CHECK_THAT(cli.out.str(), Contains("\"requires\": [\n      \"scaled-dot-product-attention\",\n"
                                     "      \"transformer-architectures\"\n    ]"));
  Cli topics;
  REQUIRE(topics.run({"export", "--to", "json", "--bank", "scaled-dot-product-attention"}) == 0);
  const json exported = json::parse(topics.out.str());
  CHECK(exported["topics"][1]["requires"] == json::array({"sdpa-formula"}));
  CHECK_FALSE(exported["bank"].contains("requires"));
}

}  // namespace test_prerequisites
