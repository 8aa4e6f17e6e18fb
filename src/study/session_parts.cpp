// What quiz, exam and drill share (session_parts.hpp).
#include "study/session_parts.hpp"

#include <algorithm>
#include <ostream>

#include <fmt/format.h>

#include "bank/instance.hpp"
#include "study/confidence.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

// "[5/15] Residual connections · single" — in an exam "[5/15] single": a real exam does not name
// the topic a question is about, which is a cue to its answer.
std::string header_for(const Session& session, const bank::Question& q, std::size_t position,
                       std::size_t total, bool show_topic) {
  if (!show_topic) {
    return fmt::format("[{}/{}] {}", position, total, bank::question_type_name(q.type));
  }
  const bank::Topic* topic = session.topic(q.topic);
  return fmt::format("[{}/{}] {} · {}", position, total, topic != nullptr ? topic->name : q.topic,
                     bank::question_type_name(q.type));
}

AnswerRecord record_of(const Session& session, const Answered& a, const std::string& mode,
                       std::int64_t session_id) {
  AnswerRecord record;
  record.card = a.question->id;
  record.bank = a.question->bank;
  record.topic = a.question->topic;
  record.at = session.now();
  record.mode = mode;
  record.session = session_id;
  record.correct = a.grade.correct;
  record.answer = a.reply.text;
  record.trap = a.grade.trap;
  record.duration_ms = a.time_ms;
  record.confidence = a.confidence;
  return record;
}

bool ask_each(Session& s, ProgressStore& store, const std::vector<Instance>& form,
              const std::string& mode, std::int64_t session_id, bool show_demo,
              const std::string& skipped_note, std::vector<Answered>& answers) {
  bool interrupted = false;
  for (std::size_t i = 0; i < form.size(); ++i) {
    Answered a;
    a.instance = form[i];
    a.question = a.instance.question;
    s.fit_to_terminal();
    s.out << render_question(s, a.instance, header_for(s, *a.question, i + 1, form.size()));
    const auto asked = std::chrono::steady_clock::now();
    const AskResult result = ask(s, a.instance, a.reply, false);
    a.time_ms = elapsed_ms(asked);
    if (result == AskResult::answered) {
      a.answered = true;
      a.grade = grade(a.instance, a.reply);
      // How sure, before the feedback says whether it was right.
      const ConfidenceReply sure = s.asks_confidence ? take_confidence(s, a) : ConfidenceReply{};
      store.record(record_of(s, a, mode, session_id), std::nullopt);
      if (sure.end != ConfidenceReply::End::interrupted) s.out << render_feedback(s, a, show_demo);
      if (sure.end != ConfidenceReply::End::chosen) {
        interrupted = sure.end == ConfidenceReply::End::interrupted;
        answers.push_back(std::move(a));
        break;
      }
    } else if (result == AskResult::skipped) {
      store.record_skip(a.question->id, s.now(), mode, session_id);
      s.out << skipped_note;
    } else {
      interrupted = result == AskResult::interrupted;
      break;
    }
    answers.push_back(std::move(a));
  }
  int total = 0;
  const int correct = score(answers, total);
  store.end_session(session_id, s.now(), correct, total, std::nullopt, interrupted);
  return interrupted;
}

std::int64_t elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               since)
      .count();
}

int score(const std::vector<Answered>& answers, int& total) {
  int correct = 0;
  total = 0;
  for (const Answered& a : answers) {
    if (!a.answered) continue;
    ++total;
    correct += a.grade.correct;
  }
  return correct;
}

// The filters a session drew its questions with, as a report and the progress store keep them.
nlohmann::ordered_json filters_json(const bank::Filters& filters, nlohmann::ordered_json into) {
  into["topics"] = filters.topics;
  into["traps"] = filters.traps;
  into["banks"] = filters.banks;
  into["types"] = filters.types;
  into["questions"] = filters.questions;
  return into;
}

std::string settings_json(const bank::Filters& filters, std::uint64_t seed,
                          nlohmann::ordered_json extra) {
  extra["seed"] = seed;
  return filters_json(filters, std::move(extra)).dump();
}

// The form's question ids in the order they were drawn (asked or not): reports with the same
// seed and form are one form's answers.
nlohmann::ordered_json form_json(const std::vector<Instance>& form) {
  nlohmann::ordered_json ids = nlohmann::ordered_json::array();
  for (const Instance& instance : form)
    ids.push_back(instance.question->id);
  return ids;
}

// The seed line every session shows, so a form can be taken again.
std::string seed_line(const Session& s) {
  return wrap_styled(s.theme.dim, fmt::format("seed {} — --seed {} repeats this", s.seed, s.seed),
                     s.width, "  ", "    ");
}

// `mode` (quiz, drill) with the session's bank, topic and type filters and `extra`, as a
// copyable command run the learner's way.
std::string session_command(const Session& s, const std::string& mode, const bank::Filters& filters,
                            const std::string& extra) {
  std::string command = s.program + " " + mode;
  const auto add = [&](const char* flag, const std::vector<std::string>& values) {
    for (const std::string& value : values)
      command += fmt::format(" {} {}", flag, text::shell_word(value));
  };
  add("--from-bank", filters.banks);
  add("--topic", filters.topics);
  add("--type", filters.types);
  return command + " " + extra;
}

// On standard error, how many questions a form swapped or left out so that none gives away
// another's answer or asks what another asks. Which ones, or the numbers involved, would
// themselves give answers away.
void warn_left_out(const Session& s, const std::vector<bank::LeftOut>& left_out) {
  if (left_out.empty() || s.err == nullptr) return;
  const auto replaced = static_cast<std::size_t>(std::count_if(
      left_out.begin(), left_out.end(), [](const bank::LeftOut& l) { return l.replaced; }));
  const std::size_t n = left_out.size();
  *s.err << fmt::format(
      "note: {} would have given away another's answer or repeated another on this "
      "form{}\n",
      text::count(n, "question", "questions"),
      replaced == n
          ? fmt::format("; the next eligible question took {} place", n == 1 ? "its" : "each one's")
      : replaced == 0
          ? fmt::format(" and {} left out", n == 1 ? "is" : "are")
          : fmt::format("; {} replaced by the next eligible, {} left out", replaced, n - replaced));
}

// On standard error, each pair of questions named with --question where one states the other's
// answer: they are asked as named.
void warn_named_conflicts(const Session& s, const std::vector<Instance>& form) {
  if (s.err == nullptr) return;
  const bank::Enemies enemies = bank::form_enemies(s.banks);
  for (std::size_t i = 0; i < form.size(); ++i) {
    for (std::size_t j = i + 1; j < form.size(); ++j) {
      if (const auto conflict = bank::named_conflict(form[i], form[j], enemies)) {
        *s.err << fmt::format("warning: --question {} and {}: {}; both are asked as named\n",
                              form[i].question->id, form[j].question->id, *conflict);
      }
    }
  }
}

}  // namespace proofdeck::study
