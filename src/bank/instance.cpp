// A question as one learner sees it: shuffled, lettered, a template's parameters drawn.
#include "bank/instance.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <exception>
#include <numeric>
#include <string_view>

#include <fmt/format.h>

#include "bank/formula.hpp"
#include "bank/numeric_answer.hpp"
#include "bank/template.hpp"

namespace proofdeck::bank {

std::string letter(std::size_t position) {
  return position < 26 ? std::string(1, static_cast<char>('a' + position))
                       : std::to_string(position + 1);
}

Instance instantiate(const Question& question, engine::Rng& rng) {
  Instance instance;
  instance.question = &question;
  const std::size_t items =
      question.type == QuestionType::order ? question.steps.size() : question.options.size();
  instance.order.resize(items);
  std::iota(instance.order.begin(), instance.order.end(), std::size_t{0});
  engine::shuffle(instance.order, rng);
  if (question.type == QuestionType::order && items > 1 &&
      std::is_sorted(instance.order.begin(), instance.order.end())) {
    // Shown in the right order the question answers itself: rotate by one.
    std::rotate(instance.order.begin(), instance.order.begin() + 1, instance.order.end());
  }
  if (question.templ) {
    std::vector<Bindings> admitted;
    for_each_admitted(*question.templ, [&](const Bindings& b) { admitted.push_back(b); });
    if (!admitted.empty()) instance.bindings = admitted[rng.below(admitted.size())];
    instance.key = question.templ->answer->evaluate(instance.bindings);
  } else {
    instance.key = question.key.value.value_or(0.0);
  }
  instance.prompt = substitute(question.prompt, instance.bindings, NumberStyle::grouped);
  instance.explanation = substitute(question.explanation, instance.bindings, NumberStyle::grouped);
  return instance;
}

std::size_t Instance::position_of(std::size_t index) const {
  return static_cast<std::size_t>(std::find(order.begin(), order.end(), index) - order.begin());
}

std::string option_text(const Instance& instance, std::size_t position) {
  const Question& q = *instance.question;
  const std::size_t index = instance.order[position];
  return fmt::format("{}) {}", letter(position),
                     q.type == QuestionType::order ? q.steps[index].text : q.options[index].text);
}

std::string expected_input(const Instance& instance) {
  const Question& q = *instance.question;
  switch (q.type) {
    case QuestionType::single:
    case QuestionType::multi: {
      std::vector<std::string> letters;
      for (std::size_t position = 0; position < instance.order.size(); ++position) {
        if (q.options[instance.order[position]].correct) letters.push_back(letter(position));
      }
      return fmt::format("{}", fmt::join(letters, ","));
    }
    case QuestionType::truefalse:
      return q.answer ? "t" : "f";
    case QuestionType::numeric:
      return fmt::format("{}", instance.key);
    case QuestionType::order: {
      std::vector<std::string> letters;
      for (std::size_t index = 0; index < q.steps.size(); ++index)
        letters.push_back(letter(instance.position_of(index)));
      return fmt::format("{}", fmt::join(letters, " "));
    }
  }
  return "";
}

std::vector<double> distractor_values(const Instance& instance) {
  std::vector<double> values;
  for (const Distractor& d : instance.question->distractors) {
    try {
      values.push_back(d.value(instance.bindings));
    } catch (const std::exception&) {
    }
  }
  return values;
}

namespace {

// FNV-1a over the question's id and its drawn parameters: the same question and draw pick the
// same example every time, another draw usually another.
std::uint64_t draw_hash(const Instance& instance) {
  std::uint64_t hash = 14695981039346656037ull;
  const auto mix = [&](std::string_view bytes) {
    for (const char c : bytes) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 1099511628211ull;
    }
  };
  mix(instance.question->id);
  for (const auto& [name, value] : instance.bindings)
    mix(fmt::format("|{}={}", name, value));
  return hash;
}

}  // namespace

NumberExample number_example(const Instance& instance) {
  const Question& q = *instance.question;
  std::vector<double> answers = distractor_values(instance);
  if (q.type == QuestionType::numeric) answers.push_back(instance.key);
  const auto is_an_answer = [&](double value) {
    return std::any_of(answers.begin(), answers.end(), [&](double answer) {
      return numeric_matches(value, answer, q.key.tolerance, q.key.relative);
    });
  };
  // A key with decimals: a decimal too, the first of a few that is no answer.
  const auto with_decimal = [&](NumberExample example) {
    if (q.type != QuestionType::numeric || std::floor(instance.key) == instance.key) return example;
    for (const char* decimal : {"1.5", "2.5", "3.75", "12.5", "0.25", "7.125"}) {
      if (!is_an_answer(std::stod(decimal))) {
        example.decimal = decimal;
        break;
      }
    }
    return example;
  };
  // 2^10 … 2^30, from a place the draw picks; past them, larger powers (a tolerance so wide that
  // it takes in every one of them is not one a bank would keep).
  constexpr int kFirst = 10, kCount = 21;
  const auto start = static_cast<int>(draw_hash(instance) % kCount);
  for (int i = 0; i < kCount; ++i) {
    const int exponent = kFirst + (start + i) % kCount;
    if (!is_an_answer(std::ldexp(1.0, exponent))) return with_decimal(power_of_two(exponent));
  }
  for (int exponent = kFirst + kCount; exponent < 63; ++exponent) {
    if (!is_an_answer(std::ldexp(1.0, exponent))) return with_decimal(power_of_two(exponent));
  }
  return with_decimal(power_of_two(62));
}

std::vector<std::string> question_traps(const Question& q) {
  std::vector<std::string> traps;
  const auto add = [&](const std::string& trap) {
    if (!trap.empty() && std::find(traps.begin(), traps.end(), trap) == traps.end())
      traps.push_back(trap);
  };
  for (const Option& option : q.options)
    add(option.trap);
  for (const Distractor& d : q.distractors)
    add(d.trap);
  add(q.trap);
  return traps;
}

namespace {

// The words of `text`, lower-cased, each letter or digit kept and every other run of characters
// one space: what "begins with the same words" compares.
std::string comparable(std::string_view text) {
  std::string words;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || byte >= 0x80) {
      words += static_cast<char>(std::tolower(byte));
    } else if (!words.empty() && words.back() != ' ') {
      words += ' ';
    }
  }
  if (!words.empty() && words.back() == ' ') words.pop_back();
  return words;
}

}  // namespace

std::string source_line(const Source& source, std::string_view open, std::string_view close) {
  const std::string& where = source.reference.empty() ? source.section : source.reference;
  if (source.quote.empty()) return where;
  const std::string quoted = fmt::format("{}{}{}", open, source.quote, close);
  const std::string section = comparable(where), quote = comparable(source.quote);
  const bool repeated = !section.empty() && quote.starts_with(section) &&
                        (quote.size() == section.size() || quote[section.size()] == ' ');
  return where.empty() || repeated ? quoted : where + " — " + quoted;
}

}  // namespace proofdeck::bank
