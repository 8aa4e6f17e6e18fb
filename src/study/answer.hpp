// What the learner types, read against a question as shown (bank/instance.hpp): answers in every
// form questions/README.md lists, the session commands, or something unclear that is asked again
// with a hint (never counted wrong) — and graded, naming the trap a wrong answer embodies.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "bank/instance.hpp"

namespace proofdeck::study {

// Study works on questions as shown; the model's helpers are bank's (bank/instance.hpp).
using bank::expected_input;
using bank::Instance;
using bank::instantiate;
using bank::letter;
using bank::question_traps;

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

}  // namespace proofdeck::study
