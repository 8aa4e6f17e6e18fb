#!/usr/bin/python3
"""The tuned build (./scripts/run's build-run: Release, -march=native, FMA) must reach the same
`check` verdicts as the portable build the tests and goldens run in. Runs
`check --format json --mutate` over the built-in banks with both binaries and compares what check
decides: every question (bank, id) with its status, the exit code, and the mutation results (how
many wrong keys were tried, how many caught, which survived). Messages are left out: a failure's
message may quote a measured value, whose last bits FMA may change.
Prints "N questions, same verdicts in both builds" and exits 0, or a diff and exits 1.

    tests/tuned_verdicts.py build/proofdeck build-run/proofdeck     (scripts/test runs it)

Standard library only.
"""
import difflib
import json
import subprocess
import sys


def verdicts(name, binary):
    """The lines that must match: exit code, summary counts, survivors, one line per question.
    Exit 1 (a failed question) is a verdict to compare; anything else means no report."""
    try:
        run = subprocess.run([binary, "check", "--format", "json", "--mutate", "--color", "never"],
                             stdin=subprocess.DEVNULL, capture_output=True, text=True)
    except OSError as error:
        sys.exit(f"{name} build: {binary} cannot be run ({error.strerror})")
    if run.returncode not in (0, 1):
        sys.exit(f"{name} build ({binary}): check exited {run.returncode}\n{run.stderr}")
    try:
        report = json.loads(run.stdout)
    except json.JSONDecodeError as error:
        sys.exit(f"{name} build: `check --format json` printed no JSON report ({error})\n"
                 f"{run.stderr}")
    summary = report["summary"]
    lines = [f"exit code {run.returncode}"]
    lines += [f"summary {key} {summary[key]}" for key in
              ("questions", "verified", "supported", "unproven", "failed", "mutations",
               "mutations_killed")]
    lines += [f"survivor {s['id']}: {s['mutation']}" for s in summary["survivors"]]
    lines += [f"{q['bank']}/{q['id']} {q['status']}" for q in report["questions"]]
    return lines, len(report["questions"])


def main():
    if len(sys.argv) != 3:
        print(f"usage: {sys.argv[0]} PORTABLE_PROOFDECK TUNED_PROOFDECK", file=sys.stderr)
        return 2
    portable, count = verdicts("portable", sys.argv[1])
    tuned, _ = verdicts("tuned", sys.argv[2])
    if portable != tuned:
        sys.stdout.writelines(difflib.unified_diff(
            [line + "\n" for line in portable], [line + "\n" for line in tuned],
            "portable build", "tuned build", n=0))
        print("the tuned build's `check` verdicts differ from the portable build's (above)")
        return 1
    if count == 0:
        print("check reported no questions: nothing was compared")
        return 1
    print(f"{count} questions, same verdicts in both builds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
