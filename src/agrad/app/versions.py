"""Version timelines: which statement gave an in-place-modified tensor each version.

:class:`VersionRecorder` is told of every version bump (``graph.version_observers``)
and notes the sub-expression that was running; with ``saves`` it also notes,
as each node is recorded, which saved-tensor slots hold which version counter
and the version each expects.  It serves ``agrad graph --versions``, the
versions section of ``agrad trace``, and the sentence every in-place error
gets in the CLI: which statement broke the saved tensor.

Tensors are followed by their version counter (the ``_vc`` list that views
share with their base, as PyTorch's views share one counter).
"""

from __future__ import annotations

import weakref

#: versions kept per tensor (the last ones; a training loop bumps every step)
KEEP = 64


class Timeline:
    __slots__ = ("vc", "tensor", "versions", "dropped", "slots")

    def __init__(self, vc, tensor):
        self.vc = vc
        self.tensor = weakref.ref(tensor)
        self.versions = []  # (version, (Source, line, col, end) | None)
        self.dropped = 0  # older versions no longer kept
        self.slots = []  # (weakref node, slot name, expected version)


class VersionRecorder:
    def __init__(self, saves: bool = False):
        self.saves = saves
        self.timelines: dict = {}  # id(vc) -> Timeline
        self._saved: dict = {}  # id(vc) -> (vc, [(weakref node, slot name, version)])

    # ------------------------------------------------------------ observers
    def on_bump(self, t) -> None:
        from ..lang import current_span
        vc = t._vc
        tl = self.timelines.get(id(vc))
        if tl is None or tl.vc is not vc:
            tl = self.timelines[id(vc)] = Timeline(vc, t)
        tl.versions.append((vc[0], current_span()))
        if len(tl.versions) > KEEP:
            del tl.versions[0]
            tl.dropped += 1

    def on_record(self, node, inputs, outputs, call) -> None:
        saved = node._saved
        if not saved:
            return
        for slot in saved.values():
            t = slot.tensor
            if t is None:
                continue  # packed by saved_tensors_hooks: no version check
            vc = t._vc
            entry = self._saved.get(id(vc))
            if entry is None or entry[0] is not vc:
                entry = self._saved[id(vc)] = (vc, [])
            entry[1].append((weakref.ref(node), slot.name, slot.version))

    def __enter__(self):
        from ..autograd import graph
        graph.version_observers.append(self.on_bump)
        if self.saves:
            graph.record_hooks.append(self.on_record)
        return self

    def __exit__(self, *exc):
        from ..autograd import graph
        for lst, fn in ((graph.version_observers, self.on_bump), (graph.record_hooks, self.on_record)):
            try:
                lst.remove(fn)
            except ValueError:
                pass
        return False

    # ------------------------------------------------------------ queries
    def timeline_of(self, t):
        tl = self.timelines.get(id(t._vc))
        return tl if tl is not None and tl.vc is t._vc else None

    def slots_of(self, tl) -> list:
        """(node, slot name, expected version) of saved tensors sharing ``tl``'s counter."""
        entry = self._saved.get(id(tl.vc))
        if entry is None or entry[0] is not tl.vc:
            return []
        out = []
        for ref, name, version in entry[1]:
            node = ref()
            if node is not None:
                out.append((node, name, version))
        return out

    def breaker(self, t, expected: int):
        """The first version after ``expected`` and the span of the statement that made it."""
        tl = self.timeline_of(t)
        if tl is None:
            return None
        for version, span in tl.versions:
            if version > expected:
                return version, span
        return None


def where_text(span) -> str:
    """``b.add_(1)`` at ``<stdin>:4:1`` for a recorded span."""
    if span is None:
        return "outside the script"
    src, line, col, end = span
    text = src.line_text(line)
    if col is not None:
        piece = text[col - 1:end - 1].strip()
        return f"{piece} at {src.name}:{line}:{col}" if piece else f"{src.name}:{line}:{col}"
    return f"{text.strip()} at {src.name}:{line}" if text.strip() else f"{src.name}:{line}"


def version_hint(err, recorder) -> None:
    """Add to PyTorch's in-place error the statement that broke the saved tensor."""
    exc = getattr(err, "exc", None)
    stale = getattr(exc, "agrad_stale", None)
    if stale is None or recorder is None or not isinstance(getattr(err, "message", None), str):
        return
    node, slot, expected, t = stale
    found = recorder.breaker(t, expected)
    if found is None:
        return
    version, span = found
    now = t._vc[0]
    later = f" (now at version {now})" if now != version else ""
    sentence = (f" agrad: the tensor saved as {slot} of {node.name()} was modified in place by "
                f"{where_text(span)}, which made version {version}{later}.")
    err.message += sentence
    err.args = (f"{err.type_name}: {err.message}",)


# ------------------------------------------------------------------ records for the views

def _span_record(span) -> dict:
    if span is None:
        return {"source": None, "line": None, "column": None, "end_column": None, "text": None}
    src, line, col, end = span
    full = src.line_text(line)
    text = full[col - 1:end - 1].strip() if col is not None else full.strip()
    return {"source": src.name, "line": line, "column": col, "end_column": end, "text": text or None}


def _names(namespace) -> dict:
    """id(version counter) -> variable names bound to tensors sharing it (a base and its views)."""
    from ..tensor import Tensor
    out: dict = {}
    for name, v in namespace.items():
        if isinstance(v, Tensor):
            out.setdefault(id(v._vc), []).append(name)
    return out


def version_records(recorder, namespace, id_of) -> list:
    """One record per tensor modified in place, in the order of its first new version.

    ``id_of(node)`` gives a node's graph id (None when the graph shown does not hold it).
    """
    if recorder is None:
        return []
    names = _names(namespace)
    out = []
    for tl in recorder.timelines.values():
        if not tl.versions:
            continue
        t = tl.tensor()
        now = tl.vc[0]
        shape = list(t._data.shape) if t is not None else None
        dtype = t.dtype.name if t is not None else None
        history = []
        for version, span in tl.versions:
            rec = {"version": version}
            rec.update(_span_record(span))
            history.append(rec)
        saved = []
        for node, slot, expected in recorder.slots_of(tl):
            saved.append({"id": id_of(node), "node": type(node).__name__, "slot": slot,
                          "expected": expected, "stale": expected != now})
        out.append({"tensor": ", ".join(names.get(id(tl.vc), [])) or None, "shape": shape,
                    "dtype": dtype, "version": now, "dropped": tl.dropped, "history": history,
                    "saved": saved})
    return out
