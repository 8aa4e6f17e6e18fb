// The readiness experiment (readiness_sim.hpp): the configurations, the study weeks simulated
// learners (sim_learner.hpp) live through the real code, and the comparison of stats' readiness
// with the truth.
#include "readiness_sim.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "bank/form.hpp"
#include "bank/instance.hpp"
#include "bank/selection.hpp"
#include "engine/rng.hpp"
#include "sim_learner.hpp"
#include "study/fsrs.hpp"
#include "study/learner_day.hpp"
#include "study/modes.hpp"
#include "study/progress.hpp"
#include "study/readiness.hpp"
#include "study/stats.hpp"

namespace readiness_sim {

namespace bank = proofdeck::bank;
namespace study = proofdeck::study;
namespace engine = proofdeck::engine;
using proofdeck::TimePoint;

namespace {

constexpr int kMaxAnswers = 1000;

// --- configurations -------------------------------------------------------------------------

std::vector<Config> make_configurations() {
  std::vector<Config> configs;
  Config dev;
  dev.name = "dev";
  dev.forgetting = Forgetting::actr;
  dev.seed = 1001;
  dev.dev = true;
  configs.push_back(dev);

  Config actr = dev;
  actr.name = "act-r";
  actr.seed = 2002;
  actr.dev = false;
  configs.push_back(actr);

  Config hlr;
  hlr.name = "half-life-regression";
  hlr.forgetting = Forgetting::hlr;
  hlr.seed = 3003;
  configs.push_back(hlr);

  Config fsrs;
  fsrs.name = "fsrs-own-weights";
  fsrs.forgetting = Forgetting::fsrs;
  fsrs.seed = 4004;
  configs.push_back(fsrs);

  // High spread inside an objective, high correlation across objectives: a learner's general
  // ability says almost everything, an objective's first item little about its second.
  Config adversarial;
  adversarial.name = "adversarial";
  adversarial.forgetting = Forgetting::hlr;
  adversarial.seed = 5005;
  adversarial.general_sd = 0.8;
  adversarial.topic_sd = 0.15;
  adversarial.objective_sd = 0.15;
  adversarial.item_spread = 1.4;
  configs.push_back(adversarial);
  return configs;
}

// --- a learner's weeks ------------------------------------------------------------------------

class Study {
 public:
  Study(const World& world, const Config& config, const std::string& stratum, Learner& learner,
        std::uint64_t seed, const std::filesystem::path& folder)
      : world_(world),
        config_(config),
        stratum_(stratum),
        learner_(learner),
        rng_(seed),
        store_(study::ProgressStore::open(folder)),
        days_(study::kDefaultDayStartsAt) {
    for (const bank::Question* q : world.items)
      all_.push_back(q);
    new_per_day_ = 8 + static_cast<int>(rng_.below(13));
    study_chance_ = uniform(rng_, 0.65, 0.95);
    quiz_chance_ = uniform(rng_, 0.2, 0.5);
  }

  std::vector<Observation> run() {
    // 19:00 UTC on 2 March 2026, then day after day.
    const TimePoint start = proofdeck::parse_time("2026-03-02T19:00:00Z").value();
    for (int day = 0; answers_ < kMaxAnswers && day < 400; ++day) {
      now_ = start + std::chrono::hours(24 * day) +
             std::chrono::minutes(static_cast<int>(rng_.below(120)));
      if (rng_.uniform() < study_chance_) {
        drill();
        if (answers_ < kMaxAnswers && rng_.uniform() < quiz_chance_) quiz();
      }
      if (answers_ < kMaxAnswers && day % 7 == 6) exam();
    }
    return observations_;
  }

 private:
  void tick() { now_ += std::chrono::seconds(15 + static_cast<int>(rng_.below(30))); }

  // One answer: right with the learner's chance, written as the mode writes it.
  bool answer(const bank::Question& q, const std::string& mode, std::int64_t session) {
    const study::AnswerRecord record =
        answer_record(world_, learner_, rng_, q, mode, session, now_);
    store_.record(record, std::nullopt);
    return record.correct;
  }

  void counted(const std::string&) {
    ++answers_;
    for (const int checkpoint : kCheckpoints)
      if (answers_ == checkpoint) observe(checkpoint);
  }

  void drill() {
    const study::Scheduler scheduler;
    std::map<std::string, study::Card> cards = store_.cards();
    const study::DrillPlan plan = study::plan_drill(*world_.banks, all_, cards, store_.reviews(),
                                                    days_, now_, new_per_day_, true);
    std::vector<const bank::Question*> queue = plan.due;
    queue.insert(queue.end(), plan.fresh.begin(), plan.fresh.end());
    DrillRun run{world_, learner_, rng_, store_, days_, scheduler, cards, now_};
    drill_session(run, queue,
                  {100, [&] { return answers_ < kMaxAnswers; }, [] { return 20000; },
                   [&] {
                     tick();
                     counted("drill");
                   }});
  }

  void quiz() {
    std::vector<const bank::Question*> selected = all_;
    engine::shuffle(selected, rng_);
    selected = bank::objective_rounds(selected);
    std::vector<bank::Instance> form;
    for (std::size_t i = 0; i < 20 && i < selected.size(); ++i)
      form.push_back(bank::instantiate(*selected[i], rng_));
    std::vector<const bank::Question*> spares(selected.begin() + 20, selected.end());
    bank::untangle(
        form,
        [&](std::size_t i) -> std::optional<bank::Instance> {
          const auto next = bank::take_spare(spares, form, i);
          if (!next) return std::nullopt;
          return bank::instantiate(**next, rng_);
        },
        world_.enemies);
    const std::int64_t session = store_.begin_session("quiz", now_, "{}");
    int right = 0;
    for (const bank::Instance& instance : form) {
      if (answers_ >= kMaxAnswers) break;
      const bool correct = answer(*instance.question, "quiz", session);
      learner_.learn(world_.index.at(instance.question->id), correct, now_, 1.0);
      right += correct;
      tick();
      counted("quiz");
    }
    store_.end_session(session, now_, right, static_cast<int>(form.size()), std::nullopt, false);
  }

  void exam() {
    const study::DrawnForm drawn =
        study::draw_exam_form(*world_.banks, {}, kExamQuestions, rng_.next_u64(), &world_.enemies);
    const std::int64_t session = store_.begin_session(
        "exam", now_, fmt::format("{{\"count\": {}, \"pass\": {}}}", kExamQuestions, kPassMark));
    std::vector<std::pair<std::size_t, bool>> given;
    for (const bank::Instance& instance : drawn.form) {
      if (answers_ >= kMaxAnswers) break;
      const bool correct = answer(*instance.question, "exam", session);
      given.emplace_back(world_.index.at(instance.question->id), correct);
      tick();
      counted("exam");
    }
    int right = 0;
    for (const auto& [i, correct] : given)
      right += correct;
    const int total = static_cast<int>(given.size());
    store_.end_session(session, now_, right, total, 100.0 * right >= kPassMark * total, false,
                       fmt::format("{{\"pass\": {}}}", kPassMark));
    // The results show every answer and its explanation: learnt from, less than live feedback.
    for (const auto& [i, correct] : given)
      learner_.learn(i, correct, now_, 0.5);
  }

  void observe(int checkpoint) {
    study::StatsOptions options;
    options.pass = kPassMark;
    options.default_exam_length = kExamQuestions;
    options.kept_forms = world_.readiness_forms.get();
    const study::Stats stats = study::compute_stats(store_, *world_.banks, now_, options);
    const study::ReadinessView& readiness = stats.readiness;
    const Truth truth = truth_of(world_, learner_, now_);
    Observation o;
    o.config = config_.name;
    o.stratum = stratum_;
    o.answers = checkpoint;
    // Before a first estimate stats gives no number: nothing to compare (it has one by 100
    // answers, the first checkpoint).
    if (!readiness.overall) return;
    o.predicted = *readiness.overall;
    o.truth = truth.score;
    o.predicted_pass = readiness.exam.pass_chance.value_or(0.0);
    o.true_pass = truth.pass;
    if (readiness.interval) {
      o.has_interval = true;
      o.low = readiness.interval->first;
      o.high = readiness.interval->second;
    }
    for (const study::ObjectiveReadinessView& objective : readiness.objectives) {
      const auto found =
          std::find(world_.objectives.begin(), world_.objectives.end(), objective.id);
      if (found == world_.objectives.end()) continue;
      // Measured where answered; where not, the estimate stats labels as borrowed.
      const bool answered = objective.answered > 0;
      const double predicted = (answered ? objective.readiness : objective.borrowed).value_or(0.0);
      const double true_chance =
          truth.by_objective[static_cast<std::size_t>(found - world_.objectives.begin())];
      const double error = std::fabs(predicted - true_chance);
      if (answered) {
        o.answered_objective_error += error;
        ++o.answered_objectives;
        o.answered_pairs.emplace_back(predicted, true_chance);
      } else {
        o.unseen_objective_error += error;
        ++o.unseen_objectives;
      }
    }
    if (o.answered_objectives > 0) o.answered_objective_error /= o.answered_objectives;
    if (o.unseen_objectives > 0) o.unseen_objective_error /= o.unseen_objectives;
    observations_.push_back(o);
  }

  const World& world_;
  const Config& config_;
  std::string stratum_;
  Learner& learner_;
  engine::Rng rng_;
  study::ProgressStore store_;
  study::LearnerDays days_;
  std::vector<const bank::Question*> all_;
  TimePoint now_{};
  int answers_ = 0;
  int new_per_day_ = 10;
  double study_chance_ = 0.8, quiz_chance_ = 0.3;
  std::vector<Observation> observations_;
};

}  // namespace

const std::vector<Config>& configurations() {
  static const std::vector<Config> configs = make_configurations();
  return configs;
}

const Config& configuration(const std::string& name) {
  for (const Config& config : configurations())
    if (config.name == name) return config;
  throw std::invalid_argument("no simulator configuration named '" + name + "'");
}

std::vector<Observation> simulate(const Config& config, const std::vector<bank::Bank>& banks,
                                  int learners, int threads) {
  const World world = make_world(config, banks);
  std::vector<std::vector<Observation>> per_learner(static_cast<std::size_t>(learners));
  for_each_learner(learners, threads, [&](int k, std::size_t thread) {
    const std::string& stratum = kStrata[static_cast<std::size_t>(k) % kStrata.size()];
    engine::Rng rng(config.seed * std::uint64_t{1000003} + static_cast<std::uint64_t>(k));
    // Each learner in a world of its own: one draw of the items' parameters for everyone makes
    // the tables a property of that draw (a new bank re-draws them all and moved one
    // configuration by points), where the estimator is what is measured.
    const ItemDraw items = draw_items(world, config, rng.next_u64());
    Learner learner(world, config, mean_ability(stratum), rng, &items);
    const std::filesystem::path folder =
        scratch_folder(fmt::format("{}-{}-{}", config.name, k, thread));
    std::filesystem::remove_all(folder);
    {
      Study study(world, config, stratum, learner, rng.next_u64(), folder);
      per_learner[static_cast<std::size_t>(k)] = study.run();
    }
    std::filesystem::remove_all(folder);
  });
  std::vector<Observation> all;
  for (auto& observations : per_learner)
    all.insert(all.end(), observations.begin(), observations.end());
  return all;
}

namespace {

double mean_of(const std::vector<double>& values) {
  return values.empty() ? 0.0
                        : std::accumulate(values.begin(), values.end(), 0.0) /
                              static_cast<double>(values.size());
}

double standard_error(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  const double mean = mean_of(values);
  double squares = 0.0;
  for (const double v : values)
    squares += (v - mean) * (v - mean);
  return std::sqrt(squares / static_cast<double>(values.size() - 1) /
                   static_cast<double>(values.size()));
}

struct Brier {
  double score = 0, base = 0;
  double skill() const { return base > 0 ? 1.0 - score / base : 0.0; }
};

Brier brier_of(const std::vector<Observation>& observations) {
  Brier brier;
  double rate = 0.0;
  for (const Observation& o : observations)
    rate += o.true_pass;
  const double count = static_cast<double>(std::max<std::size_t>(observations.size(), 1));
  rate /= count;
  for (const Observation& o : observations) {
    const double variance = o.true_pass * (1.0 - o.true_pass);
    brier.score += (o.predicted_pass - o.true_pass) * (o.predicted_pass - o.true_pass) + variance;
    brier.base += (rate - o.true_pass) * (rate - o.true_pass) + variance;
  }
  brier.score /= count;
  brier.base /= count;
  return brier;
}

}  // namespace

Summary summarize(const std::string& config, const std::vector<Observation>& observations) {
  Summary summary;
  summary.config = config;
  for (const std::string& stratum : kStrata) {
    for (const int answers : kCheckpoints) {
      std::vector<double> absolute, signed_errors, inside, answered, unseen, truths;
      for (const Observation& o : observations) {
        if (o.stratum != stratum || o.answers != answers) continue;
        absolute.push_back(100.0 * std::fabs(o.predicted - o.truth));
        truths.push_back(100.0 * o.truth);
        signed_errors.push_back(100.0 * (o.predicted - o.truth));
        if (o.has_interval) inside.push_back(o.truth >= o.low && o.truth <= o.high ? 1.0 : 0.0);
        if (o.answered_objectives > 0) answered.push_back(100.0 * o.answered_objective_error);
        if (o.unseen_objectives > 0) unseen.push_back(100.0 * o.unseen_objective_error);
      }
      Cell cell;
      cell.stratum = stratum;
      cell.answers = answers;
      cell.learners = static_cast<int>(absolute.size());
      cell.truth = mean_of(truths);
      cell.mae = mean_of(absolute);
      cell.mae_se = standard_error(absolute);
      cell.signed_error = mean_of(signed_errors);
      cell.signed_se = standard_error(signed_errors);
      cell.coverage = inside.empty() ? -1.0 : mean_of(inside);
      cell.answered_objective_error = mean_of(answered);
      cell.unseen_objective_error = unseen.empty() ? -1.0 : mean_of(unseen);
      summary.cells.push_back(cell);
    }
  }
  // Reliability of the per-objective predictions on answered objectives, at 100 and 300 answers:
  // every (learner, objective) by decile of what stats said of the objective.
  for (const int answers : {100, 300}) {
    for (int d = 0; d < 10; ++d) {
      Decile decile;
      decile.answers = answers;
      decile.from = d / 10.0;
      decile.to = (d + 1) / 10.0;
      std::vector<double> differences, predicted, truth;
      for (const Observation& o : observations) {
        if (o.answers != answers) continue;
        for (const auto& [said, was] : o.answered_pairs) {
          if (said < decile.from || (said >= decile.to && !(d == 9 && said <= 1.0))) continue;
          predicted.push_back(said);
          truth.push_back(was);
          differences.push_back(said - was);
        }
      }
      decile.learners = static_cast<int>(predicted.size());
      decile.predicted = mean_of(predicted);
      decile.truth = mean_of(truth);
      decile.se = standard_error(differences);
      summary.objective_deciles.push_back(decile);
    }
  }
  // Reliability of the pass chance: learners (all checkpoints) by decile of the prediction.
  for (int d = 0; d < 10; ++d) {
    Decile decile;
    decile.from = d / 10.0;
    decile.to = (d + 1) / 10.0;
    std::vector<double> predicted, truth;
    for (const Observation& o : observations) {
      const bool in = o.predicted_pass >= decile.from &&
                      (o.predicted_pass < decile.to || (d == 9 && o.predicted_pass <= 1.0));
      if (!in) continue;
      predicted.push_back(o.predicted_pass);
      truth.push_back(o.true_pass);
    }
    decile.learners = static_cast<int>(predicted.size());
    decile.predicted = mean_of(predicted);
    decile.truth = mean_of(truth);
    std::vector<double> differences;
    for (std::size_t i = 0; i < predicted.size(); ++i)
      differences.push_back(predicted[i] - truth[i]);
    decile.se = standard_error(differences);
    summary.deciles.push_back(decile);
  }
  // Brier score of the pass chance against the pass it predicts (the expectation over an exam's
  // outcome, whose chance is the true one), and of the base rate.
  const Brier brier = brier_of(observations);
  summary.brier = brier.score;
  summary.brier_base = brier.base;
  summary.brier_skill = brier.skill();
  // Its standard error: learners resampled whole (their checkpoints together).
  const std::size_t per_learner = kCheckpoints.size();
  const std::size_t learners = observations.size() / per_learner;
  if (learners > 1) {
    proofdeck::engine::Rng rng(0x62726965);
    std::vector<double> skills;
    std::vector<Observation> sample;
    for (int b = 0; b < 200; ++b) {
      sample.clear();
      for (std::size_t k = 0; k < learners; ++k) {
        const std::size_t from = rng.below(learners) * per_learner;
        sample.insert(sample.end(), observations.begin() + static_cast<std::ptrdiff_t>(from),
                      observations.begin() + static_cast<std::ptrdiff_t>(from + per_learner));
      }
      skills.push_back(brier_of(sample).skill());
    }
    summary.brier_skill_se = standard_error(skills) * std::sqrt(static_cast<double>(skills.size()));
  }
  return summary;
}

std::string markdown(const std::vector<Summary>& summaries, int learners_per_config) {
  std::string out;
  for (const Summary& s : summaries) {
    out += fmt::format("### {}\n\n", s.config);
    out += fmt::format("{} learners (a third per stratum), each until 1,000 answers.\n\n",
                       learners_per_config);
    out +=
        "| stratum | answers | learners | true score | MAE (points) | signed error (points) | "
        "80% interval holds the truth | answered objectives: MAE | never answered: MAE |\n";
    out += "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const Cell& c : s.cells) {
      out += fmt::format(
          "| {} | {} | {} | {:.0f}% | {:.1f} ± {:.1f} | {:+.1f} ± {:.1f} | {} | {:.1f} | {} |\n",
          c.stratum, c.answers, c.learners, c.truth, c.mae, c.mae_se, c.signed_error, c.signed_se,
          c.coverage < 0 ? std::string("—") : fmt::format("{:.0f}%", 100 * c.coverage),
          c.answered_objective_error,
          c.unseen_objective_error < 0 ? std::string("— (none left)")
                                       : fmt::format("{:.1f}", c.unseen_objective_error));
    }
    out += "\nPass chance by decile of the prediction (deciles with 50 or more observations):\n\n";
    out += "| predicted | observations | mean predicted | mean true | difference |\n";
    out += "|---|---:|---:|---:|---:|\n";
    for (const Decile& d : s.deciles) {
      if (d.learners < 50) continue;
      out += fmt::format("| {:.1f}–{:.1f} | {} | {:.3f} | {:.3f} | {:+.3f} ± {:.3f} |\n", d.from,
                         d.to, d.learners, d.predicted, d.truth, d.predicted - d.truth, d.se);
    }
    out += fmt::format(
        "\nBrier score {:.4f} against the base rate's {:.4f}: skill {:.2f} ± {:.2f}.\n\n", s.brier,
        s.brier_base, s.brier_skill, s.brier_skill_se);
    out +=
        "Per-objective readiness on answered objectives by decile of the prediction, at 100 and "
        "300 answers (a learner's objectives pooled; deciles with 50 or more observations; the "
        "standard error treats them as independent, which they are not within a learner):\n\n";
    out += "| answers | predicted | observations | mean predicted | mean true | difference |\n";
    out += "|---:|---|---:|---:|---:|---:|\n";
    for (const Decile& d : s.objective_deciles) {
      if (d.learners < 50) continue;
      out += fmt::format("| {} | {:.1f}–{:.1f} | {} | {:.3f} | {:.3f} | {:+.3f} ± {:.3f} |\n",
                         d.answers, d.from, d.to, d.learners, d.predicted, d.truth,
                         d.predicted - d.truth, d.se);
    }
    out += "\n";
  }
  return out;
}

}  // namespace readiness_sim
