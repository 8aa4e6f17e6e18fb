// `proofdeck export`: the banks for other tools — Moodle GIFT, Anki's text import, an Anki
// package, or normalized bank JSON that --bank loads again — with the quiz filters.
#include <algorithm>
#include <filesystem>
#include <memory>

#include <fmt/color.h>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "bank/proof.hpp"
#include "bank/selection.hpp"
#include "cli/bank_options.hpp"
#include "cli/print_export_cmds.hpp"
#include "cli/validators.hpp"
#include "core/errors.hpp"
#include "core/time.hpp"
#include "print/apkg.hpp"
#include "print/bank_json.hpp"
#include "print/export.hpp"
#include "print/printable.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"

namespace proofdeck::cli {

namespace {

namespace fs = std::filesystem;

struct ExportOptions {
  bank::Filters filters;    // --topic, --trap, --from-bank, --type, --question
  std::string to;           // gift | anki | apkg | json
  std::string output_path;  // --output FILE (json with several banks: a folder); "" = stdout
};

// A folder to write one bank per file into: an existing folder, or a path ending in '/'.
bool names_folder(const std::string& path) {
  std::error_code error;
  return !path.empty() && (path.back() == '/' || fs::is_directory(path, error));
}

void export_json(const std::vector<bank::Bank>& banks,
                 const std::vector<const bank::Question*>& selected, const ExportOptions& options,
                 Io& io) {
  std::vector<std::pair<const bank::Bank*, std::vector<const bank::Question*>>> chosen;
  for (const bank::Bank& b : banks) {
    std::vector<const bank::Question*> questions;
    for (const bank::Question* q : selected)
      if (q->bank == b.id) questions.push_back(q);
    if (!questions.empty()) chosen.emplace_back(&b, std::move(questions));
  }
  if (names_folder(options.output_path)) {
    std::error_code error;
    fs::create_directories(options.output_path, error);
    if (error) {
      throw StateError("io.write", fmt::format("--output {}: cannot create the folder: {}",
                                               options.output_path, error.message()));
    }
    for (const auto& [b, questions] : chosen) {
      write_output((fs::path(options.output_path) / (b->id + ".json")).string(),
                   print::bank_json(*b, &questions).dump(2) + "\n", io);
    }
    return;
  }
  if (chosen.size() > 1) {
    std::string ids;
    for (const auto& [b, questions] : chosen)
      ids += (ids.empty() ? "" : ", ") + b->id;
    throw InputError(
        "export.json",
        fmt::format("--to json writes one bank per file and {} banks are selected ({}): choose "
                    "one with --from-bank ID, or give --output DIR/ to write DIR/<bank>.json for "
                    "each",
                    chosen.size(), ids));
  }
  write_output(options.output_path,
               print::bank_json(*chosen.front().first, &chosen.front().second).dump(2) + "\n", io);
}

void warn(Io& io, const Theme& theme, const std::string& message) {
  fmt::print(io.err, "{} {}\n", fmt::styled("warning:", theme.warning), message);
}

// The package (to a file: run_export refuses standard output) with its notes dated by
// SOURCE_DATE_EPOCH when set, else by their bank's "revised" (print/apkg.hpp).
void export_apkg(const std::vector<print::TopicGroup>& groups, const ExportOptions& options,
                 Context& context) {
  print::ApkgOptions apkg_options;
  const char* epoch = context.io.getenv ? context.io.getenv("SOURCE_DATE_EPOCH") : nullptr;
  if (epoch != nullptr && *epoch != '\0') {  // set but empty counts as unset
    apkg_options.source_date_epoch = print::parse_source_date_epoch(epoch);
    if (!apkg_options.source_date_epoch) {
      warn(context.io, context.theme,
           fmt::format("SOURCE_DATE_EPOCH '{}' is not a whole number of seconds since 1970 (at "
                       "most year 9999): ignored, the banks' \"revised\" dates the notes",
                       text::terminal_safe(epoch)));
    }
  }
  bank::DemoRunner runner = bank::proof_runner(bank::kProofSeed);
  const print::Apkg apkg = print::export_apkg(groups, runner, apkg_options);
  if (!apkg.undated_banks.empty()) {
    const bool one = apkg.undated_banks.size() == 1;
    warn(context.io, context.theme,
         fmt::format("{} {} {} no \"revised\" date, so {} notes are dated {} and Anki will not "
                     "see a changed note as newer on re-import; add \"revised\" to the bank's "
                     "metadata (or set SOURCE_DATE_EPOCH)",
                     one ? "bank" : "banks", fmt::join(apkg.undated_banks, ", "),
                     one ? "declares" : "declare", one ? "its" : "their",
                     format_time(TimePoint{std::chrono::seconds(print::kUndatedNoteTime)})));
  }
  write_output(options.output_path, apkg.bytes, context.io);
  fmt::print(context.io.out, "{}: {} (one card each) in {} for Anki\n",
             text::terminal_safe(options.output_path), text::count(apkg.notes, "note", "notes"),
             text::count(apkg.decks, "deck", "decks"));
}

void run_export(const ExportOptions& options, Context& context) {
  if (options.to == "apkg" && (options.output_path.empty() || options.output_path == "-")) {
    throw InputError("export.apkg.output",
                     "--to apkg writes a binary Anki package, never to standard output: give "
                     "--output FILE.apkg");
  }
  LoadedBanks loaded = load_banks(context);
  bank::Filters filters = options.filters;
  const auto selected = selected_questions(loaded, filters);
  if (options.to == "json") {
    export_json(loaded.banks, selected, options, context.io);
    return;
  }
  const auto groups = print::arrange(loaded.banks, selected, context.global.seed);
  if (options.to == "apkg") {
    export_apkg(groups, options, context);
    return;
  }
  bank::DemoRunner runner = bank::proof_runner(bank::kProofSeed);
  write_output(options.output_path,
               options.to == "gift" ? print::export_gift(groups, runner)
                                    : print::export_anki(groups, runner),
               context.io);
}

}  // namespace

void setup_export(CLI::App& app, const std::function<Context()>& context) {
  auto options = std::make_shared<ExportOptions>();
  CLI::App* command = app.add_subcommand(
      "export", "The banks as Moodle GIFT, an Anki text import or package, or normalized JSON");
  add_filter_options(command, options->filters);
  command
      ->add_option("--to", options->to,
                   "gift: Moodle GIFT; anki: Anki's tab-separated text import; apkg: an Anki "
                   "package (.apkg, needs --output); json: the banks normalized (defaults filled "
                   "in), loadable with --bank")
      ->required()
      ->check(one_of({"gift", "anki", "apkg", "json"}));
  command->add_option("-o,--output", options->output_path,
                      "Write to FILE instead of standard output (apkg: required; json with several "
                      "banks: a folder, DIR/, one BANK.json each)");
  command->footer(
      "Templates are drawn from --seed (GIFT and Anki hold one instance of each); proofs run as "
      "check proves them. GIFT puts each "
      "topic in its own category; order questions become matching questions (step -> place). "
      "Anki notes use the question id as GUID, so importing again updates them; a package dates "
      "each note by its bank's \"revised\" (or SOURCE_DATE_EPOCH), and Anki replaces a note only "
      "with a newer one.\n"
      "Examples:\n"
      "  proofdeck export --to gift --output transformer.gift.txt\n"
      "  proofdeck export --to anki --topic rope --output rope.txt\n"
      "  proofdeck export --to apkg --output proofdeck.apkg\n"
      "  proofdeck export --to json --from-bank transformer-layer --output bank.json");
  command->callback([options, context] {
    Context ctx = context();
    run_export(*options, ctx);
  });
}

}  // namespace proofdeck::cli
