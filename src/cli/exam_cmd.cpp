// `proofdeck exam`: a timed simulation, no feedback until the end.
#include <memory>

#include "cli/study_cmds.hpp"
#include "cli/study_support.hpp"
#include "study/input.hpp"

namespace proofdeck::cli {

void setup_exam(CLI::App& app, const std::function<Context()>& context) {
  auto options = std::make_shared<study::ExamOptions>();
  CLI::App* exam = app.add_subcommand(
      "exam", "Timed exam simulation: no feedback until the end, then pass/fail");
  add_filter_options(exam, options->filters);
  exam->add_option("-n,--count", options->count, "Questions, drawn across topics in proportion")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  exam->add_option("--minutes", options->minutes,
                   "Time allowed; when it runs out, what was "
                   "answered is submitted")
      ->check(CLI::Range(0.01, 1440.0))
      ->capture_default_str();
  exam->add_option("--pass", options->pass, "Pass mark, percent of the questions right")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  exam->add_option("--report", options->report_path, "Write the result as JSON to FILE");
  exam->footer(
      "Each prompt shows the time left and your progress. f flags a question for review (a "
      "review pass of flagged and unanswered questions comes before you submit), s skips, q "
      "submits early. The result: score, pass or fail, per topic, the traps you fell into, and "
      "every missed question with its explanation. Kept in the history (`proofdeck stats`).\n"
      "Example: proofdeck exam --count 20 --minutes 25 --pass 75");
  exam->callback([options, context] {
    Context ctx = context();
    auto run = start_study(ctx);
    auto run_options = *options;
    run_options.filters.banks.insert(run_options.filters.banks.end(), run->selected.begin(),
                                     run->selected.end());
    study::ProgressStore store = study::ProgressStore::open(data_dir(ctx));
    study::InterruptGuard guard;
    finish_study(study::run_exam(*run->session, store, run_options, run->write));
  });
}

}  // namespace proofdeck::cli
