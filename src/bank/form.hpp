// Forms whose questions do not answer each other. A worksheet, an exam or a quiz is a form; one
// question's text (its prompt, every option, every step) must not state another's key as drawn:
// "At d_model = 512 the block holds 1,048,576 weights" gives away "how many weights does the
// block hold?".
//
// What counts as stating a key:
//   - a number of at least 1,000 in magnitude — a numeric key, or a right option that is only a
//     number — written in the other text in any notation the answer parser reads (1048576,
//     1,048,576, 1_048_576, 2^20, 1.048576e6, 4*512*512), within the key's own tolerance;
//   - a right option's whole text (at least 20 characters), word for word, case and spacing
//     aside.
// Smaller numbers are the givens items share (8 heads, 64 tokens, d_model = 512): a 16 in "16
// heads" does not give away a rank of 16, and counting it would empty a topic's worksheet.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bank/instance.hpp"
#include "bank/model.hpp"
#include "bank/selection.hpp"
#include "engine/rng.hpp"

namespace proofdeck::bank {

inline constexpr double kGiveawayMagnitude = 1000.0;
inline constexpr std::size_t kGiveawayPhrase = 20;

// What in `text_of`'s prompt, options or steps states `key_of`'s key ("1,048,576", or the right
// option's text); nullopt when nothing does. A question never gives itself away.
std::optional<std::string> states_key(const Instance& text_of, const Instance& key_of);

// Why `a` and `b` cannot share a form ("question A states B's key, 1,048,576"), either way round;
// nullopt when they can.
std::optional<std::string> form_conflict(const Instance& a, const Instance& b);

// Pairs of questions no form holds together whatever they state: near-duplicates (the lint rule's
// prompts sharing most of their word trigrams, or one numeric key proven by one run), keyed by
// their ids in order, with why.
using Enemies = std::map<std::pair<std::string, std::string>, std::string>;
Enemies form_enemies(const std::vector<Bank>& banks);

// form_conflict, and the enemies' reason when `a` and `b` are a near-duplicate pair.
std::optional<std::string> form_conflict(const Instance& a, const Instance& b,
                                         const Enemies& enemies);

// Why two questions named with --question should not share a form, said without what the
// conflict itself shows (a stated key would give the answer away): "one states the other's
// answer" or "the two ask the same thing"; nullopt when they may.
std::optional<std::string> named_conflict(const Instance& a, const Instance& b,
                                          const Enemies& enemies);

// The order a form takes questions in, from a shuffled pool: the first question of every
// objective (Question::objective_id), in pool order, then the second of each, and so on. The first
// n of it ask n objectives once each while the pool has n objectives; the rest come in rounds.
std::vector<const Question*> objective_rounds(const std::vector<const Question*>& shuffled);

// The first of `queue` whose objective is not in `held`, taken out of the queue; nullopt when
// there is none (a form never asks an objective twice).
std::optional<const Question*> take_new(std::vector<const Question*>& queue,
                                        const std::set<std::string>& held);

// take_new from `spares[topic]` (a draw's spares, by topic: so the spread holds), else from each
// other topic's queue in turn.
std::optional<const Question*> take_new(std::map<std::string, std::vector<const Question*>>& spares,
                                        const std::string& topic,
                                        const std::set<std::string>& held);

// The objectives `questions` ask (Question::objective_id).
std::set<std::string> objectives_asked(const std::vector<const Question*>& questions);

// take_new with the objectives of every question of `form` but the one at `replacing`.
std::optional<const Question*> take_spare(std::vector<const Question*>& queue,
                                          const std::vector<Instance>& form, std::size_t replacing);

// One question left out of a form, and why.
struct LeftOut {
  std::string id;
  std::string reason;     // form_conflict's
  bool replaced = false;  // a spare took its place
};

// Drops, in order, every instance that conflicts with one kept before it. `spare` is asked for a
// replacement for the dropped one (its position, what it conflicted with): it returns the next
// eligible candidate, or nullopt when there is none; a replacement is checked the same way.
// Returns what was left out.
std::vector<LeftOut> untangle(std::vector<Instance>& form,
                              const std::function<std::optional<Instance>(std::size_t)>& spare,
                              const Enemies& enemies = Enemies{});

// How many of an n-question exam each topic gets (topic_sizes: its questions in the pool): in
// proportion, the rest by largest remainder, ties to the earlier topic. exam draws with it and
// stats predicts a pass with it.
std::vector<int> exam_quota(const std::vector<int>& topic_sizes, int n);

// n questions drawn across topics in proportion to how many objectives each asks (exam_quota's
// largest remainder; a fact asked ten ways counts once), one question per objective and never
// two: at most as many as the pool has objectives. `repeats` (a pool the learner chose, by
// --question or --trap): once every objective is on the form, further rounds, up to n. Each
// topic's order and then the whole drawn with rng. `spares` gets each topic's questions left
// over, in objective rounds. An exam's draw, and print --count's.
std::vector<const Question*> draw_spread(
    std::vector<const Question*> pool, std::size_t n, engine::Rng& rng,
    std::map<std::string, std::vector<const Question*>>& spares, bool repeats = false);

// How many objectives the questions ask (Question::objective_id): the facts a form can hold.
std::size_t count_objectives(const std::vector<const Question*>& questions);

// What a form shorter than asked for says on standard error, since it never asks an objective
// twice: "3 questions: the selection holds 3 distinct facts".
std::string short_form_note(std::size_t questions, std::size_t facts);

// A drawn form, what was swapped or dropped from it, and how many objectives the pool it was
// drawn from holds (a form shorter than asked for says so with it).
struct DrawnForm {
  std::vector<Instance> form;
  std::vector<LeftOut> left_out;
  std::size_t facts = 0;
};

// A quiz's form from the questions selected, shuffled with rng: objective rounds, the first
// `limit` (all when nullopt) taken, untangled with the rest as spares. `once_per_objective`: at
// most one question per objective, so at most as many as the selection has objectives (a plain
// quiz); false for a selection that is the learner's own list (--missed, --weakest, --trap),
// asked whole, where a spare may repeat an objective.
DrawnForm draw_quiz_form(std::vector<const Question*> selected, std::optional<std::size_t> limit,
                         bool once_per_objective, engine::Rng& rng, const Enemies& enemies);

// An exam's form: `count` questions of those the filters select, drawn across topics
// (draw_spread: one per objective) with `seed`, then untangled so that no question gives away
// another's answer or asks what another asks (questions named with --question are kept as
// named). exam, exam --review and stats' readiness draw with it; `enemies`: the banks' form
// enemies when the caller has them (drawing many forms), else computed here.
DrawnForm draw_exam_form(const std::vector<Bank>& banks, const Filters& filters, int count,
                         std::uint64_t seed, const Enemies* enemies = nullptr);

}  // namespace proofdeck::bank
