#!/usr/bin/env python3
"""Validates question banks against questions/schema.json with an independent validator
(Debian's python3-jsonschema), so the schema editors use and the banks cannot drift apart.

    /usr/bin/python3 tests/validate_banks.py ROOT

Checks: the schema is valid JSON Schema 2020-12; every bank in questions/ and tests/banks/
validates; the worked example in questions/README.md is exactly tests/banks/worked_example.json;
and a set of broken variants of it is rejected. Ends with "N passed, M failed".
"""
import copy
import json
import pathlib
import re
import sys

import jsonschema

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
passed = failed = 0


def check(ok, what):
    global passed, failed
    print(("ok - " if ok else "not ok - ") + what)
    if ok:
        passed += 1
    else:
        failed += 1


schema = json.loads((root / "questions" / "schema.json").read_text())
try:
    jsonschema.Draft202012Validator.check_schema(schema)
    check(True, "schema.json is valid JSON Schema 2020-12")
except jsonschema.SchemaError as error:
    check(False, f"schema.json is valid JSON Schema 2020-12: {error.message}")
validator = jsonschema.Draft202012Validator(schema)

banks = (sorted((root / "questions").glob("*.json")) + sorted((root / "tests" / "banks").glob("*.json"))
         + sorted((root / "tests" / "banks-wrong").glob("*.json")))
for path in banks:
    if path.name == "schema.json":
        continue
    errors = list(validator.iter_errors(json.loads(path.read_text())))
    detail = "; ".join(f"/{'/'.join(map(str, e.absolute_path))}: {e.message[:160]}" for e in errors[:3])
    check(not errors, f"{path.relative_to(root)} validates" + (f": {detail}" if errors else ""))

readme = (root / "questions" / "README.md").read_text()
match = re.search(r"## A complete worked example\n\n```json\n(.*?)\n```", readme, re.S)
example = json.loads(match.group(1)) if match else None
committed = json.loads((root / "tests" / "banks" / "worked_example.json").read_text())
check(example == committed, "the README's worked example is tests/banks/worked_example.json")


def rejected(what, change):
    broken = copy.deepcopy(committed)
    change(broken)
    check(any(True for _ in validator.iter_errors(broken)), f"rejects {what}")


rejected("an unknown key on an option", lambda b: b["questions"][0]["options"][0].update(bogus=1))
rejected("an unknown key on a question", lambda b: b["questions"][1].update(extra=1))
rejected("a true/false answer given as a string", lambda b: b["questions"][1].update(answer="false"))
rejected("a numeric answer without tolerance", lambda b: b["questions"][2]["answer"].pop("tolerance"))
rejected("a single question typed numeric", lambda b: b["questions"][0].update(type="numeric"))
rejected("an unknown question type", lambda b: b["questions"][0].update(type="essay"))
rejected("an id that is not kebab-case", lambda b: b["questions"][0].update(id="Bad Id"))
rejected("a predicate with two comparators and a tolerance", lambda b: b["questions"][0]["options"][0].update(
    claim={"value": "x", "lt": 1, "gt": 0, "tolerance": 0}))
rejected("a predicate without a value name", lambda b: b["questions"][0]["options"][0].update(claim={"lt": 1}))
rejected("a question without explanation", lambda b: b["questions"][0].pop("explanation"))
rejected("requires given as one id, not a list", lambda b: b["topics"][1].update(requires="multi-head"))
rejected("a bank's requires holding an id that is not kebab-case",
         lambda b: b["bank"].update(requires=["Transformer Layer"]))
rejected("an id required twice", lambda b: b["topics"][1].update(requires=["multi-head", "multi-head"]))
rejected("a template parameter with no values", lambda b: b["questions"][2]["template"]["params"].update(heads=[]))

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
