// GIFT and Anki exports of the arranged questions.
#include "print/export.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "bank/instance.hpp"
#include "render/figure.hpp"
#include "text/escape.hpp"

namespace proofdeck::print {

namespace {

using Out = std::back_insert_iterator<std::string>;

std::string trap_feedback(const bank::Trap& trap) {
  return "Trap — " + trap.name + ": " + trap.correction;
}

std::string key_numbers_text(const ProofRun& run, const std::string& demo_name) {
  if (run.result == nullptr || run.key_numbers.empty()) return {};
  std::string text = run.heading + " (" + demo_name + "):";
  for (std::size_t i = 0; i < run.key_numbers.size(); ++i) {
    text += (i == 0 ? " " : " · ") + run.key_numbers[i].first + ": " + run.key_numbers[i].second;
  }
  return text;
}

// ============================================================================================
// GIFT
// ============================================================================================

// A number as every GIFT reader takes it: plain decimal digits, no grouping and no exponent
// (Moodle's importer reads "3.9e-12", gift-pegjs rejects the whole file), and the shortest such
// form that reads back as the same double.
std::string gift_number(double value) {
  if (!std::isfinite(value)) return "0";  // never a key or tolerance: the loader rejects them
  const std::string shortest = fmt::format("{}", std::fabs(value));  // may carry an exponent
  const std::size_t e = shortest.find('e');
  const std::string mantissa = shortest.substr(0, e);
  const int exponent = e == std::string::npos ? 0 : std::stoi(shortest.substr(e + 1));
  std::string digits = mantissa;
  const std::size_t point = mantissa.find('.');
  int integer_digits = static_cast<int>(point == std::string::npos ? mantissa.size() : point);
  if (point != std::string::npos) digits.erase(point, 1);
  integer_digits += exponent;
  std::string plain;
  if (integer_digits <= 0) {
    plain = "0." + std::string(static_cast<std::size_t>(-integer_digits), '0') + digits;
  } else if (static_cast<std::size_t>(integer_digits) >= digits.size()) {
    plain = digits + std::string(static_cast<std::size_t>(integer_digits) - digits.size(), '0');
  } else {
    const auto split = static_cast<std::size_t>(integer_digits);
    plain = digits.substr(0, split) + "." + digits.substr(split);
  }
  // Leading zeros of the integer part ("0.5" stays, "00.5" cannot arise) and a bare "-0".
  const std::size_t first = plain.find_first_not_of('0');
  if (first == std::string::npos) return "0";
  if (first > 0 && plain[first] != '.') plain.erase(0, first);
  return (std::signbit(value) && plain != "0" ? "-" : "") + plain;
}

// Moodle accepts only the grades of its list (100, 50, 33.33333, 25, 20, 16.66667, 14.28571,
// 12.5, 11.11111, 10, …): 1/n of the credit for n up to 10 is one of them.
std::string gift_percent(double percent) {
  std::string text = fmt::format("{:.5f}", percent);
  while (text.back() == '0')
    text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

std::string general_feedback(const Printed& printed, const Facts& facts,
                             const std::optional<ProofRun>& run, bank::DemoRunner& runner) {
  const bank::Question& q = printed.question();
  std::string text = bank::explanation_text(printed.instance, runner);
  if (!facts.worked.empty()) text += "\nWorked: " + facts.worked;
  if (run) {
    if (const std::string numbers = key_numbers_text(*run, q.proof->demo); !numbers.empty())
      text += "\n" + numbers;
  }
  text += "\nSource: " + facts.source;
  return gift_escape(text);
}

void gift_question(std::string& gift, const Printed& printed, bank::DemoRunner& runner) {
  const bank::Question& q = printed.question();
  const bank::Bank& b = *printed.bank;
  const Facts facts = facts_of(printed, b);
  const std::optional<ProofRun> run = run_proof(printed, runner);
  Out out(gift);
  fmt::format_to(out, "// {}. {} · {} · {}\n", printed.number, q.id, b.id,
                 bank::question_type_name(q.type));
  std::string prompt = printed.instance.prompt;
  if (q.type == bank::QuestionType::order)
    prompt += "\n(Match each step to its place in the order: 1 is first.)";
  fmt::format_to(out, "::{}::[plain]{}{{\n", gift_escape(q.id), gift_escape(prompt));
  const auto trap_of = [&](const std::string& id) {
    return id.empty() ? nullptr : b.find_trap(id);
  };
  switch (q.type) {
    case bank::QuestionType::single:
    case bank::QuestionType::multi: {
      const auto right = static_cast<double>(std::count_if(
          q.options.begin(), q.options.end(), [](const auto& o) { return o.correct; }));
      const double wrong = static_cast<double>(q.options.size()) - right;
      for (const bank::Option& option : q.options) {
        std::string prefix;
        if (q.type == bank::QuestionType::single) {
          prefix = option.correct ? "=" : "~";
        } else {
          prefix = "~%" + gift_percent(option.correct ? 100.0 / right : -100.0 / wrong) + "%";
        }
        std::string feedback = option.feedback;
        if (option.correct && feedback.empty()) feedback = "Right.";
        if (!option.correct) {
          if (const bank::Trap* trap = trap_of(option.trap))
            feedback += (feedback.empty() ? "" : "\n") + trap_feedback(*trap);
        }
        fmt::format_to(out, "\t{}{}", prefix, gift_escape(option.text));
        if (!feedback.empty()) fmt::format_to(out, "#{}", gift_escape(feedback));
        gift += "\n";
      }
      break;
    }
    case bank::QuestionType::truefalse: {
      const bank::Trap* trap = trap_of(q.trap);
      fmt::format_to(out, "\t{}#{}#Right.\n", q.answer ? "TRUE" : "FALSE",
                     trap != nullptr ? gift_escape(trap_feedback(*trap)) : std::string());
      break;
    }
    case bank::QuestionType::numeric: {
      const double key = printed.instance.key;
      const double tolerance = q.key.allowed(key);
      fmt::format_to(out, "\t#\n\t={}:{}#Right.\n", gift_number(key), gift_number(tolerance));
      for (const bank::Distractor& d : q.distractors) {
        const bank::Trap* trap = trap_of(d.trap);
        double value = 0.0;
        try {
          value = d.value(printed.instance.bindings);
        } catch (const std::exception&) {
          continue;
        }
        // A wrong answer inside the key's tolerance would take the key's credit away.
        if (std::fabs(value - key) <= tolerance || trap == nullptr) continue;
        fmt::format_to(out, "\t=%0%{}:{}#{}\n", gift_number(value), gift_number(tolerance),
                       gift_escape(trap_feedback(*trap)));
      }
      break;
    }
    case bank::QuestionType::order:
      for (std::size_t i = 0; i < q.steps.size(); ++i) {
        // "->" separates a matching pair; a step that writes one gets an arrow instead.
        std::string step = q.steps[i].text;
        for (std::size_t at = step.find("->"); at != std::string::npos; at = step.find("->", at))
          step.replace(at, 2, "→");
        fmt::format_to(out, "\t={} -> {}\n", gift_escape(step), i + 1);
      }
      break;
  }
  fmt::format_to(out, "\t####{}\n}}\n\n", general_feedback(printed, facts, run, runner));
}

// ============================================================================================
// Anki
// ============================================================================================

// Deck names and tags are not fields: no HTML, but nothing that splits a row or a column.
std::string plain_cell(std::string_view text, char space) {
  std::string out;
  for (const char c : text) {
    if (c == '\t' || c == '\n' || c == '\r' || (space == '_' && c == ' ')) {
      out += space;
    } else if (c == '"') {
      out += '\'';
    } else {
      out += c;
    }
  }
  return out;
}

// A text-import row: the note's fields laid out as the Basic note type's front and back.
std::string anki_row(const AnkiNote& note) {
  std::string front = "<div class=\"prompt\">" + note.question + "</div>";
  front += "<div class=\"kind\"><i>" + note.kind + "</i></div>";
  if (!note.options.empty()) front += "<div class=\"options\">" + note.options + "</div>";

  std::string back = "<div class=\"answer\"><b>Answer:</b> " + note.answer + "</div>";
  if (!note.traps.empty()) back += "<div class=\"traps\"><b>Traps:</b><br>" + note.traps + "</div>";
  back += "<div class=\"why\"><b>Why:</b> " + note.explanation + "</div>";
  if (!note.worked.empty())
    back += "<div class=\"worked\"><b>Worked:</b> " + note.worked + "</div>";
  if (!note.proof.empty()) back += "<div class=\"proof\">" + note.proof + "</div>";
  back += "<div class=\"source\"><small>Source: " + note.source + "</small></div>";

  std::string tag_text;
  for (const std::string& tag : note.tags)
    tag_text += (tag_text.empty() ? "" : " ") + tag;
  return fmt::format("{}\t{}\t{}\t{}\t{}\n", note.guid, note.deck, front, back, tag_text);
}

}  // namespace

std::string gift_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '\\':
      case '~':
      case '=':
      case '#':
      case '{':
      case '}':
      case ':':
        out += '\\';
        out += c;
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string anki_field(std::string_view text) {
  // A tab would split the note's columns (banks have none: the loader makes them spaces).
  std::string flat(text);
  std::replace(flat.begin(), flat.end(), '\t', ' ');
  return text::html_text(flat, "<br>");
}

std::string export_gift(const std::vector<TopicGroup>& groups, bank::DemoRunner& runner) {
  std::size_t count = 0;
  for (const TopicGroup& group : groups)
    count += group.questions.size();
  std::string gift = fmt::format(
      "// proofdeck questions in Moodle GIFT format: {} question{}, a category per topic.\n"
      "// Import: Question bank > Import > GIFT format. Answers carry their feedback (a wrong\n"
      "// one names its trap); order questions are matching questions (step -> its place).\n\n",
      count, count == 1 ? "" : "s");
  for (const TopicGroup& group : groups) {
    gift += fmt::format("$CATEGORY: proofdeck/{}/{}\n\n", group.bank->id, group.topic->id);
    for (const Printed& printed : group.questions)
      gift_question(gift, printed, runner);
  }
  return gift;
}

std::string anki_deck_name(const bank::Bank& bank) {
  return "proofdeck::" + plain_cell(bank.title, ' ');
}

AnkiNote anki_note(const Printed& printed, bank::DemoRunner& runner) {
  const bank::Question& q = printed.question();
  const bank::Bank& b = *printed.bank;
  const Facts facts = facts_of(printed, b);
  AnkiNote note;
  note.guid = "proofdeck-" + plain_cell(q.id, '_');
  note.deck = anki_deck_name(b);
  note.question = anki_field(printed.instance.prompt);
  std::string kind = facts.kind;
  if (q.type == bank::QuestionType::numeric && !q.key.unit.empty()) kind += " (" + q.key.unit + ")";
  note.kind = anki_field(kind);
  for (std::size_t i = 0; i < facts.labels.size(); ++i) {
    note.options += (i == 0 ? "" : "<br>") + std::string("<b>") + bank::letter(i) + ")</b> " +
                    anki_field(facts.labels[i]);
  }
  note.answer = anki_field(facts.answer_words);
  const bool lettered = q.type == bank::QuestionType::single || q.type == bank::QuestionType::multi;
  for (const TrapNote& trap : facts.traps) {
    note.traps += (note.traps.empty() ? "" : "<br>") + std::string("✗ ") + anki_field(trap.answer) +
                  (lettered ? ")" : "") + " <i>" + anki_field(trap.trap->name) + "</i> — " +
                  anki_field(trap.trap->correction);
  }
  note.explanation = anki_field(bank::explanation_text(printed.instance, runner));
  note.worked = anki_field(facts.worked);
  if (const std::optional<ProofRun> run = run_proof(printed, runner))
    note.proof = anki_field(key_numbers_text(*run, q.proof->demo));
  note.source = anki_field(facts.source);

  note.tags = {"topic::" + q.topic, "type::" + std::string(bank::question_type_name(q.type)),
               "bank::" + b.id};
  for (const std::string& trap : bank::question_traps(q))
    note.tags.push_back("trap::" + trap);
  for (std::string& tag : note.tags)
    tag = plain_cell(tag, '_');
  return note;
}

std::string export_anki(const std::vector<TopicGroup>& groups, bank::DemoRunner& runner) {
  std::string anki =
      "#separator:tab\n#html:true\n#notetype:Basic\n#deck:proofdeck\n#tags:proofdeck\n"
      "#guid column:1\n#deck column:2\n#tags column:5\n#columns:GUID\tDeck\tFront\tBack\tTags\n";
  for (const TopicGroup& group : groups) {
    for (const Printed& printed : group.questions)
      anki += anki_row(anki_note(printed, runner));
  }
  return anki;
}

}  // namespace proofdeck::print
