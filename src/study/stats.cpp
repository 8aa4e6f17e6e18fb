// Progress statistics: what compute_stats reads off the progress database, and the text
// render_stats lays out at a width.
#include "study/stats.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <map>
#include <optional>
#include <set>

#include <fmt/color.h>
#include <fmt/format.h>

#include "bank/instance.hpp"
#include "bank/prerequisites.hpp"
#include "study/drill_plan.hpp"
#include "study/json_null.hpp"
#include "study/learner_day.hpp"
#include "study/readiness.hpp"
#include "study/readiness_view.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

std::vector<SessionRecord> listed_exams(const std::vector<SessionRecord>& sessions) {
  std::vector<SessionRecord> exams;
  for (const SessionRecord& s : sessions) {
    if (s.mode == "exam" && !s.interrupted && s.ended) exams.push_back(s);
  }
  return exams;
}

using nlohmann::ordered_json;

namespace {

std::optional<double> share_of(int part, int whole) {
  return whole == 0 ? std::nullopt : std::optional<double>(static_cast<double>(part) / whole);
}

// A settings or result column as a JSON object; an empty object for "" or anything else.
nlohmann::json parse_object(const std::string& column) {
  if (column.empty()) return nlohmann::json::object();
  nlohmann::json parsed = nlohmann::json::parse(column, nullptr, false);
  return parsed.is_object() ? parsed : nlohmann::json::object();
}

std::optional<double> number_at(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

// An exam's number from its result, else from its settings (an exam saved before results).
std::optional<double> either(std::optional<double> from_result,
                             std::optional<double> from_settings) {
  return from_result ? from_result : from_settings;
}

// The questions loaded now, each id once (the first bank that has it wins), in bank order, and
// the topics that have questions, in bank order.
struct Loaded {
  std::vector<const bank::Question*> questions;
  std::map<std::string, const bank::Question*> by_id;
  std::vector<const bank::Topic*> topics;
};

Loaded loaded(const std::vector<bank::Bank>& banks) {
  Loaded l;
  std::set<std::string> topics_with_questions;
  for (const bank::Bank& b : banks) {
    for (const bank::Question& q : b.questions) {
      if (!l.by_id.emplace(q.id, &q).second) continue;
      l.questions.push_back(&q);
      topics_with_questions.insert(q.topic);
    }
  }
  // In the order a learner meets them, as drill deals and `list` lists (bank/prerequisites.hpp).
  std::set<std::string> listed;
  const bank::StudyOrder order(banks);
  for (const bank::OrderedTopic& ordered : order.topics()) {
    const bank::Topic& topic = *ordered.topic;
    if (topics_with_questions.contains(topic.id) && listed.insert(topic.id).second)
      l.topics.push_back(&topic);
  }
  return l;
}

bool drilled(const Card& card) {
  return card.state != CardState::fresh && card.last_review && card.stability > 0.0;
}

// Reviews today and in total, and true retention.
void count_reviews(Stats& stats, const std::vector<ReviewRow>& reviews, TimePoint today_began) {
  stats.reviews.by_mode = {{"quiz", 0}, {"exam", 0}, {"drill", 0}};
  int retention_reviews = 0, retained = 0;
  for (const ReviewRow& r : reviews) {
    stats.reviews.today += r.at >= today_began;
    ++stats.reviews.by_mode[r.mode];
    if (r.mode == "drill" && r.elapsed_days && *r.elapsed_days >= 1) {
      ++retention_reviews;
      retained += r.correct;
    }
  }
  stats.reviews.total = static_cast<int>(reviews.size());
  stats.retention = {share_of(retained, retention_reviews), retention_reviews};
}

// The loaded questions' cards by state, the due forecast by learner day, and the leeches.
void count_cards(Stats& stats, const Loaded& questions, const std::map<std::string, Card>& cards,
                 const LearnerDays& learner, TimePoint now) {
  std::vector<int> days(30, 0);
  for (const auto& [id, q] : questions.by_id) {
    const auto it = cards.find(id);
    if (it == cards.end() || it->second.state == CardState::fresh) {
      ++stats.cards.fresh;
      continue;
    }
    const Card& card = it->second;
    switch (card.state) {
      case CardState::learning:
        ++stats.cards.learning;
        break;
      case CardState::review:
        ++stats.cards.review;
        break;
      case CardState::relearning:
        ++stats.cards.relearning;
        break;
      case CardState::fresh:
        break;
    }
    if (card.due) {
      // By learner day: overdue when due on a day before today (counted today).
      const int day = learner.days_between(now, *card.due);
      stats.forecast.overdue += day < 0;
      if (day < 30) ++days[static_cast<std::size_t>(std::max(0, day))];
    }
    if (card.lapses >= kLeechLapses) stats.leeches.push_back({id, card.lapses});
  }
  const LearnerDate today = learner.day_of(now);
  stats.forecast.day_starts_at = learner.starts_at();
  for (std::size_t d = 0; d < days.size(); ++d) {
    stats.forecast.days.push_back({today + std::chrono::days(d), days[d]});
    if (d < 7) stats.forecast.next_7 += days[d];
    stats.forecast.next_30 += days[d];
  }
}

// Mastery per topic: answers of every mode, and recall over the cards drill has scheduled.
std::vector<TopicMastery> topic_mastery(const Loaded& questions,
                                        const std::vector<ReviewRow>& reviews,
                                        const std::map<std::string, Card>& cards,
                                        const LearnerDays& learner, TimePoint now) {
  const Scheduler scheduler;
  std::map<std::string, std::pair<int, int>> answers_by_topic;  // topic → (correct, answers)
  std::set<std::string> seen_cards;
  for (const ReviewRow& r : reviews) {
    const auto it = questions.by_id.find(r.card);
    const std::string topic = it != questions.by_id.end() ? it->second->topic : r.topic;
    answers_by_topic[topic].first += r.correct;
    ++answers_by_topic[topic].second;
    seen_cards.insert(r.card);
  }
  std::vector<TopicMastery> topics;
  for (const bank::Topic* topic : questions.topics) {
    TopicMastery mastery;
    mastery.id = topic->id;
    mastery.name = topic->name;
    double recall = 0.0;
    for (const bank::Question* q : questions.questions) {
      if (q->topic != topic->id) continue;
      ++mastery.questions;
      mastery.seen += seen_cards.contains(q->id);
      if (const auto it = cards.find(q->id); it != cards.end() && drilled(it->second)) {
        ++mastery.drilled;
        recall += learner.retrievability(scheduler, it->second, now);
      }
    }
    std::tie(mastery.correct, mastery.answers) = answers_by_topic[topic->id];
    mastery.accuracy = share_of(mastery.correct, mastery.answers);
    if (mastery.drilled > 0) mastery.recall = recall / mastery.drilled;
    topics.push_back(std::move(mastery));
  }
  return topics;
}

// One completed exam, from its session row: its result, else its settings (an exam saved before
// exams kept a result).
ExamRecord exam_record(const SessionRecord& s, const LearnerDays& learner) {
  const nlohmann::json settings = parse_object(s.settings);
  const nlohmann::json result = parse_object(s.result);
  ExamRecord exam;
  exam.at = format_time(s.started);
  exam.score = s.correct;
  exam.total = s.total;
  exam.pass = either(number_at(result, "pass"), number_at(settings, "pass"));
  exam.allowed_minutes =
      either(number_at(result, "allowed_minutes"), number_at(settings, "minutes"));
  exam.minutes = number_at(result, "minutes")
                     .value_or(static_cast<double>((*s.ended - s.started).count()) / 60.0);
  if (const auto it = result.find("topics"); it != result.end() && it->is_object()) {
    for (const auto& [id, counts] : it->items()) {
      if (!counts.is_object()) continue;
      const std::optional<double> correct = number_at(counts, "correct");
      const std::optional<double> total = number_at(counts, "total");
      if (!correct || !total) continue;
      exam.topics[id] = {static_cast<int>(*correct), static_cast<int>(*total)};
    }
  }
  if (s.passed) {
    exam.passed = *s.passed;
  } else if (exam.pass && s.total > 0) {
    exam.passed = 100.0 * s.correct / s.total + 1e-9 >= *exam.pass;
  }
  // What readiness predicted as it started (exams since 0.3.0).
  if (const auto it = settings.find("predicted"); it != settings.end() && it->is_object()) {
    const auto readiness = number_at(*it, "readiness");
    const auto chance = number_at(*it, "pass_chance");
    if (readiness && chance)
      exam.predicted = ExamRecord::Prediction{*readiness, number_at(*it, "low"),
                                              number_at(*it, "high"), *chance};
  }
  // The learner's date it was taken on (an exam at 01:00 belongs to the evening before).
  if (const auto taken = parse_time(exam.at)) exam.date = learner.label(*taken);
  return exam;
}

// Traps: how often a question that could catch the learner in it was answered, and how often it
// did, worst first.
std::vector<TrapRecord> trap_records(const std::vector<bank::Bank>& banks, const Loaded& questions,
                                     const std::vector<ReviewRow>& reviews) {
  std::map<std::string, std::pair<int, int>> trap_counts;  // trap → (fell, exposed)
  for (const ReviewRow& r : reviews) {
    if (const auto it = questions.by_id.find(r.card); it != questions.by_id.end()) {
      for (const std::string& trap : bank::question_traps(*it->second))
        ++trap_counts[trap].second;
    }
    if (!r.trap.empty()) ++trap_counts[r.trap].first;
  }
  // Worst first: the highest miss rate, then the most falls, then by id. Rates compare as
  // fractions (fell / exposed, exposed at least fell), exactly.
  std::vector<std::pair<std::string, std::pair<int, int>>> ordered(trap_counts.begin(),
                                                                   trap_counts.end());
  const auto exposed = [](const std::pair<int, int>& counts) {
    return static_cast<std::int64_t>(std::max(counts.first, counts.second));
  };
  std::sort(ordered.begin(), ordered.end(), [&](const auto& a, const auto& b) {
    const std::int64_t rate_a = a.second.first * exposed(b.second);
    const std::int64_t rate_b = b.second.first * exposed(a.second);
    if (rate_a != rate_b) return rate_a > rate_b;
    if (a.second.first != b.second.first) return a.second.first > b.second.first;
    return a.first < b.first;
  });
  std::vector<TrapRecord> traps;
  for (const auto& [id, counts] : ordered) {
    std::string name = id;
    for (const bank::Bank& b : banks) {
      if (const bank::Trap* trap = b.find_trap(id)) name = trap->name;
    }
    traps.push_back({id, name, counts.second, counts.first,
                     share_of(counts.first, std::max(counts.first, counts.second))});
  }
  return traps;
}

}  // namespace

Stats compute_stats(ProgressStore& store, const std::vector<bank::Bank>& banks, TimePoint now,
                    const StatsOptions& options) {
  const std::vector<ReviewRow> reviews = store.reviews();
  const std::map<std::string, Card> cards = store.cards();
  // Days are the learner's (learner_day.hpp): "today" began at the rollover hour.
  const LearnerDays learner(store.day_starts_at());
  // Questions loaded now: their cards (history of removed questions stays in the database).
  const Loaded questions = loaded(banks);

  Stats stats;
  stats.now = format_time(now);
  count_reviews(stats, reviews, learner.start_of(learner.day_of(now)));
  count_cards(stats, questions, cards, learner, now);
  stats.topics = topic_mastery(questions, reviews, cards, learner, now);
  for (const SessionRecord& s : listed_exams(store.sessions()))
    stats.exams.push_back(exam_record(s, learner));

  if (const std::optional<FsrsFitRecord> fit = store.fsrs_fit())
    stats.fsrs = {fit->weights, true, format_time(fit->fitted_at), fit->reviews};

  ReadinessViewOptions view;
  view.weights = stats.fsrs.weights;
  view.pass = options.pass;
  const bool latest = !stats.exams.empty() && stats.exams.back().total > 0;
  view.questions = latest ? stats.exams.back().total : options.default_exam_length;
  view.like_latest = latest;
  view.kept_forms = options.kept_forms;
  stats.readiness = readiness_view(banks, questions.topics, reviews, now, view);
  stats.exam_plan = exam_plan_view(store, banks, questions.questions, questions.topics, reviews,
                                   now, view, stats.readiness.overall);
  stats.traps = trap_records(banks, questions, reviews);
  stats.calibration = calibration_view(reviews, banks, options.program);
  return stats;
}

// --- JSON ---------------------------------------------------------------------------------------

namespace {

ordered_json exam_to_json(const ExamRecord& exam) {
  ordered_json topics = ordered_json::object();
  for (const auto& [id, score] : exam.topics)
    topics[id] = {{"correct", score.correct}, {"total", score.total}};
  ordered_json predicted = nullptr;
  if (const auto& p = exam.predicted)
    predicted = {{"readiness", p->readiness},
                 {"low", or_null(p->low)},
                 {"high", or_null(p->high)},
                 {"pass_chance", p->pass_chance}};
  ordered_json json = {{"at", exam.at},
                       {"score", exam.score},
                       {"total", exam.total},
                       {"passed", or_null(exam.passed)},
                       {"minutes", exam.minutes},
                       {"topics", std::move(topics)},
                       {"pass", or_null(exam.pass)},
                       {"allowed_minutes", or_null(exam.allowed_minutes)},
                       {"predicted", std::move(predicted)}};
  if (!exam.date.empty()) json["date"] = exam.date;
  return json;
}

}  // namespace

void to_json(ordered_json& json, const Stats& stats) {
  json["now"] = stats.now;
  json["reviews"] = {{"today", stats.reviews.today},
                     {"total", stats.reviews.total},
                     {"by_mode", stats.reviews.by_mode}};
  json["retention"] = {{"true_retention", or_null(stats.retention.true_retention)},
                       {"reviews", stats.retention.reviews}};
  json["cards"] = {{"learning", stats.cards.learning},
                   {"new", stats.cards.fresh},
                   {"relearning", stats.cards.relearning},
                   {"review", stats.cards.review}};
  ordered_json days = ordered_json::array();
  for (const DueForecast::Day& day : stats.forecast.days)
    days.push_back({{"date", format_date(day.date)}, {"due", day.due}});
  json["forecast"] = {{"overdue", stats.forecast.overdue},
                      {"next_7", stats.forecast.next_7},
                      {"next_30", stats.forecast.next_30},
                      {"days", std::move(days)}};
  json["topics"] = ordered_json::array();
  for (const TopicMastery& t : stats.topics)
    json["topics"].push_back({{"id", t.id},
                              {"name", t.name},
                              {"questions", t.questions},
                              {"seen", t.seen},
                              {"answers", t.answers},
                              {"correct", t.correct},
                              {"accuracy", or_null(t.accuracy)},
                              {"drilled", t.drilled},
                              {"recall", or_null(t.recall)}});
  json["exams"] = ordered_json::array();
  for (const ExamRecord& exam : stats.exams)
    json["exams"].push_back(exam_to_json(exam));
  json["readiness"] = stats.readiness;
  json["traps"] = ordered_json::array();
  for (const TrapRecord& t : stats.traps)
    json["traps"].push_back({{"id", t.id},
                             {"name", t.name},
                             {"exposed", t.exposed},
                             {"fell", t.fell},
                             {"miss_rate", or_null(t.miss_rate)}});
  json["leeches"] = ordered_json::array();
  for (const Leech& leech : stats.leeches)
    json["leeches"].push_back({{"id", leech.id}, {"lapses", leech.lapses}});
  json["fsrs"] = {{"weights", stats.fsrs.weights},
                  {"fitted", stats.fsrs.fitted},
                  {"fitted_at", or_null(stats.fsrs.fitted_at)},
                  {"reviews", or_null(stats.fsrs.reviews)}};
  json["exam_plan"] =
      stats.exam_plan ? nlohmann::ordered_json(*stats.exam_plan) : nlohmann::ordered_json(nullptr);
  json["calibration"] = calibration_json(stats.calibration.rows);
  json["confident_misconceptions"] = misconceptions_json(stats.calibration);
}

// --- text ---------------------------------------------------------------------------------------

namespace {

std::string percent_or_dash(const std::optional<double>& value) {
  return value ? text::percent(*value) : "–";
}

// "12.5", "25": minutes to a tenth, without a trailing ".0".
std::string minutes_text(double minutes) {
  std::string number = fmt::format("{:.1f}", minutes);
  text::strip_trailing_zeros(number);
  return number;
}

// "MM-DD" of a learner date.
std::string month_day(LearnerDate date) {
  return format_date(date).substr(5);
}

// The forecast's day `d` (0: today) in the learner's words, 9 columns: "today", "tomorrow",
// then "Wed 12-09".
std::string forecast_day(LearnerDate date, std::size_t d) {
  if (d < 2) return text::pad_right(d == 0 ? "today" : "tomorrow", 9);
  static constexpr std::array<std::string_view, 7> kWeekdays = {"Sun", "Mon", "Tue", "Wed",
                                                                "Thu", "Fri", "Sat"};
  return fmt::format("{} {}", kWeekdays[std::chrono::weekday(date).c_encoding()], month_day(date));
}

// The first "PASS" or "FAIL" in already wrapped text, styled (a word of its own, so styling it
// after the line breaks cannot move them).
std::string style_verdict(std::string lines, const Theme& theme) {
  for (const auto& [word, style] :
       {std::pair{std::string("PASS"), theme.good}, std::pair{std::string("FAIL"), theme.bad}}) {
    if (const std::size_t at = lines.find(word); at != std::string::npos) {
      lines.replace(at, word.size(), fmt::format(style, "{}", word));
      break;
    }
  }
  return lines;
}

// The due forecast: the next 7 days one by one, then the 30 by week (the last "week" has the 2
// days left, and says so). With no card scheduled yet, or none due in the 30 days, one line says
// that instead of rows of zeros.
std::string render_due(const DueForecast& forecast, bool scheduled, const Theme& theme, int width,
                       const std::string& program) {
  if (!scheduled) {
    return "\n" +
           wrap_labelled("Due:", theme.emphasis,
                         "nothing scheduled — drill schedules cards:", width) +
           text::command_block(program + " drill", width, "    ");
  }
  std::string out =
      "\n" +
      wrap_labelled("Due", theme.emphasis,
                    fmt::format("next 7 days: {} · next 30 days: {} ({}days start at {:02}:00)",
                                forecast.next_7, forecast.next_30,
                                forecast.overdue > 0
                                    ? fmt::format("{} overdue, counted today; ", forecast.overdue)
                                    : std::string(),
                                forecast.day_starts_at),
                    width);
  const std::vector<DueForecast::Day>& days = forecast.days;
  if (forecast.next_30 == 0) return out;  // the headline said it: no rows of zeros
  int most = 1;
  for (const DueForecast::Day& day : days)
    most = std::max(most, day.due);
  // Bars take what the labels and the count leave: "  MM-DD  ███ 12" and
  // "  MM-DD…MM-DD  ███ 12 (2 days)".
  const auto bar = [&](int count, int scale, int label_width) {
    const int bar_width = std::clamp(width - label_width - 6, 1, 40);
    const int cells = count == 0 ? 0 : std::max(1, count * bar_width / scale);
    std::string b;
    for (int i = 0; i < cells; ++i)
      b += "█";
    return b;
  };
  for (std::size_t d = 0; d < 7; ++d) {
    out += fmt::format("  {}  {} {}\n", forecast_day(days[d].date, d),
                       fmt::format(theme.good, "{}", bar(days[d].due, most, 13)), days[d].due);
  }
  const std::size_t day_count = days.size();
  std::vector<int> weeks((day_count + 6) / 7, 0);
  for (std::size_t d = 0; d < day_count; ++d)
    weeks[d / 7] += days[d].due;
  const int most_week = std::max(1, *std::max_element(weeks.begin(), weeks.end()));
  out += "  by week:\n";
  for (std::size_t w = 0; w < weeks.size(); ++w) {
    const std::size_t first = w * 7, last = std::min(day_count - 1, first + 6);
    const std::size_t length = last - first + 1;
    out +=
        fmt::format("  {}…{}  {} {}{}\n", month_day(days[first].date), month_day(days[last].date),
                    fmt::format(theme.good, "{}", bar(weeks[w], most_week, 24)), weeks[w],
                    length == 7 ? std::string() : " (" + text::count(length, "day", "days") + ")");
  }
  return out;
}

std::string render_mastery(const std::vector<TopicMastery>& topics, const Theme& theme, int width) {
  std::string out = "\n" + wrap_labelled("Mastery by topic", theme.emphasis,
                                         "(seen · right · recall now)", width);
  std::vector<std::string> names;
  for (const TopicMastery& topic : topics)
    names.push_back(text::terminal_safe(topic.name));
  const int name_width = text::widest(names);
  for (const TopicMastery& topic : topics) {
    // Padded to "not drilled", so every row's numbers are as wide and the names line up.
    const std::string recall = text::pad_left(
        topic.recall ? text::percent(*topic.recall) : std::string("not drilled"), 11);
    out +=
        text::name_and_numbers(text::terminal_safe(topic.name),
                               fmt::format("{:>3}/{:<3} · {:>4} · {}", topic.seen, topic.questions,
                                           percent_or_dash(topic.accuracy), recall),
                               name_width, width);
  }
  return out;
}

// The name a topic id has in the loaded banks (the id itself for a topic no longer loaded).
std::string topic_name(const Stats& stats, const std::string& id) {
  for (const TopicMastery& topic : stats.topics) {
    if (topic.id == id) return topic.name;
  }
  return id;
}

constexpr std::size_t kExamsShown = 10;  // the latest exams in the text; json has them all
constexpr std::size_t kTrendExams = 5;   // a topic's trend: its latest exams

// One exam's row: in columns when the line fits, else wrapped with the columns' gaps made
// separators.
std::string exam_row(const ExamRecord& exam, std::size_t number_of, int number_width,
                     int score_width, const Theme& theme, int width) {
  std::string verdict = "–";
  if (exam.passed) verdict = *exam.passed ? "PASS" : "FAIL";
  if (exam.pass) verdict += fmt::format(" at {}%", text::format_number(*exam.pass));
  std::string minutes = minutes_text(exam.minutes);
  if (exam.allowed_minutes) minutes += " of " + minutes_text(*exam.allowed_minutes);
  const std::string date = exam.date.empty() ? exam.at.substr(0, 10) : exam.date;
  const std::string right =
      exam.total == 0 ? std::string("–") : text::percent_of(exam.score, exam.total);
  const std::string number = fmt::format("#{}", number_of);
  const std::string columns =
      fmt::format("  {}  {}  {}  {:>4}  {}  {} min\n", text::pad_left(number, number_width), date,
                  text::pad_left(fmt::format("{}/{}", exam.score, exam.total), score_width), right,
                  verdict, minutes);
  return style_verdict(
      text::display_width(columns) <= width
          ? columns
          : text::wrap_block(fmt::format("{} {} {}/{} = {} · {} · {} min", number, date, exam.score,
                                         exam.total, right, verdict, minutes),
                             width, "  ", "    "),
      theme);
}

// What readiness predicted as each exam started, against what came of it.
std::string render_predictions(const std::vector<ExamRecord>& exams, std::size_t first,
                               const Theme& theme, int width) {
  std::string predictions;
  for (std::size_t e = first; e < exams.size(); ++e) {
    const ExamRecord& exam = exams[e];
    if (!exam.predicted || exam.total == 0) continue;
    const ExamRecord::Prediction& p = *exam.predicted;
    const std::string range =
        !p.low ? "" : " (" + text::percent_range(*p.low, p.high.value_or(0)) + ")";
    predictions += text::wrap_block(
        fmt::format("#{}  predicted {}{}, {} chance of passing · scored {}", e + 1,
                    text::percent(p.readiness), range, text::chance_percent(p.pass_chance),
                    text::percent_of(exam.score, exam.total)),
        width, "  ", "    ");
  }
  if (predictions.empty()) return predictions;
  return wrap_labelled("Predicted", theme.emphasis, "(readiness as each exam began · its score)",
                       width) +
         predictions;
}

// Each topic's percent right in its latest exams (those that kept per-topic results): the loaded
// topics in study order, then those no longer loaded by id.
std::string render_topic_trend(const Stats& stats, const Theme& theme, int width) {
  std::vector<std::string> ids;
  for (const TopicMastery& topic : stats.topics)
    ids.push_back(topic.id);
  std::set<std::string> other;
  for (const ExamRecord& exam : stats.exams) {
    for (const auto& [id, score] : exam.topics) {
      if (std::find(ids.begin(), ids.end(), id) == ids.end()) other.insert(id);
    }
  }
  ids.insert(ids.end(), other.begin(), other.end());
  std::vector<std::string> names;
  for (const std::string& id : ids)
    names.push_back(text::terminal_safe(topic_name(stats, id)));
  const int name_width = text::widest(names);
  std::string trend;
  for (const std::string& id : ids) {
    std::vector<std::string> percents;
    for (const ExamRecord& exam : stats.exams) {
      const auto it = exam.topics.find(id);
      if (it == exam.topics.end() || it->second.total == 0) continue;
      percents.push_back(text::percent_of(it->second.correct, it->second.total));
    }
    if (percents.empty()) continue;
    if (percents.size() > kTrendExams)
      percents.erase(percents.begin(), percents.end() - static_cast<std::ptrdiff_t>(kTrendExams));
    std::string numbers;
    for (const std::string& p : percents)
      numbers += (numbers.empty() ? "" : " → ") + p;
    trend += text::name_and_numbers(text::terminal_safe(topic_name(stats, id)), numbers, name_width,
                                    width);
  }
  if (trend.empty()) return trend;
  return wrap_labelled(
             "By topic", theme.emphasis,
             fmt::format("(percent right, oldest → latest, at most {} exams)", kTrendExams),
             width) +
         trend;
}

std::string render_exams(const Stats& stats, const Theme& theme, int width,
                         const std::string& program) {
  const std::vector<ExamRecord>& exams = stats.exams;
  if (exams.empty()) {
    // The command on lines of its own, so it copies whole at any width.
    return "\n" + wrap_labelled("Exams:", theme.emphasis, "none yet — take one, e.g.", width) +
           text::command_block(fmt::format("{} exam --count 20 --minutes 25 --pass {}", program,
                                           text::format_number(stats.readiness.pass)),
                               width, "    ");
  }
  std::string out = "\n" + wrap_labelled("Exams", theme.emphasis,
                                         "(#N: exam --review N · score · pass or fail at its "
                                         "pass mark · minutes)",
                                         width);
  const std::size_t first = exams.size() > kExamsShown ? exams.size() - kExamsShown : 0;
  int score_width = 0;
  // Numbered from 1, oldest first, as `exam --review N` counts them.
  const int number_width = text::display_width(fmt::format("#{}", exams.size()));
  for (std::size_t e = first; e < exams.size(); ++e) {
    score_width = std::max(
        score_width, text::display_width(fmt::format("{}/{}", exams[e].score, exams[e].total)));
  }
  if (first > 0)
    out += text::wrap_block(fmt::format("({} earlier exams: stats --format json)", first), width,
                            "  ", "    ");
  for (std::size_t e = first; e < exams.size(); ++e)
    out += exam_row(exams[e], e + 1, number_width, score_width, theme, width);
  out +=
      text::wrap_block("The latest exam's questions and answers again:", width, "  ", "    ") +
      text::command_block(fmt::format("{} exam --review {}", program, exams.size()), width, "    ");
  return out + render_predictions(exams, first, theme, width) +
         render_topic_trend(stats, theme, width);
}

std::string render_traps(const std::vector<TrapRecord>& traps, const Theme& theme, int width,
                         const std::string& program) {
  std::string out = "\n" + wrap_labelled("Traps you keep falling for", theme.emphasis,
                                         "(worst miss rate first)", width);
  // Three columns: the id whole (it is what --trap takes), the name cut to fit, the counts.
  std::vector<const TrapRecord*> fell;
  std::vector<std::string> numbers;
  int id_width = 0, numbers_width = 0, name_width = 0;
  for (const TrapRecord& trap : traps) {
    if (trap.fell == 0) continue;
    fell.push_back(&trap);
    numbers.push_back(
        fmt::format("{} of {} ({})", trap.fell, trap.exposed, percent_or_dash(trap.miss_rate)));
    id_width = std::max(id_width, text::display_width(text::terminal_safe(trap.id)));
    numbers_width = std::max(numbers_width, text::display_width(numbers.back()));
    name_width = std::max(name_width, text::display_width(text::terminal_safe(trap.name)));
  }
  if (fell.empty()) return out + "  none yet\n";
  // The names whole when the width has room for the longest (cut only when it has not).
  const int room = width - 2 - id_width - 2 - 2 - numbers_width;
  const int name_room = std::min(name_width, room);
  for (std::size_t i = 0; i < fell.size(); ++i) {
    const std::string id = text::terminal_safe(fell[i]->id);
    const std::string name = text::terminal_safe(fell[i]->name);
    if (room >= 16) {
      out += "  " + text::pad_right(id, id_width) + "  " + text::fit(name, name_room) + "  " +
             text::pad_left(numbers[i], numbers_width) + "\n";
    } else {
      out += text::wrap_block(id + " · " + numbers[i], width, "  ", "    ") +
             text::wrap_block(name, width, "    ");
    }
  }
  // The first listed is the trap to practise.
  return out + text::wrap_block("Practise the first (or any, by its id):", width, "  ", "    ") +
         text::command_block(
             fmt::format("{} quiz --trap {}", program, text::shell_word(fell.front()->id)), width,
             "    ");
}

}  // namespace

std::string render_no_progress(const std::filesystem::path& dir, int width) {
  return text::wrap_block(fmt::format("No progress yet at {} — quiz, exam or drill start one "
                                      "(--data-dir or PROOFDECK_HOME choose another folder)",
                                      dir.string()),
                          width, "", "  ");
}

std::string render_stats(const Stats& stats, const Theme& theme, int width,
                         const std::string& program) {
  const auto line = [width](const std::string& plain) {
    return text::wrap_block(plain, width, "", "  ");
  };
  std::string out = wrap_labelled("proofdeck stats", theme.emphasis, "· " + stats.now, width);
  const ReviewCounts& reviews = stats.reviews;
  const auto by_mode = [&](const char* mode) {
    const auto it = reviews.by_mode.find(mode);
    return it == reviews.by_mode.end() ? 0 : it->second;
  };
  out += line(fmt::format(
      "Reviews: {} today · {} in total (quiz {} · exam {} · drill {}{})", reviews.today,
      reviews.total, by_mode("quiz"), by_mode("exam"), by_mode("drill"),
      by_mode("cram") > 0 ? fmt::format(" · cram {}", by_mode("cram")) : std::string()));
  out += line(fmt::format("True retention: {}{}", percent_or_dash(stats.retention.true_retention),
                          stats.retention.reviews > 0
                              ? fmt::format(" of {} drill reviews a day or more after the last",
                                            stats.retention.reviews)
                              : std::string(" (no drill review a day after another yet)")));
  const CardCounts& cards = stats.cards;
  out += line(fmt::format("Cards: {} new · {} learning · {} review · {} relearning", cards.fresh,
                          cards.learning, cards.review, cards.relearning));
  out += line(stats.fsrs.fitted
                  ? fmt::format("Scheduling: FSRS-6 fitted to your {} drill reviews on {} "
                                "(their fit to you: {} drill --evaluate)",
                                text::format_number(stats.fsrs.reviews.value_or(0)),
                                stats.fsrs.fitted_at.value_or("").substr(0, 10), program)
                  : fmt::format("Scheduling: FSRS-6 defaults (their fit to you: {} drill "
                                "--evaluate)",
                                program));
  out += render_due(stats.forecast, cards.scheduled() > 0, theme, width, program);
  out += render_mastery(stats.topics, theme, width);
  out += render_exams(stats, theme, width, program);
  out += render_readiness(stats.readiness, theme, width, program);
  if (stats.exam_plan) out += render_exam_plan(*stats.exam_plan, theme, width, program);
  out += render_traps(stats.traps, theme, width, program);
  out += render_calibration(stats.calibration, theme, width, program);
  std::string list;
  for (const Leech& leech : stats.leeches)
    list += fmt::format("{}{} ({})", list.empty() ? "" : ", ", text::terminal_safe(leech.id),
                        leech.lapses);
  out += "\n" + wrap_labelled("Leeches", theme.emphasis,
                              fmt::format("({}+ lapses): {}", kLeechLapses,
                                          list.empty() ? std::string("none") : list),
                              width);
  return out;
}

}  // namespace proofdeck::study
