// Progress statistics.
#include "study/stats.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/color.h>
#include <fmt/format.h>

#include "study/modes.hpp"
#include "study/session.hpp"
#include "text/escape.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

namespace {

TimePoint day_of(TimePoint t) {
  return std::chrono::floor<std::chrono::days>(t);
}

nlohmann::ordered_json share(int part, int whole) {
  return whole == 0 ? nlohmann::ordered_json(nullptr)
                    : nlohmann::ordered_json(static_cast<double>(part) / whole);
}

std::string percent(const nlohmann::ordered_json& value) {
  return value.is_null() ? "–" : fmt::format("{:.0f}%", 100.0 * value.get<double>());
}

}  // namespace

nlohmann::ordered_json compute_stats(ProgressStore& store, const std::vector<bank::Bank>& banks,
                                     TimePoint now) {
  const std::vector<ReviewRow> reviews = store.reviews();
  const std::map<std::string, Card> cards = store.cards();
  const Scheduler scheduler;
  const TimePoint today = day_of(now);

  nlohmann::ordered_json stats;
  stats["now"] = format_time(now);

  int today_count = 0;
  std::map<std::string, int> by_mode{{"quiz", 0}, {"exam", 0}, {"drill", 0}};
  int retention_reviews = 0, retained = 0;
  for (const ReviewRow& r : reviews) {
    today_count += r.at >= today;
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
  std::map<std::string, const bank::Question*> questions;
  for (const bank::Bank& b : banks) {
    for (const bank::Question& q : b.questions)
      questions.emplace(q.id, &q);
  }
  std::map<std::string, int> states{{"new", 0}, {"learning", 0}, {"review", 0}, {"relearning", 0}};
  std::vector<int> days(30, 0);
  int overdue = 0;
  nlohmann::ordered_json leeches = nlohmann::ordered_json::array();
  for (const auto& [id, q] : questions) {
    const auto it = cards.find(id);
    if (it == cards.end() || it->second.state == CardState::fresh) {
      ++states["new"];
      continue;
    }
    const Card& card = it->second;
    ++states[std::string(state_name(card.state))];
    if (card.due) {
      if (*card.due < now) ++overdue;
      const auto day = std::max<std::int64_t>(
          0, std::chrono::duration_cast<std::chrono::days>(day_of(*card.due) - today).count());
      if (day < 30) ++days[static_cast<std::size_t>(day)];
    }
    if (card.lapses >= kLeechLapses) leeches.push_back({{"id", id}, {"lapses", card.lapses}});
  }
  stats["cards"] = states;
  nlohmann::ordered_json forecast_days = nlohmann::ordered_json::array();
  int next_7 = 0, next_30 = 0;
  for (std::size_t d = 0; d < days.size(); ++d) {
    forecast_days.push_back(
        {{"date", format_time(today + std::chrono::days(d)).substr(0, 10)}, {"due", days[d]}});
    if (d < 7) next_7 += days[d];
    next_30 += days[d];
  }
  stats["forecast"] = {
      {"overdue", overdue}, {"next_7", next_7}, {"next_30", next_30}, {"days", forecast_days}};

  // Mastery per topic.
  nlohmann::ordered_json topics = nlohmann::ordered_json::array();
  std::map<std::string, std::pair<int, int>> answers_by_topic;  // topic → (correct, answers)
  for (const ReviewRow& r : reviews) {
    const auto it = questions.find(r.card);
    const std::string topic = it != questions.end() ? it->second->topic : r.topic;
    answers_by_topic[topic].first += r.correct;
    ++answers_by_topic[topic].second;
  }
  std::set<std::string> seen_cards;
  for (const ReviewRow& r : reviews)
    seen_cards.insert(r.card);
  std::set<std::string> listed;
  for (const bank::Bank& b : banks) {
    for (const bank::Topic& topic : b.topics) {
      if (!listed.insert(topic.id).second) continue;
      int count = 0, seen = 0, drilled = 0;
      double recall = 0.0;
      for (const auto& [id, q] : questions) {
        if (q->topic != topic.id) continue;
        ++count;
        seen += seen_cards.contains(id);
        if (const auto it = cards.find(id);
            it != cards.end() && it->second.last_review && it->second.stability > 0) {
          ++drilled;
          recall += scheduler.retrievability(it->second, now);
        }
      }
      if (count == 0) continue;
      const auto [correct, answered] = answers_by_topic[topic.id];
      topics.push_back({{"id", topic.id},
                        {"name", topic.name},
                        {"questions", count},
                        {"seen", seen},
                        {"answers", answered},
                        {"correct", correct},
                        {"accuracy", share(correct, answered)},
                        {"drilled", drilled},
                        {"recall", drilled == 0 ? nlohmann::ordered_json(nullptr)
                                                : nlohmann::ordered_json(recall / drilled)}});
    }
  }
  stats["topics"] = std::move(topics);

  // Traps: how often a question that could catch the learner in it was answered, and how often
  // it did.
  std::map<std::string, std::pair<int, int>> trap_counts;  // trap → (fell, exposed)
  for (const ReviewRow& r : reviews) {
    if (const auto it = questions.find(r.card); it != questions.end()) {
      for (const std::string& trap : question_traps(*it->second))
        ++trap_counts[trap].second;
    }
    if (!r.trap.empty()) ++trap_counts[r.trap].first;
  }
  std::vector<std::pair<std::string, std::pair<int, int>>> ordered(trap_counts.begin(),
                                                                   trap_counts.end());
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
    const double ra =
        a.second.second == 0 ? 0 : static_cast<double>(a.second.first) / a.second.second;
    const double rb =
        b.second.second == 0 ? 0 : static_cast<double>(b.second.first) / b.second.second;
    if (a.second.first != b.second.first) return a.second.first > b.second.first;
    return ra > rb;
  });
  nlohmann::ordered_json traps = nlohmann::ordered_json::array();
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
  stats["traps"] = std::move(traps);
  stats["leeches"] = std::move(leeches);
  return stats;
}

std::string render_stats(const nlohmann::ordered_json& stats, const Theme& theme, int width) {
  const auto line = [width](const std::string& plain) {
    return text::wrap_block(plain, width, "", "  ");
  };
  std::string text = wrap_labelled("proofdeck stats", theme.emphasis,
                                   "· " + stats["now"].get<std::string>(), width);
  const auto& reviews = stats["reviews"];
  text += line(fmt::format(
      "Reviews: {} today · {} in total (quiz {} · exam {} · drill {})", reviews["today"].get<int>(),
      reviews["total"].get<int>(), reviews["by_mode"]["quiz"].get<int>(),
      reviews["by_mode"]["exam"].get<int>(), reviews["by_mode"]["drill"].get<int>()));
  const auto& retention = stats["retention"];
  text += line(fmt::format("True retention: {}{}", percent(retention["true_retention"]),
                           retention["reviews"].get<int>() > 0
                               ? fmt::format(" of {} drill reviews a day or more after the last",
                                             retention["reviews"].get<int>())
                               : std::string(" (no drill review a day after another yet)")));
  const auto& cards = stats["cards"];
  text += line(fmt::format("Cards: {} new · {} learning · {} review · {} relearning",
                           cards["new"].get<int>(), cards["learning"].get<int>(),
                           cards["review"].get<int>(), cards["relearning"].get<int>()));
  const auto& forecast = stats["forecast"];
  text += "\n" +
          wrap_labelled("Due", theme.emphasis,
                        fmt::format("next 7 days: {} · next 30 days: {}{}",
                                    forecast["next_7"].get<int>(), forecast["next_30"].get<int>(),
                                    forecast["overdue"].get<int>() > 0
                                        ? fmt::format(" ({} overdue, counted today)",
                                                      forecast["overdue"].get<int>())
                                        : std::string()),
                        width);
  int most = 1;
  for (const auto& day : forecast["days"])
    most = std::max(most, day["due"].get<int>());
  // Bars take what the date and the count leave: "  MM-DD  ███ 12" and "  MM-DD…MM-DD  ███ 12".
  const auto bar = [&](int count, int scale, int label_width) {
    const int bar_width = std::clamp(width - label_width - 6, 1, 40);
    const int cells = count == 0 ? 0 : std::max(1, count * bar_width / scale);
    std::string b;
    for (int i = 0; i < cells; ++i)
      b += "█";
    return b;
  };
  for (std::size_t d = 0; d < 7; ++d) {
    const auto& day = forecast["days"][d];
    text += fmt::format("  {}  {} {}\n", day["date"].get<std::string>().substr(5),
                        fmt::format(theme.good, "{}", bar(day["due"].get<int>(), most, 9)),
                        day["due"].get<int>());
  }
  std::vector<int> weeks(5, 0);
  for (std::size_t d = 0; d < 30; ++d)
    weeks[d / 7] += forecast["days"][d]["due"].get<int>();
  const int most_week = std::max(1, *std::max_element(weeks.begin(), weeks.end()));
  text += "  by week:\n";
  for (std::size_t w = 0; w < weeks.size(); ++w) {
    const std::size_t first = w * 7, last = std::min<std::size_t>(29, first + 6);
    text += fmt::format("  {}…{}  {} {}\n",
                        forecast["days"][first]["date"].get<std::string>().substr(5),
                        forecast["days"][last]["date"].get<std::string>().substr(5),
                        fmt::format(theme.good, "{}", bar(weeks[w], most_week, 15)), weeks[w]);
  }
  // A name and its numbers on one line, the name cut to what the numbers leave (at most
  // `widest`); below 16 columns for the name, the numbers go on a line of their own.
  const auto row = [width](const std::string& name, const std::string& numbers, int widest) {
    const int room = std::min(widest, width - 3 - text::display_width(numbers));
    if (room >= 16) return "  " + text::fit(name, room) + " " + numbers + "\n";
    const int indent = std::clamp(width - text::display_width(numbers), 0, 6);
    return text::wrap_block(name, width, "  ", "    ") +
           std::string(static_cast<std::size_t>(indent), ' ') + numbers + "\n";
  };
  text += "\n" +
          wrap_labelled("Mastery by topic", theme.emphasis, "(seen · right · recall now)", width);
  for (const auto& topic : stats["topics"]) {
    // Padded to "not drilled", so every row's numbers are as wide and the names line up.
    const std::string recall = text::pad_left(
        topic["recall"].is_null() ? std::string("not drilled") : percent(topic["recall"]), 11);
    text += row(text::terminal_safe(topic["name"].get<std::string>()),
                fmt::format("{:>3}/{:<3} · {:>4} · {}", topic["seen"].get<int>(),
                            topic["questions"].get<int>(), percent(topic["accuracy"]), recall),
                46);
  }
  text += "\n" + wrap_labelled("Traps you keep falling for", theme.emphasis,
                               "(worst first · proofdeck quiz --trap ID)", width);
  // Three columns: the id whole (it is what --trap takes), the name cut to fit, the counts.
  int id_width = 0, numbers_width = 0;
  std::vector<std::string> numbers;
  for (const auto& trap : stats["traps"]) {
    if (trap["fell"].get<int>() == 0) continue;
    numbers.push_back(fmt::format("{} of {} ({})", trap["fell"].get<int>(),
                                  trap["exposed"].get<int>(), percent(trap["miss_rate"])));
    id_width =
        std::max(id_width, text::display_width(text::terminal_safe(trap["id"].get<std::string>())));
    numbers_width = std::max(numbers_width, text::display_width(numbers.back()));
  }
  const int name_room = std::min(44, width - 2 - id_width - 2 - 2 - numbers_width);
  std::size_t shown = 0;
  for (const auto& trap : stats["traps"]) {
    if (trap["fell"].get<int>() == 0) continue;
    const std::string id = text::terminal_safe(trap["id"].get<std::string>());
    const std::string name = text::terminal_safe(trap["name"].get<std::string>());
    const std::string& counts = numbers[shown++];
    if (name_room >= 16) {
      text += "  " + text::pad_right(id, id_width) + "  " + text::fit(name, name_room) + "  " +
              text::pad_left(counts, numbers_width) + "\n";
    } else {
      text += text::wrap_block(id + " · " + counts, width, "  ", "    ") +
              text::wrap_block(name, width, "    ");
    }
  }
  if (shown == 0) text += "  none yet\n";
  std::string list;
  for (const auto& leech : stats["leeches"])
    list += fmt::format("{}{} ({})", list.empty() ? "" : ", ",
                        text::terminal_safe(leech["id"].get<std::string>()),
                        leech["lapses"].get<int>());
  text += "\n" + wrap_labelled("Leeches", theme.emphasis,
                               fmt::format("({}+ lapses): {}", kLeechLapses,
                                           list.empty() ? std::string("none") : list),
                               width);
  return text;
}

}  // namespace proofdeck::study
