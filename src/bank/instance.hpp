// A question as one learner (or one printout) sees it once: options (or steps) shuffled and
// lettered, a template's parameters drawn, the prompt filled in, and the key computed. Study reads
// answers against it (study/answer.hpp); print lays it out.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bank/model.hpp"
#include "bank/numeric_answer.hpp"
#include "engine/rng.hpp"

namespace proofdeck::bank {

struct Instance {
  const Question* question = nullptr;
  Bindings bindings;               // a template's drawn parameters (empty otherwise)
  std::string prompt;              // placeholders filled, numbers grouped for reading
  std::string explanation;         // likewise
  std::vector<std::size_t> order;  // shown position → option (or step) index
  double key = 0.0;                // numeric: the right value

  // Where option (or step) `index` is shown: the position whose order entry it is (order's
  // inverse); order.size() for an index not in order.
  std::size_t position_of(std::size_t index) const;
};

// Shuffles options and steps and draws a template's parameters from rng.
Instance instantiate(const Question& question, engine::Rng& rng);

// "a", "b", … for shown positions.
std::string letter(std::size_t position);

// "b) Let the model …": the option (or step) shown at a position, with its letter.
std::string option_text(const Instance& instance, std::size_t position);

// The right answer in the form the learner would type it ("b", "a,c", "true", "98304", "c a b").
std::string expected_input(const Instance& instance);

// Each distractor's value in this draw (a formula over the drawn parameters, or a number); one
// whose formula cannot be evaluated for these parameters is left out.
std::vector<double> distractor_values(const Instance& instance);

// How to type a number, shown at a numeric question (its hint, its `?` help, the message after
// input that does not parse): an example chosen for this question as drawn, a power of two that
// is no answer to it — outside the tolerance of the key and of every distractor — and picked by
// the question and its parameters, so that which one is shown says nothing about the key.
NumberExample number_example(const Instance& instance);

// Every trap a question can catch a learner in (its options', distractors' and own), each once,
// in the order the question names them.
std::vector<std::string> question_traps(const Question& q);

// Where a question comes from, for people: its section (or reference), then its quote between
// `open` and `close` — the section left out when the quote begins with its words, so that a line
// never reads the same words twice ("Source: \"The single most consequential misreading …\"").
std::string source_line(const Source& source, std::string_view open, std::string_view close);

}  // namespace proofdeck::bank
