// `drill --simulate DAYS`: the workload simulator (study/workload.hpp) — for each desired
// retention from 0.70 to 0.95, and the exam plan when a date is saved, the reviews and minutes
// a day the coming days ask and how many cards they leave remembered; text with a chart of the
// minutes a day at the retention in use, or JSON. Reads the store, writes nothing.
#pragma once

#include <string>

#include "cli/context.hpp"
#include "study/modes.hpp"

namespace proofdeck::cli {

// JSON: {"days", "seconds_per_card", "new_per_day", "rows": [{"retention", "reviews_per_day",
// "minutes_per_day", "remembered", "minutes_per_remembered"}], "exam_plan": {"date",
// "reviews_per_day", "minutes_per_day", "remembered", "minutes_per_remembered"} | null}.
void run_drill_simulate(Context& context, study::DrillOptions options, int days,
                        const std::string& format);

}  // namespace proofdeck::cli
