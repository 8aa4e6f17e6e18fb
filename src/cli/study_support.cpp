// Shared wiring of the study subcommands.
#include "cli/study_support.hpp"

#include "bank/selection.hpp"
#include "cli/validators.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <random>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/proof.hpp"
#include "bank/sources.hpp"
#include "core/errors.hpp"
#include "text/suggest.hpp"

namespace proofdeck::cli {

StudyBanks load_study_banks(const Context& context) {
  std::vector<std::string> paths, ids;
  for (const std::string& value : context.global.banks) {
    std::error_code error;
    const bool id_like = value.find_first_of("/.") == std::string::npos;
    (id_like && !std::filesystem::exists(value, error) ? ids : paths).push_back(value);
  }
  std::vector<bank::Bank> banks =
      bank::load_banks(bank::BankSources{paths, !context.global.no_builtin});
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
  std::vector<bank::Bank> added;
  for (const bank::Bank& b : banks) {
    if (!b.builtin) added.push_back(b);
  }
  if (!added.empty()) {
    bank::DemoRunner runner = bank::proof_runner(context.global.seed);
    if (std::vector<std::string> problems = bank::resolve_problems(added, runner);
        !problems.empty())
      throw bank::BankErrors(std::move(problems));
  }
  std::size_t questions = 0;
  for (const bank::Bank& b : banks)
    questions += b.questions.size();
  if (questions == 0) {
    throw InputError("study.empty",
                     "no questions to study: load a bank with --bank FILE or DIR (or drop "
                     "--no-builtin)");
  }
  return StudyBanks{std::move(banks), std::move(ids)};
}

study::TimePoint resolve_now(const Context& context) {
  std::string text = context.global.now;
  std::string source = "--now";
  if (text.empty()) {
    const char* env = context.io.getenv ? context.io.getenv("PROOFDECK_NOW") : nullptr;
    if (env != nullptr && *env != '\0') {
      text = env;
      source = "PROOFDECK_NOW";
    }
  }
  if (text.empty()) {
    return std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
  }
  const std::optional<study::TimePoint> parsed = study::parse_time(text);
  if (!parsed) {
    throw InputError("study.now",
                     fmt::format("{} '{}': expected an ISO-8601 time such as "
                                 "2026-01-01T09:00:00Z, 2026-01-01T09:00:00+02:00 or 2026-01-01",
                                 source, text));
  }
  return *parsed;
}

std::filesystem::path data_dir(const Context& context) {
  return study::resolve_data_dir(context.global.data_dir, context.io.getenv);
}

study::ProgressStore open_progress(const Context& context, const std::filesystem::path& dir) {
  study::ProgressStore store = study::ProgressStore::open(dir);
  if (store.created())
    context.io.err << "note: new progress database at " << store.path().string() << "\n";
  return store;
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

namespace {

// A new form each run: five or six digits, short enough to read off the screen and retype.
std::uint64_t fresh_seed() {
  std::random_device device;
  return 10000 + device() % 990000;
}

}  // namespace

std::unique_ptr<StudyRun> start_study(Context& context) {
  StudyBanks loaded = load_study_banks(context);
  auto run = std::unique_ptr<StudyRun>(
      new StudyRun{std::move(loaded.banks),
                   std::move(loaded.selected),
                   study::LineReader(context.io.in, context.io.in_fd, context.io.out),
                   nullptr,
                   {}});
  run->session = std::unique_ptr<study::Session>(new study::Session{
      .banks = run->banks,
      .out = context.io.out,
      .reader = run->reader,
      .theme = context.theme,
      .width = text_width(context),
      .echo_input = context.io.in_fd < 0 || isatty(context.io.in_fd) == 0,
      .seed = context.global.seed_given ? context.global.seed : fresh_seed(),
      .start = resolve_now(context),
      .started = std::chrono::steady_clock::now(),
      .runner = bank::proof_runner(bank::kProofSeed),
      .err = &context.io.err,
      .clock = {},  // the steady clock
  });
  Io* io = &context.io;
  run->write = [io](const std::string& path, const std::string& text) {
    write_output(path, text, *io);
  };
  return run;
}

void finish_study(const study::Outcome& outcome) {
  if (outcome.interrupted) {
    throw Error("study.interrupted",
                outcome.unrated ? "interrupted: every answer given was saved but the last, "
                                  "left unrated"
                                : "interrupted: every answer given was saved",
                ExitCode::interrupted);
  }
}

}  // namespace proofdeck::cli
