"""The differential tester's rules ``uninitialised`` and ``resize-uninitialised`` (tools/difftest.py,
docs/semantics.md):
``x.new(2, 3)`` (the legacy constructor given sizes) returns uninitialised memory in PyTorch,
as ``torch.empty`` does, and zeros in agrad. The generator never draws the sizes form (it draws
``x.new([v])``, data); the rule keeps earlier reproducers of it from counting as a difference."""

from __future__ import annotations

import re

#: the statements whose grown tensors hold uninitialised elements in PyTorch: a later statement that
#: differs only by reading them is covered when PyTorch's replay with agrad's values of those tensors
#: (zeros there) gives agrad's result (difftest_lapack.explained)
RESIZE_OPS = {"resize", "resize_as"}  # (difftest_lapack._base: in-place names without the underscore)

#: ``r = <tensor expression>.new(<int>, <int>, ...)``: the sizes form of the legacy constructor
_NEW_SIZES = re.compile(r"^\s*(\w+)\s*=\s*\S.*\.new\(\s*-?\d+(?:\s*,\s*-?\d+)*\s*,?\s*\)\s*$")


def uninitialised_only(stmt: str, want: dict, got: dict, agree_once) -> bool:
    """True when ``stmt`` assigns ``x.new(sizes)`` and the one variable that differs is the tensor
    it assigns, of one dtype and shape on both sides (its values: whatever memory held in PyTorch;
    difftest's ``_agree_once`` passed in)."""
    found = _NEW_SIZES.match(stmt.strip().splitlines()[-1])
    mine = want["vars"].get(found.group(1)) if found else None
    if not mine or mine["kind"] != "tensor":
        return False

    def neutral(w, g):
        if w is not mine or g["kind"] != "tensor" or g["dtype"] != w["dtype"] or g["shape"] != w["shape"]:
            return None
        return w, w
    return agree_once(want, got, neutral)


def _same(w, g) -> bool:
    """Two descriptions alike (a tensor's values compared as arrays, NaN equal to NaN)."""
    import numpy as np
    if w.keys() != g.keys():
        return False
    for k in w:
        a, b = w[k], g[k]
        if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
            if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape
                    and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")):
                return False
        elif isinstance(a, dict) and isinstance(b, dict):
            if not _same(a, b):
                return False
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b) or not all(_same(x, y) if isinstance(x, dict) and isinstance(y, dict) else x == y
                                           for x, y in zip(a, b)):
                return False
        elif a != b:
            return False
    return True


def grown_only(want: dict, got: dict, agree_once) -> bool:
    """A ``resize_``/``resize_as_`` statement that grew its tensor past its storage: PyTorch's new
    elements are whatever memory held, agrad's zeros. True when every variable that differs is a
    tensor of one dtype and shape on both sides whose elements (in C order) agree up to some point
    and are all zeros in agrad from there on (the old storage's elements, then the new ones); a tuple
    (``gs = torch.autograd.grad(...)``, then ``gs[0].resize_as_(t)``) when its items are."""
    import numpy as np

    def grown(w, g):
        if w["kind"] == "seq" and g["kind"] == "seq" and len(w["items"]) == len(g["items"]):
            # (a tuple holding the tensor, autograd.grad's result: each item the same, or grown as below)
            return all(_same(wi, gi) or grown(wi, gi) for wi, gi in zip(w["items"], g["items"]))
        if w["kind"] != "tensor" or g["kind"] != "tensor" or w["dtype"] != g["dtype"] or w["shape"] != g["shape"]:
            return False
        if isinstance(w["data"], str) or isinstance(g["data"], str):
            return False
        a, b = np.asarray(w["data"]).reshape(-1), np.asarray(g["data"]).reshape(-1)
        if a.shape != b.shape:
            return False
        differ = np.flatnonzero(~((a == b) | (a != a) & (b != b)))
        return bool(differ.size) and not (b[differ[0]:] != 0).any()

    def neutral(w, g):
        return (g, g) if grown(w, g) else None
    return agree_once(want, got, neutral)
