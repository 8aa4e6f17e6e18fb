// Item analysis as JSON, for `analyze --format json` only (analysis.hpp): each struct's fields
// in the order declared, an undefined statistic (NaN) and a missing text as null.
#include <cmath>

#include "study/analysis.hpp"
#include "study/json_null.hpp"

namespace proofdeck::study {

using nlohmann::ordered_json;

namespace {

ordered_json number_or_null(double value) {
  return std::isfinite(value) ? ordered_json(value) : ordered_json(nullptr);
}

}  // namespace

void to_json(ordered_json& out, const SkippedReport& skipped) {
  out = {{"path", skipped.path}, {"reason", skipped.reason}};
}

void to_json(ordered_json& out, const AnalysisThresholds& thresholds) {
  out = {{"min_attempts", thresholds.min_attempts},
         {"group_share", thresholds.group_share},
         {"too_easy", thresholds.too_easy},
         {"too_hard", thresholds.too_hard},
         {"weak_discrimination", thresholds.weak_discrimination}};
}

void to_json(ordered_json& out, const FormAnalysis& form) {
  out = ordered_json::object();
  out["mode"] = form.mode;
  out["seed"] = form.seed;
  out["questions"] = form.questions;
  out["reports"] = form.reports;
  out["complete"] = form.complete;
  out["mean"] = number_or_null(form.mean);
  out["median"] = number_or_null(form.median);
  out["sd"] = number_or_null(form.sd);
  out["kr20"] = number_or_null(form.kr20);
  out["sem"] = number_or_null(form.sem);
  out["histogram"] = form.histogram;
  out["form"] = form.form;
}

void to_json(ordered_json& out, const OptionAnalysis& option) {
  out = ordered_json::object();
  out["id"] = option.id;
  out["text"] = option.text;
  out["key"] = option.key;
  out["trap"] = or_null(option.trap);
  out["chosen"] = option.chosen;
  out["rate"] = number_or_null(option.rate);
  out["upper"] = number_or_null(option.upper);
  out["lower"] = number_or_null(option.lower);
}

void to_json(ordered_json& out, const WrongAnswer& wrong) {
  out = {{"answer", wrong.answer}, {"count", wrong.count}, {"trap", or_null(wrong.trap)}};
}

void to_json(ordered_json& out, const QuestionFlag& flag) {
  out = {{"flag", flag.flag}, {"message", flag.message}, {"look_at", flag.look_at}};
}

void to_json(ordered_json& out, const QuestionAnalysis& question) {
  out = ordered_json::object();
  out["id"] = question.id;
  out["bank"] = or_null(question.bank);
  out["topic"] = or_null(question.topic);
  out["type"] = or_null(question.type);
  out["objective"] = or_null(question.objective);
  out["prompt"] = or_null(question.prompt);
  out["attempts"] = question.attempts;
  out["answered"] = question.answered;
  out["facility"] = number_or_null(question.facility);
  out["sd"] = number_or_null(question.sd);
  out["guess_chance"] = number_or_null(question.guess_chance);
  out["discrimination"] = number_or_null(question.discrimination);
  out["upper_lower"] = number_or_null(question.upper_lower);
  out["efficiency"] = number_or_null(question.efficiency);
  out["median_time_s"] = number_or_null(question.median_time_s);
  out["group_size"] = question.group_size;
  out["options"] = question.options;
  out["no_answer"] = question.no_answer;
  if (question.common_wrong_answers) out["common_wrong_answers"] = *question.common_wrong_answers;
  out["confident_wrong"] =
      question.confident_wrong ? ordered_json(*question.confident_wrong) : ordered_json(nullptr);
  out["flags"] = question.flags;
  out["judged"] = question.judged;
}

void to_json(ordered_json& out, const ConfidentWrong& wrong) {
  out = {{"with_level", wrong.with_level},
         {"wrong_at_3", wrong.wrong_at_3},
         {"share", wrong.share},
         {"trap", or_null(wrong.trap)}};
}

void to_json(ordered_json& out, const ObjectiveAnalysis& objective) {
  out = {{"id", objective.id},
         {"statement", or_null(objective.statement)},
         {"attempts", objective.attempts},
         {"right", objective.right},
         {"facility", number_or_null(objective.facility)}};
}

void to_json(ordered_json& out, const TrapAnalysis& trap) {
  out = {{"id", trap.id},
         {"name", or_null(trap.name)},
         {"fell", trap.fell},
         {"exposed", trap.exposed},
         {"rate", number_or_null(trap.rate)}};
}

void to_json(ordered_json& out, const GroupAnalysis& group) {
  out = ordered_json::object();
  out["banks"] = group.banks;
  out["reports"] = group.reports;
  out["forms"] = group.forms;
  out["questions"] = group.questions;
  out["objectives"] = group.objectives;
  out["traps"] = group.traps;
  out["calibration"] = calibration_json(group.calibration);
}

void to_json(ordered_json& out, const Analysis& analysis) {
  out = ordered_json::object();
  out["reports"] = analysis.reports;
  out["skipped"] = analysis.skipped;
  out["warnings"] = analysis.warnings;
  out["thresholds"] = analysis.thresholds;
  out["groups"] = analysis.groups;
}

}  // namespace proofdeck::study
