"""The differential tester's rule ``empty-layout`` (tools/difftest.py, docs/semantics.md, "In place and
views"): an empty tensor's strides are contiguous in agrad, not PyTorch's (an ``expand`` or a
``permute`` of one keeps its own), so what reads them (``stride``, ``dim_order``, ``is_contiguous``)
may differ there; the tester compares no layout of an empty tensor either."""

from __future__ import annotations

import difftest_watch

#: the Tensor methods that read the strides
LAYOUT_OPS = {"stride", "dim_order", "is_contiguous"}


def of_empty(lines: list[str], i: int) -> bool:
    """True when statement ``i``, run again under PyTorch after the ones before it, calls a
    LAYOUT_OPS method, every such call on a tensor of no elements."""
    import torch

    seen = []
    saved = [(name, getattr(torch.Tensor, name)) for name in LAYOUT_OPS]

    def watch(fn):
        def call(self, *args, **kwargs):
            seen.append(isinstance(self, torch.Tensor) and self.numel() == 0)
            return fn(self, *args, **kwargs)
        return call

    difftest_watch.replay(lines, i, [(torch.Tensor, name, watch(fn)) for name, fn in saved])
    return bool(seen) and all(seen)


def only_statement_differs(stmt: str, want: dict, got: dict, compare_desc) -> bool:
    """True when every variable but the one the statement assigns agrees (its value, or its error
    and a missing target, may differ)."""
    import re

    found = re.match(r"^\s*(\w+)\s*=(?!=)", stmt.strip().splitlines()[-1])
    target = found.group(1) if found else None
    names = set(want["vars"]) - {target}
    if names != set(got["vars"]) - {target}:
        return False
    return all(compare_desc(want["vars"][k], got["vars"][k], k) is None for k in names)
