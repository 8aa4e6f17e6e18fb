// Bank loading: a Reader (bank_reader.hpp) walks the JSON once, building the model and collecting
// every problem with its JSON pointer — the bank's own keys, topics, traps, objectives and
// out-of-scope entries here, each question in question_reader.cpp; semantic checks (keys,
// references, templates) follow on the model.
#include "bank/loader.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/bank_reader.hpp"
#include "bank/question_reader.hpp"
#include "core/json_input.hpp"
#include "text/number.hpp"
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
    : InputError("bank.invalid", fmt::format("{} in the question banks:\n  {}",
                                             text::count(problems.size(), "problem", "problems"),
                                             fmt::join(problems, "\n  "))),
      problems_(std::move(problems)) {}

namespace {

void read_topics(Reader& reader, const json& root, Bank& bank) {
  const json& topics = reader.array(root, "topics", "");
  for (std::size_t i = 0; i < topics.size(); ++i) {
    const std::string where = fmt::format("/topics/{}", i);
    if (!reader.object(topics[i], where, {"id", "name", "description", "requires"},
                       {"id", "name"})) {
      continue;
    }
    bank.topics.push_back(
        Topic{reader.id(topics[i], "id", where), reader.text(topics[i], "name", where),
              reader.text(topics[i], "description", where), reader.requirements(topics[i], where)});
  }
}

void read_traps(Reader& reader, const json& root, Bank& bank) {
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
}

// An objective states its quote once, here or in its source, and rests on the lesson's words
// or a source.
void read_objectives(Reader& reader, const json& root, Bank& bank) {
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
}

void read_out_of_scope(Reader& reader, const json& root, Bank& bank) {
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

// The questions whose proofs a problem found leaves checkable (BankReading::provable): all of
// them unless the format is not one this proofdeck reads, but those with a problem under a key a
// proof check reads (question_reader.hpp's leaves_proof_checkable). A problem at a question itself
// (a required key missing, not an object) leaves nothing a check could misread.
std::vector<std::size_t> provable_questions(const Reader& reader, std::size_t count) {
  std::vector<bool> blocked(count, false);
  constexpr std::string_view kQuestions = "/questions/";
  for (const std::string& pointer : reader.problem_pointers()) {
    if (pointer == "/format") return {};
    if (!pointer.starts_with(kQuestions)) continue;
    const std::size_t index_end = pointer.find('/', kQuestions.size());
    if (index_end == std::string::npos) continue;
    std::size_t index = 0;
    const char* const digits = pointer.data() + kQuestions.size();
    const char* const digits_end = pointer.data() + index_end;
    if (std::from_chars(digits, digits_end, index).ptr != digits_end || index >= count) continue;
    const std::size_t key_end = pointer.find('/', index_end + 1);
    const std::string_view key = std::string_view(pointer).substr(
        index_end + 1,
        key_end == std::string::npos ? std::string_view::npos : key_end - index_end - 1);
    if (!leaves_proof_checkable(key)) blocked[index] = true;
  }
  std::vector<std::size_t> provable;
  for (std::size_t i = 0; i < count; ++i) {
    if (!blocked[i]) provable.push_back(i);
  }
  return provable;
}

}  // namespace

Bank load_bank(std::string_view text, const std::string& file, const LoadLimits& limits) {
  BankReading reading = read_bank(text, file, limits);
  if (!reading.problems.empty()) throw BankErrors(std::move(reading.problems));
  return std::move(reading.bank);
}

BankReading read_bank(std::string_view text, const std::string& file, const LoadLimits& limits) {
  json root = parse_json(text, file, JsonLimits{limits.max_bytes, limits.max_depth});
  Reader reader(file, limits);
  clean_controls(reader, root, "");
  Bank bank;
  bank.file = file;
  bank.content_hash = 0xcbf29ce484222325ULL;  // FNV-1a's offset basis and prime
  for (const char c : text)
    bank.content_hash = (bank.content_hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
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
    read_topics(reader, root, bank);
    read_traps(reader, root, bank);
    read_objectives(reader, root, bank);
    read_out_of_scope(reader, root, bank);
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
  BankReading reading;
  reading.provable = provable_questions(reader, bank.questions.size());
  reading.problems = reader.take_problems();
  reading.bank = std::move(bank);
  return reading;
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

void check_same_facts(const std::vector<Bank>& banks) {
  std::map<std::string, const Question*> loaded;
  std::vector<std::string> ids;
  for (const Bank& bank : banks) {
    for (const Question& q : bank.questions) {
      loaded.emplace(q.id, &q);
      ids.push_back(q.id);
    }
  }
  std::vector<std::string> problems;
  for (const Bank& bank : banks) {
    for (const Question& q : bank.questions) {
      for (const Requirement& named : q.same_fact_as) {
        const std::string place = fmt::format("{}: {}", q.file, named.pointer);
        const auto it = loaded.find(named.id);
        if (named.id == q.id) {
          problems.push_back(fmt::format("{}: '{}' names the question itself", place, named.id));
        } else if (it == loaded.end()) {
          problems.push_back(fmt::format(
              "{}: no loaded bank has a question '{}'{}", place, named.id,
              text::unknown_name_hint(named.id, ids, "name a question of a loaded bank")));
        } else if (it->second->objective_id() == q.objective_id()) {
          problems.push_back(fmt::format(
              "{}: '{}' already asks objective '{}', so no form holds the two together; "
              "same_fact_as is for questions on different objectives",
              place, named.id, q.objective_id()));
        }
      }
    }
  }
  if (!problems.empty()) throw BankErrors(std::move(problems));
}

}  // namespace proofdeck::bank
