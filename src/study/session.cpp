// Asking, feedback, summaries and reports, shared by every study mode.
#include "study/session.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ostream>
#include <set>

#include <fmt/color.h>
#include <fmt/format.h>

#include "bank/formula.hpp"
#include "core/errors.hpp"
#include "render/figure.hpp"
#include "text/escape.hpp"
#include "text/suggest.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

TimePoint Session::now() const {
  return start + std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() -
                                                                  started);
}

void Session::fit_to_terminal() {
  if (measure_width) width = measure_width();
}

std::chrono::steady_clock::time_point Session::steady_now() const {
  return clock ? clock() : std::chrono::steady_clock::now();
}

const bank::Trap* Session::trap(const std::string& id) const {
  for (const bank::Bank& b : banks) {
    for (const bank::Trap& t : b.traps)
      if (t.id == id) return &t;
  }
  return nullptr;
}

const bank::Topic* Session::topic(const std::string& id) const {
  for (const bank::Bank& b : banks) {
    for (const bank::Topic& t : b.topics)
      if (t.id == id) return &t;
  }
  return nullptr;
}

std::string render_question(const Session& session, const Instance& instance,
                            const std::string& header, bool answer_hint) {
  const bank::Question& q = *instance.question;
  std::string text = "\n" + wrap_styled(session.theme.emphasis, header, session.width, "", "  ");
  text += text::wrap_block(text::terminal_safe(instance.prompt), session.width, "  ");
  const std::string hint = [&]() -> std::string {
    switch (q.type) {
      case bank::QuestionType::single:
        return "one letter";
      case bank::QuestionType::multi:
        return "select all that apply: letters, e.g. a,c";
      case bank::QuestionType::truefalse:
        return "t or f";
      case bank::QuestionType::numeric: {
        const bank::NumberExample example = bank::number_example(instance);
        if (!example.decimal.empty()) {
          return fmt::format("a number, as {}, {}, {}, {} or a decimal such as {}", example.plain,
                             example.grouped, example.power, example.scientific, example.decimal);
        }
        return fmt::format("a number, as {}, {}, {} or {}", example.plain, example.grouped,
                           example.power, example.scientific);
      }
      case bank::QuestionType::order:
        return "every letter, in the right order, e.g. c a b";
    }
    return "";
  }();
  for (std::size_t position = 0; position < instance.order.size(); ++position) {
    const std::size_t index = instance.order[position];
    const std::string& item =
        q.type == bank::QuestionType::order ? q.steps[index].text : q.options[index].text;
    text += text::wrap_block(fmt::format("{}) {}", letter(position), text::terminal_safe(item)),
                             session.width, "    ", "       ");
  }
  if (q.type == bank::QuestionType::numeric && !q.key.unit.empty())
    text += fmt::format("  (in {})\n", text::terminal_safe(q.key.unit));
  if (answer_hint) {
    text += wrap_styled(session.theme.dim, fmt::format("[{}; ? for help]", hint), session.width,
                        "  ", "   ");
  }
  return text;
}

std::string render_help(const Instance& instance, bool exam) {
  const bank::Question& q = *instance.question;
  std::string text = "  Answer: ";
  switch (q.type) {
    case bank::QuestionType::single:
      text += "the letter of one option (b).\n";
      break;
    case bank::QuestionType::multi:
      text += "every right option's letter, separated by commas or spaces (a,c or a c).\n";
      break;
    case bank::QuestionType::truefalse:
      text += "t or f (true/false, y/n).\n";
      break;
    case bank::QuestionType::numeric: {
      const bank::NumberExample example = bank::number_example(instance);
      text += fmt::format(
          "a number, as {}, {}, {}, {}, {} or {}{}.\n", example.plain, example.grouped,
          example.underscored, example.power, example.scientific, example.product,
          example.decimal.empty() ? "" : fmt::format(", or a decimal such as {}", example.decimal));
    } break;
    case bank::QuestionType::order:
      text += "all the letters in the right order (c a b d).\n";
      break;
  }
  if (exam) {
    text +=
        "  Commands (whole words, never an answer): flag marks this question for review · next "
        "and back move without answering · goto N opens question N · review lists every "
        "question with its state · time shows the time left · submit ends the exam (it asks "
        "first, counting the unanswered).\n  Any question can be answered again until you "
        "submit.\n";
    return text;
  }
  text +=
      "  Commands: :s skip · :d the demo behind the question (opening it before you answer "
      "makes the answer count as not known) · :q quit (the summary follows); the words skip, "
      "demo and quit work too. A letter on its own is always an answer.\n";
  return text;
}

std::string render_proof(Session& session, const Instance& instance) {
  const bank::Question& q = *instance.question;
  if (!q.proof) {
    return q.unprovable.empty() ? "  This question has no demo.\n"
                                : text::wrap_block("No demo bears on this question: " +
                                                       text::terminal_safe(q.unprovable),
                                                   session.width, "  ", "    ");
  }
  const demo::DemoInfo* info = demo::find_demo(q.proof->demo);
  try {
    const demo::DemoResult& result =
        session.runner.run(*q.proof, instance.bindings, q.file + ": " + q.proof->pointer);
    // The values the proof rests on, one a line in words: "Head dimension, 12 heads: 64".
    std::string values;
    for (const std::string& shown : q.proof->show) {
      const std::string name = bank::substitute(shown, instance.bindings);
      if (const demo::Value* v = result.find(name)) {
        // The label wraps before its number, never between them.
        const std::string number = bank::measured_text(*v);
        const int room =
            std::min(session.width, text::kProseWidth) - 6 - 1 - text::display_width(number);
        const std::vector<std::string> label =
            text::wrap(text::terminal_safe(v->label) + ":", std::max(room, 10));
        for (std::size_t i = 0; i < label.size(); ++i)
          values += (i == 0 ? "    " : "      ") + label[i] +
                    (i + 1 == label.size() ? " " + number : "") + "\n";
      }
    }
    const std::string_view kind = bank::proof_heading(q, result, instance.bindings);
    const std::string heading = info != nullptr
                                    ? fmt::format("{} — {}: {}", kind, q.proof->demo, info->title)
                                    : fmt::format("{} — {}", kind, q.proof->demo);
    std::string text = fmt::format(session.theme.emphasis, "{}",
                                   text::wrap_block(heading, session.width, "  ", "    "));
    text += values;
    if (info != nullptr) {
      render::TextOptions options;
      options.form = render::TextForm::proof;  // the heading above names it; values in words
      options.width = std::max(20, session.width - 4);
      options.program = session.program;
      std::string drawn = render::render_text(result, *info, session.theme, options);
      std::string indented;
      std::size_t at = 0;
      while (at < drawn.size()) {
        const std::size_t end = drawn.find('\n', at);
        const std::string_view drawn_line(drawn.data() + at,
                                          (end == std::string::npos ? drawn.size() : end) - at);
        indented += "    " + std::string(drawn_line) + "\n";
        if (end == std::string::npos) break;
        at = end + 1;
      }
      text += indented;
    }
    return text;
  } catch (const std::exception& e) {
    return fmt::format("  The demo could not run: {}\n", text::terminal_safe(e.what()));
  }
}

namespace {

// "a and c" / "a, b and d": shown letters in a sentence.
std::string letters_in_words(const std::vector<std::string>& letters) {
  std::string words;
  for (std::size_t i = 0; i < letters.size(); ++i) {
    words += (i == 0 ? "" : i + 1 == letters.size() ? " and " : ", ") + letters[i];
  }
  return words;
}

}  // namespace

std::string selection_verdict(const Grade& grade, bank::QuestionType type) {
  if (type == bank::QuestionType::single && grade.wrong_chosen.size() == 1 &&
      grade.missed.size() == 1)
    return fmt::format("You chose {}; the answer is {}.", grade.wrong_chosen[0], grade.missed[0]);
  const std::size_t wrong = grade.wrong_chosen.size();
  const std::string chosen =
      wrong == 0 ? ""
                 : fmt::format("You chose {}, which {} not right",
                               letters_in_words(grade.wrong_chosen), wrong == 1 ? "is" : "are");
  if (grade.missed.empty()) return chosen.empty() ? "" : chosen + ".";
  const std::string missed = letters_in_words(grade.missed);
  return chosen.empty() ? "You missed " + missed + "." : chosen + ", and missed " + missed + ".";
}

std::string render_feedback(Session& session, const Answered& a, bool show_demo) {
  const bank::Question& q = *a.question;
  const Theme& theme = session.theme;
  std::string text;
  if (!a.answered) {
    const std::string plain =
        text::wrap_block("– Not answered. The answer: " + text::terminal_safe(a.grade.expected),
                         session.width, "", "  ");
    text += fmt::format(theme.warning, "– Not answered.") +
            plain.substr(std::strlen("– Not answered."));
  } else if (a.grade.correct) {
    text += fmt::format(theme.good, "✓ Right.") + "\n";
  } else if (a.grade.revealed_right) {
    const std::string plain = text::wrap_block(
        "– Right, after opening the proof: counted as not known (answer before you look to "
        "earn it).",
        session.width, "", "  ");
    text += fmt::format(theme.warning, "– Right,") + plain.substr(std::strlen("– Right,"));
  } else {
    const std::string plain = text::wrap_block(
        "✗ Wrong. The answer: " + text::terminal_safe(a.grade.expected), session.width, "", "  ");
    text += fmt::format(theme.bad, "✗ Wrong.") + plain.substr(std::strlen("✗ Wrong."));
    if (const std::string verdict = selection_verdict(a.grade, q.type); !verdict.empty())
      text += text::wrap_block(verdict, session.width, "  ", "  ");
  }
  if (!a.grade.correct && !a.grade.trap.empty()) {
    if (const bank::Trap* trap = session.trap(a.grade.trap)) {
      text += wrap_styled(theme.warning, "Trap: " + text::terminal_safe(trap->name), session.width,
                          "  ", "    ");
      text += text::wrap_block(text::terminal_safe(trap->correction), session.width, "    ");
    }
  }
  text += text::wrap_block(
      "Why: " + text::terminal_safe(bank::explanation_text(a.instance, session.runner)),
      session.width, "  ");
  const std::string source = bank::source_line(q.source, "“", "”");
  text +=
      fmt::format(theme.dim, "{}",
                  text::wrap_block("Source: " + text::terminal_safe(source), session.width, "  "));
  if (q.templ && q.templ->answer) {
    try {
      text += text::wrap_block("Worked: " + q.templ->answer->worked(a.instance.bindings),
                               session.width, "  ");
    } catch (const std::exception&) {
    }
  }
  // A proof opened with :d before answering is on the screen already: not drawn again.
  if (show_demo && q.proof && !a.reply.revealed) text += render_proof(session, a.instance);
  if (show_demo && q.proof && a.reply.revealed)
    text += fmt::format(
        theme.dim, "{}",
        text::wrap_block("The proof: above, opened before the answer.", session.width, "  "));
  return text;
}

AskResult ask(Session& session, const Instance& instance, Reply& reply, bool exam,
              LineReader::Deadline deadline, const std::string& status) {
  std::string line;
  bool revealed = false;
  for (;;) {
    switch (session.reader.read(line, (status.empty() ? "" : status + " ") + "> ", deadline,
                                session.reminders)) {
      case LineReader::Status::end:
        session.out << "\n";
        return AskResult::ended;
      case LineReader::Status::interrupted:
        session.out << "\n";
        return AskResult::interrupted;
      case LineReader::Status::timeout:
        session.out << "\n";
        return AskResult::timeout;
      case LineReader::Status::line:
        if (session.echo_input) session.out << text::terminal_safe(line) << "\n";
        break;
    }
    reply = parse_reply(instance, line, exam);
    switch (reply.kind) {
      case Reply::Kind::answer:
        reply.revealed = revealed;
        return AskResult::answered;
      case Reply::Kind::skip:
        return AskResult::skipped;
      case Reply::Kind::quit:
        return AskResult::quit;
      case Reply::Kind::flag:
      case Reply::Kind::back:
      case Reply::Kind::next:
      case Reply::Kind::go:
      case Reply::Kind::review:
      case Reply::Kind::submit:
      case Reply::Kind::time:
        return AskResult::command;
      case Reply::Kind::help:
        session.out << text::wrap_block(render_help(instance, exam), session.width, "  ");
        break;
      case Reply::Kind::demo:
        if (exam) {
          session.out << text::wrap_block("The demos are shown with the results, after the exam.",
                                          session.width, "  ");
          break;
        }
        session.out << render_proof(session, instance);
        if (!revealed) {
          revealed = true;
          session.out << text::wrap_block(
              "You opened the proof before answering: this answer will count as not known.",
              session.width, "  ");
        }
        break;
      case Reply::Kind::unclear:
        session.out << "  "
                    << wrap_labelled("?", session.theme.warning, reply.hint, session.width - 2,
                                     "    ");
        break;
    }
  }
}

std::string format_duration(std::chrono::milliseconds duration) {
  const auto seconds = duration.count() / 1000;
  if (seconds < 60) return fmt::format("{} s", seconds);
  if (seconds < 3600) return fmt::format("{} min {} s", seconds / 60, seconds % 60);
  return fmt::format("{} h {} min", seconds / 3600, (seconds % 3600) / 60);
}

namespace {

struct Tally {
  int correct = 0;
  int total = 0;
};

}  // namespace

namespace {

// A quiz's skipped questions with their answers, after the session: "[3] Where does … → c) It
// is added …". Empty when none was skipped.
std::string render_skipped(const Session& session, const std::vector<Answered>& answers) {
  std::string text;
  for (std::size_t i = 0; i < answers.size(); ++i) {
    const Answered& a = answers[i];
    if (a.answered) continue;
    if (text.empty())
      text = fmt::format(session.theme.warning, "  Skipped, with the answers:") + "\n";
    text += text::wrap_block(fmt::format("[{}] {}", i + 1, text::terminal_safe(a.instance.prompt)),
                             session.width, "    ", "      ");
    text += text::wrap_block("→ " + text::terminal_safe(grade(a.instance, Reply{}).expected),
                             session.width, "      ", "        ");
  }
  return text;
}

}  // namespace

std::string render_score(const Session& session, const std::vector<Answered>& answers,
                         bool unanswered_wrong, std::chrono::milliseconds elapsed) {
  int correct = 0, answered = 0, skipped = 0;
  for (const Answered& a : answers) {
    if (!a.answered) {
      ++skipped;
      continue;
    }
    ++answered;
    correct += a.grade.correct;
  }
  const int out_of = unanswered_wrong ? answered + skipped : answered;
  const int percent = out_of == 0 ? 0 : (100 * correct + out_of / 2) / out_of;
  // An exam counts what was left unanswered as wrong; a quiz scores the answers given and says
  // how many of the questions those were.
  const std::string left = skipped == 0       ? std::string()
                           : unanswered_wrong ? fmt::format(", {} unanswered", skipped)
                                              : fmt::format(" · {} of {} answered, {} skipped",
                                                            answered, answered + skipped, skipped);
  return "  " + wrap_labelled("Score:", session.theme.emphasis,
                              fmt::format("{} of {} right ({}%){} · {}", correct, out_of, percent,
                                          left, format_duration(elapsed)),
                              session.width - 2, "    ");
}

std::string render_summary(const Session& session, const std::vector<Answered>& answers,
                           const std::string& title, bool unanswered_wrong,
                           std::optional<std::chrono::milliseconds> elapsed_given) {
  const Theme& theme = session.theme;
  int answered = 0, skipped = 0;
  std::vector<std::pair<std::string, Tally>> topics;
  std::vector<std::pair<std::string, int>> traps;
  for (const Answered& a : answers) {
    if (!a.answered) ++skipped;
    if (!a.answered && !unanswered_wrong) continue;
    auto topic = std::find_if(topics.begin(), topics.end(),
                              [&](const auto& t) { return t.first == a.question->topic; });
    if (topic == topics.end()) topic = topics.insert(topics.end(), {a.question->topic, {}});
    ++topic->second.total;
    if (!a.answered) continue;
    ++answered;
    topic->second.correct += a.grade.correct;
    if (!a.grade.correct && !a.grade.trap.empty()) {
      auto trap = std::find_if(traps.begin(), traps.end(),
                               [&](const auto& t) { return t.first == a.grade.trap; });
      if (trap == traps.end()) trap = traps.insert(traps.end(), {a.grade.trap, 0});
      ++trap->second;
    }
  }
  const auto elapsed = elapsed_given.value_or(std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - session.started));
  std::string text = "\n" + fmt::format(theme.emphasis, "{}", title) + "\n";
  const int out_of = unanswered_wrong ? answered + skipped : answered;
  if (out_of == 0) {
    text += fmt::format("  No question answered{} · {}\n",
                        skipped > 0 ? fmt::format(" ({} skipped)", skipped) : "",
                        format_duration(elapsed));
    return text + (unanswered_wrong ? "" : render_skipped(session, answers));
  }
  text += render_score(session, answers, unanswered_wrong, elapsed);
  if (!topics.empty() && unanswered_wrong) {
    // An exam's topics as a table: the name, then right/asked, the numbers lined up.
    std::vector<std::string> names, numbers;
    for (const auto& [id, tally] : topics) {
      const bank::Topic* topic = session.topic(id);
      names.push_back(topic != nullptr ? text::terminal_safe(topic->name) : id);
      numbers.push_back(fmt::format("{}/{}", tally.correct, tally.total));
    }
    const int numbers_width = text::widest(numbers);
    const int room = session.width - 4 - 2 - numbers_width;
    const int name_width = std::min(room, text::widest(names));
    text += "  " + fmt::format(theme.emphasis, "By topic") + " (right/asked)\n";
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (room >= 16) {
        text += "    " + text::fit(names[i], name_width) + "  " +
                text::pad_left(numbers[i], numbers_width) + "\n";
      } else {
        text += text::wrap_block(names[i] + " " + numbers[i], session.width, "    ", "      ");
      }
    }
  } else if (!topics.empty()) {
    std::string line;
    for (const auto& [id, tally] : topics) {
      const bank::Topic* topic = session.topic(id);
      line += fmt::format("{}{} {}/{}", line.empty() ? "" : " · ",
                          topic != nullptr ? text::terminal_safe(topic->name) : id, tally.correct,
                          tally.total);
    }
    text += text::wrap_block("By topic: " + line, session.width, "  ");
  }
  if (traps.empty()) {
    text += answered > 0 ? "  Traps you fell into: none\n" : "";
  } else {
    std::stable_sort(traps.begin(), traps.end(),
                     [](const auto& x, const auto& y) { return x.second > y.second; });
    text += fmt::format(theme.warning, "  Traps you fell into:") + "\n";
    for (const auto& [id, count] : traps) {
      const bank::Trap* trap = session.trap(id);
      text += text::wrap_block(
          fmt::format("{} ×{}", trap != nullptr ? text::terminal_safe(trap->name) : id, count),
          session.width, "    ", "      ");
    }
  }
  return text + (unanswered_wrong ? "" : render_skipped(session, answers));
}

nlohmann::ordered_json session_report(const Session& session, const std::string& mode,
                                      const std::vector<Answered>& answers) {
  nlohmann::ordered_json questions = nlohmann::ordered_json::array();
  int correct = 0, total = 0, skipped = 0;
  nlohmann::ordered_json topics = nlohmann::ordered_json::object();
  nlohmann::ordered_json traps = nlohmann::ordered_json::object();
  for (const Answered& a : answers) {
    nlohmann::ordered_json entry;
    entry["id"] = a.question->id;
    entry["bank"] = a.question->bank;
    entry["topic"] = a.question->topic;
    if (!a.instance.bindings.empty()) entry["params"] = a.instance.bindings;
    entry["answer"] = a.answered ? nlohmann::ordered_json(a.reply.shown) : nullptr;
    // The answer in the bank's own option and step ids, whatever letters the form showed: what
    // item analysis compares across learners whose forms were shuffled differently.
    entry["answer_ids"] = a.answered ? nlohmann::ordered_json(a.reply.text) : nullptr;
    entry["correct"] = a.answered && a.grade.correct;
    entry["trap"] = a.grade.trap.empty() || !a.answered ? nlohmann::ordered_json(nullptr)
                                                        : nlohmann::ordered_json(a.grade.trap);
    entry["time_ms"] = a.time_ms;
    entry["skipped"] = !a.answered;
    if (a.answered && a.reply.revealed) entry["revealed"] = true;
    if (mode == "drill") entry["rated"] = a.answered && a.rated;
    if (a.confidence) entry["confidence"] = *a.confidence;
    questions.push_back(std::move(entry));
    if (!a.answered) {
      ++skipped;
      continue;
    }
    ++total;
    correct += a.grade.correct;
    auto& topic = topics[a.question->topic];
    if (topic.is_null()) topic = {{"correct", 0}, {"total", 0}};
    topic["correct"] = topic["correct"].get<int>() + (a.grade.correct ? 1 : 0);
    topic["total"] = topic["total"].get<int>() + 1;
    if (!a.grade.correct && !a.grade.trap.empty()) {
      traps[a.grade.trap] = traps.value(a.grade.trap, 0) + 1;
    }
  }
  nlohmann::ordered_json report;
  report["mode"] = mode;
  report["seed"] = session.seed;
  report["started"] = format_time(session.start);
  report["duration_s"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - session.started).count();
  report["score"] = {{"correct", correct}, {"total", total}};
  report["skipped"] = skipped;
  report["questions"] = std::move(questions);
  report["topics"] = std::move(topics);
  report["traps"] = std::move(traps);
  // Each bank a question came from, with the revision it was asked at: answers to two revisions
  // of a bank are not one item's answers.
  nlohmann::ordered_json banks = nlohmann::ordered_json::object();
  for (const Answered& a : answers) {
    if (banks.contains(a.question->bank)) continue;
    const auto bank = std::find_if(session.banks.begin(), session.banks.end(),
                                   [&](const bank::Bank& b) { return b.id == a.question->bank; });
    banks[a.question->bank] = bank != session.banks.end() && !bank->revised.empty()
                                  ? nlohmann::ordered_json(bank->revised)
                                  : nlohmann::ordered_json(nullptr);
  }
  report["banks"] = std::move(banks);
  return report;
}

}  // namespace proofdeck::study
