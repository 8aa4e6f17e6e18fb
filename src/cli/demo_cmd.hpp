// `proofdeck demo list` and `proofdeck demo run NAME`.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

#include "cli/context.hpp"

namespace proofdeck::cli {

void setup_demo(CLI::App& app, const std::function<Context()>& context);

}  // namespace proofdeck::cli
