"""Golden-file machinery shared by tools/gen_op_golden.py and tests/test_ops_golden.py.

A case (see tools/op_cases) runs against a torch-like module ``mod``: torch
itself when generating goldens, agrad under test. ``run_case`` builds the
inputs as tensors of ``mod``, evaluates the case and returns a JSON-ready
record; ``compare_records`` lists the differences between two records.

Golden entry / record layout (tests/golden/ops/<family>.json each hold ``{"cases": {id: entry}}``)::

    case            the case dict (JSON-normalised)
    inputs          name -> {dtype, shape, data, requires_grad}
    error           {type, message} when evaluating raised; then nothing below
    tuple           whether the result was a tuple/list (e.g. max(dim) namedtuple)
    outputs         list of {dtype, shape, data, requires_grad, grad_fn, next_functions}
    grad_output     index of the first floating output (``out0``), or None
    grad_weight     W: gradients are those of ``sum(out0 * W)``
    grads           input name -> gradient array or None; None when out0 needs no grad
    second_weights  V per input: second derivatives are the gradients of ``sum(g * V)``
    second_grads    input name -> array or None; None unless the case sets "second"

Arrays are ``{dtype, shape, data}`` with ``data`` a nested list of Python numbers;
floats are written with repr (exact round trip) and non-finite ones as the
strings "nan", "inf", "-inf".
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import math
import operator
import sys
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[1]
GOLDEN_DIR = REPO_ROOT / "tests" / "golden" / "ops"

if str(REPO_ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(REPO_ROOT / "tools"))

import op_cases  # noqa: E402  (needs tools/ on sys.path)

FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")
DEFAULT_TOLERANCES = {
    "float32": {"rtol": 1e-5, "atol": 1e-6},
    "float64": {"rtol": 1e-9, "atol": 1e-12},
}


# --- case table and golden file --------------------------------------------------

def load_cases() -> list[dict]:
    return op_cases.all_cases()


def golden_path(family: str):
    return GOLDEN_DIR / f"{family}.json"


def load_golden() -> dict:
    """All families' golden entries merged: ``{"cases": {id: entry}}``."""
    cases = {}
    for path in sorted(GOLDEN_DIR.glob("*.json")):
        with path.open() as f:
            cases.update(json.load(f)["cases"])
    return {"cases": cases}


def write_golden(family: str, entries: dict[str, dict], torch_version: str) -> None:
    """Write one family's file, one case per line, so regenerating gives small diffs."""
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    lines = [
        "{" + f'"torch_version": {json.dumps(torch_version)},',
        '"cases": {',
        ",\n".join(
            f"{json.dumps(case_id)}: {json.dumps(entry, allow_nan=False, separators=(',', ':'))}"
            for case_id, entry in entries.items()
        ),
        "}}",
    ]
    golden_path(family).write_text("\n".join(lines) + "\n")


def normalize_case(case: dict) -> dict:
    """The case as it reads back from JSON (tuples -> lists, non-finite -> strings)."""
    return json.loads(json.dumps(_jsonable(case), allow_nan=False))


def _jsonable(obj):
    if isinstance(obj, dict):
        return {key: _jsonable(value) for key, value in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(item) for item in obj]
    if isinstance(obj, float) and not math.isfinite(obj):
        return repr(obj)  # 'nan', 'inf', '-inf'
    return obj


# --- arrays <-> JSON --------------------------------------------------------------

def encode_array(array: np.ndarray, dtype: str) -> dict:
    array = np.asarray(array)
    return {"dtype": dtype, "shape": list(array.shape), "data": _jsonable(array.tolist())}


def decode_array(record: dict) -> np.ndarray:
    data = _decode_numbers(record["data"])
    return np.array(data, dtype=np.dtype(record["dtype"])).reshape(record["shape"])


def _decode_numbers(data):
    if isinstance(data, list):
        return [_decode_numbers(item) for item in data]
    if isinstance(data, str):
        return float(data)
    return data


# --- deterministic data -----------------------------------------------------------

def _rng(*parts: str) -> np.random.Generator:
    digest = hashlib.sha256("/".join(parts).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def _draw(rng: np.random.Generator, kind: str, shape: list[int], high: int | None) -> np.ndarray:
    if kind == "randn":
        return rng.standard_normal(shape)
    if kind == "rand":
        return rng.random(shape)
    if kind == "positive":
        return rng.uniform(0.5, 2.0, shape)
    if kind == "unit":
        return rng.uniform(-0.9, 0.9, shape)
    if kind == "int":
        return rng.integers(-5, 6, shape)
    if kind == "index":
        return rng.integers(0, high, shape)
    if kind == "bool":
        return rng.random(shape) < 0.5
    if kind == "ties":
        values = np.asarray(rng.integers(-1, 2, shape))
        if values.size:
            values.flat[0] = values.flat[-1] = 1  # the maximum occurs at least twice
        return values
    raise ValueError(f"unknown input kind {kind!r}")


def make_inputs(case: dict) -> dict[str, dict]:
    """Input records of a case, drawn from a seed derived from case id and input name."""
    inputs = {}
    for name, spec in case["inputs"].items():
        dtype = op_cases.input_dtype(spec)
        if "value" in spec:
            array = np.array(spec["value"], dtype=dtype)
        else:
            rng = _rng(case["id"], "input", name)
            drawn = _draw(rng, op_cases.input_kind(spec), spec["shape"], spec.get("high"))
            array = np.asarray(drawn).astype(dtype)
        inputs[name] = {**encode_array(array, dtype),
                        "requires_grad": op_cases.input_requires_grad(spec)}
    return inputs


def _weight(case_id: str, label: str, shape: list[int], dtype: str) -> dict:
    array = np.asarray(_rng(case_id, label).standard_normal(shape)).astype(dtype)
    return encode_array(array, dtype)


# --- tensors of a torch-like module ------------------------------------------------

def dtype_name(dtype) -> str:
    return str(dtype).removeprefix("torch.")


def to_tensor(mod, record: dict, requires_grad: bool = False):
    array = decode_array(record)
    dtype = getattr(mod, record["dtype"])
    if array.size == 0:  # nested lists lose the shape of empty tensors
        return mod.zeros(tuple(array.shape), dtype=dtype, requires_grad=requires_grad)
    return mod.tensor(array.tolist(), dtype=dtype, requires_grad=requires_grad)


def to_numpy(tensor) -> np.ndarray:
    if tensor.requires_grad:  # torch refuses .numpy() on tensors that require grad
        tensor = tensor.detach()
    if getattr(tensor, "_is_zerotensor", lambda: False)():
        # torch's lazy zeros (from some double-backward formulas) convert only with force
        return np.asarray(tensor.numpy(force=True))
    return np.asarray(tensor.numpy())


def encode_tensor(tensor) -> dict:
    return encode_array(to_numpy(tensor), dtype_name(tensor.dtype))


def node_name(node) -> str | None:
    return None if node is None else node.name()


def describe_output(tensor) -> dict:
    grad_fn = tensor.grad_fn
    return {
        **encode_tensor(tensor),
        "requires_grad": bool(tensor.requires_grad),
        "grad_fn": node_name(grad_fn),
        "next_functions": None if grad_fn is None
        else [node_name(node) for node, _ in grad_fn.next_functions],
    }


# --- running a case -----------------------------------------------------------------

def evaluate(mod, case: dict, tensors: dict):
    """Evaluate the case's expr (or run its code and return ``out``) under ``mod``."""
    functional = importlib.import_module(mod.__name__ + ".nn.functional")
    namespace = {"torch": mod, "F": functional, **tensors}
    if "expr" in case:
        return eval(case["expr"], namespace)
    exec(case["code"], namespace)
    return namespace["out"]


def run_case(mod, case: dict, inputs: dict[str, dict], reference: dict | None = None,
             capture_errors: bool = True) -> dict:
    """Run ``case`` under ``mod`` on the given input records; return its record.

    Weights W and V are taken from ``reference`` (a golden entry) when it has
    them, otherwise drawn deterministically. With ``capture_errors`` an
    exception from evaluating the case is recorded instead of raised.
    """
    tensors = {name: to_tensor(mod, rec, rec["requires_grad"]) for name, rec in inputs.items()}
    try:
        result = evaluate(mod, case, tensors)
    except Exception as exc:
        if not capture_errors:
            raise
        return {"error": {"type": type(exc).__name__, "message": str(exc)}}

    is_tuple = isinstance(result, (tuple, list))
    outputs = list(result) if is_tuple else [result]
    record = {"tuple": is_tuple, "outputs": [describe_output(t) for t in outputs]}
    record.update(_gradients(mod, case, inputs, tensors, outputs, reference or {}))
    return record


def _gradients(mod, case, inputs, tensors, outputs, reference) -> dict:
    record = {"grad_output": None, "grad_weight": None, "grads": None,
              "second_weights": None, "second_grads": None}
    names = [name for name, rec in inputs.items() if rec["requires_grad"]]
    floating = [i for i, t in enumerate(outputs) if dtype_name(t.dtype) in FLOAT_DTYPES]
    if not names or not floating or not outputs[floating[0]].requires_grad:
        return record

    index = floating[0]
    out0 = outputs[index]
    shape, dtype = list(out0.shape), dtype_name(out0.dtype)
    weight = reference.get("grad_weight") or _weight(case["id"], "W", shape, dtype)
    if weight["shape"] != shape:  # a wrong output shape; the comparison reports it
        return record
    leaves = [tensors[name] for name in names]
    second = bool(case.get("second"))

    loss = (out0 * to_tensor(mod, weight)).sum()
    grads = mod.autograd.grad(loss, leaves, create_graph=second, allow_unused=True)
    record.update(grad_output=index, grad_weight=weight, grads=_encode_grads(names, grads))
    if not second:
        return record

    weights = reference.get("second_weights") or {
        name: _weight(case["id"], f"V/{name}", inputs[name]["shape"], inputs[name]["dtype"])
        for name in names
    }
    terms = [(g * to_tensor(mod, weights[name])).sum()
             for name, g in zip(names, grads) if g is not None and g.requires_grad]
    if terms:
        second_grads = mod.autograd.grad(functools.reduce(operator.add, terms), leaves,
                                         allow_unused=True)
    else:  # no first-order gradient depends on the inputs
        second_grads = [None] * len(names)
    record.update(second_weights=weights, second_grads=_encode_grads(names, second_grads))
    return record


def _encode_grads(names, grads) -> dict:
    return {name: None if g is None else encode_tensor(g) for name, g in zip(names, grads)}


# --- entry points ----------------------------------------------------------------------

def golden_entry(torch, case: dict) -> dict:
    """The golden entry of a case, computed with PyTorch."""
    inputs = make_inputs(case)
    return {"case": normalize_case(case), "inputs": inputs, **run_case(torch, case, inputs)}


def check_golden(mod, entry: dict) -> list[str]:
    """Differences between ``mod`` and a stored golden entry."""
    case = entry["case"]
    actual = run_case(mod, case, entry["inputs"], reference=entry,
                      capture_errors="error" in entry)
    return compare_records(entry, actual, case.get("tol"))


def check_live(mod, torch, case: dict) -> list[str]:
    """Differences between ``mod`` and PyTorch run now on the case."""
    expected = golden_entry(torch, case)
    return check_golden(mod, expected)


# --- comparison --------------------------------------------------------------------------

def compare_records(expected: dict, actual: dict, tol: dict | None = None) -> list[str]:
    """Human-readable differences between two records (empty when they agree)."""
    if "error" in expected or "error" in actual:
        want, got = _describe_error(expected), _describe_error(actual)
        return [] if want == got else [f"expected {want}, got {got}"]

    problems = []
    if expected["tuple"] != actual["tuple"]:
        problems.append(f"result is a tuple: expected {expected['tuple']}, got {actual['tuple']}")
    want, got = expected["outputs"], actual["outputs"]
    if len(want) != len(got):
        return problems + [f"expected {len(want)} outputs, got {len(got)}"]
    for i, (e, a) in enumerate(zip(want, got)):
        for key in ("shape", "dtype", "requires_grad", "grad_fn", "next_functions"):
            if e[key] != a[key]:
                problems.append(f"output {i} {key}: expected {e[key]!r}, got {a[key]!r}")
        if e["shape"] == a["shape"]:
            problems += _compare_values(f"output {i} value", e, a, tol)

    problems += _compare_grads("grad", expected["grads"], actual["grads"], tol, none_is_zero=False)
    # Whether torch returns None or zeros for a second derivative depends on
    # how its double-backward formulas are written, so both count as zero.
    problems += _compare_grads("second-order grad", expected["second_grads"],
                               actual["second_grads"], tol, none_is_zero=True)
    return problems


def _describe_error(record: dict) -> str:
    if "error" not in record:
        return "no error"
    return f"{record['error']['type']}: {record['error']['message']!r}"


def _compare_grads(label, expected, actual, tol, none_is_zero) -> list[str]:
    if expected is None or actual is None:
        if expected is actual:
            return []
        return [f"{label}s: expected {'none' if expected is None else 'some'}, "
                f"got {'none' if actual is None else 'some'}"]
    problems = []
    for name in expected:
        e, a = expected[name], actual.get(name)
        where = f"{label} of {name}"
        if e is None or a is None:
            present = a if e is None else e
            if present is None or (none_is_zero and not decode_array(present).any()):
                continue
            problems.append(f"{where}: expected {'None' if e is None else 'a tensor'}, "
                            f"got {'None' if a is None else 'a tensor'}")
            continue
        for key in ("shape", "dtype"):
            if e[key] != a[key]:
                problems.append(f"{where} {key}: expected {e[key]!r}, got {a[key]!r}")
        if e["shape"] == a["shape"]:
            problems += _compare_values(where, e, a, tol)
    return problems


def _compare_values(where: str, expected: dict, actual: dict, tol: dict | None) -> list[str]:
    want, got = decode_array(expected), decode_array(actual)
    if expected["dtype"] in FLOAT_DTYPES:
        limits = tol or DEFAULT_TOLERANCES.get(expected["dtype"], DEFAULT_TOLERANCES["float32"])
        same = np.allclose(got.astype(np.float64), want.astype(np.float64),
                           equal_nan=True, **limits)
    else:
        same = np.array_equal(got, want)
    if same:
        return []
    return [f"{where}: values differ\n  expected {_preview(want)}\n  got      {_preview(got)}"]


def _preview(array: np.ndarray) -> str:
    return np.array2string(array, precision=8, threshold=50).replace("\n", "\n" + " " * 11)
