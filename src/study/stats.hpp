// What the progress database says about the learner: reviews today and in total, true retention,
// cards by state, the due forecast, mastery per topic, the exams taken, readiness for the exam
// (README § How readiness is estimated), the traps they keep falling for, leeches.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/model.hpp"
#include "render/theme.hpp"
#include "study/calibration_view.hpp"
#include "study/chance.hpp"
#include "study/exam_plan_view.hpp"
#include "study/fsrs.hpp"
#include "study/learner_day.hpp"
#include "study/progress.hpp"
#include "study/readiness_view.hpp"

namespace proofdeck::study {

struct StatsOptions {
  double pass = 75.0;            // --pass PCT: the pass mark readiness is compared with
  int default_exam_length = 20;  // questions in the exam whose pass chance is given, when none
                                 // was taken yet (else the latest exam's length)
  ReadinessForms* kept_forms = nullptr;  // readiness forms to reuse (readiness.hpp)
  std::string program = "proofdeck";     // begins the commands the sections give
};

// Reviews of every mode: today (the learner's day, learner_day.hpp) and in total.
struct ReviewCounts {
  int today = 0;
  int total = 0;
  std::map<std::string, int> by_mode;  // "drill", "exam", "quiz" (and any other mode recorded)
};

// True retention: the share of drill reviews made a day or more after the previous one that
// were right (as Anki counts it).
struct Retention {
  std::optional<double> true_retention;  // none before such a review
  int reviews = 0;
};

// The loaded questions' cards by state; "new" is a question never scheduled.
struct CardCounts {
  int fresh = 0;
  int learning = 0;
  int review = 0;
  int relearning = 0;
  int scheduled() const { return learning + review + relearning; }
};

// Cards due on each of the next 30 learner days; one due on a day before today counts today.
struct DueForecast {
  struct Day {
    LearnerDate date;
    int due = 0;
  };
  int day_starts_at = kDefaultDayStartsAt;  // the hour each learner day begins (local)
  int overdue = 0;
  int next_7 = 0;
  int next_30 = 0;
  std::vector<Day> days;  // 30, from today
};

// A topic's mastery: answers of every mode, and FSRS recall now over the cards drill has
// scheduled.
struct TopicMastery {
  std::string id;
  std::string name;
  int questions = 0;
  int seen = 0;  // questions answered at least once
  int answers = 0;
  int correct = 0;
  std::optional<double> accuracy;  // none before an answer
  int drilled = 0;
  std::optional<double> recall;  // mean over the drilled cards; none when none is
};

// An exam that ended without being interrupted. One saved before exams kept a result has no
// topics and its minutes from its start and end.
struct ExamRecord {
  struct TopicScore {
    int correct = 0;
    int total = 0;
  };
  // What readiness predicted as the exam began (exams since 0.3.0).
  struct Prediction {
    double readiness = 0;
    std::optional<double> low;
    std::optional<double> high;
    double pass_chance = 0;
  };
  std::string at;  // when it began (format_time)
  int score = 0;
  int total = 0;
  std::optional<bool> passed;  // unknown for an exam without a pass mark
  double minutes = 0;
  std::map<std::string, TopicScore> topics;  // by topic id
  std::optional<double> pass;                // its pass mark, percent
  std::optional<double> allowed_minutes;
  std::optional<Prediction> predicted;
  std::string date;  // the learner's date it was taken on (01:00 belongs to the evening before)
};

// A trap: answers to questions that test it, and those that fell into it.
struct TrapRecord {
  std::string id;
  std::string name;  // the id for a trap no loaded bank has
  int exposed = 0;
  int fell = 0;
  std::optional<double> miss_rate;
};

struct Leech {
  std::string id;
  int lapses = 0;
};

// What stats reports, a section at a time.
// The FSRS-6 weights drill schedules with: the defaults until a fit to the learner's own reviews
// exists (then when it was made and on how many reviews).
struct FsrsInUse {
  std::array<double, 21> weights = kDefaultWeights;
  bool fitted = false;
  std::optional<std::string> fitted_at;  // format_time
  std::optional<int> reviews;
};

struct Stats {
  std::string now;  // format_time
  ReviewCounts reviews;
  Retention retention;
  CardCounts cards;
  DueForecast forecast;
  std::vector<TopicMastery> topics;       // the loaded topics with questions, in study order
  std::vector<ExamRecord> exams;          // oldest first
  ReadinessView readiness;                // study/readiness_view.hpp
  std::vector<TrapRecord> traps;          // highest miss rate first, then most falls, then id
  std::vector<Leech> leeches;             // cards of kLeechLapses lapses or more
  FsrsInUse fsrs;                         // the weights drill schedules with
  std::optional<ExamPlanView> exam_plan;  // toward the exam date, while one is ahead
  CalibrationView calibration;            // answers given with a level (--confidence)
};

// Reads the progress database against the loaded banks at `now`. Questions no longer loaded
// keep their history in the database but count nowhere here.
Stats compute_stats(ProgressStore& store, const std::vector<bank::Bank>& banks, TimePoint now,
                    const StatsOptions& options = {});

// As `stats --format json` writes it (after "store"): {"now", "reviews": {"today", "total",
// "by_mode"}, "retention": {"true_retention", "reviews"}, "cards": {"learning", "new",
// "relearning", "review"}, "forecast": {"overdue", "next_7", "next_30", "days": [{"date",
// "due"}] × 30}, "topics": [{"id", "name", "questions", "seen", "answers", "correct",
// "accuracy", "drilled", "recall"}], "exams": [{"at", "score", "total", "passed", "minutes",
// "topics": {id: {"correct", "total"}}, "pass", "allowed_minutes", "predicted": {"readiness",
// "low", "high", "pass_chance"}, "date"}], "readiness": (readiness_view.hpp), "traps": [{"id",
// "name", "exposed", "fell", "miss_rate"}], "leeches": [{"id", "lapses"}], "fsrs": {"weights":
// [21 numbers], "fitted", "fitted_at", "reviews"}, "exam_plan": (exam_plan_view.hpp) or null
// without an exam date ahead, "calibration" and "confident_misconceptions"
// (calibration_view.hpp)}; an absent value is null. Dates are the
// learner's days.
void to_json(nlohmann::ordered_json& json, const Stats& stats);

// What stats says where there is no progress database yet: where it looked, what starts one and
// how to look elsewhere.
std::string render_no_progress(const std::filesystem::path& dir, int width);

// `program`: how the learner runs proofdeck, as the commands stats suggests begin.
std::string render_stats(const Stats& stats, const Theme& theme, int width,
                         const std::string& program = "proofdeck");

// The exams stats lists, oldest first — each ended without being interrupted — as `stats`
// numbers them from 1 and `exam --review N` reads them.
std::vector<SessionRecord> listed_exams(const std::vector<SessionRecord>& sessions);

}  // namespace proofdeck::study
