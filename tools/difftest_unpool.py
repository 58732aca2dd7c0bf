"""The differential tester's rule ``unpool-shared-places`` (tools/difftest.py, docs/semantics.md,
"Left as they are"): PyTorch's CPU max_unpool writes its input in parallel ranges, one per thread,
so where two or more in-range indices of a plane name the same output place, which value stays
there depends on the threads' timing (the same program gives 0.25 in one run, 0.5 in the next)."""

from __future__ import annotations

import re

import difftest_watch

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

    difftest_watch.replay(lines, i, [(F, name, watch(fn, int(name[-2]))) for name, fn in saved.items()])
    return seen[0] if len(seen) == 1 else None


def only_shared_places_differ(lines: list[str], i: int, want: dict, got: dict, agree_once) -> bool:
    """True when the one variable that differs is the tensor statement ``i`` assigns, and only in
    places that two or more in-range indices write (:func:`shared_places`)."""
    if difftest_watch.assigned_tensor(lines[i], want) is None:  # (before the replay: cheap)
        return False
    return difftest_watch.only_places_differ(lines[i], shared_places(lines, i), want, got, agree_once)


_BAD_INDEX = re.compile(r"Found an invalid max index: -?\d+ (\(output volumes are of size [\dx]+\)?)$")


def other_bad_index(want: dict, got: dict) -> bool:
    """True when PyTorch and agrad both refuse a max_unpool call for an out-of-range index of the same
    output size, naming different ones (rule ``unpool-bad-index``): each of PyTorch's threads keeps the
    last bad index of its range and they race to report it."""
    w, g = want.get("error"), got.get("error")
    if not w or not g or w[0] != "RuntimeError" or g[0] != "RuntimeError":
        return False
    mw, mg = _BAD_INDEX.match(w[1]), _BAD_INDEX.match(g[1])
    return bool(mw and mg and mw.group(1) == mg.group(1))
