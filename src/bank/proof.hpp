// Proving answer keys: run each question's demo (each distinct run once), evaluate its
// predicates and claims, compare numeric keys with computed values, and give the question one
// status (docs/ARCHITECTURE.md § Contracts):
//   verified  — the key is pinned by computation: a wrong key would fail, and every comparison
//               that tells the key from a wrong alternative reads a value the engine measured
//               or counted (demo.hpp's Provenance);
//   computed  — pinned, but only by values derived from parameters: the arithmetic is checked,
//               no engine computation bears on it;
//   supported — the proof runs and holds, but would not catch a wrong key;
//   unproven  — no proof;
//   failed    — a predicate, claim or computed value disagrees with the key, or the demo failed.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bank/instance.hpp"
#include "bank/model.hpp"
#include "bank/template.hpp"
#include "demo/demo.hpp"
#include "engine/fault.hpp"

namespace proofdeck::bank {

enum class Status { verified, computed, supported, unproven, failed };
std::string_view status_name(Status status);

struct QuestionVerdict {
  std::string id;
  std::string bank;
  Status status = Status::unproven;
  std::string message;  // one line: why this status
};

// Runs demos for proofs, computing each distinct (demo, arguments) once — with the engine as it
// is, or under one engine fault (engine/fault.hpp) for `check --engine-faults`. The one owner of
// what runs share in a process (demo::RunCaches): each runner holds its caches and lends them to
// every run it makes; the fault pass lends a clean runner's to its faulty runs (caches()).
class DemoRunner {
 public:
  explicit DemoRunner(std::uint64_t seed, engine::Fault fault = engine::Fault::none)
      : seed_(seed), fault_(fault), caches_(std::make_unique<demo::RunCaches>()) {}
  // Throws InputError for an unknown demo or parameter, naming the question's pointer.
  const demo::DemoResult& run(const Proof& proof, const Bindings& bindings,
                              const std::string& where);
  std::size_t runs() const { return cache_.size(); }

  // Computes every distinct run the banks' proofs need, on up to `threads` threads (each run is
  // independent and seeded, so results are the same as one by one), so that later calls to run()
  // are lookups. Runs that fail are left out; run() reports them where they are needed.
  void prefetch(const std::vector<Bank>& banks, unsigned threads);
  engine::Fault fault() const { return fault_; }
  demo::RunCaches& caches() { return *caches_; }

 private:
  std::uint64_t seed_;
  engine::Fault fault_;
  std::map<std::string, std::unique_ptr<demo::DemoResult>> cache_;
  std::unique_ptr<demo::RunCaches> caches_;
};

// The seed proofs run with unless `check --seed N` says otherwise. print, export and study run
// their proofs with it whatever --seed they are given (--seed draws and shuffles their questions,
// not the demos' weights), so the numbers an explanation quotes are the ones printed beside it
// and the ones `check` proves.
inline constexpr std::uint64_t kProofSeed = 0;

// The runner a command proves with: `check`, and the load-time resolve_problems of banks given
// with --bank, pass --seed (0 unless given); what print, export and study show, kProofSeed.
inline DemoRunner proof_runner(std::uint64_t seed) {
  return DemoRunner(seed);
}

// A demo value as proofs, explanations and key numbers print it: "yes" or "no", or the number
// by the number rule (format_measured).
std::string measured_text(const demo::Value& value);

// Each `{value:NAME}` of `text` (placeholders already filled) written from `result` by the
// number rule (format_measured: "2,047.5", "1.421×10⁻¹⁴"); a name the result lacks stays as it is.
std::string fill_values(std::string_view text, const demo::DemoResult& result);

// The explanation as a learner reads it: the instance's, with its `{value:NAME}` references
// filled from the question's proof run with the drawn parameters (through `runner`, so a run
// already made is reused). A demo that cannot run leaves "(NAME: the demo could not run)".
std::string explanation_text(const Instance& instance, DemoRunner& runner);

// The proof's arguments as the demo takes them from `--set`, placeholders substituted, lists
// comma-joined: {"d_model": "{d_model}", "heads": [1, 8]} → "d_model=512", "heads=1,8".
std::vector<std::string> demo_assignments(const Proof& proof, const Bindings& bindings);

// Evaluates a predicate; InputError when it names a value the result lacks or compares a value
// of the wrong kind (a number with `is`, a boolean with lt).
bool evaluate(const Predicate& predicate, const demo::DemoResult& result, const Bindings& bindings);

// The load-time checks that need the demo catalog, run over the loaded banks before `check` (or a
// session) uses them: every proof names a demo that exists, parameters it has and values it
// accepts, and every value that `show`, `computed`, a predicate or a claim names exists in the
// demo's output with the kind its comparison needs (numbers compare with numbers, booleans with
// `is`). Templates are checked in every admitted combination. Returns every problem, one line each
// ("file: /pointer: ..."); an empty list means the banks are sound. Runs go through `runner`, so
// `check` reuses them.
std::vector<std::string> resolve_problems(const std::vector<Bank>& banks, DemoRunner& runner);
// The same for one question (none without a proof).
std::vector<std::string> resolve_problems(const Question& question, DemoRunner& runner);

// What a question's comparisons say about one demo result: each proof predicate, each option's
// claim (nullopt without one), the true/false claim, whether the numeric key matches its computed
// value. InputError when a value is missing or of the wrong kind.
struct ProofReading {
  std::vector<bool> predicates;
  std::vector<std::optional<bool>> claims;
  std::optional<bool> claim;
  std::optional<bool> key_matches;
  // A numeric question's distractors: whether the computed value would match each (empty when
  // its formula is undefined for the draw). Not part of the verdict: same_verdict() leaves it out.
  std::vector<std::optional<bool>> distractors_match;
  friend bool operator==(const ProofReading&, const ProofReading&) = default;
  // The part of the reading the verdict depends on: predicates, claims and the key's match.
  bool same_verdict(const ProofReading& other) const {
    return predicates == other.predicates && claims == other.claims && claim == other.claim &&
           key_matches == other.key_matches;
  }
};
ProofReading read_proof(const Question& question, const demo::DemoResult& result,
                        const Bindings& bindings);

// Every value the question's comparisons read (proof predicates, claims, the computed key),
// placeholders filled, each once.
std::vector<std::string> values_read(const Question& question, const Bindings& bindings);

// The values that tell the key from a wrong alternative — the options' claims, the true/false
// claim, the numeric key's computed value — in comparisons that read no measured or counted value:
// empty when the key rests on the engine (verified), else the names that make it `computed`.
std::vector<std::string> values_off_engine(const Question& question, const demo::DemoResult& result,
                                           const Bindings& bindings);
bool key_rests_on_engine(const Question& question, const demo::DemoResult& result,
                         const Bindings& bindings);

// What feedback and printouts call a proof: "Computed" when only values derived from parameters
// tell its key from the wrong alternatives (its status is `computed`), "Proof" otherwise.
std::string_view proof_heading(const Question& question, const demo::DemoResult& result,
                               const Bindings& bindings);

// The status of one question, given a runner (shared across questions so runs are reused).
QuestionVerdict verify(const Question& question, DemoRunner& runner);

// One wrong alternative to a verified key, and whether the proof caught it.
struct Mutation {
  std::string question;
  std::string description;  // "key b instead of a", "answer true", "key × 2"
  bool killed = false;      // the mutated question failed verification, as it must
};

// Swaps the key of a verified (or computed) question for every wrong alternative: each other
// option (single), each option toggled (multi), the other truth value, each distractor and the
// key × 2, ÷ 2 and + 1 (numeric and templates). Other questions have no mutations.
std::vector<Mutation> mutate(const Question& question, DemoRunner& runner);

}  // namespace proofdeck::bank
