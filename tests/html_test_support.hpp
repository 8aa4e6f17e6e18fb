// One well-formedness check for the HTML and SVG the tests read — demo pages and figures,
// handouts, item analyses — so that every test holds them to the same rules.
#pragma once

#include <string>
#include <vector>

namespace html_test {

// A small XML well-formedness check of an HTML or SVG document: every tag closed in order or
// self-closed, attributes quoted, every '&' one of the entities the renderers write (&amp; &lt;
// &gt; &quot; &#39; &#160;); a <style> element's CSS is skipped. Returns what is wrong, or
// nothing.
inline std::string tag_problems(const std::string& html) {
  std::vector<std::string> open;
  for (std::size_t at = 0; at < html.size(); ++at) {
    if (html[at] == '&') {
      const std::size_t semicolon = html.find(';', at);
      const std::string entity =
          semicolon == std::string::npos ? "" : html.substr(at, semicolon - at + 1);
      if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" &&
          entity != "&#39;" && entity != "&#160;") {
        return "bare '&' at offset " + std::to_string(at);
      }
      continue;
    }
    if (html[at] != '<') continue;
    const std::size_t end = html.find('>', at);
    if (end == std::string::npos) return "unterminated tag at offset " + std::to_string(at);
    const std::string tag = html.substr(at + 1, end - at - 1);
    at = end;
    if (tag.rfind("!DOCTYPE", 0) == 0) continue;
    if (tag.empty() || tag[0] == '!') return "unexpected markup <" + tag + ">";
    if (tag == "style") {
      const std::size_t close = html.find("</style>", at);
      if (close == std::string::npos) return "<style> never closed";
      at = close + std::string("</style>").size() - 1;
      continue;
    }
    if (tag[0] == '/') {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name)
        return "</" + name + "> closes <" + (open.empty() ? "nothing" : open.back()) + ">";
      open.pop_back();
      continue;
    }
    const std::string name = tag.substr(0, tag.find_first_of(" /\n"));
    for (std::size_t eq = tag.find('='); eq != std::string::npos; eq = tag.find('=', eq + 1)) {
      const std::size_t quote = tag.find_first_of("\"'", eq);
      const std::size_t close =
          quote == std::string::npos ? quote : tag.find(tag[quote], quote + 1);
      if (quote != eq + 1 || close == std::string::npos)
        return "unquoted attribute in <" + tag + ">";
      eq = close;
    }
    if (tag.back() != '/') open.push_back(name);
  }
  return open.empty() ? "" : "<" + open.back() + "> never closed";
}

}  // namespace html_test
