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
  enum class Kind {
    unreadable,        // not a number in any notation
    misplaced_commas,  // "1,5": a comma that does not separate a group of three digits
  };
  Kind kind = Kind::unreadable;
};

std::variant<NumericAnswer, NumericAnswerError> parse_numeric_answer(std::string_view text);

// One number written in every notation parse_numeric_answer reads, for the examples a question
// shows (bank/instance.hpp's number_example chooses the number).
struct NumberExample {
  double value = 0.0;
  std::string plain;        // 4194304
  std::string grouped;      // 4,194,304
  std::string underscored;  // 4_194_304
  std::string power;        // 2^22
  std::string scientific;   // 4.194304e6
  std::string product;      // 16*512*512
  // A decimal such as 1.5, for a question whose key has decimals (else empty): the learner sees
  // that a decimal point is read too.
  std::string decimal;
};

// 2^exponent (10 to 62) in every notation.
NumberExample power_of_two(int exponent);

// What to type instead, for the "asked again" prompt, with the example's notations:
// "type a number: 4194304, 4,194,304, 4_194_304, 2^22, 4.194304e6 or 16*512*512" (and "or a
// decimal such as 1.5" when the example has one).
std::string numeric_answer_hint(const NumericAnswerError& error, const NumberExample& example);

// True when answer is within tolerance of key (absolute, or relative when relative is set).
bool numeric_matches(double answer, double key, double tolerance, bool relative = false);

}  // namespace proofdeck::bank
