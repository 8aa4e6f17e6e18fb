// quiz, exam and drill.
#include "study/modes.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <ostream>
#include <set>

#include <fmt/color.h>
#include <fmt/format.h>

#include "core/errors.hpp"
#include "text/escape.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

namespace {

template <typename T>
void shuffle(std::vector<T>& items, engine::Rng& rng) {
  for (std::size_t i = items.size(); i > 1; --i) {
    const auto j =
        std::min(i - 1, static_cast<std::size_t>(rng.uniform() * static_cast<double>(i)));
    std::swap(items[i - 1], items[j]);
  }
}

std::string header_for(const Session& session, const bank::Question& q, std::size_t position,
                       std::size_t total) {
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

std::string settings_json(const Filters& filters, std::uint64_t seed,
                          nlohmann::ordered_json extra = nlohmann::ordered_json::object()) {
  extra["seed"] = seed;
  extra["topics"] = filters.topics;
  extra["traps"] = filters.traps;
  extra["banks"] = filters.banks;
  extra["types"] = filters.types;
  extra["questions"] = filters.questions;
  return extra.dump();
}

}  // namespace

// --- quiz ---------------------------------------------------------------------------------------

Outcome run_quiz(Session& s, ProgressStore& store, const QuizOptions& options,
                 const ReportWriter& write) {
  std::vector<const bank::Question*> selected = select_questions(s.banks, options.filters);
  engine::Rng rng(s.seed);
  shuffle(selected, rng);
  if (options.count && static_cast<std::size_t>(*options.count) < selected.size())
    selected.resize(static_cast<std::size_t>(*options.count));
  const std::int64_t id =
      store.begin_session("quiz", s.now(), settings_json(options.filters, s.seed));
  s.out << wrap_labelled("proofdeck quiz", s.theme.emphasis,
                         fmt::format("· {} question{} · seed {} · ? for help, q to stop",
                                     selected.size(), selected.size() == 1 ? "" : "s", s.seed),
                         s.width);
  std::vector<Answered> answers;
  Outcome outcome;
  for (std::size_t i = 0; i < selected.size(); ++i) {
    Answered a;
    a.question = selected[i];
    a.instance = instantiate(*a.question, rng);
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
  if (!options.report_path.empty()) {
    write(options.report_path, session_report(s, "quiz", answers).dump(2) + "\n");
  }
  return outcome;
}

// --- exam ---------------------------------------------------------------------------------------

namespace {

// n questions drawn across topics in proportion to how many each topic has (largest remainder).
std::vector<const bank::Question*> draw_exam(std::vector<const bank::Question*> pool, std::size_t n,
                                             engine::Rng& rng) {
  std::vector<std::string> topics;
  std::map<std::string, std::vector<const bank::Question*>> by_topic;
  for (const bank::Question* q : pool) {
    if (!by_topic.contains(q->topic)) topics.push_back(q->topic);
    by_topic[q->topic].push_back(q);
  }
  n = std::min(n, pool.size());
  std::vector<std::size_t> quota(topics.size());
  std::vector<std::pair<double, std::size_t>> remainders;
  std::size_t given = 0;
  for (std::size_t t = 0; t < topics.size(); ++t) {
    const double exact = static_cast<double>(n) * static_cast<double>(by_topic[topics[t]].size()) /
                         static_cast<double>(pool.size());
    quota[t] = static_cast<std::size_t>(std::floor(exact));
    given += quota[t];
    remainders.emplace_back(exact - std::floor(exact), t);
  }
  std::stable_sort(remainders.begin(), remainders.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t k = 0; given < n && k < remainders.size(); ++k, ++given)
    ++quota[remainders[k].second];
  std::vector<const bank::Question*> drawn;
  for (std::size_t t = 0; t < topics.size(); ++t) {
    std::vector<const bank::Question*>& questions = by_topic[topics[t]];
    shuffle(questions, rng);
    drawn.insert(drawn.end(), questions.begin(),
                 questions.begin() + static_cast<std::ptrdiff_t>(quota[t]));
  }
  shuffle(drawn, rng);
  return drawn;
}

std::string clock_text(std::chrono::steady_clock::duration left) {
  const auto seconds =
      std::max<long long>(0, std::chrono::duration_cast<std::chrono::seconds>(left).count());
  return fmt::format("{}:{:02} left", seconds / 60, seconds % 60);
}

}  // namespace

Outcome run_exam(Session& s, ProgressStore& store, const ExamOptions& options,
                 const ReportWriter& write) {
  engine::Rng rng(s.seed);
  const std::vector<const bank::Question*> drawn = draw_exam(
      select_questions(s.banks, options.filters), static_cast<std::size_t>(options.count), rng);
  std::vector<Answered> answers(drawn.size());
  for (std::size_t i = 0; i < drawn.size(); ++i) {
    answers[i].question = drawn[i];
    answers[i].instance = instantiate(*drawn[i], rng);
  }
  const auto deadline =
      s.started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double, std::ratio<60>>(options.minutes));
  const std::int64_t id = store.begin_session(
      "exam", s.now(),
      settings_json(
          options.filters, s.seed,
          {{"count", drawn.size()}, {"minutes", options.minutes}, {"pass", options.pass}}));
  s.out << wrap_labelled(
               "proofdeck exam", s.theme.emphasis,
               fmt::format("· {} questions · {} minutes · pass at {}%", drawn.size(),
                           bank::format_number(options.minutes), bank::format_number(options.pass)),
               s.width)
        << text::wrap_block(
               "No feedback until the end. f flags a question for review, s skips it, q submits.",
               s.width, "  ");
  std::vector<bool> flagged(drawn.size(), false);
  Outcome outcome;
  bool timed_out = false, stop = false;
  const auto status = [&]() {
    std::size_t done = 0, marks = 0;
    for (std::size_t i = 0; i < answers.size(); ++i) {
      done += answers[i].answered;
      marks += flagged[i];
    }
    return fmt::format("[{} · {}/{} answered{}]",
                       clock_text(deadline - std::chrono::steady_clock::now()), done,
                       answers.size(), marks > 0 ? fmt::format(" · {} flagged", marks) : "");
  };
  // One visit to question i; returns false when the exam must end now.
  const auto visit = [&](std::size_t i, bool reviewing) {
    Answered& a = answers[i];
    std::string header = header_for(s, *a.question, i + 1, answers.size());
    if (flagged[i]) header += " · flagged";
    s.out << render_question(s, a.instance, header);
    if (reviewing) {
      s.out << text::wrap_block(
          fmt::format("Your answer: {} (Enter or s keeps it)",
                      a.answered ? text::terminal_safe(a.reply.shown) : "none"),
          s.width, "  ", "    ");
    }
    for (;;) {
      Reply reply;
      const auto asked = std::chrono::steady_clock::now();
      const AskResult result = ask(s, a.instance, reply, true, deadline, status(), reviewing);
      a.time_ms += elapsed_ms(asked);
      switch (result) {
        case AskResult::answered:
          a.answered = true;
          a.reply = reply;
          a.grade = grade(a.instance, reply);
          return true;
        case AskResult::flagged:
          flagged[i] = !flagged[i];
          s.out << text::wrap_block(
              flagged[i] ? "Flagged for review: answer now, or s to move on." : "Flag removed.",
              s.width, "  ");
          continue;
        case AskResult::skipped:
          return true;
        case AskResult::quit:
        case AskResult::ended:
          stop = true;
          return false;
        case AskResult::interrupted:
          outcome.interrupted = true;
          stop = true;
          return false;
        case AskResult::timeout:
          timed_out = true;
          stop = true;
          return false;
      }
    }
  };
  for (std::size_t i = 0; i < answers.size() && !stop; ++i)
    visit(i, false);
  if (!stop) {
    std::vector<std::size_t> review;
    for (std::size_t i = 0; i < answers.size(); ++i) {
      if (flagged[i] || !answers[i].answered) review.push_back(i);
    }
    if (!review.empty()) {
      s.out << "\n"
            << wrap_labelled("Review pass:", s.theme.emphasis,
                             fmt::format("{} flagged or unanswered. Change an answer, or Enter to "
                                         "keep it; q submits.",
                                         review.size()),
                             s.width);
      for (const std::size_t i : review) {
        if (!visit(i, true)) break;
      }
    }
  }
  if (timed_out)
    s.out << wrap_labelled("Time is up:", s.theme.warning, "submitting what was answered.",
                           s.width);
  for (Answered& a : answers) {
    if (a.answered) store.record(record_of(s, a, "exam", id), std::nullopt);
  }
  int answered_total = 0;
  const int correct = score(answers, answered_total);
  const double percent =
      answers.empty() ? 0.0 : 100.0 * correct / static_cast<double>(answers.size());
  const bool passed = percent + 1e-9 >= options.pass;
  store.end_session(id, s.now(), correct, static_cast<int>(answers.size()), passed,
                    outcome.interrupted);
  s.out << render_summary(s, answers, outcome.interrupted ? "Exam interrupted" : "Exam submitted",
                          true);
  // The verdict is styled after wrapping: "PASS"/"FAIL" is a word of its own.
  std::string result = text::wrap_block(
      fmt::format("Result: {} of {} = {:.0f}% → {} (pass mark {}%)", correct, answers.size(),
                  percent, passed ? "PASS" : "FAIL", bank::format_number(options.pass)),
      s.width, "  ", "    ");
  const std::size_t verdict = result.find(passed ? "PASS" : "FAIL");
  result.replace(verdict, 4,
                 passed ? fmt::format(s.theme.good, "PASS") : fmt::format(s.theme.bad, "FAIL"));
  s.out << result;
  bool first = true;
  for (const Answered& a : answers) {
    if (a.answered && a.grade.correct) continue;
    if (first) s.out << "\n" << fmt::format(s.theme.emphasis, "Questions to review") << "\n";
    first = false;
    s.out << render_question(s, a.instance, a.question->id, false);
    if (a.answered) {
      s.out << text::wrap_block("Your answer: " + text::terminal_safe(a.reply.shown), s.width, "  ",
                                "    ");
      s.out << render_feedback(s, a, false);
    } else {
      Answered unanswered = a;
      unanswered.grade = grade(a.instance, Reply{});
      unanswered.grade.correct = false;
      unanswered.grade.trap.clear();
      s.out << render_feedback(s, unanswered, false);
    }
  }
  if (!options.report_path.empty()) {
    nlohmann::ordered_json report = session_report(s, "exam", answers);
    report["score"]["total"] = answers.size();
    report["pass_percent"] = options.pass;
    report["percent"] = percent;
    report["passed"] = passed;
    report["timed_out"] = timed_out;
    write(options.report_path, report.dump(2) + "\n");
  }
  return outcome;
}

// --- drill --------------------------------------------------------------------------------------

namespace {

std::string when(TimePoint now, TimePoint due) {
  const auto seconds = (due - now).count();
  if (seconds < 60) return "now";
  if (seconds < 3600) return fmt::format("in {} min", (seconds + 30) / 60);
  if (seconds < 86400) return fmt::format("in {} h", (seconds + 1800) / 3600);
  const auto days = (seconds + 43200) / 86400;
  return fmt::format("in {} day{} ({})", days, days == 1 ? "" : "s",
                     format_time(due).substr(0, 10));
}

TimePoint day_start(TimePoint t) {
  return std::chrono::floor<std::chrono::days>(t);
}

}  // namespace

Outcome run_drill(Session& s, ProgressStore& store, const DrillOptions& options) {
  SchedulerOptions scheduler_options;
  scheduler_options.desired_retention = options.retention;
  scheduler_options.fuzz = options.fuzz;
  const Scheduler scheduler(scheduler_options);
  const std::vector<const bank::Question*> selected = select_questions(s.banks, options.filters);
  std::map<std::string, Card> cards = store.cards();
  const TimePoint now = s.now();

  // New cards introduced today (their first drill review is today) count against --new.
  std::map<std::string, TimePoint> first_drill;
  for (const ReviewRow& r : store.reviews()) {
    if (r.mode == "drill" && !first_drill.contains(r.card)) first_drill[r.card] = r.at;
  }
  int new_today = 0;
  for (const auto& [card, at] : first_drill)
    new_today += at >= day_start(now);

  std::vector<const bank::Question*> due, fresh;
  for (const bank::Question* q : selected) {
    const auto it = cards.find(q->id);
    if (it == cards.end() || it->second.state == CardState::fresh) {
      fresh.push_back(q);
    } else if (it->second.due && *it->second.due <= now) {
      due.push_back(q);
    }
  }
  std::stable_sort(due.begin(), due.end(), [&](const bank::Question* a, const bank::Question* b) {
    return *cards[a->id].due < *cards[b->id].due;
  });
  const auto quota = static_cast<std::size_t>(std::max(0, options.new_per_day - new_today));
  if (fresh.size() > quota) fresh.resize(quota);
  std::vector<const bank::Question*> queue = due;
  queue.insert(queue.end(), fresh.begin(), fresh.end());

  s.out << wrap_labelled("proofdeck drill", s.theme.emphasis,
                         fmt::format("· {} due · {} new ({} of {} new cards introduced today) · ? "
                                     "for help, q to stop",
                                     due.size(), fresh.size(), new_today, options.new_per_day),
                         s.width);
  const std::int64_t id = store.begin_session("drill", now,
                                              settings_json(options.filters, s.seed,
                                                            {{"new", options.new_per_day},
                                                             {"limit", options.limit},
                                                             {"retention", options.retention},
                                                             {"fuzz", options.fuzz}}));
  engine::Rng rng(s.seed);
  const std::function<double()> uniform = [&rng]() { return rng.uniform(); };
  std::vector<Answered> answers;
  std::vector<const bank::Question*> learning;  // (re)learning cards seen this session
  Outcome outcome;
  std::size_t next = 0;
  int reviews = 0;
  const auto learn_ahead = std::chrono::minutes(20);
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
            card.due && *card.due <= s.now() + learn_ahead &&
            (soonest == learning.end() || *card.due < *cards[(*soonest)->id].due))
          soonest = it;
      }
      if (soonest == learning.end()) break;
      q = *soonest;
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
      continue;
    }
    if (result != AskResult::answered) {
      outcome.interrupted = result == AskResult::interrupted;
      break;
    }
    a.answered = true;
    a.grade = grade(a.instance, a.reply);
    s.out << render_feedback(s, a, true);
    Rating rating = Rating::again;
    bool stop_after = false;
    if (a.grade.correct) {
      rating = Rating::good;
      while (!options.auto_rate) {
        // The prompt waits on its line: the short form where the long one would not fit.
        std::string line;
        const LineReader::Status read =
            s.reader.read(line, s.width >= 52 ? "  How was it? h hard · g good (Enter) · e easy > "
                                              : "  h hard · g good · e easy > ");
        if (read == LineReader::Status::interrupted) {
          outcome.interrupted = stop_after = true;
          s.out << "\n";
          break;
        }
        if (read != LineReader::Status::line) {
          stop_after = true;
          s.out << "\n";
          break;
        }
        if (s.echo_input) s.out << text::terminal_safe(line) << "\n";
        std::string word;
        for (const char c : line)
          if (!std::isspace(static_cast<unsigned char>(c)))
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (word.empty() || word == "g" || word == "good") break;
        if (word == "q" || word == "quit") {  // the answer still counts, as good
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
    const TimePoint at = s.now();
    const ReviewOutcome reviewed =
        scheduler.review(card, rating, at, options.fuzz ? uniform : std::function<double()>{});
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
                                     when(at, *reviewed.card.due)),
                         s.width, "  ", "    ");
    if (reviewed.card.lapses >= kLeechLapses && rating == Rating::again) {
      s.out << wrap_styled(s.theme.warning,
                           fmt::format("Leech: missed {} times after learning it. Read its "
                                       "explanation and source again, or drill it alone with "
                                       "--question {}",
                                       reviewed.card.lapses, q->id),
                           s.width, "  ", "    ");
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
  if (answers.empty() && !outcome.interrupted) {
    std::optional<TimePoint> soonest;
    for (const bank::Question* q : selected) {
      const auto it = cards.find(q->id);
      if (it != cards.end() && it->second.due && (!soonest || *it->second.due < *soonest))
        soonest = it->second.due;
    }
    s.out << text::wrap_block(
        fmt::format(
            "Nothing to drill now{}. `proofdeck stats` shows the forecast.",
            soonest ? fmt::format(": the next card is due {}", when(s.now(), *soonest)) : ""),
        s.width, "  ", "    ");
    return outcome;
  }
  s.out << render_summary(s, answers, outcome.interrupted ? "Drill interrupted" : "Drill finished");
  int due_left = 0;
  for (const bank::Question* q : selected) {
    const auto it = cards.find(q->id);
    due_left += it != cards.end() && it->second.state != CardState::fresh && it->second.due &&
                *it->second.due <= s.now();
  }
  s.out << text::wrap_block(fmt::format("{} review{} saved · {} card{} due now", total,
                                        total == 1 ? "" : "s", due_left, due_left == 1 ? "" : "s"),
                            s.width, "  ", "    ");
  return outcome;
}

}  // namespace proofdeck::study
