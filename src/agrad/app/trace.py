"""``agrad trace``: the backward pass as the engine ran it, step by step.

:class:`TraceRecorder` observes the engine (``engine.observers``,
``apply_observers``, ``hook_observers``, ``accumulate_observers``) and keeps,
for the last backward pass of the run, one :class:`TraceStep` per node in the
order the engine ran them: the gradients that arrived (after the tensor hooks
and pre-hooks), the saved tensors the formula read with the version each
expected and had, the hooks that fired and what they returned, the gradient
sent along each edge, and for ``AccumulateGrad`` the leaf's ``.grad`` after
accumulation.  Gradients are kept as summaries (shape, norm, min, max; the
values themselves when small), so a trace of a long run stays small.
"""

from __future__ import annotations

import math

#: elements up to which a gradient's values are kept (JSON ``values``)
SMALL = 16


_NAMES: dict = {}  # numpy dtype -> its name (numpy's dtype.name is slow to compute)


def summary(t) -> dict | None:
    """shape, dtype, norm, min, max, nonfinite (and ``values`` when small) of a gradient."""
    if t is None:
        return None
    data = t._data
    dt = data.dtype
    name = _NAMES.get(dt)
    if name is None:
        name = _NAMES[dt] = dt.name
    n = data.size
    if n > SMALL or n == 0 or dt.kind not in "fiub":
        from ..render.graphview import grad_summary
        out = grad_summary(t)
        out["dtype"] = name
        return out
    # small: plain Python is several times faster than numpy's reductions here
    vals = data.ravel().tolist()
    if dt.kind != "f":
        vals = [float(v) for v in vals]
    sq = math.fsum([v * v for v in vals])
    lo, hi = min(vals), max(vals)
    finite = math.isfinite(sq)
    if not finite:  # a NaN or infinity, or squares past the float range
        finite = all(math.isfinite(v) for v in vals)
        if not finite:
            nan = any(v != v for v in vals)
            sq = float("nan") if nan else float("inf")
            if nan:
                lo = hi = float("nan")
    jf = _json_float
    # ``values`` as float64 here; the JSON view writes float32 ones as their shortest decimal
    return {"shape": list(data.shape), "norm": jf(math.sqrt(sq)), "min": jf(lo), "max": jf(hi),
            "nonfinite": not finite, "values": vals, "dtype": name}


def _json_float(x: float):
    if math.isfinite(x):
        return x
    if x != x:
        return "nan"
    return "inf" if x > 0 else "-inf"


class _Grad:
    """A gradient's data as :func:`summary` reads it."""

    __slots__ = ("_data",)

    def __init__(self, data):
        self._data = data


def _sum_to(a, shape):
    """A broadcast gradient summed down to ``shape`` (the engine does it with agrad ops)."""
    lead = a.ndim - len(shape)
    if lead > 0:
        a = a.sum(axis=tuple(range(lead)))
    axes = tuple(i for i, (n, m) in enumerate(zip(a.shape, shape)) if m == 1 and n != 1)
    if axes:
        a = a.sum(axis=axes, keepdims=True)
    return a.reshape(shape)


class TraceStep:
    __slots__ = ("index", "node", "grads_in", "grads_out", "saved", "hooks", "accumulated",
                 "retained", "ran")

    def __init__(self, index, node):
        self.index = index
        self.node = node
        self.grads_in = {}  # output index -> summary
        self.grads_out = None  # [(input index, next node, summary)] once the formula ran
        self.saved = []  # (name, shape, dtype, saved version, version now or None, freed)
        self.hooks = []  # (kind, output index or None, hook name, returned summary | "kept")
        self.accumulated = None  # the leaf's .grad after AccumulateGrad
        self.retained = []  # (output index, .grad summary) of tensors that retain_grad()
        self.ran = False


def _hook_name(fn) -> str:
    for attr in ("__name__", "name"):
        try:
            v = getattr(fn, attr, None)
        except Exception:
            v = None
        if isinstance(v, str):
            return v
    return type(fn).__name__


def _returned(value):
    """What a hook returned: "kept" for None, else the new gradient(s)' summaries."""
    if value is None:
        return "kept"
    from ..tensor import Tensor
    if isinstance(value, Tensor):
        return summary(value)
    try:
        return [summary(v) if isinstance(v, Tensor) else None for v in value]
    except TypeError:
        return repr(type(value).__name__)


class TraceRecorder:
    """Observer of the engine; ``steps`` is the last backward pass of the run."""

    def __init__(self):
        self.steps: list[TraceStep] = []
        self.passes = 0  # backward passes seen
        self._run = None
        self._pending = []  # hooks that fired before their node's step was opened
        self._sent = {}  # id(gradient) -> (gradient, summary) sent along an edge, not yet arrived
        self._current = None

    def _check_run(self):
        runs = self._engine.runs
        if runs != self._run:
            self._run = runs
            self.passes += 1
            self.steps = []
            self._pending = []
            self._sent = {}
            self._current = None

    def executed(self, failed: bool = False) -> list:
        """The steps PyTorch's engine would run: not the nodes a pass of ``autograd.grad`` does
        not need, nor its AccumulateGrad nodes (it captures their gradient instead); the step
        that raised, when the pass failed.  Numbered again from 0."""
        steps = self.steps
        last = steps[-1] if steps else None
        out = []
        for st in steps:
            stale = any(now is not None and now != v for _n, _s, _d, v, now, _f in st.saved)
            if st.ran or stale or (failed and st is last):
                st.index = len(out)
                out.append(st)
        return out

    # ------------------------------------------------------------ observers
    def on_node(self, node, grads) -> None:
        self._check_run()
        step = TraceStep(len(self.steps), node)
        sent = self._sent
        grads_in = step.grads_in
        for idx in (sorted(grads) if len(grads) > 1 else grads):
            g = grads[idx]
            hit = sent.pop(id(g), None)
            if hit is not None and hit[0] is g and node._pre_hooks is None:
                grads_in[idx] = hit[1]
            else:
                grads_in[idx] = summary(g)
        if self._pending:
            step.hooks = [h for n, h in self._pending if n is node]
            self._pending = []
        saved = node._saved
        if saved:
            rows = step.saved
            for slot in saved.values():
                shape, dtype = slot.meta
                t = slot.tensor
                rows.append((slot.name, shape, dtype.name, slot.version,
                             t._vc[0] if t is not None else None, slot.freed))
        retained = node._retained
        if retained:
            for idx, ref in retained.items():
                t = ref()
                if t is not None and idx in grads:
                    step.retained.append((idx, summary(t._grad)))
        self.steps.append(step)
        self._current = step

    def on_apply(self, node, grads_out, grads_in) -> None:
        step = self._current
        if step is None or step.node is not node:
            return
        step.ran = True
        nexts = node.next_functions
        metas = node._input_meta
        out = []
        for k, g in enumerate(grads_in):
            nxt = nexts[k][0] if k < len(nexts) else None
            if nxt is None:
                continue
            if g is not None and k < len(metas) and metas[k] is not None \
                    and g._data.shape != metas[k][0]:
                g = _Grad(_sum_to(g._data, tuple(metas[k][0])))  # as the engine sends it
            sm = summary(g)
            if g is not None and type(g) is not _Grad:
                self._sent[id(g)] = (g, sm)
            out.append((k, nxt, sm))
        step.grads_out = out

    def on_hook(self, node, kind, index, fn, returned) -> None:
        self._check_run()
        rec = (kind, index, _hook_name(fn), _returned(returned))
        step = self._current
        if kind == "post" and step is not None and step.node is node:
            step.hooks.append(rec)
        else:
            self._pending.append((node, rec))

    def on_accumulate(self, node, grad) -> None:
        step = self._current
        if step is None or step.node is not node:
            return
        step.ran = True
        var = node.variable
        step.accumulated = summary(var._grad) if var is not None else None

    def __enter__(self):
        from ..autograd import engine
        self._engine = engine
        engine.observers.append(self.on_node)
        engine.apply_observers.append(self.on_apply)
        engine.hook_observers.append(self.on_hook)
        engine.accumulate_observers.append(self.on_accumulate)
        return self

    def __exit__(self, *exc):
        from ..autograd import engine
        for lst, fn in ((engine.observers, self.on_node), (engine.apply_observers, self.on_apply),
                        (engine.hook_observers, self.on_hook),
                        (engine.accumulate_observers, self.on_accumulate)):
            try:
                lst.remove(fn)
            except ValueError:
                pass
        return False
