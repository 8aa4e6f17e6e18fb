#!/usr/bin/python3
"""Generate PyTorch reference fixtures for rounding to float16 and bfloat16.

The engine's ``round_to_format`` op against torch's casts, x.to(torch.float16)
and x.to(torch.bfloat16) and back to float32, on float32 inputs: random values,
values exactly halfway between two neighbours of the format (ties to even),
the largest finite values and the ones that still round to them, the smallest
normal and subnormal numbers and values that underflow to 0. No input rounds to
infinity (JSON holds none). The gradient comes back through the narrow format
as autograd casts it, rounded there too.

In the format of scripts/torch_reference.py, whose helpers it uses
(tests/fixtures/README.md describes the format). Usage::

    cd scripts && /usr/bin/python3 torch_reference_formats.py --out ../tests/fixtures
"""

import sys

import torch

import torch_reference as ref

FIXTURES = []


def fixture(func):
    FIXTURES.append(func)
    return func


def edges(mantissa_bits, bias):
    """Values at the format's edges: ties, the top of its range, subnormals, underflow."""
    top = (2 - 2.0 ** -mantissa_bits) * 2.0 ** bias
    step_at_top = 2.0 ** (bias - mantissa_bits)
    tiny = 2.0 ** (1 - bias - mantissa_bits)
    one_step = 2.0 ** -mantissa_bits
    return [
        1 + one_step / 2,          # halfway from 1 to the next value: rounds down to 1 (even)
        1 + 3 * one_step / 2,      # halfway to an even neighbour above: rounds up
        -(1 + one_step / 2),
        top,                       # the largest finite value
        top + step_at_top / 4,     # still rounds to it
        -top,
        2.0 ** (1 - bias),         # the smallest normal number
        tiny,                      # the smallest subnormal
        3 * tiny,
        tiny / 2,                  # halfway to 0: rounds to 0 (even)
        0.75 * tiny,               # rounds up to the smallest subnormal
        tiny / 4,                  # underflows to 0
        0.0,
        1e-3,
        65504.0 if mantissa_bits == 10 else 1e30,
        3.14159265,
    ]


def format_case(name, dtype, mantissa_bits, bias):
    ref.seed_for(name)
    values = edges(mantissa_bits, bias)
    x = torch.tensor(values, dtype=torch.float32)
    rows = torch.randn(3, len(values), dtype=torch.float32) * torch.tensor([1.0, 1e-4, 1e3]).unsqueeze(1)
    x = torch.cat([x.unsqueeze(0), rows]).requires_grad_()
    y = x.to(dtype).to(torch.float32)
    if not torch.isfinite(y).all():
        raise RuntimeError(f"{name}: an input rounds to infinity")
    gy = torch.randn_like(y)
    y.backward(gy)
    desc = (f"x.to(torch.{dtype_name(dtype)}).to(torch.float32), float32 input "
            f"{x.shape[0]}x{x.shape[1]}: random values at three scales and the format's edges "
            "(ties, the largest finite value, subnormals, underflow)")
    return ref.make(name, desc, "round_to_format", ref.F32, {"format": dtype_name(dtype)}, {},
                    x.detach(), gy, {"output": y.tolist(), "grads": {"input": x.grad.tolist()}})


def dtype_name(dtype):
    return {torch.float16: "float16", torch.bfloat16: "bfloat16"}[dtype]


@fixture
def round_to_float16():
    return format_case("round_to_float16", torch.float16, 10, 15)


@fixture
def round_to_bfloat16():
    return format_case("round_to_bfloat16", torch.bfloat16, 7, 127)


if __name__ == "__main__":
    sys.exit(ref.main(fixtures=FIXTURES, description=__doc__.splitlines()[0]))
