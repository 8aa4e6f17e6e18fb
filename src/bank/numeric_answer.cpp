// Numeric answers: thousands separators, digit separators, powers and small arithmetic.
#include "bank/numeric_answer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "bank/formula.hpp"
#include "core/errors.hpp"

namespace proofdeck::bank {

namespace {

constexpr const char* kHint =
    "type a number: 1048576, 1,048,576, 1_048_576, 2^20, 1.048576e6 or 3 * 512 * 512";

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

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
  while (lead < integer_part.size() && is_digit(integer_part[lead]))
    ++lead;
  bool ok = lead >= 1 && lead <= 3;
  std::size_t i = lead;
  while (ok && i < integer_part.size()) {
    ok = i + 4 <= integer_part.size() && integer_part[i] == ',' && is_digit(integer_part[i + 1]) &&
         is_digit(integer_part[i + 2]) && is_digit(integer_part[i + 3]);
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
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  if (text.empty() || text.size() > 200) return NumericAnswerError{kHint};
  bool misplaced = false;
  const std::string plain = without_thousands_commas(text, misplaced);
  if (misplaced) {
    return NumericAnswerError{
        "commas separate thousands (1,048,576); for a decimal point type 1.5"};
  }
  try {
    const Formula formula = Formula::parse(plain, "answer");
    if (!formula.variables().empty()) return NumericAnswerError{kHint};
    const double value = formula.evaluate({});
    return NumericAnswer{value};
  } catch (const InputError&) {
    return NumericAnswerError{kHint};
  }
}

bool numeric_matches(double answer, double key, double tolerance, bool relative) {
  if (!std::isfinite(answer) || !std::isfinite(key)) return false;
  const double allowed = relative ? tolerance * std::abs(key) : tolerance;
  // A few units in the last place of slack, so 0.99 is within 0.01 of 1 although 1 − 0.99 is
  // 0.010000000000000009 in binary floating point.
  const double slack =
      4 * std::numeric_limits<double>::epsilon() * std::max(std::abs(answer), std::abs(key));
  return std::abs(answer - key) <= allowed + slack;
}

}  // namespace proofdeck::bank
