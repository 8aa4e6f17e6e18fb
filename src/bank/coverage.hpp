// `check --source LESSON --coverage`: which of the lesson's claims the banks ask. The lesson is cut
// into paragraphs (blocks between blank lines; its title and one-line headings carry no claim),
// and each paragraph is listed with the objectives that quote it: an objective's own quote, or
// the quote of a question that names it. A paragraph no objective quotes is covered only by a
// bank's `out_of_scope` entry, which names it by a quote and says why (exam-meta, scenario-data,
// summary, lesson-error); otherwise it is uncovered, a finding `--strict` fails unless the bank
// waives `uncovered-paragraph`.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bank/model.hpp"

namespace proofdeck::bank {

struct LessonParagraph {
  std::size_t number = 0;                  // 1-based, among the claim-bearing paragraphs
  std::size_t line = 0;                    // where it starts in the lesson, 1-based
  std::string text;                        // as written, white space squeezed
  std::vector<std::string> objectives;     // that quote it, in the banks' order
  std::optional<OutOfScope> out_of_scope;  // when a bank says why none asks it
  std::string out_of_scope_bank;           // that bank's id
};

struct LessonCoverage {
  std::string lesson;  // the lesson's name (its file name without the extension)
  std::string bank;    // the first bank keyed to it: where an uncovered paragraph is reported
  std::vector<LessonParagraph> paragraphs;
  // out_of_scope entries whose quote is in no paragraph or in several: "bank.json:
  // /out_of_scope/0: ..."
  std::vector<std::string> problems;
  // The bank's reason for leaving uncovered paragraphs uncovered (a bank-level
  // `uncovered-paragraph` waiver); check fills it.
  std::optional<std::string> waiver;

  std::size_t uncovered() const;
};

// The claim-bearing paragraphs of `lesson` and what covers each, for the banks keyed to
// `lesson_name`.
LessonCoverage lesson_coverage(const std::vector<Bank>& banks, const std::string& lesson_name,
                               std::string_view lesson);

}  // namespace proofdeck::bank
