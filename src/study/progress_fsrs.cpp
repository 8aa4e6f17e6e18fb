// The FSRS-6 fit in the progress database (study/progress.hpp): meta's "fsrs_fit", the fsrs_fits
// table, and the cards' memory a fit recomputes — each change one transaction.
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <cmath>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "study/progress.hpp"

namespace proofdeck::study {

namespace {

nlohmann::ordered_json fit_json(const FsrsFitRecord& fit) {
  return {{"weights", fit.weights},   {"fitted_at", format_time(fit.fitted_at)},
          {"reviews", fit.reviews},   {"items", fit.items},
          {"log_loss", fit.log_loss}, {"rmse_bins", fit.rmse_bins}};
}

// What is wrong with a stored fit, or "" when nothing is.
std::string fit_problem(const nlohmann::json& json, FsrsFitRecord& fit) {
  if (!json.is_object()) return "it is not a JSON object";
  const auto weights = json.find("weights");
  if (weights == json.end() || !weights->is_array() || weights->size() != 21)
    return "\"weights\" is not a list of 21 numbers";
  for (std::size_t i = 0; i < 21; ++i) {
    const nlohmann::json& w = (*weights)[i];
    if (!w.is_number() || !std::isfinite(w.get<double>()))
      return fmt::format("weights[{}] is not a number", i);
    fit.weights[i] = w.get<double>();
    if (!(fit.weights[i] >= kWeightLowerBounds[i] && fit.weights[i] <= kWeightUpperBounds[i])) {
      return fmt::format("weights[{}] = {} is outside [{}, {}]", i, fit.weights[i],
                         kWeightLowerBounds[i], kWeightUpperBounds[i]);
    }
  }
  const auto at = json.find("fitted_at");
  const std::optional<TimePoint> fitted_at =
      at != json.end() && at->is_string() ? parse_time(at->get<std::string>()) : std::nullopt;
  if (!fitted_at) return "\"fitted_at\" is not an ISO-8601 UTC time";
  fit.fitted_at = *fitted_at;
  for (const auto& [key, target] : {std::pair{"reviews", &fit.reviews}, {"items", &fit.items}}) {
    const auto it = json.find(key);
    if (it == json.end() || !it->is_number_integer() || it->get<long long>() < 0 ||
        it->get<long long>() > 1'000'000'000) {
      return fmt::format("\"{}\" is not a count", key);
    }
    *target = it->get<int>();
  }
  for (const auto& [key, target] :
       {std::pair{"log_loss", &fit.log_loss}, {"rmse_bins", &fit.rmse_bins}}) {
    const auto it = json.find(key);
    if (it == json.end() || !it->is_number() || !std::isfinite(it->get<double>()))
      return fmt::format("\"{}\" is not a number", key);
    *target = it->get<double>();
  }
  return "";
}

void update_memory(SQLite::Database& db, const std::map<std::string, CardMemory>& memory) {
  SQLite::Statement update(db, "UPDATE cards SET stability = ?, difficulty = ? WHERE id = ?");
  for (const auto& [id, m] : memory) {
    update.bind(1, m.stability);
    update.bind(2, m.difficulty);
    update.bind(3, id);
    update.exec();
    update.reset();
  }
}

}  // namespace

std::optional<FsrsFitRecord> ProgressStore::fsrs_fit() {
  SQLite::Statement query(*db_, "SELECT value FROM meta WHERE key = 'fsrs_fit'");
  if (!query.executeStep()) return std::nullopt;
  const std::string text = query.getColumn(0).getString();
  FsrsFitRecord fit;
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  const std::string problem =
      json.is_discarded() ? std::string("it is not JSON") : fit_problem(json, fit);
  if (!problem.empty()) {
    throw StateError("progress.fsrs_fit",
                     fmt::format("{}: meta's fsrs_fit is not a fit proofdeck wrote ({}); fit "
                                 "again with drill --optimize, or go back to the default weights "
                                 "with drill --optimize --reset",
                                 path_.string(), problem));
  }
  return fit;
}

std::array<double, 21> ProgressStore::fsrs_weights() {
  const std::optional<FsrsFitRecord> fit = fsrs_fit();
  return fit ? fit->weights : kDefaultWeights;
}

void ProgressStore::save_fsrs_fit(const FsrsFitRecord& fit,
                                  const std::map<std::string, CardMemory>& memory) {
  SQLite::Transaction transaction(*db_, SQLite::TransactionBehavior::IMMEDIATE);
  const std::string json = fit_json(fit).dump();
  SQLite::Statement set(*db_, "INSERT OR REPLACE INTO meta(key, value) VALUES('fsrs_fit', ?)");
  set.bind(1, json);
  set.exec();
  SQLite::Statement append(*db_,
                           "INSERT INTO fsrs_fits(fitted_at, weights, reviews, items, log_loss, "
                           "rmse_bins) VALUES(?, ?, ?, ?, ?, ?)");
  append.bind(1, format_time(fit.fitted_at));
  append.bind(2, nlohmann::json(fit.weights).dump());
  append.bind(3, fit.reviews);
  append.bind(4, fit.items);
  append.bind(5, fit.log_loss);
  append.bind(6, fit.rmse_bins);
  append.exec();
  update_memory(*db_, memory);
  transaction.commit();
}

void ProgressStore::reset_fsrs_fit(const std::map<std::string, CardMemory>& memory) {
  SQLite::Transaction transaction(*db_, SQLite::TransactionBehavior::IMMEDIATE);
  db_->exec("DELETE FROM meta WHERE key = 'fsrs_fit'");
  update_memory(*db_, memory);
  transaction.commit();
}

}  // namespace proofdeck::study
