// `proofdeck stats`: progress, retention, due forecast, exams, readiness, the traps you keep
// falling for.
#include <filesystem>
#include <memory>
#include <optional>

#include "cli/study_cmds.hpp"
#include "cli/study_run.hpp"
#include "cli/validators.hpp"
#include "study/stats.hpp"

namespace proofdeck::cli {

namespace {

struct StatsCmdOptions {
  std::string format = "text";  // --format text|json
  study::StatsOptions stats;    // --pass PCT
};

}  // namespace

void setup_stats(CLI::App& app, const std::function<Context()>& context) {
  auto options = std::make_shared<StatsCmdOptions>();
  CLI::App* stats = app.add_subcommand(
      "stats",
      "Progress: reviews, retention, due forecast, mastery, exams, readiness, the traps you fall "
      "for");
  stats->add_option("--format", options->format, "text or json")
      ->check(one_of({"text", "json"}))
      ->capture_default_str();
  stats
      ->add_option("--pass", options->stats.pass,
                   "Pass mark readiness is compared with, percent of the questions right")
      ->check(number(0.0, 100.0))
      ->capture_default_str();
  stats->footer(
      "True retention is the share of drill reviews, made a day or more after the previous one, "
      "that were right. Recall is FSRS's probability that you remember a drilled card now. "
      "Readiness is the score you can expect on a fresh exam form drawn from the loaded banks' "
      "objectives, with an 80% interval: what your first answers show of each objective, pooled "
      "with its topic and everything else you answered, and each question's own memory from "
      "your later answers (docs/readiness.md; README § How readiness is estimated). Objectives "
      "you have never answered are listed as not yet seen. A trap's miss rate: "
      "answers that fell into it over answers to questions that test it; practise one with "
      "proofdeck quiz --trap ID.");
  stats->callback([options, context] {
    Context ctx = context();
    const std::vector<bank::Bank> banks = load_banks(ctx).banks;
    // Read only: stats never creates a store, and a learner who mistyped --data-dir is told
    // there is no progress there rather than shown an empty one.
    const std::filesystem::path dir = data_dir(ctx);
    std::optional<study::ProgressStore> existing = study::ProgressStore::open_existing(dir);
    if (!existing && options->format == "text") {
      ctx.io.out << study::render_no_progress(dir, text_width(ctx));
      return;
    }
    study::ProgressStore store = existing ? std::move(*existing) : study::ProgressStore::empty();
    study::StatsOptions stats_options = options->stats;
    stats_options.program = ctx.program;
    const study::Stats computed =
        study::compute_stats(store, banks, resolve_now(ctx), stats_options);
    if (options->format == "json") {
      // "store" first: the database read, null when there is none yet.
      nlohmann::ordered_json result = {
          {"store", existing ? nlohmann::ordered_json(store.path().string()) : nullptr}};
      nlohmann::ordered_json sections = computed;
      for (auto& [key, value] : sections.items())
        result[key] = std::move(value);
      ctx.io.out << result.dump(2) << "\n";
    } else {
      ctx.io.out << study::render_stats(computed, ctx.theme, text_width(ctx), ctx.program);
    }
  });
}

}  // namespace proofdeck::cli
