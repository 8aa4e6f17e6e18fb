// drill: spaced repetition with FSRS-6 over the plan drill_plan.hpp draws (modes.hpp).
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
#include "study/exam_plan.hpp"
#include "study/session_parts.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

namespace {

// The drill's header and seed line, and what waits for another day.
std::string drill_header(const Session& s, const DrillPlan& plan, std::size_t ahead,
                         const DrillOptions& options, bool exam_plan) {
  const std::string quota = exam_plan ? std::string("as the exam plan has it")
                                      : fmt::format("{} of {} new cards introduced today",
                                                    plan.new_today, options.new_per_day);
  std::string out;
  out += wrap_labelled(
             "proofdeck drill", s.theme.emphasis,
             fmt::format(
                 "· {} due{} · {} new ({}) · ? for help, :q to stop", plan.due.size(),
                 ahead == 0 ? ""
                            : fmt::format(" (and {} in {} learning steps within {} "
                                          "minutes)",
                                          ahead, ahead == 1 ? "its" : "their", kLearnAhead.count()),
                 plan.fresh.size(), quota),
             s.width) +
         seed_line(s);
  // Only new cards of objectives reviewed today are said to wait: nothing is said before the
  // day's first review.
  if (plan.held_back > 0) {
    const std::size_t n = plan.held_back;
    out += wrap_styled(s.theme.dim,
                       fmt::format("{} wait{} for your next day: a card of {} "
                                   "objective was reviewed today. To meet {} now:",
                                   text::count(n, "new card", "new cards"), n == 1 ? "s" : "",
                                   n == 1 ? "its" : "their", n == 1 ? "it" : "them"),
                       s.width, "  ", "    ") +
           style_lines(s.theme.dim, text::command_block(
                                        session_command(s, "drill", options.filters, "--no-bury"),
                                        s.width, "    "));
  }
  return out;
}

// The soonest due of `learning` still in its steps and due within the learn-ahead limit, not
// skipped this session; null when none is.
const bank::Question* next_learning(const std::vector<const bank::Question*>& learning,
                                    std::map<std::string, Card>& cards,
                                    const std::set<const bank::Question*>& skipped, TimePoint now) {
  const bank::Question* soonest = nullptr;
  for (const bank::Question* q : learning) {
    const Card& card = cards[q->id];
    if ((card.state == CardState::learning || card.state == CardState::relearning) && card.due &&
        *card.due <= now + kLearnAhead && !skipped.contains(q) &&
        (soonest == nullptr || *card.due < *cards[soonest->id].due))
      soonest = q;
  }
  return soonest;
}

// "How was it?" after a right answer: Good unless the learner says hard or easy; q saves Good
// and stops the drill (`stop_after`). Interrupted or at the end of input, nothing is rated
// (`answered.rated` false) and the outcome says so.
Rating ask_rating(Session& s, Answered& a, Outcome& outcome, bool& stop_after) {
  Rating rating = Rating::good;
  while (true) {
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
      return rating;
    }
    if (s.echo_input) s.out << text::terminal_safe(line) << "\n";
    const std::string word = folded_word(line);
    if (word.empty() || word == "g" || word == "good") return rating;
    if (word == "q" || word == ":q" || word == "quit") {  // the answer still counts, as good
      stop_after = true;
      return rating;
    }
    if (word == "h" || word == "hard") {
      rating = Rating::hard;
      return rating;
    }
    if (word == "e" || word == "easy") {
      rating = Rating::easy;
      return rating;
    }
    s.out << "  "
          << wrap_labelled("?", s.theme.warning,
                           "type h, g or e (or just Enter for good; q saves it as good and "
                           "stops)",
                           s.width - 2, "    ");
  }
  return rating;
}

// After an answer: with confidence, how sure (asked before the feedback) rates the card;
// without, the feedback and then "How was it?" after a right answer. `stop_after` when the learner
// stopped at either question.
Rating feedback_and_rating(Session& s, Answered& a, const DrillOptions& options, Outcome& outcome,
                           bool& stop_after) {
  if (s.asks_confidence) {
    const ConfidenceReply sure = take_confidence(s, a);
    if (sure.end != ConfidenceReply::End::interrupted)
      s.out << render_feedback(s, a, options.show_demo);
    stop_after = sure.end != ConfidenceReply::End::chosen;
    outcome.interrupted = sure.end == ConfidenceReply::End::interrupted;
    return confidence_rating(a.grade.correct, a.confidence);
  }
  s.out << render_feedback(s, a, options.show_demo);
  if (!a.grade.correct) return Rating::again;  // wrong, or right only after opening the proof
  return options.auto_rate ? Rating::good : ask_rating(s, a, outcome, stop_after);
}

// A drill that read no answer: the cards waiting and how to pipe answers in, or, with none
// waiting, when the next card is due and where the forecast is.
std::string nothing_answered(const Session& s, const LearnerDays& days,
                             const std::map<std::string, Card>& cards,
                             const std::vector<const bank::Question*>& selected,
                             std::size_t waiting) {
  if (waiting > 0) {
    return text::wrap_block(
               fmt::format("No answer read: the input ended before the first one, so {} "
                           "stay{} as {} (drill reads answers from the keyboard "
                           "or a pipe):",
                           text::count(waiting, "waiting card", "waiting cards"),
                           waiting == 1 ? "s" : "", waiting == 1 ? "it was" : "they were"),
               s.width, "  ", "    ") +
           text::command_block(fmt::format("printf 'a\\n' | {} drill", s.program), s.width, "    ");
  }
  const Card* soonest = nullptr;
  for (const bank::Question* q : selected) {
    const auto it = cards.find(q->id);
    if (it != cards.end() && it->second.due && (!soonest || *it->second.due < *soonest->due))
      soonest = &it->second;
  }
  return text::wrap_block(fmt::format("Nothing to drill now{}. The forecast:",
                                      soonest ? fmt::format(": the next card is due {}",
                                                            due_when(days, *soonest, s.now()))
                                              : ""),
                          s.width, "  ", "    ") +
         text::command_block(s.program + " stats", s.width, "    ");
}

// A card missed kLeechLapses times after it was learned: what to do about it.
std::string leech_note(const Session& s, const bank::Question& q, int lapses) {
  return wrap_styled(s.theme.warning,
                     fmt::format("Leech: missed {} times after learning it. Read its "
                                 "explanation and source again, or drill it alone:",
                                 lapses),
                     s.width, "  ", "    ") +
         style_lines(s.theme.warning,
                     text::command_block(
                         fmt::format("{} drill --question {}", s.program, text::shell_word(q.id)),
                         s.width, "    "));
}

// The scheduler a drill session uses: the learner's fitted weights (else the defaults), --fuzz,
// and --retention — or, toward an exam date, the retention its plan chose.
Scheduler drill_scheduler(ProgressStore& store, const DrillOptions& options,
                          const std::optional<ExamPlan>& exam) {
  SchedulerOptions scheduler;
  scheduler.weights = store.fsrs_weights();
  scheduler.desired_retention = exam ? exam->retention : options.retention;
  scheduler.fuzz = options.fuzz;
  return Scheduler(scheduler);
}

// What an exam date does to today's drill: the plan's share of today, or that the exam day has
// come and the ordinary schedule is back.
std::string exam_plan_note(const Session& s, ProgressStore& store,
                           const std::optional<ExamPlan>& exam, const LearnerDays& days) {
  if (exam) {
    return wrap_styled(
        s.theme.dim,
        fmt::format("Toward your exam on {} ({} left): the plan drills at {} desired retention "
                    "with {} today, chosen so that the most is recalled on the day within {} "
                    "minutes a day. The whole plan: {} stats",
                    format_date(exam->date), text::count(exam->days_left, "day", "days"),
                    text::percent(exam->retention),
                    text::count(exam->fresh_today.size(), "new card", "new cards"),
                    exam->minutes_per_day, s.program),
        s.width, "  ", "    ");
  }
  const std::optional<ExamDate> saved = store.exam_date();
  if (!saved || saved->date > days.day_of(s.now())) return "";
  return wrap_styled(s.theme.dim,
                     fmt::format("Your exam day, {}, has come: drill schedules as usual again. "
                                 "To clear the date: {} drill --exam-date none",
                                 format_date(saved->date), s.program),
                     s.width, "  ", "    ");
}

// The summary: score, topics and traps, the reviews saved and the cards due now, the seed.
std::string drill_summary(const Session& s, const std::vector<Answered>& answers,
                          const Outcome& outcome, const LearnerDays& days,
                          const std::map<std::string, Card>& cards,
                          const std::vector<const bank::Question*>& selected, int reviews) {
  std::string out =
      render_summary(s, answers, outcome.interrupted ? "Drill interrupted" : "Drill finished");
  int due_left = 0;
  for (const bank::Question* q : selected) {
    const auto it = cards.find(q->id);
    if (it != cards.end() && days.due(it->second, s.now())) ++due_left;
  }
  return out +
         text::wrap_block(
             fmt::format("{} saved · {} due now", text::count(reviews, "review", "reviews"),
                         text::count(due_left, "card", "cards")),
             s.width, "  ", "    ") +
         (s.asks_confidence ? render_cbm(s, summarize_cbm(cbm_answers(answers, false))) : "") +
         seed_line(s);
}

}  // namespace

Outcome run_drill(Session& s, ProgressStore& store, const DrillOptions& options,
                  const ReportWriter& write) {
  const std::vector<const bank::Question*> selected =
      bank::select_questions(s.banks, options.filters);
  std::map<std::string, Card> cards = store.cards();
  const TimePoint now = s.now();
  const bool new_day_start =
      options.day_starts_at && *options.day_starts_at != store.day_starts_at();
  if (new_day_start) store.set_day_starts_at(*options.day_starts_at);
  const LearnerDays days(store.day_starts_at());

  DrillPlan plan = plan_drill(s.banks, selected, cards, store.reviews(), days, now,
                              options.new_per_day, options.bury);
  // Toward an exam date, today's part of the plan replaces the ordinary queue.
  const std::optional<ExamPlan> exam =
      store.exam_date() ? saved_exam_plan(store, plan_cards(store, s.banks, selected, now), now)
                        : std::nullopt;
  if (exam) follow_exam_plan(plan, *exam);
  const Scheduler scheduler = drill_scheduler(store, options, exam);
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

  s.out << drill_header(s, plan, ahead, options, exam.has_value());
  s.out << exam_plan_note(s, store, exam, days);
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
      q = next_learning(learning, cards, skipped, s.now());
      if (q == nullptr) break;
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
    s.fit_to_terminal();
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
    bool stop_after = false;
    const Rating rating = feedback_and_rating(s, a, options, outcome, stop_after);
    if (!a.rated) {
      s.out << wrap_styled(s.theme.dim,
                           "Not rated: this card's schedule is unchanged, and no review is saved.",
                           s.width, "  ", "    ");
      answers.push_back(std::move(a));
      break;
    }
    const TimePoint at = s.now();
    ReviewOutcome reviewed = days.review(scheduler, card, rating, at,
                                         options.fuzz ? uniform : std::function<double()>{});
    if (rating == Rating::again && a.confidence == kHighestConfidence)
      hurry_back(reviewed.card, at, queue, next, q);
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
    if (reviewed.card.lapses >= kLeechLapses && rating == Rating::again)
      s.out << leech_note(s, *q, reviewed.card.lapses);
    if ((reviewed.card.state == CardState::learning ||
         reviewed.card.state == CardState::relearning) &&
        std::find(learning.begin(), learning.end(), q) == learning.end())
      learning.push_back(q);
    if (stop_after) break;
  }
  int total = 0;
  const int correct = score(answers, total);
  store.end_session(id, s.now(), correct, total, std::nullopt, outcome.interrupted);
  if (answers.empty() && !outcome.interrupted) {
    s.out << nothing_answered(s, days, cards, selected, queue.size() + ahead);
    return outcome;
  }
  s.fit_to_terminal();
  s.out << drill_summary(s, answers, outcome, days, cards, selected, reviews);
  if (!options.report_path.empty()) {
    nlohmann::ordered_json report = session_report(s, "drill", answers);
    if (s.asks_confidence) report["cbm"] = cbm_json(summarize_cbm(cbm_answers(answers, false)));
    write(options.report_path, report.dump(2) + "\n");
  }
  return outcome;
}

}  // namespace proofdeck::study
