"""The differential tester's rule ``size1-stride0`` (tools/difftest.py, docs/semantics.md): a dim of
one element that PyTorch strides 0 (a slice of an expanded dim) has another stride in agrad, and
TensorIterator's sort of a later result's dims reads it."""

from __future__ import annotations

import re

import difftest_watch


_SETITEM_OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
                    "single memory location. Please clone() the tensor before performing the operation.")


_INTERNAL_OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a single "
                     "memory location. Please clone() the tensor before performing the operation.")


def setitem_refused_for_stride0(lines: list[str], i: int, got: dict) -> bool:
    """A write ``t[...] = v`` that agrad alone refuses with copy_'s overlap error (or its internal-overlap
    error: ``v[..., 0] = b`` of ``v = b.expand(2, 1, 2)``), where PyTorch's copy_ returns early for the
    very same elements laid out alike: an operand has a dim of one element that PyTorch strides 0 (a
    sum's gradient, a 0-d tensor expanded, a new dim of expand), which agrad reads as unsqueeze's."""
    error = got.get("error")
    return error is not None and error[1] in (_SETITEM_OVERLAP, _INTERNAL_OVERLAP) and operand_of_size1_stride0(
        lines, i, one_d=True)


def setitem_refused_by_torch_for_stride0(lines: list[str], i: int, want: dict) -> bool:
    """The converse: PyTorch alone refuses a write with copy_'s overlap error, the same bytes with other
    strides, where the other stride is PyTorch's 0 of a dim of one element (``v[:, :] = b[:1]`` of
    ``v = b.expand(2, 1)[:1]``), which agrad reads as unsqueeze's: the very same elements for agrad."""
    error = want.get("error")
    return error is not None and error[1] == _SETITEM_OVERLAP and operand_of_size1_stride0(lines, i, one_d=True)


def operand_of_size1_stride0(lines: list[str], i: int, expanded: bool = False, one_d: bool = False) -> bool:
    """True when, after the statements before ``i`` run again under PyTorch, a tensor that
    statement ``i`` names has a dim of one element with stride 0 (next to other dims: a 1-d
    tensor's stride decides nothing), which agrad's numpy array cannot tell from ``unsqueeze``'s;
    with ``expanded``, a dim of stride 0 of any size (kron's views of it add dims of one element,
    which c10's computeStride strides 0 beside it); with ``one_d``, 1-d tensors count too."""
    import torch

    ns = difftest_watch.replay(lines, i - 1)  # the statements before i
    for name in set(re.findall(r"\b[A-Za-z_]\w*\b", lines[i])):
        t = ns.get(name)
        if isinstance(t, torch.Tensor) and (t.dim() > 1 or one_d and t.dim() == 1) and t.layout == torch.strided \
                and any((n == 1 or expanded) and s == 0 for n, s in zip(t.shape, t.stride())):
            return True
    return False
