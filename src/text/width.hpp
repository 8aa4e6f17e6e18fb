// How much room text takes on a terminal, and making it fit: display width, padding, cutting
// with "…" at a character boundary, and wrapping at word boundaries. Every module that lays out
// text for a terminal (study screens, stats, list, check, demo figures, --help) measures here.
// Input is UTF-8; none of these functions ever cuts a character in half.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace proofdeck::text {

// The width of text output when nothing says otherwise (no --width, no terminal, no $COLUMNS),
// and of files written for any reader.
constexpr int kDefaultWidth = 80;

// The measure of prose: paragraphs, explanations, prompts and messages wrap at the narrower of
// the width and this, since lines much longer than 100 columns are hard to read back along;
// tables, figures and commands take the whole width.
constexpr int kProseWidth = 100;

// Columns a terminal gives the text: one per character, two for East Asian wide and fullwidth
// characters and emoji, none for combining marks and zero-width characters. Newlines count as
// nothing; the text is taken as one line.
int display_width(std::string_view text);
// The widest of `texts` in columns (0 for none): a column that holds all of them whole.
int widest(const std::vector<std::string>& texts);

// Bytes of the longest leading part of `text` that fits in `columns` columns.
std::size_t prefix_bytes(std::string_view text, int columns);

// Padded with spaces to `columns` (text already as wide or wider is returned as it is).
std::string pad_right(std::string_view text, int columns);
std::string pad_left(std::string_view text, int columns);
std::string center(std::string_view text, int columns);

// At most `columns` columns: cut at a character boundary and ended with `ellipsis` when cut.
std::string truncate(std::string_view text, int columns, std::string_view ellipsis = "…");
// Exactly `columns` columns: truncated, or padded on the right.
std::string fit(std::string_view text, int columns);

// Greedy word wrap to `width` columns. Words are split only when a single word is longer than a
// line; a newline in the text ends a line (an empty line stays); runs of spaces between words
// become one. At least one line, possibly empty.
std::vector<std::string> wrap(std::string_view text, int width);

// Prose as a block of lines for a terminal, each ended by "\n": the first indented by `indent`,
// the others by `hanging` (by `indent` when empty), all within `width` columns and at most
// kProseWidth (when the indent leaves fewer than 10, lines take 10).
std::string wrap_block(std::string_view text, int width, std::string_view indent,
                       std::string_view hanging = {});

// A shell command as lines within `width`, broken only between shell words (a quoted word is
// one word, so every line pastes as it is): each line but the last ends with " \\", the first is
// indented by `indent`, the others two columns more; a word wider than a line stays whole.
std::vector<std::string> command_lines(std::string_view command, int width,
                                       std::string_view indent);
// command_lines as a block, each line ended by "\n".
std::string command_block(std::string_view command, int width, std::string_view indent);

// A name and its numbers on one line, indented two: the name padded to `widest` columns (the
// widest name of the table, so the numbers line up) and cut only to what the numbers leave;
// when they leave less than 16 columns, the name wraps and the numbers go on a line of their own.
std::string name_and_numbers(std::string_view name, std::string_view numbers, int widest,
                             int width);

// One entry of a two-column list ("  name      description…"), every line within `width`:
// `name` after `indent`, the description wrapped in its own column from `column` on. A name that
// leaves less than two spaces before the column puts the description on the next line; a name is
// broken only when it is wider than the whole line. When the column would leave the description
// less than 20 columns, it goes under the name, 4 columns in.
std::string definition(std::string_view name, std::string_view description, int width, int column,
                       std::string_view indent = "  ");

}  // namespace proofdeck::text
