#!/usr/bin/python3
"""The README's status table and the counts beside it, regenerated from
`check --engine-faults --format json`, so the README never states a share the banks no longer have.

    tests/readme_status.py README.md REPORT [--write]

REPORT is check's JSON report (scripts/test passes the one tests/engine_faults_check.py saved), or
the proofdeck binary, which is then run as `proofdeck check --engine-faults --format json`.
Without --write, exits 1 naming each stale line and the command that rewrites them; with --write,
rewrites them in place. What it keeps true:
  - the table under "Each bank's share today": one row a bank, its verified, computed, supported
    and unproven keys and how many of its verified keys a fault that is not broad confirms;
  - "N of the M answer keys are **verified**" and the counts in the sentence after it;
  - "each of N faults", and "each of the G changes some question's verdict, and all V verified
    keys are caught" (or "F of the G change", "C of the V verified keys")

Standard library only.
"""
import json
import os
import re
import subprocess
import sys
from collections import Counter, OrderedDict

HEADER = ("| bank | verified | computed | supported | unproven | "
          "verified keys an engine fault catches |\n|---|---|---|---|---|---|\n")
STATUSES = ("verified", "computed", "supported", "unproven")


def load_report(source):
    if os.access(source, os.X_OK) and not source.endswith(".json"):
        run = subprocess.run([source, "check", "--engine-faults", "--format", "json", "--color",
                              "never"], stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"check --engine-faults exited {run.returncode}\n{run.stderr}")
        return json.loads(run.stdout)
    with open(source, encoding="utf-8") as f:
        return json.load(f)


def table(report):
    banks = OrderedDict()
    for q in report["questions"]:
        counts = banks.setdefault(q["bank"], Counter())
        counts[q["status"]] += 1
        if q["status"] == "verified" and q.get("confirmed"):
            counts["confirmed"] += 1
    rows = "".join(
        f"| {bank} | " + " | ".join(str(c[s]) for s in STATUSES) +
        f" | {c['confirmed']} of {c['verified']} |\n" for bank, c in sorted(banks.items()))
    return HEADER + rows


def expected(text, report):
    """The README with every generated part as the report says it should be."""
    summary = report["summary"]
    faults = summary["engine_faults"]
    total = summary["questions"]
    verified = summary["verified"]
    confirmed = sum(1 for q in report["questions"]
                    if q["status"] == "verified" and q.get("confirmed"))
    per_fault = faults["per_fault"]
    noticed = sum(1 for f in per_fault if f["questions"])
    text = re.sub(re.escape(HEADER) + r"(?:\|[^\n]*\|\n)+", lambda _: table(report), text)
    text = re.sub(r"\d+ of the \d+ answer keys are\n\*\*verified\*\*",
                  f"{verified} of the {total} answer keys are\n**verified**", text)
    text = re.sub(r"the rest are arithmetic \(\d+\), held\nby a proof that would not catch a wrong "
                  r"key \(\d+\), or `unproven` with the reason no computation\ncan bear on them "
                  r"\(\d+:",
                  f"the rest are arithmetic ({summary['computed']}), held\nby a proof that would "
                  f"not catch a wrong key ({summary['supported']}), or `unproven` with the reason "
                  f"no computation\ncan bear on them ({summary['unproven']}:", text)
    faults_noticed = (f"each of the {len(per_fault)} changes" if noticed == len(per_fault)
                      else f"{noticed} of the {len(per_fault)} change")
    keys_caught = (f"all {verified} verified keys are caught" if confirmed == verified
                   else f"{confirmed} of the {verified} verified keys are caught")
    text = re.sub(r"(?:each of the \d+ changes|\d+ of the \d+ change) some question's verdict, and\s"
                  r"(?:all \d+|\d+ of the \d+) verified keys are caught",
                  lambda m: f"{faults_noticed} some question's verdict, and"
                  f"{m.group(0)[m.group(0).index('verdict, and') + 12]}{keys_caught}", text)
    text = re.sub(r"each of\n\d+ faults a named change", f"each of\n{len(per_fault)} faults a named change",
                  text)
    return text


def main():
    args = [a for a in sys.argv[1:] if a != "--write"]
    if len(args) != 2:
        sys.exit("usage: tests/readme_status.py README.md REPORT|PROOFDECK [--write]")
    readme, source = args
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    if HEADER not in text:
        sys.exit(f"{readme}: no status table (its header is {HEADER.splitlines()[0]})")
    want = expected(text, load_report(source))
    if want == text:
        print(f"{readme}: the status table and its counts match check --engine-faults")
        return
    if "--write" in sys.argv:
        with open(readme, "w", encoding="utf-8") as f:
            f.write(want)
        print(f"{readme}: status table and counts rewritten")
        return
    old, new = text.splitlines(), want.splitlines()
    stale = [f"  README says: {a}\n  check says:  {b}" for a, b in zip(old, new) if a != b]
    sys.exit(f"{readme}: the status differs from check --engine-faults:\n" + "\n".join(stale) +
             f"\nrewrite it with: tests/readme_status.py {readme} build/proofdeck --write")


if __name__ == "__main__":
    main()
