// "Did you mean …?" (see suggest.hpp).
#include "text/suggest.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace proofdeck::text {

namespace {

char folded(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// Whether `word` (shorter than `choice`) begins `choice`, or, short of that, holds letters of
// `choice` in order from its first: "num" begins "numeric"; "tf" abbreviates "truefalse".
enum class Abbreviation { none, prefix, letters };
Abbreviation abbreviation(std::string_view word, std::string_view choice) {
  if (word.empty() || word.size() >= choice.size() || folded(word[0]) != folded(choice[0]))
    return Abbreviation::none;
  if (edit_distance(word, choice.substr(0, word.size())) == 0) return Abbreviation::prefix;
  std::size_t at = 1;  // letters of word found so far, in order
  for (std::size_t i = 1; i < choice.size() && at < word.size(); ++i) {
    if (folded(choice[i]) == folded(word[at])) ++at;
  }
  return at == word.size() ? Abbreviation::letters : Abbreviation::none;
}

}  // namespace

std::size_t edit_distance(std::string_view from, std::string_view to) {
  // distance[i][j]: edits from from[0, i) to to[0, j); rows of to.size() + 1.
  const std::size_t columns = to.size() + 1;
  std::vector<std::size_t> distance((from.size() + 1) * columns);
  const auto at = [&](std::size_t i, std::size_t j) -> std::size_t& {
    return distance[i * columns + j];
  };
  for (std::size_t i = 0; i <= from.size(); ++i)
    at(i, 0) = i;
  for (std::size_t j = 0; j <= to.size(); ++j)
    at(0, j) = j;
  for (std::size_t i = 1; i <= from.size(); ++i) {
    for (std::size_t j = 1; j <= to.size(); ++j) {
      const std::size_t replace = folded(from[i - 1]) == folded(to[j - 1]) ? 0 : 1;
      at(i, j) = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + replace});
      const bool swapped = i > 1 && j > 1 && folded(from[i - 1]) == folded(to[j - 2]) &&
                           folded(from[i - 2]) == folded(to[j - 1]);
      if (swapped) at(i, j) = std::min(at(i, j), at(i - 2, j - 2) + 1);
    }
  }
  return at(from.size(), to.size());
}

std::optional<std::string> closest(std::string_view word,
                                   const std::vector<std::string>& candidates) {
  const std::size_t allowed = std::max<std::size_t>(word.size() / 3, 1);
  std::optional<std::string> best;
  std::size_t best_distance = allowed + 1;
  for (const std::string& candidate : candidates) {
    const std::size_t distance = edit_distance(word, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

std::optional<std::string> closest_choice(std::string_view word,
                                          const std::vector<std::string>& choices) {
  if (std::optional<std::string> match = closest(word, choices)) return match;
  std::vector<std::string> begun, abbreviated;
  for (const std::string& choice : choices) {
    const Abbreviation fit = abbreviation(word, choice);
    if (fit == Abbreviation::prefix) begun.push_back(choice);
    if (fit != Abbreviation::none) abbreviated.push_back(choice);
  }
  // A choice begun is the stronger sign: "al" means always even among choices it abbreviates.
  if (!begun.empty()) return begun.size() == 1 ? std::optional(begun.front()) : std::nullopt;
  return abbreviated.size() == 1 ? std::optional(abbreviated.front()) : std::nullopt;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  std::optional<std::string> match = closest(word, candidates);
  if (!match && word.size() >= kLeastPrefix) {
    // A name cut short ("order-blind") is many edits away, but the only one it begins.
    std::vector<std::string> begun;
    for (const std::string& candidate : candidates) {
      if (candidate.size() > word.size() &&
          edit_distance(word, std::string_view(candidate).substr(0, word.size())) == 0)
        begun.push_back(candidate);
    }
    if (begun.size() == 1) match = begun.front();
  }
  return match ? fmt::format("; did you mean '{}'?", *match) : std::string();
}

std::string unknown_name_hint(std::string_view word, const std::vector<std::string>& candidates,
                              std::string_view listing) {
  const std::string suggestion = did_you_mean(word, candidates);
  return suggestion.empty() ? fmt::format("; {}", listing)
                            : fmt::format("{} ({})", suggestion, listing);
}

}  // namespace proofdeck::text
