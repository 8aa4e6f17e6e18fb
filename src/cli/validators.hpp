// Checks for option values that say in words what is allowed. A failing check returns
// "expected a whole number from 1 to 100000" (every message here starts with "expected "), and
// the usage error names the option and the value: "--count 0: expected a whole number from 1 to
// 100000" (usage_error.hpp). The help keeps CLI11's notation: "-n,--count INT:INT in [1 - 100000]".
#pragma once

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <concepts>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace proofdeck::cli {

// "a whole number from 1 to 100000": what whole_number(1, 100000) expects, for checks made
// elsewhere to say it the same way.
template <std::integral Integer>
std::string whole_number_words(Integer lowest, Integer highest) {
  return fmt::format("a whole number from {} to {}", lowest, highest);
}

// A whole number in [lowest, highest], in the option's own type so that a value that passes
// converts. Plain decimal only, because CLI11 converts with strtoll's base 0 after the check
// (which may not change the text): 020 would be octal 16, 0x10 hexadecimal, and --seed -1 would
// wrap round to 2^64 - 1. Without bounds, any value of the type (the help then shows the type).
template <std::integral Integer>
CLI::Validator whole_number(Integer lowest = std::numeric_limits<Integer>::min(),
                            Integer highest = std::numeric_limits<Integer>::max()) {
  const bool whole_type = lowest == std::numeric_limits<Integer>::min() &&
                          highest == std::numeric_limits<Integer>::max();
  const std::string help =
      whole_type ? ""
                 : fmt::format("{} in [{} - {}]", std::is_signed_v<Integer> ? "INT" : "UINT",
                               lowest, highest);
  return CLI::Validator(
      [lowest, highest, expected = "expected " + whole_number_words(lowest, highest)](
          std::string& input) -> std::string {
        Integer value{};
        const char* const end = input.data() + input.size();
        const auto [stop, error] = std::from_chars(input.data(), end, value);
        if (error != std::errc{} || stop != end || value < lowest || value > highest)
          return expected;
        const std::size_t first_digit = input.front() == '-' ? 1 : 0;
        if (input[first_digit] == '0' && input.size() > first_digit + 1)
          return expected + ", without leading zeros";
        return {};
      },
      help);
}

// A number in [lowest, highest]: decimals or scientific notation (0.5, 1e-3); never nan or inf.
CLI::Validator number(double lowest, double highest);

// One of `choices`, exactly.
CLI::Validator one_of(std::vector<std::string> choices);

// "text, json or junit"
std::string one_of_words(const std::vector<std::string>& choices);

// What a value outside `choices` is told: "expected text, json or junit", and "; did you mean
// json?" for a near miss or an abbreviation ("m" → multi, "tf" → truefalse).
std::string one_of_failure(const std::string& value, const std::vector<std::string>& choices);

}  // namespace proofdeck::cli
