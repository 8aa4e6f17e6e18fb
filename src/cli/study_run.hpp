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

// --confidence and --no-confidence on quiz, exam and drill: ask how sure each answer is, or stop
// asking; the last one given is saved for later sessions.
struct ConfidenceFlags {
  bool on = false;
  bool off = false;
};
void add_confidence_flags(CLI::App* command, ConfidenceFlags& flags);

// Whether the session asks: the flag given (saved in the store for later sessions), else the
// choice saved, else no. Both flags at once are a usage error (exit 2) that saves nothing.
void apply_confidence(const ConfidenceFlags& flags, study::ProgressStore& store,
                      study::Session& session);

// Exit 130 after an interrupted session (its answers are saved).
void finish_study(const study::Outcome& outcome);

}  // namespace proofdeck::cli
