#!/usr/bin/python3
"""Generate PyTorch reference fixtures for the training objective's engine ops.

The fixtures of ``cross_entropy`` (torch.nn.functional.cross_entropy with
ignore_index and reduction, and the perplexity of its mean) and
``tied_lm_head`` (one nn.Embedding weight used again as the bias-free LM head,
as GPT-2 ties them), in the format of scripts/torch_reference.py, whose
helpers it uses (tests/fixtures/README.md describes the format).

Usage (Debian's python3-torch lives under the system interpreter)::

    /usr/bin/python3 scripts/torch_reference_loss.py [--out tests/fixtures]
"""

import math
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

import torch_reference as ref

FIXTURES = []


def fixture(func):
    FIXTURES.append(func)
    return func


# ---------------------------------------------------------------------------
# Cross-entropy
# ---------------------------------------------------------------------------

ROWS, CLASSES = 6, 7  # six positions' next-token logits over a seven-token vocabulary


def cross_entropy_case(name, reduction, targets, ignore_index=-100, dtype=ref.F64):
    ref.seed_for(name)
    logits = (torch.randn(ROWS, CLASSES, dtype=dtype) * 1.5).requires_grad_(True)
    target = torch.tensor(targets, dtype=torch.long)
    loss = F.cross_entropy(logits, target, ignore_index=ignore_index, reduction=reduction)
    grad = torch.randn_like(loss) if reduction == "none" else torch.tensor(1.0, dtype=dtype)
    if reduction != "none":
        grad = grad + 0.5  # not 1, so a gradient that ignores it is caught
    loss.backward(grad)
    counted = target != ignore_index
    with torch.no_grad():
        each = F.cross_entropy(logits, target, ignore_index=ignore_index, reduction="none")
        mean_nll = each[counted].sum() / counted.sum()
    config = {"ignore_index": ignore_index, "reduction": reduction}
    data = ref.make(name, "", "cross_entropy", dtype, config, {}, logits.detach(), grad,
                    {"output": loss.tolist(), "perplexity": math.exp(mean_nll.item()),
                     "grads": {"input": logits.grad.tolist()}})
    data["spec"]["target"] = targets
    return data


@fixture
def cross_entropy_mean():
    data = cross_entropy_case("cross_entropy_mean", "mean", [3, 0, 6, -100, 2, -100])
    data["description"] = (
        "F.cross_entropy(logits 6x7, targets with two ignore_index=-100 rows, reduction='mean'), "
        "float64: the mean is over the 4 counted rows, not 6; upstream gradient 1.5")
    return data


@fixture
def cross_entropy_sum():
    data = cross_entropy_case("cross_entropy_sum", "sum", [1, 1, 5, 0, -100, 4])
    data["description"] = ("F.cross_entropy(reduction='sum'), float64, one ignored row; upstream "
                           "gradient 1.5")
    return data


@fixture
def cross_entropy_none():
    data = cross_entropy_case("cross_entropy_none", "none", [2, -100, 2, 6, 0, 3])
    data["description"] = ("F.cross_entropy(reduction='none'), float64: a loss a row, 0 at the "
                           "ignored one; a random upstream gradient a row")
    return data


@fixture
def cross_entropy_pad_id():
    data = cross_entropy_case("cross_entropy_pad_id", "mean", [4, 2, 0, 0, 5, 0],
                              ignore_index=0)
    data["description"] = ("F.cross_entropy(ignore_index=0): padding given as token id 0, left "
                           "out of the mean (3 of 6 rows counted), float64")
    return data


@fixture
def cross_entropy_float32():
    data = cross_entropy_case("cross_entropy_float32", "mean", [0, 1, 2, 3, 4, 5], dtype=ref.F32)
    data["description"] = "F.cross_entropy(reduction='mean'), float32, every row counted"
    return data


# ---------------------------------------------------------------------------
# The tied LM head
# ---------------------------------------------------------------------------


class TiedLM(nn.Module):
    """An embedding and a bias-free LM head that share one weight, as GPT-2 ties them."""

    def __init__(self, vocab, dim, tied, dtype):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, dtype=dtype)
        self.head = nn.Linear(dim, vocab, bias=False, dtype=dtype)
        if tied:
            self.head.weight = self.embed.weight

    def forward(self, tokens):
        return self.head(self.embed(tokens))


@fixture
def tied_lm_head():
    name = "tied_lm_head"
    ref.seed_for(name)
    vocab, dim = 9, ref.E
    tokens = [3, 0, 8, 3, 5]  # token 3 repeats: its embedding gradient adds up
    w = ref.weight(vocab, dim)
    model = TiedLM(vocab, dim, True, ref.F64)
    with torch.no_grad():
        model.embed.weight.copy_(w)
    logits = model(torch.tensor(tokens))
    gy = torch.randn_like(logits)
    logits.backward(gy)
    # Each use apart: the same computation with two copies of the weight.
    untied = TiedLM(vocab, dim, False, ref.F64)
    with torch.no_grad():
        untied.embed.weight.copy_(w)
        untied.head.weight.copy_(w)
    untied(torch.tensor(tokens)).backward(gy)
    desc = (f"nn.Embedding({vocab}, {dim}) and nn.Linear({dim}, {vocab}, bias=False) sharing one "
            "weight (GPT-2's tying), logits = head(embed(tokens)), float64; the weight's "
            "gradient is the sum of the head's and the embedding's, each checked apart through "
            "an untied copy")
    return ref.make(name, desc, "tied_lm_head", ref.F64,
                    {"num_embeddings": vocab, "embedding_dim": dim}, {"weight": w}, tokens, gy,
                    {"output": logits.tolist(),
                     "grads": {"weight": model.embed.weight.grad.tolist()},
                     "weight_uses": {"head": untied.head.weight.grad.tolist(),
                                     "embedding": untied.embed.weight.grad.tolist()},
                     "parameters": {"tied": sum(p.numel() for p in model.parameters()),
                                    "untied": sum(p.numel() for p in untied.parameters())}})


if __name__ == "__main__":
    sys.exit(ref.main(fixtures=FIXTURES, description=__doc__.splitlines()[0]))
