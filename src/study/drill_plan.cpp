// What a drill session asks, and when a card is next due, in the learner's words (drill_plan.hpp).
#include "study/drill_plan.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "bank/prerequisites.hpp"
#include "study/cbm.hpp"
#include "text/number.hpp"

namespace proofdeck::study {

namespace {

// New cards in the order a new learner should meet them (bank::StudyOrder): round-robin over
// the topics in that order, so the first day spans the lesson instead of exhausting one topic,
// where a topic joins the round only once every new card of what it requires, directly or
// through others, has been dealt. Within a topic, bank order.
std::vector<const bank::Question*> deal_new(const std::vector<bank::Bank>& banks,
                                            const std::vector<const bank::Question*>& fresh) {
  const bank::StudyOrder order(banks);
  const std::size_t topic_count = order.topics().size();
  std::vector<std::vector<const bank::Question*>> by_topic(topic_count);
  std::vector<const bank::Question*> dealt;
  std::vector<const bank::Question*> outside;  // in no loaded topic: dealt last
  for (const bank::Question* q : fresh) {
    const std::size_t p = order.position(q->bank, q->topic);
    (p == topic_count ? outside : by_topic[p]).push_back(q);
  }
  std::vector<std::size_t> next(topic_count, 0);
  std::vector<bool> done(topic_count, false);  // every new card of it and what it requires dealt
  for (;;) {
    const std::size_t before = dealt.size();
    for (std::size_t p = 0; p < topic_count; ++p) {
      const bool met = order.requirements_met(p, done);
      if (met && next[p] < by_topic[p].size()) dealt.push_back(by_topic[p][next[p]++]);
      done[p] = met && next[p] == by_topic[p].size();
    }
    if (dealt.size() == before) break;
  }
  dealt.insert(dealt.end(), outside.begin(), outside.end());
  return dealt;
}

}  // namespace

std::string due_when(const LearnerDays& days, const Card& card, TimePoint now) {
  const TimePoint due = *card.due;
  if (card.state == CardState::review) {
    const int ahead = days.days_between(now, due);
    if (ahead <= 0) return "today";
    if (ahead == 1) return fmt::format("tomorrow (from {:02}:00)", days.starts_at());
    return fmt::format("in {} days ({})", ahead, days.label(due));
  }
  const auto seconds = (due - now).count();
  if (seconds <= 0) return "now";
  if (seconds < 60) return "in under a minute";
  if (seconds < 3600) return "in " + text::count((seconds + 30) / 60, "minute", "minutes");
  if (seconds < 86400) return "in " + text::count((seconds + 1800) / 3600, "hour", "hours");
  // A day or more ahead, by the minute: the learner's day and the clock time.
  const int ahead = days.days_between(now, due);
  if (ahead <= 0) return "later today at " + days.clock(due);
  if (ahead == 1) return "tomorrow at " + days.clock(due);
  return fmt::format("in {} days ({} at {})", ahead, days.label(due), days.clock(due));
}

DrillPlan plan_drill(const std::vector<bank::Bank>& banks,
                     const std::vector<const bank::Question*>& selected,
                     const std::map<std::string, Card>& cards,
                     const std::vector<ReviewRow>& reviews, const LearnerDays& days, TimePoint now,
                     int new_per_day, bool bury) {
  const TimePoint today = days.start_of(days.day_of(now));
  DrillPlan plan;
  // New cards introduced today (their first drill review is in this learner's day) count
  // against the day's new cards.
  std::map<std::string, TimePoint> first_drill;
  for (const ReviewRow& r : reviews) {
    if (r.mode == "drill" && !first_drill.contains(r.card)) first_drill[r.card] = r.at;
  }
  for (const auto& [card, at] : first_drill)
    plan.new_today += at >= today;

  const auto in_steps = [](const Card& card) {
    return card.state == CardState::learning || card.state == CardState::relearning;
  };
  for (const bank::Question* q : selected) {
    const auto it = cards.find(q->id);
    if (it == cards.end() || it->second.state == CardState::fresh) {
      plan.fresh.push_back(q);
    } else if (days.due(it->second, now)) {
      plan.due.push_back(q);
    } else if (in_steps(it->second) && it->second.due) {
      plan.learning.push_back(q);
    }
  }
  const auto sooner = [&](const bank::Question* a, const bank::Question* b) {
    return *cards.at(a->id).due < *cards.at(b->id).due;
  };
  std::stable_sort(plan.due.begin(), plan.due.end(), sooner);
  std::stable_sort(plan.learning.begin(), plan.learning.end(), sooner);
  // Every card with a schedule is asked when due, whatever its siblings did: a missed card
  // comes back on the day it was promised. Burying holds back new cards only: none is introduced
  // on a day when a card of its objective is due, in its learning steps or was reviewed today,
  // and at most one a day per objective.
  const auto quota = static_cast<std::size_t>(std::max(0, new_per_day - plan.new_today));
  plan.fresh = deal_new(banks, plan.fresh);
  if (bury) {
    std::map<std::string, const bank::Question*> by_id;
    for (const bank::Bank& b : banks)
      for (const bank::Question& q : b.questions)
        by_id[q.id] = &q;
    std::set<std::string> busy, reviewed;  // objectives
    for (const auto& [id, card] : cards) {
      const auto it = by_id.find(id);
      if (it != by_id.end() && (in_steps(card) || days.due(card, now)))
        busy.insert(it->second->objective_id());
    }
    for (const ReviewRow& r : reviews) {
      const auto it = by_id.find(r.card);
      if (r.mode == "drill" && r.at >= today && it != by_id.end())
        reviewed.insert(it->second->objective_id());
    }
    std::set<std::string> dealt;
    std::size_t held = 0;
    std::erase_if(plan.fresh, [&](const bank::Question* q) {
      const std::string& objective = q->objective_id();
      if (reviewed.contains(objective)) {
        ++held;
        return true;
      }
      return busy.contains(objective) || !dealt.insert(objective).second;
    });
    // Those the day's quota had room for: the ones burying really kept back.
    plan.held_back = std::min(held, quota - std::min(quota, plan.fresh.size()));
  }
  if (plan.fresh.size() > quota) plan.fresh.resize(quota);
  return plan;
}

Rating confidence_rating(bool correct, std::optional<int> confidence) {
  if (!correct) return Rating::again;
  return confidence.value_or(kLowestConfidence) == kLowestConfidence ? Rating::hard : Rating::good;
}

void hurry_back(Card& card, TimePoint at, std::vector<const bank::Question*>& queue,
                std::size_t next, const bank::Question* q) {
  if ((card.state == CardState::learning || card.state == CardState::relearning) && card.due &&
      *card.due > at + kConfidentMissStep)
    card.due = at + kConfidentMissStep;
  const std::size_t back = std::min(next + kConfidentMissGap, queue.size());
  queue.insert(queue.begin() + static_cast<std::ptrdiff_t>(back), q);
}

}  // namespace proofdeck::study
