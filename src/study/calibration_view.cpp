// stats' view of confidence (study/calibration_view.hpp).
#include "study/calibration_view.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "bank/instance.hpp"
#include "study/cbm.hpp"
#include "study/confidence.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

namespace {

constexpr double kZ95 = 1.959963984540054;
constexpr int kBarColumns = 20;

// Each trap's name, and the demo of the questions that test it (the one most of them use).
struct TrapFacts {
  std::string name;
  std::map<std::string, int> demos;
};

std::map<std::string, TrapFacts> trap_facts(const std::vector<bank::Bank>& banks) {
  std::map<std::string, TrapFacts> facts;
  for (const bank::Bank& b : banks) {
    for (const bank::Trap& trap : b.traps)
      facts[trap.id].name = trap.name;
    for (const bank::Question& q : b.questions) {
      if (!q.proof || q.proof->demo.empty()) continue;
      for (const std::string& trap : bank::question_traps(q))
        ++facts[trap].demos[q.proof->demo];
    }
  }
  return facts;
}

std::string window_words(int level) {
  const CbmWindow w = cbm_window(level);
  if (w.low <= 0.0) return "pays below " + text::percent(w.high);
  if (w.high >= 1.0) return "pays from " + text::percent(w.low);
  return fmt::format("pays at {}–{}", text::format_number(std::round(100.0 * w.low)),
                     text::percent(w.high));
}

// A table row whole where it fits, so that its columns line up; else wrapped.
std::string aligned(const std::string& line, int width) {
  if (2 + text::display_width(line) <= width) return "  " + line + "\n";
  return text::wrap_block(line, width, "  ", "    ");
}

}  // namespace

int CalibrationView::answers() const {
  int n = 0;
  for (const CalibrationRow& row : rows)
    n += row.answers;
  return n;
}

std::pair<double, double> wilson_interval(int right, int answers) {
  if (answers <= 0) return {0.0, 1.0};
  const double n = answers;
  const double p = right / n;
  const double z2 = kZ95 * kZ95;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = kZ95 * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  // Exactly 0 and 1 at the ends (the formula leaves rounding there).
  return {right == 0 ? 0.0 : std::max(0.0, centre - half),
          right == answers ? 1.0 : std::min(1.0, centre + half)};
}

std::vector<CalibrationRow> calibration_rows(const std::vector<std::pair<int, bool>>& answers) {
  std::vector<CalibrationRow> rows;
  for (int level = kLowestConfidence; level <= kHighestConfidence; ++level)
    rows.push_back({level, 0, 0, std::nullopt, std::nullopt, std::nullopt});
  for (const auto& [level, right] : answers) {
    if (level < kLowestConfidence || level > kHighestConfidence) continue;
    CalibrationRow& row = rows[static_cast<std::size_t>(level - 1)];
    ++row.answers;
    row.right += right;
  }
  for (CalibrationRow& row : rows) {
    if (row.answers == 0) continue;
    row.share_right = static_cast<double>(row.right) / row.answers;
    row.interval = wilson_interval(row.right, row.answers);
    row.judgement = cbm_judgement(row.level, row.answers, row.right);
  }
  return rows;
}

CalibrationView calibration_view(const std::vector<ReviewRow>& reviews,
                                 const std::vector<bank::Bank>& banks, const std::string& program) {
  CalibrationView view;
  std::vector<std::pair<int, bool>> given;
  std::map<std::string, int> fell_sure;
  for (const ReviewRow& r : reviews) {
    if (!r.confidence) continue;
    given.emplace_back(*r.confidence, r.correct);
    if (!r.correct && !r.trap.empty() && *r.confidence == kHighestConfidence) ++fell_sure[r.trap];
  }
  view.rows = calibration_rows(given);
  const std::map<std::string, TrapFacts> facts = trap_facts(banks);
  for (const auto& [trap, times] : fell_sure) {
    ConfidentMisconception m;
    m.trap = trap;
    m.times = times;
    m.name = trap;
    m.command = program + " quiz --trap " + text::shell_word(trap);
    if (const auto found = facts.find(trap); found != facts.end()) {
      if (!found->second.name.empty()) m.name = found->second.name;
      const auto& demos = found->second.demos;
      const auto most =
          std::max_element(demos.begin(), demos.end(),
                           [](const auto& a, const auto& b) { return a.second < b.second; });
      if (most != demos.end()) m.demo = most->first;
    }
    view.misconceptions.push_back(std::move(m));
  }
  std::stable_sort(view.misconceptions.begin(), view.misconceptions.end(),
                   [](const ConfidentMisconception& a, const ConfidentMisconception& b) {
                     return a.times > b.times;
                   });
  return view;
}

nlohmann::ordered_json calibration_json(const std::vector<CalibrationRow>& rows) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const CalibrationRow& row : rows) {
    list.push_back(
        {{"level", row.level},
         {"answers", row.answers},
         {"right", row.right},
         {"share_right", row.share_right ? nlohmann::ordered_json(*row.share_right) : nullptr},
         {"interval",
          row.interval ? nlohmann::ordered_json::array({row.interval->first, row.interval->second})
                       : nlohmann::ordered_json(nullptr)},
         {"judgement", row.judgement ? nlohmann::ordered_json(*row.judgement) : nullptr}});
  }
  return list;
}

nlohmann::ordered_json misconceptions_json(const CalibrationView& view) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ConfidentMisconception& m : view.misconceptions) {
    list.push_back({{"trap", m.trap},
                    {"name", m.name},
                    {"times", m.times},
                    {"demo", m.demo ? nlohmann::ordered_json(*m.demo) : nullptr},
                    {"command", m.command}});
  }
  return list;
}

std::string render_calibration_rows(const std::vector<CalibrationRow>& rows, int width) {
  std::string out;
  std::vector<std::string> names;
  for (const CalibrationRow& row : rows)
    names.push_back(confidence_name(row.level));
  const int name_width = text::widest(names);
  for (const CalibrationRow& row : rows) {
    std::string line = text::pad_right(confidence_name(row.level), name_width) + "  ";
    if (row.answers == 0) {
      out += aligned(line + "no answers", width);
      continue;
    }
    const std::string numbers = fmt::format(
        "{} right of {} ({}–{}) · {} · {}", text::pad_left(text::percent(*row.share_right), 4),
        row.answers, text::format_number(std::round(100.0 * row.interval->first)),
        text::percent(row.interval->second), window_words(row.level), *row.judgement);
    // The bar where the whole row fits beside it.
    const int filled = static_cast<int>(std::lround(*row.share_right * kBarColumns));
    std::string bar;
    for (int c = 0; c < kBarColumns; ++c)
      bar += c < filled ? "█" : "░";
    const bool room = 2 + text::display_width(line + bar + "  " + numbers) <= width;
    out += aligned(line + (room ? bar + "  " : "") + numbers, width);
  }
  return out;
}

std::string render_calibration(const CalibrationView& view, const Theme& theme, int width,
                               const std::string& program) {
  if (view.answers() == 0) return "";
  std::string out =
      "\n" + wrap_labelled("Confidence", theme.emphasis,
                           fmt::format("(how often you were right at each level, over {} given "
                                       "with one; 95% interval)",
                                       text::count(view.answers(), "answer", "answers")),
                           width);
  out += render_calibration_rows(view.rows, width);
  if (view.misconceptions.empty()) return out;
  out += "\n" + wrap_labelled("Misconceptions held with confidence", theme.emphasis,
                              "(traps fallen into at 3, sure: the demo that refutes each, then "
                              "the questions that test it)",
                              width);
  for (const ConfidentMisconception& m : view.misconceptions) {
    out += text::wrap_block(fmt::format("{} — {} at 3", text::terminal_safe(m.name),
                                        text::count(m.times, "time", "times")),
                            width, "  ", "    ");
    if (m.demo) {
      out += style_lines(
          theme.dim,
          text::command_block(program + " demo run " + text::shell_word(*m.demo), width, "    "));
    }
    out += style_lines(theme.dim, text::command_block(m.command, width, "    "));
  }
  return out;
}

}  // namespace proofdeck::study
