// Objectives as the unit: the bank format (objectives, objective, out_of_scope), objective ids
// across banks, forms that ask one question per objective before any second, drill burying an
// objective's other cards for the day, and a lesson's coverage by the objectives that quote it.
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "bank/coverage.hpp"
#include "bank/form.hpp"
#include "bank/lint.hpp"
#include "bank/loader.hpp"
#include "bank/sources.hpp"
#include "bank_test_support.hpp"
#include "cli_test_support.hpp"
#include "engine/rng.hpp"
#include "study/progress.hpp"

namespace test_objectives {

using namespace proofdeck::bank;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using cli_test::Cli;
using cli_test::TempDir;
using nlohmann::json;

using bank_test::objective;
using bank_test::statement;
using bank_test::study_bank;

namespace {

std::vector<const Question*> pointers(const Bank& bank) {
  std::vector<const Question*> out;
  for (const Question& q : bank.questions)
    out.push_back(&q);
  return out;
}

std::vector<std::string> objectives_of(const std::vector<const Question*>& questions) {
  std::vector<std::string> out;
  for (const Question* q : questions)
    out.push_back(q->objective_id());
  return out;
}

std::size_t distinct(const std::vector<std::string>& values) {
  return std::set<std::string>(values.begin(), values.end()).size();
}

// Banks written to a folder and loaded as `check` and the study commands load them.
std::vector<Bank> load_folder(const TempDir& dir, const std::vector<json>& banks) {
  for (std::size_t i = 0; i < banks.size(); ++i)
    dir.write("bank" + std::to_string(i) + ".json", banks[i].dump(2));
  return load_banks(BankSources{{dir.path().string()}, false});
}

std::vector<std::string> load_problems(const std::vector<json>& banks) {
  TempDir dir;
  try {
    load_folder(dir, banks);
  } catch (const BankErrors& e) {
    std::vector<std::string> problems;
    for (const std::string& p : e.problems())
      problems.push_back(p.substr(p.find("bank")));  // from the file's name on
    return problems;
  }
  return {};
}

}  // namespace

// --- the format -------------------------------------------------------------------------------

TEST_CASE("a bank lists its objectives and each question names one", "[objectives][bank]") {
  const Bank bank = load_bank(study_bank().dump(), "units.json");
  REQUIRE(bank.objectives.size() == 3);
  CHECK(bank.objectives[0].id == "heads-neutral");
  CHECK(bank.objectives[0].statement == "Splitting into heads keeps the weights.");
  CHECK(bank.objectives[0].source.quote == "costs the same total parameters");
  CHECK(bank.objectives[0].bank == "units");
  CHECK(bank.objectives[0].pointer == "/objectives/0");
  CHECK(bank.questions[3].objective == "heads-width");
  CHECK(bank.questions[3].objective_id() == "heads-width");
}

TEST_CASE("a question without an objective counts under its concept, else alone",
          "[objectives][bank]") {
  json bank = study_bank();
  bank["questions"][0].erase("objective");
  bank["questions"][0]["concept"] = "old-concept";
  bank["questions"][1].erase("objective");
  const Bank loaded = load_bank(bank.dump(), "units.json");
  CHECK(loaded.questions[0].objective.empty());
  CHECK(loaded.questions[0].objective_id() == "old-concept");
  CHECK(loaded.questions[1].objective_id() == "neutral-2");
}

TEST_CASE("an objective states a sentence and rests on a quote or a source", "[objectives][bank]") {
  json bank = study_bank();
  bank["objectives"][0].erase("quote");
  bank["objectives"][1]["source"] = {{"section", "Identity statement"}, {"quote", "twice"}};
  bank["objectives"][2].erase("statement");
  bank["objectives"].push_back(objective("heads-neutral", "Again.", "again"));
  CHECK(bank_test::problems_of(bank) ==
        std::vector<std::string>{
            "bank.json: /objectives/0: give the lesson's words it rests on ('quote') or a "
            "'source'",
            "bank.json: /objectives/1/quote: the quote is given twice, here and in 'source'",
            "bank.json: /objectives/2: missing required key 'statement'",
            "bank.json: /objectives/3/id: objective id 'heads-neutral' is used twice"});
}

TEST_CASE("objective ids are global: a question may name another loaded bank's objective",
          "[objectives][bank]") {
  json other = study_bank();
  other["bank"]["id"] = "other";
  other.erase("objectives");
  for (json& q : other["questions"])
    q["id"] = "other-" + q["id"].get<std::string>();
  TempDir dir;
  const std::vector<Bank> banks = load_folder(dir, {study_bank(), other});
  REQUIRE(banks.size() == 2);
  CHECK(banks[1].questions[0].objective_id() == "heads-neutral");
  CHECK(banks[1].objectives.empty());
}

TEST_CASE("an objective no loaded bank defines, or one defined twice, is refused with both places",
          "[objectives][bank]") {
  json bank = study_bank();
  bank["questions"][0]["objective"] = "heads-nuetral";
  CHECK(load_problems({bank}) ==
        std::vector<std::string>{
            "bank0.json: /questions/0/objective: no loaded bank defines objective "
            "'heads-nuetral'; did you mean 'heads-neutral'? (define it in this bank's "
            "'objectives', or load the bank that defines it)"});

  json twin = study_bank();
  twin["bank"]["id"] = "twin";
  twin["questions"] = json::array();
  const auto problems = load_problems({study_bank(), twin});
  REQUIRE(problems.size() == 3);
  CHECK_THAT(problems[0],
             StartsWith("bank1.json: /objectives/0/id: objective 'heads-neutral' is already "
                        "defined at "));
  CHECK_THAT(problems[0], Contains("bank0.json: /objectives/0; define it once and name it from "
                                   "the other bank"));
}

TEST_CASE("out_of_scope names a paragraph with a reason, and a lesson-error says what is right",
          "[objectives][bank]") {
  json bank = study_bank();
  bank["out_of_scope"] = json::array(
      {{{"quote", "Exam domain 1 carries 6%"}, {"reason", "exam-meta"}},
       {{"quote", "RoPE acts upstream"}, {"reason", "lesson-error"}},
       {{"quote", "A worked table"}, {"reason", "scenario-data"}, {"reference", "A paper"}},
       {{"quote", "Something"}, {"reason", "off-topic"}}});
  CHECK(bank_test::problems_of(bank) ==
        std::vector<std::string>{
            "bank.json: /out_of_scope/1: a lesson-error gives the correct claim ('correction') "
            "and the paper that states it ('reference')",
            "bank.json: /out_of_scope/2: 'correction' and 'reference' belong to a lesson-error, "
            "not to scenario-data",
            "bank.json: /out_of_scope/3/reason: 'off-topic' is not a reason; expected exam-meta, "
            "scenario-data, summary, lesson-error"});
  bank["out_of_scope"] = json::array({{{"quote", "RoPE acts upstream"},
                                       {"reason", "lesson-error"},
                                       {"correction", "RoPE rotates Q and K inside attention."},
                                       {"reference", "Su et al. 2021, §3.4"}}});
  const Bank loaded = load_bank(bank.dump(), "units.json");
  REQUIRE(loaded.out_of_scope.size() == 1);
  CHECK(loaded.out_of_scope[0].reason == OutOfScopeReason::lesson_error);
  CHECK(loaded.out_of_scope[0].reference == "Su et al. 2021, §3.4");
}

// --- forms ------------------------------------------------------------------------------------

TEST_CASE("objective rounds: every objective once, in pool order, before any second",
          "[objectives][form]") {
  const Bank bank = load_bank(study_bank().dump(), "units.json");
  const std::vector<const Question*> pool = pointers(bank);
  const std::vector<const Question*> order = objective_rounds(pool);
  REQUIRE(order.size() == 7);
  CHECK(objectives_of(order) ==
        std::vector<std::string>{"heads-neutral", "heads-width", "order-blind", "heads-neutral",
                                 "heads-width", "order-blind", "heads-neutral"});
  CHECK(order[0]->id == "neutral-1");
  CHECK(order[3]->id == "neutral-2");  // the second round keeps the pool's order
}

TEST_CASE("an exam draw asks each objective at most once: a pool of fewer gives a shorter form",
          "[objectives][form]") {
  const Bank bank = load_bank(study_bank().dump(), "units.json");  // 3 objectives
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    INFO("seed " << seed);
    for (const std::size_t n : {2u, 3u, 5u, 7u}) {
      INFO(n << " questions");
      proofdeck::engine::Rng rng(seed);
      std::map<std::string, std::vector<const Question*>> spares;
      const std::vector<const Question*> drawn = draw_spread(pointers(bank), n, rng, spares);
      REQUIRE(drawn.size() == std::min<std::size_t>(n, 3));
      CHECK(distinct(objectives_of(drawn)) == drawn.size());
    }
  }
}

TEST_CASE("a draw of a list the learner chose (--question, --trap) asks it whole, in rounds",
          "[objectives][form]") {
  const Bank bank = load_bank(study_bank().dump(), "units.json");
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    INFO("seed " << seed);
    for (const std::size_t n : {2u, 3u, 5u, 7u}) {
      INFO(n << " questions");
      proofdeck::engine::Rng rng(seed);
      std::map<std::string, std::vector<const Question*>> spares;
      const std::vector<const Question*> drawn = draw_spread(pointers(bank), n, rng, spares, true);
      REQUIRE(drawn.size() == n);
      const std::vector<std::string> asked = objectives_of(drawn);
      // At most one of each while objectives are left, then rounds: never a third of one while
      // another has had only one.
      CHECK(distinct(asked) == std::min<std::size_t>(n, 3));
      std::map<std::string, int> per;
      for (const std::string& o : asked)
        ++per[o];
      for (const auto& [o, count] : per)
        CHECK(count <= (n <= 3 ? 1 : n <= 6 ? 2 : 3));
    }
  }
}

TEST_CASE("a topic's share of an exam follows its objectives, not how often each is asked",
          "[objectives][form]") {
  // heads asks two objectives in five questions, order one in two: 2 of 3 go to heads.
  const Bank bank = load_bank(study_bank().dump(), "units.json");
  proofdeck::engine::Rng rng(3);
  std::map<std::string, std::vector<const Question*>> spares;
  const auto drawn = draw_spread(pointers(bank), 3, rng, spares);
  std::map<std::string, int> topics;
  for (const Question* q : drawn)
    ++topics[q->topic];
  CHECK(topics == std::map<std::string, int>{{"heads", 2}, {"order", 1}});
  CHECK(exam_quota({2, 1}, 3) == std::vector<int>{2, 1});
}

TEST_CASE("a spare replacing a question is of an objective the form does not hold, or none",
          "[objectives][form]") {
  const Bank bank = load_bank(study_bank().dump(), "units.json");
  std::vector<Instance> form(2);
  form[0].question = &bank.questions[0];  // heads-neutral
  form[1].question = &bank.questions[5];  // order-blind: the one being replaced
  std::vector<const Question*> queue = {&bank.questions[1], &bank.questions[6], &bank.questions[3]};
  // neutral-2 repeats heads-neutral; blind-2 repeats the replaced one's objective, which leaves;
  // width-1 is new: blind-2 comes first in the queue and its objective is free once replaced.
  CHECK((*take_spare(queue, form, 1))->id == "blind-2");
  CHECK((*take_spare(queue, form, 1))->id == "width-1");
  CHECK_FALSE(take_spare(queue, form, 1).has_value());  // only a repeat is left: no spare
  CHECK(queue.size() == 1);
  CHECK(queue.front()->id == "neutral-2");
}

TEST_CASE("a form never pairs two near-duplicates: the later one is replaced or left out",
          "[objectives][form]") {
  json units = study_bank();
  units["questions"][2]["prompt"] = units["questions"][0]["prompt"].get<std::string>() + " Yes.";
  const std::vector<Bank> banks{load_bank(units.dump(), "units.json")};
  const Enemies enemies = form_enemies(banks);
  REQUIRE(enemies.size() == 1);
  CHECK(enemies.begin()->first == std::pair<std::string, std::string>{"neutral-1", "neutral-3"});
  std::vector<Instance> form(2);
  form[0].question = &banks[0].questions[0];
  form[1].question = &banks[0].questions[2];
  CHECK_THAT(*form_conflict(form[0], form[1], enemies),
             StartsWith("neutral-1 and neutral-3 ask the same thing (its prompt shares"));
  CHECK_FALSE(form_conflict(form[0], form[1]).has_value());  // neither states the other's key
  const auto left = untangle(
      form, [](std::size_t) { return std::optional<Instance>{}; }, enemies);
  REQUIRE(left.size() == 1);
  CHECK(left[0].id == "neutral-3");
  CHECK(form.size() == 1);
}

TEST_CASE("quiz and exam ask one question per objective first, --question as named",
          "[objectives][form][cli]") {
  TempDir dir;
  const std::string bank = dir.write("units.json", study_bank().dump(2));
  for (const std::string mode : {"quiz", "exam"}) {
    for (const std::string seed : {"0", "1", "2", "3"}) {
      INFO(mode << " seed " << seed);
      Cli cli;
      const std::string report = (dir.path() / (mode + seed + ".json")).string();
      cli.in.str(mode == "exam" ? "submit\nyes\n" : "t\nt\nt\n");
      REQUIRE(cli.run({mode, "--count", "3", "--seed", seed, "--no-builtin", "--bank", bank,
                       "--data-dir", (dir.path() / "data").string(), "--report", report, "--now",
                       "2026-03-02T09:00:00Z", "--color", "never"}) == 0);
      std::ifstream file(report);
      const json result = json::parse(file);
      std::set<std::string> objectives;
      const Bank loaded = load_bank(study_bank().dump(), "units.json");
      for (const json& q : result["questions"]) {
        for (const Question& known : loaded.questions)
          if (known.id == q["id"]) objectives.insert(known.objective_id());
      }
      CHECK(result["questions"].size() == 3);
      CHECK(objectives.size() == 3);
    }
  }
  Cli named;
  REQUIRE(named.run({"quiz", "--question", "neutral-1", "--question", "neutral-2", "--no-builtin",
                     "--bank", bank, "--data-dir", (dir.path() / "data").string(), "--color",
                     "never"}) == 0);
  CHECK_THAT(named.out.str(), Contains("· 2 questions"));
}

TEST_CASE("quiz --trap asks one question per objective first, then the next round",
          "[objectives][form][cli]") {
  TempDir dir;
  const std::string bank = dir.write("units.json", study_bank().dump(2));
  const std::string report = (dir.path() / "trap.json").string();
  Cli cli;
  std::string answers;
  for (int i = 0; i < 7; ++i)
    answers += "t\n";
  cli.in.str(answers);
  REQUIRE(cli.run({"quiz", "--trap", "heads-cut", "--seed", "5", "--no-builtin", "--bank", bank,
                   "--data-dir", (dir.path() / "data").string(), "--report", report, "--color",
                   "never"}) == 0);
  std::ifstream file(report);
  const json result = json::parse(file);
  REQUIRE(result["questions"].size() == 7);  // --trap asks all it selects
  const Bank loaded = load_bank(study_bank().dump(), "units.json");
  std::vector<std::string> asked;
  for (const json& q : result["questions"]) {
    for (const Question& known : loaded.questions)
      if (known.id == q["id"]) asked.push_back(known.objective_id());
  }
  CHECK(distinct({asked.begin(), asked.begin() + 3}) == 3);
  CHECK(distinct({asked.begin() + 3, asked.begin() + 6}) == 3);
  CHECK(asked[6] == "heads-neutral");
}

TEST_CASE("list objectives: each objective, its statement and how many questions ask it",
          "[objectives][cli]") {
  TempDir dir;
  json bank = study_bank();
  bank["questions"][6].erase("objective");
  bank["questions"][6]["concept"] = "no-position-term";
  const std::string path = dir.write("units.json", bank.dump(2));
  Cli text;
  REQUIRE(text.run({"list", "objectives", "--no-builtin", "--bank", path, "--color", "never",
                    "--width", "100"}) == 0);
  CHECK_THAT(text.out.str(),
             Contains("heads-neutral     3 questions · Splitting into heads keeps the weights.") &&
                 Contains("order-blind       1 question · Attention alone is blind to order.") &&
                 Contains("no-position-term  1 question · (no objective named") &&
                 Contains("4 objectives"));
  Cli as_json;
  REQUIRE(as_json.run({"list", "objectives", "--format", "json", "--no-builtin", "--bank", path}) ==
          0);
  const json items = json::parse(as_json.out.str());
  REQUIRE(items.size() == 4);
  CHECK(items[0] == json({{"id", "heads-neutral"},
                          {"bank", "units"},
                          {"statement", "Splitting into heads keeps the weights."},
                          {"questions", 3}}));
  CHECK(items[3]["statement"].is_null());
  Cli questions;
  REQUIRE(questions.run(
              {"list", "questions", "--format", "json", "--no-builtin", "--bank", path}) == 0);
  CHECK(json::parse(questions.out.str())[0]["objective"] == "heads-neutral");
}

TEST_CASE("list with a filter keeps what the selected questions touch and counts only those",
          "[objectives][cli]") {
  // The filters select questions; a list of objectives, topics, traps or banks narrows to the
  // ones those questions touch instead of ignoring them.
  Cli objectives;
  REQUIRE(objectives.run({"list", "objectives", "--topic", "sliding-window", "--format", "json"}) ==
          0);
  const json items = json::parse(objectives.out.str());
  REQUIRE(items.size() == 2);
  CHECK(items[0]["id"] == "window-reach-grows-with-depth");
  CHECK(items[1]["id"] == "rolling-cache-bounded");
  CHECK(items[0]["questions"] == 1);
  Cli banks;
  REQUIRE(banks.run({"list", "banks", "--topic", "sliding-window", "--format", "json"}) == 0);
  const json bank_items = json::parse(banks.out.str());
  REQUIRE(bank_items.size() == 1);
  CHECK(bank_items[0]["id"] == "modern-decoder");
  CHECK(bank_items[0]["questions"] == 2);
  Cli traps;
  REQUIRE(traps.run({"list", "traps", "--question", "dec-window-reach-template", "--color",
                     "never"}) == 0);
  CHECK_THAT(traps.out.str(), Contains("dec-window-caps-context") &&
                                  Contains("dec-window-off-by-one") && Contains("2 traps"));
  Cli wrong;
  CHECK(wrong.run({"list", "topics", "--topic", "nope"}) == 2);
  CHECK_THAT(wrong.err.str(), Contains("no topic 'nope'"));
}

// --- drill: burying siblings ------------------------------------------------------------------

namespace {

using proofdeck::study::AnswerRecord;
using proofdeck::study::Card;
using proofdeck::study::CardState;
using proofdeck::study::ProgressStore;
using proofdeck::study::Rating;

struct Drill {
  TempDir dir;
  std::string bank = dir.write("units.json", study_bank().dump(2));

  // Runs a drill with `answers` (every card right unless given) until it ends; returns its
  // output.
  std::string run(const std::string& now, std::vector<std::string> extra = {},
                  std::string answers = "", int new_cards = 20) {
    Cli cli;
    if (answers.empty()) {
      for (int i = 0; i < 60; ++i)
        answers += "t\n";
    }
    cli.in.str(answers);
    std::vector<std::string> args = {"drill",
                                     "--auto-rate",
                                     "--new",
                                     std::to_string(new_cards),
                                     "--seed",
                                     "0",
                                     "--no-builtin",
                                     "--bank",
                                     bank,
                                     "--data-dir",
                                     dir.path().string(),
                                     "--now",
                                     now,
                                     "--color",
                                     "never"};
    args.insert(args.end(), extra.begin(), extra.end());
    const int code = cli.run(args);
    INFO(cli.err.str());
    REQUIRE(code == 0);
    return cli.out.str();
  }

  // A card given its schedule directly, with the drill review that left it so.
  void schedule(const std::string& id, CardState state, const std::string& reviewed,
                const std::string& due, Rating rating = Rating::again) {
    ProgressStore store = ProgressStore::open(dir.path());
    const std::int64_t session =
        store.begin_session("drill", *proofdeck::study::parse_time(reviewed), "{}");
    Card card;
    card.state = state;
    card.stability = 2.0;
    card.difficulty = 6.0;
    card.due = proofdeck::study::parse_time(due);
    card.last_review = proofdeck::study::parse_time(reviewed);
    card.reps = 2;
    AnswerRecord answer;
    answer.card = id;
    answer.bank = "units";
    answer.topic = "heads";
    answer.at = *card.last_review;
    answer.mode = "drill";
    answer.session = session;
    answer.correct = rating != Rating::again;
    answer.rating = rating;
    store.record(answer, card);
  }

  // The cards drilled from `from` on, in order, each once.
  std::vector<std::string> cards_since(const std::string& from) {
    SQLite::Database db((dir.path() / "progress.db").string());
    SQLite::Statement query(
        db, "SELECT card FROM reviews WHERE mode = 'drill' AND at >= ? ORDER BY id");
    query.bind(1, from);
    std::vector<std::string> cards;
    while (query.executeStep()) {
      const std::string card = query.getColumn(0).getString();
      if (std::find(cards.begin(), cards.end(), card) == cards.end()) cards.push_back(card);
    }
    return cards;
  }

  // Their objectives, in the same order.
  std::vector<std::string> drilled_since(const std::string& from) {
    const Bank loaded = load_bank(study_bank().dump(), "units.json");
    std::vector<std::string> objectives;
    for (const std::string& card : cards_since(from)) {
      for (const Question& q : loaded.questions)
        if (q.id == card) objectives.push_back(q.objective_id());
    }
    return objectives;
  }
};

}  // namespace

TEST_CASE("drill: one new card per objective a day, the others wait for a day it has none due",
          "[objectives][drill][cli]") {
  Drill drill;
  // Day 1: seven new cards on three objectives; one of each is introduced.
  const std::string first = drill.run("2026-03-02T09:00:00Z");
  CHECK_THAT(first, Contains("· 0 due · 3 new"));
  const auto day1 = drill.drilled_since("2026-03-02T04:00:00Z");
  CHECK(day1.size() == 3);
  CHECK(distinct(day1) == 3);
  // Later the same day: nothing new on those objectives, and nothing was held back silently.
  const std::string again = drill.run("2026-03-02T15:00:00Z");
  CHECK(drill.drilled_since("2026-03-02T04:00:00Z").size() == 3);
  CHECK_THAT(again, Contains("· 0 due · 0 new") &&
                        Contains("  4 new cards wait for your next day: a card of their objective "
                                 "was reviewed\n    today. To meet them now:\n"
                                 "    proofdeck drill --no-bury\n"));
  // Every later day introduces at most one new card an objective, and none for an objective
  // whose other cards were due that day.
  const Bank loaded = load_bank(study_bank().dump(), "units.json");
  std::set<std::string> introduced;
  for (const std::string& card : drill.cards_since("2026-03-02T04:00:00Z"))
    introduced.insert(card);
  for (const std::string day : {"2026-03-03", "2026-03-04", "2026-03-05", "2026-03-08",
                                "2026-03-12", "2026-03-20", "2026-04-10"}) {
    INFO(day);
    drill.run(day + "T09:00:00Z");
    drill.run(day + "T18:00:00Z");
    std::map<std::string, int> fresh_per_objective, old_per_objective;
    for (const std::string& card : drill.cards_since(day + "T04:00:00Z")) {
      std::string objective;
      for (const Question& q : loaded.questions)
        if (q.id == card) objective = q.objective_id();
      ++(introduced.insert(card).second ? fresh_per_objective : old_per_objective)[objective];
    }
    for (const auto& [objective, fresh] : fresh_per_objective) {
      INFO(objective);
      CHECK(fresh == 1);
      CHECK_FALSE(old_per_objective.contains(objective));
    }
  }
}

TEST_CASE("drill: a missed card comes back on the day it was promised, whatever its siblings do",
          "[objectives][drill][cli]") {
  Drill drill;
  // Day 1 (03-02): neutral-1 is missed and leaves its steps due on day 3 (03-04).
  drill.schedule("neutral-1", CardState::review, "2026-03-02T09:00:00Z", "2026-03-04T09:00:00Z");
  // Day 2: neutral-1 is neither due nor in its steps, so its sibling neutral-2 is introduced,
  // and missed: it is in its learning steps on day 3.
  const std::string day2 = drill.run("2026-03-03T09:00:00Z", {"--question", "neutral-2"}, "f\n");
  CHECK_THAT(day2, Contains("· 0 due · 1 new") && Contains("Rated again"));
  // Day 3: both are asked, soonest due first; nothing is buried, and nothing says so.
  const std::string day3 = drill.run("2026-03-04T09:30:00Z", {}, "", 0);
  CHECK_THAT(day3, Contains("· 2 due · 0 new"));
  CHECK(drill.cards_since("2026-03-04T04:00:00Z") ==
        std::vector<std::string>{"neutral-2", "neutral-1"});
  CHECK_THAT(day3, !Contains("buried") && !Contains("wait for your next day"));
}

TEST_CASE(
    "drill: new cards wait while a sibling is in its steps, and say so only once something "
    "was reviewed today",
    "[objectives][drill][cli]") {
  Drill drill;
  // blind-1 is in its relearning steps, due at 10:00: its sibling blind-2 is not introduced.
  drill.schedule("blind-1", CardState::relearning, "2026-03-02T08:00:00Z", "2026-03-03T10:00:00Z");
  const std::string morning = drill.run("2026-03-03T09:00:00Z");
  CHECK(drill.cards_since("2026-03-03T04:00:00Z") ==
        std::vector<std::string>{"neutral-1", "width-1"});
  // Nothing had been reviewed today before this drill: no note about waiting cards.
  CHECK_THAT(morning, Contains("· 0 due · 2 new") && !Contains("wait for your next day"));
  // Now two objectives were reviewed today: their three other new cards wait, and say so.
  const std::string later = drill.run("2026-03-03T09:30:00Z");
  CHECK_THAT(later, Contains("· 0 due · 0 new") &&
                        Contains("3 new cards wait for your next day: a card of their objective "
                                 "was reviewed\n    today."));
  // With burying off, every new card is introduced, blind-2 too.
  drill.run("2026-03-03T09:35:00Z", {"--no-bury"});
  const std::vector<std::string> today = drill.cards_since("2026-03-03T04:00:00Z");
  CHECK(today.size() == 6);
  CHECK(std::find(today.begin(), today.end(), "blind-2") != today.end());
}

TEST_CASE(
    "drill: a card in its steps due within 20 minutes is asked at the start, one due "
    "later is not",
    "[objectives][drill][cli]") {
  Drill soon;
  soon.schedule("width-1", CardState::learning, "2026-03-02T08:50:00Z", "2026-03-02T09:05:00Z");
  const std::string asked = soon.run("2026-03-02T09:00:00Z", {}, "", 0);
  CHECK_THAT(asked, Contains("· 0 due (and 1 in its learning steps within 20 minutes)") &&
                        !Contains("for your next day") &&
                        Contains("Nothing else is due: reviewing ahead (this card is due in 5 "
                                 "minutes;") &&
                        Contains("[drill 1] learning"));
  CHECK(soon.cards_since("2026-03-02T08:55:00Z") == std::vector<std::string>{"width-1"});

  Drill later;
  later.schedule("width-1", CardState::learning, "2026-03-02T08:50:00Z", "2026-03-02T09:25:00Z");
  const std::string waits = later.run("2026-03-02T09:00:00Z", {}, "", 0);
  CHECK_THAT(waits, Contains("· 0 due · 0 new") &&
                        Contains("Nothing to drill now: the next card is due in 25 minutes."));
  CHECK(later.cards_since("2026-03-02T08:55:00Z").empty());
}

// --- lesson coverage --------------------------------------------------------------------------

namespace {

const std::string kLesson =
    "Heads, explained\n"
    "\n"
    "Identity statement: splitting into h heads costs the same total parameters as one head.\n"
    "\n"
    "L1 — Intuition\n"
    "\n"
    "A purely content-based comparison cannot know word order, so the signal must be added.\n"
    "\n"
    "Layer 1 output variance (starting at 1.0):  2.0\n"
    "Layer 5 output variance:                    32.0\n"
    "\n"
    "A 512-wide model split into 16 heads gives each head only 32 dimensions, versus 64.\n"
    "\n"
    "Domain 1 carries 6% of the exam.\n";

}  // namespace

TEST_CASE("coverage: each claim-bearing paragraph with the objectives that quote it",
          "[objectives][coverage]") {
  json bank = study_bank();
  bank["objectives"][1]["quote"] = "an unquoted sentence";  // heads-width: only its question
  bank["questions"][3]["source"]["quote"] = "gives each head only 32 dimensions";
  bank["out_of_scope"] = json::array({{{"quote", "Domain 1 carries"}, {"reason", "exam-meta"}}});
  const std::vector<Bank> banks{load_bank(bank.dump(), "units.json")};
  const LessonCoverage coverage = lesson_coverage(banks, "lesson", kLesson);
  CHECK(coverage.bank == "units");
  // The title and the heading are not claims: five paragraphs remain.
  REQUIRE(coverage.paragraphs.size() == 5);
  CHECK(coverage.paragraphs[0].line == 3);
  CHECK(coverage.paragraphs[0].objectives == std::vector<std::string>{"heads-neutral"});
  CHECK(coverage.paragraphs[1].objectives == std::vector<std::string>{"order-blind"});
  CHECK(coverage.paragraphs[2].objectives.empty());  // the table: uncovered
  CHECK_FALSE(coverage.paragraphs[2].out_of_scope.has_value());
  CHECK(coverage.paragraphs[3].objectives == std::vector<std::string>{"heads-width"});
  REQUIRE(coverage.paragraphs[4].out_of_scope.has_value());
  CHECK(coverage.paragraphs[4].out_of_scope->reason == OutOfScopeReason::exam_meta);
  CHECK(coverage.uncovered() == 1);
  CHECK(coverage.problems.empty());
}

TEST_CASE("coverage: an out_of_scope quote must name exactly one paragraph that none asks",
          "[objectives][coverage]") {
  json bank = study_bank();
  bank["out_of_scope"] =
      json::array({{{"quote", "not in it"}, {"reason", "exam-meta"}},
                   {{"quote", "head"}, {"reason", "summary"}},
                   {{"quote", "cannot know word order"}, {"reason", "summary"}}});
  const std::vector<Bank> banks{load_bank(bank.dump(), "units.json")};
  const LessonCoverage coverage = lesson_coverage(banks, "lesson", kLesson);
  CHECK(coverage.problems ==
        std::vector<std::string>{
            "units.json: /out_of_scope/0/quote: \"not in it\" is in none of lesson's paragraphs; "
            "quote words of exactly one",
            "units.json: /out_of_scope/1/quote: \"head\" is in several of lesson's paragraphs; "
            "quote words of exactly one",
            "units.json: /out_of_scope/2: lists as out of scope a paragraph of lesson that "
            "objective 'order-blind' asks; drop the entry"});
}

TEST_CASE(
    "check --coverage lists the paragraphs, and --strict fails an uncovered one unless waived",
    "[objectives][coverage][cli]") {
  TempDir dir;
  json bank = study_bank();
  bank["questions"][3]["source"]["quote"] = "gives each head only 32 dimensions";
  const std::string lesson = dir.write("lesson.txt", kLesson);
  const auto run = [&](Cli& cli, std::vector<std::string> extra) {
    const std::string path = dir.write("units.json", bank.dump(2));
    std::vector<std::string> args = {"check", "--no-builtin", "--bank", path,      "--source",
                                     lesson,  "--color",      "never",  "--width", "200"};
    args.insert(args.end(), extra.begin(), extra.end());
    return cli.run(args);
  };
  Cli plain;
  REQUIRE(run(plain, {"--coverage"}) == 0);
  // (Lines wrap at the width: each fragment sits on one line.)
  CHECK_THAT(plain.out.str(),
             Contains("coverage of lesson: 5 claim-bearing paragraphs, 3 asked by an objective") &&
                 Contains("¶1 (line 3) Identity statement: splitting into h heads cost… — ") &&
                 Contains("uncovered ¶3 (line 9) Layer 1 output variance (starting at 1.0)"));
  Cli strict;
  CHECK(run(strict, {"--coverage", "--strict"}) == 1);
  CHECK_THAT(strict.err.str(), Contains("2 lesson paragraphs no objective asks (--strict "
                                        "--coverage)"));

  Cli json_cli;
  REQUIRE(run(json_cli, {"--coverage", "--format", "json"}) == 0);
  const json report = json::parse(json_cli.out.str());
  REQUIRE(report["lesson_coverage"].size() == 1);
  const json& lesson_report = report["lesson_coverage"][0];
  CHECK(lesson_report["lesson"] == "lesson");
  CHECK(lesson_report["uncovered"] == 2);
  CHECK(lesson_report["paragraphs"][0]["objectives"] == json::array({"heads-neutral"}));
  CHECK(lesson_report["paragraphs"][2]["covered"] == false);
  CHECK(lesson_report["waiver"].is_null());

  bank["out_of_scope"] =
      json::array({{{"quote", "Layer 1 output variance"}, {"reason", "scenario-data"}}});
  bank["bank"]["lint_allow"] =
      json::array({{{"rule", "uncovered-paragraph"}, {"reason", "content issue pending"}}});
  Cli waived;
  CHECK(run(waived, {"--coverage", "--strict", "--format", "junit"}) == 0);
  CHECK_THAT(waived.out.str(),
             Contains("<testsuite name=\"coverage lesson\" tests=\"5\" failures=\"0\" "
                      "skipped=\"1\">") &&
                 Contains("name=\"¶5 (line 14)\"><skipped message=\"no objective quotes it"));

  Cli no_lesson;
  CHECK(no_lesson.run({"check", "--coverage", "--no-builtin", "--bank",
                       dir.write("units.json", bank.dump())}) == 2);
  CHECK_THAT(no_lesson.err.str(), Contains("--coverage lists which paragraphs of a lesson the "
                                           "objectives ask: give the lesson with --source FILE"));
}

TEST_CASE("check's JSON counts questions per objective beside questions per concept",
          "[objectives][cli]") {
  TempDir dir;
  json bank = study_bank();
  bank["questions"][0]["concept"] = "a-concept";
  Cli cli;
  REQUIRE(cli.run({"check", "--no-builtin", "--bank", dir.write("units.json", bank.dump()),
                   "--format", "json"}) == 0);
  const json report = json::parse(cli.out.str());
  CHECK(report["coverage"]["questions_per_objective"]["units"] ==
        json({{"heads-neutral", 3}, {"heads-width", 2}, {"order-blind", 2}}));
  CHECK(report["coverage"]["questions_per_concept"]["units"] == json({{"a-concept", 1}}));
}

// --- the built-in banks ---------------------------------------------------------------------

TEST_CASE("the reviews' over-tested clusters carry at most the objectives their rows name",
          "[objectives][builtin]") {
  std::ifstream file(std::string(PROOFDECK_FIXTURE_DIR) +
                     "/../review_fixtures/objective_clusters.json");
  REQUIRE(file.good());
  const json clusters = json::parse(file);
  const std::vector<Bank> banks = load_banks(BankSources{{}, true});
  std::map<std::string, std::string> objective_of;
  for (const Bank& bank : banks)
    for (const Question& q : bank.questions)
      objective_of[q.id] = q.objective_id();
  REQUIRE(clusters["clusters"].size() >= 17);
  for (const json& cluster : clusters["clusters"]) {
    INFO(cluster["review"].get<std::string>() << ": " << cluster["fact"].get<std::string>());
    std::set<std::string> objectives;
    for (const json& id : cluster["items"]) {
      const auto it = objective_of.find(id.get<std::string>());
      if (it != objective_of.end()) objectives.insert(it->second);  // a removed item is gone
    }
    CHECK(objectives.size() <= cluster["objectives"].get<std::size_t>());
  }
}

TEST_CASE("a built-in bank waives a lint finding only as 'content issue pending'",
          "[objectives][builtin][lint]") {
  const std::vector<Bank> banks = load_banks(BankSources{{}, true});
  for (const Bank& bank : banks) {
    for (const LintWaiver& waiver : bank.lint_allow) {
      INFO(bank.id << ": " << waiver.rule);
      CHECK(waiver.reason == "content issue pending");
    }
    for (const Question& q : bank.questions) {
      for (const LintWaiver& waiver : q.lint_allow) {
        INFO(q.id << ": " << waiver.rule);
        CHECK(waiver.reason == "content issue pending");
      }
    }
  }
}

}  // namespace test_objectives
