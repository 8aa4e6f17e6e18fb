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

// GIFT text: `~ = # { } :` and backslash escaped with a backslash, line breaks as \n, carriage
// returns dropped.
std::string gift_escape(std::string_view text);

// An Anki field with html:true: HTML-escaped, line breaks and tabs as <br>, so a field never
// splits a row or a column.
std::string anki_field(std::string_view text);

}  // namespace proofdeck::print
