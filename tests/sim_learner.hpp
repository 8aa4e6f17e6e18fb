// The simulated learners' world and memory, shared by the experiments that run them through the
// real code: readiness against the truth (readiness_sim.hpp) and the exam plan against the
// ordinary schedule (exam_plan_sim.hpp). A configuration draws item parameters for the bank once
// (the world); a learner has an ability per topic and objective, misconceptions held as traps,
// learning from feedback with transfer inside an objective, and forgetting by ACT-R, half-life
// regression or FSRS with their own weights. The truth is the learner's expected score on a fresh
// exam form, averaged over forms exam draws. With a Hypercorrection model, a learner also feels
// how sure each answer is and may drop a misconception after feedback, for a while.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bank/form.hpp"
#include "bank/model.hpp"
#include "engine/rng.hpp"
#include "readiness_sim.hpp"
#include "study/chance.hpp"
#include "study/drill_plan.hpp"
#include "study/fsrs.hpp"
#include "study/learner_day.hpp"
#include "study/progress.hpp"
#include "study/readiness.hpp"

namespace readiness_sim {

inline constexpr int kExamQuestions = 20;
inline constexpr double kPassMark = 75.0;
inline constexpr int kTruthForms = 200;
inline constexpr double kSecondsPerDay = 86400.0;

double uniform(proofdeck::engine::Rng& rng, double low, double high);
double logistic(double x);

// A stratum's mean general ability (logits).
double mean_ability(const std::string& stratum);

// What a configuration draws for the items of one world: each item's 4PL parameters (its
// difficulty around its objective's) and how often learners hold each trap.
struct ItemDraw {
  std::vector<double> discrimination, difficulty, slip;
  std::vector<double> prevalence;  // by trap
};

// The bank's items with the parameters a configuration draws for them.
struct World {
  const std::vector<proofdeck::bank::Bank>* banks = nullptr;
  std::vector<const proofdeck::bank::Question*> items;
  std::map<std::string, std::size_t> index;
  std::vector<std::size_t> objective_of, topic_of;
  std::vector<std::string> objectives, topics;
  std::vector<double> guess;                       // a blind guess's chance, by the item's type
  std::vector<std::vector<std::size_t>> traps_of;  // trap indices an item's wrong answers embody
  std::vector<std::string> traps;
  ItemDraw drawn;  // from the configuration's seed
  std::vector<std::vector<std::size_t>> siblings;
  proofdeck::bank::Enemies enemies;
  std::vector<std::vector<std::size_t>> truth_forms;  // items of each form exam draws
  // The forms stats' readiness averages over, drawn once for every learner of the world.
  std::unique_ptr<proofdeck::study::ReadinessForms> readiness_forms =
      std::make_unique<proofdeck::study::ReadinessForms>();
};

World make_world(const Config& config, const std::vector<proofdeck::bank::Bank>& banks);

// Another draw of the world's item parameters from `seed` (make_world's own comes from the
// configuration's seed): the same banks in a world of its own.
ItemDraw draw_items(const World& world, const Config& config, std::uint64_t seed);

// How sure a learner feels of an answer, and what feedback on a wrong one does to a misconception
// they hold: the model the confidence experiment (confidence_sim.hpp) runs, committed before any
// mapping from confidence to a rating was tried on it. Without it (the readiness and exam-plan
// experiments) a misconception is held for good.
//
// Feeling: an answer the learner knows feels as sure as the knowledge is strong (`knows`, the
// memory and ability the item's chance rests on); one a held misconception gave feels as sure as
// the learner believes it (a belief drawn per misconception, uniform over `belief`); a guess feels
// like its odds. The level is that feeling plus normal noise (`noise`) cut at Moodle's break-even
// points: 3 from 0.8, 2 from ⅔, else 1.
//
// Hypercorrection (Butterfield & Metcalfe 2001): after feedback on an answer a held misconception
// gave, the learner drops it with a chance that rises with how sure they were (`corrected`, by
// level). It comes back (Butler, Fazio & Marsh 2011: high-confidence errors corrected at once
// return over a week more often than low ones) with a chance by the level it was corrected at
// (`returns`), after an exponential delay of mean `return_days`; each right answer to one of its
// items in the meantime settles the correction for good with chance `settled_by_retrieval`.
struct Hypercorrection {
  std::array<double, 2> belief = {0.6, 1.0};
  double noise = 0.1;
  std::array<double, 3> corrected = {0.30, 0.45, 0.60};
  std::array<double, 3> returns = {0.15, 0.25, 0.35};
  double return_days = 7.0;
  double settled_by_retrieval = 0.3;
};

// One answer as the learner gives it: right or wrong, how sure they felt (the feeling with its
// noise, and as a level 1–3), the misconception a wrong one shows, and whether a misconception
// they hold gave it.
struct Attempt {
  bool correct = false;
  double felt = 0;
  int confidence = 1;
  std::string trap;
  bool by_misconception = false;
};

class Learner {
 public:
  // `items` (the world's own draw when null) must outlive the learner.
  Learner(const World& world, const Config& config, double mean_ability,
          proofdeck::engine::Rng& rng, const ItemDraw* items = nullptr);

  // Recall of the item's practised memory at `now` (0 before any practice).
  double recall(std::size_t i, proofdeck::TimePoint now) const;

  // The chance of a right answer at `now`: a 4PL item (floor, slip) on an ability of general +
  // topic + objective + what was learned, raised by the item's own memory; a held misconception
  // takes the guess away (the learner picks its option).
  double chance(std::size_t i, proofdeck::TimePoint now) const;

  // The misconception a wrong answer shows: a held trap of the item, else one at random.
  std::string trap_of_wrong(std::size_t i, proofdeck::engine::Rng& rng) const;

  // After feedback (`weight` 1, or less for an exam's results read at its end): the item is
  // practised, its objective's siblings a little, and the objective learned more after a miss.
  void learn(std::size_t i, bool correct, proofdeck::TimePoint now, double weight);

  // Gives the learner a feeling of how sure they are, and misconceptions feedback can correct;
  // its draws come from `seed`, apart from the learner's others.
  void hypercorrect(const Hypercorrection& model, std::uint64_t seed);
  bool hypercorrects() const { return hypercorrection_ != nullptr; }

  // An answer to item i at `now` (with hypercorrect(): right with chance(i, now), by one of its
  // routes — known, a slip of the known, a held misconception, a guess — and as sure as that
  // route feels).
  Attempt attempt(std::size_t i, proofdeck::TimePoint now, proofdeck::engine::Rng& rng) const;

  // After feedback on `a` to item i (with hypercorrect()): a misconception that gave it may be
  // dropped; a right answer may settle a correction pending its return. learn() the rest.
  void feedback(std::size_t i, const Attempt& a, proofdeck::TimePoint now);

  // Whether the learner holds misconception `trap` at `now` (a corrected one that came back
  // counts).
  bool holds(std::size_t trap, proofdeck::TimePoint now) const;

 private:
  struct Trace {
    double at;  // days
    double decay;
    double weight;
  };

  double activation(std::size_t i, double t) const;
  double knows(std::size_t i, proofdeck::TimePoint now) const;
  void feel(Attempt& a, double feeling, proofdeck::engine::Rng& rng) const;
  void practise(std::size_t i, bool correct, double t, proofdeck::TimePoint now, double weight);

  const World& world_;
  const ItemDraw& items_;
  Forgetting kind_;
  double general_ = 0;
  std::vector<double> topic_, objective_, learned_;
  std::vector<bool> holds_;
  double learning_rate_ = 0.05;
  // ACT-R
  double alpha_ = 0.3, spacing_ = 0.2, threshold_ = -1.0, noise_ = 0.4;
  std::vector<std::vector<Trace>> traces_;
  // half-life regression
  double weight_right_ = 1, weight_wrong_ = -0.3, bias_ = -1;
  std::vector<double> right_, wrong_, last_;
  // FSRS with the learner's own weights
  std::unique_ptr<proofdeck::study::Scheduler> memory_scheduler_;
  proofdeck::engine::Rng transfer_rng_{0};
  std::vector<proofdeck::study::Card> memory_;
  // Hypercorrection (none unless hypercorrect())
  std::unique_ptr<Hypercorrection> hypercorrection_;
  proofdeck::engine::Rng correction_rng_{0};
  std::vector<double> belief_;      // how sure a held misconception feels
  std::vector<double> returns_at_;  // days; infinity when the correction holds (or none pending)
};

struct Truth {
  double score = 0;                  // expected share right on a fresh form
  double pass = 0;                   // chance of passing it
  std::vector<double> by_objective;  // mean chance over each objective's items
};

Truth truth_of(const World& world, const Learner& learner, proofdeck::TimePoint now);

// Runs `simulate(k, thread)` for learners k = 0 … learners − 1 on `threads` threads, each learner
// on the next free thread; the first error any of them threw is thrown again once all stop.
void for_each_learner(int learners, int threads,
                      const std::function<void(int k, std::size_t thread)>& simulate);

// A data folder in memory where the machine has one (the database's fsyncs cost nothing there).
std::filesystem::path scratch_folder(const std::string& name);

// One answer to `q` at `now`: right with the learner's chance, its misconception when wrong,
// written as the modes write it (20 s unless the caller times it).
proofdeck::study::AnswerRecord answer_record(const World& world, const Learner& learner,
                                             proofdeck::engine::Rng& rng,
                                             const proofdeck::bank::Question& q,
                                             const std::string& mode, std::int64_t session,
                                             proofdeck::TimePoint now);

// What one simulated drill session works on: the learner, their store and days, the scheduler
// drill schedules with, and the cards as the store has them (kept up to date).
struct DrillRun {
  const World& world;
  Learner& learner;
  proofdeck::engine::Rng& rng;
  proofdeck::study::ProgressStore& store;
  const proofdeck::study::LearnerDays& days;
  const proofdeck::study::Scheduler& scheduler;
  std::map<std::string, proofdeck::study::Card>& cards;
  proofdeck::TimePoint& now;
  // drill --confidence: the learner says how sure (a hypercorrecting learner's attempt.confidence)
  // in place of "How was it?", rated and hurried back as drill does.
  bool asks_confidence = false;
  bool hurries_back = true;  // …and a miss at 3 comes back after three other cards
  // Without confidence, "How was it?" is answered by how easily the learner knew the answer: the
  // chance of a right one (Easy above 0.92, Good above 0.7, else Hard), or, a hypercorrecting
  // learner's with this, the feeling their confidence comes from (attempt.felt).
  bool rates_by_feeling = false;
};

// How a session's answers are paced: the reviews the learner stops at, whether another may be
// given, how long the next one takes (recorded as its duration), and what follows each (the clock
// moves there).
struct DrillPace {
  int max_reviews = 100;
  std::function<bool()> may_answer;
  std::function<int()> duration_ms;
  std::function<void()> after_answer;
};

// A drill session as drill runs it: `dealt` (due cards, then new ones) up to the pace's reviews,
// each rated by how sure the learner was (a miss at 3 with --confidence brought back after three
// others), then the cards in their steps brought back within 20 minutes, up to three passes; a
// hypercorrecting learner hears the feedback on each. Returns the reviews given.
int drill_session(DrillRun& run, const std::vector<const proofdeck::bank::Question*>& dealt,
                  const DrillPace& pace);

// An evening's drill session over `plan` (its due cards, then its new ones), every card answered:
// each answer takes the learner's `median_seconds` times a lognormal factor (sd `spread` in log),
// the clock moving by whole seconds, and each answer's seconds added to `seconds`.
void timed_evening(DrillRun& run, const proofdeck::study::DrillPlan& plan, double median_seconds,
                   double spread, double& seconds);

}  // namespace readiness_sim
