"""The differential tester's rule ``vml-sqrt-inside`` (tools/difftest.py, docs/semantics.md): ATen's
``cosine_embedding_loss`` takes ``sqrt_`` of the squared magnitudes' product, whose float32/float64
kernel is MKL VML's ``vsSqrt``/``vdSqrt`` (an ulp from the correctly rounded root in 16% / 1% of
values), and ``1 - cos`` near cos = 1 turns that ulp into a ``numeric`` difference of the loss.
The rule runs the statement again under PyTorch with ``torch.cosine_embedding_loss`` replaced by
ATen's composite written out step for step, only its root correctly rounded (what agrad computes),
and accepts the difference when that replay gives agrad's values bit for bit."""

from __future__ import annotations

import difftest_watch

#: the statements' names of the op
COSINE_OPS = {"cosine_embedding_loss"}
_EPSILON = 1e-12


def _rounded_root_loss(input1, input2, target, margin=0.0, reduction=1):
    """at::cosine_embedding_loss (aten/src/ATen/native/Loss.cpp) with a correctly rounded sqrt."""
    import numpy as np
    import torch

    tdim = target.dim()
    prod_sum = (input1 * input2).sum(tdim)
    mag_square1 = (input1 * input1).sum(tdim) + _EPSILON
    mag_square2 = (input2 * input2).sum(tdim) + _EPSILON
    square = (mag_square1 * mag_square2).detach()
    denom = torch.from_numpy(np.sqrt(square.numpy()))  # (IEEE's sqrt: correctly rounded in its dtype)
    cos = prod_sum / denom
    zeros = torch.zeros_like(cos)
    pos = 1 - cos
    neg = (cos - margin).clamp_min_(0)
    output = torch.where(target == 1, pos, zeros) + torch.where(target == -1, neg, zeros)
    return output if reduction == 0 else output.mean() if reduction == 1 else output.sum()


def rounded_root_explains(lines: list[str], i: int, stmt: str, want: dict, got: dict, agree_once) -> bool:
    """True when the one variable that differs is the float32/float64 tensor statement ``i`` assigns
    and PyTorch's replay with the correctly rounded root gives agrad's values for it exactly."""
    import numpy as np
    import torch

    mine = difftest_watch.assigned_tensor(stmt, want)
    if mine is None or mine["dtype"] not in ("torch.float32", "torch.float64"):
        return False
    seen = []

    # (torch.cosine_embedding_loss without a reduction reduces nothing: its schema's default "Mean"
    # is not an int to Python's argument parser, which takes 0, none)
    def watch(input1, input2, target, margin=0.0, reduction=0):
        seen.append(_rounded_root_loss(input1, input2, target, margin, reduction))
        return seen[-1]

    difftest_watch.replay(lines, i, [(torch, "cosine_embedding_loss", watch)])
    if len(seen) != 1:
        return False
    value = seen[0].detach().numpy()

    def neutral(w, g):
        if w is not mine or g["kind"] != "tensor" or g["dtype"] != w["dtype"] or g["shape"] != w["shape"]:
            return None
        data = np.asarray(g["data"])
        same = data.shape == value.shape and bool(((data == value) | (np.isnan(data) & np.isnan(value))).all())
        return (w, dict(g, data=w["data"], repr=w["repr"])) if same else None
    return agree_once(want, got, neutral)
