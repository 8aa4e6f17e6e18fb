// stats' readiness section: the estimate (study/readiness.hpp) as stats reports it, with what it
// rests on. Until answers cover kFirstEstimateObjectives objectives (all of a smaller pool) there
// is no number; while more than a fifth of the objectives have no answer there is no verdict
// against the pass mark; an unseen objective or topic is shown as unseen, its estimate labelled
// as borrowed from the learner's level; and what to study next — the weakest topic, what is
// unseen, the misconceptions still held — each with the command that practises it.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/model.hpp"
#include "render/theme.hpp"
#include "study/progress.hpp"

namespace proofdeck::study {

class ReadinessForms;  // readiness.hpp

// Objectives answered before readiness gives a first number (all of them, in a smaller pool).
inline constexpr int kFirstEstimateObjectives = 10;
// The most of the objectives that may be unseen while readiness gives a verdict.
inline constexpr double kMostUnseenForVerdict = 0.2;
// Traps "Next" lists at most.
inline constexpr std::size_t kNextTraps = 3;

struct ReadinessViewOptions {
  double pass = 75.0;                    // the pass mark readiness is compared with, percent
  int questions = 20;                    // on the exam whose pass chance is given
  bool like_latest = false;              // that exam is as long as the latest one taken
  ReadinessForms* kept_forms = nullptr;  // forms to reuse (readiness.hpp)
  std::array<double, 21> weights = kDefaultWeights;  // FSRS-6's, as drill schedules with them
};

// A loaded topic's readiness: measured once some of it was answered, else borrowed from the
// learner's level.
struct TopicReadinessView {
  std::string id;
  std::string name;
  std::optional<double> readiness;  // while seen
  std::optional<double> borrowed;   // while unseen: the estimate, not a measure
  int seen = 0;                     // questions answered at least once
  int questions = 0;
};

struct ObjectiveReadinessView {
  std::string id;
  std::string topic;
  std::optional<double> readiness;  // once answered
  std::optional<double> borrowed;   // while unanswered
  int answered = 0;                 // answers to its questions
  int questions = 0;
  double weight = 0;  // its share of a form
};

// What to study next: the weakest topic answered, the topics with unseen objectives (most unseen
// first) and the traps a question's latest answer still falls into (most held first).
struct StudyNext {
  struct Topic {
    std::string id;
    std::string name;
    double readiness = 0;
  };
  struct Unseen {
    std::string id;
    std::string name;
    int unseen = 0;      // objectives not yet answered
    int objectives = 0;  // of the topic
  };
  struct HeldTrap {
    std::string id;
    std::string name;
    int held = 0;  // questions whose latest answer fell into it
  };
  std::optional<Topic> weakest_topic;
  std::vector<Unseen> unseen_topics;
  std::vector<HeldTrap> traps;
};

enum class ReadinessVerdict { too_early, below, at_or_above };

// The section: no number before a first estimate, no verdict while too much is unseen.
struct ReadinessView {
  double pass = 75.0;
  std::optional<double> overall;                      // after a first estimate
  std::optional<std::pair<double, double>> interval;  // its 80% interval
  std::optional<bool> reaches_pass;                   // with a verdict
  ReadinessVerdict verdict = ReadinessVerdict::too_early;
  int unseen = 0;                      // objectives with no answer
  int first_estimate_needs = 0;        // objectives still to answer before a first estimate
  std::optional<std::string> covers;   // what the estimate is of; null without objectives
  std::optional<std::string> weakest;  // topic id
  std::optional<std::string> weakest_objective;  // objective id
  std::vector<TopicReadinessView> topics;        // the loaded topics in study order
  std::vector<ObjectiveReadinessView> objectives;
  std::vector<std::string> not_yet_seen;  // objective ids
  StudyNext next;
  struct Exam {
    int questions = 0;
    int needed = 0;                     // right answers that pass
    std::optional<double> pass_chance;  // after a first estimate
    bool like_latest = false;
  } exam;
};

// `topics`: the loaded topics in study order. A trap is held while a question's latest answer
// fell into it.
ReadinessView readiness_view(const std::vector<bank::Bank>& banks,
                             const std::vector<const bank::Topic*>& topics,
                             const std::vector<ReviewRow>& reviews, TimePoint now,
                             const ReadinessViewOptions& options);

// As `stats --format json` writes it: {"pass", "overall", "interval": [low, high] or null,
//  "reaches_pass", "verdict": "too-early" | "below" | "at-or-above", "unseen",
//  "first_estimate_needs", "covers", "weakest", "weakest_objective", "topics": [{"id", "name",
//  "readiness", "borrowed", "seen", "questions"}], "objectives": [{"id", "topic", "readiness",
//  "borrowed", "answered", "questions", "weight"}], "not_yet_seen": [objective ids], "next":
//  {"weakest_topic": {"id", "name", "readiness"} or null, "unseen_topics": [{"id", "name",
//  "unseen", "objectives"}], "traps": [{"id", "name", "held"}]}, "exam": {"questions", "needed",
//  "pass_chance", "like_latest"}}; an absent value is null.
void to_json(nlohmann::ordered_json& json, const ReadinessView& view);

// The section as text at `width`; its commands begin with `program`.
std::string render_readiness(const ReadinessView& readiness, const Theme& theme, int width,
                             const std::string& program);

}  // namespace proofdeck::study
