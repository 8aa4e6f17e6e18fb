// Asking how sure an answer is (study/confidence.hpp).
#include "study/confidence.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ostream>

#include <fmt/format.h>

#include "render/theme.hpp"
#include "study/cbm.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

std::string confidence_name(int level) {
  return level == 1 ? "1 guessing" : level == 2 ? "2 fairly sure" : "3 sure";
}

std::string confidence_help(const Session& s) {
  return text::wrap_block(
      "Marks for how sure you are: at 1 a right answer scores +1 and a wrong one 0; at 2, +2 or "
      "-2; at 3, +3 or -6. So say 3 only when you expect to be right more than 80% of the time, "
      "2 when more than two thirds, and 1 otherwise: honest confidence scores best, and a wrong "
      "answer given at 3 is a misconception worth finding.",
      s.width, "  ", "  ");
}

ConfidenceReply ask_confidence(Session& s, LineReader::Deadline deadline,
                               const std::string& status) {
  // The prompt waits on its line: the short form where the long one would not fit.
  const std::string prefix = status.empty() ? "  " : status + " ";
  const std::string full =
      prefix + "How sure? 1 guessing · 2 fairly sure · 3 sure (? explains the marks) > ";
  const std::string prompt =
      text::display_width(full) <= s.width ? full : prefix + "How sure? 1 · 2 · 3 (?) > ";
  ConfidenceReply reply;
  while (true) {
    std::string line;
    const LineReader::Status read = s.reader.read(line, prompt, deadline, s.reminders);
    if (read != LineReader::Status::line) {
      reply.end = read == LineReader::Status::interrupted ? ConfidenceReply::End::interrupted
                  : read == LineReader::Status::timeout   ? ConfidenceReply::End::timeout
                                                          : ConfidenceReply::End::ended;
      s.out << "\n";
      return reply;
    }
    if (s.echo_input) s.out << text::terminal_safe(line) << "\n";
    const std::string word = folded_word(line);
    // ":q" alone keeps the answer at 1; "3:q" or ":q 3" at the level typed.
    if (const auto quit = word.find(":q"); quit != std::string::npos) {
      const std::string rest = word.substr(0, quit) + word.substr(quit + 2);
      if (rest.empty() || (rest.size() == 1 && rest[0] >= '1' && rest[0] <= '3')) {
        reply.level = rest.empty() ? kLowestConfidence : rest[0] - '0';
        reply.end = ConfidenceReply::End::quit;
        return reply;
      }
    }
    if (word.size() == 1 && word[0] >= '1' && word[0] <= '3') {
      reply.level = word[0] - '0';
      return reply;
    }
    if (word == "?") {
      s.out << confidence_help(s);
      continue;
    }
    s.out << "  "
          << wrap_labelled("?", s.theme.warning,
                           "type 1, 2 or 3 for how sure you are (? explains the marks; :q keeps "
                           "this answer at 1 and stops)",
                           s.width - 2, "    ");
  }
}

ConfidenceReply take_confidence(Session& s, Answered& a, LineReader::Deadline deadline,
                                const std::string& status) {
  if (a.reply.revealed) {
    a.confidence = kLowestConfidence;
    return {};
  }
  const ConfidenceReply reply = ask_confidence(s, deadline, status);
  a.confidence = reply.level;
  return reply;
}

std::vector<CbmAnswer> cbm_answers(const std::vector<Answered>& answers, bool unanswered_count) {
  std::vector<CbmAnswer> out;
  for (const Answered& a : answers) {
    if (a.answered && a.confidence) {
      out.push_back({a.confidence, a.grade.correct});
    } else if (!a.answered && unanswered_count) {
      out.push_back({std::nullopt, false});
    }
  }
  return out;
}

namespace {

// A mark with a real minus sign, as the marks' range is written.
std::string signed_number(double value, int decimals) {
  const std::string digits = fmt::format("{:.{}f}", std::fabs(value), decimals);
  return value < 0 && digits.find_first_not_of("0.") != std::string::npos ? "−" + digits : digits;
}

std::string figures_line(const CbmFigures& f) {
  return fmt::format("average mark {} (from −6 to 3) · accuracy {}% {} bonus {}% = {}%",
                     signed_number(f.average, 2), signed_number(100.0 * f.accuracy, 1),
                     f.bonus < 0 ? "−" : "+", signed_number(100.0 * std::fabs(f.bonus), 1),
                     signed_number(100.0 * f.accuracy_plus_bonus, 1));
}

nlohmann::ordered_json figures_json(const CbmFigures& f) {
  return {{"total", f.total},
          {"average", f.average},
          {"accuracy", f.accuracy},
          {"bonus", f.bonus},
          {"accuracy_plus_bonus", f.accuracy_plus_bonus}};
}

}  // namespace

std::string render_cbm(const Session& s, const CbmSummary& summary) {
  if (std::all_of(summary.levels.begin(), summary.levels.end(),
                  [](const CbmLevel& l) { return l.answers == 0; }))
    return "";
  std::string out = text::wrap_block(
      fmt::format("Confidence: {}{}", figures_line(summary.all),
                  summary.unanswered > 0
                      ? fmt::format(" ({} unanswered, scoring 0)", summary.unanswered)
                      : ""),
      s.width, "  ", "    ");
  if (summary.answered) {
    out += text::wrap_block(fmt::format("For the {} answered: {}", summary.answered->questions,
                                        figures_line(*summary.answered)),
                            s.width, "    ", "      ");
  }
  for (const CbmLevel& l : summary.levels) {
    if (l.answers == 0) continue;
    out +=
        text::wrap_block(fmt::format("At {}: {} of {} right ({}) · {}", confidence_name(l.level),
                                     l.right, l.answers, text::percent(l.accuracy), *l.judgement),
                         s.width, "    ", "      ");
  }
  return out + wrap_styled(s.theme.emphasis, cbm_sentence(summary), s.width, "  ", "  ");
}

nlohmann::ordered_json cbm_json(const CbmSummary& summary) {
  nlohmann::ordered_json json = figures_json(summary.all);
  json["unanswered"] = summary.unanswered;
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (const CbmLevel& l : summary.levels) {
    levels.push_back({{"level", l.level},
                      {"answers", l.answers},
                      {"right", l.right},
                      {"accuracy", l.answers > 0 ? nlohmann::ordered_json(l.accuracy)
                                                 : nlohmann::ordered_json(nullptr)},
                      {"judgement", l.judgement ? nlohmann::ordered_json(*l.judgement)
                                                : nlohmann::ordered_json(nullptr)}});
  }
  json["levels"] = std::move(levels);
  if (summary.answered) {
    nlohmann::ordered_json answered = {{"questions", summary.answered->questions}};
    answered.update(figures_json(*summary.answered));
    json["for_answered"] = std::move(answered);
  } else {
    json["for_answered"] = nullptr;
  }
  return json;
}

}  // namespace proofdeck::study
