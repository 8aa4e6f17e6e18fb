// Value axes shared by the text bars and the SVG charts: linear with round steps, or log10 over
// whole decades.
#pragma once

#include <cmath>
#include <string>
#include <vector>

namespace proofdeck::render {

// A value axis shared by the text bars and the SVG charts: log10 over whole decades, or linear
// from zero (or below, when values are negative) with round tick steps.
struct Scale {
  bool log = false;
  double low = 0.0;   // log: the lowest decade's exponent; linear: the lowest value
  double high = 1.0;  // log: the highest decade's exponent; linear: the highest value
  std::vector<double> ticks;

  bool drawable(double v) const { return std::isfinite(v) && (!log || v > 0.0); }
  double fraction(double v) const {
    const double position = log ? std::log10(v) : v;
    return (position - low) / (high - low);
  }
};

double nice_step(double span, int target_ticks);

Scale make_scale(const std::vector<double>& values, bool log, int target_ticks, bool round_out);

// Tick labels for a log axis in text: 0.01 … 100, then 1e3, 1e4 …
std::string decade_label(int exponent);

}  // namespace proofdeck::render
