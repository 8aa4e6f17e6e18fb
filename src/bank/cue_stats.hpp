// The statistics of `check --lint`'s testwise-cue rule (questions/README.md § Lint): how likely a
// test-wise candidate's credit is under chance, exactly; Holm's correction over a bank's
// strategies; and a conditional logit over the options' surface features, fitted without each
// item in turn, as the strongest test-wise candidate a bank's own items can train.
#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Dense>

namespace proofdeck::bank {

// One item as a strategy plays it: the strategy ties `tied` of the item's `options` options
// (all of them when it cannot tell them apart) and earns 1/tied when the key is among them.
// Under chance — the key at any option alike — it earns 1/tied with probability tied/options.
struct CueDraw {
  int tied = 1;
  int options = 2;
  bool earned = false;
};

double credit(const std::vector<CueDraw>& draws);  // what the strategy earned
double chance(const std::vector<CueDraw>& draws);  // Σ 1/options: what a guess earns on average

// One-sided p: the probability, under chance, of earning at least what the strategy earned.
// Exact (a sum of independent two-point credits on a common grid, of which the Poisson-binomial
// is the case of no ties) while the grid has at most kExactCueCells cells summed over the
// items; past that, the normal approximation with a continuity correction of half a grid step.
inline constexpr double kExactCueCells = 5e7;
double credit_p_value(const std::vector<CueDraw>& draws);

// Holm's step-down correction: each p multiplied by the number of hypotheses not yet rejected
// before it, kept monotone and at most 1, in the order given.
std::vector<double> holm(const std::vector<double>& p);

// An item for the conditional logit: one row of features per option, and which is the key.
struct LogitItem {
  Eigen::MatrixXd features;  // options × features
  Eigen::Index key = 0;
};

// β maximising Σ log P(key | item) − λ/2 ‖β‖², P(option j) ∝ exp(features_j · β), by Newton's
// method (the objective is strictly concave for λ > 0). Items in `skip` (an index, or none when
// out of range) are left out.
Eigen::VectorXd fit_conditional_logit(const std::vector<LogitItem>& items, double lambda,
                                      std::size_t skip = static_cast<std::size_t>(-1));

// Leave-one-item-out: for each item, the logit fitted on the others picks the options of the
// highest score (ties within 1e-9), as a strategy does.
std::vector<CueDraw> logit_leave_one_out(const std::vector<LogitItem>& items, double lambda);

}  // namespace proofdeck::bank
