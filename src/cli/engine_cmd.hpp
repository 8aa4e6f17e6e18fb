// `proofdeck engine run SPEC.json` and `proofdeck engine bench`.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

#include "cli/context.hpp"

namespace proofdeck::cli {

// Adds the `engine` subcommand; `context` is called when it runs.
void setup_engine(CLI::App& app, const std::function<Context()>& context);

}  // namespace proofdeck::cli
