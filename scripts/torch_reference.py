#!/usr/bin/python3
"""Generate PyTorch reference fixtures for proofdeck's C++ engine tests.

Each fixture is one JSON file in the output directory (default
``tests/fixtures``).  It records a small, seeded problem (op, config,
parameters, input, upstream gradient) together with what PyTorch computes
for it: the forward output, the autograd gradients for the input and every
parameter, and any extra per-op results (attention weights, BatchNorm
running statistics).  The C++ tests replay ``spec`` and compare against
``expected``.  The file format is described in ``tests/fixtures/README.md``.

PyTorch is needed only to regenerate the fixtures, never to build or test.

Usage (Debian's python3-torch lives under the system interpreter)::

    /usr/bin/python3 scripts/torch_reference.py [--out tests/fixtures]

The script overwrites the fixture files it owns and touches nothing else.
Every fixture is seeded on its own (from its name), so the output is
deterministic and adding a fixture does not change the others.
"""

import argparse
import json
import math
import pathlib
import sys
import zlib

import torch
import torch.nn as nn
import torch.utils._python_dispatch

# Problem sizes shared by the fixtures.
T = 5  # sequence length
E = 8  # d_model / embed_dim
H = 2  # attention heads
FF = 16  # dim_feedforward
N_NORM = 6  # batch size for BatchNorm
C_NORM = 4  # BatchNorm channels
LIN_N, LIN_IN, LIN_OUT = 5, 8, 6
SGD_LR = 0.05  # the learning rate of the SGD-step fixtures

SEED_BASE = 20240601
F64 = torch.float64
F32 = torch.float32
DTYPE_NAMES = {F64: "float64", F32: "float32"}

FIXTURES = []


def fixture(func):
    """Register a fixture builder (it returns the fixture dict)."""
    FIXTURES.append(func)
    return func


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def seed_for(name):
    """Seed the global torch RNG from the fixture name (stable across runs)."""
    torch.manual_seed(SEED_BASE + zlib.crc32(name.encode("utf-8")))


def weight(*shape, dtype=F64):
    return torch.randn(*shape, dtype=dtype) * 0.5


def bias(*shape, dtype=F64):
    return torch.randn(*shape, dtype=dtype) * 0.5


def norm_weight(*shape, dtype=F64):
    return 1.0 + 0.1 * torch.randn(*shape, dtype=dtype)


def norm_bias(*shape, dtype=F64):
    return 0.1 * torch.randn(*shape, dtype=dtype)


def causal_mask(t, dtype):
    """Float mask, -inf strictly above the diagonal: row i attends to j<=i."""
    return torch.triu(torch.full((t, t), -math.inf, dtype=dtype), diagonal=1)


def set_params(module, values):
    """Copy ``values`` (state_dict name -> tensor) into the module.

    Every entry of the module's state_dict except ``num_batches_tracked``
    must be given, so no PyTorch default initialisation leaks into a fixture.
    """
    state = module.state_dict()
    wanted = {k for k in state if not k.endswith("num_batches_tracked")}
    if wanted != set(values):
        raise ValueError(f"param names {sorted(values)} != {sorted(wanted)}")
    with torch.no_grad():
        for key, value in values.items():
            state[key].copy_(value)


def tensor_grads(named):
    """Gradients of the given (name, tensor) pairs, as lists."""
    out = {}
    for key, t in named:
        if t.grad is None:
            raise RuntimeError(f"no gradient for {key}")
        out[key] = t.grad.tolist()
    return out


def module_grads(module, x):
    grads = {"input": x.grad.tolist()}
    for key, p in module.named_parameters():
        if p.grad is None:
            raise RuntimeError(f"no gradient for {key}")
        grads[key] = p.grad.tolist()
    return grads


def make(name, description, op, dtype, config, params, inp, grad_output,
         expected):
    spec = {
        "op": op,
        "dtype": DTYPE_NAMES[dtype],
        "config": config,
        "params": {k: v.tolist() for k, v in params.items()},
        "input": inp.tolist() if torch.is_tensor(inp) else inp,
    }
    if grad_output is not None:
        spec["grad_output"] = grad_output.tolist()
    return {
        "name": name,
        "description": description,
        "torch_version": torch.__version__,
        "spec": spec,
        "expected": expected,
    }


# ---------------------------------------------------------------------------
# nn.Linear
# ---------------------------------------------------------------------------


def linear_case(name, use_bias):
    seed_for(name)
    config = {"in_features": LIN_IN, "out_features": LIN_OUT,
              "bias": use_bias}
    module = nn.Linear(LIN_IN, LIN_OUT, bias=use_bias, dtype=F64)
    params = {"weight": weight(LIN_OUT, LIN_IN)}
    if use_bias:
        params["bias"] = bias(LIN_OUT)
    set_params(module, params)
    x = torch.randn(LIN_N, LIN_IN, dtype=F64).requires_grad_()
    y = module(x)
    gy = torch.randn_like(y)
    y.backward(gy)
    desc = (f"nn.Linear({LIN_IN}, {LIN_OUT}, bias={use_bias}), float64, "
            f"input {LIN_N}x{LIN_IN}")
    return make(name, desc, "linear", F64, config, params, x.detach(), gy,
                {"output": y.tolist(), "grads": module_grads(module, x)})


@fixture
def linear():
    return linear_case("linear", True)


@fixture
def linear_nobias():
    return linear_case("linear_nobias", False)


def with_sgd_step(data, module):
    """``data``'s case again, then one torch.optim.SGD(SGD_LR) step on ``module``'s parameters:
    the spec gains ``config.sgd_lr``, the expected result ``after_step``."""
    spec = data["spec"]
    set_params(module, {k: torch.tensor(v, dtype=F64) for k, v in spec["params"].items()})
    x = torch.tensor(spec["input"], dtype=F64)
    module(x).backward(torch.tensor(spec["grad_output"], dtype=F64))
    torch.optim.SGD(module.parameters(), lr=SGD_LR).step()
    spec["config"]["sgd_lr"] = SGD_LR
    data["description"] += f", then torch.optim.SGD(lr={SGD_LR}).step()"
    data["expected"]["after_step"] = {name: value.detach().tolist()
                                      for name, value in module.named_parameters()}
    return data


@fixture
def linear_sgd_step():
    return with_sgd_step(linear_case("linear_sgd_step", True),
                         nn.Linear(LIN_IN, LIN_OUT, dtype=F64))



@fixture
def linear_weight_norm():
    """torch.nn.utils.weight_norm(nn.Linear): weight_g and weight_v, then one SGD step."""
    name = "linear_weight_norm"
    seed_for(name)
    config = {"in_features": LIN_IN, "out_features": LIN_OUT, "bias": True, "weight_norm": True}
    module = nn.utils.weight_norm(nn.Linear(LIN_IN, LIN_OUT, dtype=F64))
    params = {"weight_g": weight(LIN_OUT, 1).abs() + 0.5, "weight_v": weight(LIN_OUT, LIN_IN),
              "bias": bias(LIN_OUT)}
    set_params(module, params)
    x = torch.randn(LIN_N, LIN_IN, dtype=F64).requires_grad_()
    y = module(x)
    gy = torch.randn_like(y)
    y.backward(gy)
    desc = (f"torch.nn.utils.weight_norm(nn.Linear({LIN_IN}, {LIN_OUT})) (name='weight', dim=0), "
            f"float64, input {LIN_N}x{LIN_IN}")
    data = make(name, desc, "linear", F64, config, params, x.detach(), gy,
                {"output": y.tolist(), "grads": module_grads(module, x)})
    return with_sgd_step(data, nn.utils.weight_norm(nn.Linear(LIN_IN, LIN_OUT, dtype=F64)))

# ---------------------------------------------------------------------------
# nn.LayerNorm
# ---------------------------------------------------------------------------


def layer_norm_case(name, eps, offset):
    seed_for(name)
    config = {"normalized_shape": E, "eps": eps, "elementwise_affine": True}
    module = nn.LayerNorm(E, eps=eps, elementwise_affine=True, dtype=F64)
    params = {"weight": norm_weight(E), "bias": norm_bias(E)}
    set_params(module, params)
    x = (torch.randn(T, E, dtype=F64) + offset).requires_grad_()
    y = module(x)
    gy = torch.randn_like(y)
    y.backward(gy)
    desc = f"nn.LayerNorm({E}, eps={eps:g}), float64, input {T}x{E}"
    if offset:
        desc += f" with mean offset +{offset:g}"
    return make(name, desc, "layer_norm", F64, config, params, x.detach(),
                gy, {"output": y.tolist(), "grads": module_grads(module, x)})


@fixture
def layer_norm():
    return layer_norm_case("layer_norm", 1e-5, 0.0)


@fixture
def layer_norm_sgd_step():
    return with_sgd_step(layer_norm_case("layer_norm_sgd_step", 1e-5, 0.0),
                         nn.LayerNorm(E, eps=1e-5, dtype=F64))


# ---------------------------------------------------------------------------
# nn.BatchNorm1d
# ---------------------------------------------------------------------------


def batch_norm_params():
    """γ, β and running statistics for a BatchNorm1d of C_NORM channels, drawn in that order."""
    return {
        "weight": norm_weight(C_NORM),
        "bias": norm_bias(C_NORM),
        "running_mean": 0.1 * torch.randn(C_NORM, dtype=F64),
        "running_var": 1.0 + 0.1 * torch.rand(C_NORM, dtype=F64).abs(),
    }


def batch_norm_case(name, training):
    seed_for(name)
    eps, momentum = 1e-5, 0.1
    config = {"num_features": C_NORM, "eps": eps, "momentum": momentum,
              "training": training}
    module = nn.BatchNorm1d(C_NORM, eps=eps, momentum=momentum, dtype=F64)
    params = batch_norm_params()
    set_params(module, params)
    module.train(training)
    x = torch.randn(N_NORM, C_NORM, dtype=F64).requires_grad_()
    y = module(x)
    gy = torch.randn_like(y)
    y.backward(gy)
    mode = ("training mode (batch statistics; running stats updated with "
            "the unbiased batch variance)" if training else
            "eval mode (normalises with the running stats)")
    desc = (f"nn.BatchNorm1d({C_NORM}, eps={eps:g}, momentum={momentum:g}) "
            f"in {mode}, float64, input {N_NORM}x{C_NORM}")
    expected = {
        "output": y.tolist(),
        "grads": module_grads(module, x),
        "state": {
            "running_mean": module.running_mean.tolist(),
            "running_var": module.running_var.tolist(),
        },
    }
    return make(name, desc, "batch_norm", F64, config, params, x.detach(),
                gy, expected)


@fixture
def batch_norm_train():
    return batch_norm_case("batch_norm_train", True)


@fixture
def batch_norm_eval():
    return batch_norm_case("batch_norm_eval", False)


# ---------------------------------------------------------------------------
# Padded batches: two sequences of lengths 5 and 2, padded to 5, stacked (2*5, C).
# LayerNorm and BatchNorm see the stacked rows; the mask is true at a padding row.
# ---------------------------------------------------------------------------

PAD_LENGTHS = (5, 2)
PAD_T = 5


def padded_rows(channels):
    """A (B*T, C) padded batch (padding rows hold values, as a reused buffer would) and its mask."""
    x = torch.randn(len(PAD_LENGTHS) * PAD_T, channels, dtype=F64)
    padding = [t >= length for length in PAD_LENGTHS for t in range(PAD_T)]
    return x, padding


@fixture
def layer_norm_padded():
    name = "layer_norm_padded"
    seed_for(name)
    eps = 1e-5
    config = {"normalized_shape": E, "eps": eps, "elementwise_affine": True}
    module = nn.LayerNorm(E, eps=eps, dtype=F64)
    params = {"weight": norm_weight(E), "bias": norm_bias(E)}
    set_params(module, params)
    x, padding = padded_rows(E)
    x.requires_grad_()
    real = (~torch.tensor(padding)).to(F64).unsqueeze(1)
    y = module(x) * real  # the padding rows' outputs zeroed
    gy = torch.randn_like(y)
    y.backward(gy)
    desc = (f"nn.LayerNorm({E}) on a padded batch: sequences of lengths {PAD_LENGTHS} padded "
            f"to {PAD_T} and stacked ({len(PAD_LENGTHS) * PAD_T}x{E}); the padding rows' "
            "outputs multiplied by 0, float64")
    data = make(name, desc, "layer_norm", F64, config, params, x.detach(), gy,
                {"output": y.tolist(), "grads": module_grads(module, x)})
    data["spec"]["padding_mask"] = padding
    return data


@fixture
def batch_norm_masked():
    name = "batch_norm_masked"
    seed_for(name)
    eps, momentum = 1e-5, 0.1
    config = {"num_features": C_NORM, "eps": eps, "momentum": momentum, "training": True}
    module = nn.BatchNorm1d(C_NORM, eps=eps, momentum=momentum, dtype=F64)
    params = batch_norm_params()
    set_params(module, params)
    module.train()
    x, padding = padded_rows(C_NORM)
    x.requires_grad_()
    real = ~torch.tensor(padding)
    y = torch.zeros_like(x)
    y = y.index_put((real,), module(x[real]))  # BatchNorm over the packed real tokens only
    gy = torch.randn_like(y)
    y.backward(gy)
    desc = (f"nn.BatchNorm1d({C_NORM}) in training mode over the real rows of a padded batch "
            f"(lengths {PAD_LENGTHS} padded to {PAD_T}, stacked {len(PAD_LENGTHS) * PAD_T}x"
            f"{C_NORM}): module(x[~padding]) scattered back, padding rows 0, float64")
    expected = {
        "output": y.tolist(),
        "grads": module_grads(module, x),
        "state": {"running_mean": module.running_mean.tolist(),
                  "running_var": module.running_var.tolist()},
    }
    data = make(name, desc, "batch_norm", F64, config, params, x.detach(), gy, expected)
    data["spec"]["padding_mask"] = padding
    return data


# ---------------------------------------------------------------------------
# RMSNorm (no nn.RMSNorm in torch 1.13)
# ---------------------------------------------------------------------------


@fixture
def rms_norm():
    name = "rms_norm"
    seed_for(name)
    eps = 1e-6
    config = {"normalized_shape": E, "eps": eps}
    w = norm_weight(E).requires_grad_()
    x = torch.randn(T, E, dtype=F64).requires_grad_()
    y = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w
    gy = torch.randn_like(y)
    y.backward(gy)
    desc = (f"RMSNorm({E}, eps={eps:g}): the formula of torch>=2.4 "
            "nn.RMSNorm, y = x * rsqrt(mean(x^2, -1) + eps) * weight, "
            f"computed with torch autograd; float64, input {T}x{E}")
    params = {"weight": w.detach()}
    return make(name, desc, "rms_norm", F64, config, params, x.detach(), gy,
                {"output": y.tolist(),
                 "grads": tensor_grads([("input", x), ("weight", w)])})


# ---------------------------------------------------------------------------
# Activations
# ---------------------------------------------------------------------------


def activation_case(name, op, module, config, x, desc):
    x = x.requires_grad_()
    y = module(x)
    gy = torch.randn_like(y)
    y.backward(gy)
    return make(name, desc, op, F64, config, {}, x.detach(), gy,
                {"output": y.tolist(),
                 "grads": tensor_grads([("input", x)])})


def gelu_case(name, approximate):
    seed_for(name)
    x = torch.rand(T, E, dtype=F64) * 8.0 - 4.0  # uniform on [-4, 4)
    desc = (f"nn.GELU(approximate='{approximate}'), float64, input {T}x{E} "
            "uniform on [-4, 4]")
    return activation_case(name, "gelu", nn.GELU(approximate=approximate),
                           {"approximate": approximate}, x, desc)


@fixture
def gelu():
    return gelu_case("gelu", "none")


@fixture
def gelu_tanh():
    return gelu_case("gelu_tanh", "tanh")


@fixture
def relu():
    name = "relu"
    seed_for(name)
    x = torch.randn(T, E, dtype=F64)
    # Keep every value at least 0.05 away from the kink at 0.
    x = torch.where(x >= 0, x + 0.05, x - 0.05)
    desc = f"nn.ReLU(), float64, input {T}x{E} (no value within 0.05 of 0)"
    return activation_case(name, "relu", nn.ReLU(), {}, x, desc)


# ---------------------------------------------------------------------------
# nn.Embedding (learned positional table)
# ---------------------------------------------------------------------------


@fixture
def embedding():
    name = "embedding"
    seed_for(name)
    num = 10
    config = {"num_embeddings": num, "embedding_dim": E}
    module = nn.Embedding(num, E, dtype=F64)
    params = {"weight": weight(num, E)}
    set_params(module, params)
    positions = [0, 1, 2, 3, 4, 2]  # position 2 repeats: its grads add up
    y = module(torch.tensor(positions, dtype=torch.long))
    gy = torch.randn_like(y)
    y.backward(gy)
    desc = (f"nn.Embedding({num}, {E}) as a learned positional table, "
            "float64, positions with one repeat (gradient accumulates)")
    return make(name, desc, "embedding", F64, config, params, positions, gy,
                {"output": y.tolist(),
                 "grads": {"weight": module.weight.grad.tolist()}})


# ---------------------------------------------------------------------------
# nn.MultiheadAttention
# ---------------------------------------------------------------------------


def mha_case(name, heads=H, use_bias=True, causal=False, dtype=F64):
    seed_for(name)
    config = {"embed_dim": E, "num_heads": heads, "bias": use_bias,
              "causal": causal}
    module = nn.MultiheadAttention(E, heads, dropout=0.0, bias=use_bias,
                                   batch_first=True, dtype=dtype)
    params = {"in_proj_weight": weight(3 * E, E, dtype=dtype)}
    if use_bias:
        params["in_proj_bias"] = bias(3 * E, dtype=dtype)
    params["out_proj.weight"] = weight(E, E, dtype=dtype)
    if use_bias:
        params["out_proj.bias"] = bias(E, dtype=dtype)
    set_params(module, params)
    module.train()
    x = torch.randn(T, E, dtype=dtype).requires_grad_()
    xb = x.unsqueeze(0)  # batch of 1
    mask = causal_mask(T, dtype) if causal else None
    y, attn = module(xb, xb, xb, attn_mask=mask, need_weights=True,
                     average_attn_weights=False)
    y = y.squeeze(0)
    gy = torch.randn_like(y)
    y.backward(gy)
    desc = (f"nn.MultiheadAttention({E}, num_heads={heads}, bias={use_bias}, "
            "dropout=0, batch_first=True) self-attention q=k=v=x"
            + (", causal float attn_mask (-inf above diagonal)"
               if causal else "")
            + f", {DTYPE_NAMES[dtype]}, input {T}x{E} (batch 1)")
    expected = {
        "output": y.tolist(),
        "grads": module_grads(module, x),
        "attn_weights": attn.squeeze(0).tolist(),
    }
    return make(name, desc, "mha", dtype, config, params, x.detach(), gy,
                expected)


@fixture
def mha():
    return mha_case("mha")


@fixture
def mha_cross():
    """Cross-attention with n != m: 3 decoder queries over 5 memory positions."""
    name = "mha_cross"
    seed_for(name)
    queries = 3
    config = {"embed_dim": E, "num_heads": H, "bias": True, "causal": False}
    module = nn.MultiheadAttention(E, H, dropout=0.0, batch_first=True, dtype=F64)
    params = {"in_proj_weight": weight(3 * E, E), "in_proj_bias": bias(3 * E),
              "out_proj.weight": weight(E, E), "out_proj.bias": bias(E)}
    set_params(module, params)
    module.train()
    x = torch.randn(queries, E, dtype=F64).requires_grad_()
    memory = torch.randn(T, E, dtype=F64).requires_grad_()
    mb = memory.unsqueeze(0)
    y, attn = module(x.unsqueeze(0), mb, mb, need_weights=True, average_attn_weights=False)
    y = y.squeeze(0)
    gy = torch.randn_like(y)
    y.backward(gy)
    desc = (f"nn.MultiheadAttention({E}, num_heads={H}, dropout=0, batch_first=True) "
            f"cross-attention: query = input ({queries}x{E}), key = value = memory ({T}x{E}), "
            "float64 (batch 1)")
    grads = module_grads(module, x)
    grads["memory"] = memory.grad.tolist()
    data = make(name, desc, "mha", F64, config, params, x.detach(), gy,
                {"output": y.tolist(), "grads": grads,
                 "attn_weights": attn.squeeze(0).tolist()})
    data["spec"]["memory"] = memory.detach().tolist()
    return data

def mha_key_padding_case(name, padding, causal):
    seed_for(name)
    config = {"embed_dim": E, "num_heads": H, "bias": True, "causal": causal}
    module = nn.MultiheadAttention(E, H, dropout=0.0, batch_first=True, dtype=F64)
    params = {"in_proj_weight": weight(3 * E, E), "in_proj_bias": bias(3 * E),
              "out_proj.weight": weight(E, E), "out_proj.bias": bias(E)}
    set_params(module, params)
    module.train()
    x = torch.randn(T, E, dtype=F64).requires_grad_()
    xb = x.unsqueeze(0)
    y, attn = module(xb, xb, xb, key_padding_mask=torch.tensor([padding]),
                     attn_mask=causal_mask(T, F64) if causal else None,
                     need_weights=True, average_attn_weights=False)
    y = y.squeeze(0)
    gy = torch.randn_like(y)
    y.backward(gy)
    desc = (f"nn.MultiheadAttention({E}, num_heads={H}, dropout=0, batch_first=True) "
            f"self-attention with key_padding_mask {padding}"
            + (" and a causal float attn_mask" if causal else "") + f", float64, input {T}x{E}")
    return module, x, y, gy, attn, desc, config, params


@fixture
def mha_key_padding():
    """One sequence of a padded batch: 3 tokens padded to 5 on the right."""
    name = "mha_key_padding"
    padding = [False, False, False, True, True]
    module, x, y, gy, attn, desc, config, params = mha_key_padding_case(name, padding, False)
    data = make(name, desc, "mha", F64, config, params, x.detach(), gy,
                {"output": y.tolist(), "grads": module_grads(module, x),
                 "attn_weights": attn.squeeze(0).tolist()})
    data["spec"]["key_padding_mask"] = padding
    return data


@fixture
def mha_key_padding_no_key():
    """Left padding under a causal mask: queries 0 and 1 see only padding keys.  PyTorch returns
    NaN for those rows, and the input's and in-projection's gradients are NaN in every row (the
    NaN weights meet a zero upstream gradient as NaN * 0).  JSON holds no NaN, so the fixture
    records which output rows and gradients are NaN; the engine must refuse exactly those
    queries."""
    name = "mha_key_padding_no_key"
    padding = [True, True, False, False, False]
    module, x, y, gy, attn, desc, config, params = mha_key_padding_case(name, padding, True)
    nan_rows = [r for r in range(T) if bool(torch.isnan(y[r]).all())]
    finite_rows = [r for r in range(T) if bool(torch.isfinite(y[r]).all())]
    if sorted(nan_rows + finite_rows) != list(range(T)):
        raise RuntimeError("rows are neither all NaN nor all finite")
    nan_grads = [k for k, g in module_grads(module, x).items()
                 if bool(torch.isnan(torch.tensor(g)).all())]
    data = make(name, desc, "mha", F64, config, params, x.detach(), gy, None)
    del data["expected"]
    data["spec"]["key_padding_mask"] = padding
    data["expected_nan"] = {"output_rows": nan_rows, "gradients": nan_grads}
    return data


class MatmulCount(torch.utils._python_dispatch.TorchDispatchMode):
    """Counts the multiply-adds of the matrix products PyTorch runs, from the operands' shapes as
    ATen receives them: (b·)m·k·n for mm/addmm/bmm/baddbmm.  nn.MultiheadAttention's products
    come in order: the in-projection, per batch of heads q·kᵀ then P·v, the out-projection."""

    def __init__(self):
        super().__init__()
        self.products = []  # (op name, multiply-adds)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        name = func.overloadpacket.__name__
        tensors = [a for a in args if torch.is_tensor(a)]
        if name in ("mm", "addmm"):
            (m, k), (_, n) = tensors[-2].shape, tensors[-1].shape
            self.products.append((name, m * k * n))
        elif name in ("bmm", "baddbmm"):
            (b, m, k), (_, _, n) = tensors[-2].shape, tensors[-1].shape
            self.products.append((name, b * m * k * n))
        return func(*args, **(kwargs or {}))


def mha_multiply_adds(module, x):
    """The multiply-adds of one forward of ``module`` on ``x``, by kind, as engine run reports them."""
    with MatmulCount() as count, torch.no_grad():
        module(x, x, x, need_weights=True, average_attn_weights=False)
    kinds = [name for name, _ in count.products]
    assert kinds == ["addmm", "bmm", "bmm", "addmm"] or kinds == ["mm", "bmm", "bmm", "mm"], kinds
    linear = count.products[0][1] + count.products[3][1]
    scores, weighted = count.products[1][1], count.products[2][1]
    return {"linear": linear, "scores": scores, "weighted_values": weighted,
            "total": linear + scores + weighted}


@fixture
def mha_multiply_adds_4_heads():
    """A four-head forward whose products PyTorch counts: the multiply-add tally's reference."""
    name = "mha_multiply_adds_4_heads"
    data = mha_case(name, heads=4)
    module = nn.MultiheadAttention(E, 4, dropout=0.0, batch_first=True, dtype=F64)
    set_params(module, {k: torch.tensor(v, dtype=F64) for k, v in data["spec"]["params"].items()})
    x = torch.tensor(data["spec"]["input"], dtype=F64).unsqueeze(0)
    data["expected"]["multiply_adds"] = mha_multiply_adds(module, x)
    data["description"] += ("; multiply_adds: the mm/bmm products PyTorch ran, counted from "
                            "their operands' shapes")
    return data


def mha_functional(x, params, heads, code=None):
    """nn.MultiheadAttention's self-attention written out in torch ops, with ``code`` (T, D)
    added to every head's q and k after the projection when given. Returns output (T, E) and
    the per-head weights (H, T, T)."""
    t, e = x.shape
    d = e // heads
    qkv = nn.functional.linear(x, params["in_proj_weight"], params["in_proj_bias"])
    q, k, v = (part.reshape(t, heads, d).transpose(0, 1) for part in qkv.chunk(3, dim=-1))
    if code is not None:
        q = q + code
        k = k + code
    weights = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d), dim=-1)
    heads_out = (weights @ v).transpose(0, 1).reshape(t, e)
    out = nn.functional.linear(heads_out, params["out_proj.weight"], params["out_proj.bias"])
    return out, weights


@fixture
def mha_sinusoidal_qk():
    """Self-attention with a sinusoidal code added to each head's Q and K after the projection
    (the design the trap rope-is-additive pictures). No module does this, so it is written out in
    torch ops; the same code without the addition is first checked against nn.MultiheadAttention."""
    name = "mha_sinusoidal_qk"
    seed_for(name)
    params = {"in_proj_weight": weight(3 * E, E), "in_proj_bias": bias(3 * E),
              "out_proj.weight": weight(E, E), "out_proj.bias": bias(E)}
    x = torch.randn(T, E, dtype=F64)
    module = nn.MultiheadAttention(E, H, dropout=0.0, batch_first=True, dtype=F64)
    set_params(module, params)
    reference, _ = module(x.unsqueeze(0), x.unsqueeze(0), x.unsqueeze(0))
    plain, _ = mha_functional(x, params, H)
    if not torch.allclose(plain, reference.squeeze(0), rtol=0, atol=1e-12):
        raise RuntimeError("the written-out attention does not match nn.MultiheadAttention")
    leaves = {key: value.clone().requires_grad_() for key, value in params.items()}
    x = x.requires_grad_()
    code = sinusoidal_table(list(range(T)), E // H)
    y, attn = mha_functional(x, leaves, H, code)
    gy = torch.randn_like(y)
    y.backward(gy)
    grads = {"input": x.grad.tolist()}
    grads.update(tensor_grads(leaves.items()))
    desc = (f"self-attention as nn.MultiheadAttention({E}, num_heads={H}) computes it, with the "
            f"sinusoidal table of width {E // H} (positions 0..{T - 1}) added to every head's q "
            f"and k after the projection; written out in torch ops, float64, input {T}x{E}")
    config = {"embed_dim": E, "num_heads": H, "bias": True, "causal": False,
              "sinusoidal_qk": True}
    expected = {"output": y.tolist(), "grads": grads, "attn_weights": attn.tolist()}
    return make(name, desc, "mha", F64, config, params, x.detach(), gy, expected)


@fixture
def mha_nobias():
    return mha_case("mha_nobias", use_bias=False)


@fixture
def mha_causal():
    return mha_case("mha_causal", causal=True)


@fixture
def mha_1head():
    return mha_case("mha_1head", heads=1)


@fixture
def mha_float32():
    return mha_case("mha_float32", dtype=F32)


# ---------------------------------------------------------------------------
# nn.TransformerEncoderLayer
# ---------------------------------------------------------------------------


def encoder_case(name, norm_first, activation, causal=False, dtype=F64):
    seed_for(name)
    eps = 1e-5
    config = {"d_model": E, "nhead": H, "dim_feedforward": FF,
              "norm_first": norm_first, "activation": activation,
              "layer_norm_eps": eps, "causal": causal}
    module = nn.TransformerEncoderLayer(
        E, H, dim_feedforward=FF, dropout=0.0, activation=activation,
        layer_norm_eps=eps, batch_first=True, norm_first=norm_first,
        dtype=dtype)
    params = {
        "self_attn.in_proj_weight": weight(3 * E, E, dtype=dtype),
        "self_attn.in_proj_bias": bias(3 * E, dtype=dtype),
        "self_attn.out_proj.weight": weight(E, E, dtype=dtype),
        "self_attn.out_proj.bias": bias(E, dtype=dtype),
        "linear1.weight": weight(FF, E, dtype=dtype),
        "linear1.bias": bias(FF, dtype=dtype),
        "linear2.weight": weight(E, FF, dtype=dtype),
        "linear2.bias": bias(E, dtype=dtype),
        "norm1.weight": norm_weight(E, dtype=dtype),
        "norm1.bias": norm_bias(E, dtype=dtype),
        "norm2.weight": norm_weight(E, dtype=dtype),
        "norm2.bias": norm_bias(E, dtype=dtype),
    }
    set_params(module, params)
    module.train()  # dropout is 0; train() keeps PyTorch off its fast path
    x = torch.randn(T, E, dtype=dtype).requires_grad_()
    mask = causal_mask(T, dtype) if causal else None
    y = module(x.unsqueeze(0), src_mask=mask).squeeze(0)
    gy = torch.randn_like(y)
    y.backward(gy)
    desc = (f"nn.TransformerEncoderLayer(d_model={E}, nhead={H}, "
            f"dim_feedforward={FF}, dropout=0, activation='{activation}', "
            f"norm_first={norm_first}, batch_first=True) in train mode"
            + (", causal float src_mask" if causal else "")
            + f", {DTYPE_NAMES[dtype]}, input {T}x{E} (batch 1)")
    return make(name, desc, "encoder_layer", dtype, config, params,
                x.detach(), gy,
                {"output": y.tolist(), "grads": module_grads(module, x)})


@fixture
def encoder_post_relu():
    return encoder_case("encoder_post_relu", False, "relu")


@fixture
def encoder_post_gelu():
    return encoder_case("encoder_post_gelu", False, "gelu")


@fixture
def encoder_pre_relu():
    return encoder_case("encoder_pre_relu", True, "relu")


@fixture
def encoder_pre_gelu():
    return encoder_case("encoder_pre_gelu", True, "gelu")


@fixture
def encoder_pre_causal():
    return encoder_case("encoder_pre_causal", True, "relu", causal=True)


@fixture
def encoder_post_float32():
    return encoder_case("encoder_post_float32", False, "relu", dtype=F32)


# ---------------------------------------------------------------------------
# Sinusoidal positional encoding (Vaswani et al. 2017)
# ---------------------------------------------------------------------------


def sinusoidal_table(positions, d_model):
    """PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(same angle).

    For odd d_model the last column (even index d-1) is a sine without a
    cosine partner.
    """
    pos = torch.tensor(positions, dtype=F64).unsqueeze(1)
    two_i = torch.arange(0, d_model, 2, dtype=F64)
    angles = pos / torch.pow(torch.tensor(10000.0, dtype=F64),
                             two_i / d_model)
    pe = torch.zeros(len(positions), d_model, dtype=F64)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles[:, : d_model // 2])
    return pe


def sinusoidal_case(name, d_model):
    positions = [0, 1, 2, 5, 17, 100]
    desc = (f"sinusoidal positional table (Vaswani et al. 2017), "
            f"d_model={d_model}, computed in torch float64")
    if d_model % 2:
        desc += "; odd d_model: last column is sin only"
    return make(name, desc, "sinusoidal", F64, {"d_model": d_model}, {},
                positions, None,
                {"output": sinusoidal_table(positions, d_model).tolist()})


@fixture
def sinusoidal():
    return sinusoidal_case("sinusoidal", 8)


@fixture
def sinusoidal_odd():
    return sinusoidal_case("sinusoidal_odd", 7)


# ---------------------------------------------------------------------------
# Rotary positional embedding
# ---------------------------------------------------------------------------


def rope_interleaved(x, positions, base):
    """RoFormer / Meta Llama (precompute_freqs_cis + apply_rotary_emb).

    Pairs (x[2i], x[2i+1]) are treated as complex numbers and multiplied by
    exp(1j * pos * theta_i), theta_i = base^(-2i/d).
    """
    d = x.shape[-1]
    freqs = 1.0 / (base ** (torch.arange(0, d, 2, dtype=x.dtype)[: d // 2]
                            / d))
    pos = torch.tensor(positions, dtype=x.dtype)
    angles = torch.outer(pos, freqs)
    freqs_cis = torch.polar(torch.ones_like(angles), angles)
    x_c = torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(x_c * freqs_cis).flatten(-2)


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def rope_half(x, positions, base):
    """Hugging Face Llama (LlamaRotaryEmbedding + apply_rotary_pos_emb).

    Dimension j is paired with j + d/2; cos/sin = cat(freqs, freqs).
    """
    d = x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=x.dtype) / d))
    pos = torch.tensor(positions, dtype=x.dtype)
    freqs = torch.outer(pos, inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    return x * emb.cos() + rotate_half(x) * emb.sin()


def rope_case(name, convention, base):
    seed_for(name)
    positions = [0, 1, 2, 3, 7]
    d = 8
    config = {"positions": positions, "convention": convention,
              "base": base}
    x = torch.randn(len(positions), d, dtype=F64).requires_grad_()
    fn = rope_interleaved if convention == "interleaved" else rope_half
    y = fn(x, positions, base)
    gy = torch.randn_like(y)
    y.backward(gy)
    style = ("RoFormer / Meta Llama interleaved pairs (2i, 2i+1)"
             if convention == "interleaved" else
             "Hugging Face Llama rotate_half pairs (j, j+d/2)")
    desc = (f"rotary positional embedding, {style}, base={base:g}, "
            f"float64, input {len(positions)}x{d}")
    return make(name, desc, "rope", F64, config, {}, x.detach(), gy,
                {"output": y.tolist(),
                 "grads": tensor_grads([("input", x)])})


@fixture
def rope_interleaved_fixture():
    return rope_case("rope_interleaved", "interleaved", 10000.0)


@fixture
def rope_half_fixture():
    return rope_case("rope_half", "half", 10000.0)


@fixture
def rope_half_base500():
    return rope_case("rope_half_base500", "half", 500.0)


# ---------------------------------------------------------------------------
# Llama's MLP (SwiGLU) and attention (GQA): no such modules in torch 1.13,
# so each is written in plain torch ops, as Hugging Face's LlamaMLP and
# LlamaAttention compute them, and differentiated by autograd.
# ---------------------------------------------------------------------------


def swiglu_case(name, dtype=F64):
    seed_for(name)
    config = {"hidden_size": E, "intermediate_size": FF}
    w_gate = weight(FF, E, dtype=dtype).requires_grad_()
    w_up = weight(FF, E, dtype=dtype).requires_grad_()
    w_down = weight(E, FF, dtype=dtype).requires_grad_()
    x = torch.randn(T, E, dtype=dtype).requires_grad_()
    gate = x @ w_gate.T
    y = (gate * torch.sigmoid(gate) * (x @ w_up.T)) @ w_down.T
    gy = torch.randn_like(y)
    y.backward(gy)
    desc = (f"LlamaMLP(hidden_size={E}, intermediate_size={FF}) in plain "
            "torch ops: down_proj(silu(gate_proj(x)) * up_proj(x)), no "
            f"biases, torch autograd; {DTYPE_NAMES[dtype]}, input {T}x{E}")
    params = {"gate_proj.weight": w_gate.detach(),
              "up_proj.weight": w_up.detach(),
              "down_proj.weight": w_down.detach()}
    grads = tensor_grads([("input", x), ("gate_proj.weight", w_gate),
                          ("up_proj.weight", w_up),
                          ("down_proj.weight", w_down)])
    return make(name, desc, "swiglu_mlp", dtype, config, params, x.detach(),
                gy, {"output": y.tolist(), "grads": grads})


@fixture
def swiglu_mlp():
    return swiglu_case("swiglu_mlp")


@fixture
def swiglu_mlp_float32():
    return swiglu_case("swiglu_mlp_float32", dtype=F32)


def alibi_slopes(n):
    """Press et al. 2022, ofirpress/attention_with_linear_biases get_slopes."""
    def power_of_2(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        ratio = start
        return [start * ratio ** i for i in range(n)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return (power_of_2(closest)
            + alibi_slopes(2 * closest)[0::2][: n - closest])


def repeat_kv(x, n_rep):
    """Hugging Face's repeat_kv on (G, T, D): query head h reads h // n_rep."""
    g, t, d = x.shape
    return x[:, None].expand(g, n_rep, t, d).reshape(g * n_rep, t, d)


def window_mask(t, window, dtype):
    """Float mask, -inf on keys j <= i - window: row i attends to i - window + 1 .. i at the
    most (Mistral's sliding window, as Hugging Face masks it); with the causal mask added."""
    i = torch.arange(t)[:, None]
    j = torch.arange(t)[None, :]
    hidden = j <= i - window
    return torch.zeros(t, t, dtype=dtype).masked_fill(hidden, -math.inf)


def gqa_reference(x, wq, wk, wv, wo, heads, kv_heads, head_dim, causal,
                  rope, theta, scaling, alibi, window=0):
    """LlamaAttention on one sequence (T, E) in plain torch ops (MistralAttention with a
    sliding ``window`` > 0).

    Returns the output (T, E) and the attention weights (H, T, T).
    """
    t = x.shape[0]
    q = (x @ wq.T).view(t, heads, head_dim).transpose(0, 1)
    k = (x @ wk.T).view(t, kv_heads, head_dim).transpose(0, 1)
    v = (x @ wv.T).view(t, kv_heads, head_dim).transpose(0, 1)
    if rope:
        # LlamaLinearScalingRotaryEmbedding: positions divided by the factor
        positions = list(p / scaling for p in range(t))
        q = rope_half(q, positions, theta)
        k = rope_half(k, positions, theta)
    k = repeat_kv(k, heads // kv_heads)
    v = repeat_kv(v, heads // kv_heads)
    scores = q @ k.transpose(-1, -2) / math.sqrt(head_dim)
    if alibi:
        pos = torch.arange(t, dtype=x.dtype)
        distance = (pos[:, None] - pos[None, :]).abs()
        slopes = torch.tensor(alibi_slopes(heads), dtype=x.dtype)
        scores = scores - slopes[:, None, None] * distance
    if causal:
        scores = scores + causal_mask(t, x.dtype)
    if window:
        scores = scores + window_mask(t, window, x.dtype)
    attn = torch.softmax(scores, dim=-1)
    out = (attn @ v).transpose(0, 1).reshape(t, heads * head_dim) @ wo.T
    return out, attn


def gqa_case(name, heads=4, kv_heads=2, embed=E, head_dim=None, causal=True,
             rope=True, scaling=None, alibi=False, dtype=F64, window=0, steps=T):
    seed_for(name)
    d = head_dim if head_dim is not None else embed // heads
    config = {"hidden_size": embed, "num_attention_heads": heads,
              "num_key_value_heads": kv_heads}
    if head_dim is not None:
        config["head_dim"] = head_dim
    config.update({"causal": causal, "rope": rope, "rope_theta": 10000.0,
                   "alibi": alibi})
    if scaling is not None:
        config["rope_scaling"] = {"rope_type": "linear", "factor": scaling}
    if window:
        config["sliding_window"] = window
    wq = weight(heads * d, embed, dtype=dtype).requires_grad_()
    wk = weight(kv_heads * d, embed, dtype=dtype).requires_grad_()
    wv = weight(kv_heads * d, embed, dtype=dtype).requires_grad_()
    wo = weight(embed, heads * d, dtype=dtype).requires_grad_()
    x = torch.randn(steps, embed, dtype=dtype).requires_grad_()
    y, attn = gqa_reference(x, wq, wk, wv, wo, heads, kv_heads, d, causal,
                            rope, 10000.0, scaling or 1.0, alibi, window)
    gy = torch.randn_like(y)
    y.backward(gy)
    kind = ("multi-head" if kv_heads == heads else
            "multi-query" if kv_heads == 1 else "grouped-query")
    extras = [("causal" if causal else "not causal")]
    if rope:
        extras.append("RoPE rotate_half"
                      + (f" with linear rope_scaling factor {scaling:g}"
                         if scaling else ""))
    if alibi:
        extras.append(f"ALiBi slopes {alibi_slopes(heads)}")
    if window:
        extras.append(f"sliding_window={window} (keys i-{window}+1..i)")
    desc = (f"{'MistralAttention' if window else 'LlamaAttention'} in plain torch ops, {kind}: "
            f"hidden_size={embed}, "
            f"num_attention_heads={heads}, num_key_value_heads={kv_heads}, "
            f"head_dim={d}, no biases, repeat_kv, " + ", ".join(extras)
            + f"; torch autograd; {DTYPE_NAMES[dtype]}, input {steps}x{embed}")
    params = {"q_proj.weight": wq.detach(), "k_proj.weight": wk.detach(),
              "v_proj.weight": wv.detach(), "o_proj.weight": wo.detach()}
    grads = tensor_grads([("input", x), ("q_proj.weight", wq),
                          ("k_proj.weight", wk), ("v_proj.weight", wv),
                          ("o_proj.weight", wo)])
    return make(name, desc, "gqa", dtype, config, params, x.detach(), gy,
                {"output": y.tolist(), "grads": grads,
                 "attn_weights": attn.detach().tolist()})


@fixture
def gqa():
    return gqa_case("gqa")


@fixture
def gqa_mha():
    return gqa_case("gqa_mha", kv_heads=4)


@fixture
def gqa_mqa():
    return gqa_case("gqa_mqa", kv_heads=1)


@fixture
def gqa_noncausal():
    return gqa_case("gqa_noncausal", causal=False)


@fixture
def gqa_rope_scaling():
    return gqa_case("gqa_rope_scaling", scaling=2.0)


@fixture
def gqa_head_dim():
    return gqa_case("gqa_head_dim", head_dim=4)


@fixture
def gqa_alibi():
    return gqa_case("gqa_alibi", rope=False, alibi=True)


@fixture
def gqa_alibi_6heads():
    return gqa_case("gqa_alibi_6heads", heads=6, kv_heads=3, embed=12,
                    rope=False, alibi=True)


@fixture
def gqa_float32():
    return gqa_case("gqa_float32", dtype=F32)


# ---------------------------------------------------------------------------
# Choosing the next token: the logits warpers and beam search
# ---------------------------------------------------------------------------
# Hugging Face's generate() is not installed here; its warpers are a few torch
# ops each (transformers/generation/logits_process.py, TemperatureLogitsWarper,
# TopKLogitsWarper, TopPLogitsWarper with min_tokens_to_keep=1), written out
# below op for op, and its beam search's step (generation/utils.py,
# _beam_search: add each beam's score to log_softmax of its next logits, take
# the top num_beams of the flattened beams x vocab) with no end token.


def warp(scores, temperature, top_k, top_p):
    scores = scores / temperature
    if top_k > 0:
        top_k = min(top_k, scores.size(-1))
        kth = torch.topk(scores, top_k)[0][..., -1, None]
        scores = scores.masked_fill(scores < kth, -float("inf"))
    if top_p < 1.0:
        sorted_logits, sorted_indices = torch.sort(scores, descending=False)
        cumulative = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
        remove_sorted = cumulative <= (1 - top_p)
        remove_sorted[..., -1:] = False
        remove = remove_sorted.scatter(1, sorted_indices, remove_sorted)
        scores = scores.masked_fill(remove, -float("inf"))
    return scores


def sampling_case(name, temperature, top_k, top_p):
    seed_for(name)
    logits = torch.randn(3, 8, dtype=F64) * 2.0
    scores = warp(logits, temperature, top_k, top_p)
    probs = scores.softmax(dim=-1)
    kept = torch.isfinite(scores).to(F64)
    desc = (f"generate()'s logits warpers on 3 rows of 8 logits: temperature={temperature}, "
            f"top_k={top_k}, top_p={top_p} (TemperatureLogitsWarper, TopKLogitsWarper, "
            f"TopPLogitsWarper in that order), then softmax")
    return make(name, desc, "sampling", F64,
                {"temperature": temperature, "top_k": top_k, "top_p": top_p}, {},
                logits, None, {"output": probs.tolist(), "kept": kept.tolist()})


@fixture
def sampling():
    return sampling_case("sampling", 0.7, 5, 0.9)


@fixture
def sampling_top_p():
    return sampling_case("sampling_top_p", 1.5, 0, 0.6)


def beam_search_reference(table, start, steps, num_beams):
    log_p = table.log_softmax(dim=-1)
    vocab = table.size(0)
    beams = [[]]
    scores = torch.zeros(1, dtype=F64)
    for _ in range(steps):
        last = [b[-1] if b else start for b in beams]
        candidates = scores[:, None] + log_p[last]
        top_scores, top_index = torch.topk(candidates.flatten(), min(num_beams, candidates.numel()))
        beams = [beams[i // vocab] + [int(i % vocab)] for i in top_index.tolist()]
        scores = top_scores
    return beams, scores


@fixture
def beam_search():
    name = "beam_search"
    seed_for(name)
    table = torch.randn(6, 6, dtype=F64) * 1.5
    sequences, scores = beam_search_reference(table, 0, 4, 3)
    desc = ("beam search, 3 beams, 4 steps from token 0 over a 6-token next-token table (row t: "
            "the logits after token t), no end token or length penalty: generate()'s step, "
            "the top num_beams of beam score + log_softmax over the flattened beams x vocab")
    return make(name, desc, "beam_search", F64, {"start": 0, "steps": 4, "num_beams": 3}, {},
                table, None, {"sequences": sequences, "sequence_scores": scores.tolist()})


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------


def to_json(value, indent=0):
    """Pretty JSON that keeps each innermost list (a tensor row) on one line.

    Floats go through json.dumps, i.e. repr, so they round-trip exactly.
    """
    pad = "  " * (indent + 1)
    end = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{pad}{json.dumps(k)}: {to_json(v, indent + 1)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if isinstance(value, list) and any(isinstance(v, (list, dict))
                                       for v in value):
        items = [pad + to_json(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + end + "]"
    return json.dumps(value, allow_nan=False)


def main(argv=None, fixtures=None, description=None):
    """Write each fixture (by default this script's own) into --out."""
    parser = argparse.ArgumentParser(description=description or __doc__.splitlines()[0])
    parser.add_argument("--out", default="tests/fixtures",
                        help="output directory (default: %(default)s)")
    args = parser.parse_args(argv)
    out_dir = pathlib.Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    for build in FIXTURES if fixtures is None else fixtures:
        data = build()
        path = out_dir / f"{data['name']}.json"
        path.write_text(to_json(data) + "\n", encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
