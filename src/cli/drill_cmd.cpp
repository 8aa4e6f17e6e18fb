// `proofdeck drill`: spaced repetition with FSRS-6, progress kept across days.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "bank/selection.hpp"
#include "cli/drill_fsrs.hpp"
#include "cli/drill_simulate.hpp"
#include "cli/study_cmds.hpp"
#include "cli/study_run.hpp"
#include "cli/validators.hpp"
#include "core/errors.hpp"
#include "render/theme.hpp"
#include "study/exam_plan.hpp"
#include "study/input.hpp"

namespace proofdeck::cli {

namespace {

// What `drill` binds: the session's options, and the flags that set them in other words.
struct DrillCmdOptions {
  study::DrillOptions drill;
  bool no_demo = false;         // --no-demo
  bool no_bury = false;         // --no-bury
  bool evaluate = false;        // --evaluate: measure the weights on the history, no session
  bool optimize = false;        // --optimize: fit the weights to the history, no session
  bool reset = false;           // --reset, with --optimize: back to the default weights
  bool cram = false;            // --cram: practice the least remembered, schedule untouched
  int simulate = 0;             // --simulate DAYS: the workload simulator, no session
  std::string format = "text";  // --format, for --evaluate and --optimize
  std::string exam_date;        // --exam-date YYYY-MM-DD | none
  int minutes_a_day = study::kDefaultMinutesPerDay;  // --minutes-a-day N
  ConfidenceFlags confidence;                        // --confidence, --no-confidence
};

// What --exam-date and --minutes-a-day change, checked before a store is opened (or created):
// nothing (nullopt), the exam to save, or none to clear (an empty inner optional).
std::optional<std::optional<study::ExamDate>> exam_change(const Context& ctx,
                                                          const DrillCmdOptions& bound,
                                                          const CLI::App& drill,
                                                          const std::filesystem::path& dir) {
  const bool date_given = drill.count("--exam-date") > 0;
  const bool minutes_given = drill.count("--minutes-a-day") > 0;
  if (!date_given && !minutes_given) return std::nullopt;
  if (date_given && bound.exam_date == "none") {
    if (minutes_given) {
      throw InputError("drill.minutes_a_day",
                       "--exam-date none clears the exam date and its minutes a day: leave "
                       "--minutes-a-day out");
    }
    return std::optional<study::ExamDate>{};
  }
  std::optional<study::ProgressStore> existing = study::ProgressStore::open_existing(dir);
  const std::optional<study::ExamDate> saved =
      existing ? existing->exam_date() : std::optional<study::ExamDate>{};
  if (!date_given) {
    if (!saved) {
      throw InputError("drill.minutes_a_day",
                       "--minutes-a-day sets the time a day the exam plan fills: give the exam's "
                       "date too, --exam-date YYYY-MM-DD");
    }
    return study::ExamDate{saved->date, bound.minutes_a_day};
  }
  const std::optional<study::LearnerDate> date = study::parse_date(bound.exam_date);
  if (!date) {
    throw InputError("drill.exam_date",
                     "--exam-date '" + bound.exam_date +
                         "': expected the exam's date as YYYY-MM-DD (e.g. 2027-01-20), or none "
                         "to clear it");
  }
  const int starts_at = bound.drill.day_starts_at.value_or(existing ? existing->day_starts_at()
                                                                    : study::kDefaultDayStartsAt);
  const study::LearnerDate today = study::LearnerDays(starts_at).day_of(resolve_now(ctx));
  if (*date <= today) {
    throw InputError("drill.exam_date",
                     "--exam-date " + bound.exam_date + " is not after today (" +
                         study::format_date(today) +
                         "): give the exam's day, tomorrow or later, or none to clear it");
  }
  return study::ExamDate{
      *date, minutes_given ? bound.minutes_a_day
                           : (saved ? saved->minutes_a_day : study::kDefaultMinutesPerDay)};
}

}  // namespace

// What `drill` does once its options are read: one of --simulate, --evaluate, --optimize and
// --cram, or a session (after saving --exam-date).
void run_drill_command(Context& ctx, const DrillCmdOptions& bound, const CLI::App& drill) {
  const bool simulate = drill.count("--simulate") > 0;
  if (drill.count("--format") > 0 && !bound.evaluate && !bound.optimize && !simulate) {
    throw InputError("drill.format",
                     "--format sets how --evaluate, --optimize and --simulate write; a session "
                     "is always text: give one of them, or leave --format out");
  }
  if (bound.evaluate + bound.optimize + bound.cram + simulate > 1) {
    throw InputError("drill.mode",
                     "--evaluate, --optimize, --simulate and --cram each do one thing instead "
                     "of a session: give one of them");
  }
  if (simulate) {
    run_drill_simulate(ctx, bound.drill, bound.simulate, bound.format);
    return;
  }
  if (bound.reset && !bound.optimize) {
    throw InputError("drill.reset", "--reset goes with --optimize: " + ctx.program +
                                        " drill --optimize --reset returns to FSRS-6's "
                                        "default weights");
  }
  if (bound.evaluate) {
    run_drill_evaluate(ctx, bound.format);
    return;
  }
  if (bound.optimize) {
    run_drill_optimize(ctx, bound.format, bound.reset);
    return;
  }
  if (bound.cram) {
    auto run = start_study(ctx);
    study::CramOptions cram;
    cram.filters = bound.drill.filters;
    cram.limit = drill.count("--limit") > 0 ? bound.drill.limit : cram.limit;
    cram.show_demo = !bound.no_demo;
    selected_questions(run->loaded, cram.filters);
    study::ProgressStore store = open_progress(ctx, data_dir(ctx));
    study::InterruptGuard guard;
    finish_study(study::run_cram(*run->session, store, cram));
    return;
  }
  auto run = start_study(ctx);
  auto run_options = bound.drill;
  run_options.show_demo = !bound.no_demo;
  run_options.bury = !bound.no_bury;
  // Filters that name nothing are refused before a progress database is opened, or created.
  selected_questions(run->loaded, run_options.filters);
  const std::filesystem::path dir = data_dir(ctx);
  const auto exam = exam_change(ctx, bound, drill, dir);
  study::DrillLock lock(dir);
  study::ProgressStore store = open_progress(ctx, dir);
  if (exam) {
    store.set_exam_date(*exam);
    ctx.io.out << wrap_styled(
        ctx.theme.dim,
        *exam ? "Saved for every later command: the exam on " + study::format_date((*exam)->date) +
                    ", " + std::to_string((*exam)->minutes_a_day) +
                    " minutes a day. Drill follows a plan toward it; stats shows the plan."
              : std::string("Exam date cleared: drill schedules as usual."),
        text_width(ctx), "  ", "    ");
  }
  apply_confidence(bound.confidence, store, *run->session);
  study::InterruptGuard guard;
  finish_study(study::run_drill(*run->session, store, run_options, run->write));
}

void setup_drill(CLI::App& app, const std::function<Context()>& context) {
  auto bound = std::make_shared<DrillCmdOptions>();
  study::DrillOptions* options = &bound->drill;
  CLI::App* drill = app.add_subcommand(
      "drill", "Spaced repetition (FSRS-6) over the banks, progress kept across days");
  add_filter_options(drill, options->filters);
  drill->add_option("--new", options->new_per_day, "New cards a day")
      ->check(whole_number(0, 10000))
      ->capture_default_str();
  drill->add_option("--limit", options->limit, "Reviews in this session")
      ->check(whole_number(1, 100000))
      ->capture_default_str();
  drill->add_flag("--no-demo", bound->no_demo, "Leave the live proof out of the feedback");
  add_confidence_flags(drill, bound->confidence);
  drill->add_flag("--auto-rate", options->auto_rate,
                  "Rate every right answer Good instead of asking Hard / Good / Easy");
  drill->add_option("--report", options->report_path,
                    "Write the session as JSON to FILE (each card, answer, right or wrong, trap, "
                    "whether its rating was saved)");
  drill
      ->add_option("--day-starts-at", options->day_starts_at,
                   "The hour (0-23, local time from TZ) your day starts: cards due tomorrow are "
                   "due from then, and --new counts from then. Saved for every later command; "
                   "4 until set")
      ->check(whole_number(0, 23));
  drill->add_flag("--no-bury", bound->no_bury,
                  "Introduce new cards even when a card of their objective is due, in its "
                  "learning steps or was reviewed today");
  drill->add_flag("--fuzz", options->fuzz,
                  "Spread review intervals a little (as FSRS does), drawn from --seed");
  drill
      ->add_option("--retention", options->retention,
                   "Desired retention: the recall probability intervals aim at")
      ->check(number(0.7, 0.99))
      ->capture_default_str();
  drill->add_flag(
      "--evaluate", bound->evaluate,
      "Measure how well the FSRS-6 weights in use predict your own drill reviews (log loss and "
      "RMSE over bins, as fsrs-rs and Anki's Evaluate compute them) and start no session");
  drill->add_flag("--optimize", bound->optimize,
                  "Fit the 21 FSRS-6 weights to your own drill reviews (as fsrs-rs and Anki's "
                  "Optimize do: 8 reviews a day or more after a card's previous one fit w0-w3, "
                  "64 fit all), schedule with them from now on, and start no session");
  drill->add_flag("--cram", bound->cram,
                  "Practise the cards you have drilled, least likely remembered now first, "
                  "whatever is due: answers are saved and count in stats and readiness, but no "
                  "card's schedule changes (--limit cards, 20 unless given)");
  drill->add_option("--exam-date", bound->exam_date,
                    "Your exam's date, YYYY-MM-DD (none clears it): drill then follows a plan "
                    "that maximises what you recall at 09:00 that day, within --minutes-a-day. "
                    "Saved for every later command; after the day the usual schedule resumes");
  drill
      ->add_option("--minutes-a-day", bound->minutes_a_day,
                   "Minutes a day the exam plan fills (saved with the date)")
      ->check(whole_number(1, 1440))
      ->capture_default_str();
  drill->add_flag("--reset", bound->reset, "With --optimize: go back to FSRS-6's default weights");
  drill
      ->add_option("--simulate", bound->simulate,
                   "Simulate the next DAYS of drilling at each desired retention from 70% to "
                   "95% (and the exam plan, with a date saved): reviews and minutes a day, cards "
                   "remembered at the end; expected values, nothing written")
      ->check(whole_number(1, 3650));
  drill
      ->add_option("--format", bound->format,
                   "With --evaluate, --optimize or --simulate: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  drill->footer(
      "Due cards come first, then up to --new new cards a day, dealt round the topics (the "
      "lesson's first, in its order) so the first day spans the lesson. A wrong answer rates "
      "Again, and so does a right one given after opening the demo (:d); "
      "after a right one you rate it h (hard), g or Enter (good), e (easy). New cards step "
      "through 1 and 10 minutes before their first interval in days; a lapse relearns for 10 "
      "minutes. A day is yours, as in Anki: it starts at 4:00 local time (TZ) unless "
      "--day-starts-at says otherwise, and a card due on a day is due from its start. Cards still "
      "in their steps come back within the session (early, when nothing "
      "else is due: it says so), and so do cards an earlier session left in their steps, up to 20 "
      "minutes ahead. A card is asked on the day it is due, whatever the other cards of its "
      "objective (the fact it tests) did; a new card waits while a card of its objective is due, "
      "in its steps or was reviewed today, and at most one a day is introduced per objective "
      "(--no-bury introduces them anyway). Intervals keep Hard "
      "< Good < Easy, as Anki and ts-fsrs do. "
      "Each run draws a new seed (template numbers, fuzz); --seed N repeats it. Every answer is "
      "saved "
      "at once (progress.db, one transaction each), so Ctrl-C or a crash loses nothing answered. "
      "A parametric question is one card that draws fresh numbers at each review. Cards missed "
      "8 times after learning are flagged as leeches. With an exam date saved (--exam-date), the "
      "desired retention and each day's new cards come from the plan toward it (stats shows it) "
      "until the day. --optimize, --evaluate, --simulate and --cram each do one thing instead "
      "of a session.\n"
      "Examples:\n"
      "  proofdeck drill --new 10 --limit 30\n"
      "  proofdeck drill --exam-date 2027-01-20 --minutes-a-day 30\n"
      "  proofdeck drill --simulate 365");
  drill->callback([bound, context, drill] {
    Context ctx = context();
    run_drill_command(ctx, *bound, *drill);
  });
}

}  // namespace proofdeck::cli
