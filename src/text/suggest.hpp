// "Did you mean …?" for a mistyped word: the known word closest to it by edit distance, when one
// is close enough to be a likely slip of the fingers rather than a different word.
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

}  // namespace proofdeck::text
