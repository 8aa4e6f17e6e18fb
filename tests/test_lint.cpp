// check --lint: each item-writing rule trips on a bank that breaks it and stays quiet on one that
// keeps it; waivers silence a rule and are listed; --source finds quotes and sections the lesson
// does not have; the reports (text, json, junit) and --strict.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "bank/coverage.hpp"
#include "bank/lint.hpp"
#include "bank/loader.hpp"
#include "bank/precision.hpp"
#include "bank/sources.hpp"
#include "bank_test_support.hpp"
#include "cli_test_support.hpp"

namespace test_lint {

using namespace cli_test;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using nlohmann::json;
using namespace proofdeck::bank;

namespace {

// A right option, or a wrong one tagged with the bank's trap.
json option(const std::string& id, const std::string& text, bool correct = false) {
  json item = {{"id", id}, {"text", text}};
  if (correct) {
    item["correct"] = true;
  } else {
    item["trap"] = "heads-cut";
  }
  return item;
}

json single(const std::string& id, const std::string& concept_id, const std::string& prompt,
            json options) {
  return {{"id", id},
          {"type", "single"},
          {"topic", "heads"},
          {"concept", concept_id},
          {"prompt", prompt},
          {"options", std::move(options)},
          {"explanation", "Eight heads of width sixty-four hold the weights one wide head holds."},
          {"source", {{"section", "Identity statement"}}}};
}

json four_options() {
  return json::array({option("a", "To cut the parameter count of the block", false),
                      option("b", "To attend to several subspaces in parallel", true),
                      option("c", "To let every head keep the model's full width", false),
                      option("d", "To run each head on a different graphics card", false)});
}

json truefalse(const std::string& id, const std::string& prompt, bool answer) {
  return {{"id", id},
          {"type", "truefalse"},
          {"topic", "heads"},
          {"concept", id},
          {"prompt", prompt},
          {"answer", answer},
          {"trap", "heads-cut"},
          {"explanation", "Splitting the width into heads keeps the total number of weights."},
          {"source", {{"section", "Identity statement"}}}};
}

json numeric(const std::string& id, const std::string& prompt, double value, double tolerance) {
  return {{"id", id},
          {"type", "numeric"},
          {"topic", "heads"},
          {"concept", id},
          {"prompt", prompt},
          {"answer", {{"value", value}, {"tolerance", tolerance}}},
          {"explanation", "Three projections of the full width plus the output projection."},
          {"source", {{"section", "Identity statement"}}}};
}

json template_question(const std::string& answer, const std::string& explanation) {
  return {
      {"id", "per-head-width"},
      {"type", "numeric"},
      {"topic", "heads"},
      {"concept", "per-head-width"},
      {"prompt", "A model of width {d_model} uses {heads} heads. How wide is each head?"},
      {"template", {{"params", {{"d_model", {256, 512}}, {"heads", {4, 8}}}}, {"answer", answer}}},
      {"answer", {{"tolerance", 0}}},
      {"explanation", explanation},
      {"source", {{"section", "Identity statement"}}}};
}

// A bank that keeps every rule: four alike options, concepts, two true/false keys of each truth.
json clean_bank() {
  return {
      {"format", 1},
      {"bank", {{"id", "lint"}, {"title", "Lint"}, {"lesson", "lesson"}}},
      {"topics", json::array({{{"id", "heads"}, {"name", "Heads"}}})},
      {"traps", json::array({{{"id", "heads-cut"},
                              {"name", "Heads cut parameters"},
                              {"misconception", "Splitting attention into heads saves weights."},
                              {"correction", "The heads together hold one full head's weights."},
                              {"source", {{"section", "Identity statement"}}}}})},
      {"questions",
       json::array({single("purpose", "purpose",
                           "Why does a transformer split attention into heads?", four_options()),
                    truefalse("total-same",
                              "Eight heads of width 64 hold as many weights as one head "
                              "of width 512.",
                              true),
                    truefalse("rope-added",
                              "RoPE adds a positional vector to the embeddings before "
                              "the first layer.",
                              false),
                    numeric("block-total",
                            "How many weights does a 512-wide attention block hold without biases?",
                            1048576, 0)})}};
}

// Two more true/false questions, both keyed false: with the clean bank's one true and one false,
// 1 of 4 keys is true, which tf-balance flags.
void add_two_false_statements(json& bank) {
  bank["questions"].push_back(truefalse("ln-weights",
                                        "LayerNorm rescales the weight matrices of "
                                        "the layer it follows.",
                                        false));
  bank["questions"].push_back(truefalse("bn-tokens",
                                        "BatchNorm normalizes each token over its "
                                        "own features in training mode.",
                                        false));
}

std::vector<LintFinding> findings(const json& bank, const std::string& rule) {
  const std::vector<Bank> banks{load_bank(bank.dump(), "lint.json")};
  std::vector<LintFinding> out;
  for (LintFinding& f : lint(banks).findings) {
    if (f.rule == rule) out.push_back(std::move(f));
  }
  return out;
}

}  // namespace

TEST_CASE("a clean bank has no lint findings", "[lint]") {
  const std::vector<Bank> banks{load_bank(clean_bank().dump(), "lint.json")};
  const LintReport report = lint(banks);
  for (const LintFinding& f : report.findings)
    FAIL_CHECK(f.rule << " " << f.id << ": " << f.message);
  CHECK(report.waivers.empty());
}

TEST_CASE("few-options: a single question with three options", "[lint]") {
  json bank = clean_bank();
  bank["questions"][0]["options"].erase(3);
  const auto found = findings(bank, "few-options");
  REQUIRE(found.size() == 1);
  CHECK(found[0].id == "purpose");
  CHECK_THAT(found[0].message, StartsWith("3 options; give a single question at least 4"));
  CHECK(findings(clean_bank(), "few-options").empty());
}

TEST_CASE("longest-key: a key 1.2 times the longest other option", "[lint]") {
  json bank = clean_bank();
  bank["questions"][0]["options"][1]["text"] =
      "To let the model attend to several representation subspaces in parallel, each head "
      "specialising";
  const auto found = findings(bank, "longest-key");
  REQUIRE(found.size() == 1);
  CHECK_THAT(found[0].message, StartsWith("the key is 2.1× as long as the longest wrong option"));
  CHECK(findings(clean_bank(), "longest-key").empty());
}

TEST_CASE("longest-key: a multi question whose every key outgrows the wrong options", "[lint]") {
  json bank = clean_bank();
  json& q = bank["questions"][0];
  q["type"] = "multi";
  q["options"][0]["text"] = "Short";
  q["options"][2]["text"] = "Also short";
  q["options"][3] = option("d", "Each head specialises in its own representation subspace", true);
  CHECK(findings(bank, "longest-key").size() == 1);
  q["options"][0]["text"] = "A wrong option as long as the keys are, or nearly so";
  CHECK(findings(bank, "longest-key").empty());
}

TEST_CASE("length-cue: keys that are the longest option far more often than chance", "[lint]") {
  json bank = clean_bank();
  for (int i = 0; i < 4; ++i) {
    json options = four_options();
    options[1]["text"] = "To attend to several subspaces in parallel, each.";  // 1.1× longer
    bank["questions"].push_back(single(fmt::format("variant-{}", i), fmt::format("c{}", i),
                                       fmt::format("Variant {} of another prompt with words", i),
                                       options));
  }
  const auto found = findings(bank, "length-cue");
  REQUIRE(found.size() == 1);
  CHECK(found[0].id.empty());
  CHECK_THAT(found[0].message, StartsWith("the key is the uniquely longest option in 4 of 5 single "
                                          "questions (80%), where chance is 25%"));
  CHECK(findings(clean_bank(), "length-cue").empty());
}

TEST_CASE("dismissive-option: catch-all options and wrong options that only negate", "[lint]") {
  json bank = clean_bank();
  bank["questions"][0]["options"][0]["text"] = "None of the above";
  bank["questions"][0]["options"][2]["text"] = "Nothing: heads change nothing about the layer";
  const auto found = findings(bank, "dismissive-option");
  REQUIRE(found.size() == 2);
  CHECK_THAT(found[0].message, Contains("points at the other options"));
  CHECK_THAT(found[1].message, Contains("only negates or hedges"));
  CHECK(findings(clean_bank(), "dismissive-option").empty());
}

TEST_CASE("tf-balance: a bank whose true/false keys are nearly all false", "[lint]") {
  json bank = clean_bank();
  add_two_false_statements(bank);
  const auto found = findings(bank, "tf-balance");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message ==
        "1 of 4 true/false keys are true (25%): always answering \"false\" beats chance; "
        "rewrite statements until 40–60% are true");
  bank["questions"][4]["answer"] = true;
  bank["questions"][4]["prompt"] = "Post-LN normalizes after the residual addition.";
  CHECK(findings(bank, "tf-balance").empty());
  CHECK(findings(clean_bank(), "tf-balance").empty());  // fewer than 4: no rate to judge
}

TEST_CASE("answer-in-stem: the key's text or number in the prompt", "[lint]") {
  json bank = clean_bank();
  bank["questions"][0]["prompt"] =
      "Heads exist to attend to several subspaces in parallel. Why does a transformer split "
      "attention into heads?";
  bank["questions"][3]["prompt"] = "Is it 1,048,576 weights at width 512 without biases?";
  const auto found = findings(bank, "answer-in-stem");
  REQUIRE(found.size() == 2);
  CHECK(found[0].id == "purpose");
  CHECK(found[1].message == "the prompt shows the answer 1,048,576; ask for it without stating it");

  json decimals = clean_bank();
  decimals["questions"][3] = numeric("weight-on-dog",
                                     "The weight on \"bit\" is 0.4011; give the weight on \"dog\" "
                                     "to four decimal places.",
                                     0.32791, 0.00005);
  CHECK(findings(decimals, "answer-in-stem").empty());
  decimals["questions"][3]["answer"]["value"] = 0.40112;
  CHECK(findings(decimals, "answer-in-stem").size() == 1);
  CHECK(findings(clean_bank(), "answer-in-stem").empty());  // 512 is not inside 1048576
}

TEST_CASE("letter-reference: every way an explanation can name an option by letter", "[lint]") {
  for (const std::string text :
       {"Wrong, (b) is the subspace answer.", "Option c sounds right.", "The answer d is tempting.",
        "Choices b and c both fail.", "As b) says, heads specialise.", "Pick option a."}) {
    INFO(text);
    json bank = clean_bank();
    bank["questions"][0]["explanation"] = text;
    if (text.find("ption c") != std::string::npos || text.find("ption a") != std::string::npos) {
      // The loader refuses "option c" outright; lint reads the feedback instead.
      bank["questions"][0]["explanation"] = "Subspaces, not savings.";
      bank["questions"][0]["options"][0]["feedback"] = text;
    }
    CHECK(findings(bank, "letter-reference").size() == 1);
  }
  for (const std::string text :
       {"The answer a learner gives first is the parameter one.", "It costs O(n²·d) time.",
        "W_b) and f(d) are names, not letters."}) {
    INFO(text);
    json bank = clean_bank();
    bank["questions"][0]["explanation"] = text;
    CHECK(findings(bank, "letter-reference").empty());
  }
}

TEST_CASE("near-duplicate: prompts sharing most word trigrams, or the same key and run", "[lint]") {
  json bank = clean_bank();
  bank["questions"].push_back(single("purpose-again", "purpose-2",
                                     "Why does a transformer split attention into several heads?",
                                     four_options()));
  const auto found = findings(bank, "near-duplicate");
  REQUIRE(found.size() == 1);
  CHECK(found[0].id == "purpose-again");
  CHECK_THAT(found[0].message, Contains("with purpose's"));

  json same_run = clean_bank();
  json proof = {{"demo", "head-params"}, {"args", {{"d_model", 512}}}};
  same_run["questions"][3]["proof"] = proof;
  json twin =
      numeric("block-total-2", "Count the weights of W_q, W_k, W_v and W_o together.", 1048576, 0);
  twin["proof"] = proof;
  same_run["questions"].push_back(twin);
  const auto twins = findings(same_run, "near-duplicate");
  REQUIRE(twins.size() == 1);
  CHECK_THAT(twins[0].message, StartsWith("same key (1,048,576) proven by the same head-params run "
                                          "as block-total"));
  CHECK(findings(clean_bank(), "near-duplicate").empty());
}

TEST_CASE("no-objective: each question names its objective, or in an older bank a concept",
          "[lint]") {
  json bank = clean_bank();
  bank["questions"][0].erase("concept");
  const auto found = findings(bank, "no-objective");
  REQUIRE(found.size() == 1);
  CHECK_THAT(found[0].message, StartsWith("no `objective`: name the fact or skill it tests"));
  CHECK(findings(clean_bank(), "no-objective").empty());  // concepts stand in
  bank["objectives"] = json::array(
      {{{"id", "heads-keep-weights"}, {"statement", "Heads keep the weights."}, {"quote", "q"}}});
  bank["questions"][0]["objective"] = "heads-keep-weights";
  CHECK(findings(bank, "no-objective").empty());
}

TEST_CASE("objective-overload: at most 6 questions on one objective, across the loaded banks",
          "[lint]") {
  json crowded = clean_bank();
  crowded["objectives"] = json::array(
      {{{"id", "heads-keep-weights"}, {"statement", "Heads keep the weights."}, {"quote", "q"}}});
  for (json& q : crowded["questions"])
    q["objective"] = "heads-keep-weights";
  for (const int width : {1024, 2048})
    crowded["questions"].push_back(
        numeric("heads-total-" + std::to_string(width),
                "Count a " + std::to_string(width) + "-wide block's weights without biases.",
                4.0 * width * width, 0));
  crowded["questions"][4]["objective"] = "heads-keep-weights";
  crowded["questions"][5]["objective"] = "heads-keep-weights";
  CHECK(findings(crowded, "objective-overload").empty());  // 6 is the limit
  crowded["questions"].push_back(
      numeric("heads-total-4096", "Count a 4096-wide block's weights.", 67108864, 0));
  crowded["questions"].back()["objective"] = "heads-keep-weights";
  const auto found = findings(crowded, "objective-overload");
  REQUIRE(found.size() == 1);
  CHECK(found[0].id.empty());  // a bank-level finding, on the bank that defines it
  CHECK_THAT(found[0].message,
             StartsWith("objective 'heads-keep-weights' has 7 questions (purpose, total-same, "
                        "rope-added, block-total, heads-total-1024, heads-total-2048, "
                        "heads-total-4096); at most 6"));
  // Concepts stand in for objectives in older banks, and the old rule's name still waives it.
  json older = clean_bank();
  for (json& q : older["questions"])
    q["concept"] = "heads-keep-weights";
  for (std::size_t i = 0; i < 3; ++i)
    older["questions"].push_back(numeric("more-" + std::to_string(i),
                                         "Count block " + std::to_string(i) + "'s weights.", 8, 0));
  for (std::size_t i = 4; i < 7; ++i)
    older["questions"][i]["concept"] = "heads-keep-weights";
  CHECK(findings(older, "objective-overload").size() == 1);
  older["bank"]["lint_allow"] =
      json::array({{{"rule", "concept-overload"}, {"reason", "Written before objectives."}}});
  CHECK(findings(older, "objective-overload").empty());
  const std::vector<Bank> banks{load_bank(older.dump(), "lint.json")};
  const LintReport report = lint(banks);
  REQUIRE(report.waivers.size() == 1);
  CHECK(report.waivers[0].rule == "objective-overload");
  CHECK(report.waivers[0].waived == 1);
}

TEST_CASE("objective-unused: an objective no loaded question tests", "[lint]") {
  json bank = clean_bank();
  bank["objectives"] = json::array(
      {{{"id", "heads-keep-weights"}, {"statement", "Heads keep the weights."}, {"quote", "q"}},
       {{"id", "heads-narrow"}, {"statement", "More heads are narrower."}, {"quote", "q"}}});
  bank["questions"][0]["objective"] = "heads-keep-weights";
  const auto found = findings(bank, "objective-unused");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message ==
        "objective 'heads-narrow' is defined but no loaded question tests "
        "it; write one, or drop the objective");
  bank["questions"][1]["objective"] = "heads-narrow";
  CHECK(findings(bank, "objective-unused").empty());
}

TEST_CASE("no-concept and concept-overload still name rules: waivers written for 0.2 load",
          "[lint][bank]") {
  json bank = clean_bank();
  bank["questions"][0].erase("concept");
  bank["questions"][0]["lint_allow"] =
      json::array({{{"rule", "no-concept"}, {"reason", "A bank from before objectives."}}});
  CHECK(bank_test::problems_of(bank).empty());
  CHECK(findings(bank, "no-objective").empty());
}

// The fixtures below hold items of the built-in banks as the reviews of 2026-12-02 read them,
// frozen: the rules must keep catching what the reviews found, after the banks are fixed.
namespace {

json fixture(const std::string& name) {
  std::ifstream file(std::string(PROOFDECK_FIXTURE_DIR) + "/../review_fixtures/" + name);
  REQUIRE(file.good());
  return json::parse(file);
}

std::vector<LintFinding> findings_in(const std::vector<json>& banks, const std::string& rule) {
  std::vector<Bank> loaded;
  for (const json& bank : banks)
    loaded.push_back(load_bank(bank.dump(), bank["bank"]["id"].get<std::string>() + ".json"));
  std::vector<LintFinding> out;
  for (LintFinding& f : lint(loaded).findings) {
    if (f.rule == rule) out.push_back(std::move(f));
  }
  return out;
}

std::set<std::string> ids_of(const std::vector<LintFinding>& found) {
  std::set<std::string> ids;
  for (const LintFinding& f : found)
    ids.insert(f.id);
  return ids;
}

}  // namespace

TEST_CASE("stem-cites-material: a prompt leaning on the lesson, the demos or the source",
          "[lint]") {
  const json bank = fixture("stems_citing_material.json");
  const auto found = findings_in({bank}, "stem-cites-material");
  // The review's seven stems (#1, #46, #62, #69, #87, #95, #102), pe-real-models-explicit among
  // them.
  CHECK(ids_of(found) == std::set<std::string>{"mha-head-roles", "pe-real-models-explicit",
                                               "pipe-pe-gaps-multi", "ln-not-weight-rescale",
                                               "deep-lesson-table", "place-pre-ln-trade",
                                               "pipe-norm-drift-fix"});
  CHECK_THAT(found.front().message, Contains("the prompt cites \"the domain source\": an exam "
                                             "item stands alone"));
  json plain = clean_bank();
  plain["questions"][0]["prompt"] =
      "In translation, cross-attention reads the source sentence. Why split attention into heads?";
  plain["questions"][1]["prompt"] =
      "A demo of the model shows 8 heads of width 64 holding the "
      "weights of one head of width 512.";
  CHECK(findings(plain, "stem-cites-material").empty());
}

TEST_CASE("tf-length-cue: true statements longer than false ones, or the longest all one key",
          "[lint]") {
  // The lesson bank's true/false items as reviewed: true ones average 174 characters, false 142.
  const json bank = fixture("transformer_layer_truefalse.json");
  const auto found = findings_in({bank}, "tf-length-cue");
  REQUIRE(found.size() == 1);
  CHECK_THAT(found[0].message, StartsWith("true statements average 174 characters and false ones "
                                          "142 (22% apart)"));
  // Eight statements alike in length: nothing to exploit.
  json even = clean_bank();
  even["questions"] = json::array();
  for (int i = 0; i < 8; ++i) {
    even["questions"].push_back(truefalse(
        "s" + std::to_string(i),
        "Statement number " + std::to_string(i) + " about heads and their widths.", i % 2 == 0));
  }
  CHECK(findings(even, "tf-length-cue").empty());
  // Twenty, alike on average, but the four longest all true.
  json fifth = even;
  fifth["questions"] = json::array();
  for (int i = 0; i < 20; ++i) {
    const bool longest = i < 4;
    const bool key = longest || i % 2 == 0;
    std::string prompt = "Heads " + std::string(longest ? 40 : i < 12 ? 30 : 38, 'x') + ".";
    fifth["questions"].push_back(truefalse("f" + std::to_string(i), prompt, key));
  }
  const auto longest = findings(fifth, "tf-length-cue");
  REQUIRE(longest.size() == 1);
  CHECK_THAT(longest[0].message, StartsWith("the 4 longest of 20 true/false statements are all "
                                            "true"));
}

TEST_CASE("absolute-cue: always, never, only… mostly in distractors", "[lint]") {
  // arch-bert-generation's pattern: every option with an absolute is wrong.
  const json bank = fixture("absolutes_in_distractors.json");
  const auto found = findings_in({bank}, "absolute-cue");
  REQUIRE(found.size() == 1);
  CHECK_THAT(found[0].message, Contains("are keys (0%), against 25% of all"));
  json even = clean_bank();
  CHECK(findings(even, "absolute-cue").empty());
}

TEST_CASE("untagged-distractor: a wrong option, or a wrong true/false answer, with no trap",
          "[lint]") {
  // The review's #40 d, #84 d, #95 d and #104 d.
  const json bank = fixture("untagged_distractors.json");
  const auto found = findings_in({bank}, "untagged-distractor");
  CHECK(ids_of(found) == std::set<std::string>{"pe-sinusoid-form", "res-why-gradient-vanishes",
                                               "place-pre-ln-trade", "pipe-norm-what-breaks"});
  json tf = clean_bank();
  tf["questions"][1].erase("trap");
  const auto statement = findings(tf, "untagged-distractor");
  REQUIRE(statement.size() == 1);
  CHECK(statement[0].message ==
        "the wrong answer (false) names no trap: tag the misconception "
        "that answering it embodies");
  CHECK(findings(clean_bank(), "untagged-distractor").empty());
}

TEST_CASE("cross-bank-duplicate: banks that load together asking one thing", "[lint]") {
  // The reviews' four cross-bank pairs, in the four banks as reviewed.
  const json pairs = fixture("cross_bank_pairs.json");
  std::vector<json> banks(pairs["banks"].begin(), pairs["banks"].end());
  const auto found = findings_in(banks, "cross-bank-duplicate");
  // Each pair is found once, on one of its two sides, naming the other.
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"sdpa-what-breaks-symmetry", "pe-what-fixes-order"},
      {"sdpa-mask-minus-infinity", "arch-middle-token"},
      {"sdpa-mask-minus-infinity", "arch-mask-effects"},
      {"sdpa-quadratic-cost", "dec-score-flops-template"},
      {"dec-llama-block-order", "pipe-norm-preln-block"}};
  for (const auto& pair : expected) {
    const std::string& a = pair.first;  // named, not bound: a lambda may capture these (C++17)
    const std::string& b = pair.second;
    INFO(a << " and " << b);
    CHECK(std::count_if(found.begin(), found.end(), [&](const LintFinding& f) {
            return (f.id == a && f.message.find(b) != std::string::npos) ||
                   (f.id == b && f.message.find(a) != std::string::npos);
          }) == 1);
  }
  CHECK(found.size() == 4);
  for (const LintFinding& f : found) {
    INFO(f.id << ": " << f.message);
    CHECK_THAT(f.message, StartsWith("shares the objective '"));
  }
  // A keyed option word for word is enough, without a shared objective.
  json first = clean_bank();
  json second = clean_bank();
  second["bank"]["id"] = "lint-two";
  for (json& q : second["questions"]) {
    q["id"] = "two-" + q["id"].get<std::string>();
    q["concept"] = "two-" + q["concept"].get<std::string>();
  }
  second["questions"][0]["prompt"] = "What is the point of several attention heads?";
  const auto keyed = findings_in({first, second}, "cross-bank-duplicate");
  REQUIRE(keyed.size() == 1);
  CHECK_THAT(keyed[0].message,
             StartsWith("shares the keyed option \"To attend to several subspaces in "
                        "parallel\" with a question of lint (purpose)"));
  // Within one bank it is near-duplicate's business, not this rule's.
  CHECK(findings(first, "cross-bank-duplicate").empty());
}

TEST_CASE("constant-template: a template whose every draw has the same answer", "[lint]") {
  json bank = clean_bank();
  bank["questions"].push_back(
      template_question("heads / heads", "Each head gets the width divided by the head count."));
  CHECK(findings(bank, "constant-template").size() == 1);
  bank["questions"].back() =
      template_question("d_model // heads", "Each head gets the width divided by the head count.");
  CHECK(findings(bank, "constant-template").empty());
}

TEST_CASE("template-literal: a number in a template's explanation that no draw computes",
          "[lint]") {
  json bank = clean_bank();
  bank["questions"].push_back(
      template_question("d_model // heads", "At width 512 with 8 heads each head is 64 wide."));
  const auto found = findings(bank, "template-literal");
  REQUIRE(found.size() == 1);
  CHECK_THAT(found[0].message, StartsWith("the explanation states 512, which no draw computes"));
  bank["questions"].back()["explanation"] =
      "At width {d_model} with {heads} heads each head's W_q, W_k and W_v are d_k wide, and the "
      "three hold 3·d_model² weights, d_model^2 per projection over all heads; 2^{heads} "
      "subsets of the heads could be pruned.";
  CHECK(findings(bank, "template-literal").empty());
  bank["questions"].back()["explanation"] = "Pruning could keep any of 2^8 subsets of the heads.";
  CHECK(findings(bank, "template-literal").size() == 1);
}

TEST_CASE("distractors-coincide: two misconceptions that give one number in a draw", "[lint]") {
  json bank = clean_bank();
  json question = template_question("d_model // heads", "Each head gets the width over the heads.");
  question["distractors"] =
      json::array({{{"formula", "d_model // 16"}, {"trap", "heads-cut"}},
                   {{"formula", "d_model // 2 // heads"}, {"trap", "heads-cost"}}});
  bank["traps"].push_back({{"id", "heads-cost"},
                           {"name", "Heads cost parameters"},
                           {"misconception", "Each head adds weights of its own."},
                           {"correction", "The heads split one width."},
                           {"source", {{"section", "Identity statement"}}}});
  bank["questions"].push_back(question);
  const auto found = findings(bank, "distractors-coincide");
  REQUIRE(found.size() == 1);
  CHECK_THAT(found[0].message,
             StartsWith("the distractors of traps heads-cut and heads-cost both give 16 in the "
                        "draw d_model=256, heads=8"));
  bank["questions"].back()["distractors"][1]["formula"] = "d_model * heads";
  CHECK(findings(bank, "distractors-coincide").empty());
  bank["questions"].back()["distractors"][1]["trap"] = "heads-cut";  // one trap, said once
  bank["questions"].back()["distractors"][1]["formula"] = "d_model // 2 // heads";
  CHECK(findings(bank, "distractors-coincide").empty());
}

TEST_CASE("precision: a fractional key needs the precision asked and a tolerance that takes it",
          "[lint]") {
  json bank = clean_bank();
  bank["questions"][3] = numeric("ratio", "What share of the weights sit in W_o?", 0.25, 0);
  const auto unasked = findings(bank, "precision");
  REQUIRE(unasked.size() == 1);
  CHECK_THAT(unasked[0].message, StartsWith("the answer 0.25 is not a whole number, and the prompt "
                                            "does not say the precision it wants"));

  bank["questions"][3] =
      numeric("third", "What is one head's share of three, to two decimal places?", 0.333333, 1e-9);
  const auto strict = findings(bank, "precision");
  REQUIRE(strict.size() == 1);
  CHECK_THAT(strict[0].message,
             StartsWith("the prompt asks for 2 decimals, but the tolerance 1×10⁻⁹ "
                        "marks that answer (0.33) wrong"));
  bank["questions"][3]["answer"]["tolerance"] = 0.005;
  CHECK(findings(bank, "precision").empty());
  bank["questions"][3]["prompt"] = "What is one head's share of three, to 3 significant figures?";
  CHECK(findings(bank, "precision").empty());
  CHECK(findings(clean_bank(), "precision").empty());  // whole numbers need no precision
}

TEST_CASE("a waiver silences its rule for that question and is listed with its reason", "[lint]") {
  json bank = clean_bank();
  bank["questions"][0]["options"].erase(3);
  bank["questions"][0]["lint_allow"] =
      json::array({{{"rule", "few-options"}, {"reason", "Only three placements exist."}}});
  const std::vector<Bank> banks{load_bank(bank.dump(), "lint.json")};
  const LintReport report = lint(banks);
  CHECK(report.findings.empty());
  REQUIRE(report.waivers.size() == 1);
  CHECK(report.waivers[0].id == "purpose");
  CHECK(report.waivers[0].reason == "Only three placements exist.");
  CHECK(report.waivers[0].waived == 1);
}

TEST_CASE("a waiver must name a rule and give a reason", "[lint][bank]") {
  json bank = clean_bank();
  bank["questions"][0]["lint_allow"] = json::array({{{"rule", "few-options"}}});
  CHECK(bank_test::problems_of(bank) ==
        std::vector<std::string>{
            "bank.json: /questions/0/lint_allow/0: missing required key 'reason'"});
  bank["questions"][0]["lint_allow"] =
      json::array({{{"rule", "few-option"}, {"reason", "Three placements exist."}}});
  const auto problems = bank_test::problems_of(bank);
  REQUIRE(problems.size() == 1);
  CHECK_THAT(problems[0], StartsWith("bank.json: /questions/0/lint_allow/0/rule: no lint rule is "
                                     "named 'few-option'; the rules: few-options, longest-key"));
}

// --- --source ---------------------------------------------------------------------------------

TEST_CASE("source check: a quote must be in the lesson and a section must start a line of it",
          "[lint][source]") {
  const std::string lesson =
      "Identity statement: heads split the width.\n\nL1 — Intuition\n\nAttention compares "
      "content,\nnot position.\n⭐ THE EARNED INSIGHT None of the three is optional.\n";
  json bank = clean_bank();
  bank["questions"][0]["source"] = {{"section", "L1 — Intuition"},
                                    {"quote", "Attention compares content, not position."}};
  bank["questions"][1]["source"] = {{"section", "THE EARNED INSIGHT"}};
  bank["questions"][2]["source"] = {{"section", "L1 — Intuition"},
                                    {"quote", "Attention compares tokens"}};
  bank["questions"][3]["source"] = {{"section", "Identity statements"}};
  const std::vector<Bank> banks{load_bank(bank.dump(), "lint.json")};
  const auto problems = check_sources(banks, "lesson", lesson);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].id == "rope-added");
  CHECK(problems[0].message ==
        "rope-added: the quote \"Attention compares tokens\" is not in lesson, word for word; "
        "copy it from the lesson");
  CHECK(problems[1].message ==
        "block-total: the section \"Identity statements\" is not a heading of lesson (no line "
        "of it starts so); name a section as the lesson writes it");
  CHECK(check_sources(banks, "another-lesson", lesson).empty());
}

// --- through the command line ---------------------------------------------------------------

namespace {

struct LintCli {
  TempDir dir;
  std::string bank;

  explicit LintCli(const json& content) : bank(dir.write("lint.json", content.dump(2))) {}

  int run(Cli& cli, std::vector<std::string> args) {
    args.insert(args.begin(), "check");
    args.insert(args.end(), {"--no-builtin", "--bank", bank, "--color", "never"});
    return cli.run(args);
  }
};

json flawed_bank() {
  json bank = clean_bank();
  bank["questions"][0]["options"].erase(3);  // few-options
  bank["questions"][2].erase("concept");     // no-objective
  bank["questions"][1]["lint_allow"] =
      json::array({{{"rule", "answer-in-stem"}, {"reason", "The statement is the claim."}}});
  return bank;
}

}  // namespace

TEST_CASE("check --lint lists findings and waivers — they warn, and fail only under --strict",
          "[lint][cli]") {
  LintCli lint_cli(flawed_bank());
  Cli plain;
  REQUIRE(lint_cli.run(plain, {"--lint"}) == 0);
  const std::string out = plain.out.str();
  CHECK_THAT(out, Contains("lint few-options purpose (lint): 3 options;"));
  CHECK_THAT(out, Contains("lint no-objective rope-added (lint): no `objective`"));
  // The report wraps at 80 columns: the waiver's count may start the next line.
  CHECK_THAT(out, Contains("waived answer-in-stem total-same (lint): The statement is the claim."));
  CHECK_THAT(out, Contains("findings waived)"));
  CHECK_THAT(out, Contains("lint: 2 findings (warnings; --strict fails them), 1 waiver"));

  Cli strict;
  CHECK(lint_cli.run(strict, {"--lint", "--strict"}) == 1);
  CHECK_THAT(strict.err.str(), Contains("2 lint findings (--strict)"));
}

TEST_CASE("check --lint --format json adds lint and lint_waivers — bank findings have a null id",
          "[lint][cli]") {
  json bank = flawed_bank();
  add_two_false_statements(bank);
  LintCli lint_cli(bank);
  Cli cli;
  REQUIRE(lint_cli.run(cli, {"--lint", "--format", "json"}) == 0);
  const json report = json::parse(cli.out.str());
  const json& lint = report.at("lint");
  REQUIRE(lint.size() == 3);
  CHECK(lint[0] == json({{"id", "purpose"},
                         {"bank", "lint"},
                         {"rule", "few-options"},
                         {"message", lint[0].at("message")}}));
  CHECK(lint[2].at("id").is_null());
  CHECK(lint[2].at("rule") == "tf-balance");
  CHECK(report.at("lint_waivers").at(0).at("reason") == "The statement is the claim.");
  CHECK(report.at("coverage").at("questions_per_concept").at("lint").at("purpose") == 1);
}

TEST_CASE("check --lint --format junit reports findings as skipped, or failures under --strict",
          "[lint][cli]") {
  LintCli lint_cli(flawed_bank());
  Cli warn;
  REQUIRE(lint_cli.run(warn, {"--lint", "--format", "junit"}) == 0);
  CHECK_THAT(warn.out.str(), Contains("<testsuite name=\"lint\" tests=\"3\" failures=\"0\" "
                                      "skipped=\"2\">"));
  CHECK_THAT(warn.out.str(), Contains("<testcase classname=\"lint\" name=\"few-options purpose\">"
                                      "<skipped message=\"3 options;"));
  Cli strict;
  CHECK(lint_cli.run(strict, {"--lint", "--strict", "--format", "junit"}) == 1);
  CHECK_THAT(strict.out.str(), Contains("failures=\"2\" skipped=\"0\""));
}

TEST_CASE("check --strict fails a question with no proof and no reason, never one with a reason",
          "[lint][cli]") {
  json bank = clean_bank();
  for (json& q : bank["questions"])
    q["unprovable"] = "A definition, not a measurement.";
  LintCli with_reasons(bank);
  Cli reasons;
  CHECK(with_reasons.run(reasons, {"--strict"}) == 0);
  CHECK_THAT(reasons.out.str(), Contains("unproven purpose (lint): no proof: A definition"));

  bank["questions"][0].erase("unprovable");
  LintCli without(bank);
  Cli missing;
  CHECK(without.run(missing, {"--strict"}) == 1);
  CHECK_THAT(missing.err.str(), Contains("1 unproven with no `unprovable` reason (--strict)"));
}

TEST_CASE("check --source names the quotes and sections the lesson does not have", "[lint][cli]") {
  json bank = clean_bank();
  bank["bank"]["lesson"] = "lesson";
  bank["questions"][0]["source"] = {{"section", "L9 — Nowhere"}};
  LintCli lint_cli(bank);
  const std::string lesson = lint_cli.dir.write("lesson.txt", "Identity statement: heads.\n");
  Cli cli;
  CHECK(lint_cli.run(cli, {"--source", lesson}) == 1);
  CHECK_THAT(cli.out.str(), Contains("SOURCE lint: purpose: the section \"L9 — Nowhere\" is not a "
                                     "heading of lesson"));
  CHECK_THAT(cli.err.str(), Contains("1 source problem"));

  const std::string other = lint_cli.dir.write("other.txt", "Identity statement: heads.\n");
  Cli mismatch;
  CHECK(lint_cli.run(mismatch, {"--source", other}) == 2);
  CHECK_THAT(mismatch.err.str(), Contains("no loaded bank is keyed to lesson 'other'"));
}

TEST_CASE(
    "the built-in banks have no lint finding but those content issues will fix, and cite "
    "and cover the lesson as it is",
    "[lint][builtin]") {
  const std::vector<Bank> banks = load_banks(BankSources{{}, true});
  const LintReport report = lint(banks);
  for (const LintFinding& f : report.findings)
    FAIL_CHECK(f.rule << " " << f.bank << "/" << f.id << ": " << f.message);
  // Until the content issues land, a finding of the objective rules is waived only so.
  for (const LintWaiverUse& waiver : report.waivers) {
    INFO(waiver.rule << " " << waiver.bank << "/" << waiver.id);
    CHECK(waiver.reason == "content issue pending");
    CHECK(waiver.waived > 0);  // a waiver that silences nothing is stale: remove it
  }
  // The lesson sits beside the checkout (../shared/seed/), as in CI.
  std::ifstream lesson(std::string(PROOFDECK_FIXTURE_DIR) +
                       "/../../../shared/seed/000_ca7851e78539aec3.txt");
  if (!lesson.good()) {
    WARN("the lesson is not beside the checkout: sources not checked here");
    return;
  }
  const std::string text((std::istreambuf_iterator<char>(lesson)),
                         std::istreambuf_iterator<char>());
  for (const SourceProblem& problem : check_sources(banks, "000_ca7851e78539aec3", text))
    FAIL_CHECK(problem.message);
  const LessonCoverage coverage = lesson_coverage(banks, "000_ca7851e78539aec3", text);
  for (const std::string& problem : coverage.problems)
    FAIL_CHECK(problem);
  for (const LessonParagraph& p : coverage.paragraphs) {
    INFO("paragraph " << p.number << " (line " << p.line << "): " << p.text.substr(0, 60));
    CHECK((!p.objectives.empty() || p.out_of_scope.has_value()));
  }
}

TEST_CASE("a numeric key is shown at the precision its prompt asks for", "[lint][precision]") {
  CHECK(key_text(5.656854249, "Give it to 3 significant figures.", 0.01) == "5.66");
  CHECK(key_text(0.00390625, "To four decimal places, what is 1/256?", 0) == "0.0039");
  CHECK(key_text(9.03089987, "Give log10 to one decimal.", 0.05) == "9.0");
  CHECK(key_text(81, "Give it exactly or to 3 significant figures.", 0) == "81");
  CHECK(key_text(0.25, "What share, to the nearest 0.01?", 0.005) == "0.25");
  CHECK(key_text(0.123456789, "What share?", 0) == "0.123456789");
}

TEST_CASE("a key at an asked precision is grouped by the number rule, its decimals kept",
          "[lint][precision]") {
  // Beside the worked line's "= 4,095.5": the same number rule, the three places asked for.
  CHECK(key_text(4095.5, "Give it to three decimal places.", 0.0005) == "4,095.500");
  CHECK(key_text(2047.875, "Give it to three decimal places.", 0.0005) == "2,047.875");
  CHECK(key_text(-12345.678, "To one decimal place?", 0.05) == "-12,345.7");
}

TEST_CASE("a key's unit follows its number once, singular after exactly 1", "[lint][precision]") {
  CHECK(with_unit("4,095.500", 4095.5, "positions") == "4,095.500 positions");
  CHECK(with_unit("33,554,432", 33554432, "bytes") == "33,554,432 bytes");
  CHECK(with_unit("1", 1, "query heads") == "1 query head");
  CHECK(with_unit("1", 1, "FLOPs") == "1 FLOP");
  CHECK(with_unit("2", 2, "query heads") == "2 query heads");
  // Not every final s is a plural: short units and singular words keep it.
  CHECK(with_unit("1", 1, "ms") == "1 ms");
  CHECK(with_unit("1", 1, "class") == "1 class");
  CHECK(with_unit("1", 1, "axis") == "1 axis");
  CHECK(with_unit("42", 42, "") == "42");
}

TEST_CASE("a key the prompt gives no precision for has the digits its tolerance needs",
          "[lint][precision]") {
  // 1% of 15.05: four digits are well inside it, and no exponent or ten-digit tail shows.
  CHECK(key_text(15.051499783199059, "In decibels?", 0.15) == "15.05");
  CHECK(key_text(1.0 / 65536, "What weight?", 0.005 / 65536) == "0.00001526");
  CHECK(key_text(0.00390625, "What weight?", 0) == "0.00390625");  // exact: every digit
  CHECK(key_text(1048576, "How many?", 0) == "1,048,576");
}

TEST_CASE("a tolerance reads in plain words, and only when it says something",
          "[lint][precision]") {
  CHECK(tolerance_text(0.0039, "Share?", 0.0001, false) == " (±0.0001)");
  CHECK(tolerance_text(32, "Std?", 0.05, true) == " (±5%)");
  CHECK(tolerance_text(0.00390625, "Weight?", 0.005, true) == " (±0.5%)");
  // Finer than a hundredth of a percent: the absolute amount.
  CHECK(tolerance_text(15.051499783199059, "Decibels?", 5e-5, true) == " (±0.0007526)");
  // Finer than the digits the key is shown with: "15.0515" already says all it allows.
  CHECK(tolerance_text(15.051499783199059, "Decibels?", 1e-6, true).empty());
  // A whole-number key with a tolerance below its last digit is exact as written.
  CHECK(tolerance_text(1048576, "How many?", 1e-9, false).empty());
  CHECK(tolerance_text(2.5, "Ratio?", 0, false).empty());
}

}  // namespace test_lint
