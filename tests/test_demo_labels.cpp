// Demo value labels: every value a demo sets says what it is in words a learner reads without the
// demo beside it, each its own within a result, and the JSON form, which scripts read by name,
// leaves them out.
#include <catch2/catch.hpp>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "demo/demo.hpp"
#include "demo_test_support.hpp"
#include "text/width.hpp"

namespace test_demo_labels {

using namespace proofdeck::demo;
using proofdeck::testing::run;

// Whether `set` accepts these arguments.
template <typename... Args>
constexpr bool can_set = requires(DemoResult result, Args... args) {
  result.set(args...);
};

// Settings past the defaults that add values (head-width's projections, pre-vs-post-ln's
// warm-up) or change how a label is built (order-blindness with more than one head, a low
// temperature of 1 beside the temperature 1, changing the first token, position 0).
const std::map<std::string, std::vector<std::vector<std::string>>>& extra_settings() {
  static const std::map<std::string, std::vector<std::vector<std::string>>> settings = {
      {"order-blindness", {{"heads=2"}}},
      {"head-width", {{"projections=true", "heads=1,8"}}},
      {"pre-vs-post-ln", {{"depths=2,4", "warmup_steps=2"}}},
      {"pe-extrapolation", {{"position=0"}}},
      {"causal-mask", {{"changed=0"}}},
      {"decoding-strategies", {{"low_temperature=1", "high_temperature=1"}}},
  };
  return settings;
}

// What is wrong with a label, one line a fault; empty when it is fine.
std::vector<std::string> label_faults(const std::string& name, const std::string& label) {
  std::vector<std::string> faults;
  if (label.empty()) return {"no label"};
  if (label == name) faults.emplace_back("the label is the name");
  if (label.find('_') != std::string::npos) faults.emplace_back("an underscore");
  const auto first = static_cast<unsigned char>(label.front());
  if (std::isupper(first) == 0 && std::isdigit(first) == 0) {
    faults.emplace_back("does not start with a capital letter or a digit");
  }
  if (label.back() == '.') faults.emplace_back("ends with a period");
  if (proofdeck::text::display_width(label) > 80) {
    faults.push_back(
        fmt::format("{} columns, more than 80", proofdeck::text::display_width(label)));
  }
  return faults;
}

TEST_CASE("a demo value cannot be set without a label", "[demo][labels]") {
  STATIC_REQUIRE(can_set<std::string, std::string, double, Provenance>);
  STATIC_REQUIRE(can_set<std::string, std::string, bool, Provenance>);
  STATIC_REQUIRE_FALSE(can_set<std::string, double, Provenance>);
  STATIC_REQUIRE_FALSE(can_set<std::string, bool, Provenance>);
}

TEST_CASE("a demo value's label is read beside its number", "[demo][labels]") {
  const DemoResult result = run("layernorm-vs-batchnorm");
  const Value* tokens = result.find("document_tokens");
  REQUIRE(tokens != nullptr);
  CHECK(tokens->number == 24);
  CHECK(tokens->label == "Tokens in the document the sentence is padded beside");
}

TEST_CASE("every demo value has a label in words, its own within the result",
          "[demo][labels][sweep]") {
  for (const DemoInfo& info : catalog()) {
    std::vector<std::vector<std::string>> settings = {{}};
    if (const auto extra = extra_settings().find(info.name); extra != extra_settings().end())
      settings.insert(settings.end(), extra->second.begin(), extra->second.end());
    for (const std::vector<std::string>& sets : settings) {
      INFO(info.name << " " << fmt::format("{}", fmt::join(sets, " ")));
      const DemoResult result = run(info.name, sets);
      std::map<std::string, std::string> name_of_label;
      for (const auto& [name, value] : result.values) {
        INFO(name << ": \"" << value.label << "\"");
        CHECK(label_faults(name, value.label) == std::vector<std::string>{});
        const auto [earlier, added] = name_of_label.emplace(value.label, name);
        INFO("the label of " << earlier->second << " too");
        CHECK(added);
      }
    }
  }
}

TEST_CASE("the demo JSON form leaves the labels out", "[demo][labels]") {
  for (const DemoInfo& info : catalog()) {
    INFO(info.name);
    const DemoResult result = run(info.name);
    const auto json = to_json(result);
    const std::string dumped = json.dump();
    for (const auto& [name, value] : result.values) {
      INFO(name);
      CHECK((json.at("values").at(name).is_number() || json.at("values").at(name).is_boolean()));
      CHECK(dumped.find(value.label) == std::string::npos);
    }
  }
}

}  // namespace test_demo_labels
