// What quiz, exam and drill share beyond asking and grading (session.hpp): a question's header, the
// record an answer leaves, the score, what a report and the progress store keep of a session's
// filters and form, the seed line, the commands a session suggests, and the notes on what a form
// swapped or left out.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/form.hpp"
#include "bank/selection.hpp"
#include "study/progress.hpp"
#include "study/session.hpp"

namespace proofdeck::study {

// "[5/15] Residual connections · single" — in an exam "[5/15] single": a real exam does not name
// the topic a question is about, which is a cue to its answer.
std::string header_for(const Session& session, const bank::Question& q, std::size_t position,
                       std::size_t total, bool show_topic = true);

// The progress store's record of one answer of `mode` in session `session_id`.
AnswerRecord record_of(const Session& session, const Answered& a, const std::string& mode,
                       std::int64_t session_id);

// Asks each question of `form` in turn, as quiz and cram do: an answer is graded, saved as
// `mode` (no rating) and followed by its feedback; a skip is saved and `skipped_note` shown; each
// joins `answers`. Then the session ends with its score. Returns whether the learner interrupted.
bool ask_each(Session& session, ProgressStore& store, const std::vector<Instance>& form,
              const std::string& mode, std::int64_t session_id, bool show_demo,
              const std::string& skipped_note, std::vector<Answered>& answers);

// Milliseconds since `since` on the steady clock.
std::int64_t elapsed_ms(std::chrono::steady_clock::time_point since);

// Right answers among those answered; `total` gets how many were answered.
int score(const std::vector<Answered>& answers, int& total);

// The filters a session drew its questions with, as a report and the progress store keep them.
nlohmann::ordered_json filters_json(const bank::Filters& filters,
                                    nlohmann::ordered_json into = nlohmann::ordered_json::object());
// A session's settings as the progress store keeps them: `extra`, the seed and the filters.
std::string settings_json(const bank::Filters& filters, std::uint64_t seed,
                          nlohmann::ordered_json extra = nlohmann::ordered_json::object());
// The form's question ids in the order they were drawn (asked or not): reports with the same
// seed and form are one form's answers.
nlohmann::ordered_json form_json(const std::vector<Instance>& form);

// The seed line every session shows, so a form can be taken again.
std::string seed_line(const Session& s);

// `mode` (quiz, drill) with the session's bank, topic and type filters and `extra`, as a
// copyable command run the learner's way.
std::string session_command(const Session& s, const std::string& mode, const bank::Filters& filters,
                            const std::string& extra);

// On standard error, how many questions a form swapped or left out so that none gives away
// another's answer or asks what another asks (never which: that would give answers away).
void warn_left_out(const Session& s, const std::vector<bank::LeftOut>& left_out);
// On standard error, each pair of questions named with --question where one states the other's
// answer: they are asked as named.
void warn_named_conflicts(const Session& s, const std::vector<Instance>& form);

}  // namespace proofdeck::study
