"""The differential tester's rule ``unpool-shared-places`` (tools/difftest.py, docs/semantics.md,
"Left as they are"): PyTorch's CPU max_unpool writes its input in parallel ranges, one per thread,
so where two or more in-range indices of a plane name the same output place, which value stays
there depends on the threads' timing (the same program gives 0.25 in one run, 0.5 in the next)."""

from __future__ import annotations

import re
import warnings

#: the statements' names of the op
UNPOOL_OPS = {"max_unpool1d", "max_unpool2d", "max_unpool3d"}


def shared_places(lines: list[str], i: int):
    """Boolean mask (the result's shape) of the output places that two or more in-range indices of
    the same plane write, from statement ``i`` run again under PyTorch after the ones before it;
    None when the statement makes no max_unpool call that returns."""
    import numpy as np
    import torch
    import torch.nn.functional as F

    seen = []
    saved = {name: getattr(F, name) for name in UNPOOL_OPS}

    def watch(fn, d):
        def call(input, indices, *args, **kwargs):
            out = fn(input, indices, *args, **kwargs)
            plane = int(np.prod(out.shape[-d:]))
            idx = indices.detach().reshape(-1, int(np.prod(indices.shape[-d:]))).numpy()
            mask = np.zeros((idx.shape[0], plane), bool)
            for p, row in enumerate(idx):
                counts = np.bincount(row[(row >= 0) & (row < plane)], minlength=plane)
                mask[p] = counts > 1
            seen.append(mask.reshape(out.shape))
            return out
        return call

    ns = {"torch": torch, "F": F}
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for j, stmt in enumerate(lines[:i + 1]):
            if j == i:
                for name, fn in saved.items():
                    setattr(F, name, watch(fn, int(name[-2])))
            try:
                exec(stmt, ns)
            except Exception:  # noqa: BLE001 - only the call matters
                pass
            finally:
                if j == i:
                    for name, fn in saved.items():
                        setattr(F, name, fn)
    return seen[0] if len(seen) == 1 else None


def only_shared_places_differ(lines: list[str], i: int, want: dict, got: dict, agree_once) -> bool:
    """True when the one variable that differs is the tensor statement ``i`` assigns, and only in
    places that two or more in-range indices write (:func:`shared_places`)."""
    import numpy as np

    target = re.match(r"^\s*(\w+)\s*=", lines[i].strip().splitlines()[-1])
    mine = want["vars"].get(target.group(1)) if target else None
    if not mine or mine["kind"] != "tensor" or not isinstance(mine["data"], np.ndarray):
        return False
    mask = shared_places(lines, i)
    if mask is None or not mask.any() or mask.shape != mine["data"].shape:
        return False

    def neutral(w, g):
        if w is not mine or g["kind"] != "tensor" or g["dtype"] != w["dtype"] or g["shape"] != w["shape"]:
            return None
        return w, dict(g, data=np.where(mask, w["data"], g["data"]), repr=w["repr"])
    return agree_once(want, got, neutral)
