// Loading the built-in banks and the --bank paths.
#include "bank/sources.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "bank/builtin.hpp"
#include "bank/prerequisites.hpp"
#include "core/json_input.hpp"

namespace proofdeck::bank {

namespace fs = std::filesystem;

std::vector<Bank> load_banks(const BankSources& sources, const LoadLimits& limits) {
  std::vector<Bank> banks;
  std::vector<std::string> problems;
  const auto load = [&](std::string_view text, const std::string& name) {
    try {
      banks.push_back(load_bank(text, name, limits));
    } catch (const BankErrors& e) {
      problems.insert(problems.end(), e.problems().begin(), e.problems().end());
    } catch (const InputError& e) {
      problems.push_back(e.message());
    }
  };
  const auto read_and_load = [&](const std::string& path) {
    try {
      load(read_text_file(path, limits.max_bytes, std::cin), path);
    } catch (const InputError& e) {
      problems.push_back(e.message());
    }
  };
  if (sources.builtin) {
    for (const EmbeddedBank& embedded : builtin_banks()) {
      load(embedded.text, std::string(embedded.name));
      if (!banks.empty() && banks.back().file == embedded.name) banks.back().builtin = true;
    }
  }
  for (const std::string& path : sources.paths) {
    std::error_code error;
    if (fs::is_directory(path, error)) {
      std::vector<fs::path> files;
      for (const auto& entry : fs::directory_iterator(path, error)) {
        if (entry.path().extension() == ".json" && entry.path().filename() != "schema.json") {
          files.push_back(entry.path());
        }
      }
      if (error) {
        throw InputError("bank.path", fmt::format("{}: cannot list: {}", path, error.message()));
      }
      std::sort(files.begin(), files.end());
      if (files.empty())
        problems.push_back(fmt::format("{}: no *.json banks in this folder", path));
      for (const fs::path& file : files)
        read_and_load(file.string());
    } else {
      read_and_load(path);
    }
  }
  if (!problems.empty()) throw BankErrors(std::move(problems));
  check_unique_ids(banks);
  check_objectives(banks);
  check_prerequisites(banks);
  return banks;
}

}  // namespace proofdeck::bank
