// Item analysis over a class's session reports (`proofdeck analyze`): which questions worked.
// Per question the facility, the discrimination (point-biserial against the rest-score and the
// upper-lower 27% index), the discriminative efficiency and each option's choices by the upper
// and lower groups; per form the score distribution, KR-20 and the standard error of measurement;
// per objective and per trap how often learners fell for it; and flags in words, each with what
// to look at. The statistics are the ones Moodle's quiz statistics report computes
// (docs/instructors.md gives each formula).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/model.hpp"
#include "render/theme.hpp"

namespace proofdeck::study {

// One question as one learner met it in a session report.
struct ReportAnswer {
  std::string question;    // the question's id
  bool answered = false;   // false: skipped, or left unanswered when an exam ended
  bool correct = false;    // a revealed answer is never correct
  std::string answer_ids;  // the answer in the bank's ids ("b", "a,c", "true", "98304"); empty
                           // when not answered
  std::string trap;        // the trap the answer fell into; empty when none
  std::int64_t time_ms = 0;
};

// One learner's quiz or exam, as `--report FILE` wrote it.
struct SessionReport {
  std::string path;  // for messages
  std::string mode;  // "quiz" or "exam"
  std::uint64_t seed = 0;
  std::vector<std::string> form;             // the drawn question ids, in draw order
  std::map<std::string, std::string> banks;  // bank id → its `revised` ("" when not given)
  std::vector<ReportAnswer> answers;         // the questions met, in the order met
};

// A report that could not be read, and why.
struct SkippedReport {
  std::string path;
  std::string reason;
};

struct ReadReports {
  std::vector<SessionReport> reports;  // in path order (a folder's files sorted by name)
  std::vector<SkippedReport> skipped;
};

// Reads report files, and every *.json file of a folder (not its subfolders). A file that is not
// a quiz's or an exam's report — unreadable, truncated, another tool's JSON, a drill's report —
// is skipped with the reason. InputError when a path does not exist.
ReadReports read_reports(const std::vector<std::string>& paths);

// One report from its JSON; InputError naming the field when it is not a session report.
SessionReport parse_report(const nlohmann::json& json, const std::string& path);

// The statistics themselves, on 0/1 item scores. `rest`: each learner's score on the rest of the
// form. Population moments (divided by n) except where a name says otherwise.
double pearson(const std::vector<double>& x, const std::vector<double>& y);
// cov(item, rest) over the largest covariance the same two lists could have, paired in sorted
// order (Moodle's discriminative efficiency); NaN when that largest covariance is 0.
double discriminative_efficiency(const std::vector<double>& item, const std::vector<double>& rest);

struct FormScores {
  int learners = 0;
  int questions = 0;
  double mean = 0;    // right answers
  double median = 0;  // right answers
  double sd = 0;      // sample standard deviation (n − 1)
  double kr20 = 0;    // Kuder–Richardson 20 (Cronbach's alpha on right/wrong); NaN when undefined
  double sem = 0;     // standard error of measurement: sd·√(1 − KR-20)
};
// `scores[learner][question]`, every learner with every question (0 or 1).
FormScores form_scores(const std::vector<std::vector<double>>& scores);

struct AnalysisOptions {
  int min_attempts = 20;      // fewer answers than this: statistics shown, flags withheld
  double group_share = 0.27;  // the upper and lower groups: this share of the learners each
  double too_easy = 0.95;     // facility at or above: too easy
  double too_hard = 0.20;     // facility at or below (or below the guessing chance): too hard
  double weak_discrimination = 0.10;  // point-biserial below: near-zero discrimination
  double upper_preference_z = 1.645;  // a distractor the upper group chooses more, one-sided 5%
};

// The analysis as JSON (docs/instructors.md lists every field): {"reports", "skipped",
// "warnings", "forms": [...], "questions": [...] worst first, "objectives", "traps"}.
nlohmann::ordered_json analyze_reports(const std::vector<SessionReport>& reports,
                                       const std::vector<SkippedReport>& skipped,
                                       const std::vector<bank::Bank>& banks,
                                       const AnalysisOptions& options = {});

// The terminal report, fitted to `width` columns, worst questions first.
std::string render_analysis(const nlohmann::ordered_json& analysis, const Theme& theme, int width);
// One row per question (RFC 4180).
std::string analysis_csv(const nlohmann::ordered_json& analysis);
// One self-contained page: each form's histogram and every question's option bars.
std::string analysis_html(const nlohmann::ordered_json& analysis);

}  // namespace proofdeck::study
