// Time stamps in UTC, ISO-8601: writing and the one parser every typed time goes through.
#include "core/time.hpp"

#include <string>

namespace proofdeck {

namespace {

// `value` in decimal, left-padded with zeros to `width` digits.
void append_padded(std::string& text, long long value, int width) {
  if (value < 0) {
    text += '-';
    value = -value;
  }
  const std::string digits = std::to_string(value);
  for (auto i = static_cast<int>(digits.size()); i < width; ++i)
    text += '0';
  text += digits;
}

// The number written by `count` ASCII digits at `pos`; nullopt if any is not a digit.
std::optional<int> read_digits(std::string_view text, std::size_t pos, std::size_t count) {
  int value = 0;
  for (std::size_t i = pos; i < pos + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

}  // namespace

std::string format_time(TimePoint time) {
  const auto day = std::chrono::floor<std::chrono::days>(time);
  const std::chrono::year_month_day date{day};
  const std::chrono::hh_mm_ss clock{time - day};
  std::string text;
  append_padded(text, static_cast<int>(date.year()), 4);
  text += '-';
  append_padded(text, static_cast<unsigned>(date.month()), 2);
  text += '-';
  append_padded(text, static_cast<unsigned>(date.day()), 2);
  text += 'T';
  append_padded(text, clock.hours().count(), 2);
  text += ':';
  append_padded(text, clock.minutes().count(), 2);
  text += ':';
  append_padded(text, clock.seconds().count(), 2);
  text += 'Z';
  return text;
}

std::optional<TimePoint> parse_time(std::string_view text) {
  // "YYYY-MM-DD" (10), "YYYY-MM-DDTHH:MM:SSZ" (20), "YYYY-MM-DDTHH:MM:SS+HH:MM" (25).
  if (text.size() != 10 && text.size() != 20 && text.size() != 25) return std::nullopt;
  const auto year = read_digits(text, 0, 4);
  const auto month = read_digits(text, 5, 2);
  const auto day = read_digits(text, 8, 2);
  if (!year || !month || !day || text[4] != '-' || text[7] != '-') return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year{*year},
                                         std::chrono::month{static_cast<unsigned>(*month)},
                                         std::chrono::day{static_cast<unsigned>(*day)}};
  if (!date.ok()) return std::nullopt;
  const TimePoint midnight{std::chrono::sys_days{date}};
  if (text.size() == 10) return midnight;

  const auto hours = read_digits(text, 11, 2);
  const auto minutes = read_digits(text, 14, 2);
  const auto seconds = read_digits(text, 17, 2);
  if (text[10] != 'T' || text[13] != ':' || text[16] != ':' || !hours || !minutes || !seconds ||
      *hours > 23 || *minutes > 59 || *seconds > 59) {
    return std::nullopt;
  }
  const TimePoint local = midnight + std::chrono::hours(*hours) + std::chrono::minutes(*minutes) +
                          std::chrono::seconds(*seconds);
  if (text.size() == 20) {
    if (text[19] != 'Z') return std::nullopt;
    return local;
  }
  const auto offset_hours = read_digits(text, 20, 2);
  const auto offset_minutes = read_digits(text, 23, 2);
  if ((text[19] != '+' && text[19] != '-') || text[22] != ':' || !offset_hours || !offset_minutes ||
      *offset_hours > 23 || *offset_minutes > 59) {
    return std::nullopt;
  }
  const std::chrono::seconds offset =
      std::chrono::hours(*offset_hours) + std::chrono::minutes(*offset_minutes);
  // Local time = UTC + offset, so UTC = local − offset.
  return text[19] == '+' ? local - offset : local + offset;
}

}  // namespace proofdeck
