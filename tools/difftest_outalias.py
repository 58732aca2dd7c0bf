"""The differential tester's rule ``out-aliases-operand`` (session 42, docs/semantics.md): ``out=`` is one of
the call's own operands in an op whose kernel reads that operand inside MKL (BLAS's gemm/gemv with C also
A, B or x; LAPACK's getrs/geqrf/gesdd writing into what they read) or inside a parallel loop whose threads
read each other's writes (avg_pool2d): PyTorch's value is what that library's blocking or the threads'
timing gives, which agrad does not reproduce (it writes the op's value, or its replay where the order is
ATen's own: tools/exact_cases_alias42.py)."""

from __future__ import annotations

import re

#: the ops (as difftest_compare.op_of names them) whose reads of an aliased operand are MKL's or a race
ALIAS_OPS = frozenset({"addmm", "addmv", "linear", "baddbmm", "addbmm", "lu_solve", "qr", "svd", "avg_pool2d"})
#: int64 products whose PyTorch kernel past an 8-long contraction reads what its earlier blocks wrote
INT64_BLOCKED_OPS = frozenset({"mm", "matmul"})
_OUT_ARG = re.compile(r"\bout\s*=\s*(\w+|\(\s*\w+(?:\s*,\s*\w+)*\s*,?\s*\))")


def _has_bias(args: str) -> bool:
    """Whether linear's arguments (up to ``out=``) give a bias: a third positional one or ``bias=``, not None."""
    parts, depth, cur = [], 0, ""
    for ch in args:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts = [x for x in parts + [cur.strip()] if x]
    bias = [x.split("=", 1)[1].strip() for x in parts if re.match(r"bias\s*=", x)] or parts[2:3]
    return bool(bias) and bias[0] != "None"


def int64_blocked(stmt: str, want: dict) -> bool:
    """True when the statement's ``out=`` is a 2-dim int64 tensor with a dim past 8 (in PyTorch's state after
    it): int64 mm's own kernel, whose blocks past an 8-long contraction read an operand that is out as
    earlier blocks wrote it (session 43, not replayed; shorter contractions read first, as agrad does)."""
    found = _OUT_ARG.search(stmt.strip().splitlines()[-1])
    d = want["vars"].get(found.group(1)) if found and found.group(1).isidentifier() else None
    return bool(d) and d.get("kind") == "tensor" and d["dtype"] == "torch.int64" and len(d["shape"]) == 2 \
        and max(d["shape"]) > 8


def aliased_operand(stmt: str, want: dict, got: dict, agree_once) -> bool:
    """True when the statement's ``out=`` names a variable that is also an argument of the call, and every
    variable that differs is one of the ``out=`` names or the name the statement assigns."""
    last = stmt.strip().splitlines()[-1]
    found = _OUT_ARG.search(last)
    if not found:
        return False
    outs = set(re.findall(r"\w+", found.group(1)))
    call = last[:found.start()]
    args = call[call.find("(") + 1:] if "(" in call else ""
    if re.search(r"\blinear\(", call) and not _has_bias(args):
        return False  # (linear without a bias is matmul_out: mm's zeroed BLAS result, which agrad gives)
    if not outs & set(re.findall(r"(?<![\w.])([A-Za-z_]\w*)(?![\w(])", args)):
        return False
    names = set(outs)
    assigned = re.match(r"^\s*(\w+)\s*=(?!=)", last)
    if assigned:
        names.add(assigned.group(1))
    mine = [want["vars"][n] for n in names if n in want["vars"]]

    def neutral(w, g):
        return (g, g) if any(w is m for m in mine) else None
    return agree_once(want, got, neutral)
