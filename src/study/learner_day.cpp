// The learner's day: local dates from a rollover hour, and FSRS handed whole learner days.
#include "study/learner_day.hpp"

#include <ctime>
#include <stdexcept>

#include <fmt/format.h>

namespace proofdeck::study {

namespace {

// Midnight UTC of a date: the time stamp the scheduler is given for a learner date.
TimePoint midnight(LearnerDate date) {
  return TimePoint{date};
}

}  // namespace

std::string format_date(LearnerDate date) {
  return format_time(midnight(date)).substr(0, 10);
}

std::optional<LearnerDate> parse_date(std::string_view text) {
  if (text.size() != 10) return std::nullopt;
  const std::optional<TimePoint> midnight_utc = parse_time(std::string(text) + "T00:00:00Z");
  if (!midnight_utc) return std::nullopt;
  const LearnerDate date = std::chrono::floor<std::chrono::days>(*midnight_utc);
  if (format_date(date) != text) return std::nullopt;
  return date;
}

LearnerDays::LearnerDays(int starts_at) : starts_at_(starts_at) {
  if (starts_at < 0 || starts_at > 23) {
    throw std::invalid_argument(
        fmt::format("a day starts at an hour from 0 to 23, not {}", starts_at));
  }
  tzset();  // localtime_r reads TZ only once unless asked again
}

LearnerDate LearnerDays::day_of(TimePoint time) const {
  const std::time_t seconds = time.time_since_epoch().count();
  std::tm local{};
  if (localtime_r(&seconds, &local) == nullptr) {  // beyond the zone code's years: UTC
    const LearnerDate utc = std::chrono::floor<std::chrono::days>(time);
    return time - midnight(utc) < std::chrono::hours(starts_at_) ? utc - std::chrono::days(1) : utc;
  }
  const std::chrono::year_month_day date{
      std::chrono::year{local.tm_year + 1900},
      std::chrono::month{static_cast<unsigned>(local.tm_mon + 1)},
      std::chrono::day{static_cast<unsigned>(local.tm_mday)}};
  const LearnerDate day{date};
  return local.tm_hour < starts_at_ ? day - std::chrono::days(1) : day;
}

TimePoint LearnerDays::start_of(LearnerDate date) const {
  const std::chrono::year_month_day ymd{date};
  std::tm local{};
  local.tm_year = static_cast<int>(ymd.year()) - 1900;
  local.tm_mon = static_cast<int>(static_cast<unsigned>(ymd.month())) - 1;
  local.tm_mday = static_cast<int>(static_cast<unsigned>(ymd.day()));
  local.tm_hour = starts_at_;
  local.tm_isdst = -1;  // whichever offset the zone has then
  const std::time_t seconds = std::mktime(&local);
  if (seconds == static_cast<std::time_t>(-1))
    return midnight(date) + std::chrono::hours(starts_at_);
  return TimePoint{std::chrono::seconds(seconds)};
}

int LearnerDays::days_between(TimePoint from, TimePoint to) const {
  return static_cast<int>((day_of(to) - day_of(from)).count());
}

std::string LearnerDays::label(TimePoint time) const {
  return format_date(day_of(time));
}

std::string LearnerDays::clock(TimePoint time) const {
  const std::time_t seconds = time.time_since_epoch().count();
  std::tm local{};
  if (localtime_r(&seconds, &local) == nullptr) {  // beyond the zone code's years: UTC
    const auto minutes =
        std::chrono::floor<std::chrono::minutes>(time - std::chrono::floor<std::chrono::days>(time))
            .count();
    return fmt::format("{:02}:{:02}", minutes / 60, minutes % 60);
  }
  return fmt::format("{:02}:{:02}", local.tm_hour, local.tm_min);
}

bool LearnerDays::due(const Card& card, TimePoint now) const {
  if (card.state == CardState::fresh || !card.due) return false;
  if (card.state == CardState::review) return day_of(*card.due) <= day_of(now);
  return *card.due <= now;
}

TimePoint LearnerDays::due_after_days(TimePoint now, int days) const {
  const LearnerDate target = day_of(now) + std::chrono::days(days);
  TimePoint due = now + kDay * days;
  // A daylight-saving change between now and then moves the clock by an hour or so: step back
  // onto the target day (a few hours at most, bounded all the same).
  for (int step = 0; step < 48 && day_of(due) < target; ++step)
    due += std::chrono::hours(1);
  for (int step = 0; step < 48 && day_of(due) > target; ++step)
    due -= std::chrono::hours(1);
  return due;
}

ReviewOutcome LearnerDays::review(const Scheduler& scheduler, const Card& card, Rating rating,
                                  TimePoint now, const std::function<double()>& uniform) const {
  Card on_days = card;
  if (card.last_review) on_days.last_review = midnight(day_of(*card.last_review));
  ReviewOutcome outcome = scheduler.review(on_days, rating, midnight(day_of(now)), uniform);
  outcome.card.last_review = now;
  if (outcome.card.state == CardState::review) {
    const auto days = std::chrono::floor<std::chrono::days>(outcome.interval).count();
    outcome.card.due = due_after_days(now, static_cast<int>(days));
  } else {
    outcome.card.due = now + outcome.interval;
  }
  outcome.interval = *outcome.card.due - now;
  return outcome;
}

double LearnerDays::retrievability(const Scheduler& scheduler, const Card& card,
                                   TimePoint now) const {
  Card on_days = card;
  if (card.last_review) on_days.last_review = midnight(day_of(*card.last_review));
  return scheduler.retrievability(on_days, midnight(day_of(now)));
}

}  // namespace proofdeck::study
