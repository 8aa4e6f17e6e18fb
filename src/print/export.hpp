// Exports for other tools: Moodle's GIFT import format and Anki's text import (tab-separated with
// file headers). The questions come arranged as for print (print/printable.hpp): grouped by topic,
// a template's parameters drawn once from --seed, so an export and a printout with the same seed
// agree. Every bank string is escaped for its target.
//
// GIFT (docs.moodle.org/en/GIFT_format), one question per block, a `$CATEGORY:` per topic:
//   ::mha-purpose::[plain]Multi-head attention exists primarily to\:{
//   	~Reduce the number of parameters…#Trap — Multi-head attention cuts parameters\: h heads…
//   	=Let the model attend to multiple representation subspaces in parallel#Right.
//   	####Eight heads of width 64 need…
//   }
// single: =right ~wrong; multi: ~%50%right ~%-100%wrong (weights from Moodle's grade list);
// truefalse: {TRUE#feedback if answered wrong#feedback if right####general}; numeric:
// {#=key:tolerance#… =%0%distractor:tolerance#trap correction ~#any other answer}; order: a
// matching question, step → its position (1, 2, …). `~ = # { } :` and backslash are escaped,
// line breaks written as \n.
//
// Anki: `#separator:tab`, `#html:true`, `#notetype:Basic`, `#deck:`, `#tags:`, `#columns:` and
// the GUID, deck and tag columns; one note per question, its id as GUID (re-importing updates),
// the front with the prompt and lettered options, the back with the answer, the traps, the
// explanation and the proof's key numbers; topic, type, bank and traps as tags.
#pragma once

#include <string>
#include <vector>

#include "bank/proof.hpp"
#include "print/printable.hpp"

namespace proofdeck::print {

std::string export_gift(const std::vector<TopicGroup>& groups, bank::DemoRunner& runner);

std::string export_anki(const std::vector<TopicGroup>& groups, bank::DemoRunner& runner);

// One question as an Anki note, the same in the text import and the package (print/apkg.hpp), so
// both address one note: its GUID, its deck, its fields as HTML (anki_field-escaped; "" when the
// question has none) and its tags.
struct AnkiNote {
  std::string guid;         // "proofdeck-<question id>": a re-import updates, never duplicates
  std::string deck;         // "proofdeck::<bank title>"
  std::string question;     // the prompt as drawn
  std::string kind;         // "Single answer", "Numeric (parameters)", …
  std::string options;      // "<b>a)</b> …<br><b>b)</b> …": options or steps as shown
  std::string answer;       // "b) Let the model …"
  std::string traps;        // "✗ a) <i>trap name</i> — correction", one a line
  std::string explanation;  // why the answer holds
  std::string worked;       // a template's formula with its values
  std::string proof;        // "Proof (demo): name = 1,024 · …", the proof's key numbers
  std::string source;       // the lesson's section and quote, or the reference
  std::vector<std::string> tags;  // topic::…, type::…, bank::…, trap::… (no spaces)
};

AnkiNote anki_note(const Printed& printed, bank::DemoRunner& runner);

// "proofdeck::<bank title>", the deck both Anki exports file a bank's notes in.
std::string anki_deck_name(const bank::Bank& bank);

// GIFT text: `~ = # { } :` and backslash escaped with a backslash, line breaks as \n, carriage
// returns dropped.
std::string gift_escape(std::string_view text);

// An Anki field with html:true: HTML-escaped, line breaks and tabs as <br>, so a field never
// splits a row or a column.
std::string anki_field(std::string_view text);

}  // namespace proofdeck::print
