// Bank loading: a Reader (bank_reader.hpp) walks the JSON once, building the model and collecting
// every problem with its JSON pointer; semantic checks (keys, references, templates) follow on
// the model.
#include "bank/loader.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/bank_reader.hpp"
#include "bank/proof.hpp"
#include "bank/template.hpp"
#include "core/json_input.hpp"
#include "text/suggest.hpp"

namespace proofdeck::bank {

using nlohmann::json;

std::string_view question_type_name(QuestionType type) {
  for (const QuestionTypeName& entry : kQuestionTypes) {
    if (entry.type == type) return entry.name;
  }
  return "?";
}

std::vector<std::string> question_type_names() {
  std::vector<std::string> names;
  for (const QuestionTypeName& entry : kQuestionTypes)
    names.emplace_back(entry.name);
  return names;
}

std::optional<OutOfScopeReason> parse_out_of_scope_reason(std::string_view name) {
  for (std::size_t i = 0; i < kOutOfScopeReasons.size(); ++i) {
    if (kOutOfScopeReasons[i] == name) return static_cast<OutOfScopeReason>(i);
  }
  return std::nullopt;
}

std::string_view out_of_scope_reason_name(OutOfScopeReason reason) {
  return kOutOfScopeReasons.at(static_cast<std::size_t>(reason));
}

const Topic* Bank::find_topic(std::string_view topic_id) const {
  for (const Topic& topic : topics) {
    if (topic.id == topic_id) return &topic;
  }
  return nullptr;
}

const Trap* Bank::find_trap(std::string_view trap_id) const {
  for (const Trap& trap : traps) {
    if (trap.id == trap_id) return &trap;
  }
  return nullptr;
}

BankErrors::BankErrors(std::vector<std::string> problems)
    : InputError("bank.invalid",
                 fmt::format("{} problem{} in the question banks:\n  {}", problems.size(),
                             problems.size() == 1 ? "" : "s", fmt::join(problems, "\n  "))),
      problems_(std::move(problems)) {}

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
  std::vector<const Formula*> evaluable;
  // The answer's unknown names were reported with the template.
  if (q.templ && q.templ->answer &&
      std::all_of(q.templ->answer->variables().begin(), q.templ->answer->variables().end(),
                  is_parameter)) {
    evaluable.push_back(&*q.templ->answer);
  }
  for (std::size_t i = 0; i < q.distractors.size(); ++i) {
    if (!q.distractors[i].formula) continue;
    bool known = true;
    for (const std::string& name : q.distractors[i].formula->variables()) {
      if (is_parameter(name)) continue;
      known = false;
      reader.problem(fmt::format("{}/distractors/{}/formula", pointer, i),
                     parameters.empty()
                         ? fmt::format("'{}' is not defined; only a question with a 'template' "
                                       "has parameters",
                                       name)
                         : fmt::format("'{}' is not a template parameter; parameters: {}", name,
                                       fmt::join(parameters, ", ")));
    }
    if (known) evaluable.push_back(&*q.distractors[i].formula);
  }
  if (evaluable.empty()) return;
  std::vector<bool> failed(evaluable.size(), false);
  const auto evaluate_all = [&](const Bindings& bindings) {
    for (std::size_t i = 0; i < evaluable.size(); ++i) {
      if (failed[i]) continue;
      try {
        evaluable[i]->evaluate(bindings);
      } catch (const InputError& e) {
        failed[i] = true;
        reader.problems().push_back(e.message());
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
    const std::string where = pointer + "/template";
    Template t;
    if (reader.object(*templ, where, {"params", "constraints", "answer"}, {"params", "answer"})) {
      if (const auto& params = templ->at("params"); params.is_object() && !params.empty()) {
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
      const json& constraints = reader.array(*templ, "constraints", where);
      for (std::size_t i = 0; i < constraints.size(); ++i) {
        if (auto f = reader.formula(constraints[i], fmt::format("{}/constraints/{}", where, i))) {
          t.constraints.push_back(std::move(*f));
        }
      }
      t.answer = reader.formula(templ->at("answer"), where + "/answer");
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
      reader.problem(
          where + "/params",
          fmt::format("the parameters have more than {} combinations; split the template",
                      limits.max_enumerated));
    } else {
      try {
        for_each_admitted(t, [&t](const Bindings&) { ++t.combinations; });
      } catch (const InputError& e) {
        reader.problems().push_back(e.message());
      }
      if (t.combinations == 0) {
        reader.problem(where + "/constraints", "the constraints admit no parameter combination");
      } else if (t.combinations > limits.max_combinations) {
        reader.problem(where + "/constraints",
                       fmt::format("the constraints admit {} combinations; the limit is {}",
                                   t.combinations, limits.max_combinations));
      }
    }
    q.templ = std::move(t);
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

Question read_question(Reader& reader, const json& node, const std::string& pointer,
                       const LoadLimits& limits) {
  Question q;
  q.pointer = pointer;
  if (!reader.object(node, pointer,
                     {"id", "type", "topic", "concept", "objective", "prompt", "explanation",
                      "source", "proof", "unprovable", "difficulty", "options", "answer", "trap",
                      "claim", "template", "distractors", "steps", "lint_allow"},
                     {"id", "type", "topic", "prompt", "explanation", "source"})) {
    if (!node.is_object()) return q;
  }
  q.id = reader.id(node, "id", pointer);
  q.topic = reader.id(node, "topic", pointer);
  q.concept_id = reader.id(node, "concept", pointer);
  q.objective = reader.id(node, "objective", pointer);
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
    case QuestionType::order: {
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
      break;
    }
  }
  return q;
}

// References to topics and traps, and ids unique within the bank.
void check_references(Reader& reader, const Bank& bank) {
  std::set<std::string> topics, traps, questions;
  for (std::size_t i = 0; i < bank.topics.size(); ++i) {
    if (!topics.insert(bank.topics[i].id).second) {
      reader.problem(fmt::format("/topics/{}/id", i),
                     fmt::format("topic id '{}' is used twice", bank.topics[i].id));
    }
  }
  for (std::size_t i = 0; i < bank.traps.size(); ++i) {
    if (!traps.insert(bank.traps[i].id).second) {
      reader.problem(fmt::format("/traps/{}/id", i),
                     fmt::format("trap id '{}' is used twice", bank.traps[i].id));
    }
  }
  std::set<std::string> objectives;
  for (const Objective& objective : bank.objectives) {
    if (!objective.id.empty() && !objectives.insert(objective.id).second) {
      reader.problem(objective.pointer + "/id",
                     fmt::format("objective id '{}' is used twice", objective.id));
    }
  }
  // A requirement that names the bank itself or the topic itself: never met (the rest of
  // `requires` is resolved where banks combine, bank/prerequisites.hpp).
  for (const Requirement& r : bank.prerequisites) {
    if (r.id == bank.id) reader.problem(r.pointer, fmt::format("bank '{}' requires itself", r.id));
  }
  for (const Topic& topic : bank.topics) {
    for (const Requirement& r : topic.prerequisites) {
      if (r.id == topic.id) {
        reader.problem(r.pointer, fmt::format("topic '{}' requires itself", r.id));
      } else if (r.id == bank.id && !topics.contains(r.id)) {
        reader.problem(r.pointer,
                       fmt::format("topic '{}' requires its own bank '{}', so itself; name the "
                                   "topics of this bank it requires",
                                   topic.id, r.id));
      }
    }
  }
  const auto check_trap = [&](const std::string& trap, const std::string& pointer) {
    if (!trap.empty() && !traps.contains(trap)) {
      reader.problem(pointer,
                     fmt::format("unknown trap '{}'{}", trap,
                                 text::unknown_name_hint(
                                     trap, {traps.begin(), traps.end()},
                                     fmt::format("the bank's traps: {}", fmt::join(traps, ", ")))));
    }
  };
  for (const Question& q : bank.questions) {
    if (!q.id.empty() && !questions.insert(q.id).second) {
      reader.problem(q.pointer + "/id", fmt::format("question id '{}' is used twice", q.id));
    }
    if (!q.topic.empty() && !topics.contains(q.topic)) {
      reader.problem(q.pointer + "/topic",
                     fmt::format("unknown topic '{}'{}", q.topic,
                                 text::unknown_name_hint(q.topic, {topics.begin(), topics.end()},
                                                         fmt::format("the bank's topics: {}",
                                                                     fmt::join(topics, ", ")))));
    }
    for (std::size_t i = 0; i < q.options.size(); ++i) {
      check_trap(q.options[i].trap, fmt::format("{}/options/{}/trap", q.pointer, i));
    }
    check_trap(q.trap, q.pointer + "/trap");
    for (std::size_t i = 0; i < q.distractors.size(); ++i) {
      check_trap(q.distractors[i].trap, fmt::format("{}/distractors/{}/trap", q.pointer, i));
    }
  }
}

// --- control characters ------------------------------------------------------------------
// One rule for every string of a bank, applied before anything reads it, so no output path can
// forget it: a tab becomes a space, a newline stays, and any other C0 or C1 control character
// (U+0000–U+001F, U+007F–U+009F) is a located problem. Each is replaced by U+FFFD once reported,
// so no later message echoes it to a terminal.

std::string control_name(char32_t code) {
  switch (code) {
    case 0x00:
      return "null";
    case 0x07:
      return "bell";
    case 0x08:
      return "backspace";
    case 0x0b:
      return "vertical tab";
    case 0x0c:
      return "form feed";
    case 0x0d:
      return "carriage return";
    case 0x1b:
      return "escape";
    case 0x7f:
      return "delete";
    case 0x85:
      return "next line";
    case 0x9b:
      return "control sequence introducer";
    default:
      return code < 0x80 ? "C0 control" : "C1 control";
  }
}

// RFC 6901: '~' and '/' in a key are written ~0 and ~1.
std::string pointer_token(std::string_view key) {
  std::string token;
  for (const char c : key) {
    if (c == '~') {
      token += "~0";
    } else if (c == '/') {
      token += "~1";
    } else {
      token += c;
    }
  }
  return token;
}

// Rewrites `text` under the rule above; reports each control character it replaces. `what` names
// the string in the message ("text" or "key").
std::string clean_controls(Reader& reader, const std::string& text, const std::string& pointer,
                           std::string_view what) {
  std::string clean;
  clean.reserve(text.size());
  std::size_t characters = 0;  // code points before the current byte
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    char32_t control = 0;
    std::size_t width = 1;
    if (byte == '\t') {
      clean += ' ';
      ++characters;
      continue;
    }
    if ((byte < 0x20 && byte != '\n') || byte == 0x7f) {
      control = byte;
    } else if (byte == 0xc2 && next >= 0x80 && next <= 0x9f) {
      control = static_cast<char32_t>(next);  // U+0080–U+009F in UTF-8
      width = 2;
    }
    if (control == 0 && byte != 0) {
      clean += text[i];
      if ((byte & 0xc0) != 0x80) ++characters;
      continue;
    }
    reader.problem(pointer,
                   fmt::format("{} holds the control character U+{:04X} ({}) at character {}; "
                               "bank text may hold line breaks (\\n) and tabs (read as spaces), "
                               "no other control characters",
                               what, static_cast<std::uint32_t>(control), control_name(control),
                               characters + 1));
    clean += "\xef\xbf\xbd";  // U+FFFD
    ++characters;
    i += width - 1;
  }
  return clean;
}

bool has_control(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f || byte == 0xc2;  // 0xc2 leads U+0080–U+00BF
  });
}

void clean_controls(Reader& reader, json& node, const std::string& pointer) {
  if (node.is_string()) {
    auto& text = node.get_ref<std::string&>();
    if (has_control(text)) text = clean_controls(reader, text, pointer, "the text");
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i)
      clean_controls(reader, node[i], fmt::format("{}/{}", pointer, i));
  } else if (node.is_object()) {
    bool keys_clean = true;
    for (const auto& item : node.items())
      keys_clean = keys_clean && !has_control(item.key());
    if (keys_clean) {
      for (auto& [key, value] : node.items())
        clean_controls(reader, value, pointer + "/" + pointer_token(key));
      return;
    }
    json cleaned = json::object();
    for (auto& [key, value] : node.items()) {
      const std::string clean_key = clean_controls(reader, key, pointer, "a key");
      clean_controls(reader, value, pointer + "/" + pointer_token(clean_key));
      cleaned[clean_key] = std::move(value);
    }
    node = std::move(cleaned);
  }
}

}  // namespace

Bank load_bank(std::string_view text, const std::string& file, const LoadLimits& limits) {
  json root = parse_json(text, file, JsonLimits{limits.max_bytes, limits.max_depth});
  Reader reader(file, limits);
  clean_controls(reader, root, "");
  Bank bank;
  bank.file = file;
  if (reader.object(root, "",
                    {"$schema", "format", "bank", "topics", "traps", "objectives", "out_of_scope",
                     "questions"},
                    {"format", "bank", "topics", "traps", "questions"})) {
    if (root.at("format") != 1) {
      reader.problem("/format", fmt::format("format {} is not one this proofdeck reads; expected 1",
                                            json_preview(root.at("format"))));
    }
    const json& meta = root.at("bank");
    if (reader.object(meta, "/bank",
                      {"id", "title", "lesson", "description", "revised", "requires", "lint_allow"},
                      {"id", "title", "lesson"})) {
      bank.lint_allow = reader.waivers(meta, "/bank");
      bank.prerequisites = reader.requirements(meta, "/bank");
      bank.id = reader.id(meta, "id", "/bank");
      bank.title = reader.text(meta, "title", "/bank");
      bank.lesson = reader.text(meta, "lesson", "/bank");
      bank.description = reader.text(meta, "description", "/bank");
      bank.revised_at = reader.utc_time(meta, "revised", "/bank");
      if (bank.revised_at) bank.revised = meta.at("revised").get<std::string>();
    }
    const json& topics = reader.array(root, "topics", "");
    for (std::size_t i = 0; i < topics.size(); ++i) {
      const std::string where = fmt::format("/topics/{}", i);
      if (!reader.object(topics[i], where, {"id", "name", "description", "requires"},
                         {"id", "name"})) {
        continue;
      }
      bank.topics.push_back(Topic{
          reader.id(topics[i], "id", where), reader.text(topics[i], "name", where),
          reader.text(topics[i], "description", where), reader.requirements(topics[i], where)});
    }
    const json& traps = reader.array(root, "traps", "");
    for (std::size_t i = 0; i < traps.size(); ++i) {
      const std::string where = fmt::format("/traps/{}", i);
      if (!reader.object(traps[i], where, {"id", "name", "misconception", "correction", "source"},
                         {"id", "name", "misconception", "correction", "source"})) {
        continue;
      }
      bank.traps.push_back(
          Trap{reader.id(traps[i], "id", where), reader.text(traps[i], "name", where),
               reader.text(traps[i], "misconception", where),
               reader.text(traps[i], "correction", where), reader.source(traps[i], where)});
    }
    const json& objectives = reader.array(root, "objectives", "");
    for (std::size_t i = 0; i < objectives.size(); ++i) {
      const std::string where = fmt::format("/objectives/{}", i);
      if (!reader.object(objectives[i], where, {"id", "statement", "quote", "source"},
                         {"id", "statement"})) {
        continue;
      }
      Objective objective{reader.id(objectives[i], "id", where),
                          reader.text(objectives[i], "statement", where),
                          reader.source(objectives[i], where), bank.id, where};
      if (const std::string quote = reader.text(objectives[i], "quote", where); !quote.empty()) {
        if (!objective.source.quote.empty()) {
          reader.problem(where + "/quote", "the quote is given twice, here and in 'source'");
        }
        objective.source.quote = quote;
      }
      if (objective.source.quote.empty() && objective.source.section.empty() &&
          objective.source.reference.empty()) {
        reader.problem(where, "give the lesson's words it rests on ('quote') or a 'source'");
      }
      bank.objectives.push_back(std::move(objective));
    }
    const json& out_of_scope = reader.array(root, "out_of_scope", "");
    for (std::size_t i = 0; i < out_of_scope.size(); ++i) {
      const std::string where = fmt::format("/out_of_scope/{}", i);
      if (!reader.object(out_of_scope[i], where,
                         {"quote", "reason", "note", "correction", "reference"},
                         {"quote", "reason"})) {
        continue;
      }
      OutOfScope entry;
      entry.pointer = where;
      entry.quote = reader.text(out_of_scope[i], "quote", where);
      entry.note = reader.text(out_of_scope[i], "note", where);
      entry.correction = reader.text(out_of_scope[i], "correction", where);
      entry.reference = reader.text(out_of_scope[i], "reference", where);
      const std::string reason = reader.text(out_of_scope[i], "reason", where);
      if (const auto parsed = parse_out_of_scope_reason(reason)) {
        entry.reason = *parsed;
      } else if (!reason.empty()) {
        reader.problem(where + "/reason", fmt::format("'{}' is not a reason; expected {}", reason,
                                                      fmt::join(kOutOfScopeReasons, ", ")));
      }
      const bool error = entry.reason == OutOfScopeReason::lesson_error;
      if (error && (entry.correction.empty() || entry.reference.empty())) {
        reader.problem(where,
                       "a lesson-error gives the correct claim ('correction') and the "
                       "paper that states it ('reference')");
      } else if (!error && (!entry.correction.empty() || !entry.reference.empty())) {
        reader.problem(where, fmt::format("'correction' and 'reference' belong to a lesson-error, "
                                          "not to {}",
                                          reason));
      }
      bank.out_of_scope.push_back(std::move(entry));
    }
    const json& questions = reader.array(root, "questions", "");
    if (questions.size() > limits.max_questions) {
      reader.problem("/questions", fmt::format("{} questions is over the limit of {}",
                                               questions.size(), limits.max_questions));
    } else {
      for (std::size_t i = 0; i < questions.size(); ++i) {
        Question q = read_question(reader, questions[i], fmt::format("/questions/{}", i), limits);
        q.bank = bank.id;
        q.file = file;
        bank.questions.push_back(std::move(q));
      }
    }
    check_references(reader, bank);
  }
  if (!reader.problems().empty()) throw BankErrors(std::move(reader.problems()));
  return bank;
}

void check_unique_ids(const std::vector<Bank>& banks) {
  std::vector<std::string> problems;
  std::map<std::string, std::string> bank_ids;
  std::map<std::string, std::string> question_ids;
  for (const Bank& bank : banks) {
    if (const auto [it, inserted] = bank_ids.emplace(bank.id, bank.file); !inserted) {
      problems.push_back(fmt::format("{}: /bank/id: bank id '{}' is also the id of {}", bank.file,
                                     bank.id, it->second));
    }
    for (const Question& q : bank.questions) {
      const std::string place = fmt::format("{}: {}", q.file, q.pointer);
      if (const auto [it, inserted] = question_ids.emplace(q.id, place); !inserted) {
        problems.push_back(
            fmt::format("{}/id: question id '{}' is already used at {}", place, q.id, it->second));
      }
    }
  }
  if (!problems.empty()) throw BankErrors(std::move(problems));
}

void check_objectives(const std::vector<Bank>& banks) {
  std::vector<std::string> problems;
  std::map<std::string, std::string> defined;  // id → "file: /objectives/n"
  for (const Bank& bank : banks) {
    for (const Objective& objective : bank.objectives) {
      const std::string place = fmt::format("{}: {}", bank.file, objective.pointer);
      if (const auto [it, inserted] = defined.emplace(objective.id, place); !inserted) {
        problems.push_back(
            fmt::format("{}/id: objective '{}' is already defined at {}; define "
                        "it once and name it from the other bank",
                        place, objective.id, it->second));
      }
    }
  }
  std::vector<std::string> known;
  for (const auto& [id, place] : defined)
    known.push_back(id);
  for (const Bank& bank : banks) {
    for (const Question& q : bank.questions) {
      if (q.objective.empty() || defined.contains(q.objective)) continue;
      problems.push_back(fmt::format(
          "{}: {}/objective: no loaded bank defines objective '{}'{}", q.file, q.pointer,
          q.objective,
          text::unknown_name_hint(
              q.objective, known,
              known.empty() ? std::string("no loaded bank lists objectives; add it to this bank's "
                                          "'objectives', or load the bank that defines it")
                            : "define it in this bank's 'objectives', or load the bank that "
                              "defines it")));
    }
  }
  if (!problems.empty()) throw BankErrors(std::move(problems));
}

}  // namespace proofdeck::bank
