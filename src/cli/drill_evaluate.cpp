// `drill --evaluate` (cli/drill_evaluate.hpp).
#include "cli/drill_evaluate.hpp"

#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/study_run.hpp"
#include "render/theme.hpp"
#include "study/fsrs.hpp"
#include "study/fsrs_fit.hpp"
#include "study/progress.hpp"
#include "text/number.hpp"

namespace proofdeck::cli {

namespace {

nlohmann::ordered_json measures_json(const std::optional<study::FsrsEvaluation>& evaluation) {
  if (!evaluation) return nullptr;
  return {{"log_loss", evaluation->log_loss}, {"rmse_bins", evaluation->rmse_bins}};
}

}  // namespace

void run_drill_evaluate(Context& context, const std::string& format) {
  std::optional<study::ProgressStore> store =
      study::ProgressStore::open_existing(data_dir(context));
  const std::vector<study::FsrsItem> items =
      store ? study::drill_items(store->reviews()) : std::vector<study::FsrsItem>{};
  // No fit exists yet, so the weights in use are the defaults.
  const std::optional<study::FsrsEvaluation> defaults =
      study::evaluate_weights(study::kDefaultWeights, items);
  const std::optional<study::FsrsEvaluation>& in_use = defaults;
  if (format == "json") {
    const nlohmann::ordered_json json = {{"items", defaults ? defaults->items : 0},
                                         {"default", measures_json(defaults)},
                                         {"in_use", measures_json(in_use)}};
    context.io.out << json.dump(2) << "\n";
    return;
  }
  const Theme& theme = context.theme;
  if (!defaults) {
    context.io.out << wrap_styled(
        {},
        fmt::format("Not enough drill history to measure FSRS against: {} (a card's review a day "
                    "or more after its previous one), and an item counts once at least 20 cards "
                    "rated alike at first share its first interval. Drill on: every day of "
                    "reviews adds to it.",
                    text::count(items.size(), "item", "items")),
        text_width(context));
    return;
  }
  context.io.out << wrap_styled(
      {},
      fmt::format("FSRS-6 against your drill history: {} evaluated (a card's review a day or "
                  "more after its previous one, recent ones weighing up to 4× more), of {} "
                  "before the outlier filter. Lower is better on both.",
                  text::count(defaults->items, "item", "items"),
                  text::format_number(static_cast<double>(items.size()))),
      text_width(context));
  context.io.out << fmt::format("  {:<20}{:>10}{:>14}\n", "weights", "log loss", "RMSE (bins)");
  context.io.out << fmt::format("  {:<20}{:>10.4f}{:>14.4f}\n", "default (in use)",
                                defaults->log_loss, defaults->rmse_bins);
  context.io.out << wrap_styled(theme.dim,
                                "The weights in use are FSRS-6's defaults, fitted to many Anki "
                                "users rather than to you.",
                                text_width(context), "  ", "  ");
}

}  // namespace proofdeck::cli
