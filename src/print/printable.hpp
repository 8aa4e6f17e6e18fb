// What every printout and export shares: the chosen questions grouped by topic and numbered, each
// instantiated once from --seed (options lettered as bank::instantiate shows them, a template's
// parameters drawn), and the facts about one question that every format prints — the answer in
// letters and in words, the trap behind each wrong answer, the worked formula and the proof's key
// numbers. Same banks, filters and seed: same numbers, letters and values in every format.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bank/instance.hpp"
#include "bank/model.hpp"
#include "bank/proof.hpp"
#include "demo/demo.hpp"

namespace proofdeck::print {

// One question as printed.
struct Printed {
  int number = 0;                    // 1..N through the whole document
  const bank::Bank* bank = nullptr;  // the bank it comes from
  bank::Instance instance;           // as shown: shuffled, drawn, prompt filled in
  const bank::Question& question() const { return *instance.question; }
};

// The questions of one topic, in bank order.
struct TopicGroup {
  const bank::Bank* bank = nullptr;
  const bank::Topic* topic = nullptr;
  std::vector<Printed> questions;
};

// Groups the selected questions by topic (banks in load order, topics in each bank's order) and
// numbers and instantiates them in that order from one generator seeded with `seed`, so a
// worksheet and its key, printed separately with the same seed, always match.
std::vector<TopicGroup> arrange(const std::vector<bank::Bank>& banks,
                                const std::vector<const bank::Question*>& selected,
                                std::uint64_t seed);

// A sheet's questions, arranged: every selected one, or `count` (unless 0) drawn with `seed`
// across the topics as an exam draws them, never two of one objective unless `repeats` (the
// selection is the learner's list: --question, --trap). A question that would give away another's
// answer (as drawn for this sheet: bank/form.hpp) is left out, or with a count replaced by a
// spare of an objective the sheet does not hold, of its topic where there is one; `notes` gets a
// line for each ("note: ID is left out: …"), and one when the selection holds fewer objectives
// than `count`. With `keep_named` (questions named with --question) every question is kept, with
// a warning in `notes` for each such pair.
std::vector<TopicGroup> draw_sheet(const std::vector<bank::Bank>& banks,
                                   std::vector<const bank::Question*> selected, std::size_t count,
                                   std::uint64_t seed, bool keep_named, bool repeats,
                                   std::vector<std::string>& notes);

// A wrong answer and the misconception it embodies.
struct TrapNote {
  std::string answer;  // as shown: "a", "true", "786,432"
  const bank::Trap* trap = nullptr;
  std::string option = {};  // a lettered answer's text, so a key that lists it says what it was
};

// A proof's run for printing: the result (owned by the runner, which caches it, so the same
// computation is the same pointer) or why the demo could not run.
struct ProofRun {
  const demo::DemoInfo* info = nullptr;
  const demo::DemoResult* result = nullptr;                      // null when the demo failed
  std::string error;                                             // why it failed
  std::vector<std::pair<std::string, std::string>> key_numbers;  // proof.show: label → "1,048,576"
  std::string heading =
      "Proof";  // "Computed" when only arithmetic pins the key (bank::proof_heading)
};

// Everything a format prints about one question, in plain text (each writer escapes it).
struct Facts {
  std::string kind;                 // "Single answer", "Select all that apply", …
  std::vector<std::string> labels;  // the shown options or steps, in shown order
  std::vector<bool> correct;        // per shown option (single, multi)
  std::string answer_letters;       // "b", "a, c", "true", "98,304 parameters", "c → a → b"
  std::string answer_words;         // the same with the texts: "b) Let the model …"
  std::vector<TrapNote> traps;      // each wrong answer with a trap
  std::string worked;               // a template's formula with its values, or ""
  std::string source;               // "Section — “quote”" or the reference
};

Facts facts_of(const Printed& printed, const bank::Bank& bank);

// Runs the question's demo with the drawn parameters; nullopt when the question has no proof.
std::optional<ProofRun> run_proof(const Printed& printed, bank::DemoRunner& runner);

}  // namespace proofdeck::print
