// proofdeck_class_sim: a simulated class's exam reports for one form (tests/class_sim.hpp), for
// docs/instructors.md's sample output and for timing `proofdeck analyze`. The form is the one a
// real exam report drew; the first three single-choice questions of it get the planted faults
// (a wrong key, a distractor the strong learners prefer, one everyone gets right).
//
//   proofdeck_class_sim --form REPORT.json --out DIR [--learners N] [--seed S]
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bank/builtin.hpp"
#include "bank/loader.hpp"
#include "class_sim.hpp"

namespace {

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << problem
            << "\nusage: proofdeck_class_sim --form REPORT.json --out DIR "
               "[--learners N] [--seed S]\n";
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace proofdeck;
  std::string form_path, out_dir;
  class_sim::ClassOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) usage(arg + " needs a value");
    const std::string value = argv[++i];
    if (arg == "--form") {
      form_path = value;
    } else if (arg == "--out") {
      out_dir = value;
    } else if (arg == "--learners") {
      options.learners = std::stoi(value);
    } else if (arg == "--seed") {
      options.seed = std::stoull(value);
    } else {
      usage("unknown option " + arg);
    }
  }
  if (form_path.empty() || out_dir.empty()) usage("--form and --out are required");

  std::vector<bank::Bank> banks;
  for (const auto& embedded : bank::builtin_banks())
    banks.push_back(bank::load_bank(embedded.text, std::string(embedded.name)));
  std::ifstream in(form_path);
  const nlohmann::json report = nlohmann::json::parse(in);
  options.form_seed = report.at("seed").get<std::uint64_t>();
  std::vector<const bank::Question*> form;
  std::map<std::string, class_sim::Plant> plants;
  const std::vector<class_sim::Plant> to_plant = {class_sim::Plant::wrong_key,
                                                  class_sim::Plant::upper_distractor,
                                                  class_sim::Plant::everyone_right};
  for (const auto& id : report.at("form")) {
    for (const auto& b : banks)
      for (const auto& q : b.questions)
        if (q.id == id.get<std::string>()) {
          form.push_back(&q);
          if (q.type == bank::QuestionType::single && plants.size() < to_plant.size())
            plants[q.id] = to_plant[plants.size()];
        }
  }
  std::filesystem::create_directories(out_dir);
  for (const auto& r : class_sim::simulate_class(form, plants, options, banks))
    std::ofstream(std::filesystem::path(out_dir) / r.path) << class_sim::report_json(r, banks);
  for (const auto& [id, plant] : plants)
    std::cerr << fmt::format("planted: {} {}\n", id,
                             plant == class_sim::Plant::wrong_key          ? "wrong key"
                             : plant == class_sim::Plant::upper_distractor ? "upper distractor"
                                                                           : "everyone right");
  return 0;
}
