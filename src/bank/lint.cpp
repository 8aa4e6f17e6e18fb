// The item-writing rules of `check --lint` (questions/README.md § Lint), one function each.
#include "bank/lint.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/lint_rules.hpp"
#include "bank/precision.hpp"
#include "bank/proof.hpp"
#include "bank/template.hpp"
#include "core/errors.hpp"
#include "text/width.hpp"

namespace proofdeck::bank {

namespace {

constexpr double kLongestKeyRatio = 1.2;   // longest-key: key vs the longest other option
constexpr double kLengthCueMargin = 0.10;  // length-cue: points above the chance rate
constexpr double kTrueShareLow = 0.40;     // tf-balance
constexpr double kTrueShareHigh = 0.60;
constexpr std::size_t kTfBalanceMinimum = 4;   // true/false questions before tf-balance applies
constexpr double kNearDuplicateJaccard = 0.6;  // word-trigram overlap of two prompts
constexpr std::size_t kMaxPerObjective = 6;    // objective-overload
constexpr std::size_t kTfLengthMinimum = 8;    // true/false statements before tf-length-cue
constexpr double kTfLengthGap = 0.15;          // mean lengths of true and false statements
constexpr std::size_t kTfLongestMinimum = 20;  // statements before the longest-fifth test
constexpr double kAbsoluteCueMargin = 0.10;    // absolute-cue: points below the key share
constexpr std::size_t kAbsoluteMinimum = 5;    // options with an absolute before it applies
constexpr std::int64_t kMaxDraws = 4096;       // template combinations looked at per question

// Length as a reader sees it: columns, not bytes.
std::size_t characters(std::string_view text) {
  return static_cast<std::size_t>(text::display_width(text));
}

// Lower-cased words of letters and digits (other bytes, UTF-8 included, separate them).
std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::string word;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || byte >= 0x80) {
      word += static_cast<char>(std::tolower(byte));
    } else if (!word.empty()) {
      out.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

// Words joined by single spaces: "The key, said plainly." and "the key said plainly" match.
std::string normalized(std::string_view text) {
  std::string out;
  for (const std::string& word : words(text))
    out += (out.empty() ? "" : " ") + word;
  return out;
}

bool near_integer(double value) {
  return std::fabs(value - std::round(value)) < 1e-9;
}

// The keys a numeric question can have: its value, or its template's answer in every admitted
// combination (up to kMaxDraws), with the bindings that give each.
std::vector<std::pair<Bindings, double>> numeric_keys(const Question& q) {
  std::vector<std::pair<Bindings, double>> keys;
  if (q.type != QuestionType::numeric) return keys;
  if (q.templ && q.templ->answer) {
    try {
      for_each_admitted(*q.templ, [&](const Bindings& bindings) {
        if (static_cast<std::int64_t>(keys.size()) < kMaxDraws)
          keys.emplace_back(bindings, q.templ->answer->evaluate(bindings));
      });
    } catch (const Error&) {
      // the loader evaluated every combination already; nothing to lint if one fails here
    }
  } else if (q.key.value) {
    keys.emplace_back(Bindings{}, *q.key.value);
  }
  return keys;
}

class Linter {
 public:
  explicit Linter(LintReport& report) : report_(report) {}

  void add(const Bank& bank, const Question* q, std::string_view rule, std::string message) {
    const std::vector<LintWaiver>& waivers = q != nullptr ? q->lint_allow : bank.lint_allow;
    for (const LintWaiver& waiver : waivers) {
      if (canonical_lint_rule(waiver.rule) == rule) {
        ++waiver_use(bank, q, waiver).waived;
        return;
      }
    }
    report_.findings.push_back(
        LintFinding{q != nullptr ? q->id : "", bank.id, std::string(rule), std::move(message)});
  }

  void list_waivers(const Bank& bank) {
    for (const LintWaiver& waiver : bank.lint_allow)
      waiver_use(bank, nullptr, waiver);
    for (const Question& q : bank.questions) {
      for (const LintWaiver& waiver : q.lint_allow)
        waiver_use(bank, &q, waiver);
    }
  }

 private:
  LintWaiverUse& waiver_use(const Bank& bank, const Question* q, const LintWaiver& waiver) {
    const std::string id = q != nullptr ? q->id : "";
    for (LintWaiverUse& use : report_.waivers) {
      if (use.bank == bank.id && use.id == id && use.rule == canonical_lint_rule(waiver.rule))
        return use;
    }
    report_.waivers.push_back(LintWaiverUse{
        id, bank.id, std::string(canonical_lint_rule(waiver.rule)), waiver.reason, 0});
    return report_.waivers.back();
  }

  LintReport& report_;
};

// --- options ----------------------------------------------------------------------------------

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
  linter.add(
      bank, nullptr, "length-cue",
      fmt::format("the key is the uniquely longest option in {} of {} single questions "
                  "({:.0f}%), where chance is {:.0f}%: picking the longest option beats "
                  "guessing; lengthen distractors or shorten keys until it is at most "
                  "{:.0f}%",
                  longest, singles, 100 * share, 100 * chance, 100 * (chance + kLengthCueMargin)));
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
             fmt::format("{} of {} true/false keys are true ({:.0f}%): always answering \"{}\" "
                         "beats chance; rewrite statements until 40–60% are true",
                         true_keys, total, 100 * share, share < kTrueShareLow ? "false" : "true"));
}

// --- the stem and the explanation ---------------------------------------------------------------

// The ways a number can be written in a prompt: 1048576, 1,048,576, 0.4011 (a non-integer at 3
// to 6 significant digits).
std::vector<std::string> number_spellings(double value) {
  std::vector<std::string> spellings;
  if (near_integer(value)) {
    const auto whole = static_cast<long long>(std::llround(value));
    spellings.push_back(std::to_string(whole));
    spellings.push_back(format_number(static_cast<double>(whole)));
  } else {
    for (int digits = 3; digits <= 6; ++digits)
      spellings.push_back(fmt::format("{:.{}g}", value, digits));
  }
  std::sort(spellings.begin(), spellings.end());
  spellings.erase(std::unique(spellings.begin(), spellings.end()), spellings.end());
  return spellings;
}

// `number` stands in `text` as a number of its own (not inside 10485760 or 0.40112).
bool contains_number(const std::string& text, const std::string& number) {
  for (std::size_t at = text.find(number); at != std::string::npos;
       at = text.find(number, at + 1)) {
    const std::size_t end = at + number.size();
    const auto digit = [&](std::size_t i) {
      return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]));
    };
    const bool before =
        at > 0 && (digit(at - 1) || (text[at - 1] == '.' && at > 1 && digit(at - 2)));
    const bool after = digit(end) || ((text[end] == '.' || text[end] == ',') && digit(end + 1));
    if (!before && !after) return true;
  }
  return false;
}

void answer_in_stem(Linter& linter, const Bank& bank, const Question& q) {
  if (q.type == QuestionType::single || q.type == QuestionType::multi) {
    const std::string prompt = " " + normalized(q.prompt) + " ";
    for (const Option& option : q.options) {
      const std::string key = normalized(option.text);
      if (option.correct && !key.empty() && prompt.find(" " + key + " ") != std::string::npos) {
        linter.add(bank, &q, "answer-in-stem",
                   fmt::format("the prompt contains the key \"{}\"; reword the prompt so it "
                               "does not hand over the answer",
                               option.text));
      }
    }
    return;
  }
  for (const auto& [bindings, key] : numeric_keys(q)) {
    const std::string prompt = substitute(q.prompt, bindings, NumberStyle::grouped);
    for (const std::string& spelling : number_spellings(key)) {
      if (contains_number(prompt, spelling)) {
        linter.add(
            bank, &q, "answer-in-stem",
            fmt::format("the prompt shows the answer {}{}; ask for it without stating it", spelling,
                        bindings.empty() ? "" : " (in one of the template's draws)"));
        return;
      }
    }
  }
}

// "(b)", "b)", "option b", "answer c", "choice d": a letter that shuffling changes.
std::string letter_reference(const std::string& text) {
  static const std::regex parenthesized(
      R"((^|[^A-Za-z0-9_])(\([a-h]\))|(^|\s)([b-h]\))(?=\s|$|[.,;:]))");
  static const std::regex named(
      R"(\b(options?|answers?|choices?|alternatives?)\s+\(?([b-h])\)?(?![A-Za-z0-9'’-]))",
      std::regex::icase);
  static const std::regex named_a(
      R"(\b(options?|answers?|choices?|alternatives?)\s+\(?a\)?(?=\s*([.,;:)]|$|\s(and|or|is|was|and)\b)))",
      std::regex::icase);
  static const std::regex closing_a(R"((^|\s)a\)(?=\s))");
  std::smatch match;
  if (std::regex_search(text, match, parenthesized))
    return match[2].matched ? match[2].str() : match[4].str();
  if (std::regex_search(text, match, named)) return match.str();
  if (std::regex_search(text, match, named_a)) return match.str();
  if (std::regex_search(text, match, closing_a)) return "a)";
  return {};
}

void letter_references(Linter& linter, const Bank& bank, const Question& q) {
  const auto check = [&](const std::string& text, std::string_view where) {
    if (const std::string letter = letter_reference(text); !letter.empty()) {
      linter.add(bank, &q, "letter-reference",
                 fmt::format("the {} names an option by its letter (\"{}\"), but options are "
                             "shuffled when asked; name the option by what it says",
                             where, letter));
    }
  };
  check(q.explanation, "explanation");
  for (const Option& option : q.options)
    check(option.feedback, "feedback of an option");
}

// A bank written before objectives names a concept instead, which stands in for one.
void no_objective(Linter& linter, const Bank& bank, const Question& q) {
  if (!q.objective.empty() || !q.concept_id.empty()) return;
  linter.add(bank, &q, "no-objective",
             "no `objective`: name the fact or skill it tests (an objective of a loaded bank), "
             "so a form asks it once and check counts questions per objective");
}

// --- objectives, across the loaded banks ------------------------------------------------------

// The bank a finding about an objective belongs to: the one defining it, else (a concept standing
// in for an objective) the bank of its first question.
const Bank* objective_home(const std::vector<Bank>& banks, const std::string& objective,
                           const Bank& first_asker) {
  for (const Bank& bank : banks) {
    for (const Objective& defined : bank.objectives) {
      if (defined.id == objective) return &bank;
    }
  }
  return &first_asker;
}

void objective_overload(Linter& linter, const std::vector<Bank>& banks) {
  std::vector<std::pair<std::string, std::vector<const Question*>>> per_objective;
  std::map<std::string, std::size_t> index;
  std::map<const Question*, const Bank*> bank_of;
  for (const Bank& bank : banks) {
    for (const Question& q : bank.questions) {
      const auto [it, inserted] = index.emplace(q.objective_id(), per_objective.size());
      if (inserted) per_objective.emplace_back(q.objective_id(), std::vector<const Question*>{});
      per_objective[it->second].second.push_back(&q);
      bank_of[&q] = &bank;
    }
  }
  for (const auto& [objective, questions] : per_objective) {
    if (questions.size() <= kMaxPerObjective) continue;
    std::vector<std::string> ids;
    for (const Question* q : questions)
      ids.push_back(q->id);
    linter.add(*objective_home(banks, objective, *bank_of[questions.front()]), nullptr,
               "objective-overload",
               fmt::format("objective '{}' has {} questions ({}); at most {}: one fact asked "
                           "again and again inflates a score, so merge variants into a template, "
                           "drop near-duplicates and spend the rest on objectives no question "
                           "asks yet",
                           objective, ids.size(), fmt::join(ids, ", "), kMaxPerObjective));
  }
}

void objective_unused(Linter& linter, const std::vector<Bank>& banks) {
  std::set<std::string> asked;
  for (const Bank& bank : banks) {
    for (const Question& q : bank.questions)
      asked.insert(q.objective);
  }
  for (const Bank& bank : banks) {
    for (const Objective& objective : bank.objectives) {
      if (asked.contains(objective.id)) continue;
      linter.add(bank, nullptr, "objective-unused",
                 fmt::format("objective '{}' is defined but no loaded question tests it; write "
                             "one, or drop the objective",
                             objective.id));
    }
  }
}

// "the lesson", "the demo(s)", "the source", "the domain source": an item that leans on the
// material instead of standing alone, as an exam item must.
void stem_cites_material(Linter& linter, const Bank& bank, const Question& q) {
  // "the source" of the material, not a translation's source sentence or language.
  static const std::regex citing(
      R"(\bthe\s+(lesson|demos?|domain\s+source|source(?!\s+(sentences?|languages?|texts?|sequences?|sides?|tokens?|code|documents?|positions?)\b))\b)",
      std::regex::icase);
  std::smatch match;
  if (!std::regex_search(q.prompt, match, citing)) return;
  linter.add(bank, &q, "stem-cites-material",
             fmt::format("the prompt cites \"{}\": an exam item stands alone, so state the fact "
                         "or the condition it rests on instead",
                         match.str()));
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
      linter.add(bank, nullptr, "tf-length-cue",
                 fmt::format("true statements average {:.0f} characters and false ones {:.0f} "
                             "({:.0f}% apart): answering \"{}\" to the longer ones beats "
                             "chance; make true and false statements alike in length and "
                             "qualification (at most {:.0f}% apart)",
                             mean_true, mean_false, 100 * gap,
                             mean_true > mean_false ? "true" : "false", 100 * kTfLengthGap));
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
  linter.add(bank, nullptr, "absolute-cue",
             fmt::format("{} of {} options and statements with an absolute (always, never, only, "
                         "cannot, entirely, none, every, all) are keys ({:.0f}%), against {:.0f}% "
                         "of all {}: a test-wise candidate rules absolutes out; put them in keys "
                         "as often as in distractors, or qualify the distractors",
                         absolute_keys, absolutes, 100 * share, 100 * overall, units));
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

// --- templates and numbers --------------------------------------------------------------------

void constant_template(Linter& linter, const Bank& bank, const Question& q) {
  if (!q.templ) return;
  const auto keys = numeric_keys(q);
  if (keys.empty()) return;
  const bool constant = std::all_of(
      keys.begin(), keys.end(), [&](const auto& key) { return key.second == keys.front().second; });
  if (!constant) return;
  linter.add(bank, &q, "constant-template",
             fmt::format("every draw of the template has the answer {}, so the parameters only "
                         "decorate the prompt; make the answer depend on them or write a plain "
                         "question",
                         format_number(keys.front().second)));
}

// A digit run that is a number of its own: not part of a name (W_1, d_k2, L2) nor inside a
// {placeholder}.
std::string literal_number(std::string_view text) {
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '{') ++depth;
    if (c == '}' && depth > 0) --depth;
    if (depth > 0 || !std::isdigit(static_cast<unsigned char>(c))) continue;
    const char before = i > 0 ? text[i - 1] : ' ';
    const bool in_name = std::isalnum(static_cast<unsigned char>(before)) || before == '_';
    std::size_t end = i;  // past the number, 1,048,576 and 0.25 included
    while (end < text.size()) {
      const auto digit_at = [&](std::size_t at) {
        return at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]));
      };
      if (digit_at(end) || ((text[end] == '.' || text[end] == ',') && digit_at(end + 1))) {
        ++end;
      } else {
        break;
      }
    }
    // A coefficient or exponent of a formula over names ("3·d_model²", "d^0.5") holds for
    // every draw.
    const std::string_view rest = text.substr(end);
    const bool coefficient = [&] {
      for (const std::string_view op : {"·", "×", "*", "/"}) {
        if (rest.substr(0, op.size()) == op && rest.size() > op.size()) {
          const char next = rest[op.size()];
          return std::isalpha(static_cast<unsigned char>(next)) || next == '_' || next == '{';
        }
      }
      return false;
    }();
    if (!in_name && !coefficient && before != '^') return std::string(text.substr(i, end - i));
    i = end;
  }
  return {};
}

void template_literal(Linter& linter, const Bank& bank, const Question& q) {
  if (!q.templ) return;
  if (const std::string number = literal_number(q.explanation); !number.empty()) {
    linter.add(bank, &q, "template-literal",
               fmt::format("the explanation states {}, which no draw computes; a learner who "
                           "drew other parameters reads a wrong number: use {{param}} "
                           "placeholders, {{value:NAME}} from the proof, or words",
                           number));
  }
}

void precision(Linter& linter, const Bank& bank, const Question& q) {
  for (const auto& [bindings, key] : numeric_keys(q)) {
    if (near_integer(key)) continue;
    const std::string prompt = substitute(q.prompt, bindings, NumberStyle::grouped);
    const std::optional<Precision> asked = asked_precision(prompt);
    const std::string draw = bindings.empty() ? "" : " (in one of the template's draws)";
    if (!asked) {
      linter.add(bank, &q, "precision",
                 fmt::format("the answer {}{} is not a whole number, and the prompt does not "
                             "say the precision it wants; ask for it (\"to two decimal "
                             "places\", \"to 3 significant figures\")",
                             format_measured(key), draw));
      return;
    }
    const double given = rounded(key, *asked);
    const double tolerance = q.key.allowed(key);
    if (std::fabs(given - key) > tolerance * (1 + 1e-9) + 1e-15) {
      linter.add(
          bank, &q, "precision",
          fmt::format("the prompt asks for {} {}, but the tolerance {} marks that answer "
                      "({}) wrong against the key {}{}; widen the tolerance to half the "
                      "last asked digit",
                      asked->digits,
                      asked->kind == Precision::Kind::decimals ? "decimals" : "significant figures",
                      format_measured(tolerance), fmt::format("{}", given), format_measured(key),
                      draw));
      return;
    }
  }
}

// --- across questions -------------------------------------------------------------------------

std::set<std::string> trigrams(const std::string& prompt) {
  const std::vector<std::string> w = words(prompt);
  std::set<std::string> out;
  for (std::size_t i = 0; i + 2 < w.size(); ++i)
    out.insert(w[i] + " " + w[i + 1] + " " + w[i + 2]);
  return out;
}

// A pair near_duplicate_pairs finds, with where its later question stands.
struct NearPair {
  const Bank* bank;       // the later question's
  const Question* q;      // the later question
  const Question* first;  // the earlier one
  std::string reason;     // "its prompt shares 74% of its word trigrams with q's"
  bool same_run = false;  // one numeric key proven by one run
};

std::vector<NearPair> near_pairs(const std::vector<Bank>& banks) {
  struct Entry {
    const Bank* bank;
    const Question* q;
    std::set<std::string> grams;
  };
  std::vector<NearPair> pairs;
  std::vector<Entry> entries;
  std::map<std::string, std::vector<std::size_t>> index;  // trigram → entries holding it
  for (const Bank& bank : banks) {
    for (const Question& q : bank.questions) {
      entries.push_back(Entry{&bank, &q, trigrams(q.prompt)});
      for (const std::string& gram : entries.back().grams)
        index[gram].push_back(entries.size() - 1);
    }
  }
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> shared;
  for (const auto& [gram, holders] : index) {
    if (holders.size() > 64) continue;  // a stock phrase ("which of the"), not a duplicate cue
    for (std::size_t a = 0; a < holders.size(); ++a) {
      for (std::size_t b = a + 1; b < holders.size(); ++b)
        ++shared[{holders[a], holders[b]}];
    }
  }
  std::set<std::pair<std::size_t, std::size_t>> reported;
  for (const auto& [pair, common] : shared) {
    const Entry& first = entries[pair.first];
    const Entry& second = entries[pair.second];
    const double jaccard = static_cast<double>(common) /
                           static_cast<double>(first.grams.size() + second.grams.size() - common);
    if (jaccard < kNearDuplicateJaccard) continue;
    reported.insert(pair);
    pairs.push_back(NearPair{second.bank, second.q, first.q,
                             fmt::format("its prompt shares {:.0f}% of its word trigrams with {}'s",
                                         100 * jaccard, first.q->id)});
  }
  // Numeric questions with the same key proven by the same run ask the same thing.
  std::map<std::string, std::size_t> first_with;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Question& q = *entries[i].q;
    if (q.type != QuestionType::numeric || q.templ || !q.key.value || !q.proof) continue;
    const std::string signature =
        fmt::format("{}\n{}\n{}", format_number(*q.key.value), q.proof->demo, q.proof->args.dump());
    const auto [it, inserted] = first_with.emplace(signature, i);
    if (inserted || reported.contains({it->second, i})) continue;
    pairs.push_back(
        NearPair{entries[i].bank, &q, entries[it->second].q,
                 fmt::format("same key ({}) proven by the same {} run as {}",
                             format_number(*q.key.value), q.proof->demo, entries[it->second].q->id),
                 true});
  }
  return pairs;
}

void near_duplicates(Linter& linter, const std::vector<Bank>& banks) {
  for (const NearPair& pair : near_pairs(banks)) {
    linter.add(*pair.bank, pair.q, "near-duplicate",
               pair.same_run ? pair.reason + ": merge them"
                             : pair.reason +
                                   "; one idea asked twice counts twice in a score: "
                                   "merge them or make it a template variant");
  }
}

// Questions of different banks that load together and ask the same thing: the same keyed option
// word for word, the same numeric key proven by the same run, or the same objective.
void cross_bank_duplicates(Linter& linter, const std::vector<Bank>& banks) {
  struct Asker {
    const Bank* bank;
    const Question* q;
  };
  std::map<std::string, std::vector<Asker>> by_signature;  // what they share → who shares it
  std::vector<std::string> order;                          // signatures as first met
  const auto note = [&](std::string signature, const Bank& bank, const Question& q) {
    auto [it, inserted] = by_signature.try_emplace(std::move(signature));
    if (inserted) order.push_back(it->first);
    it->second.push_back(Asker{&bank, &q});
  };
  for (const Bank& bank : banks) {
    for (const Question& q : bank.questions) {
      for (const Option& option : q.options) {
        if (option.correct && !normalized(option.text).empty())
          note("the keyed option \"" + option.text + "\"\n" + normalized(option.text), bank, q);
      }
      if (q.type == QuestionType::numeric && !q.templ && q.key.value && q.proof) {
        note(fmt::format("the key {} proven by the same {} run\n{}", format_number(*q.key.value),
                         q.proof->demo, q.proof->args.dump()),
             bank, q);
      }
      note("the objective '" + q.objective_id() + "'\n", bank, q);
    }
  }
  // One finding per question of the bank that asks it less often (the later bank on a tie),
  // naming what the other bank asks it with.
  std::set<std::pair<const Question*, const Bank*>> reported;
  for (const std::string& signature : order) {
    const std::string what = signature.substr(0, signature.find('\n'));
    std::vector<std::pair<const Bank*, std::vector<const Question*>>> per_bank;
    for (const Asker& asker : by_signature.at(signature)) {
      if (per_bank.empty() || per_bank.back().first != asker.bank)
        per_bank.emplace_back(asker.bank, std::vector<const Question*>{});
      per_bank.back().second.push_back(asker.q);
    }
    for (std::size_t b = 1; b < per_bank.size(); ++b) {
      for (std::size_t a = 0; a < b; ++a) {
        const bool later_smaller = per_bank[b].second.size() <= per_bank[a].second.size();
        const auto& [home, askers] = later_smaller ? per_bank[b] : per_bank[a];
        const auto& [other, others] = later_smaller ? per_bank[a] : per_bank[b];
        std::vector<std::string> ids;
        for (const Question* q : others)
          ids.push_back(q->id);
        if (ids.size() > 5) {
          ids.resize(4);
          ids.push_back(fmt::format("and {} more", others.size() - 4));
        }
        for (const Question* q : askers) {
          if (!reported.insert({q, other}).second) continue;
          linter.add(*home, q, "cross-bank-duplicate",
                     fmt::format("shares {} with {} of {} ({}): banks that load together ask "
                                 "it twice, so keep one, or make them test different objectives",
                                 what, others.size() == 1 ? "a question" : "questions", other->id,
                                 fmt::join(ids, ", ")));
        }
      }
    }
  }
}

}  // namespace

std::vector<NearDuplicate> near_duplicate_pairs(const std::vector<Bank>& banks) {
  std::vector<NearDuplicate> result;
  for (const NearPair& pair : near_pairs(banks))
    result.push_back(NearDuplicate{pair.first->id, pair.q->id, pair.reason});
  return result;
}

std::vector<std::pair<std::string, std::vector<std::string>>> questions_per_objective(
    const Bank& bank) {
  std::vector<std::pair<std::string, std::vector<std::string>>> objectives;
  for (const Question& q : bank.questions) {
    auto it = std::find_if(objectives.begin(), objectives.end(),
                           [&](const auto& entry) { return entry.first == q.objective_id(); });
    if (it == objectives.end()) {
      objectives.emplace_back(q.objective_id(), std::vector<std::string>{});
      it = std::prev(objectives.end());
    }
    it->second.push_back(q.id);
  }
  return objectives;
}

std::vector<std::pair<std::string, std::vector<std::string>>> questions_per_concept(
    const Bank& bank) {
  std::vector<std::pair<std::string, std::vector<std::string>>> concepts;
  for (const Question& q : bank.questions) {
    if (q.concept_id.empty()) continue;
    auto it = std::find_if(concepts.begin(), concepts.end(),
                           [&](const auto& entry) { return entry.first == q.concept_id; });
    if (it == concepts.end()) {
      concepts.emplace_back(q.concept_id, std::vector<std::string>{});
      it = std::prev(concepts.end());
    }
    it->second.push_back(q.id);
  }
  return concepts;
}

LintReport lint(const std::vector<Bank>& banks) {
  LintReport report;
  Linter linter(report);
  for (const Bank& bank : banks) {
    linter.list_waivers(bank);
    for (const Question& q : bank.questions) {
      few_options(linter, bank, q);
      longest_key(linter, bank, q);
      dismissive_option(linter, bank, q);
      answer_in_stem(linter, bank, q);
      letter_references(linter, bank, q);
      no_objective(linter, bank, q);
      stem_cites_material(linter, bank, q);
      untagged_distractor(linter, bank, q);
      constant_template(linter, bank, q);
      template_literal(linter, bank, q);
      precision(linter, bank, q);
    }
    length_cue(linter, bank);
    tf_balance(linter, bank);
    tf_length_cue(linter, bank);
    absolute_cue(linter, bank);
  }
  objective_overload(linter, banks);
  objective_unused(linter, banks);
  near_duplicates(linter, banks);
  cross_bank_duplicates(linter, banks);
  // Bank by bank, questions in file order, bank-level findings after the bank's questions.
  std::map<std::string, std::size_t> bank_order;
  std::map<std::pair<std::string, std::string>, std::size_t> question_order;
  for (const Bank& bank : banks) {
    bank_order.emplace(bank.id, bank_order.size());
    for (const Question& q : bank.questions)
      question_order.emplace(std::pair{bank.id, q.id}, question_order.size());
  }
  const auto rank = [&](const LintFinding& f) {
    const auto it = question_order.find({f.bank, f.id});
    return std::pair{bank_order[f.bank], it == question_order.end() ? SIZE_MAX : it->second};
  };
  std::stable_sort(report.findings.begin(), report.findings.end(),
                   [&](const LintFinding& a, const LintFinding& b) { return rank(a) < rank(b); });
  return report;
}

namespace {

std::string squeeze_spaces(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

// Lines of the lesson with leading spaces and symbols (a "⭐ " before a heading) taken off.
std::vector<std::string_view> line_starts(std::string_view lesson) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= lesson.size()) {
    std::size_t end = lesson.find('\n', start);
    if (end == std::string_view::npos) end = lesson.size();
    std::string_view line = lesson.substr(start, end - start);
    while (!line.empty() && !std::isalnum(static_cast<unsigned char>(line.front())))
      line.remove_prefix(1);
    if (!line.empty()) lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

bool starts_a_line(const std::vector<std::string_view>& lines, const std::string& section) {
  return std::any_of(lines.begin(), lines.end(), [&](std::string_view line) {
    if (line.substr(0, section.size()) != section) return false;
    if (line.size() == section.size()) return true;
    const auto next = static_cast<unsigned char>(line[section.size()]);
    return !std::isalnum(next) && next != '_';
  });
}

}  // namespace

std::vector<SourceProblem> check_sources(const std::vector<Bank>& banks,
                                         const std::string& lesson_name, std::string_view lesson) {
  std::vector<SourceProblem> problems;
  const std::string text = squeeze_spaces(lesson);
  const std::vector<std::string_view> lines = line_starts(lesson);
  const auto check = [&](const Bank& bank, const std::string& id, const std::string& what,
                         const Source& source) {
    if (!source.quote.empty() && text.find(squeeze_spaces(source.quote)) == std::string::npos) {
      problems.push_back(SourceProblem{
          id, bank.id,
          fmt::format("{}: the quote \"{}\" is not in {}, word for word; copy it from the lesson",
                      what, source.quote, lesson_name)});
    }
    if (!source.section.empty() && !starts_a_line(lines, source.section)) {
      problems.push_back(SourceProblem{
          id, bank.id,
          fmt::format("{}: the section \"{}\" is not a heading of {} (no line of it starts so); "
                      "name a section as the lesson writes it",
                      what, source.section, lesson_name)});
    }
  };
  for (const Bank& bank : banks) {
    if (bank.lesson != lesson_name) continue;
    for (const Trap& trap : bank.traps)
      check(bank, "", fmt::format("trap {}", trap.id), trap.source);
    for (const Objective& objective : bank.objectives)
      check(bank, "", fmt::format("objective {}", objective.id), objective.source);
    for (const Question& q : bank.questions)
      check(bank, q.id, q.id, q.source);
  }
  return problems;
}

}  // namespace proofdeck::bank
