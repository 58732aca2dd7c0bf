"""``agrad check``: replay a recorded graph in float64 and compare gradients.

While the script runs, :class:`Recorder` notes every recorded op call --
the op, its input tensors (their values copied as they were), its
attributes -- and every custom ``Function.apply`` call.  Afterwards
:class:`Replay` recomputes the target from the graph's leaves in float64,
node by node in the order the nodes were made (each built-in node runs its
op's forward again; a custom Function node calls its class's ``forward``
through ``apply``).  Inputs that needed no gradient (constants, detached
tensors) keep the values they had when the node was made.

The analytic gradient is the replayed graph's own backward pass (the same
formulas and custom ``backward`` methods, in float64); the numerical one is
central differences of the replayed forward, ``(f(x+eps) - f(x-eps)) /
2eps``, on every element of each leaf or on ``samples`` of them.  They are
compared as PyTorch's gradcheck compares (``|a - n| <= atol + rtol * |n|``).
A non-scalar target is checked through ``(target * v).sum()`` for a fixed
random ``v``.  When a leaf fails, each custom Function in the graph is
checked alone (its backward against differences of its forward) and the one
whose backward disagrees is named.

The engine knows nothing of this module: the recorder is one of the engine's
record hooks (``agrad.autograd.graph.record_hooks``) while a check's script runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import dtypes
from ..autograd import grad_mode, graph
from ..autograd.graph import AccumulateGrad, accumulator_of
from ..tensor import Tensor

DEFAULT_EPS = 1e-6
DEFAULT_ATOL = 1e-5
DEFAULT_RTOL = 1e-3
DEFAULT_SAMPLES = 64


class CheckError(Exception):
    """The graph cannot be replayed (an op agrad cannot run again)."""


# ------------------------------------------------------------------ recording

@dataclass
class _Call:
    kind: str  # "op" or "function"
    target: object  # the Op, or the Function class
    inputs: list  # [(node, output_nr) | None, array copy | None] per tensor input (op) / arg
    attrs: dict
    n_outputs: int


class Recorder:
    """Notes each recorded op call while installed (``with Recorder() as rec:``),
    through the engine's record hooks."""

    def __init__(self):
        import weakref
        # weak keys: nodes of graphs the script dropped are freed as usual
        self.calls = weakref.WeakKeyDictionary()  # node -> _Call

    def __call__(self, node, inputs, outputs, call):
        if call is None or node in self.calls:
            return
        if call[0] == "view":  # an in-place op through a view: ("view", base edge, value, inner, index)
            _, base_edge, before, inner, idx = call
            inner_call = self.calls.get(inner)
            if inner_call is not None:
                if base_edge is None:  # the base had no history: a constant
                    base_in = (None, np.array(before, copy=True))
                elif isinstance(base_edge[0], AccumulateGrad):
                    base_in = (base_edge, np.array(before, copy=True))
                else:
                    base_in = (base_edge, None)
                self.calls[node] = _Call("view", inner_call, [base_in] + inner_call.inputs[1:], {"idx": idx}, 1)
            return
        if len(call) == 3:  # a built-in op: (op, arrays, attrs)
            op, arrays, attrs = call
            ins = [_snap(t, a) for t, a in zip(inputs, arrays)]
            self.calls[node] = _Call("op", op, ins, dict(attrs), len(node._out_meta))
        else:  # a custom Function: (cls, values before forward, args, kwargs)
            cls, before, args, kwargs = call
            ins = [(_snap(a, b) if isinstance(a, Tensor) else None) for a, b in zip(args, before)]
            self.calls[node] = _Call("function", cls, ins, {"args": args, "kwargs": kwargs},
                                     len(node._out_meta))

    def __enter__(self):
        graph.record_hooks.append(self)
        return self

    def __exit__(self, *exc):
        graph.record_hooks.remove(self)
        return False


_NUMBER = object()  # marks a Python number the op took in place of a tensor


def _snap(t, arr):
    """How a replay gets this input: from a node's output, or the value it had."""
    if t is None:
        return (_NUMBER, arr)  # the op read a Python number (its "array") here
    if t._requires_grad:
        fn = t._grad_fn
        if fn is not None:
            return ((fn, t._output_nr), None)
        return ((accumulator_of(t), 0), np.array(arr, copy=True))
    return (None, np.array(arr, copy=True))


# ------------------------------------------------------------------ replay

def _f64(arr):
    arr = np.asarray(arr)
    return arr.astype(np.float64) if arr.dtype.kind == "f" else arr


def _attr64(v):
    if isinstance(v, dtypes.dtype) and v.is_floating_point:
        return dtypes.float64
    if isinstance(v, np.dtype) and v.kind == "f":
        return np.dtype(np.float64)
    return v


class Replay:
    """The target as a function of its leaves, recomputed in float64."""

    def __init__(self, root_edge, calls: dict):
        self.root, self.root_nr = root_edge
        self.calls = calls
        self.order = []  # nodes to run, in the order they were made
        self.leaves = []  # AccumulateGrad nodes, in the order the graph first uses them
        self.leaf_values = {}
        seen = set()
        stack = [self.root]
        if isinstance(self.root, AccumulateGrad):
            raise CheckError("the target is a leaf: there is no graph to check")
        while stack:
            n = stack.pop()
            if n in seen or n is None:
                continue
            seen.add(n)
            if isinstance(n, AccumulateGrad):
                continue
            call = calls.get(n)
            if call is None:
                raise CheckError(
                    f"{type(n).__name__} was not recorded while the script ran; agrad cannot replay it")
            self.order.append(n)
            for nxt, _ in n.next_functions:
                if nxt is not None and nxt not in seen:
                    stack.append(nxt)
        self.order.sort(key=lambda n: n._seq)
        # leaf values: as the leaf was when the graph used it first
        for n in self.order:
            for inp in self.calls[n].inputs:
                if inp is not None and type(inp[0]) is tuple and isinstance(inp[0][0], AccumulateGrad):
                    leaf = inp[0][0]
                    if leaf not in self.leaf_values:
                        self.leaf_values[leaf] = _f64(inp[1])
                        self.leaves.append(leaf)
        self.custom_nodes = {}  # original custom node -> replayed node (from the last recorded replay)
        self.custom_inputs = {}  # original custom node -> replayed input tensors

    def run(self, leaf_tensors: dict, values=None):
        """The replayed target (a float64 tensor); ``leaf_tensors``: leaf node -> tensor.
        ``values`` (a dict) receives every node's outputs: ``(node, index) -> tensor``."""
        values = {} if values is None else values
        for leaf, t in leaf_tensors.items():
            values[(leaf, 0)] = t
        for n in self.order:
            call = self.calls[n]
            ins = []
            numbers = {}
            for k, inp in enumerate(call.inputs):
                if inp is None:
                    ins.append(None)
                    continue
                key, arr = inp
                if key is _NUMBER:
                    ins.append(None)
                    numbers[k] = arr
                    continue
                if key is None:
                    ins.append(Tensor._make(_f64(arr)))
                else:
                    v = values.get(key)
                    if v is None:
                        v = Tensor._make(_f64(arr)) if arr is not None else None
                        if v is None:
                            raise CheckError(f"input of {type(n).__name__} is missing in the replay")
                    ins.append(v)
            try:
                outs = self._run_node(n, call, ins, numbers)
            except CheckError:
                raise
            except Exception as exc:
                raise CheckError(f"replaying {type(n).__name__} in float64 failed: "
                                 f"{type(exc).__name__}: {exc}") from exc
            # outputs in node order: differentiable outputs are recorded first
            for i, o in enumerate(outs[: max(call.n_outputs, 1)]):
                values[(n, i)] = o
        result = values.get((self.root, self.root_nr))
        if result is None:
            raise CheckError("the replay did not reach the target")
        return result

    def _run_node(self, n, call, ins, numbers):
        if call.kind == "view":  # the inner op on the base's viewed part, written back
            from ..ops.inplace_view import replace, take
            idx = call.attrs["idx"]
            out = self._run_node(n._inner, call.target, [take(ins[0], idx)] + ins[1:], numbers)
            return (replace(ins[0], out[0], idx),)
        if call.kind == "op":
            tensors = tuple(ins)
            arrays = [numbers[k] if k in numbers else t._data for k, t in enumerate(tensors)]
            attrs = {k: _attr64(v) for k, v in call.attrs.items()}
            out = call.target.apply(tensors, arrays, attrs)
            return out if type(out) is tuple else (out,)
        # a custom Function: its own forward, through apply (it records the new node)
        args = list(call.attrs["args"])
        for i, a in enumerate(args):
            if isinstance(a, Tensor):
                args[i] = ins[i]
        out = call.target.apply(*args, **call.attrs["kwargs"])
        outs = tuple(o for o in (out if isinstance(out, tuple) else (out,)) if isinstance(o, Tensor))
        self.custom_nodes[n] = next((o._grad_fn for o in outs if o._grad_fn is not None), None)
        self.custom_inputs[n] = [a for a in args if isinstance(a, Tensor)]
        return outs


# ------------------------------------------------------------------ the check

@dataclass
class LeafResult:
    name: str
    shape: tuple
    max_abs_error: float
    max_rel_error: float
    worst_index: list
    checked: int
    passed: bool
    node: str | None = None  # the custom Function node whose backward disagrees
    analytic: float | None = None  # at the worst element
    numerical: float | None = None


@dataclass
class CheckReport:
    target: str
    leaves: list = field(default_factory=list)
    custom_failures: list = field(default_factory=list)  # [(node name, where)]
    projected: tuple | None = None  # a non-scalar target's shape: checked as (target * v).sum()
    seed: int = 0

    @property
    def ok(self) -> bool:
        return all(leaf.passed for leaf in self.leaves)


def check_target(target: Tensor, target_name: str, calls: dict, *, leaf_names=None,
                 eps=DEFAULT_EPS, atol=DEFAULT_ATOL, rtol=DEFAULT_RTOL,
                 samples=DEFAULT_SAMPLES, node_where=None, seed=0) -> CheckReport:
    """Compare analytic and numerical gradients of ``target`` for every leaf."""
    if target._grad_fn is None:
        raise CheckError(f"{target_name} has no graph to check (it is a leaf)")
    replay = Replay((target._grad_fn, target._output_nr), calls)
    rng = np.random.default_rng(seed)
    shape = tuple(target._data.shape)
    v = None if target._data.size == 1 else rng.standard_normal(shape)

    def scalar(out):
        d = out._data.astype(np.float64)
        return float(d.sum()) if v is None else float((d * v).sum())

    leaves = replay.leaves
    base = {leaf: replay.leaf_values[leaf] for leaf in leaves}

    # analytic: the replayed graph's backward
    with grad_mode.enable_grad():
        leaf_ts = {leaf: Tensor._make(base[leaf].copy(), requires_grad=True) for leaf in leaves}
        out = replay.run(leaf_ts)
        from ..autograd import engine
        seed_grad = Tensor._make(np.ones(out._data.shape) if v is None else v.astype(np.float64))
        grads = engine.grad([out], [leaf_ts[leaf] for leaf in leaves], [seed_grad], allow_unused=True)
    analytic = {leaf: (np.zeros(base[leaf].shape) if g is None else g._data.astype(np.float64))
                for leaf, g in zip(leaves, grads)}
    custom = dict(replay.custom_nodes)
    custom_inputs = dict(replay.custom_inputs)

    def f(leaf, flat_index, delta):
        vals = {}
        for lf in leaves:
            arr = base[lf]
            if lf is leaf:
                arr = arr.copy()
                arr.reshape(-1)[flat_index] += delta
            vals[lf] = Tensor._make(arr)
        with grad_mode.no_grad():
            return scalar(replay.run(vals))

    report = CheckReport(target_name, seed=seed,
                         projected=None if v is None else tuple(int(n) for n in shape))
    names = leaf_names or (lambda n: None)
    for k, leaf in enumerate(leaves):
        arr = base[leaf]
        n = arr.size
        if samples and n > samples:
            idx = np.sort(rng.choice(n, size=samples, replace=False))
        else:
            idx = np.arange(n)
        a = analytic[leaf].reshape(-1)[idx]
        num = np.array([(f(leaf, int(i), eps) - f(leaf, int(i), -eps)) / (2 * eps) for i in idx])
        diff = np.abs(a - num)
        tol = atol + rtol * np.abs(num)
        with np.errstate(all="ignore"):
            denom = np.maximum(np.abs(a), np.abs(num))
            rel = np.where(denom > 0, diff / np.where(denom > 0, denom, 1), 0.0)
        bad = ~(diff <= tol)  # NaN counts as a failure
        passed = not bool(bad.any())
        if idx.size:
            with np.errstate(all="ignore"):
                score = np.where(np.isnan(diff), np.inf, diff / tol)
            w = int(np.argmax(score))
            worst = [int(x) for x in np.unravel_index(int(idx[w]), arr.shape)] if arr.ndim else []
            report_abs, report_rel = _nanmax(diff), _nanmax(rel)
            av, nv = float(a[w]), float(num[w])
        else:
            worst, report_abs, report_rel, av, nv = [], 0.0, 0.0, None, None
        report.leaves.append(LeafResult(
            name=names(leaf) or f"<leaf {k}>", shape=tuple(arr.shape),
            max_abs_error=report_abs, max_rel_error=report_rel, worst_index=worst,
            checked=int(idx.size), passed=passed, analytic=av, numerical=nv))

    if not report.ok and custom:
        for orig, new in custom.items():
            if new is None:
                continue
            if not _custom_ok(orig, new, custom_inputs[orig], calls[orig], eps, atol, rtol, samples, rng):
                where = node_where(orig) if node_where else None
                report.custom_failures.append((type(orig).__name__, where))
        if report.custom_failures:
            blamed = report.custom_failures[0][0]
            for leaf in report.leaves:
                if not leaf.passed:
                    leaf.node = blamed
    return report


def _nanmax(x):
    if x.size == 0:
        return 0.0
    if np.isnan(x).any():
        return float("nan")
    return float(np.max(x))


def _custom_ok(orig, new, inputs, call, eps, atol, rtol, samples, rng) -> bool:
    """Check one custom Function alone: its backward against differences of its forward."""
    cls = call.target
    args = list(call.attrs["args"])
    kwargs = call.attrs["kwargs"]
    tensor_pos = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
    base = [inputs[j]._data.astype(np.float64) if inputs[j]._data.dtype.kind == "f" else inputs[j]._data
            for j in range(len(tensor_pos))]
    wants = [isinstance(args[i], Tensor) and args[i]._requires_grad for i in tensor_pos]

    def run(vals, grad):
        a = list(args)
        for j, i in enumerate(tensor_pos):
            a[i] = vals[j]
        if grad:
            with grad_mode.enable_grad():
                return cls.apply(*a, **kwargs)
        with grad_mode.no_grad():
            return cls.apply(*a, **kwargs)

    try:
        leaves = [Tensor._make(b.copy(), requires_grad=w) for b, w in zip(base, wants)]
        out = run(leaves, True)
        outs = [o for o in (out if isinstance(out, tuple) else (out,))
                if isinstance(o, Tensor) and o._grad_fn is not None]
        if not outs:
            return True
        vs = [rng.standard_normal(o._data.shape) for o in outs]
        from ..autograd import engine
        diff_in = [t for t, w in zip(leaves, wants) if w]
        grads = engine.grad(outs, diff_in, [Tensor._make(v) for v in vs], allow_unused=True)

        def scalar(vals):
            o = run(vals, False)
            os_ = [x for x in (o if isinstance(o, tuple) else (o,)) if isinstance(x, Tensor)]
            return sum(float((x._data.astype(np.float64) * v).sum()) for x, v in zip(os_, vs))

        gi = 0
        for j, w in enumerate(wants):
            if not w:
                continue
            g = grads[gi]
            gi += 1
            a_full = np.zeros(base[j].shape) if g is None else g._data.astype(np.float64)
            n = base[j].size
            idx = np.arange(n) if not samples or n <= samples else rng.choice(n, size=samples, replace=False)
            for i in idx:
                vals_p = [Tensor._make(b.copy()) for b in base]
                vals_m = [Tensor._make(b.copy()) for b in base]
                vals_p[j]._data.reshape(-1)[i] += eps
                vals_m[j]._data.reshape(-1)[i] -= eps
                num = (scalar(vals_p) - scalar(vals_m)) / (2 * eps)
                a = a_full.reshape(-1)[i]
                if not abs(a - num) <= atol + rtol * abs(num):
                    return False
        return True
    except Exception:
        return False
