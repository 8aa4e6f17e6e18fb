// Numbers for people (see number.hpp).
#include "text/number.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

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

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";  // also -0
  // Integers in full while every integer is exact in a double (below 2^53).
  const bool integer = value == std::trunc(value) && std::fabs(value) < 9007199254740992.0;
  const std::string digits = integer ? std::to_string(static_cast<std::int64_t>(std::fabs(value)))
                                     : fmt::format("{:.10g}", std::fabs(value));
  return (std::signbit(value) ? "-" : "") + group_digits(digits);
}

namespace {

// 3 significant digits, exponent without padding: 1.05e6, 3.4e-17, 1e-12.
std::string scientific(double x) {
  std::string text = fmt::format("{:.2e}", x);
  const std::size_t e = text.find('e');
  std::string mantissa = text.substr(0, e);
  strip_trailing_zeros(mantissa);
  return fmt::format("{}e{}", mantissa, std::stoi(text.substr(e + 1)));
}

}  // namespace

std::string format_short(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  if (x == 0.0) return "0";
  const double magnitude = std::fabs(x);
  if (magnitude >= 1e15 || magnitude < 1e-3) return scientific(x);
  if (x == std::trunc(x)) return group_digits(fmt::format("{:.0f}", x));
  const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
  std::string text = fmt::format("{:.{}f}", x, std::max(0, 2 - exponent));
  strip_trailing_zeros(text);
  return group_digits(text);
}

}  // namespace proofdeck::text
