// Forms whose questions do not answer each other: the numbers and phrases one question's text
// states, matched against another's key.
#include "bank/form.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>
#include <variant>

#include <fmt/format.h>

#include "bank/numeric_answer.hpp"
#include "text/utf8.hpp"

namespace proofdeck::bank {

namespace {

using text::is_ascii_digit;

bool is_word(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

struct Written {
  std::string text;  // as the text writes it: "1,048,576"
  double value;
};

// Every number written in `text`, in any notation the answer parser reads: a run that starts with
// a digit (not inside a word such as "W2") and goes on through digits and , . _ ^ * and an
// exponent's e; punctuation that ends a sentence or a list is not part of it. A run the parser
// cannot read as one number ("512,64") is read as the numbers its commas separate.
std::vector<Written> numbers_in(std::string_view text) {
  std::vector<Written> numbers;
  const auto add = [&numbers](std::string_view token) {
    while (!token.empty() && !is_ascii_digit(token.back()))
      token.remove_suffix(1);
    if (token.empty()) return false;
    const auto parsed = parse_numeric_answer(token);
    if (const auto* number = std::get_if<NumericAnswer>(&parsed)) {
      numbers.push_back({std::string(token), number->value});
      return true;
    }
    return false;
  };
  std::size_t i = 0;
  while (i < text.size()) {
    if (!is_ascii_digit(text[i]) || (i > 0 && is_word(text[i - 1]))) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size()) {
      const char c = text[end];
      if (is_ascii_digit(c) || c == ',' || c == '.' || c == '_' || c == '^' || c == '*') {
        ++end;
      } else if ((c == 'e' || c == 'E') && end + 1 < text.size() &&
                 (is_ascii_digit(text[end + 1]) ||
                  ((text[end + 1] == '+' || text[end + 1] == '-') && end + 2 < text.size() &&
                   is_ascii_digit(text[end + 2])))) {
        end += 2;
      } else {
        break;
      }
    }
    const std::string_view token = text.substr(i, end - i);
    if (!add(token)) {
      std::size_t start = 0;
      while (start <= token.size()) {
        const std::size_t comma = token.find(',', start);
        add(token.substr(start,
                         comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
      }
    }
    i = end;
  }
  return numbers;
}

// Lower case, every run of white space one space: phrases compared as a reader sees them.
std::string normalized(std::string_view text) {
  std::string out;
  bool space = false;
  for (const char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// The texts a learner reads at a question: its prompt, then its options or steps.
std::vector<std::string_view> texts_of(const Instance& instance) {
  const Question& q = *instance.question;
  std::vector<std::string_view> texts{instance.prompt};
  for (const Option& option : q.options)
    texts.push_back(option.text);
  for (const Step& step : q.steps)
    texts.push_back(step.text);
  return texts;
}

struct KeyNumber {
  double value;
  double tolerance;
  bool relative;
};

// The key's numbers that no other text may state: a numeric key, and right options that are
// only a number, of at least kGiveawayMagnitude.
std::vector<KeyNumber> key_numbers(const Instance& instance) {
  const Question& q = *instance.question;
  std::vector<KeyNumber> numbers;
  if (q.type == QuestionType::numeric && std::abs(instance.key) >= kGiveawayMagnitude)
    numbers.push_back({instance.key, q.key.tolerance, q.key.relative});
  if (q.type == QuestionType::single || q.type == QuestionType::multi) {
    for (const Option& option : q.options) {
      if (!option.correct) continue;
      const auto parsed = parse_numeric_answer(option.text);
      if (const auto* number = std::get_if<NumericAnswer>(&parsed);
          number != nullptr && std::abs(number->value) >= kGiveawayMagnitude)
        numbers.push_back({number->value, 0.0, false});
    }
  }
  return numbers;
}

// Right options long enough that no other text states them by chance, normalized.
std::vector<std::string> key_phrases(const Instance& instance) {
  const Question& q = *instance.question;
  std::vector<std::string> phrases;
  if (q.type != QuestionType::single && q.type != QuestionType::multi) return phrases;
  for (const Option& option : q.options) {
    if (!option.correct) continue;
    std::string phrase = normalized(option.text);
    if (phrase.size() >= kGiveawayPhrase) phrases.push_back(std::move(phrase));
  }
  return phrases;
}

}  // namespace

std::optional<std::string> states_key(const Instance& text_of, const Instance& key_of) {
  if (text_of.question == key_of.question) return std::nullopt;
  const std::vector<KeyNumber> numbers = key_numbers(key_of);
  const std::vector<std::string> phrases = key_phrases(key_of);
  if (numbers.empty() && phrases.empty()) return std::nullopt;
  for (const std::string_view text : texts_of(text_of)) {
    for (const Written& written : numbers_in(text)) {
      for (const KeyNumber& key : numbers) {
        if (numeric_matches(written.value, key.value, key.tolerance, key.relative))
          return written.text;
      }
    }
    if (phrases.empty()) continue;
    const std::string read = normalized(text);
    for (const std::string& phrase : phrases) {
      if (read.find(phrase) != std::string::npos) return "\"" + phrase + "\"";
    }
  }
  return std::nullopt;
}

std::optional<std::string> form_conflict(const Instance& a, const Instance& b) {
  if (const auto stated = states_key(b, a))
    return fmt::format("{} states {}'s answer ({})", b.question->id, a.question->id, *stated);
  if (const auto stated = states_key(a, b))
    return fmt::format("{} states {}'s answer ({})", a.question->id, b.question->id, *stated);
  return std::nullopt;
}

std::vector<LeftOut> untangle(std::vector<Instance>& form,
                              const std::function<std::optional<Instance>(std::size_t)>& spare) {
  std::vector<LeftOut> left_out;
  std::size_t i = 0;
  while (i < form.size()) {
    std::optional<std::string> conflict;
    for (std::size_t kept = 0; kept < i && !conflict; ++kept)
      conflict = form_conflict(form[kept], form[i]);
    if (!conflict) {
      ++i;
      continue;
    }
    left_out.push_back({form[i].question->id, *conflict, false});
    if (std::optional<Instance> next = spare(i)) {
      left_out.back().replaced = true;
      form[i] = std::move(*next);
    } else {
      form.erase(form.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  return left_out;
}

std::vector<int> exam_quota(const std::vector<int>& topic_sizes, int n) {
  int pool = 0;
  for (int size : topic_sizes)
    pool += size;
  std::vector<int> quota(topic_sizes.size(), 0);
  if (pool == 0) return quota;
  std::vector<std::pair<double, std::size_t>> remainders;
  int given = 0;
  for (std::size_t t = 0; t < topic_sizes.size(); ++t) {
    const double exact = static_cast<double>(n) * topic_sizes[t] / pool;
    quota[t] = static_cast<int>(std::floor(exact));
    given += quota[t];
    remainders.emplace_back(exact - std::floor(exact), t);
  }
  std::stable_sort(remainders.begin(), remainders.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t k = 0; given < n && k < remainders.size(); ++k, ++given)
    ++quota[remainders[k].second];
  return quota;
}

std::vector<const Question*> draw_spread(
    std::vector<const Question*> pool, std::size_t n, engine::Rng& rng,
    std::map<std::string, std::vector<const Question*>>& spares) {
  std::vector<std::string> topics;
  std::map<std::string, std::vector<const Question*>> by_topic;
  for (const Question* q : pool) {
    if (!by_topic.contains(q->topic)) topics.push_back(q->topic);
    by_topic[q->topic].push_back(q);
  }
  n = std::min(n, pool.size());
  std::vector<int> sizes;
  for (const std::string& topic : topics)
    sizes.push_back(static_cast<int>(by_topic[topic].size()));
  const std::vector<int> quota = exam_quota(sizes, static_cast<int>(n));
  std::vector<const Question*> drawn;
  for (std::size_t t = 0; t < topics.size(); ++t) {
    std::vector<const Question*>& questions = by_topic[topics[t]];
    engine::shuffle(questions, rng);
    drawn.insert(drawn.end(), questions.begin(),
                 questions.begin() + static_cast<std::ptrdiff_t>(quota[t]));
    spares[topics[t]].assign(questions.begin() + static_cast<std::ptrdiff_t>(quota[t]),
                             questions.end());
  }
  engine::shuffle(drawn, rng);
  return drawn;
}

}  // namespace proofdeck::bank
