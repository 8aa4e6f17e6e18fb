#!/usr/bin/python3
"""Generate PyTorch reference fixtures for integer fake quantization.

The engine's ``fake_quantize`` op against torch.fake_quantize_per_tensor_affine
and torch.fake_quantize_per_channel_affine, float32 as PyTorch's kernels run
them, with the scales and zero points PyTorch's observers compute
(torch.ao.quantization.MinMaxObserver for a tensor, PerChannelMinMaxObserver
for channels: per_tensor_symmetric / per_channel_symmetric with signed levels,
..._affine with unsigned ones). Group-wise quantization is per-channel
quantization of the matrix reshaped so each group of a row is a channel. The
backward is the straight-through estimator as PyTorch's autograd gives it: the
gradient passes where the level was not clamped. Values exactly halfway
between two levels are planted to pin rounding half to even.

In the format of scripts/torch_reference.py, whose helpers it uses
(tests/fixtures/README.md describes the format). Usage::

    cd scripts && /usr/bin/python3 torch_reference_quantize.py --out ../tests/fixtures
"""

import sys

import torch
from torch.ao.quantization import MinMaxObserver, PerChannelMinMaxObserver

import torch_reference as ref

FIXTURES = []
ROWS, COLS = 6, 16


def fixture(func):
    FIXTURES.append(func)
    return func


def levels(bits, symmetric):
    if symmetric:
        return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
    return 0, 2 ** bits - 1


def observe(x, granularity, bits, symmetric, axis=0):
    qmin, qmax = levels(bits, symmetric)
    dtype = torch.qint8 if symmetric else torch.quint8
    if granularity == "tensor":
        scheme = torch.per_tensor_symmetric if symmetric else torch.per_tensor_affine
        observer = MinMaxObserver(dtype=dtype, qscheme=scheme, quant_min=qmin, quant_max=qmax)
    else:
        scheme = torch.per_channel_symmetric if symmetric else torch.per_channel_affine
        observer = PerChannelMinMaxObserver(ch_axis=axis, dtype=dtype, qscheme=scheme,
                                            quant_min=qmin, quant_max=qmax)
    observer(x)
    scale, zero_point = observer.calculate_qparams()
    return scale.to(torch.float32), zero_point.to(torch.int32), qmin, qmax


def quant_case(name, granularity="tensor", bits=8, symmetric=True, axis=0, group_size=None,
               outlier=False):
    ref.seed_for(name)
    x = torch.randn(ROWS, COLS, dtype=torch.float32)
    if outlier:
        x[:, 3] *= 40.0  # one input feature far larger than the rest, as LLM.int8() finds
    view = x.reshape(-1, group_size) if granularity == "group" else x
    obs_axis = 0 if granularity == "group" else axis
    scale, zero_point, qmin, qmax = observe(view.detach(), granularity, bits, symmetric, obs_axis)
    # plant values exactly halfway between two levels (x·(1/s) an odd multiple of 1/2)
    first = float(scale.reshape(-1)[0])
    inverse = torch.tensor(1.0, dtype=torch.float32) / torch.tensor(first, dtype=torch.float32)
    for col, half in ((0, 2.5), (1, -3.5), (2, 0.5)):
        value = torch.tensor(half, dtype=torch.float32) / inverse
        if float(value * inverse) == half:
            view_row = view[0] if granularity != "channel" or axis == 0 else view[:, 0]
            view_row[col] = value
    scale, zero_point, qmin, qmax = observe(view.detach(), granularity, bits, symmetric, obs_axis)
    leaf = view.detach().clone().requires_grad_()
    if granularity == "tensor":
        y = torch.fake_quantize_per_tensor_affine(leaf, float(scale), int(zero_point), qmin, qmax)
    else:
        y = torch.fake_quantize_per_channel_affine(leaf, scale, zero_point, obs_axis, qmin, qmax)
    gy = torch.randn_like(y)
    y.backward(gy)
    shape = (ROWS, COLS)
    config = {"granularity": granularity, "bits": bits, "symmetric": symmetric}
    if granularity == "channel":
        config["axis"] = axis
    if granularity == "group":
        config["group_size"] = group_size
    kind = {"tensor": "fake_quantize_per_tensor_affine",
            "channel": f"fake_quantize_per_channel_affine (axis {axis})",
            "group": f"fake_quantize_per_channel_affine over groups of {group_size} of a row"}
    desc = (f"torch.{kind[granularity]}, {bits}-bit {'symmetric' if symmetric else 'affine'}, "
            f"scales from torch.ao.quantization's MinMax observer"
            f"{'; one input column 40x the rest' if outlier else ''}; float32, input "
            f"{ROWS}x{COLS}, straight-through gradient")
    expected = {
        "output": y.detach().reshape(shape).tolist(),
        "scale": scale.reshape(-1).tolist(),
        "zero_point": zero_point.reshape(-1).tolist(),
        "quant_min": qmin,
        "quant_max": qmax,
        "grads": {"input": leaf.grad.reshape(shape).tolist()},
    }
    return ref.make(name, desc, "fake_quantize", ref.F32, config, {}, leaf.detach().reshape(shape),
                    gy.reshape(shape), expected)


@fixture
def fake_quantize_tensor_int8():
    return quant_case("fake_quantize_tensor_int8")


@fixture
def fake_quantize_tensor_int4_affine():
    return quant_case("fake_quantize_tensor_int4_affine", bits=4, symmetric=False)


@fixture
def fake_quantize_channel_int8_outlier():
    return quant_case("fake_quantize_channel_int8_outlier", granularity="channel", axis=1,
                      outlier=True)


@fixture
def fake_quantize_channel_int4_rows():
    return quant_case("fake_quantize_channel_int4_rows", granularity="channel", bits=4)


@fixture
def fake_quantize_group_int4():
    return quant_case("fake_quantize_group_int4", granularity="group", bits=4, group_size=8)


if __name__ == "__main__":
    sys.exit(ref.main(fixtures=FIXTURES, description=__doc__.splitlines()[0]))
