#!/usr/bin/python3
"""Every engine fault must be noticed by the built-in banks, or the README must say why none can.
Runs `check --engine-faults --format json` over the built-in banks and fails when:
  - check does not exit 0, or any run broke under a fault (threw, timed out, gave NaN/Inf);
  - a fault changes no question's verdict and the README's "Faults no question catches" list
    does not name it — or names a fault that some question does catch (the list must stay true).
Prints "N faults: M caught by a built-in question, K explained in the README (S s)" and exits 0.

    tests/engine_faults_check.py build/proofdeck README.md     (scripts/test runs it)

Standard library only.
"""
import json
import re
import subprocess
import sys


def explained_in(readme):
    """The fault names the README's list gives a reason for: `- `name`: reason` lines under the
    heading "Faults no question catches"."""
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    match = re.search(r"^#+ Faults no question catches\n(.*?)(?=^#)", text, re.M | re.S)
    if not match:
        sys.exit(f'{readme}: no "Faults no question catches" section')
    return set(re.findall(r"^- `([a-z0-9-]+)`: \S", match.group(1), re.M))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: tests/engine_faults_check.py PROOFDECK README")
    binary, readme = sys.argv[1], sys.argv[2]
    run = subprocess.run([binary, "check", "--engine-faults", "--format", "json", "--color",
                          "never"], stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"check --engine-faults exited {run.returncode}\n{run.stderr}")
    report = json.loads(run.stdout)["summary"]["engine_faults"]
    problems = []
    broken = [f"{f['fault']} ({f['broken']} of {f['runs']} runs)" for f in report["per_fault"]
              if f["broken"] > 0]
    if broken:
        problems.append("runs broke under " + ", ".join(broken))
    explained = explained_in(readme)
    uncaught = {f["fault"] for f in report["per_fault"] if not f["questions"]}
    caught = {f["fault"] for f in report["per_fault"]} - uncaught
    for name in sorted(uncaught - explained):
        problems.append(f"{name} changes no question's verdict and {readme} does not say why")
    for name in sorted(explained & caught):
        problems.append(f"{readme} says no question catches {name}, but some now do")
    for name in sorted(explained - caught - uncaught):
        problems.append(f"{readme} explains {name}, which is not a fault")
    if problems:
        sys.exit("\n".join(problems))
    print(f"{report['faults']} faults: {len(caught)} caught by a built-in question, "
          f"{len(uncaught)} explained in {readme} ({report['seconds']:.1f} s)")


if __name__ == "__main__":
    main()
