"""The differential tester's rule ``svd-null-space`` for an svd with ``out=(U, S, V)`` (session 43, alias43):
the out tensors are the results (the strip of :func:`difftest_rules._null_space_dropped` is applied to them
as to the returned triple), and a variable the statement does not name that differs only where it shares
memory with one of them (the base of an out view: ``o = b.view(...)[..., ::2].mT``) is compared with
those elements taken from the stripped out. Where the elements lie is PyTorch's: the program is replayed
under PyTorch up to and including the statement."""

from __future__ import annotations

import re
import warnings

import numpy as np

_OUT3 = re.compile(r"\bout\s*=\s*\(\s*([A-Za-z_]\w*)\s*,\s*([A-Za-z_]\w*)\s*,\s*([A-Za-z_]\w*)\s*,?\s*\)")


def _positions(t):
    """Each element's offset in its storage (in elements), in C order of ``t``'s indices."""
    at = np.full((), t.storage_offset(), np.int64)
    for n, s in zip(t.shape, t.stride()):
        at = np.add.outer(at, np.arange(n, dtype=np.int64) * s)
    return at


def _shared(lines, i, outs, others):
    """{name: [(out name, index into name's elements, index into the out's)]} for each of ``others`` that
    shares storage with an out, in PyTorch's state after statement ``i`` (replayed)."""
    import torch

    ns = {"torch": torch, "F": torch.nn.functional}
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for line in lines[:i + 1]:
            try:
                exec(line, ns)
            except Exception:  # noqa: BLE001 - as in the tester's run
                continue
    found = {}
    for k in others:
        t = ns.get(k)
        if not isinstance(t, torch.Tensor) or not t.numel():
            return None
        for o in outs:
            u = ns.get(o)
            if not isinstance(u, torch.Tensor) or u.dtype != t.dtype or not u.numel() \
                    or u.untyped_storage().data_ptr() != t.untyped_storage().data_ptr():
                continue
            mine, theirs = _positions(t).ravel(), _positions(u).ravel()
            where = {int(p): j for j, p in enumerate(theirs)}
            pick = [(a, where[int(p)]) for a, p in enumerate(mine) if int(p) in where]
            if pick:
                found.setdefault(k, []).append((o, np.array([a for a, _ in pick]), np.array([b for _, b in pick])))
        if k not in found:
            return None
    return found


def outs_null_space_dropped(lines, i, want, got, strip, compare_desc) -> bool:
    """True when statement ``i`` is an svd with ``out=`` three distinct names and every variable that differs
    agrees once ``strip`` (the svd-null-space strip of a (U, S, V) pair) is applied to the outs (and to the
    returned triple), and a variable the statement does not name to its elements that are an out's."""
    stmt = lines[i].strip().splitlines()[-1]
    found = _OUT3.search(stmt)
    wv, gv = want["vars"], got["vars"]
    if not found or len(set(found.groups())) != 3 or set(wv) != set(gv):
        return False
    outs = found.groups()
    if any(n not in wv or wv[n]["kind"] != "tensor" or gv[n]["kind"] != "tensor" for n in outs):
        return False
    kind = "torch.return_types.linalg_svd" if "linalg.svd" in stmt else "torch.return_types.svd"

    def triple(v):
        return {"kind": "seq", "type": kind, "items": [v[n] for n in outs], "repr": ""}
    pair = strip(triple(wv), triple(gv))
    if pair is None:
        return False
    stripped = {n: (pair[0]["items"][j], pair[1]["items"][j]) for j, n in enumerate(outs)}
    named = set(re.findall(r"\b[A-Za-z_]\w*\b", stmt))
    differing = [k for k in wv if compare_desc(wv[k], gv[k], k) is not None]
    others = [k for k in differing if k not in named]
    shared = _shared(lines, i, outs, others) if others else {}
    if shared is None:
        return False
    for k in differing:
        w, g = wv[k], gv[k]
        if k in stripped:
            w, g = stripped[k]
        elif k in shared:
            if w["kind"] != "tensor" or g["kind"] != "tensor" or not isinstance(w["data"], np.ndarray) \
                    or not isinstance(g["data"], np.ndarray) or w["data"].shape != g["data"].shape:
                return False
            w, g = dict(w, repr="", graph=None, grad=None), dict(g, repr="", graph=None, grad=None)
            for d, side in ((w, 0), (g, 1)):
                data = np.array(d["data"])
                for o, mine, theirs in shared[k]:
                    data.reshape(-1)[mine] = np.asarray(stripped[o][side]["data"]).reshape(-1)[theirs]
                d["data"] = data
        elif w["kind"] == "seq" and g["kind"] == "seq":
            pair = strip(w, g)
            if pair is None:
                return False
            w, g = pair
        else:
            return False
        if compare_desc(w, g, k) is not None:
            return False
    return bool(differing)
