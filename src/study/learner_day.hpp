// The learner's day, as Anki counts it: a day runs from a rollover hour (4:00 by default) in local
// time, the zone read from TZ, so a review at 01:00 still belongs to the evening before. A card in
// review is due from the start of the learner's day that holds its due time; a card in its
// learning or relearning steps stays due by the minute. The --new quota, stats' forecast and day
// buckets, readiness's recall and FSRS's elapsed days all count these days.
//
// The scheduler (fsrs.hpp) keeps py-fsrs's arithmetic on UTC time stamps, whole days being the
// floor of 24-hour spans. LearnerDays hands it whole learner days by moving both time stamps it
// compares to the midnight (UTC) of their learner dates: the last review to its date, now to
// today's. The floor of that span is exactly the number of learner days between them, whatever
// the clock time or a daylight-saving change. Its answer comes back in real time: the review is
// stamped now, a learning step's due is now + the step, and an interval of N days is due on the
// learner date N days after today.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "study/fsrs.hpp"

namespace proofdeck::study {

inline constexpr int kDefaultDayStartsAt = 4;  // 4:00 local, as Anki's default

// A calendar date naming one learner's day; its time of day is meaningless (midnight UTC).
using LearnerDate = std::chrono::sys_days;

// "2026-12-09".
std::string format_date(LearnerDate date);
// The date "2026-12-09" names; nullopt for anything else (another form, a day that does not
// exist).
std::optional<LearnerDate> parse_date(std::string_view text);

class LearnerDays {
 public:
  // Throws std::invalid_argument unless 0 ≤ starts_at ≤ 23. Reads the zone from TZ now (tzset):
  // the zone database's name ("Europe/Berlin") or a POSIX rule; unset or unknown, UTC.
  explicit LearnerDays(int starts_at = kDefaultDayStartsAt);

  int starts_at() const { return starts_at_; }

  // The learner's date holding `time`: its local date, or the day before when its local clock
  // reads before the rollover hour.
  LearnerDate day_of(TimePoint time) const;
  // The moment `date` begins: the rollover hour of that local date (the hour after, where a
  // daylight-saving change skips it).
  TimePoint start_of(LearnerDate date) const;
  // Learner days from `from` to `to` (negative when `to` is on an earlier day).
  int days_between(TimePoint from, TimePoint to) const;
  // "2026-12-09": the learner's date holding `time`.
  std::string label(TimePoint time) const;
  // "09:00": `time` on the local clock, to the minute.
  std::string clock(TimePoint time) const;

  // Whether a card is due at `now`: a card in review from the start of its due date's learner
  // day, a card in its steps from its due time; a new card never (it is dealt by the --new quota).
  bool due(const Card& card, TimePoint now) const;

  // scheduler.review with whole learner days (this file's header says how), its card's due and
  // last review, and the outcome's interval, in real time.
  ReviewOutcome review(const Scheduler& scheduler, const Card& card, Rating rating, TimePoint now,
                       const std::function<double()>& uniform = {}) const;
  // scheduler.retrievability after whole learner days since the last review.
  double retrievability(const Scheduler& scheduler, const Card& card, TimePoint now) const;

 private:
  // `days` learner days after `now`'s, at `now`'s clock time where that lies on the day (the
  // hour nearest it where a daylight-saving change moves it off).
  TimePoint due_after_days(TimePoint now, int days) const;

  int starts_at_;
};

}  // namespace proofdeck::study
