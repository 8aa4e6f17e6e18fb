// Reading a learner's numeric answer in every form questions/README.md lists: 1048576,
// 1,048,576, 1_048_576, 2^20, 1.048576e6, and small arithmetic such as 3 * 512 * 512 (the formula
// language without variables). Commas are thousands separators only in groups of three, so "1,5"
// is rejected rather than read as 15 or 1.5.
#pragma once

#include <string>
#include <string_view>
#include <variant>

namespace proofdeck::bank {

struct NumericAnswer {
  double value = 0.0;
};

struct NumericAnswerError {
  std::string hint;  // what to type instead, for the "asked again" prompt
};

std::variant<NumericAnswer, NumericAnswerError> parse_numeric_answer(std::string_view text);

// True when answer is within tolerance of key (absolute, or relative when relative is set).
bool numeric_matches(double answer, double key, double tolerance, bool relative = false);

}  // namespace proofdeck::bank
