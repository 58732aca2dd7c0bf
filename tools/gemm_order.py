"""Which order of additions PyTorch's CPU matrix products (MKL's sgemm/sgemv/sdot) take, per shape.

For a shape (m, k, n), operand layouts and an op, this computes PyTorch's result and compares it bit for
bit with candidate orders of the sums C[i, j] = sum_k A[i, k] B[k, j]:

- ``numpy``: numpy's BLAS (OpenBLAS);
- ``seq``: a plain sequential float32 sum, each product rounded (one np.cumsum along k);
- ``fma``: a fused multiply-add chain (product exact, one rounding per step; emulated in float64 with
  round-to-odd, so there is no double rounding);
- ``fmaB192``: fma chains over K-blocks of 192, each from zero, added to the result;
- ``L{4,8}{u,F}{half,adj}``: k split over 4 or 8 lanes (lane l sums k = l mod L, plain ``u`` or fused
  ``F``), the lanes reduced by a halving tree (l + l+L/2, ...) or pairs of neighbours, the k % L tail
  added one by one after the reduction;
- with a bias (addmm, linear): each of them with the bias added last (``+b``) or the chain started from
  beta * bias (``b0:``).

    ATEN_CPU_CAPABILITY=avx2 python tools/gemm_order.py                      # the default grid
    ATEN_CPU_CAPABILITY=avx2 python tools/gemm_order.py --shape 16,8,1 --op linear
    ATEN_CPU_CAPABILITY=avx2 python tools/gemm_order.py --agrad             # fraction agrad matches

Layouts: ``nn`` = row-major A and B (x @ w), ``nt`` = B transposed (x @ w.t(), nn.Linear's forward),
``tn`` = A transposed (g.t() @ x, nn.Linear's weight gradient). Each line prints the fraction of
elements equal to torch's for the best candidates. The conclusions are in docs/semantics.md,
"float32 matrix products", and agrad's emulation in src/agrad/ops/_gemm_order.py.
"""
from __future__ import annotations

import argparse
import itertools
import os
import sys

os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

F32 = np.float32


def fma_step(acc, p64):
    """float32(acc + p) rounded once: acc float32, p an exact float64 product (two-sum, round to odd)."""
    a = acc.astype(np.float64)
    s = a + p64
    bp = s - a
    e = (a - (s - bp)) + (p64 - bp)
    fix = (e != 0) & ((s.view(np.int64) & 1) == 0)
    if fix.any():
        s = s.copy()
        s[fix] = np.nextafter(s[fix], np.where(e[fix] > 0, np.inf, -np.inf))
    return s.astype(F32)


def fma_chain(A, B, acc0=None):
    m, k = A.shape
    acc = np.zeros((m, B.shape[1]), F32) if acc0 is None else np.array(acc0, F32)
    A64, B64 = A.astype(np.float64), B.astype(np.float64)
    for j in range(k):
        acc = fma_step(acc, A64[:, j:j + 1] * B64[j:j + 1, :])
    return acc


def seq_chain(A, B, acc0=None):
    P = A[:, :, None] * B[None, :, :]
    if acc0 is not None:
        P = np.concatenate([np.broadcast_to(np.asarray(acc0, F32), (A.shape[0], B.shape[1]))[:, None, :], P], 1)
    if P.shape[1] == 0:
        return np.zeros((A.shape[0], B.shape[1]), F32)
    return np.cumsum(P, axis=1, dtype=F32)[:, -1, :]


def fma_blocked(A, B, block=192):
    out = np.zeros((A.shape[0], B.shape[1]), F32)
    for s in range(0, A.shape[1], block):
        out = out + fma_chain(A[:, s:s + block], B[s:s + block])
    return out


def _tree_half(v):
    while len(v) > 1:
        h = len(v) // 2
        v = [v[i] + v[i + h] for i in range(h)]
    return v[0]


def _tree_adj(v):
    while len(v) > 1:
        v = [v[2 * i] + v[2 * i + 1] for i in range(len(v) // 2)]
    return v[0]


def lanes(A, B, L, fused, tree):
    m, K = A.shape
    n = B.shape[1]
    nb = K // L
    acc = [np.zeros((m, n), F32) for _ in range(L)]
    A64, B64 = A.astype(np.float64), B.astype(np.float64)
    for s in range(nb):
        for j in range(L):
            k = s * L + j
            if fused:
                acc[j] = fma_step(acc[j], A64[:, k:k + 1] * B64[k:k + 1, :])
            else:
                acc[j] = acc[j] + A[:, k:k + 1] * B[k:k + 1, :]
    tot = tree(acc) if nb else np.zeros((m, n), F32)
    for k in range(nb * L, K):
        tot = fma_step(tot, A64[:, k:k + 1] * B64[k:k + 1, :]) if fused else tot + A[:, k:k + 1] * B[k:k + 1, :]
    return tot


def candidates(A, B, bias=None):
    out = {"numpy": A @ B, "seq": seq_chain(A, B), "fma": fma_chain(A, B)}
    if A.shape[1] > 192:
        out["fmaB192"] = fma_blocked(A, B)
    for L, fused, (tn, tree) in itertools.product((4, 8), (0, 1), (("half", _tree_half), ("adj", _tree_adj))):
        out[f"L{L}{'F' if fused else 'u'}{tn}"] = lanes(A, B, L, fused, tree)
    if bias is not None:
        bb = np.broadcast_to(bias, (A.shape[0], B.shape[1]))
        out = {k + "+b": (v + bb).astype(F32) for k, v in out.items()}
        out["b0:seq"] = seq_chain(A, B, bb)
        out["b0:fma"] = fma_chain(A, B, bb)
    return out


def torch_case(torch, op, m, k, n, layout, gen):
    """(torch result, A, B, bias) as numpy float32; A m x k and B k x n in the product's orientation."""
    a = torch.randn(k, m, generator=gen).t() if layout == "tn" else torch.randn(m, k, generator=gen)
    b = torch.randn(n, k, generator=gen).t() if layout in ("nt", "linear") else torch.randn(k, n, generator=gen)
    bias = torch.randn(n, generator=gen) if op in ("addmm", "linear") else None
    if op == "mm":
        r = a @ b
    elif op == "addmm":
        r = torch.addmm(bias, a, b)
    elif op == "linear":
        r = torch.nn.functional.linear(a, b.t(), bias)
    elif op == "mv":
        r = torch.mv(a, b[:, 0]).unsqueeze(1)
        b = b[:, :1]
    elif op == "bmm":
        r = torch.bmm(a.unsqueeze(0), b.unsqueeze(0))[0]
    elif op == "matmul3":
        r = torch.matmul(a.unsqueeze(0).expand(2, m, k), b)[1]
    else:
        raise SystemExit(f"unknown op {op}")
    return (r.numpy(), a.numpy().astype(F32), b.numpy().astype(F32),
            None if bias is None else bias.numpy())


def agrad_result(op, A, B, bias, layout):
    import agrad
    a = agrad.tensor(A)
    b = agrad.tensor(B)
    if layout == "tn":
        a = agrad.tensor(np.ascontiguousarray(A.T)).t()
    if layout in ("nt", "linear"):
        b = agrad.tensor(np.ascontiguousarray(B.T)).t()
    if op == "mm":
        r = a @ b
    elif op == "bmm":
        r = agrad.bmm(a.unsqueeze(0), b.unsqueeze(0))[0]
    elif op == "matmul3":
        r = agrad.matmul(a.unsqueeze(0).expand(2, *a.shape), b)[1]
    elif op in ("addmm", "linear"):
        r = agrad.addmm(agrad.tensor(bias), a, b)
    elif op == "mv":
        r = agrad.mv(a, agrad.tensor(B[:, 0])).unsqueeze(1)
    return np.asarray(r._data)


def random_summary(torch, gen, count, layouts):
    rng = np.random.default_rng(0)
    for op in ("mm", "addmm"):
        for layout in layouts:
            tot = eq_np = eq_ag = shapes_ag = 0
            for _ in range(count):
                m, k, n = int(rng.integers(1, 65)), int(rng.integers(1, 257)), int(rng.integers(1, 65))
                r, A, B, bias = torch_case(torch, op, m, k, n, layout, gen)
                ref = A @ B if bias is None else (A @ B + bias).astype(F32)
                ag = agrad_result(op, A, B, bias, layout)
                tot += r.size
                eq_np += int((ref == r).sum())
                eq_ag += int((ag == r).sum())
                shapes_ag += bool((ag == r).all())
            print(f"{op} {layout}: {count} shapes, elements equal to torch: numpy {eq_np / tot:.3f}, "
                  f"agrad {eq_ag / tot:.3f}; shapes all equal in agrad: {shapes_ag}", flush=True)


GRID = [(m, k, n) for m in (1, 4, 16, 64) for k in (1, 2, 3, 4, 5, 8, 9, 16, 33, 64, 200) for n in (1, 2, 4, 8, 16, 64)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shape", action="append", help="m,k,n (repeatable); default: a grid")
    ap.add_argument("--op", default="mm", choices=("mm", "addmm", "linear", "mv", "bmm", "matmul3"))
    ap.add_argument("--layout", default="nn,nt,tn")
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top", type=int, default=4)
    ap.add_argument("--agrad", action="store_true", help="also the fraction of agrad's elements equal to torch's")
    ap.add_argument("--random", type=int, default=0, metavar="N",
                    help="N random shapes (m <= 64, k <= 256, n <= 64, each layout; mm and addmm): the fraction of "
                         "elements numpy's BLAS and agrad give equal to torch's, per layout and op")
    args = ap.parse_args(argv)
    if args.agrad or args.random:
        import agrad  # noqa: F401  (before torch)
    import torch
    gen = torch.Generator().manual_seed(args.seed)
    if args.random:
        return random_summary(torch, gen, args.random, args.layout.split(","))
    shapes = [tuple(int(v) for v in s.split(",")) for s in args.shape] if args.shape else GRID
    for layout in args.layout.split(","):
        for m, k, n in shapes:
            r, A, B, bias = torch_case(torch, args.op, m, k, n, layout, gen)
            c = candidates(A, B, bias)
            scores = sorted(((float((v == r).mean()), name) for name, v in c.items()), key=lambda t: -t[0])
            best = scores[0][0]
            tied = [nm for s, nm in scores if s == best]
            extra = ""
            if args.agrad:
                extra = f" agrad={float((agrad_result(args.op, A, B, bias, layout) == r).mean()):.2f}"
            print(f"{args.op} {layout} {m},{k},{n}: best {best:.2f} {' '.join(tied[:6])}"
                  f" | next {' '.join(f'{nm}={s:.2f}' for s, nm in scores[len(tied):len(tied) + args.top])}{extra}",
                  flush=True)


if __name__ == "__main__":
    main()
