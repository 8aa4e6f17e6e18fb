// Driving the command line in-process for tests: string streams for stdin/stdout/stderr, a map
// for the environment, and temporary folders that clean up after themselves.
#pragma once

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli/app.hpp"
#include "render/theme.hpp"

namespace cli_test {

namespace fs = std::filesystem;

using Environment = std::map<std::string, std::string>;

inline proofdeck::GetEnv getenv_from(Environment environment) {
  return [environment = std::move(environment)](const char* name) -> const char* {
    const auto it = environment.find(name);
    return it == environment.end() ? nullptr : it->second.c_str();
  };
}

// One run of `proofdeck ARGS...`, like CLI11's TApp fixture: set `in`, `env` and
// `out_is_terminal`, call run(), read `out` and `err`.
struct Cli {
  std::istringstream in;
  std::ostringstream out;
  std::ostringstream err;
  Environment env;
  bool out_is_terminal = false;
  int terminal_columns = 0;                        // the terminal's width, when out_is_terminal
  std::function<int()> measure_columns = nullptr;  // its width now (a resize), when set

  int run(std::vector<std::string> args) {
    args.insert(args.begin(), "proofdeck");
    proofdeck::cli::Io io{in, out, err, out_is_terminal, getenv_from(env)};
    io.terminal_columns = terminal_columns;
    io.measure_columns = measure_columns;
    // The process's own stdin is emptied meanwhile: reading it instead of io.in must fail a test,
    // never wait for a keyboard.
    std::istringstream no_input;
    std::streambuf* const real_stdin = std::cin.rdbuf(no_input.rdbuf());
    struct Restore {
      std::streambuf* buffer;
      ~Restore() { std::cin.rdbuf(buffer); }
    } restore{real_stdin};
    return proofdeck::cli::run(args, io);
  }
};

// A fresh directory under the system's temporary folder, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::random_device random;
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    path_ = fs::temp_directory_path() /
            ("proofdeck-test-cli-" + std::to_string(stamp) + "-" + std::to_string(random()));
    fs::create_directory(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const fs::path& path() const { return path_; }

  // Writes a file into the directory and returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    const fs::path file = path_ / name;
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }

  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path_)) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  fs::path path_;
};

}  // namespace cli_test
