// The three study modes a candidate uses every day:
//   quiz  — immediate feedback, the trap a wrong answer fell into, the live proof;
//   exam  — timed, no feedback until the end, flag and review, pass or fail;
//   drill — spaced repetition (FSRS-6): due cards first, then new ones; only drill changes the
//           schedule, but every mode's answers are logged (they feed stats).
// Each returns whether the learner interrupted it (Ctrl-C, SIGTERM), which exits 130 after the
// summary; answers given before are already saved.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bank/form.hpp"
#include "engine/rng.hpp"
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

// An exam's form: `count` questions of those the filters select, drawn across topics
// (bank::draw_spread: one per objective first) with `seed`, then untangled so that no question
// gives away another's answer or asks what another asks (questions named with --question are
// kept as named). `left_out`: what was swapped or dropped. exam, exam --review and stats'
// readiness draw with it.
struct ExamForm {
  std::vector<Instance> form;
  std::vector<bank::LeftOut> left_out;
};
// `enemies`: the banks' form enemies when the caller has them (drawing many forms), else
// computed here.
ExamForm draw_exam_form(const std::vector<bank::Bank>& banks, const bank::Filters& filters,
                        int count, std::uint64_t seed, const bank::Enemies* enemies = nullptr);

// What a drill session asks, in order: the due cards (soonest due first), then up to the day's
// new cards, dealt round the topics in the study order; then, when nothing else is left, cards
// in their learning steps due within the learn-ahead limit. A card with a schedule is asked when
// due, whatever its siblings did. With `bury`, new cards wait instead: none is introduced on a
// day when a card of its objective is due, in its steps or was reviewed today, and at most one
// a day per objective. drill plans with it, and so can a simulation.
struct DrillPlan {
  std::vector<const bank::Question*> due;
  std::vector<const bank::Question*> fresh;
  // In their (re)learning steps but not due yet, soonest first: asked ahead of time within
  // kLearnAhead when nothing else is due, as within a session.
  std::vector<const bank::Question*> learning;
  std::size_t held_back = 0;  // new cards waiting: a card of their objective was reviewed today
  int new_today = 0;          // new cards already introduced today
};
DrillPlan plan_drill(const std::vector<bank::Bank>& banks,
                     const std::vector<const bank::Question*>& selected,
                     const std::map<std::string, Card>& cards,
                     const std::vector<ReviewRow>& reviews, const LearnerDays& days, TimePoint now,
                     int new_per_day, bool bury);

// When a scheduled card is next due, as drill words it: a card in review by learner days
// ("today", "tomorrow (from 04:00)", "in 8 days (2026-12-09)"), one in its steps by the clock
// ("now" once due, "in under a minute", "in 10 minutes", "in 3 hours"), so a card not yet due is
// never said to be due now.
std::string due_when(const LearnerDays& days, const Card& card, TimePoint now);

// How far ahead a card in its learning steps is asked when nothing else is due, as Anki's
// learn-ahead limit.
inline constexpr std::chrono::minutes kLearnAhead{20};

// An FSRS card counts as a leech after this many lapses.
inline constexpr int kLeechLapses = 8;

}  // namespace proofdeck::study
