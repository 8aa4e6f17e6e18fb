// The arithmetic language of parametric question templates: the answer formula and the
// constraints over the template's parameters (questions/README.md). Parsed once at load time,
// evaluated for every parameter combination.
//
//   formula    = or_expr
//   or_expr    = and_expr { "or" and_expr }
//   and_expr   = not_expr { "and" not_expr }
//   not_expr   = "not" not_expr | comparison
//   comparison = sum [ ( "==" | "!=" | "<" | "<=" | ">" | ">=" ) sum ]   (never chained)
//   sum        = product { ( "+" | "-" | "−" ) product }
//   product    = unary { ( "*" | "×" | "/" | "÷" | "//" | "%" ) unary }
//   unary      = ( "-" | "−" ) unary | power
//   power      = primary [ "^" unary ]                                   (right-associative)
//   primary    = number | name | function "(" or_expr { "," or_expr } ")" | "(" or_expr ")"
//   number     = digits [ "." digits ] [ ( "e" | "E" ) [ "+" | "-" ] digits ]
//   digits     = digit { [ "_" ] digit }                                 (1_048_576)
//   name       = [A-Za-z_][A-Za-z0-9_]*, a parameter; not a keyword or a function name
//   function   = sqrt | log2 | log | exp | abs | floor | ceil | round    (one argument)
//              | min | max                                               (two or more)
//
// Values are doubles. An integer is a finite whole number below 2^53 in magnitude. `//` is the
// floor of the quotient and `%` the remainder with the divisor's sign (a == a // b * b + a % b),
// both for integers only; so -2^2 = -4, 2^3^2 = 512, -7 // 2 = -4, -7 % 2 = 1. `log` is natural,
// `round` rounds halves away from zero. Comparisons are exact and give 1 or 0; `and`, `or` and
// `not` treat nonzero as true, give 1 or 0, and `and`/`or` skip their right side once the left
// decides (`heads > 0 and d_model % heads == 0` is false, not an error, for heads = 0).
// Errors are InputError (exit 2): "formula.syntax" from parse, "formula.eval" from evaluate, each
// "<where>: <what> at column N in `<text>`", the column counted in characters from 1.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "text/number.hpp"

namespace proofdeck::bank {

namespace detail {
struct ParsedFormula;  // tokens and syntax tree, defined in formula.cpp
}

class Formula {
 public:
  static constexpr std::size_t max_length = 4096;  // bytes of text; longer is refused
  static constexpr int max_depth = 64;  // nested parentheses, calls, unary operators and powers

  // Throws InputError "formula.syntax"; `where` locates the formula for the author (a JSON
  // pointer or field path) and starts every message, e.g.
  // "questions[3].answer.formula: unexpected ')' at column 10 in `2 * (3 + )`".
  static Formula parse(std::string_view text, std::string where);

  // This formula as the left operand of `op operand`: "3 * d_model" .then("*", 2) is
  // "(3 * d_model) * 2", how `check --mutate` derives a wrong key from a template's answer. The
  // wrapping may pass max_length and max_depth by its few bytes and one level: those limits
  // bound what authors write. Throws InputError "formula.syntax" for an operator it does not know.
  Formula then(std::string_view op, double operand) const;

  const std::string& text() const;
  // The parameter names it uses, sorted and unique, to check against the template's parameters.
  const std::vector<std::string>& variables() const;

  // Throws InputError "formula.eval" for an unknown or non-finite variable, a division by zero,
  // `//` or `%` of non-integers, sqrt or log outside their domain, or a non-finite result; the
  // message ends with the values of the variables used ("... with d_model = 512, heads = 0").
  double evaluate(const std::map<std::string, double, std::less<>>& variables) const;

  // The formula with its variables replaced by their values and its result, for feedback:
  // "3 * d_model * d_model" with d_model = 512 → "3 × 512 × 512 = 786,432". Operators are spaced
  // (except ^), `*` and `/` print as × and ÷, negative values are parenthesized, numbers print as
  // format_number does; "≈" replaces "=" when the printed result is rounded, and comparisons end
  // in "→ true" or "→ false"; a variable without a value on a side that `and` or `or` skipped
  // keeps its name ("0 and x → false"). Throws as evaluate does.
  std::string worked(const std::map<std::string, double, std::less<>>& variables) const;

 private:
  static Formula parse_within(std::string_view text, std::string where, std::size_t length_limit,
                              int depth_limit);
  explicit Formula(std::shared_ptr<const detail::ParsedFormula> parsed)
      : parsed_(std::move(parsed)) {}
  std::shared_ptr<const detail::ParsedFormula> parsed_;  // immutable, so copies share it
};

// A number for people: text::format_number (integers in full, grouped by the one rule of
// text/number.hpp; other values to 10 significant digits).
using text::format_number;

// A demo's measured value for people, in feedback and handouts: text::format_readable to 4
// significant digits ("1,048,576", "0.2887", "0.000015", "1.11×10⁻¹⁶").
std::string format_measured(double value);

}  // namespace proofdeck::bank
