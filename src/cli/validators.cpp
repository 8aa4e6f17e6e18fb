// Checks for option values that say in words what is allowed (see validators.hpp).
#include "cli/validators.hpp"

#include "text/suggest.hpp"

namespace proofdeck::cli {

CLI::Validator number(double lowest, double highest) {
  return CLI::Validator(
      [lowest, highest, expected = fmt::format("expected a number from {} to {}", lowest, highest)](
          std::string& input) -> std::string {
        double value = 0;
        const char* const end = input.data() + input.size();
        const auto [stop, error] = std::from_chars(input.data(), end, value);
        const bool fits =
            error == std::errc{} && stop == end && lowest <= value && value <= highest;
        return fits ? std::string() : expected;
      },
      fmt::format("FLOAT in [{} - {}]", lowest, highest));
}

CLI::Validator one_of(std::vector<std::string> choices) {
  std::string help;
  for (const std::string& choice : choices)
    help += (help.empty() ? "" : ",") + choice;
  return CLI::Validator(
      [choices](std::string& input) -> std::string {
        for (const std::string& choice : choices)
          if (input == choice) return {};
        return one_of_failure(input, choices);
      },
      "{" + help + "}");
}

std::string one_of_words(const std::vector<std::string>& choices) {
  std::string words;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    words += i == 0 ? "" : (i + 1 == choices.size() ? " or " : ", ");
    words += choices[i];
  }
  return words;
}

std::string one_of_failure(const std::string& value, const std::vector<std::string>& choices) {
  std::string message = "expected " + one_of_words(choices);
  if (const auto suggestion = text::closest_choice(value, choices))
    message += fmt::format("; did you mean {}?", *suggestion);
  return message;
}

}  // namespace proofdeck::cli
