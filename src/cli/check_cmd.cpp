// The check subcommand: load, prove, report as text, JSON or JUnit XML, exit 1 on any failure.
#include "cli/check_cmd.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include <fmt/color.h>
#include <fmt/format.h>

#include "bank/proof.hpp"
#include "bank/sources.hpp"
#include "demo/render.hpp"
#include "errors.hpp"
#include "heap.hpp"

namespace proofdeck::cli {

namespace {

struct CheckOptions {
  std::string format = "text";  // text | json | junit
  std::string output_path;      // --output FILE
  double min_verified = 0.0;    // --min-verified PCT: fail below this share of verified keys
  bool strict = false;          // --strict: unproven questions fail too
  bool mutate = false;          // --mutate: swap verified keys for wrong ones; all must be caught
};

struct Report {
  std::vector<bank::QuestionVerdict> verdicts;
  std::vector<bank::Mutation> mutations;  // with --mutate
  std::map<bank::Status, int> counts;
  nlohmann::ordered_json coverage;
};

Report prove(const std::vector<bank::Bank>& banks, bank::DemoRunner& runner, bool mutate) {
  Report report;
  std::map<std::string, int> per_topic, per_trap;
  std::set<std::string> demos_used;
  std::vector<std::string> all_traps;
  for (const bank::Bank& b : banks) {
    for (const bank::Trap& trap : b.traps) {
      all_traps.push_back(trap.id);
      per_trap.try_emplace(trap.id, 0);
    }
    for (const bank::Topic& topic : b.topics)
      per_topic.try_emplace(topic.id, 0);
    for (const bank::Question& q : b.questions) {
      report.verdicts.push_back(bank::verify(q, runner));
      ++report.counts[report.verdicts.back().status];
      if (mutate && report.verdicts.back().status == bank::Status::verified) {
        for (bank::Mutation& m : bank::mutate(q, runner))
          report.mutations.push_back(std::move(m));
      }
      ++per_topic[q.topic];
      std::set<std::string> traps;
      for (const bank::Option& option : q.options) {
        if (!option.trap.empty()) traps.insert(option.trap);
      }
      for (const bank::Distractor& d : q.distractors)
        traps.insert(d.trap);
      if (!q.trap.empty()) traps.insert(q.trap);
      for (const std::string& trap : traps)
        ++per_trap[trap];
      if (q.proof) demos_used.insert(q.proof->demo);
    }
  }
  std::vector<std::string> uncovered_traps, unused_demos;
  for (const auto& [trap, count] : per_trap) {
    if (count == 0) uncovered_traps.push_back(trap);
  }
  for (const demo::DemoInfo& info : demo::catalog()) {
    if (!demos_used.contains(info.name)) unused_demos.push_back(info.name);
  }
  report.coverage = {{"questions_per_topic", per_topic},
                     {"questions_per_trap", per_trap},
                     {"traps_without_questions", uncovered_traps},
                     {"demos_unused", unused_demos},
                     {"demo_runs", runner.runs()}};
  return report;
}

int count(const Report& report, bank::Status status) {
  const auto it = report.counts.find(status);
  return it == report.counts.end() ? 0 : it->second;
}

std::size_t survivors(const Report& report) {
  return static_cast<std::size_t>(std::count_if(report.mutations.begin(), report.mutations.end(),
                                                [](const bank::Mutation& m) { return !m.killed; }));
}

std::string text_report(const Report& report, const Theme& theme, bool mutate) {
  std::string text;
  for (const bank::Mutation& m : report.mutations) {
    if (!m.killed) {
      text += fmt::format("{} {}: {} was not caught\n", fmt::styled("SURVIVED", theme.bad),
                          m.question, m.description);
    }
  }
  for (const bank::QuestionVerdict& v : report.verdicts) {
    if (v.status == bank::Status::failed) {
      text += fmt::format("{} {} ({}): {}\n", fmt::styled("FAILED", theme.bad), v.id, v.bank,
                          sanitize_for_terminal(v.message));
    } else if (v.status == bank::Status::unproven) {
      text += fmt::format("{} {} ({}): {}\n", fmt::styled("unproven", theme.warning), v.id, v.bank,
                          sanitize_for_terminal(v.message));
    }
  }
  const int total = static_cast<int>(report.verdicts.size());
  text += fmt::format(
      "{} questions: {} verified, {} supported, {} unproven, {} failed ({} demo runs)\n", total,
      fmt::styled(count(report, bank::Status::verified), theme.good),
      count(report, bank::Status::supported), count(report, bank::Status::unproven),
      fmt::styled(count(report, bank::Status::failed),
                  count(report, bank::Status::failed) > 0 ? theme.bad : theme.good),
      report.coverage.at("demo_runs").get<std::size_t>());
  const auto list = [](const nlohmann::ordered_json& object) {
    std::string items;
    for (const auto& [key, value] : object.items()) {
      items += fmt::format("{}{} {}", items.empty() ? "" : ", ", key, value.get<int>());
    }
    return items.empty() ? std::string("none") : items;
  };
  const auto names = [](const nlohmann::ordered_json& array) {
    std::string items;
    for (const auto& value : array) {
      items += (items.empty() ? "" : ", ") + value.get<std::string>();
    }
    return items.empty() ? std::string("none") : items;
  };
  if (mutate) {
    const std::size_t tried = report.mutations.size();
    const std::size_t caught = tried - survivors(report);
    text += fmt::format(
        "mutations: {} of {} wrong keys caught (kill rate {:.1f}%)\n", caught, tried,
        tried == 0 ? 100.0 : 100.0 * static_cast<double>(caught) / static_cast<double>(tried));
  }
  text += fmt::format("questions per topic: {}\n", list(report.coverage.at("questions_per_topic")));
  text += fmt::format("questions per trap: {}\n", list(report.coverage.at("questions_per_trap")));
  text += fmt::format("traps without questions: {}\n",
                      names(report.coverage.at("traps_without_questions")));
  text += fmt::format("demos no question uses: {}\n", names(report.coverage.at("demos_unused")));
  return text;
}

std::string json_report(const Report& report, bool mutate) {
  nlohmann::ordered_json questions = nlohmann::ordered_json::array();
  for (const bank::QuestionVerdict& v : report.verdicts) {
    questions.push_back({{"id", v.id},
                         {"bank", v.bank},
                         {"status", std::string(bank::status_name(v.status))},
                         {"message", v.message}});
  }
  nlohmann::ordered_json json;
  json["summary"] = {{"questions", report.verdicts.size()},
                     {"verified", count(report, bank::Status::verified)},
                     {"supported", count(report, bank::Status::supported)},
                     {"unproven", count(report, bank::Status::unproven)},
                     {"failed", count(report, bank::Status::failed)}};
  if (mutate) {
    json["summary"]["mutations"] = report.mutations.size();
    json["summary"]["mutations_killed"] = report.mutations.size() - survivors(report);
    nlohmann::ordered_json survived = nlohmann::ordered_json::array();
    for (const bank::Mutation& m : report.mutations) {
      if (!m.killed) survived.push_back({{"id", m.question}, {"mutation", m.description}});
    }
    json["summary"]["survivors"] = std::move(survived);
  }
  json["coverage"] = report.coverage;
  json["questions"] = std::move(questions);
  return json.dump(2) + "\n";
}

std::string junit_report(const Report& report) {
  // One testsuite per bank, one testcase per question; unproven questions are skipped.
  std::map<std::string, std::vector<const bank::QuestionVerdict*>> by_bank;
  for (const bank::QuestionVerdict& v : report.verdicts)
    by_bank[v.bank].push_back(&v);
  std::string xml = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"proofdeck check\" "
      "tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
      report.verdicts.size(), count(report, bank::Status::failed),
      count(report, bank::Status::unproven));
  for (const auto& [bank_id, verdicts] : by_bank) {
    int failures = 0, skipped = 0;
    for (const auto* v : verdicts) {
      failures += v->status == bank::Status::failed;
      skipped += v->status == bank::Status::unproven;
    }
    xml += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
                       demo::html_escape(bank_id), verdicts.size(), failures, skipped);
    for (const auto* v : verdicts) {
      xml += fmt::format("    <testcase classname=\"{}\" name=\"{}\">", demo::html_escape(bank_id),
                         demo::html_escape(v->id));
      if (v->status == bank::Status::failed) {
        xml += fmt::format("<failure message=\"{}\"/>", demo::html_escape(v->message));
      } else if (v->status == bank::Status::unproven) {
        xml += fmt::format("<skipped message=\"{}\"/>", demo::html_escape(v->message));
      } else {
        xml += fmt::format("<system-out>{}: {}</system-out>", bank::status_name(v->status),
                           demo::html_escape(v->message));
      }
      xml += "</testcase>\n";
    }
    xml += "  </testsuite>\n";
  }
  return xml + "</testsuites>\n";
}

void run_check(const CheckOptions& options, Context& context) {
  const std::vector<bank::Bank> banks =
      bank::load_banks(bank::BankSources{context.global.banks, !context.global.no_builtin});
  std::size_t questions = 0;
  for (const bank::Bank& b : banks)
    questions += b.questions.size();
  if (questions == 0) {
    throw InputError("check.empty",
                     banks.empty() ? "no questions to check: no bank was loaded (give one with "
                                     "--bank FILE or DIR)"
                                   : "no questions to check: the loaded banks hold none");
  }
  keep_freed_memory();  // demo runs allocate and free large matrices: see heap.hpp
  bank::DemoRunner runner(context.global.seed);
  runner.prefetch(banks, std::max(1u, std::thread::hardware_concurrency()));
  if (std::vector<std::string> problems = bank::resolve_problems(banks, runner); !problems.empty())
    throw bank::BankErrors(std::move(problems));
  const Report report = prove(banks, runner, options.mutate);
  std::string rendered;
  if (options.format == "json") {
    rendered = json_report(report, options.mutate);
  } else if (options.format == "junit") {
    rendered = junit_report(report);
  } else {
    rendered = text_report(report, options.output_path.empty() ? context.theme : Theme::plain(),
                           options.mutate);
  }
  write_output(options.output_path, rendered, context.io);

  const int failed = count(report, bank::Status::failed);
  const int unproven = count(report, bank::Status::unproven);
  const double verified_share =
      100.0 * count(report, bank::Status::verified) / static_cast<double>(report.verdicts.size());
  std::vector<std::string> reasons;
  if (failed > 0) reasons.push_back(fmt::format("{} failed", failed));
  if (const std::size_t survived = survivors(report); survived > 0) {
    reasons.push_back(fmt::format("{} mutation{} survived", survived, survived == 1 ? "" : "s"));
  }
  if (options.strict && unproven > 0)
    reasons.push_back(fmt::format("{} unproven (--strict)", unproven));
  if (verified_share < options.min_verified) {
    reasons.push_back(fmt::format("{:.1f}% verified, below --min-verified {}", verified_share,
                                  options.min_verified));
  }
  if (!reasons.empty()) {
    std::string joined;
    for (const std::string& reason : reasons)
      joined += (joined.empty() ? "" : "; ") + reason;
    throw Error("check.failed", fmt::format("check failed: {}", joined), ExitCode::check_failed);
  }
}

}  // namespace

void setup_check(CLI::App& app, const std::function<Context()>& context) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* check = app.add_subcommand(
      "check", "Validate the question banks and prove every answer key by computation (CI)");
  check->add_option("--format", options->format, "text, json or junit (JUnit XML for CI)")
      ->check(CLI::IsMember({"text", "json", "junit"}))
      ->capture_default_str();
  check->add_option("-o,--output", options->output_path,
                    "Write the report to FILE instead of standard output");
  check
      ->add_option("--min-verified", options->min_verified,
                   "Fail when fewer than PCT percent of the keys are verified")
      ->check(CLI::Range(0.0, 100.0));
  check->add_flag("--strict", options->strict, "Count unproven questions as failures");
  check->add_flag("--mutate", options->mutate,
                  "Swap each verified key for every wrong alternative; fail if any is not caught");
  check->footer(
      "Each question gets one status: verified (a wrong key would fail the computation),\n"
      "supported (the proof holds but would not catch a wrong key), unproven (no proof) or\n"
      "failed. Exit 1 when any question fails (or a --strict / --min-verified rule is broken),\n"
      "2 when a bank is invalid. Banks: the built-in ones, plus --bank FILE|DIR.");
  check->callback([options, context] {
    Context ctx = context();
    run_check(*options, ctx);
  });
}

}  // namespace proofdeck::cli
