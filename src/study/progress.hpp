// The learner's progress: one SQLite database, $PROOFDECK_HOME/progress.db (docs/ARCHITECTURE.md
// § Contracts), kept the way Anki keeps its collection — WAL journal, one transaction per answer,
// so a killed session loses nothing it acknowledged. Cards hold the FSRS schedule (only drill
// changes it); reviews are append-only, one row per answer of every mode; sessions keep scores.
// A file that is not a readable proofdeck database is never written to: StateError (exit 3)
// says what it found and what to do. Schema changes are migrations, never a reset.
#pragma once

#include <SQLiteCpp/Database.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "study/fsrs.hpp"
#include "study/learner_day.hpp"

namespace proofdeck::study {

// Where progress lives: --data-dir, else $PROOFDECK_HOME, else $XDG_DATA_HOME/proofdeck, else
// ~/.local/share/proofdeck.
std::filesystem::path resolve_data_dir(const std::string& option,
                                       const std::function<const char*(const char*)>& getenv);

// One answer, as the reviews table records it.
struct AnswerRecord {
  std::string card;  // the question id
  std::string bank;
  std::string topic;
  TimePoint at;
  std::string mode;  // quiz | exam | drill | cram (drill --cram: no rating, no schedule)
  std::int64_t session = 0;
  bool correct = false;
  std::string answer;  // what the learner typed, normalized
  std::string trap;    // the trap the chosen answer embodies, or ""
  std::int64_t duration_ms = 0;
  std::optional<Rating> rating;                  // drill only
  std::optional<int> elapsed_days;               // drill only
  std::optional<int> confidence = std::nullopt;  // 1–3 when the learner was asked (--confidence)
};

struct SessionRecord {
  std::int64_t id = 0;
  std::string mode;
  TimePoint started;
  std::optional<TimePoint> ended;
  int correct = 0;
  int total = 0;
  std::optional<bool> passed;  // exam
  bool interrupted = false;
  std::string settings;  // JSON: the options it ran with (seed, filters, an exam's minutes, pass)
  std::string result;    // JSON or "": an exam's {"minutes", "topics": {id: {"correct", "total"}}}
};

// A review row read back, for stats.
struct ReviewRow {
  std::string card;
  std::string topic;
  TimePoint at;
  std::string mode;
  bool correct = false;
  std::string trap;
  std::optional<int> rating;
  std::optional<int> elapsed_days;
  std::int64_t session = 0;      // 0: none recorded
  std::int64_t duration_ms = 0;  // time to answer; 0: none recorded
  std::optional<int> confidence =
      std::nullopt;  // 1–3 when asked (--confidence); none before schema 5
};

// A question skipped (quiz or drill `:s`): no answer, so no review row.
struct SkipRow {
  std::string card;
  TimePoint at;
  std::string mode;
  std::int64_t session = 0;
};

// A card's FSRS memory: what drill --optimize recomputes with new weights.
struct CardMemory {
  double stability = 0.0;
  double difficulty = 0.0;
};

// A fit of the FSRS-6 weights to the learner's drill reviews (drill --optimize): meta
// "fsrs_fit" holds the one in use as JSON {"weights", "fitted_at", "reviews", "items",
// "log_loss", "rmse_bins"}; the table fsrs_fits keeps every fit made.
struct FsrsFitRecord {
  std::array<double, 21> weights = kDefaultWeights;
  TimePoint fitted_at;
  int reviews = 0;         // the drill reviews it was fitted to
  int items = 0;           // training items, after the outlier filter
  double log_loss = 0.0;   // of these weights on those reviews, as drill --evaluate measures
  double rmse_bins = 0.0;  // likewise
};

// The exam the learner plans toward (drill --exam-date, --minutes-a-day): meta's "exam_date"
// ("2027-01-20") and "minutes_a_day".
struct ExamDate {
  LearnerDate date;
  int minutes_a_day = 30;
};

class ProgressStore {
 public:
  static constexpr int kSchemaVersion = 5;

  // Opens dir/progress.db, creating the folder and a fresh database when neither exists, and
  // migrating an older schema. StateError when the folder cannot be created, `dir` is a file, or
  // the file is not a readable proofdeck database (it is left exactly as it was).
  static ProgressStore open(const std::filesystem::path& dir);
  // Opens dir/progress.db to read it only, as stats and exam --review do: no file, folder or
  // lock is created and nothing is migrated (an older schema is read as it is). nullopt when
  // there is no database there yet (or an empty file); StateError as open() refuses.
  static std::optional<ProgressStore> open_existing(const std::filesystem::path& dir);
  // A store in memory with no progress: what stats shows when there is none yet.
  static ProgressStore empty();

  // A store that was written to is left in rollback-journal mode, as Anki leaves its
  // collection: at rest the database is one file that a reader opens without creating the WAL's
  // -wal and -shm beside it (left in WAL mode while another connection has it open).
  ~ProgressStore();
  ProgressStore(ProgressStore&&) noexcept = default;
  ProgressStore& operator=(ProgressStore&&) noexcept = default;

  const std::filesystem::path& path() const { return path_; }
  // Whether this open created the database (there was none, or an empty file): a learner told
  // so notices a mistyped --data-dir before answering into the wrong place.
  bool created() const { return created_; }

  std::optional<Card> card(const std::string& id);
  std::map<std::string, Card> cards();  // every card with history, by id

  std::int64_t begin_session(const std::string& mode, TimePoint started,
                             const std::string& settings_json);
  // The answer and (drill) the card's new schedule, in one transaction.
  void record(const AnswerRecord& answer, const std::optional<Card>& schedule);
  // A skipped question, in a transaction of its own (quiz --missed asks it again).
  void record_skip(const std::string& card, TimePoint at, const std::string& mode,
                   std::int64_t session);
  void end_session(std::int64_t session, TimePoint ended, int correct, int total,
                   std::optional<bool> passed, bool interrupted,
                   const std::string& result_json = "");

  std::vector<ReviewRow> reviews();
  std::vector<SkipRow> skips();  // oldest first
  std::vector<SessionRecord> sessions();

  // The hour the learner's day starts (learner_day.hpp): meta's "day_starts_at", set by
  // `drill --day-starts-at H`, kDefaultDayStartsAt in a database that never set it. StateError
  // when the stored value is not a whole hour from 0 to 23.
  int day_starts_at();
  void set_day_starts_at(int hour);

  // The exam date and minutes a day saved, nullopt when none is. StateError when a stored value
  // is not one proofdeck wrote (it names the key and the fix).
  std::optional<ExamDate> exam_date();
  // Saves both, or with nullopt removes both.
  void set_exam_date(const std::optional<ExamDate>& exam);

  // Whether quiz, exam and drill ask how sure each answer is (meta "confidence": "on" or "off",
  // the last --confidence or --no-confidence given); false when never set. StateError when the
  // stored value is neither.
  bool asks_confidence();
  void set_asks_confidence(bool asks);

  // The FSRS-6 fit in use (meta "fsrs_fit"), nullopt while drill schedules with the defaults.
  // StateError when the stored fit is not one proofdeck wrote (it names the field and the fix).
  std::optional<FsrsFitRecord> fsrs_fit();
  // The weights drill schedules with: the fit's, else kDefaultWeights.
  std::array<double, 21> fsrs_weights();
  // In one transaction: the fit becomes the one in use, is appended to fsrs_fits, and each
  // card in `memory` takes its stability and difficulty (its due date is left as it is).
  void save_fsrs_fit(const FsrsFitRecord& fit, const std::map<std::string, CardMemory>& memory);
  // Back to the defaults, in one transaction: the fit in use is dropped (fsrs_fits keeps it) and
  // the cards in `memory` take theirs.
  void reset_fsrs_fit(const std::map<std::string, CardMemory>& memory);

 private:
  std::optional<std::string> meta(const std::string& key);
  void set_meta(const std::string& key, const std::string& value);

  ProgressStore(std::filesystem::path path, std::unique_ptr<SQLite::Database> db, bool created,
                bool read_only = false, int schema = kSchemaVersion)
      : path_(std::move(path)),
        db_(std::move(db)),
        created_(created),
        read_only_(read_only),
        schema_(schema) {}
  std::filesystem::path path_;
  std::unique_ptr<SQLite::Database> db_;
  bool created_ = false;
  bool read_only_ = false;
  int schema_ = kSchemaVersion;  // a read-only store reads an older schema as it is
};

// Held for a drill session's lifetime: a second drill on the same data folder is refused
// (StateError, exit 3) while the first runs. An OS file lock, so a killed session releases it.
class DrillLock {
 public:
  explicit DrillLock(const std::filesystem::path& dir);
  ~DrillLock();
  DrillLock(const DrillLock&) = delete;
  DrillLock& operator=(const DrillLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace proofdeck::study
