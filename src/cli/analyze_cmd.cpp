// `proofdeck analyze REPORT...`: item analysis over a class's quiz and exam session reports.
#include <filesystem>
#include <memory>

#include "cli/bank_options.hpp"
#include "cli/study_cmds.hpp"
#include "cli/validators.hpp"
#include "core/errors.hpp"
#include "study/analysis.hpp"
#include "text/escape.hpp"

namespace proofdeck::cli {

namespace {

struct AnalyzeOptions {
  std::vector<std::string> paths;  // REPORT... files or folders
  std::string format;              // text | json | html | csv; empty: from --output, else text
  std::string output_path;         // --output FILE; empty or "-": standard output
  int min_attempts = study::AnalysisOptions{}.min_attempts;  // --min-learners N
};

void run_analyze(const AnalyzeOptions& options, Context& context) {
  std::string format = options.format;
  if (format.empty()) {
    const std::string extension = std::filesystem::path(options.output_path).extension().string();
    format = extension == ".json"   ? "json"
             : extension == ".html" ? "html"
             : extension == ".csv"  ? "csv"
                                    : "text";
  }
  const study::ReadReports read = study::read_reports(options.paths);
  for (const study::SkippedReport& skipped : read.skipped)
    context.io.err << wrap_labelled("skipped:", context.theme.warning,
                                    text::terminal_safe(skipped.reason), text_width(context));
  if (read.reports.empty())
    throw InputError(
        "analyze.none",
        fmt::format("{}: give the files quiz --report FILE or exam --report FILE "
                    "wrote, or their folder",
                    read.skipped.empty() ? std::string("no session report found (no .json file)")
                                         : fmt::format("no session report could be read ({} "
                                                       "skipped)",
                                                       read.skipped.size())));
  study::AnalysisOptions analysis_options;
  analysis_options.min_attempts = options.min_attempts;
  const study::Analysis analysis = study::analyze_reports(
      read.reports, read.skipped, load_banks(context).banks, analysis_options);
  for (const std::string& warning : analysis.warnings)
    context.io.err << wrap_labelled("warning:", context.theme.warning, text::terminal_safe(warning),
                                    text_width(context));
  std::string text;
  if (format == "json") {
    // A skipped file's reason can quote bytes that are not UTF-8: shown as U+FFFD, never a
    // failure to write the rest.
    const nlohmann::ordered_json document = analysis;
    text = document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  } else if (format == "csv") {
    text = study::analysis_csv(analysis);
  } else if (format == "html") {
    text = study::analysis_html(analysis);
  } else {
    // The warnings went to standard error above; the report repeats them only on a terminal.
    study::Analysis shown = analysis;
    shown.warnings.clear();
    const bool file = !options.output_path.empty() && options.output_path != "-";
    text =
        study::render_analysis(shown, file ? Theme::plain() : context.theme, text_width(context));
  }
  write_output(options.output_path, text, context.io);
}

}  // namespace

void setup_analyze(CLI::App& app, const std::function<Context()>& context) {
  auto options = std::make_shared<AnalyzeOptions>();
  CLI::App* command = app.add_subcommand(
      "analyze",
      "Item analysis over a class's session reports: which questions worked (facility, "
      "discrimination, KR-20)");
  command
      ->add_option("reports", options->paths,
                   "Session reports (quiz --report FILE, exam --report FILE), or folders of them")
      ->required();
  command
      ->add_option("--format", options->format,
                   "text, json, html or csv (default: from --output's extension, else text)")
      ->check(one_of({"text", "json", "html", "csv"}));
  command->add_option("-o,--output", options->output_path,
                      "Write to FILE instead of standard output");
  command
      ->add_option("--min-learners", options->min_attempts,
                   "Learners a question needs before it is flagged")
      ->check(whole_number(2, 1000000))
      ->capture_default_str();
  command->footer(
      "Give every learner the same form (exam --seed N, or quiz --seed N with the same filters) "
      "and collect their --report files; analyze reads them, or a folder of them. Per question: "
      "the facility (share right), the discrimination (point-biserial against the rest of the "
      "form, and the upper−lower 27% index), the discriminative efficiency, each option's "
      "choices in the upper and lower groups, the median time; per form: mean, median, SD, "
      "KR-20, SEM and a histogram; per objective and per trap, how often learners fell for it. "
      "Flags say what to look at: too easy (≥ 95% right), too hard (≤ 20%, or below a blind "
      "guess), negative or near-zero discrimination, a distractor nobody chooses, a distractor "
      "the upper group prefers. A file that is not a quiz's or exam's report is named on "
      "standard error and skipped; reports of different revisions of a bank are analysed "
      "apart. Exit 0 when a report was analysed, 2 when none could be (docs/instructors.md).\n"
      "Examples:\n"
      "  proofdeck exam --seed 42 --count 30 --report reports/ada.json\n"
      "  proofdeck analyze reports/\n"
      "  proofdeck analyze reports/ --output analysis.html\n"
      "  proofdeck analyze reports/*.json --format csv > items.csv");
  command->callback([options, context] {
    Context ctx = context();
    run_analyze(*options, ctx);
  });
}

}  // namespace proofdeck::cli
