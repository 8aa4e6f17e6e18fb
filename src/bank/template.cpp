// A template's runtime: admitted combinations, placeholders and their filling.
#include "bank/template.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

#include <fmt/format.h>

#include "bank/formula.hpp"

namespace proofdeck::bank {

void for_each_admitted(const Template& templ, const std::function<void(const Bindings&)>& visit) {
  const auto& params = templ.params;
  if (params.empty() ||
      std::any_of(params.begin(), params.end(), [](const auto& p) { return p.second.empty(); })) {
    return;
  }
  std::vector<std::size_t> index(params.size(), 0);
  Bindings bindings;
  for (;;) {
    for (std::size_t p = 0; p < params.size(); ++p) {
      bindings[params[p].first] = params[p].second[index[p]];
    }
    const bool admitted = std::all_of(
        templ.constraints.begin(), templ.constraints.end(),
        [&](const Formula& constraint) { return constraint.evaluate(bindings) != 0.0; });
    if (admitted) visit(bindings);
    std::size_t p = 0;
    while (p < index.size() && ++index[p] == params[p].second.size())
      index[p++] = 0;
    if (p == index.size()) return;
  }
}

namespace {

std::string plain_number(double value) {
  if (std::isfinite(value) && value == std::trunc(value) && std::fabs(value) < 9.0e15) {
    return std::to_string(static_cast<std::int64_t>(value));
  }
  return fmt::format("{}", value);  // shortest text that reads back as the same double
}

}  // namespace

std::string substitute(std::string_view text, const Bindings& bindings, NumberStyle style) {
  std::string result;
  std::size_t at = 0;
  while (at < text.size()) {
    // The innermost braces first, so "{value:variance_{layers}}" becomes "{value:variance_20}".
    const std::size_t close = text.find('}', at);
    if (close == std::string_view::npos) break;
    const std::size_t open = text.rfind('{', close);
    if (open == std::string_view::npos || open < at) {
      result += text.substr(at, close + 1 - at);
      at = close + 1;
      continue;
    }
    const auto it = bindings.find(text.substr(open + 1, close - open - 1));
    result += text.substr(at, open - at);
    result += it == bindings.end()            ? std::string(text.substr(open, close - open + 1))
              : style == NumberStyle::grouped ? format_number(it->second)
                                              : plain_number(it->second);
    at = close + 1;
  }
  result += text.substr(std::min(at, text.size()));
  return result;
}

namespace {

// Calls visit(open, close) for every brace pair of `text`, innermost first, nesting respected.
template <typename Visit>
void for_each_brace(std::string_view text, Visit visit) {
  std::vector<std::size_t> opens;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{') {
      opens.push_back(i);
    } else if (text[i] == '}' && !opens.empty()) {
      visit(opens.back(), i);
      opens.pop_back();
    }
  }
}

}  // namespace

std::vector<std::string> placeholders(std::string_view text) {
  std::vector<std::string> names;
  for_each_brace(text, [&](std::size_t open, std::size_t close) {
    const std::string_view inside = text.substr(open + 1, close - open - 1);
    if (text.substr(open).starts_with(kValuePrefix) || inside.find('{') != std::string_view::npos)
      return;
    names.emplace_back(inside);
  });
  return names;
}

std::vector<std::string> value_references(std::string_view text) {
  std::vector<std::pair<std::size_t, std::string>> found;
  for_each_brace(text, [&](std::size_t open, std::size_t close) {
    if (!text.substr(open).starts_with(kValuePrefix)) return;
    const std::size_t start = open + kValuePrefix.size();
    found.emplace_back(open, std::string(text.substr(start, close - start)));
  });
  std::sort(found.begin(), found.end());  // in reading order, not innermost first
  std::vector<std::string> names;
  for (auto& [open, name] : found)
    names.push_back(std::move(name));
  return names;
}

}  // namespace proofdeck::bank
