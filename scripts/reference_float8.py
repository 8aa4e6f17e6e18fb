#!/usr/bin/python3
"""Generate the FP8 code tables and the reference fixtures for rounding to them.

PyTorch 1.13 has no 8-bit float dtype, so the reference here is the OCP 8-bit
floating point specification (OFP8, rev. 1.0, 2023; Micikevicius et al. 2022,
"FP8 Formats for Deep Learning", table 1) itself:

- E4M3FN: 1 sign, 4 exponent, 3 mantissa bits, bias 7; no infinities, and
  only S.1111.111 is NaN, so the top exponent holds numbers: max 448.
- E5M2: 1 sign, 5 exponent, 2 mantissa bits, bias 15; IEEE 754 conventions,
  S.11111.00 is infinity, S.11111.{01,10,11} NaN: max 57,344.

Both have subnormals (exponent field 0: 0.m x 2^(1 - bias)). The script
decodes every one of the 256 codes from those fields into
tests/fixtures/float8/<format>.tsv, and rounds by searching that table: the
nearest finite value, a tie going to the code whose mantissa's last bit is 0.
Past the largest finite value a conversion gives NaN (E4M3FN) or infinity
(E5M2), as torch's later casts do and the specification's non-saturating mode
says, or +-max in its saturating mode (section 5); the fixtures keep their
inputs inside the range unless they saturate (JSON holds neither).

The fixtures, round_to_float8_*, are in the format of
scripts/torch_reference.py (tests/fixtures/README.md); torch only draws their
random inputs. Usage::

    cd scripts && /usr/bin/python3 reference_float8.py --out ../tests/fixtures
"""

import math
import os
import sys

import torch

import torch_reference as ref

FORMATS = {
    # name: (exponent bits, mantissa bits, has infinity)
    "float8_e4m3fn": (4, 3, False),
    "float8_e5m2": (5, 2, True),
}


def decode(code, exponent_bits, mantissa_bits, has_infinity):
    """The value of an 8-bit code, from its sign, exponent and mantissa fields."""
    bias = 2 ** (exponent_bits - 1) - 1
    sign = -1.0 if code & 0x80 else 1.0
    exponent = (code >> mantissa_bits) & (2 ** exponent_bits - 1)
    mantissa = code & (2 ** mantissa_bits - 1)
    top = 2 ** exponent_bits - 1
    if has_infinity and exponent == top:
        return sign * math.inf if mantissa == 0 else math.nan
    if not has_infinity and exponent == top and mantissa == 2 ** mantissa_bits - 1:
        return math.nan
    if exponent == 0:
        return sign * mantissa * 2.0 ** (1 - bias - mantissa_bits)
    return sign * (1 + mantissa / 2 ** mantissa_bits) * 2.0 ** (exponent - bias)


def table(name):
    return [decode(code, *FORMATS[name]) for code in range(256)]


def bits(code, exponent_bits, mantissa_bits):
    text = format(code, "08b")
    return f"{text[0]}.{text[1:1 + exponent_bits]}.{text[1 + exponent_bits:]}"


def write_table(name, out_dir):
    exponent_bits, mantissa_bits, _ = FORMATS[name]
    lines = ["code\tbits\tvalue"]
    for code, value in enumerate(table(name)):
        shown = "nan" if math.isnan(value) else ("inf" if value == math.inf else
                                                 "-inf" if value == -math.inf else repr(value))
        lines.append(f"0x{code:02x}\t{bits(code, exponent_bits, mantissa_bits)}\t{shown}")
    path = os.path.join(out_dir, "float8", f"{name}.tsv")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def round_by_table(x, name, saturate):
    """The table's nearest value to x; a tie goes to the code whose last bit is 0.

    Past the largest finite value sits the code the binades would give next
    (E4M3FN's NaN, S.1111.111; E5M2's infinity, S.11111.00): what rounds to it
    overflows, to +-max when saturating.
    """
    values = table(name)
    positive = [(v, code) for code, v in enumerate(values[:128]) if math.isfinite(v)]
    largest, largest_code = max(positive)
    step_at_top = largest - max(v for v, _ in positive if v < largest)
    overflow = (largest + step_at_top, largest_code + 1)
    value, code = min(positive + [overflow], key=lambda vc: (abs(vc[0] - abs(x)), vc[1] & 1))
    if (value, code) == overflow:
        if not saturate:
            raise ValueError(f"{name}: {x} overflows")
        value = largest
    return math.copysign(value, x)


def edges(name, saturate):
    exponent_bits, mantissa_bits, _ = FORMATS[name]
    values = [v for v in table(name) if math.isfinite(v)]
    largest = max(values)
    tiny = min(v for v in values if v > 0)
    one_step = 2.0 ** -mantissa_bits
    below_top = max(v for v in values if v < largest)
    cases = [
        1 + one_step / 2, 1 + 3 * one_step / 2, -(1 + one_step / 2),
        largest, -largest, largest + (largest - below_top) / 4,
        (largest + below_top) / 2,              # a tie below the top
        2.0 ** (1 - (2 ** (exponent_bits - 1) - 1)),  # the smallest normal number
        tiny, 3 * tiny, tiny / 2, 0.75 * tiny, tiny / 4, 0.0, 0.3, 3.14159265,
    ]
    if saturate:
        cases += [largest * 4, -largest * 1000]
    return cases


def format_case(fixture_name, name, saturate):
    ref.seed_for(fixture_name)
    values = edges(name, saturate)
    top = torch.tensor(values, dtype=torch.float32)
    scales = torch.tensor([1.0, 1e-2, 50.0]).unsqueeze(1)
    x = torch.cat([top.unsqueeze(0), torch.randn(3, len(values), dtype=torch.float32) * scales])
    gy = torch.randn_like(x) * 0.1
    rounded = [[round_by_table(v, name, saturate) for v in row] for row in x.tolist()]
    grads = [[round_by_table(v, name, saturate) for v in row] for row in gy.tolist()]
    mode = "saturating to +-max" if saturate else "inputs inside the range"
    desc = (f"rounding to {name} by the OCP FP8 specification's code table "
            f"(tests/fixtures/float8/{name}.tsv; torch 1.13 has no FP8 dtype), ties to the even "
            f"code, {mode}; float32 input {x.shape[0]}x{x.shape[1]}: random values at three "
            "scales and the format's edges; the gradient rounded through the format")
    config = {"format": name}
    if saturate:
        config["saturate"] = True
    return ref.make(fixture_name, desc, "round_to_format", ref.F32, config, {}, x, gy,
                    {"output": rounded, "grads": {"input": grads}})


FIXTURES = [
    lambda: format_case("round_to_float8_e4m3fn", "float8_e4m3fn", False),
    lambda: format_case("round_to_float8_e5m2", "float8_e5m2", False),
    lambda: format_case("round_to_float8_e4m3fn_saturate", "float8_e4m3fn", True),
]


if __name__ == "__main__":
    out = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else "../tests/fixtures"
    for name in FORMATS:
        write_table(name, out)
    sys.exit(ref.main(fixtures=FIXTURES, description=__doc__.splitlines()[0]))
