"""Forward-mode golden cases: the op cases (tools/op_cases) run with dual inputs.

Every input of a case that requires grad becomes ``make_dual(input, V)`` with a
tangent V drawn from the case id; the record holds V and the tangent of every
output (None where an output has none), or PyTorch's error.  Shared by
tools/gen_forward_ad_golden.py (under PyTorch) and tests/autograd/test_forward_ad_golden.py.

Golden file: tests/golden/forward_ad/<family>.json = ``{"torch_version", "cases": {id: entry}}``
with entry ``{"tangents": {name: array}, "outputs": [array | None, ...]}`` or ``{"tangents", "error"}``.
"""

from __future__ import annotations

import importlib
import json

import golden_harness as gh

GOLDEN_DIR = gh.REPO_ROOT / "tests" / "golden" / "forward_ad"


def tangents_for(case: dict, inputs: dict) -> dict:
    return {name: gh._weight(case["id"], f"T/{name}", rec["shape"], rec["dtype"])
            for name, rec in inputs.items() if rec["requires_grad"]}


def run_forward(mod, case: dict, inputs: dict, tangents: dict, *, requires_grad=True):
    """(outputs, result record) of the case with dual inputs (primals requiring grad as the case
    says), under ``mod``."""
    fwAD = importlib.import_module(mod.__name__ + ".autograd.forward_ad")
    with fwAD.dual_level():
        tensors = {}
        for name, rec in inputs.items():
            t = gh.to_tensor(mod, rec, requires_grad and rec["requires_grad"])
            if name in tangents:
                t = fwAD.make_dual(t, gh.to_tensor(mod, tangents[name]))
            tensors[name] = t
        try:
            result = gh.evaluate(mod, case, tensors)
        except Exception as exc:  # noqa: BLE001 - the error is the record
            return None, {"error": {"type": type(exc).__name__, "message": str(exc)}}
        outputs = list(result) if isinstance(result, (tuple, list)) else [result]
        record = []
        for o in outputs:
            t = fwAD.unpack_dual(o).tangent if isinstance(o, mod.Tensor) else None
            record.append(None if t is None else gh.encode_tensor(t))
        return outputs, {"outputs": record}


def golden_entry(torch, case: dict) -> dict:
    inputs = gh.make_inputs(case)
    tangents = tangents_for(case, inputs)
    _, record = run_forward(torch, case, inputs, tangents, requires_grad=True)
    return {"tangents": tangents, **record}


def load_golden() -> dict:
    cases = {}
    for path in sorted(GOLDEN_DIR.glob("*.json")):
        with path.open() as f:
            cases.update(json.load(f)["cases"])
    return cases


def write_golden(family: str, entries: dict, torch_version: str) -> None:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    lines = ["{" + f'"torch_version": {json.dumps(torch_version)},', '"cases": {',
             ",\n".join(f"{json.dumps(k)}: {json.dumps(v, allow_nan=False, separators=(',', ':'))}"
                        for k, v in entries.items()),
             "}}"]
    (GOLDEN_DIR / f"{family}.json").write_text("\n".join(lines) + "\n")
