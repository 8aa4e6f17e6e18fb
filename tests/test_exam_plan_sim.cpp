// The exam plan against the ordinary schedule on simulated learners (tests/exam_plan_sim.hpp):
// the time model, the paired bootstrap, a learner's two lives, and — out of the quick loop — the
// plan's lead over 60 paired learners (docs/study.md reports 1,000 a configuration).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <thread>
#include <vector>

#include "bank/sources.hpp"
#include "exam_plan_sim.hpp"

namespace test_exam_plan_sim {

using namespace proofdeck;
using readiness_sim::PlanPair;

namespace {

// The configuration the suite runs (docs/study.md, "Does the plan help?", says why this one), and
// how many learners: enough that the interval's lower bound (about 1.7 points at 60, the lead
// 2.2) stays clear of zero.
constexpr const char* kReportedConfiguration = "half-life-regression";
constexpr int kLeadLearners = 60;

PlanPair pair_of(double plan, double ordinary) {
  PlanPair p;
  p.plan_score = plan;
  p.ordinary_score = ordinary;
  return p;
}

int threads() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace

TEST_CASE("a learner's seconds a review are lognormal across learners: median 15 s, sd 0.4 in log",
          "[exam-plan-sim]") {
  const readiness_sim::Config& config = readiness_sim::configuration("act-r");
  std::vector<double> logs;
  for (int k = 0; k < 2000; ++k)
    logs.push_back(std::log(
        readiness_sim::review_seconds_median(readiness_sim::plan_learner_seed(config, k))));
  std::sort(logs.begin(), logs.end());
  CHECK(std::exp(logs[logs.size() / 2]) == Approx(15.0).epsilon(0.04));
  double mean = 0.0, squares = 0.0;
  for (const double v : logs)
    mean += v / static_cast<double>(logs.size());
  for (const double v : logs)
    squares += (v - mean) * (v - mean);
  CHECK(std::sqrt(squares / static_cast<double>(logs.size() - 1)) == Approx(0.4).epsilon(0.05));
  // The same seed, the same pace: both lives of a learner answer at one speed.
  const std::uint64_t seed = readiness_sim::plan_learner_seed(config, 7);
  CHECK(readiness_sim::review_seconds_median(seed) == readiness_sim::review_seconds_median(seed));
}

TEST_CASE("the paired difference is the mean of A − B in points, inside its bootstrap interval",
          "[exam-plan-sim]") {
  std::vector<PlanPair> pairs;
  for (int k = 0; k < 200; ++k)
    pairs.push_back(pair_of(0.80 + 0.001 * (k % 7), 0.79 + 0.002 * (k % 5)));
  const readiness_sim::PairedDifference d = readiness_sim::paired_difference(pairs);
  double mean = 0.0;
  for (const PlanPair& p : pairs)
    mean += 100.0 * (p.plan_score - p.ordinary_score) / 200.0;
  CHECK(d.mean == Approx(mean));
  CHECK(d.low < d.mean);
  CHECK(d.mean < d.high);
  CHECK(d.high - d.low < 0.2);  // differences spread over 0.01–0.02: a narrow interval
  // Bit for bit from its fixed seed.
  const readiness_sim::PairedDifference again = readiness_sim::paired_difference(pairs);
  CHECK(again.low == d.low);
  CHECK(again.high == d.high);
}

TEST_CASE("when the ordinary schedule does as well on average the interval holds zero",
          "[exam-plan-sim]") {
  std::vector<PlanPair> pairs;
  for (int k = 0; k < 200; ++k)
    pairs.push_back(k % 2 == 0 ? pair_of(0.85, 0.80) : pair_of(0.80, 0.85));
  const readiness_sim::PairedDifference d = readiness_sim::paired_difference(pairs);
  CHECK(d.mean == Approx(0.0).margin(1e-12));
  CHECK(d.low < 0.0);
  CHECK(d.high > 0.0);
  CHECK(readiness_sim::paired_difference(std::vector<PlanPair>{}).mean == 0.0);
}

// Out of the quick loop and the sanitizer tree (each life is a month of drilling, five times
// slower under ASan): the CTest exam_plan_beats_the_ordinary_schedule runs it in the portable tree.
TEST_CASE("a learner's two lives: the plan within its minutes, the ordinary schedule's matched",
          "[.exam-plan-lives]") {
  const auto banks = bank::load_banks(bank::BankSources{{}, true});
  const std::vector<PlanPair> pairs =
      readiness_sim::simulate_exam_plans(readiness_sim::configuration("dev"), banks, 2, threads());
  REQUIRE(pairs.size() == 2);
  for (const PlanPair& p : pairs) {
    INFO("learner " << p.learner << " · " << p.stratum);
    // Reviews are never cut short, so a day may run over; on average the plan keeps its budget.
    CHECK(p.plan_minutes > 0.0);
    CHECK(p.plan_minutes <= 1.1 * readiness_sim::kPlanMinutesPerDay * readiness_sim::kPlanDays);
    CHECK(p.ordinary_retention >= 0.70);
    CHECK(p.ordinary_retention <= 0.97);
    CHECK(p.matched == (std::fabs(p.ordinary_minutes - p.plan_minutes) <= 0.05 * p.plan_minutes));
    CHECK(p.plan_score > 0.0);
    CHECK(p.plan_score < 1.0);
    CHECK(p.ordinary_score > 0.0);
    CHECK(p.ordinary_score < 1.0);
  }
  CHECK(pairs[0].stratum == "novice");
  CHECK(pairs[1].stratum == "intermediate");
  // The same learners, the same lives, bit for bit.
  const std::vector<PlanPair> again =
      readiness_sim::simulate_exam_plans(readiness_sim::configuration("dev"), banks, 2, 1);
  CHECK(again[1].plan_score == pairs[1].plan_score);
  CHECK(again[1].ordinary_minutes == pairs[1].ordinary_minutes);
}

TEST_CASE(
    "toward the exam date: over 60 paired learners the plan's exam score beats the ordinary "
    "schedule's at matched minutes, the 95% interval above zero",
    "[.exam-plan-lead]") {
  const auto banks = bank::load_banks(bank::BankSources{{}, true});
  const readiness_sim::Config& config = readiness_sim::configuration(kReportedConfiguration);
  const std::vector<PlanPair> pairs =
      readiness_sim::simulate_exam_plans(config, banks, kLeadLearners, threads());
  const readiness_sim::PairedDifference d = readiness_sim::paired_difference(pairs);
  const auto matched =
      std::count_if(pairs.begin(), pairs.end(), [](const PlanPair& p) { return p.matched; });
  INFO("A − B " << d.mean << " points, 95% interval " << d.low << " to " << d.high << "; "
                << matched << " of " << kLeadLearners << " matched");
  CHECK(matched >= kLeadLearners * 9 / 10);
  CHECK(d.low > 0.0);
}

}  // namespace test_exam_plan_sim
