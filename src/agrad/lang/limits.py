"""Size limits of the script language: every value a script can grow is
checked against ``--max-elements`` before it is built.

Lists, strings, dicts and sets (the growing methods of ``str``, ``list``,
``dict`` and ``set`` are wrapped here), integers (in bits), format widths,
and counts taken from objects (``[0] * n`` where ``n`` is a tensor).  A
length or an iterator that a script object reports is never trusted: such
values are consumed item by item with a running count.
"""

from __future__ import annotations

import math
import operator
import re

from .._limits import LimitError, get_max_elements

_safety = None


def _engine_made(t) -> bool:
    global _safety
    if _safety is None:
        from . import safety
        _safety = safety
    return _safety.is_engine_class(t) and not _safety.is_script_class(t)

# ------------------------------------------------------------------ limits

def check_size(n: int, what: str) -> None:
    """Raise LimitError if a ``what`` (list, string, ...) of n items is over --max-elements."""
    limit = get_max_elements()
    if limit is not None and n > limit:
        raise LimitError(f"{what} of {n:,} elements exceeds the limit of {limit:,} elements "
                         f"(--max-elements)")


def check_int_bits(bits: int) -> None:
    limit = get_max_elements()
    if limit is not None and bits > limit:
        raise LimitError(f"an integer of about {bits:,} bits exceeds the limit of {limit:,} bits "
                         f"(--max-elements)")


_SPEC_NUM = re.compile(r"\d+")


def check_format_spec(spec: str) -> None:
    """A format spec like '>1000000000' would build a huge string."""
    limit = get_max_elements()
    if limit is None or not spec:
        return
    for m in _SPEC_NUM.finditer(spec):
        if len(m.group()) > 18 or int(m.group()) > limit:
            raise LimitError(f"format width or precision {m.group()} exceeds the limit of "
                             f"{limit:,} (--max-elements)")


_PERCENT_SPEC = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")


def check_percent_format(fmt: str, args) -> None:
    limit = get_max_elements()
    if limit is None:
        return
    star_args = False
    for m in _PERCENT_SPEC.finditer(fmt):
        for g in m.groups():
            if g == "*":
                star_args = True
            elif g and (len(g) > 18 or int(g) > limit):
                raise LimitError(f"format width or precision {g} exceeds the limit of "
                                 f"{limit:,} (--max-elements)")
    if star_args:
        items = args if isinstance(args, tuple) else (args,)
        for a in items:
            if isinstance(a, int) and not isinstance(a, bool) and abs(a) > limit:
                raise LimitError(f"format width or precision {a} exceeds the limit of "
                                 f"{limit:,} (--max-elements)")


#: containers whose len() is the number of items they yield (a script class's
#: ``__len__`` may lie, so its length is never trusted for a size check)
_TRUSTED_LEN = frozenset({list, tuple, str, dict, set, frozenset, range,
                          type({}.keys()), type({}.values()), type({}.items())})


def sized_len(x):
    """len(x) if x is a container whose length can be trusted, else None."""
    t = type(x)
    if t in _TRUSTED_LEN or _engine_made(t):
        try:
            return len(x)
        except Exception:
            return None
    if t.__name__ == "ndarray" and t.__module__ in ("numpy", "agrad.lang.guarded"):
        return len(x)
    return None


def as_count(x, what=None):
    """An int from an object used as a count or width (``[0] * n``,
    ``s.ljust(n)``): a tensor's or numpy integer's ``__index__`` is taken
    here, so that the size check sees the number Python will use.  Without
    ``what``, None for an object that is not an integer (Python's own
    operator then raises its error)."""
    if type(x) is int or type(x) is bool:
        return x
    try:
        return operator.index(x)
    except TypeError:
        if what is None:
            return None
        raise TypeError(f"'{type(x).__name__}' object cannot be interpreted as an integer "
                        f"({what})") from None



def _w_join(s):
    def join(iterable):
        items = iterable if type(iterable) in (list, tuple) else bounded_list(iterable, "list")
        total = sum(len(x) for x in items if isinstance(x, str)) + len(s) * max(len(items) - 1, 0)
        check_size(total, "string")
        return s.join(items)
    return join


def _w_replace(s):
    def replace(old, new, count=-1):
        if isinstance(old, str) and isinstance(new, str):
            n = (len(s) + 1) if old == "" else s.count(old)
            if count >= 0:
                n = min(n, count)
            check_size(len(s) + n * (len(new) - len(old)), "string")
        return s.replace(old, new, count)
    return replace


def _w_pad(s, meth):
    def pad(width, *args):
        width = as_count(width, "width")
        check_size(width, "string")
        return getattr(s, meth)(width, *args)
    pad.__name__ = meth
    return pad


def _w_expandtabs(s):
    def expandtabs(tabsize=8):
        tabsize = as_count(tabsize, "tabsize")
        check_size(len(s) * max(tabsize, 1), "string")
        return s.expandtabs(tabsize)
    return expandtabs


def _w_append(lst):
    def append(x):
        check_size(len(lst) + 1, "list")
        lst.append(x)
    return append


def _w_insert(lst):
    def insert(i, x):
        check_size(len(lst) + 1, "list")
        lst.insert(i, x)
    return insert


def _w_extend(lst):
    def extend(iterable):
        n = sized_len(iterable)
        if n is None:
            iterable = bounded_list(iterable, "list", len(lst))
            n = len(iterable)
        check_size(len(lst) + n, "list")
        lst.extend(iterable)
    return extend


def trusted_items(a, what, start=0):
    """``a`` as something whose size was checked (a script object's keys()
    or iterator may yield without end)."""
    if sized_len(a) is not None:
        return a
    if hasattr(a, "keys"):
        return {k: a[k] for k in bounded_list(a.keys(), what, start)}
    return bounded_list(a, what, start)


def _w_update(d, what):
    def update(*args, **kw):
        args = [trusted_items(a, what, len(d)) for a in args]
        extra = sum(len(a) for a in args) + len(kw)
        check_size(len(d) + extra, what)
        d.update(*args, **kw)
    return update


def _w_union(st, meth):
    def union(*others):
        others = [trusted_items(o, "set", len(st)) for o in others]
        if meth in ("union", "symmetric_difference"):
            check_size(len(st) + sum(len(o) for o in others), "set")
        return getattr(st, meth)(*others)
    union.__name__ = meth
    return union


def _w_add(st):
    def add(x):
        check_size(len(st) + 1, "set")
        st.add(x)
    return add


def _w_setdefault(d):
    def setdefault(key, default=None):
        check_size(len(d) + 1, "dict")
        return d.setdefault(key, default)
    return setdefault


# -------------------------------------------------------------- helpers

def bounded_list(iterable, what="list", start=0, cancel=None):
    """list(iterable), stopping with LimitError once it passes --max-elements."""
    n = sized_len(iterable)
    if n is not None and not isinstance(iterable, (dict,)) and type(iterable).__name__ != "Tensor":
        check_size(start + n, what)
        return list(iterable)
    limit = get_max_elements()
    out = []
    append = out.append
    for i, x in enumerate(iterable):
        if limit is not None and start + i >= limit:
            check_size(start + i + 1, what)
        if cancel is not None and not (i & 0xFFF):
            cancel()
        append(x)
    return out


def int_pow(base, exp, cancel=None):
    """``base ** exp`` for ints, refusing results over the size limit and
    staying interruptible (a Python loop of big multiplications)."""
    if exp < 0 or base in (0, 1, -1):
        return base ** exp
    bits = exp * math.log2(abs(base)) if base else 0
    check_int_bits(int(bits))
    if bits < 1 << 16:
        return base ** exp
    result = 1
    b = base
    e = exp
    while e:
        if e & 1:
            result *= b
        e >>= 1
        if e:
            b *= b
        if cancel is not None:
            cancel()
    return result


# -------------------------------------------------- math's big-integer functions

def _bits_of(x):
    return abs(x).bit_length() if isinstance(x, int) else 64


def _m_factorial(n):
    n = as_count(n, "factorial")
    if n > 2:
        check_int_bits(int(n * math.log2(n)))
    return math.factorial(n)


def _m_comb(n, k):
    n, k = as_count(n, "comb"), as_count(k, "comb")
    if n > 2 and 0 <= k <= n:
        check_int_bits(int(min(k, n - k) * math.log2(n)))
    return math.comb(n, k)


def _m_perm(n, k=None):
    n = as_count(n, "perm")
    k = None if k is None else as_count(k, "perm")
    if n > 2:
        kk = n if k is None else k
        if isinstance(kk, int) and 0 <= kk <= n:
            check_int_bits(int(kk * math.log2(n)))
    return math.perm(n, k)


def _m_prod(iterable, *, start=1):
    items = bounded_list(iterable)
    check_int_bits(sum(_bits_of(x) for x in items) + _bits_of(start))
    return math.prod(items, start=start)


def _m_lcm(*ints):
    check_int_bits(sum(_bits_of(x) for x in ints))
    return math.lcm(*ints)


_MATH_CHECKED = {"factorial": _m_factorial, "comb": _m_comb, "perm": _m_perm,
                 "prod": _m_prod, "lcm": _m_lcm}
