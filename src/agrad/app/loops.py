"""What the CLI watches in a script's loops: progress for the bar, values for ``--plot``.

The interpreter tells a :class:`LoopWatch` of every ``for``/``while`` loop it
starts and of each finished iteration (``Interpreter.loop_watch``); nothing
of this is installed unless a progress bar can show or ``--plot`` was given.

* **Progress.**  Once the outermost running loop has run for
  :data:`PROGRESS_AFTER` seconds, the watch sends a progress record at most
  every :data:`PROGRESS_EVERY` seconds (``send(dict)``; in a contained run a
  frame the parent draws, :mod:`agrad.render.progress`), and ``{"end": true}``
  when that loop ends.  The bar follows the outermost loop whose length is
  known (``range``, lists, tensors, DataLoaders ...), inner loops of known
  length moving it within one outer step.
* **--plot NAME.**  A loop records NAME when its body (lexically, not counting
  nested functions and classes) assigns NAME and no loop inside it does: in
  ``for epoch ...: running = 0.0; for batch ...: running += loss.item()`` the
  inner loop records ``running`` after each batch.  The value is read at the
  end of each iteration from the frame running the loop; it must be a number
  or a one-element tensor.
"""

from __future__ import annotations

import time

from ..lang import ast as A

PROGRESS_AFTER = 1.0
PROGRESS_EVERY = 0.1
MAX_POINTS = 1_000_000


class Series:
    """The values recorded for one ``--plot NAME``."""

    def __init__(self, name):
        self.name = name
        self.values: list[float] = []
        self.where = None        # "file:line" of the (first) loop that records it
        self.problem = None      # why recording stopped (a value that is not a scalar)
        self.truncated = False


class _Loop:
    __slots__ = ("node", "frame", "total", "names", "start", "count")

    def __init__(self, node, frame, total, names, start):
        self.node, self.frame, self.total, self.names = node, frame, total, names
        self.start, self.count = start, 0


class LoopWatch:
    def __init__(self, plots=(), send=None):
        self.series = {name: Series(name) for name in plots}
        self.send = send
        self._plan: dict = {}
        self._stack: list[_Loop] = []
        self._shown = False
        self._last = 0.0

    # the interpreter's side ------------------------------------------------------
    def start(self, node, frame, iterable):
        loop = _Loop(node, frame, _length(iterable), self._names(node), time.monotonic())
        for name in loop.names:
            s = self.series[name]
            if s.where is None:
                s.where = f"{frame.src.name}:{node.line}"
        self._stack.append(loop)
        return loop

    def step(self, loop, frame):
        loop.count += 1
        for name in loop.names:
            self._record(self.series[name], frame, loop)
        if self.send is not None:
            now = time.monotonic()
            if now - self._last >= PROGRESS_EVERY:
                self._progress(now)

    def end(self, loop):
        stack = self._stack
        if stack and stack[-1] is loop:
            stack.pop()
        elif loop in stack:
            stack.remove(loop)
        if not stack and self._shown:
            self._shown = False
            self.send({"end": True})

    def iterate(self, node, frame, iterable, iterator):
        loop = self.start(node, frame, iterable)
        try:
            for item in iterator:
                yield item
                self.step(loop, frame)
        finally:
            self.end(loop)

    def finish(self):
        """The run is over (also after an error): take the bar away."""
        self._stack.clear()
        if self._shown:
            self._shown = False
            self.send({"end": True})

    # --plot ------------------------------------------------------------------------
    def _names(self, node):
        names = self._plan.get(node)
        if names is None:
            names = tuple(n for n in self.series if _records(node, n))
            self._plan[node] = names
        return names

    def _record(self, s: Series, frame, loop) -> None:
        if s.problem is not None:
            return
        value = frame.vars.get(s.name, _UNBOUND)
        if value is _UNBOUND and frame.globals is not frame:
            value = frame.globals.vars.get(s.name, _UNBOUND)
        if value is _UNBOUND or value is None:
            return
        number = _scalar(value)
        if number is None:
            s.problem = (f"{s.name} is {_describe(value)} at the end of iteration {loop.count} of "
                         f"the loop at {frame.src.name}:{loop.node.line}; --plot needs a number "
                         "or a one-element tensor")
            return
        if len(s.values) >= MAX_POINTS:
            s.truncated = True
            return
        s.values.append(number)

    # progress ----------------------------------------------------------------------
    def _progress(self, now) -> None:
        stack = self._stack
        if not stack:
            return
        outer = stack[0]
        elapsed = now - outer.start
        if elapsed < PROGRESS_AFTER:
            return
        self._last = now
        fraction = None
        if outer.total:
            inner = 0.0
            for loop in reversed(stack[1:]):
                if loop.total:
                    inner = min((loop.count + inner) / loop.total, 1.0)
                else:
                    inner = 0.0
            fraction = min((outer.count + inner) / outer.total, 1.0)
        text = outer.frame.src.line_text(outer.node.line).strip()
        self._shown = True
        self.send({"text": text, "where": f"{outer.frame.src.name}:{outer.node.line}",
                   "count": outer.count, "total": outer.total, "fraction": fraction,
                   "elapsed": elapsed})


_UNBOUND = object()


def _length(iterable):
    """The number of iterations when it is known without running script code (for
    ``enumerate``/``zip``: from the iterators they wrap)."""
    if isinstance(iterable, (range, list, tuple, dict, set, frozenset, str)):
        return len(iterable)
    cls = type(iterable)
    if cls is enumerate or cls is zip:
        try:
            inner = iterable.__reduce__()[1]
        except Exception:
            return None
        hints = [_hint(it) for it in (inner[:1] if cls is enumerate else inner)]
        return None if not hints or None in hints else min(hints)
    if cls.__module__.startswith("agrad.") and not cls.__module__.startswith("agrad.lang"):
        if hasattr(iterable, "dim") and hasattr(iterable, "shape"):
            return iterable.shape[0] if iterable.dim() else None
        if getattr(cls, "__len__", None) is not None:
            try:
                n = len(iterable)
            except Exception:
                return None
            return n if isinstance(n, int) and n >= 0 else None
    return None


_BUILTIN_ITERATORS = frozenset(type(iter(x)) for x in ((), [], {}, "", range(0), set()))


def _hint(iterator):
    """How many items an iterator still has, when that costs no script code."""
    import operator
    cls = type(iterator)
    trusted = cls in _BUILTIN_ITERATORS or (cls.__module__.startswith("agrad.")
                                            and not cls.__module__.startswith("agrad.lang"))
    if not trusted:
        return None
    try:
        n = operator.length_hint(iterator, -1)
    except Exception:
        return None
    return n if n >= 0 else None


def _scalar(value):
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if hasattr(value, "numel") and hasattr(value, "item") and hasattr(value, "dtype"):
        try:
            if value.numel() != 1:
                return None
            v = value.detach().item() if hasattr(value, "detach") else value.item()
        except Exception:
            return None
        return float(v.real) if isinstance(v, complex) else float(v)
    if type(value).__module__ == "numpy":
        try:
            return float(value) if getattr(value, "size", 1) == 1 else None
        except (TypeError, ValueError):
            return None
    return None


def _describe(value) -> str:
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return f"a tensor of shape {list(value.shape)}"
    return f"a {type(value).__name__}"


# which loops record a name ---------------------------------------------------------

_NESTED = (A.FunctionDef, A.ClassDef)
_LOOPS = (A.For, A.While)


def _records(loop, name) -> bool:
    """True when ``loop``'s body assigns ``name`` and no loop inside it does."""
    return _assigns(loop, name, top=True) and not _inner_assigns(loop.body + loop.orelse, name)


def _inner_assigns(stmts, name) -> bool:
    for st in _statements(stmts):
        if isinstance(st, _LOOPS) and _assigns(st, name, top=True):
            return True
    return False


def _assigns(loop, name, top=False) -> bool:
    if top and isinstance(loop, A.For) and name in _target_names(loop.target):
        return True
    for st in _statements(loop.body + loop.orelse):
        if _stores(st, name):
            return True
    return False


def _statements(stmts):
    """Every statement in ``stmts`` and the blocks under them (not inside def/class)."""
    stack = list(reversed(stmts))
    while stack:
        st = stack.pop()
        yield st
        if isinstance(st, _NESTED):
            continue
        for field in ("body", "orelse", "finalbody"):
            block = getattr(st, field, None)
            if isinstance(block, list):
                stack.extend(reversed(block))
        for h in getattr(st, "handlers", None) or ():
            stack.extend(reversed(h.body))


def _stores(st, name) -> bool:
    if isinstance(st, A.Assign):
        return any(name in _target_names(t) for t in st.targets)
    if isinstance(st, (A.AugAssign, A.AnnAssign)):
        return name in _target_names(st.target)
    if isinstance(st, A.For):
        return name in _target_names(st.target)
    if isinstance(st, A.With):
        return any(t is not None and name in _target_names(t) for _e, t in st.items)
    if isinstance(st, A.Try):
        return any(h.name == name for h in st.handlers)
    return False


def _target_names(target) -> set:
    out = set()
    stack = [target]
    while stack:
        t = stack.pop()
        if isinstance(t, A.Name):
            out.add(t.id)
        elif isinstance(t, (A.Tuple, A.List)):
            stack.extend(t.elts)
        elif isinstance(t, A.Starred):
            stack.append(t.value)
    return out
