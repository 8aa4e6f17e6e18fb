// `drill --evaluate`: how well the FSRS-6 weights predict the learner's own drill reviews, as
// fsrs-rs's evaluate measures it (study/fsrs_fit.hpp), for the default weights and the ones in
// use; text or JSON, no session.
#pragma once

#include <string>

#include "cli/context.hpp"

namespace proofdeck::cli {

// Reads the progress store (none yet: no reviews) and writes the measures in `format` ("text" or
// "json": {"items", "default": {"log_loss", "rmse_bins"} | null, "in_use": … | null}).
void run_drill_evaluate(Context& context, const std::string& format);

}  // namespace proofdeck::cli
