// A learner's numeric answer: every notation questions/README.md lists reads as the same number,
// and anything else is asked again with a hint, never counted wrong.
#include <catch2/catch.hpp>
#include <variant>

#include "bank/numeric_answer.hpp"

using proofdeck::bank::numeric_matches;
using proofdeck::bank::NumericAnswer;
using proofdeck::bank::NumericAnswerError;
using proofdeck::bank::parse_numeric_answer;

namespace {

double value_of(const char* text) {
  const auto parsed = parse_numeric_answer(text);
  INFO(text);
  REQUIRE(std::holds_alternative<NumericAnswer>(parsed));
  return std::get<NumericAnswer>(parsed).value;
}

std::string hint_of(const char* text) {
  const auto parsed = parse_numeric_answer(text);
  INFO(text);
  REQUIRE(std::holds_alternative<NumericAnswerError>(parsed));
  return std::get<NumericAnswerError>(parsed).hint;
}

}  // namespace

TEST_CASE("every listed notation of 1,048,576 reads as 1048576", "[answer]") {
  for (const char* text : {"1048576", "1,048,576", "1_048_576", "2^20", "1.048576e6", " 1048576 ",
                           "3 * 512 * 512 + 512 * 512", "1048576\r"}) {
    CHECK(value_of(text) == 1048576.0);
  }
}

TEST_CASE("decimals, negatives and grouped decimals read as written", "[answer]") {
  CHECK(value_of("0.5") == 0.5);
  CHECK(value_of("-1,000") == -1000.0);
  CHECK(value_of("12,345.25") == 12345.25);
  CHECK(value_of("1e-5") == 1e-5);
}

TEST_CASE("misplaced commas are asked again, not read as another number", "[answer]") {
  const std::string comma_hint =
      "commas separate thousands (1,048,576); for a decimal point type 1.5";
  CHECK(hint_of("1,5") == comma_hint);
  CHECK(hint_of("10,48,576") == comma_hint);
  CHECK(hint_of("1,0485,76") == comma_hint);
  CHECK(hint_of("1.5,000") == comma_hint);
}

TEST_CASE("words, names and empty input are asked again with the notations", "[answer]") {
  const std::string hint =
      "type a number: 1048576, 1,048,576, 1_048_576, 2^20, 1.048576e6 or 3 * 512 * 512";
  for (const char* text : {"", "   ", "a lot", "d_model * 2", "1/0", "2^", "1e400"}) {
    CHECK(hint_of(text) == hint);
  }
}

TEST_CASE("a numeric answer matches its key within the tolerance", "[answer]") {
  CHECK(numeric_matches(1048576, 1048576, 0));
  CHECK_FALSE(numeric_matches(1000000, 1048576, 0));
  CHECK(numeric_matches(0.99, 1.0, 0.01));
  CHECK_FALSE(numeric_matches(0.98, 1.0, 0.01));
  CHECK(numeric_matches(1.04e6, 1048576, 0.01, true));
  CHECK_FALSE(numeric_matches(NAN, 1.0, 1.0));
}
