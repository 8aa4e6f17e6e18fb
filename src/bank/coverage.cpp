// Which paragraphs of a lesson the banks' objectives ask (see coverage.hpp).
#include "bank/coverage.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "text/width.hpp"

namespace proofdeck::bank {

namespace {

constexpr int kHeadingWidth = 100;  // a one-line block at most this wide, with no full stop

std::string squeezed(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

struct Block {
  std::size_t line;
  std::vector<std::string_view> lines;
};

// Blocks of non-blank lines, with the line each starts on.
std::vector<Block> blocks_of(std::string_view lesson) {
  std::vector<Block> blocks;
  std::size_t start = 0, line = 1;
  bool in_block = false;
  while (start <= lesson.size()) {
    std::size_t end = lesson.find('\n', start);
    if (end == std::string_view::npos) end = lesson.size();
    const std::string_view text = lesson.substr(start, end - start);
    const bool blank = std::all_of(text.begin(), text.end(), [](char c) {
      return std::isspace(static_cast<unsigned char>(c)) != 0;
    });
    if (blank) {
      in_block = false;
    } else {
      if (!in_block) blocks.push_back(Block{line, {}});
      blocks.back().lines.push_back(text);
      in_block = true;
    }
    if (end == lesson.size()) break;
    start = end + 1;
    ++line;
  }
  return blocks;
}

// A one-line block that reads as a heading: short, and not ending like a sentence.
bool is_heading(const Block& block) {
  if (block.lines.size() != 1) return false;
  const std::string line = squeezed(block.lines.front());
  if (line.empty() || text::display_width(line) > kHeadingWidth) return false;
  const char last = line.back();
  return last != '.' && last != '?' && last != '!' && last != ':' && last != '"';
}

}  // namespace

std::size_t LessonCoverage::uncovered() const {
  return static_cast<std::size_t>(std::count_if(
      paragraphs.begin(), paragraphs.end(),
      [](const LessonParagraph& p) { return p.objectives.empty() && !p.out_of_scope; }));
}

LessonCoverage lesson_coverage(const std::vector<Bank>& banks, const std::string& lesson_name,
                               std::string_view lesson) {
  LessonCoverage coverage;
  coverage.lesson = lesson_name;
  const std::vector<Block> blocks = blocks_of(lesson);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (i == 0 && blocks[i].lines.size() == 1) continue;  // the title
    if (is_heading(blocks[i])) continue;
    std::string text;
    for (const std::string_view line : blocks[i].lines)
      text += std::string(line) + "\n";
    coverage.paragraphs.push_back(LessonParagraph{
        coverage.paragraphs.size() + 1, blocks[i].line, squeezed(text), {}, {}, {}});
  }
  const auto paragraphs_quoting = [&](const std::string& quote) {
    std::vector<std::size_t> found;
    const std::string words = squeezed(quote);
    if (words.empty()) return found;
    for (std::size_t p = 0; p < coverage.paragraphs.size(); ++p) {
      if (coverage.paragraphs[p].text.find(words) != std::string::npos) found.push_back(p);
    }
    return found;
  };
  const auto cite = [&](const std::string& quote, const std::string& objective) {
    for (const std::size_t p : paragraphs_quoting(quote)) {
      std::vector<std::string>& objectives = coverage.paragraphs[p].objectives;
      if (std::find(objectives.begin(), objectives.end(), objective) == objectives.end())
        objectives.push_back(objective);
    }
  };
  for (const Bank& bank : banks) {
    if (bank.lesson != lesson_name) continue;
    if (coverage.bank.empty()) coverage.bank = bank.id;
    for (const Objective& objective : bank.objectives)
      cite(objective.source.quote, objective.id);
    for (const Question& q : bank.questions)
      cite(q.source.quote, q.objective_id());
  }
  for (const Bank& bank : banks) {
    if (bank.lesson != lesson_name) continue;
    for (const OutOfScope& entry : bank.out_of_scope) {
      const std::vector<std::size_t> found = paragraphs_quoting(entry.quote);
      if (found.size() != 1) {
        coverage.problems.push_back(fmt::format(
            "{}: {}/quote: \"{}\" is in {} of {}'s paragraphs; quote words of exactly one",
            bank.file, entry.pointer, entry.quote, found.empty() ? "none" : "several",
            lesson_name));
        continue;
      }
      LessonParagraph& paragraph = coverage.paragraphs[found.front()];
      if (!paragraph.objectives.empty()) {
        coverage.problems.push_back(
            fmt::format("{}: {}: lists as out of scope a paragraph of {} that objective '{}' "
                        "asks; drop the entry",
                        bank.file, entry.pointer, lesson_name, paragraph.objectives.front()));
        continue;
      }
      paragraph.out_of_scope = entry;
      paragraph.out_of_scope_bank = bank.id;
    }
  }
  return coverage;
}

}  // namespace proofdeck::bank
