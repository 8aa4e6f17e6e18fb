// `proofdeck check`: validate the banks and prove every answer key (CI).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

#include "cli/context.hpp"

namespace proofdeck::cli {

void setup_check(CLI::App& app, const std::function<Context()>& context);

}  // namespace proofdeck::cli
