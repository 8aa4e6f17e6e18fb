// The simulated learners' world and memory, shared by the experiments that run them through the
// real code: readiness against the truth (readiness_sim.hpp) and the exam plan against the
// ordinary schedule (exam_plan_sim.hpp). A configuration draws item parameters for the bank once
// (the world); a learner has an ability per topic and objective, misconceptions held as traps,
// learning from feedback with transfer inside an objective, and forgetting by ACT-R, half-life
// regression or FSRS with their own weights. The truth is the learner's expected score on a fresh
// exam form, averaged over forms exam draws.
#pragma once

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

// The bank's items with the parameters a configuration draws for them.
struct World {
  const std::vector<proofdeck::bank::Bank>* banks = nullptr;
  std::vector<const proofdeck::bank::Question*> items;
  std::map<std::string, std::size_t> index;
  std::vector<std::size_t> objective_of, topic_of;
  std::vector<std::string> objectives, topics;
  std::vector<double> discrimination, difficulty, slip, guess;
  std::vector<std::vector<std::size_t>> traps_of;  // trap indices an item's wrong answers embody
  std::vector<std::string> traps;
  std::vector<double> prevalence;  // how often a learner holds each trap
  std::vector<std::vector<std::size_t>> siblings;
  proofdeck::bank::Enemies enemies;
  std::vector<std::vector<std::size_t>> truth_forms;  // items of each form exam draws
  // The forms stats' readiness averages over, drawn once for every learner of the world.
  std::unique_ptr<proofdeck::study::ReadinessForms> readiness_forms =
      std::make_unique<proofdeck::study::ReadinessForms>();
};

World make_world(const Config& config, const std::vector<proofdeck::bank::Bank>& banks);

class Learner {
 public:
  Learner(const World& world, const Config& config, double mean_ability,
          proofdeck::engine::Rng& rng);

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

 private:
  struct Trace {
    double at;  // days
    double decay;
    double weight;
  };

  double activation(std::size_t i, double t) const;
  void practise(std::size_t i, bool correct, double t, proofdeck::TimePoint now, double weight);

  const World& world_;
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

// A drill session as drill runs it: `queue` (due cards, then new ones) up to the pace's reviews,
// each rated by how sure the learner was, then the cards in their steps brought back within 20
// minutes, up to three passes. Returns the reviews given.
int drill_session(DrillRun& run, const std::vector<const proofdeck::bank::Question*>& queue,
                  const DrillPace& pace);

}  // namespace readiness_sim
