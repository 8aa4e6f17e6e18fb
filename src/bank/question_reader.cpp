// The question readers: a question's common keys, then the reader of its type — the options of
// single and multi, a true/false answer and claim, a numeric key with its template and
// distractors (their formulas evaluated in every admitted combination), the steps of an order
// question.
#include "bank/question_reader.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <regex>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/template.hpp"

namespace proofdeck::bank {

using nlohmann::json;

namespace {

std::optional<QuestionType> parse_type(const std::string& name) {
  for (const QuestionTypeName& entry : kQuestionTypes) {
    if (entry.name == name) return entry.type;
  }
  return std::nullopt;
}

// "single, multi, truefalse, numeric or order"
std::string question_type_choices() {
  std::string words;
  for (std::size_t i = 0; i < kQuestionTypes.size(); ++i) {
    words += i == 0 ? "" : (i + 1 == kQuestionTypes.size() ? " or " : ", ");
    words += kQuestionTypes[i].name;
  }
  return words;
}

void read_options(Reader& reader, const json& node, const std::string& pointer, Question& q) {
  const json& options = reader.array(node, "options", pointer);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < options.size(); ++i) {
    const std::string where = fmt::format("{}/options/{}", pointer, i);
    Option option;
    if (!reader.object(options[i], where, {"id", "text", "correct", "trap", "claim", "feedback"},
                       {"id", "text"})) {
      continue;
    }
    option.id = reader.text(options[i], "id", where);
    option.text = reader.text(options[i], "text", where);
    option.correct = reader.boolean(options[i], "correct", where).value_or(false);
    option.trap = reader.id(options[i], "trap", where);
    option.feedback = reader.text(options[i], "feedback", where);
    if (const auto claim = options[i].find("claim"); claim != options[i].end()) {
      option.claim = reader.predicate(*claim, where + "/claim");
    }
    if (!option.id.empty() && !seen.insert(option.id).second) {
      reader.problem(where + "/id", fmt::format("option id '{}' is used twice", option.id));
    }
    q.options.push_back(std::move(option));
  }
  if (options.size() < 2) {
    reader.problem(pointer + "/options",
                   fmt::format("a {} question needs at least two options; found {}",
                               question_type_name(q.type), options.size()));
  }
  std::vector<std::string> keyed;
  for (const Option& option : q.options) {
    if (option.correct) keyed.push_back(option.id);
  }
  if (q.type == QuestionType::single && keyed.size() != 1) {
    reader.problem(
        pointer + "/options",
        fmt::format("a single question needs exactly one correct option; found {}{}", keyed.size(),
                    keyed.empty() ? "" : fmt::format(" ({})", fmt::join(keyed, ", "))));
  }
  if (q.type == QuestionType::multi && keyed.empty()) {
    reader.problem(pointer + "/options", "a multi question needs at least one correct option");
  }
}

void read_steps(Reader& reader, const json& node, const std::string& pointer, Question& q) {
  const json& steps = reader.array(node, "steps", pointer);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::string where = fmt::format("{}/steps/{}", pointer, i);
    if (!reader.object(steps[i], where, {"id", "text"}, {"id", "text"})) continue;
    Step step{reader.text(steps[i], "id", where), reader.text(steps[i], "text", where)};
    if (!step.id.empty() && !seen.insert(step.id).second) {
      reader.problem(where + "/id", fmt::format("step id '{}' is used twice", step.id));
    }
    q.steps.push_back(std::move(step));
  }
  if (steps.size() < 2) {
    reader.problem(pointer + "/steps", "an order question needs at least two steps");
  }
}

// A quiz evaluates the key and, after a wrong answer, every distractor for the drawn parameter
// values: each must name only template parameters (none without a template) and evaluate in
// every admitted combination, so a distractor that divides by zero for one of them is refused
// here rather than ending a session. One problem per formula, the first combination that fails.
void check_numeric_formulas(Reader& reader, const Question& q, const std::string& pointer,
                            const LoadLimits& limits) {
  std::vector<std::string> parameters;
  if (q.templ) {
    for (const auto& [name, values] : q.templ->params)
      parameters.push_back(name);
  }
  const auto is_parameter = [&](const std::string& name) {
    return std::find(parameters.begin(), parameters.end(), name) != parameters.end();
  };
  std::vector<std::pair<const Formula*, std::string>> evaluable;  // each with its pointer
  // The answer's unknown names were reported with the template.
  if (q.templ && q.templ->answer &&
      std::all_of(q.templ->answer->variables().begin(), q.templ->answer->variables().end(),
                  is_parameter)) {
    evaluable.emplace_back(&*q.templ->answer, pointer + "/template/answer");
  }
  for (std::size_t i = 0; i < q.distractors.size(); ++i) {
    if (!q.distractors[i].formula) continue;
    const std::string where = fmt::format("{}/distractors/{}/formula", pointer, i);
    bool known = true;
    for (const std::string& name : q.distractors[i].formula->variables()) {
      if (is_parameter(name)) continue;
      known = false;
      reader.problem(where,
                     parameters.empty()
                         ? fmt::format("'{}' is not defined; only a question with a 'template' "
                                       "has parameters",
                                       name)
                         : fmt::format("'{}' is not a template parameter; parameters: {}", name,
                                       fmt::join(parameters, ", ")));
    }
    if (known) evaluable.emplace_back(&*q.distractors[i].formula, where);
  }
  if (evaluable.empty()) return;
  std::vector<bool> failed(evaluable.size(), false);
  const auto evaluate_all = [&](const Bindings& bindings) {
    for (std::size_t i = 0; i < evaluable.size(); ++i) {
      if (failed[i]) continue;
      try {
        evaluable[i].first->evaluate(bindings);
      } catch (const InputError& e) {
        failed[i] = true;
        reader.located_problem(evaluable[i].second, e.message());
      }
    }
  };
  if (!q.templ) {
    evaluate_all({});
  } else if (q.templ->combinations > 0 && q.templ->combinations <= limits.max_combinations) {
    try {
      for_each_admitted(*q.templ, evaluate_all);
    } catch (const InputError&) {
      // A constraint that cannot be evaluated: already reported when the combinations were counted.
    }
  }
}

// A numeric question's template: its parameters, constraints and answer, every name they and the
// question's text use checked against the parameters, and its admitted combinations counted
// within the limits.
Template read_template(Reader& reader, const json& templ, const std::string& pointer,
                       const Question& q, const LoadLimits& limits) {
  const std::string where = pointer + "/template";
  Template t;
  if (reader.object(templ, where, {"params", "constraints", "answer"}, {"params", "answer"})) {
    if (const auto& params = templ.at("params"); params.is_object() && !params.empty()) {
      for (const auto& [name, values] : params.items()) {
        std::vector<double> numbers;
        if (values.is_array()) {
          for (const json& v : values) {
            if (v.is_number()) numbers.push_back(v.get<double>());
          }
        }
        if (numbers.empty() || numbers.size() != values.size()) {
          reader.problem(where + "/params/" + name, "expected a non-empty list of numbers");
        }
        t.params.emplace_back(name, std::move(numbers));
      }
    } else {
      reader.problem(where + "/params", "expected an object of parameter value lists");
    }
    const json& constraints = reader.array(templ, "constraints", where);
    for (std::size_t i = 0; i < constraints.size(); ++i) {
      if (auto f = reader.formula(constraints[i], fmt::format("{}/constraints/{}", where, i))) {
        t.constraints.push_back(std::move(*f));
      }
    }
    t.answer = reader.formula(templ.at("answer"), where + "/answer");
  }
  // Every name a formula or placeholder uses must be a parameter.
  std::set<std::string> names;
  for (const auto& [name, values] : t.params)
    names.insert(name);
  const auto check_names = [&](const std::vector<std::string>& used, const std::string& at) {
    for (const std::string& name : used) {
      if (!names.contains(name)) {
        reader.problem(at, fmt::format("'{}' is not a template parameter; parameters: {}", name,
                                       fmt::join(names, ", ")));
      }
    }
  };
  if (t.answer) check_names(t.answer->variables(), where + "/answer");
  for (std::size_t i = 0; i < t.constraints.size(); ++i) {
    check_names(t.constraints[i].variables(), fmt::format("{}/constraints/{}", where, i));
  }
  check_names(placeholders(q.prompt), pointer + "/prompt");
  check_names(placeholders(q.explanation), pointer + "/explanation");
  check_names(placeholders(q.key.computed), pointer + "/answer/computed");
  // Count the admitted combinations.
  std::int64_t total = 1;
  for (const auto& [name, values] : t.params) {
    total *= std::max<std::int64_t>(1, static_cast<std::int64_t>(values.size()));
    if (total > limits.max_enumerated) break;
  }
  if (total > limits.max_enumerated) {
    reader.problem(where + "/params",
                   fmt::format("the parameters have more than {} combinations; split the template",
                               limits.max_enumerated));
  } else {
    try {
      for_each_admitted(t, [&t](const Bindings&) { ++t.combinations; });
    } catch (const InputError& e) {
      reader.located_problem(where + "/constraints", e.message());
    }
    if (t.combinations == 0) {
      reader.problem(where + "/constraints", "the constraints admit no parameter combination");
    } else if (t.combinations > limits.max_combinations) {
      reader.problem(where + "/constraints",
                     fmt::format("the constraints admit {} combinations; the limit is {}",
                                 t.combinations, limits.max_combinations));
    }
  }
  return t;
}

void read_numeric(Reader& reader, const json& node, const std::string& pointer, Question& q,
                  const LoadLimits& limits) {
  if (const auto answer = node.find("answer"); answer != node.end()) {
    const std::string where = pointer + "/answer";
    if (reader.object(*answer, where, {"value", "tolerance", "relative", "unit", "computed"}, {})) {
      q.key.value = reader.number(*answer, "value", where);
      q.key.relative = reader.boolean(*answer, "relative", where).value_or(false);
      q.key.unit = reader.text(*answer, "unit", where);
      q.key.computed = reader.text(*answer, "computed", where);
      const auto tolerance = reader.number(*answer, "tolerance", where);
      if (!tolerance) {
        reader.problem(where, "a numeric answer needs a tolerance (0 for an exact answer)");
      } else if (*tolerance < 0) {
        reader.problem(where + "/tolerance", "a tolerance cannot be negative");
      } else {
        q.key.tolerance = *tolerance;
      }
    }
  } else {
    reader.problem(pointer, "missing required key 'answer'");
  }

  if (const auto templ = node.find("template"); templ != node.end()) {
    q.templ = read_template(reader, *templ, pointer, q, limits);
  } else if (!q.key.value) {
    reader.problem(pointer + "/answer", "a numeric answer needs a 'value' (or a 'template')");
  }

  const json& distractors = reader.array(node, "distractors", pointer);
  for (std::size_t i = 0; i < distractors.size(); ++i) {
    const std::string where = fmt::format("{}/distractors/{}", pointer, i);
    if (!reader.object(distractors[i], where, {"value", "formula", "trap"}, {"trap"})) continue;
    Distractor d;
    d.number = reader.number(distractors[i], "value", where);
    if (const auto f = distractors[i].find("formula"); f != distractors[i].end()) {
      d.formula = reader.formula(*f, where + "/formula");
    }
    if (d.number.has_value() == distractors[i].contains("formula")) {
      reader.problem(where, "give a distractor either a 'value' or a 'formula'");
    }
    d.trap = reader.id(distractors[i], "trap", where);
    q.distractors.push_back(std::move(d));
  }
  check_numeric_formulas(reader, q, pointer, limits);
}

// "option b", "Option (c)", "options b and d": an option named by its letter, or "".
std::string option_letter_reference(const std::string& text) {
  static const std::regex letter(R"(\b[Oo]ptions? \(?[a-z]\)?(?![A-Za-z0-9'-]))");
  std::smatch match;
  return std::regex_search(text, match, letter) ? match.str() : std::string();
}

}  // namespace

bool leaves_proof_checkable(std::string_view key) {
  // What a proof check reads is the proof, the type (which options and claims are read), the
  // template (its bindings), the answer (its computed value), options, claim and explanation
  // ({value:NAME}); a key not known may be one of them misspelt.
  static constexpr std::array<std::string_view, 13> kUnread = {
      "id",         "topic", "concept",     "objective", "prompt",     "source",      "unprovable",
      "difficulty", "trap",  "distractors", "steps",     "lint_allow", "same_fact_as"};
  return std::find(kUnread.begin(), kUnread.end(), key) != kUnread.end();
}

Question read_question(Reader& reader, const json& node, const std::string& pointer,
                       const LoadLimits& limits) {
  Question q;
  q.pointer = pointer;
  if (!reader.object(node, pointer,
                     {"id",         "type",        "topic",  "concept",    "objective",
                      "prompt",     "explanation", "source", "proof",      "unprovable",
                      "difficulty", "options",     "answer", "trap",       "claim",
                      "template",   "distractors", "steps",  "lint_allow", "same_fact_as"},
                     {"id", "type", "topic", "prompt", "explanation", "source"})) {
    if (!node.is_object()) return q;
  }
  q.id = reader.id(node, "id", pointer);
  q.topic = reader.id(node, "topic", pointer);
  q.concept_id = reader.id(node, "concept", pointer);
  q.objective = reader.id(node, "objective", pointer);
  q.same_fact_as = reader.id_list(node, "same_fact_as", pointer, "a question");
  q.lint_allow = reader.waivers(node, pointer);
  q.prompt = reader.text(node, "prompt", pointer);
  q.explanation = reader.text(node, "explanation", pointer);
  if (const std::string letter = option_letter_reference(q.explanation); !letter.empty()) {
    reader.problem(pointer + "/explanation",
                   fmt::format("refers to \"{}\", but options are shuffled when asked, so a "
                               "letter names a different option each time; name the option by "
                               "what it says",
                               letter));
  }
  q.source = reader.source(node, pointer);
  q.proof = reader.proof(node, pointer);
  q.unprovable = reader.text(node, "unprovable", pointer);
  if (q.proof && !q.unprovable.empty()) {
    reader.problem(pointer + "/unprovable", "a question with a proof is not unprovable");
  }
  if (const auto quoted = value_references(q.explanation); !quoted.empty() && !q.proof) {
    reader.problem(pointer + "/explanation",
                   fmt::format("quotes {{value:{}}}, but the question has no proof to compute it; "
                               "add a proof whose demo has that value, or write the number",
                               quoted.front()));
  }
  for (const std::string& name : value_references(q.explanation)) {
    if (name.empty()) reader.problem(pointer + "/explanation", "{value:} names no value");
  }
  if (const auto difficulty = reader.number(node, "difficulty", pointer)) {
    if (*difficulty != 1 && *difficulty != 2 && *difficulty != 3) {
      reader.problem(pointer + "/difficulty", "expected 1, 2 or 3");
    } else {
      q.difficulty = static_cast<int>(*difficulty);
    }
  }
  const std::string type_name = reader.text(node, "type", pointer);
  const auto type = parse_type(type_name);
  if (!type) {
    if (!type_name.empty()) {
      reader.problem(pointer + "/type", fmt::format("unknown type '{}'; expected {}", type_name,
                                                    question_type_choices()));
    }
    return q;
  }
  q.type = *type;
  // Keys that belong to other types.
  const std::map<std::string, std::vector<QuestionType>> owners = {
      {"options", {QuestionType::single, QuestionType::multi}},
      {"answer", {QuestionType::truefalse, QuestionType::numeric}},
      {"trap", {QuestionType::truefalse}},
      {"claim", {QuestionType::truefalse}},
      {"template", {QuestionType::numeric}},
      {"distractors", {QuestionType::numeric}},
      {"steps", {QuestionType::order}}};
  for (const auto& [key, types] : owners) {
    if (node.contains(key) && std::find(types.begin(), types.end(), q.type) == types.end()) {
      reader.problem(pointer + "/" + key,
                     fmt::format("'{}' does not apply to a {} question", key, type_name));
    }
  }
  switch (q.type) {
    case QuestionType::single:
    case QuestionType::multi:
      read_options(reader, node, pointer, q);
      break;
    case QuestionType::truefalse: {
      const auto answer = reader.boolean(node, "answer", pointer);
      if (!answer && !node.contains("answer")) {
        reader.problem(pointer, "missing required key 'answer' (true or false)");
      }
      q.answer = answer.value_or(false);
      q.trap = reader.id(node, "trap", pointer);
      if (const auto claim = node.find("claim"); claim != node.end()) {
        q.claim = reader.predicate(*claim, pointer + "/claim");
      }
      break;
    }
    case QuestionType::numeric:
      read_numeric(reader, node, pointer, q, limits);
      break;
    case QuestionType::order:
      read_steps(reader, node, pointer, q);
      break;
  }
  return q;
}

}  // namespace proofdeck::bank
