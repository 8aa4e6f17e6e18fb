// Demo results as SVG: heatmaps on the colour ramp, line and bar charts with dashes that survive
// a black-and-white printout, every string escaped, every number written the same way each run.
#pragma once

#include <string>
#include <vector>

#include "demo/demo.hpp"

namespace proofdeck::render {

using demo::DemoResult;

// One figure of a result as a file of its own.
struct SvgFigure {
  std::string name;   // the table's or series' stable id: "weights_none_a"
  std::string title;  // for people
  std::string svg;    // a complete SVG document: XML declaration, namespace, white background
};
// Every heatmap and every series of a result, in order, each drawn as the HTML renderings draw it
// but as a standalone SVG document (for Markdown handouts that link their figures as files).
std::vector<SvgFigure> render_svg_figures(const DemoResult& result);
SvgFigure svg_figure_file(const demo::Table& heatmap);
SvgFigure svg_figure_file(const demo::Series& series);

// The drawings themselves, as inline <svg> elements (for HTML pages). A large heatmap is drawn
// in blocks (readable_heatmap), here as in every other figure.
std::string svg_heatmap(const demo::Table& table);
// The 0-to-1 colour legend under heatmaps of weights.
std::string svg_legend();
// A line chart (several lines) or a bar chart (one line) of a series.
std::string svg_chart(const demo::Series& series);

}  // namespace proofdeck::render
