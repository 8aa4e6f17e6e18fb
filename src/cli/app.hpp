// The command line: subcommand wiring, and the one place errors become exit codes. What a
// subcommand gets to run with is in context.hpp.
#pragma once

#include <string>
#include <vector>

#include "cli/context.hpp"

namespace proofdeck::cli {

// Parses args (args[0] is the program name) and runs the command; returns the exit code.
int run(const std::vector<std::string>& args, Io& io);

}  // namespace proofdeck::cli
