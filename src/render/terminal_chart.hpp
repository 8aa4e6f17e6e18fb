// A demo's series for a terminal: a bar chart on a value axis (the full form) or a sparkline a
// line (quiz feedback).
#pragma once

#include "demo/demo.hpp"
#include "render/terminal_look.hpp"

namespace proofdeck::render::terminal {

// The series' title and subtitle, then a bar for each x (runs of one value share a bar) on an
// axis shared by its lines; a line that stays at one value is a level marked across the bars.
Lines series_bars(const demo::Series& series, const Look& look);

// "no normalization  ▁▁▂▃▄▅▆█  2.01 → 1,052,871": the series' title, then one line per series
// line, all on one scale and of one length, then the first and last x under the sparks, for the
// compact form. Nothing is cut: when the labels, the sparks and the ranges do not fit on one line,
// each label goes on a line of its own above its sparks.
Lines series_sparklines(const demo::Series& series, const Look& look);

}  // namespace proofdeck::render::terminal
