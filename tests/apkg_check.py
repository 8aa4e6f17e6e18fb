#!/usr/bin/python3
"""`proofdeck export --to apkg` opened as Anki opens a package, with the standard library only.

Written from Anki's documented format (its sources: rslib/src/storage/schema11.sql, the
schema-11 JSON of note types, decks and deck options, the .apkg importer), not from proofdeck's
exporter. It exports the built-in banks to a package and checks:
  - the zip holds `collection.anki2` (a legacy package, so schema 11) and `media`, the JSON {};
  - the collection passes `PRAGMA integrity_check`, has the five tables, and col.ver is 11;
  - col.models holds the note type "proofdeck question" with its fields and its card's front
    and back templates, and the keys Anki's schema-11 reader requires; col.decks a deck
    `proofdeck::<title>` per bank;
  - every question of `proofdeck export --to json` of the same banks is one note: its GUID
    `proofdeck-<id>`, the prompt and the options in its fields, the answer, the tags, csum
    (SHA-1 of the HTML-stripped first field, first 4 bytes big-endian) and sfld recomputed here,
    ids in Anki's range; one new card per note, in its bank's deck;
  - two exports are byte-identical; SOURCE_DATE_EPOCH dates every note;
  - a copy of a small bank with one prompt changed and `revised` bumped gives the same GUID with
    a larger mod (so Anki updates the note on re-import instead of keeping the old one).

usage: apkg_check.py PROOFDECK_BINARY
"""

import datetime
import hashlib
import html
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile

FIELDS = ["Question", "Kind", "Options", "Answer", "Traps", "Explanation", "Worked", "Proof",
          "Source"]
NOTE_TYPE = "proofdeck question"

problems = []


def check(condition, message):
    if not condition:
        problems.append(message)
    return condition


def run(args, env=None):
    return subprocess.run(args, capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, **(env or {})))


def strip_html(text):
    """Anki's strip_html: comments, style and script blocks and tags removed, entities decoded."""
    text = re.sub(r"(?si)<!--.*?-->|<style.*?>.*?</style>|<script.*?>.*?</script>|<.*?>", "",
                  text)
    return html.unescape(text).replace("\u00a0", " ")


def field_checksum(first_field):
    return int(hashlib.sha1(strip_html(first_field).encode("utf-8")).hexdigest()[:8], 16)


def plain(text):
    """Bank text as a field shows it once stripped: line breaks gone, tabs as spaces."""
    return text.replace("\r", "").replace("\n", "").replace("\t", " ")


def contains_in_order(haystack, pieces):
    at = 0
    for piece in pieces:
        found = haystack.find(piece, at)
        if found < 0:
            return False
        at = found + len(piece)
    return True


def template_pieces(text):
    """The literal pieces of a template's text around its {placeholders}."""
    return [piece for piece in re.split(r"\{[^{}]*\}", plain(text)) if piece.strip()]


def open_package(path):
    """(collection connection, zip names, media) as Anki's importer reads a legacy package."""
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        media = json.loads(archive.read("media")) if "media" in names else None
        data = archive.read("collection.anki2") if "collection.anki2" in names else b""
        infos = archive.infolist()
    handle, db_path = tempfile.mkstemp(suffix=".anki2")
    with os.fdopen(handle, "wb") as out:
        out.write(data)
    db = sqlite3.connect(db_path)
    return db, names, media, infos, db_path


def export_apkg(proofdeck, output, args=(), env=None):
    made = run([proofdeck, "export", "--to", "apkg", "--output", output] + list(args), env)
    check(made.returncode == 0,
          f"export --to apkg {' '.join(args)} exited {made.returncode}: {made.stderr.strip()}")
    return made


def notes_by_guid(db):
    cols = "id, guid, mid, mod, usn, tags, flds, sfld, csum, flags, data"
    rows = db.execute(f"SELECT {cols} FROM notes").fetchall()
    return {row[1]: dict(zip(cols.split(", "), row)) for row in rows}


def question_traps(q):
    traps = {o.get("trap") for o in q.get("options", [])}
    traps |= {d.get("trap") for d in q.get("distractors", [])}
    traps.add(q.get("trap"))
    return {t for t in traps if t}


def check_collection(db, names, media, infos, banks):
    check("collection.anki2" in names, f"the zip has no collection.anki2: {names}")
    check(media == {}, f"the media entry is {media!r}, expected {{}}")
    check(all(info.date_time == infos[0].date_time for info in infos),
          "zip entries carry different time stamps")
    check(db.execute("PRAGMA integrity_check").fetchone()[0] == "ok", "integrity_check failed")
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    check({"col", "notes", "cards", "revlog", "graves"} <= tables, f"tables: {sorted(tables)}")
    rows = db.execute("SELECT ver, crt, mod, scm, models, decks, dconf, conf, tags FROM col"
                      ).fetchall()
    if not check(len(rows) == 1, f"col has {len(rows)} rows"):
        return
    ver, crt, mod, scm, models_text, decks_text, dconf_text, conf_text, tags_text = rows[0]
    check(ver == 11, f"col.ver is {ver}, expected 11")
    now_ms = int(time.time() * 1000)
    check(0 < crt < now_ms // 1000 and 0 < mod and 0 < scm, f"col crt {crt} mod {mod} scm {scm}")
    for name, text in (("dconf", dconf_text), ("conf", conf_text), ("tags", tags_text)):
        check(isinstance(json.loads(text), dict), f"col.{name} is not a JSON object")

    models = json.loads(models_text)
    ours = [m for m in models.values() if m.get("name") == NOTE_TYPE]
    if not check(len(ours) == 1, f"col.models has {len(ours)} note types named {NOTE_TYPE!r}"):
        return
    model = ours[0]
    check(str(model.get("id")) in models, "the note type's id is not its key in col.models")
    for key in ("id", "name", "type", "mod", "usn", "sortf", "did", "tmpls", "flds", "css"):
        check(key in model, f"the note type lacks '{key}', which Anki's schema-11 reader needs")
    check(model.get("type") == 0, "the note type is not a standard (non-cloze) one")
    check([f.get("name") for f in model.get("flds", [])] == FIELDS,
          f"fields {[f.get('name') for f in model.get('flds', [])]}, expected {FIELDS}")
    for ord_, field in enumerate(model.get("flds", [])):
        check(field.get("ord") == ord_, f"field {field.get('name')} has ord {field.get('ord')}")
        for key in ("sticky", "rtl", "font", "size"):
            check(key in field, f"field {field.get('name')} lacks '{key}'")
    templates = model.get("tmpls", [])
    if check(len(templates) == 1, f"{len(templates)} card templates, expected one"):
        card = templates[0]
        front, back = card.get("qfmt", ""), card.get("afmt", "")
        for needed in ("{{Question}}", "{{Options}}"):
            check(needed in front, f"the front template lacks {needed}")
        for needed in ("{{FrontSide}}", "<hr id=answer>", "{{Answer}}", "{{Traps}}",
                       "{{Explanation}}", "{{Proof}}", "{{Source}}"):
            check(needed in back, f"the back template lacks {needed}")
        check(card.get("ord") == 0 and card.get("name"), "the card template's name or ord")
    check("nightMode" in model.get("css", ""), "the CSS has no dark-mode (nightMode) rules")

    decks = json.loads(decks_text)
    for deck in decks.values():
        for key in ("id", "name", "usn", "lrnToday", "revToday", "newToday", "timeToday",
                    "collapsed", "dyn", "conf"):
            check(key in deck, f"deck {deck.get('name')} lacks '{key}'")
        check(str(deck.get("id")) in decks, f"deck {deck.get('name')}'s id is not its key")
    deck_ids = {d["name"]: d["id"] for d in decks.values()}
    check("proofdeck" in deck_ids, "no parent deck 'proofdeck'")
    for bank in banks:
        check(f"proofdeck::{bank['bank']['title']}" in deck_ids,
              f"no deck for bank {bank['bank']['id']}")

    notes = notes_by_guid(db)
    questions = [(bank, q) for bank in banks for q in bank["questions"]]
    check(len(notes) == len(questions) == db.execute("SELECT count(*) FROM notes").fetchone()[0],
          f"{len(notes)} distinct GUIDs for {len(questions)} questions")
    cards = db.execute("SELECT id, nid, did, ord, type, queue, due FROM cards").fetchall()
    cards_of = {}
    for card in cards:
        cards_of.setdefault(card[1], []).append(card)
    ids = [n["id"] for n in notes.values()] + [c[0] for c in cards]
    check(all(1_000_000_000_000 < i <= now_ms + 86_400_000 for i in ids),
          "a note or card id lies outside Anki's millisecond range (Anki would renumber it)")
    check(len({c[0] for c in cards}) == len(cards), "card ids repeat")
    for bank, q in questions:
        where = f"{bank['bank']['id']}/{q['id']}"
        note = notes.get(f"proofdeck-{q['id']}")
        if not check(note is not None, f"{where}: no note with GUID proofdeck-{q['id']}"):
            continue
        check(note["mid"] == model["id"], f"{where}: note of another note type")
        fields = note["flds"].split("\x1f")
        if not check(len(fields) == len(FIELDS), f"{where}: {len(fields)} fields"):
            continue
        field = {name: strip_html(value) for name, value in zip(FIELDS, fields)}
        check(contains_in_order(field["Question"], template_pieces(q["prompt"])),
              f"{where}: the Question field {field['Question'][:80]!r} is not the prompt")
        check(note["csum"] == field_checksum(fields[0]),
              f"{where}: csum {note['csum']} is not the checksum of the first field "
              f"({field_checksum(fields[0])})")
        check(note["sfld"] == strip_html(fields[0]), f"{where}: sfld is not the stripped Question")
        check(note["mod"] > 0, f"{where}: mod {note['mod']}")
        kind = q["type"]
        if kind in ("single", "multi"):
            for option in q["options"]:
                check(plain(option["text"]) in field["Options"],
                      f"{where}: option {option['text'][:40]!r} missing from Options")
            right = [plain(o["text"]) for o in q["options"] if o["correct"]]
            check(all(r in field["Answer"] for r in right), f"{where}: Answer lacks a right option")
            for wrong in (plain(o["text"]) for o in q["options"] if not o["correct"]):
                if not any(wrong in r for r in right):
                    check(wrong not in field["Answer"], f"{where}: a wrong option in Answer")
        elif kind == "truefalse":
            check(field["Answer"] == ("True" if q["answer"] else "False"),
                  f"{where}: Answer {field['Answer']!r} for truefalse {q['answer']}")
        elif kind == "numeric":
            value = q["answer"].get("value")
            if isinstance(value, int):
                check(str(value) in field["Answer"].replace(",", ""),
                      f"{where}: Answer {field['Answer']!r} lacks {value}")
            if q["answer"].get("unit"):
                check(q["answer"]["unit"] in field["Answer"] + field["Kind"],
                      f"{where}: the unit is not shown")
        elif kind == "order":
            steps = [plain(s["text"]) for s in q["steps"]]
            check(all(s in field["Options"] for s in steps), f"{where}: a step missing")
            check(contains_in_order(field["Answer"], steps), f"{where}: Answer out of order")
        check(field["Explanation"] != "", f"{where}: no Explanation")
        check(("proof" in q) == (field["Proof"] != ""), f"{where}: Proof field vs the bank's proof")
        tags = set(note["tags"].split())
        expected = {f"topic::{q['topic']}", f"type::{kind}", f"bank::{bank['bank']['id']}"}
        expected |= {f"trap::{t}" for t in question_traps(q)}
        check(tags == expected, f"{where}: tags {sorted(tags)}, expected {sorted(expected)}")
        check(note["tags"].startswith(" ") and note["tags"].endswith(" "),
              f"{where}: tags are not space-wrapped as Anki stores them")
        mine = cards_of.get(note["id"], [])
        if check(len(mine) == 1, f"{where}: {len(mine)} cards"):
            _, _, did, ord_, type_, queue, _ = mine[0]
            check(did == deck_ids.get(f"proofdeck::{bank['bank']['title']}"),
                  f"{where}: its card is not in its bank's deck")
            check((ord_, type_, queue) == (0, 0, 0), f"{where}: not a new card of template 0")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    proofdeck = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="proofdeck-apkg-") as tmp:
        first, second = os.path.join(tmp, "first.apkg"), os.path.join(tmp, "second.apkg")
        export_apkg(proofdeck, first)
        export_apkg(proofdeck, second)
        json_dir = os.path.join(tmp, "banks") + "/"
        made = run([proofdeck, "export", "--to", "json", "--output", json_dir])
        check(made.returncode == 0, f"export --to json: {made.stderr.strip()}")
        if problems:
            return report()
        check(open(first, "rb").read() == open(second, "rb").read(),
              "two exports of the same banks differ")
        banks = [json.load(open(os.path.join(json_dir, name)))
                 for name in sorted(os.listdir(json_dir))]
        db, names, media, infos, db_path = open_package(first)
        check_collection(db, names, media, infos, banks)
        db.close()
        os.remove(db_path)
        print(f"read: {sum(len(b['questions']) for b in banks)} questions of {len(banks)} banks "
              f"checked as notes")

        # SOURCE_DATE_EPOCH dates every note.
        epoch = os.path.join(tmp, "epoch.apkg")
        export_apkg(proofdeck, epoch, env={"SOURCE_DATE_EPOCH": "1800000000"})
        db, *_, db_path = open_package(epoch)
        mods = {row[0] for row in db.execute("SELECT mod FROM notes")}
        check(mods == {1800000000}, f"with SOURCE_DATE_EPOCH the notes' mod are {sorted(mods)}")
        db.close()
        os.remove(db_path)

        # A changed note, with its bank's revised bumped, re-imports as newer.
        small = min((b for b in banks), key=lambda b: len(b["questions"]))
        original = os.path.join(tmp, "original.json")
        json.dump(small, open(original, "w"))
        changed = json.loads(json.dumps(small))
        question = next(q for q in changed["questions"] if "template" not in q)
        question["prompt"] = "Changed: " + question["prompt"]
        # A day after the bank's own date, whatever that is (a date, or a date and time).
        revised = small["bank"].get("revised", "2026-01-01")
        day_after = datetime.datetime.fromisoformat(revised[:10]) + datetime.timedelta(days=1)
        changed["bank"]["revised"] = day_after.strftime("%Y-%m-%dT%H:%M:%SZ")
        changed_path = os.path.join(tmp, "changed.json")
        json.dump(changed, open(changed_path, "w"))
        before, after = os.path.join(tmp, "before.apkg"), os.path.join(tmp, "after.apkg")
        export_apkg(proofdeck, before, ["--no-builtin", "--bank", original])
        export_apkg(proofdeck, after, ["--no-builtin", "--bank", changed_path])
        guid = f"proofdeck-{question['id']}"
        notes = []
        for path in (before, after):
            db, *_, db_path = open_package(path)
            notes.append(notes_by_guid(db).get(guid))
            db.close()
            os.remove(db_path)
        if check(all(notes), f"{guid} missing from the small bank's packages"):
            old, new = notes
            check(old["id"] == new["id"], "the changed note got another note id")
            check(new["mod"] > old["mod"],
                  f"the changed note's mod {new['mod']} is not newer than {old['mod']}")
            check(strip_html(new["flds"].split("\x1f")[0]).startswith("Changed: "),
                  "the changed prompt is not in the new package")
            print(f"checked: {guid} changed: mod {old['mod']} -> {new['mod']}, same GUID and id")
    return report()


def report():
    for problem in problems[:50]:
        print("FAIL:", problem)
    if len(problems) > 50:
        print(f"FAIL: … and {len(problems) - 50} more")
    if not problems:
        print("ok: the package reads as Anki reads it")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
