// Forms whose questions do not answer each other: a worksheet, an exam or a quiz never holds two
// questions where one's prompt, options or steps state the other's key as drawn (bank/form.hpp).
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "bank/form.hpp"
#include "bank/sources.hpp"
#include "cli_test_support.hpp"
#include "golden.hpp"
#include "study/session.hpp"

namespace test_form {

using namespace proofdeck::bank;
using Catch::Matchers::Contains;
using cli_test::Cli;
using cli_test::TempDir;

namespace {

Question numeric_question(const std::string& id, double key, double tolerance = 0.0) {
  Question q;
  q.id = id;
  q.type = QuestionType::numeric;
  q.key.value = key;
  q.key.tolerance = tolerance;
  return q;
}

Question statement(const std::string& id) {
  Question q;
  q.id = id;
  q.type = QuestionType::truefalse;
  return q;
}

Instance shown(const Question& q, const std::string& prompt) {
  Instance instance;
  instance.question = &q;
  instance.prompt = prompt;
  if (q.key.value) instance.key = *q.key.value;
  for (std::size_t i = 0; i < std::max(q.options.size(), q.steps.size()); ++i)
    instance.order.push_back(i);
  return instance;
}

// A printed Markdown sheet: each question's text by number, and each number-valued answer.
struct Sheet {
  std::map<int, std::string> questions;
  std::map<int, std::string> numeric_answers;  // "1,048,576" (the key table's grouped form)
};

Sheet read_sheet(const std::string& markdown) {
  Sheet sheet;
  const std::string body = markdown.substr(0, markdown.find("## Answer key"));
  const std::regex heading(R"(\n### Question (\d+)\n)");
  std::vector<std::pair<int, std::size_t>> starts;
  for (auto it = std::sregex_iterator(body.begin(), body.end(), heading);
       it != std::sregex_iterator(); ++it)
    starts.emplace_back(std::stoi((*it)[1]), static_cast<std::size_t>(it->position()));
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const std::size_t end = i + 1 < starts.size() ? starts[i + 1].second : body.size();
    sheet.questions[starts[i].first] = body.substr(starts[i].second, end - starts[i].second);
  }
  const std::string key = markdown.substr(markdown.find("## Answer key"));
  const std::regex entry(R"(\*\*(\d+)\*\* \| (\d{1,3}(?:,\d{3})+)(?: [a-z-]+)? \|)");
  for (auto it = std::sregex_iterator(key.begin(), key.end(), entry); it != std::sregex_iterator();
       ++it)
    sheet.numeric_answers[std::stoi((*it)[1])] = (*it)[2];
  return sheet;
}

// Each pair "question j states question i's answer", read from the printed text alone: the
// answer grouped (as printed) or in plain digits.
std::vector<std::string> giveaways(const Sheet& sheet) {
  std::vector<std::string> found;
  for (const auto& [i, answer] : sheet.numeric_answers) {
    std::string plain = answer;
    std::erase(plain, ',');
    const std::regex written("(^|[^0-9,])(" + answer + "|" + plain + ")($|[^0-9,])");
    for (const auto& [j, text] : sheet.questions) {
      if (i != j && std::regex_search(text, written))
        found.push_back("question " + std::to_string(j) + " states " + std::to_string(i) +
                        "'s answer, " + answer);
    }
  }
  return found;
}

std::string print_sheet(Cli& cli, std::vector<std::string> args) {
  args.insert(args.begin(), {"print", "--format", "md", "--answers", "appendix"});
  REQUIRE(cli.run(args) == 0);
  return cli.out.str();
}

}  // namespace

TEST_CASE("a key is stated in any notation the parser reads, within its tolerance", "[form]") {
  const Question total = numeric_question("total", 1048576);
  const Question tf = statement("tf");
  const Instance key = shown(total, "How many weights?");
  for (const std::string written :
       {"1048576", "1,048,576", "1_048_576", "2^20", "1.048576e6", "4*512*512", "1048576."}) {
    INFO(written);
    const Instance text = shown(tf, "The block holds " + written + " weights.");
    REQUIRE(states_key(text, key));
    CHECK(*states_key(text, key) == (written == "1048576." ? "1048576" : written));
    CHECK_THAT(*form_conflict(key, text), Contains("tf states total's answer"));
    CHECK_THAT(*form_conflict(text, key), Contains("tf states total's answer"));
  }
  // Not the key: another number, one inside a word, and a number the key's tolerance admits.
  CHECK_FALSE(states_key(shown(tf, "It holds 1,048,575 weights."), key));
  CHECK_FALSE(states_key(shown(tf, "Its W1048576 matrix."), key));
  const Question loose = numeric_question("loose", 1048576, 2.0);
  CHECK(states_key(shown(tf, "It holds 1,048,575 weights."), shown(loose, "?")));
  // A question never gives itself away, and a small key (a given such as 8 heads) is not counted.
  CHECK_FALSE(states_key(key, key));
  const Question heads = numeric_question("heads", 64);
  CHECK_FALSE(states_key(shown(tf, "8 heads of width 64"), shown(heads, "How wide?")));
}

TEST_CASE("a right option is stated by a number it is, or by its whole text", "[form]") {
  Question choice;
  choice.id = "choice";
  choice.type = QuestionType::single;
  choice.options = {
      {"a", "786,432", true, "", std::nullopt, ""},
      {"b", "262,144", false, "", std::nullopt, ""},
      {"c", "Each head keeps its own full-width matrices", false, "", std::nullopt, ""}};
  Question phrase = choice;
  phrase.id = "phrase";
  phrase.options[0].correct = false;
  phrase.options[2].correct = true;
  const Question tf = statement("tf");
  CHECK(states_key(shown(tf, "Q/K/V hold 786432 weights."), shown(choice, "?")));
  CHECK_FALSE(states_key(shown(tf, "Q/K/V hold 262,144 weights."), shown(choice, "?")));
  CHECK(*states_key(shown(tf, "Here each  head keeps its own FULL-width matrices."),
                    shown(phrase, "?")) == "\"each head keeps its own full-width matrices\"");
}

TEST_CASE("untangle replaces a question that states a kept one's key, or drops it", "[form]") {
  const Question total = numeric_question("total", 1048576);
  const Question tf = statement("tf");
  const Question other = statement("other");
  std::vector<Instance> form{shown(total, "How many?"), shown(tf, "It holds 1,048,576.")};
  int asked = 0;
  auto left = untangle(form, [&](std::size_t) -> std::optional<Instance> {
    ++asked;
    return shown(other, "Heads run in parallel.");
  });
  REQUIRE(left.size() == 1);
  CHECK(left[0].id == "tf");
  CHECK(left[0].replaced);
  CHECK(asked == 1);
  REQUIRE(form.size() == 2);
  CHECK(form[1].question->id == "other");
  std::vector<Instance> no_spare{shown(tf, "It holds 2^20."), shown(total, "How many?")};
  left = untangle(no_spare, [](std::size_t) { return std::optional<Instance>{}; });
  REQUIRE(left.size() == 1);
  CHECK(left[0].id == "total");  // the later of the two goes, whichever states which
  CHECK_FALSE(left[0].replaced);
  CHECK(no_spare.size() == 1);
}

TEST_CASE("print: the multi-head worksheet at seed 7 no longer answers its own questions",
          "[form][print][cli]") {
  // The defect: question 5 stated question 4's answer (1,048,576) and an option of question 10
  // gave 4's and 6's.
  Cli cli;
  const std::string sheet = print_sheet(cli, {"--topic", "multi-head", "--seed", "7"});
  const Sheet read = read_sheet(sheet);
  CHECK(read.numeric_answers.size() >= 3);
  CHECK(giveaways(read).empty());
  CHECK_THAT(cli.err.str(), Contains("note: mha-cheaper-scenario is left out: "
                                     "mha-cheaper-scenario states mha-total-8-heads's "
                                     "answer (1,048,576)"));
  // The same seed prints the same sheet and key.
  Cli again;
  CHECK(print_sheet(again, {"--topic", "multi-head", "--seed", "7"}) == sheet);
  CHECK(again.err.str() == cli.err.str());
}

TEST_CASE("print: no built-in worksheet answers itself, at several seeds",
          "[form][print][cli][sweep]") {
  for (const std::string seed : {"0", "1", "7", "42"}) {
    INFO("seed " << seed);
    Cli cli;
    const Sheet read = read_sheet(print_sheet(cli, {"--seed", seed}));
    CHECK(read.questions.size() > 150);
    CHECK(giveaways(read).empty());
  }
}

TEST_CASE("print --count N draws N questions with the seed, spread over topics as an exam",
          "[form][print][cli]") {
  Cli cli;
  const std::string sheet = print_sheet(cli, {"--count", "20", "--seed", "3"});
  const Sheet read = read_sheet(sheet);
  CHECK(read.questions.size() == 20);
  CHECK(giveaways(read).empty());
  // Spread as exam_quota spreads 20 over how many objectives each topic asks, the topics in the
  // order the pool meets them (no question was left out here), one question per objective.
  CHECK(cli.err.str().empty());
  std::vector<std::string> names;
  const std::vector<Bank> banks = load_banks(BankSources{{}, true});
  std::vector<std::string> topic_ids;
  std::vector<std::set<std::string>> objectives;
  for (const Question* q : proofdeck::bank::select_questions(banks, {})) {
    const auto seen = std::find(topic_ids.begin(), topic_ids.end(), q->topic);
    if (seen != topic_ids.end()) {
      objectives[static_cast<std::size_t>(seen - topic_ids.begin())].insert(q->objective_id());
      continue;
    }
    topic_ids.push_back(q->topic);
    objectives.push_back({q->objective_id()});
    for (const Bank& b : banks)
      if (b.id == q->bank) names.push_back(b.find_topic(q->topic)->name);
  }
  std::vector<int> sizes;
  for (const std::set<std::string>& asked : objectives)
    sizes.push_back(static_cast<int>(asked.size()));
  const std::vector<int> quota = proofdeck::bank::exam_quota(sizes, 20);
  for (std::size_t t = 0; t < names.size(); ++t) {
    INFO(names[t]);
    const std::size_t at = sheet.find("\n## " + names[t] + "\n");
    if (quota[t] == 0) {
      CHECK(at == std::string::npos);
      continue;
    }
    REQUIRE(at != std::string::npos);
    const std::size_t end = sheet.find("\n## ", at + 1);
    const std::string section = sheet.substr(at, end - at);
    int questions = 0;
    for (std::size_t p = section.find("\n### Question "); p != std::string::npos;
         p = section.find("\n### Question ", p + 1))
      ++questions;
    CHECK(questions == quota[t]);
  }
  // One question per objective: 20 of the banks' objectives, each once.
  std::set<std::string> on_sheet;
  std::size_t printed = 0;
  for (const Question* q : proofdeck::bank::select_questions(banks, {})) {
    if (sheet.find("\n" + q->prompt.substr(0, 80)) == std::string::npos) continue;
    ++printed;
    on_sheet.insert(q->objective_id());
  }
  CHECK(printed >= 10);
  CHECK(on_sheet.size() == printed);
  Cli same;
  CHECK(print_sheet(same, {"--count", "20", "--seed", "3"}) == sheet);
  Cli other;
  CHECK(print_sheet(other, {"--count", "20", "--seed", "4"}) != sheet);
}

TEST_CASE("print --question names questions that answer each other: both print, with a warning",
          "[form][print][cli]") {
  Cli cli;
  const std::string sheet =
      print_sheet(cli, {"--question", "mha-total-8-heads", "--question", "mha-cheaper-scenario"});
  CHECK(read_sheet(sheet).questions.size() == 2);
  CHECK_THAT(cli.err.str(), Contains("warning: --question mha-total-8-heads and "
                                     "mha-cheaper-scenario: one states the other's answer") &&
                                !Contains("1,048,576"));
}

TEST_CASE(
    "quiz and exam forms never ask two questions where one states the other's answer, nor one "
    "fact twice",
    "[form][study][cli]") {
  for (const std::string mode : {"quiz", "exam"}) {
    for (const std::string seed : {"0", "7"}) {
      INFO(mode << " seed " << seed);
      TempDir dir;
      const std::string report = (dir.path() / "report.json").string();
      Cli cli;
      std::vector<std::string> args{
          mode,   "--topic",    "multi-head",        "--seed",  seed,   "--report",
          report, "--data-dir", dir.path().string(), "--color", "never"};
      if (mode == "exam") args.insert(args.end(), {"--count", "17"});
      std::string skips;  // a quiz reports what it asked: skip each question
      for (int i = 0; i < 30; ++i)
        skips += ":s\n";
      cli.in.str(skips);
      cli.run(args);
      const auto written = nlohmann::json::parse(proofdeck::testing::read_file(report));
      std::set<std::string> ids;
      for (const auto& q : written["questions"])
        ids.insert(q["id"].get<std::string>());
      CHECK_FALSE((ids.contains("mha-total-8-heads") && ids.contains("mha-cheaper-scenario")));
      // The topic's 17 questions ask 8 facts: one question each.
      CHECK(ids.size() == 8);
      std::set<std::string> facts;
      for (const Bank& b : load_banks(BankSources{{}, true}))
        for (const Question& q : b.questions)
          if (ids.contains(q.id)) facts.insert(q.objective_id());
      CHECK(facts.size() == ids.size());
      CHECK_THAT(cli.err.str(), Contains("8 questions: the selection holds 8 distinct facts"));
      // Which questions were left out, if any, is not said: it would give their answers away.
      CHECK_THAT(cli.err.str(), !Contains("mha-") && !Contains("1,048,576"));
    }
  }
  TempDir dir;
  Cli named;
  named.run({"quiz", "--question", "mha-total-8-heads", "--question", "mha-cheaper-scenario",
             "--seed", "0", "--data-dir", dir.path().string()});
  CHECK_THAT(named.out.str(), Contains("2 questions"));
  CHECK_THAT(named.err.str(), Contains("warning: --question mha-total-8-heads and "
                                       "mha-cheaper-scenario: one states the other's answer"));
}

}  // namespace test_form
