// Heatmaps for a terminal: a table's cells as shades or coloured backgrounds with their numbers,
// two of one shape side by side where they fit, and the legend that says what the shades mean.
#pragma once

#include <string>

#include "demo/demo.hpp"
#include "render/terminal_look.hpp"

namespace proofdeck::render::terminal {

// Grids sit two columns in from their titles.
inline constexpr int kGridIndent = 2;

// Two heatmaps of one shape side by side, if both fit with their numbers; empty otherwise.
Lines heatmap_pair(const demo::Table& a, const demo::Table& b, const Look& look);

// One heatmap; in the full form, its numbers as records when the cells have no room for them,
// or how to see them when it is too wide even for that.
Lines heatmap_single(const demo::Table& table, const Look& look, const demo::DemoResult& result,
                     const demo::DemoInfo& info);

// "0 ░░▒▒▓▓██ 1": what the shades mean, once under the heatmaps.
std::string heatmap_legend(const Look& look);

}  // namespace proofdeck::render::terminal
