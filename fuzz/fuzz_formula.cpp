// libFuzzer target: the template formula language (bank/formula.hpp). The input is one formula;
// it is parsed, then evaluated and worked out under a few sets of bindings: none, every variable
// at zero, every variable at a value drawn from a fixed list (huge, tiny, negative, fractional),
// a typical template's, and one with a non-finite value. Property: wherever it evaluates to v,
// its mutations (`check --mutate`) `then("*", 2)`, `then("/", 2)` and `then("+", 1)` parse and
// evaluate to exactly 2v, v / 2 and v + 1 (an InputError exactly when that overflows).
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "asan_options.hpp"
#include "bank/formula.hpp"
#include "core/errors.hpp"

namespace {

using namespace proofdeck;
using Bindings = std::map<std::string, double, std::less<>>;

constexpr std::array<double, 12> kValues = {
    512, 8, 0, 1, -1, 0.5, -7, 3, 9007199254740991.0, 1e300, -1e-300, 4096,
};

// Each set in its own allocation, so that a read past one (a map's end() dereferenced) lands in
// ASan's redzone rather than in the next set.
std::vector<std::unique_ptr<Bindings>> binding_sets(const bank::Formula& formula) {
  std::vector<std::unique_ptr<Bindings>> sets;
  for (int set = 0; set < 5; ++set)
    sets.push_back(std::make_unique<Bindings>());
  const auto& names = formula.variables();
  for (std::size_t i = 0; i < names.size(); ++i) {
    (*sets[1])[names[i]] = 0;
    (*sets[2])[names[i]] = kValues[i % kValues.size()];
    (*sets[3])[names[i]] = kValues[(i + 5) % kValues.size()];
    (*sets[4])[names[i]] =
        i == 0 ? std::numeric_limits<double>::infinity() : kValues[i % kValues.size()];
  }
  // A typical template's parameters, on top of the formula's own (extra bindings are allowed).
  (*sets[3])["d_model"] = 512;
  (*sets[3])["heads"] = 8;
  (*sets[3])["seq"] = 1024;
  return sets;
}

void check_mutations(const bank::Formula& formula, const Bindings& bindings, double value) {
  struct Wrap {
    const char* op;
    double operand;
    double expected;
  };
  const std::array<Wrap, 3> wraps{{
      {"*", 2, value * 2},
      {"/", 2, value / 2},
      {"+", 1, value + 1},
  }};
  for (const Wrap& wrap : wraps) {
    std::optional<bank::Formula> wrapped;
    try {
      wrapped = formula.then(wrap.op, wrap.operand);
    } catch (const InputError& e) {
      std::fprintf(stderr, "fuzz_formula: `%s` cannot be wrapped: %s\n", formula.text().c_str(),
                   e.what());
      std::abort();
    }
    const bank::Formula& mutated = *wrapped;
    bool threw = false;
    double got = 0;
    try {
      got = mutated.evaluate(bindings);
    } catch (const InputError&) {
      threw = true;
    }
    if (threw != !std::isfinite(wrap.expected) || (!threw && got != wrap.expected)) {
      std::fprintf(stderr, "fuzz_formula: `%s` gives %.17g but `%s` gives %s%.17g\n",
                   formula.text().c_str(), value, mutated.text().c_str(),
                   threw ? "an error, not " : "", threw ? wrap.expected : got);
      std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::optional<bank::Formula> formula;
  try {
    formula = bank::Formula::parse(text, "fuzz");
  } catch (const InputError&) {
    return 0;  // formula.syntax
  }
  for (const auto& bindings : binding_sets(*formula)) {
    std::optional<double> value;
    try {
      value = formula->evaluate(*bindings);
      bank::format_number(*value);
      formula->worked(*bindings);
    } catch (const InputError&) {
      // formula.eval: unknown or non-finite variable, division by zero, overflow, ...
    }
    if (value) check_mutations(*formula, *bindings, *value);
  }
  return 0;
}
