// Studying, below the command line: how a question is shown (shuffled, drawn), how every kind of
// input is read (answers in each notation, commands, unclear input asked again), how answers are
// graded with the trap they fall into, and the progress database's promises (fresh, refused,
// atomic, locked).
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "bank/loader.hpp"
#include "bank_test_support.hpp"
#include "cli_test_support.hpp"
#include "core/errors.hpp"
#include "study/answer.hpp"
#include "study/modes.hpp"
#include "study/progress.hpp"
#include "study/session.hpp"
#include "text/number.hpp"

namespace test_study {

using namespace proofdeck;
using namespace proofdeck::study;
using bank_test::worked_example;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using nlohmann::json;

namespace {

// The worked example plus a multi and an order question.
bank::Bank study_bank() {
  json b = worked_example();
  b["questions"].push_back({
      {"id", "pe-schemes"},
      {"type", "multi"},
      {"topic", "positional"},
      {"prompt", "Which schemes add a vector to the embeddings?"},
      {"options",
       {{{"id", "a"}, {"text", "sinusoidal"}, {"correct", true}},
        {{"id", "b"}, {"text", "learned"}, {"correct", true}},
        {{"id", "c"}, {"text", "RoPE"}, {"trap", "attention-knows-order"}},
        {{"id", "d"}, {"text", "none of them"}, {"trap", "attention-knows-order"}}}},
      {"explanation", "RoPE rotates Q and K instead."},
      {"source", {{"section", "L3"}}},
      {"unprovable", "placement is a definition"},
  });
  b["questions"].push_back({
      {"id", "pipeline"},
      {"type", "order"},
      {"topic", "positional"},
      {"prompt", "Order the steps."},
      {"steps",
       {{{"id", "embed"}, {"text", "embed"}},
        {{"id", "add"}, {"text", "add positions"}},
        {{"id", "project"}, {"text", "project Q, K, V"}}}},
      {"explanation", "Positions ride inside the vectors W_q, W_k, W_v project."},
      {"source", {{"section", "L3"}}},
      {"unprovable", "an order"},
  });
  return bank::load_bank(b.dump(), "study.json");
}

const bank::Question& question(const bank::Bank& b, const std::string& id) {
  for (const bank::Question& q : b.questions) {
    if (q.id == id) return q;
  }
  FAIL("no question " << id);
  throw;
}

// The shown letter of the option (or step) whose text is `text`.
std::string letter_of(const Instance& instance, const std::string& text) {
  const bank::Question& q = *instance.question;
  for (std::size_t position = 0; position < instance.order.size(); ++position) {
    const std::size_t index = instance.order[position];
    const std::string& item =
        q.type == bank::QuestionType::order ? q.steps[index].text : q.options[index].text;
    if (item == text) return letter(position);
  }
  FAIL("no option " << text);
  throw;
}

Instance shown(const bank::Question& q, std::uint64_t seed = 1) {
  engine::Rng rng(seed);
  return instantiate(q, rng);
}

}  // namespace

// --- presenting -------------------------------------------------------------------------------

TEST_CASE("the same seed shows the same order and draws the same template values", "[study]") {
  const bank::Bank b = study_bank();
  for (const bank::Question& q : b.questions) {
    const Instance first = shown(q, 42), second = shown(q, 42);
    CHECK(first.order == second.order);
    CHECK(first.bindings == second.bindings);
    CHECK(first.prompt == second.prompt);
  }
}

TEST_CASE("a template draws an admitted combination and fills the prompt with it", "[study]") {
  const bank::Bank b = study_bank();
  const Instance instance = shown(question(b, "per-head-qkv"), 3);
  const double d_model = instance.bindings.at("d_model");
  const double heads = instance.bindings.at("heads");
  CHECK(std::fmod(d_model, heads) == 0);
  CHECK(d_model / heads >= 8);
  CHECK(instance.key == 3 * d_model * (d_model / heads));
  CHECK_THAT(instance.prompt, Contains("d_model = " + proofdeck::text::format_number(d_model)));
}

TEST_CASE("an order question is never shown already in its right order", "[study]") {
  const bank::Bank b = study_bank();
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    const Instance instance = shown(question(b, "pipeline"), seed);
    CHECK_FALSE(std::is_sorted(instance.order.begin(), instance.order.end()));
  }
}

// --- reading answers --------------------------------------------------------------------------

TEST_CASE("a single question takes one letter, any case, with or without a parenthesis",
          "[study]") {
  const bank::Bank b = study_bank();
  const Instance instance = shown(question(b, "mha-purpose"));
  const std::string right =
      letter_of(instance, "Let the model attend to multiple representation subspaces in parallel");
  for (const std::string& typed : {right, " " + right + " ", right + ")"}) {
    const Reply reply = parse_reply(instance, typed);
    REQUIRE(reply.kind == Reply::Kind::answer);
    CHECK(grade(instance, reply).correct);
  }
  const Reply upper =
      parse_reply(instance, std::string(1, static_cast<char>(std::toupper(right[0]))));
  CHECK(upper.kind == Reply::Kind::answer);
}

TEST_CASE("a wrong single answer says the letter chosen and the letter that was right", "[study]") {
  const bank::Bank b = study_bank();
  const Instance instance = shown(question(b, "mha-purpose"));
  const std::string right =
      letter_of(instance, "Let the model attend to multiple representation subspaces in parallel");
  const std::string wrong = right == "a" ? "b" : "a";
  const Grade graded = grade(instance, parse_reply(instance, wrong));
  CHECK_FALSE(graded.correct);
  CHECK(selection_verdict(graded, bank::QuestionType::single) ==
        "You chose " + wrong + "; the answer is " + right + ".");
}

TEST_CASE("a partly right select-all answer says which choices were wrong and which were missed",
          "[study]") {
  const bank::Bank b = study_bank();
  const Instance multi = shown(question(b, "pe-schemes"));
  const std::string sinusoidal = letter_of(multi, "sinusoidal"),
                    learned = letter_of(multi, "learned"), rope = letter_of(multi, "RoPE");
  const Grade partly = grade(multi, parse_reply(multi, sinusoidal + "," + rope));
  CHECK_FALSE(partly.correct);
  CHECK(partly.wrong_chosen == std::vector<std::string>{rope});
  CHECK(partly.missed == std::vector<std::string>{learned});
  CHECK(selection_verdict(partly, bank::QuestionType::multi) ==
        "You chose " + rope + ", which is not right, and missed " + learned + ".");
  const Grade short_of = grade(multi, parse_reply(multi, sinusoidal));
  CHECK(selection_verdict(short_of, bank::QuestionType::multi) == "You missed " + learned + ".");
  const Grade right = grade(multi, parse_reply(multi, sinusoidal + " " + learned));
  CHECK(right.correct);
  CHECK(selection_verdict(right, bank::QuestionType::multi).empty());
  CHECK(parse_reply(multi, sinusoidal + "," + sinusoidal).hint ==
        "each letter once: one or more (a,c)");
}

TEST_CASE("unclear input is asked again with a hint, never graded", "[study]") {
  const bank::Bank b = study_bank();
  const Instance single = shown(question(b, "mha-purpose"));
  CHECK(parse_reply(single, "a,b").hint == "one letter only: this question has a single answer");
  // A letter twice is not one letter: asked again, as an order question asks it.
  CHECK(parse_reply(single, "a,a").kind == Reply::Kind::unclear);
  CHECK(parse_reply(single, "a,a").hint == "one letter only: this question has a single answer");
  CHECK(parse_reply(single, "aa").kind == Reply::Kind::unclear);
  CHECK(parse_reply(single, "z").hint == "type one letter from a–b");
  CHECK(parse_reply(single, "").hint == "type your answer (? for help)");
  const Instance truth = shown(question(b, "order-without-pe"));
  CHECK(parse_reply(truth, "maybe").hint == "type t (true) or f (false)");
  const Instance number = shown(question(b, "per-head-qkv"));
  const Reply unclear = parse_reply(number, "1,5");
  CHECK(unclear.kind == Reply::Kind::unclear);
  CHECK_FALSE(unclear.hint.empty());
  const Instance order = shown(question(b, "pipeline"));
  CHECK(parse_reply(order, "a b").hint ==
        "type the letters a–c in the right order, each once, separated by spaces");
  CHECK(parse_reply(order, "a a b").kind == Reply::Kind::unclear);
}

TEST_CASE("commands have forms no answer can take: a bare letter always answers", "[study]") {
  const bank::Bank b = study_bank();
  const Instance two_options = shown(question(b, "mha-purpose"));
  for (const Instance* instance : {&two_options}) {
    CHECK(parse_reply(*instance, ":s").kind == Reply::Kind::skip);
    CHECK(parse_reply(*instance, ":q").kind == Reply::Kind::quit);
    CHECK(parse_reply(*instance, ":d").kind == Reply::Kind::demo);
    CHECK(parse_reply(*instance, "?").kind == Reply::Kind::help);
    CHECK(parse_reply(*instance, "skip").kind == Reply::Kind::skip);
    CHECK(parse_reply(*instance, "quit").kind == Reply::Kind::quit);
    CHECK(parse_reply(*instance, "demo").kind == Reply::Kind::demo);
  }
  // Letters past the options are no command either: they are asked again as an answer.
  for (const char* letter : {"s", "q", "d", "h", "f"}) {
    INFO(letter);
    const Reply reply = parse_reply(two_options, letter);
    CHECK(reply.kind == Reply::Kind::unclear);
    CHECK(reply.hint == "type one letter from a–b");
  }
  const Reply unknown = parse_reply(two_options, ":x");
  CHECK(unknown.kind == Reply::Kind::unclear);
  CHECK(unknown.hint == "the commands are :s (skip), :d (the demo), :q (quit) and ? (help)");
  const Instance four_options = shown(question(b, "pe-schemes"));
  CHECK(parse_reply(four_options, "d").kind == Reply::Kind::answer);  // option d
  CHECK(parse_reply(four_options, ":d").kind == Reply::Kind::demo);
  const Instance truth = shown(question(b, "order-without-pe"));
  CHECK(parse_reply(truth, "f", true).kind == Reply::Kind::answer);  // false, even in an exam
  CHECK(parse_reply(truth, "s").kind == Reply::Kind::unclear);
  CHECK(parse_reply(truth, ":s").kind == Reply::Kind::skip);
  const Instance number = shown(question(b, "per-head-qkv"));
  CHECK(parse_reply(number, "q").kind == Reply::Kind::unclear);
  CHECK(parse_reply(number, ":q").kind == Reply::Kind::quit);
}

TEST_CASE("a numeric answer reads back by the number rule, whatever notation was typed",
          "[study][exam]") {
  const bank::Bank b = study_bank();
  const Instance number = shown(question(b, "per-head-qkv"));
  CHECK(answer_for_people(number, parse_reply(number, "2^25", true)) == "33,554,432");
  CHECK(answer_for_people(number, parse_reply(number, "1_048_576", true)) == "1,048,576");
  CHECK(answer_for_people(number, parse_reply(number, "32*1.4142135623730951", true)) ==
        "45.254834");
  CHECK(answer_for_people(number, parse_reply(number, "0.5", true)) == "0.5");
  // Letters and truth values read back as shown.
  const Instance four_options = shown(question(b, "pe-schemes"));
  CHECK(answer_for_people(four_options, parse_reply(four_options, "c a", true)) == "a,c");
  const Instance truth = shown(question(b, "order-without-pe"));
  CHECK(answer_for_people(truth, parse_reply(truth, "f", true)) == "false");
}

TEST_CASE("exam commands are whole words that no answer can be", "[study][exam]") {
  const bank::Bank b = study_bank();
  const Instance four_options = shown(question(b, "pe-schemes"));
  const Instance truth = shown(question(b, "order-without-pe"));
  for (const Instance* instance : {&four_options, &truth}) {
    CHECK(parse_reply(*instance, "flag", true).kind == Reply::Kind::flag);
    CHECK(parse_reply(*instance, "back", true).kind == Reply::Kind::back);
    CHECK(parse_reply(*instance, "next", true).kind == Reply::Kind::next);
    CHECK(parse_reply(*instance, "review", true).kind == Reply::Kind::review);
    CHECK(parse_reply(*instance, " Submit ", true).kind == Reply::Kind::submit);
    CHECK(parse_reply(*instance, "?", true).kind == Reply::Kind::help);
    CHECK(parse_reply(*instance, "time", true).kind == Reply::Kind::time);
    const Reply go = parse_reply(*instance, "goto 12", true);
    CHECK(go.kind == Reply::Kind::go);
    CHECK(go.target == 12);
    CHECK(parse_reply(*instance, "goto", true).hint == "goto takes a question number: goto 3");
    CHECK(parse_reply(*instance, "goto x", true).kind == Reply::Kind::unclear);
    // The quiz's one-letter commands are not exam commands: q, s and d are nothing, f is false.
    CHECK(parse_reply(*instance, "q", true).kind == Reply::Kind::unclear);
    CHECK(parse_reply(*instance, "s", true).kind == Reply::Kind::unclear);
  }
  CHECK(parse_reply(truth, "f", true).kind == Reply::Kind::answer);
  CHECK(parse_reply(four_options, "d", true).kind == Reply::Kind::answer);
  // In a quiz, the exam's words are not commands.
  CHECK(parse_reply(truth, "submit").kind == Reply::Kind::unclear);
}

TEST_CASE("true/false reads t, f, true, false, yes, no", "[study]") {
  const bank::Bank b = study_bank();
  const Instance instance = shown(question(b, "order-without-pe"));  // the key is false
  for (const char* typed : {"f", "false", "F", "n", "no"}) {
    CHECK(grade(instance, parse_reply(instance, typed)).correct);
  }
  for (const char* typed : {"t", "true", "yes", "y"}) {
    const Grade result = grade(instance, parse_reply(instance, typed));
    CHECK_FALSE(result.correct);
    CHECK(result.trap == "attention-knows-order");
  }
}

TEST_CASE("a numeric answer is read in every notation and a known wrong one names its trap",
          "[study]") {
  const bank::Bank b = study_bank();
  Instance instance = shown(question(b, "per-head-qkv"));
  instance.bindings = {{"d_model", 512}, {"heads", 8}};
  instance.key = 98304;
  for (const char* typed : {"98304", "98,304", "98_304", "9.8304e4", "3 * 512 * 64", "3*2^15"}) {
    const Reply reply = parse_reply(instance, typed);
    REQUIRE(reply.kind == Reply::Kind::answer);
    CHECK(grade(instance, reply).correct);
  }
  const Grade full_width = grade(instance, parse_reply(instance, "786,432"));
  CHECK_FALSE(full_width.correct);
  CHECK(full_width.trap == "mha-cuts-params");
  CHECK(full_width.expected == "98,304");
  const Grade other = grade(instance, parse_reply(instance, "12"));
  CHECK_FALSE(other.correct);
  CHECK(other.trap.empty());
}

TEST_CASE("select-all needs exactly the right set, in any order and separator", "[study]") {
  const bank::Bank b = study_bank();
  const Instance instance = shown(question(b, "pe-schemes"));
  const std::string s = letter_of(instance, "sinusoidal");
  const std::string l = letter_of(instance, "learned");
  const std::string r = letter_of(instance, "RoPE");
  for (const std::string& typed : {s + "," + l, l + " " + s, s + l, l + ",  " + s}) {
    CHECK(grade(instance, parse_reply(instance, typed)).correct);
  }
  // A letter twice is asked again, never read as once.
  CHECK(parse_reply(instance, l + ", " + s + " " + l).kind == Reply::Kind::unclear);
  const Grade partial = grade(instance, parse_reply(instance, s));
  CHECK_FALSE(partial.correct);
  CHECK(partial.trap.empty());  // a missed option embodies no trap
  const Grade extra = grade(instance, parse_reply(instance, s + "," + l + "," + r));
  CHECK_FALSE(extra.correct);
  CHECK(extra.trap == "attention-knows-order");
  CHECK(parse_reply(instance, s + "," + l).text == "a,b");  // the bank's ids, for the record
}

TEST_CASE("an order answer must list every step in its place", "[study]") {
  const bank::Bank b = study_bank();
  const Instance instance = shown(question(b, "pipeline"), 5);
  const std::string right = letter_of(instance, "embed") + " " +
                            letter_of(instance, "add positions") + " " +
                            letter_of(instance, "project Q, K, V");
  CHECK(expected_input(instance) == right);
  const Reply reply = parse_reply(instance, right);
  REQUIRE(reply.kind == Reply::Kind::answer);
  CHECK(grade(instance, reply).correct);
  CHECK(reply.text == "embed,add,project");
  const std::string swapped = letter_of(instance, "add positions") + letter_of(instance, "embed") +
                              letter_of(instance, "project Q, K, V");
  CHECK_FALSE(grade(instance, parse_reply(instance, swapped)).correct);
}

// --- the progress database --------------------------------------------------------------------

namespace {

TimePoint at(const char* iso) {
  return *parse_time(iso);
}

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

}  // namespace

TEST_CASE("a new data folder gets a fresh database at the current schema", "[study][progress]") {
  cli_test::TempDir dir;
  const auto folder = dir.path() / "nested" / "proofdeck";
  ProgressStore store = ProgressStore::open(folder);
  CHECK(std::filesystem::exists(folder / "progress.db"));
  SQLite::Database db((folder / "progress.db").string());
  SQLite::Statement version(db, "SELECT value FROM meta WHERE key = 'schema_version'");
  REQUIRE(version.executeStep());
  CHECK(version.getColumn(0).getString() == "5");
  SQLite::Statement journal(db, "PRAGMA journal_mode");
  REQUIRE(journal.executeStep());
  CHECK(journal.getColumn(0).getString() == "wal");
}

TEST_CASE("a schema-1 database is migrated in place: its sessions are kept and gain a result",
          "[study][progress]") {
  cli_test::TempDir dir;
  {
    SQLite::Database db((dir.path() / "progress.db").string(),
                        SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT)");
    db.exec("INSERT INTO meta VALUES('schema_version', '1')");
    db.exec(
        "CREATE TABLE cards(id TEXT PRIMARY KEY, state TEXT NOT NULL, step INTEGER NOT NULL "
        "DEFAULT 0, stability REAL, difficulty REAL, due TEXT, last_review TEXT, reps "
        "INTEGER NOT NULL DEFAULT 0, lapses INTEGER NOT NULL DEFAULT 0)");
    db.exec(
        "CREATE TABLE reviews(id INTEGER PRIMARY KEY, card TEXT NOT NULL, at TEXT NOT NULL, "
        "rating INTEGER, elapsed_days INTEGER, mode TEXT NOT NULL, session INTEGER, correct "
        "INTEGER NOT NULL, answer TEXT, trap TEXT, topic TEXT, bank TEXT, duration_ms "
        "INTEGER)");
    db.exec(
        "CREATE TABLE sessions(id INTEGER PRIMARY KEY, mode TEXT NOT NULL, started TEXT NOT "
        "NULL, ended TEXT, correct INTEGER NOT NULL DEFAULT 0, total INTEGER NOT NULL "
        "DEFAULT 0, passed INTEGER, interrupted INTEGER NOT NULL DEFAULT 0, settings TEXT)");
    db.exec(
        "INSERT INTO sessions(mode, started, ended, correct, total, passed, settings) "
        "VALUES('exam', '2026-01-01T00:00:00Z', '2026-01-01T00:20:00Z', 15, 20, 1, "
        "'{\"pass\":75}')");
  }
  ProgressStore store = ProgressStore::open(dir.path());
  const std::vector<SessionRecord> sessions = store.sessions();
  REQUIRE(sessions.size() == 1);
  CHECK(sessions[0].correct == 15);
  CHECK(sessions[0].passed == std::optional<bool>(true));
  CHECK(sessions[0].settings == "{\"pass\":75}");
  CHECK(sessions[0].result.empty());
  store.end_session(sessions[0].id, at("2026-01-01T00:20:00Z"), 15, 20, true, false,
                    "{\"minutes\":20}");
  CHECK(store.sessions()[0].result == "{\"minutes\":20}");
}

TEST_CASE("a schema-4 database gains the confidence column: its reviews are kept, unasked",
          "[study][progress]") {
  cli_test::TempDir dir;
  AnswerRecord answer;
  answer.card = "q1";
  answer.at = at("2026-01-01T00:00:00Z");
  answer.mode = "quiz";
  answer.correct = true;
  {
    ProgressStore store = ProgressStore::open(dir.path());
    answer.session = store.begin_session("quiz", answer.at, "{}");
    store.record(answer, std::nullopt);
  }
  {
    // As proofdeck wrote it before confidence was asked.
    SQLite::Database db((dir.path() / "progress.db").string(), SQLite::OPEN_READWRITE);
    db.exec("ALTER TABLE reviews DROP COLUMN confidence");
    db.exec("UPDATE meta SET value = '4' WHERE key = 'schema_version'");
  }
  ProgressStore store = ProgressStore::open(dir.path());
  REQUIRE(store.reviews().size() == 1);
  CHECK(store.reviews()[0].card == "q1");
  CHECK_FALSE(store.reviews()[0].confidence);
  answer.card = "q2";
  answer.confidence = 3;
  store.record(answer, std::nullopt);
  const std::vector<ReviewRow> rows = store.reviews();
  REQUIRE(rows.size() == 2);
  CHECK_FALSE(rows[0].confidence);
  CHECK(rows[1].confidence == std::optional<int>(3));
}

TEST_CASE("a file that is not a database is refused and left byte for byte", "[study][progress]") {
  cli_test::TempDir dir;
  const std::string garbage = "my notes, not a database\n";
  dir.write("progress.db", garbage);
  try {
    ProgressStore::open(dir.path());
    FAIL("opened");
  } catch (const StateError& e) {
    CHECK_THAT(e.message(), Contains("progress.db: not a SQLite database") &&
                                Contains("the file was left untouched"));
  }
  CHECK(read_bytes(dir.path() / "progress.db") == garbage);
  CHECK(dir.entries() == std::vector<std::string>{"progress.db"});  // no -wal, no -shm
}

TEST_CASE("a truncated database is reported, kept, and never overwritten", "[study][progress]") {
  cli_test::TempDir dir;
  {
    ProgressStore store = ProgressStore::open(dir.path());
    const auto session = store.begin_session("quiz", at("2026-01-01T00:00:00Z"), "{}");
    for (int i = 0; i < 200; ++i) {
      AnswerRecord answer;
      answer.card = "q" + std::to_string(i);
      answer.at = at("2026-01-01T00:00:00Z");
      answer.mode = "quiz";
      answer.session = session;
      answer.answer = std::string(100, 'x');
      store.record(answer, std::nullopt);
    }
  }
  SQLite::Database((dir.path() / "progress.db").string(), SQLite::OPEN_READWRITE)
      .exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const auto path = dir.path() / "progress.db";
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  const std::string truncated = read_bytes(path);
  CHECK_THROWS_AS(ProgressStore::open(dir.path()), StateError);
  CHECK(read_bytes(path) == truncated);
}

TEST_CASE("a SQLite database that is not proofdeck's is refused", "[study][progress]") {
  cli_test::TempDir dir;
  {
    SQLite::Database other((dir.path() / "progress.db").string(),
                           SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    other.exec("CREATE TABLE recipes(name TEXT)");
  }
  CHECK_THROWS_WITH(ProgressStore::open(dir.path()), Contains("not proofdeck's"));
}

TEST_CASE("a database from a newer proofdeck is refused, not downgraded", "[study][progress]") {
  cli_test::TempDir dir;
  { ProgressStore::open(dir.path()); }
  {
    SQLite::Database db((dir.path() / "progress.db").string(), SQLite::OPEN_READWRITE);
    db.exec("UPDATE meta SET value = '99' WHERE key = 'schema_version'");
  }
  CHECK_THROWS_WITH(ProgressStore::open(dir.path()),
                    Contains("written by a newer proofdeck (schema 99"));
}

TEST_CASE("an answer and the card's new schedule are saved together and survive reopening",
          "[study][progress]") {
  cli_test::TempDir dir;
  Card card;
  card.state = CardState::review;
  card.stability = 12.5;
  card.difficulty = 4.25;
  card.due = at("2026-01-13T00:00:00Z");
  card.last_review = at("2026-01-01T00:00:00Z");
  card.reps = 3;
  card.lapses = 1;
  {
    ProgressStore store = ProgressStore::open(dir.path());
    const auto session = store.begin_session("drill", at("2026-01-01T00:00:00Z"), "{}");
    AnswerRecord answer;
    answer.card = "mha-purpose";
    answer.bank = "example";
    answer.topic = "multi-head";
    answer.at = at("2026-01-01T00:00:00Z");
    answer.mode = "drill";
    answer.session = session;
    answer.correct = false;
    answer.trap = "mha-cuts-params";
    answer.rating = Rating::again;
    answer.elapsed_days = 0;
    store.record(answer, card);
  }
  ProgressStore reopened = ProgressStore::open(dir.path());
  const std::optional<Card> saved = reopened.card("mha-purpose");
  REQUIRE(saved);
  CHECK(saved->state == CardState::review);
  CHECK(saved->stability == 12.5);
  CHECK(saved->difficulty == 4.25);
  CHECK(saved->due == card.due);
  CHECK(saved->lapses == 1);
  const std::vector<ReviewRow> reviews = reopened.reviews();
  REQUIRE(reviews.size() == 1);
  CHECK(reviews[0].trap == "mha-cuts-params");
  CHECK(reviews[0].rating == 1);
  CHECK(reopened.sessions().at(0).total == 1);
  CHECK_FALSE(reopened.card("unknown"));
}

TEST_CASE("a second drill on the same folder is refused while the first holds it",
          "[study][progress]") {
  cli_test::TempDir dir;
  {
    DrillLock first(dir.path());
    CHECK_THROWS_WITH(DrillLock(dir.path()), Contains("another drill session is running"));
  }
  CHECK_NOTHROW(DrillLock(dir.path()));  // released with the first
}

TEST_CASE("the data folder: --data-dir, PROOFDECK_HOME, XDG_DATA_HOME, then HOME", "[study]") {
  std::map<std::string, std::string> env{{"HOME", "/home/a"}};
  const auto getenv = [&](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  CHECK(resolve_data_dir("", getenv) == "/home/a/.local/share/proofdeck");
  env["XDG_DATA_HOME"] = "/xdg";
  CHECK(resolve_data_dir("", getenv) == "/xdg/proofdeck");
  env["PROOFDECK_HOME"] = "/pd";
  CHECK(resolve_data_dir("", getenv) == "/pd");
  CHECK(resolve_data_dir("/given", getenv) == "/given");
}

// --- an exam's clock ----------------------------------------------------------------------------

TEST_CASE("exam: the prompt holds no clock — each time left shown is read when it is shown",
          "[study][exam][clock]") {
  // The exam's clock jumps 61 s every time it is read: a time computed once and shown again
  // later would repeat itself instead of going down.
  const std::vector<bank::Bank> banks{study_bank()};
  cli_test::TempDir dir;
  ProgressStore store = ProgressStore::open(dir.path());
  std::istringstream in("time\nnext\ntime\nreview\nsubmit\nyes\n");
  std::ostringstream out;
  LineReader reader(in, -1, out);
  const auto started = std::chrono::steady_clock::now();
  int reads = 0;
  Session session{.banks = banks,
                  .out = out,
                  .reader = reader,
                  .theme = {},
                  .width = 100,
                  .echo_input = true,
                  .seed = 1,
                  .start = {},
                  .started = started,
                  .runner = bank::DemoRunner(0),
                  .reminders = nullptr,
                  .err = nullptr,
                  .clock = [&] { return started + std::chrono::seconds(61) * ++reads; }};
  ExamOptions options;
  options.count = 2;
  options.minutes = 30;
  options.show_demo = false;
  run_exam(session, store, options, [](const std::string&, const std::string&) {});
  const std::string shown = out.str();

  // Every prompt (a line that waits for input) is free of any time.
  const std::regex prompt(R"(\n(\[[^\n]*\] (submit\? |> ))[^\n]*)");
  int prompts = 0;
  for (auto it = std::sregex_iterator(shown.begin(), shown.end(), prompt);
       it != std::sregex_iterator(); ++it, ++prompts)
    CHECK_THAT((*it)[1].str(), !Contains("left") && !Contains(":"));
  CHECK(prompts >= 6);

  // The question headers, `time` and the review screen each show the clock as read then.
  std::vector<int> seconds_left;
  const std::regex left(R"((\d+):(\d\d) left)");
  for (auto it = std::sregex_iterator(shown.begin(), shown.end(), left);
       it != std::sregex_iterator(); ++it)
    seconds_left.push_back(std::stoi((*it)[1]) * 60 + std::stoi((*it)[2]));
  REQUIRE(seconds_left.size() == 5);  // question 1, time, question 2, time, review
  for (std::size_t i = 1; i < seconds_left.size(); ++i)
    CHECK(seconds_left[i] == seconds_left[i - 1] - 61);
  CHECK_THAT(shown, Contains("[1/2] ") && Contains("[2/2] ") &&
                        Contains("left; at 0:00 what is answered is submitted.") &&
                        Contains("0 of 2 answered, 0 flagged, "));
}

}  // namespace test_study
