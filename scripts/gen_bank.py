#!/usr/bin/env python3
"""Writes a synthetic question bank of N questions for timing `proofdeck check` (scripts/bench).

    python3 scripts/gen_bank.py N > bank.json

The questions cycle through the shapes real banks use — a single-choice question with a claim per
option, a true/false question with a claim, a plain numeric key pinned to a computed value, and a
parametric template of 12 combinations — over a bounded set of demo arguments (64 head-params
runs, 8 order-blindness runs, the template's 12), so the bank also shows that identical demo runs
are computed once however many questions share them. Standard library only; deterministic.
"""
import json
import sys


def question(i):
    d_model = 64 * (1 + (i // 4) % 16)
    # 2 to 16 heads: one head against one would be a ratio of a count to itself, arithmetic that
    # proves nothing (check calls it computed).
    heads = 2 ** (1 + (i // 64) % 4)
    kind = i % 4
    base = {
        "id": f"q{i:05d}",
        "topic": "generated",
        "explanation": "Generated for the benchmark.",
        "source": {"section": "Why splitting into heads is (almost) parameter-neutral"},
    }
    if kind == 0:
        return {**base, "type": "single",
                "prompt": f"At d_model {d_model}, what do {heads} heads cost against one?",
                "options": [
                    {"id": "a", "text": "Fewer parameters", "trap": "cuts",
                     "claim": {"value": f"ratio_h{heads}_h1", "lt": 1}},
                    {"id": "b", "text": "The same parameters", "correct": True,
                     "claim": {"value": f"ratio_h{heads}_h1", "eq": 1}},
                ],
                "proof": {"demo": "head-params",
                          "args": {"d_model": d_model, "heads": [1, heads]}}}
    if kind == 1:
        return {**base, "type": "truefalse",
                "prompt": "Without positional encoding the two orders attend differently.",
                "answer": False, "trap": "order",
                "claim": {"value": "max_diff_none", "gt": 1e-12},
                "proof": {"demo": "order-blindness",
                          "args": {"d_model": 8 * (1 + (i // 4) % 8)}}}
    if kind == 2:
        return {**base, "type": "numeric",
                "prompt": f"Q/K/V weights of one head at d_model {d_model} with {heads} heads?",
                "answer": {"value": 3 * d_model * (d_model // heads), "tolerance": 0,
                           "computed": f"per_head_qkv_h{heads}"},
                "proof": {"demo": "head-params",
                          "args": {"d_model": d_model, "heads": [1, heads]}}}
    return {**base, "type": "numeric",
            "prompt": "Q/K/V weights of one head at d_model {d_model} with {heads} heads?",
            "template": {"params": {"d_model": [256, 512, 1024], "heads": [1, 2, 4, 8]},
                         "answer": "3 * d_model * (d_model // heads)"},
            "answer": {"tolerance": 0, "computed": "per_head_qkv_h{heads}"},
            "proof": {"demo": "head-params",
                      "args": {"d_model": "{d_model}", "heads": ["{heads}"]}}}


def main():
    count = int(sys.argv[1])
    bank = {
        "format": 1,
        "bank": {"id": f"generated-{count}", "title": f"{count} generated questions",
                 "lesson": "benchmark"},
        "topics": [{"id": "generated", "name": "Generated"}],
        "traps": [
            {"id": "cuts", "name": "Heads cut parameters", "misconception": "They do.",
             "correction": "They do not.", "source": {"section": "benchmark"}},
            {"id": "order", "name": "Attention knows order", "misconception": "It does.",
             "correction": "It does not.", "source": {"section": "benchmark"}},
        ],
        "questions": [question(i) for i in range(count)],
    }
    json.dump(bank, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
