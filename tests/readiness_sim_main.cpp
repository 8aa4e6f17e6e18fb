// proofdeck_readiness_sim: simulated learners against stats' readiness (tests/readiness_sim.hpp),
// printed as docs/readiness.md's tables; with --exam-plan, the exam plan against the ordinary
// schedule (tests/exam_plan_sim.hpp), and with --confidence, drilling with confidence against
// without (tests/confidence_sim.hpp; with --variants, each variant of it too), each printed as a
// table of docs/study.md. scripts/readiness runs it with 2,000 learners a configuration (1,000
// with --exam-plan or --confidence, 300 with --confidence --variants).
//
//   proofdeck_readiness_sim [--exam-plan | --confidence [--variants]] [--learners N]
//                           [--threads T] [--config NAME]...
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "bank/sources.hpp"
#include "confidence_sim.hpp"
#include "exam_plan_sim.hpp"
#include "readiness_sim.hpp"

int main(int argc, char** argv) {
  int learners = 200;
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::string> names;
  bool exam_plan = false;
  bool confidence = false;
  bool variants = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << arg << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--exam-plan") {
      exam_plan = true;
    } else if (arg == "--confidence") {
      confidence = true;
    } else if (arg == "--variants") {
      variants = true;
    } else if (arg == "--learners") {
      learners = std::stoi(value());
    } else if (arg == "--threads") {
      threads = std::stoi(value());
    } else if (arg == "--config") {
      names.push_back(value());
    } else {
      std::cerr << "usage: proofdeck_readiness_sim [--exam-plan | --confidence [--variants]] "
                   "[--learners N] "
                   "[--threads T] [--config NAME]...\n";
      return 2;
    }
  }
  if (names.empty()) {
    for (const readiness_sim::Config& config : readiness_sim::configurations())
      if ((!exam_plan && !confidence) || !config.dev) names.push_back(config.name);
  }
  const auto banks = proofdeck::bank::load_banks(proofdeck::bank::BankSources{{}, true});
  const auto seconds_since = [](auto started) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  if (exam_plan) {
    std::vector<std::pair<std::string, std::vector<readiness_sim::PlanPair>>> results;
    for (const std::string& name : names) {
      const auto started = std::chrono::steady_clock::now();
      results.emplace_back(name, readiness_sim::simulate_exam_plans(
                                     readiness_sim::configuration(name), banks, learners, threads));
      std::cerr << fmt::format("{}: {} paired learners in {:.0f} s\n", name, learners,
                               seconds_since(started));
    }
    std::cout << readiness_sim::exam_plan_markdown(results);
    return 0;
  }
  if (confidence) {
    std::vector<readiness_sim::ConfidenceRun> runs;
    for (const std::string& name : names) {
      for (const readiness_sim::ConfidenceVariant& variant : readiness_sim::confidence_variants()) {
        if (!variants && &variant != &readiness_sim::confidence_variants().front()) continue;
        const auto started = std::chrono::steady_clock::now();
        runs.push_back({name, variant.name,
                        readiness_sim::simulate_confidence(readiness_sim::configuration(name),
                                                           banks, learners, threads, variant)});
        std::cerr << fmt::format("{} ({}): {} paired learners in {:.0f} s\n", name, variant.name,
                                 learners, seconds_since(started));
      }
    }
    std::cout << readiness_sim::confidence_markdown(runs);
    return 0;
  }
  std::vector<readiness_sim::Summary> summaries;
  for (const std::string& name : names) {
    const auto started = std::chrono::steady_clock::now();
    const auto observations =
        readiness_sim::simulate(readiness_sim::configuration(name), banks, learners, threads);
    summaries.push_back(readiness_sim::summarize(name, observations));
    std::cerr << fmt::format("{}: {} learners in {:.0f} s\n", name, learners,
                             seconds_since(started));
  }
  std::cout << readiness_sim::markdown(summaries, learners);
  return 0;
}
