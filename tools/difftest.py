"""Differential tester: random programs run under PyTorch and agrad, every observable compared.

Usage:
    python tools/difftest.py --n 20000 [--seed 0] [--examples] [--json FILE] [--chunk 500]
    python tools/difftest.py --replay FILE [--examples] [--json LEFT]   # an earlier run's groups, today

With ``--chunk``, programs run in child processes, so a crash inside PyTorch or a C
library (PyTorch 2.13 segfaults on a few generated hook programs) or a hang (a
watchdog ends a program after 300 s) skips that one program, which the summary
names, instead of ending the run: the child writes a line per program, and a new
child carries on from the program after the one that died.

Each program (tools/diffgen.py) runs statement by statement in both
libraries (one process: ``torch`` is PyTorch or agrad's Python API). After
every statement the tester records, for every live variable, the value
(dtype, shape, data), ``repr``, the layout (``stride()`` of the dims of more
than one element), ``requires_grad``/``is_leaf``, the whole
``grad_fn`` graph (every node name and ``next_functions`` edge with its
input number), the leaf gradients, and for the statement itself the
exception (type and text) and the warnings (category and text). The first
statement where the two differ names the mismatch group: what differs
(``error-text``, ``grad_fn``, ``value``, ...) and the op the statement calls.
Each group's first program is shrunk to a minimal reproducer (statements
dropped while the same group still shows).

Tolerated, as the issue's "Done when" allows: float rounding (elementwise
within 2 ulp, otherwise 1e-6 relative to the tensor's largest magnitude in
float32, 1e-14 in float64, 1e-3 in float16), PyTorch's warn-once behaviour
and its "(Triggered internally at ...)" suffix. Larger float differences
up to 1e-3 relative are reported as group ``numeric`` (accumulated rounding
in long programs), separately from wrong values.
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT / "src", ROOT / "tools"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

import diffgen  # noqa: E402
import difftest_blas  # noqa: E402
import difftest_gelu  # noqa: E402
import difftest_lapack  # noqa: E402
import difftest_median  # noqa: E402
import difftest_noise  # noqa: E402
import difftest_uninit  # noqa: E402

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
)
_SUFFIX = re.compile(r"\s*\(Triggered internally at [^)]*\)\.?\s*$", re.S)
_ADDRESS = re.compile(r" at 0x[0-9a-f]+")
_FRAMES = re.compile(r"\nException raised from .*", re.S)
HIDDEN = {"torch", "F", "__builtins__"}


def norm_warning(message: str) -> str:
    return _SUFFIX.sub("", str(message))


def norm_error(message: str) -> str:
    """An error's text without the C++ backtrace some of PyTorch's carry (its addresses change per run)."""
    return _FRAMES.sub("", message)


# --- running ------------------------------------------------------------------------

def run_program(mod, lines: list[str]) -> list[dict]:
    """Run ``lines`` with ``torch`` bound to ``mod``; one observation per statement."""
    ns = {"torch": mod, "F": mod.nn.functional}
    mod.manual_seed(0)  # random ops (log_normal_, cauchy_, ...) compare on PyTorch's stream
    observations = []
    for stmt in lines:
        error = None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                exec(stmt, ns)
            except Exception as e:  # noqa: BLE001 - compared, not handled
                error = (type(e).__name__, norm_error(str(e)))
            snapshot = {name: describe(mod, v) for name, v in sorted(ns.items()) if name not in HIDDEN and not name.startswith("__")}
        warned = [(w.category.__name__, norm_warning(w.message)) for w in caught]
        observations.append({"error": error, "warnings": warned, "vars": snapshot})
    return observations


def describe(mod, v, depth: int = 0):
    if isinstance(v, mod.Tensor):
        return describe_tensor(mod, v, depth)
    if isinstance(v, (tuple, list)) and depth < 2:
        kind = type(v).__module__.replace("agrad", "torch") + "." + type(v).__name__
        items = [describe(mod, x, depth + 1) for x in v]
        return {"kind": "seq", "type": kind, "items": items, "repr": _safe_repr(v)}
    if isinstance(v, (bool, int, float, str, type(None))):
        if isinstance(v, float) and v != v:
            return {"kind": "py", "type": "float", "value": "nan"}
        return {"kind": "py", "type": type(v).__name__, "value": v}
    if callable(v) and not hasattr(v, "remove"):
        return {"kind": "callable"}
    if hasattr(v, "remove"):  # a hook handle
        return {"kind": "handle"}
    return {"kind": "other", "repr": _ADDRESS.sub("", _safe_repr(v))}


def _safe_repr(v) -> str:
    try:
        return repr(v)
    except Exception as e:  # noqa: BLE001
        return f"<repr raised {type(e).__name__}: {e}>"


def describe_tensor(mod, t, depth: int) -> dict:
    try:
        data = t.detach().numpy().copy()
    except Exception as e:  # noqa: BLE001
        data = f"<{type(e).__name__}>"
    try:  # a view modified where PyTorch forbids it raises on reading its history
        is_leaf, history = t.is_leaf, graph(t.grad_fn)
    except RuntimeError as e:
        is_leaf = history = f"<{type(e).__name__}: {e}>"
    out = {"kind": "tensor", "dtype": str(t.dtype), "shape": list(t.shape), "data": data,
           "requires_grad": t.requires_grad, "is_leaf": is_leaf, "repr": _safe_repr(t),
           "graph": history, "stride": _layout(t)}
    if depth == 0 and (is_leaf is True or getattr(t, "retains_grad", False)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            g = t.grad
        out["grad"] = None if g is None else describe_tensor(mod, g, 1)
    return out


def _layout(t):
    """The layout as it decides where elements lie: ``stride()`` of the dims of more than one
    element (a dim of one element may have any stride; an empty tensor has no layout)."""
    try:
        if t.numel() == 0:
            return []
        return [s if n > 1 else None for n, s in zip(t.shape, t.stride())]
    except Exception as e:  # noqa: BLE001
        return f"<{type(e).__name__}>"


def graph(fn, limit: int = 80):
    """Every node reachable from ``fn``: [name, [(child index | None, input_nr), ...]] in BFS order."""
    if fn is None:
        return None
    index = {id(fn): 0}
    order = [fn]
    out = []
    i = 0
    while i < len(order) and i < limit:
        node = order[i]
        edges = []
        for child, nr in node.next_functions:
            if child is None:
                edges.append((None, nr))
                continue
            if id(child) not in index:
                index[id(child)] = len(order)
                order.append(child)
            edges.append((index[id(child)], nr))
        out.append([node.name(), edges])
        i += 1
    return out


# --- comparing ----------------------------------------------------------------------

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


# --- differences docs/semantics.md lists as deliberate -------------------------------

#: the aspect of a group whose difference is one docs/semantics.md explains ("Left as they are")
DOCUMENTED = "documented"

#: decompositions whose vectors LAPACK may return with either sign
SIGN_FREE_OPS = {"svd", "eigh", "qr", "eig", "svd_lowrank", "pca_lowrank"}


def _strip_signs(d: dict) -> dict:
    if d["kind"] == "tensor" and isinstance(d["data"], np.ndarray):
        return dict(d, data=np.abs(d["data"]), repr="", graph=None, grad=None)
    if d["kind"] == "seq":
        return dict(d, items=[_strip_signs(i) for i in d["items"]], repr="")
    return d


def _signs_only(want: dict, got: dict, program=None) -> bool:
    """True when every variable of a statement agrees once signs are dropped, and some
    tensor differs (LAPACK's singular and eigen vectors: numpy's LAPACK is not PyTorch's);
    with ``program``, also when what is left once signs are dropped is lapack-conditioning's
    rounding (the two differences of LAPACK at once)."""
    if set(want["vars"]) != set(got["vars"]):
        return False
    bare_w, bare_g = ({k: _strip_signs(v) for k, v in obs["vars"].items()} for obs in (want, got))
    if all(compare_desc(bare_w[k], bare_g[k], k) is None for k in want["vars"]):
        return True
    return program is not None and _conditioned_rounding(dict(want, vars=bare_w), dict(got, vars=bare_g), program, False)


#: ops that run LAPACK's SVD (gesdd) on their input
SVD_OPS = {"svd", "svdvals", "pinv", "pinverse", "matrix_rank", "cond", "nuclear_norm"}

#: the aspects of a value that differs (of a result, or of a leaf's gradient)
_VALUE_ASPECTS = {"value", "numeric", "repr", "grad-value", "grad-numeric", "grad-repr"}


def _agrees_but_where(want: dict, got: dict, allowed) -> bool:
    """True when every variable of a statement agrees once agrad's float values are taken as
    PyTorch's wherever ``allowed(torch_data, agrad_data)`` (a mask) holds, and some tensor differs."""
    def take(w, g):
        if w["kind"] == "seq" and g["kind"] == "seq" and len(w["items"]) == len(g["items"]):
            items = [take(a, b) for a, b in zip(w["items"], g["items"])]
            changed = any(a is not b for a, b in zip(items, g["items"]))
            return dict(g, items=items, repr=w["repr"] if changed else g["repr"])
        if w["kind"] != "tensor" or g["kind"] != "tensor":
            return g
        out = dict(g)
        wd, gd = w["data"], g["data"]
        if (isinstance(wd, np.ndarray) and isinstance(gd, np.ndarray) and wd.dtype.kind == "f"
                and wd.dtype == gd.dtype and wd.shape == gd.shape):
            with np.errstate(all="ignore"):
                mask = allowed(wd, gd) & ~((wd == gd) | (np.isnan(wd) & np.isnan(gd)))
            if mask.any():
                out["data"], out["repr"] = np.where(mask, wd, gd), w["repr"]
        if w.get("grad") is not None and g.get("grad") is not None:
            out["grad"] = take(w["grad"], g["grad"])
        return out if any(out[k] is not g[k] for k in out) else g
    if set(want["vars"]) != set(got["vars"]):
        return False
    return all(compare_desc(want["vars"][k], take(want["vars"][k], got["vars"][k]), k) is None for k in want["vars"])


def _svd_of_inf(lines: list[str], want: list[dict], i: int) -> bool:
    """True when statement ``i`` takes an SVD (SVD_OPS) of a tensor holding an inf, or is a backward
    (``backward``/``grad``) of a program that took one earlier: a tensor named in that statement
    held an inf in PyTorch's state before it."""
    for j in range(i + 1):
        if op_of(lines[j]) not in SVD_OPS or (j < i and op_of(lines[i]) not in ("backward", "grad")):
            continue
        before = want[j - 1]["vars"] if j else {}
        for name in set(re.findall(r"\b[A-Za-z_]\w*\b", lines[j])):
            d = before.get(name)
            if d and d["kind"] == "tensor" and isinstance(d["data"], np.ndarray) and d["data"].dtype.kind == "f" \
                    and np.isinf(d["data"]).any():
                return True
    return False


#: PyTorch's text for gesdd's info > 0
_GESDD_FAILED = ("The algorithm failed to converge because the input matrix is ill-conditioned or has too many "
                 "repeated singular values (error code: ")


def _null_space_dropped(want: dict, got: dict) -> bool:
    """True when an svd's results agree with PyTorch's once signs are dropped and so are the
    singular vectors of the singular values at or below max(m, n) eps s_max (PyTorch's S): a basis
    of the null space that LAPACK's rounding picks."""
    def strip(w, g):
        if w["kind"] != "seq" or w["type"] not in ("torch.return_types.svd", "torch.return_types.linalg_svd") \
                or len(w["items"]) != 3 or any(i["kind"] != "tensor" or not isinstance(i["data"], np.ndarray)
                                               for i in w["items"] + g["items"]):
            return None
        u, s, v = (i["data"] for i in w["items"])
        m, n = u.shape[-2], v.shape[-1] if w["type"].endswith("linalg_svd") else v.shape[-2]
        with np.errstate(all="ignore"):
            tol = max(m, n) * np.finfo(s.dtype).eps * s.max(axis=-1, initial=0)
        rank = np.sum(s > tol[..., None], axis=-1)[..., None]

        def keep(d, axis):
            data = np.abs(d["data"])
            inside = np.arange(data.shape[axis]) < rank
            return dict(d, data=np.where(inside[..., None, :] if axis == -1 else inside[..., :, None], data, 0),
                        repr="", graph=None, grad=None)
        v_axis = -2 if w["type"].endswith("linalg_svd") else -1
        return [dict(d, items=[keep(d["items"][0], -1), dict(d["items"][1], repr="", graph=None, grad=None),
                               keep(d["items"][2], v_axis)], repr="") for d in (w, g)]
    return _agree_once(want, got, lambda w, g: strip(w, g) if w["kind"] == "seq" and g["kind"] == "seq"
                       and len(g["items"]) == 3 else None)


def _agree_once(want: dict, got: dict, neutral) -> bool:
    """True when some variable of a statement differs and every one that does agrees once
    ``neutral(torch_desc, agrad_desc)`` has taken out what a rule allows (it returns the pair to
    compare, or None when the rule does not apply to that variable)."""
    if set(want["vars"]) != set(got["vars"]):
        return False
    changed = False
    for k in want["vars"]:
        w, g = want["vars"][k], got["vars"][k]
        if compare_desc(w, g, k) is None:
            continue
        pair = neutral(w, g)
        if pair is None or compare_desc(pair[0], pair[1], k) is not None:
            return False
        changed = True
    return changed


#: ops whose results LAPACK computes: their rounding grows with the input's condition number
CONDITIONED_OPS = {"pinv", "pinverse", "svd", "svdvals", "lstsq", "det", "slogdet", "logdet", "inv", "inverse",
                   "solve", "eigh", "eigvalsh", "cond"}


def _condition_of(lines: list[str], want: list[dict], i: int):
    """(condition number, power) for statement ``i``: a CONDITIONED_OPS call (power 1) or a
    ``backward``/``grad`` of a program that made one before (power 2, a derivative's rounding
    grows as the square), with the largest 2-norm condition number of the finite matrices among
    the float tensors it names, in PyTorch's state before it; None when there is none."""
    op = op_of(lines[i])
    if op in CONDITIONED_OPS:
        calls, power = [i], 1
    elif op in ("backward", "grad"):
        calls, power = [j for j in range(i) if op_of(lines[j]) in CONDITIONED_OPS], 2
    else:
        return None
    kappa = None
    for j in calls:
        before = want[j - 1]["vars"] if j else {}
        for name in set(re.findall(r"\b[A-Za-z_]\w*\b", lines[j])):
            d = before.get(name)
            if not d or d["kind"] != "tensor" or not isinstance(d["data"], np.ndarray) or d["data"].ndim < 2 \
                    or d["data"].dtype.kind != "f" or 0 in d["data"].shape:
                continue
            mats = d["data"].astype(np.float64).reshape((-1,) + d["data"].shape[-2:])
            mats = mats[np.isfinite(mats).all(axis=(-2, -1))]
            if len(mats):
                with np.errstate(all="ignore"):
                    k = float(np.nanmax(np.linalg.cond(mats)))
                kappa = k if kappa is None else max(kappa, k)
    return None if kappa is None else (kappa, power)


def _conditioned_rounding(want: dict, got: dict, program, nan_too: bool) -> bool:
    """True when every variable of the statement agrees once agrad's values are taken as
    PyTorch's wherever they are within 4 max(m, n) kappa^p eps of the tensor's largest
    magnitude (kappa, p from _condition_of; eps of the dtype), or, with ``nan_too``, where
    PyTorch's is NaN (an SVD of an inf, svd-inf-nan)."""
    found = _condition_of(*program)
    if found is None:
        return False
    kappa, power = found
    lines, states, i = program
    size = max([max(d["data"].shape[-2:]) for d in (states[i - 1]["vars"] if i else {}).values()
                if d["kind"] == "tensor" and isinstance(d["data"], np.ndarray) and d["data"].ndim >= 2] or [1])

    def allowed(w, g):
        finite = np.isfinite(w)
        scale = np.abs(w[finite]).max(initial=0.0)
        near = np.abs(w - g) <= 4 * size * kappa ** power * np.finfo(w.dtype).eps * scale
        return (near & finite & np.isfinite(g)) | (np.isnan(w) if nan_too else False)
    return _agrees_but_where(want, got, allowed)


_LSTSQ_A = re.compile(r"\blstsq\(\s*([A-Za-z_]\w*)\s*,")


def _lstsq_pivots(lines: list[str], want: list[dict], i: int, w_obs: dict, g_obs: dict) -> bool:
    """True when statement ``i`` is a ``linalg.lstsq`` with gelsy (the default driver) and its
    results agree with PyTorch's once PyTorch's are taken in the batch elements whose A is not
    finite or has a rank below min(m, n) in its own column order, where PyTorch's uninitialised
    column pivots decide the answer (docs/semantics.md)."""
    stmt = lines[i]
    found = _LSTSQ_A.search(stmt)
    if not found or ("driver=" in stmt and not re.search(r"driver=['\"]gelsy['\"]", stmt)):
        return False
    d = (want[i - 1]["vars"] if i else {}).get(found.group(1))
    if not d or d["kind"] != "tensor" or not isinstance(d["data"], np.ndarray) or d["data"].ndim < 2 \
            or d["data"].dtype.kind != "f":
        return False
    from agrad.ops._lapack import gelsy_unpivoted
    a = d["data"]
    m, n = a.shape[-2:]
    flat = a.reshape((-1, m, n))
    finite = np.isfinite(flat).all(axis=(-2, -1))
    rank = np.zeros(len(flat), np.int64)
    rank[finite] = gelsy_unpivoted(flat[finite], np.zeros((int(finite.sum()), m, 1), a.dtype),
                                   np.finfo(a.dtype).eps * max(m, n))[1]
    loose = (~finite | (rank < min(m, n))).reshape(a.shape[:-2])

    def neutral(w, g):
        if w["kind"] != "seq" or w["type"] != "torch.return_types.linalg_lstsq" or len(w["items"]) != 4 \
                or g["kind"] != "seq" or len(g["items"]) != 4:
            return None
        batch = tuple(w["items"][2]["shape"])
        try:
            mask = np.broadcast_to(loose, batch)
        except ValueError:
            return None
        w_items, g_items = [], []
        for wi, gi in zip(w["items"], g["items"]):
            wd, gd = wi.get("data"), gi.get("data")
            if wi["kind"] != "tensor" or not isinstance(wd, np.ndarray) or not isinstance(gd, np.ndarray) \
                    or wd.shape != gd.shape or wd.shape[:len(batch)] != batch:
                w_items.append(wi)
                g_items.append(gi)
                continue
            # (both zero there: the other elements are compared at their own scale)
            where = mask.reshape(batch + (1,) * (wd.ndim - len(batch)))
            w_items.append(dict(wi, data=np.where(where, 0, wd).astype(wd.dtype), repr=""))
            g_items.append(dict(gi, data=np.where(where, 0, gd).astype(gd.dtype), repr=""))
        return dict(w, items=w_items, repr=""), dict(g, items=g_items, repr="")
    return _agree_once(w_obs, g_obs, neutral)


_PINV_A = re.compile(r"\bpinv(?:erse)?\(\s*([A-Za-z_]\w*)\s*[,)]")
_PINV_METHOD = re.compile(r"\b([A-Za-z_]\w*)\.pinverse\(")


def _pinv_of_singular(lines: list[str], want: list[dict], i: int, w_obs: dict, g_obs: dict) -> bool:
    """True when statement ``i`` is a ``pinv``/``pinverse`` whose result agrees with PyTorch's
    once PyTorch's is taken in the batch elements whose matrix is singular in its dtype (2-norm
    condition number 1/eps or more): the singular values LAPACK's rounding leaves there decide
    whether they pass the cutoff (docs/semantics.md)."""
    found = _PINV_A.search(lines[i]) or _PINV_METHOD.search(lines[i])
    if not found:
        return False
    d = (want[i - 1]["vars"] if i else {}).get(found.group(1))
    if not d or d["kind"] != "tensor" or not isinstance(d["data"], np.ndarray) or d["data"].ndim < 2 \
            or d["data"].dtype.kind != "f" or 0 in d["data"].shape:
        return False
    a = d["data"]
    with np.errstate(all="ignore"):
        kappa = np.linalg.cond(np.where(np.isfinite(a), a, 0).astype(np.float64))
    loose = ~(kappa < 1 / np.finfo(a.dtype).eps) & np.isfinite(a).all(axis=(-2, -1))

    def neutral(w, g):
        if w["kind"] != "tensor" or g["kind"] != "tensor" or not isinstance(w["data"], np.ndarray) \
                or not isinstance(g["data"], np.ndarray) or w["data"].shape != g["data"].shape \
                or w["data"].shape[:-2] != loose.shape or w["data"].dtype.kind != "f":
            return None
        # (both zero there: the other elements are compared at their own scale)
        zero = loose[..., None, None]
        return (dict(w, data=np.where(zero, 0, w["data"]).astype(w["data"].dtype), repr=""),
                dict(g, data=np.where(zero, 0, g["data"]).astype(g["data"].dtype), repr=""))
    return _agree_once(w_obs, g_obs, neutral)


def _singular_cond(wd, gd):
    """Both condition numbers say "singular in this dtype": 1/eps or more (an inf included)."""
    big = 1 / np.finfo(wd.dtype).eps
    return (np.abs(wd) >= big) & (np.abs(gd) >= big)


def _int_history_only(want: dict, got: dict) -> bool:
    """True when a statement's variables agree but for integer tensors to which PyTorch gave a
    history (``requires_grad``, ``is_leaf``, ``grad_fn``, ``repr``'s grad_fn) and agrad none:
    an integer written with a value that requires grad (docs/semantics.md, integer setitem)."""
    def neutral(w, g):
        if (w["kind"] != "tensor" or g["kind"] != "tensor" or w["dtype"] != g["dtype"]
                or not w["dtype"].startswith(("torch.int", "torch.uint", "torch.bool"))
                or w["requires_grad"] is not True or g["requires_grad"] is not False
                or g["graph"] is not None or w["graph"] is None):
            return None
        plain = dict(w, requires_grad=False, is_leaf=True, graph=None, repr=g["repr"])
        plain.pop("grad", None)
        return plain, {key: v for key, v in g.items() if key != "grad"}
    return _agree_once(want, got, neutral)


def _half_result_only(stmt: str, want: dict, got: dict) -> bool:
    """True when the one variable that differs is the float16 tensor the statement assigns (on
    both sides, of one shape): PyTorch's float16 matrix_exp overflows in its own constants."""
    target = re.match(r"^\s*(\w+)\s*=", stmt.strip().splitlines()[-1])
    mine = want["vars"].get(target.group(1)) if target else None
    if not mine or mine["kind"] != "tensor" or mine["dtype"] != "torch.float16":
        return False

    def neutral(w, g):
        return (w, w) if (w is mine and g["kind"] == "tensor" and g["dtype"] == "torch.float16"
                          and g["shape"] == w["shape"]) else None
    return _agree_once(want, got, neutral)


def documented(aspect: str, stmt: str, want: dict, got: dict, program=None) -> str | None:
    """The name of the deliberate difference (docs/semantics.md) that this mismatch is, or None.
    ``program`` is (lines, PyTorch's observations, index of this statement), for the rules that
    look at what came before."""
    op = op_of(stmt)
    if aspect in ("value", "numeric") and op in SIGN_FREE_OPS and _signs_only(want, got, program):
        return "lapack-signs"
    if aspect in ("value", "numeric") and op == "svd" and _null_space_dropped(want, got):
        return "svd-null-space"
    if aspect in ("requires_grad", "is_leaf", "grad_fn", "repr") and op == "setitem" and _int_history_only(want, got):
        return "int-setitem-grad"
    if aspect in ("value", "numeric") and op == "cond" and _agrees_but_where(want, got, _singular_cond):
        return "cond-singular"
    if (aspect in _VALUE_ASPECTS and program is not None and _agrees_but_where(want, got, lambda w, g: np.isnan(w))
            and _svd_of_inf(*program)):
        return "svd-inf-nan"
    if (aspect == "raises-only-torch" and op in SVD_OPS and program is not None and want["error"][0] == "_LinAlgError"
            and want["error"][1].startswith("linalg.svd: ") and _GESDD_FAILED in want["error"][1]
            and _svd_of_inf(*program)):
        return "svd-inf-nan"  # (MKL's gesdd gives up on some of them)
    if (aspect in ("value", "numeric") and op in difftest_median.MEDIAN_OPS and program is not None
            and difftest_median.only_target_differs(stmt, want, got, compare_desc, _agree_once)
            and difftest_median.median_of_stride0(program[0], program[2])):
        return "median-stride0"
    if (aspect in ("value", "numeric") and op in difftest_gelu.GELU_OPS and program is not None
            and difftest_gelu.within_onednn_erf(stmt, want, got, _agree_once)
            and difftest_gelu.gelu_to_onednn(program[0], program[2])):
        return "gelu-onednn"
    if (aspect in ("value", "numeric") and op in difftest_blas.GEMM_OPS and difftest_blas.nonfinite_alpha(stmt)
            and _agrees_but_where(want, got, difftest_blas.nan_or_inf)):
        return "gemm-nonfinite-alpha"
    if (aspect in ("grad-numeric", "numeric") and op in ("backward", "grad") and program is not None
            and difftest_gelu.within_onednn_grads(want, got, _agree_once)
            and difftest_gelu.gelu_before_to_onednn(program[0], program[2])):
        return "gelu-onednn"
    if aspect in ("value", "numeric", "repr") and op == "matrix_exp" and _half_result_only(stmt, want, got):
        return "matrix-exp-half"
    if aspect in ("value", "numeric", "repr") and op == "new" and difftest_uninit.uninitialised_only(
            stmt, want, got, _agree_once):
        return "uninitialised"
    if aspect in ("value", "numeric") and op == "lstsq" and program is not None and _lstsq_pivots(*program, want, got):
        return "lstsq-pivots"
    if (aspect in ("value", "numeric") and op in ("pinv", "pinverse") and program is not None
            and _pinv_of_singular(*program, want, got)):
        return "pinv-singular"
    if (aspect in ("value", "numeric", "repr") and op in difftest_noise.SIGN_OPS and program is not None
            and difftest_noise.sign_of_lapack_noise(program, want, got, op_of, CONDITIONED_OPS, _condition_of,
                                                    _agrees_but_where)):
        return "lapack-conditioning"
    if program is not None and (aspect in ("numeric", "grad-numeric") or (
            aspect in _VALUE_ASPECTS and _svd_of_inf(*program))) and _conditioned_rounding(
            want, got, program, _svd_of_inf(*program)):
        return "lapack-conditioning"
    return None


def diff_program(lines: list[str]):
    """(group key, statement index, detail) of the first difference, or None. A difference
    that docs/semantics.md lists as deliberate is keyed ``documented:<name>:<op>``; the
    program is not compared further (what follows depends on it)."""
    import torch

    import agrad

    want = run_program(torch, lines)
    for obs in want:
        for _, message in obs["warnings"]:
            TORCH_WARNED.add(message)
    got = run_program(agrad, lines)
    for i, (w, g) in enumerate(zip(want, got)):
        found = compare_statement(w, g)
        if found:
            aspect, detail = found
            name = documented(aspect, lines[i], w, g, (lines, want, i))
            if not name and aspect in ("value", "numeric") and difftest_lapack.explained(
                    lines, i, got, w, g, op_of, CONDITIONED_OPS, compare_desc, _agree_once):
                name = "lapack-downstream"
            if not name and aspect in ("value", "numeric") and difftest_lapack.explained(
                    lines, i, got, w, g, op_of, difftest_lapack.VML_OPS, compare_desc, _agree_once):
                name = "vml-downstream"
            if not name and aspect in ("grad-value", "grad-numeric") and difftest_lapack.zero_gradient_noise(
                    lines, want, i, w, g, op_of, CONDITIONED_OPS, _agrees_but_where):
                name = "lapack-zero-gradient"
            if name:
                return f"{DOCUMENTED}:{name}:{op_of(lines[i])}", i, detail
            return f"{aspect}:{op_of(lines[i])}", i, detail
    return None


def count_differing(groups: dict) -> tuple[int, int]:
    """(programs that differ, programs whose difference is a documented, deliberate one)."""
    known = sum(c for k, (c, _) in groups.items() if k.startswith(DOCUMENTED + ":"))
    return sum(c for c, _ in groups.values()) - known, known


def shrink(lines: list[str], key: str) -> list[str]:
    """Drop statements while the program still shows the mismatch ``key``."""
    current = list(lines)
    found = diff_program(current)
    if found:  # nothing after the first differing statement matters
        current = current[: found[1] + 1]
    changed = True
    while changed:
        changed = False
        for i in range(len(current) - 2, -1, -1):
            trial = current[:i] + current[i + 1:]
            found = diff_program(trial)
            if found and found[0] == key:
                current = trial[: found[1] + 1]
                changed = True
    return current


def generate(seed: int) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lines = diffgen.generate(seed)
    for w in caught:  # warn-once warnings fire here first, under the generator
        TORCH_WARNED.add(norm_warning(w.message))
    return lines


#: a program that runs longer than this (in PyTorch or agrad) stops a long run with its seed
HANG_SECONDS = 300


class _Watchdog:
    """A hang inside a C library (LAPACK looping on an inf) cannot be interrupted from
    Python: a thread prints the program that hangs and ends the run (exit status 3)."""

    def __init__(self):
        self.now = None
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self):
        while True:
            time.sleep(10)
            now = self.now
            if now is not None and time.time() - now[2] > HANG_SECONDS:
                print(f"program of seed {now[0]} has run for more than {HANG_SECONDS} s (a hang):\n  "
                      + "\n  ".join(now[1]), file=sys.stderr, flush=True)
                os._exit(3)


def shrink_examples(groups: dict) -> None:
    """Each group's example shrunk to a minimal program that still shows the group."""
    for key, (_, example) in groups.items():
        example["shrunk"] = shrink(example["program"], key)
        again = diff_program(example["shrunk"])
        example["detail"] = again[2] if again else example["detail"]


def run(n: int, seed: int = 0, examples: bool = True, progress: bool = False, journal=None):
    """Run ``n`` programs (seeds seed..seed+n-1): (groups: key -> [count, example], programs, seconds).
    ``journal`` (a file) gets one JSON line per program as soon as it is compared."""
    np.seterr(all="ignore")
    groups: dict = {}
    start = time.time()
    watch = _Watchdog() if progress else None
    for s in range(seed, seed + n):
        lines = generate(s)
        if watch:
            watch.now = (s, lines, time.time())
        found = diff_program(lines)
        if journal is not None:
            journal.write(json.dumps({"seed": s, "key": found and found[0], "detail": found and found[2],
                                      "program": lines if found else None}) + "\n")
            journal.flush()
        if found:
            key = found[0]
            entry = groups.setdefault(key, [0, None])
            entry[0] += 1
            if entry[1] is None:
                entry[1] = {"seed": s, "program": lines, "detail": found[2]}
        if progress and (s - seed + 1) % 500 == 0:
            print(f"  {s - seed + 1} programs, {sum(c for c, _ in groups.values())} differ "
                  f"({time.time() - start:.0f} s)", file=sys.stderr, flush=True)
    if watch:
        watch.now = None
    if examples:
        shrink_examples(groups)
    return groups, n, time.time() - start


def _run_child(n: int, seed: int, out: Path) -> int:
    """Run seeds seed..seed+n-1 in a child process (no shrinking) that writes one line per
    program to ``out`` as it goes: its exit status."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--n", str(n), "--seed", str(seed),
           "--journal", str(out)]
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode


def run_chunked(n: int, seed: int, chunk: int, examples: bool = True):
    """``run`` in child processes of ``chunk`` programs each, so a crash inside PyTorch or a
    C library (a segfault, a LAPACK hang) costs one program, not the run: the child writes a
    line per program compared, so when its process dies the program after its last line is
    the one that killed it; that program is reported in ``crashed`` (seed, exit status) and
    the chunk goes on in a new child from the next seed.
    Returns (groups, programs compared, seconds, crashed)."""
    groups: dict = {}
    crashed: list = []
    compared = 0
    start = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "chunk.jsonl"
        pending = [(s, min(chunk, seed + n - s)) for s in range(seed, seed + n, chunk)]
        while pending:
            s, k = pending.pop(0)
            out.write_text("")
            status = _run_child(k, s, out)
            done = [json.loads(line) for line in out.read_text().splitlines() if line.endswith("}")]
            for record in done:
                if record["key"]:
                    mine = groups.setdefault(record["key"], [0, None])
                    mine[0] += 1
                    if mine[1] is None or record["seed"] < mine[1]["seed"]:
                        mine[1] = {"seed": record["seed"], "program": record["program"], "detail": record["detail"]}
            compared += len(done)
            if status != 0 and len(done) < k:
                dead = s + len(done)
                crashed.append((dead, status))
                if len(done) + 1 < k:
                    pending.insert(0, (dead + 1, k - len(done) - 1))
            print(f"  {compared + len(crashed)} programs, {sum(c for c, _ in groups.values())} differ, "
                  f"{len(crashed)} crashed ({time.time() - start:.0f} s)", file=sys.stderr, flush=True)
    if examples:
        shrink_examples(groups)
    return groups, compared, time.time() - start, crashed


def replay(path: str) -> tuple[dict, dict]:
    """Re-run each group's reproducer from an earlier ``--json`` file: (still differ: key ->
    [count, example with today's detail and key], agree: key -> count). A group whose
    reproducer now shows another mismatch counts as still differing, under its new key; one
    that now shows a documented difference is in ``agree`` as "documented:... (was key)"."""
    np.seterr(all="ignore")
    still, agree = {}, {}
    for key, entry in json.loads(Path(path).read_text())["groups"].items():
        example = entry["example"]
        lines = example.get("shrunk") or example["program"]
        found = diff_program(lines)
        if found is None:
            agree[key] = entry["count"]
        elif found[0].startswith(DOCUMENTED + ":") and not key.startswith(DOCUMENTED + ":"):
            agree[found[0] + " (was " + key + ")"] = entry["count"]
        else:
            still[key] = [entry["count"], dict(example, shrunk=lines, detail=found[2], now=found[0])]
    return still, agree


def by_aspect(groups: dict) -> dict:
    out = collections.Counter()
    for key, (count, _) in groups.items():
        out[key.split(":")[0]] += count
    return dict(out.most_common())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="number of programs")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--examples", action="store_true", help="print a shrunk reproducer per group")
    parser.add_argument("--json", help="write the groups (counts, examples) to this file")
    parser.add_argument("--top", type=int, default=60, help="groups to list")
    parser.add_argument("--chunk", type=int, default=0,
                        help="run in child processes of this many programs: a program that crashes "
                             "PyTorch or hangs in a C library is reported and skipped (long runs)")
    parser.add_argument("--replay", metavar="JSON",
                        help="re-run the reproducers of an earlier --json run instead of new programs")
    parser.add_argument("--journal", help=argparse.SUPPRESS)  # a chunk's child: a line per program
    args = parser.parse_args(argv)
    if args.journal:
        with open(args.journal, "a") as journal:
            run(args.n, args.seed, examples=False, progress=True, journal=journal)
        return 0
    if args.replay:
        return _print_replay(*replay(args.replay), args)
    crashed = []
    if args.chunk:
        groups, n, seconds, crashed = run_chunked(args.n, args.seed, args.chunk,
                                                  examples=args.examples or bool(args.json))
    else:
        groups, n, seconds = run(args.n, args.seed, examples=args.examples or bool(args.json), progress=True)
    differ, known = count_differing(groups)
    print(f"{n} programs in {seconds:.0f} s: {differ} differ ({100 * differ / max(n, 1):.1f}%), "
          f"{len(groups)} groups; {known} more differ as docs/semantics.md says they do")
    for s, status in crashed:
        how = f"signal {-status}" if status < 0 else f"exit status {status}"
        print(f"not compared: the program of seed {s} ended its process ({how}); "
              f"rerun it alone with --n 1 --seed {s}")
    print("by aspect: " + ", ".join(f"{k} {v}" for k, v in by_aspect(groups).items()))
    ranked = sorted(groups.items(), key=lambda kv: -kv[1][0])
    for key, (count, example) in ranked[: args.top]:
        print(f"{count:6d}  {key}")
        if args.examples and example:
            for line in example.get("shrunk", example["program"]):
                print("          " + line.replace("\n", "\n          "))
            print("          -> " + example["detail"].replace("\n", "\n             ")[:600])
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"programs": n, "seconds": seconds, "crashed": crashed, "groups": {k: {"count": c, "example": e} for k, (c, e) in ranked}},
            indent=1, default=str))
    return 0


def _print_replay(still: dict, agree: dict, args) -> int:
    before = sum(c for c, _ in still.values()) + sum(agree.values())
    left = sum(c for c, _ in still.values())
    known = {k: c for k, c in agree.items() if k.startswith(DOCUMENTED + ":")}
    print(f"{len(still) + len(agree)} groups ({before} programs) replayed: {len(agree)} groups "
          f"({before - left} programs) agree now or differ as docs/semantics.md says "
          f"({len(known)} groups, {sum(known.values())} programs), {len(still)} groups ({left} programs) "
          f"still differ")
    for key, (count, example) in sorted(still.items(), key=lambda kv: -kv[1][0]):
        moved = f"  (now {example['now']})" if example["now"] != key else ""
        print(f"{count:6d}  {key}{moved}")
        if args.examples:
            for line in example["shrunk"]:
                print("          " + line.replace("\n", "\n          "))
            print("          -> " + example["detail"].replace("\n", "\n             ")[:600])
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"groups": {k: {"count": c, "example": e} for k, (c, e) in still.items()},
             "agree": agree}, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
