// A question as one learner sees it: shuffled, lettered, a template's parameters drawn.
#include "bank/instance.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "bank/formula.hpp"
#include "bank/proof.hpp"

namespace proofdeck::bank {

namespace {

std::size_t draw_index(engine::Rng& rng, std::size_t size) {
  return std::min(size - 1, static_cast<std::size_t>(rng.uniform() * static_cast<double>(size)));
}

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

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
  for (std::size_t i = items; i > 1; --i)
    std::swap(instance.order[i - 1], instance.order[draw_index(rng, i)]);
  if (question.type == QuestionType::order && items > 1 &&
      std::is_sorted(instance.order.begin(), instance.order.end())) {
    // Shown in the right order the question answers itself: rotate by one.
    std::rotate(instance.order.begin(), instance.order.begin() + 1, instance.order.end());
  }
  if (question.templ) {
    std::vector<Bindings> admitted;
    for_each_admitted(*question.templ, [&](const Bindings& b) { admitted.push_back(b); });
    if (!admitted.empty()) instance.bindings = admitted[draw_index(rng, admitted.size())];
    instance.key = question.templ->answer->evaluate(instance.bindings);
  } else {
    instance.key = question.key.value.value_or(0.0);
  }
  instance.prompt = substitute(question.prompt, instance.bindings, NumberStyle::grouped);
  instance.explanation = substitute(question.explanation, instance.bindings, NumberStyle::grouped);
  return instance;
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
      for (std::size_t index = 0; index < q.steps.size(); ++index) {
        const auto position = static_cast<std::size_t>(
            std::find(instance.order.begin(), instance.order.end(), index) -
            instance.order.begin());
        letters.push_back(letter(position));
      }
      return fmt::format("{}", fmt::join(letters, " "));
    }
  }
  return "";
}

std::vector<std::string> question_traps(const Question& q) {
  std::vector<std::string> traps;
  const auto add = [&](const std::string& trap) {
    if (!trap.empty() && !contains(traps, trap)) traps.push_back(trap);
  };
  for (const Option& option : q.options)
    add(option.trap);
  for (const Distractor& d : q.distractors)
    add(d.trap);
  add(q.trap);
  return traps;
}

}  // namespace proofdeck::bank
