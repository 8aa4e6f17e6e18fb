#!/usr/bin/python3
"""The PyTorch fixtures for tests/cli_e2e.sh, through the real binary.

e2e_fixtures.py specs DIR FIXTURE...: writes each fixture's "spec" to DIR/NAME.json.
e2e_fixtures.py compare < MANIFEST: MANIFEST lines are "LABEL<tab>FIXTURE<tab>RESULT"; prints
"ok<tab>LABEL" or "not ok<tab>LABEL<tab>WHY" per line. A result matches when it has the keys and
shapes of "expected" and every number is close to PyTorch's: relative tolerance 1e-9 (float64)
or 1e-5 (float32), with that tolerance times the tensor's largest entry, or 1 if larger, as the
floor near zero (as tests/test_torch_fixtures.cpp: a gradient that is zero up to PyTorch's
rounding, as a renormalised top-1 router's is, matches an exact 0).
(Two interpreter starts in all, not two per fixture.)
"""
import json, math, os, sys

def numbers(value):
    if isinstance(value, list):
        for item in value:
            yield from numbers(item)
    else:
        yield value

def compare_tensor(path, want, got, scale, rtol):
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            size = len(got) if isinstance(got, list) else json.dumps(got)
            return f"{path}: expected {len(want)} entries, got {size}"
        for index, (w, g) in enumerate(zip(want, got)):
            error = compare_tensor(f"{path}[{index}]", w, g, scale, rtol)
            if error:
                return error
        return None
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return f"{path}: expected {want!r}, got {json.dumps(got)}"
    if not math.isclose(got, want, rel_tol=rtol, abs_tol=rtol * scale):
        return f"{path}: expected {want!r}, got {got!r} (relative tolerance {rtol})"
    return None

def compare(path, want, got, rtol):
    if isinstance(want, dict):
        if not isinstance(got, dict) or sorted(got) != sorted(want):
            keys = sorted(got) if isinstance(got, dict) else json.dumps(got)
            return f"{path}: expected keys {sorted(want)}, got {keys}"
        for key in want:
            error = compare(f"{path}.{key}" if path else key, want[key], got[key], rtol)
            if error:
                return error
        return None
    scale = max((abs(x) for x in numbers(want)), default=1.0)
    scale = max(scale, 1.0)
    return compare_tensor(path, want, got, scale, rtol)

def mismatch(fixture_path, result_path):
    fixture = json.load(open(fixture_path))
    try:
        actual = json.load(open(result_path))
    except ValueError as error:
        return f"the result is not JSON: {error}"
    if not isinstance(actual, dict):
        return f"expected a JSON object, got {json.dumps(actual)[:60]}"
    expected = fixture["expected"]
    rtol = 1e-5 if fixture["spec"].get("dtype") == "float32" else 1e-9
    # Extra results (encoder_layer's attn_weights) are fine; grads only when PyTorch has them.
    extra = set(actual) - set(expected)
    if "grads" in extra:
        return "grads: given without grad_output"
    return compare("", expected, {k: v for k, v in actual.items() if k not in extra}, rtol)

if sys.argv[1] == "specs":
    for path in sys.argv[3:]:
        name = os.path.splitext(os.path.basename(path))[0]
        with open(os.path.join(sys.argv[2], name + ".json"), "w") as out:
            json.dump(json.load(open(path))["spec"], out)
elif sys.argv[1] == "compare":
    for line in sys.stdin:
        label, fixture_path, result_path = line.rstrip("\n").split("\t")
        error = mismatch(fixture_path, result_path)
        print(f"not ok\t{label}\t{error}" if error else f"ok\t{label}")
