// Terminal figures (see terminal_figure.hpp): the full and compact forms put together from the
// heatmaps, tables and charts of their own rooms, every line clipped to the width.
#include "render/terminal_figure.hpp"

#include <fmt/color.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "render/parts.hpp"
#include "render/terminal_chart.hpp"
#include "render/terminal_heatmap.hpp"
#include "render/terminal_look.hpp"
#include "render/terminal_table.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/utf8.hpp"
#include "text/width.hpp"

namespace proofdeck::render::terminal {

namespace {

bool has_colour(const Theme& theme) {
  for (const fmt::text_style* style :
       {&theme.error, &theme.warning, &theme.good, &theme.bad, &theme.emphasis, &theme.dim}) {
    if (style->has_foreground() || style->has_background() || style->has_emphasis()) return true;
  }
  return false;
}

// The look of a figure, decided once from the theme and the options.
Look make_look(const Theme& theme, const TextOptions& options) {
  Look look{.width = std::max(options.width, 1),
            .glyphs = options.unicode ? Glyphs::unicode() : Glyphs::ascii(),
            .heading = theme.emphasis,
            .dim = theme.dim,
            .value = theme.emphasis,
            .full = options.form == TextForm::full,
            .in_proof = options.form == TextForm::proof,
            .paint_cells = options.color256 && has_colour(theme),
            .line_styles = {},
            .program = options.program};
  if (has_colour(theme)) {
    // Readable on dark and light backgrounds alike (blue text is not, on dark ones).
    for (const auto colour :
         {fmt::terminal_color::cyan, fmt::terminal_color::magenta, fmt::terminal_color::green,
          fmt::terminal_color::yellow, fmt::terminal_color::blue, fmt::terminal_color::red}) {
      look.line_styles.push_back(fmt::fg(colour));
    }
  } else {
    look.line_styles.emplace_back();
  }
  return look;
}

// The guarantee behind every other function: no line is wider than the terminal. Escape
// sequences take no columns; a line cut inside a style is reset.
std::string clip(const std::string& line, int width) {
  std::string out;
  int used = 0;
  bool escaped = false;
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] == '\x1b') {
      std::size_t end = i + 1;
      if (end < line.size() && line[end] == '[') {
        ++end;
        while (end < line.size() && !(line[end] >= 0x40 && line[end] <= 0x7e))
          ++end;
      }
      end = std::min(end + 1, line.size());
      out.append(line, i, end - i);
      escaped = true;
      i = end;
      continue;
    }
    std::size_t end = i;
    text::decode(line, end);
    const int columns = text::display_width(std::string_view(line).substr(i, end - i));
    if (used + columns > width) {
      if (escaped) out += "\x1b[0m";
      return out;
    }
    out.append(line, i, end - i);
    used += columns;
    i = end;
  }
  return out;
}

// Heatmap groups (pairs where they fit, singles otherwise) and numeric tables, in result order.
struct TableGroup {
  Lines lines;
  bool heatmap = false;
  std::size_t tables = 1;  // two for a pair
};

std::vector<TableGroup> table_groups(const DemoResult& result, const DemoInfo& info,
                                     const Look& look) {
  std::vector<TableGroup> groups;
  const auto& tables = result.tables;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    const Table& table = tables[i];
    if (!table.heatmap) {
      groups.push_back({numeric_table(table, look), false});
      continue;
    }
    if (i + 1 < tables.size() && tables[i + 1].heatmap && same_shape(table, tables[i + 1])) {
      if (Lines pair = heatmap_pair(table, tables[i + 1], look); !pair.empty()) {
        groups.push_back({std::move(pair), true, 2});
        ++i;
        continue;
      }
    }
    groups.push_back({heatmap_single(table, look, result, info), true});
  }
  return groups;
}

std::string meta_line(const DemoInfo& info, const DemoResult& result, const Look& look) {
  std::string meta = one_line(info.name.empty() ? result.demo : info.name);
  if (const std::string& section = result.section_of(info); !section.empty())
    meta += " " + look.glyphs.dot + " " + one_line(section);
  return meta;
}

Lines header_lines(const DemoResult& result, const DemoInfo& info, const Look& look) {
  const std::string title = one_line(info.title.empty() ? info.name : info.title);
  const std::string meta = meta_line(info, result, look);
  Lines lines;
  if (text::display_width(title) + 4 + text::display_width(meta) <= look.width) {
    lines.push_back(styled(look.heading, title) +
                    spaces(look.width - text::display_width(title) - text::display_width(meta)) +
                    styled(look.dim, meta));
  } else {
    append(lines, styled_wrap(look.heading, title, look.width));
    append(lines, styled_wrap(look.dim, meta, look.width));
  }
  return lines;
}

Lines full_text(const DemoResult& result, const DemoInfo& info, const Look& look) {
  std::vector<Lines> sections;
  Lines head = header_lines(result, info, look);
  if (!result.claim_of(info).empty()) {
    for (const std::string& line : text::wrap(one_line(result.claim_of(info)), look.width - 2)) {
      head.push_back(styled(look.dim, look.glyphs.quote) + line);
    }
  }
  if (const auto params = parameters(result); !params.empty()) {
    std::string text = "parameters:";
    for (std::size_t i = 0; i < params.size(); ++i) {
      text += (i == 0 ? " " : " " + look.glyphs.dot + " ") + one_line(params[i].first) + "=" +
              one_line(params[i].second);
    }
    append(head, styled_wrap(look.dim, text, look.width));
  }
  sections.push_back(std::move(head));

  std::vector<TableGroup> groups = table_groups(result, info, look);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    // The shade legend goes under the last heatmap.
    const bool last_heatmap =
        groups[g].heatmap && std::none_of(groups.begin() + static_cast<std::ptrdiff_t>(g) + 1,
                                          groups.end(), [](const auto& x) { return x.heatmap; });
    if (last_heatmap) {
      groups[g].lines.push_back(unit_heatmaps(result)
                                    ? heatmap_legend(look)
                                    : spaces(kGridIndent) +
                                          styled(look.dim, "shades span each table's own range"));
    }
    sections.push_back(std::move(groups[g].lines));
  }
  for (const Series& series : result.series) {
    if (charted(series)) {
      sections.push_back(series_bars(series, look));
    } else if (one_point(series)) {
      sections.push_back(text::wrap(one_point_sentence(series), look.width));
    }
  }
  if (!result.values.empty()) {
    Lines values{styled(look.heading, "Values")};
    append(values, value_list(result.values, look, true));
    sections.push_back(std::move(values));
  }
  for (const std::string& paragraph : result.text) {
    sections.push_back(text::wrap(text::terminal_safe(paragraph), look.width));
  }

  Lines lines;
  for (const Lines& section : sections) {
    if (section.empty()) continue;
    if (!lines.empty()) lines.emplace_back();
    append(lines, section);
  }
  return lines;
}

// The figures and values of quiz feedback, without the line that says what is left out.
struct CompactLayout {
  Lines lines;
  std::size_t shown = 0;  // figures drawn
  std::size_t total = 0;  // figures the result has
};

// Quiz feedback: the heatmaps and charts that fit in about a dozen lines, then six values.
// `reserve` lines of the dozen are kept for saying what is left out: the values give them up.
CompactLayout compact_layout(const DemoResult& result, const DemoInfo& info, const Look& look,
                             std::size_t reserve) {
  constexpr std::size_t kMaxLines = 12;
  constexpr std::size_t kMaxValues = 6;
  const std::string title = one_line(info.title.empty() ? info.name : info.title);
  const std::string name = one_line(info.name.empty() ? result.demo : info.name);
  const std::string suffix = " " + look.glyphs.dot + " " + name;
  CompactLayout layout;
  Lines& lines = layout.lines;
  if (!look.in_proof) {
    lines.push_back(text::display_width(title) + text::display_width(suffix) <= look.width
                        ? styled(look.heading, title) + styled(look.dim, suffix)
                        : styled(look.heading, look.fit(title, look.width)));
  }

  // The first figure is the picture the feedback is for: it comes before the values, which keep
  // at least two lines and give up the rest when the figure needs them.
  std::vector<std::pair<std::string, Value>> values(
      result.values.begin(),
      result.values.begin() + static_cast<std::ptrdiff_t>(
                                  look.in_proof ? 0 : std::min(result.values.size(), kMaxValues)));
  const std::size_t value_reserve = std::min<std::size_t>(value_columns(values, look).size(), 2);
  // Each with the number of figures it draws (a pair of heatmaps is two).
  std::vector<std::pair<Lines, std::size_t>> candidates;
  for (TableGroup& group : table_groups(result, info, look)) {
    if (group.heatmap) candidates.emplace_back(std::move(group.lines), group.tables);
  }
  // A one-point series has no picture: its number is among the values.
  for (const Series& series : result.series) {
    if (charted(series)) candidates.emplace_back(series_sparklines(series, look), 1);
  }
  layout.total = result.tables.size() + static_cast<std::size_t>(std::count_if(
                                            result.series.begin(), result.series.end(), charted));

  std::size_t budget = kMaxLines - lines.size() - value_reserve;
  for (auto& [figure, count] : candidates) {
    if (figure.size() > budget) continue;
    budget -= figure.size();
    append(lines, figure);
    layout.shown += count;
  }
  Lines value_lines = value_columns(values, look);
  while (!values.empty() && lines.size() + value_lines.size() + reserve > kMaxLines) {
    values.pop_back();
    value_lines = value_columns(values, look);
  }
  append(lines, value_lines);
  return layout;
}

// The smallest width, up to kWidestLook, at which quiz feedback shows more than `shown`
// figures; 0 if none does.
constexpr int kWidestLook = 240;
int width_showing_more(const DemoResult& result, const DemoInfo& info, const Look& look,
                       std::size_t shown) {
  const auto more_at = [&](int width) {
    Look wider = look;
    wider.width = width;
    return compact_layout(result, info, wider, 0).shown > shown;
  };
  if (look.width >= kWidestLook || !more_at(kWidestLook)) return 0;
  int low = look.width, high = kWidestLook;  // more_at(low) is false, more_at(high) true
  while (high - low > 1) {
    const int middle = low + (high - low) / 2;
    (more_at(middle) ? high : low) = middle;
  }
  return high;
}

// What is left out says so, and how to see it: a command never cut, to copy as it is.
Lines left_out_lines(const DemoResult& result, const DemoInfo& info, const Look& look,
                     const CompactLayout& layout) {
  Lines lines;
  const std::size_t left_out = layout.total - layout.shown;
  const std::string command = reproduce_command(result, info, look.program);
  const int wider = width_showing_more(result, info, look, layout.shown);
  std::string message;
  if (wider == 0) {
    message = text::count(left_out, "more figure", "more figures") + ":";
  } else if (left_out == 1) {
    message = fmt::format("1 figure needs {} columns: widen the terminal or run", wider);
  } else {
    message = fmt::format("{} more figures, some shown at {} columns: widen the terminal or run",
                          left_out, wider);
  }
  if (text::display_width(message) + 1 + text::display_width(command) <= look.width) {
    lines.push_back(styled(look.dim, message + " " + command));
    return lines;
  }
  append(lines, styled_wrap(look.dim, message, look.width));
  for (const std::string& line : text::command_lines(command, look.width, "  "))
    lines.push_back(styled(look.dim, line));
  return lines;
}

Lines compact_text(const DemoResult& result, const DemoInfo& info, const Look& look) {
  CompactLayout layout = compact_layout(result, info, look, 0);
  if (layout.shown >= layout.total) return layout.lines;
  // The note on what is left out takes lines of the dozen, so there is room for it.
  layout = compact_layout(result, info, look, left_out_lines(result, info, look, layout).size());
  Lines lines = std::move(layout.lines);
  append(lines, left_out_lines(result, info, look, layout));
  return lines;
}

}  // namespace

}  // namespace proofdeck::render::terminal

namespace proofdeck::render {

std::string text_chart(const demo::Series& series) {
  const terminal::Look look = terminal::make_look(
      Theme::plain(), TextOptions{TextForm::full, text::kDefaultWidth, true, false});
  terminal::Lines bars = terminal::series_bars(series, look);
  const std::size_t skip = 1 + (series_subtitle(series, look.glyphs.dot).empty() ? 0 : 1);
  std::string picture;
  for (std::size_t i = std::min(skip, bars.size()); i < bars.size(); ++i) {
    std::string line = bars[i];
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    picture += line + "\n";
  }
  return picture;
}

std::string render_text(const DemoResult& result, const DemoInfo& info, const Theme& theme,
                        const TextOptions& options) {
  const terminal::Look look = terminal::make_look(theme, options);
  // A large heatmap in as many blocks as fit the width, shades alone: three columns a block, and
  // about sixteen for the indent and the row labels ("t248–t255").
  const DemoResult drawn =
      readable_figures(result, std::clamp<Eigen::Index>((look.width - 16) / 3, 4, kHeatmapBlocks));
  const terminal::Lines lines = options.form == TextForm::full
                                    ? terminal::full_text(drawn, info, look)
                                    : terminal::compact_text(drawn, info, look);
  std::string text;
  for (const std::string& line : lines) {
    std::string fitted = terminal::clip(line, look.width);
    // Padding at the end of a line is invisible in a terminal and noise in a file.
    while (!fitted.empty() && fitted.back() == ' ')
      fitted.pop_back();
    text += fitted + "\n";
  }
  return text;
}

}  // namespace proofdeck::render
