// What each prompt phrase means (questions/README.md § Lint, precision).
#include "bank/precision.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <regex>

#include <fmt/format.h>

#include "bank/formula.hpp"
#include "bank/model.hpp"
#include "text/number.hpp"

namespace proofdeck::bank {

namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// "two" → 2, "3" → 3.
std::optional<int> count_word(const std::string& word) {
  static const std::map<std::string, int> numbers = {{"one", 1},  {"two", 2},  {"three", 3},
                                                     {"four", 4}, {"five", 5}, {"six", 6}};
  if (const auto it = numbers.find(word); it != numbers.end()) return it->second;
  if (!word.empty() && word.size() <= 2 && std::all_of(word.begin(), word.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      })) {
    return std::stoi(word);
  }
  return std::nullopt;
}

}  // namespace

std::optional<Precision> asked_precision(const std::string& prompt) {
  static const std::regex places(R"(\b(\w+) (decimal places?|decimals?|d\.p\.))",
                                 std::regex::icase);
  static const std::regex significant(R"(\b(\w+) (significant (figures|digits)|s\.f\.))",
                                      std::regex::icase);
  static const std::regex nearest(R"(nearest (0\.0*1)\b)", std::regex::icase);
  static const std::regex named(R"(nearest (whole number|integer|tenth|hundredth|thousandth))",
                                std::regex::icase);
  std::smatch match;
  if (std::regex_search(prompt, match, places)) {
    if (const auto n = count_word(lower(match[1].str())))
      return Precision{Precision::Kind::decimals, *n};
  }
  if (std::regex_search(prompt, match, significant)) {
    if (const auto n = count_word(lower(match[1].str())))
      return Precision{Precision::Kind::significant, *n};
  }
  if (std::regex_search(prompt, match, nearest)) {
    return Precision{Precision::Kind::decimals, static_cast<int>(match[1].str().size()) - 2};
  }
  if (std::regex_search(prompt, match, named)) {
    static const std::map<std::string, int> digits = {
        {"whole number", 0}, {"integer", 0}, {"tenth", 1}, {"hundredth", 2}, {"thousandth", 3}};
    return Precision{Precision::Kind::decimals, digits.at(lower(match[1].str()))};
  }
  return std::nullopt;
}

namespace {

// Decimals that `precision` keeps of `value`.
int decimals_of(double value, const Precision& precision) {
  if (precision.kind == Precision::Kind::decimals || value == 0) return precision.digits;
  return precision.digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(value))));
}

}  // namespace

double rounded(double value, const Precision& precision) {
  const double scale = std::pow(10.0, decimals_of(value, precision));
  return std::round(value * scale) / scale;
}

namespace {

// How a key is shown: rounded to a number of decimals (negative: to tens, hundreds, …).
int shown_decimals(double key, const std::string& prompt, double allowed) {
  if (key == std::trunc(key)) return 0;
  if (const std::optional<Precision> asked = asked_precision(prompt))
    return std::max(0, decimals_of(key, *asked));
  const int digits = text::digits_within(key, allowed / 10);
  return digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(key))));
}

}  // namespace

std::string key_text(double key, const std::string& prompt, double allowed) {
  if (!std::isfinite(key) || key == std::trunc(key)) return format_number(key);
  const std::optional<Precision> asked = asked_precision(prompt);
  if (!asked) return text::format_readable(key, text::digits_within(key, allowed / 10));
  // A whole number is shown whole: the exact answer is right at any precision.
  const int decimals = decimals_of(key, *asked);
  if (decimals <= 0) return format_number(rounded(key, *asked));
  // The asked decimals are kept ("4,095.500" to three places); the integer part grouped by the
  // number rule, as everywhere else the number is written.
  return text::group_digits(fmt::format("{:.{}f}", rounded(key, *asked), std::min(decimals, 15)));
}

std::string with_unit(const std::string& number, double value, const std::string& unit) {
  if (unit.empty()) return number;
  std::string shown = unit;
  // "bytes" → "byte", "query heads" → "query head"; not "ms", "class" or "axis".
  const std::size_t word = shown.find_last_of(' ') + 1;  // npos + 1: the whole unit
  const std::string_view last = std::string_view(shown).substr(word);
  if (value == 1.0 && last.size() >= 4 && last.back() == 's' && !last.ends_with("ss") &&
      !last.ends_with("is") && !last.ends_with("us"))
    shown.pop_back();
  return number + " " + shown;
}

std::string tolerance_text(double key, const std::string& prompt, double tolerance, bool relative) {
  if (!(tolerance > 0) || !std::isfinite(key)) return "";
  NumericKey rule;
  rule.tolerance = tolerance;
  rule.relative = relative;
  const double allowed = rule.allowed(key);
  // A tolerance under half a unit of the shown key's last digit adds nothing to it.
  if (allowed < 0.5 * std::pow(10.0, -shown_decimals(key, prompt, allowed))) return "";
  // Percentages read well down to a hundredth of a percent; finer ones as the absolute amount.
  if (relative && tolerance >= 1e-4) return " (±" + text::format_readable(tolerance * 100) + "%)";
  return " (±" + text::format_readable(allowed) + ")";
}

}  // namespace proofdeck::bank
