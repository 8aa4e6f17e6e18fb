// `proofdeck export`: GIFT, Anki and JSON pinned by golden files; every special character of each
// target escaped; every built-in bank exports; the JSON loads back to the same bank and the same
// `check` verdicts; usage and I/O errors with their exit codes; the Anki package's failure paths,
// determinism and checksums, and the pins that make a changed built-in bank re-import as newer.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "bank/builtin.hpp"
#include "bank/loader.hpp"
#include "bank/sources.hpp"
#include "cli_test_support.hpp"
#include "print/apkg.hpp"
#include "print/bank_json.hpp"
#include "print/export.hpp"
#include "print_test_support.hpp"

namespace test_export {

using namespace cli_test;
using namespace print_test;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

std::string export_worked(const std::vector<std::string>& args, int expected_exit = 0) {
  Cli cli;
  std::vector<std::string> all{"export", "--no-builtin", "--bank", kWorkedBanks};
  all.insert(all.end(), args.begin(), args.end());
  const int exit_code = cli.run(all);
  INFO(cli.err.str());
  REQUIRE(exit_code == expected_exit);
  return cli.out.str();
}

// GIFT text with its escapes taken out, so the structure can be read.
std::string unescaped_structure(const std::string& gift) {
  std::string out;
  for (std::size_t i = 0; i < gift.size(); ++i) {
    if (gift[i] == '\\' && i + 1 < gift.size()) {
      out += '_';
      ++i;
      continue;
    }
    out += gift[i];
  }
  return out;
}

// The question blocks of a GIFT file: "::id::…{…}" with comments and categories left out.
std::vector<std::string> gift_blocks(const std::string& gift) {
  std::vector<std::string> blocks;
  std::string block;
  for (const std::string& line : lines_of(gift)) {
    if (line.rfind("//", 0) == 0 || line.rfind("$CATEGORY:", 0) == 0) continue;
    if (line.empty()) {
      if (!block.empty()) blocks.push_back(block);
      block.clear();
      continue;
    }
    block += line + "\n";
  }
  if (!block.empty()) blocks.push_back(block);
  return blocks;
}

// id → status and message, from `check --format json`.
std::map<std::string, std::pair<std::string, std::string>> verdicts(
    const std::vector<std::string>& banks) {
  Cli cli;
  std::vector<std::string> args{"check", "--no-builtin", "--format", "json"};
  for (const std::string& bank : banks)
    args.insert(args.end(), {"--bank", bank});
  const int exit_code = cli.run(args);
  INFO(cli.err.str());
  REQUIRE(exit_code == 0);
  std::map<std::string, std::pair<std::string, std::string>> found;
  const json report = json::parse(cli.out.str());
  for (const json& q : report.at("questions"))
    found[q.at("id").get<std::string>()] = {q.at("status"), q.at("message")};
  return found;
}

}  // namespace

// --- goldens ----------------------------------------------------------------------------------

TEST_CASE("export: the worked example exports exactly as its golden files", "[export][golden]") {
  check_golden("export_worked_example.gift.txt", export_worked({"--to", "gift", "--seed", "3"}));
  check_golden("export_worked_example.anki.txt", export_worked({"--to", "anki", "--seed", "3"}));
  check_golden("export_worked_example.json", export_worked({"--to", "json"}));
}

// --- escaping ---------------------------------------------------------------------------------

TEST_CASE("export: GIFT escapes every special character and writes line breaks as backslash-n",
          "[export]") {
  using proofdeck::print::gift_escape;
  CHECK(gift_escape("~") == "\\~");
  CHECK(gift_escape("=") == "\\=");
  CHECK(gift_escape("#") == "\\#");
  CHECK(gift_escape("{") == "\\{");
  CHECK(gift_escape("}") == "\\}");
  CHECK(gift_escape(":") == "\\:");
  CHECK(gift_escape("\\") == "\\\\");
  CHECK(gift_escape("a\nb") == "a\\nb");
  CHECK(gift_escape("a\r\nb") == "a\\nb");
  CHECK(gift_escape("d_k < d_model -> 1/√d_k") == "d_k < d_model -> 1/√d_k");
  CHECK(gift_escape("{x: 1 = 2 ~ #3}\\n") == "\\{x\\: 1 \\= 2 \\~ \\#3\\}\\\\n");
}

TEST_CASE("export: an Anki field never splits a row or a column", "[export]") {
  using proofdeck::print::anki_field;
  CHECK(anki_field("a\tb\nc") == "a b<br>c");
  CHECK(anki_field("<b>&\"'") == "&lt;b&gt;&amp;&quot;&#39;");
  CHECK(anki_field("x\r\ny") == "x<br>y");
}

TEST_CASE("export: hostile bank text stays inside its GIFT question", "[export]") {
  TempDir dir;
  const std::string bank = dir.write("hostile.json", hostile_bank().dump());
  Cli cli;
  REQUIRE(cli.run({"export", "--no-builtin", "--bank", bank, "--to", "gift"}) == 0);
  const std::string gift = cli.out.str();
  CHECK_THAT(gift, Contains("::mha-purpose::[plain]Prompt <script>alert(1)</script> & \"q\" 'a' "
                            "\\~ \\= \\# \\{ \\} \\: \\\\ | *b* _u_ `t` [l](x) $m$ tab\\nline{"));
  CHECK_THAT(gift, Contains("#Feedback <script>"));
  CHECK_THAT(gift, Contains("####Explanation <script>"));
  const auto blocks = gift_blocks(gift);
  REQUIRE(blocks.size() == 3);
  for (const std::string& block : blocks) {
    const std::string plain = unescaped_structure(block);
    CHECK(std::count(plain.begin(), plain.end(), '{') == 1);
    CHECK(std::count(plain.begin(), plain.end(), '}') == 1);
    CHECK(plain.back() == '\n');
    CHECK(plain[plain.size() - 2] == '}');
  }
}

TEST_CASE("export: hostile bank text stays inside its Anki field", "[export]") {
  TempDir dir;
  const std::string bank = dir.write("hostile.json", hostile_bank().dump());
  Cli cli;
  REQUIRE(cli.run({"export", "--no-builtin", "--bank", bank, "--to", "anki"}) == 0);
  std::size_t notes = 0;
  for (const std::string& line : lines_of(cli.out.str())) {
    if (line.rfind("#", 0) == 0) continue;
    ++notes;
    CHECK(std::count(line.begin(), line.end(), '\t') == 4);
    // The fields (front and back) are HTML: nothing in them is markup the bank wrote.
    const std::size_t front = line.find('\t', line.find('\t') + 1) + 1;
    const std::string fields = line.substr(front, line.rfind('\t') - front);
    CHECK(fields.find("<script>") == std::string::npos);
  }
  CHECK(notes == 3);
  CHECK_THAT(cli.out.str(), Contains("Prompt &lt;script&gt;alert(1)&lt;/script&gt; &amp; "
                                     "&quot;q&quot; &#39;a&#39;"));
  CHECK_THAT(cli.out.str(), Contains("$m$ tab<br>line"));
}

// --- the built-in banks -----------------------------------------------------------------------

TEST_CASE("export: every built-in question goes to GIFT, well formed", "[export]") {
  Cli cli;
  REQUIRE(cli.run({"export", "--to", "gift"}) == 0);
  const std::string gift = cli.out.str();
  const auto blocks = gift_blocks(gift);
  const BuiltinCounts builtin = builtin_counts();
  CHECK(blocks.size() == builtin.questions);
  CHECK(count(gift, "$CATEGORY: proofdeck/") == builtin.topics);
  std::size_t matching = 0, numeric = 0, truefalse = 0;
  for (const std::string& block : blocks) {
    const std::string plain = unescaped_structure(block);
    INFO(block);
    REQUIRE(plain.rfind("::", 0) == 0);
    CHECK(std::count(plain.begin(), plain.end(), '{') == 1);
    CHECK(std::count(plain.begin(), plain.end(), '}') == 1);
    CHECK(count(plain, "####") == 1);
    const std::string answers = plain.substr(plain.find('{'));
    if (answers.find("->") != std::string::npos) ++matching;
    if (answers.rfind("{\n\t#\n", 0) == 0) ++numeric;
    if (answers.find("\tTRUE#") != std::string::npos ||
        answers.find("\tFALSE#") != std::string::npos)
      ++truefalse;
    // Select-all weights: the right answers share 100%, the wrong ones -100%.
    if (answers.find("~%") != std::string::npos) {
      double right = 0, wrong = 0;
      const std::regex weight("~%(-?[0-9.]+)%");
      for (auto it = std::sregex_iterator(answers.begin(), answers.end(), weight);
           it != std::sregex_iterator(); ++it) {
        const double w = std::stod((*it)[1].str());
        (w > 0 ? right : wrong) += w;
      }
      CHECK(right == Approx(100).margin(1e-3));
      CHECK(wrong == Approx(-100).margin(1e-3));
    }
  }
  CHECK(matching == builtin.order);
  CHECK(numeric == builtin.numeric);
  CHECK(truefalse == builtin.truefalse);
}

TEST_CASE("export: every built-in question goes to Anki, one note a line", "[export]") {
  Cli cli;
  REQUIRE(cli.run({"export", "--to", "anki"}) == 0);
  const auto lines = lines_of(cli.out.str());
  REQUIRE(lines.size() > 9);
  CHECK(lines[0] == "#separator:tab");
  CHECK(lines[1] == "#html:true");
  CHECK_THAT(cli.out.str(), Contains("\n#columns:GUID\tDeck\tFront\tBack\tTags\n"));
  std::size_t notes = 0;
  for (const std::string& line : lines) {
    if (line.rfind("#", 0) == 0) continue;
    ++notes;
    CHECK(std::count(line.begin(), line.end(), '\t') == 4);
    CHECK_THAT(line, Contains("topic::"));
  }
  CHECK(notes == builtin_counts().questions);
  CHECK_THAT(cli.out.str(), Contains("trap::mha-cuts-params"));
}

// --- JSON -------------------------------------------------------------------------------------

TEST_CASE("export: JSON loads back to the same bank, and exports again to the same bytes",
          "[export]") {
  const std::string first = export_worked({"--to", "json"});
  const auto bank = proofdeck::bank::load_bank(first, "exported.json");
  CHECK(proofdeck::print::bank_json(bank).dump(2) + "\n" == first);
  const json normalized = json::parse(first);
  // Defaults filled in.
  CHECK(normalized.at("questions").at(0).at("options").at(1).at("correct") == true);
  CHECK(normalized.at("questions").at(0).at("options").at(0).at("correct") == false);
  CHECK(normalized.at("questions").at(2).at("answer").at("relative") == false);
  CHECK(normalized.at("questions").at(1).at("proof").at("args") == json::object());
}

TEST_CASE("export: the JSON of the worked example gets the same check verdicts", "[export]") {
  TempDir dir;
  const std::string exported = (dir.path() / "example.json").string();
  export_worked({"--to", "json", "--output", exported});
  CHECK(verdicts({exported}) == verdicts({kWorkedBanks}));
}

TEST_CASE("export: every built-in bank round-trips through JSON with the same verdicts",
          "[export]") {
#if PROOFDECK_SANITIZED
  // Two proofs of every built-in bank take minutes in the Debug + ASan build; the plain build
  // runs this, and the worked example's round trip runs here.
  SUCCEED("run by the plain build");
  return;
#endif
  TempDir dir;
  const std::string folder = (dir.path() / "banks").string() + "/";
  Cli cli;
  REQUIRE(cli.run({"export", "--to", "json", "--output", folder}) == 0);
  CHECK(dir.entries() == std::vector<std::string>{"banks"});
  const auto exported = verdicts({folder});
  CHECK(exported.size() == builtin_counts().questions);
  Cli builtin;
  REQUIRE(builtin.run({"check", "--format", "json"}) == 0);
  std::map<std::string, std::pair<std::string, std::string>> original;
  const json report = json::parse(builtin.out.str());
  for (const json& q : report.at("questions"))
    original[q.at("id").get<std::string>()] = {q.at("status"), q.at("message")};
  CHECK(exported == original);
}

TEST_CASE("export: filters narrow the export", "[export]") {
  const std::string gift = export_worked({"--to", "gift", "--type", "truefalse"});
  CHECK(gift_blocks(gift).size() == 1);
  const json bank = json::parse(export_worked({"--to", "json", "--topic", "positional"}));
  CHECK(bank.at("questions").size() == 1);
  CHECK(bank.at("topics").size() == 2);
}

// --- errors -----------------------------------------------------------------------------------

TEST_CASE("export: an unknown or missing --to is a usage error", "[export]") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--to", "pdf"}, std::vector<std::string>{}}) {
    Cli cli;
    std::vector<std::string> all{"export", "--no-builtin", "--bank", kWorkedBanks};
    all.insert(all.end(), args.begin(), args.end());
    CHECK(cli.run(all) == 2);
    CHECK_THAT(cli.err.str(), Contains("--to"));
  }
}

TEST_CASE("export: JSON of several banks needs a folder", "[export]") {
  Cli cli;
  CHECK(cli.run({"export", "--to", "json"}) == 2);
  CHECK_THAT(cli.err.str(), Contains("--from-bank"));
  Cli one;
  CHECK(one.run({"export", "--to", "json", "--from-bank", "transformer-layer"}) == 0);
  CHECK(json::parse(one.out.str()).at("questions").size() ==
        builtin_counts().per_bank.at("transformer-layer"));
}

TEST_CASE("export: an output that cannot be written is exit 3", "[export]") {
  TempDir dir;
  Cli cli;
  CHECK(cli.run({"export", "--no-builtin", "--bank", kWorkedBanks, "--to", "gift", "--output",
                 (dir.path() / "missing" / "out.txt").string()}) == 3);
  CHECK_THAT(cli.err.str(), Contains("cannot write"));
}

// --- Anki package (tests/apkg_check.py opens it as Anki does and checks every note) ----------

namespace {

// `export --to apkg` of the worked example with `args`; the Cli for its exit code and streams.
Cli export_apkg_worked(const std::vector<std::string>& args, Environment env = {}) {
  Cli cli;
  cli.env = std::move(env);
  std::vector<std::string> all{"export", "--no-builtin", "--bank", kWorkedBanks, "--to", "apkg"};
  all.insert(all.end(), args.begin(), args.end());
  cli.run(all);
  return cli;
}

const std::string kNoRevisedWarning =
    "warning: bank example declares no \"revised\" date, so its notes are dated "
    "2026-01-01T00:00:00Z and Anki will not see a changed note as newer on re-import; add "
    "\"revised\" to the bank's metadata (or set SOURCE_DATE_EPOCH)\n";

}  // namespace

TEST_CASE("export: a package needs --output FILE, never standard output", "[export][apkg]") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{}, std::vector<std::string>{"--output", "-"}}) {
    Cli cli;
    std::vector<std::string> all{"export", "--no-builtin", "--bank", kWorkedBanks, "--to", "apkg"};
    all.insert(all.end(), args.begin(), args.end());
    CHECK(cli.run(all) == 2);
    CHECK(cli.out.str().empty());
    CHECK(cli.err.str() ==
          "error: --to apkg writes a binary Anki package, never to standard output: give "
          "--output FILE.apkg\n");
  }
}

TEST_CASE("export: a package that cannot be written is exit 3 and leaves nothing behind",
          "[export][apkg]") {
  TempDir dir;
  const std::string missing = (dir.path() / "missing" / "deck.apkg").string();
  Cli cli;
  CHECK(cli.run({"export", "--no-builtin", "--bank", kWorkedBanks, "--to", "apkg", "--output",
                 missing}) == 3);
  CHECK_THAT(cli.err.str(), Contains("error: " + missing + ": cannot write: No such file"));
  fs::create_directory(dir.path() / "taken.apkg");  // a folder where the file should go
  Cli taken;
  CHECK(taken.run({"export", "--no-builtin", "--bank", kWorkedBanks, "--to", "apkg", "--output",
                   (dir.path() / "taken.apkg").string()}) == 3);
  CHECK_THAT(taken.err.str(), Contains("taken.apkg: cannot write"));
  CHECK(dir.entries() == std::vector<std::string>{"taken.apkg"});  // no partial file
}

TEST_CASE("export: a bank whose revised is not a date is refused where it says so",
          "[export][apkg]") {
  TempDir dir;
  nlohmann::json bank = bank_test::worked_example();
  bank["bank"]["revised"] = "01/12/2026";
  const std::string path = dir.write("dated.json", bank.dump());
  Cli cli;
  CHECK(cli.run({"export", "--no-builtin", "--bank", path, "--to", "apkg", "--output",
                 (dir.path() / "deck.apkg").string()}) == 2);
  CHECK_THAT(cli.err.str(), Contains(path + ": /bank/revised: '01/12/2026' is not a date; "
                                            "expected an ISO-8601 date such as 2026-12-01 or a "
                                            "UTC date-time such as 2026-12-01T09:00:00Z"));
  CHECK(dir.entries() == std::vector<std::string>{"dated.json"});
}

TEST_CASE("export: a package of a bank without revised warns that Anki will not see changes",
          "[export][apkg]") {
  TempDir dir;
  const std::string output = (dir.path() / "deck.apkg").string();
  const Cli undated = export_apkg_worked({"--output", output});
  CHECK(undated.err.str() == kNoRevisedWarning);
  CHECK(undated.out.str() == output + ": 3 notes (one card each) in 1 deck for Anki\n");
  CHECK(fs::file_size(output) > 0);

  nlohmann::json bank = bank_test::worked_example();
  bank["bank"]["revised"] = "2026-12-01";
  const std::string dated = dir.write("dated.json", bank.dump());
  Cli with_revised;
  CHECK(with_revised.run(
            {"export", "--no-builtin", "--bank", dated, "--to", "apkg", "--output", output}) == 0);
  CHECK(with_revised.err.str().empty());

  const Cli with_epoch = export_apkg_worked({"--output", output}, {{"SOURCE_DATE_EPOCH", "1"}});
  CHECK(with_epoch.err.str().empty());
  const Cli bad_epoch = export_apkg_worked({"--output", output}, {{"SOURCE_DATE_EPOCH", "soon"}});
  CHECK(bad_epoch.err.str() ==
        "warning: SOURCE_DATE_EPOCH 'soon' is not a whole number of seconds since 1970 (at most "
        "year 9999): ignored, the banks' \"revised\" dates the notes\n" +
            kNoRevisedWarning);
}

TEST_CASE("export: a package is the same bytes for the same banks and seed", "[export][apkg]") {
  TempDir dir;
  const auto bytes_for = [&](const std::string& seed, Environment env = {}) {
    const std::string output = (dir.path() / ("seed" + seed + ".apkg")).string();
    const Cli cli = export_apkg_worked({"--seed", seed, "--output", output}, std::move(env));
    REQUIRE(fs::exists(output));
    return read_file(output);
  };
  const std::string first = bytes_for("3");
  CHECK(first.rfind("PK\x03\x04", 0) == 0);  // a zip
  CHECK(bytes_for("3") == first);
  CHECK(bytes_for("4") != first);  // the template question is drawn again
  CHECK(bytes_for("3", {{"SOURCE_DATE_EPOCH", "1800000000"}}) != first);  // dated otherwise
}

TEST_CASE("export: notes' checksums are Anki's: SHA-1 of the stripped first field",
          "[export][apkg]") {
  using proofdeck::print::field_checksum;
  using proofdeck::print::strip_html;
  // The values of Anki's own test (rslib/src/notes/mod.rs, test_field_checksum).
  CHECK(field_checksum("test") == 2840236005u);
  CHECK(field_checksum("今日") == 1464653051u);
  CHECK(field_checksum("<b>te</b>st") == 2840236005u);
  CHECK(strip_html("a &lt;b&gt; &amp; &quot;c&quot; &#39;d&#39;<br>e") == "a <b> & \"c\" 'd'e");
  CHECK(proofdeck::print::sha1_hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d");
}

TEST_CASE("export: SOURCE_DATE_EPOCH is whole seconds since 1970, or nothing", "[export][apkg]") {
  using proofdeck::print::parse_source_date_epoch;
  CHECK(parse_source_date_epoch("0") == 0);
  CHECK(parse_source_date_epoch("1796083200") == 1796083200);
  CHECK_FALSE(parse_source_date_epoch(""));
  CHECK_FALSE(parse_source_date_epoch("-1"));
  CHECK_FALSE(parse_source_date_epoch("17e8"));
  CHECK_FALSE(parse_source_date_epoch(" 1"));
  CHECK_FALSE(parse_source_date_epoch("253402300800"));  // year 10000
  CHECK_FALSE(parse_source_date_epoch("99999999999999999999"));
}

// A package dates a bank's notes by its "revised", and Anki re-imports a note only when that
// date is newer: a built-in bank that changes without a later "revised" would leave every
// learner's Anki with the old note. The hash of each file is pinned here with its "revised".
TEST_CASE("export: a built-in bank that changed has a later revised date", "[export][apkg]") {
  struct Pin {
    const char* file;
    const char* revised;
    const char* sha1;
  };
  const std::vector<Pin> pins = {
      {"questions/model-optimization.json", "2026-12-08T12:00:00Z",
       "09ab2810e05e645b294c7236a88013baca37afaf"},
      {"questions/modern-decoder.json", "2026-12-08T12:00:00Z",
       "0e1d31b4e5fb38ae06d17c4f0f2f168bda825927"},
      {"questions/scaled-dot-product-attention.json", "2026-12-07T12:00:00Z",
       "35e6f394d10bac9cde08b70d1eb6cb016a35938a"},
      {"questions/transformer-architectures.json", "2026-12-07T18:00:00Z",
       "d5ecb363df89a46eeb238bb16811558ac85d9ec6"},
      {"questions/transformer-layer.json", "2026-12-07T12:00:00Z",
       "939eda04b7d352316ea283ac61153791423ea0a9"},
  };
  const auto& builtin = proofdeck::bank::builtin_banks();
  CHECK(builtin.size() == pins.size());
  for (const auto& bank : builtin) {
    const std::string file(bank.name);
    const auto pin =
        std::find_if(pins.begin(), pins.end(), [&](const Pin& p) { return file == p.file; });
    const std::string hash = proofdeck::print::sha1_hex(bank.text);
    const std::string revised =
        json::parse(bank.text).at("bank").value("revised", std::string("(none)"));
    if (pin == pins.end()) {
      FAIL_CHECK(file << " is a new built-in bank: give it \"revised\" and pin it in "
                      << "tests/test_export.cpp as {\"" << file << "\", \"" << revised << "\", \""
                      << hash << "\"}");
      continue;
    }
    if (hash == pin->sha1) continue;
    if (revised <= std::string(pin->revised)) {
      FAIL_CHECK(file << " changed, but its \"revised\" is still " << revised
                      << ": bump \"revised\" in its \"bank\" metadata to today's date (Anki "
                      << "re-imports a note only when it is newer), then pin the new hash here");
    } else {
      FAIL_CHECK(file << " changed and is revised " << revised << ": pin it in "
                      << "tests/test_export.cpp as {\"" << file << "\", \"" << revised << "\", \""
                      << hash << "\"}");
    }
  }
}

TEST_CASE("export and print: an explanation's {value:NAME} is the proof's number in every format",
          "[export][print][explanation]") {
  TempDir dir;
  json bank = bank_test::worked_example();
  bank["questions"][0]["explanation"] = "Eight heads need {value:total_h8} weights in all.";
  const std::string path = dir.write("quoting.json", bank.dump());
  const auto output_of = [&](std::vector<std::string> args) {
    Cli cli;
    args.insert(args.end(), {"--no-builtin", "--bank", path, "--seed", "3"});
    const int exit_code = cli.run(args);
    INFO(cli.err.str());
    REQUIRE(exit_code == 0);
    return cli.out.str();
  };
  for (const std::string& text :
       {output_of({"print", "--format", "md"}), output_of({"print", "--format", "html"}),
        output_of({"export", "--to", "gift"}), output_of({"export", "--to", "anki"})}) {
    CHECK_THAT(text, Contains("Eight heads need 1,048,576 weights in all."));
    CHECK_THAT(text, !Contains("{value:"));
  }
  // The JSON export is a bank: it keeps the reference, so it loads and proves again.
  CHECK_THAT(output_of({"export", "--to", "json"}), Contains("{value:total_h8}"));
}

}  // namespace test_export
