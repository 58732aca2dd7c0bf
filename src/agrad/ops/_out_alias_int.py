"""Integer mm and mv with ``out=`` one of their operands (see ``_out_alias.product_into``): ATen runs its own
loops for integers, not BLAS, and they read the operand as they have written it so far.

mm (addmm_impl_cpu_, beta 0): ``c`` is the result, column-major as it lies (``transpose_c`` when it lies
row-major: the product is then taken as result^T = mat2^T mat1^T); a result in neither layout is
computed into a column-major copy, copied back at the end (the operands then read unwritten memory: the
plain product). Each operand is taken as it lies in the matching layout (plain or transposed) or, in
neither, copied (read before any write). gemm_core_ then runs, for integers (scalar == opmath):
``notrans``/``transb``: C zeroed first (scale_ by beta 0), then for l, for j: val = B[l, j], for i:
C[i, j] += A[i, l] * val; ``transa``/``transab``: for i, for j: C[i, j] = sum over l of A[i, l] B[l, j].

int64 mm takes another kernel: PyTorch 2.13 gives the plain product where the contraction is at most 8
long or the result one column (its blocks past 8 read what earlier blocks wrote: not replayed, documented
as out-aliases-operand).

mv (addmv_impl_cpu, gemv): a matrix with stride(0) 1 (and lda_cond) goes to gemv 'n': for each column j,
z = x[j] read as it stands, then y[i] (zeroed at j == 0) += z * A[i, j]; otherwise 't' (a copy where the
matrix lies in neither layout): for each i, y[i] = the dot of row i with x as it stands.
"""

from __future__ import annotations

import numpy as np


def _st(a):
    """Strides in elements."""
    return [s // a.itemsize for s in a.strides]


def int_gemm_into(out, m1, m2, hit):
    """The result PyTorch's integer mm leaves in ``out`` (a numpy array) when ``hit`` marks which of the
    operands ``m1``, ``m2`` is out (same memory, shape and strides), or None where it is the plain product."""
    if out.dtype == np.int64:
        return None  # (int64: another kernel, reading its operands first up to 8-long contractions)
    rows, cols = out.shape
    rs = _st(out)
    if rs[0] == 1 and (cols == 1 or rs[1] >= max(1, rows)):
        tc = False
    elif rs[1] == 1 and (rows == 1 or rs[0] >= max(1, cols)):
        tc = True
    else:
        return None  # (c a column-major copy: the operands read before any write)
    R = np.array(out)
    ops = [R if h else np.asarray(a) for a, h in zip((m1, m2), hit)]
    p1, p2 = (ops[1], ops[0]) if tc else (ops[0], ops[1])
    s1, s2 = (_st(m2), _st(m1)) if tc else (_st(m1), _st(m2))
    m, n = (cols, rows) if tc else (rows, cols)
    k = p1.shape[0] if tc else p1.shape[1]
    x, y = (1, 0) if tc else (0, 1)

    def layout(s, first, second):
        if s[x] == 1 and s[y] >= max(1, first):
            return False, False
        if s[y] == 1 and s[x] >= max(1, second):
            return True, False
        return not tc, True  # (a contiguous copy)
    transa, copy_a = layout(s1, m, k)
    _, copy_b = layout(s2, k, n)
    if copy_a:
        p1 = np.array(p1)
    if copy_b:
        p2 = np.array(p2)
    A = p1.T if tc else p1  # A[i, l], B[l, j], C[i, j] as gemm sees them
    B = p2.T if tc else p2
    C = R.T if tc else R
    t = R.dtype.type
    with np.errstate(all="ignore"):
        if not transa:
            C[...] = 0
            for l in range(k):
                for j in range(n):
                    val = t(B[l, j])
                    for i in range(m):
                        C[i, j] = t(C[i, j] + t(A[i, l] * val))
        else:
            for i in range(m):
                for j in range(n):
                    C[i, j] = np.sum(A[i, :] * B[:, j], dtype=R.dtype)
    return R


def int_gemv_into(out, mat, vec):
    """The result PyTorch's integer mv leaves in ``out`` when ``out`` is ``vec`` (see the module's notes)."""
    y = np.array(out)
    n_rows, n_cols = mat.shape
    s = _st(mat)
    t = y.dtype.type
    with np.errstate(all="ignore"):
        if s[0] == 1 and (n_cols == 1 or s[1] >= max(1, n_rows)):
            for j in range(n_cols):
                z = t(y[j])
                for i in range(n_rows):
                    if j == 0:
                        y[i] = 0
                    y[i] = t(y[i] + t(z * mat[i, j]))
        else:
            for i in range(n_rows):
                y[i] = np.sum(mat[i] * y, dtype=y.dtype)
    return y
