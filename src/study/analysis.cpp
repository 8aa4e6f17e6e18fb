// Item analysis: reading session reports and computing each question's, form's, objective's and
// trap's statistics (analysis.hpp; the renderings are in analysis_render.cpp, the JSON in
// analysis_json.cpp).
#include "study/analysis.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numeric>
#include <set>
#include <sstream>
#include <tuple>

#include "core/errors.hpp"
#include "core/json_input.hpp"
#include "core/statistics.hpp"
#include "study/stats.hpp"
#include "text/number.hpp"

namespace proofdeck::study {

using nlohmann::json;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kMaxReportBytes = 16u << 20;

[[noreturn]] void not_a_report(const std::string& path, const std::string& what) {
  throw InputError("analyze.report", fmt::format("{}: {}", path, what));
}

const json& field(const json& object, const char* name, const std::string& path,
                  const std::string& where) {
  const auto it = object.find(name);
  if (it == object.end())
    not_a_report(path,
                 fmt::format("{}has no \"{}\": not a quiz or exam session report", where, name));
  return *it;
}

// How sure the learner said they were (--confidence): 1, 2 or 3; nullopt when not asked.
std::optional<int> confidence_of(const json& q, const std::string& path, const std::string& where) {
  const auto sure = q.find("confidence");
  if (sure == q.end() || sure->is_null()) return std::nullopt;
  if (!sure->is_number_integer() || sure->get<int>() < 1 || sure->get<int>() > 3) {
    not_a_report(path, fmt::format("{}\"confidence\" is {}, expected 1, 2 or 3", where,
                                   json_preview(*sure)));
  }
  return sure->get<int>();
}

}  // namespace

SessionReport parse_report(const json& report, const std::string& path) {
  if (!report.is_object())
    not_a_report(path,
                 fmt::format("is a JSON {}, not a session report (an object)", json_kind(report)));
  SessionReport out;
  out.path = path;
  const json& mode = field(report, "mode", path, "");
  if (!mode.is_string()) not_a_report(path, "\"mode\" is not a string");
  out.mode = mode.get<std::string>();
  if (out.mode == "drill")
    not_a_report(path,
                 "a drill's report: a drill asks each learner different cards, so its "
                 "answers are not a form's (analyze quiz and exam reports)");
  if (out.mode != "quiz" && out.mode != "exam")
    not_a_report(path,
                 fmt::format("\"mode\" is {}, expected \"quiz\" or \"exam\"", json_preview(mode)));
  const json& seed = field(report, "seed", path, "");
  if (!seed.is_number_unsigned()) not_a_report(path, "\"seed\" is not a whole number ≥ 0");
  out.seed = seed.get<std::uint64_t>();
  const json& questions = field(report, "questions", path, "");
  if (!questions.is_array()) not_a_report(path, "\"questions\" is not an array");
  std::set<std::string> met;
  for (std::size_t i = 0; i < questions.size(); ++i) {
    const json& q = questions[i];
    const std::string where = fmt::format("questions[{}] ", i);
    if (!q.is_object()) not_a_report(path, where + "is not an object");
    ReportAnswer answer;
    const json& id = field(q, "id", path, where);
    if (!id.is_string() || id.get<std::string>().empty())
      not_a_report(path, where + "\"id\" is not a question id");
    answer.question = id.get<std::string>();
    if (!met.insert(answer.question).second)
      not_a_report(path, fmt::format("question {} is listed twice", answer.question));
    const json& correct = field(q, "correct", path, where);
    if (!correct.is_boolean()) not_a_report(path, where + "\"correct\" is not true or false");
    answer.correct = correct.get<bool>();
    const json skipped_field = q.value("skipped", json(false));
    if (!skipped_field.is_boolean()) not_a_report(path, where + "\"skipped\" is not true or false");
    const bool skipped = skipped_field.get<bool>();
    const json ids = q.value("answer_ids", json(nullptr));
    if (!ids.is_null() && !ids.is_string())
      not_a_report(path, where + "\"answer_ids\" is not a string or null");
    answer.answered = !skipped && !q.value("answer", json(nullptr)).is_null();
    if (answer.answered && ids.is_string()) answer.answer_ids = ids.get<std::string>();
    if (answer.correct && !answer.answered)
      not_a_report(path, where + "is correct but has no answer");
    const json trap = q.value("trap", json(nullptr));
    if (trap.is_string()) answer.trap = trap.get<std::string>();
    // A time is milliseconds, at most a day (a longer one is no answer's time).
    const json time = q.value("time_ms", json(0));
    if (!time.is_number() || !(time.get<double>() >= 0) || time.get<double>() > 86'400'000.0)
      not_a_report(path, fmt::format("{}\"time_ms\" is {}, expected milliseconds from 0 to "
                                     "86,400,000 (a day)",
                                     where, json_preview(time)));
    answer.time_ms = static_cast<std::int64_t>(time.get<double>());
    answer.confidence = confidence_of(q, path, where);
    if (!answer.answered) answer.confidence.reset();
    out.answers.push_back(std::move(answer));
  }
  // Reports written before forms were recorded: the questions met are the form.
  const json form = report.value("form", json(nullptr));
  if (form.is_array()) {
    for (const json& id : form) {
      if (!id.is_string()) not_a_report(path, "\"form\" holds something other than question ids");
      out.form.push_back(id.get<std::string>());
    }
  } else {
    for (const ReportAnswer& answer : out.answers)
      out.form.push_back(answer.question);
  }
  const std::set<std::string> drawn(out.form.begin(), out.form.end());
  for (const ReportAnswer& answer : out.answers)
    if (!drawn.count(answer.question))
      not_a_report(path,
                   fmt::format("question {} was answered but is not in \"form\"", answer.question));
  const json banks = report.value("banks", json(nullptr));
  if (banks.is_object()) {
    for (const auto& [bank, revised] : banks.items())
      out.banks[bank] = revised.is_string() ? revised.get<std::string>() : "";
  }
  return out;
}

ReadReports read_reports(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (error || !fs::exists(status))
      throw InputError("analyze.path",
                       fmt::format("{}: no such file or folder (give session reports written by "
                                   "quiz --report FILE or exam --report FILE, or their folder)",
                                   path));
    if (!fs::is_directory(status)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const fs::directory_entry& entry : fs::directory_iterator(path, error)) {
      if (entry.is_regular_file() && entry.path().extension() == ".json")
        found.push_back(entry.path().string());
    }
    if (error)
      throw InputError("analyze.path",
                       fmt::format("{}: cannot list it ({})", path, error.message()));
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  ReadReports out;
  std::istringstream no_input;
  for (const std::string& file : files) {
    try {
      const std::string text = read_text_file(file, kMaxReportBytes, no_input);
      out.reports.push_back(parse_report(parse_json(text, file), file));
    } catch (const Error& error) {
      out.skipped.push_back({file, error.message()});
    }
  }
  return out;
}

// --- the statistics ------------------------------------------------------------------------------

namespace {

double mean(const std::vector<double>& x) {
  if (x.empty()) return kNaN;
  return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}

// Σ (x − x̄)(y − ȳ) / n
double covariance(const std::vector<double>& x, const std::vector<double>& y) {
  const double mx = mean(x), my = mean(y);
  double sum = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    sum += (x[i] - mx) * (y[i] - my);
  return sum / static_cast<double>(x.size());
}

}  // namespace

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size() || x.size() < 2) return kNaN;
  const double sxx = covariance(x, x), syy = covariance(y, y);
  if (sxx <= 0 || syy <= 0) return kNaN;
  return covariance(x, y) / std::sqrt(sxx * syy);
}

double discriminative_efficiency(const std::vector<double>& item, const std::vector<double>& rest) {
  if (item.size() != rest.size() || item.size() < 2) return kNaN;
  std::vector<double> sorted_item = item, sorted_rest = rest;
  std::sort(sorted_item.begin(), sorted_item.end());
  std::sort(sorted_rest.begin(), sorted_rest.end());
  const double largest = covariance(sorted_item, sorted_rest);
  if (largest <= 0) return kNaN;
  return covariance(item, rest) / largest;
}

FormScores form_scores(const std::vector<std::vector<double>>& scores) {
  FormScores out;
  out.learners = static_cast<int>(scores.size());
  out.questions = scores.empty() ? 0 : static_cast<int>(scores.front().size());
  std::vector<double> totals;
  for (const auto& learner : scores)
    totals.push_back(std::accumulate(learner.begin(), learner.end(), 0.0));
  out.mean = mean(totals);
  out.median = median(totals);
  const double n = static_cast<double>(totals.size());
  const double variance = totals.empty() ? kNaN : covariance(totals, totals);
  out.sd = totals.size() < 2 ? kNaN : std::sqrt(variance * n / (n - 1));
  double item_variances = 0;
  for (int j = 0; j < out.questions; ++j) {
    double p = 0;
    for (const auto& learner : scores)
      p += learner[static_cast<std::size_t>(j)];
    p /= n;
    item_variances += p * (1 - p);
  }
  const double k = out.questions;
  out.kr20 = (k < 2 || !(variance > 0)) ? kNaN : k / (k - 1) * (1 - item_variances / variance);
  out.sem = std::isfinite(out.kr20) ? out.sd * std::sqrt(std::max(0.0, 1 - out.kr20)) : kNaN;
  return out;
}

// --- the analysis --------------------------------------------------------------------------------

namespace {

// How strongly a flag asks to be looked at: the worst first.
enum class FlagKind {
  negative_discrimination,
  distractor_upper,
  too_hard,
  weak_discrimination,
  distractor_unused,
  too_easy
};

struct Flag {
  FlagKind kind;
  std::string id;
  std::string message;
  std::string look_at;
};

const char* flag_id(FlagKind kind) {
  switch (kind) {
    case FlagKind::negative_discrimination:
      return "negative-discrimination";
    case FlagKind::distractor_upper:
      return "distractor-upper";
    case FlagKind::too_hard:
      return "too-hard";
    case FlagKind::weak_discrimination:
      return "weak-discrimination";
    case FlagKind::distractor_unused:
      return "distractor-unused";
    case FlagKind::too_easy:
      return "too-easy";
  }
  return "";
}

// The choices one answer makes: option ids ("a,c" → a and c); a true/false answer is its word.
std::vector<std::string> choices_of(const std::string& answer_ids) {
  std::vector<std::string> out;
  std::string piece;
  std::istringstream in(answer_ids);
  while (std::getline(in, piece, ','))
    if (!piece.empty()) out.push_back(piece);
  return out;
}

struct OptionInfo {
  std::string id;
  std::string text;
  bool key = false;
  std::string trap;
};

// The options whose choices are counted: single and select-all options, true and false.
std::vector<OptionInfo> options_of(const bank::Question& q) {
  std::vector<OptionInfo> out;
  if (q.type == bank::QuestionType::single || q.type == bank::QuestionType::multi) {
    for (const bank::Option& option : q.options)
      out.push_back({option.id, option.text, option.correct, option.trap});
  } else if (q.type == bank::QuestionType::truefalse) {
    out.push_back({"true", "True", q.answer, q.answer ? "" : q.trap});
    out.push_back({"false", "False", !q.answer, q.answer ? q.trap : ""});
  }
  return out;
}

// The traps a question offers (an option, a distractor or its wrong truth value embodies).
std::set<std::string> traps_offered(const bank::Question& q) {
  std::set<std::string> out;
  for (const bank::Option& option : q.options)
    if (!option.trap.empty()) out.insert(option.trap);
  for (const bank::Distractor& distractor : q.distractors)
    if (!distractor.trap.empty()) out.insert(distractor.trap);
  if (q.type == bank::QuestionType::truefalse && !q.trap.empty()) out.insert(q.trap);
  return out;
}

struct Learner {
  const SessionReport* report = nullptr;
  double right = 0;  // right answers on the questions met
  double met = 0;    // questions met
  double share() const { return met > 0 ? right / met : 0; }
};

struct Lookup {
  std::map<std::string, const bank::Question*, std::less<>> questions;
  std::map<std::string, const bank::Objective*, std::less<>> objectives;
  std::map<std::string, const bank::Trap*, std::less<>> traps;
};

Lookup lookup_of(const std::vector<bank::Bank>& banks) {
  Lookup out;
  for (const bank::Bank& b : banks) {
    for (const bank::Question& q : b.questions)
      out.questions.emplace(q.id, &q);
    for (const bank::Objective& o : b.objectives)
      out.objectives.emplace(o.id, &o);
    for (const bank::Trap& t : b.traps)
      out.traps.emplace(t.id, &t);
  }
  return out;
}

// "0.31", "−0.07": two decimals with a minus sign, as the rest of the report prints them.
std::string two_decimals(double x) {
  const std::string digits = fmt::format("{:.2f}", std::fabs(x));
  return (x < 0 && digits != "0.00" ? "−" : "") + digits;
}

// One learner's answer to a question, with the options it chose.
struct Met {
  const Learner* learner;
  const ReportAnswer* answer;
  std::vector<std::string> chosen;
};

// An empty text (no trap) as no text, as the analysis holds it.
std::optional<std::string> nonempty(const std::string& text) {
  return text.empty() ? std::nullopt : std::optional<std::string>(text);
}

// The wrong answers given most often (at most three), for questions without options.
std::vector<WrongAnswer> common_wrong_answers(const std::vector<Met>& met) {
  std::map<std::string, std::pair<int, std::string>> counts;
  for (const Met& m : met)
    if (m.answer->answered && !m.answer->correct && !m.answer->answer_ids.empty()) {
      auto& [count, trap] = counts[m.answer->answer_ids];
      ++count;
      trap = m.answer->trap;
    }
  std::vector<std::pair<std::string, std::pair<int, std::string>>> sorted(counts.begin(),
                                                                          counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
  std::vector<WrongAnswer> common;
  for (std::size_t i = 0; i < sorted.size() && i < 3; ++i) {
    const auto& [answer, counted] = sorted[i];
    common.push_back({answer, counted.first, nonempty(counted.second)});
  }
  return common;
}

// The flags a question's scores raise: too easy, too hard (below a blind guess too), and
// negative or near-zero discrimination.
void flag_scores(std::vector<Flag>& flags, const AnalysisOptions& options, double facility,
                 std::ptrdiff_t right, std::size_t n, double chance, double discrimination) {
  const auto flag = [&](FlagKind kind, std::string message, std::string look_at) {
    flags.push_back({kind, flag_id(kind), std::move(message), std::move(look_at)});
  };
  if (facility >= options.too_easy) {
    flag(FlagKind::too_easy, fmt::format("too easy: {} of {} answered it right", right, n),
         "whether an option gives the answer away (length, wording, a word from the stem), or "
         "ask the harder case of the same idea");
  }
  if ((facility <= options.too_hard || (std::isfinite(chance) && facility < chance))) {
    flag(FlagKind::too_hard,
         std::isfinite(chance) && facility < chance
             ? fmt::format("too hard: {} of {} answered it right ({}), fewer than a blind "
                           "guess would ({})",
                           right, n, text::percent(facility), text::percent(chance))
             : fmt::format("too hard: only {} of {} answered it right ({})", right, n,
                           text::percent(facility)),
         "the key first, then whether the lesson teaches this and whether the stem says the "
         "conditions it holds under");
  }
  if (facility < options.too_easy && std::isfinite(discrimination)) {
    if (discrimination < 0) {
      flag(FlagKind::negative_discrimination,
           fmt::format("negative discrimination ({}): the stronger learners {}",
                       two_decimals(discrimination),
                       discrimination <= -options.weak_discrimination
                           ? "miss it more often than the weaker ones"
                           : "do no better on it than the weaker ones"),
           "the key first, then a second defensible answer or an ambiguity the stronger "
           "learners see");
    } else if (discrimination < options.weak_discrimination) {
      flag(FlagKind::weak_discrimination,
           fmt::format("near-zero discrimination ({}): it does not separate who knows the "
                       "topic from who does not",
                       two_decimals(discrimination)),
           "whether it tests the objective or something else (reading, arithmetic, a detail "
           "outside the lesson)");
    }
  }
}

// One question's statistics over the learners who met it; `flags` gets the flags it raises,
// worst first.
QuestionAnalysis analyze_question(const std::string& id, const std::vector<Met>& met,
                                  const Lookup& lookup, const AnalysisOptions& options,
                                  std::vector<Flag>& flags) {
  const auto found = lookup.questions.find(id);
  const bank::Question* question = found == lookup.questions.end() ? nullptr : found->second;

  const std::size_t n = met.size();
  std::vector<double> item, times;
  std::vector<double> item_with_rest, rest_of_item;
  int answered = 0;
  for (const Met& m : met) {
    const double x = m.answer->correct ? 1.0 : 0.0;
    item.push_back(x);
    if (m.answer->answered) {
      ++answered;
      times.push_back(static_cast<double>(m.answer->time_ms) / 1000.0);
    }
    // The rest-score as a share of the other questions the learner met, so that learners of
    // forms of different lengths compare; on one form it is the rest-score over a constant.
    if (m.learner->met > 1) {
      item_with_rest.push_back(x);
      rest_of_item.push_back((m.learner->right - x) / (m.learner->met - 1));
    }
  }
  const double facility = mean(item);
  const auto right = std::count(item.begin(), item.end(), 1.0);
  const double discrimination = pearson(item_with_rest, rest_of_item);

  // The upper and lower groups: the share of these learners with the highest and the lowest
  // scores (a tie at the boundary goes by report order).
  std::vector<std::size_t> ranked(n);
  std::iota(ranked.begin(), ranked.end(), 0);
  std::stable_sort(ranked.begin(), ranked.end(), [&](std::size_t a, std::size_t b) {
    return met[a].learner->share() < met[b].learner->share();
  });
  const auto group =
      static_cast<std::size_t>(std::lround(options.group_share * static_cast<double>(n)));
  const std::vector<std::size_t> lower(ranked.begin(),
                                       ranked.begin() + static_cast<std::ptrdiff_t>(group));
  const std::vector<std::size_t> upper(ranked.end() - static_cast<std::ptrdiff_t>(group),
                                       ranked.end());
  const auto rate_in = [&](const std::vector<std::size_t>& members, const auto& counts) {
    if (members.empty()) return kNaN;
    double hits = 0;
    for (std::size_t i : members)
      hits += counts(met[i]) ? 1.0 : 0.0;
    return hits / static_cast<double>(members.size());
  };
  const auto is_right = [](const Met& m) { return m.answer->correct; };

  QuestionAnalysis out;
  out.id = id;
  if (question) {
    out.bank = question->bank;
    out.topic = question->topic;
    out.type = std::string(bank::question_type_name(question->type));
    out.objective = question->objective_id();
    out.prompt = question->prompt;
  }
  out.attempts = n;
  out.answered = answered;
  out.facility = facility;
  out.sd = n < 2 ? kNaN
                 : std::sqrt(facility * (1 - facility) * static_cast<double>(n) /
                             static_cast<double>(n - 1));
  out.guess_chance = question ? guess_chance(*question) : kNaN;
  out.discrimination = discrimination;
  out.upper_lower = rate_in(upper, is_right) - rate_in(lower, is_right);
  out.efficiency = discriminative_efficiency(item_with_rest, rest_of_item);
  out.median_time_s = median(times);
  out.group_size = group;

  out.judged = static_cast<int>(n) >= options.min_attempts;
  const bool groups_judged = group >= 10;
  const auto flag = [&](FlagKind kind, std::string message, std::string look_at) {
    flags.push_back({kind, flag_id(kind), std::move(message), std::move(look_at)});
  };
  if (out.judged) flag_scores(flags, options, facility, right, n, out.guess_chance, discrimination);

  const std::vector<OptionInfo> infos =
      question ? options_of(*question) : std::vector<OptionInfo>{};
  const int wrong = static_cast<int>(std::count(item.begin(), item.end(), 0.0));
  const int distractors =
      static_cast<int>(std::count_if(infos.begin(), infos.end(), [](auto& o) { return !o.key; }));
  for (const OptionInfo& option : infos) {
    const auto chose = [&](const Met& m) {
      return std::find(m.chosen.begin(), m.chosen.end(), option.id) != m.chosen.end();
    };
    int chosen = 0;
    for (const Met& m : met)
      chosen += chose(m) ? 1 : 0;
    const double upper_rate = rate_in(upper, chose), lower_rate = rate_in(lower, chose);
    out.options.push_back({option.id, option.text, option.key, nonempty(option.trap), chosen,
                           n == 0 ? kNaN : chosen / static_cast<double>(n), upper_rate,
                           lower_rate});
    if (option.key || !out.judged) continue;
    // Enough wrong answers that, spread evenly, each distractor would have drawn five.
    if (chosen == 0 && wrong >= 5 * distractors) {
      flag(FlagKind::distractor_unused,
           fmt::format("distractor {} was chosen by nobody ({} wrong answers)", option.id, wrong),
           "whether it names a misconception real candidates hold; replace it with one they do");
    }
    if (groups_judged && upper_rate > lower_rate) {
      const double g = static_cast<double>(group);
      const double pooled = (upper_rate + lower_rate) / 2;
      const double se = std::sqrt(pooled * (1 - pooled) * 2 / g);
      if (se > 0 && (upper_rate - lower_rate) / se >= options.upper_preference_z) {
        flag(FlagKind::distractor_upper,
             fmt::format("distractor {} draws the upper group more than the lower ({} against "
                         "{})",
                         option.id, text::percent(upper_rate), text::percent(lower_rate)),
             fmt::format("whether {} is defensible, or the key wrong, for a reader who knows "
                         "more than the lesson says",
                         option.id));
      }
    }
  }
  out.no_answer = static_cast<int>(n) - answered;

  // For numbers and orders, the wrong answers given most often.
  if (!question || infos.empty()) out.common_wrong_answers = common_wrong_answers(met);
  std::vector<const ReportAnswer*> answers;
  for (const Met& m : met)
    answers.push_back(m.answer);
  out.confident_wrong = confident_wrong(answers);

  std::stable_sort(flags.begin(), flags.end(),
                   [](const Flag& a, const Flag& b) { return a.kind < b.kind; });
  for (const Flag& f : flags)
    out.flags.push_back({f.id, f.message, f.look_at});
  return out;
}

// The reports grouped so that no group holds two revisions of one bank: each report joins the
// first group it agrees with.
struct Group {
  std::map<std::string, std::string> banks;
  std::vector<const SessionReport*> reports;
};

bool agrees(const Group& group, const SessionReport& report) {
  for (const auto& [bank, revised] : report.banks) {
    const auto it = group.banks.find(bank);
    if (it != group.banks.end() && it->second != revised) return false;
  }
  return true;
}

// Forms: the reports with the same mode, seed and drawn questions, each with its score
// statistics (mean, median, SD, KR-20, SEM) and histogram over the reports that finished it.
std::vector<FormAnalysis> analyze_forms(const Group& group) {
  std::map<std::tuple<std::string, std::uint64_t, std::vector<std::string>>,
           std::vector<const SessionReport*>>
      forms;
  std::vector<std::tuple<std::string, std::uint64_t, std::vector<std::string>>> form_order;
  for (const SessionReport* report : group.reports) {
    auto key = std::make_tuple(report->mode, report->seed, report->form);
    auto& members = forms[key];
    if (members.empty()) form_order.push_back(key);
    members.push_back(report);
  }
  std::vector<FormAnalysis> out;
  for (const auto& key : form_order) {
    const auto& members = forms.at(key);
    const std::vector<std::string>& drawn = std::get<2>(key);
    std::vector<std::vector<double>> scores;
    for (const SessionReport* report : members) {
      if (report->answers.size() != drawn.size()) continue;  // quit before the end
      std::vector<double> row;
      for (const std::string& id : drawn) {
        const auto it = std::find_if(report->answers.begin(), report->answers.end(),
                                     [&](const ReportAnswer& a) { return a.question == id; });
        row.push_back(it != report->answers.end() && it->correct ? 1.0 : 0.0);
      }
      scores.push_back(std::move(row));
    }
    const FormScores stats = form_scores(scores);
    FormAnalysis form;
    form.mode = std::get<0>(key);
    form.seed = std::get<1>(key);
    form.questions = drawn.size();
    form.reports = members.size();
    form.complete = scores.size();
    form.mean = stats.mean;
    form.median = stats.median;
    form.sd = stats.sd;
    form.kr20 = stats.kr20;
    form.sem = stats.sem;
    form.histogram.assign(drawn.size() + 1, 0);
    for (const auto& row : scores)
      ++form.histogram[static_cast<std::size_t>(std::accumulate(row.begin(), row.end(), 0.0))];
    form.form = drawn;
    out.push_back(std::move(form));
  }
  return out;
}

// Questions in the order first met, then worst first: by their worst flag, then by the weakest
// discrimination (an undefined one last).
std::vector<QuestionAnalysis> analyze_questions(const Group& group, const Lookup& lookup,
                                                const AnalysisOptions& options) {
  std::vector<Learner> learners;
  for (const SessionReport* report : group.reports) {
    Learner learner{report, 0, 0};
    for (const ReportAnswer& answer : report->answers) {
      learner.met += 1;
      learner.right += answer.correct ? 1 : 0;
    }
    learners.push_back(learner);
  }
  std::vector<std::string> ids;
  std::set<std::string> seen;
  for (const SessionReport* report : group.reports)
    for (const ReportAnswer& answer : report->answers)
      if (seen.insert(answer.question).second) ids.push_back(answer.question);
  std::map<std::string, std::vector<Met>> met;
  for (const Learner& learner : learners)
    for (const ReportAnswer& answer : learner.report->answers)
      met[answer.question].push_back(
          {&learner, &answer,
           answer.answered ? choices_of(answer.answer_ids) : std::vector<std::string>{}});

  struct Analysed {
    QuestionAnalysis question;
    std::vector<Flag> flags;
  };
  std::vector<Analysed> analysed;
  for (const std::string& id : ids) {
    Analysed a;
    a.question = analyze_question(id, met.at(id), lookup, options, a.flags);
    analysed.push_back(std::move(a));
  }
  const auto worst = [](const Analysed& a) {
    return a.flags.empty() ? 99 : static_cast<int>(a.flags.front().kind);
  };
  const auto discrimination = [](const Analysed& a) {
    const double d = a.question.discrimination;
    return std::isfinite(d) ? d : 2.0;
  };
  std::stable_sort(analysed.begin(), analysed.end(), [&](const Analysed& a, const Analysed& b) {
    if (worst(a) != worst(b)) return worst(a) < worst(b);
    return discrimination(a) < discrimination(b);
  });
  std::vector<QuestionAnalysis> out;
  for (Analysed& a : analysed)
    out.push_back(std::move(a.question));
  return out;
}

// Per objective: how often its questions (those the loaded banks hold) were answered right,
// hardest first.
std::vector<ObjectiveAnalysis> analyze_objectives(const Group& group, const Lookup& lookup) {
  std::vector<ObjectiveAnalysis> out;  // in the order first met, until sorted
  std::map<std::string, std::size_t> index;
  for (const SessionReport* report : group.reports) {
    for (const ReportAnswer& answer : report->answers) {
      const auto found = lookup.questions.find(answer.question);
      if (found == lookup.questions.end()) continue;
      const std::string id = found->second->objective_id();
      const auto [it, first] = index.emplace(id, out.size());
      if (first) {
        ObjectiveAnalysis objective;
        objective.id = id;
        const auto stated = lookup.objectives.find(id);
        if (stated != lookup.objectives.end()) objective.statement = stated->second->statement;
        out.push_back(std::move(objective));
      }
      ObjectiveAnalysis& objective = out[it->second];
      objective.right += answer.correct ? 1 : 0;
      objective.attempts += 1;
    }
  }
  for (ObjectiveAnalysis& objective : out)
    objective.facility =
        objective.attempts ? objective.right / static_cast<double>(objective.attempts) : kNaN;
  const auto facility = [](const ObjectiveAnalysis& o) {
    return std::isfinite(o.facility) ? o.facility : 2.0;
  };
  std::stable_sort(out.begin(), out.end(),
                   [&](const auto& a, const auto& b) { return facility(a) < facility(b); });
  return out;
}

// Per trap: how often an answer to a question offering it fell into it, most fallen for first
// (last, a trap fallen into only on questions no loaded bank holds: offered by none it knows).
std::vector<TrapAnalysis> analyze_traps(const Group& group, const Lookup& lookup) {
  std::map<std::string, TrapAnalysis> traps;  // by id
  for (const SessionReport* report : group.reports) {
    for (const ReportAnswer& answer : report->answers) {
      const auto found = lookup.questions.find(answer.question);
      if (found != lookup.questions.end())
        for (const std::string& trap : traps_offered(*found->second))
          ++traps[trap].exposed;
      if (!answer.trap.empty()) ++traps[answer.trap].fell;
    }
  }
  std::vector<TrapAnalysis> out;
  for (auto& [id, trap] : traps) {
    const auto named = lookup.traps.find(id);
    trap.id = id;
    if (named != lookup.traps.end()) trap.name = named->second->name;
    trap.rate = trap.exposed ? trap.fell / static_cast<double>(trap.exposed) : kNaN;
    out.push_back(std::move(trap));
  }
  const auto rate = [](const TrapAnalysis& t) { return std::isfinite(t.rate) ? t.rate : -1.0; };
  std::stable_sort(out.begin(), out.end(),
                   [&](const auto& a, const auto& b) { return rate(a) > rate(b); });
  return out;
}

GroupAnalysis analyze_group(const Group& group, const Lookup& lookup,
                            const AnalysisOptions& options) {
  GroupAnalysis out;
  out.banks = group.banks;
  out.reports = group.reports.size();
  out.forms = analyze_forms(group);
  out.questions = analyze_questions(group, lookup, options);
  out.objectives = analyze_objectives(group, lookup);
  out.traps = analyze_traps(group, lookup);
  out.calibration = class_calibration(group.reports);
  return out;
}

}  // namespace

Analysis analyze_reports(const std::vector<SessionReport>& reports,
                         const std::vector<SkippedReport>& skipped,
                         const std::vector<bank::Bank>& banks, const AnalysisOptions& options) {
  const Lookup lookup = lookup_of(banks);
  Analysis out;
  out.reports = reports.size();
  out.skipped = skipped;
  out.thresholds = {options.min_attempts, options.group_share, options.too_easy, options.too_hard,
                    options.weak_discrimination};
  std::vector<Group> groups;
  for (const SessionReport& report : reports) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const Group& g) { return agrees(g, report); });
    if (it == groups.end() && !groups.empty()) {
      std::string revisions;
      for (const auto& [bank, revised] : report.banks)
        revisions += fmt::format("{}{} {}", revisions.empty() ? "" : ", ", bank,
                                 revised.empty() ? "(no date)" : revised);
      out.warnings.push_back(fmt::format(
          "{} was answered on another revision of a bank ({}) than the reports before it: its "
          "revision is analysed apart, as group {}",
          report.path, revisions, groups.size() + 1));
    }
    if (it == groups.end()) {
      groups.emplace_back();
      it = groups.end() - 1;
    }
    for (const auto& [bank, revised] : report.banks)
      it->banks[bank] = revised;
    it->reports.push_back(&report);
  }
  std::set<std::string> unknown;
  for (const SessionReport& report : reports)
    for (const ReportAnswer& answer : report.answers)
      if (!lookup.questions.count(answer.question) && unknown.insert(answer.question).second)
        out.warnings.push_back(fmt::format(
            "question {} (in {}) is not in the loaded banks: its options, objective and traps "
            "are not analysed (load its bank with --bank PATH)",
            answer.question, report.path));

  for (const Group& group : groups)
    out.groups.push_back(analyze_group(group, lookup, options));
  return out;
}

}  // namespace proofdeck::study
