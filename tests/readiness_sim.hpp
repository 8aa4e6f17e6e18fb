// A simulator of learners for measuring stats' readiness against the truth it estimates. The
// learners come from model families the estimator does not use (item response theory with four
// parameters, misconceptions held as traps, learning from feedback with transfer inside an
// objective, and forgetting by ACT-R, half-life regression or FSRS with each learner's own
// weights); they study through the real code — forms drawn as exam and quiz draw them, drill days
// planned by plan_drill and scheduled by the FSRS scheduler, every answer written to a progress
// database as the modes write it — and at checkpoints stats' computation is read and compared with
// the truth: the learner's expected score on a fresh exam form, averaged over forms exam draws,
// and the chance of passing it. The estimator never sees the simulator or its parameters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bank/model.hpp"

namespace readiness_sim {

enum class Forgetting { actr, hlr, fsrs };

// One configuration: how learners are drawn and forget. Committed with its seed before the
// estimator is tuned; only `dev` is ever tuned on.
struct Config {
  std::string name;
  Forgetting forgetting = Forgetting::actr;
  std::uint64_t seed = 0;
  bool dev = false;
  double general_sd = 0.4;    // a learner's general ability around the stratum's mean (logits)
  double topic_sd = 0.4;      // a topic's deviation from it
  double objective_sd = 0.5;  // an objective's deviation from its topic
  double objective_difficulty_sd = 1.0;
  double item_spread = 0.7;  // an item's difficulty around its objective's (logits)
};

// The configurations, in the order the table lists them: dev, then the ones reported.
const std::vector<Config>& configurations();
const Config& configuration(const std::string& name);

inline const std::vector<std::string> kStrata = {"novice", "intermediate", "experienced"};
inline const std::vector<int> kCheckpoints = {100, 300, 1000};  // answers given so far

// What stats said and what was true, for one learner at one checkpoint.
struct Observation {
  std::string config;
  std::string stratum;
  int answers = 0;
  double predicted = 0;       // stats' readiness.overall
  double truth = 0;           // expected share right on a fresh form
  double predicted_pass = 0;  // stats' readiness.exam.pass_chance
  double true_pass = 0;
  bool has_interval = false;
  double low = 0, high = 0;  // stats' 80% interval, when it gives one
  // Per objective, what stats said against the truth, split by whether the learner ever
  // answered a question of it (only the answered ones are tuned to).
  double answered_objective_error = 0;  // mean |predicted − truth| over answered objectives
  int answered_objectives = 0;
  std::vector<std::pair<double, double>> answered_pairs;  // (predicted, true) per answered one
  double unseen_objective_error = 0;
  int unseen_objectives = 0;
};

// Simulates `learners` learners of the configuration (spread evenly over the strata, learner k
// drawn from the configuration's seed and k, in a world of its own: its items' parameters drawn
// for it alone), each until 1,000 answers, on `threads` threads;
// observations in learner order, a learner's checkpoints in order.
std::vector<Observation> simulate(const Config& config,
                                  const std::vector<proofdeck::bank::Bank>& banks, int learners,
                                  int threads);

// Per (stratum, checkpoint): mean absolute and signed error in percentage points, their standard
// errors, and the interval's coverage; per configuration: pass-chance reliability by decile of
// the prediction and the Brier skill score against the base rate.
struct Cell {
  std::string stratum;
  int answers = 0;
  int learners = 0;
  double truth = 0;            // mean true expected score, points
  double mae = 0, mae_se = 0;  // points
  double signed_error = 0, signed_se = 0;
  double coverage = -1;                 // share of truths inside the 80% interval; −1 without one
  double answered_objective_error = 0;  // points
  double unseen_objective_error = 0;    // −1 when none was left unanswered
};
struct Decile {
  int answers = 0;          // the checkpoint (per-objective deciles), 0 for all of them
  double from = 0, to = 0;  // predicted pass chance, or an objective's predicted readiness
  int learners = 0;         // observations: learners at a checkpoint
  double predicted = 0, truth = 0;
  double se = 0;  // of the mean difference
};
struct Summary {
  std::string config;
  std::vector<Cell> cells;
  std::vector<Decile> deciles;            // the pass chance
  std::vector<Decile> objective_deciles;  // answered objectives' readiness, at 100 and 300
  double brier = 0, brier_base = 0, brier_skill = 0;
  double brier_skill_se = 0;  // learners resampled whole
};
Summary summarize(const std::string& config, const std::vector<Observation>& observations);

// The summaries as docs/readiness.md's tables.
std::string markdown(const std::vector<Summary>& summaries, int learners_per_config);

}  // namespace readiness_sim
