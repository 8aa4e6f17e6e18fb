// The text width, writing output, and how the user runs proofdeck (context.hpp).
#include "cli/context.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "text/escape.hpp"
#include "text/width.hpp"

namespace proofdeck::cli {

int text_width(const Context& context) {
  constexpr int kNarrowest = 20;
  if (context.global.width >= kNarrowest) return context.global.width;
  if (context.io.out_is_terminal) {
    const int columns =
        context.io.measure_columns ? context.io.measure_columns() : context.io.terminal_columns;
    if (columns >= kNarrowest) return columns;
  }
  if (const char* columns = context.io.getenv ? context.io.getenv("COLUMNS") : nullptr) {
    char* end = nullptr;
    const long value = std::strtol(columns, &end, 10);
    if (end != columns && *end == '\0' && value >= kNarrowest && value <= 10000)
      return static_cast<int>(value);
  }
  return text::kDefaultWidth;
}

std::string suggested_program(const GetEnv& getenv) {
  const char* value = getenv ? getenv("PROOFDECK_COMMAND") : nullptr;
  if (value == nullptr || *value == '\0') return kInstalledName;
  const std::string program(value);
  // A value that would not print as typed (control characters, a line break) is not a command.
  if (text::terminal_safe(program, text::Newlines::as_spaces) != program) return kInstalledName;
  return program;
}

void write_output(const std::string& path, const std::string& text, Io& io) {
  if (path.empty() || path == "-") {
    io.out << text;
    io.out.flush();
    return;
  }
  // Written beside the target and renamed, so a failed write never leaves half a file.
  const std::filesystem::path target(path);
  const std::filesystem::path temporary = target.string() + ".proofdeck-partial";
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file) {
      throw StateError("io.write", fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
    }
    file << text;
    file.flush();
    if (!file) {
      const std::string reason = std::strerror(errno);
      file.close();
      std::filesystem::remove(temporary);
      throw StateError("io.write", fmt::format("{}: write failed: {}", path, reason));
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, target, error);
  if (error) {
    std::filesystem::remove(temporary);
    throw StateError("io.write", fmt::format("{}: cannot write: {}", path, error.message()));
  }
}

}  // namespace proofdeck::cli
