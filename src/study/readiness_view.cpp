// stats' readiness section (readiness_view.hpp): the estimate with what it rests on, and what to
// study next.
#include "study/readiness_view.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "study/readiness.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

using nlohmann::ordered_json;

namespace {

ordered_json value_or_null(bool known, double value) {
  return known ? ordered_json(value) : ordered_json(nullptr);
}

// What the learner should study next: the weakest topic answered, the topics with unseen
// objectives (most unseen first) and the traps a question's latest answer still falls into.
ordered_json next_json(const std::vector<bank::Bank>& banks, const ordered_json& topics,
                       const ordered_json& objectives, const std::vector<ReviewRow>& reviews,
                       TimePoint now) {
  ordered_json weakest = nullptr;
  for (const auto& topic : topics) {
    if (topic["seen"].get<int>() == 0) continue;
    if (weakest.is_null() || topic["readiness"].get<double>() < weakest["readiness"].get<double>())
      weakest = {{"id", topic["id"]}, {"name", topic["name"]}, {"readiness", topic["readiness"]}};
  }
  std::map<std::string, std::pair<int, int>> unseen;  // topic → (unseen objectives, objectives)
  for (const auto& objective : objectives) {
    auto& [missing, all] = unseen[objective["topic"].get<std::string>()];
    missing += objective["answered"].get<int>() == 0;
    ++all;
  }
  ordered_json unseen_topics = ordered_json::array();
  for (const auto& topic : topics) {
    const auto [missing, all] = unseen[topic["id"].get<std::string>()];
    if (missing > 0) {
      unseen_topics.push_back(
          {{"id", topic["id"]}, {"name", topic["name"]}, {"unseen", missing}, {"objectives", all}});
    }
  }
  std::stable_sort(unseen_topics.begin(), unseen_topics.end(), [](const auto& a, const auto& b) {
    return a["unseen"].template get<int>() > b["unseen"].template get<int>();
  });
  // A trap is held while some question's latest answer fell into it.
  std::map<std::string, const ReviewRow*> latest;
  for (const ReviewRow& r : reviews)
    if (r.at <= now) latest[r.card] = &r;
  std::map<std::string, int> held;
  for (const auto& [card, row] : latest)
    if (!row->correct && !row->trap.empty()) ++held[row->trap];
  std::vector<std::pair<std::string, int>> ranked(held.begin(), held.end());
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  ordered_json traps = ordered_json::array();
  for (const auto& [id, count] : ranked) {
    const bank::Trap* trap = nullptr;
    for (const bank::Bank& b : banks)
      if (trap == nullptr) trap = b.find_trap(id);
    if (trap == nullptr) continue;  // a trap no loaded bank has any more
    traps.push_back({{"id", id}, {"name", trap->name}, {"held", count}});
  }
  return {{"weakest_topic", weakest},
          {"unseen_topics", std::move(unseen_topics)},
          {"traps", std::move(traps)}};
}

}  // namespace

ordered_json readiness_json(const std::vector<bank::Bank>& banks,
                            const std::vector<const bank::Topic*>& topic_order,
                            const std::vector<ReviewRow>& reviews, TimePoint now,
                            const ReadinessViewOptions& options) {
  ReadinessOptions estimate_options;
  estimate_options.pass = options.pass;
  estimate_options.questions = options.questions;
  const Readiness r = estimate_readiness(banks, reviews, now, estimate_options);

  std::map<std::string, const TopicReadiness*> topic_of;
  for (const TopicReadiness& t : r.by_topic)
    topic_of[t.id] = &t;
  ordered_json topics = ordered_json::array();
  const bank::Topic* weakest = nullptr;
  double weakest_chance = 2.0;
  for (const bank::Topic* topic : topic_order) {
    const auto it = topic_of.find(topic->id);
    if (it == topic_of.end()) continue;
    const TopicReadiness& t = *it->second;
    topics.push_back({{"id", topic->id},
                      {"name", topic->name},
                      {"readiness", value_or_null(t.seen > 0, t.readiness)},
                      {"borrowed", value_or_null(t.seen == 0, t.readiness)},
                      {"seen", t.seen},
                      {"questions", t.questions}});
    // Only what was answered can be weakest: an unseen topic's estimate is borrowed.
    if (t.seen > 0 && t.readiness < weakest_chance) {
      weakest = topic;
      weakest_chance = t.readiness;
    }
  }
  ordered_json objectives = ordered_json::array();
  ordered_json not_yet_seen = ordered_json::array();
  const ObjectiveReadiness* weakest_objective = nullptr;
  int answered = 0;
  for (const ObjectiveReadiness& o : r.by_objective) {
    objectives.push_back({{"id", o.id},
                          {"topic", o.topic},
                          {"readiness", value_or_null(o.answers > 0, o.readiness)},
                          {"borrowed", value_or_null(o.answers == 0, o.readiness)},
                          {"answered", o.answers},
                          {"questions", o.questions},
                          {"weight", o.weight}});
    if (o.answers == 0) {
      not_yet_seen.push_back(o.id);
      continue;
    }
    ++answered;
    if (weakest_objective == nullptr || o.readiness < weakest_objective->readiness)
      weakest_objective = &o;
  }
  // A first estimate once answers cover enough objectives; a verdict once few are unseen.
  const int total = r.objectives;
  const int unseen = total - answered;
  const int needs = std::max(0, std::min(kFirstEstimateObjectives, total) - answered);
  const bool estimate = total > 0 && needs == 0;
  const bool verdict = estimate && unseen <= kMostUnseenForVerdict * total;
  const bool reaches = 100.0 * r.overall + 1e-9 >= options.pass;
  ordered_json next = next_json(banks, topics, objectives, reviews, now);
  return {{"pass", options.pass},
          {"overall", value_or_null(estimate, r.overall)},
          {"interval", estimate ? ordered_json{r.low, r.high} : ordered_json(nullptr)},
          {"reaches_pass", verdict ? ordered_json(reaches) : ordered_json(nullptr)},
          {"verdict", !verdict  ? "too-early"
                      : reaches ? "at-or-above"
                                : "below"},
          {"unseen", unseen},
          {"first_estimate_needs", needs},
          {"covers",
           total == 0
               ? ordered_json(nullptr)
               : ordered_json(fmt::format(
                     "the {} objectives of the loaded banks, not the certification exam", total))},
          {"weakest", weakest ? ordered_json(weakest->id) : ordered_json(nullptr)},
          {"weakest_objective",
           weakest_objective ? ordered_json(weakest_objective->id) : ordered_json(nullptr)},
          {"topics", std::move(topics)},
          {"objectives", std::move(objectives)},
          {"not_yet_seen", std::move(not_yet_seen)},
          {"next", std::move(next)},
          {"exam",
           {{"questions", r.questions},
            {"needed", r.needed},
            {"pass_chance", value_or_null(estimate, r.pass_chance)},
            {"like_latest", options.like_latest}}}};
}

namespace {

std::string count_of(int n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// "Next": the weakest topic answered, what is unseen and the traps still held, each followed by
// the command that practises it, on lines of its own so it copies whole.
std::string render_next(const ordered_json& next, const Theme& theme, int width,
                        const std::string& program) {
  std::string out;
  const auto item = [&](const std::string& what, const std::string& command) {
    out += text::wrap_block(what, width, "  ", "    ") +
           style_lines(theme.dim, text::command_block(program + " " + command, width, "    "));
  };
  if (const auto& weakest = next["weakest_topic"]; !weakest.is_null()) {
    item(fmt::format("Weakest topic: {}, {}",
                     text::terminal_safe(weakest["name"].get<std::string>()),
                     text::percent(weakest["readiness"].get<double>())),
         "quiz --topic " + text::shell_word(weakest["id"].get<std::string>()));
  }
  const ordered_json& unseen = next["unseen_topics"];
  if (!unseen.empty()) {
    // The topics with most unseen first; a long list is cut to three and counted.
    constexpr std::size_t kShown = 3;
    std::string names;
    for (std::size_t i = 0; i < std::min(kShown, unseen.size()); ++i) {
      const auto& topic = unseen[i];
      names += fmt::format("{}{} ({} of {})", i == 0 ? "" : ", ",
                           text::terminal_safe(topic["name"].get<std::string>()),
                           topic["unseen"].get<int>(), topic["objectives"].get<int>());
    }
    if (const std::size_t more = unseen.size() - std::min(kShown, unseen.size()); more > 0)
      names += fmt::format(" and {} more topic{}", more, more == 1 ? "" : "s");
    item("Not yet seen (objectives): " + names,
         "drill --topic " + text::shell_word(unseen[0]["id"].get<std::string>()));
  }
  const ordered_json& traps = next["traps"];
  for (std::size_t i = 0; i < std::min(kNextTraps, traps.size()); ++i) {
    item(fmt::format("Still held: {} (your latest answer to {} fell into it)",
                     text::terminal_safe(traps[i]["name"].get<std::string>()),
                     count_of(traps[i]["held"].get<int>(), "question", "questions")),
         "quiz --trap " + text::shell_word(traps[i]["id"].get<std::string>()));
  }
  if (out.empty()) return out;
  return "\n" + wrap_labelled("Next", theme.emphasis, "(what to study, and how)", width) + out;
}

}  // namespace

std::string render_readiness(const ordered_json& readiness, const Theme& theme, int width,
                             const std::string& program) {
  const double pass = readiness["pass"].get<double>();
  const std::size_t objectives = readiness["objectives"].size();
  if (objectives == 0)
    return "\n" + wrap_labelled("Readiness:", theme.emphasis, "no questions loaded", width);
  const int unseen = readiness["unseen"].get<int>();
  std::string out;
  if (readiness["overall"].is_null()) {
    // No number before answers on enough objectives: it would be a guess dressed as a measure.
    out = "\n" +
          wrap_labelled("Readiness:", theme.emphasis,
                        fmt::format("answer questions on {} more objective{} for a first "
                                    "estimate",
                                    readiness["first_estimate_needs"].get<int>(),
                                    readiness["first_estimate_needs"].get<int>() == 1 ? "" : "s"),
                        width);
    out += text::wrap_block(fmt::format("{} of {} objectives answered so far; a quiz asks one "
                                        "question per objective:",
                                        objectives - static_cast<std::size_t>(unseen), objectives),
                            width, "  ", "  ") +
           style_lines(theme.dim, text::command_block(program + " quiz", width, "    "));
  } else {
    const ordered_json& interval = readiness["interval"];
    const std::string estimate =
        fmt::format("{} ({:.0f}–{:.0f})", text::percent(readiness["overall"].get<double>()),
                    100.0 * interval[0].get<double>(), 100.0 * interval[1].get<double>());
    const std::string headline =
        readiness["reaches_pass"].is_null()
            ? fmt::format("{} so far — {} of {} objectives not yet seen", estimate, unseen,
                          objectives)
            : fmt::format("{} — {} the {}% pass mark", estimate,
                          readiness["reaches_pass"].get<bool>() ? "at or above" : "below",
                          text::format_number(pass));
    out = "\n" + wrap_labelled("Readiness", theme.emphasis, headline, width);
    out += text::wrap_block(
        fmt::format("your expected score on an exam drawn from {}, with an 80% interval (README: "
                    "How readiness is estimated)",
                    readiness["covers"].get<std::string>()),
        width, "  ", "  ");
    if (readiness["reaches_pass"].is_null()) {
      out += text::wrap_block(
          fmt::format("no verdict against the {}% pass mark while more than a fifth of the "
                      "objectives are unseen: their estimate is borrowed from your level, not "
                      "measured; answer them first (Next, below)",
                      text::format_number(pass)),
          width, "  ", "  ");
    } else if (unseen > 0) {
      out += text::wrap_block(fmt::format("not yet seen: {} of {} objectives (borrowed from your "
                                          "level on the rest)",
                                          unseen, objectives),
                              width, "  ", "    ");
    }
    if (!readiness["weakest_objective"].is_null()) {
      for (const auto& objective : readiness["objectives"]) {
        if (objective["id"] != readiness["weakest_objective"]) continue;
        out += text::wrap_block(fmt::format("weakest of what you answered: {} {}",
                                            text::terminal_safe(objective["id"].get<std::string>()),
                                            text::percent(objective["readiness"].get<double>())),
                                width, "  ", "    ");
      }
    }
  }
  // Topics: a percentage where some of it was answered, never beside an unseen one.
  for (const auto& topic : readiness["topics"]) {
    const std::string shown = topic["readiness"].is_null()
                                  ? std::string("not yet seen")
                                  : text::percent(topic["readiness"].get<double>()) + " · " +
                                        fmt::format("{}/{} seen", topic["seen"].get<int>(),
                                                    topic["questions"].get<int>());
    out += text::name_and_numbers(text::terminal_safe(topic["name"].get<std::string>()),
                                  text::pad_left(shown, 16), 46, width);
  }
  const ordered_json& exam = readiness["exam"];
  if (!exam["pass_chance"].is_null()) {
    out += text::wrap_block(
        fmt::format("A {}-question exam{} at {}% ({} right): {} chance of passing{}",
                    exam["questions"].get<int>(),
                    exam["like_latest"].get<bool>() ? " like your latest," : "",
                    text::format_number(pass), exam["needed"].get<int>(),
                    text::chance_percent(exam["pass_chance"].get<double>()),
                    readiness["reaches_pass"].is_null() ? ", if the unseen go as the rest" : ""),
        width, "  ", "    ");
  }
  return out + render_next(readiness["next"], theme, width, program);
}

}  // namespace proofdeck::study
