"""What the differential tester's rules share when they look at PyTorch's own calls: a program run
again under PyTorch with one statement's calls watched (:func:`replay`), and a difference accepted
only at the places a rule names (:func:`only_places_differ`)."""

from __future__ import annotations

import re
import warnings


def replay(lines: list[str], upto: int, patches=(), every: bool = False) -> dict:
    """Run ``lines[:upto + 1]`` again under PyTorch as the tester does (seed 0, warnings silenced;
    a statement's error is ignored: only the watched calls matter), with ``patches`` -- (owner,
    name, replacement) triples -- in place while statement ``upto`` runs (``every``: while each
    statement runs); returns the namespace."""
    import torch

    ns = {"torch": torch, "F": torch.nn.functional}
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for j, stmt in enumerate(lines[:upto + 1]):
            now = j == upto or every
            saved = [(owner, name, getattr(owner, name)) for owner, name, _new in patches] if now else []
            for owner, name, new in (patches if now else ()):
                setattr(owner, name, new)
            try:
                exec(stmt, ns)
            except Exception:  # noqa: BLE001 - only the watched calls matter
                pass
            finally:
                for owner, name, fn in saved:
                    setattr(owner, name, fn)
    return ns


def assigned_tensor(stmt: str, want: dict):
    """PyTorch's observation of the tensor that ``stmt`` assigns, or None."""
    import numpy as np

    target = re.match(r"^\s*(\w+)\s*=", stmt.strip().splitlines()[-1])
    mine = want["vars"].get(target.group(1)) if target else None
    if not mine or mine["kind"] != "tensor" or not isinstance(mine["data"], np.ndarray):
        return None
    return mine


def only_places_differ(stmt: str, mask, want: dict, got: dict, agree_once) -> bool:
    """True when the one variable that differs is the tensor ``stmt`` assigns, and only where
    ``mask`` (its shape) is set (difftest's ``_agree_once`` passed in)."""
    import numpy as np

    mine = assigned_tensor(stmt, want)
    if mine is None or mask is None or not mask.any() or mask.shape != mine["data"].shape:
        return False

    def neutral(w, g):
        if w is not mine or g["kind"] != "tensor" or g["dtype"] != w["dtype"] or g["shape"] != w["shape"]:
            return None
        return w, dict(g, data=np.where(mask, w["data"], g["data"]), repr=w["repr"])
    return agree_once(want, got, neutral)
