// The check subcommand: load, prove, report as text, JSON or JUnit XML, exit 1 on any failure.
#include "cli/check_cmd.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string_view>
#include <thread>

#include <fmt/color.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/check.hpp"
#include "bank/coverage.hpp"
#include "bank/fault_check.hpp"
#include "bank/instance.hpp"
#include "bank/lint.hpp"
#include "bank/loader.hpp"
#include "bank/proof.hpp"
#include "bank/sources.hpp"
#include "cli/check_cues.hpp"
#include "cli/check_forms.hpp"
#include "cli/fault_list.hpp"
#include "cli/validators.hpp"
#include "core/errors.hpp"
#include "core/heap.hpp"
#include "core/json_input.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::cli {

namespace {

struct CheckOptions {
  std::string format = "text";  // text | json | junit
  std::string output_path;      // --output FILE
  double min_verified = 0.0;    // --min-verified PCT: fail below this share of verified keys
  bool strict = false;  // --strict: lint findings and unproven questions without a reason fail
  bool mutate = false;  // --mutate: swap verified keys for wrong ones; all must be caught
  bool lint = false;    // --lint: item-writing rules (bank/lint.hpp)
  bool cues = false;    // --cues: with --lint, each test-wise strategy against chance
  bool engine_faults = false;        // --engine-faults: every proof under every engine fault
  std::vector<std::string> sources;  // --source FILE: the lessons quotes and sections come from
  bool coverage = false;     // --coverage: the lessons' paragraphs and the objectives that ask them
  bool list_faults = false;  // --list-faults: print the engine faults and check nothing
  int forms = 0;             // --forms N: draw N quiz and exam forms per scope, check nothing else
};

// "¶3 (line 9)": a paragraph as the reports name it.
std::string paragraph_name(const bank::LessonParagraph& p) {
  return fmt::format("¶{} (line {})", p.number, p.line);
}

// Every claim-bearing paragraph with the objectives that ask it, out of scope with the reason,
// or uncovered.
std::string coverage_text(const bank::LessonCoverage& coverage, const Theme& theme, bool strict,
                          int width) {
  std::string text;
  const std::size_t uncovered = coverage.uncovered();
  const auto out_of_scope = static_cast<std::size_t>(
      std::count_if(coverage.paragraphs.begin(), coverage.paragraphs.end(),
                    [](const bank::LessonParagraph& p) { return p.out_of_scope.has_value(); }));
  text += text::wrap_block(
      fmt::format("coverage of {}: {} claim-bearing paragraphs, {} asked by an objective, {} out "
                  "of scope, {} uncovered{}",
                  coverage.lesson, coverage.paragraphs.size(),
                  coverage.paragraphs.size() - uncovered - out_of_scope, out_of_scope, uncovered,
                  uncovered > 0 && coverage.waiver
                      ? fmt::format(" (waived by {}: {})", coverage.bank,
                                    text::terminal_safe(*coverage.waiver))
                      : ""),
      width, "", "  ");
  for (const bank::LessonParagraph& p : coverage.paragraphs) {
    const std::string excerpt = text::truncate(text::terminal_safe(p.text), 48);
    if (!p.objectives.empty()) {
      text += text::wrap_block(
          fmt::format("{} {} — {}", paragraph_name(p), excerpt, fmt::join(p.objectives, ", ")),
          width, "  ", "      ");
    } else if (p.out_of_scope) {
      text += text::wrap_block(
          fmt::format("{} {} — out of scope ({}, {}): {}", paragraph_name(p), excerpt,
                      p.out_of_scope_bank, bank::out_of_scope_reason_name(p.out_of_scope->reason),
                      text::terminal_safe(p.out_of_scope->note.empty() ? p.out_of_scope->correction
                                                                       : p.out_of_scope->note)),
          width, "  ", "      ");
    } else {
      text += wrap_labelled("uncovered", strict && !coverage.waiver ? theme.bad : theme.warning,
                            fmt::format("{} {}: no objective quotes it and no bank lists it as out "
                                        "of scope",
                                        paragraph_name(p), excerpt),
                            width);
    }
  }
  return text;
}

nlohmann::ordered_json coverage_json(const bank::LessonCoverage& coverage) {
  nlohmann::ordered_json paragraphs = nlohmann::ordered_json::array();
  for (const bank::LessonParagraph& p : coverage.paragraphs) {
    nlohmann::ordered_json scope = nullptr;
    if (p.out_of_scope) {
      scope = {{"bank", p.out_of_scope_bank},
               {"reason", bank::out_of_scope_reason_name(p.out_of_scope->reason)}};
      for (const auto& [key, value] : {std::pair{"note", &p.out_of_scope->note},
                                       std::pair{"correction", &p.out_of_scope->correction},
                                       std::pair{"reference", &p.out_of_scope->reference}}) {
        if (!value->empty()) scope[key] = *value;
      }
    }
    paragraphs.push_back({{"paragraph", p.number},
                          {"line", p.line},
                          {"text", p.text},
                          {"objectives", p.objectives},
                          {"out_of_scope", std::move(scope)},
                          {"covered", !p.objectives.empty() || p.out_of_scope.has_value()}});
  }
  return {{"lesson", coverage.lesson},
          {"bank", coverage.bank},
          {"paragraphs", std::move(paragraphs)},
          {"uncovered", coverage.uncovered()},
          {"waiver", coverage.waiver ? nlohmann::ordered_json(*coverage.waiver)
                                     : nlohmann::ordered_json(nullptr)}};
}

// A testcase per paragraph: passing when an objective asks it or a bank puts it out of scope;
// an uncovered one fails under --strict (unless the bank waives it) and is skipped otherwise.
std::string coverage_junit(const bank::LessonCoverage& coverage, bool strict) {
  const std::size_t uncovered = coverage.uncovered();
  const bool failing = strict && !coverage.waiver;
  std::string xml = fmt::format(
      "  <testsuite name=\"coverage {}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
      text::markup_escape(coverage.lesson), coverage.paragraphs.size(), failing ? uncovered : 0,
      failing ? 0 : uncovered);
  for (const bank::LessonParagraph& p : coverage.paragraphs) {
    const std::string name = text::markup_escape(paragraph_name(p));
    if (!p.objectives.empty() || p.out_of_scope) {
      xml += fmt::format("    <testcase classname=\"{}\" name=\"{}\"/>\n",
                         text::markup_escape(coverage.lesson), name);
    } else {
      xml += fmt::format(
          "    <testcase classname=\"{}\" name=\"{}\"><{} message=\"no objective quotes it and no "
          "bank lists it as out of scope: {}\"/></testcase>\n",
          text::markup_escape(coverage.lesson), name, failing ? "failure" : "skipped",
          text::markup_escape(text::truncate(p.text, 80)));
    }
  }
  return xml + "  </testsuite>\n";
}

// The fault × questions table, the faults no question catches, and the verified keys no fault
// confirms.
std::string faults_text(const bank::FaultReport& faults, const Theme& theme, bool strict,
                        int width) {
  std::string text;
  const std::vector<std::string> unconfirmed = bank::unconfirmed_verified(faults);
  std::size_t verified = 0;
  for (const bank::QuestionFaults& q : faults.questions)
    verified += q.status == bank::Status::verified ? 1 : 0;
  text += text::wrap_block(
      fmt::format("engine faults: {} faults, {} demo runs in {:.2f} s; {} of {} verified keys "
                  "caught by a fault that is not broad",
                  faults.faults.size(), faults.runs, faults.seconds, verified - unconfirmed.size(),
                  verified),
      width, "", "  ");
  // One entry per fault that changes a verdict: its name, how many questions, then the
  // questions, continuing under a deeper indent. The faults no question notices, and those whose
  // op no proof reaches, are named on a line each.
  std::vector<std::string> unnoticed, unreached;
  text += "  fault (how many): the questions whose verdict it changes\n";
  for (const bank::FaultTally& tally : faults.faults) {
    const std::string name(engine::fault_info(tally.fault).name);
    if (tally.runs == 0) {
      unreached.push_back(name);
      continue;
    }
    if (tally.questions.empty()) {
      unnoticed.push_back(name);
      continue;
    }
    std::string notes;
    if (tally.broad) notes += ", broad";
    if (tally.broken > 0) notes += fmt::format(", {} of {} runs broken", tally.broken, tally.runs);
    text += text::wrap_block(fmt::format("{} ({}{}): {}", name, tally.questions.size(), notes,
                                         fmt::join(tally.questions, ", ")),
                             width, "  ", "      ");
  }
  if (!unnoticed.empty()) {
    text += wrap_labelled(
        "unnoticed", theme.warning,
        fmt::format("no question's verdict changes under {}", fmt::join(unnoticed, ", ")), width);
  }
  if (!unreached.empty()) {
    text += wrap_labelled("unreached", theme.dim,
                          fmt::format("no proof reaches the op of {}", fmt::join(unreached, ", ")),
                          width);
  }
  std::vector<std::string> fragile, broken;
  for (const bank::QuestionFaults& q : faults.questions) {
    if (q.fragile) fragile.push_back(q.id);
    if (!q.broken_by.empty())
      broken.push_back(fmt::format("{} ({})", q.id, fmt::join(q.broken_by, ", ")));
  }
  if (!fragile.empty()) {
    text += wrap_labelled("fragile", theme.warning,
                          fmt::format("the verdict changes with the seed alone (seeds {}): {}",
                                      "0, 1, 2", fmt::join(fragile, ", ")),
                          width);
  }
  if (!broken.empty()) {
    text += wrap_labelled("broken", theme.warning,
                          fmt::format("a run broke under a fault (threw, took over {:.0f} s or "
                                      "gave NaN/Inf): {}",
                                      bank::kFaultRunSeconds, fmt::join(broken, "; ")),
                          width);
  }
  if (!unconfirmed.empty()) {
    text += wrap_labelled(
        "uncaught", strict ? theme.bad : theme.warning,
        fmt::format("{} no fault catches{}: {}",
                    text::count(unconfirmed.size(), "verified key", "verified keys"),
                    strict ? "" : " (--strict fails them)", fmt::join(unconfirmed, ", ")),
        width);
  }
  if (!faults.unmoved_engine_values.empty()) {
    text += text::wrap_block(
        fmt::format("{} measured or counted values no fault moves (listed in --format json: "
                    "summary.engine_faults.unmoved_engine_values)",
                    faults.unmoved_engine_values.size()),
        width, "", "  ");
  }
  return text;
}

std::string text_report(const bank::CheckReport& report, const Theme& theme, bool mutate, bool cues,
                        bool strict, int width) {
  std::string text;
  for (const bank::Mutation& m : report.mutations) {
    if (!m.killed) {
      text += wrap_labelled("SURVIVED", theme.bad,
                            fmt::format("{}: {} was not caught", m.question, m.description), width);
    }
  }
  for (const bank::QuestionVerdict& v : report.verdicts) {
    if (v.status == bank::Status::failed) {
      text += wrap_labelled(
          "FAILED", theme.bad,
          fmt::format("{} ({}): {}", v.id, v.bank, text::terminal_safe(v.message)), width);
    } else if (v.status == bank::Status::unproven) {
      text += wrap_labelled(
          "unproven", theme.warning,
          fmt::format("{} ({}): {}", v.id, v.bank, text::terminal_safe(v.message)), width);
    }
  }
  const int total = static_cast<int>(report.verdicts.size());
  const int verified = bank::count(report, bank::Status::verified);
  const int failed = bank::count(report, bank::Status::failed);
  std::string summary = text::wrap_block(
      fmt::format("{} questions: {} verified, {} computed, {} supported, {} unproven, {} failed "
                  "({} demo runs)",
                  total, verified, bank::count(report, bank::Status::computed),
                  bank::count(report, bank::Status::supported),
                  bank::count(report, bank::Status::unproven), failed,
                  report.coverage.at("demo_runs").get<std::size_t>()),
      width, "", "  ");
  // The two numbers that matter in colour, once the line breaks are decided.
  const auto paint = [&summary](const std::string& plain, const fmt::text_style& style) {
    const std::size_t at = summary.find(plain);
    if (at != std::string::npos) {
      const std::string number = plain.substr(0, plain.find(' '));
      summary.replace(at, number.size(), fmt::format(style, "{}", number));
    }
  };
  paint(fmt::format("{} failed", failed), failed > 0 ? theme.bad : theme.good);
  paint(fmt::format("{} verified", verified), theme.good);
  text += summary;
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
    const std::size_t caught = tried - bank::survivors(report);
    text += fmt::format(
        "mutations: {} of {} wrong keys caught (kill rate {:.1f}%)\n", caught, tried,
        tried == 0 ? 100.0 : 100.0 * static_cast<double>(caught) / static_cast<double>(tried));
  }
  const auto line = [width](const std::string& plain) {
    return text::wrap_block(plain, width, "", "  ");
  };
  text += line("questions per topic: " + list(report.coverage.at("questions_per_topic")));
  text += line("questions per trap: " + list(report.coverage.at("questions_per_trap")));
  text += line("traps without questions: " + names(report.coverage.at("traps_without_questions")));
  text += line("demos no question uses: " + names(report.coverage.at("demos_unused")));
  for (const auto& [bank_id, per_objective] :
       report.coverage.at("questions_per_objective").items()) {
    if (per_objective.empty()) continue;
    text += line(fmt::format("objectives in {}: {} — {}", bank_id, per_objective.size(),
                             list(per_objective)));
  }
  for (const bank::SourceProblem& problem : report.sources) {
    text += wrap_labelled("SOURCE", theme.bad,
                          fmt::format("{}: {}", problem.bank, text::terminal_safe(problem.message)),
                          width);
  }
  for (const bank::LessonCoverage& coverage : report.lessons)
    text += coverage_text(coverage, theme, strict, width);
  if (report.lint) {
    const auto place = [](const std::string& bank_id, const std::string& id) {
      return id.empty() ? bank_id : fmt::format("{} ({})", id, bank_id);
    };
    for (const bank::LintFinding& finding : report.lint->findings) {
      text += wrap_labelled("lint", strict ? theme.bad : theme.warning,
                            fmt::format("{} {}: {}", finding.rule, place(finding.bank, finding.id),
                                        text::terminal_safe(finding.message)),
                            width);
    }
    for (const bank::LintWaiverUse& waiver : report.lint->waivers) {
      text += wrap_labelled(
          "waived", theme.dim,
          fmt::format("{} {}: {} ({} waived)", waiver.rule, place(waiver.bank, waiver.id),
                      text::terminal_safe(waiver.reason),
                      text::count(waiver.waived, "finding", "findings")),
          width);
    }
    if (cues) text += cues_text(report.lint->cues, theme, width);
    const std::size_t findings = report.lint->findings.size();
    // "lint:" is one word, so the count right after it is always on the first line.
    const std::string count_text = text::format_number(static_cast<double>(findings));
    std::string lint_line = text::wrap_block(
        fmt::format("lint: {}{}, {}", text::count(findings, "finding", "findings"),
                    findings > 0 && !strict ? " (warnings; --strict fails them)" : "",
                    text::count(report.lint->waivers.size(), "waiver", "waivers")),
        width, "", "  ");
    lint_line.replace(6, count_text.size(),
                      fmt::format(findings > 0 ? theme.warning : theme.good, "{}", count_text));
    text += lint_line;
  }
  return text;
}

std::string json_report(const bank::CheckReport& report, bool mutate, bool cues,
                        const std::optional<bank::FaultReport>& faults) {
  std::map<std::string, const bank::QuestionFaults*> by_question;
  if (faults) {
    for (const bank::QuestionFaults& q : faults->questions)
      by_question[q.bank + "\n" + q.id] = &q;
  }
  nlohmann::ordered_json questions = nlohmann::ordered_json::array();
  for (const bank::QuestionVerdict& v : report.verdicts) {
    nlohmann::ordered_json question = {{"id", v.id},
                                       {"bank", v.bank},
                                       {"status", std::string(bank::status_name(v.status))},
                                       {"message", v.message}};
    if (faults) {
      const auto it = by_question.find(v.bank + "\n" + v.id);
      const bank::QuestionFaults* q = it == by_question.end() ? nullptr : it->second;
      question["faults_caught"] = q ? q->caught_by : std::vector<std::string>{};
      question["confirmed"] = q != nullptr && q->confirmed;
      question["fragile"] = q != nullptr && q->fragile;
      question["broken_by_fault"] = q ? q->broken_by : std::vector<std::string>{};
      nlohmann::ordered_json claims = nlohmann::ordered_json::array();
      if (q) {
        for (const bank::ClaimFaults& claim : q->claims) {
          claims.push_back(
              {{"option", claim.option}, {"keyed", claim.keyed}, {"faults_caught", claim.faults}});
        }
      }
      question["options"] = std::move(claims);
    }
    questions.push_back(std::move(question));
  }
  nlohmann::ordered_json json;
  json["summary"] = {{"questions", report.verdicts.size()},
                     {"verified", bank::count(report, bank::Status::verified)},
                     {"computed", bank::count(report, bank::Status::computed)},
                     {"supported", bank::count(report, bank::Status::supported)},
                     {"unproven", bank::count(report, bank::Status::unproven)},
                     {"failed", bank::count(report, bank::Status::failed)}};
  if (mutate) {
    json["summary"]["mutations"] = report.mutations.size();
    json["summary"]["mutations_killed"] = report.mutations.size() - bank::survivors(report);
    nlohmann::ordered_json survived = nlohmann::ordered_json::array();
    for (const bank::Mutation& m : report.mutations) {
      if (!m.killed) survived.push_back({{"id", m.question}, {"mutation", m.description}});
    }
    json["summary"]["survivors"] = std::move(survived);
  }
  if (faults) {
    nlohmann::ordered_json per_fault = nlohmann::ordered_json::array();
    for (const bank::FaultTally& tally : faults->faults) {
      const engine::FaultInfo& info = engine::fault_info(tally.fault);
      const std::string breaks = info.trap.empty() ? std::string(info.claim)
                                                   : fmt::format("{}: {}", info.trap, info.claim);
      per_fault.push_back({{"fault", info.name},
                           {"op", engine::op_name(info.op)},
                           {"change", info.change},
                           {"breaks", breaks},
                           {"runs", tally.runs},
                           {"broken", tally.broken},
                           {"keys_caught", tally.caught},
                           {"broad", tally.broad},
                           {"questions", tally.questions}});
    }
    json["summary"]["engine_faults"] = {
        {"faults", faults->faults.size()},
        {"runs", faults->runs},
        {"seconds", faults->seconds},
        {"proved_keys", faults->proved},
        {"unconfirmed_verified", bank::unconfirmed_verified(*faults)},
        {"unmoved_engine_values", faults->unmoved_engine_values},
        {"per_fault", std::move(per_fault)}};
  }
  json["coverage"] = report.coverage;
  json["questions"] = std::move(questions);
  const auto id_or_null = [](const std::string& id) {
    return id.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(id);
  };
  if (report.lint) {
    nlohmann::ordered_json findings = nlohmann::ordered_json::array();
    for (const bank::LintFinding& f : report.lint->findings) {
      findings.push_back(
          {{"id", id_or_null(f.id)}, {"bank", f.bank}, {"rule", f.rule}, {"message", f.message}});
    }
    nlohmann::ordered_json waivers = nlohmann::ordered_json::array();
    for (const bank::LintWaiverUse& w : report.lint->waivers) {
      waivers.push_back({{"id", id_or_null(w.id)},
                         {"bank", w.bank},
                         {"rule", w.rule},
                         {"reason", w.reason},
                         {"waived", w.waived}});
    }
    json["lint"] = std::move(findings);
    json["lint_waivers"] = std::move(waivers);
    if (cues) json["cues"] = cues_json(report.lint->cues);
  }
  if (!report.sources.empty()) {
    nlohmann::ordered_json sources = nlohmann::ordered_json::array();
    for (const bank::SourceProblem& p : report.sources)
      sources.push_back({{"id", id_or_null(p.id)}, {"bank", p.bank}, {"message", p.message}});
    json["sources"] = std::move(sources);
  }
  if (!report.lessons.empty()) {
    nlohmann::ordered_json lessons = nlohmann::ordered_json::array();
    for (const bank::LessonCoverage& coverage : report.lessons)
      lessons.push_back(coverage_json(coverage));
    json["lesson_coverage"] = std::move(lessons);
  }
  return json.dump(2) + "\n";
}

std::string junit_report(const bank::CheckReport& report, bool strict,
                         const std::optional<bank::FaultReport>& faults) {
  // One testsuite per bank, one testcase per question; unproven questions are skipped.
  std::map<std::string, std::vector<const bank::QuestionVerdict*>> by_bank;
  for (const bank::QuestionVerdict& v : report.verdicts)
    by_bank[v.bank].push_back(&v);
  std::string xml = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"proofdeck check\" "
      "tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
      report.verdicts.size(), bank::count(report, bank::Status::failed),
      bank::count(report, bank::Status::unproven));
  for (const auto& [bank_id, verdicts] : by_bank) {
    int failures = 0, skipped = 0;
    for (const auto* v : verdicts) {
      failures += v->status == bank::Status::failed;
      skipped += v->status == bank::Status::unproven;
    }
    xml += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
                       text::markup_escape(bank_id), verdicts.size(), failures, skipped);
    for (const auto* v : verdicts) {
      xml += fmt::format("    <testcase classname=\"{}\" name=\"{}\">",
                         text::markup_escape(bank_id), text::markup_escape(v->id));
      if (v->status == bank::Status::failed) {
        xml += fmt::format("<failure message=\"{}\"/>", text::markup_escape(v->message));
      } else if (v->status == bank::Status::unproven) {
        xml += fmt::format("<skipped message=\"{}\"/>", text::markup_escape(v->message));
      } else {
        xml += fmt::format("<system-out>{}: {}</system-out>", bank::status_name(v->status),
                           text::markup_escape(v->message));
      }
      xml += "</testcase>\n";
    }
    xml += "  </testsuite>\n";
  }
  // Lint findings and source problems as their own suites: a finding is a failure under
  // --strict and a skipped case (a warning) otherwise; waivers are passing cases that say so.
  if (report.lint) {
    const auto& lint = *report.lint;
    const std::size_t failures = strict ? lint.findings.size() : 0;
    xml += fmt::format("  <testsuite name=\"lint\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
                       lint.findings.size() + lint.waivers.size(), failures,
                       lint.findings.size() - failures);
    for (const bank::LintFinding& f : lint.findings) {
      xml += fmt::format(
          "    <testcase classname=\"{}\" name=\"{} {}\"><{} message=\"{}\"/>"
          "</testcase>\n",
          text::markup_escape(f.bank), text::markup_escape(f.rule),
          text::markup_escape(f.id.empty() ? f.bank : f.id), strict ? "failure" : "skipped",
          text::markup_escape(f.message));
    }
    for (const bank::LintWaiverUse& w : lint.waivers) {
      xml += fmt::format(
          "    <testcase classname=\"{}\" name=\"{} {}\"><system-out>waived: {}"
          "</system-out></testcase>\n",
          text::markup_escape(w.bank), text::markup_escape(w.rule),
          text::markup_escape(w.id.empty() ? w.bank : w.id), text::markup_escape(w.reason));
    }
    xml += "  </testsuite>\n";
  }
  // Engine faults: a passing case per fault naming what it catches; each verified key no fault
  // catches a failure under --strict and a skipped case (a warning) otherwise.
  if (faults) {
    const std::vector<std::string> uncaught = bank::unconfirmed_verified(*faults);
    const std::size_t failures = strict ? uncaught.size() : 0;
    xml += fmt::format(
        "  <testsuite name=\"engine-faults\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
        faults->faults.size() + uncaught.size(), failures, uncaught.size() - failures);
    for (const bank::FaultTally& tally : faults->faults) {
      xml += fmt::format(
          "    <testcase classname=\"engine-faults\" name=\"{}\"><system-out>{} key{} caught: "
          "{}</system-out></testcase>\n",
          text::markup_escape(engine::fault_info(tally.fault).name), tally.caught,
          tally.caught == 1 ? "" : "s",
          text::markup_escape(fmt::format("{}", fmt::join(tally.questions, ", "))));
    }
    for (const std::string& id : uncaught) {
      xml += fmt::format(
          "    <testcase classname=\"engine-faults\" name=\"uncaught {}\"><{} message=\"no "
          "engine fault catches this verified key\"/></testcase>\n",
          text::markup_escape(id), strict ? "failure" : "skipped");
    }
    xml += "  </testsuite>\n";
  }
  if (!report.sources.empty()) {
    xml += fmt::format("  <testsuite name=\"sources\" tests=\"{0}\" failures=\"{0}\">\n",
                       report.sources.size());
    for (const bank::SourceProblem& p : report.sources) {
      xml += fmt::format(
          "    <testcase classname=\"{}\" name=\"source {}\"><failure "
          "message=\"{}\"/></testcase>\n",
          text::markup_escape(p.bank), text::markup_escape(p.id.empty() ? p.bank : p.id),
          text::markup_escape(p.message));
    }
    xml += "  </testsuite>\n";
  }
  for (const bank::LessonCoverage& coverage : report.lessons)
    xml += coverage_junit(coverage, strict);
  return xml + "</testsuites>\n";
}

void run_check(const CheckOptions& options, Context& context) {
  if (options.cues && !options.lint) {
    throw InputError("check.cues",
                     "--cues shows what the lint's testwise-cue rule measured: give it with --lint "
                     "(check --lint --cues)");
  }
  if (options.coverage && options.sources.empty()) {
    throw InputError("check.coverage",
                     "--coverage lists which paragraphs of a lesson the objectives ask: give the "
                     "lesson with --source FILE");
  }
  keep_freed_memory();  // demo runs allocate and free large matrices: see heap.hpp
  bank::DemoRunner runner = bank::proof_runner(context.global.seed);
  const std::vector<bank::Bank> banks = bank::load_banks(
      bank::BankSources{context.global.banks, !context.global.no_builtin},
      bank::ProofCheck{.runner = runner,
                       .builtin = true,
                       .threads = std::max(1u, std::thread::hardware_concurrency())});
  std::size_t questions = 0;
  for (const bank::Bank& b : banks)
    questions += b.questions.size();
  if (questions == 0) {
    throw InputError("check.empty",
                     banks.empty() ? "no questions to check: no bank was loaded (give one with "
                                     "--bank FILE or DIR)"
                                   : "no questions to check: the loaded banks hold none");
  }
  bank::CheckReport report = bank::prove(banks, runner, options.mutate);
  std::optional<bank::FaultReport> faults;
  if (options.engine_faults) {
    faults = bank::check_engine_faults(banks, runner, context.global.seed,
                                       std::max(1u, std::thread::hardware_concurrency()));
  }
  if (options.lint) report.lint = bank::lint(banks, &runner);
  for (const std::string& path : options.sources) {
    const std::string lesson = read_text_file(path, 16u << 20, context.io.in);
    const std::string name = std::filesystem::path(path).stem().string();
    if (std::none_of(banks.begin(), banks.end(),
                     [&](const bank::Bank& b) { return b.lesson == name; })) {
      std::string lessons;
      for (const bank::Bank& b : banks)
        lessons += fmt::format("{}'{}' ({})", lessons.empty() ? "" : ", ", b.lesson, b.id);
      throw InputError("check.source",
                       fmt::format("--source {}: no loaded bank is keyed to lesson '{}' (the "
                                   "file's name without its extension); the banks' lessons: {}",
                                   path, name, lessons));
    }
    for (bank::SourceProblem& problem : bank::check_sources(banks, name, lesson))
      report.sources.push_back(std::move(problem));
    if (options.coverage) {
      bank::LessonCoverage coverage = bank::lesson_coverage(banks, name, lesson);
      coverage.waiver = bank::uncovered_waiver(banks, coverage);
      for (const std::string& problem : coverage.problems)
        report.sources.push_back(bank::SourceProblem{"", coverage.bank, problem});
      report.lessons.push_back(std::move(coverage));
    }
  }
  std::string rendered;
  if (options.format == "json") {
    rendered = json_report(report, options.mutate, options.cues, faults);
  } else if (options.format == "junit") {
    rendered = junit_report(report, options.strict, faults);
  } else {
    const Theme& theme = options.output_path.empty() ? context.theme : Theme::plain();
    rendered = text_report(report, theme, options.mutate, options.cues, options.strict,
                           text_width(context));
    if (faults) rendered += faults_text(*faults, theme, options.strict, text_width(context));
  }
  write_output(options.output_path, rendered, context.io);

  const int failed = bank::count(report, bank::Status::failed);
  const double verified_share = 100.0 * bank::count(report, bank::Status::verified) /
                                static_cast<double>(report.verdicts.size());
  std::vector<std::string> reasons;
  if (failed > 0) reasons.push_back(fmt::format("{} failed", failed));
  if (const std::size_t survived = bank::survivors(report); survived > 0) {
    reasons.push_back(text::count(survived, "mutation", "mutations") + " survived");
  }
  if (options.strict && report.unproven_without_reason > 0) {
    reasons.push_back(fmt::format("{} unproven with no `unprovable` reason (--strict)",
                                  report.unproven_without_reason));
  }
  if (!report.sources.empty()) {
    reasons.push_back(text::count(report.sources.size(), "source problem", "source problems"));
  }
  if (options.strict) {
    std::size_t uncovered = 0;
    for (const bank::LessonCoverage& coverage : report.lessons)
      uncovered += coverage.waiver ? 0 : coverage.uncovered();
    if (uncovered > 0) {
      reasons.push_back(text::count(uncovered, "lesson paragraph", "lesson paragraphs") +
                        " no objective asks (--strict --coverage)");
    }
  }
  if (options.strict && report.lint && !report.lint->findings.empty()) {
    reasons.push_back(text::count(report.lint->findings.size(), "lint finding", "lint findings") +
                      " (--strict)");
  }
  if (faults && options.strict) {
    if (const std::size_t uncaught = bank::unconfirmed_verified(*faults).size(); uncaught > 0) {
      reasons.push_back(text::count(uncaught, "verified key", "verified keys") +
                        " no engine fault catches (--strict --engine-faults)");
    }
  }
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

// A mode of check that checks nothing else (--list-faults, --forms): an option that would check
// something beside it is a usage error rather than silently ignored, so a CI line that asks for
// a check never passes without running one; and the mode prints text or json, not junit.
// `does`: what the mode does instead ("lists the engine faults and checks nothing"); `then`:
// what to run instead.
void refuse_beside(const CheckOptions& options, const CLI::App& check, const std::string& mode,
                   std::string_view does, std::string_view then) {
  std::vector<std::string> given;
  for (const char* name : {"--strict", "--lint", "--cues", "--mutate", "--engine-faults",
                           "--source", "--coverage", "--min-verified", "--forms"}) {
    if (name != mode && check.count(name) > 0) given.emplace_back(name);
  }
  const std::string code = "check." + mode.substr(2);
  if (!given.empty()) {
    throw InputError(code, fmt::format("{} {}, so it takes no {}: {}", mode, does,
                                       fmt::join(given, " or "), then));
  }
  if (options.format == "junit") {
    throw InputError(
        code, fmt::format("{} prints text or json, not junit: give --format text or json", mode));
  }
}

// --list-faults: the catalog, and nothing checked.
void run_list_faults(const CheckOptions& options, const CLI::App& check, Context& context) {
  refuse_beside(options, check, "--list-faults", "lists the engine faults and checks nothing",
                "run the check without --list-faults");
  if (options.format == "json") {
    write_output(options.output_path, fault_list_json().dump(2) + "\n", context.io);
    return;
  }
  const Theme& theme = options.output_path.empty() ? context.theme : Theme::plain();
  write_output(options.output_path, fault_list_text(theme, text_width(context), context.program),
               context.io);
}

// --forms N: the forms, and nothing else checked.
void run_forms(const CheckOptions& options, const CLI::App& check, Context& context) {
  refuse_beside(options, check, "--forms", "draws forms and checks nothing else",
                "run the two checks one after the other");
  run_check_forms(options.forms, options.format, options.output_path, context);
}

}  // namespace

void setup_check(CLI::App& app, const std::function<Context()>& context) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* check = app.add_subcommand(
      "check", "Validate the question banks and prove every answer key by computation (CI)");
  check->add_option("--format", options->format, "text, json or junit (JUnit XML for CI)")
      ->check(one_of({"text", "json", "junit"}))
      ->capture_default_str();
  check->add_option("-o,--output", options->output_path,
                    "Write the report to FILE instead of standard output");
  check
      ->add_option("--min-verified", options->min_verified,
                   "Fail when fewer than PCT percent of the keys are verified")
      ->check(number(0, 100));
  check->add_flag("--strict", options->strict,
                  "Fail on lint findings and on questions with no proof and no `unprovable` "
                  "reason");
  check->add_flag("--lint", options->lint,
                  "Report item-writing flaws (few options, a longest key, answers in the stem, "
                  "…: questions/README.md)");
  check->add_flag("--cues", options->cues,
                  "With --lint: what a test-wise candidate earns with each strategy (the longest, "
                  "the second-longest or the middle option, the one echoing the stem or the "
                  "others, absolutes, hedges, digits; longer-is-true on true/false) against "
                  "guessing, per bank, with its p; the json report gains \"cues\"");
  check
      ->add_option("--source", options->sources,
                   "Check that the quotes and sections the banks keyed to this lesson cite "
                   "appear in FILE (repeatable)")
      ->type_name("FILE");
  check->add_flag("--coverage", options->coverage,
                  "With --source: list each claim-bearing paragraph of the lesson with the "
                  "objectives that quote it; --strict fails a paragraph none asks unless a bank's "
                  "out_of_scope says why");
  check->add_flag("--mutate", options->mutate,
                  "Swap each verified key for every wrong alternative; fail if any is not caught");
  check->add_flag("--engine-faults", options->engine_faults,
                  "Run every proof under every engine fault (a named break of one mechanism: no "
                  "1/√d_k scaling, a causal mask off by one, …) and report which keys notice; "
                  "with --strict, fail when a verified key is caught by none");
  check->add_flag("--list-faults", options->list_faults,
                  "List the engine faults --engine-faults runs (name, the op it breaks, what it "
                  "changes, the trap it models, whether it is subtle) and check nothing; with "
                  "--format json, as {\"faults\": [...]}");
  check
      ->add_option("--forms", options->forms,
                   "Draw N quiz forms and N exam forms of 20 (seeds 0 to N−1) for each bank and "
                   "for all together, and fail when any asks one fact twice (one objective, or a "
                   "same_fact_as pair); checks nothing else")
      ->type_name("N")
      ->check(CLI::Range(1, 100000));
  check->footer(
      "Each question gets one status: verified (a wrong key would fail a computation the engine "
      "measured or counted), computed (a wrong key would fail, but only arithmetic on the "
      "parameters pins it), supported (the proof holds but would not catch a wrong key), "
      "unproven (no proof) or failed. --min-verified counts verified keys only. --lint adds "
      "item-writing findings (warnings; --strict fails them); a question "
      "may waive a rule with \"lint_allow\": [{\"rule\", \"reason\"}], listed in every report. "
      "Exit 1 when any question fails (or a --strict, --source or --min-verified rule is "
      "broken), 2 when a bank is invalid. Banks: the built-in ones, plus --bank FILE|DIR.");
  check->callback([options, context, check] {
    Context ctx = context();
    if (options->list_faults) {
      run_list_faults(*options, *check, ctx);
      return;
    }
    if (options->forms > 0) {
      run_forms(*options, *check, ctx);
      return;
    }
    run_check(*options, ctx);
  });
}

}  // namespace proofdeck::cli
