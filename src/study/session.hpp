// What quiz, exam and drill share: choosing questions with the filters, asking one question
// (re-asking unclear input with a hint, the commands), feedback with the trap, the explanation and
// the live proof, and the end-of-session summary and JSON report.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/form.hpp"
#include "bank/model.hpp"
#include "bank/proof.hpp"
#include "bank/selection.hpp"
#include "render/theme.hpp"
#include "study/answer.hpp"
#include "study/fsrs.hpp"
#include "study/input.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

// The environment of one session.
struct Session {
  const std::vector<bank::Bank>& banks;
  std::ostream& out;
  LineReader& reader;
  Theme theme;
  int width = text::kDefaultWidth;
  bool echo_input = false;  // input is not a terminal: echo each line so the transcript reads
  std::uint64_t seed = 0;
  TimePoint start;  // --now, or the system clock
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  bank::DemoRunner runner = bank::proof_runner(bank::kProofSeed);
  std::vector<Reminder>* reminders = nullptr;  // an exam's time warnings, shown while prompts wait
  std::ostream* err = nullptr;                 // notes and warnings (standard error); none if null
  // The clock an exam reads the time left from, each time it shows it; unset, the steady clock
  // (tests set one that jumps ahead).
  std::function<std::chrono::steady_clock::time_point()> clock = nullptr;
  // How the learner runs proofdeck: every command a session suggests begins with it
  // (PROOFDECK_COMMAND, which ./scripts/run sets; else the installed name).
  std::string program = "proofdeck";
  // The terminal's width now, when the width is the terminal's (not --width, not a pipe): read
  // again before each question, so a resized terminal is used from the next one on.
  std::function<int()> measure_width = nullptr;
  // --confidence: after each answer, ask how sure it is (study/confidence.hpp).
  bool asks_confidence = false;

  // The session's clock: the start plus the time that has really passed since.
  TimePoint now() const;
  // Takes the terminal's width again (measure_width), before a question or a summary.
  void fit_to_terminal();
  const bank::Trap* trap(const std::string& id) const;
  const bank::Topic* topic(const std::string& id) const;
  std::chrono::steady_clock::time_point steady_now() const;
};

// One answered (or skipped) question, for summaries, reports and stats.
struct Answered {
  const bank::Question* question = nullptr;
  Instance instance;
  bool answered = false;  // false: skipped (or unanswered when an exam ended)
  Reply reply;
  Grade grade;
  std::int64_t time_ms = 0;
  std::optional<int> confidence = std::nullopt;  // 1–3 when asked (--confidence)
  // drill: whether a rating was saved; false when the drill was interrupted (or its input ended)
  // at "How was it?" after a right answer: the card's schedule is unchanged.
  bool rated = true;
};

// The question as shown: "[3/10] topic · type", the prompt and lettered options or steps.
std::string render_question(const Session& session, const Instance& instance,
                            const std::string& header, bool answer_hint = true);

// The help a `?` prints, for this question's type.
std::string render_help(const Instance& instance, bool exam);

// A wrong selection in words. A single-answer question: "You chose a; the answer is d." A
// select-all one: "You chose b, which is not right, and missed a and d." Empty for a selection
// without either mistake and for other question types.
std::string selection_verdict(const Grade& grade, bank::QuestionType type);

// After an answer: right or wrong, the right answer, the trap the wrong answer embodies (name and
// correction), the explanation with its source, the worked formula of a template, and — unless
// show_demo is false — the proof: the question's demo run now, drawn compactly.
std::string render_feedback(Session& session, const Answered& answered, bool show_demo);

// The question's demo, drawn compactly (the `d` command), or a line saying it has none.
std::string render_proof(Session& session, const Instance& instance);

// How one ask ended; `command`: an exam command (flag, back, next, goto, review, submit), which
// the reply's kind names.
enum class AskResult { answered, skipped, quit, ended, interrupted, timeout, command };

// Reads lines (after the question was shown) until an answer, a command the caller handles, the
// end of input, an interruption or the deadline. Help and the demo are handled here (opening the
// demo before answering marks the reply `revealed`); unclear input is asked again with its hint.
// `status` prefixes the prompt (an exam's progress).
AskResult ask(Session& session, const Instance& instance, Reply& reply, bool exam,
              LineReader::Deadline deadline = std::nullopt, const std::string& status = "");

// The end-of-session summary: score, per topic, the traps fallen into with counts, time taken.
// In an exam (`unanswered_wrong`) a question left unanswered counts against the score.
// `elapsed`: the time the session took, when already measured (else measured now).
std::string render_summary(const Session& session, const std::vector<Answered>& answers,
                           const std::string& title, bool unanswered_wrong = false,
                           std::optional<std::chrono::milliseconds> elapsed = std::nullopt);

// The summary's score line: "  Score: 3 of 4 right (75%), 1 unanswered · 2 min 5 s".
std::string render_score(const Session& session, const std::vector<Answered>& answers,
                         bool unanswered_wrong, std::chrono::milliseconds elapsed);

// The report --report writes: {"mode", "seed", "started", "duration_s", "score": {"correct",
// "total"}, "skipped", "questions": [{"id", "bank", "topic", "answer", "correct", "trap",
// "time_ms", "skipped", "confidence" (when asked)}], "topics", "traps"}; with confidence the
// modes add "cbm" (study/confidence.hpp).
nlohmann::ordered_json session_report(const Session& session, const std::string& mode,
                                      const std::vector<Answered>& answers);

// "3 min 12 s", "48 s".
std::string format_duration(std::chrono::milliseconds duration);

}  // namespace proofdeck::study
