// proofdeck_readiness_sim: simulated learners against stats' readiness (tests/readiness_sim.hpp),
// printed as docs/readiness.md's tables. scripts/readiness runs it with 2,000 learners a
// configuration.
//
//   proofdeck_readiness_sim [--learners N] [--threads T] [--config NAME]...
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "bank/sources.hpp"
#include "readiness_sim.hpp"

int main(int argc, char** argv) {
  int learners = 200;
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << arg << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--learners") {
      learners = std::stoi(value());
    } else if (arg == "--threads") {
      threads = std::stoi(value());
    } else if (arg == "--config") {
      names.push_back(value());
    } else {
      std::cerr
          << "usage: proofdeck_readiness_sim [--learners N] [--threads T] [--config NAME]...\n";
      return 2;
    }
  }
  if (names.empty()) {
    for (const readiness_sim::Config& config : readiness_sim::configurations())
      names.push_back(config.name);
  }
  const auto banks = proofdeck::bank::load_banks(proofdeck::bank::BankSources{{}, true});
  std::vector<readiness_sim::Summary> summaries;
  for (const std::string& name : names) {
    const auto started = std::chrono::steady_clock::now();
    const auto observations =
        readiness_sim::simulate(readiness_sim::configuration(name), banks, learners, threads);
    summaries.push_back(readiness_sim::summarize(name, observations));
    std::cerr << fmt::format(
        "{}: {} learners in {:.0f} s\n", name, learners,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  }
  std::cout << readiness_sim::markdown(summaries, learners);
  return 0;
}
