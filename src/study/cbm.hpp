// Certainty-based marking (Gardner-Medwin; Moodle's question_cbm and qbehaviour_deferredcbm):
// after each answer the learner says how sure they are — 1 guessing, 2 fairly sure, 3 sure — and
// the mark rewards honest confidence: +1/+2/+3 right, 0/−2/−6 wrong, so saying 3 pays only when
// the chance of being right is above 80%, and 2 above two thirds. Pure computation: the modes ask,
// the results, reports and stats show what this computes.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace proofdeck::study {

inline constexpr int kLowestConfidence = 1;
inline constexpr int kHighestConfidence = 3;

// The mark of one answer at `level` (1–3): +1/+2/+3 right, 0/−2/−6 wrong.
int cbm_mark(int level, bool correct);

// The mark expected at `level` from a chance of being right `accuracy`.
double cbm_expected_mark(int level, double accuracy);

// The level whose window holds the accuracy: below ⅔ → 1, ⅔ to 0.8 → 2, 0.8 and above → 3.
struct CbmWindow {
  double low = 0.0, high = 0.0;
};
CbmWindow cbm_window(int level);

// Moodle's judgement of a level from its answers: "well judged" when the share right lies in the
// level's window; below it "over-confident" when (accuracy − low)² × answers > 0.5, else
// "slightly over-confident"; above it "under-confident" or "slightly under-confident" likewise.
std::string cbm_judgement(int level, int answers, int right);

// One question of a session: its level (nullopt: unanswered, scoring 0 and counting), and
// whether the answer was right.
struct CbmAnswer {
  std::optional<int> level;
  bool correct = false;
};

// Accuracy, average mark and bonus over some of the questions.
struct CbmFigures {
  int questions = 0;
  double total = 0.0;    // Σ marks
  double average = 0.0;  // total / questions
  double accuracy = 0.0;
  // 0.1 × (average − the best mark expected at this accuracy over the three levels).
  double bonus = 0.0;
  double accuracy_plus_bonus = 0.0;
};
CbmFigures cbm_figures(int questions, int right, double total);

struct CbmLevel {
  int level = 0;
  int answers = 0;
  int right = 0;
  double accuracy = 0.0;
  std::optional<std::string> judgement;  // none without answers
};

struct CbmSummary {
  CbmFigures all;                      // unanswered questions scoring 0
  int unanswered = 0;                  // questions without an answer
  std::optional<CbmFigures> answered;  // the same over answered questions, when some were not
  std::array<CbmLevel, 3> levels;      // 1, 2, 3
};
CbmSummary summarize_cbm(const std::vector<CbmAnswer>& answers);

// What the marks say, in one sentence a learner understands: where confidence and knowledge part
// ways (the level judged worst), else that the confidence was well judged.
std::string cbm_sentence(const CbmSummary& summary);

}  // namespace proofdeck::study
