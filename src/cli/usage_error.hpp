// Usage errors in words. CLI11 says what went wrong in its own terms ("The following argument was
// not expected: qiuz", "--count: Value 0 not in range 0.000000 to 1797…"); these say it as a
// person would: the command, option or value given, what is allowed, and "did you mean" for a
// slip of the fingers.
//   unknown command 'qiuz'; did you mean 'quiz'? (the commands: quiz, exam, …)
//   unknown option --cuont for quiz; did you mean --count?
//   --count 0: expected a whole number from 1 to 100000
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace proofdeck::cli {

// The message for `error`, which app.parse() has just thrown (the app still holds what it
// parsed). A word the parser did not expect is reported first, as the likeliest cause of the
// rest; then a value an option refused or could not convert, or a command missing its
// subcommand ("engine needs a command: run or bench"); any other error keeps CLI11's message.
std::string usage_message(CLI::App& app, const CLI::ParseError& error);

}  // namespace proofdeck::cli
