// exam: timed, no feedback until the end, flag and review, pass or fail; and exam --review
// (modes.hpp).
#include "study/modes.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <ostream>
#include <set>

#include <fmt/color.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/form.hpp"
#include "bank/instance.hpp"
#include "core/errors.hpp"
#include "study/confidence.hpp"
#include "study/readiness.hpp"
#include "study/session_parts.hpp"
#include "study/stats.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

namespace {

// "24:13 left". Read from the clock each time it is shown, never kept: a prompt shown again
// after a warning must not say an older time than the warning did.
std::string clock_text(std::chrono::steady_clock::duration left) {
  // Rounded up, as a countdown is: 30:00 at the start, 0:01 in the last second.
  const auto seconds =
      std::max<long long>(0, std::chrono::ceil<std::chrono::seconds>(left).count());
  return fmt::format("{}:{:02} left", seconds / 60, seconds % 60);
}

// One exam in progress: where the learner is, what is answered and flagged.
struct ExamState {
  std::vector<Answered> answers;
  std::vector<bool> flagged;
  std::size_t current = 0;  // == answers.size(): the end-of-exam review screen

  std::size_t answered() const {
    return static_cast<std::size_t>(std::count_if(answers.begin(), answers.end(),
                                                  [](const Answered& a) { return a.answered; }));
  }
  std::size_t flags() const {
    return static_cast<std::size_t>(std::count(flagged.begin(), flagged.end(), true));
  }
};

// The review screen: every question's number, state and the start of its prompt (not its topic,
// which the exam never shows: a cue to the answer).
std::string render_review(const Session& s, const ExamState& exam, const std::string& time_left) {
  std::string out = "\n" + fmt::format(s.theme.emphasis, "Review") + "\n";
  for (std::size_t i = 0; i < exam.answers.size(); ++i) {
    const Answered& a = exam.answers[i];
    std::string state =
        a.answered ? "answered " + text::terminal_safe(answer_for_people(a.instance, a.reply))
                   : std::string("unanswered");
    if (exam.flagged[i]) state += " · flagged";
    const std::string head = fmt::format("{:>3}. {} — ", i + 1, state);
    // wrap_block fits every line within the width less the hanging indent (8): one line each.
    const int room = std::max(12, s.width - 8 - text::display_width(head));
    const std::string prompt = text::truncate(
        text::terminal_safe(a.instance.prompt, text::Newlines::as_spaces), room, "…");
    // Styled after wrapping, so the escape codes never count as width.
    std::string line = text::wrap_block(head + prompt, s.width, "  ", "        ");
    for (const std::string word : {"unanswered", "flagged"}) {
      if (const std::size_t at = line.find(word); at != std::string::npos)
        line.replace(at, word.size(), fmt::format(s.theme.warning, "{}", word));
    }
    out += line;
  }
  out += text::wrap_block(
      fmt::format("{} of {} answered, {} flagged, {}. goto N opens a question; submit ends the "
                  "exam.",
                  exam.answered(), exam.answers.size(), exam.flags(), time_left),
      s.width, "  ");
  return out;
}

// What sessions.result keeps of an exam: its per-topic result and minutes (for stats), and
// what `exam --review` needs to rebuild its results — the count asked for, the time taken, and
// the form: each question's id and parameters (checked against the seed's draw) with the line
// typed as its last answer.
std::string exam_result_json(const ExamState& exam, double minutes_taken,
                             std::chrono::milliseconds elapsed, bool timed_out,
                             const ExamOptions& o) {
  nlohmann::ordered_json topics = nlohmann::ordered_json::object();
  nlohmann::ordered_json form = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < exam.answers.size(); ++i) {
    const Answered& a = exam.answers[i];
    nlohmann::ordered_json& topic = topics[a.question->topic];
    if (topic.is_null()) topic = {{"correct", 0}, {"total", 0}};
    topic["total"] = topic["total"].get<int>() + 1;
    topic["correct"] = topic["correct"].get<int>() + (a.answered && a.grade.correct ? 1 : 0);
    nlohmann::ordered_json entry = {{"id", a.question->id}, {"bank", a.question->bank}};
    if (!a.instance.bindings.empty()) entry["params"] = a.instance.bindings;
    entry["answer"] = a.answered ? nlohmann::ordered_json(a.reply.typed) : nullptr;
    if (a.answered && a.confidence) entry["confidence"] = *a.confidence;
    entry["flagged"] = static_cast<bool>(exam.flagged[i]);
    form.push_back(std::move(entry));
  }
  return nlohmann::ordered_json{{"minutes", minutes_taken}, {"allowed_minutes", o.minutes},
                                {"pass", o.pass},           {"topics", topics},
                                {"count", o.count},         {"duration_ms", elapsed.count()},
                                {"timed_out", timed_out},   {"form", std::move(form)}}
      .dump();
}

// An exam's results, from its title to the seed line: the summary and the verdict, every
// question missed with the right answer, its trap, why and the proof — and, after that long
// review, the score and the verdict again, so the last lines say how it went. The exam prints
// them when it ends; `exam --review N` rebuilds them, identical, from what was kept.
std::string render_results(Session& s, const std::vector<Answered>& answers, double pass,
                           const std::string& title, std::chrono::milliseconds elapsed,
                           bool show_demo) {
  const std::size_t n = answers.size();
  int answered_total = 0;
  const int correct = score(answers, answered_total);
  const double percent = n == 0 ? 0.0 : 100.0 * correct / static_cast<double>(n);
  const bool passed = percent + 1e-9 >= pass;
  // The verdict is styled after wrapping: "PASS"/"FAIL" is a word of its own.
  std::string verdict = text::wrap_block(
      fmt::format("Result: {} of {} = {} → {} (pass mark {}%)", correct, n,
                  n == 0 ? text::percent(0) : text::percent_of(correct, static_cast<double>(n)),
                  passed ? "PASS" : "FAIL", text::format_number(pass)),
      s.width, "  ", "    ");
  const std::size_t word = verdict.find(passed ? "PASS" : "FAIL");
  verdict.replace(word, 4,
                  passed ? fmt::format(s.theme.good, "PASS") : fmt::format(s.theme.bad, "FAIL"));
  std::string out = render_summary(s, answers, title, true, elapsed) + verdict;
  // Taken with confidence: the certainty-based marks, unanswered questions scoring 0.
  if (std::any_of(answers.begin(), answers.end(), [](const Answered& a) { return a.confidence; }))
    out += render_cbm(s, summarize_cbm(cbm_answers(answers, true)));
  const auto note = [&](const std::string& message) {
    out += text::wrap_block(message, s.width, "  ", "    ");
  };
  bool reviewed = false;
  for (std::size_t i = 0; i < n; ++i) {
    const Answered& a = answers[i];
    if (a.answered && a.grade.correct) continue;
    if (!reviewed) {
      out += "\n" + fmt::format(s.theme.emphasis, "Questions to review") + "\n" +
             text::wrap_block(
                 "Each with the right answer, the trap behind a wrong one, why, and the demo "
                 "that proves it.",
                 s.width, "  ");
    }
    reviewed = true;
    const bank::Topic* topic = s.topic(a.question->topic);
    out += render_question(s, a.instance,
                           fmt::format("Question {} · {} · {}", i + 1,
                                       topic != nullptr ? topic->name : a.question->topic,
                                       bank::question_type_name(a.question->type)),
                           false);
    Answered shown_answer = a;
    if (a.answered) {
      note("Your answer: " + text::terminal_safe(answer_for_people(a.instance, a.reply)));
    } else {
      shown_answer.grade = grade(a.instance, Reply{});
      shown_answer.grade.correct = false;
      shown_answer.grade.trap.clear();
    }
    out += render_feedback(s, shown_answer, show_demo);
  }
  if (reviewed) out += "\n" + render_score(s, answers, true, elapsed) + verdict;
  return out + seed_line(s);
}

// An exam's form for the session's seed (draw_exam_form); `warn`: say on standard error what was
// swapped, and when the selection holds fewer objectives than --count (a review rebuilding the
// form keeps quiet: it was said when the exam was taken).
std::vector<Instance> exam_form(const Session& s, const ExamOptions& options, bool warn) {
  DrawnForm drawn = draw_exam_form(s.banks, options.filters, options.count, s.seed);
  if (warn) {
    if (options.filters.questions.empty()) {
      warn_left_out(s, drawn.left_out);
      if (options.filters.traps.empty() && drawn.facts < static_cast<std::size_t>(options.count) &&
          s.err != nullptr)
        *s.err << bank::short_form_note(drawn.form.size(), drawn.facts) << "\n";
    } else {
      warn_named_conflicts(s, drawn.form);
    }
  }
  return std::move(drawn.form);
}

// Why `exam --review` cannot rebuild exam `number`: StateError (exit 3), the saved exam is fine
// but what it needs is missing or has changed.
[[noreturn]] void cannot_rebuild(std::size_t number, const std::string& why) {
  throw StateError("exam.review.unavailable",
                   fmt::format("exam {} cannot be rebuilt: {}", number, why));
}

// An exam being taken: where the learner is (a question, or the review screen after the last),
// and the commands that move them — flag, next, back, goto N, time, review, submit — until they
// submit, the time runs out, the input ends or they are interrupted. The prompt holds no clock:
// it is printed again, unchanged, under each warning and after every line, so a time in it would
// go stale; the time left is shown where it is computed — with each question, the review screen,
// the warnings and the `time` command.
struct ExamNavigator {
  Session& s;
  ExamState& exam;
  std::chrono::steady_clock::time_point deadline;
  Outcome outcome;
  bool timed_out = false;
  bool shown = false;  // the current question (or review screen) is on screen
  bool submitted = false;

  ExamNavigator(Session& session, ExamState& state, std::chrono::steady_clock::time_point until)
      : s(session), exam(state), deadline(until) {}

  std::size_t size() const { return exam.answers.size(); }
  bool at_end() const { return exam.current >= size(); }
  std::string status() const {
    return fmt::format("[{}/{} answered{}]", exam.answered(), size(),
                       exam.flags() > 0 ? fmt::format(" · {} flagged", exam.flags()) : "");
  }
  std::string time_left() const { return clock_text(deadline - s.steady_now()); }
  void note(const std::string& message) {
    s.out << text::wrap_block(message, s.width, "  ", "    ");
  }
  // Moves to question `to` (0-based), or the review screen at the end; shows it next.
  void go(std::size_t to) {
    exam.current = std::min(to, size());
    shown = false;
  }

  void show() {
    if (shown) return;
    shown = true;
    if (at_end()) {
      s.out << render_review(s, exam, time_left());
      return;
    }
    const Answered& a = exam.answers[exam.current];
    std::string header = header_for(s, *a.question, exam.current + 1, size(), false);
    if (exam.flagged[exam.current]) header += " · flagged";
    header += " · " + time_left();
    s.fit_to_terminal();
    s.out << render_question(s, a.instance, header);
    if (a.answered)
      note(fmt::format("Your answer: {} (type another to change it, next to keep it)",
                       text::terminal_safe(answer_for_people(a.instance, a.reply))));
  }

  // Until submitted, the time is up, the input ends or an interruption.
  void take() {
    while (!submitted && !outcome.interrupted && !timed_out) {
      show();
      Reply reply;
      AskResult result;
      const auto asked = std::chrono::steady_clock::now();
      if (at_end()) {
        // The review screen takes commands only: answer a question by opening it.
        result = ask(s, exam.answers.front().instance, reply, true, deadline, status());
        if (result == AskResult::answered) {
          note("Open a question first (goto N), then answer it.");
          continue;
        }
      } else {
        Answered& a = exam.answers[exam.current];
        result = ask(s, a.instance, reply, true, deadline, status());
        a.time_ms += elapsed_ms(asked);
        if (result == AskResult::answered) {
          a.answered = true;
          a.reply = reply;
          a.grade = grade(a.instance, reply);
          // How sure, asked again each time the answer changes.
          if (s.asks_confidence) {
            const ConfidenceReply sure = take_confidence(s, a, deadline, status());
            if (sure.end == ConfidenceReply::End::interrupted) outcome.interrupted = true;
            if (sure.end == ConfidenceReply::End::timeout) timed_out = true;
            if (sure.end == ConfidenceReply::End::ended || sure.end == ConfidenceReply::End::quit)
              return;  // as at the question: submit what is answered
          }
          go(exam.current + 1);
          continue;
        }
      }
      if (result == AskResult::interrupted) {
        outcome.interrupted = true;
      } else if (result == AskResult::timeout) {
        timed_out = true;
      } else if (result != AskResult::command) {
        return;  // end of input: submit what is answered
      } else {
        command(reply);
      }
    }
  }

  void command(const Reply& reply) {
    switch (reply.kind) {
      case Reply::Kind::flag:
        if (at_end()) {
          note("flag marks the question on screen: goto N first.");
          break;
        }
        exam.flagged[exam.current] = !exam.flagged[exam.current];
        note(exam.flagged[exam.current]
                 ? fmt::format("Question {} flagged for review.", exam.current + 1)
                 : fmt::format("Flag on question {} removed.", exam.current + 1));
        break;
      case Reply::Kind::next:
        go(exam.current + 1);
        break;
      case Reply::Kind::back:
        if (exam.current == 0) {
          note("This is the first question.");
        } else {
          go(exam.current - 1);
        }
        break;
      case Reply::Kind::go:
        if (reply.target < 1 || reply.target > size()) {
          note(fmt::format("No question {}: the questions are 1 to {}.", reply.target, size()));
        } else {
          go(reply.target - 1);
        }
        break;
      case Reply::Kind::time:
        note(time_left() + "; at 0:00 what is answered is submitted.");
        break;
      case Reply::Kind::review:
        s.out << render_review(s, exam, time_left());
        if (!at_end()) note(fmt::format("Still on question {}.", exam.current + 1));
        break;
      case Reply::Kind::submit:
        confirm_submit();
        break;
      default:
        break;
    }
  }

  // `submit` asks first, counting the unanswered and the flagged.
  void confirm_submit() {
    const std::size_t n = size();
    const std::size_t open = n - exam.answered();
    std::string question = open == 0 ? "Every question is answered."
                                     : fmt::format(
                                           "{} of {} {} unanswered "
                                           "(they count as wrong).",
                                           open, n, open == 1 ? "is" : "are");
    if (exam.flags() > 0)
      question += fmt::format(" {} {} flagged.", exam.flags(), exam.flags() == 1 ? "is" : "are");
    note(question + " Submit now? Type yes to submit; anything else goes back.");
    std::string line;
    const LineReader::Status read =
        s.reader.read(line, status() + " submit? ", deadline, s.reminders);
    if (read == LineReader::Status::line && s.echo_input)
      s.out << text::terminal_safe(line) << "\n";
    if (read == LineReader::Status::interrupted) {
      outcome.interrupted = true;
      submitted = true;
    } else if (read == LineReader::Status::timeout) {
      timed_out = true;
      submitted = true;
    } else if (read == LineReader::Status::end) {
      submitted = true;
    } else {
      const std::string word = folded_word(line);
      submitted = word == "yes" || word == "y";
      if (!submitted) note("Not submitted: the exam goes on.");
    }
  }
};

}  // namespace

Outcome run_exam(Session& s, ProgressStore& store, const ExamOptions& options,
                 const ReportWriter& write) {
  const std::vector<Instance> form = exam_form(s, options, true);
  ExamState exam;
  exam.answers.resize(form.size());
  exam.flagged.assign(form.size(), false);
  for (std::size_t i = 0; i < form.size(); ++i) {
    exam.answers[i].question = form[i].question;
    exam.answers[i].instance = form[i];
  }
  const std::size_t n = form.size();
  const auto deadline =
      s.started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double, std::ratio<60>>(options.minutes));
  // Warnings at 5 and 1 minutes left, printed when they fall due, even while a prompt waits.
  std::vector<Reminder> reminders;
  for (const int left : {5, 1}) {
    const auto at = deadline - std::chrono::minutes(left);
    if (at > std::chrono::steady_clock::now()) {
      std::string warning = wrap_labelled(
          fmt::format("{} left:", text::count(left, "minute", "minutes")), s.theme.warning,
          "at 0:00 what is answered is submitted; unanswered questions count as wrong.", s.width);
      if (!warning.empty() && warning.back() == '\n') warning.pop_back();
      reminders.push_back({at, std::move(warning)});
    }
  }
  s.reminders = &reminders;
  // What readiness predicted for this exam as it starts, so stats can set the score beside it.
  ReadinessOptions predicted_for;
  predicted_for.pass = options.pass;
  predicted_for.questions = static_cast<int>(n);
  predicted_for.filters = options.filters;
  predicted_for.weights = store.fsrs_weights();
  const Readiness predicted = estimate_readiness(s.banks, store.reviews(), s.now(), predicted_for);
  const std::int64_t id =
      store.begin_session("exam", s.now(),
                          settings_json(options.filters, s.seed,
                                        {{"count", n},
                                         {"minutes", options.minutes},
                                         {"pass", options.pass},
                                         {"predicted",
                                          {{"readiness", predicted.overall},
                                           {"low", predicted.low},
                                           {"high", predicted.high},
                                           {"pass_chance", predicted.pass_chance}}}}));
  s.out << wrap_labelled("proofdeck exam", s.theme.emphasis,
                         fmt::format("· {} · {} · pass at {}%",
                                     text::count(static_cast<double>(n), "question", "questions"),
                                     text::count(options.minutes, "minute", "minutes"),
                                     text::format_number(options.pass)),
                         s.width)
        << seed_line(s)
        << text::wrap_block(
               "No feedback until the end. Answer, or type a command: flag, next, back, goto N, "
               "review, time, submit (? lists them). Every question stays open until you submit.",
               s.width, "  ");
  ExamNavigator navigator(s, exam, deadline);
  navigator.take();
  const Outcome outcome = navigator.outcome;
  const bool timed_out = navigator.timed_out;
  s.reminders = nullptr;
  if (timed_out)
    s.out << "\n"
          << wrap_labelled("Time is up:", s.theme.warning, "submitting what was answered.",
                           s.width);
  for (Answered& a : exam.answers) {
    if (a.answered) store.record(record_of(s, a, "exam", id), std::nullopt);
  }
  int answered_total = 0;
  const int correct = score(exam.answers, answered_total);
  const double percent = n == 0 ? 0.0 : 100.0 * correct / static_cast<double>(n);
  const bool passed = percent + 1e-9 >= options.pass;
  // Measured once: the summary shows it and the review rebuilt later shows it again.
  const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - s.started);
  const double minutes_taken = std::chrono::duration<double, std::ratio<60>>(elapsed).count();
  store.end_session(id, s.now(), correct, static_cast<int>(n), passed, outcome.interrupted,
                    exam_result_json(exam, minutes_taken, elapsed, timed_out, options));
  s.fit_to_terminal();
  s.out << render_results(s, exam.answers, options.pass,
                          outcome.interrupted ? "Exam interrupted" : "Exam submitted", elapsed,
                          options.show_demo);
  if (!outcome.interrupted) {
    // Numbered as stats lists the exams, this one the latest.
    const std::size_t number = listed_exams(store.sessions()).size();
    s.out << text::wrap_block("These results again, any time:", s.width, "  ")
          << text::command_block(fmt::format("{} exam --review {}", s.program, number), s.width,
                                 "    ");
  }
  if (!options.report_path.empty()) {
    nlohmann::ordered_json report = session_report(s, "exam", exam.answers);
    if (s.asks_confidence) report["cbm"] = cbm_json(summarize_cbm(cbm_answers(exam.answers, true)));
    report["score"]["total"] = n;
    report["pass_percent"] = options.pass;
    report["percent"] = percent;
    report["passed"] = passed;
    report["timed_out"] = timed_out;
    report["minutes"] = minutes_taken;
    report["form"] = form_json(form);
    report["exam"] = {{"count", options.count},
                      {"minutes", options.minutes},
                      {"pass_percent", options.pass},
                      {"filters", filters_json(options.filters)}};
    write(options.report_path, report.dump(2) + "\n");
  }
  return outcome;
}

void review_exam(Session& s, ProgressStore& store, const ExamReviewOptions& options) {
  const std::vector<SessionRecord> exams = listed_exams(store.sessions());
  if (exams.empty()) {
    throw InputError("exam.review.none",
                     fmt::format("--review: no exams yet — take one with {} exam (stats "
                                 "lists the exams taken)",
                                 s.program));
  }
  if (options.number && (*options.number < 1 || *options.number > exams.size())) {
    throw InputError(
        "exam.review.range",
        fmt::format("--review {}: there is no exam {}; {} stats lists {}", *options.number,
                    *options.number, s.program,
                    exams.size() == 1
                        ? std::string("one exam, number 1")
                        : fmt::format("{} exams, numbered 1 (the oldest) to {} (the latest)",
                                      exams.size(), exams.size())));
  }
  const std::size_t number = options.number.value_or(exams.size());
  const SessionRecord& record = exams[number - 1];
  const nlohmann::json settings = nlohmann::json::parse(record.settings, nullptr, false);
  const nlohmann::json result = nlohmann::json::parse(record.result, nullptr, false);
  if (!result.is_object() || !result.contains("form") || !settings.is_object()) {
    cannot_rebuild(number,
                   fmt::format("it was taken on {} with an older proofdeck, which kept its score "
                               "and per-topic results but not its questions and answers as typed "
                               "(exams taken since keep them)",
                               format_time(record.started)));
  }
  ExamOptions exam_options;
  try {
    s.seed = settings.at("seed").get<std::uint64_t>();
    exam_options.count = result.at("count").get<int>();
    exam_options.pass = result.at("pass").get<double>();
    exam_options.minutes = result.at("allowed_minutes").get<double>();
    for (const auto& [key, list] : {std::pair{"topics", &exam_options.filters.topics},
                                    std::pair{"traps", &exam_options.filters.traps},
                                    std::pair{"banks", &exam_options.filters.banks},
                                    std::pair{"types", &exam_options.filters.types},
                                    std::pair{"questions", &exam_options.filters.questions}})
      *list = settings.at(key).get<std::vector<std::string>>();
  } catch (const nlohmann::json::exception& e) {
    cannot_rebuild(number, fmt::format("its saved settings are incomplete ({})", e.what()));
  }
  const nlohmann::json& saved = result.at("form");
  std::vector<Instance> form;
  try {
    form = exam_form(s, exam_options, false);
  } catch (const InputError& e) {
    cannot_rebuild(number, fmt::format("the banks loaded now cannot draw its form ({}); load the "
                                       "banks it was taken with (--bank)",
                                       e.what()));
  }
  if (!saved.is_array() || saved.size() != form.size()) {
    cannot_rebuild(number, fmt::format("it had {} questions, and its seed now draws {} from the "
                                       "banks loaded; load the banks it was taken with (--bank)",
                                       saved.is_array() ? saved.size() : 0, form.size()));
  }
  std::vector<Answered> answers(form.size());
  for (std::size_t i = 0; i < form.size(); ++i) {
    const nlohmann::json& kept = saved[i];
    const std::string id = kept.value("id", std::string());
    const nlohmann::json params = kept.value("params", nlohmann::json::object());
    if (id != form[i].question->id || params != nlohmann::json(form[i].bindings)) {
      cannot_rebuild(number, fmt::format("its question {} was {}, and its seed now draws {} from "
                                         "the banks loaded (a bank changed, or other banks are "
                                         "loaded); load the banks it was taken with (--bank)",
                                         i + 1, id, form[i].question->id));
    }
    Answered& a = answers[i];
    a.question = form[i].question;
    a.instance = form[i];
    if (const auto typed = kept.find("answer"); typed != kept.end() && typed->is_string()) {
      a.reply = parse_reply(a.instance, typed->get<std::string>(), true);
      if (a.reply.kind != Reply::Kind::answer) {
        cannot_rebuild(number, fmt::format("the answer kept for its question {} (\"{}\") no "
                                           "longer reads as an answer to it",
                                           i + 1, text::terminal_safe(typed->get<std::string>())));
      }
      a.answered = true;
      a.grade = grade(a.instance, a.reply);
      if (const auto sure = kept.find("confidence"); sure != kept.end() &&
                                                     sure->is_number_integer() &&
                                                     sure->get<int>() >= 1 && sure->get<int>() <= 3)
        a.confidence = sure->get<int>();
    }
  }
  int answered_total = 0;
  if (const int correct = score(answers, answered_total); correct != record.correct) {
    cannot_rebuild(number, fmt::format("its answers now grade {} right where {} were when it was "
                                       "taken: a key changed in the banks since",
                                       correct, record.correct));
  }
  const std::string taken = format_time(record.started);
  s.out << wrap_labelled(
      fmt::format("proofdeck exam --review {}", number), s.theme.emphasis,
      fmt::format("· exam {} of {}, taken {} · {} · {} · pass at {}%{}", number, exams.size(),
                  taken, text::count(static_cast<double>(form.size()), "question", "questions"),
                  text::count(exam_options.minutes, "minute", "minutes"),
                  text::format_number(exam_options.pass),
                  result.value("timed_out", false) ? " · its time ran out" : ""),
      s.width);
  s.out << render_results(s, answers, exam_options.pass, "Exam submitted",
                          std::chrono::milliseconds(result.value("duration_ms", std::int64_t{0})),
                          options.show_demo);
}

}  // namespace proofdeck::study
