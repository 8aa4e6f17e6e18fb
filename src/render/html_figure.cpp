// HTML figures (see html_figure.hpp).
#include "render/html_figure.hpp"

#include <fmt/color.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "render/color.hpp"
#include "render/parts.hpp"
#include "render/scale.hpp"
#include "render/svg_figure.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/utf8.hpp"
#include "text/width.hpp"

namespace proofdeck::render {

namespace {

using Out = std::back_insert_iterator<std::string>;

std::string html_matrix(const Table& table) {
  std::string html;
  Out out(html);
  fmt::format_to(out,
                 "<div class=\"table-scroll\">\n<table class=\"matrix\">\n<caption>{}</caption>\n"
                 "<thead><tr><th></th>",
                 text::markup_escape(table_title(table)));
  for (Eigen::Index c = 0; c < table.cells.cols(); ++c) {
    fmt::format_to(out, "<th scope=\"col\">{}</th>", text::markup_escape(column_label(table, c)));
  }
  html += "</tr></thead>\n<tbody>\n";
  const std::vector<std::vector<std::string>> cells = cell_texts(table);
  for (Eigen::Index r = 0; r < table.cells.rows(); ++r) {
    fmt::format_to(out, "<tr><th scope=\"row\">{}</th>", text::markup_escape(row_label(table, r)));
    for (const std::string& cell : cells[static_cast<std::size_t>(r)])
      fmt::format_to(out, "<td>{}</td>", text::markup_escape(cell));
    html += "</tr>\n";
  }
  html += "</tbody>\n</table>\n</div>\n";
  return html;
}

// Every value, last: collapsed when the demo draws something else to look at first.
std::string html_values(const DemoResult& result) {
  std::string html;
  Out out(html);
  const bool drawn = draws_figures(result);
  if (drawn) {
    fmt::format_to(out, "<details class=\"values\">\n<summary>All {} values</summary>\n",
                   result.values.size());
  }
  html +=
      "<div class=\"table-scroll\">\n<table class=\"values\">\n<caption>Values</caption>\n"
      "<thead><tr><th scope=\"col\">value</th><th scope=\"col\">result</th><th "
      "scope=\"col\">name</th></tr></thead>\n"
      "<tbody>\n";
  // The label in words, the number, and the name a bank's proof or a script reads it by.
  for (const auto& [value_name, value] : result.values) {
    fmt::format_to(out, "<tr><td>{}</td><td>{}</td><td><code>{}</code></td></tr>\n",
                   text::markup_escape(value.label), text::markup_escape(format_value(value)),
                   text::markup_escape(value_name));
  }
  html += "</tbody>\n</table>\n</div>\n";
  if (drawn) html += "</details>\n";
  return html;
}

std::string html_heatmap_figure(const Table& table, const std::string& caption) {
  return fmt::format("<figure class=\"heatmap\">\n<figcaption>{}</figcaption>\n{}\n</figure>\n",
                     text::markup_escape(caption), svg_heatmap(table));
}

}  // namespace

const std::string& html_stylesheet() {
  static const std::string css = R"(:root { color-scheme: light; }
body { margin: 2rem auto; max-width: 62rem; padding: 0 1.25rem; color: #1f2328; background: #ffffff;
  font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
section.demo { margin: 0 0 3.5rem; }
section.demo > header h2 { margin: 0; font-size: 1.6rem; line-height: 1.25; }
section.demo h3 { margin: 2rem 0 .6rem; font-size: 1.1rem; }
.meta { margin: .3rem 0 1rem; color: #59636e; font-size: .9rem; }
.params { margin: .75rem 0 1.5rem; color: #59636e; font-size: .85rem; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em;
  background: #f3f4f6; padding: .05em .3em; border-radius: 3px; }
blockquote.claim { margin: 1rem 0; padding: .6rem 1rem; border-left: 4px solid #2166ac;
  background: #f2f7fc; font-size: 1.05rem; }
blockquote.claim p { margin: 0; }
.heatmaps { display: flex; flex-wrap: wrap; gap: 1.25rem 3rem; align-items: flex-start; }
.pair-title { margin: 0 0 .4rem; font-weight: 600; }
.pair-figures { display: flex; flex-wrap: wrap; gap: 1.25rem 2rem; }
figure { margin: 0 0 1.25rem; }
figure.chart { margin: 1.5rem 0; }
figcaption { margin: 0 0 .35rem; font-size: .9rem; font-weight: 600; }
.pair-figures figcaption { font-weight: 400; color: #424a53; }
figure.legend { margin: -.25rem 0 1.5rem; display: flex; align-items: center; gap: .6rem; }
figure.legend figcaption { margin: 0; font-size: .8rem; font-weight: 400; color: #59636e; }
svg { max-width: 100%; height: auto; overflow: visible; }
.table-scroll { max-width: 100%; overflow-x: auto; margin: .5rem 0 1.5rem; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
details.values { margin: 1rem 0 1.5rem; }
details.values > summary { cursor: pointer; color: #424a53; font-weight: 600; }
details.values .table-scroll { margin-top: .5rem; }
caption { text-align: left; font-weight: 600; padding-bottom: .35rem; }
th, td { padding: .25rem .8rem; border-bottom: 1px solid #d8dee4; }
thead th { border-bottom: 2px solid #afb8c1; text-align: right; }
thead th:first-child { text-align: left; }
tbody th { text-align: left; font-weight: 500; }
td { text-align: right; }
table.values td:first-child { text-align: left; }
.notes p { margin: .6rem 0; max-width: 48rem; }
p.one-point { margin: 1rem 0; max-width: 48rem; }
section.demo { overflow-wrap: anywhere; }
* { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
@media print {
  @page { margin: 16mm 14mm; }
  body { margin: 0; max-width: none; padding: 0; font-size: 11pt; }
  section.demo { margin-bottom: 2rem; }
  figure, .heatmap-pair, table, blockquote, svg { break-inside: avoid; page-break-inside: avoid; }
  .table-scroll { overflow: visible; }
  table.matrix { font-size: 8.5pt; }
  th, td { padding: .15rem .45rem; }
  h2, h3, .pair-title, caption { break-after: avoid; page-break-after: avoid; }
}
)";
  return css;
}

std::string render_html_section(const DemoResult& raw, const DemoInfo& info,
                                const HtmlSectionOptions& options) {
  const DemoResult result = readable_figures(raw);
  const std::string name = info.name.empty() ? result.demo : info.name;
  std::string html;
  Out out(html);
  fmt::format_to(out, "<section class=\"demo\" id=\"{}\">\n<header>\n<h2>{}</h2>\n",
                 options.id.empty() ? "demo-" + text::slug(name, "demo") : options.id,
                 text::markup_escape(info.title.empty() ? name : info.title));
  fmt::format_to(out, "<p class=\"meta\"><code>{}</code>", text::markup_escape(name));
  if (const std::string& section = result.section_of(info); !section.empty())
    fmt::format_to(out, " · {}", text::markup_escape(section));
  html += "</p>\n</header>\n";
  if (!result.claim_of(info).empty()) {
    fmt::format_to(out, "<blockquote class=\"claim\"><p>{}</p></blockquote>\n",
                   text::markup_escape(result.claim_of(info)));
  }
  if (const auto params = parameters(result); !params.empty()) {
    html += "<p class=\"params\">Parameters:";
    for (const auto& [key, value] : params) {
      fmt::format_to(out, " <code>{}={}</code>", text::markup_escape(key),
                     text::markup_escape(value));
    }
    html += "</p>\n";
  }

  // Tables in order; consecutive heatmaps share a flowing container, same-shape neighbours
  // stay together as a pair, and the shade legend follows the last heatmap.
  const auto& tables = result.tables;
  bool in_heatmaps = false;
  const auto close_heatmaps = [&](std::size_t next) {
    if (!in_heatmaps) return;
    html += "</div>\n";
    in_heatmaps = false;
    const bool more = std::any_of(tables.begin() + static_cast<std::ptrdiff_t>(next), tables.end(),
                                  [](const Table& table) { return table.heatmap; });
    if (!more && unit_heatmaps(result)) {
      html += "<figure class=\"legend\">\n" + svg_legend() +
              "\n<figcaption>cell shade: the value, 0 to 1</figcaption>\n</figure>\n";
    }
  };
  for (std::size_t i = 0; i < tables.size(); ++i) {
    const Table& table = tables[i];
    if (!table.heatmap) {
      close_heatmaps(i);
      html += html_matrix(table);
      continue;
    }
    if (!in_heatmaps) html += "<div class=\"heatmaps\">\n";
    in_heatmaps = true;
    if (i + 1 < tables.size() && tables[i + 1].heatmap && same_shape(table, tables[i + 1])) {
      const Table& next = tables[i + 1];
      const std::string title_a = table_title(table), title_b = table_title(next);
      const std::string heading = shared_heading(title_a, title_b);
      html += "<div class=\"heatmap-pair\">\n";
      if (!heading.empty()) {
        fmt::format_to(out, "<p class=\"pair-title\">{}</p>\n", text::markup_escape(heading));
      }
      const std::size_t cut = heading.empty() ? 0 : heading.size() + 2;
      html += "<div class=\"pair-figures\">\n" + html_heatmap_figure(table, title_a.substr(cut)) +
              html_heatmap_figure(next, title_b.substr(cut)) + "</div>\n</div>\n";
      ++i;
      continue;
    }
    html += html_heatmap_figure(table, table_title(table));
  }
  close_heatmaps(tables.size());

  for (const Series& series : result.series) {
    if (charted(series)) {
      fmt::format_to(out, "<figure class=\"chart\">\n<figcaption>{}</figcaption>\n{}\n</figure>\n",
                     text::markup_escape(series_title(series)), svg_chart(series));
    } else if (one_point(series)) {
      html += "<p class=\"one-point\">" + text::html_text(one_point_sentence(series)) + "</p>\n";
    }
  }
  if (!result.text.empty()) {
    html += "<div class=\"notes\">\n";
    for (const std::string& paragraph : result.text)
      html += "<p>" + text::html_text(paragraph) + "</p>\n";
    html += "</div>\n";
  }
  if (options.values && !result.values.empty()) html += html_values(result);
  html += "</section>\n";
  return html;
}

std::string render_html(const DemoResult& result, const DemoInfo& info) {
  const std::string name = info.name.empty() ? result.demo : info.name;
  const std::string title = info.title.empty() ? name : info.title;
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n"
      "<meta name=\"generator\" content=\"proofdeck\" />\n"
      "<title>{} · proofdeck</title>\n<style>\n{}</style>\n</head>\n<body>\n{}</body>\n</html>\n",
      text::markup_escape(title), html_stylesheet(), render_html_section(result, info));
}

}  // namespace proofdeck::render
