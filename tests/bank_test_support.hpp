// Shared by the bank, proof and study tests: the worked example of questions/README.md (kept
// equal to tests/banks/worked_example.json by tests/validate_banks.py), as JSON to vary, and a
// small bank of objectives for the forms' tests.
#pragma once

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bank/loader.hpp"

namespace bank_test {

inline nlohmann::json worked_example() {
  std::ifstream file(std::string(PROOFDECK_FIXTURE_DIR) + "/../banks/worked_example.json");
  REQUIRE(file.good());
  return nlohmann::json::parse(file);
}

// The problems load_bank reports for `bank` as "bank.json", or none when it loads.
inline std::vector<std::string> problems_of(const nlohmann::json& bank) {
  try {
    proofdeck::bank::load_bank(bank.dump(), "bank.json");
  } catch (const proofdeck::bank::BankErrors& e) {
    return e.problems();
  }
  return {};
}

// A true/false question on `objective` in `topic`, keyed true.
inline nlohmann::json statement(const std::string& id, const std::string& topic,
                                const std::string& objective, const std::string& prompt) {
  nlohmann::json q = {{"id", id},
                      {"type", "truefalse"},
                      {"topic", topic},
                      {"prompt", prompt},
                      {"answer", true},
                      {"trap", "heads-cut"},
                      {"unprovable", "A unit of the format, not a claim to compute."},
                      {"explanation", "Each head's projections shrink as the head count grows."},
                      {"source", {{"section", "Identity statement"}}}};
  if (!objective.empty()) q["objective"] = objective;
  return q;
}

inline nlohmann::json objective(const std::string& id, const std::string& statement_text,
                                const std::string& quote) {
  return {{"id", id}, {"statement", statement_text}, {"quote", quote}};
}

// Seven statements on three objectives over two topics: heads-neutral 3, heads-width 2,
// order-blind 2.
inline nlohmann::json study_bank() {
  return {{"format", 1},
          {"bank", {{"id", "units"}, {"title", "Units"}, {"lesson", "lesson"}}},
          {"topics", nlohmann::json::array({{{"id", "heads"}, {"name", "Heads"}},
                                            {{"id", "order"}, {"name", "Order"}}})},
          {"traps",
           nlohmann::json::array({{{"id", "heads-cut"},
                                   {"name", "Heads cut parameters"},
                                   {"misconception", "Splitting into heads saves weights."},
                                   {"correction", "The heads hold the weights one head holds."},
                                   {"source", {{"section", "Identity statement"}}}}})},
          {"objectives", nlohmann::json::array(
                             {objective("heads-neutral", "Splitting into heads keeps the weights.",
                                        "costs the same total parameters"),
                              objective("heads-width", "Each head is d_model/h wide.",
                                        "gives each head only 32 dimensions"),
                              objective("order-blind", "Attention alone is blind to order.",
                                        "cannot know word order")})},
          {"questions",
           nlohmann::json::array(
               {statement("neutral-1", "heads", "heads-neutral",
                          "Eight heads of width 64 hold the weights of one 512-wide head."),
                statement("neutral-2", "heads", "heads-neutral",
                          "Sixteen heads of width 32 keep a 512-wide block's weights."),
                statement("neutral-3", "heads", "heads-neutral",
                          "Four heads of width 128 cost what a single wide head costs."),
                statement("width-1", "heads", "heads-width",
                          "At d_model 512, sixteen heads are 32 dimensions wide each."),
                statement("width-2", "heads", "heads-width",
                          "Doubling the head count at a fixed width halves each head."),
                statement("blind-1", "order", "order-blind",
                          "Without positions, cat bit dog and dog bit cat attend alike."),
                statement("blind-2", "order", "order-blind",
                          "Attention's query-key comparison holds no positional term.")})}};
}

}  // namespace bank_test
