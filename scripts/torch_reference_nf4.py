#!/usr/bin/python3
"""Generate reference fixtures for NF4 quantization (QLoRA's 4-bit NormalFloat).

The engine's ``nf4_quantize`` op against the same computation in plain torch
ops, written from bitsandbytes' reference backend (bitsandbytes/backends/
default/ops.py: quantize_4bit, quantize_blockwise; functional.py:
get_4bit_type, create_dynamic_map, and the double quantization in
quantize_4bit) on float32 inputs:

- the tensor flattened row by row into blocks of block_size (64) values, a
  trailing partial block with its own absmax;
- x * (1 / absmax) clamped to [-1, 1], and the level chosen by bucketize over
  the midpoints of neighbouring levels (a value on a midpoint takes the lower);
- dequantized as level * absmax;
- double quantization: the absmax minus their mean, quantized in blocks of 256
  with the signed dynamic map the same way, and restored as
  level * scale + mean.

The 16 NF4 levels are QLoRA's (Dettmers et al. 2023, appendix E) as
bitsandbytes' get_4bit_type("nf4") lists them. Usage::

    cd scripts && /usr/bin/python3 torch_reference_nf4.py --out ../tests/fixtures
"""

import sys

import torch

import torch_reference as ref

NF4 = [
    -1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453,
    -0.28444138169288635, -0.18477343022823334, -0.09105003625154495, 0.0,
    0.07958029955625534, 0.16093020141124725, 0.24611230194568634, 0.33791524171829224,
    0.44070982933044434, 0.5626170039176941, 0.7229568362236023, 1.0,
]


def dynamic_map():
    """bitsandbytes' create_dynamic_map(signed=True, max_exponent_bits=7, total_bits=8)."""
    data = []
    for i in range(7):
        boundaries = torch.linspace(0.1, 1, 2 ** i + 1)
        means = (boundaries[:-1] + boundaries[1:]) / 2.0
        data += ((10 ** (-6 + i)) * means).tolist()
        data += (-(10 ** (-6 + i)) * means).tolist()
    data += [0, 1.0]
    data.sort()
    return torch.tensor(data, dtype=torch.float32)


def quantize_blocks(values, code, block_size):
    """Per block: absmax, the nearest level of x / absmax (ties to the lower), the restored values."""
    n = values.numel()
    blocks = -(-n // block_size)
    padded = torch.zeros(blocks * block_size, dtype=torch.float32)
    padded[:n] = values
    rows = padded.reshape(blocks, block_size)
    absmax = rows.abs().max(dim=1).values
    scaled = torch.clamp(rows * (1.0 / absmax.clamp(min=1e-38)).unsqueeze(1), -1, 1)
    bounds = (code[:-1] + code[1:]) / 2
    codes = torch.bucketize(scaled, bounds)
    return codes.reshape(-1)[:n], absmax


def nf4(x, block_size, double_quant):
    code = torch.tensor(NF4, dtype=torch.float32)
    flat = x.reshape(-1)
    codes, absmax = quantize_blocks(flat, code, block_size)
    result = {}
    stored = absmax
    blocks = absmax.numel()
    constant_bits = 32.0 * blocks
    if double_quant:
        dmap = dynamic_map()
        offset = absmax.mean()
        centred = absmax - offset
        dcodes, scales = quantize_blocks(centred, dmap, 256)
        stored = dmap[dcodes] * scales.repeat_interleave(256)[:blocks] + offset
        result["double_quant"] = {"absmax_exact": absmax.tolist(), "offset": offset.item(),
                                  "codes": dcodes.tolist(), "scales": scales.tolist()}
        constant_bits = 8.0 * blocks + 32.0 * scales.numel() + 32.0
    out = code[codes] * stored.repeat_interleave(block_size)[:flat.numel()]
    result.update({
        "output": out.reshape(x.shape).tolist(),
        "codes": codes.reshape(x.shape).tolist(),
        "absmax": stored.tolist(),
        "bits_per_parameter": 4.0 + constant_bits / flat.numel(),
    })
    return result


def nf4_case(name, rows, cols, block_size, double_quant, note):
    ref.seed_for(name)
    x = torch.randn(rows, cols, dtype=torch.float32) * 0.02
    x[1, 3] = 0.5  # an outlier: its block's other values land on few levels
    x[rows - 1, :] = 0.0 if cols <= block_size else x[rows - 1, :]
    config = {"block_size": block_size, "double_quant": double_quant}
    desc = (f"NF4 as bitsandbytes' reference backend computes it (quantize_4bit, quant_type nf4, "
            f"blocksize {block_size}, compress_statistics={double_quant}) in plain torch, float32 "
            f"input {rows}x{cols}: normal weights of std 0.02, {note}")
    return ref.make(name, desc, "nf4_quantize", ref.F32, config, {}, x, None, nf4(x, block_size,
                                                                                double_quant))


FIXTURES = [
    lambda: nf4_case("nf4_block64", 6, 40, 64, False,
                     "an outlier, a partial last block, a last row of zeros"),
    lambda: nf4_case("nf4_block16", 9, 16, 16, False,
                     "an outlier, a block of zeros (its values stay 0)"),
    lambda: nf4_case("nf4_double_quant", 130, 32, 16, True,
                     "an outlier; 260 blocks, so the absmax's 256-blocks end in a partial one"),
]


if __name__ == "__main__":
    sys.exit(ref.main(fixtures=FIXTURES, description=__doc__.splitlines()[0]))
