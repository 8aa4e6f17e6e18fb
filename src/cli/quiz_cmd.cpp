// `proofdeck quiz`: practice with immediate feedback, trap call-outs and live proofs.
#include <fmt/format.h>

#include <memory>

#include "bank/selection.hpp"
#include "cli/study_cmds.hpp"
#include "cli/study_run.hpp"
#include "cli/validators.hpp"
#include "study/input.hpp"

namespace proofdeck::cli {

namespace {

// What `quiz` binds: the session's options, and the flags that set them in other words.
struct QuizCmdOptions {
  study::QuizOptions quiz;
  int count = 0;         // --count N (0: the default)
  bool no_demo = false;  // --no-demo
  int weakest = 0;       // --weakest N (0: not asked for)
  ConfidenceFlags confidence;
};

}  // namespace

void setup_quiz(CLI::App& app, const std::function<Context()>& context) {
  auto bound = std::make_shared<QuizCmdOptions>();
  study::QuizOptions* options = &bound->quiz;
  CLI::App* quiz = app.add_subcommand(
      "quiz", "Practice with immediate feedback, trap call-outs and live proofs");
  add_filter_options(quiz, options->filters);
  quiz->add_option(
          "-n,--count", bound->count,
          fmt::format("Ask at most N questions, one per objective and none twice (default: {}, "
                      "or one for each objective that matches when fewer; --missed, --weakest, "
                      "--trap and --question ask all they select)",
                      study::kDefaultQuizCount))
      ->check(whole_number(1, 100000));
  quiz->add_flag("--no-demo", bound->no_demo, "Leave the live proof out of the feedback");
  add_confidence_flags(quiz, bound->confidence);
  quiz->add_flag("--missed", options->missed,
                 "Only the questions whose latest answer (in any mode) was wrong");
  quiz->add_option("--weakest", bound->weakest,
                   "Only the questions that test the N traps you fell into most (`proofdeck "
                   "stats` lists them)")
      ->check(whole_number(1, 1000));
  quiz->add_option("--report", options->report_path,
                   "Write the session as JSON to FILE (each question, answer, right or wrong, "
                   "trap, time)");
  quiz->footer(
      "Each run draws a new form (questions, order, options and template numbers) and shows its "
      "seed; --seed N repeats a form exactly. Answer with a "
      "letter (b), letters for select-all (a,c), t/f, a number (6000000, 6,000,000, 6e6, "
      "6*10^6) or the letters of an order question in sequence (c a b d); a letter on its "
      "own is always an answer. Commands:\n"
      ":s skip, :d the demo behind the question (opened before you answer, the answer counts as "
      "not known), ? help, :q quit (or the words skip, demo, quit). After each answer: the trap a "
      "wrong answer fell into, the explanation with its source, and the demo run live. "
      "Answers are logged in the progress database (they feed `proofdeck stats`); only drill "
      "changes the review schedule.\n"
      "Examples:\n"
      "  proofdeck quiz --topic multi-head --count 5\n"
      "  proofdeck quiz --missed\n"
      "  proofdeck quiz --weakest 3 --count 10");
  quiz->callback([bound, context] {
    Context ctx = context();
    study::QuizOptions run_options = bound->quiz;
    if (bound->count > 0) run_options.count = bound->count;
    run_options.show_demo = !bound->no_demo;
    if (bound->weakest > 0) run_options.weakest = bound->weakest;
    auto run = start_study(ctx);
    // Filters that name nothing are refused before a progress database is opened, or created.
    selected_questions(run->loaded, run_options.filters);
    study::ProgressStore store = open_progress(ctx, data_dir(ctx));
    apply_confidence(bound->confidence, store, *run->session);
    study::InterruptGuard guard;
    finish_study(study::run_quiz(*run->session, store, run_options, run->write));
  });
}

}  // namespace proofdeck::cli
