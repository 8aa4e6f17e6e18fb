// The one colour ramp of every figure (white to dark blue, ColorBrewer "Blues"): RGB for SVG
// fills, xterm's 256 colours for terminal heatmaps, and where a table's values fall on it.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "demo/demo.hpp"

namespace proofdeck::render {

using demo::Table;

struct Rgb {
  int red = 0, green = 0, blue = 0;
};

// White to dark blue (ColorBrewer "Blues"): the one ramp for terminal cells and SVG fills.
constexpr std::array<Rgb, 5> kRamp{
    {{247, 251, 255}, {198, 219, 239}, {107, 174, 214}, {33, 113, 181}, {8, 48, 107}}};

Rgb ramp_colour(double shade);

bool needs_light_text(double shade);

std::string hex(Rgb colour);

// The ramp in xterm's 256 colours, picked by hand: the nearest cube colours to the ramp drift
// to teal, these stay blue. White (231) … navy (17).
constexpr std::array<int, 9> kXtermRamp{231, 189, 153, 110, 74, 32, 25, 24, 17};

int xterm_shade(double shade);

// Where a heatmap value falls on the ramp: weights in [0, 1] as they are (so tables compare),
// anything else stretched over the table's own range.
struct HeatScale {
  double low = 0.0;
  double high = 1.0;

  explicit HeatScale(const Table& table) {
    double min = 0.0, max = 0.0;
    bool any = false;
    for (Eigen::Index i = 0; i < table.cells.size(); ++i) {
      const double v = table.cells.data()[i];
      if (!std::isfinite(v)) continue;
      min = any ? std::min(min, v) : v;
      max = any ? std::max(max, v) : v;
      any = true;
    }
    if (any && (min < 0.0 || max > 1.0)) {
      low = min;
      high = max > min ? max : min + 1.0;
    }
  }
  bool unit() const { return low == 0.0 && high == 1.0; }
  // A missing value (NaN) reads as the lightest shade.
  double operator()(double v) const {
    return std::isnan(v) ? 0.0 : std::clamp((v - low) / (high - low), 0.0, 1.0);
  }
};

}  // namespace proofdeck::render
