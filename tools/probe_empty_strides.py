"""Probe: the layout of empty tensors (a dim of size 0) and of views of them and results of ops on them.

Random chains of view ops (slice with steps, narrow, select, unsqueeze, view, reshape, permute, t, expand,
as_strided, None, squeeze, flatten, diagonal, unfold, movedim, split, chunk, unbind, broadcast_to,
unflatten, swapaxes, mT, ...) and ops (clone, contiguous, add, mul, empty_like, sum(dim), cat, stack, matmul,
softmax, cumsum, ...) over empty and small tensors. After each step it prints ``stride()``,
``is_contiguous()`` (and channels-last for 4-D), ``storage_offset()``, ``data_ptr() == 0``, ``is_set_to``
of the previous tensor, and the strides of a few results made from the tensor.

    python tools/probe_empty_strides.py torch 0 500 > /tmp/t.txt
    PYTHONPATH=src python tools/probe_empty_strides.py agrad 0 500 > /tmp/a.txt
    diff /tmp/t.txt /tmp/a.txt | grep -c '^>'

``ops`` mode: every public function and method (agrad's op table) called on empty tensors of
distinctive strides (a step, an expand, a transpose, a permute, channels-last, a dim of one element), with
no argument or one of a few (a number, the tensor itself twice), plain and with ``out=`` a tensor of one
element (resized), printing the strides of each result and of the input's gradient (plain and
``create_graph``): the layouts of results made like the input (empty_like: frexp, the *_like samplers),
of TensorIterator outputs over numbers (compatible strides), of resized outs and of accumulated gradients.
Calls only one library accepts are listed apart by ``compare``.

    python tools/probe_empty_strides.py torch ops > /tmp/t.txt
    PYTHONPATH=src python tools/probe_empty_strides.py agrad ops > /tmp/a.txt
    python tools/probe_empty_strides.py compare /tmp/t.txt /tmp/a.txt
"""

from __future__ import annotations

import random
import sys

SOURCES = [
    "torch.zeros(0)", "torch.zeros(0, 3)", "torch.zeros(3, 0)", "torch.zeros(2, 0, 3)", "torch.empty(3, 0, 4)",
    "torch.zeros(0, 1)", "torch.zeros(1, 0)", "torch.zeros(0, 3, 1)", "torch.arange(6.).reshape(2, 3)[:0]",
    "torch.arange(6.).reshape(2, 3)[:, 3:]", "torch.zeros(2, 3)[1:1]", "torch.zeros(4, 0, 2, 3)",
    "torch.zeros(0, 2, 3, 4)", "torch.zeros(2, 3, 0, 1)", "torch.zeros(2, 3).t()[:, :0]", "torch.zeros(0, 0)",
    "torch.zeros(2, 3)", "torch.zeros(3, 1, 2)", "torch.zeros(1, 0, 1)", "torch.zeros(0, 4)[::2, ::2]",
]

VIEWS = {
    "slice": "t = SLICE(t)",
    "step": "t = STEP(t)",
    "narrow": "t = NARROW(t)",
    "select": "t = SELECT(t)",
    "unsqueeze": "t = t.unsqueeze(random_int(0, t.dim()))",
    "view": "t = t.view(*VSHAPE(t))",
    "reshape": "t = t.reshape(*VSHAPE(t))",
    "permute": "t = t.permute(*PERM(t))",
    "t": "t = t.t() if t.dim() <= 2 else t.transpose(0, -1)",
    "expand": "t = t.expand(*EXP(t))",
    "as_strided": "t = ASTR(t)",
    "none": "t = t[None] if t.dim() == 0 else t[:, None]",
    "squeeze": "t = t.squeeze()",
    "sqdim": "t = t.squeeze(DIM(t)) if t.dim() else t",
    "flatten": "t = t.flatten()",
    "diagonal": "t = t.diagonal(0, 0, 1) if t.dim() >= 2 else t",
    "diagonal1": "t = t.diagonal(1, -1, 0) if t.dim() >= 2 else t",
    "unfold": "t = t.unfold(DIM(t), 1, 1) if t.dim() else t",
    "unfold0": "t = UNFOLD(t)",
    "movedim": "t = t.movedim(0, -1) if t.dim() else t",
    "split": "t = t.split(1, DIM(t))[-1] if t.dim() and 0 not in t.shape else t",
    "split0": "t = t.split(2, DIM(t))[0] if t.dim() else t",
    "chunk": "t = t.chunk(2, DIM(t))[0] if t.dim() else t",
    "tsplit": "t = torch.tensor_split(t, 2, DIM(t))[1] if t.dim() else t",
    "unbind": "t = t.unbind(DIM(t))[0] if t.dim() and t.shape[0] else t",
    "bcast": "t = torch.broadcast_to(t, EXP(t))",
    "swap": "t = t.swapaxes(0, -1) if t.dim() else t",
    "unflat": "t = t.unflatten(-1, (1, t.shape[-1])) if t.dim() else t",
    "unflat0": "t = t.unflatten(0, (t.shape[0], 1)) if t.dim() else t",
    "mT": "t = t.mT if t.dim() >= 2 else t",
    "unsq_": "t = t.detach().unsqueeze_(random_int(0, t.dim()))",
    "t_": "t = t.detach().t_() if t.dim() <= 2 else t",
    "ellipsis": "t = t[..., ::2] if t.dim() else t",
    "view_as_int": "t = t.view(torch.int32)",
    "view_as_f64": "t = t.view(torch.float64) if t.dim() and t.stride(-1) == 1 and t.shape[-1] % 2 == 0 else t",
    "real": "t = t.real",
    "alias": "t = t.view_as(t)",
    "detach": "t = t.detach()",
    "estr": "t = t.new_empty_strided(ESHAPE(), [R.choice([0, 1, 2, 5]) for _ in range(2)])",
}

OPS = {
    "clone": "t = t.clone()",
    "contig": "t = t.contiguous()",
    "add": "t = t + t",
    "add1": "t = t + 1",
    "mul": "t = t * 2",
    "exp": "t = t.exp()",
    "empty_like": "t = torch.empty_like(t)",
    "zeros_like": "t = torch.zeros_like(t)",
    "sum": "t = t.sum(DIM(t)) if t.dim() else t",
    "sumk": "t = t.sum(DIM(t), keepdim=True) if t.dim() else t",
    "cat": "t = torch.cat([t, t], DIM(t)) if t.dim() else t",
    "stack": "t = torch.stack([t, t], random_int(0, t.dim()))",
    "mm": "t = t @ t.mT if t.dim() >= 2 else t",
    "softmax": "t = t.softmax(DIM(t)) if t.dim() else t",
    "cumsum": "t = t.cumsum(DIM(t)) if t.dim() else t",
    "flip": "t = t.flip(DIM(t)) if t.dim() else t",
    "where": "t = torch.where(t > 0, t, 0.)",
    "to64": "t = t.double()",
    "cl": "t = t.contiguous(memory_format=torch.channels_last) if t.dim() == 4 else t",
    "roll": "t = t.roll(1, DIM(t)) if t.dim() else t",
    "tril": "t = t.tril() if t.dim() >= 2 else t",
    "repeat": "t = t.repeat(*[2] * t.dim()) if t.dim() else t",
    "pad": "t = torch.nn.functional.pad(t, (1, 0)) if t.dim() else t",
    "abs_": "t = t.detach().abs_()",
    "clamp": "t = t.clamp(0, 1)",
    "mean": "t = t.mean(DIM(t)) if t.dim() else t",
    "index_select": "t = t.index_select(DIM(t), torch.tensor([], dtype=torch.long)) if t.dim() else t",
    "masked": "t = t[t > 0]",
    "sort": "t = t.sort(DIM(t))[0] if t.dim() else t",
    "transpose_add": "t = t.mT + 0 if t.dim() >= 2 else t",
    "new_zeros": "t = t.new_zeros(t.shape)",
    "reshape_c": "t = t.mT.reshape(-1) if t.dim() >= 2 else t",
}

PRE = r'''
import random as _r
R = _r.Random(SEED)
def random_int(a, b): return R.randint(a, b)
def rng_size(n): return R.choice([1, 2, 3]) if n == 1 else n
def EXP(t): return [R.choice([1, 2, 0]) for _ in range(R.randint(0, 2))] + [rng_size(n) for n in t.shape]
def DIM(t): return R.randrange(t.dim())
def ESHAPE(): return [R.choice([0, 1, 2]) for _ in range(2)]
def SLICE(t):
    if not t.dim(): return t
    d = DIM(t); n = t.shape[d]; a = R.randint(0, n); b = R.randint(a, n) if R.random() < .5 else a
    idx = [slice(None)] * d + [slice(a, b)]
    return t[tuple(idx)]
def STEP(t):
    if not t.dim(): return t
    d = DIM(t); n = t.shape[d]
    idx = [slice(None)] * d + [slice(R.randint(0, n), None, R.choice([2, 3]))]
    return t[tuple(idx)]
def SELECT(t):
    ds = [d for d in range(t.dim()) if t.shape[d]]
    return t.select(R.choice(ds), R.choice([0, -1])) if ds else t
def NARROW(t):
    if not t.dim(): return t
    d = DIM(t); n = t.shape[d]; a = R.randint(0, n)
    return t.narrow(d, a, R.randint(0, n - a))
def UNFOLD(t):
    if not t.dim(): return t
    d = DIM(t); n = t.shape[d]
    return t.unfold(d, R.randint(0, n), R.choice([1, 2]))
def VSHAPE(t):
    n = t.numel(); out = []
    if n == 0:
        out = [0] + [R.choice([1, 2, 3]) for _ in range(R.randint(0, 2))]
        R.shuffle(out)
        return out
    while n > 1:
        f = R.choice([f for f in range(2, n + 1) if n % f == 0]); out.append(f); n //= f
    for _ in range(R.randint(0, 2)): out.insert(R.randint(0, len(out)), 1)
    R.shuffle(out) if R.random() < .3 else None
    return out
def PERM(t):
    p = list(range(t.dim())); R.shuffle(p); return p
def ASTR(t):
    nd = R.randint(1, 3)
    size = [R.choice([0, 1, 2]) for _ in range(nd)]
    stride = [R.choice([0, 1, 2, 3]) for _ in range(nd)]
    return t.as_strided(size, stride, 0) if t.numel() == 0 and R.random() < .5 else torch.arange(8.).as_strided(size, stride, R.randint(0, 1))
'''


def gen(rng):
    lines = [f"x = {rng.choice(SOURCES)}.requires_grad_()", "t = x"]
    keys = list(VIEWS) * 2 + list(OPS)
    for _ in range(rng.randint(1, 5)):
        k = rng.choice(keys)
        lines.append(VIEWS.get(k) or OPS[k])
    return lines


def show(torch, t, prev):
    out = [f"stride={t.stride()} contig={t.is_contiguous()}"
           f" cl={t.is_contiguous(memory_format=torch.channels_last) if t.dim() == 4 else '-'}"
           f" off={t.storage_offset() if t.numel() else '-'} ptr0={t.data_ptr() == 0 if t.numel() == 0 else '-'}"
           f" set_to_prev={t.is_set_to(prev)} nonoverlap_dense={t.is_non_overlapping_and_dense() if hasattr(t, 'is_non_overlapping_and_dense') else '-'}"]
    for expr in ("(t + 1)", "t.clone()", "torch.empty_like(t)", "t.contiguous()", "t.exp()"):
        try:
            v = eval(expr, {"t": t, "torch": torch})
            out.append(f"{expr} {v.stride()}")
        except Exception as e:
            out.append(f"{expr} {type(e).__name__}: {e}")
    return out


def run(torch, lines, seed):
    ns = {"torch": torch}
    exec(PRE.replace("SEED", str(seed)), ns)
    res = []
    prev = None
    for ln in lines:
        try:
            exec(ln, ns)
        except Exception as e:
            res.append(f"{ln} -> {type(e).__name__}: {str(e)[:100]}")
            return res
        if ln.startswith("t = "):
            t = ns["t"]
            res += [ln + f" | {tuple(t.shape)} | " + s for s in show(torch, t, ns["x"] if prev is None else prev)]
            prev = t
    try:
        g, = torch.autograd.grad(ns["t"].sum(), ns["x"], allow_unused=True)
        res.append(f"grad stride={None if g is None else g.stride()}")
    except Exception as e:
        res.append(f"grad {type(e).__name__}: {str(e)[:100]}")
    return res


OP_SOURCES = [
    "torch.zeros(0)[::2]", "torch.zeros(0).expand(2, 0)", "torch.zeros(2, 1, 1)[:, 1:]", "torch.zeros(0, 3).t()",
    "torch.zeros(2, 0, 3).permute(2, 0, 1)", "torch.zeros(3, 0)[::2]", "torch.zeros(1, 0).expand(3, 0)",
    "torch.zeros(0, 1, 3).transpose(0, 2)", "torch.zeros(2, 3, 0, 4).contiguous(memory_format=torch.channels_last)",
    "torch.zeros(2, 0, 3)[:, :, ::2].transpose(0, 1)",
]
OP_ARGS = ["", ", 1", ", 2.5", ", t", ", t, t", ", 0", ", -1", ", 1, 1"]
OP_SKIP = {"empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "set_rng_state", "manual_seed",
           "seed", "resize_", "resize_as_", "data_ptr", "untyped_storage", "storage", "set_", "tolist", "numpy",
           "item"}


def _layout_of(v):
    if hasattr(v, "stride") and hasattr(v, "shape"):
        try:
            return f"{tuple(v.shape)}{v.stride()}"
        except Exception as e:  # noqa: BLE001
            return type(e).__name__
    if isinstance(v, (tuple, list)):
        return "(" + ", ".join(_layout_of(x) for x in v) + ")"
    return type(v).__name__


def op_names():
    """(name, form) of every public function of agrad's op table (the same list for both libraries)."""
    from agrad.ops import FUNCTIONAL, FUNCTIONS, LINALG, METHODS, SPECIAL
    out = []
    for form, table in (("torch", FUNCTIONS), ("method", METHODS), ("F", FUNCTIONAL), ("special", SPECIAL),
                        ("linalg", LINALG)):
        out += [(n, form) for n in sorted(table) if n not in OP_SKIP and not n.startswith("_")]
    return out


def run_ops(torch):
    import warnings
    warnings.simplefilter("ignore")
    prefix = {"torch": "torch.", "F": "F.", "special": "torch.special.", "linalg": "torch.linalg."}
    for src in OP_SOURCES:
        for dt in ("torch.float32", "torch.int64"):
            for name, form in op_names():
                for extra in OP_ARGS:
                    for out in ("", ", out=o") if form == "torch" else ("",):
                        ns = {"torch": torch, "F": torch.nn.functional}
                        call = (f"t.{name}({extra[2:]}" if form == "method" else f"{prefix[form]}{name}(t{extra}") \
                            + out + ")"
                        try:
                            exec(f"t = {src}.to({dt})\no = torch.tensor([1.0]).to({dt})", ns)
                            if dt.endswith("float32"):
                                ns["t"].requires_grad_()
                            if out:
                                exec(f"with torch.no_grad():\n    {call}", ns)
                                r = ns["o"]
                            else:
                                r = eval(call, ns)
                        except Exception:  # noqa: BLE001 - a call the library refuses: not listed
                            continue
                        line = f"{src} {dt} {call} -> {_layout_of(r)}"
                        if not out and getattr(r, "requires_grad", False) and hasattr(r, "sum"):
                            for create in (False, True):
                                try:
                                    r = eval(call, ns) if create else r
                                    g = torch.autograd.grad(r.sum(), [ns["t"]], create_graph=create,
                                                            allow_unused=True)[0]
                                    line += f" | grad{int(create)} {None if g is None else _layout_of(g)}"
                                except Exception as e:  # noqa: BLE001
                                    line += f" | grad{int(create)} {type(e).__name__}"
                        print(line)


def compare(torch_file, agrad_file):
    def load(path):
        with open(path) as f:
            return dict(line.rstrip("\n").partition(" -> ")[::2] for line in f)
    t, a = load(torch_file), load(agrad_file)
    both = [k for k in t if k in a]
    differ = [k for k in both if t[k] != a[k]]
    print(f"calls both run: {len(both)}, layouts differ: {len(differ)}, only torch runs: "
          f"{sum(k not in a for k in t)}, only agrad runs: {sum(k not in t for k in a)}")
    for k in differ:
        print(f"{k}\n   torch {t[k]}\n   agrad {a[k]}")


if __name__ == "__main__":
    if sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
        sys.exit(0)
    if sys.argv[2] == "ops":
        if sys.argv[1] == "torch":
            sys.path.insert(0, "src")  # (the op table's names: agrad's)
            import torch
        else:
            import agrad as torch
        run_ops(torch)
        sys.exit(0)
    which, start, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    if which == "torch":
        import torch
    else:
        import agrad as torch
    for s in range(start, start + n):
        for r in run(torch, gen(random.Random(s)), s):
            print(f"{s}: {r}")
