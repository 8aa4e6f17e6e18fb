// `drill --evaluate` and `drill --optimize` (cli/drill_fsrs.hpp).
#include "cli/drill_fsrs.hpp"

#include <optional>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/study_run.hpp"
#include "render/theme.hpp"
#include "study/fsrs.hpp"
#include "study/fsrs_fit.hpp"
#include "study/fsrs_optimize.hpp"
#include "study/progress.hpp"
#include "text/number.hpp"

namespace proofdeck::cli {

namespace {

using Weights = std::array<double, 21>;
using Evaluation = std::optional<study::FsrsEvaluation>;

nlohmann::ordered_json measures_json(const Evaluation& evaluation) {
  if (!evaluation) return nullptr;
  return {{"log_loss", evaluation->log_loss}, {"rmse_bins", evaluation->rmse_bins}};
}

// One row of the measures table; the label column fits "fitted on 2026-12-07".
std::string measures_row(std::string_view label, const study::FsrsEvaluation& e) {
  return fmt::format("  {:<22}{:>10.4f}{:>14.4f}\n", label, e.log_loss, e.rmse_bins);
}
std::string measures_header() {
  return fmt::format("  {:<22}{:>10}{:>14}\n", "weights", "log loss", "RMSE (bins)");
}

std::string fitted_label(const study::FsrsFitRecord& fit) {
  return "fitted on " + study::format_time(fit.fitted_at).substr(0, 10);
}

// The 21 weights, w0–w3 (a new card's first stability after Again, Hard, Good, Easy) apart.
std::string weights_text(const Weights& w, int width) {
  std::string initial, rest;
  for (std::size_t i = 0; i < 21; ++i)
    (i < 4 ? initial : rest) += fmt::format(" {:.4g}", w[i]);
  return wrap_styled({}, "w0–w3, a new card's stability after Again, Hard, Good, Easy:" + initial,
                     width, "  ", "    ") +
         wrap_styled({}, "w4–w20:" + rest, width, "  ", "    ");
}

struct DrillHistory {
  std::vector<study::ReviewRow> rows;
  std::vector<study::FsrsItem> items;
  int reviews = 0;  // rated drill reviews
};

DrillHistory history_of(study::ProgressStore& store) {
  DrillHistory h;
  h.rows = store.reviews();
  h.items = study::drill_items(h.rows);
  for (const study::ReviewRow& row : h.rows)
    h.reviews += row.mode == "drill" && row.rating ? 1 : 0;
  return h;
}

// What a fit too small to store says, and how much more history it needs.
std::string short_history_text(const study::FsrsFitResult& fit, std::size_t before_filter) {
  if (fit.items < study::kFitMinimumItems) {
    return fmt::format(
        "Too little drill history to fit FSRS-6: {} of the {} it needs (an item is a card's "
        "review a day or more after its previous one; of your {}, the outlier filter keeps a "
        "first interval once at least 20 cards first rated alike share it). Drill on: at least "
        "{} more such reviews.",
        text::count(fit.items, "training item", "training items"), study::kFitMinimumItems,
        text::format_number(static_cast<double>(before_filter)),
        study::kFitMinimumItems - fit.items);
  }
  return fmt::format(
      "Too little drill history to fit FSRS-6: none of your {} is a card's first interval that "
      "at least 6 cards first rated alike share, and w0–w3 are fitted from those. Drill on: new "
      "cards reviewed a few days after their first day make them.",
      text::count(fit.items, "training item", "training items"));
}

// What a stored fit fitted, and what more history would fit.
std::string fitted_text(const study::FsrsFitResult& fit, int reviews) {
  const std::string items = text::count(fit.items, "training item", "training items");
  if (fit.stage == study::FitStage::all_weights) {
    return fmt::format(
        "Fitted all 21 FSRS-6 weights to your drill history: {} from {} drill "
        "reviews.",
        items, text::format_number(reviews));
  }
  if (fit.items < study::kFitAllWeightsItems) {
    return fmt::format(
        "Fitted w0–w3 (a new card's first stability) to your {}; the other 17 weights keep their "
        "defaults until 64 — at least {} a day or more after a card's previous one.",
        items, text::count(study::kFitAllWeightsItems - fit.items, "more review", "more reviews"));
  }
  return fmt::format(
      "Fitted w0–w3 (a new card's first stability) to your {}; all are a card's "
      "first interval, and the other 17 weights need reviews of cards past it.",
      items);
}

}  // namespace

void run_drill_evaluate(Context& context, const std::string& format) {
  std::optional<study::ProgressStore> store =
      study::ProgressStore::open_existing(data_dir(context));
  const std::vector<study::FsrsItem> items =
      store ? study::drill_items(store->reviews()) : std::vector<study::FsrsItem>{};
  const std::optional<study::FsrsFitRecord> fit = store ? store->fsrs_fit() : std::nullopt;
  const Evaluation defaults = study::evaluate_weights(study::kDefaultWeights, items);
  const Evaluation in_use = fit ? study::evaluate_weights(fit->weights, items) : defaults;
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
  context.io.out << measures_header();
  if (!fit) {
    context.io.out << measures_row("default (in use)", *defaults);
    context.io.out << wrap_styled(theme.dim,
                                  "The weights in use are FSRS-6's defaults, fitted to many Anki "
                                  "users rather than to you. Fit them to you: " +
                                      context.program + " drill --optimize",
                                  text_width(context), "  ", "  ");
    return;
  }
  context.io.out << measures_row("default", *defaults);
  context.io.out << measures_row(fitted_label(*fit) + " *", *in_use);
  context.io.out << wrap_styled(
      theme.dim,
      fmt::format("* in use, fitted to {} drill reviews; measured here on all of yours so far "
                  "(in-sample, as Anki's Evaluate).",
                  text::format_number(fit->reviews)),
      text_width(context), "  ", "  ");
}

void run_drill_optimize(Context& context, const std::string& format, bool reset) {
  const bool json = format == "json";
  const std::filesystem::path dir = data_dir(context);
  nlohmann::ordered_json out = {{"stage", nullptr},   {"reviews", 0},       {"items", 0},
                                {"needed", nullptr},  {"weights", nullptr}, {"fitted_at", nullptr},
                                {"default", nullptr}, {"before", nullptr},  {"fitted", nullptr},
                                {"cards_updated", 0}};
  const int width = text_width(context);
  const auto emit = [&](const std::string& text) {
    context.io.out << (json ? out.dump(2) + "\n" : text);
  };
  if (!study::ProgressStore::open_existing(dir)) {
    out["stage"] = reset ? "reset" : "defaults";
    out["needed"] =
        reset ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(study::kFitMinimumItems);
    out["weights"] = study::kDefaultWeights;
    emit(wrap_styled({},
                     reset ? "No progress here yet: drill schedules with FSRS-6's default weights."
                           : "No drill history yet to fit FSRS-6 to: drill for a few weeks first "
                             "(it needs 8 reviews a day or more after a card's previous one, and "
                             "all 21 weights need 64). Until then drill schedules with the "
                             "defaults.",
                     width));
    return;
  }
  study::DrillLock lock(dir);
  study::ProgressStore store = open_progress(context, dir);
  const DrillHistory history = history_of(store);
  out["reviews"] = history.reviews;
  const Evaluation defaults = study::evaluate_weights(study::kDefaultWeights, history.items);
  out["default"] = measures_json(defaults);

  if (reset) {
    const std::map<std::string, study::CardMemory> memory =
        study::drill_memory(study::kDefaultWeights, history.rows);
    store.reset_fsrs_fit(memory);
    out["stage"] = "reset";
    out["weights"] = study::kDefaultWeights;
    out["cards_updated"] = memory.size();
    emit(wrap_styled(
        {},
        fmt::format("Back to FSRS-6's default weights: drill schedules with them from now on, "
                    "and {} stability and difficulty were recomputed with them (due dates "
                    "unchanged). Earlier fits stay on record; fit again with {} drill --optimize.",
                    text::count(memory.size(), "card's", "cards'"), context.program),
        width));
    return;
  }

  const std::optional<study::FsrsFitRecord> current = store.fsrs_fit();
  const Weights in_use = current ? current->weights : study::kDefaultWeights;
  const study::FsrsFitResult fit = study::fit_weights(history.items);
  out["items"] = fit.items;
  const Evaluation before = study::evaluate_weights(in_use, history.items);
  out["before"] = measures_json(before);
  if (current) out["fitted_at"] = study::format_time(current->fitted_at);

  if (fit.stage == study::FitStage::defaults) {
    out["stage"] = "defaults";
    out["needed"] = fit.items < study::kFitMinimumItems ? study::kFitMinimumItems - fit.items : 1;
    out["weights"] = in_use;
    emit(wrap_styled({}, short_history_text(fit, history.items.size()), width) +
         wrap_styled(context.theme.dim,
                     current ? "Drill keeps the weights fitted on " +
                                   study::format_time(current->fitted_at).substr(0, 10) + "."
                             : "Drill keeps FSRS-6's default weights.",
                     width, "  ", "  "));
    return;
  }

  const Evaluation fitted = study::evaluate_weights(fit.weights, history.items);
  out["fitted"] = measures_json(fitted);
  // As Anki: a fit that predicts the history no better than the weights in use is not taken.
  if (before && fitted && before->log_loss <= fitted->log_loss) {
    out["stage"] = "kept";
    out["weights"] = in_use;
    emit(wrap_styled(
        {},
        fmt::format("The weights in use already predict your {} as well as a new fit would "
                    "(log loss {:.4f} against {:.4f}): drill keeps them.",
                    text::count(fit.items, "training item", "training items"), before->log_loss,
                    fitted->log_loss),
        width));
    return;
  }

  study::FsrsFitRecord record;
  record.weights = fit.weights;
  record.fitted_at = resolve_now(context);
  record.reviews = history.reviews;
  record.items = static_cast<int>(fit.items);
  record.log_loss = fitted ? fitted->log_loss : 0.0;
  record.rmse_bins = fitted ? fitted->rmse_bins : 0.0;
  const std::map<std::string, study::CardMemory> memory =
      study::drill_memory(fit.weights, history.rows);
  store.save_fsrs_fit(record, memory);
  const bool all = fit.stage == study::FitStage::all_weights;
  out["stage"] = all ? "all_weights" : "initial_stability";
  out["needed"] = all ? nlohmann::ordered_json(nullptr)
                      : nlohmann::ordered_json(fit.items < study::kFitAllWeightsItems
                                                   ? study::kFitAllWeightsItems - fit.items
                                                   : 1);
  out["weights"] = fit.weights;
  out["fitted_at"] = study::format_time(record.fitted_at);
  out["cards_updated"] = memory.size();
  std::string text = wrap_styled({}, fitted_text(fit, history.reviews), width);
  if (defaults && fitted) {
    text += measures_header();
    text += measures_row(current ? "default" : "default (until now)", *defaults);
    if (current && before)
      text +=
          measures_row("fit of " + study::format_time(current->fitted_at).substr(0, 10), *before);
    text += measures_row("fitted now (in use)", *fitted);
  }
  text += weights_text(fit.weights, width);
  text += wrap_styled(
      context.theme.dim,
      fmt::format("Drill schedules with these from now on; {} stability and difficulty were "
                  "recomputed with them (due dates unchanged). Back to the defaults: {} drill "
                  "--optimize --reset",
                  text::count(memory.size(), "card's", "cards'"), context.program),
      width, "  ", "  ");
  emit(text);
}

}  // namespace proofdeck::cli
