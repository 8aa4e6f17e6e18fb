// The literal-measured rule (questions/README.md § Lint): an explanation (or an option's
// feedback) that writes a number the engine measured in the question's own proof, instead of
// quoting it with {value:NAME}. Written out, the number stays when the engine's result moves —
// a fix, a new seed, a finer kernel — and the explanation then contradicts the proof beside it.
#include <cmath>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bank/lint_parts.hpp"
#include "bank/proof.hpp"
#include "bank/template.hpp"
#include "core/errors.hpp"

namespace proofdeck::bank {

namespace {

// A number as prose writes it: its value, the decimals it gives, and whether a % follows.
struct Literal {
  std::string text;
  double value = 0.0;
  int decimals = 0;
  bool percent = false;
};

// The text without its {…} references and placeholders, whose numbers are not written out.
std::string without_references(std::string_view text) {
  std::string out;
  int depth = 0;
  for (const char c : text) {
    if (c == '{') ++depth;
    if (depth == 0) out += c;
    if (c == '}' && depth > 0) --depth;
  }
  return out;
}

// Digits from the first that is not zero: "0.5" has one, "1.0" two, "0.25" two.
std::size_t significant_digits(const std::string& digits) {
  const std::size_t first = digits.find_first_not_of('0');
  return first == std::string::npos ? 0 : digits.size() - first;
}

// "×10⁻⁹" or a superscript after a number: a mantissa or a power, not a value of its own.
bool followed_by_exponent(std::string_view text, std::size_t at) {
  const std::string_view rest = text.substr(at);
  for (const std::string_view mark : {"×", "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹", "⁻"}) {
    if (rest.starts_with(mark)) return true;
  }
  return false;
}

// Numbers that say something a measurement could: a decimal fraction of two significant digits
// or more ("0.25", "1,365.3"; "0.5" matches too much by chance) or an integer of three digits or
// more ("2,048"). Small integers count things the prose names (two
// heads, 12 layers) far more often than they quote a measurement; a number inside a word
// ("d_model", "fp16", "h8") or an exponent is no literal.
std::vector<Literal> literals(std::string_view raw) {
  static const std::regex number(
      R"((^|[^0-9A-Za-z_.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![0-9A-Za-z_])(%?))");
  const std::string text = without_references(raw);
  std::vector<Literal> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), number);
       it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    std::string whole = m[2].str();
    std::erase(whole, ',');
    const std::string fraction = m[3].matched ? m[3].str() : "";
    if (fraction.empty() && whole.size() < 3) continue;
    if (significant_digits(whole + fraction) < 2) continue;
    if (followed_by_exponent(text, static_cast<std::size_t>(m.position(0) + m.length(0)))) continue;
    Literal literal;
    literal.text = m[2].str() + (fraction.empty() ? "" : "." + fraction);
    literal.value = std::stod(whole + (fraction.empty() ? "" : "." + fraction));
    literal.decimals = static_cast<int>(fraction.size());
    literal.percent = m[4].length() > 0;
    if (literal.percent) literal.text += "%";
    out.push_back(std::move(literal));
  }
  return out;
}

// The decimals proofdeck prints a value with (measured_text, by the number rule): 4 for
// "0.3054", 0 for "256"; nullopt for a power of ten ("1.4×10⁻¹⁴"), which prose never copies.
std::optional<int> printed_decimals(const demo::Value& value) {
  const std::string printed = measured_text(value);
  if (printed.find("×") != std::string::npos) return std::nullopt;
  const std::size_t point = printed.find('.');
  return point == std::string::npos ? 0 : static_cast<int>(printed.size() - point - 1);
}

// Whether the literal writes the value as proofdeck prints it, or with more digits: it has at
// least the printed value's decimals and, rounded to its own, equals the value. A rounder figure
// ("about 0.25" for 0.2483) is a paraphrase, often of a population average the proof's one run
// only approaches, and is not flagged.
bool writes(const Literal& literal, const demo::Value& value) {
  const double shown = std::fabs(literal.percent ? 100.0 * value.number : value.number);
  if (!std::isfinite(shown) || shown == 0.0) return false;
  const std::optional<int> printed = printed_decimals(value);
  if (!printed || literal.decimals < *printed - (literal.percent ? 2 : 0)) return false;
  const double step = std::pow(10.0, -literal.decimals);
  return std::fabs(shown - literal.value) <= 0.5 * step * (1.0 + 1e-9);
}

// A literal the run's parameters or arithmetic on them give exactly (top-p 0.9, width 512) names
// that number, not the measurement that happens to round to it.
bool names_a_parameter(const Literal& literal, const demo::DemoResult& result) {
  const auto exact = [&](double x) {
    return std::fabs((literal.percent ? 100.0 * x : x) - literal.value) <= 1e-12;
  };
  for (const auto& [name, value] : result.values) {
    if (value.kind == demo::Value::Kind::number && value.provenance != demo::Provenance::measured &&
        value.provenance != demo::Provenance::counted && exact(value.number)) {
      return true;
    }
  }
  for (const auto& [name, param] : result.params.items()) {
    if (param.is_number() && exact(param.get<double>())) return true;
    if (!param.is_array()) continue;
    for (const auto& item : param) {
      if (item.is_number() && exact(item.get<double>())) return true;
    }
  }
  return false;
}

std::optional<Bindings> first_draw(const Question& q) {
  if (!q.templ) return Bindings{};
  std::optional<Bindings> first;
  try {
    for_each_admitted(*q.templ, [&](const Bindings& bindings) {
      if (!first) first = bindings;
    });
  } catch (const Error&) {
    return std::nullopt;  // the loader reported it
  }
  return first;
}

}  // namespace

void literal_measured(Linter& linter, const Bank& bank, const Question& q, DemoRunner& runner) {
  if (!q.proof) return;
  const std::optional<Bindings> bindings = first_draw(q);
  if (!bindings) return;
  const demo::DemoResult* result = nullptr;
  try {
    result = &runner.run(*q.proof, *bindings, q.file + ": " + q.proof->pointer);
  } catch (const std::exception&) {
    return;  // a demo that cannot run is check's failure, reported there
  }
  std::vector<std::pair<std::string, std::string>> texts = {{"the explanation", q.explanation}};
  for (const Option& option : q.options) {
    if (!option.feedback.empty())
      texts.emplace_back(fmt::format("option {}'s feedback", option.id), option.feedback);
  }
  for (const auto& [where, text] : texts) {
    std::set<std::string> seen;
    for (const Literal& literal : literals(text)) {
      if (!seen.insert(literal.text).second || names_a_parameter(literal, *result)) continue;
      for (const auto& [name, value] : result->values) {
        if (value.kind != demo::Value::Kind::number ||
            value.provenance != demo::Provenance::measured || !writes(literal, value)) {
          continue;
        }
        linter.add(bank, &q, "literal-measured",
                   fmt::format("{} writes {}, which is {} ({}), measured by its proof: quote it "
                               "as {{value:{}}} so the text follows the engine",
                               where, literal.text, name, measured_text(value), name));
        break;
      }
    }
  }
}

}  // namespace proofdeck::bank
