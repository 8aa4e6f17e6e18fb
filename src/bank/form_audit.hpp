// How forms come out, drawn many times: `check --forms N` draws N quiz forms and N exam forms
// (seeds 0..N−1, as `quiz --seed S` and `exam --seed S` would) over each loaded bank alone and
// over all of them, and counts the forms that ask one fact twice — two questions of one
// objective, or a pair a question names in `same_fact_as`. A form never should.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bank/model.hpp"

namespace proofdeck::bank {

// Two questions of one form that ask one fact, and why ("objective attention-order-blind",
// "same_fact_as").
struct RepeatedFact {
  std::string first, second;
  std::string why;
};

// One scope's forms under one draw.
struct FormAudit {
  std::string scope;  // "all", or a bank's id
  std::string draw;   // "quiz" or "exam"
  std::size_t forms = 0;
  std::size_t repeating = 0;  // forms that ask a fact twice
  std::size_t shortest = 0, longest = 0;
  std::optional<std::uint64_t> first_seed;  // the first seed whose form repeats, and what
  RepeatedFact first_repeat;

  double repeat_share() const {
    return forms == 0 ? 0.0 : static_cast<double>(repeating) / static_cast<double>(forms);
  }
};

// The first pair of `form` that asks one fact twice; nullopt when none does.
std::optional<RepeatedFact> repeated_fact(const std::vector<const Question*>& form);

// For "all" and then each bank in load order, the quiz draw and the exam draw of `forms` forms
// of `count` questions each. Work is shared over `threads` threads (at least 1); the result does
// not depend on how many.
std::vector<FormAudit> audit_forms(const std::vector<Bank>& banks, int forms, int count,
                                   int threads = 1);

}  // namespace proofdeck::bank
