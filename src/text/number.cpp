// Numbers for people (see number.hpp).
#include "text/number.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace proofdeck::text {

std::string group_digits(std::string_view number) {
  const std::size_t start = (!number.empty() && (number[0] == '-' || number[0] == '+')) ? 1 : 0;
  const std::size_t end = std::min(number.find_first_not_of("0123456789", start), number.size());
  // Only plain decimals: an exponent or a word leaves the text as it is.
  const std::string_view rest = number.substr(end);
  const bool plain =
      end > start &&
      (rest.empty() || (rest[0] == '.' &&
                        rest.substr(1).find_first_not_of("0123456789") == std::string_view::npos));
  if (!plain || end - start < 4) return std::string(number);
  std::string out(number.substr(0, start));
  for (std::size_t i = start; i < end; ++i) {
    out += number[i];
    const std::size_t remaining = end - i - 1;
    if (remaining > 0 && remaining % 3 == 0) out += ',';
  }
  return out + std::string(rest);
}

void strip_trailing_zeros(std::string& number) {
  if (number.find('.') == std::string::npos) return;
  while (number.back() == '0')
    number.pop_back();
  if (number.back() == '.') number.pop_back();
}

namespace {

// A nonzero integer of magnitude below `below`, grouped ("-1,048,576"); nullopt otherwise.
std::optional<std::string> integer_in_full(double value, double below) {
  if (value == 0 || value != std::trunc(value) || !(std::fabs(value) < below)) return std::nullopt;
  return (std::signbit(value) ? "-" : "") +
         group_digits(std::to_string(static_cast<std::int64_t>(std::fabs(value))));
}

// "1.33×10⁻¹⁵": |value| with `decimals` in its mantissa, trailing zeros kept, and no sign.
std::string with_exponent(double value, int decimals) {
  const std::string text = fmt::format("{:.{}e}", std::fabs(value), decimals);
  const std::size_t e = text.find('e');
  return text.substr(0, e) + "×10" + superscript(std::stoi(text.substr(e + 1)));
}

constexpr std::string_view kTimesTen = "×10";

// Decimals of a plain number or of an exponent's mantissa: "0.35" 2, "1.5×10⁻¹⁶" 1.
int decimals_of(std::string_view number) {
  const std::string_view mantissa = number.substr(0, number.find(kTimesTen));
  const std::size_t dot = mantissa.find('.');
  return dot == std::string_view::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
}

// Whether `value` rounds to an integer at 15 significant digits.
bool integer_to_15_digits(double value) {
  const double rounded = std::stod(fmt::format("{:.14e}", value));
  return rounded == std::trunc(rounded);
}

}  // namespace

std::string format_number(double value) {
  // Exactly: an integer below 2^53 is exact in a double, so it is written in full and reads back
  // as typed (9007199254640993, not 9.007199255×10¹⁵); figures keep the exponent from 10^15.
  if (auto full = integer_in_full(value, 9007199254740992.0)) return *full;
  return format_readable(value, 10);
}

std::string format_short(double x) {
  return format_readable(x, 3);
}

std::string superscript(int exponent) {
  static const char* const digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string out = exponent < 0 ? "⁻" : "";
  for (const char c : std::to_string(std::abs(exponent)))
    out += digits[c - '0'];
  return out;
}

std::string format_readable(double value, int significant) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";
  // Integers in full below 10^15 (every one of them is exact in a double).
  if (auto full = integer_in_full(value, 1e15)) return *full;
  significant = std::clamp(significant, 1, 17);
  // Rounded first, so 0.000099996 becomes 0.0001 and is written as one.
  const std::string scientific_text = fmt::format("{:.{}e}", std::fabs(value), significant - 1);
  const std::size_t e = scientific_text.find('e');
  const int exponent = std::stoi(scientific_text.substr(e + 1));
  const std::string sign = std::signbit(value) ? "-" : "";
  if (exponent < -5 || exponent >= 15) {
    std::string mantissa = scientific_text.substr(0, e);
    strip_trailing_zeros(mantissa);
    // No spaces: a number never breaks across lines, in prose or in a figure's label.
    return sign + mantissa + "×10" + superscript(exponent);
  }
  int decimals = std::max(0, significant - 1 - exponent);
  std::string fixed = fmt::format("{:.{}f}", std::fabs(value), decimals);
  strip_trailing_zeros(fixed);
  // A non-integer is never written as an integer (2047.875 is "2,047.9", not "2,048", beside a
  // key of 2047.875): decimals are added until the first one that differs shows. A value that is
  // an integer to 15 significant digits (what a double holds for sure) counts as one, so
  // arithmetic noise (8.000000000000002) is not spelled out.
  if (fixed.find('.') == std::string::npos && !integer_to_15_digits(value)) {
    while (fixed.find('.') == std::string::npos && decimals < 15 - exponent) {
      fixed = fmt::format("{:.{}f}", std::fabs(value), ++decimals);
      strip_trailing_zeros(fixed);
    }
  }
  return sign + group_digits(fixed);
}

std::vector<std::string> format_column(const std::vector<double>& values, int significant) {
  std::vector<std::string> texts;
  int plain_decimals = 0, mantissa_decimals = 0;
  for (const double value : values) {
    texts.push_back(format_readable(value, significant));
    if (!std::isfinite(value)) continue;
    int& decimals =
        texts.back().find(kTimesTen) == std::string::npos ? plain_decimals : mantissa_decimals;
    decimals = std::max(decimals, decimals_of(texts.back()));
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double value = values[i];
    if (!std::isfinite(value)) continue;
    const std::string sign = std::signbit(value) ? "-" : "";
    if (texts[i].find(kTimesTen) != std::string::npos) {
      texts[i] = sign + with_exponent(value, mantissa_decimals);
    } else if (plain_decimals > 0) {
      const std::string fixed = fmt::format("{:.{}f}", std::fabs(value), plain_decimals);
      // Rounded to nothing is 0, never -0 (-0 itself included).
      const bool zero = fixed.find_first_not_of("0.") == std::string::npos;
      texts[i] = (zero ? "" : sign) + group_digits(fixed);
    }
  }
  return texts;
}

int digits_within(double value, double allowed, int at_least) {
  if (!std::isfinite(value) || value == 0) return at_least;
  int digits = std::clamp(at_least, 1, 17);
  for (; digits < 17; ++digits) {
    const double shown = std::stod(fmt::format("{:.{}e}", value, digits - 1));
    if (shown == value || std::fabs(shown - value) <= allowed) break;
  }
  return digits;
}

std::string count(double n, std::string_view one, std::string_view many) {
  return format_number(n) + " " + std::string(n == 1.0 ? one : many);
}

std::string percent(double share) {
  return fmt::format("{:.0f}%", 100.0 * share);
}

std::string percent_of(double part, double whole) {
  return fmt::format("{:.0f}%", 100.0 * part / whole);
}

std::string percent_range(double low, double high) {
  return fmt::format("{:.0f}–{:.0f}", 100.0 * low, 100.0 * high);
}

std::string chance_percent(double chance) {
  if (chance > 0.0 && chance < 0.005) return "under 1%";
  if (chance < 1.0 && chance > 0.995) return "over 99%";
  return percent(chance);
}

}  // namespace proofdeck::text
