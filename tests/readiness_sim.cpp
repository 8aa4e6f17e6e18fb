// The learner simulator (readiness_sim.hpp): the world of a configuration (item parameters drawn
// once for the bank), each learner's ability, misconceptions and memory, the study days they
// live through the real code, and the comparison of stats' readiness with the truth.
#include "readiness_sim.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <unistd.h>

#include "bank/form.hpp"
#include "bank/instance.hpp"
#include "bank/selection.hpp"
#include "engine/rng.hpp"
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

constexpr int kExamQuestions = 20;
constexpr double kPassMark = 75.0;
constexpr int kTruthForms = 200;
constexpr int kMaxAnswers = 1000;
constexpr double kSecondsPerDay = 86400.0;

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

double uniform(engine::Rng& rng, double low, double high) {
  return rng.uniform(low, high);
}

double logistic(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

// --- the world: the bank's items with parameters a configuration draws for them --------------

struct World {
  const std::vector<bank::Bank>* banks = nullptr;
  std::vector<const bank::Question*> items;
  std::map<std::string, std::size_t> index;
  std::vector<std::size_t> objective_of, topic_of;
  std::vector<std::string> objectives, topics;
  std::vector<double> discrimination, difficulty, slip, guess;
  std::vector<std::vector<std::size_t>> traps_of;  // trap indices an item's wrong answers embody
  std::vector<std::string> traps;
  std::vector<double> prevalence;  // how often a learner holds each trap
  std::vector<std::vector<std::size_t>> siblings;
  bank::Enemies enemies;
  std::vector<std::vector<std::size_t>> truth_forms;  // items of each form exam draws
  // The forms stats' readiness averages over, drawn once for every learner of the world.
  std::unique_ptr<study::ReadinessForms> readiness_forms =
      std::make_unique<study::ReadinessForms>();
};

// A blind guess's chance as the simulated learner has it: the 4PL floor by type.
double guess_floor(const bank::Question& q) {
  switch (q.type) {
    case bank::QuestionType::single:
      return 1.0 / static_cast<double>(std::max<std::size_t>(q.options.size(), 1));
    case bank::QuestionType::multi:
      return 1.0 / (std::pow(2.0, static_cast<double>(q.options.size())) - 1.0);
    case bank::QuestionType::truefalse:
      return 0.5;
    case bank::QuestionType::numeric:
      return 0.02;
    case bank::QuestionType::order: {
      double orderings = 1.0;
      for (std::size_t n = 2; n <= q.steps.size(); ++n)
        orderings *= static_cast<double>(n);
      return 1.0 / orderings;
    }
  }
  return 0.0;
}

std::size_t index_of(std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return static_cast<std::size_t>(it - names.begin());
  names.push_back(name);
  return names.size() - 1;
}

World make_world(const Config& config, const std::vector<bank::Bank>& banks) {
  World w;
  w.banks = &banks;
  engine::Rng rng(config.seed);
  std::map<std::string, double> objective_difficulty;
  for (const bank::Bank& b : banks) {
    for (const bank::Question& q : b.questions) {
      const std::size_t i = w.items.size();
      w.items.push_back(&q);
      w.index[q.id] = i;
      w.objective_of.push_back(index_of(w.objectives, q.objective_id()));
      w.topic_of.push_back(index_of(w.topics, q.topic));
      if (!objective_difficulty.contains(q.objective_id()))
        objective_difficulty[q.objective_id()] = rng.normal(0.0, config.objective_difficulty_sd);
      w.difficulty.push_back(objective_difficulty[q.objective_id()] +
                             rng.normal(0.0, config.item_spread));
      w.discrimination.push_back(uniform(rng, 0.5, 2.0));
      w.slip.push_back(uniform(rng, 0.01, 0.10));
      w.guess.push_back(guess_floor(q));
      std::vector<std::size_t> traps;
      for (const std::string& trap : bank::question_traps(q))
        traps.push_back(index_of(w.traps, trap));
      w.traps_of.push_back(std::move(traps));
    }
  }
  for (std::size_t t = 0; t < w.traps.size(); ++t)
    w.prevalence.push_back(uniform(rng, 0.05, 0.4));
  w.siblings.resize(w.items.size());
  for (std::size_t i = 0; i < w.items.size(); ++i)
    for (std::size_t j = 0; j < w.items.size(); ++j)
      if (i != j && w.objective_of[i] == w.objective_of[j]) w.siblings[i].push_back(j);
  w.enemies = bank::form_enemies(banks);
  for (int f = 0; f < kTruthForms; ++f) {
    const study::DrawnForm form = study::draw_exam_form(
        banks, {}, kExamQuestions, 900000 + static_cast<std::uint64_t>(f), &w.enemies);
    std::vector<std::size_t> on_form;
    for (const bank::Instance& instance : form.form)
      on_form.push_back(w.index.at(instance.question->id));
    w.truth_forms.push_back(std::move(on_form));
  }
  return w;
}

// --- a learner -----------------------------------------------------------------------------

struct Trace {
  double at;  // days
  double decay;
  double weight;
};

class Learner {
 public:
  Learner(const World& world, const Config& config, double mean_ability, engine::Rng& rng)
      : world_(world), kind_(config.forgetting) {
    general_ = rng.normal(mean_ability, config.general_sd);
    for (std::size_t t = 0; t < world.topics.size(); ++t)
      topic_.push_back(rng.normal(0.0, config.topic_sd));
    for (std::size_t o = 0; o < world.objectives.size(); ++o)
      objective_.push_back(rng.normal(0.0, config.objective_sd));
    learned_.assign(world.objectives.size(), 0.0);
    for (std::size_t t = 0; t < world.traps.size(); ++t)
      holds_.push_back(rng.uniform() < world.prevalence[t]);
    learning_rate_ = uniform(rng, 0.03, 0.12);
    const std::size_t n = world.items.size();
    switch (kind_) {
      case Forgetting::actr:
        alpha_ = uniform(rng, 0.2, 0.4);
        spacing_ = uniform(rng, 0.15, 0.3);
        threshold_ = uniform(rng, -1.3, -0.7);
        noise_ = 0.4;
        traces_.resize(n);
        break;
      case Forgetting::hlr:
        weight_right_ = uniform(rng, 0.8, 1.6);
        weight_wrong_ = uniform(rng, -0.6, -0.1);
        bias_ = uniform(rng, -1.5, -0.5);
        right_.assign(n, 0.0);
        wrong_.assign(n, 0.0);
        last_.assign(n, -1.0);
        break;
      case Forgetting::fsrs: {
        study::SchedulerOptions options;
        // Each weight drawn around the default, never the default itself.
        for (std::size_t k = 0; k < options.weights.size(); ++k) {
          double w = study::kDefaultWeights[k] * std::exp(rng.normal(0.0, 0.25));
          if (w == study::kDefaultWeights[k]) w *= 1.01;
          options.weights[k] =
              std::clamp(w, study::kWeightLowerBounds[k], study::kWeightUpperBounds[k]);
        }
        memory_scheduler_ = std::make_unique<study::Scheduler>(options);
        memory_.resize(n);
        transfer_rng_ = engine::Rng(rng.next_u64());
        break;
      }
    }
  }

  // Recall of the item's practised memory at `now` (0 before any practice).
  double recall(std::size_t i, TimePoint now) const {
    const double t = days(now);
    switch (kind_) {
      case Forgetting::actr: {
        if (traces_[i].empty()) return 0.0;
        const double m = activation(i, t);
        return logistic((m - threshold_) / noise_);
      }
      case Forgetting::hlr: {
        if (last_[i] < 0) return 0.0;
        const double half_life = std::exp2(weight_right_ * std::sqrt(1.0 + right_[i]) +
                                           weight_wrong_ * std::sqrt(1.0 + wrong_[i]) + bias_);
        return std::exp2(-(t - last_[i]) / half_life);
      }
      case Forgetting::fsrs: {
        const study::Card& card = memory_[i];
        if (card.state == study::CardState::fresh || !card.last_review) return 0.0;
        const double elapsed =
            static_cast<double>((now - *card.last_review).count()) / kSecondsPerDay;
        return memory_scheduler_->forgetting_curve(std::max(elapsed, 0.0), card.stability);
      }
    }
    return 0.0;
  }

  // The chance of a right answer at `now`: a 4PL item (floor, slip) on an ability of general +
  // topic + objective + what was learned, raised by the item's own memory; a held misconception
  // takes the guess away (the learner picks its option).
  double chance(std::size_t i, TimePoint now) const {
    const std::size_t o = world_.objective_of[i];
    const double theta = general_ + topic_[world_.topic_of[i]] + objective_[o] + learned_[o];
    const double knows_by_ability =
        logistic(world_.discrimination[i] * (theta - world_.difficulty[i]));
    const double knows = 1.0 - (1.0 - knows_by_ability) * (1.0 - recall(i, now));
    double guess = world_.guess[i];
    for (const std::size_t trap : world_.traps_of[i])
      if (holds_[trap]) guess = 0.0;
    return (1.0 - world_.slip[i]) * knows + (1.0 - knows) * guess;
  }

  // The misconception a wrong answer shows: a held trap of the item, else one at random.
  std::string trap_of_wrong(std::size_t i, engine::Rng& rng) const {
    const auto& traps = world_.traps_of[i];
    for (const std::size_t trap : traps)
      if (holds_[trap]) return world_.traps[trap];
    if (traps.empty()) return "";
    return world_.traps[traps[rng.below(traps.size())]];
  }

  // After feedback (`weight` 1, or less for an exam's results read at its end): the item is
  // practised, its objective's siblings a little, and the objective learned more after a miss.
  void learn(std::size_t i, bool correct, TimePoint now, double weight) {
    const double t = days(now);
    practise(i, correct, t, now, weight);
    for (const std::size_t j : world_.siblings[i])
      practise(j, correct, t, now, 0.15 * weight);
    learned_[world_.objective_of[i]] += learning_rate_ * (correct ? 0.3 : 1.0) * weight;
  }

 private:
  static double days(TimePoint now) {
    return static_cast<double>(now.time_since_epoch().count()) / kSecondsPerDay;
  }

  double activation(std::size_t i, double t) const {
    double sum = 0.0;
    for (const Trace& trace : traces_[i])
      sum += trace.weight * std::pow(std::max(t - trace.at, 0.0) + 1.0 / 1440.0, -trace.decay);
    return std::log(std::max(sum, 1e-300));
  }

  void practise(std::size_t i, bool correct, double t, TimePoint now, double weight) {
    switch (kind_) {
      case Forgetting::actr: {
        // Pavlik & Anderson's spacing: a trace laid down while the memory is strong decays faster.
        const double decay =
            traces_[i].empty() ? alpha_ : spacing_ * std::exp(activation(i, t)) + alpha_;
        traces_[i].push_back({t, std::min(decay, 2.0), weight});
        break;
      }
      case Forgetting::hlr:
        (correct ? right_ : wrong_)[i] += weight;
        last_[i] = t;
        break;
      case Forgetting::fsrs:
        // FSRS has no partial review: a lesser exposure (a sibling's, an exam's results) is a
        // review with that chance.
        if (weight >= 1.0 || transfer_rng_.uniform() < weight) {
          const study::Rating rating = correct ? study::Rating::good : study::Rating::again;
          memory_[i] = memory_scheduler_->review(memory_[i], rating, now).card;
        }
        break;
    }
  }

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
  std::unique_ptr<study::Scheduler> memory_scheduler_;
  engine::Rng transfer_rng_{0};
  std::vector<study::Card> memory_;
};

// --- the truth -------------------------------------------------------------------------------

struct Truth {
  double score = 0;                  // expected share right on a fresh form
  double pass = 0;                   // chance of passing it
  std::vector<double> by_objective;  // mean chance over each objective's items
};

Truth truth_of(const World& world, const Learner& learner, TimePoint now) {
  std::vector<double> chance(world.items.size());
  for (std::size_t i = 0; i < world.items.size(); ++i)
    chance[i] = learner.chance(i, now);
  Truth truth;
  int needed = 0;
  while (100.0 * needed / kExamQuestions + 1e-9 < kPassMark)
    ++needed;
  for (const std::vector<std::size_t>& form : world.truth_forms) {
    std::vector<double> on_form;
    for (const std::size_t i : form)
      on_form.push_back(chance[i]);
    truth.score +=
        std::accumulate(on_form.begin(), on_form.end(), 0.0) / static_cast<double>(on_form.size());
    truth.pass += study::chance_of_at_least(on_form, needed);
  }
  truth.score /= static_cast<double>(world.truth_forms.size());
  truth.pass /= static_cast<double>(world.truth_forms.size());
  std::vector<double> sum(world.objectives.size(), 0.0), count(world.objectives.size(), 0.0);
  for (std::size_t i = 0; i < world.items.size(); ++i) {
    sum[world.objective_of[i]] += chance[i];
    count[world.objective_of[i]] += 1.0;
  }
  for (std::size_t o = 0; o < sum.size(); ++o)
    truth.by_objective.push_back(sum[o] / count[o]);
  return truth;
}

// --- a learner's weeks ------------------------------------------------------------------------

// A data folder in memory where the machine has one (the database's fsyncs cost nothing there).
std::filesystem::path scratch_folder(const std::string& name) {
  const std::filesystem::path shm = "/dev/shm";
  std::error_code ignored;
  const std::filesystem::path root =
      std::filesystem::is_directory(shm, ignored) ? shm : std::filesystem::temp_directory_path();
  return root / fmt::format("proofdeck-readiness-{}-{}", ::getpid(), name);
}

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
  bool answer(const bank::Question& q, const std::string& mode, std::int64_t session,
              const std::optional<study::Card>& schedule, study::AnswerRecord* out = nullptr) {
    const std::size_t i = world_.index.at(q.id);
    const bool correct = rng_.uniform() < learner_.chance(i, now_);
    study::AnswerRecord record;
    record.card = q.id;
    record.bank = q.bank;
    record.topic = q.topic;
    record.at = now_;
    record.mode = mode;
    record.session = session;
    record.correct = correct;
    record.answer = correct ? "right" : "wrong";
    record.trap = correct ? "" : learner_.trap_of_wrong(i, rng_);
    record.duration_ms = 20000;
    if (out != nullptr) *out = record;
    if (out == nullptr) store_.record(record, schedule);
    return correct;
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
    if (queue.empty()) return;
    const std::int64_t session = store_.begin_session("drill", now_, "{}");
    std::vector<const bank::Question*> learning;
    int reviews = 0;
    const auto review = [&](const bank::Question* q) {
      const study::Card card = cards.contains(q->id) ? cards[q->id] : study::Card{};
      study::AnswerRecord record;
      const bool correct = answer(*q, "drill", session, std::nullopt, &record);
      const double own_recall = learner_.chance(world_.index.at(q->id), now_);
      const study::Rating rating = !correct            ? study::Rating::again
                                   : own_recall > 0.92 ? study::Rating::easy
                                   : own_recall > 0.7  ? study::Rating::good
                                                       : study::Rating::hard;
      const study::ReviewOutcome reviewed = days_.review(scheduler, card, rating, now_);
      record.rating = rating;
      record.elapsed_days = reviewed.elapsed_days;
      store_.record(record, reviewed.card);
      cards[q->id] = reviewed.card;
      learner_.learn(world_.index.at(q->id), correct, now_, 1.0);
      if ((reviewed.card.state == study::CardState::learning ||
           reviewed.card.state == study::CardState::relearning) &&
          std::find(learning.begin(), learning.end(), q) == learning.end())
        learning.push_back(q);
      ++reviews;
      tick();
      counted("drill");
    };
    for (const bank::Question* q : queue) {
      if (reviews >= 100 || answers_ >= kMaxAnswers) break;
      review(q);
    }
    // Cards in their steps come back within the session, as drill brings them back.
    for (int pass = 0; pass < 3 && answers_ < kMaxAnswers; ++pass) {
      bool any = false;
      for (const bank::Question* q : learning) {
        const study::Card& card = cards[q->id];
        if ((card.state == study::CardState::learning ||
             card.state == study::CardState::relearning) &&
            card.due && *card.due <= now_ + std::chrono::minutes(20) && answers_ < kMaxAnswers) {
          if (*card.due > now_) now_ = *card.due;
          review(q);
          any = true;
        }
      }
      if (!any) break;
    }
    store_.end_session(session, now_, 0, reviews, std::nullopt, false);
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
      const bool correct = answer(*instance.question, "quiz", session, std::nullopt);
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
      const bool correct = answer(*instance.question, "exam", session, std::nullopt);
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

double mean_ability(const std::string& stratum) {
  return stratum == "novice" ? -1.2 : stratum == "intermediate" ? 0.0 : 1.2;
}

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
  std::atomic<int> next{0};
  std::vector<std::string> errors(static_cast<std::size_t>(std::max(threads, 1)));
  const auto work = [&](std::size_t thread) {
    try {
      for (int k = next++; k < learners; k = next++) {
        const std::string& stratum = kStrata[static_cast<std::size_t>(k) % kStrata.size()];
        engine::Rng rng(config.seed * std::uint64_t{1000003} + static_cast<std::uint64_t>(k));
        Learner learner(world, config, mean_ability(stratum), rng);
        const std::filesystem::path folder =
            scratch_folder(fmt::format("{}-{}-{}", config.name, k, thread));
        std::filesystem::remove_all(folder);
        {
          Study study(world, config, stratum, learner, rng.next_u64(), folder);
          per_learner[static_cast<std::size_t>(k)] = study.run();
        }
        std::filesystem::remove_all(folder);
      }
    } catch (const std::exception& e) {
      errors[thread] = e.what();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t)
    pool.emplace_back(work, static_cast<std::size_t>(t));
  work(0);
  for (std::thread& t : pool)
    t.join();
  for (const std::string& error : errors)
    if (!error.empty()) throw std::runtime_error(error);
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
