// libFuzzer target: an untrusted question bank through what `proofdeck check` does with it —
// read_bank (JSON, schema and semantic checks), then, for banks cheap enough to prove, the
// demo-backed checks (resolve_problems), every question's verification and, for verified ones,
// the wrong keys of `check --mutate`; for every bank that loads, what a quiz does with each
// question short of running its proof (the study phase below); and for a bank that does not, the
// demo-backed checks of the questions its problems leave checkable (the unloaded phase).
//
// Demos run the real engine under a budget of billions of multiply-adds, which under ASan is
// minutes; the demo phase must stay within a few seconds. No demo at its defaults takes more than
// about one second here, so each run is costed relative to its defaults: every integer parameter
// (a list by its sum) r times its default multiplies the cost by r² (most sizes enter squared:
// d_model in the weights, seq_len in attention); smaller values are not credited. The demo phase
// runs when the bank has at most kMaxProofs proofs and its distinct runs cost at most
// kMaxDemoCost default runs in all. Results are cached across inputs (the runner is seeded, so a
// cached result is the one a fresh run would give), which makes the seeds' runs free after the
// first. The loader itself runs on every input.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "asan_options.hpp"
#include "bank/coverage.hpp"
#include "bank/form.hpp"
#include "bank/lint.hpp"
#include "bank/loader.hpp"
#include "bank/proof.hpp"
#include "core/errors.hpp"
#include "demo/demo.hpp"
#include "engine/rng.hpp"
#include "render/theme.hpp"
#include "study/answer.hpp"
#include "study/input.hpp"
#include "study/session.hpp"

namespace {

using namespace proofdeck;

constexpr std::size_t kMaxProofs = 3;          // questions with a proof
constexpr double kMaxDemoCost = 6;             // in runs at the demos' defaults
constexpr std::size_t kMaxCachedRuns = 256;    // then the shared runner starts afresh
constexpr std::int64_t kMaxCombinations = 64;  // templates with more are not enumerated here

double magnitude(const nlohmann::json& value) {
  double sum = 0;
  if (value.is_number()) sum = std::fabs(value.get<double>());
  if (value.is_array()) {
    for (const auto& item : value)
      sum += magnitude(item);
  }
  return sum;
}

// One run's cost in default runs; 0 for a run the demo refuses before computing anything.
double run_cost(const demo::DemoInfo& info, const bank::Proof& proof,
                const bank::Bindings& bindings) {
  try {
    const demo::Params params = demo::resolve_params(info, bank::demo_assignments(proof, bindings));
    double cost = 1;
    for (const demo::ParamSpec& spec : info.params) {
      if (spec.type != demo::ParamSpec::Type::integer &&
          spec.type != demo::ParamSpec::Type::integer_list) {
        continue;
      }
      const double ratio =
          magnitude(params.json().at(spec.name)) / std::max(1.0, magnitude(spec.default_value));
      if (ratio > 1) cost *= ratio * ratio;
    }
    return cost;
  } catch (const Error&) {
    return 0;
  }
}

bool demo_phase_is_cheap(const bank::Bank& loaded) {
  std::size_t proofs = 0;
  double cost = 0;
  std::set<std::string> runs;
  for (const bank::Question& q : loaded.questions) {
    if (!q.proof) continue;
    if (++proofs > kMaxProofs) return false;
    const demo::DemoInfo* info = demo::find_demo(q.proof->demo);
    if (info == nullptr) continue;  // reported without a run
    const auto add = [&](const bank::Bindings& bindings) {
      const std::string key = fmt::format(
          "{}\n{}", q.proof->demo, fmt::join(bank::demo_assignments(*q.proof, bindings), "\n"));
      if (runs.insert(key).second) cost += run_cost(*info, *q.proof, bindings);
    };
    if (q.templ) {
      if (q.templ->combinations > kMaxCombinations) return false;
      bank::for_each_admitted(*q.templ, add);
    } else {
      add({});
    }
    if (cost > kMaxDemoCost) return false;
  }
  return true;
}

bank::DemoRunner& shared_runner() {
  static bank::DemoRunner runner(42);
  if (runner.runs() > kMaxCachedRuns) runner = bank::DemoRunner(42);
  return runner;
}

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz_bank_loader: %s\n", what.c_str());
  std::abort();
}

// What a quiz does with each question of a bank that loaded: draw it, show it, read replies
// (the right answer, answers of every type, and the input's first bytes), grade the answers and
// give feedback without the live proof. Properties: nothing throws (the loader refuses what a
// session could not handle), the right answer as expected_input() types it grades correct, and
// nothing shown contains a control character other than a newline.
void study_phase(const bank::Bank& loaded, std::string_view text) {
  const std::vector<bank::Bank> banks{loaded};
  std::ostringstream out;
  std::istringstream no_input;
  study::LineReader reader(no_input, -1, out);
  study::Session session{banks, out, reader, Theme::plain(), 80, false, 0, {}};
  engine::Rng rng(text.size());
  for (const bank::Question& q : banks.front().questions) {
    const bank::Instance instance = bank::instantiate(q, rng);
    out << study::render_question(session, instance, "[1/1]");
    const std::string right = bank::expected_input(instance);
    const std::vector<std::string> lines{right, "a",      "b,c",   "f",
                                         "0",   "-2.5e3", "c a b", std::string(text.substr(0, 64))};
    for (const std::string& line : lines) {
      const study::Reply reply = study::parse_reply(instance, line);
      if (reply.kind != study::Reply::Kind::answer) {
        if (line == right) finding(q.id + ": the right answer '" + right + "' does not parse");
        continue;
      }
      const study::Answered answered{&q, instance, true, reply, study::grade(instance, reply)};
      if (line == right && !answered.grade.correct) {
        finding(q.id + ": the right answer '" + right + "' grades wrong");
      }
      out << study::render_feedback(session, answered, false);
    }
  }
  const std::string shown = out.str();
  for (const char c : shown) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\n') || byte == 0x7F) {
      finding(fmt::format("control character 0x{:02x} reached the screen in:\n{}", byte, shown));
    }
  }
}

}  // namespace

// What check --lint, --coverage and a form do with a bank that loaded: every lint rule, its
// objectives and same_fact_as ids resolved, the pairs no form may hold, a quiz's and an exam's
// draw of one question per objective, and the coverage of a short lesson its quotes and
// out_of_scope entries are matched against.
void form_phase(const bank::Bank& loaded) {
  const std::vector<bank::Bank> banks{loaded};
  try {
    bank::check_objectives(banks);
  } catch (const Error&) {
    // an objective no loaded bank defines: refused with its place, as load_banks refuses it
  }
  try {
    bank::check_same_facts(banks);
  } catch (const Error&) {
    // a same_fact_as id no loaded question has, or one of its own objective: refused likewise
  }
  bank::lint(banks);
  const bank::Enemies enemies = bank::form_enemies(banks);
  std::vector<const bank::Question*> pool;
  for (const bank::Question& q : loaded.questions)
    pool.push_back(&q);
  engine::Rng rng(0);
  std::map<std::string, std::vector<const bank::Question*>> spares;
  bank::draw_spread(pool, std::min<std::size_t>(pool.size(), 20), rng, spares);
  bank::objective_rounds(pool);
  bank::draw_quiz_form(pool, 20, true, rng, enemies);
  static const std::string lesson =
      "Title\n\nIdentity statement: splitting into heads costs the same total parameters.\n\n"
      "L1 — Intuition\n\nA purely content-based comparison cannot know word order.\n";
  bank::lesson_coverage(banks, loaded.lesson, lesson);
}

// What load_banks does with a bank that does not load: the proofs its problems leave checkable
// (BankReading::provable) are checked against the catalog, so that their problems are listed with
// the file's own. They must be checked without an exception escaping: a question whose problems
// would mislead the check (a template that cannot be enumerated, say) must not be among them.
void unloaded_phase(const bank::BankReading& reading) {
  bank::Bank provable;
  for (const std::size_t question : reading.provable)
    provable.questions.push_back(reading.bank.questions.at(question));
  if (!demo_phase_is_cheap(provable)) return;
  for (const bank::Question& q : provable.questions)
    bank::resolve_problems(q, shared_runner());
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  bank::BankReading reading;
  try {
    reading = bank::read_bank(text, "fuzz.json");
  } catch (const Error&) {
    return 0;  // InputError for JSON that does not parse
  }
  if (!reading.problems.empty()) {
    unloaded_phase(reading);
    return 0;
  }
  const bank::Bank& loaded = reading.bank;
  study_phase(loaded, text);
  form_phase(loaded);
  // A bank that loaded is proven without an exception escaping: a demo that refuses its
  // arguments or fails is a failed question, and the wrong keys of a verified one are formed
  // whatever its key (an exception here is a finding, as a crash is).
  if (!demo_phase_is_cheap(loaded)) return 0;
  bank::DemoRunner& runner = shared_runner();
  bank::resolve_problems({loaded}, runner);
  for (const bank::Question& q : loaded.questions) {
    if (bank::verify(q, runner).status == bank::Status::verified) bank::mutate(q, runner);
  }
  return 0;
}
