// Display width, fitting and wrapping (see width.hpp).
#include "text/width.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "text/utf8.hpp"

namespace proofdeck::text {

namespace {

struct Range {
  std::uint32_t first, last;
};

// Combining marks and zero-width characters: they join the character before them.
constexpr Range kZeroWidth[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489},  {0x0591, 0x05BD}, {0x0610, 0x061A}, {0x064B, 0x065F},
    {0x0E31, 0x0E31}, {0x0E34, 0x0E3A},  {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F},
    {0x202A, 0x202E}, {0x2060, 0x2064},  {0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F},
    {0xFEFF, 0xFEFF}, {0xE0100, 0xE01EF}};

// East Asian Wide and Fullwidth blocks, and the emoji blocks terminals draw two columns wide.
constexpr Range kWide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},
    {0x2648, 0x2653},   {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},
    {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
    {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},
    {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},   {0x27BF, 0x27BF},
    {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x303E},
    {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
    {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},
    {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4},
    {0x17000, 0x18AFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
    {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F300, 0x1F64F},
    {0x1F680, 0x1F6FF}, {0x1F7E0, 0x1F7EB}, {0x1F90C, 0x1F9FF}, {0x1FA70, 0x1FAFF},
    {0x20000, 0x3FFFD}};

template <std::size_t N>
bool in(const Range (&ranges)[N], std::uint32_t code) {
  const Range* end = ranges + N;
  const Range* found = std::lower_bound(
      ranges, end, code, [](const Range& range, std::uint32_t c) { return range.last < c; });
  return found != end && found->first <= code;
}

int columns_of(std::uint32_t code) {
  if (code == '\n' || in(kZeroWidth, code)) return 0;
  return in(kWide, code) ? 2 : 1;
}

std::string spaces(int count) {
  return std::string(static_cast<std::size_t>(std::max(count, 0)), ' ');
}

}  // namespace

int display_width(std::string_view text) {
  int width = 0;
  for (std::size_t at = 0; at < text.size();)
    width += columns_of(decode(text, at).code);
  return width;
}

std::size_t prefix_bytes(std::string_view text, int columns) {
  int used = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t next = at;
    const int width = columns_of(decode(text, next).code);
    if (used + width > columns) break;
    used += width;
    at = next;
  }
  return at;
}

std::string pad_right(std::string_view text, int columns) {
  return std::string(text) + spaces(columns - display_width(text));
}

std::string pad_left(std::string_view text, int columns) {
  return spaces(columns - display_width(text)) + std::string(text);
}

std::string center(std::string_view text, int columns) {
  const int missing = std::max(columns - display_width(text), 0);
  return spaces(missing / 2) + std::string(text) + spaces(missing - missing / 2);
}

std::string truncate(std::string_view text, int columns, std::string_view ellipsis) {
  if (columns <= 0) return {};
  if (display_width(text) <= columns) return std::string(text);
  const int ellipsis_width = display_width(ellipsis);
  if (columns <= ellipsis_width) return std::string(text.substr(0, prefix_bytes(text, columns)));
  return std::string(text.substr(0, prefix_bytes(text, columns - ellipsis_width))) +
         std::string(ellipsis);
}

std::string fit(std::string_view text, int columns) {
  return pad_right(truncate(text, columns), columns);
}

std::vector<std::string> wrap(std::string_view text, int width) {
  width = std::max(width, 1);
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find('\n', start);
    std::string_view rest = text.substr(start, end == std::string_view::npos ? end : end - start);
    std::string line;
    int line_width = 0;
    while (true) {
      const std::size_t word_start = rest.find_first_not_of(' ');
      if (word_start == std::string_view::npos) break;
      rest.remove_prefix(word_start);
      std::string_view word = rest.substr(0, rest.find(' '));
      rest.remove_prefix(word.size());
      int word_width = display_width(word);
      if (line_width > 0 && line_width + 1 + word_width > width) {
        lines.push_back(std::exchange(line, {}));
        line_width = 0;
      }
      // The one exception: a word longer than a whole line is cut where the line ends.
      while (word_width > width) {
        const std::size_t cut = std::max<std::size_t>(prefix_bytes(word, width), 1);
        lines.emplace_back(word.substr(0, cut));
        word.remove_prefix(cut);
        word_width = display_width(word);
      }
      if (word.empty()) continue;
      if (line_width > 0) {
        line += ' ';
        ++line_width;
      }
      line += word;
      line_width += word_width;
    }
    lines.push_back(std::move(line));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return lines;
}

std::string wrap_block(std::string_view text, int width, std::string_view indent,
                       std::string_view hanging) {
  if (hanging.empty()) hanging = indent;
  width = std::min(width, kProseWidth);
  // Wrapped to the narrower of the two room widths, so every line fits whichever indent it gets.
  const int room = std::max(10, width - std::max(display_width(indent), display_width(hanging)));
  std::string out;
  bool first = true;
  for (const std::string& line : wrap(text, room)) {
    out += first ? indent : hanging;
    out += line;
    out += '\n';
    first = false;
  }
  return out;
}

std::vector<std::string> command_lines(std::string_view command, int width,
                                       std::string_view indent) {
  // Split at spaces outside quotes; a backslash outside quotes escapes the next character (the
  // \' in shell_word's 'it'\''s').
  std::vector<std::string> words(1);
  bool quoted = false, escaped = false;
  for (const char c : command) {
    if (c == ' ' && !quoted && !escaped) {
      if (!words.back().empty()) words.emplace_back();
      continue;
    }
    if (escaped) {
      escaped = false;
    } else if (c == '\\' && !quoted) {
      escaped = true;
    } else if (c == '\'') {
      quoted = !quoted;
    }
    words.back() += c;
  }
  if (words.size() > 1 && words.back().empty()) words.pop_back();
  std::vector<std::string> lines;
  std::string line(indent);
  std::size_t on_line = 0;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const bool last = i + 1 == words.size();
    const int needed = display_width(line) + 1 + display_width(words[i]) +
                       (last ? 0 : 2);  // " \\" if another line follows
    if (on_line > 0 && needed > width) {
      lines.push_back(line + " \\");
      line = std::string(indent) + "  ";
      on_line = 0;
    }
    line += (on_line == 0 ? "" : " ") + words[i];
    ++on_line;
  }
  lines.push_back(line);
  return lines;
}

std::string command_block(std::string_view command, int width, std::string_view indent) {
  std::string block;
  for (const std::string& line : command_lines(command, width, indent))
    block += line + "\n";
  return block;
}

int widest(const std::vector<std::string>& texts) {
  int most = 0;
  for (const std::string& text : texts)
    most = std::max(most, display_width(text));
  return most;
}

std::string name_and_numbers(std::string_view name, std::string_view numbers, int widest,
                             int width) {
  const int room = width - 3 - display_width(numbers);
  if (room >= 16)
    return "  " + fit(name, std::min(widest, room)) + " " + std::string(numbers) + "\n";
  const int indent = std::clamp(width - display_width(numbers), 0, 6);
  return wrap_block(name, width, "  ", "    ") +
         std::string(static_cast<std::size_t>(indent), ' ') + std::string(numbers) + "\n";
}

std::string definition(std::string_view name, std::string_view description, int width, int column,
                       std::string_view indent) {
  // Less than 20 columns beside the name: the description goes under it instead.
  if (width - column < 20) column = display_width(indent) + 4;
  const std::string shown = std::string(indent) + std::string(name);
  // A name that fits the line is never broken (an id must stay whole to be copied).
  const std::string alone = display_width(shown) <= width
                                ? shown + "\n"
                                : wrap_block(name, width, indent, std::string(indent) + "    ");
  if (description.empty()) return alone;
  std::vector<std::string> lines = wrap(description, std::max(width - column, 10));
  std::string out;
  if (display_width(shown) + 2 > column) {
    out = alone;
  } else {
    out = pad_right(shown, column) + lines.front() + "\n";
    lines.erase(lines.begin());
  }
  const std::string hanging(static_cast<std::size_t>(column), ' ');
  for (const std::string& line : lines)
    out += hanging + line + "\n";
  return out;
}

}  // namespace proofdeck::text
