"""JSON records of script values (SPEC §3) and one-line tensor values for tables.

Float tensors are written as nested lists of numbers.  A float32 (or
float16) element is written as the shortest decimal that reads back as the
same float32 (``0.1``, not ``0.10000000149011612``); float64 elements as
Python writes them.  ``nan``, ``inf`` and ``-inf`` become the strings
``"nan"``, ``"inf"``, ``"-inf"``, so the output is strict JSON.
"""

from __future__ import annotations

import math

import numpy as np

from .. import printing
from ..tensor import Size, Tensor
from ..dtypes import dtype as _DType

#: Past this nesting depth a list/tuple/dict is recorded as an object.
MAX_DEPTH = 50


# ------------------------------------------------------------------ numbers

def json_float(x: float):
    """A float for JSON: the number, or "nan" / "inf" / "-inf"."""
    if math.isfinite(x):
        return x
    if math.isnan(x):
        return "nan"
    return "inf" if x > 0 else "-inf"


def array_json(data: np.ndarray):
    """Nested lists (a bare number for 0-d) of ``data``, JSON-ready."""
    if type(data) is not np.ndarray:
        from .._arrays import host
        data = host(data)  # a GPU's array is copied to the host
    kind = data.dtype.kind
    if kind == "b" or kind in "iu":
        return data.tolist()
    if data.dtype in (np.float32, np.float16):
        # shortest decimal that reads back as the same float32
        shown = data.astype(str)
        values = np.vectorize(float, otypes=[object])(shown) if data.size else data.astype(np.float64)
        lst = values.tolist()
        finite = bool(np.isfinite(data).all())
    else:
        lst = data.astype(np.float64, copy=False).tolist()
        finite = bool(np.isfinite(data).all())
    if finite:
        return lst
    return _fix_nonfinite(lst)


def _fix_nonfinite(lst):
    if isinstance(lst, float):
        return json_float(lst)
    # iterative over nesting so deep tensors cannot overflow the stack
    stack = [lst]
    while stack:
        cur = stack.pop()
        for i, v in enumerate(cur):
            if isinstance(v, list):
                stack.append(v)
            elif isinstance(v, float) and not math.isfinite(v):
                cur[i] = json_float(v)
    return lst


def node_display_name(node) -> str:
    """A node's name as PyTorch prints it in ``grad_fn=<...>`` (no ``torch::autograd::``)."""
    return type(node).__name__


# ------------------------------------------------------------------ records

def tensor_record(t: Tensor) -> dict:
    fn = t._grad_fn
    grad = t._grad  # read directly: never the non-leaf warning
    if _is_lazy(t._data) or (grad is not None and _is_lazy(grad._data)):
        return _lazy_record(t)
    return {
        "kind": "tensor",
        "shape": list(t._data.shape),
        "dtype": t.dtype.name,
        "value": array_json(t._data),
        "requires_grad": bool(t._requires_grad),
        "is_leaf": fn is None,
        "grad_fn": node_display_name(fn) if fn is not None else None,
        "grad": array_json(grad._data) if grad is not None else None,
        "version": t._vc[0],
    }


def _is_lazy(data) -> bool:
    from .._arrays import LAZY
    return type(data) in LAZY


def _lazy_record(t: Tensor) -> dict:
    """A tensor whose data (or grad) was never computed: ``"value": null, "lazy": true``
    and its chunks, instead of numbers."""
    from .._arrays import chunks_of
    fn = t._grad_fn
    grad = t._grad
    rec = {"kind": "tensor", "shape": list(t._data.shape), "dtype": t.dtype.name}
    if _is_lazy(t._data):
        rec.update({"value": None, "lazy": True, "chunks": chunks_of(t._data)})
    else:
        rec["value"] = array_json(t._data)
    rec.update({"requires_grad": bool(t._requires_grad), "is_leaf": fn is None,
                "grad_fn": node_display_name(fn) if fn is not None else None})
    if grad is not None and _is_lazy(grad._data):
        rec.update({"grad": None, "grad_lazy": True, "grad_chunks": chunks_of(grad._data)})
    else:
        rec["grad"] = array_json(grad._data) if grad is not None else None
    rec["version"] = t._vc[0]
    return rec


def lazy_text(data) -> str:
    """``lazy, 10 chunks [10000, 20]`` (the largest chunk's shape): what the table shows
    of data never computed."""
    from .._arrays import chunks_of
    chunks = chunks_of(data)
    n = 1
    for sizes in chunks:
        n *= len(sizes)
    largest = [max(sizes) if sizes else 0 for sizes in chunks]
    return f"lazy, {n} chunk{'s' if n != 1 else ''} [{', '.join(map(str, largest))}]"


def value_record(value, _depth: int = 0, _active=None) -> dict:
    """The JSON record of one script value (SPEC §3 ``variables`` entries)."""
    if isinstance(value, Tensor):
        return tensor_record(value)
    if value is None:
        return {"kind": "none"}
    if isinstance(value, bool):
        return {"kind": "bool", "value": value}
    if isinstance(value, int):
        return {"kind": "int", "value": value}
    if isinstance(value, float):
        return {"kind": "float", "value": json_float(value)}
    if isinstance(value, str):
        return {"kind": "str", "value": value}
    if isinstance(value, Size):
        return {"kind": "size", "value": list(value)}
    if isinstance(value, _DType):
        return {"kind": "dtype", "value": value.name}
    if isinstance(value, (list, tuple, dict)):
        active = _active if _active is not None else set()
        if _depth >= MAX_DEPTH or id(value) in active:
            return {"kind": "object", "repr": _safe_repr(value)}
        active.add(id(value))
        try:
            if isinstance(value, dict):
                return {"kind": "dict",
                        "items": {str(k): value_record(v, _depth + 1, active) for k, v in value.items()}}
            return {"kind": "list" if isinstance(value, list) else "tuple",
                    "items": [value_record(v, _depth + 1, active) for v in value]}
        finally:
            active.discard(id(value))
    special = _module_or_optimizer_record(value)
    if special is not None:
        return special
    return {"kind": "object", "repr": _safe_repr(value)}


def _loaded_class(module_name, class_name):
    """A class of agrad.nn / agrad.optim if the script loaded it (never imports)."""
    import sys
    m = sys.modules.get(module_name)
    return getattr(m, class_name, None) if m is not None else None


def _module_or_optimizer_record(value):
    """``{"kind": "module", "repr", "parameters", "buffers"}`` for an nn.Module and
    ``{"kind": "optimizer", "type", "repr", "param_groups"}`` for an optimizer."""
    module_cls = _loaded_class("agrad.nn.modules.module", "Module")
    if module_cls is not None and isinstance(value, module_cls):
        try:
            params = {n: tensor_record(p) for n, p in value.named_parameters()}
            buffers = {n: tensor_record(b) for n, b in value.named_buffers()}
        except Exception:
            return None
        return {"kind": "module", "type": type(value).__name__, "repr": _safe_repr(value),
                "training": bool(value.training), "parameters": params, "buffers": buffers}
    optim_cls = _loaded_class("agrad.optim.optimizer", "Optimizer")
    if optim_cls is not None and isinstance(value, optim_cls):
        try:
            index = {}
            groups = []
            for g in value.param_groups:
                rec = {}
                for k, v in g.items():
                    if k == "params":
                        continue
                    if isinstance(v, (bool, int, float, str)) or v is None:
                        rec[k] = json_float(v) if isinstance(v, float) else v
                    elif isinstance(v, tuple) and all(isinstance(x, (int, float)) for x in v):
                        rec[k] = [json_float(float(x)) if isinstance(x, float) else x for x in v]
                    else:
                        rec[k] = _safe_repr(v)
                rec["params"] = [index.setdefault(id(p), len(index)) for p in g["params"]]
                groups.append(rec)
            steps = len([s for s in value.state.values() if s])
        except Exception:
            return None
        return {"kind": "optimizer", "type": type(value).__name__, "repr": _safe_repr(value),
                "param_groups": groups, "params_with_state": steps}
    return None


def _safe_repr(value) -> str:
    try:
        return repr(value)
    except Exception as exc:  # a repr that raises must not end the run
        return f"<{type(value).__name__} (repr failed: {type(exc).__name__})>"


# ------------------------------------------------------------------ one-line values

_SHORT_WIDTH = 44


def short_value(data: np.ndarray, dtype_name: str, width: int = _SHORT_WIDTH) -> str:
    """A tensor's values on one line, as PyTorch would format them, abbreviated.

    Small tensors show every element (``[[1., 1.], [1., 1.]]``); larger ones
    keep the first and last elements of each axis with ``...`` between, and
    past ``width`` characters only the shape's worth of elements is named.
    Data never computed (a lazy dask array) shows its chunks.
    """
    if type(data) is not np.ndarray:
        if _is_lazy(data):
            return lazy_text(data)
        from .._arrays import host
        data = host(data)  # a GPU's array is copied to the host
    if data.size == 0:
        return "[]"
    for threshold, edge in ((float("inf"), 3), (6, 2), (2, 1)):
        if threshold == float("inf") and data.size > 64:
            continue
        text = _one_line(data, dtype_name, threshold, edge)
        if len(text) <= width:
            return text
    return text if len(text) <= 2 * width else f"[... {data.size} elements]"


def _one_line(data, dtype_name, threshold, edge) -> str:
    opts = printing.PrintOptions(threshold=threshold, edgeitems=edge, linewidth=10**9)
    # the dtype passed as the default dtype: no "dtype=" suffix to strip
    text = printing.tensor_repr(data, dtype_name, default_dtype=dtype_name, options=opts)
    body = text[len("tensor("):-1]
    if "\n" in body:
        body = " ".join(part.strip() for part in body.split("\n") if part.strip())
    return body
