// `proofdeck exam`: a timed simulation, no feedback until the end.
#include <memory>

#include "cli/study_cmds.hpp"
#include "cli/study_support.hpp"
#include "cli/validators.hpp"
#include "study/input.hpp"

namespace proofdeck::cli {

void setup_exam(CLI::App& app, const std::function<Context()>& context) {
  auto options = std::make_shared<study::ExamOptions>();
  CLI::App* exam = app.add_subcommand(
      "exam", "Timed exam simulation: no feedback until the end, then pass/fail");
  add_filter_options(exam, options->filters);
  exam->add_option("-n,--count", options->count, "Questions, drawn across topics in proportion")
      ->check(whole_number(1, 1000))
      ->capture_default_str();
  exam->add_option("--minutes", options->minutes,
                   "Time allowed; when it runs out, what was "
                   "answered is submitted")
      ->check(number(0.01, 1440.0))
      ->capture_default_str();
  exam->add_option("--pass", options->pass, "Pass mark, percent of the questions right")
      ->check(number(0.0, 100.0))
      ->capture_default_str();
  auto no_demo = std::make_shared<bool>(false);
  exam->add_flag("--no-demo", *no_demo, "Leave the proof figures out of the results");
  exam->add_option("--report", options->report_path, "Write the result as JSON to FILE");
  exam->footer(
      "Each run draws a new form and shows its seed; --seed N repeats one. The prompt shows the "
      "time left and your progress; warnings come at 5 and 1 minutes left. Type an answer, or a "
      "command (whole words, never an answer): flag marks the question for review, next and "
      "back move, goto N opens question N, review lists every question's state, submit ends "
      "the exam after asking (it counts the unanswered). Every question stays open until you "
      "submit; when time runs out, what is answered is submitted.\n"
      "The result: score, pass or fail, per topic, the traps you fell into, and every missed "
      "question with the right answer, its trap, the explanation and the demo that proves it. "
      "Exams are kept: `proofdeck stats` shows your scores over time and your readiness.\n"
      "Example: proofdeck exam --count 20 --minutes 25 --pass 75");
  exam->callback([options, no_demo, context] {
    Context ctx = context();
    auto run = start_study(ctx);
    auto run_options = *options;
    run_options.show_demo = !*no_demo;
    run_options.filters.banks.insert(run_options.filters.banks.end(), run->selected.begin(),
                                     run->selected.end());
    // Filters that name nothing are refused before a progress database is opened, or created.
    study::select_questions(run->banks, run_options.filters);
    study::ProgressStore store = open_progress(ctx, data_dir(ctx));
    study::InterruptGuard guard;
    finish_study(study::run_exam(*run->session, store, run_options, run->write));
  });
}

}  // namespace proofdeck::cli
