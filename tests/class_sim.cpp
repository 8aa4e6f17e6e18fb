// A simulated class taking one form (class_sim.hpp).
#include "class_sim.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numeric>

#include "engine/rng.hpp"

namespace class_sim {

using proofdeck::bank::Bank;
using proofdeck::bank::Question;
using proofdeck::bank::QuestionType;
using proofdeck::engine::Rng;
using proofdeck::study::ReportAnswer;
using proofdeck::study::SessionReport;

namespace {

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

struct Curve {
  double a = 1, b = 0;
};

// A wrong option's misconception: the trap it embodies, or the option itself when it has none.
std::string misconception(const Question& q, const std::string& option) {
  for (const auto& o : q.options)
    if (o.id == option && !o.trap.empty()) return o.trap;
  return q.id + "/" + option;
}

std::vector<std::string> keys_of(const Question& q) {
  std::vector<std::string> out;
  for (const auto& o : q.options)
    if (o.correct) out.push_back(o.id);
  return out;
}

std::string joined(const std::vector<std::string>& ids) {
  return fmt::format("{}", fmt::join(ids, ","));
}

}  // namespace

std::vector<SessionReport> simulate_class(const std::vector<const Question*>& form,
                                          const std::map<std::string, Plant>& plants,
                                          const ClassOptions& options,
                                          const std::vector<Bank>& banks) {
  Rng rng(options.seed * 0x9E3779B97F4A7C15ull + 17);
  std::vector<Curve> curves;
  for (std::size_t i = 0; i < form.size(); ++i)
    curves.push_back({rng.uniform(0.5, 2.0), rng.normal()});
  std::map<std::string, double> held_below;  // misconception → μ
  const auto mu = [&](const std::string& name) {
    auto [it, fresh] = held_below.emplace(name, 0.0);
    if (fresh) it->second = rng.normal(-0.5, 0.7);
    return it->second;
  };

  std::map<std::string, std::string> revisions;
  for (const Question* q : form)
    for (const Bank& b : banks)
      if (b.id == q->bank) revisions[b.id] = b.revised;

  std::vector<SessionReport> reports;
  for (int learner = 0; learner < options.learners; ++learner) {
    const double theta = rng.normal(options.ability_mean, 1.0);
    // Which misconceptions this learner holds, decided once for the whole form.
    std::map<std::string, bool> holds;
    const auto held = [&](const std::string& name) {
      auto it = holds.find(name);
      if (it == holds.end())
        it = holds.emplace(name, rng.uniform() < sigmoid(mu(name) - theta)).first;
      return it->second;
    };
    SessionReport report;
    report.path = fmt::format("learner-{:03}.json", learner + 1);
    report.mode = "exam";
    report.seed = options.form_seed;
    report.banks = revisions;
    for (std::size_t i = 0; i < form.size(); ++i) {
      const Question& q = *form[i];
      report.form.push_back(q.id);
      const auto plant_it = plants.find(q.id);
      const Plant plant = plant_it == plants.end() ? Plant::none : plant_it->second;
      const bool knows = rng.uniform() < sigmoid(curves[i].a * (theta - curves[i].b));
      ReportAnswer answer;
      answer.question = q.id;
      answer.answered = true;
      answer.time_ms = static_cast<std::int64_t>(1000.0 * std::exp(rng.normal(3.0, 0.5)));
      if (q.type == QuestionType::single || q.type == QuestionType::multi) {
        const std::vector<std::string> keys = keys_of(q);
        std::vector<std::string> wrong;
        for (const auto& o : q.options)
          if (!o.correct) wrong.push_back(o.id);
        // The planted option: the first wrong one.
        const std::string planted = wrong.empty() ? "" : wrong.front();
        std::vector<std::string> chosen;
        if (plant == Plant::everyone_right) {
          chosen = rng.uniform() < 0.99
                       ? keys
                       : std::vector<std::string>{wrong.at(rng.below(wrong.size()))};
        } else if (plant == Plant::upper_distractor &&
                   rng.uniform() < 0.5 * sigmoid(2.0 * (theta - 0.5))) {
          chosen = {planted};
        } else if (knows) {
          chosen = plant == Plant::wrong_key ? std::vector<std::string>{planted} : keys;
        } else {
          // The options that lure who does not know: the wrong ones, but with a wrong key the
          // keyed option is a misconception and the planted one the truth; a distractor only the
          // strong choose lures nobody else.
          std::vector<std::string> lures = wrong;
          if (plant != Plant::none) lures.erase(lures.begin());
          if (plant == Plant::wrong_key) lures.insert(lures.end(), keys.begin(), keys.end());
          std::vector<std::string> misconceptions;
          for (const std::string& id : lures)
            if (held(misconception(q, id))) misconceptions.push_back(id);
          if (q.type == QuestionType::single) {
            chosen = {misconceptions.empty() ? q.options[rng.below(q.options.size())].id
                                             : misconceptions[rng.below(misconceptions.size())]};
          } else {
            chosen = keys;
            if (misconceptions.empty()) {
              chosen.clear();
              for (const auto& o : q.options)
                if (rng.uniform() < 0.5) chosen.push_back(o.id);
              if (chosen.empty()) chosen.push_back(q.options[rng.below(q.options.size())].id);
            } else {
              chosen.insert(chosen.end(), misconceptions.begin(), misconceptions.end());
            }
          }
        }
        std::sort(chosen.begin(), chosen.end());
        std::vector<std::string> sorted_keys = keys;
        std::sort(sorted_keys.begin(), sorted_keys.end());
        answer.answer_ids = joined(chosen);
        answer.correct = chosen == sorted_keys;
        if (!answer.correct)
          for (const auto& o : q.options)
            if (!o.correct && !o.trap.empty() &&
                std::find(chosen.begin(), chosen.end(), o.id) != chosen.end()) {
              answer.trap = o.trap;
              break;
            }
      } else if (q.type == QuestionType::truefalse) {
        const bool wrong_held = !q.trap.empty() && held(q.trap);
        const bool says = knows ? q.answer : wrong_held ? !q.answer : rng.uniform() < 0.5;
        answer.answer_ids = says ? "true" : "false";
        answer.correct = says == q.answer;
        if (!answer.correct) answer.trap = q.trap;
      } else if (q.type == QuestionType::numeric) {
        std::vector<std::size_t> distractors;
        for (std::size_t d = 0; d < q.distractors.size(); ++d)
          if (q.distractors[d].number && !q.distractors[d].trap.empty() &&
              held(q.distractors[d].trap))
            distractors.push_back(d);
        if (knows) {
          answer.answer_ids = q.key.value ? fmt::format("{}", *q.key.value) : "the key";
          answer.correct = true;
        } else if (!distractors.empty()) {
          const auto& d = q.distractors[distractors[rng.below(distractors.size())]];
          answer.answer_ids = fmt::format("{}", *d.number);
          answer.trap = d.trap;
        } else {
          answer.answer_ids = fmt::format("{}", 1 + rng.below(1000));
        }
      } else {  // order
        std::vector<std::string> steps;
        for (const auto& s : q.steps)
          steps.push_back(s.id);
        std::vector<std::string> given = steps;
        if (!knows)
          for (std::size_t k = given.size(); k > 1; --k)
            std::swap(given[k - 1], given[rng.below(k)]);
        answer.answer_ids = joined(given);
        answer.correct = given == steps;
      }
      report.answers.push_back(std::move(answer));
    }
    reports.push_back(std::move(report));
  }
  return reports;
}

std::string report_json(const SessionReport& report, const std::vector<Bank>& banks) {
  nlohmann::ordered_json questions = nlohmann::ordered_json::array();
  int right = 0;
  for (const ReportAnswer& a : report.answers) {
    std::string bank, topic;
    for (const Bank& b : banks)
      for (const Question& q : b.questions)
        if (q.id == a.question) {
          bank = b.id;
          topic = q.topic;
        }
    right += a.correct ? 1 : 0;
    questions.push_back(
        {{"id", a.question},
         {"bank", bank},
         {"topic", topic},
         {"answer", a.answered ? nlohmann::ordered_json(a.answer_ids) : nullptr},
         {"answer_ids", a.answered ? nlohmann::ordered_json(a.answer_ids) : nullptr},
         {"correct", a.correct},
         {"trap",
          a.trap.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(a.trap)},
         {"time_ms", a.time_ms},
         {"skipped", !a.answered}});
  }
  nlohmann::ordered_json out;
  out["mode"] = report.mode;
  out["seed"] = report.seed;
  out["score"] = {{"correct", right}, {"total", report.answers.size()}};
  out["questions"] = std::move(questions);
  out["banks"] = report.banks;
  out["form"] = report.form;
  return out.dump(2) + "\n";
}

Bank synthetic_bank(int questions) {
  Bank bank;
  bank.id = "synthetic";
  bank.title = "A synthetic bank";
  bank.revised = "2026-12-06";
  for (int i = 1; i <= questions; ++i) {
    Question q;
    q.bank = bank.id;
    q.id = fmt::format("q{:02}", i);
    q.type = QuestionType::single;
    q.topic = "synthetic";
    q.prompt = fmt::format("Question {}?", i);
    q.objective = fmt::format("objective-{:02}", (i + 1) / 2);
    for (const char* letter : {"a", "b", "c", "d"}) {
      proofdeck::bank::Option option;
      option.id = letter;
      option.text = fmt::format("Option {}", letter);
      option.correct = std::string(letter) == "a";
      if (!option.correct) option.trap = fmt::format("trap-{}-{}", q.id, letter);
      q.options.push_back(std::move(option));
    }
    bank.questions.push_back(std::move(q));
  }
  return bank;
}

}  // namespace class_sim
