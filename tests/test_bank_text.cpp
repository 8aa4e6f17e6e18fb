// Control characters in bank text, one rule applied at load so no output path can forget it: a
// tab becomes a space, a newline stays, any other C0 or C1 control character is a located load
// error (exit 2) — in the loader, and through every command that prints bank text.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bank/loader.hpp"
#include "bank_test_support.hpp"
#include "cli_test_support.hpp"

namespace test_bank_text {

using namespace cli_test;
using bank_test::problems_of;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using nlohmann::json;
using proofdeck::bank::Bank;
using proofdeck::bank::load_bank;

namespace {

const std::string kPurpose =
    "Let the model attend to multiple representation subspaces in parallel";

// True when `text` holds a C0 control other than a newline, DEL, or a C1 control in UTF-8.
bool has_raw_control(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if ((byte < 0x20 && byte != '\n') || byte == 0x7f) return true;
    if (byte == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      return true;
    }
  }
  return false;
}

// The worked example with tabs in a topic name, a trap name, an option, a prompt and an
// explanation.
json bank_with_tabs() {
  json bank = bank_test::worked_example();
  bank["topics"][0]["name"] = "Multi-head\tattention";
  bank["traps"][0]["name"] = "Multi-head attention\tcuts parameters";
  json& purpose = bank["questions"][0];
  purpose["prompt"] = "Multi-head attention\texists primarily to:";
  purpose["options"][1]["text"] =
      "Let the model attend to multiple representation\tsubspaces in parallel";
  purpose["explanation"] = "Eight heads\tof width 64 need the same 1,048,576 weights.";
  return bank;
}

// The worked example with a vertical tab in an option and an escape sequence in a topic name.
json bank_with_controls() {
  json bank = bank_test::worked_example();
  bank["topics"][0]["name"] = "\x1b[2JMulti-head attention";
  bank["questions"][0]["options"][0]["text"] = "Reduce the number\v of parameters";
  return bank;
}

}  // namespace

// --- the loader -----------------------------------------------------------------------------

TEST_CASE("a tab in bank text is read as a space", "[bank][text]") {
  const Bank bank = load_bank(bank_with_tabs().dump(), "bank.json");
  CHECK(bank.topics[0].name == "Multi-head attention");
  CHECK(bank.find_trap("mha-cuts-params")->name == "Multi-head attention cuts parameters");
  CHECK(bank.questions[0].prompt == "Multi-head attention exists primarily to:");
  CHECK(bank.questions[0].options[1].text == kPurpose);
  CHECK(bank.questions[0].explanation ==
        "Eight heads of width 64 need the same 1,048,576 weights.");
}

TEST_CASE("a newline in bank text stays a newline", "[bank][text]") {
  json bank = bank_test::worked_example();
  bank["questions"][0]["explanation"] = "First line.\nSecond line.";
  CHECK(load_bank(bank.dump(), "bank.json").questions[0].explanation ==
        "First line.\nSecond line.");
}

TEST_CASE("a control character in bank text is a load error naming file, pointer and character",
          "[bank][text]") {
  json bank = bank_test::worked_example();
  bank["questions"][0]["options"][0]["text"] = "Reduce\tthe number\v of parameters";
  const auto problems = problems_of(bank);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] ==
        "bank.json: /questions/0/options/0/text: the text holds the control character U+000B "
        "(vertical tab) at character 18; bank text may hold line breaks (\\n) and tabs (read as "
        "spaces), no other control characters");
}

TEST_CASE("every C0 and C1 control character but newline and tab is refused", "[bank][text]") {
  const std::vector<std::pair<std::string, std::string>> controls = {
      {std::string(1, '\0'), "U+0000 (null)"},
      {"\x07", "U+0007 (bell)"},
      {"\x08", "U+0008 (backspace)"},
      {"\r", "U+000D (carriage return)"},
      {"\x1b", "U+001B (escape)"},
      {"\x1f", "U+001F (C0 control)"},
      {"\x7f", "U+007F (delete)"},
      {"\xc2\x80", "U+0080 (C1 control)"},
      {"\xc2\x85", "U+0085 (next line)"},
      {"\xc2\x9b", "U+009B (control sequence introducer)"},
      {"\xc2\x9f", "U+009F (C1 control)"}};
  for (const auto& [control, name] : controls) {
    INFO(name);
    json bank = bank_test::worked_example();
    bank["topics"][1]["name"] = "Positional" + control + "encoding";
    const auto problems = problems_of(bank);
    REQUIRE(problems.size() == 1);
    CHECK_THAT(problems[0], StartsWith("bank.json: /topics/1/name: the text holds the control "
                                       "character " +
                                       name + " at character 11;"));
    CHECK_FALSE(has_raw_control(problems[0]));
  }
}

TEST_CASE("characters that only look like controls load as they are", "[bank][text]") {
  json bank = bank_test::worked_example();
  bank["topics"][1]["name"] = "Positional encoding \xc2\xa0\xc2\xb7 caf\xc3\xa9 \xe2\x80\x94 ok";
  CHECK(load_bank(bank.dump(), "bank.json").topics[1].name == bank["topics"][1]["name"]);
}

TEST_CASE("every control character of a bank is reported at once, beside its other problems",
          "[bank][text]") {
  json bank = bank_with_controls();
  bank["questions"][1].erase("explanation");
  const auto problems = problems_of(bank);
  REQUIRE(problems.size() == 3);
  CHECK_THAT(problems[0], StartsWith("bank.json: /questions/0/options/0/text: the text holds "
                                     "the control character U+000B (vertical tab)"));
  CHECK_THAT(problems[1], StartsWith("bank.json: /topics/0/name: the text holds the control "
                                     "character U+001B (escape) at character 1;"));
  CHECK(problems[2] == "bank.json: /questions/1: missing required key 'explanation'");
}

TEST_CASE("a control character in a key is refused without being echoed", "[bank][text]") {
  json bank = bank_test::worked_example();
  bank["questions"][0]["\x1b[31mhint"] = "red";
  const auto problems = problems_of(bank);
  REQUIRE(problems.size() == 2);
  CHECK_THAT(problems[0], StartsWith("bank.json: /questions/0: a key holds the control character "
                                     "U+001B (escape) at character 1;"));
  CHECK_THAT(problems[1], StartsWith("bank.json: /questions/0/\xef\xbf\xbd[31mhint: unknown key"));
  for (const std::string& problem : problems)
    CHECK_FALSE(has_raw_control(problem));
}

// --- through every command ------------------------------------------------------------------

namespace {

struct TabBank {
  TempDir dir;
  std::string bank = dir.write("tabs.json", bank_with_tabs().dump(2));
  std::string data = (dir.path() / "data").string();

  int run(Cli& cli, std::vector<std::string> args) {
    args.insert(args.end(), {"--no-builtin", "--bank", bank, "--data-dir", data, "--now",
                             "2026-03-02T09:00:00Z", "--color", "never", "--seed", "1"});
    return cli.run(args);
  }
};

// What each command prints of the bank with tabs.
void require_spaces_for_tabs(const std::string& out) {
  CHECK_FALSE(has_raw_control(out));
  CHECK_THAT(out, !Contains("\\x09") && !Contains("\\t"));
}

}  // namespace

TEST_CASE("quiz, exam and drill show tabs of bank text as spaces", "[cli][text]") {
  TabBank tabs;
  const std::vector<std::vector<std::string>> commands = {
      {"quiz", "--question", "mha-purpose"}, {"exam", "--count", "3"}, {"drill", "--new", "3"}};
  for (const auto& command : commands) {
    INFO(command[0]);
    Cli cli;
    REQUIRE(tabs.run(cli, command) == 0);
    require_spaces_for_tabs(cli.out.str());
    CHECK_THAT(cli.out.str(), Contains("Multi-head attention"));
  }
  Cli quiz;
  REQUIRE(tabs.run(quiz, {"quiz", "--question", "mha-purpose"}) == 0);
  CHECK_THAT(quiz.out.str(), Contains("Multi-head attention exists primarily to:"));
  CHECK_THAT(quiz.out.str(), Contains("Let the model attend to multiple representation"));
  CHECK_THAT(quiz.out.str(), Contains("representation subspaces") || Contains("representation\n") ||
                                 Contains("subspaces in"));
}

TEST_CASE("print (md and html) shows tabs of bank text as spaces", "[cli][text]") {
  TabBank tabs;
  for (const std::string format : {"md", "html"}) {
    INFO(format);
    Cli cli;
    REQUIRE(tabs.run(cli, {"print", "--format", format, "--answers", "inline"}) == 0);
    const std::string out = cli.out.str();
    CHECK_FALSE(has_raw_control(out));
    CHECK_THAT(out, Contains("Multi-head attention exists primarily to:"));
    CHECK_THAT(out, Contains(kPurpose));
  }
}

TEST_CASE("export writes tabs of bank text as spaces, and JSON keeps the strings as loaded",
          "[cli][text]") {
  TabBank tabs;
  Cli gift;
  REQUIRE(tabs.run(gift, {"export", "--to", "gift"}) == 0);
  CHECK_THAT(gift.out.str(), Contains(kPurpose) && !Contains("representation\tsubspaces"));

  Cli anki;
  REQUIRE(tabs.run(anki, {"export", "--to", "anki"}) == 0);
  CHECK_THAT(anki.out.str(), Contains("Multi-head attention exists primarily to:"));
  CHECK_THAT(anki.out.str(), !Contains("attention\texists"));

  Cli normalized;
  REQUIRE(tabs.run(normalized, {"export", "--to", "json"}) == 0);
  const json exported = json::parse(normalized.out.str());
  CHECK(exported.at("topics").at(0).at("name") == "Multi-head attention");
  CHECK(exported.at("questions").at(0).at("options").at(1).at("text") == kPurpose);
}

TEST_CASE("check reports a bank with tabs in text, json and junit without a tab", "[cli][text]") {
  TabBank tabs;
  for (const std::string format : {"text", "json", "junit"}) {
    INFO(format);
    Cli cli;
    REQUIRE(tabs.run(cli, {"check", "--format", format}) == 0);
    CHECK_FALSE(has_raw_control(cli.out.str()));
  }
}

TEST_CASE("every command refuses a bank with control characters, naming where, and prints none",
          "[cli][text]") {
  TempDir dir;
  const std::string bank = dir.write("controls.json", bank_with_controls().dump(2));
  const std::vector<std::vector<std::string>> commands = {{"quiz"},
                                                          {"exam"},
                                                          {"drill"},
                                                          {"stats"},
                                                          {"list", "topics"},
                                                          {"check"},
                                                          {"print"},
                                                          {"print", "--format", "html"},
                                                          {"export", "--to", "gift"},
                                                          {"export", "--to", "anki"},
                                                          {"export", "--to", "json"}};
  for (auto command : commands) {
    INFO(command[0]);
    command.insert(command.end(), {"--no-builtin", "--bank", bank, "--data-dir",
                                   (dir.path() / "data").string(), "--color", "never"});
    Cli cli;
    CHECK(cli.run(command) == 2);
    CHECK(cli.out.str().empty());
    const std::string err = cli.err.str();
    CHECK_THAT(err, Contains(bank + ": /topics/0/name: the text holds the control character "
                                    "U+001B (escape)"));
    CHECK_THAT(err, Contains(bank + ": /questions/0/options/0/text: the text holds the control "
                                    "character U+000B (vertical tab)"));
    CHECK_FALSE(has_raw_control(err));
  }
}

}  // namespace test_bank_text
