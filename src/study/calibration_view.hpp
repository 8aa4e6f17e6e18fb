// stats' view of confidence (--confidence): how often each level was right, with its Wilson 95%
// interval and Moodle's judgement, a chart of the share right against the window each level's
// marks reward, and the confident misconceptions — traps fallen into at 3 (sure) — each with the
// demo that refutes it and the command that practises it.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/model.hpp"
#include "render/theme.hpp"
#include "study/progress.hpp"

namespace proofdeck::study {

struct CalibrationRow {
  int level = 0;
  int answers = 0;
  int right = 0;
  std::optional<double> share_right;                  // none without answers
  std::optional<std::pair<double, double>> interval;  // Wilson 95%, none without answers
  std::optional<std::string> judgement;               // study/cbm.hpp's, none without answers
};

struct ConfidentMisconception {
  std::string trap;
  std::string name;                 // the id for a trap no loaded bank has
  int times = 0;                    // answers at 3 that fell into it
  std::optional<std::string> demo;  // the demo of the questions that test it, most used first
  std::string command;              // the quiz that practises it
};

struct CalibrationView {
  std::vector<CalibrationRow> rows;                    // levels 1, 2, 3
  std::vector<ConfidentMisconception> misconceptions;  // most often first, then by id
  int answers() const;                                 // given with a level
};

// The rows for levels 1, 2 and 3 from (level, right) pairs; a level outside 1–3 counts nowhere.
std::vector<CalibrationRow> calibration_rows(const std::vector<std::pair<int, bool>>& answers);

// Over every answer saved with a level (any mode); `program` begins the commands.
CalibrationView calibration_view(const std::vector<ReviewRow>& reviews,
                                 const std::vector<bank::Bank>& banks, const std::string& program);

// The Wilson score interval for `right` of `answers` at 95%.
std::pair<double, double> wilson_interval(int right, int answers);

// JSON: "calibration": [{"level", "answers", "right", "share_right", "interval": [lo, hi],
// "judgement"}], "confident_misconceptions": [{"trap", "name", "times", "demo", "command"}].
nlohmann::ordered_json calibration_json(const std::vector<CalibrationRow>& rows);
nlohmann::ordered_json misconceptions_json(const CalibrationView& view);

// The rows as text, a line each: the share right with its interval, the window the level's
// marks reward and the judgement, with a bar where the line has room for one.
std::string render_calibration_rows(const std::vector<CalibrationRow>& rows, int width);

// The section as text: nothing until an answer was given with a level.
std::string render_calibration(const CalibrationView& view, const Theme& theme, int width,
                               const std::string& program);

}  // namespace proofdeck::study
