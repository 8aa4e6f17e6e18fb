// Drawing a DemoResult for people, one renderer a room: terminal text (terminal_figure.hpp, its
// heatmaps, tables and charts in rooms of their own), Markdown (markdown_figure.hpp), SVG
// (svg_figure.hpp) and HTML (html_figure.hpp), over the shared colour ramp (color.hpp), axes
// (scale.hpp) and labels (parts.hpp). JSON is demo::to_json. Every renderer's output is a pure
// function of its inputs: same result, same bytes.
#pragma once

#include "render/html_figure.hpp"
#include "render/markdown_figure.hpp"
#include "render/svg_figure.hpp"
#include "render/terminal_figure.hpp"
