// `print` (handouts and worksheets) and `export` (GIFT, Anki, normalized JSON): one file each,
// sharing the study commands' bank loading and question filters.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

#include "cli/context.hpp"

namespace proofdeck::cli {

void setup_print(CLI::App& app, const std::function<Context()>& context);
void setup_export(CLI::App& app, const std::function<Context()>& context);

}  // namespace proofdeck::cli
