// What the progress database says about the learner: reviews today and in total, true retention,
// cards by state, the due forecast, mastery per topic, the exams taken, readiness for the exam
// (README § How readiness is estimated), the traps they keep falling for, leeches.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/model.hpp"
#include "render/theme.hpp"
#include "study/chance.hpp"
#include "study/progress.hpp"

namespace proofdeck::study {

struct StatsOptions {
  double pass = 75.0;            // --pass PCT: the pass mark readiness is compared with
  int default_exam_length = 20;  // questions in the exam whose pass chance is given, when none
                                 // was taken yet (else the latest exam's length)
};

// {"now", "reviews": {"today", "total", "by_mode"}, "retention": {"true_retention", "reviews"},
//  "cards": {"new", "learning", "review", "relearning"}, "forecast": {"overdue", "next_7",
//  "next_30", "days": [{"date", "due"}] × 30} (dates and "today" are the learner's days:
//  learner_day.hpp), "topics": [{"id", "name", "questions", "seen",
//  "answers", "correct", "accuracy", "drilled", "recall"}], "exams": [{"at", "score", "total",
//  "passed", "minutes", "topics", "pass", "allowed_minutes", "predicted", "date"}] oldest first
//  ("predicted": {"readiness", "low", "high", "pass_chance"} as the exam began, or null),
//  "readiness": {"pass", "overall", "interval": [low, high], "reaches_pass", "covers", "weakest",
//  "weakest_objective", "topics": [{"id", "name", "readiness", "seen", "questions"}],
//  "objectives": [{"id", "topic", "readiness", "answered", "questions", "weight"}],
//  "not_yet_seen": [objective ids], "exam": {"questions", "needed", "pass_chance",
//  "like_latest"}}, "traps":
//  [{"id", "name", "exposed", "fell", "miss_rate"}] highest miss rate first (then most falls,
//  then id), "leeches": [{"id", "lapses"}]}.
// True retention: the share of drill reviews made a day or more after the previous one that
// were right (as Anki counts it). Recall: the mean FSRS probability of recall now over the
// topic's drilled cards (null when none is). An exam is listed once it ended without being
// interrupted; one saved before exams kept a result has "topics": {} and minutes from its start
// and end. Readiness: study/readiness.hpp.
nlohmann::ordered_json compute_stats(ProgressStore& store, const std::vector<bank::Bank>& banks,
                                     TimePoint now, const StatsOptions& options = {});

// What stats says where there is no progress database yet: where it looked, what starts one and
// how to look elsewhere.
std::string render_no_progress(const std::filesystem::path& dir, int width);

// `program`: how the learner runs proofdeck, as the commands stats suggests begin.
std::string render_stats(const nlohmann::ordered_json& stats, const Theme& theme, int width,
                         const std::string& program = "proofdeck");

// The exams stats lists, oldest first — each ended without being interrupted — as `stats`
// numbers them from 1 and `exam --review N` reads them.
std::vector<SessionRecord> listed_exams(const std::vector<SessionRecord>& sessions);

}  // namespace proofdeck::study
