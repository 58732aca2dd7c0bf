"""Compare the order in which double-backward graphs are recorded, PyTorch against agrad.

Usage: PYTHONPATH=src python tools/graph_order.py [CASE_ID ...]   (default: every op case)

For each op case (tools/op_cases) whose output has a history, takes the inputs' gradients with
``create_graph=True`` under both libraries and lists their graphs' nodes in the order they were
made (PyTorch's ``_sequence_nr()``, agrad's ``_seq``), each with its next functions' names. The
backward pass runs nodes latest first, so this order decides the order in which the gradients
reaching one tensor add up: the last bits of a second derivative, and whether a ``-0.0`` or a
ZeroTensor survives. PyTorch's generated nodes compute their inputs' gradients in the order of
the inputs' names (``other`` before ``self``: div, mul, pow, hypot, xlogy; ``end, self, weight``:
lerp), and GCC evaluates the right operand of ``a * b`` first in FunctionsManual's formulas.
Prints ``ORDER`` (same nodes, another order) or ``GRAPH`` (other nodes) per differing case.
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def order(fn) -> list:
    """The nodes reachable from ``fn`` (AccumulateGrad aside) as (name, next names), oldest first."""
    out, todo, seen = [], [fn], []
    while todo:
        f = todo.pop(0)
        if f is None or any(f is s for s in seen):
            continue
        seen.append(f)
        if f.name() != "torch::autograd::AccumulateGrad":
            seq = f._sequence_nr() if hasattr(f, "_sequence_nr") else f._seq
            out.append((seq, f.name(), tuple(None if n is None else n.name() for n, _ in f.next_functions)))
        todo.extend(n for n, _ in f.next_functions)
    return [o[1:] for o in sorted(out, key=lambda o: o[0])]


def _orders(mod, case, inputs):
    import golden_harness as H

    tensors = {n: H.to_tensor(mod, r, r["requires_grad"]) for n, r in inputs.items()}
    try:
        res = H.evaluate(mod, case, tensors)
        outs = [o for o in (list(res) if isinstance(res, (tuple, list)) else [res])
                if getattr(o, "grad_fn", None) is not None and o.dtype.is_floating_point]
        if not outs:
            return None
        leaves = [tensors[n] for n, r in inputs.items() if r["requires_grad"]]
        gs = mod.autograd.grad(outs[0].sum(), leaves, allow_unused=True, create_graph=True)
    except Exception:  # noqa: BLE001 - errors are other tests' business
        return None
    return [None if g is None or g.grad_fn is None else order(g.grad_fn) for g in gs]


def main(ids: list[str]) -> None:
    import torch

    import agrad
    import golden_harness as H
    import op_cases

    warnings.simplefilter("ignore")
    n = differ = 0
    for family, cases in op_cases.families().items():
        for case in cases:
            if ids and case["id"] not in ids:
                continue
            inputs = H.make_inputs(case)
            t, a = _orders(torch, case, inputs), _orders(agrad, case, inputs)
            if t is None or a is None:
                continue
            n += 1
            if t != a:
                differ += 1
                same = len(t) == len(a) and all(
                    (x is None) == (y is None) and (x is None or sorted(map(repr, x)) == sorted(map(repr, y)))
                    for x, y in zip(t, a))
                print("ORDER" if same else "GRAPH", family, case["id"])
    print(f"{differ} of {n} cases record their double-backward graph otherwise than PyTorch", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
