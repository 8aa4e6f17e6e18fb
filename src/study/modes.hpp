// The three study modes a candidate uses every day:
//   quiz  — immediate feedback, the trap a wrong answer fell into, the live proof;
//   exam  — timed, no feedback until the end, flag and review, pass or fail;
//   drill — spaced repetition (FSRS-6): due cards first, then new ones; only drill changes the
//           schedule, but every mode's answers are logged (they feed stats).
// Each returns whether the learner interrupted it (Ctrl-C, SIGTERM), which exits 130 after the
// summary; answers given before are already saved.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bank/form.hpp"
#include "engine/rng.hpp"
#include "study/drill_plan.hpp"
#include "study/learner_day.hpp"
#include "study/progress.hpp"
#include "study/session.hpp"

namespace proofdeck::study {

// A quiz without --count asks this many (or all that match, when fewer): a first session is a
// few minutes, not the whole bank. --missed, --weakest, --trap and --question ask all they select.
constexpr int kDefaultQuizCount = 20;

struct QuizOptions {
  bank::Filters filters;
  std::optional<int> count;    // --count N: at most N questions (default kDefaultQuizCount)
  bool show_demo = true;       // --no-demo: skip the live proof in feedback
  std::string report_path;     // --report FILE
  bool missed = false;         // --missed: questions whose latest answer was wrong
  std::optional<int> weakest;  // --weakest N: questions of the N traps fallen into most
};

struct ExamOptions {
  bank::Filters filters;
  int count = 20;         // --count N
  double minutes = 30.0;  // --minutes M
  double pass = 75.0;     // --pass PCT
  bool show_demo = true;  // --no-demo: results without the proof figures
  std::string report_path;
};

// exam --review [N]: the results of a past exam, rebuilt from its saved seed and answers.
struct ExamReviewOptions {
  std::optional<std::size_t> number;  // N as stats numbers the exams (from 1); unset: the latest
  bool show_demo = true;              // --no-demo
};

struct DrillOptions {
  bank::Filters filters;
  int new_per_day = 20;   // --new N
  int limit = 200;        // --limit N: reviews in this session
  bool show_demo = true;  // --no-demo: feedback without the live proof
  bool auto_rate = false;
  bool fuzz = false;
  double retention = 0.9;  // --retention R
  bool bury = true;  // --no-bury off: an objective's other cards wait for the next day once one
                     // of its cards has been reviewed today
  std::string report_path;  // --report FILE
  // --day-starts-at H: the hour the learner's day starts, saved in progress.db for every later
  // command; unset, the saved one (4 when none was saved).
  std::optional<int> day_starts_at;
};

// drill --cram: the drilled cards least likely recalled now, asked for practice the schedule
// never sees.
struct CramOptions {
  bank::Filters filters;
  int limit = 20;         // --limit N: cards in this session
  bool show_demo = true;  // --no-demo
};

struct Outcome {
  bool interrupted = false;
  bool unrated = false;  // drill: interrupted at "How was it?", so that answer was not saved
};

// Writes `report` (JSON) to path atomically; StateError when it cannot.
using ReportWriter = std::function<void(const std::string& path, const std::string& text)>;

Outcome run_quiz(Session& session, ProgressStore& store, const QuizOptions& options,
                 const ReportWriter& write);
Outcome run_exam(Session& session, ProgressStore& store, const ExamOptions& options,
                 const ReportWriter& write);
// Prints exam N's results again, as they were shown when it was submitted: its form drawn again
// from the saved seed and settings with the banks loaded now, checked against the questions it
// kept, and each answer read again from the line typed. InputError (exit 2) when N names no
// exam; StateError (exit 3) when the exam cannot be rebuilt, saying why: saved before exams kept
// their answers, or the banks loaded now draw or grade it differently.
void review_exam(Session& session, ProgressStore& store, const ExamReviewOptions& options);

Outcome run_drill(Session& session, ProgressStore& store, const DrillOptions& options,
                  const ReportWriter& write);

// Up to options.limit of the selected cards drill has seen (learning, review, relearning), the
// lowest retrievability now first (the FSRS-6 weights in use), whatever is due, buried or
// already asked today. Each answer is saved with mode "cram" and no rating; no card's schedule
// or memory is written, and --optimize and burying never count a cram answer as a drill review.
Outcome run_cram(Session& session, ProgressStore& store, const CramOptions& options);

// exam, exam --review and readiness draw exam forms with bank::draw_exam_form (bank/form.hpp).
using bank::draw_exam_form;
using bank::DrawnForm;

}  // namespace proofdeck::study
