"""The differential tester's rules ``uninitialised`` and ``resize-uninitialised`` (tools/difftest.py,
docs/semantics.md):
``x.new(2, 3)`` (the legacy constructor given sizes) returns uninitialised memory in PyTorch,
as ``torch.empty`` does, and zeros in agrad. The generator never draws the sizes form (it draws
``x.new([v])``, data); the rule keeps earlier reproducers of it from counting as a difference."""

from __future__ import annotations

import re

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


def grown_only(want: dict, got: dict, agree_once) -> bool:
    """A ``resize_``/``resize_as_`` statement that grew its tensor past its storage: PyTorch's new
    elements are whatever memory held, agrad's zeros. True when every variable that differs is a
    tensor of one dtype and shape on both sides whose elements (in C order) agree up to some point
    and are all zeros in agrad from there on (the old storage's elements, then the new ones)."""
    import numpy as np

    def neutral(w, g):
        if w["kind"] != "tensor" or g["kind"] != "tensor" or w["dtype"] != g["dtype"] or w["shape"] != g["shape"]:
            return None
        if isinstance(w["data"], str) or isinstance(g["data"], str):
            return None
        a, b = np.asarray(w["data"]).reshape(-1), np.asarray(g["data"]).reshape(-1)
        if a.shape != b.shape:
            return None
        differ = np.flatnonzero(~((a == b) | (a != a) & (b != b)))
        if not differ.size or (b[differ[0]:] != 0).any():
            return None
        return g, g
    return agree_once(want, got, neutral)
