"""The differential tester's rule ``vml-storage-bytes`` (tools/difftest_rules.py, docs/semantics.md):
an ``untyped_storage()`` whose bytes an MKL VML op then rewrote in place (``torch.arctan_(v)``, a
view of the storage's tensor).  VML's last bit is not agrad's (``vml-downstream`` takes such values
within the tester's tolerance), but a storage's repr prints raw bytes, which no tolerance reads.
The rule decodes both byte strings as the dtype of the statement's tensors and lets them differ
only by a couple of units in the last place of that dtype, NaNs in the same places."""

from __future__ import annotations

import re

import numpy as np

from difftest_compare import compare_desc

_DTYPES = {"torch.float32": np.float32, "torch.float64": np.float64, "torch.float16": np.float16}
_NAME = re.compile(r"[A-Za-z_]\w*")
#: VML's results are within an ulp of the correctly rounded value; agrad's within half an ulp
MAX_ULPS = 2


def _is_storage(desc) -> bool:
    return desc.get("kind") == "other" and "torch.storage.UntypedStorage" in desc.get("repr", "")


def _bytes(desc) -> np.ndarray | None:
    lines = desc["repr"].splitlines()
    try:
        return np.array([int(s) for s in lines[:-1]], np.uint8)
    except ValueError:
        return None


def _dtype(stmt: str, want: dict):
    """The one float dtype of the tensors the statement names (None if none or several)."""
    found = {want["vars"][n]["dtype"] for n in _NAME.findall(stmt)
             if n in want["vars"] and want["vars"][n].get("kind") == "tensor"}
    dtypes = {_DTYPES[d] for d in found if d in _DTYPES}
    return dtypes.pop() if len(dtypes) == 1 and len(found) == 1 else None


def _close(a: np.ndarray, b: np.ndarray) -> bool:
    if a.shape != b.shape:
        return False
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if not np.array_equal(nan_a, nan_b):
        return False
    a, b = a[~nan_a], b[~nan_a]
    same = (a == b) & (np.signbit(a) == np.signbit(b))
    with np.errstate(all="ignore"):
        ulps = np.abs(a.astype(np.float64) - b.astype(np.float64)) / np.spacing(np.abs(a))
    return bool(np.all(same | (np.isfinite(a) & np.isfinite(b) & (ulps <= MAX_ULPS))))


def vml_bytes_only(stmt: str, want: dict, got: dict) -> bool:
    """Whether every variable that differs after ``stmt`` is a storage whose bytes, read as the
    statement's tensors' dtype, differ only in last places."""
    dtype = _dtype(stmt, want)
    if dtype is None:
        return False
    differing = [k for k, w in want["vars"].items() if k in got["vars"] and compare_desc(w, got["vars"][k], k)]
    if not differing:
        return False
    for k in differing:
        w, g = want["vars"][k], got["vars"][k]
        if not (_is_storage(w) and _is_storage(g)):
            return False
        a, b = _bytes(w), _bytes(g)
        if a is None or b is None or a.size != b.size or a.size % np.dtype(dtype).itemsize:
            return False
        if not _close(a.view(dtype), b.view(dtype)):
            return False
    return True
