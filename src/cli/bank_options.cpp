// The banks a command works on and the questions it selects (see bank_options.hpp).
#include "cli/bank_options.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/proof.hpp"
#include "bank/sources.hpp"
#include "cli/validators.hpp"
#include "core/errors.hpp"
#include "text/suggest.hpp"

namespace proofdeck::cli {

LoadedBanks load_banks(const Context& context) {
  std::vector<std::string> paths, ids;
  for (const std::string& value : context.global.banks) {
    std::error_code error;
    const bool id_like = value.find_first_of("/.") == std::string::npos;
    (id_like && !std::filesystem::exists(value, error) ? ids : paths).push_back(value);
  }
  bank::DemoRunner runner = bank::proof_runner(context.global.seed);
  std::vector<bank::Bank> banks = bank::load_banks(
      bank::BankSources{paths, !context.global.no_builtin}, bank::ProofCheck{.runner = runner});
  for (const std::string& id : ids) {
    if (std::none_of(banks.begin(), banks.end(), [&](const bank::Bank& b) { return b.id == id; })) {
      std::string known;
      std::vector<std::string> bank_ids;
      for (const bank::Bank& b : banks) {
        known += (known.empty() ? "" : ", ") + b.id;
        bank_ids.push_back(b.id);
      }
      throw InputError(
          "bank.path",
          fmt::format("--bank {}: no such file or folder, and no loaded bank has "
                      "that id{} (the banks: {})",
                      id, text::did_you_mean(id, bank_ids), known.empty() ? "none" : known));
    }
  }
  std::size_t questions = 0;
  for (const bank::Bank& b : banks)
    questions += b.questions.size();
  if (questions == 0) {
    throw InputError("study.empty",
                     "no questions to study: load a bank with --bank FILE or DIR (or drop "
                     "--no-builtin)");
  }
  return LoadedBanks{std::move(banks), std::move(ids)};
}

void add_selected_banks(const LoadedBanks& loaded, bank::Filters& filters) {
  filters.banks.insert(filters.banks.end(), loaded.selected.begin(), loaded.selected.end());
}

std::vector<const bank::Question*> selected_questions(const LoadedBanks& loaded,
                                                      bank::Filters& filters) {
  add_selected_banks(loaded, filters);
  return bank::select_questions(loaded.banks, filters);
}

void add_filter_options(CLI::App* command, bank::Filters& filters) {
  command->add_option("--topic", filters.topics, "Only questions of this topic (repeatable)")
      ->group("Filters");
  command->add_option("--trap", filters.traps, "Only questions that test this trap (repeatable)")
      ->group("Filters");
  command->add_option("--from-bank", filters.banks, "Only questions of this bank id (repeatable)")
      ->group("Filters");
  command
      ->add_option("--type", filters.types,
                   fmt::format("Only questions of this type: {} (repeatable)",
                               fmt::join(bank::question_type_names(), ", ")))
      ->check(one_of(bank::question_type_names()))
      ->group("Filters");
  command->add_option("--question", filters.questions, "Only this question id (repeatable)")
      ->group("Filters");
}

}  // namespace proofdeck::cli
