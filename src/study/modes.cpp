// quiz, exam and drill.
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
#include "bank/prerequisites.hpp"
#include "core/errors.hpp"
#include "study/learner_day.hpp"
#include "study/readiness.hpp"
#include "study/stats.hpp"
#include "text/escape.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

namespace {

// "[5/15] Residual connections · single" — in an exam "[5/15] single": a real exam does not name
// the topic a question is about, which is a cue to its answer.
std::string header_for(const Session& session, const bank::Question& q, std::size_t position,
                       std::size_t total, bool show_topic = true) {
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
  return record;
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
nlohmann::ordered_json filters_json(
    const bank::Filters& filters, nlohmann::ordered_json into = nlohmann::ordered_json::object()) {
  into["topics"] = filters.topics;
  into["traps"] = filters.traps;
  into["banks"] = filters.banks;
  into["types"] = filters.types;
  into["questions"] = filters.questions;
  return into;
}

std::string settings_json(const bank::Filters& filters, std::uint64_t seed,
                          nlohmann::ordered_json extra = nlohmann::ordered_json::object()) {
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

}  // namespace

// --- quiz ---------------------------------------------------------------------------------------

namespace {

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

// --missed: the questions whose latest answer (any mode) was wrong.
std::set<std::string> missed_questions(ProgressStore& store) {
  std::map<std::string, bool> latest;
  for (const ReviewRow& r : store.reviews())
    latest[r.card] = r.correct;
  std::set<std::string> missed;
  for (const auto& [card, correct] : latest) {
    if (!correct) missed.insert(card);
  }
  return missed;
}

// --weakest N: the N traps fallen into most (ties by id), with their counts.
std::vector<std::pair<std::string, int>> weakest_traps(ProgressStore& store, int n) {
  std::map<std::string, int> counts;
  for (const ReviewRow& r : store.reviews()) {
    if (!r.correct && !r.trap.empty()) ++counts[r.trap];
  }
  std::vector<std::pair<std::string, int>> ranked(counts.begin(), counts.end());
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (ranked.size() > static_cast<std::size_t>(n)) ranked.resize(static_cast<std::size_t>(n));
  return ranked;
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
      "note: {} question{} would have given away another's answer or repeated another on this "
      "form{}\n",
      n, n == 1 ? "" : "s",
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

}  // namespace

Outcome run_quiz(Session& s, ProgressStore& store, const QuizOptions& options,
                 const ReportWriter& write) {
  std::vector<const bank::Question*> selected = bank::select_questions(s.banks, options.filters);
  std::string focus;  // what --missed or --weakest chose, for the header
  if (options.missed) {
    const std::set<std::string> missed = missed_questions(store);
    std::erase_if(selected, [&](const bank::Question* q) { return !missed.contains(q->id); });
    if (selected.empty()) {
      s.out << text::wrap_block(
          missed.empty()
              ? "Nothing to review: no question's latest answer is wrong. Take a quiz or an exam "
                "first, or use --weakest N for the traps you fall into most."
              : "Nothing to review among the questions these filters select: your latest answer "
                "to each of them is right.",
          s.width, "  ", "    ");
      return {};
    }
    focus = " you got wrong last time";
  }
  if (options.weakest) {
    const auto traps = weakest_traps(store, *options.weakest);
    std::erase_if(selected, [&](const bank::Question* q) {
      const std::vector<std::string> tested = bank::question_traps(*q);
      return std::none_of(traps.begin(), traps.end(), [&](const auto& t) {
        return std::find(tested.begin(), tested.end(), t.first) != tested.end();
      });
    });
    if (traps.empty() || selected.empty()) {
      s.out << text::wrap_block(
          traps.empty() ? "No traps to review: none of your answers so far fell into one. Take "
                          "a quiz or an exam first."
                        : "None of the questions these filters select tests your weakest traps.",
          s.width, "  ", "    ");
      return {};
    }
    std::vector<std::string> names;
    for (const auto& [id, count] : traps) {
      const bank::Trap* trap = s.trap(id);
      names.push_back(fmt::format("{} ({}×)", trap != nullptr ? trap->name : id, count));
    }
    focus = fmt::format(" on your weakest trap{}: {}", traps.size() == 1 ? "" : "s",
                        fmt::join(names, "; "));
  }
  engine::Rng rng(s.seed);
  engine::shuffle(selected, rng);
  // One question per objective first, then the next round (bank/form.hpp); named ones as named.
  if (options.filters.questions.empty()) selected = bank::objective_rounds(selected);
  // The form: the first --count of those, drawn in order; one that would give away another's
  // answer or ask what another asks is replaced by the next spare, of an objective the form does
  // not hold where one is left (bank/form.hpp). Questions named with --question are asked as
  // named, with a warning.
  const bool own_limit = options.missed || options.weakest || !options.filters.traps.empty() ||
                         !options.filters.questions.empty();
  const std::optional<int> limit = options.count ? options.count
                                   : own_limit   ? std::nullopt
                                                 : std::optional(kDefaultQuizCount);
  const std::size_t matching = selected.size();
  const std::size_t size =
      limit ? std::min(selected.size(), static_cast<std::size_t>(*limit)) : selected.size();
  std::vector<Instance> form;
  for (std::size_t i = 0; i < size; ++i)
    form.push_back(instantiate(*selected[i], rng));
  if (options.filters.questions.empty()) {
    std::vector<const bank::Question*> spares(selected.begin() + static_cast<std::ptrdiff_t>(size),
                                              selected.end());
    warn_left_out(s, bank::untangle(
                         form,
                         [&](std::size_t i) -> std::optional<Instance> {
                           const auto next = bank::take_spare(spares, form, i);
                           if (!next) return std::nullopt;
                           return instantiate(**next, rng);
                         },
                         bank::form_enemies(s.banks)));
  } else {
    warn_named_conflicts(s, form);
  }
  selected.clear();
  for (const Instance& instance : form)
    selected.push_back(instance.question);
  const std::int64_t id =
      store.begin_session("quiz", s.now(), settings_json(options.filters, s.seed));
  s.out << wrap_labelled("proofdeck quiz", s.theme.emphasis,
                         fmt::format("· {} question{}{} · ? for help, :q to stop", selected.size(),
                                     selected.size() == 1 ? "" : "s", text::terminal_safe(focus)),
                         s.width)
        << seed_line(s);
  std::vector<Answered> answers;
  Outcome outcome;
  for (std::size_t i = 0; i < selected.size(); ++i) {
    Answered a;
    a.question = selected[i];
    a.instance = form[i];
    s.out << render_question(s, a.instance, header_for(s, *a.question, i + 1, selected.size()));
    const auto asked = std::chrono::steady_clock::now();
    const AskResult result = ask(s, a.instance, a.reply, false);
    a.time_ms = elapsed_ms(asked);
    if (result == AskResult::answered) {
      a.answered = true;
      a.grade = grade(a.instance, a.reply);
      store.record(record_of(s, a, "quiz", id), std::nullopt);
      s.out << render_feedback(s, a, options.show_demo);
      answers.push_back(std::move(a));
    } else if (result == AskResult::skipped) {
      s.out << "  Skipped.\n";
      answers.push_back(std::move(a));
    } else {
      outcome.interrupted = result == AskResult::interrupted;
      break;
    }
  }
  int total = 0;
  const int correct = score(answers, total);
  store.end_session(id, s.now(), correct, total, std::nullopt, outcome.interrupted);
  s.out << render_summary(s, answers, outcome.interrupted ? "Quiz interrupted" : "Quiz finished");
  // What to do next: more of the same, or again the ones just missed. Each command on a line of
  // its own, so it is never cut and copies whole.
  if (!options.count && size < matching) {
    s.out << text::wrap_block(
                 fmt::format("{} of the {} questions that match were on this quiz; to ask more:",
                             size, matching),
                 s.width, "  ", "  ")
          << text::command_block(
                 session_command(s, "quiz", options.filters,
                                 fmt::format("--count {}", std::min<std::size_t>(matching, 50))),
                 s.width, "    ");
  }
  const bool missed_any = std::any_of(answers.begin(), answers.end(), [](const Answered& a) {
    return a.answered && !a.grade.correct;
  });
  if (missed_any) {
    s.out << text::wrap_block("To ask again each question whose latest answer was wrong:", s.width,
                              "  ", "  ")
          << text::command_block(session_command(s, "quiz", options.filters, "--missed"), s.width,
                                 "    ");
  }
  s.out << seed_line(s);
  if (!options.report_path.empty()) {
    nlohmann::ordered_json report = session_report(s, "quiz", answers);
    report["form"] = form_json(form);
    report["filters"] = filters_json(options.filters);
    write(options.report_path, report.dump(2) + "\n");
  }
  return outcome;
}

// --- exam ---------------------------------------------------------------------------------------

namespace {

// "24:13 left". Read from the clock each time it is shown, never kept: a prompt shown again
// after a warning must not say an older time than the warning did.
std::string clock_text(std::chrono::steady_clock::duration left) {
  // Rounded up, as a countdown is: 30:00 at the start, 0:01 in the last second.
  const auto seconds =
      std::max<long long>(0, std::chrono::ceil<std::chrono::seconds>(left).count());
  return fmt::format("{}:{:02} left", seconds / 60, seconds % 60);
}

std::string plural(double n, const std::string& one, const std::string& many) {
  return fmt::format("{} {}", text::format_number(n), n == 1.0 ? one : many);
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
  std::string verdict =
      text::wrap_block(fmt::format("Result: {} of {} = {:.0f}% → {} (pass mark {}%)", correct, n,
                                   percent, passed ? "PASS" : "FAIL", text::format_number(pass)),
                       s.width, "  ", "    ");
  const std::size_t word = verdict.find(passed ? "PASS" : "FAIL");
  verdict.replace(word, 4,
                  passed ? fmt::format(s.theme.good, "PASS") : fmt::format(s.theme.bad, "FAIL"));
  std::string out = render_summary(s, answers, title, true, elapsed) + verdict;
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

}  // namespace

ExamForm draw_exam_form(const std::vector<bank::Bank>& banks, const bank::Filters& filters,
                        int count, std::uint64_t seed, const bank::Enemies* enemies) {
  engine::Rng rng(seed);
  std::map<std::string, std::vector<const bank::Question*>> spares;
  const std::vector<const bank::Question*> drawn = bank::draw_spread(
      bank::select_questions(banks, filters), static_cast<std::size_t>(count), rng, spares);
  ExamForm result;
  for (const bank::Question* q : drawn)
    result.form.push_back(instantiate(*q, rng));
  if (!filters.questions.empty()) return result;
  // A question that would give away another's answer, or ask what another asks, is replaced by a
  // spare of its topic (so the spread holds), else of any topic: one of an objective the form
  // does not hold where there is one.
  std::vector<Instance>& form = result.form;
  result.left_out = bank::untangle(
      form,
      [&](std::size_t i) -> std::optional<Instance> {
        std::vector<const bank::Question*>* from = &spares[form[i].question->topic];
        for (auto it = spares.begin(); from->empty() && it != spares.end(); ++it)
          from = &it->second;
        const auto next = bank::take_spare(*from, form, i);
        if (!next) return std::nullopt;
        return instantiate(**next, rng);
      },
      enemies != nullptr ? *enemies : bank::form_enemies(banks));
  return result;
}

namespace {

// An exam's form for the session's seed (draw_exam_form); `warn`: say on standard error what was
// swapped (a review rebuilding the form keeps quiet: it was said when the exam was taken).
std::vector<Instance> exam_form(const Session& s, const ExamOptions& options, bool warn) {
  ExamForm drawn = draw_exam_form(s.banks, options.filters, options.count, s.seed);
  if (warn) {
    if (options.filters.questions.empty()) {
      warn_left_out(s, drawn.left_out);
    } else {
      warn_named_conflicts(s, drawn.form);
    }
  }
  return std::move(drawn.form);
}

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
          fmt::format("{} left:", plural(left, "minute", "minutes")), s.theme.warning,
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
                                     plural(static_cast<double>(n), "question", "questions"),
                                     plural(options.minutes, "minute", "minutes"),
                                     text::format_number(options.pass)),
                         s.width)
        << seed_line(s)
        << text::wrap_block(
               "No feedback until the end. Answer, or type a command: flag, next, back, goto N, "
               "review, time, submit (? lists them). Every question stays open until you submit.",
               s.width, "  ");
  Outcome outcome;
  bool timed_out = false;
  // The prompt holds no clock: it is printed again, unchanged, under each warning and after
  // every line, so a time in it would go stale. The time left is shown where it is computed:
  // with each question, the review screen, the warnings and the `time` command.
  const auto status = [&]() {
    return fmt::format("[{}/{} answered{}]", exam.answered(), n,
                       exam.flags() > 0 ? fmt::format(" · {} flagged", exam.flags()) : "");
  };
  const auto time_left = [&]() { return clock_text(deadline - s.steady_now()); };
  const auto note = [&](const std::string& message) {
    s.out << text::wrap_block(message, s.width, "  ", "    ");
  };
  // Moves to question `to` (0-based), or the review screen at n.
  const auto go = [&](std::size_t to) { exam.current = std::min(to, n); };
  bool shown = false;  // the current question (or review screen) is on screen
  bool submitted = false;
  while (!submitted) {
    const bool at_end = exam.current >= n;
    Answered* a = at_end ? nullptr : &exam.answers[exam.current];
    if (!shown) {
      if (at_end) {
        s.out << render_review(s, exam, time_left());
      } else {
        std::string header = header_for(s, *a->question, exam.current + 1, n, false);
        if (exam.flagged[exam.current]) header += " · flagged";
        header += " · " + time_left();
        s.out << render_question(s, a->instance, header);
        if (a->answered)
          note(fmt::format("Your answer: {} (type another to change it, next to keep it)",
                           text::terminal_safe(answer_for_people(a->instance, a->reply))));
      }
      shown = true;
    }
    Reply reply;
    AskResult result;
    const auto asked = std::chrono::steady_clock::now();
    if (at_end) {
      // The review screen takes commands only: answer a question by opening it.
      const Answered& any = exam.answers.front();
      result = ask(s, any.instance, reply, true, deadline, status());
      if (result == AskResult::answered) {
        note("Open a question first (goto N), then answer it.");
        continue;
      }
    } else {
      result = ask(s, a->instance, reply, true, deadline, status());
      a->time_ms += elapsed_ms(asked);
    }
    if (result == AskResult::answered) {
      a->answered = true;
      a->reply = reply;
      a->grade = grade(a->instance, reply);
      go(exam.current + 1);
      shown = false;
      continue;
    }
    if (result == AskResult::interrupted) {
      outcome.interrupted = true;
      break;
    }
    if (result == AskResult::timeout) {
      timed_out = true;
      break;
    }
    if (result != AskResult::command) break;  // end of input: submit what is answered
    switch (reply.kind) {
      case Reply::Kind::flag:
        if (at_end) {
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
        shown = false;
        break;
      case Reply::Kind::back:
        if (exam.current == 0) {
          note("This is the first question.");
        } else {
          go(exam.current - 1);
          shown = false;
        }
        break;
      case Reply::Kind::go:
        if (reply.target < 1 || reply.target > n) {
          note(fmt::format("No question {}: the questions are 1 to {}.", reply.target, n));
        } else {
          go(reply.target - 1);
          shown = false;
        }
        break;
      case Reply::Kind::time:
        note(time_left() + "; at 0:00 what is answered is submitted.");
        break;
      case Reply::Kind::review:
        s.out << render_review(s, exam, time_left());
        if (!at_end) note(fmt::format("Still on question {}.", exam.current + 1));
        break;
      case Reply::Kind::submit: {
        const std::size_t open = n - exam.answered();
        std::string question = open == 0 ? "Every question is answered."
                                         : fmt::format(
                                               "{} of {} {} unanswered "
                                               "(they count as wrong).",
                                               open, n, open == 1 ? "is" : "are");
        if (exam.flags() > 0)
          question +=
              fmt::format(" {} {} flagged.", exam.flags(), exam.flags() == 1 ? "is" : "are");
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
          std::string word;
          for (const char c : line)
            if (!std::isspace(static_cast<unsigned char>(c)))
              word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          submitted = word == "yes" || word == "y";
          if (!submitted) note("Not submitted: the exam goes on.");
        }
        break;
      }
      default:
        break;
    }
    if (outcome.interrupted || timed_out) break;
  }
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

namespace {

// Why `exam --review` cannot rebuild exam `number`: StateError (exit 3), the saved exam is fine
// but what it needs is missing or has changed.
[[noreturn]] void cannot_rebuild(std::size_t number, const std::string& why) {
  throw StateError("exam.review.unavailable",
                   fmt::format("exam {} cannot be rebuilt: {}", number, why));
}

}  // namespace

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
                  taken, plural(static_cast<double>(form.size()), "question", "questions"),
                  plural(exam_options.minutes, "minute", "minutes"),
                  text::format_number(exam_options.pass),
                  result.value("timed_out", false) ? " · its time ran out" : ""),
      s.width);
  s.out << render_results(s, answers, exam_options.pass, "Exam submitted",
                          std::chrono::milliseconds(result.value("duration_ms", std::int64_t{0})),
                          options.show_demo);
}

// --- drill --------------------------------------------------------------------------------------

namespace {

// New cards in the order a new learner should meet them (bank::StudyOrder): round-robin over
// the topics in that order, so the first day spans the lesson instead of exhausting one topic,
// where a topic joins the round only once every new card of what it requires, directly or
// through others, has been dealt. Within a topic, bank order.
std::vector<const bank::Question*> deal_new(const std::vector<bank::Bank>& banks,
                                            const std::vector<const bank::Question*>& fresh) {
  const bank::StudyOrder order(banks);
  const std::size_t topic_count = order.topics().size();
  std::vector<std::vector<const bank::Question*>> by_topic(topic_count);
  std::vector<const bank::Question*> dealt;
  std::vector<const bank::Question*> outside;  // in no loaded topic: dealt last
  for (const bank::Question* q : fresh) {
    const std::size_t p = order.position(q->bank, q->topic);
    (p == topic_count ? outside : by_topic[p]).push_back(q);
  }
  std::vector<std::size_t> next(topic_count, 0);
  std::vector<bool> done(topic_count, false);  // every new card of it and what it requires dealt
  for (;;) {
    const std::size_t before = dealt.size();
    for (std::size_t p = 0; p < topic_count; ++p) {
      const bool met = order.requirements_met(p, done);
      if (met && next[p] < by_topic[p].size()) dealt.push_back(by_topic[p][next[p]++]);
      done[p] = met && next[p] == by_topic[p].size();
    }
    if (dealt.size() == before) break;
  }
  dealt.insert(dealt.end(), outside.begin(), outside.end());
  return dealt;
}

}  // namespace

std::string due_when(const LearnerDays& days, const Card& card, TimePoint now) {
  const TimePoint due = *card.due;
  if (card.state == CardState::review) {
    const int ahead = days.days_between(now, due);
    if (ahead <= 0) return "today";
    if (ahead == 1) return fmt::format("tomorrow (from {:02}:00)", days.starts_at());
    return fmt::format("in {} days ({})", ahead, days.label(due));
  }
  const auto seconds = (due - now).count();
  if (seconds <= 0) return "now";
  if (seconds < 60) return "in under a minute";
  const auto in = [](long long n, const char* unit) {
    return fmt::format("in {} {}{}", n, unit, n == 1 ? "" : "s");
  };
  if (seconds < 3600) return in((seconds + 30) / 60, "minute");
  if (seconds < 86400) return in((seconds + 1800) / 3600, "hour");
  const int ahead = days.days_between(now, due);
  if (ahead == 1) return fmt::format("tomorrow ({})", days.label(due));
  return fmt::format("in {} days ({})", ahead, days.label(due));
}

DrillPlan plan_drill(const std::vector<bank::Bank>& banks,
                     const std::vector<const bank::Question*>& selected,
                     const std::map<std::string, Card>& cards,
                     const std::vector<ReviewRow>& reviews, const LearnerDays& days, TimePoint now,
                     int new_per_day, bool bury) {
  const TimePoint today = days.start_of(days.day_of(now));
  DrillPlan plan;
  // New cards introduced today (their first drill review is in this learner's day) count
  // against the day's new cards.
  std::map<std::string, TimePoint> first_drill;
  for (const ReviewRow& r : reviews) {
    if (r.mode == "drill" && !first_drill.contains(r.card)) first_drill[r.card] = r.at;
  }
  for (const auto& [card, at] : first_drill)
    plan.new_today += at >= today;

  const auto in_steps = [](const Card& card) {
    return card.state == CardState::learning || card.state == CardState::relearning;
  };
  for (const bank::Question* q : selected) {
    const auto it = cards.find(q->id);
    if (it == cards.end() || it->second.state == CardState::fresh) {
      plan.fresh.push_back(q);
    } else if (days.due(it->second, now)) {
      plan.due.push_back(q);
    } else if (in_steps(it->second) && it->second.due) {
      plan.learning.push_back(q);
    }
  }
  const auto sooner = [&](const bank::Question* a, const bank::Question* b) {
    return *cards.at(a->id).due < *cards.at(b->id).due;
  };
  std::stable_sort(plan.due.begin(), plan.due.end(), sooner);
  std::stable_sort(plan.learning.begin(), plan.learning.end(), sooner);
  // Every card with a schedule is asked when due, whatever its siblings did: a missed card
  // comes back on the day it was promised. Burying holds back new cards only: none is introduced
  // on a day when a card of its objective is due, in its learning steps or was reviewed today,
  // and at most one a day per objective.
  const auto quota = static_cast<std::size_t>(std::max(0, new_per_day - plan.new_today));
  plan.fresh = deal_new(banks, plan.fresh);
  if (bury) {
    std::map<std::string, const bank::Question*> by_id;
    for (const bank::Bank& b : banks)
      for (const bank::Question& q : b.questions)
        by_id[q.id] = &q;
    std::set<std::string> busy, reviewed;  // objectives
    for (const auto& [id, card] : cards) {
      const auto it = by_id.find(id);
      if (it != by_id.end() && (in_steps(card) || days.due(card, now)))
        busy.insert(it->second->objective_id());
    }
    for (const ReviewRow& r : reviews) {
      const auto it = by_id.find(r.card);
      if (r.mode == "drill" && r.at >= today && it != by_id.end())
        reviewed.insert(it->second->objective_id());
    }
    std::set<std::string> dealt;
    std::size_t held = 0;
    std::erase_if(plan.fresh, [&](const bank::Question* q) {
      const std::string& objective = q->objective_id();
      if (reviewed.contains(objective)) {
        ++held;
        return true;
      }
      return busy.contains(objective) || !dealt.insert(objective).second;
    });
    // Those the day's quota had room for: the ones burying really kept back.
    plan.held_back = std::min(held, quota - std::min(quota, plan.fresh.size()));
  }
  if (plan.fresh.size() > quota) plan.fresh.resize(quota);
  return plan;
}

Outcome run_drill(Session& s, ProgressStore& store, const DrillOptions& options,
                  const ReportWriter& write) {
  SchedulerOptions scheduler_options;
  scheduler_options.desired_retention = options.retention;
  scheduler_options.fuzz = options.fuzz;
  const Scheduler scheduler(scheduler_options);
  const std::vector<const bank::Question*> selected =
      bank::select_questions(s.banks, options.filters);
  std::map<std::string, Card> cards = store.cards();
  const TimePoint now = s.now();
  const bool new_day_start =
      options.day_starts_at && *options.day_starts_at != store.day_starts_at();
  if (new_day_start) store.set_day_starts_at(*options.day_starts_at);
  const LearnerDays days(store.day_starts_at());

  const DrillPlan plan = plan_drill(s.banks, selected, cards, store.reviews(), days, now,
                                    options.new_per_day, options.bury);
  const std::vector<const bank::Question*>& due = plan.due;
  const std::vector<const bank::Question*>& fresh = plan.fresh;
  std::vector<const bank::Question*> queue = due;
  queue.insert(queue.end(), fresh.begin(), fresh.end());
  // Cards in their steps from earlier sessions, asked ahead when nothing else is due, as the
  // cards this session puts in its steps are.
  std::vector<const bank::Question*> learning = plan.learning;
  const auto ahead = static_cast<std::size_t>(std::count_if(
      learning.begin(), learning.end(),
      [&](const bank::Question* q) { return *cards.at(q->id).due <= now + kLearnAhead; }));

  s.out << wrap_labelled(
               "proofdeck drill", s.theme.emphasis,
               fmt::format("· {} due{} · {} new ({} of {} new cards introduced today) · ? for "
                           "help, :q to stop",
                           due.size(),
                           ahead == 0 ? ""
                                      : fmt::format(" (and {} in {} learning steps within {} "
                                                    "minutes)",
                                                    ahead, ahead == 1 ? "its" : "their",
                                                    kLearnAhead.count()),
                           fresh.size(), plan.new_today, options.new_per_day),
               s.width)
        << seed_line(s);
  // Only new cards of objectives reviewed today are said to wait: nothing is said before the
  // day's first review.
  if (plan.held_back > 0) {
    const std::size_t n = plan.held_back;
    s.out << wrap_styled(s.theme.dim,
                         fmt::format("{} new card{} wait{} for your next day: a card of {} "
                                     "objective was reviewed today. To meet {} now:",
                                     n, n == 1 ? "" : "s", n == 1 ? "s" : "",
                                     n == 1 ? "its" : "their", n == 1 ? "it" : "them"),
                         s.width, "  ", "    ")
          << style_lines(s.theme.dim, text::command_block(
                                          session_command(s, "drill", options.filters, "--no-bury"),
                                          s.width, "    "));
  }
  if (new_day_start) {
    s.out << wrap_styled(s.theme.dim,
                         fmt::format("Your day now starts at {:02}:00 local time, in this drill "
                                     "and every later command (saved in {}).",
                                     *options.day_starts_at, store.path().string()),
                         s.width, "  ", "    ");
  }
  const std::int64_t id = store.begin_session("drill", now,
                                              settings_json(options.filters, s.seed,
                                                            {{"new", options.new_per_day},
                                                             {"limit", options.limit},
                                                             {"retention", options.retention},
                                                             {"fuzz", options.fuzz}}));
  engine::Rng rng(s.seed);
  const std::function<double()> uniform = [&rng]() { return rng.uniform(); };
  std::vector<Answered> answers;
  std::set<const bank::Question*> skipped;  // not asked again this session
  Outcome outcome;
  std::size_t next = 0;
  int reviews = 0;
  while (reviews < options.limit) {
    const bank::Question* q = nullptr;
    if (next < queue.size()) {
      q = queue[next++];
    } else {
      // Cards in their learning steps come back within the session, soonest first.
      auto soonest = learning.end();
      for (auto it = learning.begin(); it != learning.end(); ++it) {
        const Card& card = cards[(*it)->id];
        if ((card.state == CardState::learning || card.state == CardState::relearning) &&
            card.due && *card.due <= s.now() + kLearnAhead && !skipped.contains(*it) &&
            (soonest == learning.end() || *card.due < *cards[(*soonest)->id].due))
          soonest = it;
      }
      if (soonest == learning.end()) break;
      q = *soonest;
      // One reading of the clock for both, so the card ahead is never called due now.
      if (const TimePoint at = s.now(); *cards[q->id].due > at) {
        s.out << wrap_styled(s.theme.dim,
                             fmt::format("Nothing else is due: reviewing ahead (this card is due "
                                         "{}; it is still in its learning steps).",
                                         due_when(days, cards[q->id], at)),
                             s.width, "  ", "    ");
      }
    }
    Card card = cards.contains(q->id) ? cards[q->id] : Card{};
    Answered a;
    a.question = q;
    a.instance = instantiate(*q, rng);
    const std::string header =
        fmt::format("[drill {}] {} · {}", reviews + 1, state_name(card.state),
                    s.topic(q->topic) != nullptr ? s.topic(q->topic)->name : q->topic);
    s.out << render_question(s, a.instance, header);
    const auto asked = std::chrono::steady_clock::now();
    const AskResult result = ask(s, a.instance, a.reply, false);
    a.time_ms = elapsed_ms(asked);
    if (result == AskResult::skipped) {
      s.out << "  Skipped (its schedule is unchanged).\n";
      skipped.insert(q);
      continue;
    }
    if (result != AskResult::answered) {
      outcome.interrupted = result == AskResult::interrupted;
      break;
    }
    a.answered = true;
    a.grade = grade(a.instance, a.reply);
    s.out << render_feedback(s, a, options.show_demo);
    Rating rating = Rating::again;  // wrong, or right only after opening the proof
    bool stop_after = false;
    if (a.grade.correct) {
      rating = Rating::good;
      while (!options.auto_rate) {
        // The prompt waits on its line: the short form where the long one would not fit.
        std::string line;
        const LineReader::Status read =
            s.reader.read(line, s.width >= 52 ? "  How was it? h hard · g good (Enter) · e easy > "
                                              : "  h hard · g good · e easy > ");
        if (read != LineReader::Status::line) {
          // Interrupted, or the input ended, before a rating: nothing is saved for this card.
          outcome.interrupted = read == LineReader::Status::interrupted;
          outcome.unrated = true;
          a.rated = false;
          s.out << "\n";
          break;
        }
        if (s.echo_input) s.out << text::terminal_safe(line) << "\n";
        std::string word;
        for (const char c : line)
          if (!std::isspace(static_cast<unsigned char>(c)))
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (word.empty() || word == "g" || word == "good") break;
        if (word == "q" || word == ":q" || word == "quit") {  // the answer still counts, as good
          stop_after = true;
          break;
        }
        if (word == "h" || word == "hard") {
          rating = Rating::hard;
          break;
        }
        if (word == "e" || word == "easy") {
          rating = Rating::easy;
          break;
        }
        s.out << "  "
              << wrap_labelled("?", s.theme.warning,
                               "type h, g or e (or just Enter for good; q saves it as good and "
                               "stops)",
                               s.width - 2, "    ");
      }
    }
    if (!a.rated) {
      s.out << wrap_styled(s.theme.dim,
                           "Not rated: this card's schedule is unchanged, and no review is saved.",
                           s.width, "  ", "    ");
      answers.push_back(std::move(a));
      break;
    }
    const TimePoint at = s.now();
    const ReviewOutcome reviewed = days.review(scheduler, card, rating, at,
                                               options.fuzz ? uniform : std::function<double()>{});
    AnswerRecord record = record_of(s, a, "drill", id);
    record.at = at;
    record.rating = rating;
    record.elapsed_days = reviewed.elapsed_days;
    store.record(record, reviewed.card);
    cards[q->id] = reviewed.card;
    ++reviews;
    answers.push_back(std::move(a));
    s.out << wrap_styled(s.theme.dim,
                         fmt::format("Rated {} · next review {}",
                                     rating == Rating::again  ? "again"
                                     : rating == Rating::hard ? "hard"
                                     : rating == Rating::good ? "good"
                                                              : "easy",
                                     due_when(days, reviewed.card, at)),
                         s.width, "  ", "    ");
    if (reviewed.card.lapses >= kLeechLapses && rating == Rating::again) {
      s.out << wrap_styled(s.theme.warning,
                           fmt::format("Leech: missed {} times after learning it. Read its "
                                       "explanation and source again, or drill it alone:",
                                       reviewed.card.lapses),
                           s.width, "  ", "    ")
            << style_lines(s.theme.warning,
                           text::command_block(fmt::format("{} drill --question {}", s.program,
                                                           text::shell_word(q->id)),
                                               s.width, "    "));
    }
    if ((reviewed.card.state == CardState::learning ||
         reviewed.card.state == CardState::relearning) &&
        std::find(learning.begin(), learning.end(), q) == learning.end())
      learning.push_back(q);
    if (stop_after) break;
  }
  int total = 0;
  const int correct = score(answers, total);
  store.end_session(id, s.now(), correct, total, std::nullopt, outcome.interrupted);
  const bool offered = !queue.empty() || ahead > 0;
  if (answers.empty() && !outcome.interrupted && offered) {
    const std::size_t waiting = queue.size() + ahead;
    s.out << text::wrap_block(
                 fmt::format("No answer read: the input ended before the first one, so {} "
                             "waiting card{} stay{} as {} (drill reads answers from the keyboard "
                             "or a pipe):",
                             waiting, waiting == 1 ? "" : "s", waiting == 1 ? "s" : "",
                             waiting == 1 ? "it was" : "they were"),
                 s.width, "  ", "    ")
          << text::command_block(fmt::format("printf 'a\\n' | {} drill", s.program), s.width,
                                 "    ");
    return outcome;
  }
  if (answers.empty() && !outcome.interrupted) {
    const Card* soonest = nullptr;
    for (const bank::Question* q : selected) {
      const auto it = cards.find(q->id);
      if (it != cards.end() && it->second.due && (!soonest || *it->second.due < *soonest->due))
        soonest = &it->second;
    }
    s.out << text::wrap_block(fmt::format("Nothing to drill now{}. The forecast:",
                                          soonest ? fmt::format(": the next card is due {}",
                                                                due_when(days, *soonest, s.now()))
                                                  : ""),
                              s.width, "  ", "    ")
          << text::command_block(s.program + " stats", s.width, "    ");
    return outcome;
  }
  s.out << render_summary(s, answers, outcome.interrupted ? "Drill interrupted" : "Drill finished");
  int due_left = 0;
  for (const bank::Question* q : selected) {
    const auto it = cards.find(q->id);
    if (it != cards.end() && days.due(it->second, s.now())) ++due_left;
  }
  s.out << text::wrap_block(
               fmt::format("{} review{} saved · {} card{} due now", reviews,
                           reviews == 1 ? "" : "s", due_left, due_left == 1 ? "" : "s"),
               s.width, "  ", "    ")
        << seed_line(s);
  if (!options.report_path.empty()) {
    write(options.report_path, session_report(s, "drill", answers).dump(2) + "\n");
  }
  return outcome;
}

}  // namespace proofdeck::study
