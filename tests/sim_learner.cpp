// The simulated learners' world and memory (sim_learner.hpp), and a drill session as they live it.
#include "sim_learner.hpp"

#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>

#include <fmt/format.h>

#include "study/cbm.hpp"
#include "study/drill_plan.hpp"
#include "study/modes.hpp"

namespace readiness_sim {

namespace bank = proofdeck::bank;
namespace study = proofdeck::study;
namespace engine = proofdeck::engine;
using proofdeck::TimePoint;

double uniform(engine::Rng& rng, double low, double high) {
  return rng.uniform(low, high);
}

double logistic(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

double mean_ability(const std::string& stratum) {
  return stratum == "novice" ? -1.2 : stratum == "intermediate" ? 0.0 : 1.2;
}

// --- the world ------------------------------------------------------------------------------

namespace {

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

}  // namespace

ItemDraw draw_items(const World& world, const Config& config, std::uint64_t seed) {
  ItemDraw d;
  engine::Rng rng(seed);
  std::vector<std::optional<double>> objective_difficulty(world.objectives.size());
  for (std::size_t i = 0; i < world.items.size(); ++i) {
    std::optional<double>& objective = objective_difficulty[world.objective_of[i]];
    if (!objective) objective = rng.normal(0.0, config.objective_difficulty_sd);
    d.difficulty.push_back(*objective + rng.normal(0.0, config.item_spread));
    d.discrimination.push_back(uniform(rng, 0.5, 2.0));
    d.slip.push_back(uniform(rng, 0.01, 0.10));
  }
  for (std::size_t t = 0; t < world.traps.size(); ++t)
    d.prevalence.push_back(uniform(rng, 0.05, 0.4));
  return d;
}

World make_world(const Config& config, const std::vector<bank::Bank>& banks) {
  World w;
  w.banks = &banks;
  for (const bank::Bank& b : banks) {
    for (const bank::Question& q : b.questions) {
      const std::size_t i = w.items.size();
      w.items.push_back(&q);
      w.index[q.id] = i;
      w.objective_of.push_back(index_of(w.objectives, q.objective_id()));
      w.topic_of.push_back(index_of(w.topics, q.topic));
      w.guess.push_back(guess_floor(q));
      std::vector<std::size_t> traps;
      for (const std::string& trap : bank::question_traps(q))
        traps.push_back(index_of(w.traps, trap));
      w.traps_of.push_back(std::move(traps));
    }
  }
  w.drawn = draw_items(w, config, config.seed);
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

// --- a learner ------------------------------------------------------------------------------

namespace {

double days_of(TimePoint now) {
  return static_cast<double>(now.time_since_epoch().count()) / kSecondsPerDay;
}

}  // namespace

Learner::Learner(const World& world, const Config& config, double mean_ability, engine::Rng& rng,
                 const ItemDraw* items)
    : world_(world), items_(items != nullptr ? *items : world.drawn), kind_(config.forgetting) {
  general_ = rng.normal(mean_ability, config.general_sd);
  for (std::size_t t = 0; t < world.topics.size(); ++t)
    topic_.push_back(rng.normal(0.0, config.topic_sd));
  for (std::size_t o = 0; o < world.objectives.size(); ++o)
    objective_.push_back(rng.normal(0.0, config.objective_sd));
  learned_.assign(world.objectives.size(), 0.0);
  for (std::size_t t = 0; t < world.traps.size(); ++t)
    holds_.push_back(rng.uniform() < items_.prevalence[t]);
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

double Learner::recall(std::size_t i, TimePoint now) const {
  const double t = days_of(now);
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

double Learner::knows(std::size_t i, TimePoint now) const {
  const std::size_t o = world_.objective_of[i];
  const double theta = general_ + topic_[world_.topic_of[i]] + objective_[o] + learned_[o];
  const double knows_by_ability =
      logistic(items_.discrimination[i] * (theta - items_.difficulty[i]));
  return 1.0 - (1.0 - knows_by_ability) * (1.0 - recall(i, now));
}

double Learner::chance(std::size_t i, TimePoint now) const {
  const double known = knows(i, now);
  double guess = world_.guess[i];
  for (const std::size_t trap : world_.traps_of[i])
    if (holds(trap, now)) guess = 0.0;
  return (1.0 - items_.slip[i]) * known + (1.0 - known) * guess;
}

bool Learner::holds(std::size_t trap, TimePoint now) const {
  return holds_[trap] || (!returns_at_.empty() && returns_at_[trap] <= days_of(now));
}

std::string Learner::trap_of_wrong(std::size_t i, engine::Rng& rng) const {
  const auto& traps = world_.traps_of[i];
  for (const std::size_t trap : traps)
    if (holds_[trap]) return world_.traps[trap];
  if (traps.empty()) return "";
  return world_.traps[traps[rng.below(traps.size())]];
}

void Learner::hypercorrect(const Hypercorrection& model, std::uint64_t seed) {
  hypercorrection_ = std::make_unique<Hypercorrection>(model);
  correction_rng_ = engine::Rng(seed);
  belief_.clear();
  for (std::size_t t = 0; t < world_.traps.size(); ++t)
    belief_.push_back(correction_rng_.uniform(model.belief[0], model.belief[1]));
  returns_at_.assign(world_.traps.size(), std::numeric_limits<double>::infinity());
}

void Learner::feel(Attempt& a, double feeling, engine::Rng& rng) const {
  a.felt = feeling + rng.normal(0.0, hypercorrection_->noise);
  a.confidence = a.felt >= 0.8 ? 3 : a.felt >= 2.0 / 3.0 ? 2 : 1;
}

Attempt Learner::attempt(std::size_t i, TimePoint now, engine::Rng& rng) const {
  if (!hypercorrection_) throw std::logic_error("attempt() needs a hypercorrection model");
  const double known = knows(i, now);
  const double slip = items_.slip[i];
  std::optional<std::size_t> held;
  for (const std::size_t trap : world_.traps_of[i])
    if (!held && holds(trap, now)) held = trap;
  Attempt a;
  const double u = rng.uniform();
  if (u < known) {  // known: right unless it slips
    a.correct = u >= known * slip;
    feel(a, known, rng);
    if (!a.correct) a.trap = trap_of_wrong(i, rng);
  } else if (held) {  // a misconception answers
    a.trap = world_.traps[*held];
    a.by_misconception = true;
    feel(a, belief_[*held], rng);
  } else {  // a guess
    a.correct = rng.uniform() < world_.guess[i];
    feel(a, world_.guess[i], rng);
    if (!a.correct) a.trap = trap_of_wrong(i, rng);
  }
  return a;
}

void Learner::feedback(std::size_t i, const Attempt& a, TimePoint now) {
  if (!hypercorrection_) return;
  const Hypercorrection& model = *hypercorrection_;
  const double t = days_of(now);
  const std::size_t level = static_cast<std::size_t>(std::clamp(a.confidence, 1, 3) - 1);
  for (const std::size_t trap : world_.traps_of[i]) {
    if (returns_at_[trap] <= t) {  // came back: held again
      holds_[trap] = true;
      returns_at_[trap] = std::numeric_limits<double>::infinity();
    }
    if (a.by_misconception && world_.traps[trap] == a.trap && holds_[trap]) {
      if (correction_rng_.uniform() < model.corrected[level]) {
        holds_[trap] = false;
        if (correction_rng_.uniform() < model.returns[level])
          returns_at_[trap] = t - model.return_days * std::log(1.0 - correction_rng_.uniform());
      }
    } else if (a.correct && !holds_[trap] && std::isfinite(returns_at_[trap]) &&
               correction_rng_.uniform() < model.settled_by_retrieval) {
      returns_at_[trap] = std::numeric_limits<double>::infinity();
    }
  }
}

void Learner::learn(std::size_t i, bool correct, TimePoint now, double weight) {
  const double t = days_of(now);
  practise(i, correct, t, now, weight);
  for (const std::size_t j : world_.siblings[i])
    practise(j, correct, t, now, 0.15 * weight);
  learned_[world_.objective_of[i]] += learning_rate_ * (correct ? 0.3 : 1.0) * weight;
}

double Learner::activation(std::size_t i, double t) const {
  double sum = 0.0;
  for (const Trace& trace : traces_[i])
    sum += trace.weight * std::pow(std::max(t - trace.at, 0.0) + 1.0 / 1440.0, -trace.decay);
  return std::log(std::max(sum, 1e-300));
}

void Learner::practise(std::size_t i, bool correct, double t, TimePoint now, double weight) {
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

// --- the truth ------------------------------------------------------------------------------

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

// --- a drill session --------------------------------------------------------------------------

std::filesystem::path scratch_folder(const std::string& name) {
  const std::filesystem::path shm = "/dev/shm";
  std::error_code ignored;
  const std::filesystem::path root =
      std::filesystem::is_directory(shm, ignored) ? shm : std::filesystem::temp_directory_path();
  return root / fmt::format("proofdeck-readiness-{}-{}", ::getpid(), name);
}

void for_each_learner(int learners, int threads,
                      const std::function<void(int k, std::size_t thread)>& simulate) {
  std::atomic<int> next{0};
  std::vector<std::string> errors(static_cast<std::size_t>(std::max(threads, 1)));
  const auto work = [&](std::size_t thread) {
    try {
      for (int k = next++; k < learners; k = next++)
        simulate(k, thread);
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
}

namespace {

// An answer to `q` as the modes write it: right or wrong, with the misconception a wrong one shows.
study::AnswerRecord record_of(const bank::Question& q, const std::string& mode,
                              std::int64_t session, TimePoint now, bool correct, std::string trap) {
  study::AnswerRecord record;
  record.card = q.id;
  record.bank = q.bank;
  record.topic = q.topic;
  record.at = now;
  record.mode = mode;
  record.session = session;
  record.correct = correct;
  record.answer = correct ? "right" : "wrong";
  record.trap = std::move(trap);
  return record;
}

}  // namespace

study::AnswerRecord answer_record(const World& world, const Learner& learner, engine::Rng& rng,
                                  const bank::Question& q, const std::string& mode,
                                  std::int64_t session, TimePoint now) {
  const std::size_t i = world.index.at(q.id);
  const bool correct = rng.uniform() < learner.chance(i, now);
  std::string trap = correct ? "" : learner.trap_of_wrong(i, rng);
  study::AnswerRecord record = record_of(q, mode, session, now, correct, std::move(trap));
  record.duration_ms = 20000;
  return record;
}

namespace {

// One answer of a drill session as the learner gives it: with a hypercorrection model, their
// attempt (how sure they felt saved when the session asks); else answer_record()'s.
study::AnswerRecord drill_answer(DrillRun& run, const bank::Question& q, std::int64_t session,
                                 Attempt& attempt) {
  if (!run.learner.hypercorrects()) {
    study::AnswerRecord record =
        answer_record(run.world, run.learner, run.rng, q, "drill", session, run.now);
    attempt.correct = record.correct;
    return record;
  }
  attempt = run.learner.attempt(run.world.index.at(q.id), run.now, run.rng);
  study::AnswerRecord record =
      record_of(q, "drill", session, run.now, attempt.correct, attempt.trap);
  if (run.asks_confidence) record.confidence = attempt.confidence;
  return record;
}

}  // namespace

int drill_session(DrillRun& run, const std::vector<const bank::Question*>& dealt,
                  const DrillPace& pace) {
  if (dealt.empty()) return 0;
  const std::int64_t session = run.store.begin_session("drill", run.now, "{}");
  std::vector<const bank::Question*> queue = dealt;  // a miss at 3 comes back into it
  std::vector<const bank::Question*> learning;
  int reviews = 0;
  const auto review = [&](const bank::Question* q, std::size_t next) {
    const study::Card card = run.cards.contains(q->id) ? run.cards[q->id] : study::Card{};
    Attempt attempt;
    study::AnswerRecord record = drill_answer(run, *q, session, attempt);
    record.duration_ms = pace.duration_ms();
    const std::size_t i = run.world.index.at(q->id);
    // Asked how sure, the rating is drill's from the level; else "How was it?" by how easily the
    // learner knew it.
    const double ease = run.rates_by_feeling && run.learner.hypercorrects()
                            ? attempt.felt
                            : run.learner.chance(i, run.now);
    const study::Rating rating = run.asks_confidence
                                     ? study::confidence_rating(record.correct, attempt.confidence)
                                 : !record.correct ? study::Rating::again
                                 : ease > 0.92     ? study::Rating::easy
                                 : ease > 0.7      ? study::Rating::good
                                                   : study::Rating::hard;
    study::ReviewOutcome reviewed = run.days.review(run.scheduler, card, rating, run.now);
    if (run.asks_confidence && run.hurries_back && rating == study::Rating::again &&
        attempt.confidence == study::kHighestConfidence)
      study::hurry_back(reviewed.card, run.now, queue, next, q);
    record.rating = rating;
    record.elapsed_days = reviewed.elapsed_days;
    run.store.record(record, reviewed.card);
    run.cards[q->id] = reviewed.card;
    run.learner.feedback(i, attempt, run.now);
    run.learner.learn(i, record.correct, run.now, 1.0);
    if ((reviewed.card.state == study::CardState::learning ||
         reviewed.card.state == study::CardState::relearning) &&
        std::find(learning.begin(), learning.end(), q) == learning.end())
      learning.push_back(q);
    ++reviews;
    pace.after_answer();
  };
  for (std::size_t next = 0; next < queue.size();) {
    if (reviews >= pace.max_reviews || !pace.may_answer()) break;
    const bank::Question* q = queue[next++];
    review(q, next);
  }
  // Cards in their steps come back within the session, as drill brings them back.
  for (int pass = 0; pass < 3 && pace.may_answer(); ++pass) {
    bool any = false;
    for (const bank::Question* q : learning) {
      const study::Card& card = run.cards[q->id];
      if ((card.state == study::CardState::learning ||
           card.state == study::CardState::relearning) &&
          card.due && *card.due <= run.now + std::chrono::minutes(20) && pace.may_answer()) {
        if (*card.due > run.now) run.now = *card.due;
        review(q, queue.size());
        any = true;
      }
    }
    if (!any) break;
  }
  run.store.end_session(session, run.now, 0, reviews, std::nullopt, false);
  return reviews;
}

void timed_evening(DrillRun& run, const study::DrillPlan& plan, double median_seconds,
                   double spread, double& seconds) {
  std::vector<const bank::Question*> queue = plan.due;
  queue.insert(queue.end(), plan.fresh.begin(), plan.fresh.end());
  int next_ms = 0, carried_ms = 0;  // the clock counts whole seconds
  drill_session(run, queue,
                {static_cast<int>(run.world.items.size()) * 4, [] { return true; },
                 [&] {
                   next_ms = static_cast<int>(std::lround(1000.0 * median_seconds *
                                                          std::exp(run.rng.normal(0.0, spread))));
                   return next_ms;
                 },
                 [&] {
                   carried_ms += next_ms;
                   run.now += std::chrono::seconds(carried_ms / 1000);
                   carried_ms %= 1000;
                   seconds += next_ms / 1000.0;
                 }});
}

}  // namespace readiness_sim
