// Certainty-based marking (study/cbm.hpp), as Moodle's question_cbm and the summary of
// qbehaviour_deferredcbm compute it.
#include "study/cbm.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "text/number.hpp"

namespace proofdeck::study {

namespace {

constexpr std::array<int, 3> kRightMarks{1, 2, 3};
constexpr std::array<int, 3> kWrongMarks{0, -2, -6};
constexpr double kBonusWeight = 0.1;   // Gardner-Medwin's, chosen for the reliability of the sum
constexpr double kSignificance = 0.5;  // (distance from the window)² × answers above this
constexpr double kEdge = 0.0000005;    // Moodle's tolerance at a window's edge

std::size_t index_of(int level) {
  if (level < kLowestConfidence || level > kHighestConfidence)
    throw std::invalid_argument(fmt::format("a confidence level is 1, 2 or 3, not {}", level));
  return static_cast<std::size_t>(level - 1);
}

const char* level_words(int level) {
  return level == 1 ? "guessing" : level == 2 ? "fairly sure" : "sure";
}

// How far a judged level lies outside its window, as Moodle weighs it (0 inside).
double misjudgement(const CbmLevel& l) {
  if (!l.judgement || l.answers == 0) return 0.0;
  const CbmWindow w = cbm_window(l.level);
  const double distance = l.accuracy < w.low    ? w.low - l.accuracy
                          : l.accuracy > w.high ? l.accuracy - w.high
                                                : 0.0;
  return distance * distance * l.answers;
}

}  // namespace

int cbm_mark(int level, bool correct) {
  const std::size_t i = index_of(level);
  return correct ? kRightMarks[i] : kWrongMarks[i];
}

double cbm_expected_mark(int level, double accuracy) {
  return accuracy * cbm_mark(level, true) + (1.0 - accuracy) * cbm_mark(level, false);
}

CbmWindow cbm_window(int level) {
  switch (index_of(level)) {
    case 0:
      return {0.0, 2.0 / 3.0};
    case 1:
      return {2.0 / 3.0, 0.8};
    default:
      return {0.8, 1.0};
  }
}

std::string cbm_judgement(int level, int answers, int right) {
  const CbmWindow w = cbm_window(level);
  if (answers <= 0) throw std::invalid_argument("a judgement needs answers at the level");
  const double accuracy = static_cast<double>(right) / answers;
  if (accuracy < w.low - kEdge) {
    return (accuracy - w.low) * (accuracy - w.low) * answers > kSignificance
               ? "over-confident"
               : "slightly over-confident";
  }
  if (accuracy > w.high + kEdge) {
    return (accuracy - w.high) * (accuracy - w.high) * answers > kSignificance
               ? "under-confident"
               : "slightly under-confident";
  }
  return "well judged";
}

CbmFigures cbm_figures(int questions, int right, double total) {
  CbmFigures f;
  f.questions = questions;
  f.total = total;
  if (questions <= 0) return f;
  f.average = total / questions;
  f.accuracy = static_cast<double>(right) / questions;
  double best = cbm_expected_mark(kLowestConfidence, f.accuracy);
  for (int level = kLowestConfidence + 1; level <= kHighestConfidence; ++level)
    best = std::max(best, cbm_expected_mark(level, f.accuracy));
  f.bonus = kBonusWeight * (f.average - best);
  f.accuracy_plus_bonus = f.accuracy + f.bonus;
  return f;
}

CbmSummary summarize_cbm(const std::vector<CbmAnswer>& answers) {
  CbmSummary summary;
  int right = 0;
  double total = 0.0;
  for (int level = kLowestConfidence; level <= kHighestConfidence; ++level)
    summary.levels[index_of(level)].level = level;
  for (const CbmAnswer& a : answers) {
    if (!a.level) {
      ++summary.unanswered;
      continue;
    }
    CbmLevel& l = summary.levels[index_of(*a.level)];
    ++l.answers;
    l.right += a.correct;
    right += a.correct;
    total += cbm_mark(*a.level, a.correct);
  }
  const int questions = static_cast<int>(answers.size());
  summary.all = cbm_figures(questions, right, total);
  if (summary.unanswered > 0 && summary.unanswered < questions)
    summary.answered = cbm_figures(questions - summary.unanswered, right, total);
  for (CbmLevel& l : summary.levels) {
    if (l.answers == 0) continue;
    l.accuracy = static_cast<double>(l.right) / l.answers;
    l.judgement = cbm_judgement(l.level, l.answers, l.right);
  }
  return summary;
}

std::string cbm_sentence(const CbmSummary& summary) {
  const CbmLevel* worst = nullptr;
  for (const CbmLevel& l : summary.levels) {
    if (misjudgement(l) > 0.0 && (worst == nullptr || misjudgement(l) > misjudgement(*worst)))
      worst = &l;
  }
  if (worst == nullptr) {
    const bool any = std::any_of(summary.levels.begin(), summary.levels.end(),
                                 [](const CbmLevel& l) { return l.answers > 0; });
    if (!any) return "No answer was given, so there is no confidence to judge.";
    return "Your confidence was well judged: at each level you used, you were right about as "
           "often as its marks reward.";
  }
  const CbmWindow w = cbm_window(worst->level);
  const std::string record = fmt::format(
      "when you said {} ({}) you were right {} of {} ({})", worst->level, level_words(worst->level),
      worst->right, text::count(worst->answers, "time", "times"), text::percent(worst->accuracy));
  const bool slightly = worst->judgement->starts_with("slightly");
  if (worst->accuracy < w.low) {
    return fmt::format(
        "{}ver-confident: {}, but {} pays only when you are right over {} of the "
        "time; say {} when you are that unsure.",
        slightly ? "Slightly o" : "O", record, worst->level, text::percent(w.low),
        worst->level - 1);
  }
  return fmt::format(
      "{}nder-confident: {}; you know more than you think — say {} when you are "
      "that sure.",
      slightly ? "Slightly u" : "U", record, worst->level + 1);
}

}  // namespace proofdeck::study
