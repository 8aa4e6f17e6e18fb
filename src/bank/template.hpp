// A template's runtime, apart from proofs: the parameter combinations its constraints admit,
// and the braces a bank's text holds — `{param}` placeholders, filled from a draw, and
// `{value:NAME}` references to the proof's values (filled by bank/proof.hpp's fill_values).
// Drawing a question (bank/instance.hpp) needs this and no proof machinery.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "bank/model.hpp"

namespace proofdeck::bank {

// Calls visit for every combination of the template's parameter values that meets all its
// constraints (the first parameter varies fastest). InputError from a constraint that cannot be
// evaluated (e.g. a division by zero for some combination).
void for_each_admitted(const Template& templ, const std::function<void(const Bindings&)>& visit);

// How `{value:NAME}` references begin.
inline constexpr std::string_view kValuePrefix = "{value:";

// How a template value is written into text: plain for value names and demo arguments
// ("16384", "0.5": what a parser reads back exactly), grouped for people (prompts: "16,384").
enum class NumberStyle { plain, grouped };

// "{heads}" → "8" with heads = 8, in value names, prompts and arguments; unknown placeholders
// stay as they are.
std::string substitute(std::string_view text, const Bindings& bindings,
                       NumberStyle style = NumberStyle::plain);

// The `{param}` placeholders of a text, innermost first where they nest; `{value:NAME}`
// references are not placeholders (value_references lists them).
std::vector<std::string> placeholders(std::string_view text);

// The NAMEs of an explanation's `{value:NAME}` references, in order: values of the question's
// demo, quoted where the explanation is shown (NAME may hold `{param}` placeholders in templates).
std::vector<std::string> value_references(std::string_view text);

}  // namespace proofdeck::bank
