// What a class's confidence says (analysis.hpp): per question the answers given wrong at 3
// (sure) and the trap that drew them, per group the calibration of every level.
#include <algorithm>
#include <map>

#include "study/analysis.hpp"
#include "study/cbm.hpp"

namespace proofdeck::study {

std::optional<ConfidentWrong> confident_wrong(const std::vector<const ReportAnswer*>& answers) {
  ConfidentWrong out;
  std::map<std::string, int> traps;
  for (const ReportAnswer* a : answers) {
    if (!a->confidence) continue;
    ++out.with_level;
    if (a->correct || *a->confidence != kHighestConfidence) continue;
    ++out.wrong_at_3;
    if (!a->trap.empty()) ++traps[a->trap];
  }
  if (out.with_level == 0) return std::nullopt;
  out.share = static_cast<double>(out.wrong_at_3) / out.with_level;
  // The trap most of them fell into; ties to the first by id.
  const auto most = std::max_element(
      traps.begin(), traps.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  if (most != traps.end()) out.trap = most->first;
  return out;
}

std::vector<CalibrationRow> class_calibration(const std::vector<const SessionReport*>& reports) {
  std::vector<std::pair<int, bool>> given;
  for (const SessionReport* report : reports)
    for (const ReportAnswer& a : report->answers)
      if (a.confidence) given.emplace_back(*a.confidence, a.correct);
  if (given.empty()) return {};
  return calibration_rows(given);
}

}  // namespace proofdeck::study
