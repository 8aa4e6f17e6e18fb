// Drilling with confidence against drilling without (confidence_sim.hpp): a learner's 30
// evenings, lived once saying how sure and once answering "How was it?", in the same minutes.
#include "confidence_sim.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <set>
#include <tuple>

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

// How a life drills (DrillRun's fields of the same names).
struct Habits {
  bool asks_confidence = false;
  bool hurries_back = true;
  bool rates_by_feeling = false;
};

// The objectives a misconception the learner holds at `now` bites: one of their items names it.
std::vector<std::size_t> bitten_objectives(const World& world, const Learner& learner,
                                           TimePoint now) {
  std::set<std::size_t> bitten;
  for (std::size_t i = 0; i < world.items.size(); ++i)
    for (const std::size_t trap : world.traps_of[i])
      if (learner.holds(trap, now)) bitten.insert(world.objective_of[i]);
  return {bitten.begin(), bitten.end()};
}

int held(const World& world, const Learner& learner, TimePoint now) {
  int count = 0;
  for (std::size_t t = 0; t < world.traps.size(); ++t)
    count += learner.holds(t, now) ? 1 : 0;
  return count;
}

double mean_recall(const Truth& truth, const std::vector<std::size_t>& objectives) {
  double sum = 0.0;
  for (const std::size_t o : objectives)
    sum += truth.by_objective[o];
  return objectives.empty() ? 0.0 : sum / static_cast<double>(objectives.size());
}

// Each evening a drill session through the real code — drill's deal of due and new cards (20 new
// a day), FSRS at `retention`, every card due answered, by the learner's habits.
ConfidenceLife live(const World& world, const Config& config, const std::string& stratum,
                    std::uint64_t seed, const Habits& habits, double retention,
                    const std::filesystem::path& folder, int& trap_objectives) {
  engine::Rng draws(seed);
  Learner learner(world, config, mean_ability(stratum), draws);
  engine::Rng rng(draws.next_u64());
  learner.hypercorrect(Hypercorrection{}, draws.next_u64());
  const double median_seconds = review_seconds_median(seed);
  const study::LearnerDays days(study::kDefaultDayStartsAt);
  const TimePoint start = proofdeck::parse_time("2026-03-02T19:00:00Z").value();
  const std::vector<std::size_t> bitten = bitten_objectives(world, learner, start);
  trap_objectives = static_cast<int>(bitten.size());
  ConfidenceLife life;
  life.held_at_start = held(world, learner, start);
  std::filesystem::remove_all(folder);
  {
    study::ProgressStore store = study::ProgressStore::open(folder);
    store.set_asks_confidence(habits.asks_confidence);
    study::SchedulerOptions options;
    options.desired_retention = retention;
    const study::Scheduler scheduler(options);
    double seconds = 0.0;
    for (int day = 0; day < kConfidenceDays; ++day) {
      TimePoint now = start + std::chrono::hours(24 * day) +
                      std::chrono::minutes(static_cast<int>(rng.below(120)));
      std::map<std::string, study::Card> cards = store.cards();
      const study::DrillPlan plan =
          study::plan_drill(*world.banks, world.items, cards, store.reviews(), days, now,
                            study::DrillOptions{}.new_per_day, true);
      DrillRun run{world, learner, rng, store, days, scheduler, cards, now};
      run.asks_confidence = habits.asks_confidence;
      run.hurries_back = habits.hurries_back;
      run.rates_by_feeling = habits.rates_by_feeling;
      timed_evening(run, plan, median_seconds, kSecondsSpreadWithinLearner, seconds);
    }
    for (const study::ReviewRow& r : store.reviews())
      life.confident_misses += !r.correct && r.confidence == study::kHighestConfidence ? 1 : 0;
    life.minutes = seconds / 60.0;
  }
  std::filesystem::remove_all(folder);
  const TimePoint morning =
      study::exam_moment(days, days.day_of(start) + std::chrono::days(kConfidenceDays));
  const Truth next_morning = truth_of(world, learner, morning);
  life.next_morning = mean_recall(next_morning, bitten);
  life.score = next_morning.score;
  const TimePoint week_later = morning + std::chrono::days(kConfidenceWeekAfter);
  life.week_later = mean_recall(truth_of(world, learner, week_later), bitten);
  life.held_at_end = held(world, learner, week_later);
  return life;
}

}  // namespace

const std::vector<ConfidenceVariant>& confidence_variants() {
  static const std::vector<ConfidenceVariant> variants = {
      {"as drill does it", true, false},
      {"no hurry back", false, false},
      {"B rates by the same feeling", true, true},
  };
  return variants;
}

std::vector<ConfidencePair> simulate_confidence(const Config& config,
                                                const std::vector<bank::Bank>& banks, int learners,
                                                int threads, const ConfidenceVariant& variant) {
  const World world = make_world(config, banks);
  std::vector<ConfidencePair> pairs(static_cast<std::size_t>(learners));
  for_each_learner(learners, threads, [&](int k, std::size_t thread) {
    ConfidencePair& pair = pairs[static_cast<std::size_t>(k)];
    pair.learner = k;
    pair.stratum = kStrata[static_cast<std::size_t>(k) % kStrata.size()];
    const std::uint64_t seed = plan_learner_seed(config, k);
    const std::filesystem::path folder =
        scratch_folder(fmt::format("confidence-{}-{}-{}", config.name, k, thread));
    const Habits with{true, variant.hurries_back, false},
        without{false, true, variant.rates_by_feeling};
    pair.with = live(world, config, pair.stratum, seed, with, kConfidenceRetention, folder,
                     pair.trap_objectives);
    // B: without, at the retention whose minutes come nearest A's.
    std::tie(pair.without, pair.without_retention) = match_minutes(
        pair.with.minutes, kConfidenceMinutesTolerance,
        [&](double r) {
          return live(world, config, pair.stratum, seed, without, r, folder, pair.trap_objectives);
        },
        [](const ConfidenceLife& l) { return l.minutes; });
    pair.matched = std::fabs(pair.without.minutes - pair.with.minutes) <=
                   kConfidenceMinutesTolerance * pair.with.minutes;
  });
  return pairs;
}

namespace {

// The mean over the pairs of `of`.
template <typename Of>
double mean_of(const std::vector<ConfidencePair>& pairs, Of of) {
  double sum = 0.0;
  for (const ConfidencePair& p : pairs)
    sum += of(p);
  return pairs.empty() ? 0.0 : sum / static_cast<double>(pairs.size());
}

template <typename Of>
PairedDifference difference_of(const std::vector<ConfidencePair>& pairs, Of of) {
  std::vector<double> differences;
  for (const ConfidencePair& p : pairs)
    differences.push_back(of(p.with) - of(p.without));
  return paired_difference(differences);
}

std::string points(const PairedDifference& d) {
  return fmt::format("{:+.2f} ({:+.2f} to {:+.2f})", d.mean, d.low, d.high);
}

}  // namespace

std::string confidence_markdown(const std::vector<ConfidenceRun>& runs) {
  std::string out =
      "| configuration | variant | learners | objectives bitten | minutes a day, A / B | B's "
      "retention | matched | misses at 3, A | recall next morning, A / B | A − B next morning "
      "(points, 95%) | A − B a week later | exam score, A − B | misconceptions a week later, A / B "
      "(at start) |\n"
      "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const ConfidenceRun& run : runs) {
    std::vector<ConfidencePair> pairs;
    std::copy_if(run.pairs.begin(), run.pairs.end(), std::back_inserter(pairs),
                 [](const ConfidencePair& p) { return p.trap_objectives > 0; });
    const auto mean = [&](auto of) { return mean_of(pairs, of); };
    out += fmt::format(
        "| {} | {} | {} of {} | {:.1f} | {:.1f} / {:.1f} | {:.2f} | {:.0f}% | {:.1f} | {:.1f}% / "
        "{:.1f}% | {} | {} | {} | {:.1f} / {:.1f} ({:.1f}) |\n",
        run.config, run.variant, pairs.size(), run.pairs.size(),
        mean([](const ConfidencePair& p) { return p.trap_objectives; }),
        mean([](const ConfidencePair& p) { return p.with.minutes; }) / kConfidenceDays,
        mean([](const ConfidencePair& p) { return p.without.minutes; }) / kConfidenceDays,
        mean([](const ConfidencePair& p) { return p.without_retention; }),
        100.0 * mean([](const ConfidencePair& p) { return p.matched ? 1.0 : 0.0; }),
        mean([](const ConfidencePair& p) { return p.with.confident_misses; }),
        100.0 * mean([](const ConfidencePair& p) { return p.with.next_morning; }),
        100.0 * mean([](const ConfidencePair& p) { return p.without.next_morning; }),
        points(difference_of(pairs, [](const ConfidenceLife& l) { return l.next_morning; })),
        points(difference_of(pairs, [](const ConfidenceLife& l) { return l.week_later; })),
        points(difference_of(pairs, [](const ConfidenceLife& l) { return l.score; })),
        mean([](const ConfidencePair& p) { return p.with.held_at_end; }),
        mean([](const ConfidencePair& p) { return p.without.held_at_end; }),
        mean([](const ConfidencePair& p) { return p.with.held_at_start; }));
  }
  return out;
}

}  // namespace readiness_sim
