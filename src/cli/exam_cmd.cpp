// `proofdeck exam`: a timed simulation, no feedback until the end.
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "bank/selection.hpp"
#include "cli/study_cmds.hpp"
#include "cli/study_run.hpp"
#include "cli/validators.hpp"
#include "core/errors.hpp"
#include "study/input.hpp"

namespace proofdeck::cli {

namespace {

// What `exam` binds: the session's options, and the flags that set them in other words.
struct ExamCmdOptions {
  study::ExamOptions exam;
  bool no_demo = false;             // --no-demo
  std::vector<std::size_t> review;  // --review [N]: empty or 0, the latest
  ConfidenceFlags confidence;
};

}  // namespace

void setup_exam(CLI::App& app, const std::function<Context()>& context) {
  auto bound = std::make_shared<ExamCmdOptions>();
  study::ExamOptions* options = &bound->exam;
  CLI::App* exam = app.add_subcommand(
      "exam", "Timed exam simulation: no feedback until the end, then pass/fail");
  add_filter_options(exam, options->filters);
  std::vector<CLI::Option*> form_options;  // what --review takes from the exam it rebuilds
  for (CLI::Option* filter : exam->get_options())
    if (filter->get_group() == "Filters") form_options.push_back(filter);
  form_options.push_back(
      exam->add_option(
              "-n,--count", options->count,
              "Questions, drawn across topics in proportion, one per objective and none twice "
              "(fewer when the filters select fewer objectives)")
          ->check(whole_number(1, 1000))
          ->capture_default_str());
  form_options.push_back(exam->add_option("--minutes", options->minutes,
                                          "Time allowed; when it runs out, what was "
                                          "answered is submitted")
                             ->check(number(0.01, 1440.0))
                             ->capture_default_str());
  form_options.push_back(
      exam->add_option("--pass", options->pass, "Pass mark, percent of the questions right")
          ->check(number(0.0, 100.0))
          ->capture_default_str());
  exam->add_flag("--no-demo", bound->no_demo, "Leave the proof figures out of the results");
  add_confidence_flags(exam, bound->confidence);
  for (const char* flag : {"--confidence", "--no-confidence"})
    form_options.push_back(exam->get_option(flag));
  form_options.push_back(
      exam->add_option("--report", options->report_path, "Write the result as JSON to FILE"));
  CLI::Option* review_option =
      exam->add_option("--review", bound->review,
                       "Show a past exam's results again, rebuilt from its seed and answers: N "
                       "as proofdeck stats numbers the exams, the latest without N")
          ->expected(0, 1)
          ->type_name("[N]")
          ->check(whole_number<std::size_t>(1, 1000000));

  exam->footer(
      "Each run draws a new form and shows its seed; --seed N repeats one. Each question shows "
      "the time left as it opens, the prompt your progress; warnings come at 5 and 1 minutes "
      "left. Type an answer, or a command (whole words, never an answer): flag marks the "
      "question for review, next and back move, goto N opens question N, review lists every "
      "question's state, time shows the time left, submit ends the exam after asking (it "
      "counts the unanswered). Every question stays open until you submit; when time runs "
      "out, what is answered is submitted.\n"
      "The result: score, pass or fail, per topic, the traps you fell into, and every missed "
      "question with the right answer, its trap, the explanation and the demo that proves it, "
      "then the score and the verdict again. "
      "Exams are kept: `proofdeck stats` shows your scores over time and your readiness, and "
      "`proofdeck exam --review N` shows exam N's results again (exams taken before this "
      "version kept no answers to rebuild them from: it says so and exits 3).\n"
      "Example: proofdeck exam --count 20 --minutes 25 --pass 75");
  exam->callback([bound, review_option, form_options, context] {
    Context ctx = context();
    if (review_option->count() > 0) {
      for (const CLI::Option* option : form_options) {
        if (option->count() > 0) {
          throw InputError("exam.review.options",
                           fmt::format("{} cannot be given with --review: it shows a past exam "
                                       "again, as it was drawn and taken (only --no-demo, "
                                       "--width and --color change how it is shown)",
                                       option->get_name()));
        }
      }
      auto run = start_study(ctx);
      // Read only, as stats: a review never creates a store.
      const std::filesystem::path dir = data_dir(ctx);
      std::optional<study::ProgressStore> existing = study::ProgressStore::open_existing(dir);
      if (!existing) {
        throw InputError("exam.review.none",
                         fmt::format("--review: no exams yet — there is no progress at {} (take "
                                     "an exam with {} exam, or choose the folder with --data-dir)",
                                     dir.string(), ctx.program));
      }
      study::ProgressStore& store = *existing;
      study::ExamReviewOptions review_options;
      // A bare --review reaches here as no value or as 0 (CLI11 converts the missing value;
      // a typed 0 fails the check): the latest exam.
      if (!bound->review.empty() && bound->review.front() != 0)
        review_options.number = bound->review.front();
      review_options.show_demo = !bound->no_demo;
      study::review_exam(*run->session, store, review_options);
      return;
    }
    auto run = start_study(ctx);
    auto run_options = bound->exam;
    run_options.show_demo = !bound->no_demo;
    // Filters that name nothing are refused before a progress database is opened, or created.
    selected_questions(run->loaded, run_options.filters);
    study::ProgressStore store = open_progress(ctx, data_dir(ctx));
    apply_confidence(bound->confidence, store, *run->session);
    study::InterruptGuard guard;
    finish_study(study::run_exam(*run->session, store, run_options, run->write));
  });
}

}  // namespace proofdeck::cli
