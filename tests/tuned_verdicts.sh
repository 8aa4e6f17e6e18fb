#!/usr/bin/env bash
# The tuned build (./scripts/run's build-run: Release, -march=native, FMA) must reach the same
# `check` verdicts as the portable build the tests and goldens run in. Runs
# `check --format json --mutate` over the built-in banks with both binaries and compares what
# check decides: every question (bank, id) with its status, the exit code, and the mutation
# results (how many wrong keys were tried, how many caught, which survived). Messages are left
# out: a failure's message may quote a measured value, whose last bits FMA may change.
# Prints "N questions, same verdicts in both builds" and exits 0, or a diff and exits 1.
#
#   tests/tuned_verdicts.sh build/proofdeck build-run/proofdeck     (scripts/test runs it)
#
# Needs bash and python3's standard library.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 PORTABLE_PROOFDECK TUNED_PROOFDECK" >&2
  exit 2
fi
portable=$1
tuned=$2

work=$(mktemp -d "${TMPDIR:-/tmp}/proofdeck-tuned.XXXXXX")
trap 'rm -rf "$work"' EXIT

# check NAME BINARY: the JSON report in $work/NAME.json, its exit code in $work/NAME.status.
# Exit 1 (a failed question) is a verdict to compare; anything else means no report to compare.
check() {
  local status=0
  "$2" check --format json --mutate --color never </dev/null >"$work/$1.json" 2>"$work/$1.err" \
    || status=$?
  if [[ $status -ne 0 && $status -ne 1 ]]; then
    echo "$1 build ($2): check exited $status" >&2
    cat "$work/$1.err" >&2
    exit 1
  fi
  echo "$status" >"$work/$1.status"
}
check portable "$portable"
check tuned "$tuned"

/usr/bin/python3 - "$work" <<'PY'
import difflib
import json
import sys

work = sys.argv[1]


def verdicts(name):
    """The lines that must match: exit code, summary counts, survivors, one line per question."""
    try:
        with open(f"{work}/{name}.json", encoding="utf-8") as f:
            report = json.load(f)
    except json.JSONDecodeError as error:
        with open(f"{work}/{name}.err", encoding="utf-8", errors="replace") as f:
            stderr = f.read()
        sys.exit(f"{name} build: `check --format json` printed no JSON report ({error})\n{stderr}")
    with open(f"{work}/{name}.status", encoding="utf-8") as f:
        status = f.read().strip()
    summary = report["summary"]
    lines = [f"exit code {status}"]
    lines += [f"summary {key} {summary[key]}" for key in
              ("questions", "verified", "supported", "unproven", "failed", "mutations",
               "mutations_killed")]
    lines += [f"survivor {s['id']}: {s['mutation']}" for s in summary["survivors"]]
    lines += [f"{q['bank']}/{q['id']} {q['status']}" for q in report["questions"]]
    return lines, len(report["questions"])


portable, count = verdicts("portable")
tuned, _ = verdicts("tuned")
if portable != tuned:
    sys.stdout.writelines(difflib.unified_diff(
        [line + "\n" for line in portable], [line + "\n" for line in tuned],
        "portable build", "tuned build", n=0))
    print("the tuned build's `check` verdicts differ from the portable build's (above)")
    sys.exit(1)
if count == 0:
    print("check reported no questions: nothing was compared")
    sys.exit(1)
print(f"{count} questions, same verdicts in both builds")
PY
