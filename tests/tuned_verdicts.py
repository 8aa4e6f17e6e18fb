#!/usr/bin/python3
"""The tuned build (./scripts/run's build-run: Release, -march=native, FMA, OpenBLAS's products)
must reach the same `check` verdicts as the portable build the tests and goldens run in. Runs
`check --format json --mutate` over the built-in banks with both binaries and compares what check
decides: every question (bank, id) with its status, the exit code, and the mutation results (how
many wrong keys were tried, how many caught, which survived). Messages are left out: a failure's
message may quote a measured value, whose last bits FMA and OpenBLAS may change.

Given the portable build's `check --engine-faults --format json` report (written by
tests/engine_faults_check.py), it also runs the tuned build's and compares, question by question
and option by option, which engine faults each key notices: the fault seam must work on the
tuned build's products too.

The tuned binary starts OpenBLAS at the kernels of the instruction set it was compiled for
(engine/product.cpp), so its OpenBLAS path is the one compared; the line printed names it.
Prints "N questions, same verdicts in both builds (...)" and exits 0, or a diff and exits 1.

    tests/tuned_verdicts.py build/proofdeck build-run/proofdeck [ENGINE_FAULTS_REPORT]
                                                                    (scripts/test runs it)

Standard library only.
"""
import difflib
import json
import subprocess
import sys


def products(binary):
    """Who computes the tuned build's products, as `engine bench` reports it."""
    run = subprocess.run([binary, "engine", "bench", "--seq", "8", "--d-model", "64", "--heads",
                          "2", "--d-ff", "64", "--iters", "1", "--warmup", "0"],
                         stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"tuned build ({binary}): engine bench exited {run.returncode}\n{run.stderr}")
    return json.loads(run.stdout).get("products", "Eigen")


def run_check(name, binary, options):
    """check's JSON report and exit code; exit 1 (a failed question) is a verdict to compare,
    anything else means no report."""
    try:
        run = subprocess.run([binary, "check", "--format", "json", *options, "--color", "never"],
                             stdin=subprocess.DEVNULL, capture_output=True, text=True)
    except OSError as error:
        sys.exit(f"{name} build: {binary} cannot be run ({error.strerror})")
    if run.returncode not in (0, 1):
        sys.exit(f"{name} build ({binary}): check exited {run.returncode}\n{run.stderr}")
    try:
        return json.loads(run.stdout), run.returncode
    except json.JSONDecodeError as error:
        sys.exit(f"{name} build: `check --format json` printed no JSON report ({error})\n"
                 f"{run.stderr}")


def verdicts(name, binary):
    """The lines that must match: exit code, summary counts, survivors, one line per question."""
    report, returncode = run_check(name, binary, ["--mutate"])
    summary = report["summary"]
    lines = [f"exit code {returncode}"]
    lines += [f"summary {key} {summary[key]}" for key in
              ("questions", "verified", "supported", "unproven", "failed", "mutations",
               "mutations_killed")]
    lines += [f"survivor {s['id']}: {s['mutation']}" for s in summary["survivors"]]
    lines += [f"{q['bank']}/{q['id']} {q['status']}" for q in report["questions"]]
    return lines, len(report["questions"])


def fault_verdicts(report):
    """Which faults each key and option notices, and the pass's counts (not its seconds)."""
    summary = dict(report["summary"]["engine_faults"])
    summary.pop("seconds", None)
    lines = [f"engine faults {key}: {json.dumps(summary[key])}" for key in sorted(summary)]
    for question in report["questions"]:
        question = {key: value for key, value in question.items() if key != "message"}
        lines.append(json.dumps(question, sort_keys=True))
    return lines


def same(portable, tuned, what):
    if portable == tuned:
        return True
    sys.stdout.writelines(difflib.unified_diff(
        [line + "\n" for line in portable], [line + "\n" for line in tuned],
        "portable build", "tuned build", n=0))
    print(f"the tuned build's {what} differ from the portable build's (above)")
    return False


def main():
    if len(sys.argv) not in (3, 4):
        print(f"usage: {sys.argv[0]} PORTABLE_PROOFDECK TUNED_PROOFDECK [ENGINE_FAULTS_REPORT]",
              file=sys.stderr)
        return 2
    backend = products(sys.argv[2])
    portable, count = verdicts("portable", sys.argv[1])
    tuned, _ = verdicts("tuned", sys.argv[2])
    if not same(portable, tuned, "`check` verdicts"):
        return 1
    if count == 0:
        print("check reported no questions: nothing was compared")
        return 1
    faults = ""
    if len(sys.argv) == 4:
        with open(sys.argv[3], encoding="utf-8") as saved:
            portable_faults = fault_verdicts(json.load(saved))
        tuned_report, _ = run_check("tuned", sys.argv[2], ["--engine-faults"])
        if not same(portable_faults, fault_verdicts(tuned_report), "engine-fault verdicts"):
            return 1
        faults = (f"; the same keys notice each of "
                  f"{tuned_report['summary']['engine_faults']['faults']} engine faults")
    print(f"{count} questions, same verdicts in both builds (tuned: products by {backend}){faults}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
