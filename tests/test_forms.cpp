// One fact per form: a quiz, an exam or a printed sheet never asks an objective twice, nor a pair
// a question marks `same_fact_as`; a selection of fewer facts than asked for gives a shorter form
// and says so; `check --forms N` draws many forms per bank and fails on a repeat; the built-in
// banks give 20-question forms where the lesson and the decoder bank are drawn alone.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "bank/form.hpp"
#include "bank/form_audit.hpp"
#include "bank/loader.hpp"
#include "bank/sources.hpp"
#include "bank_test_support.hpp"
#include "cli/check_forms.hpp"
#include "cli_test_support.hpp"
#include "engine/rng.hpp"

namespace test_forms {

using namespace proofdeck::bank;
using Catch::Matchers::Contains;
using cli_test::Cli;
using cli_test::TempDir;
using nlohmann::json;

namespace {

// The study bank with order-blind's blind-1 marked as the fact of neutral-1 (another objective).
json with_same_fact() {
  json bank = bank_test::study_bank();
  bank["questions"][5]["same_fact_as"] = json::array({"neutral-1"});
  return bank;
}

std::vector<std::string> problems(const std::vector<json>& banks) {
  TempDir dir;
  for (std::size_t i = 0; i < banks.size(); ++i)
    dir.write("bank" + std::to_string(i) + ".json", banks[i].dump(2));
  try {
    load_banks(BankSources{{dir.path().string()}, false});
  } catch (const BankErrors& e) {
    return e.problems();
  }
  return {};
}

std::set<std::string> ids_of(const std::vector<Instance>& form) {
  std::set<std::string> ids;
  for (const Instance& instance : form)
    ids.insert(instance.question->id);
  return ids;
}

}  // namespace

TEST_CASE("same_fact_as names other loaded questions, of another objective", "[forms][loader]") {
  CHECK(problems({with_same_fact()}).empty());

  json unknown = bank_test::study_bank();
  unknown["questions"][5]["same_fact_as"] = json::array({"neutral-9"});
  const auto missing = problems({unknown});
  REQUIRE(missing.size() == 1);
  CHECK_THAT(missing[0], Contains("/questions/5/same_fact_as/0: no loaded bank has a question "
                                  "'neutral-9'; did you mean 'neutral-1'?"));

  json itself = bank_test::study_bank();
  itself["questions"][5]["same_fact_as"] = json::array({"blind-1"});
  REQUIRE(problems({itself}).size() == 1);
  CHECK_THAT(problems({itself})[0], Contains("'blind-1' names the question itself"));

  json same = bank_test::study_bank();
  same["questions"][0]["same_fact_as"] = json::array({"neutral-2"});
  REQUIRE(problems({same}).size() == 1);
  CHECK_THAT(problems({same})[0],
             Contains("'neutral-2' already asks objective 'heads-neutral', so no form holds the "
                      "two together; same_fact_as is for questions on different objectives"));

  json twice = bank_test::study_bank();
  twice["questions"][5]["same_fact_as"] = json::array({"neutral-1", "neutral-1"});
  REQUIRE(problems({twice}).size() == 1);
  CHECK_THAT(problems({twice})[0],
             Contains("/questions/5/same_fact_as/1: 'neutral-1' is named twice"));

  json kind = bank_test::study_bank();
  kind["questions"][5]["same_fact_as"] = "neutral-1";
  REQUIRE(problems({kind}).size() == 1);
  CHECK_THAT(problems({kind})[0], Contains("/questions/5/same_fact_as: expected a list"));

  // Across banks: the id must be in a loaded bank, as an objective must.
  json other = bank_test::study_bank();
  other["bank"]["id"] = "other";
  other["objectives"] = json::array();
  other["questions"] = json::array({bank_test::statement("elsewhere", "heads", "heads-width",
                                                         "A head is as wide as d_model/h.")});
  other["questions"][0]["same_fact_as"] = json::array({"blind-2"});
  CHECK(problems({bank_test::study_bank(), other}).empty());
}

TEST_CASE("no form holds a same_fact_as pair: they are enemies, and a draw swaps one out",
          "[forms]") {
  const std::vector<Bank> banks{load_bank(with_same_fact().dump(), "units.json")};
  const Enemies enemies = form_enemies(banks);
  REQUIRE(enemies.contains({"blind-1", "neutral-1"}));
  CHECK(enemies.at({"blind-1", "neutral-1"}) == "one fact, marked same_fact_as");
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    INFO("seed " << seed);
    const std::set<std::string> exam = ids_of(draw_exam_form(banks, {}, 3, seed).form);
    CHECK_FALSE((exam.contains("blind-1") && exam.contains("neutral-1")));
    CHECK(exam.size() == 3);  // another question of the objective takes the place
    proofdeck::engine::Rng rng(seed);
    std::vector<const Question*> pool;
    for (const Question& q : banks[0].questions)
      pool.push_back(&q);
    const std::set<std::string> quiz = ids_of(draw_quiz_form(pool, 3, true, rng, enemies).form);
    CHECK_FALSE((quiz.contains("blind-1") && quiz.contains("neutral-1")));
    CHECK(quiz.size() == 3);
  }
}

TEST_CASE("repeated_fact finds two questions of one objective, or a same_fact_as pair", "[forms]") {
  const Bank bank = load_bank(with_same_fact().dump(), "units.json");
  const auto q = [&](std::size_t i) { return &bank.questions[i]; };
  CHECK_FALSE(repeated_fact({q(0), q(3), q(6)}).has_value());  // three objectives
  const auto objective = repeated_fact({q(3), q(0), q(1)});
  REQUIRE(objective.has_value());
  CHECK(objective->first == "neutral-1");
  CHECK(objective->second == "neutral-2");
  CHECK(objective->why == "objective heads-neutral");
  const auto marked = repeated_fact({q(0), q(5)});
  REQUIRE(marked.has_value());
  CHECK(marked->why == "same_fact_as");
}

TEST_CASE(
    "a quiz or an exam asked for more questions than the selection has facts asks each "
    "once and says so",
    "[forms][cli]") {
  TempDir dir;
  const std::string bank = dir.write("units.json", bank_test::study_bank().dump(2));
  for (const std::string mode : {"quiz", "exam"}) {
    INFO(mode);
    Cli cli;
    const std::string report = (dir.path() / (mode + ".json")).string();
    cli.in.str(mode == "exam" ? "submit\nyes\n" : "t\nt\nt\n");
    REQUIRE(
        cli.run({mode, "--count", "5", "--seed", "1", "--no-builtin", "--bank", bank, "--data-dir",
                 (dir.path() / "data").string(), "--report", report, "--color", "never"}) == 0);
    std::ifstream file(report);
    CHECK(json::parse(file)["questions"].size() == 3);
    CHECK_THAT(cli.err.str(), Contains("3 questions: the selection holds 3 distinct facts\n"));
  }
  Cli print;
  REQUIRE(print.run({"print", "--count", "5", "--no-builtin", "--bank", bank}) == 0);
  CHECK_THAT(print.err.str(), Contains("3 questions: the selection holds 3 distinct facts"));
  // Within the facts there are, nothing is said.
  Cli two;
  REQUIRE(two.run({"print", "--count", "2", "--no-builtin", "--bank", bank}) == 0);
  CHECK(two.err.str().empty());
}

TEST_CASE(
    "the built-in banks give 20-question forms with every fact once: all, the lesson's "
    "and the decoder's alone",
    "[forms][builtin]") {
  const std::vector<Bank> banks = load_banks(BankSources{{}, true});
  const std::vector<FormAudit> audits = audit_forms(banks, 60, 20, 2);
  REQUIRE(audits.size() == 2 * (banks.size() + 1));
  for (const FormAudit& audit : audits) {
    INFO(audit.scope << " " << audit.draw);
    CHECK(audit.repeating == 0);
    CHECK(audit.forms == 60);
    if (audit.scope == "all" || audit.scope == "transformer-layer" ||
        audit.scope == "modern-decoder") {
      CHECK(audit.shortest == 20);
    }
    CHECK(audit.longest <= 20);
  }
  // One thread or two: the same forms.
  const std::vector<FormAudit> one = audit_forms(banks, 10, 20, 1);
  const std::vector<FormAudit> two = audit_forms(banks, 10, 20, 2);
  for (std::size_t i = 0; i < one.size(); ++i)
    CHECK((one[i].shortest == two[i].shortest && one[i].longest == two[i].longest));
}

TEST_CASE("check --forms: JSON per scope and draw, a text line each, exit 1 on a repeat",
          "[forms][cli][check]") {
  TempDir dir;
  const std::string bank = dir.write("units.json", bank_test::study_bank().dump(2));
  Cli as_json;
  REQUIRE(as_json.run(
              {"check", "--forms", "30", "--format", "json", "--no-builtin", "--bank", bank}) == 0);
  const json report = json::parse(as_json.out.str());
  CHECK(report["forms"] == 30);
  CHECK(report["count"] == 20);
  REQUIRE(report["scopes"].size() == 4);  // all and units, each as quiz and as exam draw
  CHECK(report["scopes"][0] == json({{"scope", "all"},
                                     {"draw", "quiz"},
                                     {"repeat_share", 0.0},
                                     {"length", {{"min", 3}, {"max", 3}}}}));
  CHECK(report["scopes"][3]["scope"] == "units");
  CHECK(report["scopes"][3]["draw"] == "exam");

  Cli text;
  REQUIRE(text.run({"check", "--forms", "30", "--no-builtin", "--bank", bank, "--color", "never",
                    "--width", "80"}) == 0);
  CHECK_THAT(text.out.str(), Contains("  scope  draw  length  repeat a fact\n") &&
                                 Contains("  units  exam  3       0 of 30\n") &&
                                 Contains("No form asks a fact twice."));

  // A checking option beside it is a usage error; junit is not one of its formats.
  Cli mixed;
  CHECK(mixed.run({"check", "--forms", "3", "--lint", "--no-builtin", "--bank", bank}) == 2);
  CHECK_THAT(mixed.err.str(), Contains("--forms draws forms and checks nothing else, so it takes "
                                       "no --lint"));
  Cli junit;
  CHECK(junit.run({"check", "--forms", "3", "--format", "junit", "--no-builtin", "--bank", bank}) ==
        2);
  Cli zero;
  CHECK(zero.run({"check", "--forms", "0", "--no-builtin", "--bank", bank}) == 2);
}

TEST_CASE("check --forms' text names the first repeating form and the command that draws it",
          "[forms][check]") {
  FormAudit repeating;
  repeating.scope = "units";
  repeating.draw = "quiz";
  repeating.forms = 40;
  repeating.repeating = 2;
  repeating.shortest = 19;
  repeating.longest = 20;
  repeating.first_seed = 7;
  repeating.first_repeat = {"neutral-1", "neutral-2", "objective heads-neutral"};
  FormAudit clean = repeating;
  clean.scope = "all";
  clean.repeating = 0;
  clean.first_seed.reset();
  const std::string text = proofdeck::cli::forms_text({clean, repeating}, 40,
                                                      proofdeck::Theme::plain(), 120, "proofdeck");
  CHECK_THAT(text, Contains("  all    quiz  19–20   0 of 40\n") &&
                       Contains("  units  quiz  19–20   2 of 40\n") &&
                       Contains("first at seed 7: neutral-1 and neutral-2 (objective "
                                "heads-neutral); to see that form:") &&
                       Contains("proofdeck --seed 7 quiz --from-bank units --count 20") &&
                       Contains("1 of 2 draws ask a fact twice on some form."));
  const json shape = proofdeck::cli::forms_json({clean, repeating}, 40);
  CHECK(shape["scopes"][1]["repeat_share"] == 0.05);
}

}  // namespace test_forms
