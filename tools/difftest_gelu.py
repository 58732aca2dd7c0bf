"""The differential tester's rule ``gelu-onednn`` (tools/difftest.py, docs/semantics.md): PyTorch
hands the float32 gelu (exact erf) of a contiguous tensor of 2 or more elements to oneDNN, whose
erf is not PyTorch's own kernel's (which agrad reproduces); a value after it that PyTorch computes
from agrad's gelu result counts too (:func:`downstream`)."""

from __future__ import annotations

import difftest_watch

#: the statements' names of the op
GELU_OPS = {"gelu"}


def gelu_to_onednn(lines: list[str], i: int) -> bool:
    """True when statement ``i``, run again under PyTorch after the ones before it, calls
    ``F.gelu`` with the exact erf on a contiguous float32 tensor of 2 or more elements (the
    case PyTorch's CPU gelu gives to oneDNN)."""
    import torch
    import torch.nn.functional as F

    seen = []
    fn = F.gelu

    def watch(input, *args, **kwargs):
        approximate = args[0] if args else kwargs.get("approximate", "none")
        if isinstance(input, torch.Tensor):
            seen.append(approximate == "none" and input.dtype == torch.float32 and input.numel() >= 2
                        and input.is_contiguous())
        return fn(input, *args, **kwargs)

    difftest_watch.replay(lines, i, [(F, "gelu", watch)])
    return bool(seen) and all(seen)


def within_onednn_erf(stmt: str, want: dict, got: dict, agree_once) -> bool:
    """True when the one variable that differs is the float32 tensor the statement assigns (and the
    ``out=`` tensor it names, the same tensor), its elements within 1e-6 of each other (relative past
    1): oneDNN's erf (Abramowitz and Stegun's, 1.5e-7 absolute, or a minimax polynomial) times x / 2
    (difftest's ``_agree_once`` passed in)."""
    import re

    import numpy as np

    last = stmt.strip().splitlines()[-1]
    target = re.match(r"^\s*(\w+)\s*=", last)
    names = ([target.group(1)] if target else []) + re.findall(r"\bout=(\w+)", last)
    mine = [want["vars"][n] for n in names if n in want["vars"]]
    if not mine or any(m["kind"] != "tensor" or m["dtype"] != "torch.float32" for m in mine):
        return False

    def neutral(w, g):
        if not any(w is m for m in mine) or g["kind"] != "tensor" or g["dtype"] != w["dtype"] \
                or g["shape"] != w["shape"]:
            return None
        a, b = np.asarray(w["data"], np.float64), np.asarray(g["data"], np.float64)
        with np.errstate(invalid="ignore"):  # (an inf equals the same inf only)
            close = (a == b) | (np.isfinite(a - b) & (np.abs(a - b) <= 1e-6 * np.maximum(1.0, np.abs(a)))) \
                | (np.isnan(a) & np.isnan(b))
        return (w, w) if close.all() else None
    return agree_once(want, got, neutral)


def gelu_before_to_onednn(lines: list[str], i: int) -> bool:
    """True when a statement before ``i`` calls ``F.gelu`` as gelu_to_onednn says (its backward,
    ``gelu_backward`` of the same contiguous float32 input, goes to oneDNN too)."""
    return any("gelu" in lines[j] and gelu_to_onednn(lines, j) for j in range(i))


def within_onednn_grads(want: dict, got: dict, agree_once) -> bool:
    """True when the variables that differ are float32 tensors or their ``.grad``, within 1e-5
    of each other (relative past 1): oneDNN's gelu derivative (its erf and exp) passed on."""
    import numpy as np

    def close(w, g):
        if not (isinstance(w, dict) and isinstance(g, dict) and w.get("kind") == g.get("kind") == "tensor"
                and w["dtype"] == g["dtype"] == "torch.float32" and w["shape"] == g["shape"]):
            return False
        a, b = np.asarray(w["data"], np.float64), np.asarray(g["data"], np.float64)
        with np.errstate(invalid="ignore"):  # (an inf equals the same inf only)
            return bool(((a == b) | (np.isfinite(a - b) & (np.abs(a - b) <= 1e-5 * np.maximum(1.0, np.abs(a))))
                         | (np.isnan(a) & np.isnan(b))).all())

    def neutral(w, g):
        if w.get("kind") != "tensor" or g.get("kind") != "tensor":
            return None
        wg, gg = w.get("grad"), g.get("grad")
        if wg is not None and gg is not None and close(wg, gg):
            w, g = w, dict(g, grad=wg)
        if close(w, g):
            g = dict(g, data=w["data"], repr=w["repr"])
        return w, g
    return agree_once(want, got, neutral)


def downstream(lines: list[str], i: int, got_obs, want_i: dict, got_i: dict, op_of, compare_desc, agree_once) -> bool:
    """True when statement ``i`` (not a gelu) differs only in the value it assigns, a gelu before it
    went to oneDNN (:func:`gelu_before_to_onednn`), and PyTorch's program, given agrad's results of
    the gelu statements, computes agrad's value (difftest_lapack.explained's replay)."""
    import difftest_lapack

    return gelu_before_to_onednn(lines, i) and difftest_lapack.explained(
        lines, i, got_obs, want_i, got_i, op_of, GELU_OPS, compare_desc, agree_once)
