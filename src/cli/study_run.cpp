// Shared wiring of the study subcommands.
#include "cli/study_run.hpp"

#include "bank/selection.hpp"
#include "cli/validators.hpp"

#include <unistd.h>

#include <cstdlib>
#include <random>

#include <fmt/format.h>

#include "bank/proof.hpp"
#include "core/errors.hpp"

namespace proofdeck::cli {

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

void add_confidence_flags(CLI::App* command, ConfidenceFlags& flags) {
  command->add_flag("--confidence", flags.on,
                    "After each answer, ask how sure you are (1 guessing, 2 fairly sure, 3 sure) "
                    "and mark it as Moodle's certainty-based marking does; kept for later "
                    "sessions");
  command->add_flag("--no-confidence", flags.off,
                    "Stop asking how sure you are (kept for later sessions)");
}

void apply_confidence(const ConfidenceFlags& flags, study::ProgressStore& store,
                      study::Session& session) {
  if (flags.on && flags.off) {
    throw InputError("study.confidence",
                     "--confidence and --no-confidence: give one, to ask how sure each answer is "
                     "or to stop asking");
  }
  if (flags.on || flags.off) store.set_asks_confidence(flags.on);
  session.asks_confidence = store.asks_confidence();
}

namespace {

// A new form each run: five or six digits, short enough to read off the screen and retype.
std::uint64_t fresh_seed() {
  std::random_device device;
  return 10000 + device() % 990000;
}

}  // namespace

std::unique_ptr<StudyRun> start_study(Context& context) {
  LoadedBanks loaded = load_banks(context);
  auto run = std::unique_ptr<StudyRun>(
      new StudyRun{std::move(loaded),
                   study::LineReader(context.io.in, context.io.in_fd, context.io.out),
                   nullptr,
                   {}});
  run->session = std::unique_ptr<study::Session>(new study::Session{
      .banks = run->loaded.banks,
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
      .program = context.program,
      .measure_width = nullptr,
  });
  if (context.global.width == 0 && context.io.out_is_terminal)
    run->session->measure_width = [&context] { return text_width(context); };
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
