// The progress database: opening with every refusal docs/ARCHITECTURE.md § Contracts lists,
// migrations, and one transaction per answer.
#include "study/progress.hpp"

#include <SQLiteCpp/Exception.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "core/errors.hpp"

namespace proofdeck::study {

namespace fs = std::filesystem;

fs::path resolve_data_dir(const std::string& option,
                          const std::function<const char*(const char*)>& getenv) {
  if (!option.empty()) return option;
  const auto env = [&](const char* name) -> std::string {
    const char* value = getenv ? getenv(name) : nullptr;
    return value == nullptr ? std::string() : std::string(value);
  };
  if (const std::string home = env("PROOFDECK_HOME"); !home.empty()) return home;
  if (const std::string xdg = env("XDG_DATA_HOME"); !xdg.empty())
    return fs::path(xdg) / "proofdeck";
  if (const std::string home = env("HOME"); !home.empty())
    return fs::path(home) / ".local" / "share" / "proofdeck";
  throw InputError("data.dir", "no place for progress: set --data-dir DIR, PROOFDECK_HOME or HOME");
}

namespace {

// Each entry takes the schema from version i to i + 1; append, never edit.
const std::vector<std::vector<std::string>>& migrations() {
  static const std::vector<std::vector<std::string>> steps = {
      {
          "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT)",
          "CREATE TABLE cards(id TEXT PRIMARY KEY, state TEXT NOT NULL, step INTEGER NOT NULL "
          "DEFAULT 0, stability REAL, difficulty REAL, due TEXT, last_review TEXT, reps INTEGER "
          "NOT NULL DEFAULT 0, lapses INTEGER NOT NULL DEFAULT 0)",
          "CREATE TABLE reviews(id INTEGER PRIMARY KEY, card TEXT NOT NULL, at TEXT NOT NULL, "
          "rating INTEGER, elapsed_days INTEGER, mode TEXT NOT NULL, session INTEGER, correct "
          "INTEGER NOT NULL, answer TEXT, trap TEXT, topic TEXT, bank TEXT, duration_ms INTEGER)",
          "CREATE INDEX reviews_by_card ON reviews(card)",
          "CREATE INDEX reviews_by_time ON reviews(at)",
          "CREATE TABLE sessions(id INTEGER PRIMARY KEY, mode TEXT NOT NULL, started TEXT NOT "
          "NULL, ended TEXT, correct INTEGER NOT NULL DEFAULT 0, total INTEGER NOT NULL DEFAULT "
          "0, passed INTEGER, interrupted INTEGER NOT NULL DEFAULT 0, settings TEXT)",
      },
      {
          // What a session ended with beyond its score (an exam: per-topic results, minutes).
          "ALTER TABLE sessions ADD COLUMN result TEXT",
      },
      {
          // A question skipped (not an answer: no review row), so that quiz --missed asks it
          // again until an answer follows.
          "CREATE TABLE skips(id INTEGER PRIMARY KEY, card TEXT NOT NULL, at TEXT NOT NULL, "
          "mode TEXT NOT NULL, session INTEGER)",
          "CREATE INDEX skips_by_card ON skips(card)",
      },
      {
          // Every fit of the FSRS-6 weights to the learner (drill --optimize); the one in use is
          // meta's fsrs_fit.
          "CREATE TABLE fsrs_fits(id INTEGER PRIMARY KEY, fitted_at TEXT NOT NULL, weights TEXT "
          "NOT NULL, reviews INTEGER NOT NULL, items INTEGER NOT NULL, log_loss REAL, rmse_bins "
          "REAL)",
      },
      {
          // How sure the learner said they were of the answer (--confidence): 1 guessing, 2
          // fairly sure, 3 sure; NULL when not asked.
          "ALTER TABLE reviews ADD COLUMN confidence INTEGER",
      },
  };
  return steps;
}

[[noreturn]] void refuse(const fs::path& path, const std::string& what) {
  throw StateError("progress.unreadable",
                   fmt::format("{}: {}; the file was left untouched — move it away (or choose "
                               "another folder with --data-dir) and proofdeck starts a new one",
                               path.string(), what));
}

// The first 16 bytes of every SQLite 3 database.
bool has_sqlite_header(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  char header[16] = {};
  file.read(header, sizeof header);
  return file.gcount() == sizeof header &&
         std::memcmp(header, "SQLite format 3\0", sizeof header) == 0;
}

int schema_version(SQLite::Database& db) {
  if (!db.tableExists("meta")) return 0;
  SQLite::Statement query(db, "SELECT value FROM meta WHERE key = 'schema_version'");
  if (!query.executeStep()) return 0;
  return std::stoi(query.getColumn(0).getString());
}

std::string text_or_empty(const SQLite::Column& column) {
  return column.isNull() ? std::string() : column.getString();
}

std::optional<TimePoint> time_or_null(const SQLite::Column& column) {
  if (column.isNull()) return std::nullopt;
  return parse_time(column.getString());
}

}  // namespace

namespace {

// --data-dir (or PROOFDECK_HOME) naming a file: StateError before anything is tried.
void refuse_file_as_folder(const fs::path& dir) {
  std::error_code error;
  if (fs::exists(dir, error) && !fs::is_directory(dir, error)) {
    throw StateError("progress.dir",
                     fmt::format("{} is a file, not a folder: progress.db is kept in a folder "
                                 "(choose one with --data-dir DIR or PROOFDECK_HOME)",
                                 dir.string()));
  }
}

// What every open checks before anything is written: SQLite can read the file, it is not
// damaged, it is proofdeck's (or empty) and its schema is one this proofdeck reads. Returns the
// schema version, 0 for a database with nothing in it yet.
int checked_version(SQLite::Database& db, const fs::path& path) {
  SQLite::Statement check(db, "PRAGMA quick_check");
  while (check.executeStep()) {
    const std::string result = check.getColumn(0).getString();
    if (result != "ok") refuse(path, "the database is damaged (" + result + ")");
  }
  const int version = schema_version(db);
  if (version == 0 && db.tableExists("cards") == false) {
    SQLite::Statement tables(db, "SELECT count(*) FROM sqlite_master");
    if (tables.executeStep() && tables.getColumn(0).getInt() > 0) {
      refuse(path, "a SQLite database, but not proofdeck's (it has no meta table)");
    }
  }
  if (version > ProgressStore::kSchemaVersion) {
    throw StateError("progress.newer",
                     fmt::format("{} was written by a newer proofdeck (schema {}, this one "
                                 "reads up to {}); upgrade proofdeck to use it",
                                 path.string(), version, ProgressStore::kSchemaVersion));
  }
  return version;
}

}  // namespace

ProgressStore ProgressStore::open(const fs::path& dir) {
  refuse_file_as_folder(dir);
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) {
    throw StateError("progress.dir", fmt::format("cannot create the data folder {}: {}",
                                                 dir.string(), error.message()));
  }
  const fs::path path = dir / "progress.db";
  const bool exists = fs::exists(path, error);
  // Permissions first, so a read-only place is reported as that, not as a damaged database.
  // SQLite writes a -wal and a -shm file beside the database: the folder must be writable too.
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw StateError(
        "progress.readonly",
        fmt::format("{}: the data folder is not writable ({}); proofdeck keeps every answer in "
                    "{} there. Make the folder writable, or choose another one with --data-dir "
                    "DIR (or PROOFDECK_HOME)",
                    dir.string(), std::strerror(errno),
                    exists ? "progress.db and its journal" : "a new progress.db"));
  }
  if (exists && ::access(path.c_str(), R_OK | W_OK) != 0) {
    throw StateError(
        "progress.readonly",
        fmt::format("{}: cannot open it for writing ({}); proofdeck records every answer in it. "
                    "Make it readable and writable (chmod u+rw {}), or choose another folder "
                    "with --data-dir DIR; the file was left untouched",
                    path.string(), std::strerror(errno), path.string()));
  }
  // An empty file holds nothing to lose (a first run killed before its first write); anything
  // else must be a SQLite database before SQLite is allowed to write to it.
  if (exists && fs::file_size(path, error) > 0 && !has_sqlite_header(path)) {
    refuse(path, "not a SQLite database (its first bytes are not \"SQLite format 3\")");
  }
  std::unique_ptr<SQLite::Database> db;
  bool created = false;
  try {
    db = std::make_unique<SQLite::Database>(path.string(),
                                            SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, 5000);
    // Read-only checks first: a damaged or foreign file is reported before anything is written.
    const int version = checked_version(*db, path);
    created = version == 0;
    db->exec("PRAGMA journal_mode = WAL");
    db->exec("PRAGMA synchronous = FULL");
    db->exec("PRAGMA foreign_keys = ON");
    if (version < kSchemaVersion) {
      SQLite::Transaction transaction(*db, SQLite::TransactionBehavior::IMMEDIATE);
      for (int step = version; step < kSchemaVersion; ++step) {
        for (const std::string& sql : migrations()[static_cast<std::size_t>(step)])
          db->exec(sql);
      }
      SQLite::Statement set(*db,
                            "INSERT OR REPLACE INTO meta(key, value) VALUES('schema_version', ?)");
      set.bind(1, std::to_string(kSchemaVersion));
      set.exec();
      transaction.commit();
    }
  } catch (const SQLite::Exception& e) {
    const int code = e.getErrorCode() & 0xff;  // the primary result code
    if (code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_PERM) {
      throw StateError("progress.readonly",
                       fmt::format("{}: SQLite cannot write there ({}); check the permissions "
                                   "of the file and its folder, or choose another folder with "
                                   "--data-dir DIR",
                                   path.string(), e.what()));
    }
    refuse(path, fmt::format("SQLite cannot read it ({})", e.what()));
  }
  return ProgressStore(path, std::move(db), created);
}

std::optional<ProgressStore> ProgressStore::open_existing(const fs::path& dir) {
  refuse_file_as_folder(dir);
  const fs::path path = dir / "progress.db";
  std::error_code error;
  if (!fs::exists(path, error)) return std::nullopt;
  // An empty file holds no progress (a first run killed before its first write).
  if (fs::is_regular_file(path, error) && fs::file_size(path, error) == 0) return std::nullopt;
  if (::access(path.c_str(), R_OK) != 0) {
    throw StateError("progress.unreadable",
                     fmt::format("{}: cannot read it ({}); make it readable (chmod u+r {}), or "
                                 "choose another folder with --data-dir DIR",
                                 path.string(), std::strerror(errno), path.string()));
  }
  if (!has_sqlite_header(path)) {
    refuse(path, "not a SQLite database (its first bytes are not \"SQLite format 3\")");
  }
  try {
    auto db = std::make_unique<SQLite::Database>(path.string(), SQLite::OPEN_READONLY, 5000);
    const int version = checked_version(*db, path);
    if (version == 0) return std::nullopt;  // a database with nothing in it yet
    return ProgressStore(path, std::move(db), false, true, version);
  } catch (const SQLite::Exception& e) {
    refuse(path, fmt::format("SQLite cannot read it ({})", e.what()));
  }
}

ProgressStore ProgressStore::empty() {
  auto db =
      std::make_unique<SQLite::Database>(":memory:", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
  for (const auto& step : migrations()) {
    for (const std::string& sql : step)
      db->exec(sql);
  }
  return ProgressStore({}, std::move(db), false, true);
}

ProgressStore::~ProgressStore() {
  if (!db_ || read_only_) return;
  try {
    // Never wait for another connection: it will leave the journal when it closes.
    db_->setBusyTimeout(0);
    db_->exec("PRAGMA journal_mode = DELETE");
  } catch (const SQLite::Exception&) {
    // Another connection has it open: it stays in WAL mode until the last one closes.
  }
}

namespace {

Card read_card(SQLite::Statement& row) {
  Card card;
  card.state = parse_state(row.getColumn(1).getString()).value_or(CardState::fresh);
  card.step = row.getColumn(2).getInt();
  card.stability = row.getColumn(3).isNull() ? 0.0 : row.getColumn(3).getDouble();
  card.difficulty = row.getColumn(4).isNull() ? 0.0 : row.getColumn(4).getDouble();
  card.due = time_or_null(row.getColumn(5));
  card.last_review = time_or_null(row.getColumn(6));
  card.reps = row.getColumn(7).getInt();
  card.lapses = row.getColumn(8).getInt();
  return card;
}

constexpr const char* kCardColumns =
    "id, state, step, stability, difficulty, due, last_review, reps, lapses";

}  // namespace

std::optional<Card> ProgressStore::card(const std::string& id) {
  SQLite::Statement query(*db_, fmt::format("SELECT {} FROM cards WHERE id = ?", kCardColumns));
  query.bind(1, id);
  if (!query.executeStep()) return std::nullopt;
  return read_card(query);
}

std::map<std::string, Card> ProgressStore::cards() {
  std::map<std::string, Card> all;
  SQLite::Statement query(*db_, fmt::format("SELECT {} FROM cards", kCardColumns));
  while (query.executeStep())
    all.emplace(query.getColumn(0).getString(), read_card(query));
  return all;
}

std::int64_t ProgressStore::begin_session(const std::string& mode, TimePoint started,
                                          const std::string& settings_json) {
  SQLite::Statement insert(*db_, "INSERT INTO sessions(mode, started, settings) VALUES(?, ?, ?)");
  insert.bind(1, mode);
  insert.bind(2, format_time(started));
  insert.bind(3, settings_json);
  insert.exec();
  return db_->getLastInsertRowid();
}

void ProgressStore::record(const AnswerRecord& answer, const std::optional<Card>& schedule) {
  try {
    SQLite::Transaction transaction(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    SQLite::Statement insert(*db_,
                             "INSERT INTO reviews(card, at, rating, elapsed_days, mode, session, "
                             "correct, answer, trap, topic, bank, duration_ms, confidence) "
                             "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    insert.bind(1, answer.card);
    insert.bind(2, format_time(answer.at));
    if (answer.rating) {
      insert.bind(3, static_cast<int>(*answer.rating));
    } else {
      insert.bind(3);
    }
    if (answer.elapsed_days) {
      insert.bind(4, *answer.elapsed_days);
    } else {
      insert.bind(4);
    }
    insert.bind(5, answer.mode);
    insert.bind(6, answer.session);
    insert.bind(7, answer.correct ? 1 : 0);
    insert.bind(8, answer.answer);
    if (answer.trap.empty()) {
      insert.bind(9);
    } else {
      insert.bind(9, answer.trap);
    }
    insert.bind(10, answer.topic);
    insert.bind(11, answer.bank);
    insert.bind(12, answer.duration_ms);
    if (answer.confidence) {
      insert.bind(13, *answer.confidence);
    } else {
      insert.bind(13);
    }
    insert.exec();
    if (schedule) {
      SQLite::Statement upsert(
          *db_, fmt::format("INSERT OR REPLACE INTO cards({}) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            kCardColumns));
      upsert.bind(1, answer.card);
      upsert.bind(2, std::string(state_name(schedule->state)));
      upsert.bind(3, schedule->step);
      upsert.bind(4, schedule->stability);
      upsert.bind(5, schedule->difficulty);
      if (schedule->due) {
        upsert.bind(6, format_time(*schedule->due));
      } else {
        upsert.bind(6);
      }
      if (schedule->last_review) {
        upsert.bind(7, format_time(*schedule->last_review));
      } else {
        upsert.bind(7);
      }
      upsert.bind(8, schedule->reps);
      upsert.bind(9, schedule->lapses);
      upsert.exec();
    }
    SQLite::Statement tally(*db_,
                            "UPDATE sessions SET total = total + 1, correct = correct + ? WHERE "
                            "id = ?");
    tally.bind(1, answer.correct ? 1 : 0);
    tally.bind(2, answer.session);
    tally.exec();
    transaction.commit();
  } catch (const SQLite::Exception& e) {
    throw StateError("progress.write",
                     fmt::format("{}: could not save the answer ({})", path_.string(), e.what()));
  }
}

void ProgressStore::record_skip(const std::string& card, TimePoint at, const std::string& mode,
                                std::int64_t session) {
  try {
    SQLite::Statement insert(*db_, "INSERT INTO skips(card, at, mode, session) VALUES(?, ?, ?, ?)");
    insert.bind(1, card);
    insert.bind(2, format_time(at));
    insert.bind(3, mode);
    insert.bind(4, session);
    insert.exec();
  } catch (const SQLite::Exception& e) {
    throw StateError("progress.write",
                     fmt::format("{}: could not save the skip ({})", path_.string(), e.what()));
  }
}

std::vector<SkipRow> ProgressStore::skips() {
  std::vector<SkipRow> rows;
  if (schema_ < 3) return rows;  // an older schema read as it is had no skips
  SQLite::Statement query(*db_, "SELECT card, at, mode, session FROM skips ORDER BY id");
  while (query.executeStep()) {
    rows.push_back({query.getColumn(0).getString(),
                    time_or_null(query.getColumn(1)).value_or(TimePoint{}),
                    query.getColumn(2).getString(),
                    query.getColumn(3).isNull() ? 0 : query.getColumn(3).getInt64()});
  }
  return rows;
}

void ProgressStore::end_session(std::int64_t session, TimePoint ended, int correct, int total,
                                std::optional<bool> passed, bool interrupted,
                                const std::string& result_json) {
  SQLite::Statement update(*db_,
                           "UPDATE sessions SET ended = ?, correct = ?, total = ?, passed = ?, "
                           "interrupted = ?, result = ? WHERE id = ?");
  update.bind(1, format_time(ended));
  update.bind(2, correct);
  update.bind(3, total);
  if (passed) {
    update.bind(4, *passed ? 1 : 0);
  } else {
    update.bind(4);
  }
  update.bind(5, interrupted ? 1 : 0);
  if (result_json.empty()) {
    update.bind(6);
  } else {
    update.bind(6, result_json);
  }
  update.bind(7, session);
  update.exec();
}

std::vector<ReviewRow> ProgressStore::reviews() {
  std::vector<ReviewRow> rows;
  // Schema 4 had no confidence (a read-only store reads it unmigrated).
  SQLite::Statement query(
      *db_, fmt::format("SELECT card, topic, at, mode, correct, trap, rating, elapsed_days, "
                        "session, duration_ms, {} FROM reviews ORDER BY id",
                        schema_ >= 5 ? "confidence" : "NULL"));
  while (query.executeStep()) {
    ReviewRow row;
    row.card = query.getColumn(0).getString();
    row.topic = text_or_empty(query.getColumn(1));
    row.at = time_or_null(query.getColumn(2)).value_or(TimePoint{});
    row.mode = query.getColumn(3).getString();
    row.correct = query.getColumn(4).getInt() != 0;
    row.trap = text_or_empty(query.getColumn(5));
    if (!query.getColumn(6).isNull()) row.rating = query.getColumn(6).getInt();
    if (!query.getColumn(7).isNull()) row.elapsed_days = query.getColumn(7).getInt();
    if (!query.getColumn(8).isNull()) row.session = query.getColumn(8).getInt64();
    if (!query.getColumn(9).isNull()) row.duration_ms = query.getColumn(9).getInt64();
    if (!query.getColumn(10).isNull()) row.confidence = query.getColumn(10).getInt();
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<SessionRecord> ProgressStore::sessions() {
  std::vector<SessionRecord> all;
  // Schema 1 had no result column (a read-only store reads it unmigrated).
  SQLite::Statement query(*db_, fmt::format("SELECT id, mode, started, ended, correct, total, "
                                            "passed, interrupted, settings, {} FROM sessions "
                                            "ORDER BY id",
                                            schema_ >= 2 ? "result" : "NULL"));
  while (query.executeStep()) {
    SessionRecord s;
    s.id = query.getColumn(0).getInt64();
    s.mode = query.getColumn(1).getString();
    s.started = time_or_null(query.getColumn(2)).value_or(TimePoint{});
    s.ended = time_or_null(query.getColumn(3));
    s.correct = query.getColumn(4).getInt();
    s.total = query.getColumn(5).getInt();
    if (!query.getColumn(6).isNull()) s.passed = query.getColumn(6).getInt() != 0;
    s.interrupted = query.getColumn(7).getInt() != 0;
    s.settings = query.getColumn(8).isNull() ? "" : query.getColumn(8).getString();
    s.result = query.getColumn(9).isNull() ? "" : query.getColumn(9).getString();
    all.push_back(s);
  }
  return all;
}

DrillLock::DrillLock(const fs::path& dir) {
  refuse_file_as_folder(dir);
  std::error_code error;
  fs::create_directories(dir, error);
  const fs::path path = dir / "drill.lock";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    throw StateError("progress.lock",
                     fmt::format("cannot open {}: {}", path.string(), std::strerror(errno)));
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    fd_ = -1;
    throw StateError("progress.locked",
                     fmt::format("another drill session is running on {} — finish it first (or "
                                 "use another --data-dir); only one drill may change the "
                                 "schedule at a time",
                                 dir.string()));
  }
}

DrillLock::~DrillLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

int ProgressStore::day_starts_at() {
  const std::optional<std::string> stored = meta("day_starts_at");
  if (!stored) return kDefaultDayStartsAt;
  const std::string& value = *stored;
  const bool digits = !value.empty() && value.size() <= 2 &&
                      value.find_first_not_of("0123456789") == std::string::npos;
  if (!digits || std::stoi(value) > 23) {
    throw StateError(
        "progress.day_starts_at",
        fmt::format("{}: meta's day_starts_at is \"{}\", not an hour from 0 to 23; set "
                    "it again with drill's --day-starts-at H",
                    path_.string(), value));
  }
  return std::stoi(value);
}

std::optional<std::string> ProgressStore::meta(const std::string& key) {
  SQLite::Statement query(*db_, "SELECT value FROM meta WHERE key = ?");
  query.bind(1, key);
  if (!query.executeStep()) return std::nullopt;
  return query.getColumn(0).getString();
}

void ProgressStore::set_meta(const std::string& key, const std::string& value) {
  SQLite::Statement set(*db_, "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)");
  set.bind(1, key);
  set.bind(2, value);
  set.exec();
}

bool ProgressStore::asks_confidence() {
  const std::optional<std::string> value = meta("confidence");
  if (!value) return false;
  if (*value != "on" && *value != "off") {
    throw StateError("progress.confidence",
                     fmt::format("{}: meta's confidence is \"{}\", not on or off; set it again "
                                 "with --confidence or --no-confidence on quiz, exam or drill",
                                 path_.string(), *value));
  }
  return *value == "on";
}

void ProgressStore::set_asks_confidence(bool asks) {
  set_meta("confidence", asks ? "on" : "off");
}

std::optional<ExamDate> ProgressStore::exam_date() {
  const std::optional<std::string> date = meta("exam_date");
  if (!date) return std::nullopt;
  const auto refuse_value = [&](const char* key, const std::string& value, const char* expected) {
    return StateError("progress.exam_date",
                      fmt::format("{}: meta's {} is \"{}\", not {}; set it again with drill's "
                                  "--exam-date YYYY-MM-DD (or clear it with --exam-date none)",
                                  path_.string(), key, value, expected));
  };
  ExamDate exam;
  const std::optional<LearnerDate> parsed = parse_date(*date);
  if (!parsed) throw refuse_value("exam_date", *date, "a date YYYY-MM-DD");
  exam.date = *parsed;
  if (const std::optional<std::string> minutes = meta("minutes_a_day")) {
    const bool digits = !minutes->empty() && minutes->size() <= 4 &&
                        minutes->find_first_not_of("0123456789") == std::string::npos;
    if (!digits || std::stoi(*minutes) < 1 || std::stoi(*minutes) > 1440)
      throw refuse_value("minutes_a_day", *minutes, "whole minutes from 1 to 1440");
    exam.minutes_a_day = std::stoi(*minutes);
  }
  return exam;
}

void ProgressStore::set_exam_date(const std::optional<ExamDate>& exam) {
  SQLite::Transaction transaction(*db_, SQLite::TransactionBehavior::IMMEDIATE);
  if (!exam) {
    db_->exec("DELETE FROM meta WHERE key IN ('exam_date', 'minutes_a_day')");
  } else {
    set_meta("exam_date", format_date(exam->date));
    set_meta("minutes_a_day", std::to_string(exam->minutes_a_day));
  }
  transaction.commit();
}

void ProgressStore::set_day_starts_at(int hour) {
  set_meta("day_starts_at", std::to_string(hour));
}

}  // namespace proofdeck::study
