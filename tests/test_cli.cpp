// The command line driven in-process: streams are string streams and the environment a map, so
// every test sees exactly what a user would see on stdout and stderr, and the exit code.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/app.hpp"
#include "cli/engine_bench.hpp"
#include "cli_test_support.hpp"
#include "demo/demo.hpp"
#include "engine/fault.hpp"
#include "render/theme.hpp"
#include "study/input.hpp"
#include "text/width.hpp"
#include "version.hpp"

namespace test_cli {

namespace {

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using nlohmann::json;
using proofdeck::BenchOptions;
using proofdeck::ColorMode;
using proofdeck::estimate_cost;
using proofdeck::kBenchMaxBytes;
using proofdeck::kBenchMaxOperations;
using proofdeck::should_color;

using namespace cli_test;

std::string read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

// PE[p] for p = 0, 1 with d_model 4: sin(p), cos(p), sin(p/100), cos(p/100).
constexpr const char* kSinusoidalSpec =
    R"({"op": "sinusoidal", "config": {"d_model": 4}, "input": [0, 1]})";
constexpr const char* kSinusoidalResult =
    R"({"output":[[0.0,1.0,0.0,1.0],)"
    R"([0.8414709848078965,0.5403023058681398,0.009999833334166664,0.9999500004166653]]})"
    "\n";

// `engine bench` on a layer small enough to time in microseconds; `changes` replace its sizes.
std::vector<std::string> tiny_bench(const std::map<std::string, std::string>& changes = {}) {
  std::map<std::string, std::string> options = {{"--seq", "4"},   {"--d-model", "8"},
                                                {"--heads", "2"}, {"--d-ff", "16"},
                                                {"--iters", "1"}, {"--warmup", "0"}};
  for (const auto& [name, value] : changes) {
    options[name] = value;
  }
  std::vector<std::string> args = {"engine", "bench"};
  for (const auto& [name, value] : options) {
    args.push_back(name);
    args.push_back(value);
  }
  return args;
}

}  // namespace

// --- global options ---------------------------------------------------------------------------

TEST_CASE("the version flag prints the name and version", "[cli]") {
  Cli cli;
  CHECK(cli.run({"--version"}) == 0);
  CHECK(cli.out.str() == std::string("proofdeck ") + proofdeck::kVersion + "\n");
  CHECK(cli.err.str().empty());
}

TEST_CASE("the help flag lists the engine subcommand", "[cli]") {
  Cli cli;
  CHECK(cli.run({"--help"}) == 0);
  CHECK_THAT(cli.out.str(), Contains("engine"));
  CHECK(cli.err.str().empty());
}

TEST_CASE("without a subcommand the help is printed", "[cli]") {
  Cli help;
  help.run({"--help"});
  Cli bare;
  CHECK(bare.run({}) == 0);
  CHECK(bare.out.str() == help.out.str());
}

TEST_CASE("an unknown option is a usage error", "[cli]") {
  Cli cli;
  CHECK(cli.run({"--bogus"}) == 2);
  CHECK_THAT(cli.err.str(),
             StartsWith("error: ") && Contains("--bogus") && Contains("Run with --help"));
  CHECK(cli.out.str().empty());
}

TEST_CASE("an unknown subcommand is a usage error", "[cli]") {
  Cli cli;
  CHECK(cli.run({"bogus"}) == 2);
  CHECK_THAT(cli.err.str(),
             StartsWith("error: ") && Contains("bogus") && Contains("Run with --help"));
  CHECK(cli.out.str().empty());
}

TEST_CASE("the color option takes only auto, always or never", "[cli]") {
  Cli cli;
  CHECK(cli.run({"--color", "bogus"}) == 2);
  CHECK_THAT(cli.err.str(), StartsWith("error: --color bogus: expected auto, always or never\n"));
}

TEST_CASE("global options are accepted after the subcommand", "[cli]") {
  Cli cli;
  std::vector<std::string> args = tiny_bench();
  args.insert(args.end(), {"--seed", "3", "--color", "never"});
  CHECK(cli.run(args) == 0);
  CHECK(cli.err.str().empty());
}

// --- usage errors -----------------------------------------------------------------------------
// What a mistyped command line is told: the word or value given, what is allowed, and "did you
// mean" for a slip of the fingers; always exit 2 and a pointer to --help.

namespace {

constexpr const char* kRunWithHelp = "Run with --help for more information.\n";

// stderr of a command line that must be a usage error.
std::string usage_error(const std::vector<std::string>& args) {
  Cli cli;
  CHECK(cli.run(args) == 2);
  CHECK(cli.out.str().empty());
  return cli.err.str();
}

}  // namespace

TEST_CASE("a misspelt command is answered with the command meant", "[cli][usage]") {
  CHECK(usage_error({"qiuz"}) ==
        std::string("error: unknown command 'qiuz'; did you mean 'quiz'? (the commands: quiz, "
                    "exam, drill, stats, demo, check, print, export, engine, list, analyze)\n") +
            kRunWithHelp);
  CHECK_THAT(usage_error({"Exma"}), StartsWith("error: unknown command 'Exma'; did you mean "
                                               "'exam'? (the commands: quiz, "));
}

TEST_CASE("a word that is no command lists the commands", "[cli][usage]") {
  CHECK(usage_error({"xyzzy"}) ==
        std::string("error: unknown command 'xyzzy' (the commands: quiz, exam, drill, stats, "
                    "demo, check, print, export, engine, list, analyze)\n") +
            kRunWithHelp);
}

TEST_CASE("a misspelt subcommand of engine is answered with the one meant", "[cli][usage]") {
  CHECK_THAT(usage_error({"engine", "rnu", "spec.json"}),
             StartsWith("error: unknown command 'rnu' for engine; did you mean 'run'? (its "
                        "commands: run, bench)\n"));
}

TEST_CASE("a command without its subcommand names the ones it has", "[cli][usage]") {
  CHECK(usage_error({"engine"}) ==
        std::string("error: engine needs a command: run or bench\n") + kRunWithHelp);
  CHECK_THAT(usage_error({"demo"}), StartsWith("error: demo needs a command: list or run\n"));
}

TEST_CASE("a misspelt option of a subcommand is answered with the option meant", "[cli][usage]") {
  CHECK(usage_error({"quiz", "--cuont", "3"}) ==
        std::string("error: unknown option --cuont for quiz; did you mean --count?\n") +
            kRunWithHelp);
  CHECK_THAT(usage_error({"check", "--strcit"}),
             StartsWith("error: unknown option --strcit for check; did you mean --strict?\n"));
  CHECK_THAT(usage_error({"check", "--strcit=1"}),
             StartsWith("error: unknown option --strcit for check; did you mean --strict?\n"));
}

TEST_CASE("a misspelt global option is answered with the option meant, anywhere on the line",
          "[cli][usage]") {
  CHECK_THAT(usage_error({"--widht", "60"}),
             StartsWith("error: unknown option --widht; did you mean --width?\n"));
  CHECK_THAT(usage_error({"list", "topics", "--widht", "60"}),
             StartsWith("error: unknown option --widht for list; did you mean --width?\n"));
}

TEST_CASE("an option with no close match lists the command's options and the global ones",
          "[cli][usage]") {
  CHECK(usage_error({"check", "--xyzzy"}) ==
        std::string("error: unknown option --xyzzy for check; its options: --format, --output, "
                    "--min-verified, --strict, --lint, --cues, --source, --coverage, --mutate, "
                    "--engine-faults, "
                    "--list-faults, --forms; the global "
                    "options: "
                    "--color, --seed, --bank, --no-builtin, --data-dir, --width, --now\n") +
            kRunWithHelp);
  CHECK_THAT(usage_error({"--xyzzy"}),
             StartsWith("error: unknown option --xyzzy; the options: --color, --seed, --bank, "
                        "--no-builtin, --data-dir, --width, --now\n"));
}

TEST_CASE("an argument a command does not take is named, and an option without dashes found",
          "[cli][usage]") {
  CHECK_THAT(usage_error({"demo", "run", "head-params", "extra"}),
             StartsWith("error: unexpected argument 'extra' for demo run\n"));
  CHECK_THAT(usage_error({"list", "topics", "format", "json"}),
             StartsWith("error: unexpected argument 'format' for list; did you mean --format?\n"));
}

TEST_CASE("a word outside an option's choices lists them and suggests the one meant",
          "[cli][usage]") {
  CHECK_THAT(usage_error({"--color", "alwyas"}),
             StartsWith("error: --color alwyas: expected auto, always or never; did you mean "
                        "always?\n"));
  CHECK_THAT(usage_error({"list", "qustions"}),
             StartsWith("error: list qustions: expected banks, topics, traps, objectives or "
                        "questions; did you mean questions?\n"));
  CHECK_THAT(usage_error({"stats", "--format", "jsn"}),
             StartsWith("error: --format jsn: expected text or json; did you mean json?\n"));
}

TEST_CASE("a choice given by its initials or its first letters is suggested", "[cli][usage]") {
  CHECK(usage_error({"quiz", "--type", "tf"}) ==
        std::string("error: --type tf: expected single, multi, truefalse, numeric or order; did "
                    "you mean truefalse?\n") +
            kRunWithHelp);
  CHECK_THAT(usage_error({"drill", "--type", "num"}),
             StartsWith("error: --type num: expected single, multi, truefalse, numeric or order; "
                        "did you mean numeric?\n"));
  CHECK_THAT(usage_error({"export", "--to", "an"}),
             StartsWith("error: --to an: expected gift, anki, apkg or json; did you mean anki?\n"));
  CHECK_THAT(usage_error({"print", "--format", "pdf"}),
             StartsWith("error: --format pdf: expected md or html\n"));
}

TEST_CASE("a whole-number option names the value given and the range allowed", "[cli][usage]") {
  CHECK(usage_error({"--width", "5", "list", "topics"}) ==
        std::string("error: --width 5: expected a whole number from 20 to 10000\n") + kRunWithHelp);
  CHECK_THAT(usage_error({"--width", "abc"}),
             StartsWith("error: --width abc: expected a whole number from 20 to 10000\n"));
  CHECK_THAT(usage_error({"--width", "60.5"}),
             StartsWith("error: --width 60.5: expected a whole number from 20 to 10000\n"));
  CHECK_THAT(usage_error({"engine", "run", "spec.json", "--indent", "9"}),
             StartsWith("error: --indent 9: expected a whole number from 0 to 8\n"));
  CHECK_THAT(usage_error({"engine", "bench", "--seq", "abc"}),
             StartsWith("error: --seq abc: expected a whole number from 1 to 4096\n"));
}

TEST_CASE("whole numbers are plain decimals, never read as octal or hexadecimal", "[cli][usage]") {
  // CLI11 alone reads 020 as octal 16 (too narrow a width, so silently 80) and 0x20 as 32.
  CHECK_THAT(usage_error({"--width", "020", "list", "topics"}),
             StartsWith("error: --width 020: expected a whole number from 20 to 10000, without "
                        "leading zeros\n"));
  CHECK_THAT(usage_error({"--width", "0x20", "list", "topics"}),
             StartsWith("error: --width 0x20: expected a whole number from 20 to 10000\n"));
  Cli zero;  // a zero on its own is no leading zero
  zero.in.str(kSinusoidalSpec);
  CHECK(zero.run({"engine", "run", "-", "--indent", "0"}) == 0);
}

TEST_CASE("a seed is a whole number from 0, never a negative one wrapped round", "[cli][usage]") {
  CHECK_THAT(usage_error({"--seed", "-1", "list", "topics"}),
             StartsWith("error: --seed -1: expected a whole number from 0 to "
                        "18446744073709551615\n"));
  CHECK_THAT(usage_error({"--seed", "x1"}),
             StartsWith("error: --seed x1: expected a whole number from 0 to "
                        "18446744073709551615\n"));
  Cli largest;
  CHECK(largest.run({"--seed", "18446744073709551615", "list", "topics"}) == 0);
}

TEST_CASE("the study commands' counts name the value given and the range allowed", "[cli][usage]") {
  CHECK(usage_error({"quiz", "--count", "0"}) ==
        std::string("error: --count 0: expected a whole number from 1 to 100000\n") + kRunWithHelp);
  CHECK_THAT(usage_error({"quiz", "--count", "abc"}),
             StartsWith("error: --count abc: expected a whole number from 1 to 100000\n"));
  CHECK_THAT(usage_error({"quiz", "--count", "1.5"}),
             StartsWith("error: --count 1.5: expected a whole number from 1 to 100000\n"));
  CHECK_THAT(usage_error({"exam", "--count", "1001"}),
             StartsWith("error: --count 1001: expected a whole number from 1 to 1000\n"));
  CHECK_THAT(usage_error({"drill", "--limit", "0"}),
             StartsWith("error: --limit 0: expected a whole number from 1 to 100000\n"));
}

TEST_CASE("a fractional option names the value given and the range allowed", "[cli][usage]") {
  CHECK(usage_error({"exam", "--minutes", "0"}) ==
        std::string("error: --minutes 0: expected a number from 0.01 to 1440\n") + kRunWithHelp);
  CHECK_THAT(usage_error({"exam", "--pass", "much"}),
             StartsWith("error: --pass much: expected a number from 0 to 100\n"));
  CHECK_THAT(usage_error({"drill", "--retention", "2"}),
             StartsWith("error: --retention 2: expected a number from 0.7 to 0.99\n"));
  CHECK_THAT(usage_error({"check", "--min-verified", "101"}),
             StartsWith("error: --min-verified 101: expected a number from 0 to 100\n"));
  CHECK_THAT(usage_error({"check", "--min-verified", "nan"}),
             StartsWith("error: --min-verified nan: expected a number from 0 to 100\n"));
}

TEST_CASE("a study session ended by Ctrl-C exits 130 with a notice, not an error", "[cli][usage]") {
  TempDir data;
  // The session's own guard is installed while it runs; this one catches the signal raised
  // before it starts, so the session's first read finds the learner's Ctrl-C waiting.
  proofdeck::study::InterruptGuard ctrl_c;
  struct Forget {
    ~Forget() { proofdeck::study::InterruptGuard::clear(); }
  } forget;
  std::raise(SIGINT);
  REQUIRE(proofdeck::study::InterruptGuard::interrupted());
  Cli cli;
  CHECK(cli.run({"quiz", "--data-dir", data.path().string(), "--color", "never"}) == 130);
  CHECK_THAT(cli.err.str(),
             Catch::Matchers::EndsWith("Interrupted: every answer given was saved.\n") &&
                 !Contains("error"));
}

// --- engine run -------------------------------------------------------------------------------

TEST_CASE("engine run on a missing file exits 2 naming the file", "[cli]") {
  TempDir dir;
  const std::string missing = (dir.path() / "missing.json").string();
  Cli cli;
  CHECK(cli.run({"engine", "run", missing}) == 2);
  CHECK(cli.err.str() == "error: " + missing + ": cannot open: No such file or directory\n");
  CHECK(cli.out.str().empty());
}

TEST_CASE("engine run on a directory exits 2 naming it", "[cli]") {
  TempDir dir;
  Cli cli;
  CHECK(cli.run({"engine", "run", dir.path().string()}) == 2);
  CHECK_THAT(cli.err.str(), StartsWith("error: " + dir.path().string() + ": "));
  CHECK(cli.out.str().empty());
}

TEST_CASE("engine run on a spec with a problem exits 2 with the message", "[cli]") {
  TempDir dir;
  const std::string spec = dir.write("spec.json", R"({"op": "linear"})");
  Cli cli;
  CHECK(cli.run({"engine", "run", spec}) == 2);
  CHECK(cli.err.str() == "error: " + spec + ": input: missing; linear needs an input\n");
  CHECK(cli.out.str().empty());
}

TEST_CASE("engine run on malformed JSON names file, line and column", "[cli]") {
  TempDir dir;
  const std::string spec = dir.write("spec.json", "{\"op\": \"relu\",\n \"input\": [[1,]]}\n");
  Cli cli;
  CHECK(cli.run({"engine", "run", spec}) == 2);
  CHECK_THAT(cli.err.str(), StartsWith("error: " + spec + ":2:15: "));
}

TEST_CASE("engine run - reads the spec from standard input", "[cli]") {
  Cli cli;
  cli.in.str(kSinusoidalSpec);
  CHECK(cli.run({"engine", "run", "-"}) == 0);
  CHECK(cli.out.str() == kSinusoidalResult);
  CHECK(cli.err.str().empty());
}

TEST_CASE("engine run - names standard input <stdin> in errors", "[cli]") {
  Cli cli;
  cli.in.str(R"({"op": "linear"})");
  CHECK(cli.run({"engine", "run", "-"}) == 2);
  CHECK(cli.err.str() == "error: <stdin>: input: missing; linear needs an input\n");
}

TEST_CASE("engine run --output writes the result to the file and nothing to stdout", "[cli]") {
  TempDir dir;
  const std::string spec = dir.write("spec.json", kSinusoidalSpec);
  const fs::path result = dir.path() / "result.json";
  Cli cli;
  CHECK(cli.run({"engine", "run", spec, "--output", result.string()}) == 0);
  CHECK(cli.out.str().empty());
  CHECK(read_file(result) == kSinusoidalResult);
  CHECK(dir.entries() == std::vector<std::string>{"result.json", "spec.json"});
}

TEST_CASE("engine run --output into a missing directory exits 3 and leaves nothing behind",
          "[cli]") {
  TempDir dir;
  const std::string spec = dir.write("spec.json", kSinusoidalSpec);
  const std::string result = (dir.path() / "missing" / "result.json").string();
  Cli cli;
  CHECK(cli.run({"engine", "run", spec, "--output", result}) == 3);
  CHECK(cli.err.str() == "error: " + result + ": cannot write: No such file or directory\n");
  CHECK(cli.out.str().empty());
  CHECK(dir.entries() == std::vector<std::string>{"spec.json"});
}

TEST_CASE("engine run --indent pretty-prints the result", "[cli]") {
  TempDir dir;
  const std::string spec = dir.write("spec.json", R"({"op": "relu", "input": [[-1, 2]]})");
  Cli cli;
  CHECK(cli.run({"engine", "run", spec, "--indent", "2"}) == 0);
  CHECK(cli.out.str() == "{\n  \"output\": [\n    [\n      0.0,\n      2.0\n    ]\n  ]\n}\n");
}

// --- engine bench -----------------------------------------------------------------------------

TEST_CASE("engine bench prints timings and throughput as JSON", "[cli]") {
  Cli cli;
  REQUIRE(cli.run(tiny_bench()) == 0);
  const json result = json::parse(cli.out.str());
  CHECK(result.at("forward_ms").get<double>() > 0.0);
  CHECK(result.at("forward_backward_ms").get<double>() > 0.0);
  CHECK(result.at("gflops").get<double>() > 0.0);
}

TEST_CASE("engine bench refuses heads that do not divide d-model", "[cli]") {
  Cli cli;
  CHECK(cli.run(tiny_bench({{"--heads", "3"}})) == 2);
  CHECK(cli.err.str() == "error: --d-model 8 is not divisible by --heads 3\n");
  CHECK(cli.out.str().empty());
}

TEST_CASE("engine bench refuses sizes out of range with the range", "[cli]") {
  Cli cli;
  CHECK(cli.run(tiny_bench({{"--seq", "0"}})) == 2);
  CHECK_THAT(cli.err.str(), StartsWith("error: --seq 0: expected a whole number from 1 to 4096\n"));
}

TEST_CASE("engine bench refuses more heads than the width has columns", "[cli]") {
  Cli cli;
  CHECK(cli.run(tiny_bench({{"--heads", "16"}})) == 2);
  CHECK(cli.err.str() == "error: --heads 16: expected a whole number from 1 to 8\n");
}

TEST_CASE("engine bench refuses a shape that would take gigabytes, naming the limit", "[cli]") {
  Cli cli;
  CHECK(cli.run({"engine", "bench", "--seq", "4096", "--heads", "64"}) == 2);
  CHECK(cli.err.str() ==
        "error: --seq 4096 with --heads 64, --d-model 512, --d-ff 2048 needs about 7.0 GiB of "
        "memory; the limit is 4 GiB: choose smaller sizes\n");
  CHECK(cli.out.str().empty());
}

TEST_CASE("engine bench refuses a run that would take minutes, naming the limit", "[cli]") {
  Cli cli;
  CHECK(cli.run({"engine", "bench", "--iters", "100000"}) == 2);
  CHECK(cli.err.str() ==
        "error: 3 warm-up and 100000 timed iterations of this shape are about 3.5e+14 "
        "operations; the limit is 3e+12 (about a minute on one core): lower --iters or the "
        "sizes\n");
}

TEST_CASE("the benchmark's own shapes are far inside the limits", "[cli]") {
  BenchOptions bench;  // scripts/bench: encoder_layer T=128 E=512 H=8 F=2048, 20 iterations
  CHECK(estimate_cost(bench).operations < kBenchMaxOperations / 10);
  CHECK(estimate_cost(bench).bytes < kBenchMaxBytes / 10);
  bench.op = "mha";
  bench.seq = 1024;
  CHECK(estimate_cost(bench).operations < kBenchMaxOperations);
}

TEST_CASE("engine bench times grouped-query attention with --kv-heads", "[cli]") {
  Cli cli;
  REQUIRE(cli.run(tiny_bench({{"--op", "gqa"}, {"--heads", "4"}, {"--kv-heads", "2"}})) == 0);
  const json result = json::parse(cli.out.str());
  CHECK(result.at("op") == "gqa");
  CHECK(result.at("heads") == 4);
  CHECK(result.at("kv_heads") == 2);
  CHECK(result.at("forward_ms").get<double>() > 0.0);
  CHECK(result.at("forward_backward_ms").get<double>() > 0.0);
}

TEST_CASE("engine bench gqa without --kv-heads is multi-head", "[cli]") {
  Cli cli;
  REQUIRE(cli.run(tiny_bench({{"--op", "gqa"}})) == 0);
  CHECK(json::parse(cli.out.str()).at("kv_heads") == 2);
}

TEST_CASE("engine bench refuses --kv-heads that do not divide --heads", "[cli]") {
  Cli cli;
  CHECK(cli.run(tiny_bench({{"--op", "gqa"}, {"--heads", "4"}, {"--kv-heads", "3"}})) == 2);
  CHECK(cli.err.str() ==
        "error: --heads 4 is not divisible by --kv-heads 3: every key/value head serves the same "
        "number of query heads\n");
  CHECK(cli.out.str().empty());
}

TEST_CASE("engine bench refuses more --kv-heads than --heads, and --kv-heads for other ops",
          "[cli]") {
  Cli cli;
  CHECK(cli.run(tiny_bench({{"--op", "gqa"}, {"--kv-heads", "4"}})) == 2);
  CHECK(cli.err.str() == "error: --kv-heads 4: expected a whole number from 1 to 2\n");
  Cli other;
  CHECK(other.run(tiny_bench({{"--op", "mha"}, {"--kv-heads", "1"}})) == 2);
  CHECK(other.err.str() == "error: --kv-heads 1: only --op gqa has key/value heads of its own\n");
}

// --- colour -----------------------------------------------------------------------------------

TEST_CASE("color always and never win over the environment and the terminal", "[cli][color]") {
  CHECK(should_color(ColorMode::always, false, getenv_from({{"NO_COLOR", "1"}})));
  CHECK(should_color(ColorMode::always, false, getenv_from({{"TERM", "dumb"}})));
  CHECK_FALSE(should_color(ColorMode::never, true, getenv_from({{"FORCE_COLOR", "1"}})));
}

TEST_CASE("NO_COLOR turns colour off on a terminal", "[cli][color]") {
  CHECK_FALSE(should_color(ColorMode::automatic, true, getenv_from({{"NO_COLOR", "1"}})));
}

TEST_CASE("an empty NO_COLOR is ignored, as no-color.org says", "[cli][color]") {
  CHECK(should_color(ColorMode::automatic, true, getenv_from({{"NO_COLOR", ""}})));
}

TEST_CASE("FORCE_COLOR turns colour on even in a pipe", "[cli][color]") {
  CHECK(should_color(ColorMode::automatic, false, getenv_from({{"FORCE_COLOR", "1"}})));
}

TEST_CASE("FORCE_COLOR=0 does not force colour", "[cli][color]") {
  CHECK_FALSE(should_color(ColorMode::automatic, false, getenv_from({{"FORCE_COLOR", "0"}})));
}

TEST_CASE("TERM=dumb turns colour off on a terminal", "[cli][color]") {
  CHECK_FALSE(should_color(ColorMode::automatic, true, getenv_from({{"TERM", "dumb"}})));
}

TEST_CASE("without settings colour follows whether stdout is a terminal", "[cli][color]") {
  const Environment xterm = {{"TERM", "xterm-256color"}};
  CHECK(should_color(ColorMode::automatic, true, getenv_from(xterm)));
  CHECK_FALSE(should_color(ColorMode::automatic, false, getenv_from(xterm)));
}

TEST_CASE("list questions writes valid UTF-8 however it cuts a prompt", "[cli][width]") {
  Cli cli;
  REQUIRE(cli.run({"list", "questions"}) == 0);
  const std::string out = cli.out.str();
  for (std::size_t i = 0; i < out.size();) {
    const auto byte = static_cast<unsigned char>(out[i]);
    const std::size_t length = byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    REQUIRE(i + length <= out.size());
    REQUIRE((byte & 0xc0) != 0x80);  // never a continuation byte where a character starts
    for (std::size_t k = 1; k < length; ++k)
      REQUIRE((static_cast<unsigned char>(out[i + k]) & 0xc0) == 0x80);
    i += length;
  }
}

TEST_CASE("with --color never errors carry no escape codes", "[cli][color]") {
  Cli cli;
  cli.out_is_terminal = true;
  cli.env = {{"TERM", "xterm-256color"}, {"FORCE_COLOR", "1"}};
  CHECK(cli.run({"--color", "never", "engine", "run", "missing.json"}) == 2);
  CHECK_THAT(cli.err.str(), StartsWith("error: missing.json: "));
  CHECK_THAT(cli.err.str(), !Contains("\x1b["));
}

TEST_CASE("in a pipe errors carry no escape codes", "[cli][color]") {
  Cli cli;
  cli.env = {{"TERM", "xterm-256color"}};
  CHECK(cli.run({"engine", "run", "missing.json"}) == 2);
  CHECK_THAT(cli.err.str(), StartsWith("error: missing.json: "));
  CHECK_THAT(cli.err.str(), !Contains("\x1b["));
}

TEST_CASE("with --color always the error label is coloured", "[cli][color]") {
  Cli cli;
  CHECK(cli.run({"--color", "always", "engine", "run", "missing.json"}) == 2);
  CHECK_THAT(cli.err.str(), StartsWith("\x1b[") && Contains("error:"));
}

TEST_CASE("control characters from a spec reach the terminal escaped", "[cli][color]") {
  TempDir dir;
  const std::string spec = dir.write("spec.json", R"({"op": "\u001b[2J", "input": [[1]]})");
  Cli cli;
  CHECK(cli.run({"--color", "never", "engine", "run", spec}) == 2);
  CHECK_THAT(cli.err.str(), Contains("'\\x1b[2J' is not an engine op"));
  CHECK_THAT(cli.err.str(), !Contains("\x1b"));
}

// --- demo -------------------------------------------------------------------------------------

TEST_CASE("demo list names every demo with its parameters", "[cli][demo]") {
  Cli cli;
  REQUIRE(cli.run({"demo", "list"}) == 0);
  CHECK_THAT(cli.out.str(), Contains("a=cat bit dog"));
  for (const proofdeck::demo::DemoInfo& info : proofdeck::demo::catalog())
    CHECK_THAT(cli.out.str(), Contains(info.name));
  Cli json_cli;
  REQUIRE(json_cli.run({"demo", "list", "--format", "json"}) == 0);
  std::vector<std::string> listed;
  for (const json& demo : json::parse(json_cli.out.str()))
    listed.push_back(demo.at("name").get<std::string>());
  std::vector<std::string> names;
  for (const proofdeck::demo::DemoInfo& info : proofdeck::demo::catalog())
    names.push_back(info.name);
  CHECK(listed == names);  // every demo, in catalog order
}

TEST_CASE("demo run prints the result as JSON with the contract's keys", "[cli][demo]") {
  Cli cli;
  REQUIRE(cli.run({"demo", "run", "head-params", "--format", "json", "--seed", "3"}) == 0);
  const json result = json::parse(cli.out.str());
  CHECK(result.at("demo") == "head-params");
  CHECK(result.at("params").at("seed") == 3);
  CHECK(result.at("values").at("total_h8") == 1048576.0);
}

TEST_CASE("demo run of an unknown demo exits 2, suggests the closest and lists the demos",
          "[cli][demo]") {
  Cli typo;
  CHECK(typo.run({"demo", "run", "head-parms"}) == 2);
  CHECK_THAT(typo.err.str(), StartsWith("error: no demo named 'head-parms'; did you mean "
                                        "'head-params'? (the demos: order-blindness, head-params"));
  CHECK(typo.out.str().empty());
  Cli cut_short;
  CHECK(cut_short.run({"demo", "run", "order-blind"}) == 2);
  CHECK_THAT(cut_short.err.str(), StartsWith("error: no demo named 'order-blind'; did you mean "
                                             "'order-blindness'? (the demos: "));
  Cli unknown;
  CHECK(unknown.run({"demo", "run", "xyzzy"}) == 2);
  CHECK_THAT(unknown.err.str(), StartsWith("error: no demo named 'xyzzy'; the demos: "
                                           "order-blindness, head-params"));
}

TEST_CASE("demo run with a bad parameter exits 2 naming the allowed range", "[cli][demo]") {
  Cli cli;
  CHECK(cli.run({"demo", "run", "head-params", "--set", "heads=1,7"}) == 2);
  CHECK_THAT(cli.err.str(), Contains("heads=7") && Contains("must be one of 1, 2, 4, 8"));
  CHECK(cli.out.str().empty());
}

TEST_CASE("demo run writes a self-contained HTML file", "[cli][demo]") {
  TempDir dir;
  const fs::path file = dir.path() / "demo.html";
  Cli cli;
  REQUIRE(cli.run({"demo", "run", "variance-drift", "--format", "html", "--output",
                   file.string()}) == 0);
  std::ifstream stream(file);
  const std::string html((std::istreambuf_iterator<char>(stream)),
                         std::istreambuf_iterator<char>());
  CHECK_THAT(html, StartsWith("<!DOCTYPE html>") && Contains("<svg"));
  CHECK_THAT(html, !Contains("<script") && !Contains("http://") && !Contains("https://"));
}

TEST_CASE("text width: --width, else the terminal's, else $COLUMNS, else 80", "[cli][width]") {
  using proofdeck::cli::text_width;
  std::istringstream in;
  std::ostringstream out, err;
  proofdeck::cli::GlobalOptions global;
  proofdeck::cli::Io io{in, out, err, false, getenv_from({})};
  const auto width = [&] {
    return text_width(proofdeck::cli::Context{global, io, proofdeck::Theme::plain()});
  };
  CHECK(width() == 80);
  io.getenv = getenv_from({{"COLUMNS", "100"}});
  CHECK(width() == 100);
  io.getenv = getenv_from({{"COLUMNS", "12"}});  // too narrow to be meant: ignored
  CHECK(width() == 80);
  io.getenv = getenv_from({{"COLUMNS", "100"}});
  io.out_is_terminal = true;
  io.terminal_columns = 160;
  CHECK(width() == 160);
  global.width = 60;
  CHECK(width() == 60);
}

TEST_CASE("the global option --width takes 20 or more, before or after the subcommand",
          "[cli][width]") {
  Cli narrow;
  CHECK(narrow.run({"--width", "19", "list", "topics"}) == 2);
  CHECK_THAT(narrow.err.str(), Contains("--width"));
  Cli after;
  CHECK(after.run({"list", "topics", "--width", "60"}) == 0);
}

TEST_CASE("a quiz at --width 60 keeps every line within 60 columns", "[cli][width]") {
  for (const std::string width : {"60", "100"}) {
    INFO(width);
    TempDir dir;
    Cli cli;
    cli.in.str("a\n");
    REQUIRE(
        cli.run({"quiz", "--no-builtin", "--bank", std::string(PROOFDECK_FIXTURE_DIR) + "/../banks",
                 "--question", "mha-purpose", "--data-dir", dir.path().string(), "--seed", "1",
                 "--no-demo", "--width", width, "--color", "never"}) == 0);
    std::istringstream lines(cli.out.str());
    std::size_t widest = 0;
    for (std::string line; std::getline(lines, line);) {
      const auto columns =
          static_cast<std::size_t>(std::count_if(line.begin(), line.end(), [](char c) {
            return (static_cast<unsigned char>(c) & 0xc0) != 0x80;
          }));
      widest = std::max(widest, columns);
    }
    CHECK(widest <= std::stoul(width));
    CHECK(widest > 50);  // the text does use the width
  }
}

TEST_CASE("demo run text fits the width and carries colour only on request", "[cli][demo]") {
  Cli plain;
  REQUIRE(plain.run({"demo", "run", "order-blindness", "--width", "60"}) == 0);
  CHECK(plain.out.str().find("\x1b[") == std::string::npos);
  Cli colored;
  REQUIRE(colored.run({"demo", "run", "order-blindness", "--color", "always"}) == 0);
  CHECK(colored.out.str().find("\x1b[") != std::string::npos);
}

// --- check ------------------------------------------------------------------------------------

namespace {

const std::string kBanks = std::string(PROOFDECK_FIXTURE_DIR) + "/../banks";
const std::string kWrongBanks = std::string(PROOFDECK_FIXTURE_DIR) + "/../banks-wrong";

}  // namespace

TEST_CASE("check without any bank exits 2 and says how to give one", "[cli][check]") {
  Cli cli;
  CHECK(cli.run({"check", "--no-builtin"}) == 2);
  CHECK(cli.err.str() ==
        "error: no questions to check: no bank was loaded (give one with --bank FILE or DIR)\n");
}

TEST_CASE("check proves the worked example's keys and exits 0", "[cli][check]") {
  Cli cli;
  REQUIRE(cli.run({"check", "--no-builtin", "--bank", kBanks}) == 0);
  CHECK_THAT(cli.out.str(),
             StartsWith("3 questions: 2 verified, 1 computed, 0 supported, 0 unproven, 0 failed"));
  CHECK_THAT(cli.out.str(), Contains("questions per trap: attention-knows-order 1, "
                                     "mha-cuts-params 2"));
}

TEST_CASE("check fails exactly the questions whose keys are wrong", "[cli][check]") {
  Cli cli;
  CHECK(cli.run({"check", "--no-builtin", "--bank", kWrongBanks, "--format", "json"}) == 1);
  const json report = json::parse(cli.out.str());
  CHECK(report.at("summary").at("failed") == 2);
  std::vector<std::string> failed;
  for (const auto& q : report.at("questions")) {
    if (q.at("status") == "failed") failed.push_back(q.at("id"));
  }
  CHECK(failed == std::vector<std::string>{"mha-purpose-wrong", "per-head-qkv-wrong"});
  CHECK(cli.err.str() == "error: check failed: 2 failed\n");
}

TEST_CASE("check writes JUnit XML with a failure per wrong key", "[cli][check]") {
  Cli cli;
  CHECK(cli.run({"check", "--no-builtin", "--bank", kWrongBanks, "--format", "junit"}) == 1);
  const std::string xml = cli.out.str();
  CHECK_THAT(xml, StartsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "
                             "name=\"proofdeck check\" tests=\"3\" failures=\"2\""));
  CHECK_THAT(xml, Contains("<testcase classname=\"wrong-keys\" name=\"per-head-qkv-wrong\">"
                           "<failure message=\"key says 196,608 but head-params computes "
                           "per_head_qkv_h2 = 98,304 with d_model = 256, heads = 2\"/>"));
}

TEST_CASE(
    "check --strict fails a question with no proof and no reason — --min-verified a low "
    "verified share",
    "[cli][check]") {
  TempDir dir;
  std::ifstream source(kBanks + "/worked_example.json");
  json bank = json::parse(source);
  bank["questions"][1].erase("proof");
  bank["questions"][1].erase("claim");
  const fs::path file = dir.path() / "bank.json";
  std::ofstream(file) << bank.dump();
  Cli lenient;
  CHECK(lenient.run({"check", "--no-builtin", "--bank", file.string()}) == 0);
  Cli strict;
  CHECK(strict.run({"check", "--no-builtin", "--bank", file.string(), "--strict"}) == 1);
  CHECK(strict.err.str() ==
        "error: check failed: 1 unproven with no `unprovable` reason (--strict)\n");
  Cli floor;
  CHECK(floor.run({"check", "--no-builtin", "--bank", file.string(), "--min-verified", "80"}) == 1);
  CHECK(floor.err.str() == "error: check failed: 33.3% verified, below --min-verified 80\n");
}

TEST_CASE("check --engine-faults names the faults that change each verdict",
          "[cli][check][fault]") {
  Cli cli;
  REQUIRE(cli.run({"check", "--no-builtin", "--bank", kBanks, "--engine-faults"}) == 0);
  const std::string out = cli.out.str();
  CHECK_THAT(
      out, Contains("engine faults: " + std::to_string(proofdeck::engine::fault_catalog().size()) +
                    " faults, "));
  CHECK_THAT(out, Contains("2 of 2 verified keys caught"));
  // a structural fault changes the head counts the multi-head key rests on
  CHECK_THAT(out, Contains("  heads-share-projection (1): mha-purpose\n"));
  // and dropping the positional encoding makes the two orders attend alike again
  CHECK_THAT(out, Contains("  positions-not-added (1): order-without-pe\n"));
  // faults whose op none of these proofs reaches are named, not run
  CHECK_THAT(out, Contains("\nunreached no proof reaches the op of gqa-all-kv-head-0,"));
}

TEST_CASE("check --engine-faults --format json gives each question and option its faults",
          "[cli][check][fault]") {
  Cli cli;
  REQUIRE(cli.run({"check", "--no-builtin", "--bank", kBanks, "--engine-faults", "--format",
                   "json"}) == 0);
  const json report = json::parse(cli.out.str());
  const json& summary = report.at("summary").at("engine_faults");
  CHECK(summary.at("faults") == proofdeck::engine::fault_catalog().size());
  CHECK(summary.at("per_fault").size() == proofdeck::engine::fault_catalog().size());
  CHECK(summary.at("unconfirmed_verified").empty());
  const json& mha = report.at("questions").at(0);
  REQUIRE(mha.at("id") == "mha-purpose");
  CHECK(mha.at("faults_caught") == json{"heads-share-projection", "heads-full-width"});
  CHECK(mha.at("confirmed") == true);
  CHECK(mha.at("fragile") == false);
  CHECK(mha.at("broken_by_fault").empty());
  // the keyed option and the distractor each list the faults that flip their own claim
  for (const json& option : mha.at("options")) {
    CHECK(option.at("faults_caught").is_array());
    if (option.at("keyed") == true) CHECK(option.at("faults_caught").size() == 2);
  }
}

TEST_CASE("check --list-faults --format json lists the enum's faults in order with their fields",
          "[cli][check][fault]") {
  using proofdeck::engine::Fault;
  Cli cli;
  REQUIRE(cli.run({"check", "--list-faults", "--format", "json"}) == 0);
  CHECK(cli.err.str().empty());
  const json list = json::parse(cli.out.str());
  REQUIRE(list.size() == 1);
  const json& faults = list.at("faults");
  const auto catalog = proofdeck::engine::fault_catalog();
  REQUIRE(faults.size() == catalog.size());
  CHECK(faults.size() == 65);
  for (std::size_t i = 0; i < catalog.size(); ++i) {
    const auto& info = catalog[i];
    const json& fault = faults.at(i);
    CAPTURE(info.name);
    // every enumerator after `none`, in the enum's order, and no other
    CHECK(static_cast<std::size_t>(info.fault) == i + 1);
    CHECK(fault.at("name") == info.name);
    CHECK(fault.at("op") == proofdeck::engine::op_name(info.op));
    CHECK(fault.at("change") == info.change);
    CHECK(fault.at("trap") == (info.trap.empty() ? json(nullptr) : json(info.trap)));
    CHECK(fault.at("claim") == info.claim);
    CHECK(fault.at("subtle") == info.subtle);
    CHECK(fault.at("reshapes") == info.reshapes);
    CHECK(fault.size() == 7);
  }
  const auto past_last = static_cast<Fault>(catalog.size() + 1);
  CHECK(proofdeck::engine::fault_info(past_last).fault == Fault::none);
  CHECK(faults.at(0).at("name") == "unscaled-scores");
  CHECK(faults.at(8).at("subtle") == true);  // gqa-all-kv-head-0
}

TEST_CASE("check --list-faults gives each fault its change, op, trap and subtle flag as text",
          "[cli][check][fault]") {
  for (const int width : {50, 100, 160}) {
    Cli cli;
    REQUIRE(cli.run({"check", "--list-faults", "--width", std::to_string(width)}) == 0);
    const std::string out = cli.out.str();
    CAPTURE(width);
    CHECK(out.find("\x1b[") == std::string::npos);  // a pipe gets no colour
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
      CAPTURE(line);
      CHECK(proofdeck::text::display_width(line) <= width);
    }
    for (const auto& info : proofdeck::engine::fault_catalog()) {
      CAPTURE(info.name);
      std::string details = "op " + std::string(proofdeck::engine::op_name(info.op));
      if (!info.trap.empty()) details += " · trap " + std::string(info.trap);
      if (info.subtle) details += " · subtle";
      // each name starts a line; at 50 columns the details wrap in their narrower column
      CHECK_THAT("\n" + out, Contains("\n" + std::string(info.name)));
      if (width >= 100) CHECK_THAT(out, Contains(" " + details + "\n"));
    }
    CHECK_THAT(out, StartsWith("unscaled-scores"));
    CHECK_THAT(out, Contains("65 faults, 24 of them subtle"));
  }
  Cli wide;
  REQUIRE(wide.run({"check", "--list-faults", "--width", "160"}) == 0);
  // The name column is as wide as the longest name, layernorm-normalizes-gradients, and a space.
  CHECK_THAT(
      wide.out.str(),
      StartsWith("unscaled-scores                 scores are not divided by √d_k\n"
                 "                                op attention · trap sdpa-scale-irrelevant\n"));
  Cli colored;
  REQUIRE(colored.run({"check", "--list-faults", "--color", "always"}) == 0);
  CHECK_THAT(colored.out.str(), Contains("\x1b["));
}

TEST_CASE("every trap the engine faults model is a trap of a built-in bank",
          "[cli][check][fault]") {
  Cli traps;
  REQUIRE(traps.run({"list", "traps", "--format", "json"}) == 0);
  std::set<std::string> ids;
  for (const json& trap : json::parse(traps.out.str()))
    ids.insert(trap.at("id").get<std::string>());
  for (const auto& info : proofdeck::engine::fault_catalog()) {
    CAPTURE(info.name, info.trap);
    if (!info.trap.empty()) CHECK(ids.count(std::string(info.trap)) == 1);
  }
}

TEST_CASE("check --list-faults checks nothing, so an option that would check is a usage error",
          "[cli][check][fault]") {
  Cli modes;
  CHECK(modes.run({"check", "--list-faults", "--engine-faults", "--strict"}) == 2);
  CHECK(modes.out.str().empty());
  CHECK(modes.err.str() ==
        "error: --list-faults lists the engine faults and checks nothing, so it takes no "
        "--strict or --engine-faults: run the check without --list-faults\n");
  Cli junit;
  CHECK(junit.run({"check", "--list-faults", "--format", "junit"}) == 2);
  CHECK(junit.err.str() ==
        "error: --list-faults prints text or json, not junit: give --format text or json\n");
  // a bank it would not read is no reason to fail: the list is the engine's, not the banks'
  Cli banks;
  CHECK(banks.run({"check", "--list-faults", "--no-builtin", "--format", "json"}) == 0);
  TempDir dir;
  const fs::path file = dir.path() / "faults.txt";
  Cli output;
  REQUIRE(output.run({"check", "--list-faults", "--color", "always", "--output", file.string()}) ==
          0);
  CHECK(output.out.str().empty());
  CHECK_THAT(read_file(file), StartsWith("unscaled-scores") && !Contains("\x1b["));
}

TEST_CASE("check --engine-faults catches a template only when it catches every combination",
          "[cli][check][fault]") {
  TempDir dir;
  std::ifstream source(kBanks + "/worked_example.json");
  json bank = json::parse(source);
  // One head built full width is the one head it always was: heads-full-width changes the
  // per-head count at 2 and 8 heads, and nothing at 1.
  const auto variant = [&](const std::string& id, const json& heads) {
    json q = bank["questions"][2];
    q["id"] = id;
    q["template"]["params"] = {{"d_model", {256, 512}}, {"heads", heads}};
    bank["questions"].push_back(q);
  };
  variant("split-heads", {2, 8});
  variant("with-one-head", {1, 2, 8});
  const fs::path file = dir.path() / "bank.json";
  std::ofstream(file) << bank.dump();
  Cli cli;
  REQUIRE(cli.run({"check", "--no-builtin", "--bank", file.string(), "--engine-faults", "--format",
                   "json"}) == 0);
  const json report = json::parse(cli.out.str());
  std::map<std::string, json> by_id;
  for (const json& q : report.at("questions"))
    by_id[q.at("id").get<std::string>()] = q;
  CHECK(by_id.at("split-heads").at("faults_caught") == json{"heads-full-width"});
  CHECK(by_id.at("split-heads").at("confirmed") == true);
  // per claim: the fault moves the count off the key and onto the trap's formula, 3·d_model²
  CHECK(by_id.at("split-heads").at("options") ==
        json::parse(R"([{"option": "key", "keyed": true, "faults_caught": ["heads-full-width"]},
                        {"option": "distractor 1", "keyed": false,
                         "faults_caught": ["heads-full-width"]}])"));
  CHECK(by_id.at("with-one-head").at("faults_caught").empty());
  CHECK(by_id.at("with-one-head").at("confirmed") == false);
  // the worked example's own template reaches d_model 2048, where the count is the closed form:
  // computed, and no fault moves arithmetic
  CHECK(by_id.at("per-head-qkv").at("status") == "computed");
  CHECK(by_id.at("per-head-qkv").at("faults_caught").empty());
}

TEST_CASE(
    "check --strict --engine-faults fails a verified key no fault catches — without --strict it "
    "is a warning",
    "[cli][check][fault]") {
  TempDir dir;
  std::ifstream source(kBanks + "/worked_example.json");
  json bank = json::parse(source);
  // The unnormalised arm is a chain of bias-free products: no fault changes what it computes, so
  // no fault flips this key.
  bank["questions"].push_back(json::parse(R"({
    "id": "drift-tf", "type": "truefalse", "topic": "positional", "difficulty": 1,
    "prompt": "Twenty bias-free sublayers that each double the variance, with no normalization and no residual, leave it over 1,000 times its start.",
    "answer": true, "trap": "attention-knows-order",
    "claim": {"value": "variance_no_norm_20", "gt": 1000},
    "explanation": "True: 2^20 is about a million.",
    "source": {"section": "L1 — Intuition"},
    "proof": {"demo": "variance-drift"}})"));
  const fs::path file = dir.path() / "bank.json";
  std::ofstream(file) << bank.dump();
  Cli lenient;
  CHECK(lenient.run({"check", "--no-builtin", "--bank", file.string(), "--engine-faults"}) == 0);
  CHECK_THAT(lenient.out.str(), Contains("uncaught 1 verified key no fault catches (--strict "
                                         "fails them): drift-tf"));
  Cli strict;
  CHECK(strict.run({"check", "--no-builtin", "--bank", file.string(), "--engine-faults",
                    "--strict"}) == 1);
  CHECK(strict.err.str() ==
        "error: check failed: 1 verified key no engine fault catches (--strict --engine-faults)\n");
  Cli junit;
  CHECK(junit.run({"check", "--no-builtin", "--bank", file.string(), "--engine-faults", "--strict",
                   "--format", "junit"}) == 1);
  CHECK_THAT(junit.out.str(),
             Contains("<testcase classname=\"engine-faults\" name=\"uncaught drift-tf\">"
                      "<failure message=\"no engine fault catches this verified key\"/>"));
}

TEST_CASE("check reports every problem of an invalid bank and exits 2", "[cli][check]") {
  TempDir dir;
  std::ifstream source(kBanks + "/worked_example.json");
  json bank = json::parse(source);
  bank["questions"][0]["topic"] = "nowhere";
  bank["questions"][1]["answer"] = "no";
  const fs::path file = dir.path() / "bank.json";
  std::ofstream(file) << bank.dump();
  Cli cli;
  CHECK(cli.run({"check", "--no-builtin", "--bank", file.string()}) == 2);
  CHECK_THAT(cli.err.str(), StartsWith("error: 2 problems in the question banks:\n"));
  CHECK_THAT(cli.err.str(), Contains("/questions/1/answer: expected true or false, found string "
                                     "\"no\"") &&
                                Contains("/questions/0/topic: unknown topic 'nowhere'"));
}

TEST_CASE("check refuses a bank naming a demo value that does not exist, before proving",
          "[cli][check]") {
  TempDir dir;
  std::ifstream source(kBanks + "/worked_example.json");
  json bank = json::parse(source);
  bank["questions"][0]["proof"]["show"] = json::array({"total_h9"});
  bank["questions"][1]["proof"]["args"] = {{"sentence", "cat bit dog"}};
  const fs::path file = dir.path() / "bank.json";
  std::ofstream(file) << bank.dump();
  Cli cli;
  CHECK(cli.run({"check", "--no-builtin", "--bank", file.string()}) == 2);
  CHECK(cli.out.str().empty());
  CHECK_THAT(cli.err.str(), StartsWith("error: 2 problems in the question banks:\n"));
  CHECK_THAT(cli.err.str(), Contains("/questions/0/proof/show/0: head-params has no value "
                                     "'total_h9'") &&
                                Contains("/questions/1/proof/args/sentence: demo order-blindness "
                                         "has no parameter 'sentence'; its parameters: a, b, "
                                         "focus, d_model, heads, max_len"));
}

TEST_CASE("every command lists a bank's schema problems and its unknown demo in one report",
          "[cli][check]") {
  TempDir dir;
  std::ifstream source(kBanks + "/worked_example.json");
  json bank = json::parse(source);
  bank["questions"][0]["proof"]["demo"] = "head-parms";
  bank["questions"][1]["difficulty"] = "hard";
  const fs::path file = dir.path() / "bank.json";
  std::ofstream(file) << bank.dump();
  const std::string expected =
      "error: 2 problems in the question banks:\n  " + file.string() +
      ": /questions/1/difficulty: expected a number, found string \"hard\"\n  " + file.string() +
      ": /questions/0/proof/demo: no demo named 'head-parms'; did you mean 'head-params'? (the "
      "demos: ";
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"check"}, {"quiz"}, {"print"}, {"export", "--to", "json"}}) {
    Cli cli;
    cli.env["PROOFDECK_HOME"] = dir.path().string();
    std::vector<std::string> args = command;
    args.insert(args.end(), {"--no-builtin", "--bank", file.string()});
    CHECK(cli.run(args) == 2);
    CHECK(cli.out.str().empty());
    CHECK_THAT(cli.err.str(), StartsWith(expected));
  }
}

TEST_CASE("check says so when the loaded banks hold no questions", "[cli][check]") {
  TempDir dir;
  std::ifstream source(kBanks + "/worked_example.json");
  json bank = json::parse(source);
  bank["questions"] = json::array();
  const fs::path file = dir.path() / "bank.json";
  std::ofstream(file) << bank.dump();
  Cli cli;
  CHECK(cli.run({"check", "--no-builtin", "--bank", file.string()}) == 2);
  CHECK(cli.err.str() == "error: no questions to check: the loaded banks hold none\n");
}

TEST_CASE("check --mutate reports the kill rate and fails on a survivor", "[cli][check]") {
  Cli cli;
  REQUIRE(cli.run({"check", "--no-builtin", "--bank", kBanks, "--mutate"}) == 0);
  CHECK_THAT(cli.out.str(), Contains("mutations: 6 of 6 wrong keys caught (kill rate 100.0%)"));

  TempDir dir;
  std::ifstream source(kBanks + "/worked_example.json");
  json bank = json::parse(source);
  json& q = bank["questions"][2];
  q.erase("template");
  q.erase("distractors");
  q["prompt"] = "How many weights?";
  q["answer"] = {{"value", 1048576}, {"tolerance", 10}, {"computed", "total_h8"}};
  q["proof"] = {{"demo", "head-params"}};
  const fs::path file = dir.path() / "bank.json";
  std::ofstream(file) << bank.dump();
  Cli loose;
  CHECK(loose.run({"check", "--no-builtin", "--bank", file.string(), "--mutate", "--format",
                   "json"}) == 1);
  const json report = json::parse(loose.out.str());
  CHECK(report.at("summary").at("mutations") == 5);
  CHECK(report.at("summary").at("mutations_killed") == 4);
  CHECK(report.at("summary").at("survivors") ==
        json::array({{{"id", "per-head-qkv"}, {"mutation", "key + 1"}}}));
  CHECK(loose.err.str() == "error: check failed: 1 mutation survived\n");
}

}  // namespace test_cli
