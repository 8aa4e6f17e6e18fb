// stats: recall over drilled cards only, and the trap ids — through compute_stats and through the
// command line.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "bank/loader.hpp"
#include "cli_test_support.hpp"
#include "study/progress.hpp"
#include "study/stats.hpp"

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

// A data folder and a bank file, and the progress written through ProgressStore.
struct History {
  cli_test::TempDir dir;
  std::string bank_path = dir.write("stats.json", kBank);
  std::vector<bank::Bank> banks{bank::load_bank(kBank, "stats.json")};

  ProgressStore store() const { return ProgressStore::open(dir.path() / "data"); }

  json stats() const {
    ProgressStore s = store();
    return json::parse(compute_stats(s, banks, at(kNow)).dump());
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

}  // namespace

TEST_CASE(
    "recall covers drilled cards only; a topic answered only in quizzes and exams is not "
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

TEST_CASE("stats text names each trap by the id --trap takes", "[stats][cli]") {
  const RecordedHistory h;
  cli_test::Cli cli;
  REQUIRE(h.run(cli, {"stats", "--width", "100"}) == 0);
  CHECK_THAT(cli.out.str(), Contains("(worst first · proofdeck quiz --trap ID)") &&
                                Contains("\n  alpha-trap  The alpha misconception") &&
                                Contains("1 of 2 (50%)"));
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
