// What the study subcommands share: the banks (with --bank files checked against the demo
// catalog before a session starts), the clock (--now), the progress folder, the question filters,
// and a Session wired to the command's streams.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>
#include <vector>

#include "bank/model.hpp"
#include "bank/selection.hpp"
#include "cli/app.hpp"
#include "study/modes.hpp"
#include "study/progress.hpp"
#include "study/session.hpp"

namespace proofdeck::cli {

// The banks a study command works on. `--bank` takes files and folders to load; a value that is
// neither but names a loaded bank's id selects that bank instead (the quiz filter `--bank ID`),
// as `--from-bank ID` does.
struct StudyBanks {
  std::vector<bank::Bank> banks;
  std::vector<std::string> selected;  // bank ids given to --bank
};

// Loads the banks; banks from --bank files are also checked against the demo catalog (the
// built-in ones are proven by CI). BankErrors (exit 2) with every problem.
StudyBanks load_study_banks(const Context& context);

// --now, else PROOFDECK_NOW, else the system clock; InputError naming a value that is not
// ISO-8601.
study::TimePoint resolve_now(const Context& context);

std::filesystem::path data_dir(const Context& context);

// The progress database in `dir` (ProgressStore::open). One it creates is announced on standard
// error, "note: new progress database at PATH", so a mistyped --data-dir is noticed at once.
study::ProgressStore open_progress(const Context& context, const std::filesystem::path& dir);

// --topic, --trap, --type, --question (each repeatable); the bank filter is --from-bank, since
// --bank already loads a bank file.
void add_filter_options(CLI::App* command, bank::Filters& filters);

// The session's moving parts, built once the command runs.
struct StudyRun {
  std::vector<bank::Bank> banks;
  std::vector<std::string> selected;  // bank ids given to --bank: add them to the filters
  study::LineReader reader;
  std::unique_ptr<study::Session> session;
  study::ReportWriter write;
};
std::unique_ptr<StudyRun> start_study(Context& context);

// Exit 130 after an interrupted session (its answers are saved).
void finish_study(const study::Outcome& outcome);

}  // namespace proofdeck::cli
