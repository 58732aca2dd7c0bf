"""The containers torch.func looks into: tuples, lists and dicts (exact types) and named tuples, nested.

Everything else is a leaf.  Only the exact built-in types are opened, so a
script object never has its ``__len__`` or ``__iter__`` consulted here (a named tuple is iterated as a
tuple).
"""

from __future__ import annotations


def flatten(tree):
    """(leaves, spec): ``spec`` rebuilds the structure with :func:`unflatten`."""
    leaves = []

    def walk(x):
        t = type(x)
        if t is tuple or t is list:
            return (t, [walk(v) for v in x])
        if t is dict:
            return (dict, [(k, walk(v)) for k, v in x.items()])
        if _is_namedtuple(t):
            return (t, [walk(v) for v in x])
        leaves.append(x)
        return None

    return leaves, walk(tree)


def _is_namedtuple(t) -> bool:
    """A named tuple (``torch.return_types.max``, a script's namedtuple): a tuple with fields, iterated as one."""
    return issubclass(t, tuple) and t.__iter__ is tuple.__iter__ and hasattr(t, "_fields")


def unflatten(leaves, spec):
    it = iter(leaves)

    def build(s):
        if s is None:
            return next(it)
        t, kids = s
        if t is dict:
            return {k: build(v) for k, v in kids}
        if t is not tuple and t is not list:
            return t(*(build(v) for v in kids))
        return t(build(v) for v in kids)

    return build(spec)


def describe(spec, indent=0) -> str:
    """A structure as PyTorch's TreeSpec prints, for error messages: ``TreeSpec(tuple, None, [*,\n  *])``."""
    if spec is None:
        return "*"
    t, kids = spec
    if t is dict:
        context = repr([k for k, _ in kids])
        kids = [v for _, v in kids]
    else:
        context = "None"
    sep = ",\n" + "  " * (indent + 1)
    inner = sep.join(describe(k, indent + 1) for k in kids)
    return f"TreeSpec({t.__name__}, {context}, [{inner}])"


def pprint(spec) -> str:
    """A structure as PyTorch's ``treespec_pprint`` writes it: ``(*, [*, *])``."""
    if spec is None:
        return "*"
    t, kids = spec
    if t is dict:
        return "{" + ", ".join(f"{k!r}: {pprint(v)}" for k, v in kids) + "}"
    inner = ", ".join(pprint(v) for v in kids)
    return f"[{inner}]" if t is list else f"({inner}{',' if len(kids) == 1 else ''})"


def broadcast_prefix(prefix, tree, what):
    """``prefix`` (an in_dims/out_dims value) repeated over the leaves of ``tree``; None on mismatch."""
    out = []

    def walk(p, x):
        tp, tx = type(p), type(x)
        if tp in (tuple, list, dict):
            if tp is dict:
                if tx is not dict or set(p) != set(x):
                    return False
                return all(walk(p[k], x[k]) for k in x)
            if tx is not tp or len(p) != len(x):
                return False
            return all(walk(a, b) for a, b in zip(p, x))
        n = len(flatten(x)[0])
        out.extend([p] * n)
        return True

    return out if walk(prefix, tree) else None
