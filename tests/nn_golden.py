"""Encoding and comparison of nn/optim/data golden results (tools/nn_cases.py)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[1]
GOLDEN_DIR = REPO_ROOT / "tests" / "golden" / "nn"

TOLERANCES = {"float32": (1e-5, 1e-6), "float64": (1e-10, 1e-12)}


def _num(x):
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    return x


def encode(value):
    """A JSON-ready form of a case result (tensors as {dtype, shape, data})."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return _num(value)
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if hasattr(value, "detach") and hasattr(value, "dtype"):
        arr = np.asarray(value.detach().tolist())
        dtype = str(value.dtype).replace("torch.", "")
        data = arr.tolist()
        if arr.dtype.kind == "f":
            data = _nested_num(data)
        return {"tensor": {"dtype": dtype, "shape": list(value.shape), "data": data}}
    raise TypeError(f"cannot encode {type(value).__name__}")


def _nested_num(x):
    if isinstance(x, list):
        return [_nested_num(v) for v in x]
    return _num(float(x))


def _decode_num(x):
    if isinstance(x, str):
        return float(x)
    return x


def compare(expected, got, path="", tol=None) -> list[str]:
    """Differences between a golden value and an encoded agrad value (``tol``:
    (rtol, atol) for float tensors, else TOLERANCES by dtype)."""
    if isinstance(expected, dict) and "tensor" in expected and len(expected) == 1:
        if not (isinstance(got, dict) and "tensor" in got):
            return [f"{path}: expected a tensor, got {got!r}"[:300]]
        e, g = expected["tensor"], got["tensor"]
        if e["dtype"] != g["dtype"] or e["shape"] != g["shape"]:
            return [f"{path}: dtype/shape {g['dtype']}{g['shape']} != {e['dtype']}{e['shape']}"]
        ea = np.array(_map(e["data"]), dtype=float)
        ga = np.array(_map(g["data"]), dtype=float)
        rtol, atol = tol or TOLERANCES.get(e["dtype"], (0, 0))
        if not np.allclose(ga, ea, rtol=rtol, atol=atol, equal_nan=True):
            return [f"{path}: values differ (max abs diff {np.nanmax(np.abs(ga - ea)):.3g})\n"
                    f"  expected {e['data']}\n  got      {g['data']}"[:2000]]
        return []
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return [f"{path}: expected a dict, got {got!r}"[:300]]
        out = []
        for k in expected.keys() | got.keys():
            if k not in got:
                out.append(f"{path}.{k}: missing")
            elif k not in expected:
                out.append(f"{path}.{k}: unexpected")
            else:
                out += compare(expected[k], got[k], f"{path}.{k}", tol)
        return out
    if isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            return [f"{path}: expected {expected!r}, got {got!r}"[:2000]]
        out = []
        for i, (e, g) in enumerate(zip(expected, got)):
            out += compare(e, g, f"{path}[{i}]", tol)
        return out
    if isinstance(expected, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        if not math.isclose(expected, got, rel_tol=1e-5, abs_tol=1e-7):
            return [f"{path}: {got!r} != {expected!r}"]
        return []
    if expected != got or type(expected) is not type(got):
        return [f"{path}: got {got!r}\n  expected {expected!r}"[:2000]]
    return []


def _map(x):
    if isinstance(x, list):
        return [_map(v) for v in x]
    return _decode_num(x)
