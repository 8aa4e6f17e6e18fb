// The exam plan against the ordinary schedule (exam_plan_sim.hpp): a learner's 30 days, lived
// once toward the exam date and once on the ordinary schedule at matched minutes.
#include "exam_plan_sim.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "engine/rng.hpp"
#include "sim_learner.hpp"
#include "study/drill_plan.hpp"
#include "study/exam_plan.hpp"
#include "study/fsrs.hpp"
#include "study/learner_day.hpp"
#include "study/modes.hpp"
#include "study/progress.hpp"

namespace readiness_sim {

namespace bank = proofdeck::bank;
namespace study = proofdeck::study;
namespace engine = proofdeck::engine;
using proofdeck::TimePoint;

namespace {

constexpr double kMinutesTolerance = 0.05;
constexpr int kBootstrapResamples = 2000;

// What one life of 30 days came to.
struct Life {
  double score = 0;    // true expected score on the exam morning
  double minutes = 0;  // drilled
  double first_retention = 0;
};

// One learner, drawn from the seed: who they are, and their study's draws.
struct Drawn {
  std::unique_ptr<Learner> learner;
  engine::Rng rng{0};
};

Drawn draw_learner(const World& world, const Config& config, const std::string& stratum,
                   std::uint64_t seed) {
  engine::Rng rng(seed);
  Drawn drawn;
  drawn.learner = std::make_unique<Learner>(world, config, mean_ability(stratum), rng);
  drawn.rng = engine::Rng(rng.next_u64());
  return drawn;
}

// The 30 days: every evening a drill session through the real code, toward the exam date (the
// plan picks today's new cards and the retention) or on the ordinary schedule at `retention`
// with drill's 20 new cards a day. Every card due is reviewed.
Life live(const World& world, const Config& config, const std::string& stratum, std::uint64_t seed,
          std::optional<double> retention, const std::filesystem::path& folder) {
  Drawn drawn = draw_learner(world, config, stratum, seed);
  const double median_seconds = review_seconds_median(seed);
  Learner& learner = *drawn.learner;
  engine::Rng& rng = drawn.rng;
  std::filesystem::remove_all(folder);
  Life life;
  {
    study::ProgressStore store = study::ProgressStore::open(folder);
    const study::LearnerDays days(study::kDefaultDayStartsAt);
    const TimePoint start = proofdeck::parse_time("2026-03-02T19:00:00Z").value();
    const study::LearnerDate exam_date = days.day_of(start) + std::chrono::days(kPlanDays);
    if (!retention) store.set_exam_date(study::ExamDate{exam_date, kPlanMinutesPerDay});
    const std::vector<const bank::Question*>& all = world.items;
    double seconds = 0.0;
    for (int day = 0; day < kPlanDays; ++day) {
      TimePoint now = start + std::chrono::hours(24 * day) +
                      std::chrono::minutes(static_cast<int>(rng.below(120)));
      std::map<std::string, study::Card> cards = store.cards();
      study::DrillPlan plan = study::plan_drill(*world.banks, all, cards, store.reviews(), days,
                                                now, study::DrillOptions{}.new_per_day, true);
      study::SchedulerOptions options;
      options.weights = store.fsrs_weights();
      options.desired_retention = retention.value_or(0.9);
      if (!retention) {
        const std::optional<study::ExamPlan> exam =
            study::saved_exam_plan(store, study::plan_cards(store, *world.banks, all, now), now);
        if (!exam) throw std::logic_error("no exam plan before the exam day");
        study::follow_exam_plan(plan, *exam);
        options.desired_retention = exam->retention;
      }
      if (day == 0) life.first_retention = options.desired_retention;
      const study::Scheduler scheduler(options);
      DrillRun run{world, learner, rng, store, days, scheduler, cards, now};
      timed_evening(run, plan, median_seconds, kSecondsSpreadWithinLearner, seconds);
    }
    life.minutes = seconds / 60.0;
    life.score = truth_of(world, learner, study::exam_moment(days, exam_date)).score;
  }
  std::filesystem::remove_all(folder);
  return life;
}

}  // namespace

std::uint64_t plan_learner_seed(const Config& config, int k) {
  // Another stream than the readiness experiment's learner k.
  return config.seed * std::uint64_t{1000003} + static_cast<std::uint64_t>(k) +
         (std::uint64_t{1} << 40);
}

double review_seconds_median(std::uint64_t learner_seed) {
  engine::Rng rng(learner_seed ^ 0x7365636f6e6473);
  return kMedianSecondsPerReview * std::exp(rng.normal(0.0, kSecondsSpreadBetweenLearners));
}

std::vector<PlanPair> simulate_exam_plans(const Config& config,
                                          const std::vector<bank::Bank>& banks, int learners,
                                          int threads) {
  const World world = make_world(config, banks);
  std::vector<PlanPair> pairs(static_cast<std::size_t>(learners));
  for_each_learner(learners, threads, [&](int k, std::size_t thread) {
    PlanPair& pair = pairs[static_cast<std::size_t>(k)];
    pair.learner = k;
    pair.stratum = kStrata[static_cast<std::size_t>(k) % kStrata.size()];
    const std::uint64_t seed = plan_learner_seed(config, k);
    pair.seconds_per_review = review_seconds_median(seed);
    const std::filesystem::path folder =
        scratch_folder(fmt::format("plan-{}-{}-{}", config.name, k, thread));
    const Life plan = live(world, config, pair.stratum, seed, std::nullopt, folder);
    // B: the ordinary schedule's retention whose minutes come nearest A's.
    const auto [ordinary, retention] = match_minutes(
        plan.minutes, kMinutesTolerance,
        [&](double r) { return live(world, config, pair.stratum, seed, r, folder); },
        [](const Life& l) { return l.minutes; });
    pair.plan_score = plan.score;
    pair.plan_minutes = plan.minutes;
    pair.plan_retention = plan.first_retention;
    pair.ordinary_score = ordinary.score;
    pair.ordinary_minutes = ordinary.minutes;
    pair.ordinary_retention = retention;
    pair.matched = std::fabs(ordinary.minutes - plan.minutes) <= kMinutesTolerance * plan.minutes;
  });
  return pairs;
}

PairedDifference paired_difference(const std::vector<double>& differences) {
  PairedDifference result;
  if (differences.empty()) return result;
  const auto n = static_cast<double>(differences.size());
  for (const double d : differences)
    result.mean += 100.0 * d / n;
  engine::Rng rng(0x6578616d);
  std::vector<double> means;
  for (int b = 0; b < kBootstrapResamples; ++b) {
    double sum = 0.0;
    for (std::size_t k = 0; k < differences.size(); ++k)
      sum += differences[rng.below(differences.size())];
    means.push_back(100.0 * sum / n);
  }
  std::sort(means.begin(), means.end());
  result.low = means[static_cast<std::size_t>(0.025 * kBootstrapResamples)];
  result.high = means[static_cast<std::size_t>(0.975 * kBootstrapResamples) - 1];
  return result;
}

PairedDifference paired_difference(const std::vector<PlanPair>& pairs) {
  std::vector<double> differences;
  for (const PlanPair& p : pairs)
    differences.push_back(p.difference());
  return paired_difference(differences);
}

namespace {

double mean_over(const std::vector<PlanPair>& pairs, double (*of)(const PlanPair&)) {
  double sum = 0.0;
  for (const PlanPair& p : pairs)
    sum += of(p);
  return pairs.empty() ? 0.0 : sum / static_cast<double>(pairs.size());
}

}  // namespace

std::string exam_plan_markdown(
    const std::vector<std::pair<std::string, std::vector<PlanPair>>>& configurations) {
  std::string out =
      "| configuration | learners | minutes a day, A / B | retention, A's first day / B | minutes "
      "matched | exam score, A | exam score, B | A − B (points) | 95% interval |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|---|\n";
  for (const auto& [name, pairs] : configurations) {
    const PairedDifference d = paired_difference(pairs);
    const auto matched =
        std::count_if(pairs.begin(), pairs.end(), [](const PlanPair& p) { return p.matched; });
    out += fmt::format(
        "| {} | {} | {:.1f} / {:.1f} | {:.2f} / {:.2f} | {:.0f}% | {:.1f}% | {:.1f}% | {:+.2f} | "
        "{:+.2f} to {:+.2f} |\n",
        name, pairs.size(),
        mean_over(pairs, [](const PlanPair& p) { return p.plan_minutes; }) / kPlanDays,
        mean_over(pairs, [](const PlanPair& p) { return p.ordinary_minutes; }) / kPlanDays,
        mean_over(pairs, [](const PlanPair& p) { return p.plan_retention; }),
        mean_over(pairs, [](const PlanPair& p) { return p.ordinary_retention; }),
        100.0 * static_cast<double>(matched) /
            static_cast<double>(std::max<std::size_t>(pairs.size(), 1)),
        100.0 * mean_over(pairs, [](const PlanPair& p) { return p.plan_score; }),
        100.0 * mean_over(pairs, [](const PlanPair& p) { return p.ordinary_score; }), d.mean, d.low,
        d.high);
  }
  return out;
}

}  // namespace readiness_sim
