#!/usr/bin/python3
"""Every engine fault must be noticed by the built-in banks, or the list in docs/check.md must say why none can.
Runs `check --engine-faults --format json` over the built-in banks and fails when:
  - check does not exit 0, or any run broke under a fault (threw, timed out, gave NaN/Inf);
  - a fault changes no question's verdict and docs/check.md's "Faults no question catches" list
    does not name it — or names a fault that some question does catch (the list must stay true);
  - a measured or counted value no fault moves is not named in docs/ARCHITECTURE.md's "Engine
    values no fault moves", or an entry there names no such value (that list must stay true too).
Prints "N faults: M caught by a built-in question, K explained in docs/check.md; V values no fault
moves, each explained (S s)" and exits 0.

    tests/engine_faults_check.py build/proofdeck docs/check.md docs/ARCHITECTURE.md [REPORT]
                                                               (scripts/test runs it)

REPORT, when given, receives check's JSON report, which tests/tuned_verdicts.py compares with the
tuned build's.

Standard library only.
"""
import json
import re
import subprocess
import sys


def explained_in(faults_doc):
    """The fault names the list gives a reason for: `- `name`: reason` lines under the
    heading "Faults no question catches"."""
    with open(faults_doc, encoding="utf-8") as f:
        text = f.read()
    match = re.search(r"^#+ Faults no question catches\n(.*?)(?=^#)", text, re.M | re.S)
    if not match:
        sys.exit(f'{faults_doc}: no "Faults no question catches" section')
    return set(re.findall(r"^- `([a-z0-9-]+)`: \S", match.group(1), re.M))


def unmoved_explained(architecture):
    """The value patterns ARCHITECTURE's list gives a reason for, as compiled regexes keyed by the
    pattern: each `demo: name` in backticks on a `- ` line (and its continuation lines) before the
    line's `: reason`; `*` stands for any run of name characters."""
    with open(architecture, encoding="utf-8") as f:
        text = f.read()
    match = re.search(r"^#+ Engine values no fault moves\n(.*?)(?=^#|\Z)", text, re.M | re.S)
    if not match:
        sys.exit(f'{architecture}: no "Engine values no fault moves" section')
    patterns = {}
    for item in re.split(r"^- ", match.group(1), flags=re.M)[1:]:
        head = item.split("`: ", 1)[0] + "`"
        for pattern in re.findall(r"`([a-z0-9-]+: [a-z0-9_*]+)`", head):
            regex = re.escape(pattern).replace(r"\*", "[a-z0-9_]*")
            patterns[pattern] = re.compile(regex + "$")
    return patterns


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit("usage: tests/engine_faults_check.py PROOFDECK FAULTS_DOC ARCHITECTURE [REPORT]")
    binary, faults_doc, architecture = sys.argv[1], sys.argv[2], sys.argv[3]
    run = subprocess.run([binary, "check", "--engine-faults", "--format", "json", "--color",
                          "never"], stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"check --engine-faults exited {run.returncode}\n{run.stderr}")
    if len(sys.argv) == 5:
        with open(sys.argv[4], "w", encoding="utf-8") as saved:
            saved.write(run.stdout)
    report = json.loads(run.stdout)["summary"]["engine_faults"]
    problems = []
    broken = [f"{f['fault']} ({f['broken']} of {f['runs']} runs)" for f in report["per_fault"]
              if f["broken"] > 0]
    if broken:
        problems.append("runs broke under " + ", ".join(broken))
    explained = explained_in(faults_doc)
    uncaught = {f["fault"] for f in report["per_fault"] if not f["questions"]}
    caught = {f["fault"] for f in report["per_fault"]} - uncaught
    for name in sorted(uncaught - explained):
        problems.append(f"{name} changes no question's verdict and {faults_doc} does not say why")
    for name in sorted(explained & caught):
        problems.append(f"{faults_doc} says no question catches {name}, but some now do")
    for name in sorted(explained - caught - uncaught):
        problems.append(f"{faults_doc} explains {name}, which is not a fault")
    patterns = unmoved_explained(architecture)
    unmoved = report["unmoved_engine_values"]
    for value in unmoved:
        if not any(regex.match(value) for regex in patterns.values()):
            problems.append(f"no fault moves {value} and {architecture} does not say why")
    for pattern, regex in sorted(patterns.items()):
        if not any(regex.match(value) for value in unmoved):
            problems.append(f"{architecture} explains why no fault moves {pattern}, but some "
                            "fault moves it (or no demo has it)")
    if problems:
        sys.exit("\n".join(problems))
    print(f"{report['faults']} faults: {len(caught)} caught by a built-in question, "
          f"{len(uncaught)} explained in {faults_doc}; {len(unmoved)} values no fault moves, each "
          f"explained in {architecture} ({report['seconds']:.1f} s)")


if __name__ == "__main__":
    main()
