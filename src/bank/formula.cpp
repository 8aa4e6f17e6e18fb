// The template formula language: a lexer, a recursive-descent parser to a node vector, and an
// evaluator. Sums, products and logical chains are flat nodes, so the evaluator recurses only as
// deep as the parser allowed nesting (Formula::max_depth).
#include "bank/formula.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <system_error>
#include <utility>

#include "core/errors.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/utf8.hpp"

namespace proofdeck::bank {
namespace {

using Variables = std::map<std::string, double, std::less<>>;

constexpr double kIntegerLimit = 9007199254740992.0;  // 2^53: doubles are exact integers below

enum class Tok : std::uint8_t {
  number,
  name,
  plus,
  minus,
  times,
  divide,
  floor_divide,
  remainder,
  power,
  equal,
  not_equal,
  less,
  less_equal,
  greater,
  greater_equal,
  kw_and,
  kw_or,
  kw_not,
  open,
  close,
  comma,
  end,
};

struct Token {
  Tok kind = Tok::end;
  std::size_t offset = 0;  // bytes into the text
  std::size_t length = 0;  // bytes
  std::size_t column = 1;  // characters, from 1
  double number = 0;       // Tok::number
  bool unary = false;      // a minus the parser read as negation
};

enum class Function : std::uint8_t { sqrt, log2, log, exp, min, max, abs, floor, ceil, round };

struct FunctionInfo {
  std::string_view name;
  Function function;
  std::size_t min_arguments;
  std::size_t max_arguments;
};

constexpr std::size_t kAny = std::numeric_limits<std::size_t>::max();
constexpr std::array<FunctionInfo, 10> kFunctions{{
    {"sqrt", Function::sqrt, 1, 1},
    {"log2", Function::log2, 1, 1},
    {"log", Function::log, 1, 1},
    {"exp", Function::exp, 1, 1},
    {"min", Function::min, 2, kAny},
    {"max", Function::max, 2, kAny},
    {"abs", Function::abs, 1, 1},
    {"floor", Function::floor, 1, 1},
    {"ceil", Function::ceil, 1, 1},
    {"round", Function::round, 1, 1},
}};

const FunctionInfo* find_function(std::string_view name) {
  for (const auto& info : kFunctions) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

std::string function_list() {
  std::string list;
  for (const auto& info : kFunctions) {
    if (!list.empty()) list += ", ";
    list += info.name;
  }
  return list;
}

struct Node {
  enum class Kind : std::uint8_t { number, variable, call, negate, logical_not, chain };
  Kind kind = Kind::number;
  std::size_t token = 0;  // the number, name, function name or unary operator
  Function function = Function::sqrt;
  std::vector<std::size_t> operands;   // node indices
  std::vector<std::size_t> operators;  // chain: the token between operands[i] and operands[i + 1]
};

bool is_comparison(Tok kind) {
  return kind == Tok::equal || kind == Tok::not_equal || kind == Tok::less ||
         kind == Tok::less_equal || kind == Tok::greater || kind == Tok::greater_equal;
}

bool is_integer(double value) {
  return std::isfinite(value) && value == std::floor(value) && std::fabs(value) < kIntegerLimit;
}

// One UTF-8 character: its code point and length in bytes, or length 0 when the bytes at
// `index` are not valid UTF-8 (overlong forms and surrogates included).
struct Utf8Char {
  char32_t code_point = 0;
  std::size_t length = 0;
};

Utf8Char decode_utf8(std::string_view text, std::size_t index) {
  std::size_t end = index;
  const text::CodePoint c = text::decode(text, end);
  return c.valid ? Utf8Char{static_cast<char32_t>(c.code), end - index} : Utf8Char{};
}

}  // namespace

struct detail::ParsedFormula {
  std::string text;
  std::string where;
  std::vector<Token> tokens;  // ending in Tok::end
  std::vector<Node> nodes;
  std::size_t root = 0;
  std::vector<std::string> variables;

  std::string_view source(const Token& token) const {
    return std::string_view(text).substr(token.offset, token.length);
  }

  // "<where>: <what> at column N in `<text>`<suffix>"
  std::string message(std::string_view what, std::size_t column, std::string_view suffix) const {
    return fmt::format("{}{}{} at column {} in `{}`{}", where, where.empty() ? "" : ": ", what,
                       column, text::one_column_quote(text), suffix);
  }
};

namespace {

using Parsed = detail::ParsedFormula;

[[noreturn]] void syntax_error(const Parsed& parsed, std::string_view what, std::size_t column,
                               std::string_view suffix = {}) {
  throw InputError("formula.syntax", parsed.message(what, column, suffix));
}

// --- lexer -----------------------------------------------------------------------------------

using text::is_ascii_digit;

bool is_name_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool is_name_char(char c) {
  return is_name_start(c) || is_ascii_digit(c);
}

class Lexer {
 public:
  explicit Lexer(Parsed& parsed) : parsed_(parsed), text_(parsed.text) {}

  void run() {
    while (position_ < text_.size()) {
      const char c = text_[position_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++position_;
        ++column_;
      } else if (is_ascii_digit(c)) {
        number();
      } else if (is_name_start(c)) {
        name();
      } else if (static_cast<unsigned char>(c) >= 0x80) {
        non_ascii();
      } else {
        symbol(c);
      }
    }
    parsed_.tokens.push_back(Token{Tok::end, position_, 0, column_});
  }

 private:
  char at(std::size_t index) const { return index < text_.size() ? text_[index] : '\0'; }

  // An ASCII token of `length` bytes at the current position.
  void emit(Tok kind, std::size_t length, double number = 0) {
    parsed_.tokens.push_back(Token{kind, position_, length, column_, number});
    position_ += length;
    column_ += length;
  }

  [[noreturn]] void fail(std::string_view what, std::size_t offset_from_here = 0) const {
    syntax_error(parsed_, what, column_ + offset_from_here);
  }

  // digit { [ "_" ] digit }, starting at a digit; returns the index after it.
  std::size_t digits(std::size_t index) const {
    while (index < text_.size()) {
      if (is_ascii_digit(text_[index])) {
        ++index;
      } else if (text_[index] == '_' && is_ascii_digit(at(index + 1))) {
        index += 2;
      } else if (text_[index] == '_') {
        fail("'_' in a number must stand between two digits", index - position_);
      } else {
        break;
      }
    }
    return index;
  }

  void number() {
    std::size_t end = digits(position_);
    if (at(end) == '.') {
      if (!is_ascii_digit(at(end + 1))) fail("expected a digit after '.'", end + 1 - position_);
      end = digits(end + 1);
    }
    if (at(end) == 'e' || at(end) == 'E') {
      std::size_t exponent = end + 1;
      if (at(exponent) == '+' || at(exponent) == '-') ++exponent;
      if (!is_ascii_digit(at(exponent)))
        fail("expected a digit in the exponent", exponent - position_);
      end = digits(exponent);
    }
    const std::string_view literal = text_.substr(position_, end - position_);
    std::string plain;
    std::copy_if(literal.begin(), literal.end(), std::back_inserter(plain),
                 [](char c) { return c != '_'; });
    double value = 0;
    const auto [rest, error] = std::from_chars(plain.data(), plain.data() + plain.size(), value);
    if (error != std::errc() || rest != plain.data() + plain.size() || !std::isfinite(value)) {
      fail(fmt::format("number '{}' is out of range", literal));
    }
    emit(Tok::number, literal.size(), value);
  }

  void name() {
    std::size_t end = position_;
    while (end < text_.size() && is_name_char(text_[end]))
      ++end;
    const std::string_view word = text_.substr(position_, end - position_);
    const Tok kind = word == "and"   ? Tok::kw_and
                     : word == "or"  ? Tok::kw_or
                     : word == "not" ? Tok::kw_not
                                     : Tok::name;
    emit(kind, word.size());
  }

  void symbol(char c) {
    const char next = at(position_ + 1);
    switch (c) {
      case '+':
        return emit(Tok::plus, 1);
      case '-':
        return emit(Tok::minus, 1);
      case '*':
        if (next == '*') fail("'**' is not an operator; use '^' for powers");
        return emit(Tok::times, 1);
      case '/':
        return next == '/' ? emit(Tok::floor_divide, 2) : emit(Tok::divide, 1);
      case '%':
        return emit(Tok::remainder, 1);
      case '^':
        return emit(Tok::power, 1);
      case '(':
        return emit(Tok::open, 1);
      case ')':
        return emit(Tok::close, 1);
      case ',':
        return emit(Tok::comma, 1);
      case '=':
        if (next != '=') fail("'=' is not an operator; use '==' to compare");
        return emit(Tok::equal, 2);
      case '!':
        if (next != '=') fail("'!' is not an operator; use 'not'");
        return emit(Tok::not_equal, 2);
      case '<':
        return next == '=' ? emit(Tok::less_equal, 2) : emit(Tok::less, 1);
      case '>':
        return next == '=' ? emit(Tok::greater_equal, 2) : emit(Tok::greater, 1);
      case '&':
        fail("'&' is not an operator; use 'and'");
      case '|':
        fail("'|' is not an operator; use 'or'");
      default:
        break;
    }
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      fail(fmt::format("unexpected character U+{:04X}", static_cast<unsigned char>(c)));
    }
    fail(fmt::format("unexpected character '{}'", c));
  }

  // × and ÷ for * and /, U+2212 for minus; anything else is an error that names the character.
  void non_ascii() {
    const std::string_view rest = text_.substr(position_);
    const std::array<std::pair<std::string_view, Tok>, 3> aliases{{
        {"\u00D7", Tok::times},
        {"\u00F7", Tok::divide},
        {"\u2212", Tok::minus},
    }};
    for (const auto& [spelling, kind] : aliases) {
      if (rest.substr(0, spelling.size()) == spelling) {
        parsed_.tokens.push_back(Token{kind, position_, spelling.size(), column_});
        position_ += spelling.size();
        ++column_;
        return;
      }
    }
    const Utf8Char c = decode_utf8(text_, position_);
    if (c.length == 0) {
      fail(fmt::format("invalid UTF-8 byte 0x{:02X}", static_cast<unsigned char>(rest.front())));
    }
    const auto code = static_cast<std::uint32_t>(c.code_point);
    if (text::is_invisible(c.code_point)) fail(fmt::format("unexpected character U+{:04X}", code));
    fail(fmt::format("unexpected character '{}' (U+{:04X})", rest.substr(0, c.length), code));
  }

  Parsed& parsed_;
  std::string_view text_;
  std::size_t position_ = 0;
  std::size_t column_ = 1;
};

// --- parser ----------------------------------------------------------------------------------

class Parser {
 public:
  Parser(Parsed& parsed, int max_depth) : parsed_(parsed), max_depth_(max_depth) {}

  std::size_t formula() {
    const std::size_t root = or_expr();
    if (peek().kind != Tok::end) unexpected();
    return root;
  }

 private:
  // Counts one level of nesting for as long as it lives.
  class Nesting {
   public:
    Nesting(Parser& parser, const Token& at) : parser_(parser) {
      if (++parser_.depth_ > parser_.max_depth_) {
        syntax_error(parser_.parsed_,
                     fmt::format("nesting deeper than {} levels", parser_.max_depth_), at.column);
      }
    }
    ~Nesting() { --parser_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    Parser& parser_;
  };

  const Token& peek() const { return parsed_.tokens[position_]; }
  std::size_t take() { return position_++; }

  std::size_t add(Node node) {
    parsed_.nodes.push_back(std::move(node));
    return parsed_.nodes.size() - 1;
  }

  [[noreturn]] void fail(std::string_view what, const Token& at, std::string_view suffix = {}) {
    syntax_error(parsed_, what, at.column, suffix);
  }

  [[noreturn]] void unexpected() {
    const Token& token = peek();
    if (token.kind == Tok::end) fail("unexpected end of formula", token);
    fail(fmt::format("unexpected '{}'", parsed_.source(token)), token);
  }

  // next { op next } as one flat node, or next's node alone when no operator follows.
  template <class IsOperator>
  std::size_t chain(std::size_t (Parser::*next)(), IsOperator is_operator) {
    const std::size_t first = (this->*next)();
    if (!is_operator(peek().kind)) return first;
    Node node;
    node.kind = Node::Kind::chain;
    node.operands.push_back(first);
    while (is_operator(peek().kind)) {
      node.operators.push_back(take());
      node.operands.push_back((this->*next)());
    }
    return add(std::move(node));
  }

  std::size_t or_expr() {
    return chain(&Parser::and_expr, [](Tok kind) { return kind == Tok::kw_or; });
  }

  std::size_t and_expr() {
    return chain(&Parser::not_expr, [](Tok kind) { return kind == Tok::kw_and; });
  }

  std::size_t not_expr() {
    if (peek().kind != Tok::kw_not) return comparison();
    const Nesting nesting(*this, peek());
    Node node;
    node.kind = Node::Kind::logical_not;
    node.token = take();
    node.operands.push_back(not_expr());
    return add(std::move(node));
  }

  std::size_t comparison() {
    const std::size_t left = sum();
    if (!is_comparison(peek().kind)) return left;
    Node node;
    node.kind = Node::Kind::chain;
    node.operators.push_back(take());
    node.operands = {left, sum()};
    if (is_comparison(peek().kind)) {
      fail("comparisons cannot be chained; join them with 'and'", peek());
    }
    return add(std::move(node));
  }

  std::size_t sum() {
    return chain(&Parser::product,
                 [](Tok kind) { return kind == Tok::plus || kind == Tok::minus; });
  }

  std::size_t product() {
    return chain(&Parser::unary, [](Tok kind) {
      return kind == Tok::times || kind == Tok::divide || kind == Tok::floor_divide ||
             kind == Tok::remainder;
    });
  }

  std::size_t unary() {
    if (peek().kind != Tok::minus) return power();
    const Nesting nesting(*this, peek());
    Node node;
    node.kind = Node::Kind::negate;
    node.token = take();
    parsed_.tokens[node.token].unary = true;
    node.operands.push_back(unary());
    return add(std::move(node));
  }

  std::size_t power() {
    const std::size_t base = primary();
    if (peek().kind != Tok::power) return base;
    const Nesting nesting(*this, peek());
    Node node;
    node.kind = Node::Kind::chain;
    node.operators.push_back(take());
    node.operands = {base, unary()};
    return add(std::move(node));
  }

  std::size_t primary() {
    const Token& token = peek();
    if (token.kind == Tok::number) {
      Node node;
      node.kind = Node::Kind::number;
      node.token = take();
      return add(std::move(node));
    }
    if (token.kind == Tok::open) {
      const Nesting nesting(*this, token);
      take();
      const std::size_t inner = or_expr();
      if (peek().kind != Tok::close) fail("expected ')'", peek());
      take();
      return inner;
    }
    if (token.kind != Tok::name) unexpected();

    const std::string_view name = parsed_.source(token);
    const FunctionInfo* function = find_function(name);
    const bool called = parsed_.tokens[position_ + 1].kind == Tok::open;
    if (function == nullptr && called) {
      fail(fmt::format("unknown function '{}'", name), token, "; functions: " + function_list());
    }
    if (function == nullptr) {
      Node node;
      node.kind = Node::Kind::variable;
      node.token = take();
      parsed_.variables.emplace_back(name);
      return add(std::move(node));
    }
    if (!called) fail(fmt::format("expected '(' after '{}'", name), parsed_.tokens[position_ + 1]);
    return call(*function);
  }

  std::size_t call(const FunctionInfo& function) {
    Node node;
    node.kind = Node::Kind::call;
    node.function = function.function;
    node.token = take();
    const Nesting nesting(*this, peek());
    take();  // (
    if (peek().kind != Tok::close) {
      node.operands.push_back(or_expr());
      while (peek().kind == Tok::comma) {
        take();
        node.operands.push_back(or_expr());
      }
      if (peek().kind != Tok::close) fail("expected ',' or ')'", peek());
    }
    take();  // )
    const std::size_t count = node.operands.size();
    if (count < function.min_arguments || count > function.max_arguments) {
      const std::string wanted = function.max_arguments == kAny
                                     ? fmt::format("at least {} arguments", function.min_arguments)
                                     : text::count(function.min_arguments, "argument", "arguments");
      fail(fmt::format("'{}' takes {} but got {}", function.name, wanted, count),
           parsed_.tokens[node.token]);
    }
    return add(std::move(node));
  }

  Parsed& parsed_;
  int max_depth_;
  std::size_t position_ = 0;
  int depth_ = 0;
};

// --- evaluation ------------------------------------------------------------------------------

class Evaluator {
 public:
  Evaluator(const Parsed& parsed, const Variables& variables)
      : parsed_(parsed), variables_(variables) {}

  double value(std::size_t index) const {
    const Node& node = parsed_.nodes[index];
    switch (node.kind) {
      case Node::Kind::number:
        return parsed_.tokens[node.token].number;
      case Node::Kind::variable:
        return variable(node);
      case Node::Kind::negate:
        return -value(node.operands[0]);
      case Node::Kind::logical_not:
        return value(node.operands[0]) == 0 ? 1 : 0;
      case Node::Kind::call:
        return call(node);
      case Node::Kind::chain:
        return chain(node);
    }
    return 0;  // unreachable: every kind returns above
  }

 private:
  [[noreturn]] void fail(std::string_view what, const Token& at) const {
    std::string bindings;
    for (const auto& name : parsed_.variables) {
      const auto found = variables_.find(name);
      if (found == variables_.end()) continue;
      bindings += fmt::format("{}{} = {}", bindings.empty() ? " with " : ", ", name,
                              format_number(found->second));
    }
    throw InputError("formula.eval", parsed_.message(what, at.column, bindings));
  }

  double variable(const Node& node) const {
    const Token& token = parsed_.tokens[node.token];
    const std::string_view name = parsed_.source(token);
    const auto found = variables_.find(name);
    if (found == variables_.end()) fail(fmt::format("unknown variable '{}'", name), token);
    if (!std::isfinite(found->second)) {
      fail(fmt::format("variable '{}' is not a finite number ({})", name, found->second), token);
    }
    return found->second;
  }

  double call(const Node& node) const {
    const Token& token = parsed_.tokens[node.token];
    const double x = value(node.operands[0]);
    switch (node.function) {
      case Function::sqrt:
        if (x < 0) fail(fmt::format("sqrt needs a number >= 0, got {}", format_number(x)), token);
        return std::sqrt(x);
      case Function::log2:
      case Function::log:
        if (x <= 0) {
          fail(
              fmt::format("{} needs a number > 0, got {}", parsed_.source(token), format_number(x)),
              token);
        }
        return node.function == Function::log2 ? std::log2(x) : std::log(x);
      case Function::exp:
        return finite(std::exp(x), "exp", token);
      case Function::abs:
        return std::fabs(x);
      case Function::floor:
        return std::floor(x);
      case Function::ceil:
        return std::ceil(x);
      case Function::round:
        return std::round(x);
      case Function::min:
      case Function::max: {
        double result = x;
        for (std::size_t i = 1; i < node.operands.size(); ++i) {
          const double next = value(node.operands[i]);
          result = node.function == Function::min ? std::min(result, next) : std::max(result, next);
        }
        return result;
      }
    }
    return 0;  // unreachable: every function returns above
  }

  double chain(const Node& node) const {
    double result = value(node.operands[0]);
    for (std::size_t i = 0; i < node.operators.size(); ++i) {
      const Token& op = parsed_.tokens[node.operators[i]];
      if (op.kind == Tok::kw_and || op.kind == Tok::kw_or) {
        const bool decided = op.kind == Tok::kw_and ? result == 0 : result != 0;
        if (decided) return op.kind == Tok::kw_and ? 0 : 1;
        result = value(node.operands[i + 1]) != 0 ? 1 : 0;
        continue;
      }
      result = apply(op, result, value(node.operands[i + 1]));
    }
    return result;
  }

  double finite(double result, std::string_view what, const Token& at) const {
    if (!std::isfinite(result)) fail(fmt::format("{} overflows", what), at);
    return result;
  }

  double apply(const Token& op, double left, double right) const {
    const std::string quoted = fmt::format("'{}'", parsed_.source(op));
    switch (op.kind) {
      case Tok::plus:
        return finite(left + right, quoted, op);
      case Tok::minus:
        return finite(left - right, quoted, op);
      case Tok::times:
        return finite(left * right, quoted, op);
      case Tok::divide:
        if (right == 0) fail("division by zero", op);
        return finite(left / right, quoted, op);
      case Tok::floor_divide:
      case Tok::remainder:
        return integer_division(op, quoted, left, right);
      case Tok::power:
        if (left < 0 && right != std::floor(right)) {
          fail(fmt::format("'^' of a negative number needs an integer exponent, got {} ^ {}",
                           format_number(left), format_number(right)),
               op);
        }
        if (left == 0 && right < 0) fail("'^' of zero needs an exponent >= 0", op);
        return finite(std::pow(left, right), quoted, op);
      case Tok::equal:
        return left == right ? 1 : 0;
      case Tok::not_equal:
        return left != right ? 1 : 0;
      case Tok::less:
        return left < right ? 1 : 0;
      case Tok::less_equal:
        return left <= right ? 1 : 0;
      case Tok::greater:
        return left > right ? 1 : 0;
      case Tok::greater_equal:
        return left >= right ? 1 : 0;
      default:
        break;
    }
    return 0;  // unreachable: the parser builds chains from the operators above
  }

  // Floor division and the remainder that goes with it, exact in 64-bit integers.
  double integer_division(const Token& op, const std::string& quoted, double left,
                          double right) const {
    if (!is_integer(left) || !is_integer(right)) {
      fail(fmt::format("{} needs integers, got {} and {}", quoted, format_number(left),
                       format_number(right)),
           op);
    }
    if (right == 0) fail("division by zero", op);
    const auto a = static_cast<std::int64_t>(left);
    const auto b = static_cast<std::int64_t>(right);
    std::int64_t quotient = a / b;
    std::int64_t remainder = a % b;
    if (remainder != 0 && ((remainder < 0) != (b < 0))) {
      quotient -= 1;
      remainder += b;
    }
    return static_cast<double>(op.kind == Tok::floor_divide ? quotient : remainder);
  }

  const Parsed& parsed_;
  const Variables& variables_;
};

// The spelling of an operator in worked(), as people write arithmetic (no programming language's
// operators): binary operators spaced, ^ and unary minus tight.
std::string_view worked_spelling(const Token& token) {
  switch (token.kind) {
    case Tok::plus:
      return " + ";
    case Tok::minus:
      return token.unary ? "-" : " - ";
    case Tok::times:
      return " × ";
    case Tok::divide:
      return " ÷ ";
    case Tok::floor_divide:  // rounded_down_note() says it rounds
      return " ÷ ";
    case Tok::remainder:
      return " mod ";
    case Tok::power:
      return "^";
    case Tok::equal:
      return " = ";
    case Tok::not_equal:
      return " ≠ ";
    case Tok::less:
      return " < ";
    case Tok::less_equal:
      return " ≤ ";
    case Tok::greater:
      return " > ";
    case Tok::greater_equal:
      return " ≥ ";
    case Tok::kw_and:
      return " and ";
    case Tok::kw_or:
      return " or ";
    case Tok::kw_not:
      return "not ";
    case Tok::open:
      return "(";
    case Tok::close:
      return ")";
    case Tok::comma:
      return ", ";
    default:
      return "";
  }
}

// What worked() adds after the result when the formula divides rounding down, which it spells ÷
// like any division: " (rounded down)" when that division is the last step (4,096 ÷ 16 = 256
// (rounded down)), else which divisions round. Empty for a formula without one.
std::string rounded_down_note(const Parsed& parsed) {
  std::size_t floors = 0, divisions = 0;
  bool last_step = true;  // the one rounding division is taken last: nothing outside it adds
  int depth = 0;
  for (const Token& token : parsed.tokens) {
    switch (token.kind) {
      case Tok::open:
        ++depth;
        break;
      case Tok::close:
        --depth;
        break;
      case Tok::floor_divide:
        ++floors;
        last_step = last_step && depth == 0;
        break;
      case Tok::divide:
        ++divisions;
        break;
      case Tok::end:
        break;
      case Tok::times:  // after the rounding division, it multiplies the rounded quotient
        last_step = last_step && (floors == 0 || depth > 0);
        break;
      case Tok::number:
      case Tok::name:
        last_step = last_step && (depth > 0 || find_function(parsed.source(token)) == nullptr);
        break;
      default:
        if (depth == 0) last_step = false;
        break;
    }
  }
  if (floors == 0) return "";
  if (divisions > 0) return " (a division of whole numbers rounded down)";
  if (floors > 1) return " (each division rounded down)";
  return last_step ? " (rounded down)" : " (the division rounded down)";
}

bool is_truth_valued(const Parsed& parsed) {
  const Node& root = parsed.nodes[parsed.root];
  if (root.kind == Node::Kind::logical_not) return true;
  if (root.kind != Node::Kind::chain) return false;
  const Tok kind = parsed.tokens[root.operators[0]].kind;
  return kind == Tok::kw_and || kind == Tok::kw_or || is_comparison(kind);
}

}  // namespace

Formula Formula::parse(std::string_view text, std::string where) {
  return parse_within(text, std::move(where), max_length, max_depth);
}

Formula Formula::then(std::string_view op, double operand) const {
  // The wrapping adds a pair of parentheses (one level) and a few bytes.
  return parse_within(fmt::format("({}) {} {}", text(), op, operand), parsed_->where,
                      max_length + 64, max_depth + 1);
}

Formula Formula::parse_within(std::string_view text, std::string where, std::size_t length_limit,
                              int depth_limit) {
  auto parsed = std::make_shared<detail::ParsedFormula>();
  parsed->where = std::move(where);
  const std::string prefix = parsed->where.empty() ? "" : parsed->where + ": ";
  if (text.size() > length_limit) {
    throw InputError("formula.syntax",
                     fmt::format("{}formula is {} bytes long; the limit is {}", prefix,
                                 format_number(static_cast<double>(text.size())),
                                 format_number(static_cast<double>(length_limit))));
  }
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw InputError("formula.syntax", prefix + "formula is empty");
  }
  parsed->text = std::string(text);
  Lexer(*parsed).run();
  parsed->root = Parser(*parsed, depth_limit).formula();
  auto& names = parsed->variables;
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return Formula(std::move(parsed));
}

const std::string& Formula::text() const {
  return parsed_->text;
}

const std::vector<std::string>& Formula::variables() const {
  return parsed_->variables;
}

double Formula::evaluate(const Variables& variables) const {
  return Evaluator(*parsed_, variables).value(parsed_->root);
}

std::string Formula::worked(const Variables& variables) const {
  const double result = evaluate(variables);
  const detail::ParsedFormula& parsed = *parsed_;
  std::string out;
  for (const Token& token : parsed.tokens) {
    if (token.kind == Tok::number) {
      out += format_number(token.number);
    } else if (token.kind == Tok::name && find_function(parsed.source(token)) != nullptr) {
      out += parsed.source(token);
    } else if (token.kind == Tok::name) {
      // evaluate() succeeded, so every variable it needed is present and finite; one that is
      // missing stood on a side that `and` or `or` skipped, and is shown by its name.
      const auto found = variables.find(parsed.source(token));
      if (found == variables.end()) {
        out += parsed.source(token);
      } else {
        out += found->second < 0 ? "(" + format_number(found->second) + ")"
                                 : format_number(found->second);
      }
    } else {
      out += worked_spelling(token);
    }
  }
  const std::string note = rounded_down_note(parsed);
  if (is_truth_valued(parsed)) return out + (result != 0 ? " → true" : " → false") + note;
  const std::string shown = format_number(result);
  if (out == shown) return out;
  std::string plain;
  std::copy_if(shown.begin(), shown.end(), std::back_inserter(plain),
               [](char c) { return c != ','; });
  double read_back = 0;
  std::from_chars(plain.data(), plain.data() + plain.size(), read_back);
  return out + (read_back == result ? " = " : " ≈ ") + shown + note;
}

std::string format_measured(double value) {
  return text::format_readable(value, 4);
}

}  // namespace proofdeck::bank
