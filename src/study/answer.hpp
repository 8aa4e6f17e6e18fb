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
  // skip/quit: quiz and drill; flag/back/next/go/review/submit/time: exams.
  enum class Kind {
    answer,
    skip,
    quit,
    help,
    demo,
    flag,
    back,
    next,
    go,
    review,
    submit,
    time,
    unclear
  };
  Kind kind = Kind::unclear;
  std::size_t target = 0;           // go: the question number typed ("goto 3")
  std::string hint;                 // unclear: what to type instead
  std::vector<std::size_t> chosen;  // single/multi: option indices; order: step indices in order
  bool truth = false;               // truefalse
  double number = 0.0;              // numeric
  std::string text;       // the answer in the bank's ids, for the record ("a,c", "true", "98304")
  std::string shown;      // the answer as the learner sees it: shown letters ("b,e"), "true", …
  bool revealed = false;  // the proof was opened before this answer: it counts as not known
  // The line as typed, without surrounding spaces: parse_reply of it against the same question
  // gives this reply again (an exam keeps it to rebuild its review).
  std::string typed;
};

// Commands in quiz and drill: :s or skip, :q or quit, ? or help, :d or demo — forms no answer
// can take, so a bare letter is always read as an answer. In an exam (`exam`), whole words that
// no answer can be: flag, back, next, goto N, review, submit, time, help (or ?), demo.
Reply parse_reply(const Instance& instance, std::string_view line, bool exam = false);

// A line as a one-word reply to a prompt ("How was it?", "How sure?", "Submit now?"): lower case,
// its spaces removed.
std::string folded_word(std::string_view line);

// The answer as the learner reads it back (review screens, "Your answer:"): a number by the
// number rule ("33,554,432" for 2^25, "45.254834"), anything else as shown ("b,e", "true").
std::string answer_for_people(const Instance& instance, const Reply& reply);

struct Grade {
  bool correct = false;
  std::string trap;      // the trap id the answer embodies, "" when none (or correct)
  std::string expected;  // the right answer for people: "b) Let the model …", "98,304", "true"
  bool revealed_right = false;  // right, but after opening the proof: counted as not known
  // multi: the shown letters chosen that are not right, and the right ones not chosen
  std::vector<std::string> wrong_chosen, missed;
};

// A reply given after opening the proof (`revealed`) is never correct: the learner saw it.
Grade grade(const Instance& instance, const Reply& reply);

}  // namespace proofdeck::study
