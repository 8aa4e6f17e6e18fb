// quiz: immediate feedback, the trap a wrong answer fell into, the live proof (modes.hpp).
#include "study/modes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
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
#include "study/confidence.hpp"
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
                          std::size_t facts) {
  std::string out;
  if (!options.count && size < facts) {
    out += text::wrap_block(
               fmt::format("{} of the {} facts the matching questions ask were on this quiz; to "
                           "ask more:",
                           size, facts),
               s.width, "  ", "  ") +
           text::command_block(
               session_command(s, "quiz", options.filters,
                               fmt::format("--count {}", std::min<std::size_t>(facts, 50))),
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

// The quiz's form from the questions selected (bank::draw_quiz_form, with the session's seed): a
// plain quiz asks --count of them (10 by default), one per objective, and says
// on standard error when the selection holds fewer; the learner's own lists (--missed, --weakest,
// --trap) are asked whole, and questions named with --question as named, with a warning for a
// pair that gives each other away.
bank::DrawnForm quiz_form(const Session& s, const QuizOptions& options,
                          std::vector<const bank::Question*> selected) {
  engine::Rng rng(s.seed);
  if (!options.filters.questions.empty()) {
    engine::shuffle(selected, rng);
    bank::DrawnForm named;
    named.facts = bank::count_objectives(selected);
    const std::size_t size =
        std::min(selected.size(),
                 static_cast<std::size_t>(options.count.value_or(std::numeric_limits<int>::max())));
    for (std::size_t i = 0; i < size; ++i)
      named.form.push_back(instantiate(*selected[i], rng));
    warn_named_conflicts(s, named.form);
    return named;
  }
  const bool own_list = options.missed || options.weakest || !options.filters.traps.empty();
  std::optional<std::size_t> limit;
  if (options.count) {
    limit = static_cast<std::size_t>(*options.count);
  } else if (!own_list) {
    limit = static_cast<std::size_t>(kDefaultQuizCount);
  }
  bank::DrawnForm drawn =
      bank::draw_quiz_form(selected, limit, !own_list, rng, bank::form_enemies(s.banks));
  warn_left_out(s, drawn.left_out);
  if (!own_list && limit && drawn.facts < *limit && s.err != nullptr)
    *s.err << bank::short_form_note(drawn.form.size(), drawn.facts) << "\n";
  return drawn;
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
  const bank::DrawnForm drawn = quiz_form(s, options, selected);
  const std::vector<Instance>& form = drawn.form;
  const std::size_t size = form.size();
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
  outcome.interrupted = ask_each(s, store, form, "quiz", id, options.show_demo,
                                 "  Skipped: its answer follows the quiz.\n", answers);
  s.fit_to_terminal();
  s.out << render_summary(s, answers, outcome.interrupted ? "Quiz interrupted" : "Quiz finished");
  if (s.asks_confidence) s.out << render_cbm(s, summarize_cbm(cbm_answers(answers, false)));
  s.out << next_commands(s, options, answers, size, drawn.facts);
  s.out << seed_line(s);
  if (!options.report_path.empty()) {
    nlohmann::ordered_json report = session_report(s, "quiz", answers);
    if (s.asks_confidence) report["cbm"] = cbm_json(summarize_cbm(cbm_answers(answers, false)));
    report["form"] = form_json(form);
    report["filters"] = filters_json(options.filters);
    write(options.report_path, report.dump(2) + "\n");
  }
  return outcome;
}

}  // namespace proofdeck::study
