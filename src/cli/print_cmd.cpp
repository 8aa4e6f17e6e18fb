// `proofdeck print`: handouts and worksheets in Markdown or self-contained HTML, with the quiz
// filters, answers inline, in a key at the end, or left out.
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "bank/proof.hpp"
#include "bank/selection.hpp"
#include "cli/bank_options.hpp"
#include "cli/print_export_cmds.hpp"
#include "cli/validators.hpp"
#include "core/errors.hpp"
#include "print/handout.hpp"
#include "print/printable.hpp"

namespace proofdeck::cli {

namespace {

namespace fs = std::filesystem;

struct PrintOptions {
  bank::Filters filters;           // --topic, --trap, --from-bank, --type, --question
  std::string format;              // md | html; empty: from --output's extension, else md
  std::string output_path;         // --output FILE; empty or "-": standard output
  std::string answers = "inline";  // inline | appendix | none
  std::string assets_dir;          // --assets DIR: Markdown figures as SVG files
  std::string title;               // --title; empty: "Worksheet — N questions" and the like
  int count = 0;                   // --count N: N questions drawn with the seed; 0: all
};

std::string resolved_format(const PrintOptions& options) {
  if (!options.format.empty()) return options.format;
  const std::string extension = fs::path(options.output_path).extension().string();
  return extension == ".html" || extension == ".htm" ? "html" : "md";
}

// How the document links to the assets folder: relative to the document's own folder.
std::string assets_href(const PrintOptions& options) {
  if (options.output_path.empty() || options.output_path == "-")
    return fs::path(options.assets_dir).generic_string();
  std::error_code error;
  const fs::path assets = fs::absolute(options.assets_dir, error).lexically_normal();
  const fs::path base = fs::absolute(options.output_path, error).parent_path().lexically_normal();
  const fs::path relative = assets.lexically_relative(base);
  return (relative.empty() ? assets : relative).generic_string();
}

void write_assets(const std::string& dir, const std::vector<print::Asset>& assets, Io& io) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir)) {
    throw StateError("io.write",
                     fmt::format("--assets {}: cannot create the folder for the figures: {}", dir,
                                 error ? error.message() : "a file of that name is in the way"));
  }
  for (const print::Asset& asset : assets)
    write_output((fs::path(dir) / asset.name).string(), asset.svg, io);
}

void run_print(const PrintOptions& options, Context& context) {
  const std::string format = resolved_format(options);
  if (!options.assets_dir.empty() && format != "md") {
    throw InputError("print.assets",
                     fmt::format("--assets {}: figure files are for Markdown (--format md); HTML "
                                 "embeds its figures as inline SVG",
                                 options.assets_dir));
  }
  LoadedBanks loaded = load_banks(context);
  bank::Filters filters = options.filters;
  std::vector<std::string> notes;
  const auto groups = print::draw_sheet(
      loaded.banks, selected_questions(loaded, filters), static_cast<std::size_t>(options.count),
      context.global.seed, !options.filters.questions.empty(),
      !options.filters.questions.empty() || !options.filters.traps.empty(), notes);
  for (const std::string& note : notes)
    context.io.err << note << "\n";

  print::HandoutOptions handout_options;
  handout_options.format =
      format == "html" ? print::HandoutFormat::html : print::HandoutFormat::markdown;
  handout_options.answers = options.answers == "appendix" ? print::AnswerPlacement::appendix
                            : options.answers == "none"   ? print::AnswerPlacement::none
                                                          : print::AnswerPlacement::inline_answers;
  handout_options.seed = context.global.seed;
  handout_options.title = options.title;
  if (!options.assets_dir.empty()) handout_options.assets_href = assets_href(options);
  bank::DemoRunner runner = bank::proof_runner(bank::kProofSeed);
  const print::Handout handout = print::render_handout(groups, handout_options, runner);
  if (!options.assets_dir.empty()) write_assets(options.assets_dir, handout.assets, context.io);
  write_output(options.output_path, handout.document, context.io);
}

}  // namespace

void setup_print(CLI::App& app, const std::function<Context()>& context) {
  auto options = std::make_shared<PrintOptions>();
  CLI::App* command =
      app.add_subcommand("print", "Handouts and worksheets (Markdown or self-contained HTML)");
  add_filter_options(command, options->filters);
  command
      ->add_option("--format", options->format,
                   "md or html (default: from --output's extension, else md)")
      ->check(one_of({"md", "html"}));
  command->add_option("-o,--output", options->output_path,
                      "Write to FILE instead of standard output");
  command
      ->add_option("--answers", options->answers,
                   "inline: a study sheet (answer, traps, explanation and proof after each "
                   "question); appendix: a worksheet with the answer key at the end; none: a "
                   "blank worksheet")
      ->check(one_of({"inline", "appendix", "none"}))
      ->capture_default_str();
  command->add_option("--assets", options->assets_dir,
                      "Markdown: also write each proof figure as an SVG file into DIR and link "
                      "it from the document");
  command->add_option("--title", options->title,
                      "The title (default: \"Worksheet — N questions\", or \"Study sheet — N "
                      "questions\" with --answers inline)");
  command
      ->add_option("--count", options->count,
                   "N questions drawn with --seed, spread over the topics as an exam draws them, "
                   "one per objective (default: every question the filters select)")
      ->check(whole_number(1, 100000));
  command->footer(
      "A section per topic; questions numbered 1..N, options lettered and templates drawn from "
      "--seed, so a worksheet and its key printed with the same seed and filters match; proofs run "
      "as check proves them, so the numbers beside an explanation are the ones it quotes. A "
      "worksheet (--answers none or appendix) gives nothing away: each topic is its name alone, "
      "its description left to the study sheet; its topics flow from page to page, no question "
      "split over two, and the key starts a page of its own. HTML is one file with inline CSS and "
      "SVG (no scripts, no network); a study sheet prints a page per topic. No sheet holds two "
      "questions where one states the other's answer: the later is left out (with --count, "
      "replaced), and standard error says which.\n"
      "Examples:\n"
      "  proofdeck print --format html --output handout.html --topic multi-head\n"
      "  proofdeck print --answers appendix --seed 7 --output worksheet.html\n"
      "  proofdeck print --answers none --count 20 --seed 3 --output form.html\n"
      "  proofdeck print --format md --output sheet.md --assets figures");
  command->callback([options, context] {
    Context ctx = context();
    run_print(*options, ctx);
  });
}

}  // namespace proofdeck::cli
