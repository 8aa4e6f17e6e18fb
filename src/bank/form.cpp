// Forms whose questions do not answer each other: the numbers and phrases one question's text
// states, matched against another's key.
#include "bank/form.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <string_view>
#include <variant>

#include <fmt/format.h>

#include "bank/lint.hpp"
#include "bank/numeric_answer.hpp"
#include "bank/selection.hpp"
#include "text/number.hpp"
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
std::string spaced_lower(std::string_view text) {
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
    std::string phrase = spaced_lower(option.text);
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
    const std::string read = spaced_lower(text);
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

Enemies form_enemies(const std::vector<Bank>& banks) {
  Enemies enemies;
  for (const NearDuplicate& pair : near_duplicate_pairs(banks))
    enemies.emplace(std::minmax(pair.first, pair.second), pair.reason);
  for (const Bank& bank : banks) {
    for (const Question& q : bank.questions) {
      for (const Requirement& named : q.same_fact_as)
        enemies.emplace(std::minmax(q.id, named.id), "one fact, marked same_fact_as");
    }
  }
  return enemies;
}

std::optional<std::string> form_conflict(const Instance& a, const Instance& b,
                                         const Enemies& enemies) {
  if (auto stated = form_conflict(a, b)) return stated;
  const auto it = enemies.find(std::minmax(a.question->id, b.question->id));
  if (it == enemies.end()) return std::nullopt;
  return fmt::format("{} and {} ask the same thing ({})", a.question->id, b.question->id,
                     it->second);
}

std::optional<std::string> named_conflict(const Instance& a, const Instance& b,
                                          const Enemies& enemies) {
  if (form_conflict(a, b)) return "one states the other's answer";
  if (enemies.contains(std::minmax(a.question->id, b.question->id)))
    return "the two ask the same thing";
  return std::nullopt;
}

std::vector<const Question*> objective_rounds(const std::vector<const Question*>& shuffled) {
  std::map<std::string, std::size_t> seen;  // objective → questions of it met so far
  std::vector<std::pair<std::size_t, const Question*>> ranked;
  for (const Question* q : shuffled)
    ranked.emplace_back(seen[q->objective_id()]++, q);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<const Question*> order;
  for (const auto& [round, q] : ranked)
    order.push_back(q);
  return order;
}

std::size_t count_objectives(const std::vector<const Question*>& questions) {
  return objectives_asked(questions).size();
}

std::string short_form_note(std::size_t questions, std::size_t facts) {
  return fmt::format("{}: the selection holds {} distinct {}",
                     text::count(questions, "question", "questions"), facts,
                     facts == 1 ? "fact" : "facts");
}

DrawnForm draw_quiz_form(std::vector<const Question*> selected, std::optional<std::size_t> limit,
                         bool once_per_objective, engine::Rng& rng, const Enemies& enemies) {
  engine::shuffle(selected, rng);
  const std::vector<const Question*> order = objective_rounds(selected);
  DrawnForm result;
  result.facts = count_objectives(order);
  std::size_t size = once_per_objective ? result.facts : order.size();
  if (limit) size = std::min(size, *limit);
  for (std::size_t i = 0; i < size; ++i)
    result.form.push_back(instantiate(*order[i], rng));
  std::vector<const Question*> spares(order.begin() + static_cast<std::ptrdiff_t>(size),
                                      order.end());
  result.left_out = untangle(
      result.form,
      [&](std::size_t i) -> std::optional<Instance> {
        std::optional<const Question*> next = take_spare(spares, result.form, i);
        if (!next && !once_per_objective && !spares.empty()) {
          next = spares.front();
          spares.erase(spares.begin());
        }
        if (!next) return std::nullopt;
        return instantiate(**next, rng);
      },
      enemies);
  return result;
}

std::optional<const Question*> take_new(std::vector<const Question*>& queue,
                                        const std::set<std::string>& held) {
  const auto it = std::find_if(queue.begin(), queue.end(), [&](const Question* q) {
    return !held.contains(q->objective_id());
  });
  if (it == queue.end()) return std::nullopt;
  const Question* taken = *it;
  queue.erase(it);
  return taken;
}

std::optional<const Question*> take_new(std::map<std::string, std::vector<const Question*>>& spares,
                                        const std::string& topic,
                                        const std::set<std::string>& held) {
  std::optional<const Question*> next = take_new(spares[topic], held);
  for (auto it = spares.begin(); !next && it != spares.end(); ++it)
    next = take_new(it->second, held);
  return next;
}

std::set<std::string> objectives_asked(const std::vector<const Question*>& questions) {
  std::set<std::string> objectives;
  for (const Question* q : questions)
    objectives.insert(q->objective_id());
  return objectives;
}

namespace {

// The objectives of every question of `form` but the one at `replacing`.
std::set<std::string> held_besides(const std::vector<Instance>& form, std::size_t replacing) {
  std::set<std::string> held;
  for (std::size_t i = 0; i < form.size(); ++i) {
    if (i != replacing) held.insert(form[i].question->objective_id());
  }
  return held;
}

}  // namespace

std::optional<const Question*> take_spare(std::vector<const Question*>& queue,
                                          const std::vector<Instance>& form,
                                          std::size_t replacing) {
  return take_new(queue, held_besides(form, replacing));
}

std::vector<LeftOut> untangle(std::vector<Instance>& form,
                              const std::function<std::optional<Instance>(std::size_t)>& spare,
                              const Enemies& enemies) {
  std::vector<LeftOut> left_out;
  std::size_t i = 0;
  while (i < form.size()) {
    std::optional<std::string> conflict;
    for (std::size_t kept = 0; kept < i && !conflict; ++kept)
      conflict = form_conflict(form[kept], form[i], enemies);
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
    std::map<std::string, std::vector<const Question*>>& spares, bool repeats) {
  std::vector<std::string> topics;
  std::map<std::string, std::vector<const Question*>> by_topic;
  for (const Question* q : pool) {
    if (!by_topic.contains(q->topic)) topics.push_back(q->topic);
    by_topic[q->topic].push_back(q);
  }
  n = std::min(n, pool.size());
  std::vector<int> sizes;  // each topic's objectives
  for (const std::string& topic : topics) {
    std::set<std::string> objectives;
    for (const Question* q : by_topic[topic])
      objectives.insert(q->objective_id());
    sizes.push_back(static_cast<int>(objectives.size()));
  }
  const std::vector<int> quota = exam_quota(sizes, static_cast<int>(n));
  for (const std::string& topic : topics) {
    std::vector<const Question*>& questions = by_topic[topic];
    engine::shuffle(questions, rng);
    questions = objective_rounds(questions);
  }
  // Passes over the topics in order: a question of an objective not yet asked, within the
  // topic's quota; then past it (an objective shared across topics can leave a quota unfilled).
  // No objective is asked twice, so a pool of fewer objectives than n gives a shorter form;
  // unless `repeats`: then, every objective asked, the next rounds within the quotas, then
  // anything left.
  std::vector<const Question*> drawn;
  std::set<std::string> asked;
  std::vector<int> taken(topics.size(), 0);
  for (const int pass : {0, 1, 2, 3}) {
    const bool new_objectives_only = pass <= 1;
    const bool within_quota = pass == 0 || pass == 2;
    if (!new_objectives_only && !repeats) break;
    for (std::size_t t = 0; t < topics.size() && drawn.size() < n; ++t) {
      std::vector<const Question*>& questions = by_topic[topics[t]];
      for (auto it = questions.begin(); it != questions.end() && drawn.size() < n;) {
        if (within_quota && taken[t] >= quota[t]) break;
        if (new_objectives_only && asked.contains((*it)->objective_id())) {
          ++it;
          continue;
        }
        asked.insert((*it)->objective_id());
        drawn.push_back(*it);
        ++taken[t];
        it = questions.erase(it);
      }
    }
  }
  for (const std::string& topic : topics)
    spares[topic] = std::move(by_topic[topic]);
  engine::shuffle(drawn, rng);
  return drawn;
}

DrawnForm draw_exam_form(const std::vector<Bank>& banks, const Filters& filters, int count,
                         std::uint64_t seed, const Enemies* enemies) {
  engine::Rng rng(seed);
  std::map<std::string, std::vector<const Question*>> spares;
  const std::vector<const Question*> pool = select_questions(banks, filters);
  // Questions the learner named, or the questions of named traps, are asked whole.
  const bool repeats = !filters.questions.empty() || !filters.traps.empty();
  const std::vector<const Question*> drawn =
      draw_spread(pool, static_cast<std::size_t>(count), rng, spares, repeats);
  DrawnForm result;
  result.facts = count_objectives(pool);
  for (const Question* q : drawn)
    result.form.push_back(instantiate(*q, rng));
  if (!filters.questions.empty()) return result;
  // A question that would give away another's answer, or ask what another asks, is replaced by a
  // spare of an objective the form does not hold: of its topic (so the spread holds), else of
  // any topic; where there is none, the form is one shorter.
  std::vector<Instance>& form = result.form;
  result.left_out = untangle(
      form,
      [&](std::size_t i) -> std::optional<Instance> {
        std::optional<const Question*> next =
            take_new(spares, form[i].question->topic, held_besides(form, i));
        for (auto it = spares.begin(); !next && repeats && it != spares.end(); ++it) {
          if (it->second.empty()) continue;
          next = it->second.front();
          it->second.erase(it->second.begin());
        }
        if (!next) return std::nullopt;
        return instantiate(**next, rng);
      },
      enemies != nullptr ? *enemies : form_enemies(banks));
  return result;
}

}  // namespace proofdeck::bank
