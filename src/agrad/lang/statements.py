"""Executing statements: assignment and unpacking, augmented assignment, del,
raise, assert, global/nonlocal, imports (of the torch namespace, math and the allow-listed standard modules),
and the control flow (if, while, for, try, with).

A mixin of :class:`agrad.lang.interpreter.Interpreter`: ``ex_<Node>`` runs one
statement node.
"""

from __future__ import annotations

from . import ast as A
from . import stdlib as _stdlib
from .errors import CompileTimeSyntaxError, ScriptError, ScriptSyntaxError
from .runtime import _BREAK, _CONTINUE, SUPPORTED_IMPORTS, Cancelled, _Break, _Continue, _Return
from .safety import (MissingModule, ModuleProxy, SafetyError, ScriptImportError, bounded_list, check_size,
                     delete_attribute, int_pow, is_engine_class, set_attribute, sized_len, suggest)


_NAME = A.Name
_PASS = (ScriptError, _Break, _Continue, _Return)  # what eval() lets through unwrapped


class Statements:
    """The ``ex_*`` methods of the interpreter (statements other than def and class)."""

    # ---------------------------------------------------------- assignment
    def assign(self, target, value, frame):
        cls = target.__class__
        if cls is A.Name:
            self.store(target.id, value, frame)
        elif cls is A.Attribute:
            obj = self.eval(target.value, frame)
            try:
                set_attribute(obj, target.attr, value, self.engine.tensor)
            except (ScriptError, _Break, _Continue, _Return):
                raise
            except Exception as e:
                raise self.wrap(e, target, frame) from None
        elif cls is A.Subscript:
            obj = self.eval(target.value, frame)
            idx = self.index_value(target.index, frame)
            try:
                if type(obj) is list and isinstance(idx, slice):
                    n = sized_len(value)
                    if n is None:
                        value = bounded_list(value)
                        n = len(value)
                    check_size(len(obj) + n, "list")
                elif type(obj) is dict and idx not in obj:
                    check_size(len(obj) + 1, "dict")
                elif isinstance(obj, (ModuleProxy, MissingModule)):
                    raise TypeError("'module' object does not support item assignment")
                obj[idx] = value
            except (ScriptError, _Break, _Continue, _Return):
                raise
            except Exception as e:
                raise self.wrap(e, target, frame) from None
        elif cls is A.Tuple or cls is A.List:
            self.unpack(target, value, frame)
        else:
            raise CompileTimeSyntaxError(f"cannot assign to {type(target).__name__}")

    def unpack(self, target, value, frame):
        elts = target.elts
        star = next((i for i, e in enumerate(elts) if e.__class__ is A.Starred), None)
        try:
            items = bounded_list(value, "unpacked sequence")
        except TypeError:
            raise TypeError(f"cannot unpack non-iterable {type(value).__name__} object") from None
        n = len(items)
        if star is None:
            if n > len(elts):
                raise ValueError(f"too many values to unpack (expected {len(elts)})")
            if n < len(elts):
                raise ValueError(f"not enough values to unpack (expected {len(elts)}, got {n})")
            for e, v in zip(elts, items):
                self.assign(e, v, frame)
            return
        before, after = star, len(elts) - star - 1
        if n < before + after:
            raise ValueError(f"not enough values to unpack (expected at least "
                             f"{before + after}, got {n})")
        for e, v in zip(elts[:before], items[:before]):
            self.assign(e, v, frame)
        self.assign(elts[star].value, items[before:n - after], frame)
        for e, v in zip(elts[star + 1:], items[n - after:]):
            self.assign(e, v, frame)

    def _note_top_assign(self, target, value, stmt, frame):
        """Remember the last top-level name bound to a tensor (the CLI's target)."""
        if frame is not self.globals:
            return
        t = self.engine.tensor
        if target.__class__ is A.Name:  # most assignments: no walk
            names = (target.id,)
        else:
            names = []
            stack = [target]
            while stack:
                n = stack.pop()
                if n.__class__ is A.Name:
                    names.append(n.id)
                elif n.__class__ in (A.Tuple, A.List):
                    stack.extend(reversed([e.value if e.__class__ is A.Starred else e
                                           for e in n.elts]))
        for name in names:
            v = frame.vars.get(name)
            if t is not None and isinstance(v, t):
                self._note_tensor(name, v, stmt, frame)

    def _note_tensor(self, name, v, stmt, frame):
        self.last_tensor_name = name
        if len(self.assignments) < 100_000:
            text = self.stmt_texts.get(stmt)  # a loop's statement: its text once
            if text is None:
                text = self.stmt_texts[stmt] = frame.src.line_text(stmt.line).strip()
            self.assignments.append((name, v, frame.src, stmt.line, text))

    # ---------------------------------------------------------- statements
    def ex_ExprStmt(self, node, frame):
        self.eval(node.value, frame)

    def ex_Assign(self, node, frame):
        v = node.value
        try:  # self.eval(v, frame), inlined
            value = self.ev[v.__class__](v, frame)
        except _PASS:
            raise
        except Exception as e:
            raise self.wrap(e, v, frame) from None
        targets = node.targets
        if len(targets) == 1 and targets[0].__class__ is _NAME and frame.scope is None:
            # ``name = value`` outside a function (a module's loop body): stored as store() would
            name = targets[0].id
            frame.vars[name] = value
            if frame is self.globals:
                t = self.engine.tensor
                if t is not None and isinstance(value, t):  # (_note_tensor, inline: a loop's step makes one)
                    self.last_tensor_name = name
                    if len(self.assignments) < 100_000:
                        text = self.stmt_texts.get(node)
                        if text is None:
                            text = self.stmt_texts[node] = frame.src.line_text(node.line).strip()
                        self.assignments.append((name, value, frame.src, node.line, text))
            return
        for target in targets:
            self.assign(target, value, frame)
        if frame is self.globals:
            for target in targets:
                self._note_top_assign(target, value, node, frame)

    def ex_AnnAssign(self, node, frame):
        if frame.is_class and node.target.__class__ is A.Name:
            # as Python: a class body evaluates its annotations (dataclass fields read them)
            annotation = self.eval(node.annotation, frame)
            if frame.annotations is None:
                frame.annotations = []
            frame.annotations.append((node.target.id, annotation))
        if node.value is not None:
            value = self.eval(node.value, frame)
            self.assign(node.target, value, frame)
            self._note_top_assign(node.target, value, node, frame)

    def ex_AugAssign(self, node, frame):
        target = node.target
        cls = target.__class__
        if cls is A.Name:
            cur = self.lookup(target.id, frame)
            new = self._iop(node, cur, self.eval(node.value, frame), frame)
            self.store(target.id, new, frame)
            self._note_top_assign(target, new, node, frame)
        elif cls is A.Attribute:
            obj = self.eval(target.value, frame)
            cur = self.getattr(obj, target.attr)
            new = self._iop(node, cur, self.eval(node.value, frame), frame)
            try:
                set_attribute(obj, target.attr, new, self.engine.tensor)
            except Exception as e:
                raise self.wrap(e, target, frame) from None
        else:
            obj = self.eval(target.value, frame)
            idx = self.index_value(target.index, frame)
            cur = obj[idx]
            new = self._iop(node, cur, self.eval(node.value, frame), frame)
            obj[idx] = new

    def _iop(self, node, cur, value, frame):
        try:
            if node.op == "**" and type(cur) in (int, bool) and type(value) in (int, bool):
                return int_pow(cur, value, self.check_cancel)
            return self.binop(node.op, cur, value, inplace=True)
        except (ScriptError, _Break, _Continue, _Return):
            raise
        except Exception as e:
            raise self.wrap(e, node, frame) from None

    def ex_Delete(self, node, frame):
        for t in node.targets:
            if t.__class__ is A.Name:
                self.delete_name(t.id, frame)
            elif t.__class__ is A.Subscript:
                obj = self.eval(t.value, frame)
                del obj[self.index_value(t.index, frame)]
            elif t.__class__ is A.Attribute:
                obj = self.eval(t.value, frame)
                try:
                    delete_attribute(obj, t.attr, self.engine.tensor)
                except (ScriptError, _Break, _Continue, _Return):
                    raise
                except Exception as e:
                    raise self.wrap(e, t, frame) from None
            else:
                raise SafetyError("this target cannot be deleted in agrad scripts")

    def ex_Pass(self, node, frame):
        pass

    def ex_Break(self, node, frame):
        raise _BREAK

    def ex_Continue(self, node, frame):
        raise _CONTINUE

    def ex_Return(self, node, frame):
        raise _Return(None if node.value is None else self.eval(node.value, frame))

    def ex_Raise(self, node, frame):
        if node.exc is None:
            if self.handling:
                raise self.handling[-1]
            raise RuntimeError("No active exception to reraise")
        exc = self.eval(node.exc, frame)
        if isinstance(exc, type) and issubclass(exc, BaseException):
            exc = exc()
        if not isinstance(exc, Exception):
            raise TypeError("exceptions must derive from BaseException")
        if isinstance(exc, (SafetyError, Cancelled)) or not (
                type(exc).__module__ == "builtins" or is_engine_class(type(exc))):
            raise TypeError(f"agrad scripts cannot raise '{type(exc).__name__}'")
        if node.cause is not None:
            self.eval(node.cause, frame)
        err = self.wrap(exc, node, frame)
        raise err

    def ex_Global(self, node, frame):
        pass

    ex_Nonlocal = ex_Global

    def ex_Assert(self, node, frame):
        if not self.eval(node.test, frame):
            if node.msg is not None:
                raise AssertionError(self.eval(node.msg, frame))
            raise AssertionError()

    def stdlib_random(self):
        """This run's Python random generator (``import random``)."""
        if getattr(self, "_stdlib_rng", None) is None:
            import random
            self._stdlib_rng = random.Random()
        return self._stdlib_rng

    def _module(self, dotted):
        if dotted in _stdlib.MODULES:  # the allow-listed standard modules, one set per run
            mods = self.__dict__.setdefault("_stdlib_modules", {})
            if dotted not in mods:
                mods[dotted] = _stdlib.make_module(dotted, self)
            return mods[dotted]
        proxies = self.engine.module_proxies()
        if dotted in proxies:
            return proxies[dotted]
        if dotted in ("numpy", "numpy.random"):
            from .numpy_module import numpy_module
            np_proxy = numpy_module()
            proxies["numpy"] = np_proxy
            proxies["numpy.random"] = np_proxy._submodules["random"]
            return proxies[dotted]
        root = dotted.split(".")[0]
        if root == "torch" and self.engine.mod is None:
            raise ScriptImportError(f"the agrad engine could not be loaded: {self.engine.error}")
        raise ScriptImportError(f"import of module '{dotted}' is not supported: agrad scripts "
                                f"can import {SUPPORTED_IMPORTS}")

    def ex_Import(self, node, frame):
        for dotted, asname in node.names:
            mod = self._module(dotted)
            if isinstance(mod, MissingModule):
                raise ScriptImportError(f"{dotted} is not supported yet in agrad")
            if asname is not None:
                self.store(asname, mod, frame)
            else:
                root = dotted.split(".")[0]
                self.store(root, self._module(root), frame)

    def ex_ImportFrom(self, node, frame):
        mod = self._module(node.module)
        if isinstance(mod, MissingModule):
            raise ScriptImportError(f"{node.module} is not supported yet in agrad")
        if node.names == "*":
            raise ScriptImportError(f"'from {node.module} import *' is not supported in agrad "
                                    f"scripts; import the names you need")
        for name, asname in node.names:
            try:
                value = mod._get(name)
            except AttributeError:
                raise ScriptImportError(
                    f"cannot import name '{name}' from '{node.module}'"
                    f"{suggest(name, mod._public_names(), node.module)}") from None
            if isinstance(value, MissingModule):
                raise ScriptImportError(f"{node.module}.{name} is not supported yet in agrad")
            self.store(asname or name, value, frame)

    def ex_If(self, node, frame):
        while True:
            if self.eval(node.test, frame):
                self.exec_block(node.body, frame)
                return
            orelse = node.orelse
            if len(orelse) == 1 and orelse[0].__class__ is A.If:
                node = orelse[0]
                self.cur_stmt = node
                self.cur_expr = None
                continue
            self.exec_block(orelse, frame)
            return

    def ex_While(self, node, frame):
        if self.loop_watch is not None:
            return self._watched_while(node, frame)
        body = node.body
        while True:
            if self.cancelled:
                raise self.wrap(Cancelled(), node, frame)
            self.cur_stmt = node
            self.cur_expr = None
            if not self.eval(node.test, frame):
                break
            try:
                self.exec_block(body, frame)
            except _Break:
                return
            except _Continue:
                continue
        self.exec_block(node.orelse, frame)

    def _watched_while(self, node, frame):
        """``while`` with the loop watch told of each finished iteration."""
        watch = self.loop_watch
        token = watch.start(node, frame, None)
        body = node.body
        try:
            while True:
                if self.cancelled:
                    raise self.wrap(Cancelled(), node, frame)
                self.cur_stmt = node
                self.cur_expr = None
                if not self.eval(node.test, frame):
                    break
                try:
                    self.exec_block(body, frame)
                except _Break:
                    watch.step(token, frame)
                    return
                except _Continue:
                    pass
                watch.step(token, frame)
        finally:
            watch.end(token)
        self.exec_block(node.orelse, frame)

    def ex_For(self, node, frame):
        it = self.eval(node.iter, frame)
        try:
            iterator = iter(it)
        except TypeError:
            raise TypeError(f"'{type(it).__name__}' object is not iterable") from None
        if self.loop_watch is not None:
            iterator = self.loop_watch.iterate(node, frame, it, iterator)
        body, target = node.body, node.target
        ex = self.ex
        # ``for name in ...`` outside a function: the name is stored as store() would
        name = target.id if target.__class__ is _NAME and frame.scope is None else None
        for item in iterator:
            if self.cancelled:
                raise self.wrap(Cancelled(), node, frame)
            self.cur_stmt = node
            self.cur_expr = None
            if name is not None:
                frame.vars[name] = item
            else:
                self.assign(target, item, frame)
            try:
                for stmt in body:  # exec_block(body, frame), inline: one frame fewer a step
                    if self.cancelled:
                        raise self.wrap(Cancelled(), stmt, frame)
                    self.cur_stmt = stmt
                    self.cur_frame = frame
                    self.cur_expr = None
                    try:
                        ex[stmt.__class__](stmt, frame)
                    except (ScriptError, _Break, _Continue, _Return):
                        raise
                    except Exception as e:
                        raise self.wrap(e, stmt, frame) from None
            except _Break:
                return
            except _Continue:
                continue
        self.exec_block(node.orelse, frame)

    def ex_Try(self, node, frame):
        try:
            try:
                self.exec_block(node.body, frame)
            except ScriptError as err:
                h = self._handler_for(node, err, frame)
                if h is None:
                    raise
                if h.name is not None:
                    self.store(h.name, err.exc, frame)
                self.handling.append(err)
                try:
                    self.exec_block(h.body, frame)
                finally:
                    self.handling.pop()
                    if h.name is not None:
                        frame.vars.pop(h.name, None)
            else:
                self.exec_block(node.orelse, frame)
        finally:
            if node.finalbody:
                self.exec_block(node.finalbody, frame)

    def _handler_for(self, node, err, frame):
        """The ``except`` clause of ``node`` that takes ``err``, or None."""
        if isinstance(err, ScriptSyntaxError) or not getattr(err, "catchable", False):
            return None
        exc = err.exc
        for h in node.handlers:
            if h.type is not None:
                kinds = self.eval(h.type, frame)
                if not isinstance(kinds, tuple):
                    kinds = (kinds,)
                for k in kinds:
                    if not (isinstance(k, type) and issubclass(k, BaseException)):
                        raise TypeError("catching classes that do not inherit from "
                                        "BaseException is not allowed")
                if not isinstance(exc, kinds):
                    continue
            return h
        return None

    def ex_With(self, node, frame):
        self._with(node, 0, frame)

    def _with(self, node, i, frame):
        if i == len(node.items):
            self.exec_block(node.body, frame)
            return
        cls, cm, value = self._enter(node, i, frame)
        target = node.items[i][1]
        try:
            if target is not None:
                self.assign(target, value, frame)
            self._with(node, i + 1, frame)
        except ScriptError as err:
            if self._exit_suppresses(cls, cm, err):
                return
            raise
        except BaseException:
            cls.__exit__(cm, None, None, None)
            raise
        else:
            cls.__exit__(cm, None, None, None)

    def _enter(self, node, i, frame):
        """Enter the i-th context manager of ``with`` ``node``: (its class, it, what it gives)."""
        expr = node.items[i][0]
        cm = self.eval(expr, frame)
        cls = type(cm)
        if not (is_engine_class(cls) or isinstance(cm, type) and is_engine_class(cm)):
            raise self.wrap(TypeError(
                f"'{cls.__name__}' object cannot be used in 'with' in agrad scripts (only "
                f"grad modes such as torch.no_grad() can)"), expr, frame)
        if not (hasattr(cls, "__enter__") and hasattr(cls, "__exit__")):
            raise self.wrap(TypeError(f"'{cls.__name__}' object does not support the context "
                                      f"manager protocol"), expr, frame)
        return cls, cm, cls.__enter__(cm)

    @staticmethod
    def _exit_suppresses(cls, cm, err) -> bool:
        """The context manager's ``__exit__`` with the script's error; whether it swallows it."""
        e = err.exc if err.exc is not None else err
        return bool(cls.__exit__(cm, type(e), e, None)) and getattr(err, "catchable", False)
