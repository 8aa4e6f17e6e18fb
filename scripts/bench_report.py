#!/usr/bin/env python3
"""scripts/bench's bookkeeping and tables: each run's JSON kept as one line, then the medians
and ratios of the rounds printed as Markdown tables. Standard library only.

    bench_report.py line                          one JSON document on stdin, as one line
    bench_report.py check-run WHAT US REPORT      a timed `check` run: its name, microseconds
                                                  and --format json report, as one line
    bench_report.py check TIMINGS BOUND_MS        the `check` table and the scaling line; exits 1
                                                  when the largest generated bank is over BOUND_MS
    bench_report.py gqa RESULTS                   the gqa table, proofdeck beside PyTorch
    bench_report.py engine RESULTS                the encoder_layer table, post- and pre-LN
"""
import json
import os
import statistics
import sys


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def line():
    print(json.dumps(json.load(sys.stdin)))


def check_run(what, microseconds, report_path):
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    print(json.dumps({"what": what, "us": int(microseconds),
                      "questions": report["summary"]["questions"],
                      "runs": report["coverage"]["demo_runs"]}))


def check(timings_path, bound):
    rows = read_lines(timings_path)
    order = []
    for r in rows:
        if r["what"] not in order:
            order.append(r["what"])
    print(f"proofdeck check, whole process, median of {len(rows) // len(order)} rounds")
    print()
    print("| banks | questions | demo runs | ms | µs per question |")
    print("|---|---:|---:|---:|---:|")
    for what in order:
        mine = [r for r in rows if r["what"] == what]
        ms = statistics.median(r["us"] for r in mine) / 1000
        n = mine[0]["questions"]
        label = {"builtin": "built-in", "builtin-mutate": "built-in, --mutate"}.get(what, "generated")
        print(f"| {label} | {n:,} | {mine[0]['runs']} | {ms:.0f} | {1000 * ms / n:.1f} |")
    generated = [(mine[0]["questions"], statistics.median(r["us"] for r in mine) / 1000)
                 for what in order if what.isdigit()
                 for mine in [[r for r in rows if r["what"] == what]]]
    if len(generated) >= 3:
        # Least-squares line ms = a + b * n: linear scaling means the points sit on it.
        n = [g[0] for g in generated]
        ms = [g[1] for g in generated]
        mean_n, mean_ms = statistics.fmean(n), statistics.fmean(ms)
        b = sum((x - mean_n) * (y - mean_ms) for x, y in zip(n, ms)) / sum(
            (x - mean_n) ** 2 for x in n)
        a = mean_ms - b * mean_n
        worst = max(abs(y - (a + b * x)) / y for x, y in zip(n, ms))
        print()
        print(f"generated banks: {a:.0f} ms fixed + {1000 * b:.1f} µs per question "
              f"(largest deviation from that line {100 * worst:.1f}%)")
    largest = max(generated, default=None)
    if largest is None:
        return 0
    # The bound a bank author's CI can rely on: the whole process, on this 2-core machine.
    bound_ms = float(bound)
    verdict = "within" if largest[1] <= bound_ms else "OVER"
    print(f"{largest[0]:,} questions loaded and checked in {largest[1]:,.0f} ms: "
          f"{verdict} the bound of {bound_ms:,.0f} ms")
    return 0 if verdict == "within" else 1


def sides(runs, torch):
    """Who ran what: the CPU, proofdeck's instruction set and products, PyTorch's kernels."""
    ours = next(r for r in runs if r["impl"] == "proofdeck")
    cpu = os.environ.get("BENCH_CPU", "an unnamed CPU")
    products = ours.get("products", "Eigen")
    note = f" ({ours['products_note']})" if ours.get("products_note") else ""
    print(f"CPU: {cpu}")
    print(f"proofdeck: built for {ours.get('isa', 'this CPU')}, products by {products}{note}")
    print(f"PyTorch {torch['torch_version']}: kernels at "
          f"{os.environ.get('BENCH_TORCH_ISA', 'its default')}, on "
          f"{torch.get('blas', 'unknown BLAS')}")


def ratio_cells(ours, theirs):
    """proofdeck's time as a fraction of PyTorch's, and PyTorch's over proofdeck's."""
    return f"{ours / theirs:.2f}x | {theirs / ours:.2f}x"


def gqa(results_path):
    runs = read_lines(results_path)
    torch = next(r for r in runs if r["impl"] == "pytorch")
    print(f"gqa (Llama attention: causal, RoPE, no biases), T={torch['seq']} E={torch['d_model']} "
          f"H={torch['heads']} G={torch['kv_heads']}, {torch['dtype']}, {torch['threads']} thread; "
          f"median of {len(runs) // 2} rounds x {torch['iters']} iterations")
    sides(runs, torch)
    print("(PyTorch's side in plain torch ops)")
    print()
    print("| measure | proofdeck ms | PyTorch ms | proofdeck / PyTorch | PyTorch / proofdeck |")
    print("|---|---:|---:|---:|---:|")
    for key, label in (("forward_ms", "forward"), ("forward_backward_ms", "forward+backward")):
        ours = statistics.median(r[key] for r in runs if r["impl"] == "proofdeck")
        theirs = statistics.median(r[key] for r in runs if r["impl"] == "pytorch")
        print(f"| {label} | {ours:.2f} | {theirs:.2f} | {ratio_cells(ours, theirs)} |")
    return 0


def engine(results_path):
    runs = read_lines(results_path)
    torch = next(r for r in runs if r["impl"] == "pytorch")
    print(f"encoder_layer, T={torch['seq']} E={torch['d_model']} H={torch['heads']} "
          f"F={torch['d_ff']}, {torch['dtype']}, {torch['threads']} thread; median of "
          f"{len(runs) // 4} rounds x {torch['iters']} iterations")
    sides(runs, torch)
    print()
    print("| norm | measure | proofdeck ms | PyTorch ms | proofdeck / PyTorch "
          "| PyTorch / proofdeck |")
    print("|---|---|---:|---:|---:|---:|")
    for norm in ("post", "pre"):
        for key, label in (("forward_ms", "forward"), ("forward_backward_ms", "forward+backward")):
            ours = statistics.median(
                r[key] for r in runs if r["impl"] == "proofdeck" and r["norm"] == norm)
            theirs = statistics.median(
                r[key] for r in runs if r["impl"] == "pytorch" and r["norm"] == norm)
            print(f"| {norm}-LN | {label} | {ours:.2f} | {theirs:.2f} "
                  f"| {ratio_cells(ours, theirs)} |")
    return 0


def main(argv):
    commands = {"line": (line, 0), "check-run": (check_run, 3), "check": (check, 2),
                "gqa": (gqa, 1), "engine": (engine, 1)}
    if len(argv) < 2 or argv[1] not in commands or len(argv) - 2 != commands[argv[1]][1]:
        print(__doc__, file=sys.stderr)
        return 2
    function, _ = commands[argv[1]]
    return function(*argv[2:]) or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
