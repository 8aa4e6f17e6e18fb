// Readiness: what score the learner can expect on a fresh exam form drawn from the loaded banks,
// and the chance of passing it, from every answer they have given (quiz, exam, drill).
//
// A question's chance of a right answer is estimated from three routes to knowing it:
//   - what the learner knows of its objective before practising it, read off first attempts (the
//     first answer to each question, before any feedback on it, less what a blind guess gives)
//     pooled per objective and shrunk toward the learner's topic and overall levels, so an
//     objective never answered is estimated from everything else the learner has shown, never
//     from a blind guess;
//   - the question's own memory, an FSRS state (the scheduler's default weights) replayed over
//     every answer to it and read at `now`, so what was answered an hour ago counts more than
//     what was answered a month ago;
//   - what its siblings (the other questions of its objective) lend: their best memory, times a
//     transfer;
// k = 1 − (1 − k_objective)(1 − recall)(1 − transfer·sibling), then p = (1 − slip)·k + (1 − k)·
// guess. How fast this learner forgets (a multiple of FSRS's elapsed time), the transfer and the
// slip are fitted to their own answers, each predicted from what came before it, with a pull
// toward the defaults that a few answers cannot overcome. The expected score and the pass chance
// average over forms drawn exactly as exam draws them (draw_exam_form: one question per objective,
// spread over topics), each form's pass chance exact (Poisson-binomial). The 80% interval
// resamples the first attempts with the prior's pseudo-answers, so a handful of answers, however
// right, leaves it wide. docs/readiness.md measures all of it against simulated learners the
// estimator does not model.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bank/model.hpp"
#include "bank/selection.hpp"
#include "study/fsrs.hpp"
#include "study/learner_day.hpp"
#include "study/progress.hpp"

namespace proofdeck::study {

// The exam forms readiness averages over, kept for the next estimate over the same pool: keyed by
// the banks' content (bank::Bank::content_hash), the questions the filters select, the form
// length and the number of forms. Whoever estimates again and again over one set of banks owns
// one and passes it in ReadinessOptions (the readiness simulator does); safe to share between
// threads. Without one, each estimate draws its forms afresh.
class ReadinessForms {
 public:
  using Forms = std::vector<std::vector<std::size_t>>;  // indexes into the pool, form by form
  std::shared_ptr<const Forms> find(const std::string& key) const;
  void keep(const std::string& key, std::shared_ptr<const Forms> forms);

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const Forms>> kept_;
};

struct ReadinessOptions {
  double pass = 75.0;                    // percent right an exam passes at
  int questions = 20;                    // questions on the exam form
  bank::Filters filters;                 // the exam's filters (the pool it draws from)
  int forms = 64;                        // forms averaged over
  ReadinessForms* kept_forms = nullptr;  // forms drawn before, to reuse (see ReadinessForms)
  std::array<double, 21> weights = kDefaultWeights;  // FSRS-6's, as drill schedules with them
};

struct ObjectiveReadiness {
  std::string id;
  std::string topic;     // the topic of its first question in the pool
  double readiness = 0;  // mean chance over its questions in the pool
  int answers = 0;       // answers given to its questions (0: not yet seen)
  int questions = 0;     // its questions in the pool
  double weight = 0;     // its share of a form, as exam draws it
};

struct TopicReadiness {
  std::string id;
  double readiness = 0;  // mean chance over its questions in the pool
  int questions = 0;
  int seen = 0;  // of them answered at least once
};

struct Readiness {
  double overall = 0;  // expected share right on a form exam draws
  double low = 0;      // 80% interval of it
  double high = 0;
  double pass_chance = 0;
  int questions = 0;  // on the form
  int needed = 0;     // right answers that pass it
  int objectives = 0;
  std::vector<ObjectiveReadiness> by_objective;  // in pool order
  std::vector<TopicReadiness> by_topic;          // in pool order
  std::map<std::string, double> by_question;     // id → chance of a right answer now
};

// Readiness over the questions `options.filters` selects from `banks` (all of them when the
// filters are empty), from `reviews` and the drill `cards` at `now`.
Readiness estimate_readiness(const std::vector<bank::Bank>& banks,
                             const std::vector<ReviewRow>& reviews, TimePoint now,
                             const ReadinessOptions& options);

// The fewest right answers out of n that pass at `pass` percent, by exam's own rule.
int needed_to_pass(int n, double pass);

}  // namespace proofdeck::study
