// The Anki package: notes and cards in a schema-11 collection built in memory with SQLite, then
// zipped with libzip. The layout follows Anki's own sources (rslib/src/storage/schema11.sql, the
// schema-11 JSON of note types, decks, deck options and config, and the .apkg importer), written
// here from what they read rather than copied from them.
#include "print/apkg.hpp"

#include <sha1.h>
#include <sqlite3.h>
#include <zip.h>

#include <SQLiteCpp/SQLiteCpp.h>
#include <algorithm>
#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "print/export.hpp"

namespace proofdeck::print {

namespace {

using json = nlohmann::ordered_json;

// The note type's id: fixed forever, since Anki finds the note type of a re-import by it
// (a different id would bring a second "proofdeck question" and notes Anki calls conflicting).
constexpr std::int64_t kNoteTypeId = 1767225600001;
// When the note type (fields, templates, CSS) last changed. Anki replaces its copy of the note
// type only with a newer one, so bump this with every change to them.
constexpr std::int64_t kNoteTypeRevised = 1796083200;  // 2026-12-01T00:00:00Z
// Every collection has deck 1 ("Default") and deck options 1; ours file nothing in them.
constexpr std::int64_t kDefaultDeckId = 1;
constexpr std::int64_t kDefaultOptionsId = 1;
// The collection's creation time, which only the day count of review cards reads (ours are all
// new): a fixed day, never the clock.
constexpr std::int64_t kCollectionCreated = 1577836800;  // 2020-01-01T00:00:00Z

// Ids in Anki are millisecond time stamps, and an importer renumbers any later than tomorrow:
// ours lie in [2020-01-01, 2025-01-01), derived from a hash so they never depend on the clock.
constexpr std::int64_t kIdBase = 1577836800000;
constexpr std::int64_t kIdSpan = 157766400000;

// Field names are the note type's schema: Anki updates its copy of the note type only when the
// imported one has the same fields and templates (otherwise it adds a second note type, and the
// notes it holds stay as they were), so they never change.
struct FieldSpec {
  const char* name;
  const char* description;  // shown by Anki's editor
};
constexpr std::array<FieldSpec, 9> kFields{{
    {"Question", "The question as drawn from the bank"},
    {"Kind", "Single answer, select all, true or false, a number (with its unit), or an order"},
    {"Options", "The options or steps, lettered as shown"},
    {"Answer", "The answer, with the text of each right option"},
    {"Traps", "Each wrong answer that embodies a misconception, with its correction"},
    {"Explanation", "Why the answer holds"},
    {"Worked", "A template's formula with the drawn values"},
    {"Proof", "The proof's key numbers, as computed by the demo"},
    {"Source", "Where in the lesson (or which reference)"},
}};

std::vector<std::string> field_values(const AnkiNote& note) {
  return {note.question,    note.kind,   note.options, note.answer, note.traps,
          note.explanation, note.worked, note.proof,   note.source};
}

constexpr const char* kFrontTemplate =
    "<div class=\"proofdeck\">\n"
    "<div class=\"prompt\">{{Question}}</div>\n"
    "<div class=\"kind\">{{Kind}}</div>\n"
    "{{#Options}}<div class=\"options\">{{Options}}</div>{{/Options}}\n"
    "</div>";

constexpr const char* kBackTemplate =
    "{{FrontSide}}\n\n"
    "<hr id=answer>\n\n"
    "<div class=\"proofdeck\">\n"
    "<div class=\"answer\"><b>Answer:</b> {{Answer}}</div>\n"
    "{{#Traps}}<div class=\"traps\"><b>Traps:</b><br>{{Traps}}</div>{{/Traps}}\n"
    "{{#Explanation}}<div class=\"why\"><b>Why:</b> {{Explanation}}</div>{{/Explanation}}\n"
    "{{#Worked}}<div class=\"worked\"><b>Worked:</b> {{Worked}}</div>{{/Worked}}\n"
    "{{#Proof}}<div class=\"proof\">{{Proof}}</div>{{/Proof}}\n"
    "{{#Source}}<div class=\"source\">Source: {{Source}}</div>{{/Source}}\n"
    "</div>";

// Anki puts `nightMode` (and, before 2.1.20 and in AnkiDroid, `night_mode`) on the card's
// element in dark mode: the colours are variables, set twice.
constexpr const char* kCss = R"(.card {
  --pd-text: #1d1f23;
  --pd-background: #fdfdfc;
  --pd-muted: #5a6270;
  --pd-accent: #1f5fbf;
  --pd-right: #1e7a3c;
  --pd-trap: #a3341f;
  --pd-panel: #eef1f5;
  --pd-rule: #d5d9e0;
  font-family: -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif;
  font-size: 19px;
  line-height: 1.45;
  text-align: left;
  color: var(--pd-text);
  background-color: var(--pd-background);
}
.card.nightMode, .card.night_mode, .nightMode .card, .night_mode .card {
  --pd-text: #e6e8eb;
  --pd-background: #1f2125;
  --pd-muted: #a4acb8;
  --pd-accent: #82b1ff;
  --pd-right: #7ed69a;
  --pd-trap: #ff9a85;
  --pd-panel: #2b2f36;
  --pd-rule: #474d57;
}
.proofdeck { max-width: 40em; margin: 0 auto; }
.proofdeck .prompt { font-size: 1.1em; font-weight: 600; margin-bottom: 0.3em; }
.proofdeck .kind { color: var(--pd-muted); font-style: italic; font-size: 0.85em; margin-bottom: 0.6em; }
.proofdeck .options { background: var(--pd-panel); border-radius: 6px; padding: 0.5em 0.8em; }
.proofdeck .options b { color: var(--pd-accent); }
hr#answer { border: none; border-top: 1px solid var(--pd-rule); margin: 1em auto; max-width: 40em; }
.proofdeck .answer { color: var(--pd-right); font-size: 1.05em; margin-bottom: 0.6em; }
.proofdeck .traps { margin-bottom: 0.6em; }
.proofdeck .traps b, .proofdeck .traps i { color: var(--pd-trap); }
.proofdeck .why, .proofdeck .worked { margin-bottom: 0.6em; }
.proofdeck .proof {
  font-family: ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace;
  font-size: 0.85em;
  background: var(--pd-panel);
  border-left: 3px solid var(--pd-accent);
  padding: 0.4em 0.7em;
  margin-bottom: 0.6em;
}
.proofdeck .source { color: var(--pd-muted); font-size: 0.8em; }
)";

// Anki's default LaTeX preamble: old clients expect the keys, and our fields use no LaTeX.
constexpr const char* kLatexPre =
    "\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n"
    "\\usepackage[utf8]{inputenc}\n\\usepackage{amssymb,amsmath}\n\\pagestyle{empty}\n"
    "\\setlength{\\parindent}{0in}\n\\begin{document}\n";

// Hands out ids derived from a key, each unique in its table. A clash (two keys hashing to the
// same millisecond: a few chances in a million for a thousand notes) takes the next free id, in
// the order the questions are arranged, so the same export always gives the same ids; the GUID,
// not the id, is what Anki matches a re-import by, so a shifted id costs nothing.
class IdAllocator {
 public:
  std::int64_t id_for(std::string_view key) {
    const std::array<std::uint8_t, 20> digest = sha1(key);
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < 8; ++i)
      value = (value << 8) | digest[i];
    std::int64_t id = kIdBase + static_cast<std::int64_t>(value % kIdSpan);
    while (!used_.insert(id).second)
      id = id + 1 == kIdBase + kIdSpan ? kIdBase : id + 1;
    return id;
  }

 private:
  std::set<std::int64_t> used_;
};

struct NoteRow {
  AnkiNote note;
  std::int64_t note_id = 0;
  std::int64_t card_id = 0;
  std::int64_t deck_id = 0;
  std::int64_t mod = 0;  // seconds
};

struct DeckRow {
  std::int64_t id = 0;
  std::string name;
  std::string description;  // HTML
  std::int64_t mod = 0;
};

json field_json(std::size_t ord) {
  return json{{"name", kFields[ord].name},
              {"ord", ord},
              {"sticky", false},
              {"rtl", false},
              {"font", "Arial"},
              {"size", 20},
              {"description", kFields[ord].description},
              {"media", json::array()}};
}

json models_json(std::int64_t mod, std::int64_t default_deck) {
  json fields = json::array();
  for (std::size_t ord = 0; ord < kFields.size(); ++ord)
    fields.push_back(field_json(ord));
  json card = {{"name", "Question"},    {"ord", 0},    {"qfmt", kFrontTemplate},
               {"afmt", kBackTemplate}, {"bqfmt", ""}, {"bafmt", ""},
               {"did", nullptr},        {"bfont", ""}, {"bsize", 0}};
  json model = {{"id", kNoteTypeId},
                {"name", "proofdeck question"},
                {"type", 0},
                {"mod", mod},
                {"usn", 0},
                {"sortf", 0},
                {"did", default_deck},
                {"tmpls", json::array({card})},
                {"flds", fields},
                {"css", kCss},
                {"latexPre", kLatexPre},
                {"latexPost", "\\end{document}"},
                {"latexsvg", false},
                // The card exists when the Question field is not empty (Anki recomputes this).
                {"req", json::array({json::array({0, "any", json::array({0})})})},
                {"tags", json::array()},
                {"vers", json::array()}};
  return json{{std::to_string(kNoteTypeId), model}};
}

json deck_json(std::int64_t id, const std::string& name, const std::string& description,
               std::int64_t mod) {
  const json today = json::array({0, 0});
  return json{{"id", id},
              {"mod", mod},
              {"name", name},
              {"usn", 0},
              {"lrnToday", today},
              {"revToday", today},
              {"newToday", today},
              {"timeToday", today},
              {"collapsed", false},
              {"browserCollapsed", false},
              {"desc", description},
              {"dyn", 0},
              {"conf", kDefaultOptionsId},
              {"extendNew", 0},
              {"extendRev", 0}};
}

// Anki's default deck options, as a schema-11 collection holds them.
json deck_options_json() {
  json options = {{"id", kDefaultOptionsId},
                  {"mod", 0},
                  {"name", "Default"},
                  {"usn", 0},
                  {"maxTaken", 60},
                  {"autoplay", true},
                  {"timer", 0},
                  {"replayq", true},
                  {"new",
                   {{"bury", false},
                    {"delays", json::array({1.0, 10.0})},
                    {"initialFactor", 2500},
                    {"ints", json::array({1, 4, 0})},
                    {"order", 1},
                    {"perDay", 20},
                    {"separate", true}}},
                  {"rev",
                   {{"bury", false},
                    {"ease4", 1.3},
                    {"fuzz", 0.05},
                    {"ivlFct", 1.0},
                    {"maxIvl", 36500},
                    {"minSpace", 1},
                    {"perDay", 200},
                    {"hardFactor", 1.2}}},
                  {"lapse",
                   {{"delays", json::array({10.0})},
                    {"leechAction", 1},
                    {"leechFails", 8},
                    {"minInt", 1},
                    {"mult", 0.0}}},
                  {"dyn", false}};
  return json{{std::to_string(kDefaultOptionsId), options}};
}

json config_json(std::size_t cards) {
  return json{{"activeDecks", json::array({kDefaultDeckId})},
              {"curDeck", kDefaultDeckId},
              {"newSpread", 0},
              {"collapseTime", 1200},
              {"timeLim", 0},
              {"estTimes", true},
              {"dueCounts", true},
              {"curModel", nullptr},
              {"nextPos", cards + 1},
              {"sortType", "noteFld"},
              {"sortBackwards", false},
              {"addToCur", true},
              {"dayLearnFirst", false},
              {"schedVer", 2}};
}

// rslib/src/storage/schema11.sql: the tables and indexes of a schema-11 collection.
constexpr const char* kSchema = R"(
CREATE TABLE col (id integer PRIMARY KEY, crt integer NOT NULL, mod integer NOT NULL,
  scm integer NOT NULL, ver integer NOT NULL, dty integer NOT NULL, usn integer NOT NULL,
  ls integer NOT NULL, conf text NOT NULL, models text NOT NULL, decks text NOT NULL,
  dconf text NOT NULL, tags text NOT NULL);
CREATE TABLE notes (id integer PRIMARY KEY, guid text NOT NULL, mid integer NOT NULL,
  mod integer NOT NULL, usn integer NOT NULL, tags text NOT NULL, flds text NOT NULL,
  sfld integer NOT NULL, csum integer NOT NULL, flags integer NOT NULL, data text NOT NULL);
CREATE TABLE cards (id integer PRIMARY KEY, nid integer NOT NULL, did integer NOT NULL,
  ord integer NOT NULL, mod integer NOT NULL, usn integer NOT NULL, type integer NOT NULL,
  queue integer NOT NULL, due integer NOT NULL, ivl integer NOT NULL, factor integer NOT NULL,
  reps integer NOT NULL, lapses integer NOT NULL, left integer NOT NULL, odue integer NOT NULL,
  odid integer NOT NULL, flags integer NOT NULL, data text NOT NULL);
CREATE TABLE revlog (id integer PRIMARY KEY, cid integer NOT NULL, usn integer NOT NULL,
  ease integer NOT NULL, ivl integer NOT NULL, lastIvl integer NOT NULL, factor integer NOT NULL,
  time integer NOT NULL, type integer NOT NULL);
CREATE TABLE graves (usn integer NOT NULL, oid integer NOT NULL, type integer NOT NULL);
CREATE INDEX ix_notes_usn ON notes (usn);
CREATE INDEX ix_cards_usn ON cards (usn);
CREATE INDEX ix_revlog_usn ON revlog (usn);
CREATE INDEX ix_cards_nid ON cards (nid);
CREATE INDEX ix_cards_sched ON cards (did, queue, due);
CREATE INDEX ix_revlog_cid ON revlog (cid);
CREATE INDEX ix_notes_csum ON notes (csum);
)";

struct Collection {
  std::vector<NoteRow> notes;
  std::vector<DeckRow> decks;  // the parent "proofdeck" first, then one per bank
  std::int64_t note_type_mod = 0;
  std::int64_t mod = 0;  // the latest of everything, seconds
};

// The collection file's bytes: built in memory, vacuumed (pages in order, no free ones) and
// serialized, so the same content is the same file.
std::string collection_bytes(const Collection& collection) {
  try {
    SQLite::Database db(":memory:", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("PRAGMA page_size = 4096");
    db.exec(kSchema);
    SQLite::Transaction transaction(db);

    json decks = json::object();
    decks[std::to_string(kDefaultDeckId)] = deck_json(kDefaultDeckId, "Default", "", 0);
    for (const DeckRow& deck : collection.decks)
      decks[std::to_string(deck.id)] = deck_json(deck.id, deck.name, deck.description, deck.mod);
    json tags = json::object();
    for (const NoteRow& row : collection.notes)
      for (const std::string& tag : row.note.tags)
        tags[tag] = 0;

    SQLite::Statement col(db, "INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, ?)");
    col.bind(1, kCollectionCreated);
    col.bind(2, collection.mod * 1000);  // col.mod and col.scm are milliseconds
    col.bind(3, collection.mod * 1000);
    col.bind(4, config_json(collection.notes.size()).dump());
    // New notes of our type go to the first bank's deck unless Anki is told otherwise.
    const std::int64_t first_deck = collection.decks.at(collection.decks.size() > 1 ? 1 : 0).id;
    col.bind(5, models_json(collection.note_type_mod, first_deck).dump());
    col.bind(6, decks.dump());
    col.bind(7, deck_options_json().dump());
    col.bind(8, tags.dump());
    col.exec();

    SQLite::Statement note(db, "INSERT INTO notes VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, 0, '')");
    SQLite::Statement card(
        db, "INSERT INTO cards VALUES (?, ?, ?, 0, ?, 0, 0, 0, ?, 0, 0, 0, 0, 0, 0, 0, 0, '')");
    std::int64_t position = 0;
    for (const NoteRow& row : collection.notes) {
      std::string fields;  // joined by the unit separator, which bank text never holds
      const std::vector<std::string> values = field_values(row.note);
      for (std::size_t i = 0; i < values.size(); ++i)
        fields += (i == 0 ? "" : "\x1f") + values[i];
      std::string tag_text = " ";
      for (const std::string& tag : row.note.tags)
        tag_text += tag + " ";
      note.bind(1, row.note_id);
      note.bind(2, row.note.guid);
      note.bind(3, kNoteTypeId);
      note.bind(4, row.mod);
      note.bind(5, tag_text);
      note.bind(6, fields);
      note.bind(7, strip_html(row.note.question));  // the sort field, Question
      note.bind(8, static_cast<std::int64_t>(field_checksum(row.note.question)));
      note.exec();
      note.reset();
      // A new card: type 0, queue 0, due its position among the new cards.
      card.bind(1, row.card_id);
      card.bind(2, row.note_id);
      card.bind(3, row.deck_id);
      card.bind(4, row.mod);
      card.bind(5, ++position);
      card.exec();
      card.reset();
    }
    transaction.commit();
    db.exec("VACUUM");

    sqlite3_int64 size = 0;
    unsigned char* data = sqlite3_serialize(db.getHandle(), "main", &size, 0);
    if (data == nullptr) throw StateError("export.apkg.sqlite", "cannot serialize the collection");
    std::string bytes(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size));
    sqlite3_free(data);
    return bytes;
  } catch (const SQLite::Exception& error) {
    throw StateError("export.apkg.sqlite",
                     fmt::format("building the Anki collection failed: {}", error.what()));
  }
}

// A zip entry's date and time as MS-DOS writes them (local time in DOS, so we give UTC and no
// time zone enters): 1980 at the earliest.
std::pair<std::uint16_t, std::uint16_t> dos_date_time(std::int64_t seconds) {
  using namespace std::chrono;
  const sys_seconds time{std::chrono::seconds(std::max<std::int64_t>(seconds, 315532800))};
  const auto day = floor<days>(time);
  const year_month_day date{day};
  const hh_mm_ss clock{time - day};
  const auto dos_date =
      static_cast<std::uint16_t>(((static_cast<int>(date.year()) - 1980) << 9) |
                                 (static_cast<int>(static_cast<unsigned>(date.month())) << 5) |
                                 static_cast<int>(static_cast<unsigned>(date.day())));
  const auto dos_time =
      static_cast<std::uint16_t>((clock.hours().count() << 11) | (clock.minutes().count() << 5) |
                                 (clock.seconds().count() / 2));
  return {dos_date, dos_time};
}

[[noreturn]] void zip_failed(const std::string& what, zip_error_t* error) {
  const std::string reason = zip_error_strerror(error);
  zip_error_fini(error);
  throw StateError("export.apkg.zip",
                   fmt::format("writing the package failed: {}: {}", what, reason));
}

// The zip in memory: entries deflated, stamped with `seconds`, in the order given.
std::string zip_bytes(const std::vector<std::pair<std::string, const std::string*>>& entries,
                      std::int64_t seconds) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* buffer = zip_source_buffer_create(nullptr, 0, 0, &error);
  if (buffer == nullptr) zip_failed("a buffer", &error);
  zip_t* archive = zip_open_from_source(buffer, ZIP_TRUNCATE, &error);
  if (archive == nullptr) {
    zip_source_free(buffer);
    zip_failed("opening", &error);
  }
  zip_source_keep(buffer);  // read back after zip_close
  const auto [dos_date, dos_time] = dos_date_time(seconds);
  for (const auto& [name, data] : entries) {
    zip_source_t* source = zip_source_buffer(archive, data->data(), data->size(), 0);
    const zip_int64_t index =
        source == nullptr ? -1 : zip_file_add(archive, name.c_str(), source, ZIP_FL_ENC_UTF_8);
    if (index < 0 ||
        zip_set_file_compression(archive, static_cast<zip_uint64_t>(index), ZIP_CM_DEFLATE, 9) <
            0 ||
        zip_file_set_dostime(archive, static_cast<zip_uint64_t>(index), dos_time, dos_date, 0) <
            0) {
      if (source != nullptr && index < 0) zip_source_free(source);
      zip_error_set(&error, zip_error_code_zip(zip_get_error(archive)),
                    zip_error_code_system(zip_get_error(archive)));
      zip_discard(archive);
      zip_source_free(buffer);
      zip_failed(name, &error);
    }
  }
  if (zip_close(archive) < 0) {
    zip_error_set(&error, zip_error_code_zip(zip_get_error(archive)),
                  zip_error_code_system(zip_get_error(archive)));
    zip_discard(archive);
    zip_source_free(buffer);
    zip_failed("closing", &error);
  }
  std::string bytes;
  zip_stat_t stat;
  zip_stat_init(&stat);
  if (zip_source_stat(buffer, &stat) < 0 || zip_source_open(buffer) < 0) {
    zip_error_set(&error, ZIP_ER_READ, 0);
    zip_source_free(buffer);
    zip_failed("reading back", &error);
  }
  bytes.resize(static_cast<std::size_t>(stat.size));
  const zip_int64_t read = zip_source_read(buffer, bytes.data(), stat.size);
  zip_source_close(buffer);
  zip_source_free(buffer);
  if (read != static_cast<zip_int64_t>(stat.size)) {
    zip_error_set(&error, ZIP_ER_READ, 0);
    zip_failed("reading back", &error);
  }
  zip_error_fini(&error);
  return bytes;
}

std::int64_t seconds_of(TimePoint time) {
  return static_cast<std::int64_t>(time.time_since_epoch().count());
}

}  // namespace

std::array<std::uint8_t, 20> sha1(std::string_view data) {
  SHA1_CTX context;
  SHA1Init(&context);
  SHA1Update(&context, reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
  std::array<std::uint8_t, 20> digest{};
  SHA1Final(digest.data(), &context);
  return digest;
}

std::string sha1_hex(std::string_view data) {
  std::string hex;
  for (const std::uint8_t byte : sha1(data))
    hex += fmt::format("{:02x}", byte);
  return hex;
}

std::string strip_html(std::string_view html) {
  // Our fields hold only what anki_field writes: text with & < > " ' escaped and <br>, plus the
  // few tags export.cpp adds, so removing tags and decoding those entities is Anki's strip_html.
  static constexpr std::array<std::pair<std::string_view, char>, 5> kEntities{
      {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}}};
  std::string text;
  for (std::size_t at = 0; at < html.size(); ++at) {
    if (html[at] == '<') {
      const std::size_t end = html.find('>', at);
      if (end != std::string_view::npos) {
        at = end;
        continue;
      }
    }
    if (html[at] == '&') {
      const auto entity = std::find_if(kEntities.begin(), kEntities.end(), [&](const auto& e) {
        return html.substr(at, e.first.size()) == e.first;
      });
      if (entity != kEntities.end()) {
        text += entity->second;
        at += entity->first.size() - 1;
        continue;
      }
    }
    text += html[at];
  }
  return text;
}

std::uint32_t field_checksum(std::string_view first_field_html) {
  const std::array<std::uint8_t, 20> digest = sha1(strip_html(first_field_html));
  return (std::uint32_t{digest[0]} << 24) | (std::uint32_t{digest[1]} << 16) |
         (std::uint32_t{digest[2]} << 8) | std::uint32_t{digest[3]};
}

std::optional<std::int64_t> parse_source_date_epoch(std::string_view text) {
  constexpr std::int64_t kYear10000 = 253402300800;
  if (text.empty() || text.size() > 12) return std::nullopt;
  std::int64_t seconds = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    seconds = seconds * 10 + (c - '0');
  }
  if (seconds >= kYear10000) return std::nullopt;
  return seconds;
}

Apkg export_apkg(const std::vector<TopicGroup>& groups, bank::DemoRunner& runner,
                 const ApkgOptions& options) {
  Collection collection;
  Apkg apkg;
  IdAllocator note_ids, card_ids, deck_ids;
  std::map<std::string, std::size_t> deck_index;  // deck name → collection.decks
  collection.decks.push_back(DeckRow{deck_ids.id_for("deck:proofdeck"), "proofdeck",
                                     "Questions exported by proofdeck", 0});
  for (const TopicGroup& group : groups) {
    const bank::Bank& b = *group.bank;
    std::int64_t mod = kUndatedNoteTime;
    if (options.source_date_epoch) {
      mod = *options.source_date_epoch;
    } else if (b.revised_at) {
      mod = seconds_of(*b.revised_at);
    } else if (std::find(apkg.undated_banks.begin(), apkg.undated_banks.end(), b.id) ==
               apkg.undated_banks.end()) {
      apkg.undated_banks.push_back(b.id);
    }
    for (const Printed& printed : group.questions) {
      NoteRow row;
      row.note = anki_note(printed, runner);
      row.mod = mod;
      row.note_id = note_ids.id_for("note:" + row.note.guid);
      row.card_id = card_ids.id_for("card:" + row.note.guid);
      auto [it, added] = deck_index.emplace(row.note.deck, collection.decks.size());
      if (added) {
        collection.decks.push_back(DeckRow{deck_ids.id_for("deck:" + row.note.deck), row.note.deck,
                                           anki_field(b.description), 0});
      }
      DeckRow& deck = collection.decks[it->second];
      deck.mod = std::max(deck.mod, mod);
      collection.decks.front().mod = std::max(collection.decks.front().mod, mod);
      row.deck_id = deck.id;
      collection.mod = std::max(collection.mod, mod);
      collection.notes.push_back(std::move(row));
    }
  }
  collection.note_type_mod = options.source_date_epoch.value_or(kNoteTypeRevised);
  collection.mod = std::max(collection.mod, collection.note_type_mod);
  apkg.notes = collection.notes.size();
  apkg.decks = collection.decks.size() - 1;  // the parent "proofdeck" holds no cards

  const std::string database = collection_bytes(collection);
  const std::string media = "{}";
  apkg.bytes = zip_bytes({{"collection.anki2", &database}, {"media", &media}}, collection.mod);
  return apkg;
}

}  // namespace proofdeck::print
