// "Did you mean …?" for a mistyped word: the known word closest to it by edit distance, when one
// is close enough to be a likely slip of the fingers rather than a different word; and for an
// option's value, the choice a word abbreviates.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace proofdeck::text {

// Edits that turn `from` into `to`: inserting, deleting or replacing one character, or swapping
// two adjacent ones ("qiuz" → "quiz" is one edit). Optimal string alignment distance, counted in
// bytes, with ASCII letters compared regardless of case.
std::size_t edit_distance(std::string_view from, std::string_view to);

// The candidate closest to `word` when at most a third of the word's length away (at least one
// edit, so short words allow one): "qiuz" → "quiz", "strcit" → "strict"; none for "xyzzy" among
// the subcommands. Ties go to the earliest candidate.
std::optional<std::string> closest(std::string_view word,
                                   const std::vector<std::string>& candidates);

// The choice `word` stands for among the few values an option takes: the closest (a slip of the
// fingers), else the only choice it abbreviates — the only one it begins ("num" → numeric, "m" →
// multi), else the only one holding its letters in order from the first ("tf" → truefalse, "aw" →
// always). None when no choice fits or more than one does ("a" among auto and always, "xyz").
std::optional<std::string> closest_choice(std::string_view word,
                                          const std::vector<std::string>& choices);

// "; did you mean 'multi-head'?" for the closest candidate, else for the only candidate that
// begins with a word of kLeastPrefix letters or more ("order-blind" → 'order-blindness'); ""
// when neither is found.
inline constexpr std::size_t kLeastPrefix = 4;
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

// What a name that names nothing is told, after "no topic 'multihead'": the closest name and then
// the list, "; did you mean 'multi-head'? (the topics: multi-head, positional)", or the list
// alone, "; the topics: multi-head, positional". `listing` is "the topics: multi-head, positional".
std::string unknown_name_hint(std::string_view word, const std::vector<std::string>& candidates,
                              std::string_view listing);

}  // namespace proofdeck::text
