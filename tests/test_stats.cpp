// stats: the exams kept, readiness for the exam (README § How readiness is estimated) checked
// against a history computed by hand, recall over drilled cards only, and the trap ids — through
// compute_stats and through the command line.
#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "bank/loader.hpp"
#include "bank/sources.hpp"
#include "cli_test_support.hpp"
#include "study/progress.hpp"
#include "study/readiness.hpp"
#include "study/stats.hpp"

namespace test_stats {

using namespace proofdeck;
using namespace proofdeck::study;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

// Three topics, seven questions: every kind of blind guess, one trap.
const std::string kBank = R"({
  "format": 1,
  "bank": {"id": "stats", "title": "Stats fixture", "lesson": "000_ca7851e78539aec3"},
  "topics": [{"id": "alpha", "name": "Alpha"}, {"id": "beta", "name": "Beta"},
             {"id": "gamma", "name": "Gamma"}],
  "traps": [{"id": "alpha-trap", "name": "The alpha misconception", "misconception": "m",
             "correction": "c", "source": {"section": "s"}}],
  "questions": [
    {"id": "a-single", "type": "single", "topic": "alpha", "prompt": "Pick one.",
     "options": [{"id": "a", "text": "one", "correct": true},
                 {"id": "b", "text": "two", "trap": "alpha-trap"},
                 {"id": "c", "text": "three"}, {"id": "d", "text": "four"}],
     "explanation": "One.", "source": {"section": "s"}},
    {"id": "a-tf", "type": "truefalse", "topic": "alpha", "prompt": "True?", "answer": true,
     "explanation": "Yes.", "source": {"section": "s"}},
    {"id": "a-unseen", "type": "single", "topic": "alpha", "prompt": "Pick another.",
     "options": [{"id": "a", "text": "one"}, {"id": "b", "text": "two", "correct": true},
                 {"id": "c", "text": "three"}, {"id": "d", "text": "four"}],
     "explanation": "Two.", "source": {"section": "s"}},
    {"id": "b-number", "type": "numeric", "topic": "beta", "prompt": "How many?",
     "answer": {"value": 3, "tolerance": 0}, "explanation": "Three.", "source": {"section": "s"}},
    {"id": "b-order", "type": "order", "topic": "beta", "prompt": "Order them.",
     "steps": [{"id": "s1", "text": "first"}, {"id": "s2", "text": "second"},
               {"id": "s3", "text": "third"}],
     "explanation": "In order.", "source": {"section": "s"}},
    {"id": "g-tf", "type": "truefalse", "topic": "gamma", "prompt": "False?", "answer": false,
     "explanation": "No.", "source": {"section": "s"}},
    {"id": "g-multi", "type": "multi", "topic": "gamma", "prompt": "Select all.",
     "options": [{"id": "a", "text": "one", "correct": true}, {"id": "b", "text": "two"},
                 {"id": "c", "text": "three", "correct": true}],
     "explanation": "One and three.", "source": {"section": "s"}}
  ]
})";

const std::string kNow = "2026-03-01T09:00:00Z";

TimePoint at(const std::string& time) {
  return parse_time(time).value();
}

const bank::Question& question(const bank::Bank& b, const std::string& id) {
  for (const bank::Question& q : b.questions) {
    if (q.id == id) return q;
  }
  FAIL("no question " << id);
  throw;
}

// A data folder and a bank file, and the progress written through ProgressStore.
struct History {
  cli_test::TempDir dir;
  std::string bank_path = dir.write("stats.json", kBank);
  std::vector<bank::Bank> banks{bank::load_bank(kBank, "stats.json")};

  ProgressStore store() const { return ProgressStore::open(dir.path() / "data"); }

  json stats(const StatsOptions& options = {}) const {
    ProgressStore s = store();
    // The sections as `stats --format json` writes them.
    return json::parse(nlohmann::ordered_json(compute_stats(s, banks, at(kNow), options)).dump());
  }

  // `proofdeck ARGS` on this bank and data, at kNow.
  int run(cli_test::Cli& cli, std::vector<std::string> args) const {
    args.insert(args.end(), {"--no-builtin", "--bank", bank_path, "--data-dir",
                             (dir.path() / "data").string(), "--now", kNow, "--color", "never"});
    return cli.run(args);
  }
};

// One answer; `schedule` is the card a drill answer leaves.
void answer(ProgressStore& store, std::int64_t session, const std::string& card,
            const std::string& topic, const std::string& time, const std::string& mode,
            bool correct, const std::string& trap = "", std::optional<Card> schedule = {}) {
  AnswerRecord record;
  record.card = card;
  record.bank = "stats";
  record.topic = topic;
  record.at = at(time);
  record.mode = mode;
  record.session = session;
  record.correct = correct;
  record.trap = trap;
  if (mode == "drill") {
    record.rating = correct ? Rating::good : Rating::again;
    record.elapsed_days = 0;
  }
  store.record(record, schedule);
}

// A card in review after a drill at `last_review` with `stability` days.
Card reviewed(const std::string& last_review, double stability) {
  Card card;
  card.state = CardState::review;
  card.stability = stability;
  card.difficulty = 5.0;
  card.last_review = at(last_review);
  card.due = at(last_review) + std::chrono::days(static_cast<int>(stability));
  card.reps = 1;
  return card;
}

std::string exam_settings(double minutes, double pass) {
  return json{{"seed", 1},
              {"topics", json::array()},
              {"traps", json::array()},
              {"banks", json::array({"stats"})},
              {"types", json::array()},
              {"questions", json::array()},
              {"count", 4},
              {"minutes", minutes},
              {"pass", pass}}
      .dump();
}

// The history every hand computation below reads, in the order it was recorded:
//   1  02-19 drill a-single right → card: stability 10 days, last review 02-19 09:00
//   2  02-20 quiz  a-tf right
//   3  02-21 quiz  a-tf wrong
//      02-22 exam 1 (pass 75, 10 minutes allowed, took 8.5; b-number left unanswered):
//   4        a-single wrong, into alpha-trap
//   5        a-tf right
//   6        g-tf right
//   7  02-24 drill b-order right → card: stability 5 days, last review 02-24 09:00
//      02-26 exam 2, saved before exams kept a result (pass 50, 20 minutes allowed, 12.5 taken):
//   8        b-order right
//   9        a-tf right
//  10        g-tf right
//      02-28 exam 3, interrupted; 02-28 exam 4, never ended (killed): neither is listed.
void write_history(ProgressStore& store) {
  const std::int64_t drill1 = store.begin_session("drill", at("2026-02-19T09:00:00Z"), "{}");
  answer(store, drill1, "a-single", "alpha", "2026-02-19T09:00:00Z", "drill", true, "",
         reviewed("2026-02-19T09:00:00Z", 10.0));
  store.end_session(drill1, at("2026-02-19T09:01:00Z"), 1, 1, std::nullopt, false);
  const std::int64_t quiz = store.begin_session("quiz", at("2026-02-20T09:00:00Z"), "{}");
  answer(store, quiz, "a-tf", "alpha", "2026-02-20T09:00:00Z", "quiz", true);
  answer(store, quiz, "a-tf", "alpha", "2026-02-21T09:00:00Z", "quiz", false);
  store.end_session(quiz, at("2026-02-21T09:01:00Z"), 1, 2, std::nullopt, false);

  const std::int64_t exam1 =
      store.begin_session("exam", at("2026-02-22T10:00:00Z"), exam_settings(10, 75));
  answer(store, exam1, "a-single", "alpha", "2026-02-22T10:01:00Z", "exam", false, "alpha-trap");
  answer(store, exam1, "a-tf", "alpha", "2026-02-22T10:02:00Z", "exam", true);
  answer(store, exam1, "g-tf", "gamma", "2026-02-22T10:03:00Z", "exam", true);
  const json result1 = {{"minutes", 8.5},
                        {"allowed_minutes", 10},
                        {"pass", 75},
                        {"topics",
                         {{"alpha", {{"correct", 1}, {"total", 2}}},
                          {"beta", {{"correct", 0}, {"total", 1}}},
                          {"gamma", {{"correct", 1}, {"total", 1}}}}}};
  store.end_session(exam1, at("2026-02-22T10:08:30Z"), 2, 4, false, false, result1.dump());

  const std::int64_t drill2 = store.begin_session("drill", at("2026-02-24T09:00:00Z"), "{}");
  answer(store, drill2, "b-order", "beta", "2026-02-24T09:00:00Z", "drill", true, "",
         reviewed("2026-02-24T09:00:00Z", 5.0));
  store.end_session(drill2, at("2026-02-24T09:01:00Z"), 1, 1, std::nullopt, false);

  const std::int64_t exam2 =
      store.begin_session("exam", at("2026-02-26T10:00:00Z"), exam_settings(20, 50));
  answer(store, exam2, "b-order", "beta", "2026-02-26T10:01:00Z", "exam", true);
  answer(store, exam2, "a-tf", "alpha", "2026-02-26T10:02:00Z", "exam", true);
  answer(store, exam2, "g-tf", "gamma", "2026-02-26T10:03:00Z", "exam", true);
  store.end_session(exam2, at("2026-02-26T10:12:30Z"), 3, 4, true, false);

  const std::int64_t exam3 =
      store.begin_session("exam", at("2026-02-28T10:00:00Z"), exam_settings(10, 75));
  store.end_session(exam3, at("2026-02-28T10:02:00Z"), 0, 4, false, true);
  store.begin_session("exam", at("2026-02-28T11:00:00Z"), exam_settings(10, 75));
}

// The data folder with that history written.
struct RecordedHistory : History {
  RecordedHistory() {
    ProgressStore s = store();
    write_history(s);
  }
};

// That history, and then the three questions it never answered answered right in a quiz on
// 02-27: every objective seen, so readiness gives a number and a verdict.
struct CoveredHistory : RecordedHistory {
  CoveredHistory() {
    ProgressStore s = store();
    const std::int64_t quiz = s.begin_session("quiz", at("2026-02-27T09:00:00Z"), "{}");
    answer(s, quiz, "a-unseen", "alpha", "2026-02-27T09:00:00Z", "quiz", true);
    answer(s, quiz, "b-number", "beta", "2026-02-27T09:01:00Z", "quiz", true);
    answer(s, quiz, "g-multi", "gamma", "2026-02-27T09:02:00Z", "quiz", true);
    s.end_session(quiz, at("2026-02-27T09:03:00Z"), 3, 3, std::nullopt, false);
  }
};

}  // namespace

// --- the pieces ---------------------------------------------------------------------------------

TEST_CASE(
    "a blind guess: 1/n of n options, any non-empty choice of a select-all, 1/2 for true or "
    "false, 1/n! orders, never a typed number",
    "[stats]") {
  const bank::Bank b = bank::load_bank(kBank, "stats.json");
  CHECK(guess_chance(question(b, "a-single")) == Approx(1.0 / 4));
  CHECK(guess_chance(question(b, "g-multi")) == Approx(1.0 / 7));  // 2^3 − 1 answers
  CHECK(guess_chance(question(b, "a-tf")) == Approx(1.0 / 2));
  CHECK(guess_chance(question(b, "b-order")) == Approx(1.0 / 6));  // 3! orders
  CHECK(guess_chance(question(b, "b-number")) == 0.0);
}

TEST_CASE("the chance of at least k right is the Poisson-binomial tail", "[stats]") {
  // Three fair coins: P(≥ 2) = (3 + 1) / 8.
  CHECK(chance_of_at_least({0.5, 0.5, 0.5}, 2) == Approx(0.5));
  // 0.9 and 0.2: P(both) = 0.18; P(≥ 1) = 1 − 0.1 · 0.8 = 0.92.
  CHECK(chance_of_at_least({0.9, 0.2}, 2) == Approx(0.18));
  CHECK(chance_of_at_least({0.9, 0.2}, 1) == Approx(0.92));
  CHECK(chance_of_at_least({0.9, 0.2}, 0) == 1.0);
  CHECK(chance_of_at_least({0.9, 0.2}, 3) == 0.0);
  CHECK(chance_of_at_least({}, 1) == 0.0);
}

// --- a history computed by hand -----------------------------------------------------------------

TEST_CASE("with nothing answered, readiness is the prior: half known, the rest a blind guess",
          "[stats][readiness]") {
  const History h;
  // No first attempt: every level is the prior 0.5, no memory, the default slip 0.03, so each
  // question's chance is 0.97 · 0.5 + 0.5 · guess:
  //   a-single 1/4 → 0.61 · a-tf 1/2 → 0.735 · a-unseen 1/4 → 0.61 · b-number 0 → 0.485 ·
  //   b-order 1/6 → 0.568333 · g-tf 1/2 → 0.735 · g-multi 1/7 → 0.556429.
  const std::vector<double> chances = {0.61, 0.735, 0.61, 0.485, 0.568333, 0.735, 0.556429};
  ReadinessOptions twenty;
  twenty.questions = 20;
  const Readiness estimate = estimate_readiness(h.banks, {}, at(kNow), twenty);
  // Seven questions and a 20-question exam: every form holds all seven.
  double sum = 0.0;
  for (const double c : chances)
    sum += c;
  CHECK(estimate.overall == Approx(sum / 7));
  CHECK(estimate.questions == 7);
  CHECK(estimate.needed == 6);
  // The pass chance averages the exact tail over what nothing answered leaves uncertain: less
  // sure of a fail than the tail at the point estimate.
  CHECK(estimate.pass_chance > chance_of_at_least(chances, 6));
  CHECK(estimate.pass_chance < 0.5);
  // An interval as wide as knowing nothing deserves.
  CHECK(estimate.high - estimate.low > 0.3);

  // What stats makes of it: no number and no verdict, each topic's estimate borrowed.
  const json r = h.stats()["readiness"];
  REQUIRE(r["topics"].size() == 3);
  CHECK(r["topics"][0]["borrowed"].get<double>() == Approx((0.61 + 0.735 + 0.61) / 3));
  CHECK(r["topics"][1]["borrowed"].get<double>() == Approx((0.485 + 0.568333) / 2));
  CHECK(r["topics"][2]["borrowed"].get<double>() == Approx((0.735 + 0.556429) / 2));
  for (const auto& topic : r["topics"])
    CHECK(topic["readiness"].is_null());
  CHECK(r["overall"].is_null());
  CHECK(r["interval"].is_null());
  CHECK(r["reaches_pass"].is_null());
  CHECK(r["verdict"] == "too-early");
  CHECK(r["unseen"] == 7);
  CHECK(r["first_estimate_needs"] == 7);  // a pool of 7 objectives: all of them
  CHECK(r["exam"]["pass_chance"].is_null());
  CHECK(r["exam"]["questions"] == 7);
  CHECK(r["exam"]["needed"] == 6);
  // Nothing seen, nothing weakest; every objective (here each question's own) not yet seen.
  CHECK(r["weakest"].is_null());
  CHECK(r["weakest_objective"].is_null());
  CHECK(r["not_yet_seen"].size() == 7);
  CHECK(r["covers"] == "the 7 objectives of the loaded banks, not the certification exam");
}

TEST_CASE("readiness of a recorded history: what was answered, and what stays not yet seen",
          "[stats][readiness]") {
  const RecordedHistory h;
  const json r = h.stats()["readiness"];
  CHECK(r["pass"] == 75.0);
  // Four of seven objectives answered: three more before a first estimate.
  CHECK(r["overall"].is_null());
  CHECK(r["verdict"] == "too-early");
  CHECK(r["first_estimate_needs"] == 3);
  CHECK(r["unseen"] == 3);
  // The questions never answered, each its own objective here (no concept, no objective).
  CHECK(r["not_yet_seen"] == json::array({"a-unseen", "b-number", "g-multi"}));
  // The weakest is one that was answered, never one not yet seen.
  const std::string weakest = r["weakest_objective"].get<std::string>();
  CHECK(weakest != "a-unseen");
  CHECK(weakest != "b-number");
  CHECK(weakest != "g-multi");
  for (const auto& objective : r["objectives"]) {
    INFO(objective["id"]);
    CHECK(objective["questions"] == 1);
    // Measured where answered, borrowed where not: never both.
    const bool seen = objective["answered"].get<int>() > 0;
    const json& value = seen ? objective["readiness"] : objective["borrowed"];
    CHECK(objective[seen ? "borrowed" : "readiness"].is_null());
    CHECK(value.get<double>() >= 0.0);
    CHECK(value.get<double>() <= 1.0);
    CHECK((objective["answered"].get<int>() == 0) ==
          (std::find(r["not_yet_seen"].begin(), r["not_yet_seen"].end(), objective["id"]) !=
           r["not_yet_seen"].end()));
  }
  // g-tf, right twice and never wrong, is more likely right now than a-single, whose latest
  // answer (in an exam) was wrong.
  std::map<std::string, double> chance;
  for (const auto& objective : r["objectives"])
    if (objective["answered"].get<int>() > 0)
      chance[objective["id"].get<std::string>()] = objective["readiness"].get<double>();
  CHECK(chance["g-tf"] > chance["a-single"]);
  // The latest exam had 4 questions: the pass chance is for 4, 3 right at 75%.
  CHECK(r["exam"]["questions"] == 4);
  CHECK(r["exam"]["needed"] == 3);
  CHECK(r["exam"]["like_latest"] == true);
}

TEST_CASE("a learner with 61 of 110 objectives unseen never reads a pass verdict",
          "[stats][readiness]") {
  // Every answer right, on one question of each of 49 objectives of the built-in banks: the
  // estimate may well be above the pass mark, but 61 objectives rest on borrowed estimates.
  const std::vector<bank::Bank> banks = bank::load_banks(bank::BankSources{{}, true});
  cli_test::TempDir dir;
  std::set<std::string> objectives, answered;
  {
    ProgressStore store = ProgressStore::open(dir.path());
    const std::int64_t quiz = store.begin_session("quiz", at("2026-02-28T09:00:00Z"), "{}");
    for (const bank::Bank& b : banks) {
      for (const bank::Question& q : b.questions) {
        objectives.insert(q.objective_id());
        if (answered.size() == 49 || answered.contains(q.objective_id())) continue;
        answered.insert(q.objective_id());
        AnswerRecord record;
        record.card = q.id;
        record.bank = b.id;
        record.topic = q.topic;
        record.at = at("2026-02-28T09:00:00Z");
        record.mode = "quiz";
        record.session = quiz;
        record.correct = true;
        store.record(record, std::nullopt);
      }
    }
  }
  REQUIRE(objectives.size() == 110);
  ProgressStore store = ProgressStore::open(dir.path());
  const Stats stats = compute_stats(store, banks, at(kNow));
  const ReadinessView& r = stats.readiness;
  CHECK(r.unseen == 61);
  CHECK(r.verdict == ReadinessVerdict::too_early);
  CHECK_FALSE(r.reaches_pass.has_value());
  REQUIRE(r.overall.has_value());
  const std::string text = render_stats(stats, Theme::plain(), 100, "./scripts/run");
  CHECK_THAT(text, Contains("so far — 61 of 110 objectives not yet seen") &&
                       !Contains("at or above") && !Contains("below the 75% pass mark") &&
                       Contains("\n    ./scripts/run drill --topic "));
}

TEST_CASE("the pass mark changes how many are needed and the chance, not the readiness",
          "[stats][readiness]") {
  const CoveredHistory h;
  StatsOptions fifty;
  fifty.pass = 50;
  const json at_75 = h.stats()["readiness"];
  const json at_50 = h.stats(fifty)["readiness"];
  REQUIRE(at_75["overall"].is_number());
  CHECK(at_50["overall"] == at_75["overall"]);
  CHECK(at_50["exam"]["needed"] == 2);
  CHECK(at_50["exam"]["pass_chance"].get<double>() > at_75["exam"]["pass_chance"].get<double>());
}

TEST_CASE(
    "recall covers drilled cards only — a topic answered only in quizzes and exams is not "
    "drilled",
    "[stats]") {
  const RecordedHistory h;
  const json topics = h.stats()["topics"];
  // Alpha: one drilled card (a-single, R = 0.9) of three; a-tf's quiz answers do not count 0.
  CHECK(topics[0]["drilled"] == 1);
  CHECK(topics[0]["recall"].get<double>() == Approx(0.9));
  // Alpha's answers of every mode: 1 ✓, 2 ✓, 3 ✗, 4 ✗, 5 ✓, 9 ✓ → 4 of 6.
  CHECK(topics[0]["answers"] == 6);
  CHECK(topics[0]["correct"] == 4);
  // Gamma: g-tf right twice, never drilled.
  CHECK(topics[2]["accuracy"].get<double>() == Approx(1.0));
  CHECK(topics[2]["drilled"] == 0);
  CHECK(topics[2]["recall"].is_null());
}

TEST_CASE("exams are kept: each completed one with its score, verdict, minutes and topics",
          "[stats]") {
  const RecordedHistory h;
  const json exams = h.stats()["exams"];
  // Exam 3 was interrupted and exam 4 never ended: only exams 1 and 2, oldest first.
  REQUIRE(exams.size() == 2);
  CHECK(exams[0] == json{{"at", "2026-02-22T10:00:00Z"},
                         {"score", 2},
                         {"total", 4},
                         {"passed", false},
                         {"minutes", 8.5},
                         {"topics",
                          {{"alpha", {{"correct", 1}, {"total", 2}}},
                           {"beta", {{"correct", 0}, {"total", 1}}},
                           {"gamma", {{"correct", 1}, {"total", 1}}}}},
                         {"pass", 75.0},
                         {"allowed_minutes", 10.0},
                         {"predicted", nullptr},
                         {"date", "2026-02-22"}});
  // Saved without a result: no topics, minutes from its start (10:00:00) to its end (10:12:30).
  CHECK(exams[1]["topics"] == json::object());
  CHECK(exams[1]["minutes"] == 12.5);
  CHECK(exams[1]["passed"] == true);
  CHECK(exams[1]["pass"] == 50.0);
  CHECK(exams[1]["allowed_minutes"] == 20.0);
}

TEST_CASE("an exam whose result is not JSON is listed as one saved without a result", "[stats]") {
  const History h;
  {
    ProgressStore store = h.store();
    const std::int64_t exam = store.begin_session("exam", at("2026-02-27T10:00:00Z"), "not json");
    store.end_session(exam, at("2026-02-27T10:06:00Z"), 1, 2, std::nullopt, false, "[1, 2");
  }
  const json exams = h.stats()["exams"];
  REQUIRE(exams.size() == 1);
  CHECK(exams[0]["minutes"] == 6.0);
  CHECK(exams[0]["topics"] == json::object());
  CHECK(exams[0]["pass"].is_null());
  CHECK(exams[0]["passed"].is_null());
}

// --- through the command line -------------------------------------------------------------------

TEST_CASE("stats --format json has the exams and the readiness", "[stats][cli]") {
  const RecordedHistory h;
  cli_test::Cli cli;
  REQUIRE(h.run(cli, {"stats", "--format", "json", "--pass", "50"}) == 0);
  const json s = json::parse(cli.out.str());
  CHECK(s["exams"].size() == 2);
  CHECK(s["readiness"]["pass"] == 50.0);
  // What compute_stats gives, through the command line.
  StatsOptions fifty;
  fifty.pass = 50;
  const json direct = h.stats(fifty)["readiness"];
  CHECK(s["readiness"]["overall"] == direct["overall"]);
  CHECK(s["readiness"]["interval"] == direct["interval"]);
  CHECK(s["readiness"]["exam"]["pass_chance"] == direct["exam"]["pass_chance"]);
  CHECK(s["readiness"]["not_yet_seen"].size() == 3);
  CHECK(s["traps"][0]["id"] == "alpha-trap");
}

TEST_CASE("stats names the FSRS-6 weights drill schedules with: the defaults until a fit exists",
          "[stats][cli][fsrs]") {
  const RecordedHistory h;
  cli_test::Cli json_cli;
  REQUIRE(h.run(json_cli, {"stats", "--format", "json"}) == 0);
  const json fsrs = json::parse(json_cli.out.str()).at("fsrs");
  REQUIRE(fsrs.at("weights").size() == 21);
  for (std::size_t i = 0; i < 21; ++i)
    CHECK(fsrs.at("weights").at(i).get<double>() == proofdeck::study::kDefaultWeights[i]);
  CHECK(fsrs.at("fitted") == false);
  CHECK(fsrs.at("fitted_at").is_null());
  CHECK(fsrs.at("reviews").is_null());
  cli_test::Cli text;
  REQUIRE(h.run(text, {"stats"}) == 0);
  // The line wraps at the width: its words, with the breaks read as spaces.
  const std::string out = std::regex_replace(text.out.str(), std::regex("\\n +"), " ");
  CHECK_THAT(out, Contains("Scheduling: FSRS-6 defaults (their fit to you: proofdeck drill "
                           "--evaluate)\n"));
  cli_test::Cli narrow;
  REQUIRE(h.run(narrow, {"stats", "--width", "50"}) == 0);
  CHECK_THAT(narrow.out.str(), Contains("Scheduling: FSRS-6 defaults (their fit to you:\n"));
}

TEST_CASE("stats text: the exam history, the trend by topic, readiness against the pass mark",
          "[stats][cli]") {
  const CoveredHistory h;
  cli_test::Cli cli;
  REQUIRE(h.run(cli, {"stats", "--width", "100"}) == 0);
  const std::string out = cli.out.str();
  CHECK_THAT(out, Contains("\n  #1  2026-02-22  2/4   50%  FAIL at 75%  8.5 of 10 min\n"));
  CHECK_THAT(out, Contains("\n  #2  2026-02-26  3/4   75%  PASS at 50%  12.5 of 20 min\n"));
  CHECK_THAT(out, Contains("By topic (percent right, oldest → latest, at most 5 exams)"));
  const json r = h.stats()["readiness"];
  CHECK_THAT(out, Contains(fmt::format("\nReadiness {:.0f}% ({:.0f}–{:.0f}) — {} the 75% pass "
                                       "mark\n",
                                       100 * r["overall"].get<double>(),
                                       100 * r["interval"][0].get<double>(),
                                       100 * r["interval"][1].get<double>(),
                                       r["reaches_pass"] == true ? "at or above" : "below")));
  CHECK_THAT(out, Contains("\n  your expected score on an exam drawn from the 7 objectives of the "
                           "loaded banks, not the\n  certification exam, with an 80% interval"));
  CHECK_THAT(out, !Contains("not yet seen"));
  CHECK_THAT(out, Contains("\n  A 4-question exam like your latest, at 75% (3 right): "));
}

TEST_CASE("stats text lists the latest 10 exams and each topic's trend over its latest 5",
          "[stats][cli]") {
  const History h;
  {
    ProgressStore store = h.store();
    // Twelve exams, 02-10 to 02-21; in exam i Alpha gets i % 5 of 4 right. Only the first has a
    // topic no bank has any more.
    for (int i = 0; i < 12; ++i) {
      const std::string day = fmt::format("2026-02-{}T10:00:00Z", 10 + i);
      const std::int64_t exam = store.begin_session("exam", at(day), exam_settings(10, 75));
      json result = {{"minutes", 5},
                     {"allowed_minutes", 10},
                     {"pass", 75},
                     {"topics", {{"alpha", {{"correct", i % 5}, {"total", 4}}}}}};
      if (i == 0) result["topics"]["retired"] = {{"correct", 1}, {"total", 2}};
      store.end_session(exam, at(day) + std::chrono::minutes(5), i % 5, 4, i % 5 >= 3, false,
                        result.dump());
    }
  }
  cli_test::Cli cli;
  REQUIRE(h.run(cli, {"stats", "--width", "100"}) == 0);
  const std::string out = cli.out.str();
  CHECK_THAT(out,
             Contains("\n  (2 earlier exams: stats --format json)\n   #3  2026-02-12  2/4   50%  "
                      "FAIL at 75%  5 of 10 min\n"));
  CHECK_THAT(out, Contains("  #12  2026-02-21  1/4   25%  FAIL at 75%  5 of 10 min\n"
                           "  The latest exam's questions and answers again:\n"
                           "    proofdeck exam --review 12\nBy topic"));
  // Exams 8 to 12 (i = 7 … 11): 2, 3, 4, 0, 1 of 4.
  CHECK_THAT(out, Contains("\n  Alpha ") && Contains(" 50% → 75% → 100% → 0% → 25%\n"));
  CHECK_THAT(out, Contains("\n  retired ") && Contains(" 50%\n"));
}

TEST_CASE("stats text names each trap by the id --trap takes", "[stats][cli]") {
  const RecordedHistory h;
  cli_test::Cli cli;
  REQUIRE(h.run(cli, {"stats", "--width", "100"}) == 0);
  CHECK_THAT(cli.out.str(), Contains("Traps you keep falling for (worst miss rate first)") &&
                                Contains("\n  alpha-trap  The alpha misconception") &&
                                Contains("1 of 2 (50%)") &&
                                Contains("  Practise the first (or any, by its id):\n"
                                         "    proofdeck quiz --trap alpha-trap\n"));
}

TEST_CASE("traps are listed worst first: highest miss rate, then most falls, then by id",
          "[stats]") {
  // One question per trap, each a single choice whose wrong option embodies it; every answer
  // exposes the question's trap, a wrong one falls into it.
  const std::vector<std::tuple<std::string, int, int>> history = {
      // trap, answers, falls
      {"fewer-falls", 4, 2},  // 50%
      {"many-falls", 10, 5},  // 50%, more falls
      {"most-missed", 3, 2},  // 67%
      {"tie-b", 2, 1},        // 50%, as few falls as tie-a
      {"tie-a", 2, 1},        // 50%
      {"never-fell", 3, 0}};  // 0%: in the json, not in the text
  json bank = {{"format", 1},
               {"bank", {{"id", "t"}, {"title", "Traps"}, {"lesson", "000_ca7851e78539aec3"}}},
               {"topics", {{{"id", "t"}, {"name", "T"}}}},
               {"traps", json::array()},
               {"questions", json::array()}};
  for (const auto& [trap, answers, falls] : history) {
    bank["traps"].push_back({{"id", trap},
                             {"name", "Name of " + trap},
                             {"misconception", "m"},
                             {"correction", "c"},
                             {"source", {{"section", "s"}}}});
    bank["questions"].push_back({{"id", "q-" + trap},
                                 {"type", "single"},
                                 {"topic", "t"},
                                 {"prompt", "Which one for " + trap + "?"},
                                 {"options",
                                  {{{"id", "a"}, {"text", "right"}, {"correct", true}},
                                   {{"id", "b"}, {"text", "wrong"}, {"trap", trap}}}},
                                 {"explanation", "Because."},
                                 {"source", {{"section", "s"}}}});
  }
  cli_test::TempDir dir;
  const std::vector<bank::Bank> banks{bank::load_bank(bank.dump(), "traps.json")};
  ProgressStore store = ProgressStore::open(dir.path());
  const std::int64_t quiz = store.begin_session("quiz", at("2026-02-20T09:00:00Z"), "{}");
  for (const auto& [trap, answers, falls] : history) {
    for (int i = 0; i < answers; ++i)
      answer(store, quiz, "q-" + trap, "t", "2026-02-20T09:00:00Z", "quiz", i >= falls,
             i < falls ? trap : "");
  }
  const Stats stats = compute_stats(store, banks, at(kNow));
  std::vector<std::string> order;
  for (const TrapRecord& trap : stats.traps)
    order.push_back(trap.id);
  CHECK(order == std::vector<std::string>{"most-missed", "many-falls", "fewer-falls", "tie-a",
                                          "tie-b", "never-fell"});
  REQUIRE(stats.traps[0].miss_rate.has_value());
  CHECK(*stats.traps[0].miss_rate == Approx(2.0 / 3));

  const std::string text = render_stats(stats, Theme::plain(), 80);
  // The heading says what the order is, on one line at 80 columns.
  const std::size_t heading = text.find("\nTraps you keep falling for (worst miss rate first)\n");
  REQUIRE(heading != std::string::npos);
  CHECK_THAT(text.substr(heading),
             Contains("\n  most-missed  ") && Contains("2 of 3 (67%)\n  many-falls ") &&
                 Contains("5 of 10 (50%)\n  fewer-falls ") && !Contains("never-fell") &&
                 Contains("\n    proofdeck quiz --trap most-missed\n"));
}

TEST_CASE("stats' trap table cuts a trap's name only when the width leaves no room for it",
          "[stats]") {
  const std::string long_name = "ALiBi's power-of-two slope rule stretched to any head count";
  json bank = {{"format", 1},
               {"bank", {{"id", "t"}, {"title", "Traps"}, {"lesson", "000_ca7851e78539aec3"}}},
               {"topics", {{{"id", "t"}, {"name", "T"}}}},
               {"traps",
                {{{"id", "alibi-any-count"},
                  {"name", long_name},
                  {"misconception", "m"},
                  {"correction", "c"},
                  {"source", {{"section", "s"}}}}}},
               {"questions",
                {{{"id", "q-alibi"},
                  {"type", "single"},
                  {"topic", "t"},
                  {"prompt", "Which slope rule holds?"},
                  {"options",
                   {{{"id", "a"}, {"text", "right"}, {"correct", true}},
                    {{"id", "b"}, {"text", "wrong"}, {"trap", "alibi-any-count"}}}},
                  {"explanation", "Because."},
                  {"source", {{"section", "s"}}}}}}};
  cli_test::TempDir dir;
  const std::vector<bank::Bank> banks{bank::load_bank(bank.dump(), "traps.json")};
  ProgressStore store = ProgressStore::open(dir.path());
  const std::int64_t quiz = store.begin_session("quiz", at("2026-02-20T09:00:00Z"), "{}");
  answer(store, quiz, "q-alibi", "t", "2026-02-20T09:00:00Z", "quiz", false, "alibi-any-count");
  const Stats stats = compute_stats(store, banks, at(kNow));
  CHECK_THAT(render_stats(stats, Theme::plain(), 160),
             Contains("  alibi-any-count  " + long_name + "  1 of 1 (100%)\n"));
  // At 80 columns the 59-column name leaves no room for the counts: it is cut, and says so.
  const std::string narrow = render_stats(stats, Theme::plain(), 80);
  const std::size_t row = narrow.find("\n  alibi-any-count  ");
  REQUIRE(row != std::string::npos);
  const std::string line = narrow.substr(row + 1, narrow.find('\n', row + 1) - row - 1);
  CHECK_THAT(line, Contains("ALiBi's power-of-two") && Contains("…  1 of 1 (100%)") &&
                       !Contains(long_name));
}

TEST_CASE("stats' weekly forecast: four weeks of 7 days, then the 2 days left, labelled so",
          "[stats][cli]") {
  // Today is 03-01: the 30 days are 03-01 … 03-30. Cards due 03-01, 03-08 (twice), 03-30.
  const History h;
  {
    ProgressStore store = h.store();
    const std::int64_t drill = store.begin_session("drill", at("2026-02-26T09:00:00Z"), "{}");
    for (const auto& [card, topic, days] :
         std::vector<std::tuple<std::string, std::string, double>>{{"a-single", "alpha", 3},
                                                                   {"a-tf", "alpha", 10},
                                                                   {"g-tf", "gamma", 10},
                                                                   {"b-order", "beta", 32}})
      answer(store, drill, card, topic, "2026-02-26T09:00:00Z", "drill", true, "",
             reviewed("2026-02-26T09:00:00Z", days));
  }
  cli_test::Cli cli;
  REQUIRE(h.run(cli, {"stats", "--width", "60"}) == 0);
  const std::string out = cli.out.str();
  // Days in the learner's words: today, tomorrow, then weekday and date, and when a day begins.
  CHECK_THAT(out, Contains("Due next 7 days: 1 · next 30 days: 4 (days start at 04:00)\n"
                           "  today      █"));
  CHECK_THAT(out, Contains("\n  tomorrow    0\n  Tue 03-03   0\n"));
  CHECK_THAT(out, Contains("\n  by week:\n  03-01…03-07  █"));
  CHECK_THAT(out, Contains(" 1\n  03-08…03-14  █"));
  CHECK_THAT(out, Contains(" 2\n  03-15…03-21   0\n  03-22…03-28   0\n  03-29…03-30  █"));
  CHECK_THAT(out, Contains(" 1 (2 days)\n"));
  CHECK(out.find("(7 days)") == std::string::npos);
}

TEST_CASE("stats with nothing drilled says nothing is scheduled and how to schedule cards",
          "[stats][cli]") {
  const History h;
  h.store();  // a store with nothing in it yet
  cli_test::Cli cli;
  REQUIRE(h.run(cli, {"stats", "--width", "80"}) == 0);
  const std::string out = cli.out.str();
  CHECK_THAT(out,
             Contains("\nDue: nothing scheduled — drill schedules cards:\n    proofdeck drill\n"));
  CHECK(out.find("by week") == std::string::npos);
  CHECK(out.find("next 30 days") == std::string::npos);
}

TEST_CASE("stats with no card due in the 30 days prints no rows of zeros", "[stats][cli]") {
  const History h;
  {
    ProgressStore store = h.store();
    const std::int64_t drill = store.begin_session("drill", at("2026-02-26T09:00:00Z"), "{}");
    answer(store, drill, "a-single", "alpha", "2026-02-26T09:00:00Z", "drill", true, "",
           reviewed("2026-02-26T09:00:00Z", 60));
  }
  cli_test::Cli cli;
  REQUIRE(h.run(cli, {"stats", "--width", "80"}) == 0);
  const std::string out = cli.out.str();
  CHECK_THAT(out, Contains("\nDue next 7 days: 0 · next 30 days: 0 (days start at 04:00)\n\n"
                           "Mastery by topic"));
}

TEST_CASE("stats text says not drilled where no card of a topic was drilled", "[stats][cli]") {
  const RecordedHistory h;
  cli_test::Cli cli;
  REQUIRE(h.run(cli, {"stats", "--width", "100"}) == 0);
  const std::string out = cli.out.str();
  const std::size_t gamma = out.find("\n  Gamma ");
  REQUIRE(gamma != std::string::npos);
  CHECK(out.substr(gamma + 1, out.find('\n', gamma + 1) - gamma - 1).ends_with("not drilled"));
}

TEST_CASE("stats with no exam says how to take one", "[stats][cli]") {
  const History h;
  h.store();  // a store with nothing in it yet
  cli_test::Cli cli;
  REQUIRE(h.run(cli, {"stats", "--pass", "80", "--width", "160"}) == 0);
  CHECK_THAT(cli.out.str(), Contains("Exams: none yet — take one, e.g.\n"
                                     "    proofdeck exam --count 20 --minutes 25 --pass 80\n") &&
                                Contains("Readiness: answer questions on 7 more objectives for a "
                                         "first estimate\n") &&
                                !Contains("chance of passing"));
  // A store with no answers shows no percentage anywhere: it would be a guess dressed as a
  // measure.
  CHECK(cli.out.str().find('%') == std::string::npos);
  const json s = [&] {
    cli_test::Cli j;
    REQUIRE(h.run(j, {"stats", "--format", "json"}) == 0);
    return json::parse(j.out.str());
  }();
  CHECK(s["exams"] == json::array());
}

TEST_CASE("stats refuses a pass mark outside 0 to 100 as a usage error", "[stats][cli]") {
  const History h;
  for (const std::string pass : {"101", "-1", "lots"}) {
    INFO("--pass " << pass);
    cli_test::Cli cli;
    CHECK(h.run(cli, {"stats", "--pass", pass}) == 2);
    CHECK_THAT(cli.err.str(), Contains("--pass"));
    CHECK(cli.out.str().empty());
  }
}

TEST_CASE(
    "stats lists topics in the study order: the lesson's first, a topic after what it "
    "requires",
    "[stats][cli]") {
  cli_test::TempDir data;
  cli_test::Cli cli;
  REQUIRE(cli.run({"stats", "--data-dir", data.path().string(), "--format", "json"}) == 0);
  const json stats = json::parse(cli.out.str());
  std::vector<std::string> order;
  for (const auto& topic : stats["topics"])
    order.push_back(topic["id"]);
  const auto at = [&](const std::string& id) {
    const auto it = std::find(order.begin(), order.end(), id);
    REQUIRE(it != order.end());
    return it - order.begin();
  };
  CHECK(at("multi-head") == 0);  // the lesson's bank comes first
  CHECK(at("sdpa-formula") < at("sdpa-scaling"));
  CHECK(at("sdpa-scaling") < at("gqa-mqa"));
  CHECK(at("multi-head") < at("gqa-mqa"));
}

}  // namespace test_stats
