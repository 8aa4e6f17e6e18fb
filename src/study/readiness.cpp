// Readiness (readiness.hpp): first attempts pooled per objective, each question's memory and its
// siblings' replayed with FSRS, the learner's forgetting, transfer and slips fitted to their own
// answers, and the forms exam draws.
#include "study/readiness.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <mutex>
#include <numeric>
#include <set>
#include <tuple>

#include "bank/form.hpp"
#include "engine/rng.hpp"
#include "study/chance.hpp"

namespace proofdeck::study {

namespace {

// Pseudo-answers a level's estimate is worth before its own answers (tuned on the simulator's
// dev configuration only: docs/readiness.md).
constexpr double kOverallPrior = 2.0;  // of kOverallPriorLevel
constexpr double kOverallPriorLevel = 0.5;
constexpr double kTopicPrior = 4.0;      // of the overall level
constexpr double kObjectivePrior = 3.0;  // of the topic's level
// The candidates the learner's own answers choose among, and the defaults they start from.
constexpr std::array<double, 7> kTimeScales{0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0};
constexpr std::array<double, 5> kLearning{0.0, 0.25, 0.5, 0.75, 1.0};
constexpr std::array<double, 7> kTransfers{0.0, 0.1, 0.2, 0.35, 0.5, 0.7, 0.9};
constexpr std::array<double, 4> kSlips{0.01, 0.03, 0.06, 0.1};
constexpr std::array<double, 5> kAfterMiss{0.0, 0.25, 0.5, 0.75, 1.0};
constexpr double kFitPrior = 20.0;  // answers' worth of log-likelihood for the defaults
constexpr double kDefaultTransfer = 0.9;
constexpr double kDefaultSlip = 0.03;
// What a question's memory is worth while its latest answer was wrong: the learner read the key,
// which is not yet knowing it. Until their own answers show otherwise, a miss teaches nothing,
// so an objective missed every time reads below what the learner answered right.
constexpr double kDefaultAfterMiss = 0.0;
constexpr int kBootstrap = 40;          // resamples of the first attempts, for the interval
constexpr double kIntervalZ = 1.2816;   // 80%, two-sided
constexpr double kIntervalWiden = 1.5;  // the bootstrap's spread misses the model's own error
constexpr double kModelError = 0.03;    // what the model itself misses, added in quadrature
constexpr double kSecondsPerDay = 86400.0;

struct Answer {
  TimePoint at;
  bool correct;
};

struct Item {
  const bank::Question* question;
  double guess;
  std::string topic;
  std::string objective;
  std::vector<std::size_t> siblings;  // the other questions of its objective in the pool
  std::vector<Answer> history;
};

// How this learner forgets, how much they learn from an answer's feedback, how much a question's
// siblings teach it, and how often they slip, fitted to their own answers: each answer is
// predicted from what came before it, for every candidate, and the best predictor kept.
// Forgetting is a multiple of the default FSRS curve's elapsed time (a learner who forgets faster
// than FSRS's default learner gets a larger one); learning scales the memory an answer leaves (0
// for one who answers by rote and never reads the feedback). With few answers the defaults (1,
// 1, 0.9, 0.03) win by the prior's weight.
struct Fit {
  double time_scale = 1.0;
  double learning = 1.0;
  double transfer = kDefaultTransfer;
  double slip = kDefaultSlip;
  double after_miss = kDefaultAfterMiss;
};

// A memory's recall, and whether the answer it comes from was a miss.
struct Recall {
  double value = 0.0;
  bool after_miss = false;
};

// A question's memory through time: its FSRS state after each of its answers.
struct Memory {
  std::vector<std::pair<TimePoint, Card>> states;

  Memory(const Scheduler& scheduler, const std::vector<Answer>& history) {
    Card card;
    for (const Answer& a : history) {
      card = scheduler.review(card, a.correct ? Rating::good : Rating::again, a.at).card;
      states.emplace_back(a.at, card);
      correct.push_back(a.correct);
    }
  }

  std::vector<bool> correct;  // each answer's outcome, beside its state

  // Recall at `t` from the answers strictly before it, the elapsed time stretched by `scale`.
  Recall recall(const Scheduler& scheduler, TimePoint t, double scale) const {
    const Card* card = nullptr;
    bool missed = false;
    for (std::size_t k = 0; k < states.size() && states[k].first < t; ++k) {
      card = &states[k].second;
      missed = !correct[k];
    }
    if (card == nullptr || !card->last_review) return {};
    const double elapsed = static_cast<double>((t - *card->last_review).count()) / kSecondsPerDay;
    return {scheduler.forgetting_curve(std::max(elapsed, 0.0) * scale, card->stability), missed};
  }
};

// Memory as the learner holds it: a miss's worth `after_miss` of its recall.
double held(const Recall& recall, double after_miss) {
  return recall.after_miss ? after_miss * recall.value : recall.value;
}

// What was known at an answer, and what came of it.
struct Case {
  std::size_t item;
  Recall recall;          // its own memory then
  double sibling;         // its siblings' best memory then, from right answers
  double sibling_missed;  // their best memory from misses
  bool first;             // its first answer
  bool correct;

  double sibling_held(double after_miss) const {
    return std::max(sibling, after_miss * sibling_missed);
  }
};

// The best of the siblings' memories at `t`, from right answers and from misses.
std::pair<double, double> best_of(const Scheduler& scheduler, const std::vector<Memory>& memories,
                                  const std::vector<std::size_t>& siblings, TimePoint t,
                                  double scale) {
  double right = 0.0, missed = 0.0;
  for (const std::size_t j : siblings) {
    const Recall r = memories[j].recall(scheduler, t, scale);
    double& best = r.after_miss ? missed : right;
    best = std::max(best, r.value);
  }
  return {right, missed};
}

// The answers of every question with the memories before each, at one time scale.
std::vector<Case> cases_at(const Scheduler& scheduler, const std::vector<Item>& items,
                           const std::vector<Memory>& memories, double scale) {
  std::vector<Case> cases;
  for (std::size_t i = 0; i < items.size(); ++i) {
    for (std::size_t k = 0; k < items[i].history.size(); ++k) {
      const Answer& a = items[i].history[k];
      const auto [sibling, sibling_missed] =
          best_of(scheduler, memories, items[i].siblings, a.at, scale);
      cases.push_back(Case{i, memories[i].recall(scheduler, a.at, scale), sibling, sibling_missed,
                           k == 0, a.correct});
    }
  }
  return cases;
}

// First attempts pooled up a hierarchy — overall, topic, objective — each weighted by how little
// its siblings' memory could have lent it, so the levels say what the learner knows of an
// objective before practice.
struct Levels {
  double overall = kOverallPriorLevel;
  std::map<std::string, double> topic, objective;
};

struct Attempt {
  std::size_t item;  // kPrior: one of the overall prior's pseudo-answers
  double evidence;   // (right − guess) / (1 − guess): unbiased for the knowledge it shows
  double weight;
};

constexpr std::size_t kPrior = static_cast<std::size_t>(-1);

// The overall prior as answers: half its weight right, half wrong, so resampling them with the
// learner's own shows how little a handful of answers says.
std::vector<Attempt> prior_attempts() {
  return {Attempt{kPrior, 1.0, kOverallPrior / 2.0}, Attempt{kPrior, 0.0, kOverallPrior / 2.0}};
}

// With `slip` the share of known answers slipped: (right − guess) / (1 − slip − guess) is then
// unbiased for knowing.
std::vector<Attempt> attempts_of(const std::vector<Item>& items, const std::vector<Case>& cases,
                                 double slip) {
  std::vector<Attempt> attempts;
  for (const Case& c : cases) {
    const Item& item = items[c.item];
    if (!c.first || item.guess + slip >= 1.0) continue;
    attempts.push_back(Attempt{c.item,
                               ((c.correct ? 1.0 : 0.0) - item.guess) / (1.0 - slip - item.guess),
                               1.0 - std::max(c.sibling, c.sibling_missed)});
  }
  return attempts;
}

// With `resampled`, the prior is whichever of its pseudo-answers `attempts` holds; without, it is
// added whole.
Levels pool_levels(const std::vector<Item>& items, const std::vector<Attempt>& attempts,
                   bool resampled = false) {
  Levels levels;
  double sum = resampled ? 0.0 : kOverallPrior * kOverallPriorLevel;
  double weight = resampled ? 0.0 : kOverallPrior;
  std::map<std::string, std::pair<double, double>> topics, objectives;  // Σ w·evidence, Σ w
  for (const Attempt& a : attempts) {
    sum += a.weight * a.evidence;
    weight += a.weight;
    if (a.item == kPrior) continue;
    auto& t = topics[items[a.item].topic];
    t.first += a.weight * a.evidence;
    t.second += a.weight;
    auto& o = objectives[items[a.item].objective];
    o.first += a.weight * a.evidence;
    o.second += a.weight;
  }
  // A level may fall below what guessing gives (−1 for a true/false statement always answered
  // wrong): a learner who holds a misconception picks its answer rather than guessing.
  const auto clamp = [](double k) { return std::clamp(k, -1.0, 1.0); };
  levels.overall = clamp(weight > 0.0 ? sum / weight : kOverallPriorLevel);
  for (const Item& item : items) {
    if (!levels.topic.contains(item.topic)) {
      const auto [evidence, n] = topics[item.topic];
      levels.topic[item.topic] =
          clamp((kTopicPrior * levels.overall + evidence) / (kTopicPrior + n));
    }
  }
  for (const Item& item : items) {
    if (!levels.objective.contains(item.objective)) {
      const auto [evidence, n] = objectives[item.objective];
      levels.objective[item.objective] =
          clamp((kObjectivePrior * levels.topic[item.topic] + evidence) / (kObjectivePrior + n));
    }
  }
  return levels;
}

// The chance of a right answer from what is known of the objective, the question's own memory
// (held: a miss's discounted), what its siblings lend and a blind guess, less slips.
double chance_of(double by_objective, double recall, double sibling, double guess, const Fit& fit) {
  const double knows = 1.0 - (1.0 - by_objective) * (1.0 - fit.learning * recall) *
                                 (1.0 - fit.transfer * fit.learning * sibling);
  return std::clamp((1.0 - fit.slip) * knows + (1.0 - knows) * guess, 0.0, 1.0);
}

Fit fit_learner(const Scheduler& scheduler, const std::vector<Item>& items,
                const std::vector<Memory>& memories) {
  Fit best;
  double best_score = -1e300;
  for (const double scale : kTimeScales) {
    const std::vector<Case> cases = cases_at(scheduler, items, memories, scale);
    const Levels levels = pool_levels(items, attempts_of(items, cases, kDefaultSlip));
    for (const double learning : kLearning) {
      for (const double transfer : kTransfers) {
        for (const double slip : kSlips) {
          for (const double after_miss : kAfterMiss) {
            const Fit fit{scale, learning, transfer, slip, after_miss};
            double score = 0.0;
            for (const Case& c : cases) {
              const Item& item = items[c.item];
              const double p = std::clamp(
                  chance_of(levels.objective.at(item.objective), held(c.recall, after_miss),
                            c.sibling_held(after_miss), item.guess, fit),
                  1e-4, 1 - 1e-4);
              score += c.correct ? std::log(p) : std::log(1.0 - p);
            }
            // The defaults' head start: a weak pull toward them.
            score -=
                kFitPrior * (std::pow(std::log2(scale), 2) / 8.0 + std::pow(1.0 - learning, 2) +
                             std::pow(transfer - kDefaultTransfer, 2) / 2.0 +
                             std::pow((slip - kDefaultSlip) / kDefaultSlip, 2) / 8.0 +
                             std::pow(after_miss - kDefaultAfterMiss, 2));
            if (score > best_score) {
              best_score = score;
              best = fit;
            }
          }
        }
      }
    }
  }
  return best;
}

// Each item's chance of a right answer now.
std::vector<double> chances_now(const std::vector<Item>& items, const Levels& levels,
                                const std::vector<double>& recall,
                                const std::vector<double>& sibling, const Fit& fit) {
  std::vector<double> p;
  p.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i)
    p.push_back(chance_of(levels.objective.at(items[i].objective), recall[i], sibling[i],
                          items[i].guess, fit));
  return p;
}

using Forms = ReadinessForms::Forms;

// Forms exam draws from a pool, as indexes into it; reused from `options.kept_forms` when it
// holds the forms of the same banks' content, pool and length.
std::shared_ptr<const Forms> forms_for(const std::vector<bank::Bank>& banks,
                                       const std::vector<Item>& items,
                                       const ReadinessOptions& options) {
  std::string key = std::to_string(options.questions) + "/" + std::to_string(options.forms);
  for (const bank::Bank& b : banks)
    key += "|" + b.id + "#" + std::to_string(b.content_hash);
  for (const Item& item : items)
    key += "|" + item.question->bank + ":" + item.question->id;
  if (options.kept_forms != nullptr) {
    if (std::shared_ptr<const Forms> kept = options.kept_forms->find(key)) return kept;
  }
  std::map<const bank::Question*, std::size_t> index;
  for (std::size_t i = 0; i < items.size(); ++i)
    index[items[i].question] = i;
  const bank::Enemies enemies = bank::form_enemies(banks);
  auto forms = std::make_shared<Forms>();
  for (int f = 0; f < options.forms; ++f) {
    // Seeds of their own: no exam a learner takes is drawn with them.
    const bank::DrawnForm drawn =
        bank::draw_exam_form(banks, options.filters, options.questions,
                             std::uint64_t{0x5eed0000} + static_cast<std::uint64_t>(f), &enemies);
    std::vector<std::size_t> form;
    for (const bank::Instance& instance : drawn.form)
      if (const auto it = index.find(instance.question); it != index.end())
        form.push_back(it->second);
    forms->push_back(std::move(form));
  }
  if (options.kept_forms != nullptr) options.kept_forms->keep(key, forms);
  return forms;
}

}  // namespace

std::shared_ptr<const ReadinessForms::Forms> ReadinessForms::find(const std::string& key) const {
  const std::lock_guard lock(mutex_);
  const auto it = kept_.find(key);
  return it == kept_.end() ? nullptr : it->second;
}

void ReadinessForms::keep(const std::string& key, std::shared_ptr<const Forms> forms) {
  const std::lock_guard lock(mutex_);
  if (kept_.size() > 64) kept_.clear();  // a simulator's pools are few; this bounds a long run
  kept_.emplace(key, std::move(forms));
}

namespace {

// The mean chance over forms, and the chance of passing at `pass` percent averaged over them,
// each form's pass mark counted on its own length (a selection of fewer facts than asked for
// draws shorter forms).
std::pair<double, double> over_forms(const Forms& forms, const std::vector<double>& p,
                                     double pass_mark) {
  double score = 0.0, pass = 0.0;
  std::vector<double> on_form;
  for (const std::vector<std::size_t>& form : forms) {
    on_form.clear();
    for (const std::size_t i : form)
      on_form.push_back(p[i]);
    if (on_form.empty()) continue;
    score +=
        std::accumulate(on_form.begin(), on_form.end(), 0.0) / static_cast<double>(on_form.size());
    pass +=
        chance_of_at_least(on_form, needed_to_pass(static_cast<int>(on_form.size()), pass_mark));
  }
  const double n = static_cast<double>(std::max<std::size_t>(forms.size(), 1));
  return {score / n, pass / n};
}

}  // namespace

int needed_to_pass(int n, double pass) {
  for (int right = 0; right <= n; ++right) {
    if (n == 0 || 100.0 * right / n + 1e-9 >= pass) return right;
  }
  return n + 1;  // a pass mark above 100% cannot be reached
}

Readiness estimate_readiness(const std::vector<bank::Bank>& banks,
                             const std::vector<ReviewRow>& reviews, TimePoint now,
                             const ReadinessOptions& options) {
  Readiness result;
  const std::vector<const bank::Question*> pool = bank::select_questions(banks, options.filters);
  std::vector<Item> items;
  std::map<std::string, std::size_t> index;
  std::map<std::string, std::vector<std::size_t>> by_objective;
  for (const bank::Question* q : pool) {
    if (!index.emplace(q->id, items.size()).second) continue;
    by_objective[q->objective_id()].push_back(items.size());
    items.push_back(Item{q, guess_chance(*q), q->topic, q->objective_id(), {}, {}});
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    for (const std::size_t j : by_objective[items[i].objective])
      if (j != i) items[i].siblings.push_back(j);
  }
  for (const ReviewRow& r : reviews) {
    const auto it = index.find(r.card);
    if (it != index.end() && r.at <= now)
      items[it->second].history.push_back(Answer{r.at, r.correct});
  }
  SchedulerOptions scheduler_options;
  scheduler_options.weights = options.weights;
  const Scheduler scheduler(scheduler_options);
  std::vector<Memory> memories;
  memories.reserve(items.size());
  for (const Item& item : items)
    memories.emplace_back(scheduler, item.history);

  const Fit fit = fit_learner(scheduler, items, memories);
  const std::vector<Attempt> attempts =
      attempts_of(items, cases_at(scheduler, items, memories, fit.time_scale), fit.slip);
  const Levels levels = pool_levels(items, attempts);
  // Memories now: a moment after the latest answer, so it counts.
  const TimePoint after = now + std::chrono::seconds(1);
  std::vector<double> recall(items.size()), sibling(items.size(), 0.0);
  for (std::size_t i = 0; i < items.size(); ++i)
    recall[i] = held(memories[i].recall(scheduler, after, fit.time_scale), fit.after_miss);
  for (std::size_t i = 0; i < items.size(); ++i)
    for (const std::size_t j : items[i].siblings)
      sibling[i] = std::max(sibling[i], recall[j]);
  const std::vector<double> p = chances_now(items, levels, recall, sibling, fit);

  const std::shared_ptr<const Forms> shared_forms = forms_for(banks, items, options);
  const Forms& forms = *shared_forms;
  // The exam's length: the forms' (no objective twice, so at most the pool's objectives).
  result.questions = 0;
  for (const std::vector<std::size_t>& form : forms)
    result.questions = std::max(result.questions, static_cast<int>(form.size()));
  if (forms.empty()) result.questions = std::min(options.questions, static_cast<int>(items.size()));
  result.needed = needed_to_pass(result.questions, options.pass);
  std::tie(result.overall, result.pass_chance) = over_forms(forms, p, options.pass);

  // The 80% interval: the first attempts and the prior's pseudo-answers resampled (the estimate's
  // own sampling error: wide for a handful of answers, however right), widened for what
  // resampling cannot see and combined with the model's own error.
  std::vector<Attempt> evidence = attempts;
  for (const Attempt& a : prior_attempts())
    evidence.push_back(a);
  // The pass chance averages over the same uncertainty: near the pass mark, a point estimate's
  // tail would be too sure either way.
  std::vector<double> resampled;
  engine::Rng rng(std::uint64_t{0x6b6f6f74} + attempts.size());
  double pass_sum = 0.0;
  std::vector<double> widened(items.size());
  for (int b = 0; b < kBootstrap; ++b) {
    std::vector<Attempt> sample;
    sample.reserve(evidence.size());
    for (std::size_t k = 0; k < evidence.size(); ++k)
      sample.push_back(evidence[rng.below(evidence.size())]);
    const std::vector<double> chances =
        chances_now(items, pool_levels(items, sample, true), recall, sibling, fit);
    resampled.push_back(over_forms(forms, chances, 0).first);
    const double shift = rng.normal(0.0, kModelError);
    for (std::size_t i = 0; i < items.size(); ++i)
      widened[i] = std::clamp(p[i] + kIntervalWiden * (chances[i] - p[i]) + shift, 0.0, 1.0);
    pass_sum += over_forms(forms, widened, options.pass).second;
  }
  result.pass_chance = pass_sum / kBootstrap;
  const double mean = std::accumulate(resampled.begin(), resampled.end(), 0.0) /
                      static_cast<double>(resampled.size());
  double squares = 0.0;
  for (const double value : resampled)
    squares += (value - mean) * (value - mean);
  const double spread = std::sqrt(squares / static_cast<double>(resampled.size() - 1));
  const double half = std::hypot(kIntervalZ * kIntervalWiden * spread, kModelError);
  result.low = std::clamp(result.overall - half, 0.0, 1.0);
  result.high = std::clamp(result.overall + half, 0.0, 1.0);

  // Per question, objective and topic, in pool order; an objective's weight is its share of the
  // forms' questions.
  std::map<std::string, double> appearances;
  std::size_t slots = 0;
  for (const auto& form : forms) {
    for (const std::size_t i : form)
      appearances[items[i].objective] += 1.0;
    slots += form.size();
  }
  std::map<std::string, std::size_t> objective_at, topic_at;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Item& item = items[i];
    const int answers = static_cast<int>(item.history.size());
    result.by_question[item.question->id] = p[i];
    auto [o, new_objective] = objective_at.emplace(item.objective, result.by_objective.size());
    if (new_objective) {
      result.by_objective.push_back(ObjectiveReadiness{
          item.objective, item.topic, 0, 0, 0,
          slots == 0 ? 0.0 : appearances[item.objective] / static_cast<double>(slots)});
    }
    ObjectiveReadiness& objective = result.by_objective[o->second];
    objective.readiness += p[i];
    objective.answers += answers;
    ++objective.questions;
    auto [t, new_topic] = topic_at.emplace(item.topic, result.by_topic.size());
    if (new_topic) result.by_topic.push_back(TopicReadiness{item.topic, 0, 0, 0});
    TopicReadiness& topic = result.by_topic[t->second];
    topic.readiness += p[i];
    ++topic.questions;
    topic.seen += answers > 0;
  }
  for (ObjectiveReadiness& objective : result.by_objective)
    objective.readiness /= objective.questions;
  for (TopicReadiness& topic : result.by_topic)
    topic.readiness /= topic.questions;
  result.objectives = static_cast<int>(result.by_objective.size());
  return result;
}

}  // namespace proofdeck::study
