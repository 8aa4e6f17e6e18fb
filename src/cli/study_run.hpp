// What the study subcommands share beyond the banks (bank_options.hpp): the clock (--now), the
// progress folder, and a Session wired to the command's streams.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>
#include <vector>

#include "bank/model.hpp"
#include "cli/bank_options.hpp"
#include "cli/context.hpp"
#include "study/modes.hpp"
#include "study/progress.hpp"
#include "study/session.hpp"

namespace proofdeck::cli {

// --now, else PROOFDECK_NOW, else the system clock; InputError naming a value that is not
// ISO-8601.
study::TimePoint resolve_now(const Context& context);

std::filesystem::path data_dir(const Context& context);

// The progress database in `dir` (ProgressStore::open). One it creates is announced on standard
// error, "note: new progress database at PATH", so a mistyped --data-dir is noticed at once.
study::ProgressStore open_progress(const Context& context, const std::filesystem::path& dir);

// The session's moving parts, built once the command runs.
struct StudyRun {
  LoadedBanks loaded;  // its --bank ID selections join the filters through selected_questions
  study::LineReader reader;
  std::unique_ptr<study::Session> session;
  study::ReportWriter write;
};
std::unique_ptr<StudyRun> start_study(Context& context);

// Exit 130 after an interrupted session (its answers are saved).
void finish_study(const study::Outcome& outcome);

}  // namespace proofdeck::cli
