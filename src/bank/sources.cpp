// Loading the built-in banks and the --bank paths.
#include "bank/sources.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <iterator>

#include <fmt/format.h>

#include "bank/builtin.hpp"
#include "bank/prerequisites.hpp"
#include "core/json_input.hpp"

namespace proofdeck::bank {

namespace fs = std::filesystem;

namespace {

// Every source as read, in order: the built-in banks, then each --bank path (a folder's banks in
// name order). A file that cannot be read or parsed, or a folder with no banks, is a reading with
// that one problem and no bank.
std::vector<BankReading> read_sources(const BankSources& sources, const LoadLimits& limits) {
  std::vector<BankReading> readings;
  const auto unread = [&](std::string problem) {
    readings.push_back(BankReading{{}, {std::move(problem)}, {}});
  };
  const auto load = [&](std::string_view text, const std::string& name, bool builtin) {
    try {
      readings.push_back(read_bank(text, name, limits));
      readings.back().bank.builtin = builtin;
    } catch (const InputError& e) {
      unread(e.message());
    }
  };
  const auto read_and_load = [&](const std::string& path) {
    std::string text;
    try {
      text = read_text_file(path, limits.max_bytes, std::cin);
    } catch (const InputError& e) {
      return unread(e.message());
    }
    load(text, path, false);
  };
  if (sources.builtin) {
    for (const EmbeddedBank& embedded : builtin_banks())
      load(embedded.text, std::string(embedded.name), true);
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
      if (files.empty()) unread(fmt::format("{}: no *.json banks in this folder", path));
      for (const fs::path& file : files)
        read_and_load(file.string());
    } else {
      read_and_load(path);
    }
  }
  return readings;
}

// Reads every source and, with `proofs`, checks the proofs it covers; every problem is listed,
// each file's own followed by its proofs', then those of the banks combined.
std::vector<Bank> load_all(const BankSources& sources, const ProofCheck* proofs,
                           const LoadLimits& limits) {
  std::vector<BankReading> readings = read_sources(sources, limits);
  const bool all_read = std::all_of(readings.begin(), readings.end(),
                                    [](const BankReading& r) { return r.problems.empty(); });
  std::vector<Bank> banks;
  for (BankReading& reading : readings) {
    if (reading.problems.empty()) banks.push_back(std::move(reading.bank));
  }
  const auto checks_proofs = [&](const Bank& bank) {
    return proofs != nullptr && (proofs->builtin || !bank.builtin);
  };
  if (proofs != nullptr && proofs->threads > 1) {
    std::vector<Bank> added;  // the banks checked, when not all of them are
    if (!proofs->builtin) {
      std::copy_if(banks.begin(), banks.end(), std::back_inserter(added),
                   [](const Bank& bank) { return !bank.builtin; });
    }
    proofs->runner.prefetch(proofs->builtin ? banks : added, proofs->threads);
  }
  std::vector<std::string> problems;
  std::size_t next_bank = 0;
  for (const BankReading& reading : readings) {
    problems.insert(problems.end(), reading.problems.begin(), reading.problems.end());
    const Bank& bank = reading.problems.empty() ? banks.at(next_bank++) : reading.bank;
    if (!checks_proofs(bank)) continue;
    for (const std::size_t question : reading.provable) {
      std::vector<std::string> found =
          resolve_problems(bank.questions.at(question), proofs->runner);
      problems.insert(problems.end(), found.begin(), found.end());
    }
  }
  // Where banks combine: ids, objectives and requires, once every bank reads.
  if (all_read) {
    try {
      check_unique_ids(banks);
      check_objectives(banks);
      check_same_facts(banks);
      check_prerequisites(banks);
    } catch (const BankErrors& e) {
      problems.insert(problems.end(), e.problems().begin(), e.problems().end());
    }
  }
  if (!problems.empty()) throw BankErrors(std::move(problems));
  return banks;
}

}  // namespace

std::vector<Bank> load_banks(const BankSources& sources, const LoadLimits& limits) {
  return load_all(sources, nullptr, limits);
}

std::vector<Bank> load_banks(const BankSources& sources, const ProofCheck& proofs,
                             const LoadLimits& limits) {
  return load_all(sources, &proofs, limits);
}

}  // namespace proofdeck::bank
