// `export --to apkg`: the arranged questions as an Anki package — a zip holding
// `collection.anki2`, a schema-11 Anki collection (the legacy format every Anki since 2.1
// imports: desktop, AnkiDroid, AnkiMobile), and `media`, the JSON `{}` (no media files).
//
// The collection holds one note type of our own ("proofdeck question": fields Question, Kind,
// Options, Answer, Traps, Explanation, Worked, Proof, Source; one card whose front shows the
// question and options and whose back adds the rest), a deck per bank (`proofdeck::<title>`),
// and one note and one new card per question, with the text export's GUID, fields and tags
// (print/export.hpp's AnkiNote). Anki matches an imported note to one it has by GUID and updates
// it only when the package's note is newer (notes.mod, whole seconds), so every note is dated by
// its bank's `revised` (or SOURCE_DATE_EPOCH): nothing reads the clock, the same banks and seed
// give the same bytes, and a bank whose revision moved on re-imports as newer.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bank/proof.hpp"
#include "print/printable.hpp"

namespace proofdeck::print {

// 2026-01-01T00:00:00Z: the date of a note whose bank declares no `revised`.
inline constexpr std::int64_t kUndatedNoteTime = 1767225600;

struct ApkgOptions {
  // SOURCE_DATE_EPOCH (reproducible-builds.org), when set and valid: dates every note, deck and
  // the note type instead of the banks' `revised`.
  std::optional<std::int64_t> source_date_epoch;
};

struct Apkg {
  std::string bytes;                       // the .apkg file
  std::size_t notes = 0;                   // one per question (and one card each)
  std::size_t decks = 0;                   // one per bank title
  std::vector<std::string> undated_banks;  // ids of banks dated kUndatedNoteTime (no `revised`)
};

// The package of the arranged questions, one note each; StateError when SQLite or libzip fail.
Apkg export_apkg(const std::vector<TopicGroup>& groups, bank::DemoRunner& runner,
                 const ApkgOptions& options = {});

// SOURCE_DATE_EPOCH's value as seconds since 1970: decimal digits only, at most year 9999;
// nullopt for anything else.
std::optional<std::int64_t> parse_source_date_epoch(std::string_view text);

// SHA-1 (libmd), and as 40 lower-case hex digits.
std::array<std::uint8_t, 20> sha1(std::string_view data);
std::string sha1_hex(std::string_view data);

// A field's text as Anki's search and checksum see it: tags removed, entities decoded.
std::string strip_html(std::string_view html);

// notes.csum: the first 4 bytes of the SHA-1 of the HTML-stripped first field, big-endian.
std::uint32_t field_checksum(std::string_view first_field_html);

}  // namespace proofdeck::print
