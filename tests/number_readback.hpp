// Reading a number back from the way proofdeck prints it for people ("1,047,656.1",
// "3.367×10⁻⁹"), to check that what a learner reads is the number it stands for: within half a
// unit of its last written digit, and never written as an integer when it is not one.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace proofdeck::testing {

struct ReadBack {
  double value = 0.0;
  double half_unit = 0.0;  // half a unit of the last digit written
  bool integer = false;    // written with neither a fraction nor an exponent
};

inline std::optional<ReadBack> read_back(std::string_view text) {
  static const std::string_view superscripts[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string mantissa;
  int exponent = 0;
  const std::size_t times = text.find("×10");
  for (const char c : text.substr(0, times)) {
    if (c != ',') mantissa += c;
  }
  if (mantissa.empty() || mantissa.find_first_not_of("-0123456789.") != std::string::npos)
    return std::nullopt;
  if (times != std::string_view::npos) {
    std::string_view rest = text.substr(times + std::string_view("×10").size());
    bool negative = false;
    if (rest.substr(0, 3) == "⁻") {
      negative = true;
      rest.remove_prefix(3);
    }
    if (rest.empty()) return std::nullopt;
    while (!rest.empty()) {
      int digit = -1;
      for (int d = 0; d < 10; ++d) {
        if (rest.substr(0, superscripts[d].size()) == superscripts[d]) digit = d;
      }
      if (digit < 0) return std::nullopt;
      exponent = exponent * 10 + digit;
      rest.remove_prefix(superscripts[digit].size());
    }
    if (negative) exponent = -exponent;
  }
  const std::size_t point = mantissa.find('.');
  const int decimals =
      point == std::string::npos ? 0 : static_cast<int>(mantissa.size() - point - 1);
  ReadBack read;
  read.value = std::strtod(mantissa.c_str(), nullptr) * std::pow(10.0, exponent);
  read.half_unit = 0.5 * std::pow(10.0, exponent - decimals);
  read.integer = point == std::string::npos && times == std::string_view::npos;
  return read;
}

// Empty when `text` is an honest writing of `value`, else what is wrong with it.
inline std::string misreads(std::string_view text, double value) {
  if (std::isnan(value)) return text == "nan" ? "" : "nan written as " + std::string(text);
  if (std::isinf(value)) return text == (value > 0 ? "inf" : "-inf") ? "" : "inf misread";
  const auto read = read_back(text);
  if (!read) return "'" + std::string(text) + "' is not a number";
  const double slack = read->half_unit * (1 + 1e-9) + std::fabs(value) * 1e-15;
  if (std::fabs(read->value - value) > slack) return "'" + std::string(text) + "' is too far off";
  // An integer to 15 significant digits counts as one (arithmetic noise is not spelled out).
  char rounded[64];
  std::snprintf(rounded, sizeof rounded, "%.14e", value);
  const double to_15_digits = std::strtod(rounded, nullptr);
  if (read->integer && to_15_digits != std::trunc(to_15_digits))
    return "'" + std::string(text) + "' writes a non-integer as an integer";
  return "";
}

}  // namespace proofdeck::testing
