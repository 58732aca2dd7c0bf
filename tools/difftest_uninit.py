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
    def neutral(w, g):
        return (g, g) if _grown(w, g) else None
    return agree_once(want, got, neutral)


def _grown(w, g) -> bool:
    """Two descriptions of one tensor (or tuple of them) whose elements in C order agree up to some
    point and are all zeros in agrad from there on."""
    import numpy as np

    if w["kind"] == "seq" and g["kind"] == "seq" and len(w["items"]) == len(g["items"]):
        # (a tuple holding the tensor, autograd.grad's result: each item the same, or grown as below)
        return all(_same(wi, gi) or _grown(wi, gi) for wi, gi in zip(w["items"], g["items"]))
    if w["kind"] != "tensor" or g["kind"] != "tensor" or w["dtype"] != g["dtype"] or w["shape"] != g["shape"]:
        return False
    if isinstance(w["data"], str) or isinstance(g["data"], str):
        return False
    a, b = np.asarray(w["data"]).reshape(-1), np.asarray(g["data"]).reshape(-1)
    if a.shape != b.shape:
        return False
    differ = np.flatnonzero(~((a == b) | (a != a) & (b != b)))
    return bool(differ.size) and not (b[differ[0]:] != 0).any()


#: a call's ``out=`` argument: one name or a tuple of names
_OUT_ARG = re.compile(r"\bout\s*=\s*(\w+|\(\s*\w+(?:\s*,\s*\w+)*\s*,?\s*\))")


def out_grown_only(stmt: str, want: dict, got: dict, agree_once) -> bool:
    """``out-uninitialised``: a statement whose call resizes its ``out=`` tensor past its storage (ATen's
    resize_output grows the storage as ``resize_`` does: the new elements are whatever memory held),
    whether the call then succeeds or raises (an ``out`` resized before the kernel refuses a dtype). True
    when every variable that differs is one of the ``out=`` names, or the name the statement assigns
    (the call returns ``out``), and is grown as ``grown_only``'s are."""
    last = stmt.strip().splitlines()[-1]
    found = _OUT_ARG.search(last)
    if not found:
        return False
    names = set(re.findall(r"\w+", found.group(1)))
    assigned = re.match(r"^\s*(\w+)\s*=(?!=)", last)
    if assigned:
        names.add(assigned.group(1))
    mine = [want["vars"][n] for n in names if n in want["vars"]]

    def neutral(w, g):
        if not any(w is m for m in mine):
            return None
        return (g, g) if _grown(w, g) else None
    return agree_once(want, got, neutral)


#: ``[T =] V.resize_(...)`` / ``V.resize_as_(...)`` with V a name
_RESIZE_OF = re.compile(r"^\s*(?:(\w+)\s*=\s*)?(\w+)\.resize_(?:as_)?\(")


def view_growth(lines, i, want, got, compare_desc, agree_once) -> bool:
    """``resize-view-growth``: statement ``i`` writes through some alias of a base whose view an earlier
    ``resize_``/``resize_as_`` grew past the storage's end. PyTorch grows the shared storage itself, so
    the write shows through the resized view; agrad gives that view a new buffer (docs/semantics.md,
    "In place and views"). True when the differing variables are only names of such a view, statement
    ``i`` names none of them, agrad's values of them are what they were right after the resize, and
    everything else agrees; the growth is checked by replaying PyTorch's program (the view's storage
    had a base and grew)."""
    import warnings

    import torch

    stmt = lines[i]
    differing = {k for k, w in want[i]["vars"].items()
                 if k in got[i]["vars"] and compare_desc(w, got[i]["vars"][k], k) is not None}
    if not differing:
        return False
    grown = {}  # statement index -> the names of its resized view
    ns = {"torch": torch, "F": torch.nn.functional}
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for j, line in enumerate(lines[:i]):
            found = _RESIZE_OF.match(line.strip())
            before = None
            if found:
                v = ns.get(found.group(2))
                if isinstance(v, torch.Tensor) and v._base is not None:
                    before = v.untyped_storage().nbytes()
            try:
                exec(line, ns)
            except Exception:  # noqa: BLE001 - as in the tester's run
                continue
            if before is not None and ns[found.group(2)].untyped_storage().nbytes() > before:
                grown[j] = {n for n in found.groups() if n}
    for j, names in grown.items():
        if not differing <= names or any(re.search(rf"\b{n}\b", stmt) for n in names):
            continue
        if not all(k in got[j]["vars"] and compare_desc(got[j]["vars"][k], got[i]["vars"][k], k) is None
                   for k in differing):
            continue

        def neutral(w, g):
            if w["kind"] != "tensor" or g["kind"] != "tensor" or w["dtype"] != g["dtype"] or w["shape"] != g["shape"]:
                return None
            return w, dict(g, data=w["data"], repr=w["repr"])
        if agree_once(want[i], got[i], neutral):
            return True
    return False


#: the losses whose reduced (0-d) result ATen's structured kernel allocates at the broadcast shape (the meta
#: function's build_borrowing_binary_op, uninitialised), then resize_({}): only element 0 is written
REDUCED_LOSS_OPS = {"mse_loss", "smooth_l1_loss"}
_STORAGE_OF = re.compile(r"^\s*(\w+)\s*=\s*(\w+)\.untyped_storage\(\)\s*$")
_ITEMSIZE = {"torch.float16": 2, "torch.float32": 4, "torch.float64": 8}


def loss_storage_only(lines: list[str], want: list[dict], i: int, got: dict) -> bool:
    """``s = r.untyped_storage()`` of a reduced loss ``r`` (mse_loss, smooth_l1_loss, 0-d in PyTorch's state)
    whose storage bytes agree in number and in the first element's and differ only past it (PyTorch's are
    whatever malloc's chunk held: uninitialised), every other variable alike."""
    found = _STORAGE_OF.match(lines[i].strip().splitlines()[-1])
    if not found:
        return False
    name, source = found.groups()
    from difftest_compare import compare_desc, op_of
    made = [j for j in range(i) if re.match(rf"^\s*{source}\s*=", lines[j])]
    if not made or op_of(lines[made[-1]]) not in REDUCED_LOSS_OPS:
        return False
    w_vars, g_vars = want[i]["vars"], got["vars"]
    tensor = w_vars.get(source)
    if not tensor or tensor.get("kind") != "tensor" or tensor["shape"] != [] or tensor["dtype"] not in _ITEMSIZE:
        return False
    if set(w_vars) != set(g_vars) or any(compare_desc(w_vars[k], g_vars[k], k) is not None for k in w_vars if k != name):
        return False
    w, g = w_vars.get(name), g_vars.get(name)
    if not w or not g or w.get("kind") != "other" or g.get("kind") != "other":
        return False
    wl, gl = w["repr"].splitlines(), g["repr"].splitlines()
    n = _ITEMSIZE[tensor["dtype"]]
    return len(wl) == len(gl) > n + 1 and wl[-1] == gl[-1] and "UntypedStorage" in wl[-1] and wl[:n] == gl[:n]
