// What every subcommand runs with: the global options, the streams and environment (through Io,
// so tests drive the whole CLI in-process), the theme and how the user runs proofdeck; and the
// two things every command does with them — the width of text output, and writing a result to a
// file or standard output. Command headers include this, never app.hpp, which wires them.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "render/theme.hpp"

namespace proofdeck::cli {

struct GlobalOptions {
  ColorMode color = ColorMode::automatic;  // --color auto|always|never
  std::uint64_t seed = 0;                  // --seed: fixes every random draw
  bool seed_given = false;  // --seed was given (quiz, exam and drill draw a fresh one otherwise)
  std::vector<std::string> banks;  // --bank FILE|DIR (repeatable)
  bool no_builtin = false;         // --no-builtin: leave the built-in banks out
  std::string data_dir;            // --data-dir (else PROOFDECK_HOME, XDG, ~/.local/share)
  std::string now;                 // --now ISO-8601 (else PROOFDECK_NOW, else the clock)
  int width = 0;                   // --width N (N >= 20); 0: the terminal's, else $COLUMNS, else 80
};

struct Io {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  bool out_is_terminal = false;  // standard output is a terminal (colour when auto)
  GetEnv getenv;
  int in_fd = -1;  // the descriptor behind `in` when it is the process's stdin (signals, deadlines)
  int terminal_columns = 0;  // the terminal's width when standard output is one (0: unknown)
  // The terminal's width now, a resize since the start included (0: unknown); unset, it is
  // terminal_columns. A session reads it again before each question.
  std::function<int()> measure_columns = nullptr;
};

// The name the Debian package installs proofdeck under.
inline constexpr const char* kInstalledName = "proofdeck";

// What a subcommand's run_<name> function gets.
struct Context {
  const GlobalOptions& global;
  Io& io;
  Theme theme;  // resolved once from --color and the environment
  // How the user runs proofdeck, as the commands it suggests in a session's or a demo's terminal
  // output begin: PROOFDECK_COMMAND (./scripts/run sets it), else the installed name. Help, the
  // man page, printouts and exports always say "proofdeck".
  std::string program = kInstalledName;
};

// PROOFDECK_COMMAND when set to a printable, one-line value, else kInstalledName.
std::string suggested_program(const GetEnv& getenv);

// Columns for text output, decided in one place: --width, else the terminal's width when standard
// output is a terminal, else $COLUMNS (20 or more), else 80.
int text_width(const Context& context);

// Writes text to path atomically (a temporary file renamed into place), or to io.out when
// path is empty or "-". StateError (exit 3) when the file cannot be written.
void write_output(const std::string& path, const std::string& text, Io& io);

}  // namespace proofdeck::cli
