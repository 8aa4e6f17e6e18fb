// Wires the subcommands together, resolves the global options and turns errors into exit codes.
#include "cli/app.hpp"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/color.h>
#include <fmt/ostream.h>

#include "cli/check_cmd.hpp"
#include "cli/demo_cmd.hpp"
#include "cli/engine_cmd.hpp"
#include "cli/help_format.hpp"
#include "cli/print_export_cmds.hpp"
#include "cli/study_cmds.hpp"
#include "cli/usage_error.hpp"
#include "cli/validators.hpp"
#include "core/errors.hpp"
#include "text/escape.hpp"
#include "text/width.hpp"
#include "version.hpp"

namespace proofdeck::cli {

namespace {

// Help text is wrapped to the terminal (help_format.hpp): a newline ends a paragraph.
constexpr const char* kDescription =
    "proofdeck - study for an LLM certification exam: the transformer architecture (multi-head "
    "attention, positional encoding, layer normalization, residuals, Pre-LN vs Post-LN) and model "
    "optimization (quantization, number formats), with answers proven by live computation.";

constexpr const char* kFooter =
    "Every answer is justified by an embedded transformer-layer engine whose numbers match "
    "PyTorch. Run 'proofdeck SUBCOMMAND --help' for a command's options.\n"
    "Exit codes: 0 ok, 1 check failed, 2 usage or invalid input, 3 state or I/O error, "
    "130 interrupted.";

// --width as given on the command line, for --help, which CLI11 prints while it parses (perhaps
// before it reaches --width); 0 when absent or not a number (the parser reports that).
int width_argument(const std::vector<std::string>& args) {
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string value;
    if (args[i] == "--width" && i + 1 < args.size()) {
      value = args[i + 1];
    } else if (args[i].rfind("--width=", 0) == 0) {
      value = args[i].substr(8);
    } else {
      continue;
    }
    char* end = nullptr;
    const long width = std::strtol(value.c_str(), &end, 10);
    if (end != value.c_str() && *end == '\0' && width >= 20 && width <= 10000)
      return static_cast<int>(width);
  }
  return 0;
}

void print_error(Io& io, const Theme& theme, const std::string& message) {
  fmt::print(io.err, "{} {}\n", fmt::styled("error:", theme.error), text::terminal_safe(message));
}

// A message that is news, not a failure, as a sentence: "interrupted: every answer given was
// saved" → "Interrupted: every answer given was saved."
void print_notice(Io& io, const Theme& theme, std::string message) {
  if (!message.empty() && message.front() >= 'a' && message.front() <= 'z')
    message.front() = static_cast<char>(message.front() - 'a' + 'A');
  if (!message.empty() && message.back() != '.' && message.back() != '!' && message.back() != '?')
    message += '.';
  fmt::print(io.err, "{}\n", fmt::styled(text::terminal_safe(message), theme.warning));
}

}  // namespace

int run(const std::vector<std::string>& args, Io& io) {
  GlobalOptions global;
  std::string color_text = "auto";
  Theme theme = Theme::plain();

  CLI::App app(kDescription, "proofdeck");
  {
    // Every subcommand takes its formatter from the app when it is added: set it first.
    GlobalOptions for_help;
    for_help.width = width_argument(args);
    app.formatter(std::make_shared<HelpFormatter>(text_width(Context{for_help, io, theme})));
  }
  app.footer(kFooter);
  app.set_version_flag("--version", fmt::format("proofdeck {}", kVersion),
                       "Print the version and exit");
  app.fallthrough();  // global options are accepted after the subcommand too
  app.require_subcommand(0, 1);
  app.add_option("--color", color_text,
                 "Colour: auto (a terminal, unless NO_COLOR or TERM=dumb; FORCE_COLOR forces), "
                 "always, never")
      ->check(one_of({"auto", "always", "never"}))
      ->capture_default_str();
  CLI::Option* seed =
      app.add_option("--seed", global.seed,
                     "Seed for every random draw: quiz, exam and drill draw a fresh one each run "
                     "and show it, so --seed N repeats a session; print, export, demo and check "
                     "use 0 unless given")
          ->check(whole_number<std::uint64_t>());

  app.add_option("--bank", global.banks,
                 "A question bank file, or a folder of them, to load besides the built-in ones "
                 "(repeatable)");
  app.add_flag("--no-builtin", global.no_builtin, "Leave the built-in banks out");
  app.add_option("--data-dir", global.data_dir,
                 "Where progress.db lives (default: $PROOFDECK_HOME, else "
                 "$XDG_DATA_HOME/proofdeck, else ~/.local/share/proofdeck)");
  app.add_option("--width", global.width,
                 "Text width in columns, 20 or more: tables, figures and commands use all of "
                 "it, prose wraps at 100 at most (default: the terminal's, else $COLUMNS, else "
                 "80)")
      ->check(whole_number(20, 10000));
  app.add_option("--now", global.now,
                 "The clock, as ISO-8601 (2026-01-01T09:00:00Z or 2026-01-01), for tests and "
                 "back-filling (default: $PROOFDECK_NOW, else the system clock)");

  const std::string program = suggested_program(io.getenv);
  const auto context = [&]() { return Context{global, io, theme, program}; };
  setup_quiz(app, context);
  setup_exam(app, context);
  setup_drill(app, context);
  setup_stats(app, context);
  setup_demo(app, context);
  setup_check(app, context);
  setup_print(app, context);
  setup_export(app, context);
  setup_engine(app, context);
  setup_list(app, context);
  setup_analyze(app, context);

  // CLI11 parses from the back of a vector, without the program name.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  if (!reversed.empty()) reversed.pop_back();
  try {
    app.parse_complete_callback([&] {
      global.color = *parse_color_mode(color_text);
      global.seed_given = seed->count() > 0;
      theme = should_color(global.color, io.out_is_terminal, io.getenv) ? Theme::colored()
                                                                        : Theme::plain();
    });
    app.parse(reversed);
    if (app.get_subcommands().empty()) {
      io.out << app.help();
    }
    return static_cast<int>(ExitCode::ok);
  } catch (const CLI::CallForHelp&) {
    io.out << app.help();
    return static_cast<int>(ExitCode::ok);
  } catch (const CLI::CallForAllHelp&) {
    io.out << app.help("", CLI::AppFormatMode::All);
    return static_cast<int>(ExitCode::ok);
  } catch (const CLI::CallForVersion& e) {
    io.out << e.what() << "\n";
    return static_cast<int>(ExitCode::ok);
  } catch (const CLI::ParseError& e) {
    print_error(io, theme, usage_message(app, e));
    io.err << "Run with --help for more information.\n";
    return static_cast<int>(ExitCode::invalid_input);
  } catch (const Error& e) {
    if (e.exit_code() == ExitCode::interrupted) {
      print_notice(io, theme, e.message());  // the learner's Ctrl-C: no error of theirs or ours
    } else {
      print_error(io, theme, e.message());
    }
    return static_cast<int>(e.exit_code());
  } catch (const std::bad_alloc&) {
    print_error(io, theme, "out of memory; try smaller sizes");
    return static_cast<int>(ExitCode::state);
  } catch (const std::exception& e) {
    // A bug or an environment failure no check foresaw: still a message and an exit code.
    print_error(io, theme, fmt::format("unexpected failure: {}", e.what()));
    return static_cast<int>(ExitCode::state);
  }
}

}  // namespace proofdeck::cli
