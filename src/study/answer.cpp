// Reading what a learner types against a question as shown, and grading it.
#include "study/answer.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include <fmt/format.h>

#include "bank/numeric_answer.hpp"
#include "bank/precision.hpp"
#include "text/number.hpp"

namespace proofdeck::study {

using bank::Instance;
using bank::letter;
using bank::option_text;

namespace {

std::string lowercase_trimmed(std::string_view line) {
  std::size_t begin = 0, end = line.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(line[begin])))
    ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(line[end - 1])))
    --end;
  std::string text(line.substr(begin, end - begin));
  for (char& c : text)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::size_t choices(const Instance& instance) {
  return instance.order.size();
}

std::string letter_range(std::size_t count) {
  return count == 0 ? std::string() : fmt::format("a–{}", letter(count - 1));
}

// Letters separated by commas, spaces or nothing ("a,c", "a c", "ac", "c) a) b)"); nullopt when
// anything else is in the way. Returns shown positions.
std::optional<std::vector<std::size_t>> read_letters(const std::string& text, std::size_t count) {
  std::vector<std::size_t> positions;
  for (const char c : text) {
    if (c == ',' || c == ' ' || c == ')' || c == '\t' || c == ';') continue;
    if (c < 'a' || c > 'z') return std::nullopt;
    const auto position = static_cast<std::size_t>(c - 'a');
    if (position >= count) return std::nullopt;
    positions.push_back(position);
  }
  return positions;
}

}  // namespace

namespace {

// flag, back, next, goto N, review, submit, time, help — or nothing when the line is not a command.
std::optional<Reply> exam_command(const std::string& text) {
  Reply reply;
  const auto command = [&](Reply::Kind kind) {
    reply.kind = kind;
    return reply;
  };
  if (text == "?" || text == "help") return command(Reply::Kind::help);
  if (text == "flag") return command(Reply::Kind::flag);
  if (text == "back") return command(Reply::Kind::back);
  if (text == "next") return command(Reply::Kind::next);
  if (text == "review") return command(Reply::Kind::review);
  if (text == "submit") return command(Reply::Kind::submit);
  if (text == "time") return command(Reply::Kind::time);
  if (text == "demo") return command(Reply::Kind::demo);
  if (text.starts_with("goto")) {
    const std::string number = lowercase_trimmed(std::string_view(text).substr(4));
    reply.kind = Reply::Kind::go;
    if (number.empty() || number.size() > 6 ||
        number.find_first_not_of("0123456789") != std::string::npos) {
      reply.kind = Reply::Kind::unclear;
      reply.hint = "goto takes a question number: goto 3";
      return reply;
    }
    reply.target = std::stoul(number);
    return reply;
  }
  return std::nullopt;
}

}  // namespace

Reply parse_reply(const Instance& instance, std::string_view line, bool exam) {
  const bank::Question& q = *instance.question;
  const std::string text = lowercase_trimmed(line);
  Reply reply;
  const std::size_t first = line.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos)
    reply.typed = std::string(line.substr(first, line.find_last_not_of(" \t\r\n") - first + 1));
  const auto command = [&](Reply::Kind kind) {
    reply.kind = kind;
    return reply;
  };
  if (exam) {
    // An exam's commands are whole words, so none of them is ever an answer ("f" is false).
    if (std::optional<Reply> exam_reply = exam_command(text)) return *exam_reply;
  } else {
    // Quiz and drill commands have a form no answer can take: a colon and a letter, or a word.
    // A bare letter is never a command, so an option's letter always answers.
    if (text == ":s" || text == "skip") return command(Reply::Kind::skip);
    if (text == ":q" || text == "quit" || text == "exit") return command(Reply::Kind::quit);
    if (text == "?" || text == ":?" || text == "help") return command(Reply::Kind::help);
    if (text == ":d" || text == "demo") return command(Reply::Kind::demo);
    if (text.size() == 2 && text[0] == ':') {
      reply.hint = "the commands are :s (skip), :d (the demo), :q (quit) and ? (help)";
      return reply;
    }
  }
  if (text.empty()) {
    reply.hint = "type your answer (? for help)";
    return reply;
  }
  switch (q.type) {
    case bank::QuestionType::single:
    case bank::QuestionType::multi: {
      const auto positions = read_letters(text, choices(instance));
      if (!positions || positions->empty()) {
        reply.hint = fmt::format("type {} letter from {}",
                                 q.type == bank::QuestionType::single ? "one" : "one or more (a,c)",
                                 letter_range(choices(instance)));
        return reply;
      }
      std::vector<std::size_t> unique = *positions;
      std::sort(unique.begin(), unique.end());
      unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
      if (q.type == bank::QuestionType::single && positions->size() != 1) {
        reply.hint = fmt::format("one letter only: this question has a single answer");
        return reply;
      }
      if (unique.size() != positions->size()) {  // "a,a,c": asked again, as an order is
        reply.hint = "each letter once: one or more (a,c)";
        return reply;
      }
      std::vector<std::string> ids, letters;
      for (const std::size_t position : unique) {
        reply.chosen.push_back(instance.order[position]);
        ids.push_back(q.options[instance.order[position]].id);
        letters.push_back(letter(position));
      }
      reply.shown = fmt::format("{}", fmt::join(letters, ","));
      std::sort(ids.begin(), ids.end());
      reply.text = fmt::format("{}", fmt::join(ids, ","));
      break;
    }
    case bank::QuestionType::truefalse:
      if (text == "t" || text == "true" || text == "y" || text == "yes") {
        reply.truth = true;
      } else if (text == "f" || text == "false" || text == "n" || text == "no") {
        reply.truth = false;
      } else {
        reply.hint = "type t (true) or f (false)";
        return reply;
      }
      reply.text = reply.truth ? "true" : "false";
      break;
    case bank::QuestionType::numeric: {
      const auto parsed = bank::parse_numeric_answer(text);
      if (const auto* error = std::get_if<bank::NumericAnswerError>(&parsed)) {
        reply.hint = bank::numeric_answer_hint(*error, bank::number_example(instance));
        return reply;
      }
      reply.number = std::get<bank::NumericAnswer>(parsed).value;
      reply.text = fmt::format("{}", reply.number);
      break;
    }
    case bank::QuestionType::order: {
      const auto positions = read_letters(text, choices(instance));
      std::vector<std::size_t> sorted = positions.value_or(std::vector<std::size_t>{});
      std::sort(sorted.begin(), sorted.end());
      std::vector<std::size_t> all(choices(instance));
      std::iota(all.begin(), all.end(), std::size_t{0});
      if (!positions || sorted != all) {
        reply.hint = fmt::format(
            "type the letters {} in the right order, each once, "
            "separated by spaces",
            letter_range(choices(instance)));
        return reply;
      }
      std::vector<std::string> ids, letters;
      for (const std::size_t position : *positions) {
        reply.chosen.push_back(instance.order[position]);
        ids.push_back(q.steps[instance.order[position]].id);
        letters.push_back(letter(position));
      }
      reply.shown = fmt::format("{}", fmt::join(letters, " "));
      reply.text = fmt::format("{}", fmt::join(ids, ","));
      break;
    }
  }
  if (reply.shown.empty()) reply.shown = reply.text;
  reply.kind = Reply::Kind::answer;
  return reply;
}

std::string answer_for_people(const Instance& instance, const Reply& reply) {
  if (instance.question->type == bank::QuestionType::numeric)
    return text::format_number(reply.number);
  return reply.shown;
}

Grade grade(const Instance& instance, const Reply& reply) {
  const bank::Question& q = *instance.question;
  Grade result;
  switch (q.type) {
    case bank::QuestionType::single:
    case bank::QuestionType::multi: {
      std::vector<std::string> right;
      for (std::size_t position = 0; position < instance.order.size(); ++position) {
        if (q.options[instance.order[position]].correct)
          right.push_back(option_text(instance, position));
      }
      result.expected = fmt::format("{}", fmt::join(right, "; "));
      std::vector<bool> chosen(q.options.size(), false);
      for (const std::size_t index : reply.chosen)
        chosen[index] = true;
      result.correct = true;
      for (std::size_t i = 0; i < q.options.size(); ++i) {
        if (chosen[i] != q.options[i].correct) result.correct = false;
        if (chosen[i] && !q.options[i].correct && result.trap.empty())
          result.trap = q.options[i].trap;
      }
      // What a partly right selection got wrong, by shown letter: chosen but not right, right
      // but not chosen.
      for (std::size_t position = 0; position < instance.order.size(); ++position) {
        const std::size_t index = instance.order[position];
        if (chosen[index] && !q.options[index].correct)
          result.wrong_chosen.push_back(letter(position));
        if (!chosen[index] && q.options[index].correct) result.missed.push_back(letter(position));
      }
      break;
    }
    case bank::QuestionType::truefalse:
      result.correct = reply.truth == q.answer;
      result.expected = q.answer ? "true" : "false";
      if (!result.correct) result.trap = q.trap;
      break;
    case bank::QuestionType::numeric: {
      result.correct =
          bank::numeric_matches(reply.number, instance.key, q.key.tolerance, q.key.relative);
      result.expected = bank::with_unit(
          bank::key_text(instance.key, instance.prompt, q.key.allowed(instance.key)), instance.key,
          q.key.unit);
      if (!result.correct) {
        for (const bank::Distractor& d : q.distractors) {
          if (bank::numeric_matches(reply.number, d.value(instance.bindings), q.key.tolerance,
                                    q.key.relative)) {
            result.trap = d.trap;
            break;
          }
        }
      }
      break;
    }
    case bank::QuestionType::order: {
      result.correct = reply.chosen.size() == q.steps.size();
      for (std::size_t i = 0; i < reply.chosen.size() && result.correct; ++i)
        result.correct = reply.chosen[i] == i;
      std::vector<std::string> steps;
      for (std::size_t index = 0; index < q.steps.size(); ++index)
        steps.push_back(option_text(instance, instance.position_of(index)));
      result.expected = fmt::format("{}", fmt::join(steps, " → "));
      break;
    }
  }
  if (reply.revealed) {  // seen in the proof, not known: never counted right
    result.revealed_right = result.correct;
    result.correct = false;
  }
  return result;
}

std::string folded_word(std::string_view line) {
  std::string word;
  for (const char c : line)
    if (!std::isspace(static_cast<unsigned char>(c)))
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return word;
}

}  // namespace proofdeck::study
