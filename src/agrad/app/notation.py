"""How :mod:`.symbolic` expressions print: agrad's script syntax (read back and
evaluated by ``agrad diff``; ``sum`` there is ``torch.sum``), LaTeX, and a JSON tree.

A node may print smaller than it is (``1`` for a tensor of ones): pointwise
arithmetic broadcasts it anyway, and where an op that cares about shapes (a
reduction, ``@``, a reshape) needs the real shape the printer writes
``broadcast_to(...)`` or ``full(...)``.
"""

from __future__ import annotations

import math

from .symbolic import _topological, broadcast, is_num, mul, num, power, split_coef


# ------------------------------------------------------------------ text

def fmt_number(v: float) -> str:
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    short = f"{v:.8g}"
    return short if float(short) == v else repr(v)  # exact: the expression is evaluated again


def _nat(e, names, memo):
    """The shape ``e`` has as printed (smaller than ``e.shape`` where it broadcasts)."""
    r = memo.get(id(e))
    if r is not None:
        return r
    for n in reversed(_topological([e])):  # arguments first: no recursion on deep expressions
        if id(n) in memo:
            continue
        if n.kind == "num":
            r = ()
        elif n.kind == "bcast" or n.pointwise:
            r = broadcast(*(memo[id(a)] for a in n.args)) if n.args else ()
        else:
            r = n.shape
        memo[id(n)] = r
    return memo[id(e)]


def _rational(c):
    """(p, q) with c = p/q for a simple fraction, else (c, 1)."""
    if c == int(c) or not math.isfinite(c):
        return c, 1.0
    for q in range(2, 1001):  # the smallest denominator that makes c a whole number
        p = round(c * q)
        if abs(p / q - c) <= 1e-12 * max(1.0, abs(c)):
            return float(p), float(q)
    return c, 1.0


class _Printer:
    """Shared by the text and LaTeX forms: the structure; subclasses spell it."""

    def __init__(self, names=None):
        self.names = names or {}
        self.nat = {}

    def top(self, e):
        return self.expr(e, 0, top=True)[0]

    def expr(self, e, need, top=False):
        name = None if top else self.names.get(id(e))
        if name is not None:
            return self.ref(name), 9
        text, prec = self.node(e)
        if prec < need:
            text, prec = self.paren(text), 9
        return text, prec

    def fitted(self, a, need):
        """An argument of a shape-sensitive op: printed with its real shape."""
        if _nat(a, self.names, self.nat) != a.shape:
            if a.kind == "num":
                return self.full(a), 9
            inner = a.args[0] if a.kind == "bcast" else a
            return self.broadcast_to(self.expr(inner, 0)[0], a.shape), 9
        return self.expr(a, need)

    def node(self, e):
        k = e.kind
        if k == "num":
            return self.number(e.data), (9 if e.data >= 0 else 3)
        if k == "var":
            return self.variable(e.data), 9
        if k == "bcast":
            return self.expr(e.args[0], 0)
        if k == "add":
            return self.sum_of(e)
        if k == "mul":
            return self.product(e)
        if k == "pow":
            return self.pow_of(e)
        if k == "matmul":
            a = self.fitted(e.args[0], 2)[0]
            b = self.fitted(e.args[1], 3)[0]
            return self.matmul_of(a, b), 2
        if k == "cmp":
            a = self.expr(e.args[0], 1)[0]
            b = self.expr(e.args[1], 1)[0]
            return self.compare(e.data, a, b), 0
        if k == "and":
            a = self.expr(e.args[0], 1)[0]
            b = self.expr(e.args[1], 1)[0]
            return self.conj(a, b), 0.5
        if k == "or":
            a = self.expr(e.args[0], 0.4)[0]
            b = self.expr(e.args[1], 0.4)[0]
            return self.disj(a, b), 0.3
        if k == "not":
            return self.negation(self.expr(e.args[0], 4)[0]), 3.5
        if k == "index":
            return self.indexed(self.fitted(e.args[0], 9)[0], e.data), 9
        name, extras, kwargs, pointwise = e.data
        if name in ("cat", "stack"):
            return self.func(name, ["[" + ", ".join(self.fitted(a, 0)[0] for a in e.args) + "]"],
                             extras, kwargs), 9
        args = [(self.expr(a, 0) if pointwise else self.fitted(a, 0))[0] for a in e.args]
        return self.func(name, args, extras, kwargs), 9

    def sum_of(self, e):
        parts = []
        terms = list(e.args)
        if split_coef(terms[0])[0] < 0:  # 1 - x, not -x + 1
            k = next((k for k, t in enumerate(terms) if split_coef(t)[0] > 0), 0)
            terms.insert(0, terms.pop(k))
        for i, t in enumerate(terms):
            c, rest = split_coef(t)
            if i and c < 0:
                parts.append((" - ", self.expr(mul(num(-c), rest), 1.5)[0]))
            else:
                parts.append((" + " if i else "", self.expr(t, 1.5 if i else 1)[0]))
        return "".join(s + p for s, p in parts), 1

    def factors(self, e):
        """(sign, numerator coefficient, denominator coefficient, numerator, denominator)."""
        c, rest = split_coef(e) if e.kind == "mul" else (1.0, e)
        fs = rest.args if rest.kind == "mul" else (rest,)
        top, bottom = [], []
        for f in fs:
            if f.kind == "pow" and f.args[1].kind == "num" and f.args[1].data < 0:
                bottom.append(power(f.args[0], num(-f.args[1].data)))
            elif not is_num(f, 1.0):
                top.append(f)
        p, q = _rational(abs(c))
        return c < 0, p, q, self.ordered(top), self.ordered(bottom)

    def ordered(self, fs):
        """Factors as one reads them: variables (and their powers), then named sub-expressions,
        then the rest in the order they came."""
        def rank(k_f):
            k, f = k_f
            b = f.args[0] if f.kind == "pow" else f
            if id(b) in self.names:
                return (1, self.names[id(b)], k)
            if b.kind == "var":
                return (0, b.data, k)
            return (2, "", k)
        return [f for _, f in sorted(enumerate(fs), key=rank)]

    def pow_of(self, e):
        base, ex = e.args
        if ex.kind == "num":
            if ex.data < 0:
                return self.product(e)
            if ex.data == 0.5:
                return self.func("sqrt", [self.expr(base, 0)[0]], (), ()), 9
        b = self.expr(base, 9)[0]
        x = self.number(ex.data) if ex.kind == "num" else self.expr(ex, 9)[0]
        return self.pow_text(b, x), 4


class _Text(_Printer):
    def number(self, v):
        return fmt_number(v)

    def variable(self, name):
        return name

    def ref(self, name):
        return name

    def paren(self, text):
        return f"({text})"

    def full(self, a):
        v = fmt_number(a.data)
        return f"full({tuple(a.shape)!r}, {v if '.' in v or 'e' in v or 'n' in v else v + '.0'})"

    def broadcast_to(self, text, shape):
        return f"broadcast_to({text}, {tuple(shape)!r})"

    def matmul_of(self, a, b):
        return f"{a} @ {b}"

    def indexed(self, a, text):
        return a + text

    def compare(self, op, a, b):
        return f"{a} {op} {b}"

    def conj(self, a, b):
        return f"{a} & {b}"

    def disj(self, a, b):
        return f"{a} | {b}"

    def negation(self, a):
        return f"~{a}"

    def pow_text(self, b, x):
        return f"{b}**{x}"

    def func(self, name, args, extras, kwargs):
        parts = list(args) + [repr(x) for x in extras] + [f"{k}={v!r}" for k, v in kwargs]
        return f"{name}({', '.join(parts)})"

    def product(self, e):
        sign, p, q, top, bottom = self.factors(e)
        parts = [self.number(p)] if p != 1 or not top else []
        parts += [self.expr(f, 2.5 if f.kind != "matmul" else 9)[0] for f in top]
        text = "*".join(parts)
        den = ([self.number(q)] if q != 1 else []) + [self.expr(f, 2.5)[0] for f in bottom]
        if den:
            text += "/" + (den[0] if len(den) == 1 and (q != 1 or self.expr(bottom[0], 9)[1] >= 9)
                           else f"({'*'.join(den)})")
        if sign:
            return "-" + text, 3
        return text, 2


def to_text(e, names=None) -> str:
    """``e`` in agrad's script syntax (``names``: id(expr) -> CSE name)."""
    return _Text(names).top(e)


# ------------------------------------------------------------------ LaTeX

_LATEX_FUNCS = {"sin": r"\sin", "cos": r"\cos", "tan": r"\tan", "exp": r"\exp", "log": r"\log",
                "sinh": r"\sinh", "cosh": r"\cosh", "tanh": r"\tanh", "asin": r"\arcsin",
                "acos": r"\arccos", "atan": r"\arctan", "sigmoid": r"\sigma", "log10": r"\log_{10}",
                "log2": r"\log_{2}"}


def latex_name(name: str) -> str:
    import re
    m = re.fullmatch(r"([A-Za-z])_?(\d+)", name)
    if m:
        return f"{m.group(1)}_{{{m.group(2)}}}"
    if re.fullmatch(r"[A-Za-z]", name):
        return name
    esc = name.replace("\\", r"\backslash ").replace("_", r"\_").replace("{", r"\{").replace("}", r"\}")
    esc = esc.replace("#", r"\#").replace("%", r"\%").replace("&", r"\&").replace("$", r"\$")
    return r"\mathrm{" + esc + "}"


_LATEX_CMP = {"<=": r"\le", ">=": r"\ge", "==": "=", "!=": r"\ne"}


class _Latex(_Printer):
    def number(self, v):
        s = fmt_number(v)
        if "e" in s and s not in ("-inf", "inf"):
            m, x = s.split("e")
            return f"{m} \\cdot 10^{{{int(x)}}}"
        return {"inf": r"\infty", "-inf": r"-\infty", "nan": r"\mathrm{NaN}"}.get(s, s)

    def variable(self, name):
        return latex_name(name)

    def ref(self, name):
        return latex_name(name)

    def paren(self, text):
        return rf"\left({text}\right)"

    def full(self, a):
        return rf"{self.number(a.data)}_{{{list(a.shape)}}}"

    def broadcast_to(self, text, shape):
        return rf"\operatorname{{broadcast}}_{{{list(shape)}}}\left({text}\right)"

    def matmul_of(self, a, b):
        return f"{a} {b}"

    def indexed(self, a, text):
        return rf"{a}\left{text[0]}{text[1:-1]}\right{text[-1]}"

    def compare(self, op, a, b):
        return f"{a} {_LATEX_CMP.get(op, op)} {b}"

    def conj(self, a, b):
        return rf"{a} \land {b}"

    def disj(self, a, b):
        return rf"{a} \lor {b}"

    def negation(self, a):
        return rf"\lnot {a}"

    def pow_text(self, b, x):
        return f"{{{b}}}^{{{x}}}"

    def func(self, name, args, extras, kwargs):
        inner = ", ".join(args)
        if name == "sqrt":
            return rf"\sqrt{{{inner}}}"
        if name == "abs":
            return rf"\left|{inner}\right|"
        if name in ("sum", "mean") and (extras or kwargs):
            dims = ", ".join(str(x) for x in extras)
            op = r"\sum" if name == "sum" else r"\operatorname{mean}"
            return rf"{op}_{{\mathrm{{dim}}\,{dims}}}\left({inner}\right)"
        if name == "sum":
            return rf"\sum\left({inner}\right)"
        if name == "transpose" and extras == (0, 1):
            return rf"{{\left({inner}\right)}}^{{\top}}"
        if extras or kwargs:
            inner = ", ".join(list(args) + [repr(x) for x in extras] + [f"{k}={v!r}" for k, v in kwargs])
        head = _LATEX_FUNCS.get(name, rf"\operatorname{{{latex_name(name) if '_' in name else name}}}")
        return rf"{head}\left({inner}\right)"

    def product(self, e):
        sign, p, q, top, bottom = self.factors(e)
        parts = [self.number(p)] if p != 1 or not top else []
        for f in top:
            t = self.expr(f, 2.5)[0]
            parts.append((r" \cdot " if parts and (t[:1].isdigit() or t[:1] == "-") else (" " if parts else "")) + t)
        text = "".join(parts)
        den = ([self.number(q)] if q != 1 else []) + [self.expr(f, 2.5)[0] for f in bottom]
        if den:
            text = rf"\frac{{{text or '1'}}}{{{' '.join(den)}}}"
        return ("-" + text, 3) if sign else (text, 2)


def to_latex(e, names=None) -> str:
    return _Latex(names).top(e)


# ------------------------------------------------------------------ JSON

def to_tree(e, names=None, top=True):
    """The expression tree as JSON-ready dicts: ``{"op", "shape", ...}``."""
    names = names or {}
    name = None if top else names.get(id(e))
    if name is not None:
        return {"op": "ref", "name": name, "shape": list(e.shape)}
    k = e.kind
    node = {"op": k, "shape": list(e.shape)}
    if k == "num":
        v = e.data
        node["value"] = v if math.isfinite(v) else ("nan" if math.isnan(v) else ("inf" if v > 0 else "-inf"))
        return node
    if k == "var":
        node["name"] = e.data
        return node
    if k == "cmp":
        node["compare"] = e.data
    if k == "index":
        node["index"] = e.data
    if k == "call":
        name, extras, kwargs, _ = e.data
        node["name"] = name
        if extras:
            node["extras"] = [list(x) if isinstance(x, tuple) else x for x in extras]
        if kwargs:
            node["kwargs"] = {kk: vv for kk, vv in kwargs}
    node["args"] = [to_tree(a, names, False) for a in e.args]
    return node
