"""Evaluating expressions: names, constants, f-strings, operators (with the size
checks that keep a script from building huge values), comparisons, attribute
access, subscripts, containers and comprehensions.

A mixin of :class:`agrad.lang.interpreter.Interpreter`: ``ev_<Node>`` evaluates
one expression node.
"""

from __future__ import annotations

import operator

import numpy as np

from .. import _limits
from . import ast as A
from .errors import CompileTimeSyntaxError, ScriptError
from .runtime import _MISSING, Cancelled, Frame, _Break, _Continue, _Return
from .limits import (as_count, bounded_list, check_format_spec, check_int_bits, check_percent_format,
                     check_size, int_pow, trusted_items)
from .classnames import shown
from .safe_format import SafeFormatter
from .safety import NO_GUARD, get_attribute, guard

# ------------------------------------------------------------ operators

_BINOP_FUNCS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "@": operator.matmul,
    "<<": operator.lshift, ">>": operator.rshift, "&": operator.and_, "|": operator.or_,
    "^": operator.xor,
}
_IBINOP_FUNCS = {
    "+": operator.iadd, "-": operator.isub, "*": operator.imul, "/": operator.itruediv,
    "//": operator.ifloordiv, "%": operator.imod, "**": operator.ipow, "@": operator.imatmul,
    "<<": operator.ilshift, ">>": operator.irshift, "&": operator.iand, "|": operator.ior,
    "^": operator.ixor,
}
_CMP_FUNCS = {
    "<": operator.lt, ">": operator.gt, "==": operator.eq, ">=": operator.ge,
    "<=": operator.le, "!=": operator.ne, "is": operator.is_, "is not": operator.is_not,
    "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
}
_SEQ = (str, list, tuple)
#: operators whose tensor operands binop() checks only for their broadcast size
_TENSOR_OPS = frozenset({"+", "-", "*", "/", "//", "%", "@", "&", "|", "^"})
_NUMBERS = (int, float, bool)
_NAME, _CONSTANT = A.Name, A.Constant
_PASS = (ScriptError, _Break, _Continue, _Return)  # what eval() lets through unwrapped
#: result types that never need guarding (no numpy array can hide in them)
PLAIN_RESULTS = frozenset({int, float, bool, str, list, tuple, complex})


def _bcast_numel(sa, sb):
    la, lb = len(sa), len(sb)
    total = 1
    for i in range(1, max(la, lb) + 1):
        x = sa[-i] if i <= la else 1
        y = sb[-i] if i <= lb else 1
        if x == y or y == 1:
            d = x
        elif x == 1:
            d = y
        else:
            return None
        total *= d
    return total


def _matmul_numel(sa, sb):
    if len(sa) == 0 or len(sb) == 0:
        return None
    if len(sa) == 1 and len(sb) == 1:
        return 1
    n = sa[-2] if len(sa) >= 2 else 1
    m = sb[-1] if len(sb) >= 2 else 1
    batch = _bcast_numel(tuple(sa[:-2]), tuple(sb[:-2])) or 1
    return batch * n * m


class Expressions:
    """The ``ev_*`` methods of the interpreter (expressions other than calls and lambdas)."""

    def ev_Constant(self, node, frame):
        return node.value

    def ev_Name(self, node, frame):
        return self.lookup(node.id, frame)

    def formatter(self):
        if self._formatter is None:
            self._formatter = SafeFormatter(self.getattr)
        return self._formatter

    def getattr(self, obj, name):
        return get_attribute(obj, name, self.formatter)

    def ev_JoinedStr(self, node, frame):
        out = []
        total = 0
        for p in node.parts:
            s = p if isinstance(p, str) else self.eval(p, frame)
            total += len(s)
            out.append(s)
        check_size(total, "string")
        return "".join(out)

    def ev_FormattedValue(self, node, frame):
        v = self.eval(node.value, frame)
        v = shown(v)  # a class, also inside a list or dict: the text PyTorch prints for it
        if node.conversion == "r":
            v = repr(v)
        elif node.conversion == "s":
            v = str(v)
        elif node.conversion == "a":
            v = ascii(v)
        spec = "" if node.spec is None else self.eval(node.spec, frame)
        check_format_spec(spec)
        return format(v, spec)

    def ev_BinOp(self, node, frame):
        if node.op == "**":
            left = self.eval(node.left, frame)
            right = self.eval(node.right, frame)
            self.cur_expr = node
            return self.binop("**", left, right)
        spine = []
        n = node
        while n.__class__ is A.BinOp and n.op != "**":
            spine.append(n)
            n = n.left
        try:  # eval(n, frame), inlined
            value = self.ev[n.__class__](n, frame)
        except _PASS:
            raise
        except Exception as e:
            raise self.wrap(e, n, frame) from None
        for b in reversed(spine):
            r = b.right  # a name found in the frame, or a constant, read here
            cls = r.__class__
            if cls is _CONSTANT:
                right = r.value
            else:
                right = frame.vars.get(r.id, _MISSING) if cls is _NAME else _MISSING
                if right is _MISSING:
                    right = self.eval(r, frame)
            self.cur_expr = b
            try:
                value = self.binop(b.op, value, right)
            except (ScriptError, _Break, _Continue, _Return):
                raise
            except Exception as e:
                raise self.wrap(e, b, frame) from None
        return value

    def binop(self, op, a, b, inplace=False):
        ta, tb = type(a), type(b)
        T = self.engine.tensor
        if ta is T and op in _TENSOR_OPS and (tb is T or tb in _NUMBERS):
            # a tensor and a tensor or a number (the common case): only a tensor pair's
            # broadcast size is checked, as below
            if tb is T:
                da, db = a._data, b._data
                if da.__class__ is np.ndarray and db.__class__ is np.ndarray:
                    sa, sb = da.shape, db.shape
                    n = _matmul_numel(sa, sb) if op == "@" else da.size if sa == sb or not sb \
                        else db.size if not sa else _bcast_numel(sa, sb)
                    if n is not None:
                        limit = _limits._max_elements
                        if limit is not None and n > limit:
                            check_size(n, "tensor")
                else:
                    self._check_array_op(op, a, b)
            r = (_IBINOP_FUNCS if inplace else _BINOP_FUNCS)[op](a, b)
            rc = r.__class__
            return r if rc is T or rc in PLAIN_RESULTS or rc in NO_GUARD else guard(r)
        if ta in (int, bool) and tb in (int, bool):
            if op == "**":
                return int_pow(a, b, self.check_cancel)
            if op == "*":
                check_int_bits(abs(a).bit_length() + abs(b).bit_length())
            elif op == "<<" and b > 0:
                check_int_bits(abs(a).bit_length() + b)
        elif op == "*":
            if ta in _SEQ:   # the count as Python will take it (a tensor's __index__ ...)
                n = b if tb in (int, bool) else as_count(b)
                if n is not None:
                    check_size(len(a) * n, self._seq_name(a))
            elif tb in _SEQ:
                n = a if ta in (int, bool) else as_count(a)
                if n is not None:
                    check_size(len(b) * n, self._seq_name(b))
        elif op == "+":
            if ta in _SEQ and tb in _SEQ:
                check_size(len(a) + len(b), self._seq_name(a))
        elif op == "%" and ta is str:
            check_percent_format(a, b)
            b = shown(b)  # classes print as PyTorch's
        if op != "**" and op not in ("<<", ">>") and ta not in (int, float, bool) \
                and tb not in (int, float, bool):
            self._check_array_op(op, a, b)
        f = (_IBINOP_FUNCS if inplace else _BINOP_FUNCS)[op]
        r = f(a, b)
        rc = r.__class__
        return r if rc in PLAIN_RESULTS or rc in NO_GUARD else guard(r)

    @staticmethod
    def _seq_name(x):
        return "string" if isinstance(x, str) else type(x).__name__

    def _check_array_op(self, op, a, b):
        sa = self._shape(a)
        if sa is None:
            return
        sb = self._shape(b)
        if sb is None:
            return
        n = _matmul_numel(sa, sb) if op == "@" else _bcast_numel(sa, sb)
        if n is not None:
            check_size(n, "tensor")

    def _shape(self, x):
        t = self.engine.tensor
        if t is not None and x.__class__ is t and x._data.__class__ is np.ndarray:
            return x._data.shape  # a tuple of ints already
        if (t is not None and isinstance(x, t)) or type(x).__name__ == "ndarray":
            try:
                return tuple(int(d) for d in x.shape)
            except Exception:
                return None
        return None

    def ev_UnaryOp(self, node, frame):
        v = self.eval(node.operand, frame)
        self.cur_expr = node
        op = node.op
        if op == "not":
            return not v
        if op == "-":
            return -v
        if op == "+":
            return +v
        return ~v

    def ev_BoolOp(self, node, frame):
        # as Python: the last operand is returned without asking its truth (x or tensor)
        *first, last = node.values
        if node.op == "and":
            for e in first:
                v = self.eval(e, frame)
                if not v:
                    return v
            return self.eval(last, frame)
        for e in first:
            v = self.eval(e, frame)
            if v:
                return v
        return self.eval(last, frame)

    def ev_Compare(self, node, frame):
        left = self.eval(node.left, frame)
        result = True
        for op, comp in zip(node.ops, node.comparators):
            right = self.eval(comp, frame)
            result = _CMP_FUNCS[op](left, right)
            if len(node.ops) > 1 and not result:
                return result
            left = right
        return result

    def ev_IfExp(self, node, frame):
        if self.eval(node.test, frame):
            return self.eval(node.body, frame)
        return self.eval(node.orelse, frame)

    def ev_Attribute(self, node, frame):
        return get_attribute(self.eval(node.value, frame), node.attr, self.formatter)

    def index_value(self, node, frame):
        if node.__class__ is A.Slice:
            return self.ev_Slice(node, frame)
        if node.__class__ is A.Tuple:
            return tuple(self.index_value(e, frame) for e in node.elts)
        return self.eval(node, frame)

    def ev_Subscript(self, node, frame):
        obj = self.eval(node.value, frame)
        index = self.index_value(node.index, frame)
        self.cur_expr = node
        return obj[index]

    def ev_Slice(self, node, frame):
        lo = None if node.lower is None else self.eval(node.lower, frame)
        hi = None if node.upper is None else self.eval(node.upper, frame)
        st = None if node.step is None else self.eval(node.step, frame)
        return slice(lo, hi, st)

    def ev_Starred(self, node, frame):
        raise CompileTimeSyntaxError("can't use starred expression here")

    def elements(self, elts, frame, what):
        out = []
        for e in elts:
            if e.__class__ is A.Starred:
                out.extend(bounded_list(self.eval(e.value, frame), what, len(out)))
            else:
                out.append(self.eval(e, frame))
        return out

    def ev_Tuple(self, node, frame):
        return tuple(self.elements(node.elts, frame, "tuple"))

    def ev_List(self, node, frame):
        return self.elements(node.elts, frame, "list")

    def ev_Set(self, node, frame):
        return set(self.elements(node.elts, frame, "set"))

    def ev_Dict(self, node, frame):
        d = {}
        for k, v in node.items:
            if k is None:
                m = self.eval(v, frame)
                if not hasattr(m, "keys"):
                    raise TypeError(f"'{type(m).__name__}' object is not a mapping")
                m = trusted_items(m, "dict", len(d))
                check_size(len(d) + len(m), "dict")
                d.update(m)
            else:
                key = self.eval(k, frame)
                d[key] = self.eval(v, frame)
        return d

    # comprehensions run in their own frame (Python 3 scoping)
    def _comp_frame(self, frame):
        return Frame({}, None, frame, frame.globals, frame.src)

    def _comp_loop(self, gens, i, cframe, frame, emit):
        g = gens[i]
        it = self.eval(g.iter, frame if i == 0 else cframe)
        n = 0
        for item in it:
            n += 1
            if not (n & 0x3FF) and self.cancelled:
                raise Cancelled()
            self.assign(g.target, item, cframe)
            ok = True
            for cond in g.ifs:
                if not self.eval(cond, cframe):
                    ok = False
                    break
            if not ok:
                continue
            if i + 1 < len(gens):
                self._comp_loop(gens, i + 1, cframe, frame, emit)
            else:
                emit()

    def _comprehension(self, node, frame, out, add, what):
        """Run a list/set/dict comprehension into ``out``; ``add(cframe)`` adds one item."""
        cframe = self._comp_frame(frame)
        limit = _limits.get_max_elements()

        def emit():
            if limit is not None and len(out) >= limit:
                check_size(len(out) + 1, what)
            add(cframe)
        self._comp_loop(node.generators, 0, cframe, frame, emit)
        return out

    def ev_ListComp(self, node, frame):
        out = []
        return self._comprehension(node, frame, out,
                                   lambda cf: out.append(self.eval(node.elt, cf)), "list")

    def ev_SetComp(self, node, frame):
        out = set()
        return self._comprehension(node, frame, out,
                                   lambda cf: out.add(self.eval(node.elt, cf)), "set")

    def ev_DictComp(self, node, frame):
        out = {}

        def add(cf):
            key = self.eval(node.key, cf)
            out[key] = self.eval(node.value, cf)
        return self._comprehension(node, frame, out, add, "dict")

    def ev_GeneratorExp(self, node, frame):
        gens = node.generators
        first = iter(self.eval(gens[0].iter, frame))
        cframe = self._comp_frame(frame)
        interp = self

        def gen():
            yield from interp._gen_loop(node, gens, 0, cframe, first)
        return gen()

    def _gen_loop(self, node, gens, i, cframe, it):
        g = gens[i]
        if it is None:
            it = self.eval(g.iter, cframe)
        for item in it:
            if self.cancelled:
                raise self.wrap(Cancelled(), node, cframe)
            self.assign(g.target, item, cframe)
            if all(self.eval(c, cframe) for c in g.ifs):
                if i + 1 < len(gens):
                    yield from self._gen_loop(node, gens, i + 1, cframe, None)
                else:
                    yield self.eval(node.elt, cframe)
