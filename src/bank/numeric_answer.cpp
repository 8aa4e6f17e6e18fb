// Numeric answers: thousands separators, digit separators, powers and small arithmetic.
#include "bank/numeric_answer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

#include "bank/formula.hpp"
#include "bank/model.hpp"
#include "core/errors.hpp"
#include "text/number.hpp"
#include "text/utf8.hpp"

namespace proofdeck::bank {

namespace {

using text::is_ascii_digit;

// "-1,048,576.5" → "-1048576.5" when every comma separates a group of exactly three digits
// after a first group of one to three; sets `misplaced` (and returns "") otherwise.
std::string without_thousands_commas(std::string_view text, bool& misplaced) {
  misplaced = false;
  const std::size_t first_comma = text.find(',');
  if (first_comma == std::string_view::npos) return std::string(text);
  std::size_t start = 0;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) start = 1;
  const std::size_t point = text.find('.');
  const std::string_view integer_part =
      text.substr(start, (point == std::string_view::npos ? text.size() : point) - start);
  // Groups: 1–3 digits, then ",ddd" repeated.
  std::size_t lead = 0;
  while (lead < integer_part.size() && is_ascii_digit(integer_part[lead]))
    ++lead;
  bool ok = lead >= 1 && lead <= 3;
  std::size_t i = lead;
  while (ok && i < integer_part.size()) {
    ok = i + 4 <= integer_part.size() && integer_part[i] == ',' &&
         is_ascii_digit(integer_part[i + 1]) && is_ascii_digit(integer_part[i + 2]) &&
         is_ascii_digit(integer_part[i + 3]);
    i += 4;
  }
  ok = ok && i == integer_part.size();
  if (point != std::string_view::npos && text.find(',', point) != std::string_view::npos)
    ok = false;
  if (!ok) {
    misplaced = true;
    return {};
  }
  std::string plain;
  for (const char c : text) {
    if (c != ',') plain += c;
  }
  return plain;
}

}  // namespace

std::variant<NumericAnswer, NumericAnswerError> parse_numeric_answer(std::string_view text) {
  constexpr NumericAnswerError unreadable{NumericAnswerError::Kind::unreadable};
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  if (text.empty() || text.size() > 200) return unreadable;
  bool misplaced = false;
  const std::string plain = without_thousands_commas(text, misplaced);
  if (misplaced) return NumericAnswerError{NumericAnswerError::Kind::misplaced_commas};
  try {
    const Formula formula = Formula::parse(plain, "answer");
    if (!formula.variables().empty()) return unreadable;
    const double value = formula.evaluate({});
    return NumericAnswer{value};
  } catch (const InputError&) {
    return unreadable;
  }
}

NumberExample power_of_two(int exponent) {
  NumberExample example;
  example.value = std::ldexp(1.0, exponent);
  example.plain = fmt::format("{}", std::uint64_t{1} << exponent);
  example.grouped = text::group_digits(example.plain);
  example.underscored = example.grouped;
  std::replace(example.underscored.begin(), example.underscored.end(), ',', '_');
  example.power = fmt::format("2^{}", exponent);
  std::string digits = example.plain.substr(1);
  while (!digits.empty() && digits.back() == '0')
    digits.pop_back();
  example.scientific = fmt::format("{}{}{}e{}", example.plain[0], digits.empty() ? "" : ".", digits,
                                   example.plain.size() - 1);
  example.product = exponent >= 19 ? fmt::format("{}*512*512", std::uint64_t{1} << (exponent - 18))
                                   : fmt::format("{}*1024", std::uint64_t{1} << (exponent - 10));
  return example;
}

std::string numeric_answer_hint(const NumericAnswerError& error, const NumberExample& example) {
  switch (error.kind) {
    case NumericAnswerError::Kind::unreadable:
      if (!example.decimal.empty()) {
        return fmt::format("type a number: {}, {}, {}, {}, {}, {} or a decimal such as {}",
                           example.plain, example.grouped, example.underscored, example.power,
                           example.scientific, example.product, example.decimal);
      }
      return fmt::format("type a number: {}, {}, {}, {}, {} or {}", example.plain, example.grouped,
                         example.underscored, example.power, example.scientific, example.product);
    case NumericAnswerError::Kind::misplaced_commas:
      return fmt::format("commas separate thousands ({}); for a decimal point type 1.5",
                         example.grouped);
  }
  return {};
}

bool numeric_matches(double answer, double key, double tolerance, bool relative) {
  if (!std::isfinite(answer) || !std::isfinite(key)) return false;
  NumericKey rule;
  rule.tolerance = tolerance;
  rule.relative = relative;
  const double allowed = rule.allowed(key);
  // A few units in the last place of slack, so 0.99 is within 0.01 of 1 although 1 − 0.99 is
  // 0.010000000000000009 in binary floating point.
  const double slack =
      4 * std::numeric_limits<double>::epsilon() * std::max(std::abs(answer), std::abs(key));
  return std::abs(answer - key) <= allowed + slack;
}

}  // namespace proofdeck::bank
