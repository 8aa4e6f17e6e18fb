// `drill --evaluate` and `drill --optimize`: the FSRS-6 weights against the learner's own drill
// reviews. --evaluate measures how well the defaults and the weights in use predict them, as
// fsrs-rs's evaluate does (study/fsrs_fit.hpp); --optimize fits the weights to them as fsrs-rs's
// compute_parameters does (study/fsrs_optimize.hpp), stores the fit and recomputes the cards'
// memory with it; --optimize --reset goes back to the defaults. Text or JSON, no session.
#pragma once

#include <string>

#include "cli/context.hpp"

namespace proofdeck::cli {

// Reads the progress store (none yet: no reviews) and writes the measures in `format` ("text" or
// "json": {"items", "default": {"log_loss", "rmse_bins"} | null, "in_use": … | null}).
void run_drill_evaluate(Context& context, const std::string& format);

// Fits (or with `reset`, drops the fit) under the drill lock and reports in `format` ("text" or
// "json": {"stage", "reviews", "items", "needed", "weights", "fitted_at", "default", "before",
// "fitted", "cards_updated"}; the three measures {"log_loss", "rmse_bins"} or null). Stage:
// "all_weights", "initial_stability" (w0–w3 only), "defaults" (too little history), "kept" (the
// fit predicts no better than the weights in use, which stay, as in Anki) or "reset".
void run_drill_optimize(Context& context, const std::string& format, bool reset);

}  // namespace proofdeck::cli
