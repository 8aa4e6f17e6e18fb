// The lint run (questions/README.md § Lint): the Linter that applies waivers, the measures of text
// and numeric keys the rule families share, and lint(), which runs every family (lint_options.cpp,
// lint_stem.cpp, lint_numbers.cpp, lint_objectives.cpp, lint_duplicates.cpp) in a fixed order;
// then the questions per objective and per concept that check reports, and `--source`.
#include "bank/lint.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "bank/lint_parts.hpp"
#include "bank/lint_rules.hpp"
#include "bank/template.hpp"
#include "core/errors.hpp"

namespace proofdeck::bank {

void Linter::add(const Bank& bank, const Question* q, std::string_view rule, std::string message) {
  const std::vector<LintWaiver>& waivers = q != nullptr ? q->lint_allow : bank.lint_allow;
  for (const LintWaiver& waiver : waivers) {
    if (canonical_lint_rule(waiver.rule) == rule) {
      ++waiver_use(bank, q, waiver).waived;
      return;
    }
  }
  report_.findings.push_back(
      LintFinding{q != nullptr ? q->id : "", bank.id, std::string(rule), std::move(message)});
}

void Linter::list_waivers(const Bank& bank) {
  for (const LintWaiver& waiver : bank.lint_allow)
    waiver_use(bank, nullptr, waiver);
  for (const Question& q : bank.questions) {
    for (const LintWaiver& waiver : q.lint_allow)
      waiver_use(bank, &q, waiver);
  }
}

LintWaiverUse& Linter::waiver_use(const Bank& bank, const Question* q, const LintWaiver& waiver) {
  const std::string id = q != nullptr ? q->id : "";
  for (LintWaiverUse& use : report_.waivers) {
    if (use.bank == bank.id && use.id == id && use.rule == canonical_lint_rule(waiver.rule))
      return use;
  }
  report_.waivers.push_back(
      LintWaiverUse{id, bank.id, std::string(canonical_lint_rule(waiver.rule)), waiver.reason, 0});
  return report_.waivers.back();
}

namespace {

constexpr std::int64_t kMaxDraws = 4096;  // template combinations looked at per question

}  // namespace

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::string word;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || byte >= 0x80) {
      word += static_cast<char>(std::tolower(byte));
    } else if (!word.empty()) {
      out.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

std::string normalized(std::string_view text) {
  std::string out;
  for (const std::string& word : words(text))
    out += (out.empty() ? "" : " ") + word;
  return out;
}

bool near_integer(double value) {
  return std::fabs(value - std::round(value)) < 1e-9;
}

std::vector<std::pair<Bindings, double>> numeric_keys(const Question& q) {
  std::vector<std::pair<Bindings, double>> keys;
  if (q.type != QuestionType::numeric) return keys;
  if (q.templ && q.templ->answer) {
    try {
      for_each_admitted(*q.templ, [&](const Bindings& bindings) {
        if (static_cast<std::int64_t>(keys.size()) < kMaxDraws)
          keys.emplace_back(bindings, q.templ->answer->evaluate(bindings));
      });
    } catch (const Error&) {
      // the loader evaluated every combination already; nothing to lint if one fails here
    }
  } else if (q.key.value) {
    keys.emplace_back(Bindings{}, *q.key.value);
  }
  return keys;
}

std::vector<std::pair<std::string, std::vector<std::string>>> questions_per_objective(
    const Bank& bank) {
  std::vector<std::pair<std::string, std::vector<std::string>>> objectives;
  for (const Question& q : bank.questions) {
    auto it = std::find_if(objectives.begin(), objectives.end(),
                           [&](const auto& entry) { return entry.first == q.objective_id(); });
    if (it == objectives.end()) {
      objectives.emplace_back(q.objective_id(), std::vector<std::string>{});
      it = std::prev(objectives.end());
    }
    it->second.push_back(q.id);
  }
  return objectives;
}

std::vector<std::pair<std::string, std::vector<std::string>>> questions_per_concept(
    const Bank& bank) {
  std::vector<std::pair<std::string, std::vector<std::string>>> concepts;
  for (const Question& q : bank.questions) {
    if (q.concept_id.empty()) continue;
    auto it = std::find_if(concepts.begin(), concepts.end(),
                           [&](const auto& entry) { return entry.first == q.concept_id; });
    if (it == concepts.end()) {
      concepts.emplace_back(q.concept_id, std::vector<std::string>{});
      it = std::prev(concepts.end());
    }
    it->second.push_back(q.id);
  }
  return concepts;
}

LintReport lint(const std::vector<Bank>& banks, DemoRunner* runner) {
  LintReport report;
  Linter linter(report);
  for (const Bank& bank : banks) {
    linter.list_waivers(bank);
    for (const Question& q : bank.questions) {
      few_options(linter, bank, q);
      longest_key(linter, bank, q);
      dismissive_option(linter, bank, q);
      answer_in_stem(linter, bank, q);
      letter_references(linter, bank, q);
      no_objective(linter, bank, q);
      stem_cites_material(linter, bank, q);
      untagged_distractor(linter, bank, q);
      constant_template(linter, bank, q);
      template_literal(linter, bank, q);
      distractors_coincide(linter, bank, q);
      precision(linter, bank, q);
      if (runner != nullptr) literal_measured(linter, bank, q, *runner);
    }
    length_cue(linter, bank);
    tf_balance(linter, bank);
    tf_length_cue(linter, bank);
    absolute_cue(linter, bank);
    testwise_cue(linter, bank, report.cues);
  }
  objective_overload(linter, banks);
  objective_unused(linter, banks);
  near_duplicates(linter, banks);
  cross_bank_duplicates(linter, banks);
  // Bank by bank, questions in file order, bank-level findings after the bank's questions.
  std::map<std::string, std::size_t> bank_order;
  std::map<std::pair<std::string, std::string>, std::size_t> question_order;
  for (const Bank& bank : banks) {
    bank_order.emplace(bank.id, bank_order.size());
    for (const Question& q : bank.questions)
      question_order.emplace(std::pair{bank.id, q.id}, question_order.size());
  }
  const auto rank = [&](const LintFinding& f) {
    const auto it = question_order.find({f.bank, f.id});
    return std::pair{bank_order[f.bank], it == question_order.end() ? SIZE_MAX : it->second};
  };
  std::stable_sort(report.findings.begin(), report.findings.end(),
                   [&](const LintFinding& a, const LintFinding& b) { return rank(a) < rank(b); });
  return report;
}

namespace {

std::string squeeze_spaces(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

// Lines of the lesson with leading spaces and symbols (a "⭐ " before a heading) taken off.
std::vector<std::string_view> line_starts(std::string_view lesson) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= lesson.size()) {
    std::size_t end = lesson.find('\n', start);
    if (end == std::string_view::npos) end = lesson.size();
    std::string_view line = lesson.substr(start, end - start);
    while (!line.empty() && !std::isalnum(static_cast<unsigned char>(line.front())))
      line.remove_prefix(1);
    if (!line.empty()) lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

bool starts_a_line(const std::vector<std::string_view>& lines, const std::string& section) {
  return std::any_of(lines.begin(), lines.end(), [&](std::string_view line) {
    if (line.substr(0, section.size()) != section) return false;
    if (line.size() == section.size()) return true;
    const auto next = static_cast<unsigned char>(line[section.size()]);
    return !std::isalnum(next) && next != '_';
  });
}

}  // namespace

std::vector<SourceProblem> check_sources(const std::vector<Bank>& banks,
                                         const std::string& lesson_name, std::string_view lesson) {
  std::vector<SourceProblem> problems;
  const std::string text = squeeze_spaces(lesson);
  const std::vector<std::string_view> lines = line_starts(lesson);
  const auto check = [&](const Bank& bank, const std::string& id, const std::string& what,
                         const Source& source) {
    if (!source.quote.empty() && text.find(squeeze_spaces(source.quote)) == std::string::npos) {
      problems.push_back(SourceProblem{
          id, bank.id,
          fmt::format("{}: the quote \"{}\" is not in {}, word for word; copy it from the lesson",
                      what, source.quote, lesson_name)});
    }
    if (!source.section.empty() && !starts_a_line(lines, source.section)) {
      problems.push_back(SourceProblem{
          id, bank.id,
          fmt::format("{}: the section \"{}\" is not a heading of {} (no line of it starts so); "
                      "name a section as the lesson writes it",
                      what, source.section, lesson_name)});
    }
  };
  for (const Bank& bank : banks) {
    if (bank.lesson != lesson_name) continue;
    for (const Trap& trap : bank.traps)
      check(bank, "", fmt::format("trap {}", trap.id), trap.source);
    for (const Objective& objective : bank.objectives)
      check(bank, "", fmt::format("objective {}", objective.id), objective.source);
    for (const Question& q : bank.questions)
      check(bank, q.id, q.id, q.source);
  }
  return problems;
}

}  // namespace proofdeck::bank
