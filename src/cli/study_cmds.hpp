// The study subcommands (quiz, exam, drill, stats), `list` and `analyze`, one file each, sharing
// study_run.hpp (and, through it, bank_options.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

#include "cli/context.hpp"

namespace proofdeck::cli {

void setup_quiz(CLI::App& app, const std::function<Context()>& context);
void setup_exam(CLI::App& app, const std::function<Context()>& context);
void setup_drill(CLI::App& app, const std::function<Context()>& context);
void setup_stats(CLI::App& app, const std::function<Context()>& context);
void setup_list(CLI::App& app, const std::function<Context()>& context);
void setup_analyze(CLI::App& app, const std::function<Context()>& context);

}  // namespace proofdeck::cli
