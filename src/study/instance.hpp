// A question as one learner sees it once: options (or steps) shuffled and lettered, a template's
// parameters drawn, the prompt filled in, and the key computed. Then what the learner types is
// read against it — answers in every form questions/README.md lists, the session commands, or
// something unclear that is asked again with a hint (never counted wrong) — and graded, naming the
// trap a wrong answer embodies.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "bank/model.hpp"
#include "engine/rng.hpp"

namespace proofdeck::study {

struct Instance {
  const bank::Question* question = nullptr;
  bank::Bindings bindings;         // a template's drawn parameters (empty otherwise)
  std::string prompt;              // placeholders filled, numbers grouped for reading
  std::string explanation;         // likewise
  std::vector<std::size_t> order;  // shown position → option (or step) index
  double key = 0.0;                // numeric: the right value
};

// Shuffles options and steps and draws a template's parameters from rng.
Instance instantiate(const bank::Question& question, engine::Rng& rng);

// "a", "b", … for shown positions.
std::string letter(std::size_t position);

// What one line of input means.
struct Reply {
  enum class Kind { answer, skip, quit, help, demo, flag, unclear };
  Kind kind = Kind::unclear;
  std::string hint;                 // unclear: what to type instead
  std::vector<std::size_t> chosen;  // single/multi: option indices; order: step indices in order
  bool truth = false;               // truefalse
  double number = 0.0;              // numeric
  std::string text;   // the answer in the bank's ids, for the record ("a,c", "true", "98304")
  std::string shown;  // the answer as the learner sees it: shown letters ("b,e"), "true", …
};

// Commands: s (skip), q (quit), ? (help), d (the demo again), f (flag, exams only).
Reply parse_reply(const Instance& instance, std::string_view line, bool allow_flag = false);

struct Grade {
  bool correct = false;
  std::string trap;      // the trap id the answer embodies, "" when none (or correct)
  std::string expected;  // the right answer for people: "b) Let the model …", "98,304", "true"
};

Grade grade(const Instance& instance, const Reply& reply);

// The right answer in the form the learner would type it ("b", "a,c", "true", "98304", "c a b").
std::string expected_input(const Instance& instance);

}  // namespace proofdeck::study
