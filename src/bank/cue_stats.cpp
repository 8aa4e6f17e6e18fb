// The exact tail of a strategy's credit, Holm's correction and the conditional logit of the
// testwise-cue rule (bank/cue_stats.hpp).
#include "bank/cue_stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

namespace proofdeck::bank {

double credit(const std::vector<CueDraw>& draws) {
  double total = 0.0;
  for (const CueDraw& draw : draws)
    total += draw.earned ? 1.0 / draw.tied : 0.0;
  return total;
}

double chance(const std::vector<CueDraw>& draws) {
  double total = 0.0;
  for (const CueDraw& draw : draws)
    total += 1.0 / draw.options;
  return total;
}

namespace {

constexpr std::int64_t kLargestGrid = 27720;  // lcm(1..12): ties of up to 12 options

// The normal approximation's upper tail at `observed` grid steps, half a step corrected.
double normal_tail(const std::vector<CueDraw>& draws, std::int64_t grid, std::int64_t observed) {
  double mean = 0.0, variance = 0.0;
  for (const CueDraw& draw : draws) {
    const double step = static_cast<double>(grid / draw.tied);
    const double p = static_cast<double>(draw.tied) / draw.options;
    mean += p * step;
    variance += p * (1.0 - p) * step * step;
  }
  const double x = static_cast<double>(observed) - 0.5;
  if (variance <= 0.0) return x <= mean ? 1.0 : 0.0;
  return 0.5 * std::erfc((x - mean) / std::sqrt(2.0 * variance));
}

}  // namespace

double credit_p_value(const std::vector<CueDraw>& draws) {
  // Credits on a grid of 1/grid: an item earns grid/tied steps with probability tied/options.
  std::int64_t grid = 1;
  for (const CueDraw& draw : draws) {
    grid = std::lcm(grid, static_cast<std::int64_t>(draw.tied));
    if (grid > kLargestGrid) break;
  }
  std::int64_t observed = 0, top = 0;
  double cells = 0.0;
  for (const CueDraw& draw : draws) {
    const std::int64_t step = grid / draw.tied;
    observed += draw.earned ? step : 0;
    top += step;
    cells += static_cast<double>(top);
  }
  if (grid > kLargestGrid || cells > kExactCueCells) return normal_tail(draws, grid, observed);
  std::vector<double> mass(static_cast<std::size_t>(top) + 1, 0.0);
  mass[0] = 1.0;
  std::int64_t reach = 0;  // the largest total with mass so far
  for (const CueDraw& draw : draws) {
    const std::int64_t step = grid / draw.tied;
    const double p = static_cast<double>(draw.tied) / draw.options;
    // Downwards, so each total moves up from its value before this item.
    for (std::int64_t s = reach; s >= 0; --s) {
      const auto at = static_cast<std::size_t>(s);
      mass[at + static_cast<std::size_t>(step)] += p * mass[at];
      mass[at] *= 1.0 - p;
    }
    reach += step;
  }
  double tail = 0.0;
  for (std::int64_t s = top; s >= observed; --s)
    tail += mass[static_cast<std::size_t>(s)];
  return std::clamp(tail, 0.0, 1.0);
}

std::vector<double> holm(const std::vector<double>& p) {
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  std::vector<double> adjusted(p.size(), 1.0);
  double running = 0.0;
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    const double scaled = static_cast<double>(order.size() - rank) * p[order[rank]];
    running = std::max(running, std::min(1.0, scaled));
    adjusted[order[rank]] = running;
  }
  return adjusted;
}

Eigen::VectorXd fit_conditional_logit(const std::vector<LogitItem>& items, double lambda,
                                      std::size_t skip) {
  const Eigen::Index features = items.empty() ? 0 : items.front().features.cols();
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(features);
  constexpr int kMaxSteps = 100;
  for (int step = 0; step < kMaxSteps; ++step) {
    Eigen::VectorXd gradient = -lambda * beta;
    Eigen::MatrixXd curvature = lambda * Eigen::MatrixXd::Identity(features, features);
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i == skip) continue;
      const Eigen::MatrixXd& x = items[i].features;
      Eigen::VectorXd score = x * beta;
      const Eigen::VectorXd p = (score.array() - score.maxCoeff()).exp().matrix();
      const Eigen::VectorXd prob = p / p.sum();
      const Eigen::VectorXd mean = x.transpose() * prob;
      gradient += x.row(items[i].key).transpose() - mean;
      curvature += x.transpose() * prob.asDiagonal() * x - mean * mean.transpose();
    }
    const Eigen::VectorXd move = curvature.ldlt().solve(gradient);
    beta += move;
    if (move.lpNorm<Eigen::Infinity>() < 1e-10) break;
  }
  return beta;
}

std::vector<CueDraw> logit_leave_one_out(const std::vector<LogitItem>& items, double lambda) {
  std::vector<CueDraw> draws;
  draws.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Eigen::VectorXd beta = fit_conditional_logit(items, lambda, i);
    const Eigen::VectorXd score = items[i].features * beta;
    const double best = score.maxCoeff();
    CueDraw draw{0, static_cast<int>(score.size()), false};
    for (Eigen::Index j = 0; j < score.size(); ++j) {
      if (score[j] < best - 1e-9) continue;
      ++draw.tied;
      draw.earned = draw.earned || j == items[i].key;
    }
    draws.push_back(draw);
  }
  return draws;
}

}  // namespace proofdeck::bank
