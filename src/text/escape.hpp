// Text made safe for where it goes: a terminal, Markdown, HTML or XML (SVG, JUnit), a URL path,
// an id. Bank text is untrusted (anyone can write a bank), so every output path escapes through
// one of these, and each is written once.
#pragma once

#include <string>
#include <string_view>

namespace proofdeck::text {

enum class Newlines { keep, as_spaces };

// For a terminal: control characters shown as \x1b, \x07 … (never sent raw), the C1 controls
// U+0080–U+009F as \u009b … (some terminals obey U+009B as an escape), a tab as a space (its
// width depends on the column it lands in). Newlines kept, or made spaces for one-line output.
std::string terminal_safe(std::string_view text, Newlines newlines = Newlines::keep);

// Control characters and the invisible ones that reorder or hide text (bidi overrides,
// zero-width spaces): a message must not print them.
bool is_invisible(char32_t code_point);

// The text as a message quotes it with a column pointing into it: whitespace and control
// characters become spaces, other invisible characters and bytes that are not UTF-8 become '?',
// one column each, so the column still points at the right place.
std::string one_column_quote(std::string_view text);

// For XML and HTML element content and attribute values: valid UTF-8 only (anything else becomes
// U+FFFD), control characters other than tab and newline shown as \x1b, and & < > " ' as
// entities. A JUnit report and an SVG document are well-formed with it.
std::string markup_escape(std::string_view text);

// HTML element content with the text's line breaks kept as `line_break` ("<br />\n" in
// documents; Anki fields take "<br>"); carriage returns dropped.
std::string html_text(std::string_view text, std::string_view line_break = "<br />\n");

// For a Markdown paragraph or list item (GitHub Flavored Markdown): terminal-safe, every
// character Markdown would act on backslash-escaped (an underscore inside a word, as in d_model,
// stays), a line start that would begin a heading or list escaped, and line breaks made hard
// breaks followed by `break_indent` (so they stay inside a list item).
std::string markdown_escape(std::string_view text, std::string_view break_indent = "");
// For a Markdown table cell: the same on one line.
std::string markdown_cell(std::string_view text);
// Names and ids as a code span; text a code span cannot hold (a backtick, a pipe that would split
// a table cell, a line break, an edge space) as escaped text instead.
std::string markdown_code(std::string_view text);

// A word for a POSIX shell, as a copyable command shows it: as it is when every character is
// plain (letters, digits, _ - . , = + : /), else single-quoted.
std::string shell_word(std::string_view word);

// A link target: characters outside a path's plain set (letters, digits, / . _ - ~)
// percent-encoded.
std::string url_path(std::string_view path);

// An id fragment for HTML anchors and file names: lower-case ASCII letters, digits and single
// hyphens; `fallback` when nothing of the text is left.
std::string slug(std::string_view text, std::string_view fallback);

}  // namespace proofdeck::text
