// The rules about an answer that grading, printouts, exports and lint all read, each with one
// home (docs/ARCHITECTURE.md § One home per rule): a numeric key's allowed error, a distractor's
// value, where a step is shown, the question types' names and the seed proofs run with.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "bank/formula.hpp"
#include "bank/instance.hpp"
#include "bank/model.hpp"
#include "bank/proof.hpp"
#include "core/errors.hpp"
#include "engine/rng.hpp"

namespace test_instance {

using namespace proofdeck::bank;

namespace {

NumericKey key_with(double tolerance, bool relative) {
  NumericKey key;
  key.tolerance = tolerance;
  key.relative = relative;
  return key;
}

}  // namespace

TEST_CASE("an absolute tolerance allows the same error at every key", "[bank][instance]") {
  const NumericKey key = key_with(0.5, false);
  CHECK(key.allowed(10.0) == 0.5);
  CHECK(key.allowed(-1000.0) == 0.5);
  CHECK(key.allowed(0.0) == 0.5);
}

TEST_CASE("a relative tolerance allows that fraction of the key's size, negative keys too",
          "[bank][instance]") {
  const NumericKey key = key_with(0.01, true);
  CHECK(key.allowed(2000.0) == Approx(20.0));
  CHECK(key.allowed(-2000.0) == Approx(20.0));
  CHECK(key.allowed(0.0) == 0.0);
}

TEST_CASE("a numeric answer matches within the key's allowed error and not beyond it",
          "[bank][instance]") {
  const NumericKey key = key_with(0.01, true);
  CHECK(numeric_matches(-1010.0, -1000.0, key.tolerance, key.relative));
  CHECK_FALSE(numeric_matches(-1011.0, -1000.0, key.tolerance, key.relative));
}

TEST_CASE("a distractor's value is its number, or its formula over the drawn parameters",
          "[bank][instance]") {
  Distractor fixed;
  fixed.number = 4096.0;
  CHECK(fixed.value({}) == 4096.0);
  CHECK(fixed.value({{"d_model", 512.0}}) == 4096.0);

  Distractor templated;
  templated.formula = Formula::parse("3 * d_model", "/questions/0/distractors/0/formula");
  CHECK(templated.value({{"d_model", 512.0}}) == 1536.0);
  CHECK(templated.value({{"d_model", 64.0}}) == 192.0);
}

TEST_CASE("a distractor whose formula is undefined for the draw has no value", "[bank][instance]") {
  Distractor d;
  d.formula = Formula::parse("d_model / (heads - 8)", "/questions/0/distractors/0/formula");
  CHECK(d.value({{"d_model", 512.0}, {"heads", 4.0}}) == -128.0);
  CHECK_THROWS_AS(d.value({{"d_model", 512.0}, {"heads", 8.0}}), proofdeck::InputError);
}

TEST_CASE("distractor_values leaves out a distractor undefined for the draw", "[bank][instance]") {
  Question q;
  q.type = QuestionType::numeric;
  Distractor fixed, undefined;
  fixed.number = 7.0;
  undefined.formula = Formula::parse("1 / (heads - 8)", "/questions/0/distractors/1/formula");
  q.distractors = {fixed, undefined};
  Instance instance;
  instance.question = &q;
  instance.bindings = {{"heads", 8.0}};
  CHECK(distractor_values(instance) == std::vector<double>{7.0});
  instance.bindings = {{"heads", 9.0}};
  CHECK(distractor_values(instance) == std::vector<double>{7.0, 1.0});
}

TEST_CASE("position_of finds where each step is shown", "[bank][instance]") {
  Instance instance;
  instance.order = {2, 0, 3, 1};  // shown position → step
  CHECK(instance.position_of(0) == 1);
  CHECK(instance.position_of(1) == 3);
  CHECK(instance.position_of(2) == 0);
  CHECK(instance.position_of(3) == 2);
  CHECK(instance.position_of(4) == 4);  // no such step: past the end
}

TEST_CASE("position_of inverts every drawn order of an order question", "[bank][instance]") {
  Question q;
  q.id = "steps";
  q.type = QuestionType::order;
  for (const char* id : {"a", "b", "c", "d", "e"})
    q.steps.push_back({id, std::string("step ") + id});
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    proofdeck::engine::Rng rng(seed);
    const Instance instance = instantiate(q, rng);
    for (std::size_t step = 0; step < q.steps.size(); ++step)
      REQUIRE(instance.order[instance.position_of(step)] == step);
  }
}

TEST_CASE("every question type has one name, read back to the same type", "[bank][instance]") {
  std::set<std::string_view> names;
  for (const QuestionTypeName& entry : kQuestionTypes) {
    CHECK(question_type_name(entry.type) == entry.name);
    names.insert(entry.name);
  }
  CHECK(names.size() == kQuestionTypes.size());
  CHECK(question_type_names() ==
        std::vector<std::string>{"single", "multi", "truefalse", "numeric", "order"});
}

TEST_CASE("proofs run with seed 0 unless check is given another", "[bank][instance]") {
  CHECK(kProofSeed == 0);
  Proof proof;
  proof.demo = "order-blindness";
  DemoRunner shown = proof_runner(kProofSeed);
  CHECK(shown.run(proof, {}, "/questions/0/proof").params.at("seed") == 0);
  DemoRunner checked = proof_runner(5);
  CHECK(checked.run(proof, {}, "/questions/0/proof").params.at("seed") == 5);
}

TEST_CASE("a source line names the section once, never repeating a quote that begins with it",
          "[bank][instance]") {
  Source source{.section = "The single most consequential misreading",
                .quote = "The single most consequential misreading of this design is that",
                .reference = {}};
  CHECK(source_line(source, "\"", "\"") ==
        "\"The single most consequential misreading of this design is that\"");
  source.section = "L2 — Mechanism";
  source.quote = "adds that vector elementwise";
  CHECK(source_line(source, "“", "”") == "L2 — Mechanism — “adds that vector elementwise”");
  // Words, not characters: a section that is only the start of the quote's first word stays.
  source.section = "Attention";
  source.quote = "Attentional drift is";
  CHECK(source_line(source, "\"", "\"") == "Attention — \"Attentional drift is\"");
  source.quote.clear();
  CHECK(source_line(source, "\"", "\"") == "Attention");
  source.reference = "Shazeer 2019";
  CHECK(source_line(source, "\"", "\"") == "Shazeer 2019");
}

}  // namespace test_instance
