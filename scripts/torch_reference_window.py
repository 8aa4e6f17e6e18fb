#!/usr/bin/python3
"""Generate PyTorch reference fixtures for sliding-window attention.

The engine's ``gqa`` op with ``sliding_window`` W (Mistral's key: the query at i
attends keys i - W + 1 .. i, as Hugging Face masks it) against the plain-torch
MistralAttention of scripts/torch_reference.py (LlamaAttention with the window's
band mask added) at W = 1, W < T and W >= T, and against nn.MultiheadAttention
itself with the same band as its attn_mask (multi-head, no RoPE, no biases), in
the format of scripts/torch_reference.py, whose helpers it uses
(tests/fixtures/README.md describes the format).

Usage (Debian's python3-torch lives under the system interpreter)::

    /usr/bin/python3 scripts/torch_reference_window.py [--out tests/fixtures]
"""

import sys

import torch
import torch.nn as nn

import torch_reference as ref

FIXTURES = []
STEPS = 7  # long enough for a window of 3 to drop keys from four queries


def fixture(func):
    FIXTURES.append(func)
    return func


@fixture
def gqa_window_1():
    return ref.gqa_case("gqa_window_1", window=1, steps=STEPS)


@fixture
def gqa_window_3():
    return ref.gqa_case("gqa_window_3", window=3, steps=STEPS)


@fixture
def gqa_window_wide():
    # W >= T: no key is ever out of reach, so this is the causal pass
    return ref.gqa_case("gqa_window_wide", window=STEPS + 2, steps=STEPS)


@fixture
def gqa_window_mqa_float32():
    return ref.gqa_case("gqa_window_mqa_float32", kv_heads=1, window=2, steps=STEPS,
                        dtype=ref.F32)


@fixture
def mha_window():
    name, window, heads = "mha_window", 3, ref.H
    ref.seed_for(name)
    module = nn.MultiheadAttention(ref.E, heads, dropout=0.0, bias=False, batch_first=True,
                                   dtype=ref.F64)
    wq, wk, wv = (ref.weight(ref.E, ref.E) for _ in range(3))
    wo = ref.weight(ref.E, ref.E)
    ref.set_params(module, {"in_proj_weight": torch.cat([wq, wk, wv]),
                            "out_proj.weight": wo})
    x = torch.randn(1, STEPS, ref.E, dtype=ref.F64, requires_grad=True)
    band = ref.causal_mask(STEPS, ref.F64) + ref.window_mask(STEPS, window, ref.F64)
    y, attn = module(x, x, x, attn_mask=band, need_weights=True, average_attn_weights=False)
    gy = torch.randn_like(y)
    y.backward(gy)
    grad_in = module.in_proj_weight.grad
    e = ref.E
    desc = (f"nn.MultiheadAttention({e}, num_heads={heads}, bias=False, batch_first=True) with "
            f"attn_mask the causal mask plus a band of {window} keys (sliding_window={window}): "
            "the engine's gqa with num_key_value_heads = num_attention_heads, no RoPE; "
            f"in_proj_weight split into q/k/v_proj; float64, input {STEPS}x{e}")
    config = {"hidden_size": e, "num_attention_heads": heads, "num_key_value_heads": heads,
              "causal": True, "rope": False, "sliding_window": window}
    params = {"q_proj.weight": wq, "k_proj.weight": wk, "v_proj.weight": wv,
              "o_proj.weight": wo}
    grads = {"input": x.grad[0].tolist(),
             "q_proj.weight": grad_in[:e].tolist(),
             "k_proj.weight": grad_in[e:2 * e].tolist(),
             "v_proj.weight": grad_in[2 * e:].tolist(),
             "o_proj.weight": module.out_proj.weight.grad.tolist()}
    return ref.make(name, desc, "gqa", ref.F64, config, params, x.detach()[0], gy[0],
                    {"output": y.detach()[0].tolist(), "grads": grads,
                     "attn_weights": attn.detach()[0].tolist()})


if __name__ == "__main__":
    sys.exit(ref.main(fixtures=FIXTURES, description=__doc__.splitlines()[0]))
