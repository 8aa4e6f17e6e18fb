// A demo result drawn for a terminal: colour (or shaded) heatmaps, bar charts and sparklines,
// value lists, in full (`demo run`) or compact (quiz feedback) form, never wider than the width
// it is given, with every string from the result made terminal-safe.
#pragma once

#include <string>

#include "demo/demo.hpp"
#include "render/theme.hpp"
#include "text/width.hpp"

namespace proofdeck::render {

using demo::DemoInfo;
using demo::DemoResult;

enum class TextForm {
  full,     // `demo run`: title, claim, every table, series and value, the text
  compact,  // quiz feedback: the key tables and values in a few lines
  proof,    // a proof in quiz feedback: compact's figures without its title line and values (the
            // proof names the demo and lists the values it rests on, in words)
};

struct TextOptions {
  TextForm form = TextForm::full;
  int width = text::kDefaultWidth;  // columns available; output never exceeds it
  bool unicode = true;              // block characters and box drawing; ASCII shades when false
  bool color256 = true;             // 256-colour backgrounds for heatmaps when the theme has colour
  std::string program = "proofdeck";  // how the reader runs proofdeck, in the commands suggested
};

std::string render_text(const DemoResult& result, const DemoInfo& info, const Theme& theme,
                        const TextOptions& options = {});

// A series' bar chart alone (no title), plain, text::kDefaultWidth columns: for a fenced block
// in Markdown.
std::string text_chart(const demo::Series& series);

}  // namespace proofdeck::render
