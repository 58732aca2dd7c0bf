"""``agrad check --nodes``: each node's backward formula checked alone, in float64.

The graph is replayed once in float64 (:class:`.check.Replay`) to get every
node's inputs; then each node runs again on its own, on copies of those
inputs that require grad: its backward (the op's formula, or a custom
``Function``'s ``backward``) for a fixed random gradient ``v`` of its
outputs is compared with central differences of ``sum(v * forward(x))``
for each floating input (every element, or ``samples`` of them), with
gradcheck's rule ``|a - n| <= atol + rtol * |n|``.  Nodes are reported in
the order the engine runs them (the root first); the first one that fails
is named with the sub-expression that made it -- usually a custom
Function whose ``backward`` does not match its ``forward``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..autograd import grad_mode
from ..tensor import Tensor
from .check import _NUMBER, CheckError, Replay, _f64


@dataclass
class NodeResult:
    node: object
    name: str
    checked: int  # elements compared, over all inputs
    max_abs_error: float
    passed: bool
    worst_input: int | None = None  # index in next_functions of the worst input
    note: str | None = None  # why a node was not checked


def _inputs(replay, n, values):
    """The node's inputs as replayed (float64 tensors), Python numbers, and which need grad."""
    call = replay.calls[n]
    ins, numbers, wants = [], {}, []
    for k, inp in enumerate(call.inputs):
        if inp is None:
            ins.append(None)
            wants.append(False)
            continue
        key, arr = inp
        if key is _NUMBER:
            ins.append(None)
            numbers[k] = arr
            wants.append(False)
            continue
        v = values.get(key) if key is not None else None
        data = v._data if v is not None else _f64(arr)
        ins.append(Tensor._make(np.array(data, copy=True)))
        wants.append(key is not None and data.dtype.kind == "f")
    return call, ins, numbers, wants


def check_nodes(target: Tensor, calls: dict, *, eps, atol, rtol, samples, seed=0) -> list:
    """A :class:`NodeResult` per node behind ``target``, in the engine's order."""
    if target._grad_fn is None:
        raise CheckError("the target is a leaf: there is no graph to check")
    replay = Replay((target._grad_fn, target._output_nr), calls)
    values = {}
    leaf_ts = {leaf: Tensor._make(replay.leaf_values[leaf].copy()) for leaf in replay.leaves}
    with grad_mode.no_grad():
        replay.run(leaf_ts, values)
    rng = np.random.default_rng(seed)
    results = []
    for n in sorted(replay.order, key=lambda node: -node._seq):
        try:
            results.append(_check_one(replay, n, values, rng, eps, atol, rtol, samples))
        except Exception as exc:  # the node cannot run alone: say so, check the others
            results.append(NodeResult(n, type(n).__name__, 0, 0.0, True,
                                      note=f"not checked: {type(exc).__name__}: {exc}"))
    return results


def _check_one(replay, n, values, rng, eps, atol, rtol, samples) -> NodeResult:
    call, ins, numbers, wants = _inputs(replay, n, values)
    name = type(n).__name__
    if not any(wants):
        return NodeResult(n, name, 0, 0.0, True, note="no floating input needs a gradient")
    base = [t._data if t is not None else None for t in ins]

    def forward(tensors, grad):
        ctx = grad_mode.enable_grad() if grad else grad_mode.no_grad()
        with ctx:
            outs = replay._run_node(n, call, tensors, numbers)
        return [o for o in outs[: max(call.n_outputs, 1)] if isinstance(o, Tensor)]

    leaves = [None if t is None else Tensor._make(np.array(b, copy=True), requires_grad=w)
              for t, b, w in zip(ins, base, wants)]
    outs = forward(leaves, True)
    outs = [o for o in outs if o._grad_fn is not None and o._data.dtype.kind == "f"]
    if not outs:
        return NodeResult(n, name, 0, 0.0, True, note="its outputs have no gradient")
    vs = [rng.standard_normal(o._data.shape) for o in outs]
    from ..autograd import engine
    diff = [t for t, w in zip(leaves, wants) if w]
    grads = engine.grad(outs, diff, [Tensor._make(v) for v in vs], allow_unused=True)

    def scalar(k, flat, delta):
        vals = [None if b is None else Tensor._make(np.array(b, copy=True)) for b in base]
        vals[k]._data.reshape(-1)[flat] += delta
        os_ = forward(vals, False)
        return sum(float((o._data.astype(np.float64) * v).sum()) for o, v in zip(os_, vs))

    checked, worst, worst_k, passed = 0, 0.0, None, True
    gi = 0
    for k, w in enumerate(wants):
        if not w:
            continue
        g = grads[gi]
        gi += 1
        a_full = np.zeros(base[k].shape) if g is None else g._data.astype(np.float64)
        size = base[k].size
        idx = np.arange(size) if not samples or size <= samples else np.sort(
            rng.choice(size, size=samples, replace=False))
        for i in idx:
            num = (scalar(k, int(i), eps) - scalar(k, int(i), -eps)) / (2 * eps)
            a = float(a_full.reshape(-1)[i])
            err = abs(a - num)
            checked += 1
            if not err <= atol + rtol * abs(num):  # NaN fails too
                passed = False
            if not err <= worst:  # NaN is the worst
                worst, worst_k = err, k
    return NodeResult(n, name, checked, worst, passed, worst_input=worst_k)
