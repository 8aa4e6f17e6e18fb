// Progress statistics: what compute_stats reads off the progress database, and the text
// render_stats lays out at a width.
#include "study/stats.hpp"

#include <algorithm>
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

ordered_json share(int part, int whole) {
  return whole == 0 ? ordered_json(nullptr) : ordered_json(static_cast<double>(part) / whole);
}

std::string percent(const ordered_json& value) {
  return value.is_null() ? "–" : text::percent(value.get<double>());
}

// "12.5", "25": minutes to a tenth, without a trailing ".0".
std::string minutes_text(double minutes) {
  std::string number = fmt::format("{:.1f}", minutes);
  text::strip_trailing_zeros(number);
  return number;
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

ordered_json or_null(const std::optional<double>& value) {
  return value ? ordered_json(*value) : ordered_json(nullptr);
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

// Each completed exam (ended, not interrupted), oldest first.
ordered_json exam_history(const std::vector<SessionRecord>& sessions) {
  ordered_json exams = ordered_json::array();
  for (const SessionRecord& s : listed_exams(sessions)) {
    const nlohmann::json settings = parse_object(s.settings);
    const nlohmann::json result = parse_object(s.result);
    const std::optional<double> pass =
        either(number_at(result, "pass"), number_at(settings, "pass"));
    const std::optional<double> allowed =
        either(number_at(result, "allowed_minutes"), number_at(settings, "minutes"));
    const double minutes =
        number_at(result, "minutes")
            .value_or(static_cast<double>((*s.ended - s.started).count()) / 60.0);
    ordered_json topics = ordered_json::object();
    if (const auto it = result.find("topics"); it != result.end() && it->is_object()) {
      for (const auto& [id, counts] : it->items()) {
        if (!counts.is_object()) continue;
        const std::optional<double> correct = number_at(counts, "correct");
        const std::optional<double> total = number_at(counts, "total");
        if (!correct || !total) continue;
        topics[id] = {{"correct", static_cast<int>(*correct)}, {"total", static_cast<int>(*total)}};
      }
    }
    ordered_json passed = nullptr;
    if (s.passed) {
      passed = *s.passed;
    } else if (pass && s.total > 0) {
      passed = 100.0 * s.correct / s.total + 1e-9 >= *pass;
    }
    // What readiness predicted as it started (exams since 0.3.0).
    ordered_json predicted = nullptr;
    if (const auto it = settings.find("predicted"); it != settings.end() && it->is_object()) {
      const auto readiness = number_at(*it, "readiness");
      const auto chance = number_at(*it, "pass_chance");
      if (readiness && chance) {
        predicted = {{"readiness", *readiness},
                     {"low", or_null(number_at(*it, "low"))},
                     {"high", or_null(number_at(*it, "high"))},
                     {"pass_chance", *chance}};
      }
    }
    exams.push_back({{"at", format_time(s.started)},
                     {"score", s.correct},
                     {"total", s.total},
                     {"passed", passed},
                     {"minutes", minutes},
                     {"topics", std::move(topics)},
                     {"pass", or_null(pass)},
                     {"allowed_minutes", or_null(allowed)},
                     {"predicted", std::move(predicted)}});
  }
  return exams;
}

// Traps: how often a question that could catch the learner in it was answered, and how often it
// did, worst first.
ordered_json traps_json(const std::vector<bank::Bank>& banks, const Loaded& questions,
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
  ordered_json traps = ordered_json::array();
  for (const auto& [id, counts] : ordered) {
    std::string name = id;
    for (const bank::Bank& b : banks) {
      if (const bank::Trap* trap = b.find_trap(id)) name = trap->name;
    }
    traps.push_back({{"id", id},
                     {"name", name},
                     {"exposed", counts.second},
                     {"fell", counts.first},
                     {"miss_rate", share(counts.first, std::max(counts.first, counts.second))}});
  }
  return traps;
}

}  // namespace

ordered_json compute_stats(ProgressStore& store, const std::vector<bank::Bank>& banks,
                           TimePoint now, const StatsOptions& options) {
  const std::vector<ReviewRow> reviews = store.reviews();
  const std::map<std::string, Card> cards = store.cards();
  const Scheduler scheduler;
  // Days are the learner's (learner_day.hpp): "today" began at the rollover hour.
  const LearnerDays learner(store.day_starts_at());
  const LearnerDate today = learner.day_of(now);
  const TimePoint today_began = learner.start_of(today);

  ordered_json stats;
  stats["now"] = format_time(now);

  int today_count = 0;
  std::map<std::string, int> by_mode{{"quiz", 0}, {"exam", 0}, {"drill", 0}};
  int retention_reviews = 0, retained = 0;
  for (const ReviewRow& r : reviews) {
    today_count += r.at >= today_began;
    ++by_mode[r.mode];
    if (r.mode == "drill" && r.elapsed_days && *r.elapsed_days >= 1) {
      ++retention_reviews;
      retained += r.correct;
    }
  }
  stats["reviews"] = {{"today", today_count}, {"total", reviews.size()}, {"by_mode", by_mode}};
  stats["retention"] = {{"true_retention", share(retained, retention_reviews)},
                        {"reviews", retention_reviews}};

  // Questions loaded now: their cards (history of removed questions stays in the database).
  const Loaded questions = loaded(banks);
  std::map<std::string, int> states{{"new", 0}, {"learning", 0}, {"review", 0}, {"relearning", 0}};
  std::vector<int> days(30, 0);
  int overdue = 0;
  ordered_json leeches = ordered_json::array();
  for (const auto& [id, q] : questions.by_id) {
    const auto it = cards.find(id);
    if (it == cards.end() || it->second.state == CardState::fresh) {
      ++states["new"];
      continue;
    }
    const Card& card = it->second;
    ++states[std::string(state_name(card.state))];
    if (card.due) {
      // By learner day: overdue when due on a day before today (counted today).
      const int day = learner.days_between(now, *card.due);
      overdue += day < 0;
      if (day < 30) ++days[static_cast<std::size_t>(std::max(0, day))];
    }
    if (card.lapses >= kLeechLapses) leeches.push_back({{"id", id}, {"lapses", card.lapses}});
  }
  stats["cards"] = states;
  ordered_json forecast_days = ordered_json::array();
  int next_7 = 0, next_30 = 0;
  for (std::size_t d = 0; d < days.size(); ++d) {
    forecast_days.push_back(
        {{"date", format_date(today + std::chrono::days(d))}, {"due", days[d]}});
    if (d < 7) next_7 += days[d];
    next_30 += days[d];
  }
  stats["forecast"] = {
      {"overdue", overdue}, {"next_7", next_7}, {"next_30", next_30}, {"days", forecast_days}};

  // Mastery per topic: answers of every mode, and recall over the cards drill has scheduled.
  ordered_json topics = ordered_json::array();
  std::map<std::string, std::pair<int, int>> answers_by_topic;  // topic → (correct, answers)
  std::set<std::string> seen_cards;
  for (const ReviewRow& r : reviews) {
    const auto it = questions.by_id.find(r.card);
    const std::string topic = it != questions.by_id.end() ? it->second->topic : r.topic;
    answers_by_topic[topic].first += r.correct;
    ++answers_by_topic[topic].second;
    seen_cards.insert(r.card);
  }
  for (const bank::Topic* topic : questions.topics) {
    int count = 0, seen = 0, drilled_cards = 0;
    double recall = 0.0;
    for (const bank::Question* q : questions.questions) {
      if (q->topic != topic->id) continue;
      ++count;
      seen += seen_cards.contains(q->id);
      if (const auto it = cards.find(q->id); it != cards.end() && drilled(it->second)) {
        ++drilled_cards;
        recall += learner.retrievability(scheduler, it->second, now);
      }
    }
    const auto [correct, answered] = answers_by_topic[topic->id];
    topics.push_back({{"id", topic->id},
                      {"name", topic->name},
                      {"questions", count},
                      {"seen", seen},
                      {"answers", answered},
                      {"correct", correct},
                      {"accuracy", share(correct, answered)},
                      {"drilled", drilled_cards},
                      {"recall", drilled_cards == 0 ? ordered_json(nullptr)
                                                    : ordered_json(recall / drilled_cards)}});
  }
  stats["topics"] = std::move(topics);

  stats["exams"] = exam_history(store.sessions());
  for (ordered_json& exam : stats["exams"]) {
    // The learner's date it was taken on (an exam at 01:00 belongs to the evening before).
    if (const auto taken = parse_time(exam["at"].get<std::string>()))
      exam["date"] = learner.label(*taken);
  }
  std::optional<int> latest_exam;
  if (!stats["exams"].empty() && stats["exams"].back()["total"].get<int>() > 0)
    latest_exam = stats["exams"].back()["total"].get<int>();
  ReadinessViewOptions view;
  view.pass = options.pass;
  view.questions = latest_exam.value_or(options.default_exam_length);
  view.like_latest = latest_exam.has_value();
  stats["readiness"] = readiness_json(banks, questions.topics, reviews, now, view);

  stats["traps"] = traps_json(banks, questions, reviews);

  stats["leeches"] = std::move(leeches);
  return stats;
}

// --- text
// -----------------------------------------------------------------------------------------

namespace {

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
std::string render_due(const ordered_json& forecast, bool scheduled, const Theme& theme, int width,
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
                    fmt::format("next 7 days: {} · next 30 days: {}{}",
                                forecast["next_7"].get<int>(), forecast["next_30"].get<int>(),
                                forecast["overdue"].get<int>() > 0
                                    ? fmt::format(" ({} overdue, counted today)",
                                                  forecast["overdue"].get<int>())
                                    : std::string()),
                    width);
  const ordered_json& days = forecast["days"];
  if (forecast["next_30"].get<int>() == 0) return out;  // the headline said it: no rows of zeros
  int most = 1;
  for (const auto& day : days)
    most = std::max(most, day["due"].get<int>());
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
    const auto& day = days[d];
    out += fmt::format("  {}  {} {}\n", day["date"].get<std::string>().substr(5),
                       fmt::format(theme.good, "{}", bar(day["due"].get<int>(), most, 9)),
                       day["due"].get<int>());
  }
  const std::size_t day_count = days.size();
  std::vector<int> weeks((day_count + 6) / 7, 0);
  for (std::size_t d = 0; d < day_count; ++d)
    weeks[d / 7] += days[d]["due"].get<int>();
  const int most_week = std::max(1, *std::max_element(weeks.begin(), weeks.end()));
  out += "  by week:\n";
  for (std::size_t w = 0; w < weeks.size(); ++w) {
    const std::size_t first = w * 7, last = std::min(day_count - 1, first + 6);
    const std::size_t length = last - first + 1;
    out += fmt::format("  {}…{}  {} {}{}\n", days[first]["date"].get<std::string>().substr(5),
                       days[last]["date"].get<std::string>().substr(5),
                       fmt::format(theme.good, "{}", bar(weeks[w], most_week, 24)), weeks[w],
                       length == 7   ? std::string()
                       : length == 1 ? std::string(" (1 day)")
                                     : fmt::format(" ({} days)", length));
  }
  return out;
}

std::string render_mastery(const ordered_json& topics, const Theme& theme, int width) {
  std::string out = "\n" + wrap_labelled("Mastery by topic", theme.emphasis,
                                         "(seen · right · recall now)", width);
  for (const auto& topic : topics) {
    // Padded to "not drilled", so every row's numbers are as wide and the names line up.
    const std::string recall = text::pad_left(
        topic["recall"].is_null() ? std::string("not drilled") : percent(topic["recall"]), 11);
    out += text::name_and_numbers(
        text::terminal_safe(topic["name"].get<std::string>()),
        fmt::format("{:>3}/{:<3} · {:>4} · {}", topic["seen"].get<int>(),
                    topic["questions"].get<int>(), percent(topic["accuracy"]), recall),
        46, width);
  }
  return out;
}

// The name a topic id has in the loaded banks (the id itself for a topic no longer loaded).
std::string topic_name(const ordered_json& stats, const std::string& id) {
  for (const auto& topic : stats["topics"]) {
    if (topic["id"] == id) return topic["name"].get<std::string>();
  }
  return id;
}

constexpr std::size_t kExamsShown = 10;  // the latest exams in the text; json has them all
constexpr std::size_t kTrendExams = 5;   // a topic's trend: its latest exams

std::string render_exams(const ordered_json& stats, double pass, const Theme& theme, int width,
                         const std::string& program) {
  const ordered_json& exams = stats["exams"];
  if (exams.empty()) {
    // The command on lines of its own, so it copies whole at any width.
    return "\n" + wrap_labelled("Exams:", theme.emphasis, "none yet — take one, e.g.", width) +
           text::command_block(fmt::format("{} exam --count 20 --minutes 25 --pass {}", program,
                                           text::format_number(pass)),
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
    score_width =
        std::max(score_width, text::display_width(fmt::format("{}/{}", exams[e]["score"].get<int>(),
                                                              exams[e]["total"].get<int>())));
  }
  if (first > 0)
    out += text::wrap_block(fmt::format("({} earlier exams: stats --format json)", first), width,
                            "  ", "    ");
  for (std::size_t e = first; e < exams.size(); ++e) {
    const ordered_json& exam = exams[e];
    const int score = exam["score"].get<int>(), total = exam["total"].get<int>();
    std::string verdict = "–";
    if (!exam["passed"].is_null()) verdict = exam["passed"].get<bool>() ? "PASS" : "FAIL";
    if (!exam["pass"].is_null())
      verdict += fmt::format(" at {}%", text::format_number(exam["pass"].get<double>()));
    std::string minutes = minutes_text(exam["minutes"].get<double>());
    if (!exam["allowed_minutes"].is_null())
      minutes += " of " + minutes_text(exam["allowed_minutes"].get<double>());
    const std::string date = exam.contains("date") ? exam["date"].get<std::string>()
                                                   : exam["at"].get<std::string>().substr(0, 10);
    const std::string share =
        total == 0 ? std::string("–") : fmt::format("{:.0f}%", 100.0 * score / total);
    // In columns when the line fits, else wrapped with the columns' gaps made separators.
    const std::string number = fmt::format("#{}", e + 1);
    const std::string columns = fmt::format(
        "  {}  {}  {}  {:>4}  {}  {} min\n", text::pad_left(number, number_width), date,
        text::pad_left(fmt::format("{}/{}", score, total), score_width), share, verdict, minutes);
    out += style_verdict(
        text::display_width(columns) <= width
            ? columns
            : text::wrap_block(fmt::format("{} {} {}/{} = {} · {} · {} min", number, date, score,
                                           total, share, verdict, minutes),
                               width, "  ", "    "),
        theme);
  }
  out +=
      text::wrap_block("The latest exam's questions and answers again:", width, "  ", "    ") +
      text::command_block(fmt::format("{} exam --review {}", program, exams.size()), width, "    ");

  // What readiness predicted as each exam started, against what came of it.
  std::string predictions;
  for (std::size_t e = first; e < exams.size(); ++e) {
    const ordered_json& exam = exams[e];
    if (exam["predicted"].is_null() || exam["total"].get<int>() == 0) continue;
    const ordered_json& p = exam["predicted"];
    const std::string range = p["low"].is_null()
                                  ? ""
                                  : fmt::format(" ({:.0f}–{:.0f})", 100.0 * p["low"].get<double>(),
                                                100.0 * p["high"].get<double>());
    predictions += text::wrap_block(
        fmt::format("#{}  predicted {:.0f}%{}, {} chance of passing · scored {:.0f}%", e + 1,
                    100.0 * p["readiness"].get<double>(), range,
                    text::chance_percent(p["pass_chance"].get<double>()),
                    100.0 * exam["score"].get<int>() / exam["total"].get<int>()),
        width, "  ", "    ");
  }
  if (!predictions.empty())
    out += wrap_labelled("Predicted", theme.emphasis, "(readiness as each exam began · its score)",
                         width) +
           predictions;

  // Each topic's percent right in its latest exams (those that kept per-topic results).
  std::vector<std::string> ids;
  for (const auto& topic : stats["topics"])
    ids.push_back(topic["id"].get<std::string>());
  std::set<std::string> other;
  for (const auto& exam : exams) {
    for (const auto& [id, counts] : exam["topics"].items()) {
      if (std::find(ids.begin(), ids.end(), id) == ids.end()) other.insert(id);
    }
  }
  ids.insert(ids.end(), other.begin(), other.end());
  std::string trend;
  for (const std::string& id : ids) {
    std::vector<std::string> percents;
    for (const auto& exam : exams) {
      const auto it = exam["topics"].find(id);
      if (it == exam["topics"].end() || (*it)["total"].get<int>() == 0) continue;
      percents.push_back(
          fmt::format("{:.0f}%", 100.0 * (*it)["correct"].get<int>() / (*it)["total"].get<int>()));
    }
    if (percents.empty()) continue;
    if (percents.size() > kTrendExams)
      percents.erase(percents.begin(), percents.end() - static_cast<std::ptrdiff_t>(kTrendExams));
    std::string numbers;
    for (const std::string& p : percents)
      numbers += (numbers.empty() ? "" : " → ") + p;
    trend += text::name_and_numbers(text::terminal_safe(topic_name(stats, id)), numbers, 46, width);
  }
  if (!trend.empty()) {
    out +=
        wrap_labelled(
            "By topic", theme.emphasis,
            fmt::format("(percent right, oldest → latest, at most {} exams)", kTrendExams), width) +
        trend;
  }
  return out;
}

std::string render_traps(const ordered_json& traps, const Theme& theme, int width,
                         const std::string& program) {
  std::string out = "\n" + wrap_labelled("Traps you keep falling for", theme.emphasis,
                                         "(worst miss rate first)", width);
  // Three columns: the id whole (it is what --trap takes), the name cut to fit, the counts.
  int id_width = 0, numbers_width = 0;
  std::vector<std::string> numbers;
  for (const auto& trap : traps) {
    if (trap["fell"].get<int>() == 0) continue;
    numbers.push_back(fmt::format("{} of {} ({})", trap["fell"].get<int>(),
                                  trap["exposed"].get<int>(), percent(trap["miss_rate"])));
    id_width =
        std::max(id_width, text::display_width(text::terminal_safe(trap["id"].get<std::string>())));
    numbers_width = std::max(numbers_width, text::display_width(numbers.back()));
  }
  if (numbers.empty()) return out + "  none yet\n";
  std::string worst;  // the first listed: the trap to practise
  for (const auto& trap : traps) {
    if (trap["fell"].get<int>() > 0 && worst.empty()) worst = trap["id"].get<std::string>();
  }
  const int name_room = std::min(44, width - 2 - id_width - 2 - 2 - numbers_width);
  std::size_t shown = 0;
  for (const auto& trap : traps) {
    if (trap["fell"].get<int>() == 0) continue;
    const std::string id = text::terminal_safe(trap["id"].get<std::string>());
    const std::string name = text::terminal_safe(trap["name"].get<std::string>());
    const std::string& counts = numbers[shown++];
    if (name_room >= 16) {
      out += "  " + text::pad_right(id, id_width) + "  " + text::fit(name, name_room) + "  " +
             text::pad_left(counts, numbers_width) + "\n";
    } else {
      out += text::wrap_block(id + " · " + counts, width, "  ", "    ") +
             text::wrap_block(name, width, "    ");
    }
  }
  return out + text::wrap_block("Practise the first (or any, by its id):", width, "  ", "    ") +
         text::command_block(fmt::format("{} quiz --trap {}", program, text::shell_word(worst)),
                             width, "    ");
}

}  // namespace

std::string render_no_progress(const std::filesystem::path& dir, int width) {
  return text::wrap_block(fmt::format("No progress yet at {} — quiz, exam or drill start one "
                                      "(--data-dir or PROOFDECK_HOME choose another folder)",
                                      dir.string()),
                          width, "", "  ");
}

std::string render_stats(const ordered_json& stats, const Theme& theme, int width,
                         const std::string& program) {
  const auto line = [width](const std::string& plain) {
    return text::wrap_block(plain, width, "", "  ");
  };
  std::string out = wrap_labelled("proofdeck stats", theme.emphasis,
                                  "· " + stats["now"].get<std::string>(), width);
  const auto& reviews = stats["reviews"];
  out += line(fmt::format(
      "Reviews: {} today · {} in total (quiz {} · exam {} · drill {})", reviews["today"].get<int>(),
      reviews["total"].get<int>(), reviews["by_mode"]["quiz"].get<int>(),
      reviews["by_mode"]["exam"].get<int>(), reviews["by_mode"]["drill"].get<int>()));
  const auto& retention = stats["retention"];
  out += line(fmt::format("True retention: {}{}", percent(retention["true_retention"]),
                          retention["reviews"].get<int>() > 0
                              ? fmt::format(" of {} drill reviews a day or more after the last",
                                            retention["reviews"].get<int>())
                              : std::string(" (no drill review a day after another yet)")));
  const auto& cards = stats["cards"];
  out += line(fmt::format("Cards: {} new · {} learning · {} review · {} relearning",
                          cards["new"].get<int>(), cards["learning"].get<int>(),
                          cards["review"].get<int>(), cards["relearning"].get<int>()));
  const bool scheduled =
      cards["learning"].get<int>() + cards["review"].get<int>() + cards["relearning"].get<int>() >
      0;
  out += render_due(stats["forecast"], scheduled, theme, width, program);
  out += render_mastery(stats["topics"], theme, width);
  out += render_exams(stats, stats["readiness"]["pass"].get<double>(), theme, width, program);
  out += render_readiness(stats["readiness"], theme, width, program);
  out += render_traps(stats["traps"], theme, width, program);
  std::string list;
  for (const auto& leech : stats["leeches"])
    list += fmt::format("{}{} ({})", list.empty() ? "" : ", ",
                        text::terminal_safe(leech["id"].get<std::string>()),
                        leech["lapses"].get<int>());
  out += "\n" + wrap_labelled("Leeches", theme.emphasis,
                              fmt::format("({}+ lapses): {}", kLeechLapses,
                                          list.empty() ? std::string("none") : list),
                              width);
  return out;
}

}  // namespace proofdeck::study
