// `proofdeck stats`: progress, retention, due forecast, the traps you keep falling for.
#include <memory>

#include "cli/study_cmds.hpp"
#include "cli/study_support.hpp"
#include "study/stats.hpp"

namespace proofdeck::cli {

void setup_stats(CLI::App& app, const std::function<Context()>& context) {
  auto format = std::make_shared<std::string>("text");
  CLI::App* stats = app.add_subcommand(
      "stats", "Progress: reviews, retention, due forecast, mastery, the traps you fall for");
  stats->add_option("--format", *format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  stats->footer(
      "True retention is the share of drill reviews, made a day or more after the previous one, "
      "that were right. Recall is FSRS's probability that you remember a drilled card now. A "
      "trap's miss rate: answers that fell into it over answers to questions that test it; "
      "practise one with proofdeck quiz --trap ID.");
  stats->callback([format, context] {
    Context ctx = context();
    const std::vector<bank::Bank> banks = load_study_banks(ctx).banks;
    study::ProgressStore store = study::ProgressStore::open(data_dir(ctx));
    const nlohmann::ordered_json result = study::compute_stats(store, banks, resolve_now(ctx));
    if (*format == "json") {
      ctx.io.out << result.dump(2) << "\n";
    } else {
      ctx.io.out << study::render_stats(result, ctx.theme, text_width(ctx));
    }
  });
}

}  // namespace proofdeck::cli
