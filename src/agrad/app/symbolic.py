"""Symbolic expressions for ``agrad diff``: build, simplify, name, print.

An :class:`Expr` is an interned node (two equal expressions are the same
object), so like terms and common sub-expressions are found by identity.
The constructors simplify as they build: constants fold, ``x*1``, ``x+0``
and ``0*x`` vanish, like terms add up (``x + x`` -> ``2*x``), powers of one
base combine (``x*x`` -> ``x**2``), a broadcast (``expand``) disappears
under pointwise arithmetic and a reduction of a constant becomes a number.

Every node knows its shape; a node may print smaller than it is (``1``
for a tensor of ones), which pointwise arithmetic broadcasts anyway, and
the printer writes ``broadcast_to(...)`` / ``full(...)`` where an op that
cares about shapes (a reduction, ``@``, a reshape) needs the real one.

Printed forms (:mod:`.notation`) are agrad's own script syntax (so they can be
read back and evaluated; ``sum`` there is ``torch.sum``), LaTeX, and a JSON tree.
Nothing here knows graphs or tensors: :mod:`.diff` builds these
expressions from the ``create_graph=True`` backward graph.
"""

from __future__ import annotations

import math

import numpy as np

# kinds: num (data: float), var (data: name), add, mul, pow (base, exponent),
# call (data: (name, extras, kwargs, pointwise)), bcast, matmul, cmp (data: op),
# and (&), or (|), not (~), index (data: "[0, 1:3]"), ref (data: a CSE name; printing only)
_POINTWISE = {"add", "mul", "pow", "cmp", "and", "or", "not"}


class Expr:
    __slots__ = ("kind", "data", "args", "shape", "size", "__weakref__")

    def __init__(self, kind, data, args, shape):
        self.kind, self.data, self.args, self.shape = kind, data, args, tuple(shape)
        self.size = min(1 + sum(a.size for a in args), 1 << 30)

    @property
    def pointwise(self) -> bool:
        return self.kind in _POINTWISE or (self.kind == "call" and self.data[3])

    def __repr__(self):
        return f"Expr({to_text(self)})"


class TooLarge(Exception):
    """The expression grew past what is worth printing (:data:`MAX_NODES`, :data:`MAX_WORK`)."""


#: distinct sub-expressions of one run, and the factors and terms its products and sums
#: may take apart, before agrad gives up writing the derivatives out
MAX_NODES = 20_000
MAX_WORK = 100_000


class Table:
    """The interning table of one run (``with Table():`` around building)."""

    current = None

    def __init__(self):
        self.nodes = {}
        self.work = 0

    def __enter__(self):
        self.outer, Table.current = Table.current, self
        return self

    def __exit__(self, *exc):
        Table.current = self.outer
        return False


_DEFAULT = Table()


def _make(kind, data, args, shape, key_args=None):
    table = (Table.current or _DEFAULT).nodes
    key = (kind, data, tuple(id(a) for a in (args if key_args is None else key_args)), tuple(shape))
    e = table.get(key)
    if e is None:
        if len(table) >= MAX_NODES:
            raise TooLarge(f"more than {MAX_NODES:,} distinct sub-expressions")
        e = table[key] = Expr(kind, data, tuple(args), shape)
    return e


def _spend(n):
    t = Table.current or _DEFAULT
    t.work += n
    if t.work > MAX_WORK:
        raise TooLarge("its sums and products grow too long to simplify")


def broadcast(*shapes):
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        return tuple(shapes[0])


# ------------------------------------------------------------------ constructors

def num(v, shape=()):
    v = float(v)
    if v == 0:
        v = 0.0  # no -0
    return _make("num", v, (), shape)


def var(name, shape=()):
    return _make("var", name, (), shape)


def is_num(e, v=None):
    return e.kind == "num" and (v is None or e.data == v)


def bcast(a, shape):
    """``a`` broadcast to ``shape`` (``expand``)."""
    shape = tuple(shape)
    if a.shape == shape:
        return a
    if a.kind == "num":
        return num(a.data, shape)
    if a.kind == "bcast":
        a = a.args[0]
        if a.shape == shape:
            return a
    return _make("bcast", None, (a,), shape)


def _strip(a):
    return a.args[0] if a.kind == "bcast" else a


def _sorted_key(args):
    return tuple(sorted(args, key=id))


def add(*xs):
    shape = broadcast(*(x.shape for x in xs))
    const = 0.0
    coefs = {}  # id(rest) -> [coef, rest], in order of first appearance
    flat = []
    for x in xs:
        x = _strip(x)
        flat.extend(x.args if x.kind == "add" else (x,))
    _spend(len(flat))
    for x in flat:
        x = _strip(x)
        if x.kind == "num":
            const += x.data
            continue
        c, rest = split_coef(x)
        slot = coefs.get(id(rest))
        if slot is None:
            coefs[id(rest)] = [c, rest]
        else:
            slot[0] += c
    terms = _merge_sums([mul(num(c), rest) for c, rest in coefs.values() if c != 0])
    if not terms:
        return num(const, shape)
    if const != 0 or math.isnan(const):
        terms.append(num(const))
    if len(terms) == 1:
        return bcast(terms[0], shape)
    return _make("add", None, terms, shape, _sorted_key(terms))


def _merge_sums(terms):
    """``sum(a) + sum(b)`` -> ``sum(a + b)`` for reductions over the same dims of same-shaped a, b."""
    groups = {}
    for t in terms:
        c, r = split_coef(t)
        if r.kind == "call" and r.data[0] == "sum":
            groups.setdefault((r.data, r.args[0].shape, r.shape), []).append((c, r))
    if not any(len(g) > 1 for g in groups.values()):
        return terms
    out, done = [], set()
    for t in terms:
        c, r = split_coef(t)
        key = (r.data, r.args[0].shape, r.shape) if r.kind == "call" and r.data[0] == "sum" else None
        if key is None or len(groups[key]) == 1:
            out.append(t)
        elif key not in done:
            done.add(key)
            inner = add(*(mul(num(cc), rr.args[0]) for cc, rr in groups[key]))
            out.append(_with_args(r, inner))
    return [t for t in out if not is_num(t, 0.0)]


def _with_args(e, a):
    """The reduction ``e`` applied to ``a`` instead."""
    name, extras, kwargs, _ = e.data
    axes = None if not extras else (extras[0] if isinstance(extras[0], tuple) else (extras[0],))
    return reduce_sum(a, axes, bool(kwargs), e.shape, name)


def _common_coef(e):
    """The coefficient every term of the sum ``e`` has (1 when they differ or there is a constant)."""
    cs = {split_coef(t)[0] for t in e.args}
    if len(cs) != 1 or any(t.kind == "num" for t in e.args):
        return 1.0
    return cs.pop()


def split_coef(x):
    """(numeric coefficient, the rest) of a term."""
    if x.kind == "mul" and x.args[0].kind == "num":
        rest = x.args[1:]
        return x.args[0].data, rest[0] if len(rest) == 1 else _make("mul", None, rest, x.shape, _sorted_key(rest))
    if x.kind == "num":
        return x.data, num(1.0)
    return 1.0, x


def mul(*xs):
    shape = broadcast(*(x.shape for x in xs))
    coef = 1.0
    bases = {}  # id(base) -> [base, exponent (float) or None for an expression exponent]
    flat = []
    for x in xs:
        x = _strip(x)
        flat.extend(x.args if x.kind == "mul" else (x,))
    _spend(len(flat))
    for x in flat:
        x = _strip(x)
        if x.kind == "num":
            coef *= x.data
            continue
        if x.kind == "add":  # a factor common to every term comes out: (a/4 + b/4) -> (a + b)/4
            c = _common_coef(x)
            if c != 1:
                coef *= c
                x = add(*(mul(num(split_coef(t)[0] / c), split_coef(t)[1]) for t in x.args))
        if x.kind == "pow" and x.args[1].kind == "num":
            base, e = x.args[0], x.args[1].data
        else:
            base, e = x, 1.0
        slot = bases.get(id(base))
        if slot is None:
            bases[id(base)] = [base, e]
        else:
            slot[1] += e
    if coef == 0:
        return num(0.0, shape)
    factors = []
    for base, e in bases.values():
        f = base if e == 1 else power(base, num(e))
        if f.kind == "num":
            coef *= f.data
        elif f.kind == "mul":  # (x*y)**n distributed
            for g in f.args:
                if g.kind == "num":
                    coef *= g.data
                else:
                    factors.append(g)
        else:
            factors.append(f)
    if not factors:
        return num(coef, shape)
    if coef != 1:
        factors.insert(0, num(coef))
    if len(factors) == 1:
        return bcast(factors[0], shape)
    return _make("mul", None, factors, shape, _sorted_key(factors))


def neg(a):
    return mul(num(-1.0), a)


def sub(a, b):
    return add(a, neg(b))


def div(a, b):
    return mul(a, power(b, num(-1.0)))


def power(base, e):
    base = _strip(base) if e.kind == "num" or e.shape == () else base
    if e.kind == "num":
        n = e.data
        if n == 0:
            return num(1.0, base.shape)
        if n == 1:
            return base
        if base.kind == "num":
            with np.errstate(all="ignore"):
                v = float(np.power(base.data, n))
            if math.isfinite(v):
                return num(v, base.shape)
        if n == int(n):
            if base.kind == "pow" and base.args[1].kind == "num":
                return power(base.args[0], num(base.args[1].data * n))
            if base.kind == "mul":
                return mul(*(power(f, e) for f in base.args))
        return _make("pow", None, (base, num(n)), base.shape)
    if is_num(base, 1.0):
        return num(1.0, broadcast(base.shape, e.shape))
    return _make("pow", None, (base, e), broadcast(base.shape, e.shape))


def call(name, args, shape, *, extras=(), kwargs=(), pointwise=False):
    """``name(*args, *extras, **kwargs)``; ``pointwise`` ops broadcast their arguments."""
    if pointwise:
        args = [_strip(a) for a in args]
    return _make("call", (name, tuple(extras), tuple(kwargs), pointwise), args, shape)


def where(cond, a, b, shape):
    if a is b or (_strip(a) is _strip(b)):
        return bcast(a, shape)
    if cond.kind == "num":
        return bcast(a if cond.data else b, shape)
    if is_num(a, 1.0) and is_num(b, 0.0):  # where(c, 1, 0) is the mask itself
        return bcast(cond, shape)
    if is_num(a, 0.0) and is_num(b, 1.0):
        return bcast(logical_not(cond), shape)
    return call("where", (cond, a, b), shape, pointwise=True)


def compare(op, a, b):
    return _make("cmp", op, (_strip(a), _strip(b)), broadcast(a.shape, b.shape))


def logical_and(a, b):
    return _make("and", None, (_strip(a), _strip(b)), broadcast(a.shape, b.shape))


def logical_or(a, b):
    return _make("or", None, (_strip(a), _strip(b)), broadcast(a.shape, b.shape))


def logical_not(a):
    if a.kind == "cmp":  # ~(x > 0) is x <= 0
        flip = {">": "<=", "<": ">=", ">=": "<", "<=": ">", "==": "!=", "!=": "=="}[a.data]
        return _make("cmp", flip, a.args, a.shape)
    return _make("not", None, (_strip(a),), a.shape)


def transpose2(a):
    """The transpose of a matrix (``transpose(a, 0, 1)``)."""
    return permute(a, (1, 0), a.shape[::-1], name="transpose", extras=(0, 1))


def matmul(a, b, shape):
    """``a @ b``; a product with a constant tensor is a sum: ``W @ ones(n)`` -> ``sum(W, 1)``."""
    shape = tuple(shape)
    ca, ra = split_coef(a)
    cb, rb = split_coef(b)
    if (ca != 1 and ra.shape == a.shape and ra.kind != "num") or (cb != 1 and rb.shape == b.shape
                                                                  and rb.kind != "num"):
        return mul(num(ca * cb), matmul(ra if ra.kind != "num" else a, rb if rb.kind != "num" else b, shape))
    if b.kind == "num" and len(b.shape) in (1, 2) and len(a.shape) >= len(b.shape):
        keep = len(b.shape) == 2
        r = reduce_sum(a, (len(a.shape) - 1,), keep, a.shape[:-1] + ((1,) if keep else ()))
        return bcast(mul(num(b.data), r), shape)
    if a.kind == "num" and len(a.shape) in (1, 2) and len(b.shape) in (1, 2):
        keep = len(a.shape) == 2
        axis = 0 if len(b.shape) == 1 else len(b.shape) - 2
        r = reduce_sum(b, (axis,), keep, ((1,) if keep else ()) + b.shape[axis + 1:])
        return bcast(mul(num(a.data), r), shape)
    return _make("matmul", None, (a, b), shape)


def reduce_sum(a, axes, keepdim, shape, name="sum"):
    """``sum(a, dims, keepdim)`` (``mean`` with ``name="mean"``); ``axes`` None: every dim."""
    n_in = a.shape
    axes = tuple(range(len(n_in))) if axes is None else tuple(axes)
    if not axes:
        return a if a.shape == tuple(shape) else bcast(a, shape)
    if a.kind == "call" and a.data[0] == "transpose" and len(a.shape) == 2 and name == "sum":
        inner = a.args[0]  # sum(W.T, d) is sum(W, 1 - d), as a row or a column
        if len(axes) == 2:
            return bcast(reduce_sum(inner, None, False, (), name), shape)
        d = axes[0]
        r = reduce_sum(inner, (1 - d,), False, (inner.shape[d],), name)
        return bcast(r, shape) if not keepdim or d == 0 else reshape(r, shape)
    c, rest = split_coef(a)
    if c != 1 and a.kind != "num" and rest.shape == a.shape:  # sum(c*e) -> c*sum(e)
        return mul(num(c), reduce_sum(rest, axes, keepdim, shape, name))
    if a.kind == "num":
        count = 1
        for ax in axes:
            count *= n_in[ax]
        return num(a.data * (count if name == "sum" else 1), shape)
    if len(axes) == len(n_in) and not keepdim:
        return call(name, (a,), shape)
    dim = axes[0] if len(axes) == 1 else axes
    return call(name, (a,), shape, extras=(dim,), kwargs=(("keepdim", True),) if keepdim else ())


def sum_to(a, shape):
    """The engine's broadcast reduction: ``a`` summed down to ``shape``."""
    shape = tuple(shape)
    have = a.shape
    if have == shape:
        return a
    lead = len(have) - len(shape)
    lead_axes = tuple(range(lead))
    kept = tuple(i + lead for i, s in enumerate(shape) if s == 1 and have[i + lead] != 1)
    if lead_axes:
        a = reduce_sum(a, lead_axes, False, have[lead:])
    if kept:
        a = reduce_sum(a, tuple(k - lead for k in kept), True, shape)
    return a


def index_text(index) -> str:
    """A numpy/PyTorch basic index (ints, slices, None, Ellipsis) in Python's syntax: ``[:, 1:3]``."""
    items = index if isinstance(index, tuple) else (index,)
    parts = []
    for it in items:
        if it is None:
            parts.append("None")
        elif it is Ellipsis:
            parts.append("...")
        elif isinstance(it, slice):
            a = "" if it.start is None else str(int(it.start))
            b = "" if it.stop is None else str(int(it.stop))
            parts.append(f"{a}:{b}" + ("" if it.step in (None, 1) else f":{int(it.step)}"))
        else:
            parts.append(str(int(it)))
    while len(parts) > 1 and parts[-1] in (":", "..."):
        parts.pop()
    return "[" + ", ".join(parts) + "]"


def index(a, text, shape):
    """``a[...]`` (``text``: the index as :func:`index_text` writes it)."""
    if a.kind == "num":
        return num(a.data, shape)
    if text == "[:]" and a.shape == tuple(shape):
        return a
    return _make("index", text, (a,), shape)


def joined(name, parts, dim, shape):
    """``cat([...], dim)`` / ``stack([...], dim)``."""
    return _make("call", (name, (dim,), (), False), tuple(parts), shape)


def reshape(a, shape):
    shape = tuple(shape)
    if a.shape == shape:
        return a
    if a.kind == "num":
        return num(a.data, shape)
    lead = len(shape) - len(a.shape)
    if lead > 0 and shape[lead:] == a.shape and all(n == 1 for n in shape[:lead]):
        return bcast(a, shape)  # leading 1-dims: what broadcasting adds anyway
    if a.kind == "call" and a.data[0] in ("sum", "mean") and a.data[2] == (("keepdim", True),):
        # sum(x, d, keepdim=True) viewed without its kept dims is sum(x, d) (ATen's sum_to does this)
        dims = a.data[1][0] if a.data[1] else ()
        dims = {d % len(a.shape) for d in (dims if isinstance(dims, tuple) else (dims,))}
        if tuple(n for i, n in enumerate(a.shape) if i not in dims) == shape:
            return reduce_sum(a.args[0], tuple(sorted(dims)), False, shape, a.data[0])
    return call("reshape", (a,), shape, extras=(shape,))


def permute(a, dims, shape, *, name="permute", extras=None):
    if a.kind == "num":
        return num(a.data, shape)
    if len(a.shape) < 2 or list(dims) == sorted(dims):
        return a
    if name == "transpose" and len(a.shape) == 2:
        if a.kind == "call" and a.data[0] == "transpose":  # (A.T).T
            return a.args[0]
        if a.kind == "matmul" and all(len(x.shape) == 2 for x in a.args):  # (A @ B).T = B.T @ A.T
            x, y = a.args
            return matmul(transpose2(y), transpose2(x), shape)
        c, rest = split_coef(a)
        if c != 1 and rest.shape == a.shape:
            return mul(num(c), transpose2(rest))
    return call(name, (a,), shape, extras=(tuple(dims),) if extras is None else extras)


# ------------------------------------------------------------------ common sub-expressions

class Named:
    """Roots with their repeated sub-expressions named ``t1``, ``t2``, ..."""

    def __init__(self, roots, *, taken=(), min_size=4):
        self.roots = roots
        self.names = {}  # id(expr) -> name
        self.order = []  # named exprs, each after the ones it uses
        nodes = _topological([r for r in roots if r is not None])
        count = {}
        for r in roots:
            if r is not None:
                count[id(r)] = count.get(id(r), 0) + 1
        chosen = set()
        for e in nodes:  # parents before children
            c = count.get(id(e), 0)
            flat = all(a.kind in ("num", "var") for a in e.args) and e.size < 6  # x*w1*w3: short
            if c >= 2 and e.size >= min_size and e.kind not in ("num", "var") and not flat:
                chosen.add(id(e))
                c = 1
            for a in e.args:
                count[id(a)] = count.get(id(a), 0) + c
        k = 0
        taken = set(taken)
        for e in reversed(nodes):  # children first
            if id(e) in chosen:
                k += 1
                while f"t{k}" in taken:
                    k += 1
                self.names[id(e)] = f"t{k}"
                self.order.append(e)
        # a root that is itself named prints its definition's name
        self.root_is_named = {id(r) for r in roots if r is not None and id(r) in chosen}


def _topological(roots):
    """Every node under ``roots``, each before its arguments (iterative)."""
    seen, post = set(), []
    for r in roots:
        if id(r) in seen:
            continue
        stack = [(r, False)]
        while stack:
            e, done = stack.pop()
            if done:
                post.append(e)
                continue
            if id(e) in seen:
                continue
            seen.add(id(e))
            stack.append((e, True))
            for a in reversed(e.args):
                if id(a) not in seen:
                    stack.append((a, False))
    post.reverse()
    return post


# the printed forms (text, LaTeX, JSON) live in .notation; they are part of this module's API
from .notation import fmt_number, latex_name, to_latex, to_text, to_tree  # noqa: E402,F401
