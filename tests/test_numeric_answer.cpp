// A learner's numeric answer: every notation questions/README.md lists reads as the same number,
// and anything else is asked again with a hint, never counted wrong; the example numbers a
// question shows are never one of its answers.
#include <catch2/catch.hpp>
#include <cmath>
#include <regex>
#include <string>
#include <variant>
#include <vector>

#include "bank/instance.hpp"
#include "bank/numeric_answer.hpp"
#include "bank/sources.hpp"
#include "bank/template.hpp"
#include "cli_test_support.hpp"
#include "golden.hpp"

namespace test_numeric_answer {

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

// The hint for input that does not parse, with 2^22 as the question's example.
std::string hint_of(const char* text) {
  const auto parsed = parse_numeric_answer(text);
  INFO(text);
  REQUIRE(std::holds_alternative<NumericAnswerError>(parsed));
  return proofdeck::bank::numeric_answer_hint(std::get<NumericAnswerError>(parsed),
                                              proofdeck::bank::power_of_two(22));
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
      "commas separate thousands (4,194,304); for a decimal point type 1.5";
  CHECK(hint_of("1,5") == comma_hint);
  CHECK(hint_of("10,48,576") == comma_hint);
  CHECK(hint_of("1,0485,76") == comma_hint);
  CHECK(hint_of("1.5,000") == comma_hint);
}

TEST_CASE("words, names and empty input are asked again with the notations", "[answer]") {
  const std::string hint =
      "type a number: 4194304, 4,194,304, 4_194_304, 2^22, 4.194304e6 or 16*512*512";
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

// --- the examples a question shows ---------------------------------------------------------------

namespace {

using proofdeck::bank::Instance;
using proofdeck::bank::Question;
using proofdeck::bank::QuestionType;

// Every way the question can be drawn: each admitted combination of a template's parameters, or
// the question as it is.
std::vector<Instance> every_draw(const Question& q) {
  std::vector<Instance> draws;
  const auto draw = [&](const proofdeck::bank::Bindings& bindings) {
    Instance instance;
    instance.question = &q;
    instance.bindings = bindings;
    instance.key = q.templ ? q.templ->answer->evaluate(bindings) : q.key.value.value_or(0.0);
    draws.push_back(instance);
  };
  if (q.templ) {
    proofdeck::bank::for_each_admitted(*q.templ, draw);
  } else {
    draw({});
  }
  return draws;
}

// Every notation of the example, each read back by the parser.
void check_notations(const proofdeck::bank::NumberExample& example) {
  for (const std::string& text : {example.plain, example.grouped, example.underscored,
                                  example.power, example.scientific, example.product}) {
    INFO(text);
    CHECK(value_of(text.c_str()) == example.value);
  }
}

}  // namespace

TEST_CASE("every notation of an example number reads back as that number", "[answer]") {
  for (int exponent = 10; exponent <= 62; ++exponent)
    check_notations(proofdeck::bank::power_of_two(exponent));
  const auto example = proofdeck::bank::power_of_two(22);
  CHECK(example.plain == "4194304");
  CHECK(example.grouped == "4,194,304");
  CHECK(example.underscored == "4_194_304");
  CHECK(example.power == "2^22");
  CHECK(example.scientific == "4.194304e6");
  CHECK(example.product == "16*512*512");
  CHECK(proofdeck::bank::power_of_two(10).scientific == "1.024e3");
  CHECK(proofdeck::bank::power_of_two(12).product == "4*1024");
}

TEST_CASE("no example a built-in question shows is one of its answers, in any draw",
          "[answer][example]") {
  std::size_t draws = 0, decimal_draws = 0;
  for (const auto& bank : proofdeck::bank::load_banks(proofdeck::bank::BankSources{{}, true})) {
    for (const Question& q : bank.questions) {
      for (const Instance& instance : every_draw(q)) {
        const auto example = proofdeck::bank::number_example(instance);
        INFO(q.id << " example " << example.plain);
        if (q.type == QuestionType::numeric) {
          ++draws;
          CHECK(!numeric_matches(example.value, instance.key, q.key.tolerance, q.key.relative));
          for (const double value : proofdeck::bank::distractor_values(instance))
            CHECK(!numeric_matches(example.value, value, q.key.tolerance, q.key.relative));
          // A key with decimals shows a decimal example, itself no answer; a whole key none.
          CHECK(example.decimal.empty() == (std::floor(instance.key) == instance.key));
          if (!example.decimal.empty()) {
            ++decimal_draws;
            CHECK(!numeric_matches(std::stod(example.decimal), instance.key, q.key.tolerance,
                                   q.key.relative));
          }
        }
        check_notations(example);
      }
    }
  }
  CHECK(draws > 100);
  CHECK(decimal_draws > 0);  // some built-in key has decimals (RoPE's scaled position)
}

TEST_CASE("the example avoids the key and everything within its tolerance", "[answer][example]") {
  // The question that keys 1,048,576 shows another number, and so does its neighbour that does
  // not: which example a question gets does not single out the one whose key it would have been.
  Question q;
  q.id = "probe";
  q.type = QuestionType::numeric;
  Instance instance;
  instance.question = &q;
  instance.key = 1048576;
  const auto chosen = proofdeck::bank::number_example(instance);
  CHECK(chosen.value != 1048576);
  instance.key = chosen.value;  // now the example it would have shown is the key
  const auto moved = proofdeck::bank::number_example(instance);
  CHECK(moved.value != chosen.value);
  q.key.tolerance = 0.5;
  q.key.relative = true;  // within 50% of the key: its neighbouring powers of two are answers too
  instance.key = 1048576;
  const auto far = proofdeck::bank::number_example(instance);
  CHECK(std::abs(far.value - 1048576) > 0.5 * 1048576);
}

TEST_CASE("a key with decimals shows a decimal example that is no answer", "[answer][example]") {
  Question q;
  q.id = "probe";
  q.type = QuestionType::numeric;
  q.key.tolerance = 0.01;
  Instance instance;
  instance.question = &q;
  instance.key = 2047.5;
  CHECK(proofdeck::bank::number_example(instance).decimal == "1.5");
  instance.key = 1.5;  // the first choice is the key: the next one
  CHECK(proofdeck::bank::number_example(instance).decimal == "2.5");
  instance.key = 2048;
  CHECK(proofdeck::bank::number_example(instance).decimal.empty());
  proofdeck::bank::NumberExample example = proofdeck::bank::power_of_two(11);
  example.decimal = "1.5";
  CHECK_THAT(proofdeck::bank::numeric_answer_hint({}, example),
             Catch::EndsWith("2^11, 2.048e3, 2*1024 or a decimal such as 1.5"));
}

TEST_CASE("the numbers the README gives as examples are no built-in answer", "[answer][example]") {
  const std::string readme =
      proofdeck::testing::read_file(std::string(PROOFDECK_FIXTURE_DIR) + "/../../README.md");
  const std::size_t at = readme.find("numbers as `");
  REQUIRE(at != std::string::npos);
  const std::string sentence = readme.substr(at, readme.find("(each", at) - at);
  std::vector<double> examples;
  const std::regex quoted("`([^`]+)`");
  for (auto it = std::sregex_iterator(sentence.begin(), sentence.end(), quoted);
       it != std::sregex_iterator(); ++it)
    examples.push_back(value_of((*it)[1].str().c_str()));
  REQUIRE(examples.size() >= 4);
  for (const auto& bank : proofdeck::bank::load_banks(proofdeck::bank::BankSources{{}, true})) {
    for (const Question& q : bank.questions) {
      if (q.type != QuestionType::numeric) continue;
      for (const Instance& instance : every_draw(q)) {
        for (const double example : examples) {
          INFO(q.id << " " << example);
          CHECK(!numeric_matches(example, instance.key, q.key.tolerance, q.key.relative));
        }
      }
    }
  }
}

TEST_CASE("the numbers quiz --help gives as examples are no built-in answer", "[answer][example]") {
  cli_test::Cli cli;
  REQUIRE(cli.run({"quiz", "--help"}) == 0);
  std::smatch match;
  const std::string help = cli.out.str();
  REQUIRE(std::regex_search(help, match, std::regex(R"(a number \(([^)]*)\))")));
  std::vector<double> examples;
  const std::string listed = match[1].str();
  const std::regex notation(R"(\d{1,3}(?:,\d{3})+|[0-9_.^e*]+)");
  for (auto it = std::sregex_iterator(listed.begin(), listed.end(), notation);
       it != std::sregex_iterator(); ++it) {
    examples.push_back(value_of(it->str().c_str()));
  }
  REQUIRE(examples.size() >= 4);
  for (const double example : examples)
    CHECK(example == examples.front());  // one number, in several notations
  for (const auto& bank : proofdeck::bank::load_banks(proofdeck::bank::BankSources{{}, true})) {
    for (const Question& q : bank.questions) {
      if (q.type != QuestionType::numeric) continue;
      for (const Instance& instance : every_draw(q)) {
        INFO(q.id);
        CHECK(!numeric_matches(examples.front(), instance.key, q.key.tolerance, q.key.relative));
        for (const double value : proofdeck::bank::distractor_values(instance))
          CHECK(!numeric_matches(examples.front(), value, q.key.tolerance, q.key.relative));
      }
    }
  }
}

}  // namespace test_numeric_answer
