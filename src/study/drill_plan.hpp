// What a drill session asks and in what order, how far ahead it asks cards in their learning
// steps, when a card is next due in the learner's words, and when a card counts as a leech: the
// drill's queue, apart from answering (as Anki keeps its scheduler's queue builder apart from
// answering). drill plans with it, and so can a simulation.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bank/model.hpp"
#include "study/fsrs.hpp"
#include "study/learner_day.hpp"
#include "study/progress.hpp"

namespace proofdeck::study {

// What a drill session asks, in order: the due cards (soonest due first), then up to the day's
// new cards, dealt round the topics in the study order; then, when nothing else is left, cards
// in their learning steps due within the learn-ahead limit. A card with a schedule is asked when
// due, whatever its siblings did. With `bury`, new cards wait instead: none is introduced on a
// day when a card of its objective is due, in its steps or was reviewed today, and at most one
// a day per objective. drill plans with it, and so can a simulation.
struct DrillPlan {
  std::vector<const bank::Question*> due;
  std::vector<const bank::Question*> fresh;
  // In their (re)learning steps but not due yet, soonest first: asked ahead of time within
  // kLearnAhead when nothing else is due, as within a session.
  std::vector<const bank::Question*> learning;
  std::size_t held_back = 0;  // new cards waiting: a card of their objective was reviewed today
  int new_today = 0;          // new cards already introduced today
};
DrillPlan plan_drill(const std::vector<bank::Bank>& banks,
                     const std::vector<const bank::Question*>& selected,
                     const std::map<std::string, Card>& cards,
                     const std::vector<ReviewRow>& reviews, const LearnerDays& days, TimePoint now,
                     int new_per_day, bool bury);

// When a scheduled card is next due, as drill words it: a card in review by learner days
// ("today", "tomorrow (from 04:00)", "in 8 days (2026-12-09)"), one in its steps by the clock
// ("now" once due, "in under a minute", "in 10 minutes", "in 3 hours"), so a card not yet due is
// never said to be due now.
std::string due_when(const LearnerDays& days, const Card& card, TimePoint now);

// How far ahead a card in its learning steps is asked when nothing else is due, as Anki's
// learn-ahead limit.
inline constexpr std::chrono::minutes kLearnAhead{20};

// With --confidence, the rating is what the learner said before seeing the feedback: right at 1
// (guessing) Hard, at 2 or 3 Good; wrong at any level Again. No level counts as 1.
Rating confidence_rating(bool correct, std::optional<int> confidence);

// A miss at 3 (sure) is a misconception held with confidence, corrected most readily while the
// feedback is fresh (the hypercorrection effect): its step is kConfidentMissStep rather than the
// usual 10 minutes, and `q` comes back in `queue` after kConfidentMissGap other cards from `next`
// (fewer when fewer are left).
inline constexpr std::chrono::minutes kConfidentMissStep{1};
inline constexpr std::size_t kConfidentMissGap = 3;
void hurry_back(Card& card, TimePoint at, std::vector<const bank::Question*>& queue,
                std::size_t next, const bank::Question* q);

// An FSRS card counts as a leech after this many lapses.
inline constexpr int kLeechLapses = 8;

}  // namespace proofdeck::study
