// The lint rules on templates and numeric keys (questions/README.md § Lint): a template whose
// every draw has one answer, an explanation stating a number no draw computes, a key the prompt
// does not say the precision of or the tolerance rejects at that precision, two distractors that
// give one number in a draw.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/lint_parts.hpp"
#include "bank/numeric_answer.hpp"
#include "bank/precision.hpp"
#include "bank/template.hpp"
#include "core/errors.hpp"

namespace proofdeck::bank {

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

namespace {

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
    // A coefficient, base or exponent of a formula over names ("3·d_model²", "2^{bits}",
    // "d^0.5") holds for every draw.
    const std::string_view rest = text.substr(end);
    const bool coefficient = [&] {
      for (const std::string_view op : {"·", "×", "*", "/", "^"}) {
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

}  // namespace

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

namespace {

std::string draw_text(const Bindings& bindings) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : bindings)
    parts.push_back(fmt::format("{}={}", name, format_number(value)));
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace

void distractors_coincide(Linter& linter, const Bank& bank, const Question& q) {
  for (const auto& drawn : numeric_keys(q)) {
    const Bindings& bindings = drawn.first;
    for (std::size_t i = 0; i < q.distractors.size(); ++i) {
      for (std::size_t j = i + 1; j < q.distractors.size(); ++j) {
        const Distractor& a = q.distractors[i];
        const Distractor& b = q.distractors[j];
        if (a.trap == b.trap) continue;
        double first = 0, second = 0;
        try {
          first = a.value(bindings);
          second = b.value(bindings);
        } catch (const Error&) {
          continue;  // the loader refuses a formula undefined in an admitted draw
        }
        if (!numeric_matches(first, second, q.key.tolerance, q.key.relative)) continue;
        const std::string draw = bindings.empty() ? "" : " in the draw " + draw_text(bindings);
        linter.add(bank, &q, "distractors-coincide",
                   fmt::format("the distractors of traps {} and {} both give {}{}: an answer of "
                               "it cannot say which misconception it shows, and feedback names "
                               "only the first; constrain the template or change a distractor",
                               a.trap, b.trap, format_number(first), draw));
        return;
      }
    }
  }
}

}  // namespace proofdeck::bank
