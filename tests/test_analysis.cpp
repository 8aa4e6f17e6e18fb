// analyze: the statistics against a hand computation, the flags against simulated classes with
// planted faults, and the command line's reading of good, truncated and foreign reports.
#include <fmt/format.h>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "bank/builtin.hpp"
#include "bank/loader.hpp"
#include "class_sim.hpp"
#include "cli_test_support.hpp"
#include "core/errors.hpp"
#include "study/analysis.hpp"
#include "text/width.hpp"

namespace test_analysis {

using namespace proofdeck;
using namespace proofdeck::study;
using Catch::Matchers::Contains;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// Six learners, four questions: the worked example the statistics are checked against.
//   learner  q1 q2 q3 q4  total
//   1         1  1  1  1    4
//   2         1  1  1  0    3
//   3         1  0  1  0    2
//   4         0  1  0  0    1
//   5         1  0  0  0    1
//   6         0  0  0  1    1
const std::vector<std::vector<double>> kSix = {{1, 1, 1, 1}, {1, 1, 1, 0}, {1, 0, 1, 0},
                                               {0, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 1}};

std::vector<double> column(std::size_t j) {
  std::vector<double> out;
  for (const auto& row : kSix)
    out.push_back(row[j]);
  return out;
}

std::vector<double> rest_of(std::size_t j) {
  std::vector<double> out;
  for (const auto& row : kSix)
    out.push_back(row[0] + row[1] + row[2] + row[3] - row[j]);
  return out;
}

std::vector<bank::Bank> builtin() {
  std::vector<bank::Bank> banks;
  for (const auto& embedded : bank::builtin_banks())
    banks.push_back(bank::load_bank(embedded.text, std::string(embedded.name)));
  return banks;
}

// Every question of a bank, in its order: the form a simulated class takes.
std::vector<const bank::Question*> form_of(const bank::Bank& bank) {
  std::vector<const bank::Question*> form;
  for (const auto& q : bank.questions)
    form.push_back(&q);
  return form;
}

const QuestionAnalysis* question_in(const Analysis& analysis, const std::string& id) {
  for (const QuestionAnalysis& q : analysis.groups[0].questions)
    if (q.id == id) return &q;
  return nullptr;
}

bool flagged(const QuestionAnalysis& q, const std::string& flag) {
  for (const QuestionFlag& f : q.flags)
    if (f.flag == flag) return true;
  return false;
}

// An object's keys, in order.
std::vector<std::string> keys_of(const ordered_json& object) {
  std::vector<std::string> keys;
  for (auto it = object.begin(); it != object.end(); ++it)
    keys.push_back(it.key());
  return keys;
}

}  // namespace

TEST_CASE("KR-20, SD and SEM of a form match the hand computation on six learners", "[analyze]") {
  // Totals 4, 3, 2, 1, 1, 1: mean 2, population variance 4/3, sample variance 8/5. Facilities
  // 2/3, 1/2, 1/2, 1/3: Σpq = 2/9 + 1/4 + 1/4 + 2/9 = 17/18. KR-20 = 4/3 · (1 − (17/18)/(4/3))
  // = 7/18; SEM = √(8/5) · √(1 − 7/18) = √(44/45).
  const FormScores form = form_scores(kSix);
  CHECK(form.learners == 6);
  CHECK(form.questions == 4);
  CHECK(form.mean == 2.0);
  CHECK(form.median == 1.5);
  CHECK(std::fabs(form.sd - std::sqrt(8.0 / 5.0)) < 1e-12);
  CHECK(std::fabs(form.kr20 - 7.0 / 18.0) < 1e-12);
  CHECK(std::fabs(form.sem - std::sqrt(44.0 / 45.0)) < 1e-12);
}

TEST_CASE("the point-biserial against the rest-score matches the hand computation", "[analyze]") {
  // q1: scores 1 1 1 0 1 0 against rest 3 2 1 1 0 1: cov 1/9, variances 2/9 and 8/9, r = 1/4.
  CHECK(std::fabs(pearson(column(0), rest_of(0)) - 0.25) < 1e-12);
  // q2: cov 1/12, variances 1/4 and 11/12: r = 1/√33.
  CHECK(std::fabs(pearson(column(1), rest_of(1)) - 1 / std::sqrt(33.0)) < 1e-12);
  // q3: cov 1/4, variances 1/4 and 7/12: r = √(3/7).
  CHECK(std::fabs(pearson(column(2), rest_of(2)) - std::sqrt(3.0 / 7.0)) < 1e-12);
  // q4, answered right by the best and the worst learner: cov −1/18, r = −1/√88.
  CHECK(std::fabs(pearson(column(3), rest_of(3)) + 1 / std::sqrt(88.0)) < 1e-12);
}

TEST_CASE(
    "discriminative efficiency is the covariance over the largest one the same scores "
    "allow",
    "[analyze]") {
  // Sorted pairings give the largest covariances: 5/18, 5/12, 1/4 and 4/9 (q1..q4).
  CHECK(std::fabs(discriminative_efficiency(column(0), rest_of(0)) - 0.4) < 1e-12);
  CHECK(std::fabs(discriminative_efficiency(column(1), rest_of(1)) - 0.2) < 1e-12);
  CHECK(std::fabs(discriminative_efficiency(column(2), rest_of(2)) - 1.0) < 1e-12);
  CHECK(std::fabs(discriminative_efficiency(column(3), rest_of(3)) + 0.125) < 1e-12);
  // Everyone right: no covariance is possible, so no efficiency.
  CHECK(std::isnan(discriminative_efficiency({1, 1, 1}, {2, 1, 0})));
}

TEST_CASE("a form with one question, or with every learner on one score, has no KR-20",
          "[analyze]") {
  CHECK(std::isnan(form_scores({{1}, {0}, {1}}).kr20));
  CHECK(std::isnan(form_scores({{1, 0}, {0, 1}, {1, 0}}).kr20));
}

TEST_CASE("the analysis of six learners' reports gives the hand-computed statistics", "[analyze]") {
  const bank::Bank synthetic = class_sim::synthetic_bank(4);
  std::vector<SessionReport> reports;
  for (std::size_t learner = 0; learner < kSix.size(); ++learner) {
    SessionReport report;
    report.path = fmt::format("l{}.json", learner);
    report.mode = "exam";
    report.seed = 7;
    for (std::size_t j = 0; j < 4; ++j) {
      const std::string id = fmt::format("q{:02}", j + 1);
      report.form.push_back(id);
      ReportAnswer answer;
      answer.question = id;
      answer.answered = true;
      answer.correct = kSix[learner][j] == 1.0;
      answer.answer_ids = answer.correct ? "a" : "b";
      answer.time_ms = 1000 * static_cast<std::int64_t>(learner + 1);
      report.answers.push_back(answer);
    }
    reports.push_back(report);
  }
  const Analysis analysis = analyze_reports(reports, {}, {synthetic});
  const FormAnalysis& form = analysis.groups[0].forms[0];
  CHECK(form.complete == 6);
  CHECK(std::fabs(form.kr20 - 7.0 / 18.0) < 1e-12);
  CHECK(form.histogram == std::vector<int>{0, 3, 1, 1, 1});
  const QuestionAnalysis& q1 = *question_in(analysis, "q01");
  CHECK(std::fabs(q1.discrimination - 0.25) < 1e-12);
  CHECK(std::fabs(q1.facility - 2.0 / 3.0) < 1e-12);
  CHECK(q1.median_time_s == 3.5);  // learner k took k seconds
  // Groups of round(0.27 × 6) = 2: the top two (learners 1, 2) both right, the bottom two
  // (learners 5 and 6 by score, ties by report order: 4 and 5 come first) — 4 wrong, 5 right.
  CHECK(q1.group_size == 2);
  // Too few learners to flag anything.
  CHECK(q1.flags.empty());
}

TEST_CASE(
    "over 100 simulated classes of 200 learners each planted fault is flagged and the "
    "rest are rarely",
    "[analyze][simulated]") {
  const bank::Bank synthetic = class_sim::synthetic_bank(30);
  const std::vector<const bank::Question*> form = form_of(synthetic);
  const std::map<std::string, class_sim::Plant> plants = {
      {"q01", class_sim::Plant::wrong_key},
      {"q02", class_sim::Plant::upper_distractor},
      {"q03", class_sim::Plant::everyone_right}};
  int wrong_key = 0, upper = 0, everyone = 0, unplanted = 0, unplanted_flagged = 0;
  std::map<std::string, int> flags_by_kind;  // on unplanted questions
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    class_sim::ClassOptions options;
    options.seed = seed;
    const auto reports = class_sim::simulate_class(form, plants, options, {synthetic});
    const Analysis analysis = analyze_reports(reports, {}, {synthetic});
    wrong_key += flagged(*question_in(analysis, "q01"), "negative-discrimination");
    upper += flagged(*question_in(analysis, "q02"), "distractor-upper");
    everyone += flagged(*question_in(analysis, "q03"), "too-easy");
    for (const QuestionAnalysis& q : analysis.groups[0].questions) {
      if (plants.count(q.id)) continue;
      ++unplanted;
      unplanted_flagged += q.flags.empty() ? 0 : 1;
      for (const QuestionFlag& f : q.flags)
        ++flags_by_kind[f.flag];
    }
  }
  std::string kinds;
  for (const auto& [kind, count] : flags_by_kind)
    kinds += fmt::format(" {} {}", kind, count);
  INFO(
      fmt::format("wrong key {} · upper distractor {} · everyone right {} · unplanted {} of {}"
                  " ({})",
                  wrong_key, upper, everyone, unplanted_flagged, unplanted, kinds));
  CHECK(wrong_key >= 95);
  CHECK(upper >= 95);
  CHECK(everyone >= 95);
  CHECK(unplanted_flagged <= unplanted / 20);
}

TEST_CASE("reports from another revision of a bank are analysed apart, with a warning",
          "[analyze]") {
  const bank::Bank synthetic = class_sim::synthetic_bank(4);
  const std::vector<const bank::Question*> form = form_of(synthetic);
  class_sim::ClassOptions options;
  options.learners = 6;
  auto reports = class_sim::simulate_class(form, {}, options, {synthetic});
  reports[4].banks["synthetic"] = "2026-12-07";
  reports[5].banks["synthetic"] = "2026-12-07";
  const Analysis analysis = analyze_reports(reports, {}, {synthetic});
  REQUIRE(analysis.groups.size() == 2);
  CHECK(analysis.groups[0].reports == 4);
  CHECK(analysis.groups[1].reports == 2);
  CHECK(analysis.groups[1].banks.at("synthetic") == "2026-12-07");
  REQUIRE(analysis.warnings.size() == 1);
  CHECK_THAT(analysis.warnings[0],
             Contains("learner-005.json was answered on another revision of a bank "
                      "(synthetic 2026-12-07)"));
}

TEST_CASE(
    "a question no loaded bank holds is analysed on right and wrong alone, with a "
    "warning",
    "[analyze]") {
  const bank::Bank synthetic = class_sim::synthetic_bank(3);
  const std::vector<const bank::Question*> form = form_of(synthetic);
  class_sim::ClassOptions options;
  options.learners = 5;
  const auto reports = class_sim::simulate_class(form, {}, options, {synthetic});
  const Analysis analysis = analyze_reports(reports, {}, {});
  CHECK(analysis.warnings.size() == 3);
  CHECK_THAT(analysis.warnings[0],
             Contains("question q01 (in learner-001.json) is not in the loaded banks"));
  const QuestionAnalysis& q = *question_in(analysis, "q01");
  CHECK(q.options.empty());
  CHECK_FALSE(q.bank.has_value());
  CHECK(q.attempts == 5);
}

TEST_CASE(
    "the JSON names every field in order, and writes an undefined statistic and a text no "
    "bank holds as null",
    "[analyze]") {
  // One learner: no SD, no discrimination, no KR-20, empty upper and lower groups. The synthetic
  // bank states no objective and names no trap.
  const bank::Bank synthetic = class_sim::synthetic_bank(2);
  class_sim::ClassOptions options;
  options.learners = 1;
  const auto reports = class_sim::simulate_class(form_of(synthetic), {}, options, {synthetic});
  const ordered_json analysis = analyze_reports(reports, {}, {synthetic});
  CHECK(keys_of(analysis) ==
        std::vector<std::string>{"reports", "skipped", "warnings", "thresholds", "groups"});
  CHECK(keys_of(analysis["thresholds"]) == std::vector<std::string>{"min_attempts", "group_share",
                                                                    "too_easy", "too_hard",
                                                                    "weak_discrimination"});
  CHECK(analysis["reports"].is_number_integer());
  const ordered_json& group = analysis["groups"][0];
  CHECK(keys_of(group) == std::vector<std::string>{"banks", "reports", "forms", "questions",
                                                   "objectives", "traps", "calibration"});

  const ordered_json& form = group["forms"][0];
  CHECK(keys_of(form) == std::vector<std::string>{"mode", "seed", "questions", "reports",
                                                  "complete", "mean", "median", "sd", "kr20", "sem",
                                                  "histogram", "form"});
  CHECK(form["seed"].is_number_unsigned());
  CHECK(form["complete"].is_number_integer());
  CHECK(form["mean"].is_number_float());
  CHECK(form["sd"].is_null());
  CHECK(form["kr20"].is_null());
  CHECK(form["sem"].is_null());

  const ordered_json& q = group["questions"][0];
  CHECK(keys_of(q) ==
        std::vector<std::string>{"id",          "bank",       "topic",           "type",
                                 "objective",   "prompt",     "attempts",        "answered",
                                 "facility",    "sd",         "guess_chance",    "discrimination",
                                 "upper_lower", "efficiency", "median_time_s",   "group_size",
                                 "options",     "no_answer",  "confident_wrong", "flags",
                                 "judged"});
  CHECK(q["attempts"].is_number_integer());
  CHECK(q["group_size"].is_number_integer());
  CHECK(q["facility"].is_number_float());
  CHECK(q["sd"].is_null());
  CHECK(q["discrimination"].is_null());
  CHECK(q["upper_lower"].is_null());
  CHECK(q["efficiency"].is_null());
  CHECK(q["type"] == "single");
  const ordered_json& key = q["options"][0];
  CHECK(keys_of(key) ==
        std::vector<std::string>{"id", "text", "key", "trap", "chosen", "rate", "upper", "lower"});
  CHECK(key["trap"].is_null());  // the key is no trap
  CHECK(key["upper"].is_null());
  CHECK(q["options"][1]["trap"] == "trap-q01-b");

  CHECK(keys_of(group["objectives"][0]) ==
        std::vector<std::string>{"id", "statement", "attempts", "right", "facility"});
  CHECK(group["objectives"][0]["statement"].is_null());
  CHECK(keys_of(group["traps"][0]) ==
        std::vector<std::string>{"id", "name", "fell", "exposed", "rate"});
  CHECK(group["traps"][0]["name"].is_null());
}

TEST_CASE(
    "a question no loaded bank holds has common wrong answers in its JSON, between no_answer "
    "and confident_wrong",
    "[analyze]") {
  const bank::Bank synthetic = class_sim::synthetic_bank(2);
  class_sim::ClassOptions options;
  options.learners = 5;
  const auto reports = class_sim::simulate_class(form_of(synthetic), {}, options, {synthetic});
  const ordered_json analysis = analyze_reports(reports, {}, {});
  const ordered_json& q = analysis["groups"][0]["questions"][0];
  const std::vector<std::string> keys = keys_of(q);
  const auto at = [&](const char* name) { return std::find(keys.begin(), keys.end(), name); };
  REQUIRE(at("common_wrong_answers") != keys.end());
  CHECK(at("common_wrong_answers") == at("no_answer") + 1);
  CHECK(at("confident_wrong") == at("common_wrong_answers") + 1);
  CHECK(q["confident_wrong"].is_null());  // the simulated class was not asked
  CHECK(q["bank"].is_null());
  CHECK(q["prompt"].is_null());
  CHECK(q["guess_chance"].is_null());
  for (const auto& wrong : q["common_wrong_answers"])
    CHECK(keys_of(wrong) == std::vector<std::string>{"answer", "count", "trap"});
}

TEST_CASE("a report is read with its form, banks and answers in the bank's ids", "[analyze]") {
  const json report = json::parse(R"({"mode": "exam", "seed": 9,
    "questions": [
      {"id": "x", "answer": "b", "answer_ids": "a", "correct": true, "trap": null,
       "time_ms": 1200, "skipped": false},
      {"id": "y", "answer": null, "answer_ids": null, "correct": false, "trap": null,
       "time_ms": 0, "skipped": true}],
    "form": ["x", "y", "z"], "banks": {"b1": "2026-12-06"}})");
  const SessionReport parsed = parse_report(report, "r.json");
  CHECK(parsed.seed == 9);
  CHECK(parsed.form == std::vector<std::string>{"x", "y", "z"});
  CHECK(parsed.banks.at("b1") == "2026-12-06");
  REQUIRE(parsed.answers.size() == 2);
  CHECK(parsed.answers[0].answer_ids == "a");
  CHECK(parsed.answers[0].correct);
  CHECK_FALSE(parsed.answers[1].answered);
}

TEST_CASE("what is not a quiz's or an exam's report is refused with the reason", "[analyze]") {
  const auto refused = [](const std::string& text) {
    try {
      parse_report(json::parse(text), "r.json");
    } catch (const InputError& error) {
      return error.message();
    }
    return std::string("accepted");
  };
  CHECK(refused("[1, 2]") == "r.json: is a JSON array, not a session report (an object)");
  CHECK(refused(R"({"seed": 1, "questions": []})") ==
        "r.json: has no \"mode\": not a quiz or exam session report");
  CHECK_THAT(refused(R"({"mode": "drill", "seed": 1, "questions": []})"),
             Contains("a drill's report"));
  CHECK(refused(R"({"mode": "review", "seed": 1, "questions": []})") ==
        "r.json: \"mode\" is \"review\", expected \"quiz\" or \"exam\"");
  CHECK(refused(R"({"mode": "quiz", "seed": -1, "questions": []})") ==
        "r.json: \"seed\" is not a whole number ≥ 0");
  CHECK(refused(R"({"mode": "quiz", "seed": 1, "questions": [{"id": "x"}]})") ==
        "r.json: questions[0] has no \"correct\": not a quiz or exam session report");
  CHECK(refused(R"({"mode": "quiz", "seed": 1, "questions": [{"id": "x", "correct": true,
                    "answer": "a"}, {"id": "x", "correct": true, "answer": "a"}]})") ==
        "r.json: question x is listed twice");
  CHECK(refused(R"({"mode": "quiz", "seed": 1, "questions": [{"id": "x", "correct": true,
                    "answer": "a"}], "form": ["y"]})") ==
        "r.json: question x was answered but is not in \"form\"");
  CHECK(refused(R"({"mode": "quiz", "seed": 1, "questions": [{"id": "x", "correct": false,
                    "skipped": null}]})") ==
        "r.json: questions[0] \"skipped\" is not true or false");
  CHECK(refused(R"({"mode": "quiz", "seed": 1, "questions": [{"id": "x", "correct": false,
                    "answer": "a", "time_ms": 1e308}]})") ==
        "r.json: questions[0] \"time_ms\" is 1e+308, expected milliseconds from 0 to "
        "86,400,000 (a day)");
}

TEST_CASE("a skipped file's reason that quotes bytes which are not UTF-8 still prints as JSON",
          "[analyze][cli]") {
  const bank::Bank synthetic = class_sim::synthetic_bank(2);
  const std::vector<const bank::Question*> form = form_of(synthetic);
  class_sim::ClassOptions options;
  options.learners = 2;
  const auto reports = class_sim::simulate_class(form, {}, options, {synthetic});
  cli_test::TempDir dir;
  dir.write("good.json", class_sim::report_json(reports[0], {synthetic}));
  dir.write("bad.json", "{\"mode\": \"qu\xff\"}");
  cli_test::Cli cli;
  REQUIRE(cli.run({"analyze", dir.path().string(), "--format", "json"}) == 0);
  const json analysis = json::parse(cli.out.str());
  CHECK(analysis["skipped"].size() == 1);
  CHECK_THAT(analysis["skipped"][0]["reason"].get<std::string>(), Contains("\xEF\xBF\xBD"));
}

TEST_CASE(
    "analyze reads a folder, names and skips truncated and foreign files, and analyses "
    "the rest",
    "[analyze][cli]") {
  const std::vector<bank::Bank> banks = builtin();
  std::vector<const bank::Question*> form;
  for (const auto& b : banks)
    for (const auto& q : b.questions)
      if (form.size() < 12 && q.type == bank::QuestionType::single) form.push_back(&q);
  class_sim::ClassOptions options;
  options.learners = 40;
  const auto reports = class_sim::simulate_class(form, {}, options, banks);
  cli_test::TempDir dir;
  for (const auto& report : reports)
    dir.write(report.path, class_sim::report_json(report, banks));
  const std::string whole = class_sim::report_json(reports[0], banks);
  dir.write("zz-truncated.json", whole.substr(0, whole.size() / 2));
  dir.write("zz-foreign.json", R"({"name": "not a report"})");
  dir.write("notes.txt", "not JSON, and not looked at");

  cli_test::Cli cli;
  REQUIRE(cli.run({"analyze", dir.path().string(), "--format", "json"}) == 0);
  const json analysis = json::parse(cli.out.str());
  CHECK(analysis["reports"] == 40);
  REQUIRE(analysis["skipped"].size() == 2);
  CHECK_THAT(analysis["skipped"][0]["path"].get<std::string>(), Contains("zz-foreign.json"));
  CHECK_THAT(analysis["skipped"][1]["reason"].get<std::string>(), Contains("zz-truncated.json:"));
  CHECK_THAT(cli.err.str(), Contains("skipped: ") && Contains("zz-truncated.json"));
  CHECK(analysis["groups"][0]["forms"][0]["reports"] == 40);
  CHECK(analysis["groups"][0]["questions"].size() == 12);
  const json& options_of_first = analysis["groups"][0]["questions"][0]["options"];
  CHECK(options_of_first.size() >= 4);
}

TEST_CASE("analyze exits 2 when no report could be read, and when a path is missing",
          "[analyze][cli]") {
  cli_test::TempDir dir;
  dir.write("a.json", "{\"mode\": \"quiz\"");
  cli_test::Cli cli;
  CHECK(cli.run({"analyze", dir.path().string()}) == 2);
  CHECK_THAT(cli.err.str(), Contains("no session report could be read (1 skipped)"));
  cli_test::TempDir empty;
  cli_test::Cli nothing;
  CHECK(nothing.run({"analyze", empty.path().string()}) == 2);
  CHECK_THAT(nothing.err.str(), Contains("no session report found (no .json file)"));
  cli_test::Cli missing;
  CHECK(missing.run({"analyze", (dir.path() / "nowhere").string()}) == 2);
  CHECK_THAT(missing.err.str(), Contains("nowhere: no such file or folder"));
}

TEST_CASE(
    "analyze writes text that fits the width, with no trailing space, CSV, and one HTML "
    "page",
    "[analyze][cli]") {
  const bank::Bank synthetic = class_sim::synthetic_bank(10);
  const std::vector<const bank::Question*> form = form_of(synthetic);
  class_sim::ClassOptions options;
  options.learners = 60;
  const auto reports =
      class_sim::simulate_class(form, {{"q01", class_sim::Plant::wrong_key}}, options, {synthetic});
  const Analysis analysis = analyze_reports(reports, {}, {synthetic});
  for (int width : {60, 100, 160}) {
    const std::string text = render_analysis(analysis, Theme::plain(), width);
    INFO(text);
    CHECK_THAT(text, Contains("Questions, worst first"));
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t end = text.find('\n', start);
      const std::string line = text.substr(start, end - start);
      CHECK(text::display_width(line) <= width);
      CHECK((line.empty() || line.back() != ' '));  // no trailing space
      start = end == std::string::npos ? text.size() : end + 1;
    }
  }
  // The wrong key comes first, flagged.
  const std::string text = render_analysis(analysis, Theme::plain(), 100);
  CHECK(text.find("1. q01") != std::string::npos);
  CHECK_THAT(text, Contains("negative discrimination"));

  const std::string csv = analysis_csv(analysis);
  CHECK(csv.rfind("group,question,bank,topic,type,objective,learners,", 0) == 0);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 11);
  CHECK_THAT(csv, Contains("1,q01,synthetic,synthetic,single,objective-01,60,60,"));

  const std::string html = analysis_html(analysis);
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK_THAT(html, Contains("<svg") && Contains("class=\"question flagged\""));
  CHECK(html.find("<script") == std::string::npos);
}

}  // namespace test_analysis
