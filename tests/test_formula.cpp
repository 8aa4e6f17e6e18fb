// The formula language of parametric templates (bank/formula.hpp): precedence, integer division,
// functions, constraints, the worked rendering, and an exact message for every way a formula
// can be wrong when it is parsed or evaluated.
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "bank/formula.hpp"
#include "core/errors.hpp"

namespace test_formula {

namespace {

using proofdeck::bank::format_measured;
using proofdeck::bank::format_number;
using proofdeck::bank::Formula;
using Variables = std::map<std::string, double, std::less<>>;

constexpr const char* kNoError = "(no InputError)";

double eval(std::string_view text, const Variables& variables = {}) {
  return Formula::parse(text, "answer").evaluate(variables);
}

std::string worked(std::string_view text, const Variables& variables = {}) {
  return Formula::parse(text, "answer").worked(variables);
}

// The message of the InputError parsing must raise (checked to be "formula.syntax", exit 2).
std::string syntax_error(std::string_view text, const std::string& where = "answer") {
  try {
    Formula::parse(text, where);
  } catch (const proofdeck::InputError& e) {
    CHECK(e.id() == "formula.syntax");
    CHECK(e.exit_code() == proofdeck::ExitCode::invalid_input);
    return e.message();
  }
  return kNoError;
}

// The message of the InputError evaluating must raise (checked to be "formula.eval", exit 2);
// the formula itself must parse.
std::string eval_error(std::string_view text, const Variables& variables = {}) {
  const Formula formula = Formula::parse(text, "answer");
  try {
    formula.evaluate(variables);
  } catch (const proofdeck::InputError& e) {
    CHECK(e.id() == "formula.eval");
    CHECK(e.exit_code() == proofdeck::ExitCode::invalid_input);
    return e.message();
  }
  return kNoError;
}

std::string repeat(std::string_view piece, int times) {
  std::string out;
  for (int i = 0; i < times; ++i)
    out += piece;
  return out;
}

const Variables kLesson{{"d_model", 512}, {"heads", 8}};

}  // namespace

// --- arithmetic ------------------------------------------------------------------------------

TEST_CASE("products bind tighter than sums, and both go left to right", "[formula]") {
  CHECK(eval("2 + 3 * 4") == 14);
  CHECK(eval("(2 + 3) * 4") == 20);
  CHECK(eval("10 - 4 - 3") == 3);
  CHECK(eval("100 / 10 / 5") == 2);
  CHECK(eval("2 * 3 ^ 2") == 18);
  CHECK(eval("8 - 6 // 4 * 2") == 6);
}

TEST_CASE("^ is right-associative and binds tighter than unary minus", "[formula]") {
  CHECK(eval("2^3^2") == 512);
  CHECK(eval("(2^3)^2") == 64);
  CHECK(eval("-2^2") == -4);
  CHECK(eval("(-2)^2") == 4);
  CHECK(eval("2^-1") == 0.5);
  CHECK(eval("2^-2^2") == 0.0625);
  CHECK(eval("--3") == 3);
  CHECK(eval("4 - -3") == 7);
}

TEST_CASE("// floors the quotient and % takes the divisor's sign", "[formula]") {
  CHECK(eval("7 // 2") == 3);
  CHECK(eval("-7 // 2") == -4);
  CHECK(eval("7 // -2") == -4);
  CHECK(eval("-7 // -2") == 3);
  CHECK(eval("6 // 3") == 2);
  CHECK(eval("7 % 3") == 1);
  CHECK(eval("-7 % 3") == 2);
  CHECK(eval("7 % -3") == -2);
  CHECK(eval("-7 % -3") == -1);
  // exact up to 2^53, where a double quotient would round
  CHECK(eval("(2^53 - 1) // 3") == 3002399751580330.0);
  CHECK(eval("(2^53 - 1) % 3") == 1);
}

TEST_CASE("the lesson's parameter counts come out exactly", "[formula]") {
  CHECK(eval("3 * 512 * 512 + 512 * 512") == 1048576);
  CHECK(eval("3 * d_model * (d_model / heads) * heads + d_model^2", kLesson) == 1048576);
  CHECK(eval("2^20") == 1048576);
}

TEST_CASE("× and ÷ are * and /, and − (U+2212) is minus", "[formula]") {
  CHECK(eval("3 × 4") == 12);
  CHECK(eval("12 ÷ 4") == 3);
  CHECK(eval("3×d_model×d_model", kLesson) == 786432);
  CHECK(eval("5 − 2") == 3);
  CHECK(eval("−2^2") == -4);
}

TEST_CASE("numbers may be decimals, carry an exponent and separate digits with _", "[formula]") {
  CHECK(eval("512") == 512);
  CHECK(eval("0.5") == 0.5);
  CHECK(eval("1e-5") == 1e-5);
  CHECK(eval("1.048576e6") == 1048576);
  CHECK(eval("2.5E+2") == 250);
  CHECK(eval("1_048_576") == 1048576);
  CHECK(eval("1_000.000_5") == 1000.0005);
}

TEST_CASE("whitespace of any kind separates tokens", "[formula]") {
  CHECK(eval(" 2\t*\n( 3 +\r\n4 ) ") == 14);
  CHECK(eval("2*(3+4)") == 14);
}

TEST_CASE("functions", "[formula]") {
  CHECK(eval("sqrt(16)") == 4);
  CHECK(eval("log2(1024)") == 10);
  CHECK(eval("log(exp(2))") == Approx(2).epsilon(1e-15));
  CHECK(eval("exp(0)") == 1);
  CHECK(eval("min(3, 1, 2)") == 1);
  CHECK(eval("max(2, 5)") == 5);
  CHECK(eval("abs(-3)") == 3);
  CHECK(eval("floor(-2.5)") == -3);
  CHECK(eval("ceil(2.1)") == 3);
  CHECK(eval("round(2.5)") == 3);
  CHECK(eval("round(-2.5)") == -3);
  CHECK(eval("max(d_model // heads, 4) * sqrt(heads * 2)", kLesson) == 256);
}

TEST_CASE("function arity is checked when parsing", "[formula]") {
  CHECK(syntax_error("sqrt(1, 2)") ==
        "answer: 'sqrt' takes 1 argument but got 2 at column 1 in `sqrt(1, 2)`");
  CHECK(syntax_error("2 + log2()") ==
        "answer: 'log2' takes 1 argument but got 0 at column 5 in `2 + log2()`");
  CHECK(syntax_error("min(1)") ==
        "answer: 'min' takes at least 2 arguments but got 1 at column 1 in `min(1)`");
  CHECK(syntax_error("max()") ==
        "answer: 'max' takes at least 2 arguments but got 0 at column 1 in `max()`");
}

// --- constraints -----------------------------------------------------------------------------

TEST_CASE("comparisons give 1 or 0", "[formula]") {
  CHECK(eval("1 < 2") == 1);
  CHECK(eval("2 <= 2") == 1);
  CHECK(eval("3 > 4") == 0);
  CHECK(eval("3 >= 4") == 0);
  CHECK(eval("2^10 == 1024") == 1);
  CHECK(eval("1 != 1") == 0);
  CHECK(eval("(1 < 2) + (2 < 3)") == 2);
}

TEST_CASE("and, or and not combine comparisons into a template constraint", "[formula]") {
  const std::string constraint = "d_model % heads == 0 and d_model // heads >= 4";
  CHECK(eval(constraint, kLesson) == 1);
  CHECK(eval(constraint, {{"d_model", 512}, {"heads", 12}}) == 0);   // 512 % 12 = 8
  CHECK(eval(constraint, {{"d_model", 512}, {"heads", 256}}) == 0);  // 512 // 256 = 2
  CHECK(eval("not 0") == 1);
  CHECK(eval("not 5") == 0);
  CHECK(eval("not not 5") == 1);
  CHECK(eval("2 and 3") == 1);
  CHECK(eval("0 or 0") == 0);
  CHECK(eval("1 or 0 and 0") == 1);  // and binds tighter than or
  CHECK(eval("not 1 == 2") == 1);    // not applies to the comparison
}

TEST_CASE("and and or skip their right side once the left decides", "[formula]") {
  const Variables no_heads{{"d_model", 512}, {"heads", 0}};
  CHECK(eval("heads > 0 and d_model % heads == 0", no_heads) == 0);
  CHECK(eval("heads == 0 or d_model % heads == 0", no_heads) == 1);
  CHECK(eval_error("heads >= 0 and d_model % heads == 0", no_heads) ==
        "answer: division by zero at column 24 in `heads >= 0 and d_model % heads == 0` with "
        "d_model = 512, heads = 0");
}

TEST_CASE("comparisons do not chain", "[formula]") {
  CHECK(syntax_error("1 < 2 < 3") ==
        "answer: comparisons cannot be chained; join them with 'and' at column 7 in `1 < 2 < 3`");
}

// --- variables and text ----------------------------------------------------------------------

TEST_CASE("variables() lists the names used, sorted and unique, without functions", "[formula]") {
  const Formula formula =
      Formula::parse("sqrt(d_model) * heads + d_model - heads_2 + _x", "answer");
  CHECK(formula.variables() == std::vector<std::string>{"_x", "d_model", "heads", "heads_2"});
  CHECK(Formula::parse("2 + max(3, 4)", "answer").variables().empty());
}

TEST_CASE("text() is the formula as written, and copies evaluate alike", "[formula]") {
  const Formula formula = Formula::parse(" 3 × d_model ", "answer");
  CHECK(formula.text() == " 3 × d_model ");
  const Formula copy = formula;  // NOLINT(performance-unnecessary-copy-initialization)
  CHECK(copy.evaluate(kLesson) == 1536);
}

TEST_CASE("keywords and function names are not variables", "[formula]") {
  CHECK(syntax_error("and + 1") == "answer: unexpected 'and' at column 1 in `and + 1`");
  CHECK(syntax_error("exp + 1") == "answer: expected '(' after 'exp' at column 5 in `exp + 1`");
}

// --- syntax errors ---------------------------------------------------------------------------

TEST_CASE("a syntax error says where, what and at which column", "[formula]") {
  CHECK(syntax_error("2 * (3 + )", "questions[3].answer.formula") ==
        "questions[3].answer.formula: unexpected ')' at column 10 in `2 * (3 + )`");
  CHECK(syntax_error("2 *", "") == "unexpected end of formula at column 4 in `2 *`");
}

TEST_CASE("a missing operand or operator is unexpected", "[formula]") {
  CHECK(syntax_error("2 *") == "answer: unexpected end of formula at column 4 in `2 *`");
  CHECK(syntax_error("not") == "answer: unexpected end of formula at column 4 in `not`");
  CHECK(syntax_error("2 3") == "answer: unexpected '3' at column 3 in `2 3`");
  CHECK(syntax_error("2 x") == "answer: unexpected 'x' at column 3 in `2 x`");
  CHECK(syntax_error("()") == "answer: unexpected ')' at column 2 in `()`");
  CHECK(syntax_error("min(1,)") == "answer: unexpected ')' at column 7 in `min(1,)`");
  CHECK(syntax_error("1 + * 2") == "answer: unexpected '*' at column 5 in `1 + * 2`");
  CHECK(syntax_error("+1") == "answer: unexpected '+' at column 1 in `+1`");
  CHECK(syntax_error("a == not b") == "answer: unexpected 'not' at column 6 in `a == not b`");
}

TEST_CASE("unclosed parentheses and calls say what was expected", "[formula]") {
  CHECK(syntax_error("(1 + 2") == "answer: expected ')' at column 7 in `(1 + 2`");
  CHECK(syntax_error("(1 + 2 3)") == "answer: expected ')' at column 8 in `(1 + 2 3)`");
  CHECK(syntax_error("max(1, 2") == "answer: expected ',' or ')' at column 9 in `max(1, 2`");
  CHECK(syntax_error("sqrt 4") == "answer: expected '(' after 'sqrt' at column 6 in `sqrt 4`");
}

TEST_CASE("an unknown function lists the known ones", "[formula]") {
  CHECK(syntax_error("sqr(2)") ==
        "answer: unknown function 'sqr' at column 1 in `sqr(2)`; functions: sqrt, log2, log, "
        "exp, min, max, abs, floor, ceil, round");
}

TEST_CASE("operators from other languages point to ours", "[formula]") {
  CHECK(syntax_error("a = 1") ==
        "answer: '=' is not an operator; use '==' to compare at column 3 in `a = 1`");
  CHECK(syntax_error("2 ** 3") ==
        "answer: '**' is not an operator; use '^' for powers at column 3 in `2 ** 3`");
  CHECK(syntax_error("a && b") ==
        "answer: '&' is not an operator; use 'and' at column 3 in `a && b`");
  CHECK(syntax_error("a || b") ==
        "answer: '|' is not an operator; use 'or' at column 3 in `a || b`");
  CHECK(syntax_error("!a") == "answer: '!' is not an operator; use 'not' at column 1 in `!a`");
}

TEST_CASE("malformed numbers", "[formula]") {
  CHECK(syntax_error("1__000") ==
        "answer: '_' in a number must stand between two digits at column 2 in `1__000`");
  CHECK(syntax_error("2 + 1_") ==
        "answer: '_' in a number must stand between two digits at column 6 in `2 + 1_`");
  CHECK(syntax_error("1.") == "answer: expected a digit after '.' at column 3 in `1.`");
  CHECK(syntax_error("1.e5") == "answer: expected a digit after '.' at column 3 in `1.e5`");
  CHECK(syntax_error("1e") == "answer: expected a digit in the exponent at column 3 in `1e`");
  CHECK(syntax_error("1e+x") == "answer: expected a digit in the exponent at column 4 in `1e+x`");
  CHECK(syntax_error("2 * 1e999") ==
        "answer: number '1e999' is out of range at column 5 in `2 * 1e999`");
  CHECK(syntax_error(".5") == "answer: unexpected character '.' at column 1 in `.5`");
}

TEST_CASE("stray characters are named, columns count characters not bytes", "[formula]") {
  CHECK(syntax_error("2 $ 3") == "answer: unexpected character '$' at column 3 in `2 $ 3`");
  CHECK(syntax_error("2 × é") ==
        "answer: unexpected character 'é' (U+00E9) at column 5 in `2 × é`");
  CHECK(syntax_error("2 – 1") ==
        "answer: unexpected character '–' (U+2013) at column 3 in `2 – 1`");
}

TEST_CASE("control characters, invisible characters and bad UTF-8 are not echoed", "[formula]") {
  CHECK(syntax_error("2\x01") == "answer: unexpected character U+0001 at column 2 in `2 `");
  CHECK(syntax_error("2\u202E+1") == "answer: unexpected character U+202E at column 2 in `2?+1`");
  CHECK(syntax_error("2 + \xFF") == "answer: invalid UTF-8 byte 0xFF at column 5 in `2 + ?`");
  CHECK(syntax_error("2 + \xC0\xAF") ==  // overlong '/'
        "answer: invalid UTF-8 byte 0xC0 at column 5 in `2 + ??`");
  CHECK(syntax_error("2 +\n)") == "answer: unexpected ')' at column 5 in `2 + )`");
}

TEST_CASE("an empty formula is an error", "[formula]") {
  CHECK(syntax_error("") == "answer: formula is empty");
  CHECK(syntax_error(" \t\n") == "answer: formula is empty");
}

// --- limits ----------------------------------------------------------------------------------

TEST_CASE("formulas longer than 4096 bytes are refused before parsing", "[formula]") {
  const std::string longest = "1" + repeat("+1", 2047) + " ";  // 4096 bytes, 2048 terms
  REQUIRE(longest.size() == Formula::max_length);
  CHECK(eval(longest) == 2048);
  CHECK(syntax_error(longest + " ") == "answer: formula is 4,097 bytes long; the limit is 4,096");
  CHECK(syntax_error(std::string(1'000'000, '(')) ==
        "answer: formula is 1,000,000 bytes long; the limit is 4,096");
}

TEST_CASE("nesting deeper than 64 levels is refused", "[formula]") {
  CHECK(eval(repeat("(", 64) + "1" + repeat(")", 64)) == 1);
  const std::string parentheses = repeat("(", 65) + "1" + repeat(")", 65);
  CHECK(syntax_error(parentheses) ==
        "answer: nesting deeper than 64 levels at column 65 in `" + parentheses + "`");

  CHECK(eval(repeat("max(1, ", 64) + "2" + repeat(")", 64)) == 2);
  CHECK(eval(repeat("-", 64) + "1") == 1);
  const std::string minuses = repeat("-", 65) + "1";
  CHECK(syntax_error(minuses) ==
        "answer: nesting deeper than 64 levels at column 65 in `" + minuses + "`");

  CHECK(eval(repeat("1^", 64) + "1") == 1);
  const std::string powers = repeat("1^", 65) + "1";
  CHECK(syntax_error(powers) ==
        "answer: nesting deeper than 64 levels at column 130 in `" + powers + "`");

  const std::string nots = repeat("not ", 65) + "1";
  CHECK(syntax_error(nots) ==
        "answer: nesting deeper than 64 levels at column 257 in `" + nots + "`");

  const std::string hostile(Formula::max_length, '(');
  CHECK_THAT(syntax_error(hostile),
             Catch::Matchers::StartsWith("answer: nesting deeper than 64 levels at column 65 in"));
}

TEST_CASE("then() wraps a formula as the left operand of one more operation", "[formula]") {
  const Formula key = Formula::parse("3 * d_model * (d_model // heads)", "answer");
  const Formula doubled = key.then("*", 2);
  CHECK(doubled.text() == "(3 * d_model * (d_model // heads)) * 2");
  CHECK(doubled.evaluate(kLesson) == 2 * 3 * 512 * 64);
  CHECK(Formula::parse("1 + 2", "").then("/", 2).evaluate({}) == 1.5);
  CHECK(Formula::parse("1 + 2", "").then("+", 0.5).text() == "(1 + 2) + 0.5");
}

TEST_CASE("then() may pass the author's limits by what it adds", "[formula]") {
  const std::string longest = "1" + repeat("+1", 2047) + " ";
  CHECK(Formula::parse(longest, "answer").then("*", 2).evaluate({}) == 4096);
  const std::string deepest = repeat("(", 64) + "1" + repeat(")", 64);
  CHECK(Formula::parse(deepest, "answer").then("+", 1).evaluate({}) == 2);
}

// --- evaluation errors -----------------------------------------------------------------------

TEST_CASE("an unknown variable is an evaluation error, not undefined behaviour", "[formula]") {
  CHECK(eval_error("x + 1") == "answer: unknown variable 'x' at column 1 in `x + 1`");
  CHECK(eval_error("a + b", {{"a", 1}}) ==
        "answer: unknown variable 'b' at column 5 in `a + b` with a = 1");
}

TEST_CASE("variables must be finite numbers", "[formula]") {
  CHECK(eval_error("x * 2", {{"x", std::numeric_limits<double>::quiet_NaN()}}) ==
        "answer: variable 'x' is not a finite number (nan) at column 1 in `x * 2` with x = nan");
  CHECK(eval_error("x * 2", {{"x", std::numeric_limits<double>::infinity()}}) ==
        "answer: variable 'x' is not a finite number (inf) at column 1 in `x * 2` with x = inf");
}

TEST_CASE("division by zero names the operator's column and the variables", "[formula]") {
  CHECK(eval_error("d_model / heads", {{"d_model", 512}, {"heads", 0}}) ==
        "answer: division by zero at column 9 in `d_model / heads` with d_model = 512, heads = 0");
  CHECK(eval_error("7 ÷ 0") == "answer: division by zero at column 3 in `7 ÷ 0`");
  CHECK(eval_error("7 // 0") == "answer: division by zero at column 3 in `7 // 0`");
  CHECK(eval_error("7 % 0") == "answer: division by zero at column 3 in `7 % 0`");
}

TEST_CASE("// and % need integers below 2^53", "[formula]") {
  CHECK(eval_error("7.5 // 2") ==
        "answer: '//' needs integers, got 7.5 and 2 at column 5 in `7.5 // 2`");
  CHECK(eval_error("7 % x", {{"x", 0.5}}) ==
        "answer: '%' needs integers, got 7 and 0.5 at column 3 in `7 % x` with x = 0.5");
  CHECK(eval_error("2^53 // 2") ==
        "answer: '//' needs integers, got 9.007199255×10¹⁵ and 2 at column 6 in `2^53 // 2`");
}

TEST_CASE("functions outside their domain", "[formula]") {
  CHECK(eval_error("sqrt(x)", {{"x", -4}}) ==
        "answer: sqrt needs a number >= 0, got -4 at column 1 in `sqrt(x)` with x = -4");
  CHECK(eval_error("1 + log2(0)") ==
        "answer: log2 needs a number > 0, got 0 at column 5 in `1 + log2(0)`");
  CHECK(eval_error("log(-1)") == "answer: log needs a number > 0, got -1 at column 1 in `log(-1)`");
  CHECK(eval_error("(-8)^(1/3)") ==
        "answer: '^' of a negative number needs an integer exponent, got -8 ^ 0.3333333333 at "
        "column 5 in `(-8)^(1/3)`");
  CHECK(eval_error("0^-1") == "answer: '^' of zero needs an exponent >= 0 at column 2 in `0^-1`");
  CHECK(eval("(-8)^(1/3 * 3)") == -8);
}

TEST_CASE("a result too large for a double is an error", "[formula]") {
  CHECK(eval_error("exp(1000)") == "answer: exp overflows at column 1 in `exp(1000)`");
  CHECK(eval_error("10^400") == "answer: '^' overflows at column 3 in `10^400`");
  CHECK(eval_error("1e308 * 10") == "answer: '*' overflows at column 7 in `1e308 * 10`");
  CHECK(eval_error("1e308 × 10") == "answer: '×' overflows at column 7 in `1e308 × 10`");
  CHECK(eval_error("1e308 + 1e308") == "answer: '+' overflows at column 7 in `1e308 + 1e308`");
  CHECK(eval_error("1e308 / 1e-10") == "answer: '/' overflows at column 7 in `1e308 / 1e-10`");
  CHECK(eval_error("2^2^2^2^2") == "answer: '^' overflows at column 2 in `2^2^2^2^2`");
}

// --- worked formulas -------------------------------------------------------------------------

TEST_CASE("worked() substitutes the variables and shows the result", "[formula]") {
  CHECK(worked("3 × d_model × d_model", kLesson) == "3 × 512 × 512 = 786,432");
  CHECK(worked("3*d_model*d_model", kLesson) == "3 × 512 × 512 = 786,432");
  CHECK(worked("3 * d_model * (d_model / heads) * heads + d_model^2", kLesson) ==
        "3 × 512 × (512 ÷ 8) × 8 + 512^2 = 1,048,576");
  CHECK(worked("max( d_model // heads,4 )", kLesson) ==
        "max(512 ÷ 8, 4) = 64 (the division rounded down)");
  CHECK(worked("2^20") == "2^20 = 1,048,576");
  CHECK(worked("1_048_576 - 1e-5*2") == "1,048,576 - 0.00001 × 2 = 1,048,575.99998");
  CHECK(worked("2/3") == "2 ÷ 3 ≈ 0.6666666667");
}

TEST_CASE("worked() writes arithmetic as people do, saying where a division rounds down",
          "[formula]") {
  CHECK(worked("tokens // heads", {{"tokens", 4096}, {"heads", 16}}) ==
        "4,096 ÷ 16 = 256 (rounded down)");
  CHECK(worked("3 * d_model * (d_model // heads)", {{"d_model", 256}, {"heads", 16}}) ==
        "3 × 256 × (256 ÷ 16) = 12,288 (the division rounded down)");
  CHECK(worked("7 // 2 * 2") == "7 ÷ 2 × 2 = 6 (the division rounded down)");
  CHECK(worked("(8 * 512 // 3 + 255) // 256") ==
        "(8 × 512 ÷ 3 + 255) ÷ 256 = 6 (each division rounded down)");
  CHECK(worked("x != 2 and x <= 3 and x >= 1 and x % 2 == 1", {{"x", 3}}) ==
        "3 ≠ 2 and 3 ≤ 3 and 3 ≥ 1 and 3 mod 2 = 1 → true");
  for (const std::string_view text : {"a // b", "a % b == 0", "a != b", "a <= b", "a >= b"}) {
    const std::string shown = worked(text, {{"a", 9}, {"b", 4}});
    for (const std::string_view code : {"//", "%", "==", "!=", "<=", ">="})
      CHECK(shown.find(code) == std::string::npos);
  }
}

TEST_CASE("worked() parenthesizes negative values", "[formula]") {
  CHECK(worked("x - y", {{"x", 5}, {"y", -3}}) == "5 - (-3) = 8");
  CHECK(worked("-x^2", {{"x", 3}}) == "-3^2 = -9");
  CHECK(worked("x^2", {{"x", -3}}) == "(-3)^2 = 9");
}

TEST_CASE("worked() says ≈ when the shown result is rounded", "[formula]") {
  CHECK(worked("1 / 4") == "1 ÷ 4 = 0.25");
  CHECK(worked("1 / 3") == "1 ÷ 3 ≈ 0.3333333333");
  CHECK(worked("0.1 + 0.2") == "0.1 + 0.2 ≈ 0.3");
}

TEST_CASE("worked() shows a lone number or variable once", "[formula]") {
  CHECK(worked("1_048_576") == "1,048,576");
  CHECK(worked("d_model", kLesson) == "512");
}

TEST_CASE("worked() ends a constraint in true or false", "[formula]") {
  const std::string constraint = "d_model % heads == 0 and d_model // heads >= 4";
  CHECK(worked(constraint, kLesson) ==
        "512 mod 8 = 0 and 512 ÷ 8 ≥ 4 → true (the division rounded down)");
  CHECK(worked(constraint, {{"d_model", 512}, {"heads", 12}}) ==
        "512 mod 12 = 0 and 512 ÷ 12 ≥ 4 → false (the division rounded down)");
  CHECK(worked("not x", {{"x", 0}}) == "not 0 → true");
}

TEST_CASE("worked() names a variable that and or or skipped without a value", "[formula]") {
  CHECK(worked("0 and x") == "0 and x → false");
  CHECK(worked("1 or max(x, 2)") == "1 or max(x, 2) → true");
  CHECK(worked("heads > 0 and d_model % heads == 0", {{"heads", 0}}) ==
        "0 > 0 and d_model mod 0 = 0 → false");
}

TEST_CASE("worked() fails as evaluate() does", "[formula]") {
  const Formula formula = Formula::parse("d_model / heads", "answer");
  CHECK_THROWS_WITH(formula.worked({{"d_model", 512}, {"heads", 0}}),
                    "[proofdeck.formula.eval] answer: division by zero at column 9 in "
                    "`d_model / heads` with d_model = 512, heads = 0");
}

TEST_CASE("format_measured shows integers as format_number does, others to 4 digits", "[formula]") {
  CHECK(format_measured(1048576) == "1,048,576");
  CHECK(format_measured(-3) == "-3");
  CHECK(format_measured(1.0 / std::sqrt(12.0)) == "0.2887");
  CHECK(format_measured(1.5e-5) == "0.000015");  // plain decimals, as text::format_readable
  CHECK(format_measured(3.3671e-9) == "3.367×10⁻⁹");
}

}  // namespace test_formula
