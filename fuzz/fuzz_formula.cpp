// libFuzzer target: the template formula language (bank/formula.hpp). The input is one formula;
// it is parsed, then evaluated and worked out under a few sets of bindings: none, every variable
// at zero, every variable at a value drawn from a fixed list (huge, tiny, negative, fractional),
// a typical template's, and one with a non-finite value.
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "asan_options.hpp"
#include "bank/formula.hpp"
#include "errors.hpp"

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
    try {
      const double value = formula->evaluate(*bindings);
      bank::format_number(value);
      formula->worked(*bindings);
    } catch (const InputError&) {
      // formula.eval: unknown or non-finite variable, division by zero, overflow, ...
    }
  }
  return 0;
}
