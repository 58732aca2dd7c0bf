"""``--anomaly``: where the first non-finite value was born, forward and backward.

:class:`AnomalyWatch` only observes: it is told of every forward op's result
(``graph.forward_observers``) and of what every backward formula returned
(``engine.apply_observers``), and keeps the first of each that turned finite
inputs into a non-finite result.  The script runs as it would without it.

The record (docs/cli.md, "anomaly")::

    {"forward": {"source", "line", "column", "end_column", "op", "inputs"} | None,
     "backward": {"node", "source", "line", "column", "end_column"} | None,
     "path": [{"node", "line", "column", "end_column"}, ...]}

``path`` runs from the backward node down ``next_functions`` to the node the
forward op made (empty when either is missing or one does not reach the other).
An op inside a custom Function's ``forward`` runs without a graph: the node of that
``apply`` stands for it.

A gradient can also arrive non-finite without a formula making it:
``backward(gradient=g)`` or ``autograd.grad(grad_outputs=g)`` with a non-finite
``g``, or a hook's result.  The backward record is then the first node that
received it; when ``g`` is (a view of) ``--set x`` / ``--param x`` data, with
``"source": "--set x"`` and no line, as in the forward record.
"""

from __future__ import annotations

import re
import weakref

import numpy as np

SHOWN_VALUES = 4  # offending values listed per input


def _nonfinite(a) -> bool:
    return a.dtype.kind in "fc" and not np.isfinite(a).all()


def _json_number(v):
    """A JSON-safe number: non-finite ones as the strings ``"nan"``, ``"inf"``, ``"-inf"``."""
    if isinstance(v, (complex, np.complexfloating)):
        return str(v)
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    v = float(v)
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    return v


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def op_name(op) -> str:
    """``log`` for the op whose node is ``LogBackward0``; ``tensor`` for a new tensor."""
    if isinstance(op, str):
        return op
    name = op.name.rsplit("::", 1)[-1]
    name = re.sub(r"Backward\d*$", "", name)
    return _CAMEL.sub("_", name).lower()


def _values_at(arr, out, positions):
    """``arr``'s values where the output went bad (broadcast), else its first values."""
    a = np.asarray(arr)
    try:
        b = np.broadcast_to(a, out.shape)
        picked = [b[p] for p in positions]
    except ValueError:
        picked = list(a.reshape(-1)[:SHOWN_VALUES])
    return [_json_number(v) for v in picked]


class AnomalyWatch:
    """Observer of one run: the first forward op and the first backward node that
    made non-finite values from finite ones."""

    def __init__(self, bindings=None):
        self.forward = None  # (record dict, node made by the op or None)
        self.backward = None  # (where the non-finite gradient entered or None, node)
        # the forward record's op made no node: the next node recorded may stand for it
        self._link_open = False
        # nodes a backward formula handed a non-finite gradient (weakly: a training loop's
        # old graphs go)
        self._fed_bad = weakref.WeakSet()
        self.bindings = {}  # name -> (option, tensor or value) of non-finite --set / --param data
        self.origins = None  # node -> (Source, line, col, end_col); set by the session
        for option, name, value in bindings or ():
            if _binding_nonfinite(value):
                self.bindings[name] = (option, value)

    # ------------------------------------------------------------ observers
    def on_forward(self, op, tensors, arrays, attrs, results) -> None:
        if self.forward is not None:
            return
        from ..autograd import engine
        if engine.active:
            return  # a backward formula's op: the backward check sees its result
        outs = results if type(results) is tuple else (results,)
        bad = None
        for r in outs:
            if r is not None and _nonfinite(r._data):
                bad = r
                break
        if bad is None:
            return
        self.forward = (self._forward_record(op, tensors, arrays, attrs, bad), bad._grad_fn)
        self._link_open = bad._grad_fn is None

    def on_record(self, node, inputs, outputs, call) -> None:
        """A custom Function's node, recorded right after its ``forward`` made the forward
        record's non-finite value from finite inputs, stands for the op that made it."""
        if not self._link_open:
            return
        self._link_open = False
        from ..autograd.function import Function
        cls = call[0] if type(call) is tuple and call else None
        if not (isinstance(cls, type) and issubclass(cls, Function)):
            return
        if any(t is not None and _nonfinite(t._data) for t in inputs):
            return  # it was given the non-finite value: not where it was born
        if any(_nonfinite(t._data) for t in outputs):
            self.forward = (self.forward[0], node)

    def on_apply(self, node, grads_out, grads_in) -> None:
        if self.backward is not None:
            return
        bad_in = [k for k, g in enumerate(grads_in) if g is not None and _nonfinite(g._data)]
        if not bad_in:
            return
        bad_out = [g for g in grads_out if g is not None and _nonfinite(g._data)]
        if not bad_out:
            self.backward = (None, node)  # born here
            return
        if node not in self._fed_bad:
            # no formula handed it the non-finite gradient: it came in with the pass's seed
            # (backward's gradient, grad's grad_outputs) or a hook made it; this node is the
            # first to have it -- and --set x data is named as such
            entered = None
            for g in bad_out:
                entered = entered or self._binding_of(g, g._data, tensors_only=True)
            self.backward = (entered, node)
            return
        nexts = node.next_functions
        for k in bad_in:  # it was handed a non-finite gradient: not where it was born
            nxt = nexts[k][0] if k < len(nexts) else None
            if nxt is not None:
                self._fed_bad.add(nxt)

    def __enter__(self):
        from ..autograd import engine, graph
        graph.forward_observers.append(self.on_forward)
        graph.record_hooks.append(self.on_record)
        engine.apply_observers.append(self.on_apply)
        return self

    def __exit__(self, *exc):
        from ..autograd import engine, graph
        for lst, fn in ((graph.forward_observers, self.on_forward), (graph.record_hooks, self.on_record),
                        (engine.apply_observers, self.on_apply)):
            try:
                lst.remove(fn)
            except ValueError:
                pass
        return False

    # ------------------------------------------------------------ records
    def _forward_record(self, op, tensors, arrays, attrs, bad) -> dict:
        from ..lang import current_span

        out = bad._data
        flat = np.flatnonzero(~np.isfinite(out))[:SHOWN_VALUES]
        positions = [np.unravel_index(int(i), out.shape) for i in flat]
        names = getattr(op, "inputs", ())
        inputs = []
        entered = None  # a non-finite --set/--param value that this op read
        for i, arr in enumerate(arrays):
            t = tensors[i] if i < len(tensors) else None
            if t is None and not isinstance(arr, (int, float, complex, np.ndarray, np.number)):
                continue
            name = names[i] if i < len(names) else f"input{i}"
            a = t._data if t is not None else arr
            rec = {"name": name, "shape": list(np.shape(a)), "values": _values_at(a, out, positions)}
            inputs.append(rec)
            if entered is None and np.asarray(a).dtype.kind in "fc" and not np.isfinite(a).all():
                entered = self._binding_of(t, a)
        for k, v in (attrs or {}).items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                inputs.append({"name": k, "shape": [], "values": [_json_number(v)]})
        if entered is not None:
            return {"source": entered, "line": None, "column": None, "end_column": None,
                    "op": op_name(op), "inputs": inputs}
        pos = current_span()
        src = line = col = end = None
        if pos is not None:
            src, line, col, end = pos[0].name, pos[1], pos[2], pos[3]
        return {"source": src, "line": line, "column": col, "end_column": end,
                "op": op_name(op), "inputs": inputs}

    def _binding_of(self, t, a, tensors_only=False):
        """``--set x`` when the non-finite input is (a view of) that binding's data."""
        from ..tensor import Tensor
        for name, (option, v) in self.bindings.items():
            if isinstance(v, Tensor):
                if t is v or np.shares_memory(np.asarray(a), v._data):
                    return f"{option} {name}"
        if tensors_only:
            return None
        # a value that is not a tensor (a float, a list): it entered as a number
        for name, (option, v) in self.bindings.items():
            if not isinstance(v, Tensor):
                return f"{option} {name}"
        return None

    def _where(self, node):
        w = self.origins.get(node) if (self.origins is not None and node is not None) else None
        if w is None:
            return None, None, None, None
        return w[0].name, w[1], w[2], w[3]

    def _backward_record(self, node, entered=None) -> dict:
        if entered is not None:
            return {"node": node.name(), "source": entered, "line": None, "column": None,
                    "end_column": None}
        src, line, col, end = self._where(node)
        return {"node": node.name(), "source": src, "line": line, "column": col, "end_column": end}

    # ------------------------------------------------------------ results
    @property
    def found(self) -> bool:
        return self.forward is not None or self.backward is not None

    def path(self) -> list:
        """Nodes from the backward node down to the node the forward op made (breadth first)."""
        if self.forward is None or self.backward is None:
            return []
        start, goal = self.backward[1], self.forward[1]
        if goal is None:
            return []
        parent = {start: None}
        queue = [start]
        for node in queue:  # the list grows while it is read: a breadth-first walk
            if node is goal:
                break
            for nxt, _ in node.next_functions:
                if nxt is not None and nxt not in parent:
                    parent[nxt] = node
                    queue.append(nxt)
        if goal not in parent:
            return []
        chain = []
        node = goal
        while node is not None:
            chain.append(node)
            node = parent[node]
        chain.reverse()
        out = []
        for n in chain:
            _src, line, col, end = self._where(n)
            out.append({"node": n.name(), "line": line, "column": col, "end_column": end})
        return out

    def record(self) -> dict:
        # the backward record's position is looked up at the end: the origins are complete then
        back = None
        if self.backward is not None:
            back = self._backward_record(self.backward[1], self.backward[0])
        return {"forward": self.forward[0] if self.forward is not None else None,
                "backward": back, "path": self.path()}


def _binding_nonfinite(v) -> bool:
    from ..tensor import Tensor
    if isinstance(v, Tensor):
        return _nonfinite(v._data)
    try:
        a = np.asarray(v)
    except Exception:
        return False
    return a.dtype.kind in "fc" and not np.isfinite(a).all()


def bindings_of(req, bindings) -> list:
    """(option, name, value) of each ``--set`` / ``--param`` binding, the last one per name."""
    from .inputs import split_binding
    option = {}
    for opt, items in (("--set", req.sets), ("--param", req.params)):
        for text in items:
            try:
                name, _ = split_binding(opt, text)
            except Exception:
                continue
            option[name] = opt
    return [(option.get(name, "--set"), name, v) for name, v in bindings.items()]


# ------------------------------------------------------------------ text

def _at(rec) -> str:
    if rec["line"] is None:
        return rec["source"] or "?"
    col = f":{rec['column']}" if rec.get("column") else ""
    return f"{rec['source']}:{rec['line']}{col}"


def _source_lines(sources, rec, width: int) -> list:
    """The statement's line with carets under the sub-expression (fitted to ``width``)."""
    if rec["line"] is None:
        return []
    text = ""
    for src in sources:
        if src.name == rec["source"]:
            text = src.line_text(rec["line"]).expandtabs(4)
    stripped = text.strip()
    if not stripped:
        return []
    indent = len(text) - len(text.lstrip())
    col, end = rec.get("column"), rec.get("end_column")
    if col is None:
        return [_cut("    " + stripped, width)]
    start = max(col - 1 - indent, 0)
    stop = max(start + 1, (end or col + 1) - 1 - indent)
    if 4 + len(stripped) <= width:
        return ["    " + stripped, "    " + " " * start + "^" * min(stop - start, len(stripped) - start)]
    return [_cut("    " + stripped[start:stop], width)]  # too wide: the sub-expression alone


def _head(kind: str, what: str, width: int) -> list:
    line = f"agrad: anomaly: {kind}: {what}"
    return [line] if len(line) <= width else [f"agrad: anomaly: {kind}:", f"    {what}"]


def _cut(line: str, width: int) -> str:
    return line if len(line) <= width else line[:width - 1] + "…"


def _fmt_values(values) -> str:
    return ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in values)


def _entered(rec) -> bool:
    """A record of data that came in through ``--set x`` / ``--param x``."""
    return rec["line"] is None and bool(rec["source"]) and rec["source"].startswith("--")


def report_lines(record: dict, sources, width: int) -> list:
    """The ``--anomaly`` report for standard error, each line at most ``width`` long."""
    fwd, back, path = record["forward"], record["backward"], record["path"]
    lines = []
    if fwd is None and back is None:
        return [_cut("agrad: anomaly: none (every forward value and backward gradient stayed finite)",
                     width)]
    if fwd is not None:
        if _entered(fwd):
            lines += _head(f"non-finite data entered through {fwd['source']}",
                           f"first used by {fwd['op']}", width)
        else:
            lines += _head("first non-finite value", f"{fwd['op']} at {_at(fwd)}", width)
            lines += _source_lines(sources, fwd, width)
        for inp in fwd["inputs"]:
            shape = "[" + ", ".join(map(str, inp["shape"])) + "]"
            lines.append(f"    {inp['name']} {shape}: {_fmt_values(inp['values'])}")
    else:
        lines.append("agrad: anomaly: every forward value stayed finite")
    if back is not None:
        if _entered(back):
            lines += _head(f"non-finite gradient entered through {back['source']}",
                           f"first received by {back['node']}", width)
        else:
            lines += _head("first non-finite gradient", f"{back['node']} at {_at(back)}", width)
            lines += _source_lines(sources, back, width)
        steps = [p["node"] + (f" (line {p['line']})" if p["line"] is not None else "") for p in path]
        one = "    path: " + " -> ".join(steps)
        if len(steps) > 1 and len(one) > width:
            lines.append("    path:")
            lines += [f"      {'-> ' if i else ''}{step}" for i, step in enumerate(steps)]
        elif steps:
            lines.append(one)
    else:
        lines.append("agrad: anomaly: every backward gradient stayed finite")
    return [_cut(ln, width) for ln in lines]


def anomaly_error(record: dict) -> dict:
    """The JSON ``error`` of a run whose script succeeded but made a non-finite value."""
    fwd, back = record["forward"], record["backward"]
    first = fwd if fwd is not None else back
    if fwd is not None:
        what = (f"non-finite data entered through {fwd['source']} (first used by {fwd['op']})"
                if _entered(fwd) else f"a non-finite value was made by {fwd['op']}")
    else:
        what = (f"a non-finite gradient entered through {back['source']} (first received by "
                f"{back['node']})" if _entered(back) else f"a non-finite gradient was made by {back['node']}")
    return {"type": "AnomalyDetected", "message": what + " (see \"anomaly\")",
            "source": first["source"], "line": first["line"], "column": first.get("column")}
