// Time stamps as proofdeck writes and reads them: whole seconds in UTC, written ISO-8601
// ("2026-01-01T00:00:00Z"). One parser for every place a person types a time — --now, the
// progress database, a bank's "revised" date — so all of them accept the same forms.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace proofdeck {

using TimePoint = std::chrono::sys_seconds;  // whole seconds, UTC

// "2026-01-01T00:00:00Z".
std::string format_time(TimePoint time);

// Accepts "2026-01-01T00:00:00Z", "2026-01-01T00:00:00+02:00" (converted to UTC) and
// "2026-01-01" (midnight UTC); nullopt for anything else, impossible dates included.
std::optional<TimePoint> parse_time(std::string_view text);

}  // namespace proofdeck
