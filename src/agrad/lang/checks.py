"""Statement checks on a built AST: ``break``/``continue`` outside a loop,
``return`` outside a function, assignments to what cannot be assigned, and
each function's :class:`~.ast.Scope` (its local, global and nonlocal names)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .ast import (AnnAssign, Assign, AugAssign, Break, ClassDef, Continue, Delete, For, FunctionDef, Global,
                  If, Import, ImportFrom, Lambda, List, Name, Node, Nonlocal, Return, Scope, Starred, Try,
                  Tuple, While, With, Yield)

if TYPE_CHECKING:
    from .builder import Builder


class Checker:
    """Checks statements (break outside loop, ...) and fills in each function's
    Scope.  Recursion here is bounded: build() already rejected deep trees."""

    def __init__(self, builder: Builder):
        self.b = builder

    def module(self, body):
        self.block(body, loop=False, func=None)

    def block(self, body, loop, func):
        for s in body:
            self.stmt(s, loop, func)

    def bind_target(self, target, func):
        if func is None:
            return
        if isinstance(target, Name):
            self.bind(target.id, func)
        elif isinstance(target, (Tuple, List)):
            for e in target.elts:
                self.bind_target(e.value if isinstance(e, Starred) else e, func)

    def bind(self, name, func):
        if func is not None and name not in func.globals and name not in func.nonlocals:
            func.locals.add(name)

    def stmt(self, s, loop, func):
        t = type(s)
        if t is Break or t is Continue:
            if not loop:
                word = "break" if t is Break else "continue"
                raise self.b.error(f"'{word}' outside loop", s)
        elif t is Return:
            if func is None:
                raise self.b.error("'return' outside function", s)
            self.exprs(s, func)
        elif t is Yield:
            if func is None:
                raise self.b.error("'yield' outside function", s)
            if func.yielding is None:
                func.yielding = set()
            self.exprs(s, func)
        elif t is Assign:
            for tg in s.targets:
                self.bind_target(tg, func)
            self.exprs(s, func)
        elif t is AugAssign or t is AnnAssign:
            self.bind_target(s.target, func)
            self.exprs(s, func)
        elif t is Delete:
            for tg in s.targets:
                self.bind_target(tg, func)
        elif t is For:
            self.bind_target(s.target, func)
            self.exprs(s, func, [s.iter])
            self.block(s.body, True, func)
            self.block(s.orelse, loop, func)
        elif t is While:
            self.exprs(s, func, [s.test])
            self.block(s.body, True, func)
            self.block(s.orelse, loop, func)
        elif t is If:
            self.exprs(s, func, [s.test])
            self.block(s.body, loop, func)
            self.block(s.orelse, loop, func)
        elif t is With:
            for expr, target in s.items:
                if target is not None:
                    self.bind_target(target, func)
            self.exprs(s, func, [e for e, _ in s.items])
            self.block(s.body, loop, func)
        elif t is Try:
            self.block(s.body, loop, func)
            for h in s.handlers:
                if h.name is not None:
                    self.bind(h.name, func)
                self.block(h.body, loop, func)
            self.block(s.orelse, loop, func)
            self.block(s.finalbody, loop, func)
        elif t is Import:
            for dotted, asname in s.names:
                self.bind(asname or dotted.split(".")[0], func)
        elif t is ImportFrom:
            if s.names != "*":
                for name, asname in s.names:
                    self.bind(asname or name, func)
        elif t is Global or t is Nonlocal:
            if func is None:
                if t is Nonlocal:
                    raise self.b.error("nonlocal declaration not allowed at module level", s)
                return
            for n in s.names:
                if n in func.locals:
                    raise self.b.error(
                        f"name '{n}' is assigned to before {'global' if t is Global else 'nonlocal'}"
                        " declaration", s)
                (func.globals if t is Global else func.nonlocals).add(n)
        elif t is FunctionDef:
            self.bind(s.name, func)
            for d in s.decorators:
                self.expr(d, func)
            self.function(s)
        elif t is ClassDef:
            self.bind(s.name, func)
            for d in s.decorators:
                self.expr(d, func)
            for b in s.bases:
                self.expr(b, func)
            # a class body is its own (non-function) scope for this check
            self.block(s.body, False, None)
        else:
            self.exprs(s, func)

    def function(self, fdef):
        scope = Scope()
        # global/nonlocal declarations first, as Python does
        self._declarations(fdef.body, scope)
        for p in fdef.params:
            if p.name is not None:
                scope.locals.add(p.name)
            if p.default is not None:
                pass
        fdef.scope = scope
        self.block(fdef.body, False, scope)
        if scope.yielding is not None:  # a generator: which statements yield, or hold one that does
            _mark_yielding(fdef.body, scope.yielding)

    def _declarations(self, body, scope):
        for s in body:
            if isinstance(s, Global):
                scope.globals.update(s.names)
            elif isinstance(s, Nonlocal):
                scope.nonlocals.update(s.names)
            elif isinstance(s, (If, While, For)):
                self._declarations(s.body, scope)
                self._declarations(s.orelse, scope)
            elif isinstance(s, With):
                self._declarations(s.body, scope)
            elif isinstance(s, Try):
                self._declarations(s.body, scope)
                for h in s.handlers:
                    self._declarations(h.body, scope)
                self._declarations(s.orelse, scope)
                self._declarations(s.finalbody, scope)

    def exprs(self, s, func, exprs=None):
        for e in (exprs if exprs is not None else s.children()):
            self.expr(e, func)

    def expr(self, e, func):
        """Give every lambda inside ``e`` its scope (lambdas bind only params)."""
        stack = [e]
        while stack:
            n = stack.pop()
            if isinstance(n, Lambda):
                sc = Scope()
                sc.locals.update(p.name for p in n.params if p.name)
                n.scope = sc
            if isinstance(n, Node):
                stack.extend(n.children())


def _mark_yielding(body, marked) -> bool:
    """Add to ``marked`` the statements of ``body`` that yield or hold a statement that
    does (not looking into nested functions and classes); whether any did."""
    found = False
    for s in body:
        t = type(s)
        if t is Yield:
            hit = True
        elif t is If or t is While or t is For:
            hit = _mark_yielding(s.body, marked) | _mark_yielding(s.orelse, marked)
        elif t is With:
            hit = _mark_yielding(s.body, marked)
        elif t is Try:
            hit = _mark_yielding(s.body, marked)
            for h in s.handlers:
                hit = _mark_yielding(h.body, marked) | hit
            hit = _mark_yielding(s.orelse, marked) | _mark_yielding(s.finalbody, marked) | hit
        else:
            hit = False
        if hit:
            marked.add(s)
            found = True
    return found
