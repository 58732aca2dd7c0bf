"""The differential tester's rule ``median-stride0`` (tools/difftest.py, docs/semantics.md):
PyTorch's median kernel reads a dim of stride 0 as if it were contiguous."""

from __future__ import annotations

import re

import difftest_watch


#: ops whose CPU kernel reads a dim of stride 0 as if it were contiguous
MEDIAN_OPS = {"median", "nanmedian"}


def median_of_stride0(lines: list[str], i: int) -> bool:
    """True when statement ``i``, run again under PyTorch after the ones before it, calls
    median/nanmedian along a dim of stride 0 and size > 1 (an expanded tensor): the kernel
    makes only strides > 1 contiguous and reads the memory after each element."""
    import torch

    seen = []

    def watch(fn):
        def call(self, *args, **kwargs):
            dim = args[0] if args else kwargs.get("dim")
            if isinstance(self, torch.Tensor) and isinstance(dim, int) and self.dim() > 0 \
                    and -self.dim() <= dim < self.dim():
                d = dim % self.dim()
                seen.append(self.stride(d) == 0 and self.size(d) > 1)
            return fn(self, *args, **kwargs)
        return call

    saved = [(owner, name, getattr(owner, name)) for owner in (torch, torch.Tensor) for name in MEDIAN_OPS]
    difftest_watch.replay(lines, i, [(owner, name, watch(fn)) for owner, name, fn in saved])
    return any(seen)


def only_target_differs(stmt: str, want: dict, got: dict, compare_desc, agree_once) -> bool:
    """True when the variable the statement assigns (and its ``out=`` tensors, which hold the same
    result) differs and no other one does (difftest's ``compare_desc`` and ``_agree_once`` passed in)."""
    last = stmt.strip().splitlines()[-1]
    target = re.match(r"^\s*(\w+)\s*=", last)
    if not target:
        return False
    outs = re.findall(r"\w+", " ".join(re.findall(r"\bout=(\([^)]*\)|\w+)", last)))
    mine = [want["vars"].get(name) for name in [target.group(1), *outs]]

    def neutral(w, g):
        found = compare_desc(w, g, "")
        return (w, w) if any(w is m for m in mine) and found and found[0] in ("value", "numeric", "repr") else None
    return agree_once(want, got, neutral)
