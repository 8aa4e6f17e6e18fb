// Proving keys: the worked example's keys are verified by computation; a wrong key, an unknown
// value or demo, or a vacuous proof is never reported verified.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "bank/builtin.hpp"
#include "bank/formula.hpp"
#include "bank/loader.hpp"
#include "bank/proof.hpp"
#include "bank_test_support.hpp"
#include "demo/demo.hpp"
#include "number_readback.hpp"

namespace test_proof {

using namespace proofdeck::bank;
using bank_test::worked_example;
using nlohmann::json;

namespace {

QuestionVerdict verdict_of(const json& bank, std::size_t question) {
  const Bank loaded = load_bank(bank.dump(), "bank.json");
  DemoRunner runner(0);
  return verify(loaded.questions.at(question), runner);
}

}  // namespace

TEST_CASE("the worked example's keys are verified by computation", "[check]") {
  const Bank bank = load_bank(worked_example().dump(), "bank.json");
  DemoRunner runner(0);
  const QuestionVerdict single = verify(bank.questions[0], runner);
  CHECK(single.status == Status::verified);
  CHECK(single.message == "key pinned by head-params");
  CHECK(verify(bank.questions[1], runner).status == Status::verified);
  const QuestionVerdict numeric = verify(bank.questions[2], runner);
  // At d_model 2048 head-params uses the closed form, which only restates the arithmetic: the
  // template's key is computed, not verified, and the message names the values that make it so.
  CHECK(numeric.status == Status::computed);
  CHECK_THAT(numeric.message,
             Catch::StartsWith("key pinned by arithmetic in 24 combinations: per_head_qkv_h1, "));
  CHECK_THAT(numeric.message,
             Catch::EndsWith("are derived from parameters in head-params, not computed by the "
                             "engine"));
}

TEST_CASE("identical demo runs are computed once", "[check]") {
  const Bank bank = load_bank(worked_example().dump(), "bank.json");
  DemoRunner runner(0);
  verify(bank.questions[0], runner);
  verify(bank.questions[0], runner);
  CHECK(runner.runs() == 1);
}

TEST_CASE("a wrong single key fails, naming the option and its claim", "[check]") {
  json bank = worked_example();
  bank["questions"][0]["options"][0]["correct"] = true;
  bank["questions"][0]["options"][1]["correct"] = false;
  const QuestionVerdict verdict = verdict_of(bank, 0);
  CHECK(verdict.status == Status::failed);
  CHECK(verdict.message == "option a is keyed but its claim does not hold in head-params");
}

TEST_CASE("a wrong true/false key fails", "[check]") {
  json bank = worked_example();
  bank["questions"][1]["answer"] = true;
  const QuestionVerdict verdict = verdict_of(bank, 1);
  CHECK(verdict.status == Status::failed);
  CHECK(verdict.message == "key says true but the claim does not hold in order-blindness");
}

TEST_CASE("a wrong template formula fails at the first combination that disagrees", "[check]") {
  json bank = worked_example();
  bank["questions"][2]["template"]["answer"] = "3 * d_model * d_model";
  const QuestionVerdict verdict = verdict_of(bank, 2);
  CHECK(verdict.status == Status::failed);
  CHECK(verdict.message ==
        "key says 196,608 but head-params computes per_head_qkv_h2 = 98,304 "
        "with d_model = 256, heads = 2");
}

TEST_CASE("a plain numeric key is checked against the computed value", "[check]") {
  json bank = worked_example();
  json& q = bank["questions"][2];
  q.erase("template");
  q.erase("distractors");
  q["prompt"] = "How many weights does an attention block over d_model 512 with 8 heads hold?";
  q["answer"] = {{"value", 1000000}, {"tolerance", 0}, {"computed", "total_h8"}};
  q["proof"] = {{"demo", "head-params"}};
  const QuestionVerdict verdict = verdict_of(bank, 2);
  CHECK(verdict.status == Status::failed);
  CHECK(verdict.message == "key says 1,000,000 but head-params computes total_h8 = 1,048,576");
  q["answer"]["value"] = 1048576;
  CHECK(verdict_of(bank, 2).status == Status::verified);
}

TEST_CASE("a proof without claims or computed values is supported, not verified", "[check]") {
  json bank = worked_example();
  bank["questions"][1].erase("claim");
  const QuestionVerdict verdict = verdict_of(bank, 1);
  CHECK(verdict.status == Status::supported);
  CHECK(verdict.message == "order-blindness holds, but would not catch a wrong key");
}

TEST_CASE("a question without proof is unproven, with its reason", "[check]") {
  json bank = worked_example();
  bank["questions"][1].erase("proof");
  bank["questions"][1].erase("claim");
  bank["questions"][1]["unprovable"] = "a statement about intent";
  const QuestionVerdict verdict = verdict_of(bank, 1);
  CHECK(verdict.status == Status::unproven);
  CHECK(verdict.message == "no proof: a statement about intent");
}

TEST_CASE("a value the demo does not produce fails, listing the demo's values", "[check]") {
  json bank = worked_example();
  bank["questions"][0]["options"][1]["claim"] = {{"value", "ratio"}, {"eq", 1}};
  const QuestionVerdict verdict = verdict_of(bank, 0);
  CHECK(verdict.status == Status::failed);
  CHECK_THAT(verdict.message,
             Catch::StartsWith("/questions/0/options/1/claim: head-params has no value 'ratio'; "
                               "its values: head_dim_h1, "));
}

TEST_CASE("comparing a value of the wrong kind fails", "[check]") {
  json bank = worked_example();
  bank["questions"][1]["claim"] = {{"value", "identical_without_position"}, {"gt", 0}};
  CHECK(verdict_of(bank, 1).message ==
        "/questions/1/claim: order-blindness's value 'identical_without_position' is true/false; "
        "compare it with \"is\"");
  bank["questions"][1]["claim"] = {{"value", "max_diff_none"}, {"is", true}};
  CHECK(verdict_of(bank, 1).message ==
        "/questions/1/claim: order-blindness's value 'max_diff_none' is a number; \"is\" compares "
        "true/false values");
}

TEST_CASE("an unknown demo or demo parameter fails the question", "[check]") {
  json bank = worked_example();
  bank["questions"][0]["proof"]["demo"] = "head-param";
  CHECK_THAT(verdict_of(bank, 0).message,
             Catch::StartsWith("bank.json: /questions/0/proof: no demo named 'head-param'"));
  bank["questions"][0]["proof"]["demo"] = "head-params";
  bank["questions"][0]["proof"]["args"]["heads"] = json::array({1, 7});
  CHECK_THAT(verdict_of(bank, 0).message,
             Catch::StartsWith("bank.json: /questions/0/proof: demo head-params: heads=7: "
                               "d_model 512 is not divisible by 7"));
}

TEST_CASE("placeholders are replaced by the template's values", "[check]") {
  CHECK(substitute("per_head_qkv_h{heads}", {{"heads", 8}}) == "per_head_qkv_h8");
  CHECK(substitute("{a} and {b}", {{"a", 1}, {"b", 512}}) == "1 and 512");
  CHECK(substitute("{unknown}", {}) == "{unknown}");
}

TEST_CASE("values of 10,000 and more reach demo arguments and names ungrouped", "[check]") {
  CHECK(substitute("position={p}", {{"p", 16384}}) == "position=16384");
  CHECK(substitute("variance_ideal_{n}", {{"n", 0.5}}) == "variance_ideal_0.5");
  CHECK(substitute("d_model = {d}", {{"d", 16384}}, NumberStyle::grouped) == "d_model = 16,384");
}

TEST_CASE("every wrong alternative to the worked example's keys is caught", "[check][mutate]") {
  const Bank bank = load_bank(worked_example().dump(), "bank.json");
  DemoRunner runner(0);
  std::vector<std::string> described;
  for (const Question& q : bank.questions) {
    for (const Mutation& m : mutate(q, runner)) {
      CHECK(m.killed);
      described.push_back(m.question + ": " + m.description);
    }
  }
  CHECK(described == std::vector<std::string>{
                         "mha-purpose: key a instead of b", "order-without-pe: answer true",
                         "per-head-qkv: distractor 3 * d_model * d_model", "per-head-qkv: key × 2",
                         "per-head-qkv: key ÷ 2", "per-head-qkv: key + 1"});
}

TEST_CASE("a tolerance wide enough to accept a wrong key lets the mutation survive",
          "[check][mutate]") {
  json bank = worked_example();
  json& q = bank["questions"][2];
  q.erase("template");
  q.erase("distractors");
  q["prompt"] = "How many weights does an attention block over d_model 512 with 8 heads hold?";
  q["answer"] = {{"value", 1048576}, {"tolerance", 10}, {"computed", "total_h8"}};
  q["proof"] = {{"demo", "head-params"}};
  const Bank loaded = load_bank(bank.dump(), "bank.json");
  DemoRunner runner(0);
  const auto mutations = mutate(loaded.questions[2], runner);
  REQUIRE(mutations.size() == 3);
  CHECK(mutations[0].killed);
  CHECK(mutations[1].killed);
  CHECK_FALSE(mutations[2].killed);
  CHECK(mutations[2].description == "key + 1");
}

TEST_CASE("a template key at the formula limits still gets its wrong keys", "[check][mutate]") {
  // The mutation wraps the key ("(key) * 2"), one level and a few bytes past what an author may
  // write; it must still be formed and caught, not refused as input.
  const auto mutations_of = [](const std::string& answer) {
    json bank = worked_example();
    bank["questions"][2]["template"]["answer"] = answer;
    const Bank loaded = load_bank(bank.dump(), "bank.json");
    DemoRunner runner(0);
    return mutate(loaded.questions[2], runner);
  };
  std::string longest = "3 * d_model * (d_model // heads)";
  while (longest.size() + 2 <= Formula::max_length)
    longest += "+0";
  std::string deepest = "3 * d_model * (d_model // heads)";  // one level
  for (int level = 1; level < Formula::max_depth; ++level)
    deepest = "(" + deepest + ")";
  for (const std::string& answer : {longest, deepest}) {
    const auto mutations = mutations_of(answer);
    REQUIRE(mutations.size() == 4);
    for (const Mutation& m : mutations)
      CHECK(m.killed);
  }
}

TEST_CASE("a wrong key too large for a double is left out, not an error", "[check][mutate]") {
  json bank = worked_example();
  json& q = bank["questions"][2];
  q.erase("template");
  q.erase("distractors");
  q["answer"] = {{"value", 1.5e308}, {"tolerance", 1.7e308}, {"computed", "total_h8"}};
  q["proof"] = {{"demo", "head-params"}};
  const Bank loaded = load_bank(bank.dump(), "bank.json");
  DemoRunner runner(0);
  const auto mutations = mutate(loaded.questions[2], runner);
  REQUIRE(mutations.size() == 2);  // key × 2 overflows
  CHECK(mutations[0].description == "key ÷ 2");
  CHECK(mutations[1].description == "key + 1");
}

TEST_CASE("questions that are not verified have no mutations", "[check][mutate]") {
  json bank = worked_example();
  bank["questions"][1].erase("claim");  // supported only
  const Bank loaded = load_bank(bank.dump(), "bank.json");
  DemoRunner runner(0);
  CHECK(mutate(loaded.questions[1], runner).empty());
}

// --- load-time checks against the demo catalog ------------------------------------------------

namespace {

std::vector<std::string> problems_of(const json& bank) {
  DemoRunner runner(0);
  return resolve_problems({load_bank(bank.dump(), "bank.json")}, runner);
}

}  // namespace

TEST_CASE("the worked example names only demos, parameters and values that exist", "[check]") {
  CHECK(problems_of(worked_example()).empty());
}

TEST_CASE("an unknown demo is a load error naming the closest demo and listing them all",
          "[check]") {
  json bank = worked_example();
  bank["questions"][0]["proof"]["demo"] = "head-param";
  const std::vector<std::string> problems = problems_of(bank);
  REQUIRE(problems.size() == 1);
  std::vector<std::string> names;
  for (const proofdeck::demo::DemoInfo& info : proofdeck::demo::catalog())
    names.push_back(info.name);
  CHECK(problems[0] ==
        "bank.json: /questions/0/proof/demo: no demo named 'head-param'; did you mean "
        "'head-params'? (the demos: " +
            fmt::format("{}", fmt::join(names, ", ")) + ")");
  bank["questions"][0]["proof"]["demo"] = "no-such-thing";
  CHECK_THAT(problems_of(bank).at(0), Catch::EndsWith("no demo named 'no-such-thing'; the demos: " +
                                                      fmt::format("{}", fmt::join(names, ", "))));
}

TEST_CASE("an unknown demo parameter is a load error listing the demo's parameters", "[check]") {
  json bank = worked_example();
  bank["questions"][0]["proof"]["args"]["head"] = 8;
  CHECK(problems_of(bank) ==
        std::vector<std::string>{"bank.json: /questions/0/proof/args/head: demo head-params has "
                                 "no parameter 'head'; its parameters: d_model, heads"});
}

TEST_CASE("a demo parameter value the demo refuses is a load error", "[check]") {
  json bank = worked_example();
  bank["questions"][0]["proof"]["args"]["heads"] = json::array({1, 7});
  const std::vector<std::string> problems = problems_of(bank);
  REQUIRE(problems.size() == 1);
  CHECK_THAT(problems[0], Catch::StartsWith("bank.json: /questions/0/proof: demo head-params: "
                                            "heads=7: d_model 512 is not divisible by 7"));
}

TEST_CASE("a template is checked in every combination, naming the one that breaks", "[check]") {
  json bank = worked_example();
  bank["questions"][2]["template"]["params"]["heads"] = json::array({1, 2, 3});
  bank["questions"][2]["template"]["constraints"] = json::array();
  const std::vector<std::string> problems = problems_of(bank);
  REQUIRE(problems.size() == 1);
  CHECK_THAT(problems[0],
             Catch::StartsWith("bank.json: /questions/2/proof: demo head-params: heads=3: "
                               "d_model 256 is not divisible by 3") &&
                 Catch::EndsWith("(with d_model = 256, heads = 3)"));
}

TEST_CASE("values named by show, computed, predicates and claims must exist", "[check]") {
  json bank = worked_example();
  bank["questions"][0]["proof"]["show"] = json::array({"total_h1", "total_h2"});
  bank["questions"][0]["options"][1]["claim"] = {{"value", "ratio"}, {"eq", 1}};
  bank["questions"][1]["proof"]["predicates"][0] = {{"value", "max_diff_sinusoidal"},
                                                    {"gt", {{"value", "max_diff_alibi"}}}};
  bank["questions"][2]["answer"]["computed"] = "qkv_h{heads}";
  const std::vector<std::string> problems = problems_of(bank);
  REQUIRE(problems.size() == 4);
  CHECK_THAT(problems[0], Catch::StartsWith("bank.json: /questions/0/proof/show/1: head-params "
                                            "has no value 'total_h2'; its values: head_dim_h1, "));
  CHECK_THAT(problems[1], Catch::StartsWith("bank.json: /questions/0/options/1/claim: head-params "
                                            "has no value 'ratio'; its values: "));
  CHECK_THAT(problems[2],
             Catch::StartsWith("bank.json: /questions/1/proof/predicates/0: order-blindness has "
                               "no value 'max_diff_alibi'; its values: max_diff_none, "));
  CHECK_THAT(problems[3],
             Catch::StartsWith("bank.json: /questions/2/answer/computed: head-params has no value "
                               "'qkv_h1' (with d_model = 256, heads = 1); its values: "));
}

TEST_CASE("a predicate comparing a value of the wrong kind is a load error", "[check]") {
  json bank = worked_example();
  bank["questions"][1]["claim"] = {
      {"all", json::array({{{"value", "identical_without_position"}, {"gt", 0}},
                           {{"value", "max_diff_none"}, {"is", false}}})}};
  CHECK(problems_of(bank) ==
        std::vector<std::string>{
            "bank.json: /questions/1/claim/all/0: order-blindness's value "
            "'identical_without_position' is true/false; compare it with \"is\": true or false",
            "bank.json: /questions/1/claim/all/1: order-blindness's value 'max_diff_none' is a "
            "number; \"is\" compares true/false values, use eq, ne, lt, le, gt or ge"});
}

TEST_CASE("prefetching runs on threads gives the same verdicts as running one by one", "[check]") {
  json bank = worked_example();
  bank["questions"][0]["proof"]["args"]["heads"] = json::array({1, 7});  // fails to run
  const std::vector<Bank> banks = {load_bank(bank.dump(), "bank.json")};
  DemoRunner sequential(0), threaded(0);
  threaded.prefetch(banks, 4);
  CHECK(threaded.runs() == 24 + 1);  // the template's 24 combinations and order-blindness
  for (const Question& q : banks[0].questions) {
    const QuestionVerdict one = verify(q, sequential);
    const QuestionVerdict other = verify(q, threaded);
    CHECK(one.status == other.status);
    CHECK(one.message == other.message);
  }
  CHECK(sequential.runs() == threaded.runs());
}

TEST_CASE("every value a built-in proof shows reads back as the number it is",
          "[check][number][sweep]") {
  // What feedback, printouts and exports write beside a key (bank::format_measured), for every
  // question's `show` and computed value, in every admitted combination of a template.
  std::vector<Bank> banks;
  for (const EmbeddedBank& embedded : builtin_banks())
    banks.push_back(load_bank(embedded.text, std::string(embedded.name)));
  DemoRunner runner(0);
  runner.prefetch(banks, 2);
  std::size_t checked = 0;
  for (const Bank& loaded : banks) {
    for (const Question& q : loaded.questions) {
      if (!q.proof) continue;
      std::vector<std::string> names = q.proof->show;
      if (!q.key.computed.empty()) names.push_back(q.key.computed);
      const auto check_bindings = [&](const Bindings& bindings) {
        const proofdeck::demo::DemoResult& result = runner.run(*q.proof, bindings, q.id);
        for (const std::string& shown : names) {
          const proofdeck::demo::Value* value = result.find(substitute(shown, bindings));
          if (value == nullptr || value->kind != proofdeck::demo::Value::Kind::number) continue;
          const std::string text = format_measured(value->number);
          INFO(q.id << ": " << shown << " = " << fmt::format("{}", value->number) << " shown as "
                    << text);
          CHECK(proofdeck::testing::misreads(text, value->number).empty());
          ++checked;
        }
      };
      if (q.templ) {
        for_each_admitted(*q.templ, check_bindings);
      } else {
        check_bindings({});
      }
    }
  }
  CHECK(checked > 100);
}

// --- explanations that quote the proof ----------------------------------------------------------

TEST_CASE("an explanation's {value:NAME} is written from the proof by the number rule",
          "[check][explanation]") {
  json bank = worked_example();
  bank["questions"][0]["explanation"] =
      "Eight heads need {value:total_h8} weights, {value:ratio_h8_h1} times one head's.";
  CHECK(problems_of(bank).empty());
  const Bank loaded = load_bank(bank.dump(), "bank.json");
  proofdeck::engine::Rng rng(1);
  const Instance instance = instantiate(loaded.questions[0], rng);
  DemoRunner runner(0);
  CHECK(explanation_text(instance, runner) ==
        "Eight heads need 1,048,576 weights, 1 times one "
        "head's.");
}

TEST_CASE("in a template, {value:NAME} may name the value through the drawn parameters",
          "[check][explanation]") {
  json bank = worked_example();
  bank["questions"][2]["explanation"] = "One head holds {value:per_head_qkv_h{heads}} of them.";
  CHECK(problems_of(bank).empty());
  const Bank loaded = load_bank(bank.dump(), "bank.json");
  proofdeck::engine::Rng rng(3);
  const Instance instance = instantiate(loaded.questions[2], rng);
  DemoRunner runner(0);
  const double heads = instance.bindings.at("heads"), d_model = instance.bindings.at("d_model");
  CHECK(explanation_text(instance, runner) ==
        "One head holds " + format_measured(3 * d_model * (d_model / heads)) + " of them.");
}

TEST_CASE("{value:NAME} is not a template parameter, and {param} still is",
          "[check][explanation]") {
  CHECK(placeholders("{value:per_head_qkv_h{heads}} and {d_model}") ==
        std::vector<std::string>{"heads", "d_model"});
  CHECK(value_references("a {value:x} b {value:y_{h}} c {h}") ==
        std::vector<std::string>{"x", "y_{h}"});
  CHECK(substitute("{value:y_{h}} with {h}", {{"h", 8}}) == "{value:y_8} with 8");
  json bank = worked_example();
  bank["questions"][2]["explanation"] = "{value:per_head_qkv_h{head}} per head.";
  CHECK_THROWS_WITH(load_bank(bank.dump(), "bank.json"),
                    Catch::Contains("/questions/2/explanation: 'head' is not a template parameter; "
                                    "parameters: d_model, heads"));
}

TEST_CASE("an explanation that quotes a value its demo lacks is a load error naming the values",
          "[check][explanation]") {
  json bank = worked_example();
  bank["questions"][0]["explanation"] = "Eight heads need {value:total_h9} weights.";
  const std::vector<std::string> problems = problems_of(bank);
  REQUIRE(problems.size() == 1);
  CHECK_THAT(problems[0], Catch::StartsWith("bank.json: /questions/0/explanation: head-params has "
                                            "no value 'total_h9'; its values: "));
}

TEST_CASE("an explanation cannot quote a value without a proof to compute it",
          "[check][explanation]") {
  json bank = worked_example();
  bank["questions"][0].erase("proof");
  bank["questions"][0]["unprovable"] = "a design motive";
  bank["questions"][0]["explanation"] = "Eight heads need {value:total_h8} weights.";
  CHECK_THROWS_WITH(load_bank(bank.dump(), "bank.json"),
                    Catch::Contains("/questions/0/explanation: quotes {value:total_h8}, but the "
                                    "question has no proof to compute it; add a proof whose demo "
                                    "has that value, or write the number"));
}

}  // namespace test_proof
