// Handouts for print: a section per topic with its questions numbered 1..N and options lettered as
// bank::instantiate shows them, and — as a study sheet, or as a worksheet's answer key at the
// end — the answer, the trap behind each wrong option, the explanation, the worked formula and
// the proof drawn as the demo's figures. A worksheet gives nothing away outside its questions:
// its title is a fixed label or the instructor's, each topic its name alone. Markdown (tables;
// with an assets folder, the figures as SVG files it links to) or one self-contained HTML file
// (inline CSS and SVG, no scripts, no network references, print CSS: a study sheet a page per
// topic; a worksheet's topics flowing, no question split across pages, the key on a page of its
// own). Same inputs, same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bank/proof.hpp"
#include "print/printable.hpp"

namespace proofdeck::print {

enum class HandoutFormat { markdown, html };

// Where the answers go.
enum class AnswerPlacement {
  inline_answers,  // a study sheet: each question followed by its answer, traps and proof
  appendix,        // a worksheet, with an answer key on its own page at the end
  none,            // a blank worksheet
};

struct HandoutOptions {
  HandoutFormat format = HandoutFormat::html;
  AnswerPlacement answers = AnswerPlacement::inline_answers;
  std::uint64_t seed = 0;   // printed in the subtitle, so a key can be matched to its worksheet
  std::string title;        // empty: "Worksheet — N questions" (or "Study sheet — …")
  std::string assets_href;  // Markdown: figures as SVG files linked under this path ("" = none)
};

// A figure file the Markdown links to: its name inside the assets folder and its SVG text.
struct Asset {
  std::string name;  // "q03-order-blindness-weights_none_a.svg"
  std::string svg;
};

struct Handout {
  std::string document;
  std::vector<Asset> assets;  // Markdown with assets_href only
};

// Renders the arranged questions; proofs run through `runner` (each distinct run once).
Handout render_handout(const std::vector<TopicGroup>& groups, const HandoutOptions& options,
                       bank::DemoRunner& runner);

// The CSS a handout adds to render::html_stylesheet(): questions, options, answer blocks, the key,
// and the print rules: a study sheet a page per topic, a worksheet's topics flowing with no
// question split, the key on its own page; 10 pt type and the proof figures at 80%, so pages
// fill; a stem, a paragraph, a figure or one trap of the traps box never split, but the box
// itself may, so a topic's first page is never its title alone.
const std::string& handout_stylesheet();

}  // namespace proofdeck::print
