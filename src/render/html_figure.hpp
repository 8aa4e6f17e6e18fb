// A demo result as HTML: a self-contained page (inline CSS and SVG, no scripts, no network
// references, everything escaped) or a <section> for handouts that embed several demos.
#pragma once

#include <string>

#include "demo/demo.hpp"

namespace proofdeck::render {

using demo::DemoInfo;
using demo::DemoResult;

// A complete HTML document.
std::string render_html(const DemoResult& result, const DemoInfo& info);
struct HtmlSectionOptions {
  std::string id;      // the section's id attribute; empty: "demo-NAME"
  bool values = true;  // the table of every value (a handout prints its key numbers instead)
};

// The same figure as an HTML fragment (a <section>), for handouts that embed several demos;
// the CSS it needs is html_stylesheet(). Tables wider than the page scroll in their own box; the
// table of every value comes last, collapsed in a <details> when the demo draws anything else.
std::string render_html_section(const DemoResult& result, const DemoInfo& info,
                                const HtmlSectionOptions& options = {});
const std::string& html_stylesheet();

}  // namespace proofdeck::render
