// The Reader the loader walks a bank file's JSON with: each value checked for its kind and the
// load limits, each problem collected with its JSON pointer instead of stopping at the first
// ("bank.json: /questions/3/prompt: expected non-empty text, found number 3").
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/load_limits.hpp"
#include "bank/model.hpp"

namespace proofdeck::bank {

// Walks one file, collecting problems instead of stopping at the first.
class Reader {
 public:
  Reader(std::string file, const LoadLimits& limits) : file_(std::move(file)), limits_(limits) {}

  void problem(const std::string& pointer, const std::string& message);
  // A problem whose message already names the file and place (a formula's InputError), kept
  // under `pointer` like the others.
  void located_problem(const std::string& pointer, std::string message);

  const std::vector<std::string>& problems() const { return problems_; }
  std::vector<std::string> take_problems() { return std::move(problems_); }
  // Where each problem is, in the order of problems(): the pointer it was reported at.
  const std::vector<std::string>& problem_pointers() const { return pointers_; }

  // An object with only `allowed` keys and all `required` ones; false (reported) otherwise.
  bool object(const nlohmann::json& value, const std::string& pointer,
              std::initializer_list<std::string_view> allowed,
              std::initializer_list<std::string_view> required);

  std::string text(const nlohmann::json& parent, std::string_view key, const std::string& pointer);

  std::string id(const nlohmann::json& parent, std::string_view key, const std::string& pointer);

  // "requires": ["id", ...], the ids in file order, each with its pointer; a repeated id is
  // reported. Whether each names a loaded bank or topic is known only once every bank is loaded
  // (bank/prerequisites.hpp).
  std::vector<Requirement> requirements(const nlohmann::json& parent, const std::string& pointer);

  // An array of ids at `key` ("same_fact_as": ["id", ...]), checked as `requires` is; `names`
  // says what an id names, for the message ("a topic or bank", "a question").
  std::vector<Requirement> id_list(const nlohmann::json& parent, std::string_view key,
                                   const std::string& pointer, std::string_view names);

  // A date or a UTC date-time ("2026-12-01", "2026-12-01T09:00:00Z"); nullopt (reported) for
  // anything else, an offset included: a bank says when it changed in one time zone.
  std::optional<TimePoint> utc_time(const nlohmann::json& parent, std::string_view key,
                                    const std::string& pointer);

  std::optional<double> number(const nlohmann::json& parent, std::string_view key,
                               const std::string& pointer);

  std::optional<bool> boolean(const nlohmann::json& parent, std::string_view key,
                              const std::string& pointer);

  // The array at key (empty when missing or not an array, which is reported).
  const nlohmann::json& array(const nlohmann::json& parent, std::string_view key,
                              const std::string& pointer);

  Source source(const nlohmann::json& parent, const std::string& pointer);

  // "lint_allow": [{"rule": "few-options", "reason": "..."}]
  std::vector<LintWaiver> waivers(const nlohmann::json& parent, const std::string& pointer);

  std::optional<Formula> formula(const nlohmann::json& value, const std::string& pointer);

  Predicate predicate(const nlohmann::json& value, const std::string& pointer, int depth = 0);

  std::optional<Proof> proof(const nlohmann::json& parent, const std::string& pointer);

 private:
  std::string file_;
  const LoadLimits& limits_;
  std::vector<std::string> problems_;
  std::vector<std::string> pointers_;
};

}  // namespace proofdeck::bank
