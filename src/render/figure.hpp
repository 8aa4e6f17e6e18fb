// Drawing a DemoResult for people: terminal text (colour heatmaps, bar charts, full or compact),
// Markdown (tables and fenced blocks) and self-contained HTML (inline CSS and SVG, no scripts,
// no network references, everything escaped). JSON is demo::to_json in demo.hpp.
#pragma once

#include <string>
#include <vector>

#include "demo/demo.hpp"
#include "render/theme.hpp"

namespace proofdeck::render {

using demo::DemoInfo;
using demo::DemoResult;

enum class TextForm {
  full,     // `demo run`: title, claim, every table, series and value, the text
  compact,  // quiz feedback: the key tables and values in a few lines
};

struct TextOptions {
  TextForm form = TextForm::full;
  int width = 80;        // columns available; output never exceeds it
  bool unicode = true;   // block characters and box drawing; ASCII shades when false
  bool color256 = true;  // 256-colour backgrounds for heatmaps when the theme has colour
};

std::string render_text(const DemoResult& result, const DemoInfo& info, const Theme& theme,
                        const TextOptions& options = {});

std::string render_markdown(const DemoResult& result, const DemoInfo& info);

// A complete HTML document.
std::string render_html(const DemoResult& result, const DemoInfo& info);
// The same figure as an HTML fragment (a <section>), for handouts that embed several demos;
// the CSS it needs is html_stylesheet().
std::string render_html_section(const DemoResult& result, const DemoInfo& info);
const std::string& html_stylesheet();

// One figure of a result as a file of its own.
struct SvgFigure {
  std::string name;   // the table's or series' stable id: "weights_none_a"
  std::string title;  // for people
  std::string svg;    // a complete SVG document: XML declaration, namespace, white background
};
// Every heatmap and every series of a result, in order, each drawn as the HTML renderings draw it
// but as a standalone SVG document (for Markdown handouts that link their figures as files).
std::vector<SvgFigure> render_svg_figures(const DemoResult& result);

}  // namespace proofdeck::render
