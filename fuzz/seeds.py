#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora from what the repository already holds, so they follow
the banks and fixtures as those change:
  fuzz_bank_loader  every bank (tests/banks*/, questions/), whole when small enough and as
                    one-question banks carrying only the topics and traps the question uses
  fuzz_formula      every template answer, constraint and distractor formula in those banks
  fuzz_answer       every numeric key in them
  fuzz_engine_spec  the "spec" of every engine fixture in tests/fixtures/
The hand-written seeds in fuzz/corpus/<target>/ (answers in every notation, edge cases) are
copied by scripts/fuzz beside these.
  fuzz/seeds.py ROOT OUT    writes OUT/<target>/<name>
"""

import glob
import hashlib
import json
import os
import sys

MAX_BANK_BYTES = 65536  # scripts/fuzz runs fuzz_bank_loader with -max_len 65536


def compact(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def write(out, target, text):
    directory = os.path.join(out, target)
    os.makedirs(directory, exist_ok=True)
    data = text.encode("utf-8")
    # Named by content, as libFuzzer names its own, so rewriting is idempotent.
    with open(os.path.join(directory, hashlib.sha1(data).hexdigest()), "wb") as file:
        file.write(data)


def question_traps(question):
    traps = {option.get("trap") for option in question.get("options", [])}
    traps |= {d.get("trap") for d in question.get("distractors", [])}
    traps.add(question.get("trap"))
    return traps - {None}


def bank_seeds(out, bank):
    whole = compact(bank)
    if len(whole.encode("utf-8")) <= MAX_BANK_BYTES:
        write(out, "fuzz_bank_loader", whole)
    for question in bank.get("questions", []):
        traps = question_traps(question)
        single = dict(bank)
        single["topics"] = [t for t in bank["topics"] if t["id"] == question.get("topic")]
        single["traps"] = [t for t in bank["traps"] if t["id"] in traps]
        single["questions"] = [question]
        write(out, "fuzz_bank_loader", compact(single))

        template = question.get("template")
        if template:
            write(out, "fuzz_formula", template["answer"])
            for constraint in template.get("constraints", []):
                write(out, "fuzz_formula", constraint)
        for distractor in question.get("distractors", []):
            if "formula" in distractor:
                write(out, "fuzz_formula", distractor["formula"])
        value = question.get("answer", {}).get("value") if question.get("type") == "numeric" else None
        if value is not None:
            write(out, "fuzz_answer", json.dumps(value))


def main():
    root, out = sys.argv[1], sys.argv[2]
    banks = sorted(glob.glob(os.path.join(root, "tests", "banks*", "*.json")))
    banks += sorted(p for p in glob.glob(os.path.join(root, "questions", "*.json"))
                    if os.path.basename(p) != "schema.json")
    for path in banks:
        with open(path, encoding="utf-8") as file:
            bank_seeds(out, json.load(file))
    for path in sorted(glob.glob(os.path.join(root, "tests", "fixtures", "*.json"))):
        with open(path, encoding="utf-8") as file:
            write(out, "fuzz_engine_spec", compact(json.load(file)["spec"]))


if __name__ == "__main__":
    main()
