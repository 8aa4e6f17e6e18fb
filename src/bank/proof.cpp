// Running proofs and deciding each question's status.
#include "bank/proof.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <set>
#include <thread>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/formula.hpp"
#include "bank/numeric_answer.hpp"
#include "core/errors.hpp"
#include "text/suggest.hpp"

namespace proofdeck::bank {

std::string_view status_name(Status status) {
  switch (status) {
    case Status::verified:
      return "verified";
    case Status::computed:
      return "computed";
    case Status::supported:
      return "supported";
    case Status::unproven:
      return "unproven";
    case Status::failed:
      return "failed";
  }
  return "?";
}

namespace {

// `text` with each `{value:NAME}` replaced by written(NAME).
template <typename Written>
std::string replace_values(std::string_view text, Written written) {
  std::string out;
  std::size_t at = 0;
  for (std::size_t open = text.find(kValuePrefix); open != std::string_view::npos;
       open = text.find(kValuePrefix, at)) {
    const std::size_t start = open + kValuePrefix.size();
    const std::size_t close = text.find('}', start);
    if (close == std::string_view::npos) break;
    out += text.substr(at, open - at);
    out += written(std::string(text.substr(start, close - start)),
                   text.substr(open, close + 1 - open));
    at = close + 1;
  }
  return out + std::string(text.substr(std::min(at, text.size())));
}

}  // namespace

std::string measured_text(const demo::Value& value) {
  if (value.kind == demo::Value::Kind::boolean) return value.boolean ? "yes" : "no";
  return format_measured(value.number);
}

std::string fill_values(std::string_view text, const demo::DemoResult& result) {
  return replace_values(text, [&](const std::string& name, std::string_view reference) {
    const demo::Value* value = result.find(name);
    return value == nullptr ? std::string(reference) : measured_text(*value);
  });
}

std::string explanation_text(const Instance& instance, DemoRunner& runner) {
  const Question& q = *instance.question;
  if (!q.proof || instance.explanation.find(kValuePrefix) == std::string::npos)
    return instance.explanation;
  try {
    return fill_values(instance.explanation,
                       runner.run(*q.proof, instance.bindings, q.file + ": " + q.proof->pointer));
  } catch (const std::exception&) {
    return replace_values(instance.explanation, [](const std::string& name, std::string_view) {
      return "(" + name + ": the demo could not run)";
    });
  }
}

namespace {

std::string argument_text(const nlohmann::ordered_json& value, const Bindings& bindings) {
  if (value.is_string()) return substitute(value.get<std::string>(), bindings);
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number_integer()) return std::to_string(value.get<std::int64_t>());
  if (value.is_number()) return fmt::format("{}", value.get<double>());
  if (value.is_array()) {
    std::vector<std::string> items;
    for (const auto& item : value)
      items.push_back(argument_text(item, bindings));
    return fmt::format("{}", fmt::join(items, ","));
  }
  return value.dump();
}

const demo::Value& lookup(const demo::DemoResult& result, const std::string& name,
                          const std::string& where) {
  const demo::Value* value = result.find(name);
  if (value == nullptr) {
    std::vector<std::string> names;
    for (const auto& [key, unused] : result.values)
      names.push_back(key);
    throw InputError("check.value", fmt::format("{}: {} has no value '{}'; its values: {}", where,
                                                result.demo, name, fmt::join(names, ", ")));
  }
  return *value;
}

double number_of(const demo::DemoResult& result, const std::string& name,
                 const std::string& where) {
  const demo::Value& value = lookup(result, name, where);
  if (value.kind != demo::Value::Kind::number) {
    throw InputError("check.kind",
                     fmt::format("{}: {}'s value '{}' is true/false; compare it with \"is\"", where,
                                 result.demo, name));
  }
  return value.number;
}

}  // namespace

std::vector<std::string> demo_assignments(const Proof& proof, const Bindings& bindings) {
  std::vector<std::string> assignments;
  for (const auto& [key, value] : proof.args.items())
    assignments.push_back(key + "=" + argument_text(value, bindings));
  return assignments;
}

const demo::DemoResult& DemoRunner::run(const Proof& proof, const Bindings& bindings,
                                        const std::string& where) {
  const demo::DemoInfo* info = demo::find_demo(proof.demo);
  if (info == nullptr) {
    std::vector<std::string> names;
    for (const demo::DemoInfo& d : demo::catalog())
      names.push_back(d.name);
    throw InputError(
        "check.demo",
        fmt::format("{}: no demo named '{}'{}", where, proof.demo,
                    text::unknown_name_hint(proof.demo, names,
                                            fmt::format("the demos: {}", fmt::join(names, ", ")))));
  }
  const std::vector<std::string> assignments = demo_assignments(proof, bindings);
  const std::string cache_key = fmt::format("{}\n{}", proof.demo, fmt::join(assignments, "\n"));
  if (const auto it = cache_.find(cache_key); it != cache_.end()) return *it->second;
  demo::DemoResult result;
  try {
    result = demo::run_demo(*info, demo::resolve_params(*info, assignments), seed_, fault_,
                            caches_.get());
  } catch (const InputError& e) {
    throw InputError("check.demo", fmt::format("{}: {}", where, e.message()));
  }
  return *cache_.emplace(cache_key, std::make_unique<demo::DemoResult>(std::move(result)))
              .first->second;
}

void DemoRunner::prefetch(const std::vector<Bank>& banks, unsigned threads) {
  struct Job {
    const demo::DemoInfo* info;
    std::vector<std::string> assignments;
    std::string key;
    std::unique_ptr<demo::DemoResult> result;
  };
  std::vector<Job> jobs;
  std::set<std::string> planned;
  const auto plan = [&](const Proof& proof, const Bindings& bindings) {
    const demo::DemoInfo* info = demo::find_demo(proof.demo);
    if (info == nullptr) return;
    std::vector<std::string> assignments = demo_assignments(proof, bindings);
    std::string key = fmt::format("{}\n{}", proof.demo, fmt::join(assignments, "\n"));
    if (cache_.contains(key) || !planned.insert(key).second) return;
    jobs.push_back(Job{info, std::move(assignments), std::move(key), nullptr});
  };
  for (const Bank& b : banks) {
    for (const Question& q : b.questions) {
      if (!q.proof) continue;
      try {
        if (q.templ) {
          for_each_admitted(*q.templ, [&](const Bindings& bindings) { plan(*q.proof, bindings); });
        } else {
          plan(*q.proof, {});
        }
      } catch (const std::exception&) {
        // A template that cannot be enumerated is reported by the checks that need it.
      }
    }
  }
  std::atomic<std::size_t> next{0};
  const auto work = [&]() {
    for (std::size_t i = next++; i < jobs.size(); i = next++) {
      try {
        jobs[i].result = std::make_unique<demo::DemoResult>(
            demo::run_demo(*jobs[i].info, demo::resolve_params(*jobs[i].info, jobs[i].assignments),
                           seed_, fault_, caches_.get()));
      } catch (const std::exception&) {
        // Left for run() to raise with the question's location.
      }
    }
  };
  std::vector<std::thread> workers;
  const std::size_t helpers = std::min<std::size_t>(threads, jobs.size());
  for (std::size_t t = 1; t < helpers; ++t)
    workers.emplace_back(work);
  work();
  for (std::thread& worker : workers)
    worker.join();
  for (Job& job : jobs) {
    if (job.result) cache_.emplace(std::move(job.key), std::move(job.result));
  }
}

bool evaluate(const Predicate& predicate, const demo::DemoResult& result,
              const Bindings& bindings) {
  switch (predicate.kind) {
    case Predicate::Kind::all:
      return std::all_of(predicate.children.begin(), predicate.children.end(),
                         [&](const Predicate& p) { return evaluate(p, result, bindings); });
    case Predicate::Kind::any:
      return std::any_of(predicate.children.begin(), predicate.children.end(),
                         [&](const Predicate& p) { return evaluate(p, result, bindings); });
    case Predicate::Kind::negate:
      return !evaluate(predicate.children.front(), result, bindings);
    case Predicate::Kind::compare:
      break;
  }
  const std::string name = substitute(predicate.value, bindings);
  if (predicate.comparator == Comparator::is) {
    const demo::Value& value = lookup(result, name, predicate.pointer);
    if (value.kind != demo::Value::Kind::boolean) {
      throw InputError("check.kind",
                       fmt::format("{}: {}'s value '{}' is a number; \"is\" compares true/false "
                                   "values",
                                   predicate.pointer, result.demo, name));
    }
    return value.boolean == predicate.boolean;
  }
  const double left = number_of(result, name, predicate.pointer);
  const double right =
      predicate.number
          ? *predicate.number
          : number_of(result, substitute(predicate.other_value, bindings), predicate.pointer);
  switch (predicate.comparator) {
    case Comparator::eq:
      return numeric_matches(left, right, predicate.tolerance);
    case Comparator::ne:
      return !numeric_matches(left, right, predicate.tolerance);
    case Comparator::lt:
      return left < right;
    case Comparator::le:
      return left <= right;
    case Comparator::gt:
      return left > right;
    case Comparator::ge:
      return left >= right;
    case Comparator::is:
      break;
  }
  return false;
}

namespace {

// A value a question reads from its demo, and the kind the reading needs.
struct NameUse {
  std::string name;  // with {param} placeholders
  std::string pointer;
  enum class Need { any, number, boolean } need = Need::any;
};

void collect_uses(const Predicate& predicate, std::vector<NameUse>& uses) {
  if (predicate.kind != Predicate::Kind::compare) {
    for (const Predicate& child : predicate.children)
      collect_uses(child, uses);
    return;
  }
  if (predicate.comparator == Comparator::is) {
    uses.push_back({predicate.value, predicate.pointer, NameUse::Need::boolean});
    return;
  }
  uses.push_back({predicate.value, predicate.pointer, NameUse::Need::number});
  if (!predicate.number) {
    uses.push_back({predicate.other_value, predicate.pointer, NameUse::Need::number});
  }
}

std::vector<NameUse> name_uses(const Question& q) {
  std::vector<NameUse> uses;
  for (std::size_t i = 0; i < q.proof->show.size(); ++i) {
    uses.push_back(
        {q.proof->show[i], fmt::format("{}/show/{}", q.proof->pointer, i), NameUse::Need::any});
  }
  if (!q.key.computed.empty()) {
    uses.push_back({q.key.computed, q.pointer + "/answer/computed", NameUse::Need::number});
  }
  for (const Predicate& predicate : q.proof->predicates)
    collect_uses(predicate, uses);
  for (const Option& option : q.options) {
    if (option.claim) collect_uses(*option.claim, uses);
  }
  if (q.claim) collect_uses(*q.claim, uses);
  for (const std::string& name : value_references(q.explanation))
    uses.push_back({name, q.pointer + "/explanation", NameUse::Need::any});
  return uses;
}

std::string with_bindings(const Bindings& bindings) {
  std::string with;
  for (const auto& [param, value] : bindings)
    with += fmt::format("{}{} = {}", with.empty() ? " (with " : ", ", param, format_number(value));
  return with.empty() ? with : with + ")";
}

// The problems of one question in one parameter combination.
std::vector<std::string> resolve_once(const Question& q, const demo::DemoInfo& info,
                                      DemoRunner& runner, const Bindings& bindings) {
  const std::string where = fmt::format("{}: {}", q.file, q.proof->pointer);
  const demo::DemoResult* result = nullptr;
  try {
    result = &runner.run(*q.proof, bindings, where);
  } catch (const InputError& e) {
    return {e.message() + with_bindings(bindings)};
  } catch (const std::exception&) {
    return {};  // the demo itself failed: `check` reports the question as failed
  }
  std::vector<std::string> problems;
  std::vector<std::string> names;
  for (const auto& [name, unused] : result->values)
    names.push_back(name);
  for (const NameUse& use : name_uses(q)) {
    const std::string name = substitute(use.name, bindings);
    const demo::Value* value = result->find(name);
    if (value == nullptr) {
      problems.push_back(fmt::format("{}: {}: {} has no value '{}'{}; its values: {}", q.file,
                                     use.pointer, info.name, name, with_bindings(bindings),
                                     fmt::join(names, ", ")));
    } else if (use.need == NameUse::Need::number && value->kind != demo::Value::Kind::number) {
      problems.push_back(fmt::format(
          "{}: {}: {}'s value '{}' is true/false; compare it with \"is\": true or false", q.file,
          use.pointer, info.name, name));
    } else if (use.need == NameUse::Need::boolean && value->kind != demo::Value::Kind::boolean) {
      problems.push_back(fmt::format(
          "{}: {}: {}'s value '{}' is a number; \"is\" compares true/false values, use eq, ne, "
          "lt, le, gt or ge",
          q.file, use.pointer, info.name, name));
    }
  }
  return problems;
}

// Demo and parameter names, which need no run.
std::vector<std::string> resolve_names(const Question& q, const demo::DemoInfo*& info) {
  info = demo::find_demo(q.proof->demo);
  if (info == nullptr) {
    std::vector<std::string> demos;
    for (const demo::DemoInfo& d : demo::catalog())
      demos.push_back(d.name);
    return {
        fmt::format("{}: {}/demo: no demo named '{}'{}", q.file, q.proof->pointer, q.proof->demo,
                    text::unknown_name_hint(q.proof->demo, demos,
                                            fmt::format("the demos: {}", fmt::join(demos, ", "))))};
  }
  std::vector<std::string> problems;
  for (const auto& [key, unused] : q.proof->args.items()) {
    // An init-capture: clang 14 (the fuzz build) cannot capture a structured binding.
    const bool known =
        std::any_of(info->params.begin(), info->params.end(),
                    [&arg = key](const demo::ParamSpec& p) { return p.name == arg; });
    if (!known) {
      std::vector<std::string> params;
      for (const demo::ParamSpec& p : info->params)
        params.push_back(p.name);
      problems.push_back(
          fmt::format("{}: {}/args/{}: demo {} has no parameter '{}'; its "
                      "parameters: {}",
                      q.file, q.proof->pointer, key, info->name, key, fmt::join(params, ", ")));
    }
  }
  return problems;
}

}  // namespace

std::vector<std::string> resolve_problems(const Question& q, DemoRunner& runner) {
  if (!q.proof) return {};
  const demo::DemoInfo* info = nullptr;
  std::vector<std::string> found = resolve_names(q, info);
  if (found.empty() && q.templ) {
    // The first combination with a problem speaks for the template.
    for_each_admitted(*q.templ, [&](const Bindings& bindings) {
      if (found.empty()) found = resolve_once(q, *info, runner, bindings);
    });
  } else if (found.empty()) {
    found = resolve_once(q, *info, runner, {});
  }
  return found;
}

std::vector<std::string> resolve_problems(const std::vector<Bank>& banks, DemoRunner& runner) {
  std::vector<std::string> problems;
  for (const Bank& b : banks) {
    for (const Question& q : b.questions) {
      std::vector<std::string> found = resolve_problems(q, runner);
      problems.insert(problems.end(), found.begin(), found.end());
    }
  }
  return problems;
}

namespace {

// The names a predicate's comparisons read, placeholders filled; with `leaves`, one entry per
// comparison (its one or two names) instead.
void leaf_names(const Predicate& predicate, const Bindings& bindings,
                std::vector<std::vector<std::string>>& leaves) {
  if (predicate.kind != Predicate::Kind::compare) {
    for (const Predicate& child : predicate.children)
      leaf_names(child, bindings, leaves);
    return;
  }
  std::vector<std::string> names{substitute(predicate.value, bindings)};
  if (predicate.comparator != Comparator::is && !predicate.number)
    names.push_back(substitute(predicate.other_value, bindings));
  leaves.push_back(std::move(names));
}

// The comparisons that tell the key from a wrong alternative: every option's claim, the
// true/false claim, the numeric key's computed value (its own leaf). The proof's predicates hold
// whatever the key says, so they are not among them.
std::vector<std::vector<std::string>> separating_leaves(const Question& q,
                                                        const Bindings& bindings) {
  std::vector<std::vector<std::string>> leaves;
  for (const Option& option : q.options) {
    if (option.claim) leaf_names(*option.claim, bindings, leaves);
  }
  if (q.claim) leaf_names(*q.claim, bindings, leaves);
  if (!q.key.computed.empty()) leaves.push_back({substitute(q.key.computed, bindings)});
  return leaves;
}

bool from_engine(const demo::Value& value) {
  return value.provenance == demo::Provenance::measured ||
         value.provenance == demo::Provenance::counted;
}

}  // namespace

std::vector<std::string> values_off_engine(const Question& q, const demo::DemoResult& result,
                                           const Bindings& bindings) {
  std::vector<std::string> off;
  for (const std::vector<std::string>& leaf : separating_leaves(q, bindings)) {
    const bool engine = std::any_of(leaf.begin(), leaf.end(), [&](const std::string& name) {
      const demo::Value* value = result.find(name);
      return value != nullptr && from_engine(*value);
    });
    if (engine) continue;
    for (const std::string& name : leaf) {
      if (std::find(off.begin(), off.end(), name) == off.end()) off.push_back(name);
    }
  }
  return off;
}

bool key_rests_on_engine(const Question& q, const demo::DemoResult& result,
                         const Bindings& bindings) {
  return values_off_engine(q, result, bindings).empty();
}

std::string_view proof_heading(const Question& q, const demo::DemoResult& result,
                               const Bindings& bindings) {
  return key_rests_on_engine(q, result, bindings) ? "Proof" : "Computed";
}

std::vector<std::string> values_read(const Question& q, const Bindings& bindings) {
  std::vector<std::vector<std::string>> leaves;
  for (const Predicate& predicate : q.proof->predicates)
    leaf_names(predicate, bindings, leaves);
  for (std::vector<std::string>& leaf : separating_leaves(q, bindings))
    leaves.push_back(std::move(leaf));
  std::vector<std::string> names;
  for (const std::vector<std::string>& leaf : leaves) {
    for (const std::string& name : leaf) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  return names;
}

ProofReading read_proof(const Question& q, const demo::DemoResult& result,
                        const Bindings& bindings) {
  ProofReading reading;
  for (const Predicate& predicate : q.proof->predicates)
    reading.predicates.push_back(evaluate(predicate, result, bindings));
  for (const Option& option : q.options) {
    reading.claims.push_back(option.claim
                                 ? std::optional<bool>(evaluate(*option.claim, result, bindings))
                                 : std::nullopt);
  }
  if (q.type == QuestionType::truefalse && q.claim)
    reading.claim = evaluate(*q.claim, result, bindings);
  if (q.type == QuestionType::numeric && !q.key.computed.empty()) {
    const std::string where = fmt::format("{}: {}", q.file, q.proof->pointer);
    const double computed = number_of(result, substitute(q.key.computed, bindings), where);
    const double key = q.templ ? q.templ->answer->evaluate(bindings) : q.key.value.value_or(0);
    reading.key_matches = numeric_matches(key, computed, q.key.tolerance, q.key.relative);
    for (const Distractor& distractor : q.distractors) {
      try {
        reading.distractors_match.emplace_back(
            numeric_matches(distractor.value(bindings), computed, q.key.tolerance, q.key.relative));
      } catch (const InputError&) {
        reading.distractors_match.emplace_back(std::nullopt);
      }
    }
  }
  return reading;
}

namespace {

// Verifies one parameter combination (or the plain question); returns the failure message, or
// "" when it holds, and sets `pinned` when the key was checked against a computation and
// `off_engine` to the values that pin it without an engine computation behind them.
std::string verify_once(const Question& q, DemoRunner& runner, const Bindings& bindings,
                        bool& pinned, std::vector<std::string>& off_engine) {
  const std::string where = fmt::format("{}: {}", q.file, q.proof->pointer);
  const demo::DemoResult& result = runner.run(*q.proof, bindings, where);
  for (const std::string& shown : q.proof->show)
    lookup(result, substitute(shown, bindings), where);
  const ProofReading reading = read_proof(q, result, bindings);
  for (std::size_t i = 0; i < reading.predicates.size(); ++i) {
    if (!reading.predicates[i]) {
      return fmt::format("{} does not hold in {}", q.proof->predicates[i].pointer, q.proof->demo);
    }
  }
  off_engine = values_off_engine(q, result, bindings);
  switch (q.type) {
    case QuestionType::single:
    case QuestionType::multi: {
      std::size_t claims = 0;
      for (std::size_t i = 0; i < q.options.size(); ++i) {
        const Option& option = q.options[i];
        if (!reading.claims[i]) continue;
        ++claims;
        const bool holds = *reading.claims[i];
        if (holds != option.correct) {
          return fmt::format("option {} is {} but its claim {} in {}", option.id,
                             option.correct ? "keyed" : "not keyed",
                             holds ? "holds" : "does not hold", q.proof->demo);
        }
      }
      pinned = claims == q.options.size();
      return "";
    }
    case QuestionType::truefalse:
      if (reading.claim) {
        if (*reading.claim != q.answer) {
          return fmt::format("key says {} but the claim {} in {}", q.answer ? "true" : "false",
                             *reading.claim ? "holds" : "does not hold", q.proof->demo);
        }
        pinned = true;
      }
      return "";
    case QuestionType::numeric: {
      if (!reading.key_matches) return "";
      if (!*reading.key_matches) {
        const std::string name = substitute(q.key.computed, bindings);
        const double computed = number_of(result, name, where);
        const double key = q.templ ? q.templ->answer->evaluate(bindings) : q.key.value.value_or(0);
        std::string with;
        for (const auto& [param, value] : bindings) {
          with +=
              fmt::format("{}{} = {}", with.empty() ? " with " : ", ", param, format_number(value));
        }
        return fmt::format("key says {} but {} computes {} = {}{}", format_number(key),
                           q.proof->demo, name, format_number(computed), with);
      }
      pinned = true;
      return "";
    }
    case QuestionType::order:
      return "";
  }
  return "";
}

}  // namespace

QuestionVerdict verify(const Question& q, DemoRunner& runner) {
  QuestionVerdict verdict{q.id, q.bank, Status::unproven, ""};
  if (!q.proof) {
    verdict.message = q.unprovable.empty() ? "no proof" : "no proof: " + q.unprovable;
    return verdict;
  }
  bool pinned = false;
  std::vector<std::string> off_engine;
  try {
    std::string failure;
    std::int64_t combinations = 0;
    const auto note_off_engine = [&off_engine](const std::vector<std::string>& names) {
      for (const std::string& name : names) {
        if (std::find(off_engine.begin(), off_engine.end(), name) == off_engine.end())
          off_engine.push_back(name);
      }
    };
    if (q.templ) {
      for_each_admitted(*q.templ, [&](const Bindings& bindings) {
        if (!failure.empty()) return;
        ++combinations;
        bool pinned_here = false;
        std::vector<std::string> off_here;
        failure = verify_once(q, runner, bindings, pinned_here, off_here);
        pinned = combinations == 1 ? pinned_here : pinned && pinned_here;
        note_off_engine(off_here);
      });
    } else {
      failure = verify_once(q, runner, {}, pinned, off_engine);
    }
    if (!failure.empty()) {
      verdict.status = Status::failed;
      verdict.message = failure;
      return verdict;
    }
    const std::string combinations_text =
        q.templ ? fmt::format(" in {} combinations", combinations) : "";
    if (!pinned) {
      verdict.status = Status::supported;
      verdict.message = fmt::format("{} holds, but would not catch a wrong key", q.proof->demo);
    } else if (off_engine.empty()) {
      verdict.status = Status::verified;
      verdict.message = fmt::format("key pinned by {}{}", q.proof->demo, combinations_text);
    } else {
      verdict.status = Status::computed;
      verdict.message = fmt::format(
          "key pinned by arithmetic{}: {} {} derived from parameters in {}, not "
          "computed by the engine",
          combinations_text, fmt::join(off_engine, ", "), off_engine.size() == 1 ? "is" : "are",
          q.proof->demo);
    }
  } catch (const InputError& e) {
    verdict.status = Status::failed;
    verdict.message = e.message();
  } catch (const std::exception& e) {
    // A demo that errors proves nothing: never verified.
    verdict.status = Status::failed;
    verdict.message = fmt::format("{} failed: {}", q.proof->demo, e.what());
  }
  return verdict;
}

std::vector<Mutation> mutate(const Question& question, DemoRunner& runner) {
  std::vector<Mutation> mutations;
  const Status clean = verify(question, runner).status;
  if (clean != Status::verified && clean != Status::computed) return mutations;
  const auto attempt = [&](Question mutated, std::string description) {
    const Status status = verify(mutated, runner).status;
    mutations.push_back(Mutation{question.id, std::move(description), status == Status::failed});
  };
  switch (question.type) {
    case QuestionType::single: {
      const auto keyed = std::find_if(question.options.begin(), question.options.end(),
                                      [](const Option& o) { return o.correct; });
      for (std::size_t i = 0; i < question.options.size(); ++i) {
        if (question.options[i].correct) continue;
        Question mutated = question;
        for (std::size_t j = 0; j < mutated.options.size(); ++j)
          mutated.options[j].correct = i == j;
        attempt(std::move(mutated), fmt::format("key {} instead of {}", question.options[i].id,
                                                keyed == question.options.end() ? "?" : keyed->id));
      }
      break;
    }
    case QuestionType::multi:
      for (std::size_t i = 0; i < question.options.size(); ++i) {
        Question mutated = question;
        mutated.options[i].correct = !mutated.options[i].correct;
        attempt(std::move(mutated), fmt::format("option {} {}", question.options[i].id,
                                                question.options[i].correct ? "unkeyed" : "keyed"));
      }
      break;
    case QuestionType::truefalse: {
      Question mutated = question;
      mutated.answer = !question.answer;
      attempt(std::move(mutated), fmt::format("answer {}", mutated.answer ? "true" : "false"));
      break;
    }
    case QuestionType::numeric: {
      // The wrong keys: each distractor, and the key doubled, halved and off by one. A
      // template's key is a formula, so its wrong keys are formulas too.
      constexpr std::array<std::tuple<std::string_view, std::string_view, double>, 3> kOffsets{
          {{"key × 2", "*", 2}, {"key ÷ 2", "/", 2}, {"key + 1", "+", 1}}};
      if (question.templ) {
        const auto attempt_key = [&](Formula key, std::string description) {
          Question mutated = question;
          mutated.templ->answer = std::move(key);
          attempt(std::move(mutated), std::move(description));
        };
        for (const Distractor& d : question.distractors) {
          if (d.formula) attempt_key(*d.formula, "distractor " + d.formula->text());
          if (d.number) {
            attempt_key(Formula::parse(fmt::format("{}", *d.number), question.pointer),
                        "distractor " + format_number(*d.number));
          }
        }
        for (const auto& [description, op, operand] : kOffsets)
          attempt_key(question.templ->answer->then(op, operand), std::string(description));
      } else {
        const auto attempt_key = [&](double key, std::string description) {
          Question mutated = question;
          mutated.key.value = key;
          attempt(std::move(mutated), std::move(description));
        };
        // The loader proved that a distractor formula without parameters evaluates.
        for (const Distractor& d : question.distractors) {
          if (d.formula) attempt_key(d.formula->evaluate({}), "distractor " + d.formula->text());
          if (d.number) attempt_key(*d.number, "distractor " + format_number(*d.number));
        }
        const double key = question.key.value.value_or(0);
        const std::array<double, 3> wrong{key * 2, key / 2, key + 1};
        for (std::size_t i = 0; i < wrong.size(); ++i) {
          // Doubling a key near the largest double overflows: no such answer can be given.
          if (std::isfinite(wrong[i])) attempt_key(wrong[i], std::string(std::get<0>(kOffsets[i])));
        }
      }
      break;
    }
    case QuestionType::order:
      break;
  }
  return mutations;
}

}  // namespace proofdeck::bank
