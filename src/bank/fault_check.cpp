// Proofs under engine faults (see fault_check.hpp).
#include "bank/fault_check.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/template.hpp"
#include "demo/demo.hpp"

namespace proofdeck::bank {

namespace {

// The parameter combinations a question is judged on: the plain question's one, or a template's
// admitted ones — the first, the last and 6 spread evenly between them when there are more than
// kFaultCombinations.
std::vector<Bindings> combinations_of(const Question& q) {
  if (!q.templ) return {Bindings{}};
  std::vector<Bindings> all;
  for_each_admitted(*q.templ, [&](const Bindings& bindings) { all.push_back(bindings); });
  if (all.size() <= kFaultCombinations) return all;
  std::vector<Bindings> picked{all.front()};
  const std::size_t inner = kFaultCombinations - 2;
  for (std::size_t i = 1; i <= inner; ++i)
    picked.push_back(all[i * (all.size() - 1) / (inner + 1)]);
  picked.push_back(all.back());
  return picked;
}

std::string run_key(const Proof& proof, const Bindings& bindings) {
  return fmt::format("{}\n{}", proof.demo, fmt::join(demo_assignments(proof, bindings), "\n"));
}

bool declares(const demo::DemoInfo& info, engine::Op op) {
  return std::find(info.ops.begin(), info.ops.end(), op) != info.ops.end();
}

struct FaultyRun {
  const demo::DemoInfo* info = nullptr;
  std::vector<std::string> assignments;
  const demo::DemoResult* clean = nullptr;
  std::unique_ptr<demo::DemoResult> result;  // null when the run threw
  std::string error;
  double seconds = 0.0;
  bool broken() const { return result == nullptr || seconds > kFaultRunSeconds; }
};

// Every value a question reads is present and finite in `result`.
bool readable(const std::vector<std::string>& names, const demo::DemoResult& result) {
  return std::all_of(names.begin(), names.end(), [&](const std::string& name) {
    const demo::Value* value = result.find(name);
    return value != nullptr &&
           (value->kind == demo::Value::Kind::boolean || std::isfinite(value->number));
  });
}

bool same_value(const demo::Value& a, const demo::Value& b) {
  return a.kind == b.kind && a.boolean == b.boolean &&
         (a.number == b.number || (std::isnan(a.number) && std::isnan(b.number)));
}

std::size_t catalog_index(engine::Fault fault) {
  const std::span<const engine::FaultInfo> faults = engine::fault_catalog();
  return static_cast<std::size_t>(
      std::find_if(faults.begin(), faults.end(),
                   [&](const engine::FaultInfo& info) { return info.fault == fault; }) -
      faults.begin());
}

template <typename Items>
void add_once(Items& items, const std::string& item) {
  if (std::find(items.begin(), items.end(), item) == items.end()) items.push_back(item);
}

// The questions to judge and, for each, the combinations and their clean runs.
struct Judged {
  const Question* question;
  const demo::DemoInfo* info;
  Status status;
  std::vector<Bindings> combinations;
  std::vector<std::string> keys;
  std::vector<ProofReading> readings;
};

// The judged questions and the clean runs they need, each by its run key with its demo and
// assignments: what every fault runs again.
struct FaultPlan {
  std::vector<Judged> judged;
  std::map<std::string, const demo::DemoResult*> clean_runs;
  std::map<std::string, std::pair<const demo::DemoInfo*, std::vector<std::string>>> planned;
};

// The faulty runs of each fault of the catalog, by run key.
using FaultyRuns = std::vector<std::map<std::string, FaultyRun>>;

FaultPlan plan_fault_runs(const std::vector<Bank>& banks, DemoRunner& clean, FaultReport& report) {
  FaultPlan plan;
  for (const Bank& b : banks) {
    for (const Question& q : b.questions) {
      if (!q.proof) continue;
      const Status status = verify(q, clean).status;
      if (status != Status::verified && status != Status::computed && status != Status::supported)
        continue;
      Judged j{&q, demo::find_demo(q.proof->demo), status, combinations_of(q), {}, {}};
      const std::string where = fmt::format("{}: {}", q.file, q.proof->pointer);
      for (const Bindings& bindings : j.combinations) {
        const demo::DemoResult& result = clean.run(*q.proof, bindings, where);
        j.keys.push_back(run_key(*q.proof, bindings));
        j.readings.push_back(read_proof(q, result, bindings));
        plan.clean_runs.emplace(j.keys.back(), &result);
        plan.planned.try_emplace(j.keys.back(), j.info, demo_assignments(*q.proof, bindings));
      }
      if (status != Status::supported) ++report.proved;
      plan.judged.push_back(std::move(j));
    }
  }
  return plan;
}

// A demo that reaches an op it does not declare would escape that op's faults.
void check_declared_ops(const FaultPlan& plan) {
  for (const auto& [key, result] : plan.clean_runs) {
    const demo::DemoInfo& info = *plan.planned.at(key).first;
    for (std::size_t op = 0; op < engine::kOpCount; ++op) {
      if (result->reached.test(op) && !declares(info, static_cast<engine::Op>(op))) {
        throw std::logic_error(
            fmt::format("demo {} reaches the engine op {} but does not declare "
                        "it in its DemoInfo::ops",
                        info.name, engine::op_name(static_cast<engine::Op>(op))));
      }
    }
  }
}

// Every (fault, run) the questions need, run on `threads` threads.
FaultyRuns run_under_faults(const FaultPlan& plan, std::uint64_t seed, unsigned threads,
                            demo::RunCaches& caches, FaultReport& report) {
  const std::span<const engine::FaultInfo> faults = engine::fault_catalog();
  FaultyRuns faulty(faults.size());
  struct Job {
    engine::Fault fault;
    FaultyRun* run;
  };
  std::vector<Job> jobs;
  for (std::size_t f = 0; f < faults.size(); ++f) {
    for (const auto& [key, run_plan] : plan.planned) {
      if (!declares(*run_plan.first, faults[f].op)) continue;
      FaultyRun& run = faulty[f][key];
      run.info = run_plan.first;
      run.assignments = run_plan.second;
      run.clean = plan.clean_runs.at(key);
      jobs.push_back(Job{faults[f].fault, &run});
    }
  }
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < jobs.size(); i = next++) {
      FaultyRun& run = *jobs[i].run;
      const auto start = std::chrono::steady_clock::now();
      try {
        run.result = std::make_unique<demo::DemoResult>(
            demo::run_demo(*run.info, demo::resolve_params(*run.info, run.assignments), seed,
                           jobs[i].fault, &caches));
      } catch (const std::exception& e) {
        run.error = e.what();
      }
      run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  };
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < std::max(1u, threads); ++t)
    workers.emplace_back(work);
  work();
  for (std::thread& worker : workers)
    worker.join();
  report.runs = jobs.size();
  return faulty;
}

// Labels hold: a derived or param value never moves under a fault; note the engine values that
// never do.
void check_labels(const FaultyRuns& faulty, FaultReport& report) {
  const std::span<const engine::FaultInfo> faults = engine::fault_catalog();
  std::set<std::string> engine_values, moved;
  std::vector<std::string> mislabelled;
  for (std::size_t f = 0; f < faults.size(); ++f) {
    for (const auto& [key, run] : faulty[f]) {
      for (const auto& [name, value] : run.clean->values) {
        const std::string id = fmt::format("{}: {}", run.info->name, name);
        const bool engine = value.provenance == demo::Provenance::measured ||
                            value.provenance == demo::Provenance::counted;
        if (engine) engine_values.insert(id);
        if (run.broken()) continue;
        const demo::Value* under = run.result->find(name);
        if (under != nullptr && same_value(*under, value)) continue;
        if (engine) {
          moved.insert(id);
        } else {
          add_once(mislabelled,
                   fmt::format("{} ({}, moved by {})", id, demo::provenance_name(value.provenance),
                               faults[f].name));
        }
      }
    }
  }
  if (!mislabelled.empty()) {
    throw std::logic_error(fmt::format(
        "values labelled derived or param moved under an engine fault, so the engine computes "
        "them: {}",
        fmt::join(mislabelled, "; ")));
  }
  for (const std::string& id : engine_values) {
    if (!moved.contains(id)) report.unmoved_engine_values.push_back(id);
  }
}

// The claims a question's faults are told apart by: each option's with a claim, a true/false
// question's claim, or a numeric question's key and each distractor.
std::vector<ClaimFaults> claims_of(const Question& q) {
  std::vector<ClaimFaults> claims;
  if (q.type == QuestionType::single || q.type == QuestionType::multi) {
    for (const Option& option : q.options) {
      if (option.claim) claims.push_back(ClaimFaults{option.id, option.correct, {}});
    }
  } else if (q.type == QuestionType::truefalse && q.claim) {
    claims.push_back(ClaimFaults{"claim", q.answer, {}});
  } else if (q.type == QuestionType::numeric && !q.key.computed.empty()) {
    // the key's match with the computed value, then each distractor's
    claims.push_back(ClaimFaults{"key", true, {}});
    for (std::size_t d = 0; d < q.distractors.size(); ++d)
      claims.push_back(ClaimFaults{fmt::format("distractor {}", d + 1), false, {}});
  }
  return claims;
}

// One question under one fault: the claims it moves, and whether it catches the question (every
// combination's verdict changed) or broke a run.
void judge_under_fault(const Judged& j, const engine::FaultInfo& fault,
                       const std::map<std::string, FaultyRun>& runs, QuestionFaults& qf,
                       FaultTally& tally) {
  const Question& q = *j.question;
  bool every = true, broken = false;
  for (std::size_t c = 0; c < j.combinations.size(); ++c) {
    const FaultyRun& run = runs.at(j.keys[c]);
    std::optional<ProofReading> reading;
    if (!run.broken() && readable(values_read(q, j.combinations[c]), *run.result)) {
      try {
        reading = read_proof(q, *run.result, j.combinations[c]);
      } catch (const std::exception&) {
        // A value of the wrong kind: the run is as broken as one that threw.
      }
    }
    if (!reading) {
      broken = true;
      every = false;
      continue;
    }
    if (q.type == QuestionType::numeric && !qf.claims.empty()) {
      // which of the key and the distractors the computed value matches, fault against clean
      if (reading->key_matches != j.readings[c].key_matches)
        add_once(qf.claims.front().faults, std::string(fault.name));
      for (std::size_t d = 0;
           d < reading->distractors_match.size() && d < j.readings[c].distractors_match.size() &&
           d + 1 < qf.claims.size();
           ++d) {
        if (reading->distractors_match[d] != j.readings[c].distractors_match[d])
          add_once(qf.claims[d + 1].faults, std::string(fault.name));
      }
    }
    if (reading->same_verdict(j.readings[c])) {
      every = false;
      continue;
    }
    std::size_t claim = 0;
    for (std::size_t o = 0; o < q.options.size(); ++o) {
      if (!q.options[o].claim) continue;
      if (reading->claims[o] != j.readings[c].claims[o])
        add_once(qf.claims[claim].faults, std::string(fault.name));
      ++claim;
    }
    if (reading->claim != j.readings[c].claim && !qf.claims.empty())
      add_once(qf.claims.front().faults, std::string(fault.name));
  }
  if (every) {
    qf.caught_by.emplace_back(fault.name);
    tally.questions.push_back(q.id);
    if (j.status != Status::supported) ++tally.caught;
  }
  if (broken) qf.broken_by.emplace_back(fault.name);
}

// Each question under each fault, then each fault's tally of runs, breaks and catches.
void judge_questions(const std::vector<Judged>& judged, const FaultyRuns& faulty,
                     FaultReport& report) {
  const std::span<const engine::FaultInfo> faults = engine::fault_catalog();
  report.faults.resize(faults.size());
  for (std::size_t f = 0; f < faults.size(); ++f)
    report.faults[f].fault = faults[f].fault;
  for (const Judged& j : judged) {
    const Question& q = *j.question;
    QuestionFaults qf;
    qf.id = q.id;
    qf.bank = q.bank;
    qf.status = j.status;
    qf.combinations = j.combinations.size();
    qf.claims = claims_of(q);
    for (std::size_t f = 0; f < faults.size(); ++f) {
      if (!declares(*j.info, faults[f].op)) continue;
      judge_under_fault(j, faults[f], faulty[f], qf, report.faults[f]);
    }
    report.questions.push_back(std::move(qf));
  }
  for (std::size_t f = 0; f < faults.size(); ++f) {
    FaultTally& tally = report.faults[f];
    for (const auto& [key, run] : faulty[f]) {
      ++tally.runs;
      tally.broken += run.broken() ? std::size_t{1} : std::size_t{0};
    }
    tally.broad =
        static_cast<double>(tally.caught) > kBroadShare * static_cast<double>(report.proved);
  }
}

// Fragile keys: the verdict changes with the seed alone.
void mark_fragile(const std::vector<Bank>& banks, const std::vector<Judged>& judged,
                  std::uint64_t seed, unsigned threads, FaultReport& report) {
  for (std::uint64_t other : {seed + 1, seed + 2}) {
    DemoRunner runner(other);
    runner.prefetch(banks, threads);
    std::size_t i = 0;
    for (const Judged& j : judged) {
      if (verify(*j.question, runner).status != j.status) report.questions[i].fragile = true;
      ++i;
    }
  }
}

// Confirmed: caught by a fault that is not broad, and not fragile.
void mark_confirmed(FaultReport& report) {
  for (QuestionFaults& qf : report.questions) {
    qf.confirmed = !qf.fragile && std::any_of(qf.caught_by.begin(), qf.caught_by.end(),
                                              [&](const std::string& name) {
                                                const auto fault = engine::find_fault(name);
                                                return !report.faults[catalog_index(*fault)].broad;
                                              });
  }
}

}  // namespace

FaultReport check_engine_faults(const std::vector<Bank>& banks, DemoRunner& clean,
                                std::uint64_t seed, unsigned threads) {
  const auto started = std::chrono::steady_clock::now();
  FaultReport report;
  const FaultPlan plan = plan_fault_runs(banks, clean, report);
  check_declared_ops(plan);
  // Every faulty run draws its weights from a fresh generator of the clean runs' seed, so it reads
  // the normals they computed (a fault leaves every draw as it was).
  const FaultyRuns faulty = run_under_faults(plan, seed, threads, clean.caches(), report);
  check_labels(faulty, report);
  judge_questions(plan.judged, faulty, report);
  mark_fragile(banks, plan.judged, seed, threads, report);
  mark_confirmed(report);
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

std::vector<std::string> unconfirmed_verified(const FaultReport& report) {
  std::vector<std::string> ids;
  for (const QuestionFaults& qf : report.questions) {
    if (qf.status == Status::verified && !qf.confirmed) ids.push_back(qf.id);
  }
  return ids;
}

}  // namespace proofdeck::bank
