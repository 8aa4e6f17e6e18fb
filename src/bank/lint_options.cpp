// The lint rules on the options and true/false statements (questions/README.md § Lint): the cues
// a test-wise candidate reads off them — too few options, a key longer than the rest, options
// that dismiss the others, keys lopsided to true or false, to the longer statement or away from
// absolutes — and wrong answers that name no trap.
#include <algorithm>
#include <cstddef>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/lint_parts.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::bank {

namespace {

constexpr double kLongestKeyRatio = 1.2;   // longest-key: key vs the longest other option
constexpr double kLengthCueMargin = 0.10;  // length-cue: points above the chance rate
constexpr double kTrueShareLow = 0.40;     // tf-balance
constexpr double kTrueShareHigh = 0.60;
constexpr std::size_t kTfBalanceMinimum = 4;   // true/false questions before tf-balance applies
constexpr std::size_t kTfLengthMinimum = 8;    // true/false statements before tf-length-cue
constexpr double kTfLengthGap = 0.15;          // mean lengths of true and false statements
constexpr std::size_t kTfLongestMinimum = 20;  // statements before the longest-fifth test
constexpr double kAbsoluteCueMargin = 0.10;    // absolute-cue: points below the key share
constexpr std::size_t kAbsoluteMinimum = 5;    // options with an absolute before it applies

// Length as a reader sees it: columns, not bytes.
std::size_t characters(std::string_view text) {
  return static_cast<std::size_t>(text::display_width(text));
}

}  // namespace

void few_options(Linter& linter, const Bank& bank, const Question& q) {
  if (q.type != QuestionType::single && q.type != QuestionType::multi) return;
  if (q.options.size() >= 4) return;
  linter.add(bank, &q, "few-options",
             fmt::format("{} options; give a {} question at least 4, each a misconception "
                         "candidates hold, so a guess is right at most 1 time in 4",
                         q.options.size(), question_type_name(q.type)));
}

void longest_key(Linter& linter, const Bank& bank, const Question& q) {
  if (q.type != QuestionType::single && q.type != QuestionType::multi) return;
  std::size_t shortest_key = SIZE_MAX, longest_wrong = 0;
  for (const Option& option : q.options) {
    if (option.correct) {
      shortest_key = std::min(shortest_key, characters(option.text));
    } else {
      longest_wrong = std::max(longest_wrong, characters(option.text));
    }
  }
  if (shortest_key == SIZE_MAX || longest_wrong == 0) return;
  if (static_cast<double>(shortest_key) < kLongestKeyRatio * static_cast<double>(longest_wrong)) {
    return;
  }
  linter.add(bank, &q, "longest-key",
             fmt::format("the {} {:.1f}× as long as the longest wrong option ({} against {} "
                         "characters), and test-wise candidates pick the longest option; make "
                         "the options alike in length",
                         q.type == QuestionType::single ? "key is" : "shortest key is",
                         static_cast<double>(shortest_key) / static_cast<double>(longest_wrong),
                         shortest_key, longest_wrong));
}

void length_cue(Linter& linter, const Bank& bank) {
  int singles = 0, longest = 0;
  double chance = 0;
  for (const Question& q : bank.questions) {
    if (q.type != QuestionType::single || q.options.size() < 2) continue;
    ++singles;
    chance += 1.0 / static_cast<double>(q.options.size());
    std::size_t key = 0, other = 0;
    for (const Option& option : q.options) {
      (option.correct ? key : other) =
          std::max(option.correct ? key : other, characters(option.text));
    }
    if (key > other) ++longest;
  }
  if (singles == 0) return;
  chance /= singles;
  const double share = static_cast<double>(longest) / singles;
  if (share <= chance + kLengthCueMargin) return;
  linter.add(bank, nullptr, "length-cue",
             fmt::format("the key is the uniquely longest option in {} of {} single questions "
                         "({}), where chance is {}: picking the longest option beats "
                         "guessing; lengthen distractors or shorten keys until it is at most "
                         "{}",
                         longest, singles, text::percent(share), text::percent(chance),
                         text::percent(chance + kLengthCueMargin)));
}

void dismissive_option(Linter& linter, const Bank& bank, const Question& q) {
  static const std::regex catch_all(R"(\b(all|none|both|neither) of (the above|these|them)\b)",
                                    std::regex::icase);
  static const std::set<std::string> negating = {"nothing", "none", "neither", "both", "keep"};
  for (const Option& option : q.options) {
    if (std::regex_search(option.text, catch_all)) {
      linter.add(bank, &q, "dismissive-option",
                 fmt::format("option \"{}\" points at the other options instead of stating a "
                             "belief; write a misconception in its place",
                             option.text));
      continue;
    }
    const std::vector<std::string> first = words(option.text);
    if (!option.correct && !first.empty() && negating.contains(first.front())) {
      linter.add(bank, &q, "dismissive-option",
                 fmt::format("wrong option \"{}\" only negates or hedges, and is eliminated on "
                             "sight; state a misconception candidates hold",
                             option.text));
    }
  }
}

void tf_balance(Linter& linter, const Bank& bank) {
  std::size_t total = 0, true_keys = 0;
  for (const Question& q : bank.questions) {
    if (q.type != QuestionType::truefalse) continue;
    ++total;
    true_keys += q.answer ? 1 : 0;
  }
  if (total < kTfBalanceMinimum) return;
  const double share = static_cast<double>(true_keys) / static_cast<double>(total);
  if (share >= kTrueShareLow - 1e-12 && share <= kTrueShareHigh + 1e-12) return;
  linter.add(bank, nullptr, "tf-balance",
             fmt::format("{} of {} true/false keys are true ({}): always answering \"{}\" "
                         "beats chance; rewrite statements until 40–60% are true",
                         true_keys, total, text::percent(share),
                         share < kTrueShareLow ? "false" : "true"));
}

void tf_length_cue(Linter& linter, const Bank& bank) {
  std::vector<std::pair<std::size_t, bool>> statements;  // length, key
  for (const Question& q : bank.questions) {
    if (q.type == QuestionType::truefalse) statements.emplace_back(characters(q.prompt), q.answer);
  }
  if (statements.size() < kTfLengthMinimum) return;
  double length[2] = {0, 0};
  std::size_t count[2] = {0, 0};
  for (const auto& [chars, key] : statements) {
    length[key ? 1 : 0] += static_cast<double>(chars);
    ++count[key ? 1 : 0];
  }
  if (count[0] > 0 && count[1] > 0) {
    const double mean_false = length[0] / static_cast<double>(count[0]);
    const double mean_true = length[1] / static_cast<double>(count[1]);
    const double gap = std::fabs(mean_true - mean_false) / std::min(mean_true, mean_false);
    if (gap > kTfLengthGap) {
      linter.add(
          bank, nullptr, "tf-length-cue",
          fmt::format("true statements average {:.0f} characters and false ones {:.0f} "
                      "({} apart): answering \"{}\" to the longer ones beats "
                      "chance; make true and false statements alike in length and "
                      "qualification (at most {} apart)",
                      mean_true, mean_false, text::percent(gap),
                      mean_true > mean_false ? "true" : "false", text::percent(kTfLengthGap)));
      return;
    }
  }
  if (statements.size() < kTfLongestMinimum) return;
  std::stable_sort(statements.begin(), statements.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  const std::size_t fifth = (statements.size() + 4) / 5;
  const bool key = statements.front().second;
  if (std::all_of(statements.begin(), statements.begin() + static_cast<std::ptrdiff_t>(fifth),
                  [&](const auto& s) { return s.second == key; })) {
    linter.add(
        bank, nullptr, "tf-length-cue",
        fmt::format("the {} longest of {} true/false statements are all {}: answering "
                    "\"{}\" to the longest beats chance; give long statements either "
                    "answer",
                    fifth, statements.size(), key ? "true" : "false", key ? "true" : "false"));
  }
}

// always, never, only, cannot, entirely, none, every, or "all" before what it quantifies.
bool has_absolute(const std::string& text) {
  static const std::regex absolute(
      R"(\b(always|never|only|cannot|can't|entirely|none|every|everything)\b|(^|[^a-z])all\s+(?!(that|but)\b)[a-z0-9])",
      std::regex::icase);
  return std::regex_search(text, absolute);
}

void absolute_cue(Linter& linter, const Bank& bank) {
  std::size_t units = 0, keys = 0, absolutes = 0, absolute_keys = 0;
  const auto count = [&](const std::string& text, bool key) {
    ++units;
    keys += key ? 1 : 0;
    if (!has_absolute(text)) return;
    ++absolutes;
    absolute_keys += key ? 1 : 0;
  };
  for (const Question& q : bank.questions) {
    if (q.type == QuestionType::single || q.type == QuestionType::multi) {
      for (const Option& option : q.options)
        count(option.text, option.correct);
    } else if (q.type == QuestionType::truefalse) {
      count(q.prompt, q.answer);
    }
  }
  if (absolutes < kAbsoluteMinimum || units == 0) return;
  const double overall = static_cast<double>(keys) / static_cast<double>(units);
  const double share = static_cast<double>(absolute_keys) / static_cast<double>(absolutes);
  if (share >= overall - kAbsoluteCueMargin) return;
  linter.add(
      bank, nullptr, "absolute-cue",
      fmt::format("{} of {} options and statements with an absolute (always, never, only, "
                  "cannot, entirely, none, every, all) are keys ({}), against {} "
                  "of all {}: a test-wise candidate rules absolutes out; put them in keys "
                  "as often as in distractors, or qualify the distractors",
                  absolute_keys, absolutes, text::percent(share), text::percent(overall), units));
}

void untagged_distractor(Linter& linter, const Bank& bank, const Question& q) {
  std::vector<std::string> untagged;
  for (const Option& option : q.options) {
    if (!option.correct && option.trap.empty()) untagged.push_back("\"" + option.text + "\"");
  }
  if (!untagged.empty()) {
    linter.add(bank, &q, "untagged-distractor",
               fmt::format("wrong option{} {} name{} no trap: tag the misconception each "
                           "embodies, so feedback can name it and stats count it, or replace it "
                           "with one candidates hold",
                           untagged.size() == 1 ? "" : "s", fmt::join(untagged, ", "),
                           untagged.size() == 1 ? "s" : ""));
  }
  if (q.type == QuestionType::truefalse && q.trap.empty()) {
    linter.add(bank, &q, "untagged-distractor",
               fmt::format("the wrong answer ({}) names no trap: tag the misconception that "
                           "answering it embodies",
                           q.answer ? "false" : "true"));
  }
}

}  // namespace proofdeck::bank
