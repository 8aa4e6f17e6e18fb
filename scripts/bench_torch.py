#!/usr/bin/python3
"""Time PyTorch on proofdeck engine-bench shapes.

``--op encoder_layer`` (default) times nn.TransformerEncoderLayer.
``--op gqa`` times Llama's attention (grouped-query, causal, RoPE
rotate_half, no biases) written in plain torch ops, as Hugging Face's
LlamaAttention computes it (torch 1.13 has no such module): q/k/v
projections, RoPE on q and k, repeat_kv, scaled causal softmax, o_proj;
``--kv-heads G`` key/value heads (default: --heads).

For a side-by-side comparison with the C++ engine.  Two timings, each the
median over ``--iters`` runs after ``--warmup`` uncounted runs:

* forward_ms: one forward in PyTorch's fastest inference setting,
  module.eval() under torch.inference_mode() (this lets PyTorch use its
  native fused encoder fast path).
* forward_backward_ms: in train() mode (dropout is 0), zero the gradients,
  forward with input.requires_grad_(True), then output.backward(grad_output),
  computing gradients for the input and every parameter.

gflops = 3 * forward FLOPs / forward_backward time, counting 2*m*n*k per
matmul (QKV projection, scores, probs @ V, output projection, two FFN
matmuls) and backward = 2 x forward.

torch.set_num_threads(threads) sets PyTorch's intra-op threads.  When torch
is linked against OpenBLAS without knowing it (Debian builds report
BLAS_INFO=generic), set_num_threads does not reach OpenBLAS's own thread
pool, so this script also calls openblas_set_num_threads(threads) when an
OpenBLAS library is loaded.

Prints one JSON object on stdout.  Usage::

    /usr/bin/python3 scripts/bench_torch.py [--seq 128] [--d-model 512]
        [--op encoder_layer|gqa] [--heads 8] [--kv-heads G]
        [--d-ff 2048] [--norm post|pre]
        [--dtype float32|float64] [--threads 1] [--iters 20] [--warmup 3]
"""

import argparse
import ctypes
import json
import re
import statistics
import sys
import time

import torch
import torch.nn as nn


def loaded_libraries():
    """Paths of the shared libraries mapped into this process."""
    paths = set()
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            for line in maps:
                fields = line.split()
                if len(fields) >= 6 and ".so" in fields[-1]:
                    paths.add(fields[-1])
    except OSError:
        pass
    return sorted(paths)


def openblas_library():
    """ctypes handle to the loaded OpenBLAS, or None."""
    for path in loaded_libraries():
        if re.search(r"/libopenblas[^/]*\.so", path):
            try:
                lib = ctypes.CDLL(path)
                lib.openblas_get_config.restype = ctypes.c_char_p
                return lib
            except (OSError, AttributeError):
                return None
    return None


def blas_description(openblas):
    """Short string naming the BLAS torch uses."""
    if openblas is not None:
        config = openblas.openblas_get_config().decode()
        # e.g. "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH ... Haswell ..."
        return config
    for path in loaded_libraries():
        name = path.rsplit("/", 1)[-1]
        if re.match(r"lib(mkl|blis|blas|flexiblas|cblas)", name):
            return name
    match = re.search(r"BLAS_INFO=(\w+)", torch.__config__.show())
    if match and match.group(1) != "generic":
        return match.group(1)
    return "unknown"


def forward_flops(t, e, f):
    qkv = 2 * t * e * 3 * e
    scores = 2 * t * t * e
    probs_v = 2 * t * t * e
    out_proj = 2 * t * e * e
    ffn = 2 * (2 * t * e * f)
    return qkv + scores + probs_v + out_proj + ffn


def gqa_forward_flops(t, e, h, g):
    # K and V project to G heads of E/H each: G/H of the Q projection
    return (2 * t * e * e * (1 + 2 * g / h) + 2 * t * t * e + 2 * t * t * e
            + 2 * t * e * e)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class LlamaAttention(nn.Module):
    """Hugging Face's LlamaAttention on one sequence, in plain torch ops."""

    def __init__(self, embed, heads, kv_heads, dtype, theta=10000.0):
        super().__init__()
        self.heads, self.kv_heads = heads, kv_heads
        self.head_dim = embed // heads
        d = self.head_dim
        self.q_proj = nn.Linear(embed, heads * d, bias=False, dtype=dtype)
        self.k_proj = nn.Linear(embed, kv_heads * d, bias=False, dtype=dtype)
        self.v_proj = nn.Linear(embed, kv_heads * d, bias=False, dtype=dtype)
        self.o_proj = nn.Linear(heads * d, embed, bias=False, dtype=dtype)
        self.inv_freq = 1.0 / (theta ** (torch.arange(0, d, 2, dtype=dtype) / d))

    def forward(self, x):  # (1, T, E)
        _, t, _ = x.shape
        h, g, d = self.heads, self.kv_heads, self.head_dim
        q = self.q_proj(x).view(1, t, h, d).transpose(1, 2)
        k = self.k_proj(x).view(1, t, g, d).transpose(1, 2)
        v = self.v_proj(x).view(1, t, g, d).transpose(1, 2)
        freqs = torch.outer(torch.arange(t, dtype=x.dtype), self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos(), emb.sin()
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        # repeat_kv: query head i reads key/value head i // (h / g)
        k = k[:, :, None].expand(1, g, h // g, t, d).reshape(1, h, t, d)
        v = v[:, :, None].expand(1, g, h // g, t, d).reshape(1, h, t, d)
        scores = q @ k.transpose(-1, -2) / (d ** 0.5)
        mask = torch.triu(torch.full((t, t), float("-inf"), dtype=x.dtype),
                          diagonal=1)
        attn = torch.softmax(scores + mask, dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(1, t, h * d)
        return self.o_proj(out)


def median_ms(step, iters, warmup):
    for _ in range(warmup):
        step()
    times = []
    for _ in range(iters):
        start = time.perf_counter()
        step()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Time torch nn.TransformerEncoderLayer or Llama attention.")
    parser.add_argument("--op", choices=["encoder_layer", "gqa"],
                        default="encoder_layer")
    parser.add_argument("--kv-heads", type=int, default=None)
    parser.add_argument("--seq", type=int, default=128)
    parser.add_argument("--d-model", type=int, default=512)
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--d-ff", type=int, default=2048)
    parser.add_argument("--norm", choices=["post", "pre"], default="post")
    parser.add_argument("--dtype", choices=["float32", "float64"],
                        default="float32")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    args = parser.parse_args(argv)
    if args.iters < 1 or args.warmup < 0 or args.threads < 1:
        parser.error("need --iters >= 1, --warmup >= 0, --threads >= 1")
    kv_heads = args.kv_heads if args.kv_heads is not None else args.heads
    if args.op == "gqa" and (kv_heads < 1 or args.heads % kv_heads
                             or args.d_model % args.heads):
        parser.error("--kv-heads must divide --heads, --heads must divide "
                     "--d-model")

    torch.set_num_threads(args.threads)
    openblas = openblas_library()
    if openblas is not None:
        openblas.openblas_set_num_threads(args.threads)
    torch.manual_seed(0)
    dtype = getattr(torch, args.dtype)

    if args.op == "gqa":
        layer = LlamaAttention(args.d_model, args.heads, kv_heads, dtype)
    else:
        layer = nn.TransformerEncoderLayer(
            args.d_model, args.heads, args.d_ff, dropout=0.0,
            activation="relu", batch_first=True,
            norm_first=(args.norm == "pre"), dtype=dtype)
    x = torch.randn(1, args.seq, args.d_model, dtype=dtype)
    grad_output = torch.randn(1, args.seq, args.d_model, dtype=dtype)

    layer.eval()

    def forward():
        with torch.inference_mode():
            layer(x)

    forward_ms = median_ms(forward, args.iters, args.warmup)

    layer.train()
    x_train = x.clone().requires_grad_(True)

    def forward_backward():
        layer.zero_grad(set_to_none=False)
        x_train.grad = None
        layer(x_train).backward(grad_output)

    forward_backward_ms = median_ms(forward_backward, args.iters,
                                    args.warmup)

    if args.op == "gqa":
        flops = 3 * gqa_forward_flops(args.seq, args.d_model, args.heads,
                                      kv_heads)
    else:
        flops = 3 * forward_flops(args.seq, args.d_model, args.d_ff)
    result = {
        "impl": "pytorch",
        "torch_version": torch.__version__,
        "blas": blas_description(openblas),
        "op": args.op,
        "seq": args.seq,
        "d_model": args.d_model,
        "heads": args.heads,
    }
    if args.op == "gqa":
        result.update({"kv_heads": kv_heads, "causal": True, "rope": True})
    else:
        result.update({"d_ff": args.d_ff, "norm": args.norm})
    result.update({
        "dtype": args.dtype,
        "threads": args.threads,
        "iters": args.iters,
        "forward_ms": round(forward_ms, 4),
        "forward_backward_ms": round(forward_backward_ms, 4),
        "gflops": round(flops / (forward_backward_ms * 1e-3) / 1e9, 3),
    })
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
