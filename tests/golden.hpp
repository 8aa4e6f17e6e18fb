// Golden files: an output compared byte for byte with tests/golden/NAME. One rule for every
// golden: PROOFDECK_UPDATE_GOLDENS=1 rewrites the file instead (review the diff, then commit);
// any other value, or none, compares. A difference names the first line that differs and the
// diff command to see them all.
#pragma once

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#ifndef PROOFDECK_GOLDEN_DIR
#define PROOFDECK_GOLDEN_DIR PROOFDECK_FIXTURE_DIR "/../golden"
#endif

namespace proofdeck::testing {

// A file's bytes; empty when it cannot be read.
inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), {}};
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);)
    lines.push_back(line);
  return lines;
}

// PROOFDECK_UPDATE_GOLDENS=1: the goldens are being rewritten, not compared.
inline bool updating_goldens() {
  const char* update = std::getenv("PROOFDECK_UPDATE_GOLDENS");
  return update != nullptr && std::string_view(update) == "1";
}

// Compares `actual` with tests/golden/NAME, or rewrites the file when updating_goldens().
inline void check_golden(const std::string& name, const std::string& actual) {
  namespace fs = std::filesystem;
  const fs::path golden = (fs::path(PROOFDECK_GOLDEN_DIR) / name).lexically_normal();
  if (updating_goldens()) {
    fs::create_directories(golden.parent_path());
    std::ofstream(golden, std::ios::binary) << actual;
    WARN("rewrote " << golden.string());
    return;
  }
  if (!fs::exists(golden)) {
    FAIL_CHECK(golden.string() << " is missing; write it with PROOFDECK_UPDATE_GOLDENS=1");
    return;
  }
  const std::string expected = read_file(golden);
  if (actual == expected) {
    SUCCEED(golden.string() << " matches");
    return;
  }
  const fs::path written =
      fs::temp_directory_path() / ("proofdeck-actual-" + golden.filename().string());
  std::ofstream(written, std::ios::binary) << actual;
  const auto want = lines_of(expected), got = lines_of(actual);
  std::size_t line = 0;
  while (line < want.size() && line < got.size() && want[line] == got[line])
    ++line;
  FAIL_CHECK(
      golden.string() << " differs from the output, first at line " << line + 1 << ":\n"
                      << "  expected: " << (line < want.size() ? want[line] : "(end of file)")
                      << "\n  actual:   " << (line < got.size() ? got[line] : "(end of output)")
                      << "\nsee: diff -u " << golden.string() << ' ' << written.string()
                      << "\naccept with: PROOFDECK_UPDATE_GOLDENS=1 and rerun the test");
}

}  // namespace proofdeck::testing
