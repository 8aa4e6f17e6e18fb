// libFuzzer target: what a learner types. The input is one line, read as a numeric answer
// (bank/numeric_answer.hpp) and as a reply to one instance of each question type (study::
// parse_reply, then grade for answers): single, truefalse and numeric (a template) from
// tests/banks/worked_example.json, multi and order from the built-in banks.
//
// One property is checked besides "no crash": an integer the parser accepts reads back the same
// from the way proofdeck prints it (format_number: "1,048,576"), since prompts and feedback show
// numbers that way and learners copy them.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "asan_options.hpp"
#include "bank/builtin.hpp"
#include "bank/formula.hpp"
#include "bank/loader.hpp"
#include "bank/numeric_answer.hpp"
#include "core/errors.hpp"
#include "engine/rng.hpp"
#include "study/answer.hpp"

namespace {

using namespace proofdeck;

struct Fixture {
  std::vector<bank::Bank> banks;  // owns the questions the instances point into
  std::vector<bank::Instance> instances;
};

Fixture load_fixture() {
  Fixture fixture;
  const std::string path = PROOFDECK_SOURCE_DIR "/tests/banks/worked_example.json";
  std::ifstream file(path, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  if (!file) {
    std::fprintf(stderr, "fuzz_answer: cannot read %s\n", path.c_str());
    std::abort();
  }
  fixture.banks.push_back(bank::load_bank(text, path));
  for (const bank::EmbeddedBank& embedded : bank::builtin_banks())
    fixture.banks.push_back(bank::load_bank(embedded.text, std::string(embedded.name)));

  std::set<bank::QuestionType> covered;
  engine::Rng rng(7);
  for (const bank::Bank& loaded : fixture.banks) {
    for (const bank::Question& q : loaded.questions) {
      if (covered.insert(q.type).second) fixture.instances.push_back(bank::instantiate(q, rng));
    }
  }
  if (covered.size() != 5) {
    std::fprintf(stderr, "fuzz_answer: found %zu of the 5 question types\n", covered.size());
    std::abort();
  }
  return fixture;
}

const Fixture& fixture() {
  static const Fixture loaded = load_fixture();
  return loaded;
}

bool is_exact_integer(double value) {
  return std::isfinite(value) && value == std::floor(value) &&
         std::fabs(value) < 9007199254740992.0;
}

void check_numeric_answer(std::string_view text) {
  const auto parsed = bank::parse_numeric_answer(text);
  const auto* answer = std::get_if<bank::NumericAnswer>(&parsed);
  if (answer == nullptr || !is_exact_integer(answer->value)) return;
  const std::string printed = bank::format_number(answer->value);
  const auto again = bank::parse_numeric_answer(printed);
  const auto* reread = std::get_if<bank::NumericAnswer>(&again);
  if (reread == nullptr || reread->value != answer->value) {
    std::fprintf(stderr, "fuzz_answer: %.17g prints as \"%s\", which does not read back\n",
                 answer->value, printed.c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fixture();  // load the banks once, outside the timed runs
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  check_numeric_answer(line);
  for (const bank::Instance& instance : fixture().instances) {
    for (const bool exam : {false, true}) {
      const study::Reply reply = study::parse_reply(instance, line, exam);
      if (reply.kind != study::Reply::Kind::answer) continue;
      try {
        study::grade(instance, reply);
      } catch (const InputError&) {
        // A distractor formula that cannot be evaluated for these bindings: formula.eval.
      }
    }
  }
  return 0;
}
