"""Op cases checked against PyTorch golden files.

Every public module of this package covers one op family and exposes ``CASES``,
a list of plain dicts. ``all_cases()`` collects them (modules in name order)
and validates them. A case looks like::

    {"id": "mul_broadcast_3x2_1x2",
     "expr": "a * b",
     "inputs": {"a": {"shape": [3, 2]}, "b": {"shape": [1, 2]}},
     "second": True}

Case keys:
    id       unique name: pytest id and key in tests/golden/ops/<family>.json.
    expr     Python expression evaluated with ``torch`` (torch, or agrad under
             test), ``F`` (its ``nn.functional``) and the inputs bound.
    code     instead of ``expr``: statements that must assign ``out``.
    inputs   input name -> input spec (see below); may be empty.
    second   also record second derivatives (default False).
    tol      ``{"rtol": ..., "atol": ...}`` replacing the default tolerances.
    numeric  False where PyTorch's gradient is by design not the derivative, so
             tests/test_numeric_grad.py must not compare it with finite differences.

Input spec keys:
    shape          list of ints, ``[]`` for a 0-d tensor.
    dtype          "float32", "float64", "int64" or "bool". Defaults to
                   "float32", except kind "index" -> "int64", kind "bool" -> "bool",
                   and for ``value`` it follows the data like torch.tensor does
                   (bools -> "bool", ints -> "int64", floats -> "float32").
    requires_grad  defaults to True for floating dtypes; must be False otherwise.
    kind           how values are drawn (default "randn"):
                   randn | rand (0..1) | positive (0.5..2) | unit (-0.9..0.9) |
                   int (integers -5..5) | index (integers 0..high-1) | bool |
                   ties (values in {-1, 0, 1} with the maximum repeated).
    high           exclusive upper bound for kind "index" (required there).
    value          explicit data (nested list or scalar) instead of shape/kind.

Python scalars are written straight into the expression (``"a * 2.5"``).
After adding or changing cases run ``python tools/gen_op_golden.py``.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

import numpy as np

DTYPES = ("float32", "float64", "int64", "bool")
FLOAT_DTYPES = ("float32", "float64")
KINDS = ("randn", "rand", "positive", "unit", "int", "index", "bool", "ties")

_CASE_KEYS = {"id", "expr", "code", "inputs", "second", "tol", "numeric"}
_INPUT_KEYS = {"shape", "dtype", "requires_grad", "kind", "high", "value"}
_ID_PATTERN = re.compile(r"^[A-Za-z0-9_.\-]+$")


# --- helpers for writing cases -------------------------------------------------

def inp(*shape: int, **spec) -> dict:
    """Input spec of the given shape: ``inp(3, 2, kind="positive")``."""
    return {"shape": list(shape), **spec}


def val(value, **spec) -> dict:
    """Input spec with explicit data: ``val([[1.0, 2.0]], requires_grad=False)``."""
    return {"value": value, **spec}


def case(case_id: str, expr: str | None = None, *, code: str | None = None,
         second: bool = False, tol: dict | None = None, numeric: bool = True, **inputs: dict) -> dict:
    """Build a case dict; keyword arguments other than the options are inputs."""
    result = {"id": case_id}
    if expr is not None:
        result["expr"] = expr
    if code is not None:
        result["code"] = code
    result["inputs"] = inputs
    if second:
        result["second"] = True
    if tol is not None:
        result["tol"] = tol
    if not numeric:
        result["numeric"] = False
    return result


# --- input spec semantics --------------------------------------------------------

def input_kind(spec: dict) -> str:
    return spec.get("kind", "randn")


def input_dtype(spec: dict) -> str:
    if "dtype" in spec:
        return spec["dtype"]
    if "value" in spec:
        kind = np.asarray(spec["value"]).dtype.kind
        return {"b": "bool", "i": "int64"}.get(kind, "float32")
    return {"index": "int64", "bool": "bool"}.get(input_kind(spec), "float32")


def input_requires_grad(spec: dict) -> bool:
    return spec.get("requires_grad", input_dtype(spec) in FLOAT_DTYPES)


# --- discovery and validation ----------------------------------------------------

def families() -> dict[str, list[dict]]:
    """``CASES`` of every public module in this package, by module name, validated.

    Each family has its own golden file, tests/golden/ops/<family>.json."""
    out = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        out[info.name] = module.CASES
    validate_cases([c for cases in out.values() for c in cases])
    return out


def all_cases() -> list[dict]:
    """Every case of every family."""
    return [c for cases in families().values() for c in cases]


def validate_cases(cases: list[dict]) -> None:
    seen = set()
    for c in cases:
        case_id = c.get("id")
        if not isinstance(case_id, str) or not _ID_PATTERN.match(case_id):
            raise ValueError(f"bad case id {case_id!r}")
        if case_id in seen:
            raise ValueError(f"duplicate case id {case_id!r}")
        seen.add(case_id)
        _validate_case(c)


def _validate_case(c: dict) -> None:
    where = f"case {c['id']!r}"
    unknown = set(c) - _CASE_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
    if ("expr" in c) == ("code" in c):
        raise ValueError(f"{where}: needs exactly one of 'expr' and 'code'")
    if "\n" in c.get("expr", ""):
        raise ValueError(f"{where}: a multi-line snippet goes in 'code', not 'expr'")
    if "code" in c and not re.search(r"\bout\s*=", c["code"]):
        raise ValueError(f"{where}: 'code' must assign 'out'")
    if not isinstance(c.get("inputs"), dict):
        raise ValueError(f"{where}: 'inputs' must be a dict")
    if set(c.get("tol", {})) - {"rtol", "atol"}:
        raise ValueError(f"{where}: 'tol' takes only 'rtol' and 'atol'")
    for name, spec in c["inputs"].items():
        _validate_input(f"{where}, input {name!r}", name, spec)


def _validate_input(where: str, name: str, spec: dict) -> None:
    if not name.isidentifier() or name in ("torch", "F", "out"):
        raise ValueError(f"{where}: not a usable input name")
    unknown = set(spec) - _INPUT_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
    if ("value" in spec) == ("shape" in spec):
        raise ValueError(f"{where}: needs exactly one of 'shape' and 'value'")
    if "value" in spec and ("kind" in spec or "high" in spec):
        raise ValueError(f"{where}: 'value' excludes 'kind' and 'high'")
    if input_kind(spec) not in KINDS:
        raise ValueError(f"{where}: unknown kind {spec['kind']!r}")
    if (input_kind(spec) == "index") != ("high" in spec):
        raise ValueError(f"{where}: 'high' goes with kind 'index' (and only there)")
    if input_dtype(spec) not in DTYPES:
        raise ValueError(f"{where}: unknown dtype {spec['dtype']!r}")
    if input_requires_grad(spec) and input_dtype(spec) not in FLOAT_DTYPES:
        raise ValueError(f"{where}: only floating inputs can require grad")
