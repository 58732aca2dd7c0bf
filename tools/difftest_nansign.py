"""The differential tester's rule ``nan-sign`` (tools/difftest.py, docs/semantics.md, "Left as they
are"): which operand's NaN (and so which sign) an op makes from NaN operands is the instruction's and
its operand order in PyTorch's compiled kernel; only ``signbit`` and ``copysign`` read it."""

from __future__ import annotations

import difftest_watch

#: the ops that read a sign bit, and the position of the operand whose sign they read
SIGN_READERS = {"signbit": 0, "copysign": 1, "copysign_": 1}


def nan_places(lines: list[str], i: int):
    """Boolean mask of the NaN elements of the operand whose sign statement ``i``'s signbit/copysign
    reads (broadcast to the result's shape), from the statement run again under PyTorch after the
    ones before it; None when there is not exactly one such call that returns."""
    import numpy as np
    import torch

    seen = []
    saved = [(owner, name, getattr(owner, name)) for owner in (torch, torch.Tensor) for name in SIGN_READERS
             if hasattr(owner, name)]

    def watch(fn, name):
        def call(*args, **kwargs):
            out = fn(*args, **kwargs)
            pos = SIGN_READERS[name]
            operand = args[pos] if len(args) > pos else kwargs.get("other" if pos else "input")
            if isinstance(out, torch.Tensor):
                x = operand.detach().numpy() if isinstance(operand, torch.Tensor) else np.asarray(operand, float)
                mask = np.isnan(x) if x.dtype.kind == "f" else np.zeros(x.shape, bool)
                seen.append(np.broadcast_to(mask, tuple(out.shape)) if mask.ndim <= out.dim() else None)
            return out
        return call

    difftest_watch.replay(lines, i, [(owner, name, watch(fn, name)) for owner, name, fn in saved])
    return seen[0] if len(seen) == 1 else None


def only_nan_signs_differ(lines: list[str], i: int, want: dict, got: dict, agree_once) -> bool:
    """True when the one variable that differs is the tensor statement ``i`` assigns, and only where
    the operand whose sign it reads is NaN (:func:`nan_places`)."""
    if difftest_watch.assigned_tensor(lines[i], want) is None:  # (before the replay: cheap)
        return False
    return difftest_watch.only_places_differ(lines[i], nan_places(lines, i), want, got, agree_once)
