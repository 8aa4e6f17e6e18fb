// Numbers for a terminal: a demo's numeric tables, columns under wrapped headers (or one record a
// row when the columns do not fit), and its named values in a list or two columns.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "demo/demo.hpp"
#include "render/terminal_look.hpp"

namespace proofdeck::render::terminal {

Lines numeric_table(const demo::Table& table, const Look& look);

// One value a line: its label in words (when the width is short of the longest, wrapped in its
// column in the full form, cut in quiz feedback) and its number; with `names`, the name a bank's
// proof reads it by after the number when the line has room.
Lines value_list(const std::vector<std::pair<std::string, demo::Value>>& values, const Look& look,
                 bool names = false);

// Values in two columns when they fit, to keep quiz feedback short.
Lines value_columns(const std::vector<std::pair<std::string, demo::Value>>& values,
                    const Look& look);

}  // namespace proofdeck::render::terminal
