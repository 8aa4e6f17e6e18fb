// Usage errors in words (see usage_error.hpp).
#include "cli/usage_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <regex>
#include <vector>

#include "cli/validators.hpp"
#include "text/suggest.hpp"

namespace proofdeck::cli {

namespace {

// The commands parsed, from the program itself to the one given last: proofdeck, demo, run.
std::vector<CLI::App*> parsed_chain(CLI::App& app) {
  std::vector<CLI::App*> chain = {&app};
  for (std::vector<CLI::App*> parsed = app.get_subcommands(); !parsed.empty();
       parsed = parsed.front()->get_subcommands()) {
    chain.push_back(parsed.front());
  }
  return chain;
}

// "demo run"; empty for the program itself.
std::string command_name(const std::vector<CLI::App*>& chain) {
  std::string name;
  for (std::size_t i = 1; i < chain.size(); ++i)
    name += (i > 1 ? " " : "") + chain[i]->get_name();
  return name;
}

std::string listed(const std::vector<std::string>& names, const std::string& prefix = "") {
  std::string list;
  for (const std::string& name : names)
    list += (list.empty() ? "" : ", ") + prefix + name;
  return list;
}

// The long option names of the commands, without their dashes; --help and --version only when
// `with_help` (they are worth suggesting, not worth listing).
std::vector<std::string> long_names(const std::vector<CLI::App*>& commands, bool with_help) {
  std::vector<std::string> names;
  for (CLI::App* command : commands) {
    for (const CLI::Option* option : command->get_options()) {
      for (const std::string& name : option->get_lnames()) {
        if (with_help || (name != "help" && name != "version")) names.push_back(name);
      }
    }
  }
  return names;
}

std::vector<std::string> subcommand_names(CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::App* subcommand : command.get_subcommands([](CLI::App*) { return true; }))
    names.push_back(subcommand->get_name());
  return names;
}

// An option the command line does not have: the closest one it does, else all of them (the
// command's own and the global ones, which are accepted after a subcommand too).
std::string unknown_option(const std::vector<CLI::App*>& chain, const std::string& word) {
  const std::string given = word.substr(0, word.find('='));
  const std::string name = command_name(chain);
  std::string message =
      fmt::format("unknown option {}{}", given, name.empty() ? "" : " for " + name);
  const std::string bare = given.substr(std::min(given.find_first_not_of('-'), given.size()));
  if (const auto match = text::closest(bare, long_names(chain, true)))
    return message + fmt::format("; did you mean --{}?", *match);
  const std::vector<std::string> own = long_names({chain.begin() + 1, chain.end()}, false);
  const std::string global = listed(long_names({chain.front()}, false), "--");
  if (name.empty()) return message + "; the options: " + global;
  if (own.empty()) return message + "; the global options: " + global;
  return message + "; its options: " + listed(own, "--") + "; the global options: " + global;
}

// A word where a command was expected (the closest command, and all of them), or one more
// argument than the command takes (perhaps an option without its dashes: `quiz count 3`).
std::string unknown_argument(const std::vector<CLI::App*>& chain, const std::string& word) {
  CLI::App& command = *chain.back();
  const std::string name = command_name(chain);
  const std::string for_command = name.empty() ? "" : " for " + name;
  if (const std::vector<std::string> commands = subcommand_names(command); !commands.empty()) {
    std::string message = fmt::format("unknown command '{}'{}", word, for_command);
    if (const auto match = text::closest(word, commands))
      message += fmt::format("; did you mean '{}'?", *match);
    return message +
           fmt::format(" ({} commands: {})", name.empty() ? "the" : "its", listed(commands));
  }
  std::string message = fmt::format("unexpected argument '{}'{}", word, for_command);
  if (const auto match = text::closest(word, long_names(chain, false)))
    message += fmt::format("; did you mean --{}?", *match);
  return message;
}

// An option's type as the help shows it: "INT" of "INT:POSITIVE".
std::string type_of(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  return type.substr(0, type.find(':'));
}

// What CLI11's own checks expect, in words, read off their help descriptions ("INT in [1 -
// 1000]", "POSITIVE", "{text,json}"): a bridge for options that still use CLI::Range,
// CLI::PositiveNumber or CLI::IsMember rather than validators.hpp.
std::optional<std::string> cli11_expectation(const CLI::Option& option, const CLI::Validator& check,
                                             const std::string& value) {
  const std::string description = check.get_description();
  const bool whole = type_of(option) == "INT" || type_of(option) == "UINT";
  if (description == "POSITIVE")
    return whole ? "expected a whole number, at least 1" : "expected a number above 0";
  if (description == "NONNEGATIVE")
    return whole ? "expected a whole number, at least 0" : "expected a number, at least 0";
  static const std::regex range(R"((INT|UINT|FLOAT) in \[(.+) - (.+)\])");
  if (std::smatch bounds; std::regex_match(description, bounds, range)) {
    return fmt::format("expected {} from {} to {}",
                       bounds[1] == "FLOAT" ? "a number" : "a whole number", bounds[2].str(),
                       bounds[3].str());
  }
  if (description.size() > 2 && description.front() == '{' && description.back() == '}') {
    std::vector<std::string> choices;
    std::size_t start = 1;
    for (std::size_t comma; (comma = description.find(',', start)) != std::string::npos;
         start = comma + 1) {
      choices.push_back(description.substr(start, comma - start));
    }
    choices.push_back(description.substr(start, description.size() - 1 - start));
    return one_of_failure(value, choices);
  }
  return std::nullopt;
}

// The checks on an option, in order (CLI11 counts them nowhere).
std::vector<CLI::Validator*> checks_of(CLI::Option& option) {
  std::vector<CLI::Validator*> checks;
  for (int index = 0;; ++index) {
    try {
      checks.push_back(option.get_validator(index));
    } catch (const CLI::OptionNotFound&) {
      return checks;
    }
  }
}

// "--count 0: expected …", or for a positional value its command: "list qustions: expected …".
std::string value_message(const std::vector<CLI::App*>& chain, std::size_t depth,
                          const CLI::Option& option, const std::string& value,
                          const std::string& expected) {
  const std::vector<CLI::App*> owner(chain.begin(),
                                     chain.begin() + static_cast<std::ptrdiff_t>(depth) + 1);
  return fmt::format("{} {}: {}", option.nonpositional() ? option.get_name() : command_name(owner),
                     value, expected);
}

// A value an option's check refused: "--count 0: expected a whole number from 1 to 100000".
// CLI11's error carries only a message, so the value is found by running the checks of every
// option given again.
std::optional<std::string> refused_value(const std::vector<CLI::App*>& chain) {
  for (std::size_t depth = 0; depth < chain.size(); ++depth) {
    for (CLI::Option* option : chain[depth]->get_options()) {
      for (const std::string& value : option->results()) {
        for (CLI::Validator* check : checks_of(*option)) {
          std::string checked = value;
          const std::string failure = (*check)(checked);
          if (failure.empty()) continue;
          const std::optional<std::string> expected =
              failure.rfind("expected ", 0) == 0 ? failure
                                                 : cli11_expectation(*option, *check, value);
          if (!expected) return std::nullopt;
          return value_message(chain, depth, *option, value, *expected);
        }
      }
    }
  }
  return std::nullopt;
}

// A value its checks let through that CLI11 could not convert (1.5 for a whole number checked
// only by CLI::PositiveNumber): the option is the one that raises this very error.
std::optional<std::string> unconverted_value(const std::vector<CLI::App*>& chain,
                                             const CLI::ParseError& error) {
  for (std::size_t depth = 0; depth < chain.size(); ++depth) {
    for (CLI::Option* option : chain[depth]->get_options()) {
      if (option->results().empty() ||
          std::string(CLI::ConversionError(option->get_name(), option->results()).what()) !=
              error.what()) {
        continue;
      }
      const std::string value = CLI::detail::join(option->results(), " ");
      for (CLI::Validator* check : checks_of(*option)) {
        if (const auto expected = cli11_expectation(*option, *check, value))
          return value_message(chain, depth, *option, value, *expected);
      }
      const std::string type = type_of(*option);
      if (type == "INT" || type == "UINT")
        return value_message(chain, depth, *option, value, "expected a whole number");
      if (type == "FLOAT") return value_message(chain, depth, *option, value, "expected a number");
      return std::nullopt;
    }
  }
  return std::nullopt;
}

bool looks_like_option(const std::string& word) {
  return word.size() > 1 && word[0] == '-' &&
         std::isdigit(static_cast<unsigned char>(word[1])) == 0 && word[1] != '.';
}

}  // namespace

std::string usage_message(CLI::App& app, const CLI::ParseError& error) {
  const std::vector<CLI::App*> chain = parsed_chain(app);
  if (const std::vector<std::string> extras = app.remaining(true); !extras.empty()) {
    const std::string& word = extras.front();
    return looks_like_option(word) ? unknown_option(chain, word) : unknown_argument(chain, word);
  }
  if (dynamic_cast<const CLI::ValidationError*>(&error) != nullptr) {
    if (const std::optional<std::string> message = refused_value(chain)) return *message;
  }
  if (dynamic_cast<const CLI::ConversionError*>(&error) != nullptr) {
    if (const std::optional<std::string> message = unconverted_value(chain, error)) return *message;
  }
  CLI::App& last = *chain.back();
  if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr &&
      last.get_require_subcommand_min() > 0 && last.get_subcommands().empty()) {
    return fmt::format("{} needs a command: {}", command_name(chain),
                       one_of_words(subcommand_names(last)));
  }
  return error.what();
}

}  // namespace proofdeck::cli
