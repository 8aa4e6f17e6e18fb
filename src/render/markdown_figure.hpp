// A demo result as Markdown (GitHub Flavored), each figure once: a heatmap as a shaded table and
// a series as a text chart — or, when the caller keeps figures as SVG files, each as an image
// linking its file — other tables as tables, then the prose, then the values; every string
// escaped.
#pragma once

#include <functional>
#include <string>

#include "demo/demo.hpp"
#include "render/svg_figure.hpp"

namespace proofdeck::render {

using demo::DemoInfo;
using demo::DemoResult;

struct MarkdownOptions {
  int heading_level = 2;  // the demo's title; its parts one level below
  bool values = true;     // the table of every value (a handout prints its key numbers instead)
  // Figures as files: given each heatmap's and series' standalone SVG, returns the Markdown that
  // shows it (an image link). Unset: the text figures.
  std::function<std::string(const SvgFigure&)> link_figure;
};

std::string render_markdown(const DemoResult& result, const DemoInfo& info,
                            const MarkdownOptions& options = {});

}  // namespace proofdeck::render
