#!/usr/bin/python3
"""Generate PyTorch reference fixtures for the mixture-of-experts block.

The engine's ``moe`` op against Mixtral's sparse MoE block written in plain
torch ops, as Hugging Face's MixtralSparseMoeBlock computes it (torch 1.13 has
no such module): the router ``gate`` scores every expert, softmax over all N
logits, the k most probable kept and renormalised to sum 1 (``norm_topk_prob``;
false keeps the probabilities as they are, as Switch does at k = 1), each
expert a SwiGLU ``w2(silu(w1(x)) * w3(x))``. With ``capacity_factor`` c an
expert takes at most ceil(k*T/N*c) slots, every token's first choice before
any token's second, in sequence order; a slot over it is dropped (Fedus et
al. 2022, section 2.2). The load-balancing loss is Hugging Face's
load_balancing_loss_func times ``router_aux_loss_coef``: alpha*N*sum_i f_i*P_i.
Gradients by autograd: of sum(output * grad_output), and of the loss apart.
The softmax runs in the input's dtype (Hugging Face's casts it to float32,
which in float64 would cost the comparison its precision).

In the format of scripts/torch_reference.py, whose helpers it uses
(tests/fixtures/README.md describes the format). Usage::

    cd scripts && /usr/bin/python3 torch_reference_moe.py --out ../tests/fixtures
"""

import math
import sys

import torch
import torch.nn.functional as F

import torch_reference as ref

FIXTURES = []
TOKENS = 8
EXPERTS = 4
WIDTH = 6  # each expert's intermediate_size


def fixture(func):
    FIXTURES.append(func)
    return func


def capacity(k, tokens, experts, factor):
    if not factor:
        return k * tokens
    return math.ceil(k * tokens * factor / experts * (1 - 1e-9))


def moe_case(name, k, norm=True, factor=None, alpha=0.01, dtype=ref.F64):
    ref.seed_for(name)
    e, n, width = ref.E, EXPERTS, WIDTH
    gate = ref.weight(n, e, dtype=dtype).requires_grad_()
    experts = [{key: ref.weight(*shape, dtype=dtype).requires_grad_()
                for key, shape in (("w1", (width, e)), ("w2", (e, width)), ("w3", (width, e)))}
               for _ in range(n)]
    x = torch.randn(TOKENS, e, dtype=dtype).requires_grad_()

    logits = x @ gate.T
    probs = torch.softmax(logits, dim=-1)
    weights, selected = torch.topk(probs, k, dim=-1)
    if norm:
        weights = weights / weights.sum(dim=-1, keepdim=True)

    cap = capacity(k, TOKENS, n, factor)
    keep = torch.ones(TOKENS, k, dtype=torch.bool)
    filled = [0] * n
    for r in range(k):
        for t in range(TOKENS):
            expert = int(selected[t, r])
            if filled[expert] < cap:
                filled[expert] += 1
            else:
                keep[t, r] = False

    out = torch.zeros_like(x)
    for i, w in enumerate(experts):
        tokens, ranks = torch.where((selected == i) & keep)
        if tokens.numel() == 0:
            continue
        rows = x[tokens]
        y = (F.silu(rows @ w["w1"].T) * (rows @ w["w3"].T)) @ w["w2"].T
        out = out.index_add(0, tokens, y * weights[tokens, ranks].unsqueeze(-1))

    # Hugging Face's load_balancing_loss_func on one sequence, times the coefficient
    expert_mask = F.one_hot(selected, n)
    tokens_per_expert = expert_mask.to(dtype).mean(dim=0)
    router_prob_per_expert = probs.mean(dim=0)
    aux = alpha * n * (tokens_per_expert * router_prob_per_expert.unsqueeze(0)).sum()

    gy = torch.randn_like(out)
    named = [("input", x), ("gate.weight", gate)]
    for i, w in enumerate(experts):
        named += [(f"experts.{i}.{key}.weight", w[key]) for key in ("w1", "w2", "w3")]
    tensors = [tensor for _, tensor in named]
    grads = torch.autograd.grad((out * gy).sum(), tensors, retain_graph=True, allow_unused=True)
    aux_grads = torch.autograd.grad(aux, [x, gate])

    per_expert = 3 * e * width
    kept = int(keep.sum())
    desc = (f"Mixtral's sparse MoE block in plain torch ops: {n} SwiGLU experts of width "
            f"{width}, top-{k} of a softmax over all {n} router logits"
            f"{', renormalised' if norm else ', not renormalised'}"
            f"{f', capacity factor {factor} ({cap} slots an expert)' if factor else ''}; "
            f"load-balancing loss at alpha {alpha}; {ref.DTYPE_NAMES[dtype]}, "
            f"input {TOKENS}x{e}")
    config = {"hidden_size": e, "intermediate_size": width, "num_local_experts": n,
              "num_experts_per_tok": k, "norm_topk_prob": norm, "router_aux_loss_coef": alpha,
              "capacity_factor": factor}
    params = {"gate.weight": gate.detach()}
    for i, w in enumerate(experts):
        params.update({f"experts.{i}.{key}.weight": w[key].detach() for key in ("w1", "w2", "w3")})
    expected = {
        "output": out.tolist(),
        "router_logits": logits.tolist(),
        "selected_experts": selected.tolist(),
        "routing_weights": weights.tolist(),
        "capacity": cap,
        "dropped": [[t, r] for r in range(k) for t in range(TOKENS) if not keep[t, r]],
        "aux_loss": float(aux),
        "parameters": {"total": n * e + n * per_expert, "router": n * e,
                       "per_expert": per_expert,
                       "active_per_token": n * e + per_expert * kept / TOKENS},
        "grads": {key: (torch.zeros_like(tensor) if grad is None else grad).tolist()
                  for (key, tensor), grad in zip(named, grads)},
        "aux_loss_grads": {"input": aux_grads[0].tolist(), "gate.weight": aux_grads[1].tolist()},
    }
    return ref.make(name, desc, "moe", dtype, config, params, x.detach(), gy, expected)


@fixture
def moe_top2():
    return moe_case("moe_top2", k=2)


@fixture
def moe_top1():
    # renormalised, one weight is always 1: the router learns nothing from the output
    return moe_case("moe_top1", k=1)


@fixture
def moe_top1_switch():
    # Switch: the probability as it is, and a capacity that drops slots
    return moe_case("moe_top1_switch", k=1, norm=False, factor=1.0)


@fixture
def moe_top2_capacity():
    return moe_case("moe_top2_capacity", k=2, factor=0.75)


@fixture
def moe_top2_float32():
    return moe_case("moe_top2_float32", k=2, dtype=ref.F32)


if __name__ == "__main__":
    sys.exit(ref.main(fixtures=FIXTURES, description=__doc__.splitlines()[0]))
