"""The differential tester's rule ``nan-sign`` (tools/difftest.py, docs/semantics.md, "Left as they
are"): which operand's NaN (and so which sign) an op makes from NaN operands is the instruction's and
its operand order in PyTorch's compiled kernel; only ``signbit`` and ``copysign`` read it."""

from __future__ import annotations

import re
import warnings

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

    ns = {"torch": torch, "F": torch.nn.functional}
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for j, stmt in enumerate(lines[:i + 1]):
            if j == i:
                for owner, name, fn in saved:
                    setattr(owner, name, watch(fn, name))
            try:
                exec(stmt, ns)
            except Exception:  # noqa: BLE001 - only the call matters
                pass
            finally:
                if j == i:
                    for owner, name, fn in saved:
                        setattr(owner, name, fn)
    return seen[0] if len(seen) == 1 else None


def only_nan_signs_differ(lines: list[str], i: int, want: dict, got: dict, agree_once) -> bool:
    """True when the one variable that differs is the tensor statement ``i`` assigns, and only where
    the operand whose sign it reads is NaN (:func:`nan_places`)."""
    import numpy as np

    target = re.match(r"^\s*(\w+)\s*=", lines[i].strip().splitlines()[-1])
    mine = want["vars"].get(target.group(1)) if target else None
    if not mine or mine["kind"] != "tensor" or not isinstance(mine["data"], np.ndarray):
        return False
    mask = nan_places(lines, i)
    if mask is None or not mask.any() or mask.shape != mine["data"].shape:
        return False

    def neutral(w, g):
        if w is not mine or g["kind"] != "tensor" or g["dtype"] != w["dtype"] or g["shape"] != w["shape"]:
            return None
        return w, dict(g, data=np.where(mask, w["data"], g["data"]), repr=w["repr"])
    return agree_once(want, got, neutral)
