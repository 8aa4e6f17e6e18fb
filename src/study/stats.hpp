// What the progress database says about the learner: reviews today and in total, true retention,
// cards by state, the due forecast, mastery per topic, the traps they keep falling for, leeches.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/model.hpp"
#include "render/theme.hpp"
#include "study/progress.hpp"

namespace proofdeck::study {

// {"now", "reviews": {"today", "total", "by_mode"}, "retention": {"true_retention", "reviews"},
//  "cards": {"new", "learning", "review", "relearning"}, "forecast": {"overdue", "next_7",
//  "next_30", "days": [{"date", "due"}] × 30}, "topics": [{"id", "name", "questions", "seen",
//  "answers", "correct", "accuracy", "drilled", "recall"}], "traps": [{"id", "name", "exposed",
//  "fell", "miss_rate"}] worst first, "leeches": [{"id", "lapses"}]}.
// True retention: the share of drill reviews made a day or more after the previous one that
// were right (as Anki counts it). Recall: the mean FSRS probability of recall now over the
// topic's drilled cards (null when none is: quiz and exam answers leave no FSRS state).
nlohmann::ordered_json compute_stats(ProgressStore& store, const std::vector<bank::Bank>& banks,
                                     TimePoint now);

std::string render_stats(const nlohmann::ordered_json& stats, const Theme& theme, int width);

}  // namespace proofdeck::study
