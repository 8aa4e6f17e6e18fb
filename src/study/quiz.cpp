// quiz: immediate feedback, the trap a wrong answer fell into, the live proof (modes.hpp).
#include "study/modes.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <tuple>

#include <fmt/color.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/form.hpp"
#include "bank/instance.hpp"
#include "core/errors.hpp"
#include "study/session_parts.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

namespace {

// --missed: the questions whose latest answer (any mode) was wrong, or that were skipped since
// their latest answer. Later means a later session, then a later time.
std::set<std::string> missed_questions(ProgressStore& store) {
  struct Latest {
    std::int64_t session = 0;
    TimePoint at;
    bool missed = false;
  };
  std::map<std::string, Latest> latest;
  const auto note = [&](const std::string& card, std::int64_t session, TimePoint at, bool missed) {
    auto [it, added] = latest.try_emplace(card, Latest{session, at, missed});
    if (!added && std::tie(session, at) >= std::tie(it->second.session, it->second.at))
      it->second = {session, at, missed};
  };
  for (const ReviewRow& r : store.reviews())
    note(r.card, r.session, r.at, !r.correct);
  for (const SkipRow& skip : store.skips())
    note(skip.card, skip.session, skip.at, true);
  std::set<std::string> missed;
  for (const auto& [card, last] : latest) {
    if (last.missed) missed.insert(card);
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

// What to do next, after a quiz's summary: more of the same, or again the ones just missed. Each
// command on a line of its own, so it is never cut and copies whole.
std::string next_commands(const Session& s, const QuizOptions& options,
                          const std::vector<Answered>& answers, std::size_t size,
                          std::size_t matching) {
  std::string out;
  if (!options.count && size < matching) {
    out +=
        text::wrap_block(
            fmt::format("{} of the {} questions that match were on this quiz; to ask more:", size,
                        matching),
            s.width, "  ", "  ") +
        text::command_block(
            session_command(s, "quiz", options.filters,
                            fmt::format("--count {}", std::min<std::size_t>(matching, 50))),
            s.width, "    ");
  }
  // --missed asks again what was answered wrong and what was skipped.
  const bool wrong_any = std::any_of(answers.begin(), answers.end(), [](const Answered& a) {
    return a.answered && !a.grade.correct;
  });
  const bool skipped_any =
      std::any_of(answers.begin(), answers.end(), [](const Answered& a) { return !a.answered; });
  if (wrong_any || skipped_any) {
    out +=
        text::wrap_block(skipped_any ? "To ask again each question answered wrong or skipped:"
                                     : "To ask again each question whose latest answer was wrong:",
                         s.width, "  ", "  ") +
        text::command_block(session_command(s, "quiz", options.filters, "--missed"), s.width,
                            "    ");
  }
  return out;
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
              ? "Nothing to review: no question's latest answer is wrong, and none was skipped "
                "since. Take a quiz or an exam first, or use --weakest N for the traps you fall "
                "into most."
              : "Nothing to review among the questions these filters select: your latest answer "
                "to each of them is right.",
          s.width, "  ", "    ");
      return {};
    }
    focus = " you got wrong or skipped last time";
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
                         fmt::format("· {}{} · ? for help, :q to stop",
                                     text::count(selected.size(), "question", "questions"),
                                     text::terminal_safe(focus)),
                         s.width)
        << seed_line(s);
  std::vector<Answered> answers;
  Outcome outcome;
  for (std::size_t i = 0; i < selected.size(); ++i) {
    Answered a;
    a.question = selected[i];
    a.instance = form[i];
    s.fit_to_terminal();
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
      store.record_skip(a.question->id, s.now(), "quiz", id);
      s.out << "  Skipped: its answer follows the quiz.\n";
      answers.push_back(std::move(a));
    } else {
      outcome.interrupted = result == AskResult::interrupted;
      break;
    }
  }
  int total = 0;
  const int correct = score(answers, total);
  store.end_session(id, s.now(), correct, total, std::nullopt, outcome.interrupted);
  s.fit_to_terminal();
  s.out << render_summary(s, answers, outcome.interrupted ? "Quiz interrupted" : "Quiz finished");
  s.out << next_commands(s, options, answers, size, matching);
  s.out << seed_line(s);
  if (!options.report_path.empty()) {
    nlohmann::ordered_json report = session_report(s, "quiz", answers);
    report["form"] = form_json(form);
    report["filters"] = filters_json(options.filters);
    write(options.report_path, report.dump(2) + "\n");
  }
  return outcome;
}

}  // namespace proofdeck::study
