// Asking how sure an answer is (--confidence): the one line after an answer is accepted, and
// what it reads. The marks it feeds are study/cbm.hpp's.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "study/cbm.hpp"
#include "study/input.hpp"
#include "study/session.hpp"

namespace proofdeck::study {

// How the question ended: a level chosen, or the learner stopped (`:q`: the level typed, else 1),
// was interrupted, the input ended or the exam's time ran out (each at level 1, Moodle's default,
// so that the answer is kept).
struct ConfidenceReply {
  enum class End { chosen, quit, interrupted, ended, timeout };
  int level = 1;
  End end = End::chosen;
};

// Asks "How sure? 1 guessing · 2 fairly sure · 3 sure (? explains the marks)" until 1, 2 or 3
// (or `:q`); `?` explains the marks, other input is asked again with a hint. `status` prefixes
// the prompt and `deadline` bounds it (an exam's).
ConfidenceReply ask_confidence(Session& session, LineReader::Deadline deadline = std::nullopt,
                               const std::string& status = "");

// After `a` is accepted, when the session asks: its level into a.confidence — asked, or 1 without
// asking when the answer came after opening the demo (it counts wrong). Returns how the asking
// ended (chosen when not asked).
ConfidenceReply take_confidence(Session& session, Answered& a,
                                LineReader::Deadline deadline = std::nullopt,
                                const std::string& status = "");

// What the `?` at the prompt prints: the marks and when each level pays.
std::string confidence_help(const Session& session);

// The session's answers as certainty-based marking counts them: each answered with a level, and
// — in an exam (`unanswered_count`) — each left unanswered, scoring 0.
std::vector<CbmAnswer> cbm_answers(const std::vector<Answered>& answers, bool unanswered_count);

// The summary's block: the average mark, accuracy + bonus (and the same for answered questions
// when some were not), each level used with its judgement, and the sentence that says it.
std::string render_cbm(const Session& session, const CbmSummary& summary);

// A report's "cbm": {"total", "average", "accuracy", "bonus", "accuracy_plus_bonus",
// "unanswered", "levels": [{"level", "answers", "right", "accuracy", "judgement"}],
// "for_answered": {"questions", "total", "average", "accuracy", "bonus", "accuracy_plus_bonus"}
// | null}; levels without answers have judgement null.
nlohmann::ordered_json cbm_json(const CbmSummary& summary);

// The level as the learner chose it: "1 guessing", "2 fairly sure", "3 sure".
std::string confidence_name(int level);

}  // namespace proofdeck::study
