// Item analysis over a class's session reports (`proofdeck analyze`): which questions worked.
// Per question the facility, the discrimination (point-biserial against the rest-score and the
// upper-lower 27% index), the discriminative efficiency and each option's choices by the upper
// and lower groups; per form the score distribution, KR-20 and the standard error of measurement;
// per objective and per trap how often learners fell for it; and flags in words, each with what
// to look at. The statistics are the ones Moodle's quiz statistics report computes
// (docs/instructors.md gives each formula).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/model.hpp"
#include "render/theme.hpp"
#include "study/calibration_view.hpp"

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
  std::optional<int> confidence = std::nullopt;  // 1–3 when the learner was asked (--confidence)
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

// --- the analysis, as the renderings read it ----------------------------------------------------
// Computed once, then drawn for a terminal, written as CSV or HTML, or (`--format json` only)
// converted by the to_json functions below, field for field in the order declared here
// (docs/instructors.md lists every field). A statistic that is undefined — one learner, no
// variance, an empty group — is NaN here and null in the JSON; a text the loaded banks do not
// hold (a question's bank, an objective's statement) is nullopt here and null in the JSON.

// The thresholds the flags were judged by (AnalysisOptions, as the JSON reports them).
struct AnalysisThresholds {
  int min_attempts = 0;            // answers a question needs before it is flagged
  double group_share = 0;          // the upper and lower groups' share of the learners
  double too_easy = 0;             // facility at or above: too easy
  double too_hard = 0;             // facility at or below: too hard
  double weak_discrimination = 0;  // point-biserial below: near-zero discrimination
};

// One form: the reports with the same mode, seed and drawn questions.
struct FormAnalysis {
  std::string mode;               // "quiz" or "exam"
  std::uint64_t seed = 0;         // the seed that drew it
  std::size_t questions = 0;      // questions drawn
  std::size_t reports = 0;        // reports of this form
  std::size_t complete = 0;       // of them, the ones that met every question
  double mean = 0;                // right answers, over the complete reports; NaN when none
  double median = 0;              // right answers; NaN when none
  double sd = 0;                  // sample standard deviation; NaN under two reports
  double kr20 = 0;                // Kuder–Richardson 20; NaN when undefined
  double sem = 0;                 // standard error of measurement; NaN without KR-20
  std::vector<int> histogram;     // complete reports per score, 0 to `questions`
  std::vector<std::string> form;  // the drawn question ids, in draw order
};

// One option of a question with options (single, select-all, true/false), and who chose it.
struct OptionAnalysis {
  std::string id;                   // the option's id ("a"; "true" or "false")
  std::string text;                 // the option as the bank words it
  bool key = false;                 // a right answer
  std::optional<std::string> trap;  // the trap choosing it falls into; nullopt when none
  int chosen = 0;                   // learners who chose it
  double rate = 0;                  // chosen over attempts; NaN when no attempt
  double upper = 0;                 // share of the upper group that chose it; NaN when empty
  double lower = 0;                 // share of the lower group that chose it; NaN when empty
};

// A wrong answer given often, for a question without options (numbers, orders).
struct WrongAnswer {
  std::string answer;               // as the bank's ids write it
  int count = 0;                    // learners who gave it
  std::optional<std::string> trap;  // the trap it falls into; nullopt when none
};

// A flag in words: what is wrong with a question and what to look at.
struct QuestionFlag {
  std::string flag;  // its id: "negative-discrimination", "too-easy", …
  std::string message;
  std::string look_at;
};

// A question's answers given with a level (--confidence), and the wrong ones given at 3 (sure):
// misconceptions held with confidence.
struct ConfidentWrong {
  int with_level = 0;               // answers given with a level
  int wrong_at_3 = 0;               // of them, wrong at 3
  double share = 0;                 // wrong_at_3 over with_level
  std::optional<std::string> trap;  // the trap most of them fell into; nullopt when none
};

// One question over the learners who met it. bank, topic, type, objective and prompt are nullopt
// when no loaded bank holds the question.
struct QuestionAnalysis {
  std::string id;                        // the question's id, as the reports name it
  std::optional<std::string> bank;       // the bank's id
  std::optional<std::string> topic;      // the topic's id
  std::optional<std::string> type;       // the question type's name ("single", "number", …)
  std::optional<std::string> objective;  // the objective's id
  std::optional<std::string> prompt;     // as the bank writes it
  std::size_t attempts = 0;              // learners who met it
  int answered = 0;                      // of them, the ones who gave an answer
  double facility = 0;                   // share right
  double sd = 0;                         // of the 0/1 scores, sample; NaN under two attempts
  double guess_chance = 0;               // a blind guess's chance; NaN when unknown
  double discrimination = 0;   // point-biserial against the rest-score; NaN when undefined
  double upper_lower = 0;      // facility of the upper group minus the lower's; NaN when empty
  double efficiency = 0;       // discriminative efficiency; NaN when undefined
  double median_time_s = 0;    // of the answers given; NaN when none
  std::size_t group_size = 0;  // learners in each of the upper and lower groups
  std::vector<OptionAnalysis> options;  // empty for questions without options
  int no_answer = 0;                    // attempts without an answer
  // The wrong answers given most often (at most three), for a question without options or
  // that no loaded bank holds; nullopt (and absent from the JSON) for the others.
  std::optional<std::vector<WrongAnswer>> common_wrong_answers;
  std::optional<ConfidentWrong> confident_wrong;  // nullopt when no answer had a level
  std::vector<QuestionFlag> flags;                // worst first; none when not judged
  bool judged = false;                            // enough attempts (min_attempts) for flags
};

// How often the questions of one objective were answered right.
struct ObjectiveAnalysis {
  std::string id;
  std::optional<std::string> statement;  // nullopt when no loaded bank states it
  int attempts = 0;                      // answers to its questions
  int right = 0;                         // of them, the right ones
  double facility = 0;                   // right over attempts; NaN when no attempt
};

// How often an answer to a question offering a trap fell into it.
struct TrapAnalysis {
  std::string id;
  std::optional<std::string> name;  // nullopt when no loaded bank names it
  int fell = 0;                     // answers that fell into it
  int exposed = 0;                  // answers to questions (in the loaded banks) offering it
  double rate = 0;                  // fell over exposed; NaN when never offered
};

// The reports answered on one revision of each bank.
struct GroupAnalysis {
  std::map<std::string, std::string> banks;   // bank id → its `revised` ("" when not given)
  std::size_t reports = 0;                    // reports in the group
  std::vector<FormAnalysis> forms;            // in the order first met
  std::vector<QuestionAnalysis> questions;    // worst first
  std::vector<ObjectiveAnalysis> objectives;  // hardest first
  std::vector<TrapAnalysis> traps;            // most fallen for first
  // The class's confidence: levels 1–3 over every answer given with one; empty when none was.
  std::vector<CalibrationRow> calibration;
};

// What `analyze` reports over a class's session reports.
struct Analysis {
  std::size_t reports = 0;             // reports analysed
  std::vector<SkippedReport> skipped;  // files that could not be read, and why
  std::vector<std::string> warnings;   // another revision analysed apart, a question no bank holds
  AnalysisThresholds thresholds;
  std::vector<GroupAnalysis> groups;  // one per set of bank revisions, in report order
};

// The reports grouped by the revisions of the banks they were answered on, each group analysed
// form by form, question by question, objective by objective and trap by trap; `skipped` is
// carried into the result for the renderings to name.
Analysis analyze_reports(const std::vector<SessionReport>& reports,
                         const std::vector<SkippedReport>& skipped,
                         const std::vector<bank::Bank>& banks, const AnalysisOptions& options = {});

// A question's answers given with a level: how many, and the wrong ones at 3 with the trap most of
// them fell into; nullopt when none had a level (analysis_confidence.cpp).
std::optional<ConfidentWrong> confident_wrong(const std::vector<const ReportAnswer*>& answers);
// The class's calibration over every answer given with a level; empty when none was.
std::vector<CalibrationRow> class_calibration(const std::vector<const SessionReport*>& reports);

// The terminal report, fitted to `width` columns, worst questions first.
std::string render_analysis(const Analysis& analysis, const Theme& theme, int width);
// One row per question (RFC 4180).
std::string analysis_csv(const Analysis& analysis);
// One self-contained page: each form's histogram and every question's option bars.
std::string analysis_html(const Analysis& analysis);

// The JSON of `analyze --format json` (analysis_json.cpp), found by nlohmann::json's conversions:
// `nlohmann::ordered_json json = analysis;`.
void to_json(nlohmann::ordered_json& out, const SkippedReport& skipped);
void to_json(nlohmann::ordered_json& out, const AnalysisThresholds& thresholds);
void to_json(nlohmann::ordered_json& out, const FormAnalysis& form);
void to_json(nlohmann::ordered_json& out, const OptionAnalysis& option);
void to_json(nlohmann::ordered_json& out, const WrongAnswer& wrong);
void to_json(nlohmann::ordered_json& out, const QuestionFlag& flag);
void to_json(nlohmann::ordered_json& out, const ConfidentWrong& wrong);
void to_json(nlohmann::ordered_json& out, const QuestionAnalysis& question);
void to_json(nlohmann::ordered_json& out, const ObjectiveAnalysis& objective);
void to_json(nlohmann::ordered_json& out, const TrapAnalysis& trap);
void to_json(nlohmann::ordered_json& out, const GroupAnalysis& group);
void to_json(nlohmann::ordered_json& out, const Analysis& analysis);

}  // namespace proofdeck::study
