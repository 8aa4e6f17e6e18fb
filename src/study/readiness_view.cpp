// stats' readiness section (readiness_view.hpp): the estimate with what it rests on, and what to
// study next.
#include "study/readiness_view.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "study/json_null.hpp"
#include "study/readiness.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

using nlohmann::ordered_json;

namespace {

std::optional<double> value_if(bool known, double value) {
  return known ? std::optional<double>(value) : std::nullopt;
}

// What the learner should study next: the weakest topic answered, the topics with unseen
// objectives (most unseen first) and the traps a question's latest answer still falls into.
StudyNext study_next(const std::vector<bank::Bank>& banks,
                     const std::vector<TopicReadinessView>& topics,
                     const std::vector<ObjectiveReadinessView>& objectives,
                     const std::vector<ReviewRow>& reviews, TimePoint now) {
  StudyNext next;
  for (const TopicReadinessView& topic : topics) {
    if (topic.seen == 0) continue;
    if (!next.weakest_topic || *topic.readiness < next.weakest_topic->readiness)
      next.weakest_topic = StudyNext::Topic{topic.id, topic.name, *topic.readiness};
  }
  std::map<std::string, std::pair<int, int>> unseen;  // topic → (unseen objectives, objectives)
  for (const ObjectiveReadinessView& objective : objectives) {
    auto& [missing, all] = unseen[objective.topic];
    missing += objective.answered == 0;
    ++all;
  }
  for (const TopicReadinessView& topic : topics) {
    const auto [missing, all] = unseen[topic.id];
    if (missing > 0) next.unseen_topics.push_back({topic.id, topic.name, missing, all});
  }
  std::stable_sort(next.unseen_topics.begin(), next.unseen_topics.end(),
                   [](const auto& a, const auto& b) { return a.unseen > b.unseen; });
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
  for (const auto& [id, count] : ranked) {
    const bank::Trap* trap = nullptr;
    for (const bank::Bank& b : banks)
      if (trap == nullptr) trap = b.find_trap(id);
    if (trap == nullptr) continue;  // a trap no loaded bank has any more
    next.traps.push_back({id, trap->name, count});
  }
  return next;
}

}  // namespace

ReadinessView readiness_view(const std::vector<bank::Bank>& banks,
                             const std::vector<const bank::Topic*>& topic_order,
                             const std::vector<ReviewRow>& reviews, TimePoint now,
                             const ReadinessViewOptions& options) {
  ReadinessOptions estimate_options;
  estimate_options.pass = options.pass;
  estimate_options.questions = options.questions;
  estimate_options.kept_forms = options.kept_forms;
  estimate_options.weights = options.weights;
  const Readiness r = estimate_readiness(banks, reviews, now, estimate_options);

  ReadinessView view;
  view.pass = options.pass;
  std::map<std::string, const TopicReadiness*> topic_of;
  for (const TopicReadiness& t : r.by_topic)
    topic_of[t.id] = &t;
  const bank::Topic* weakest = nullptr;
  double weakest_chance = 2.0;
  for (const bank::Topic* topic : topic_order) {
    const auto it = topic_of.find(topic->id);
    if (it == topic_of.end()) continue;
    const TopicReadiness& t = *it->second;
    view.topics.push_back({topic->id, topic->name, value_if(t.seen > 0, t.readiness),
                           value_if(t.seen == 0, t.readiness), t.seen, t.questions});
    // Only what was answered can be weakest: an unseen topic's estimate is borrowed.
    if (t.seen > 0 && t.readiness < weakest_chance) {
      weakest = topic;
      weakest_chance = t.readiness;
    }
  }
  const ObjectiveReadiness* weakest_objective = nullptr;
  int answered = 0;
  for (const ObjectiveReadiness& o : r.by_objective) {
    view.objectives.push_back({o.id, o.topic, value_if(o.answers > 0, o.readiness),
                               value_if(o.answers == 0, o.readiness), o.answers, o.questions,
                               o.weight});
    if (o.answers == 0) {
      view.not_yet_seen.push_back(o.id);
      continue;
    }
    ++answered;
    if (weakest_objective == nullptr || o.readiness < weakest_objective->readiness)
      weakest_objective = &o;
  }
  // A first estimate once answers cover enough objectives; a verdict once few are unseen.
  const int total = r.objectives;
  view.unseen = total - answered;
  view.first_estimate_needs = std::max(0, std::min(kFirstEstimateObjectives, total) - answered);
  const bool estimate = total > 0 && view.first_estimate_needs == 0;
  const bool verdict = estimate && view.unseen <= kMostUnseenForVerdict * total;
  const bool reaches = 100.0 * r.overall + 1e-9 >= options.pass;
  view.overall = value_if(estimate, r.overall);
  if (estimate) view.interval = std::pair{r.low, r.high};
  if (verdict) view.reaches_pass = reaches;
  view.verdict = !verdict  ? ReadinessVerdict::too_early
                 : reaches ? ReadinessVerdict::at_or_above
                           : ReadinessVerdict::below;
  if (total > 0)
    view.covers =
        fmt::format("the {} objectives of the loaded banks, not the certification exam", total);
  if (weakest) view.weakest = weakest->id;
  if (weakest_objective) view.weakest_objective = weakest_objective->id;
  view.next = study_next(banks, view.topics, view.objectives, reviews, now);
  view.exam = {r.questions, r.needed, value_if(estimate, r.pass_chance), options.like_latest};
  return view;
}

// --- JSON ---------------------------------------------------------------------------------------

namespace {

const char* verdict_name(ReadinessVerdict verdict) {
  switch (verdict) {
    case ReadinessVerdict::too_early:
      return "too-early";
    case ReadinessVerdict::below:
      return "below";
    case ReadinessVerdict::at_or_above:
      return "at-or-above";
  }
  return "";
}

ordered_json next_to_json(const StudyNext& next) {
  ordered_json weakest = nullptr;
  if (const auto& w = next.weakest_topic)
    weakest = {{"id", w->id}, {"name", w->name}, {"readiness", w->readiness}};
  ordered_json unseen = ordered_json::array();
  for (const StudyNext::Unseen& u : next.unseen_topics)
    unseen.push_back(
        {{"id", u.id}, {"name", u.name}, {"unseen", u.unseen}, {"objectives", u.objectives}});
  ordered_json traps = ordered_json::array();
  for (const StudyNext::HeldTrap& t : next.traps)
    traps.push_back({{"id", t.id}, {"name", t.name}, {"held", t.held}});
  return {{"weakest_topic", std::move(weakest)},
          {"unseen_topics", std::move(unseen)},
          {"traps", std::move(traps)}};
}

}  // namespace

void to_json(ordered_json& json, const ReadinessView& view) {
  ordered_json topics = ordered_json::array();
  for (const TopicReadinessView& t : view.topics)
    topics.push_back({{"id", t.id},
                      {"name", t.name},
                      {"readiness", or_null(t.readiness)},
                      {"borrowed", or_null(t.borrowed)},
                      {"seen", t.seen},
                      {"questions", t.questions}});
  ordered_json objectives = ordered_json::array();
  for (const ObjectiveReadinessView& o : view.objectives)
    objectives.push_back({{"id", o.id},
                          {"topic", o.topic},
                          {"readiness", or_null(o.readiness)},
                          {"borrowed", or_null(o.borrowed)},
                          {"answered", o.answered},
                          {"questions", o.questions},
                          {"weight", o.weight}});
  json = {{"pass", view.pass},
          {"overall", or_null(view.overall)},
          {"interval", view.interval ? ordered_json{view.interval->first, view.interval->second}
                                     : ordered_json(nullptr)},
          {"reaches_pass", or_null(view.reaches_pass)},
          {"verdict", verdict_name(view.verdict)},
          {"unseen", view.unseen},
          {"first_estimate_needs", view.first_estimate_needs},
          {"covers", or_null(view.covers)},
          {"weakest", or_null(view.weakest)},
          {"weakest_objective", or_null(view.weakest_objective)},
          {"topics", std::move(topics)},
          {"objectives", std::move(objectives)},
          {"not_yet_seen", view.not_yet_seen},
          {"next", next_to_json(view.next)},
          {"exam",
           {{"questions", view.exam.questions},
            {"needed", view.exam.needed},
            {"pass_chance", or_null(view.exam.pass_chance)},
            {"like_latest", view.exam.like_latest}}}};
}

namespace {

// "Next": the weakest topic answered, what is unseen and the traps still held, each followed by
// the command that practises it, on lines of its own so it copies whole.
std::string render_next(const StudyNext& next, const Theme& theme, int width,
                        const std::string& program) {
  std::string out;
  const auto item = [&](const std::string& what, const std::string& command) {
    out += text::wrap_block(what, width, "  ", "    ") +
           style_lines(theme.dim, text::command_block(program + " " + command, width, "    "));
  };
  if (const auto& weakest = next.weakest_topic) {
    item(fmt::format("Weakest topic: {}, {}", text::terminal_safe(weakest->name),
                     text::percent(weakest->readiness)),
         "quiz --topic " + text::shell_word(weakest->id));
  }
  const std::vector<StudyNext::Unseen>& unseen = next.unseen_topics;
  if (!unseen.empty()) {
    // The topics with most unseen first; a long list is cut to three and counted.
    constexpr std::size_t kShown = 3;
    std::string names;
    for (std::size_t i = 0; i < std::min(kShown, unseen.size()); ++i) {
      names +=
          fmt::format("{}{} ({} of {})", i == 0 ? "" : ", ", text::terminal_safe(unseen[i].name),
                      unseen[i].unseen, unseen[i].objectives);
    }
    if (const std::size_t more = unseen.size() - std::min(kShown, unseen.size()); more > 0)
      names += " and " + text::count(more, "more topic", "more topics");
    item("Not yet seen (objectives): " + names, "drill --topic " + text::shell_word(unseen[0].id));
  }
  const std::vector<StudyNext::HeldTrap>& traps = next.traps;
  for (std::size_t i = 0; i < std::min(kNextTraps, traps.size()); ++i) {
    item(fmt::format("Still held: {} (your latest answer to {} fell into it)",
                     text::terminal_safe(traps[i].name),
                     text::count(traps[i].held, "question", "questions")),
         "quiz --trap " + text::shell_word(traps[i].id));
  }
  if (out.empty()) return out;
  return "\n" + wrap_labelled("Next", theme.emphasis, "(what to study, and how)", width) + out;
}

// The headline before a first estimate: how many objectives are still to answer, and how.
std::string render_too_early(const ReadinessView& readiness, const Theme& theme, int width,
                             const std::string& program) {
  const std::size_t objectives = readiness.objectives.size();
  // No number before answers on enough objectives: it would be a guess dressed as a measure.
  return "\n" +
         wrap_labelled(
             "Readiness:", theme.emphasis,
             "answer questions on " +
                 text::count(readiness.first_estimate_needs, "more objective", "more objectives") +
                 " for a first estimate",
             width) +
         text::wrap_block(
             fmt::format("{} of {} objectives answered so far; a quiz asks one "
                         "question per objective:",
                         objectives - static_cast<std::size_t>(readiness.unseen), objectives),
             width, "  ", "  ") +
         style_lines(theme.dim, text::command_block(program + " quiz", width, "    "));
}

// The estimate, its interval, what it covers, the verdict or why there is none, and the weakest
// objective answered.
std::string render_estimate(const ReadinessView& readiness, const Theme& theme, int width) {
  const std::size_t objectives = readiness.objectives.size();
  const int unseen = readiness.unseen;
  const std::string pass = text::format_number(readiness.pass);
  const std::string estimate =
      fmt::format("{} ({})", text::percent(*readiness.overall),
                  text::percent_range(readiness.interval->first, readiness.interval->second));
  const std::string headline =
      !readiness.reaches_pass
          ? fmt::format("{} so far — {} of {} objectives not yet seen", estimate, unseen,
                        objectives)
          : fmt::format("{} — {} the {}% pass mark", estimate,
                        *readiness.reaches_pass ? "at or above" : "below", pass);
  std::string out = "\n" + wrap_labelled("Readiness", theme.emphasis, headline, width);
  out += text::wrap_block(
      fmt::format("your expected score on an exam drawn from {}, with an 80% interval (README: "
                  "How readiness is estimated)",
                  readiness.covers.value_or("")),
      width, "  ", "  ");
  if (!readiness.reaches_pass) {
    out += text::wrap_block(
        fmt::format("no verdict against the {}% pass mark while more than a fifth of the "
                    "objectives are unseen: their estimate is borrowed from your level, not "
                    "measured; answer them first (Next, below)",
                    pass),
        width, "  ", "  ");
  } else if (unseen > 0) {
    out += text::wrap_block(fmt::format("not yet seen: {} of {} objectives (borrowed from your "
                                        "level on the rest)",
                                        unseen, objectives),
                            width, "  ", "    ");
  }
  if (readiness.weakest_objective) {
    for (const ObjectiveReadinessView& objective : readiness.objectives) {
      if (objective.id != *readiness.weakest_objective) continue;
      out += text::wrap_block(
          fmt::format("weakest of what you answered: {} {}", text::terminal_safe(objective.id),
                      text::percent(objective.readiness.value_or(0.0))),
          width, "  ", "    ");
    }
  }
  return out;
}

}  // namespace

std::string render_readiness(const ReadinessView& readiness, const Theme& theme, int width,
                             const std::string& program) {
  if (readiness.objectives.empty())
    return "\n" + wrap_labelled("Readiness:", theme.emphasis, "no questions loaded", width);
  std::string out = readiness.overall ? render_estimate(readiness, theme, width)
                                      : render_too_early(readiness, theme, width, program);
  // Topics: a percentage where some of it was answered, never beside an unseen one.
  std::vector<std::string> names;
  for (const TopicReadinessView& topic : readiness.topics)
    names.push_back(text::terminal_safe(topic.name));
  const int name_width = text::widest(names);
  for (const TopicReadinessView& topic : readiness.topics) {
    const std::string shown = !topic.readiness
                                  ? std::string("not yet seen")
                                  : text::percent(*topic.readiness) + " · " +
                                        fmt::format("{}/{} seen", topic.seen, topic.questions);
    out += text::name_and_numbers(text::terminal_safe(topic.name), text::pad_left(shown, 16),
                                  name_width, width);
  }
  if (const auto& exam = readiness.exam; exam.pass_chance) {
    out += text::wrap_block(
        fmt::format("A {}-question exam{} at {}% ({} right): {} chance of passing{}",
                    exam.questions, exam.like_latest ? " like your latest," : "",
                    text::format_number(readiness.pass), exam.needed,
                    text::chance_percent(*exam.pass_chance),
                    readiness.reaches_pass ? "" : ", if the unseen go as the rest"),
        width, "  ", "    ");
  }
  return out + render_next(readiness.next, theme, width, program);
}

}  // namespace proofdeck::study
