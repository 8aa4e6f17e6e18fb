#!/usr/bin/python3
"""`proofdeck export --to gift` read back by an independent GIFT reader (gift_reader.py, written
from Moodle's documentation of the format) and compared, question by question, with the banks
themselves (`proofdeck export --to json`, the banks as loaded): every question once, in its
topic's category, with its prompt, its options and which are right (single: one `=`; multi:
weights summing to +100 over the right ones and -100 over the wrong), true/false's answer, the
steps of an order question as matching pairs in their order, a numeric key and tolerance equal
to the bank's (a template's key evaluated here from its formula, with the parameters read back
out of its prompt), each distractor at its value, and every wrong answer's feedback naming its
trap. Numbers must be plain decimals, as the strictest GIFT readers demand.

usage: gift_check.py PROOFDECK_BINARY [BANK ...]   (no BANK: the built-in banks)
"""

import itertools
import json
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gift_reader import GiftError, read_gift  # noqa: E402


def run(args):
    done = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


# --- the template formula language (questions/README.md), evaluated in Python -------------------

def _round(x):
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


FUNCTIONS = {"sqrt": math.sqrt, "log2": math.log2, "log": math.log, "exp": math.exp,
             "abs": abs, "floor": math.floor, "ceil": math.ceil, "round": _round,
             "min": min, "max": max}


def evaluate(formula, bindings):
    text = (formula.replace("^", "**").replace("×", "*").replace("÷", "/")
            .replace("−", "-"))
    return float(eval(text, {"__builtins__": {}}, {**FUNCTIONS, **bindings}))


def prompt_pattern(prompt):
    """A template prompt as a regex: each {name} captures a number as the prompt shows it."""
    pattern, seen = "", set()
    for part in re.split(r"(\{[A-Za-z_][A-Za-z0-9_]*\})", prompt):
        if part.startswith("{") and part.endswith("}"):
            name = part[1:-1]
            pattern += f"(?P={name})" if name in seen else f"(?P<{name}>-?[0-9][0-9,]*(?:\\.[0-9]+)?)"
            seen.add(name)
        else:
            pattern += re.escape(part)
    return re.compile("^" + pattern + "$", re.S)


def template_bindings(question, shown_prompt):
    """The parameter values a drawn template shows in its prompt, and those it does not show
    (fixed by the constraints): every combination the prompt and the constraints allow."""
    template = question["template"]
    match = prompt_pattern(question["prompt"]).match(shown_prompt)
    if not match:
        return []
    shown = {k: float(v.replace(",", "")) for k, v in match.groupdict().items()}
    params = template["params"]
    names = list(params)
    choices = [[shown[n]] if n in shown else [float(v) for v in params[n]] for n in names]
    found = []
    for combination in itertools.product(*choices):
        bindings = dict(zip(names, combination))
        if all(evaluate(c, bindings) for c in template.get("constraints", [])):
            found.append(bindings)
    return found


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


# --- the comparison -------------------------------------------------------------------------------

def compare(question, bank, traps, gift, problems):
    qid = question["id"]

    def fail(message):
        problems.append(f"{qid}: {message}")

    expected_category = f"proofdeck/{bank}/{question['topic']}"
    if gift["category"] != expected_category:
        fail(f"category {gift['category']!r}, expected {expected_category!r}")
    kind = question["type"]
    expected_type = "matching" if kind == "order" else kind
    if gift["type"] != expected_type:
        fail(f"read as {gift['type']}, the bank says {kind}")
        return
    text = gift["text"]
    if kind == "order":
        note = "\n(Match each step to its place in the order: 1 is first.)"
        if not text.endswith(note):
            fail("an order question without the note on how to match")
        text = text[: -len(note)] if text.endswith(note) else text
    bindings = {}
    if "template" in question:
        combinations = template_bindings(question, text)
        if not combinations:
            fail(f"prompt {text!r} is not the template {question['prompt']!r} filled in")
            return
        bindings = combinations[0]
        values = {evaluate(question["template"]["answer"], b) for b in combinations}
        if len(values) != 1:
            fail("the prompt leaves the answer undecided between several parameter values")
    elif text != question["prompt"]:
        fail(f"prompt {text!r}, the bank's {question['prompt']!r}")

    def names_trap(feedback, trap_id):
        trap = traps.get(trap_id)
        return trap is not None and feedback is not None and trap["name"] in feedback

    if kind == "single":
        read = sorted((c["text"], c["correct"]) for c in gift["choices"])
        bank_options = sorted((o["text"], bool(o.get("correct"))) for o in question["options"])
        if read != bank_options:
            fail(f"options {read} differ from the bank's {bank_options}")
    elif kind == "multi":
        right = [o["text"] for o in question["options"] if o.get("correct")]
        weights = {c["text"]: c["weight"] for c in gift["choices"]}
        if sorted(weights) != sorted(o["text"] for o in question["options"]):
            fail("the options differ from the bank's")
        positive = sum(w for t, w in weights.items() if t in right)
        negative = sum(w for t, w in weights.items() if t not in right)
        if abs(positive - 100) > 0.01 or abs(negative + 100) > 0.01:
            fail(f"weights +{positive} over the right options and {negative} over the wrong")
        if any((w > 0) != (t in right) for t, w in weights.items()):
            fail("a right option without credit or a wrong one with credit")
    if kind in ("single", "multi"):
        by_text = {c["text"]: c for c in gift["choices"]}
        for option in question["options"]:
            if option.get("trap") and not names_trap(by_text.get(option["text"], {}).get("feedback"),
                                                     option["trap"]):
                fail(f"the feedback of {option['text']!r} does not name its trap")
    elif kind == "truefalse":
        if gift["answer"] != question["answer"]:
            fail(f"answer {gift['answer']}, the bank's {question['answer']}")
        if question.get("trap") and not names_trap(gift["feedback_wrong"], question["trap"]):
            fail("the feedback for a wrong answer does not name the trap")
    elif kind == "order":
        steps = [s["text"].replace("->", "→") for s in question["steps"]]
        expected = [(step, str(i + 1)) for i, step in enumerate(steps)]
        if gift["pairs"] != expected:
            fail(f"pairs {gift['pairs']}, expected {expected}")
    elif kind == "numeric":
        answer = question["answer"]
        key_answers = [a for a in gift["answers"] if a["weight"] == 100]
        if len(key_answers) != 1:
            fail(f"{len(key_answers)} answers with full credit")
            return
        read = key_answers[0]
        if "template" in question:
            key = evaluate(question["template"]["answer"], bindings)
        else:
            key = float(answer["value"])
        if not close(read["value"], key):
            fail(f"key {read['value']}, the bank's {key}")
        tolerance = float(answer.get("tolerance", 0))
        if answer.get("relative"):
            tolerance *= abs(key)
        if not close(read["tolerance"], tolerance):
            fail(f"tolerance {read['tolerance']}, the bank's {tolerance}")
        wrong = [a for a in gift["answers"] if a["weight"] == 0]
        for distractor in question.get("distractors", []):
            if "formula" in distractor:
                value = evaluate(distractor["formula"], bindings)
            else:
                value = float(distractor["value"])
            if abs(value - key) <= tolerance or not distractor.get("trap"):
                continue  # inside the key's tolerance, or nothing to say: left out, rightly
            hits = [a for a in wrong if close(a["value"], value)]
            if not hits:
                fail(f"distractor {value} is missing")
            elif not names_trap(hits[0]["feedback"], distractor["trap"]):
                fail(f"the feedback of distractor {value} does not name its trap")
    explanation = question["explanation"]
    opening = explanation.split("{", 1)[0][:60]
    if not gift["general_feedback"] or opening not in gift["general_feedback"]:
        fail("the general feedback does not carry the explanation")


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    proofdeck, banks = sys.argv[1], sys.argv[2:]
    source = ["--no-builtin"] + [a for b in banks for a in ("--bank", b)] if banks else []
    problems = []
    with tempfile.TemporaryDirectory(prefix="proofdeck-gift-") as tmp:
        gift_text = run([proofdeck, "export", "--to", "gift"] + source)
        try:
            read = read_gift(gift_text)
        except GiftError as error:
            print(f"FAIL: the GIFT file does not read: {error}")
            return 1
        run([proofdeck, "export", "--to", "json", "--output", tmp + "/"] + source)
        by_title = {}
        for q in read:
            if q["title"] in by_title:
                problems.append(f"{q['title']}: exported twice")
            by_title[q["title"]] = q
        compared = 0
        for name in sorted(os.listdir(tmp)):
            bank = json.load(open(os.path.join(tmp, name), encoding="utf-8"))
            bank_id = bank["bank"]["id"]
            traps = {t["id"]: t for t in bank.get("traps", [])}
            for question in bank["questions"]:
                gift = by_title.pop(question["id"], None)
                if gift is None:
                    problems.append(f"{question['id']}: not in the GIFT file")
                    continue
                compare(question, bank_id, traps, gift, problems)
                compared += 1
        for title in by_title:
            problems.append(f"{title}: in the GIFT file but in no bank")
    for problem in problems:
        print("FAIL:", problem)
    if not problems:
        print(f"ok: {compared} questions read back from GIFT as the banks hold them")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
