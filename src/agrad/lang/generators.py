"""Generator functions: a script function whose body yields (``yield x``, ``yield from it``).

Calling one binds its arguments and returns a :class:`ScriptGenerator` without running
anything, as Python does; each ``next()`` runs the body up to its next yield.  The
statements that yield, or hold one that does (the checker marks them in the function's
Scope), run here as Python generators, each a copy of its interpreter method with
``yield from`` where the body runs; every other statement runs as usual.  ``yield`` is
a statement only: ``x = yield v`` (send) is refused by the grammar.

A script sees the generator only through iteration (``for``, ``next``, ``list``...): its
attributes (``gi_frame``, ``send``, ...) are not on any allow-list.
"""

from __future__ import annotations

import atexit
import weakref

from .errors import ScriptError
from .runtime import Cancelled, ScriptRecursionError, _Break, _Continue, _Return


#: the script generators alive now; the ones left unfinished are closed at exit (below)
_LIVE = weakref.WeakSet()


def _close_at_exit():
    """Close the generators scripts left suspended, before Python clears this module's
    names (a generator finalised later would meet ``except _Break`` with ``_Break`` gone
    and print a traceback).  Their interpreter is cancelled first, so none of the
    script's code (a ``finally`` block) runs after the script's time is over."""
    for sg in list(_LIVE):
        sg._interp.cancelled = True
        try:
            sg._gen.close()
        except BaseException:  # the Cancelled that a finally block meets; nothing to report at exit
            pass


atexit.register(_close_at_exit)


class ScriptGenerator:
    """What calling a script's generator function returns: an iterator over its yields."""

    __slots__ = ("_interp", "_gen", "__qualname__", "__weakref__")

    def __init__(self, interp, fn, frame):
        self._interp = interp
        self.__qualname__ = fn.__qualname__
        self._gen = interp._generator_body(fn, frame)
        _LIVE.add(self)

    def __iter__(self):
        return self

    def __next__(self):
        interp = self._interp
        if interp.depth >= interp.max_depth:
            raise ScriptRecursionError(f"maximum recursion depth exceeded (agrad scripts may nest at most "
                                       f"{interp.max_depth} calls)")
        saved = interp.cur_stmt, interp.cur_frame, interp.cur_expr
        interp.depth += 1
        try:
            return next(self._gen)
        finally:
            interp.depth -= 1
            interp.cur_stmt, interp.cur_frame, interp.cur_expr = saved

    def __repr__(self):
        return f"<generator object {self.__qualname__}>"


class Generators:
    """The interpreter's statements that yield (mixed into Interpreter)."""

    def _generator_body(self, fn, frame):
        try:
            yield from self._gen_block(fn._body, frame, fn._scope.yielding)
        except _Return:
            return

    def _gen_block(self, body, frame, yielding):
        for stmt in body:
            if stmt in yielding:
                if self.cancelled:
                    raise self.wrap(Cancelled(), stmt, frame)
                self.cur_stmt = stmt
                self.cur_frame = frame
                self.cur_expr = None
                yield from self._gx[stmt.__class__.__name__](self, stmt, frame, yielding)
            else:
                self.exec_block((stmt,), frame)

    def _items(self, value, node, frame):
        """``value``'s items, an error of its iteration shown at ``node``."""
        try:
            it = iter(value)
        except TypeError:
            raise self.wrap(TypeError(f"'{type(value).__name__}' object is not iterable"), node, frame) from None
        while True:
            try:
                item = next(it)
            except StopIteration:
                return
            except ScriptError:
                raise
            except Exception as e:
                raise self.wrap(e, node, frame) from None
            yield item

    def _gx_Yield(self, node, frame, yielding):
        value = None if node.value is None else self.eval(node.value, frame)
        if node.is_from:
            yield from self._items(value, node, frame)
        else:
            yield value

    def _gx_If(self, node, frame, yielding):
        branch = node.body if self.eval(node.test, frame) else node.orelse
        yield from self._gen_block(branch, frame, yielding)

    def _gx_While(self, node, frame, yielding):
        while True:
            if self.cancelled:
                raise self.wrap(Cancelled(), node, frame)
            self.cur_stmt = node
            self.cur_expr = None
            if not self.eval(node.test, frame):
                break
            try:
                yield from self._gen_block(node.body, frame, yielding)
            except _Break:
                return
            except _Continue:
                continue
        yield from self._gen_block(node.orelse, frame, yielding)

    def _gx_For(self, node, frame, yielding):
        for item in self._items(self.eval(node.iter, frame), node, frame):
            if self.cancelled:
                raise self.wrap(Cancelled(), node, frame)
            self.cur_stmt = node
            self.cur_expr = None
            self.assign(node.target, item, frame)
            try:
                yield from self._gen_block(node.body, frame, yielding)
            except _Break:
                return
            except _Continue:
                continue
        yield from self._gen_block(node.orelse, frame, yielding)

    def _gx_Try(self, node, frame, yielding):
        # as Statements.ex_Try, with the blocks run here
        try:
            try:
                yield from self._gen_block(node.body, frame, yielding)
            except ScriptError as err:
                handler = self._handler_for(node, err, frame)
                if handler is None:
                    raise
                if handler.name is not None:
                    self.store(handler.name, err.exc, frame)
                self.handling.append(err)
                try:
                    yield from self._gen_block(handler.body, frame, yielding)
                finally:
                    self.handling.pop()
                    if handler.name is not None:
                        frame.vars.pop(handler.name, None)
            else:
                yield from self._gen_block(node.orelse, frame, yielding)
        finally:
            if node.finalbody:
                yield from self._gen_block(node.finalbody, frame, yielding)

    def _gx_With(self, node, frame, yielding):
        yield from self._gen_with(node, 0, frame, yielding)

    def _gen_with(self, node, i, frame, yielding):
        if i == len(node.items):
            yield from self._gen_block(node.body, frame, yielding)
            return
        cls, cm, value = self._enter(node, i, frame)
        try:
            if node.items[i][1] is not None:
                self.assign(node.items[i][1], value, frame)
            yield from self._gen_with(node, i + 1, frame, yielding)
        except ScriptError as err:
            if self._exit_suppresses(cls, cm, err):
                return
            raise
        except BaseException:
            cls.__exit__(cm, None, None, None)
            raise
        else:
            cls.__exit__(cm, None, None, None)

    _gx = {"Yield": _gx_Yield, "If": _gx_If, "While": _gx_While, "For": _gx_For, "Try": _gx_Try,
           "With": _gx_With}
