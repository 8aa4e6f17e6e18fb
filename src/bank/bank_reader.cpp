// The Reader's checks of one value each: its kind, the load limits, and the problem it reports
// with its JSON pointer (bank_reader.hpp).
#include "bank/bank_reader.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/lint_rules.hpp"
#include "core/json_input.hpp"

namespace proofdeck::bank {

using nlohmann::json;

namespace {

bool is_kebab_id(std::string_view id) {
  if (id.empty() || id.size() > 80 || id.front() == '-' || id.back() == '-') return false;
  for (std::size_t i = 0; i < id.size(); ++i) {
    const char c = id[i];
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c == '-' && id[i - 1] != '-');
    if (!ok) return false;
  }
  return true;
}

}  // namespace

void Reader::problem(const std::string& pointer, const std::string& message) {
  located_problem(pointer,
                  fmt::format("{}: {}: {}", file_, pointer.empty() ? "/" : pointer, message));
}

void Reader::located_problem(const std::string& pointer, std::string message) {
  problems_.push_back(std::move(message));
  pointers_.push_back(pointer);
}

bool Reader::object(const json& value, const std::string& pointer,
                    std::initializer_list<std::string_view> allowed,
                    std::initializer_list<std::string_view> required) {
  if (!value.is_object()) {
    problem(pointer,
            fmt::format("expected an object, found {} {}", json_kind(value), json_preview(value)));
    return false;
  }
  for (const auto& [key, item] : value.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      problem(pointer + "/" + key,
              fmt::format("unknown key '{}'; expected one of {}", key, fmt::join(allowed, ", ")));
    }
  }
  bool complete = true;
  for (const std::string_view key : required) {
    if (!value.contains(key)) {
      problem(pointer, fmt::format("missing required key '{}'", key));
      complete = false;
    }
  }
  return complete;
}

std::string Reader::text(const json& parent, std::string_view key, const std::string& pointer) {
  const auto it = parent.find(key);
  if (it == parent.end()) return {};
  const std::string where = pointer + "/" + std::string(key);
  if (!it->is_string() || it->get_ref<const std::string&>().empty()) {
    problem(where,
            fmt::format("expected non-empty text, found {} {}", json_kind(*it), json_preview(*it)));
    return {};
  }
  const std::string& value = it->get_ref<const std::string&>();
  if (value.size() > limits_.max_text) {
    problem(where, fmt::format("text of {} bytes is over the limit of {}", value.size(),
                               limits_.max_text));
    return {};
  }
  return value;
}

std::string Reader::id(const json& parent, std::string_view key, const std::string& pointer) {
  std::string value = text(parent, key, pointer);
  if (!value.empty() && !is_kebab_id(value)) {
    problem(pointer + "/" + std::string(key),
            fmt::format("'{}' is not a valid id; expected lower-case words joined by hyphens, "
                        "like 'mha-purpose'",
                        value));
  }
  return value;
}

std::vector<Requirement> Reader::requirements(const json& parent, const std::string& pointer) {
  return id_list(parent, "requires", pointer, "a topic or bank");
}

std::vector<Requirement> Reader::id_list(const json& parent, std::string_view key,
                                         const std::string& pointer, std::string_view names) {
  std::vector<Requirement> result;
  const json& items = array(parent, key, pointer);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string where = fmt::format("{}/{}/{}", pointer, key, i);
    if (!items[i].is_string() || items[i].get_ref<const std::string&>().empty()) {
      problem(where, fmt::format("expected the id of {}, found {} {}", names, json_kind(items[i]),
                                 json_preview(items[i])));
      continue;
    }
    const std::string& value = items[i].get_ref<const std::string&>();
    if (!is_kebab_id(value)) {
      problem(where, fmt::format("'{}' is not a valid id; expected lower-case words joined by "
                                 "hyphens, like 'multi-head'",
                                 value.substr(0, 80)));
      continue;
    }
    if (std::any_of(result.begin(), result.end(),
                    [&](const Requirement& earlier) { return earlier.id == value; })) {
      problem(where,
              fmt::format("'{}' is {} twice", value, key == "requires" ? "required" : "named"));
      continue;
    }
    result.push_back(Requirement{value, where});
  }
  return result;
}

std::optional<TimePoint> Reader::utc_time(const json& parent, std::string_view key,
                                          const std::string& pointer) {
  const std::string value = text(parent, key, pointer);
  if (value.empty()) return std::nullopt;
  const std::optional<TimePoint> parsed = parse_time(value);
  if (!parsed || (value.size() != 10 && value.back() != 'Z')) {
    problem(pointer + "/" + std::string(key),
            fmt::format("'{}' is not a date; expected an ISO-8601 date such as 2026-12-01 or a "
                        "UTC date-time such as 2026-12-01T09:00:00Z",
                        value));
    return std::nullopt;
  }
  return parsed;
}

std::optional<double> Reader::number(const json& parent, std::string_view key,
                                     const std::string& pointer) {
  const auto it = parent.find(key);
  if (it == parent.end()) return std::nullopt;
  if (!it->is_number() || !std::isfinite(it->get<double>())) {
    problem(pointer + "/" + std::string(key),
            fmt::format("expected a number, found {} {}", json_kind(*it), json_preview(*it)));
    return std::nullopt;
  }
  return it->get<double>();
}

std::optional<bool> Reader::boolean(const json& parent, std::string_view key,
                                    const std::string& pointer) {
  const auto it = parent.find(key);
  if (it == parent.end()) return std::nullopt;
  if (!it->is_boolean()) {
    problem(pointer + "/" + std::string(key),
            fmt::format("expected true or false, found {} {}", json_kind(*it), json_preview(*it)));
    return std::nullopt;
  }
  return it->get<bool>();
}

const json& Reader::array(const json& parent, std::string_view key, const std::string& pointer) {
  static const json empty = json::array();
  const auto it = parent.find(key);
  if (it == parent.end()) return empty;
  if (!it->is_array()) {
    problem(pointer + "/" + std::string(key),
            fmt::format("expected a list, found {} {}", json_kind(*it), json_preview(*it)));
    return empty;
  }
  return *it;
}

Source Reader::source(const json& parent, const std::string& pointer) {
  Source source;
  const auto it = parent.find("source");
  if (it == parent.end()) return source;
  const std::string where = pointer + "/source";
  if (!object(*it, where, {"section", "quote", "reference"}, {})) return source;
  source.section = text(*it, "section", where);
  source.quote = text(*it, "quote", where);
  source.reference = text(*it, "reference", where);
  if (source.section.empty() && source.reference.empty()) {
    problem(where, "give the lesson's 'section' or a 'reference'");
  }
  return source;
}

std::vector<LintWaiver> Reader::waivers(const json& parent, const std::string& pointer) {
  std::vector<LintWaiver> result;
  const json& items = array(parent, "lint_allow", pointer);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string where = fmt::format("{}/lint_allow/{}", pointer, i);
    if (!object(items[i], where, {"rule", "reason"}, {"rule", "reason"})) continue;
    LintWaiver waiver{text(items[i], "rule", where), text(items[i], "reason", where), where};
    if (!waiver.rule.empty() && !is_lint_rule(waiver.rule)) {
      problem(where + "/rule", fmt::format("no lint rule is named '{}'; the rules: {}", waiver.rule,
                                           fmt::join(kLintRules, ", ")));
    }
    for (const LintWaiver& earlier : result) {
      if (earlier.rule == waiver.rule) {
        problem(where + "/rule", fmt::format("'{}' is waived twice", waiver.rule));
      }
    }
    result.push_back(std::move(waiver));
  }
  return result;
}

std::optional<Formula> Reader::formula(const json& value, const std::string& pointer) {
  if (!value.is_string()) {
    problem(pointer, fmt::format("expected a formula (text), found {} {}", json_kind(value),
                                 json_preview(value)));
    return std::nullopt;
  }
  try {
    return Formula::parse(value.get<std::string>(), file_ + ": " + pointer);
  } catch (const InputError& e) {
    located_problem(pointer, e.message());
    return std::nullopt;
  }
}

Predicate Reader::predicate(const json& value, const std::string& pointer, int depth) {
  Predicate result;
  result.pointer = pointer;
  if (depth > 16) {
    problem(pointer, "predicates nest deeper than 16 levels");
    return result;
  }
  if (!value.is_object()) {
    problem(pointer, fmt::format("expected a predicate object, found {} {}", json_kind(value),
                                 json_preview(value)));
    return result;
  }
  for (const auto& [key, kind] :
       {std::pair{"all", Predicate::Kind::all}, std::pair{"any", Predicate::Kind::any}}) {
    if (!value.contains(key)) continue;
    result.kind = kind;
    object(value, pointer, {key}, {key});
    const json& items = array(value, key, pointer);
    if (items.empty()) problem(pointer + "/" + key, "expected at least one predicate");
    for (std::size_t i = 0; i < items.size(); ++i) {
      result.children.push_back(
          predicate(items[i], fmt::format("{}/{}/{}", pointer, key, i), depth + 1));
    }
    return result;
  }
  if (value.contains("not")) {
    result.kind = Predicate::Kind::negate;
    object(value, pointer, {"not"}, {"not"});
    result.children.push_back(predicate(value.at("not"), pointer + "/not", depth + 1));
    return result;
  }
  object(value, pointer, {"value", "eq", "ne", "lt", "le", "gt", "ge", "is", "tolerance"},
         {"value"});
  result.kind = Predicate::Kind::compare;
  result.value = text(value, "value", pointer);
  static const std::pair<const char*, Comparator> comparators[] = {
      {"eq", Comparator::eq}, {"ne", Comparator::ne}, {"lt", Comparator::lt},
      {"le", Comparator::le}, {"gt", Comparator::gt}, {"ge", Comparator::ge},
      {"is", Comparator::is}};
  std::vector<std::string> found;
  for (const auto& [key, comparator] : comparators) {
    if (!value.contains(key)) continue;
    found.emplace_back(key);
    result.comparator = comparator;
    const json& operand = value.at(key);
    const std::string where = pointer + "/" + key;
    if (comparator == Comparator::is) {
      if (operand.is_boolean()) {
        result.boolean = operand.get<bool>();
      } else {
        problem(where, fmt::format("'is' compares a true/false value; expected true or false, "
                                   "found {} {}",
                                   json_kind(operand), json_preview(operand)));
      }
    } else if (operand.is_number()) {
      result.number = operand.get<double>();
    } else if (operand.is_object() && object(operand, where, {"value"}, {"value"})) {
      result.other_value = text(operand, "value", where);
    } else if (!operand.is_object()) {
      problem(where, fmt::format("expected a number or {{\"value\": NAME}}, found {} {}",
                                 json_kind(operand), json_preview(operand)));
    }
  }
  if (!result.other_value.empty() && result.other_value == result.value) {
    problem(pointer, fmt::format("compares '{}' with itself, which holds (or fails) whatever the "
                                 "demo computes, so it proves nothing",
                                 result.value));
  }
  if (found.size() != 1) {
    problem(pointer, found.empty() ? "a comparison needs one of eq, ne, lt, le, gt, ge or is"
                                   : fmt::format("a comparison takes one comparator; found {}",
                                                 fmt::join(found, ", ")));
  }
  if (const auto tolerance = number(value, "tolerance", pointer)) {
    if (*tolerance < 0) problem(pointer + "/tolerance", "a tolerance cannot be negative");
    if (result.comparator != Comparator::eq && result.comparator != Comparator::ne) {
      problem(pointer + "/tolerance", "a tolerance applies to eq and ne only");
    }
    result.tolerance = *tolerance;
  }
  return result;
}

std::optional<Proof> Reader::proof(const json& parent, const std::string& pointer) {
  const auto it = parent.find("proof");
  if (it == parent.end()) return std::nullopt;
  const std::string where = pointer + "/proof";
  Proof proof;
  proof.pointer = where;
  if (!object(*it, where, {"demo", "args", "show", "predicates"}, {"demo"})) return proof;
  proof.demo = text(*it, "demo", where);
  if (const auto args = it->find("args"); args != it->end()) {
    if (args->is_object()) {
      proof.args = *args;
    } else {
      problem(where + "/args", fmt::format("expected an object of demo parameters, found {} {}",
                                           json_kind(*args), json_preview(*args)));
    }
  }
  const json& show = array(*it, "show", where);
  for (std::size_t i = 0; i < show.size(); ++i) {
    if (show[i].is_string() && !show[i].get_ref<const std::string&>().empty()) {
      proof.show.push_back(show[i].get<std::string>());
    } else {
      problem(fmt::format("{}/show/{}", where, i), "expected a value name");
    }
  }
  const json& predicates = array(*it, "predicates", where);
  for (std::size_t i = 0; i < predicates.size(); ++i) {
    proof.predicates.push_back(predicate(predicates[i], fmt::format("{}/predicates/{}", where, i)));
  }
  return proof;
}

}  // namespace proofdeck::bank
