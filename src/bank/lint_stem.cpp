// The lint rules on the prompt and the explanation (questions/README.md § Lint): a prompt that
// hands over the key, an explanation or feedback that names an option by the letter shuffling
// changes, a prompt that leans on the material instead of standing alone.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <regex>

#include <fmt/format.h>

#include "bank/lint_parts.hpp"
#include "bank/template.hpp"

namespace proofdeck::bank {

namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

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

}  // namespace proofdeck::bank
