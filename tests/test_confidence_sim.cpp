// The hypercorrection model (tests/sim_learner.hpp, Hypercorrection) and drilling with
// confidence against without on simulated learners (tests/confidence_sim.hpp): how sure an answer
// feels, what feedback does to a misconception and when it returns, a drill session that hurries
// a miss at 3 back, and a learner's two lives at matched minutes. docs/study.md reports 1,000
// learners a configuration (scripts/readiness --confidence).
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <thread>
#include <vector>

#include "bank/sources.hpp"
#include "confidence_sim.hpp"
#include "sim_learner.hpp"
#include "study/drill_plan.hpp"
#include "study/fsrs.hpp"
#include "study/learner_day.hpp"
#include "study/progress.hpp"

namespace test_confidence_sim {

using namespace proofdeck;
using readiness_sim::Attempt;
using readiness_sim::Hypercorrection;
using readiness_sim::Learner;
using readiness_sim::World;

namespace {

const std::vector<bank::Bank>& banks() {
  static const std::vector<bank::Bank> loaded = bank::load_banks(bank::BankSources{{}, true});
  return loaded;
}

const World& world() {
  static const World made = readiness_sim::make_world(readiness_sim::configuration("dev"), banks());
  return made;
}

TimePoint at(int day) {
  return parse_time("2026-03-02T19:00:00Z").value() + std::chrono::hours(24 * day);
}

Learner learner(std::uint64_t seed, const std::string& stratum = "intermediate") {
  engine::Rng rng(seed);
  Learner l(world(), readiness_sim::configuration("dev"), readiness_sim::mean_ability(stratum),
            rng);
  l.hypercorrect(Hypercorrection{}, seed ^ 0x5eed);
  return l;
}

// An item naming misconception `trap` the learner holds at `now`, if any.
std::optional<std::pair<std::size_t, std::size_t>> held_item(const Learner& l, TimePoint now) {
  for (std::size_t i = 0; i < world().items.size(); ++i)
    for (const std::size_t trap : world().traps_of[i])
      if (l.holds(trap, now)) return std::pair{i, trap};
  return std::nullopt;
}

// Over learners 0 … n − 1: the share whose misconception, given at `level`, feedback corrects;
// and, of those corrected, the share it is back in after `days`.
std::pair<double, double> corrected_and_back(int level, int days, int learners) {
  int trials = 0, corrected = 0, back = 0;
  for (int k = 0; k < learners; ++k) {
    Learner l = learner(static_cast<std::uint64_t>(k) + 1);
    const auto held = held_item(l, at(0));
    if (!held) continue;
    Attempt a;
    a.confidence = level;
    a.trap = world().traps[held->second];
    a.by_misconception = true;
    l.feedback(held->first, a, at(0));
    ++trials;
    if (l.holds(held->second, at(0))) continue;
    ++corrected;
    back += l.holds(held->second, at(days)) ? 1 : 0;
  }
  REQUIRE(trials > learners / 2);
  return {static_cast<double>(corrected) / trials, static_cast<double>(back) / corrected};
}

}  // namespace

TEST_CASE("feedback corrects a misconception given at 3 more often than one given at 1",
          "[confidence-sim]") {
  const Hypercorrection model;
  // Butterfield & Metcalfe's hypercorrection: the surer the error, the likelier corrected.
  const auto [at_one, back_one] = corrected_and_back(1, 400, 1500);
  const auto [at_three, back_three] = corrected_and_back(3, 400, 1500);
  CHECK(at_one == Approx(model.corrected[0]).margin(0.04));
  CHECK(at_three == Approx(model.corrected[2]).margin(0.04));
  // Butler, Fazio & Marsh: corrected high-confidence errors come back more often, in the end.
  CHECK(back_one == Approx(model.returns[0]).margin(0.05));
  CHECK(back_three == Approx(model.returns[2]).margin(0.05));
}

TEST_CASE("a corrected misconception comes back over about a week", "[confidence-sim]") {
  const Hypercorrection model;
  const auto [corrected, back_in_a_week] = corrected_and_back(3, 7, 1500);
  CHECK(corrected > 0.5);
  // An exponential delay of mean 7 days: 1 − e^−1 of those that return are back by then.
  CHECK(back_in_a_week == Approx(model.returns[2] * (1.0 - std::exp(-1.0))).margin(0.05));
}

TEST_CASE("a right answer while a return is pending may settle the correction for good",
          "[confidence-sim]") {
  int pending = 0, settled = 0;
  for (int k = 0; k < 3000 && pending < 400; ++k) {
    Learner l = learner(static_cast<std::uint64_t>(k) + 7000);
    const auto held = held_item(l, at(0));
    if (!held) continue;
    Attempt wrong;
    wrong.confidence = 3;
    wrong.trap = world().traps[held->second];
    wrong.by_misconception = true;
    l.feedback(held->first, wrong, at(0));
    // Pending: not held now, held again once its time comes.
    if (l.holds(held->second, at(0)) || !l.holds(held->second, at(5000))) continue;
    ++pending;
    Attempt right;
    right.correct = true;
    l.feedback(held->first, right, at(0));
    settled += l.holds(held->second, at(5000)) ? 0 : 1;
  }
  REQUIRE(pending >= 300);
  CHECK(static_cast<double>(settled) / pending ==
        Approx(Hypercorrection{}.settled_by_retrieval).margin(0.06));
}

TEST_CASE("an attempt is right as often as the learner's chance, and as sure as its route feels",
          "[confidence-sim]") {
  // Five novices, so the share of sure misconceptions does not hang on which few one holds.
  constexpr int kLearners = 5, kDraws = 80;
  engine::Rng rng(3);
  int right = 0, by_misconception = 0, sure_misconceptions = 0, unsure = 0;
  double expected = 0.0;
  for (int seed = 11; seed < 11 + kLearners; ++seed) {
    const Learner l = learner(static_cast<std::uint64_t>(seed), "novice");
    for (std::size_t i = 0; i < world().items.size(); ++i) {
      expected += kDraws * l.chance(i, at(0));
      for (int d = 0; d < kDraws; ++d) {
        const Attempt a = l.attempt(i, at(0), rng);
        right += a.correct ? 1 : 0;
        if (a.by_misconception) {
          CHECK_FALSE(a.correct);
          ++by_misconception;
          sure_misconceptions += a.confidence == 3 ? 1 : 0;
        } else if (a.confidence == 1) {
          ++unsure;
        }
      }
    }
  }
  const double n = static_cast<double>(world().items.size()) * kDraws * kLearners;
  CHECK(right / n == Approx(expected / n).margin(0.01));
  REQUIRE(by_misconception > 0);
  // A held misconception feels like knowledge (beliefs 0.6–1.0): at 3 about half the time.
  CHECK(static_cast<double>(sure_misconceptions) / by_misconception == Approx(0.5).margin(0.12));
  CHECK(unsure > 0);
  // The same state and draws, the same attempt.
  const Learner l = learner(11, "novice");
  engine::Rng one(5), two(5);
  const Attempt a = l.attempt(0, at(0), one), b = l.attempt(0, at(0), two);
  CHECK(a.correct == b.correct);
  CHECK(a.confidence == b.confidence);
}

TEST_CASE("without a hypercorrection model a learner has no attempt and keeps misconceptions",
          "[confidence-sim]") {
  engine::Rng rng(1);
  Learner plain(world(), readiness_sim::configuration("dev"), 0.0, rng);
  CHECK_FALSE(plain.hypercorrects());
  CHECK_THROWS_AS(plain.attempt(0, at(0), rng), std::logic_error);
  int held = 0;
  for (std::size_t t = 0; t < world().traps.size(); ++t)
    held += plain.holds(t, at(0)) ? 1 : 0;
  Attempt a;
  a.by_misconception = true;
  a.confidence = 3;
  for (std::size_t i = 0; i < world().items.size(); ++i)
    plain.feedback(i, a, at(0));
  int after = 0;
  for (std::size_t t = 0; t < world().traps.size(); ++t)
    after += plain.holds(t, at(0)) ? 1 : 0;
  CHECK(after == held);
}

TEST_CASE(
    "a simulated drill with confidence saves each level and brings a miss at 3 back after "
    "three other cards",
    "[confidence-sim]") {
  // The first learners' first evening, 20 new cards: some miss at 3 (held misconceptions).
  int misses_at_three = 0;
  for (std::uint64_t seed = 1; seed <= 6 && misses_at_three == 0; ++seed) {
    Learner l = learner(seed, "novice");
    engine::Rng rng(seed);
    const std::filesystem::path folder =
        readiness_sim::scratch_folder("confidence-drill-" + std::to_string(seed));
    std::filesystem::remove_all(folder);
    {
      study::ProgressStore store = study::ProgressStore::open(folder);
      const study::LearnerDays days(study::kDefaultDayStartsAt);
      const study::Scheduler scheduler(study::SchedulerOptions{});
      std::map<std::string, study::Card> cards;
      TimePoint now = at(0);
      const study::DrillPlan plan =
          study::plan_drill(banks(), world().items, cards, {}, days, now, 20, true);
      readiness_sim::DrillRun run{world(), l, rng, store, days, scheduler, cards, now, true};
      readiness_sim::drill_session(run, plan.fresh,
                                   {200, [] { return true; }, [] { return 15000; },
                                    [&] { now += std::chrono::seconds(15); }});
      const std::vector<study::ReviewRow> reviews = store.reviews();
      for (std::size_t r = 0; r < reviews.size(); ++r) {
        INFO("review " << r << " of " << reviews[r].card);
        REQUIRE(reviews[r].confidence.has_value());
        if (reviews[r].correct || *reviews[r].confidence != 3) continue;
        // Back after three others, where the first pass has three left to put between.
        if (r + 4 >= plan.fresh.size()) continue;
        ++misses_at_three;
        CHECK(reviews[r + 4].card == reviews[r].card);
        for (std::size_t between = r + 1; between < r + 4; ++between)
          CHECK(reviews[between].card != reviews[r].card);
      }
    }
    std::filesystem::remove_all(folder);
  }
  CHECK(misses_at_three > 0);
}

// Out of the quick loop and the sanitizer tree (a dozen months of drilling, 2 s here and five
// times that under ASan): the CTest confidence_lives_at_matched_minutes runs it in the portable
// tree.
TEST_CASE(
    "a learner's two lives: with confidence at 90%, without at the retention matching its "
    "minutes",
    "[.confidence-lives]") {
  const std::vector<readiness_sim::ConfidencePair> pairs =
      readiness_sim::simulate_confidence(readiness_sim::configuration("dev"), banks(), 2, 2);
  REQUIRE(pairs.size() == 2);
  for (const readiness_sim::ConfidencePair& p : pairs) {
    INFO("learner " << p.learner << " · " << p.stratum);
    CHECK(p.with.minutes > 0.0);
    CHECK(p.without_retention >= 0.70);
    CHECK(p.without_retention <= 0.97);
    CHECK(p.matched == (std::fabs(p.without.minutes - p.with.minutes) <= 0.02 * p.with.minutes));
    CHECK(p.trap_objectives > 0);
    CHECK(p.with.held_at_start == p.without.held_at_start);
    CHECK(p.with.next_morning > 0.0);
    CHECK(p.with.next_morning < 1.0);
    CHECK(p.without.week_later > 0.0);
    CHECK(p.without.confident_misses == 0);  // not asked, none saved
  }
  const std::vector<readiness_sim::ConfidencePair> again =
      readiness_sim::simulate_confidence(readiness_sim::configuration("dev"), banks(), 2, 1);
  CHECK(again[1].with.next_morning == pairs[1].with.next_morning);
  CHECK(again[1].without.minutes == pairs[1].without.minutes);
  const std::string table =
      readiness_sim::confidence_markdown({{"dev", "as drill does it", pairs}});
  CHECK_THAT(table, Catch::Contains("| dev | as drill does it | 2 of 2 |"));
}

}  // namespace test_confidence_sim
