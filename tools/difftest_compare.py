"""The differential tester's comparisons: one statement's observations under PyTorch and agrad.

What counts as the same (tools/difftest.py's docstring): float rounding within 2 ulp elementwise, else
1e-6 relative to the tensor's largest magnitude in float32 (1e-14 float64, 1e-3 float16); ``numeric`` for
larger float differences up to 1e-3 relative; everything else (dtype, shape, layout, repr, graph, grads,
errors, warnings) exactly, and which variables are one and the same tensor object (``same_as``: an out=
call returns its out tensor, an in-place method its input).
"""

from __future__ import annotations

import re

import numpy as np

#: Warnings PyTorch gives once per process (TORCH_WARN_ONCE): agrad may repeat them.
TORCH_WARNED: set[str] = set()
#: ... and those of them a generator run may have used up before the tester saw them.
WARN_ONCE_PREFIXES = (
    "Using backward() with create_graph=True will create a reference cycle",
    "The use of `x.T` on tensors of dimension other than 2",
    "The reduce argument of torch.scatter with Tensor src is deprecated",
    "The use of `x.mT` on tensors of dimension",
    "Using torch.cross without specifying the dim arg is deprecated",
    "torch.qr is deprecated in favor of torch.linalg.qr",
    "adjoint() is deprecated on 0-D tensors",
    "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument",
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky",
    "torch.chain_matmul is deprecated and will be removed in a future PyTorch release",
    "torch.lu is deprecated in favor of torch.linalg.lu_factor", "torch.lu_solve is deprecated in favor of",
    "torch.triangular_solve is deprecated in favor of", "at::nuclear_norm is deprecated", "at::frobenius_norm is deprecated",
    "index_reduce() is in beta and the API may change at any time.",
    "torch.asarray: unspecified requires_grad now defaults to obj.requires_grad",
    "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy",
    "Mismatch dtype between input and weight: ",  # (rms_norm: layer_norm.cpp's TORCH_WARN_ONCE)
)
STRICT = {"float16": (1e-3, 2), "bfloat16": (1e-2, 2), "float32": (1e-6, 2), "float64": (1e-14, 2)}


def compare_data(want: np.ndarray, got: np.ndarray, dtype: str) -> str | None:
    """None when equal up to rounding; 'numeric' for small float differences; else 'value'."""
    if want.shape != got.shape:
        return "shape"
    if want.dtype.kind != "f":
        return None if np.array_equal(want, got) else "value"
    w = want.astype(np.float64)
    g = got.astype(np.float64)
    if not np.array_equal(np.isnan(w), np.isnan(g)):
        return "value"
    finite = np.isfinite(w) & np.isfinite(g)
    if not np.array_equal(w[~finite & ~np.isnan(w)], g[~finite & ~np.isnan(g)]) or \
            not np.array_equal(np.isfinite(w), np.isfinite(g)):
        return "value"
    if not finite.any():
        return None
    w, g = w[finite], g[finite]
    rel, ulps = STRICT.get(dtype.replace("torch.", ""), (1e-6, 2))
    scale = np.abs(w).max()
    spacing = np.spacing(np.abs(w).astype(want.dtype)).astype(np.float64)
    diff = np.abs(w - g)
    if np.all((diff <= ulps * spacing) | (diff <= rel * scale)):
        return None
    if np.all(diff <= 1e-3 * np.maximum(scale, 1e-6)):
        return "numeric"
    return "value"


def compare_desc(want, got, path: str) -> tuple[str, str] | None:
    if want["kind"] != got["kind"]:
        return "type", f"{path}: {want['kind']} vs {got['kind']}"
    kind = want["kind"]
    if kind == "tensor":
        for key in ("dtype", "shape"):
            if want[key] != got[key]:
                return key, f"{path}.{key}: {want[key]} vs {got[key]}"
        wd, gd = want["data"], got["data"]
        if isinstance(wd, str) or isinstance(gd, str):
            if str(wd) != str(gd):
                return "numpy", f"{path}.numpy(): {wd} vs {gd}"
        else:
            verdict = compare_data(wd, gd, want["dtype"])
            if verdict:
                return verdict, f"{path}: {wd.tolist()} vs {gd.tolist()}"
        for key in ("requires_grad", "is_leaf"):
            if want[key] != got[key]:
                return key, f"{path}.{key}: {want[key]} vs {got[key]}"
        if want["graph"] != got["graph"]:
            return "grad_fn", f"{path}.grad_fn: {want['graph']} vs {got['graph']}"
        if "grad" in want or "grad" in got:
            wg, gg = want.get("grad"), got.get("grad")
            if (wg is None) != (gg is None):
                return "grad", f"{path}.grad: {wg and wg['data'].tolist()} vs {gg and gg['data'].tolist()}"
            if wg is not None:
                found = compare_desc(wg, gg, path + ".grad")
                if found:
                    return ("grad-" + found[0] if not found[0].startswith("grad") else found[0]), found[1]
        if want.get("same_as") != got.get("same_as"):  # (out=: the result is the out tensor itself)
            return "identity", f"{path} is {want.get('same_as')} vs {got.get('same_as')}"
        if not isinstance(wd, str) and wd.dtype.kind == "f" and not np.array_equal(wd, gd, equal_nan=True):
            return None  # values differ by rounding: the printed digits may too
        if want["repr"] != got["repr"]:
            return "repr", f"{path}: {want['repr']!r} vs {got['repr']!r}"
        if want.get("stride") != got.get("stride"):
            return "stride", f"{path}.stride(): {want['stride']} vs {got['stride']} (shape {want['shape']})"
        return None
    if kind == "seq":
        if want["type"] != got["type"] or len(want["items"]) != len(got["items"]):
            return "type", f"{path}: {want['type']}[{len(want['items'])}] vs {got['type']}[{len(got['items'])}]"
        for i, (w, g) in enumerate(zip(want["items"], got["items"])):
            found = compare_desc(w, g, f"{path}[{i}]")
            if found:
                return found
        if want["repr"] != got["repr"] and _exact_items(want) and _exact_items(got):
            same = all(_bitwise(w, g) for w, g in zip(want["items"], got["items"]))
            if same:
                return "repr", f"{path}: {want['repr']!r} vs {got['repr']!r}"
        return None
    if kind == "py":
        if want["type"] != got["type"]:
            return "type", f"{path}: {want['type']} vs {got['type']}"
        if want["value"] != got["value"]:
            if want["type"] == "float" and isinstance(got["value"], float) and isinstance(want["value"], float) \
                    and abs(want["value"] - got["value"]) <= 1e-6 * max(abs(want["value"]), 1e-30):
                return None
            return "value", f"{path}: {want['value']!r} vs {got['value']!r}"
        return None
    if kind == "other" and want["repr"] != got["repr"]:
        return "repr", f"{path}: {want['repr']!r} vs {got['repr']!r}"
    return None


def _exact_items(d) -> bool:
    return all(i["kind"] in ("tensor", "py") for i in d["items"])


def _bitwise(w, g) -> bool:
    if w["kind"] == "tensor":
        return isinstance(w["data"], np.ndarray) and isinstance(g["data"], np.ndarray) and \
            np.array_equal(w["data"], g["data"], equal_nan=w["data"].dtype.kind == "f")
    return w == g


def compare_statement(want: dict, got: dict) -> tuple[str, str] | None:
    we, ge = want["error"], got["error"]
    if we != ge:
        if we is None:
            return "raises-only-agrad", f"agrad {ge[0]}: {ge[1]}"
        if ge is None:
            return "raises-only-torch", f"torch {we[0]}: {we[1]}"
        if we[0] != ge[0]:
            return "error-type", f"torch {we[0]}: {we[1]}\nagrad {ge[0]}: {ge[1]}"
        return "error-text", f"torch: {we[1]}\nagrad: {ge[1]}"
    # agrad gives these once per process too, and may have used them up in another program than torch
    ww = [w for w in want["warnings"] if w in got["warnings"] or not w[1].startswith(WARN_ONCE_PREFIXES)]
    gw = [w for w in got["warnings"]
          if w in ww or not (w[1] in TORCH_WARNED or w[1].startswith(WARN_ONCE_PREFIXES))]
    if sorted(ww) != sorted(gw):
        return "warning", f"torch {ww}\nagrad {got['warnings']}"
    names = set(want["vars"]) | set(got["vars"])
    for name in sorted(names):
        if name not in want["vars"] or name not in got["vars"]:
            return "binding", f"{name} bound in only one"
        found = compare_desc(want["vars"][name], got["vars"][name], name)
        if found:
            return found
    return None


_OP = re.compile(r"(?:torch\.linalg\.|torch\.autograd\.|torch\.|F\.|\.)([A-Za-z_]\w*)\(")
_OPERATOR = re.compile(r"^\w+ (\S+)= |^\w+ = \S+ (\S+) |^\w+ = ([-~+])")


def op_of(stmt: str) -> str:
    last = stmt.strip().splitlines()[-1]
    if "] = " in last and re.match(r"^\w+\[", last):
        return "setitem"
    calls = [c for c in _OP.findall(last) if c not in ("tensor", "zeros", "requires_grad_", "clamp", "sum")]
    if calls:
        return calls[0]
    m = _OPERATOR.match(last)
    if m:
        return next(g for g in m.groups() if g)
    found = _OP.findall(last)
    return found[0] if found else "?"
