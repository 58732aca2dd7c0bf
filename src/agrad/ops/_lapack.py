"""LAPACK's LU steps (getrf, getrs) in numpy, one column step for a whole batch at a time.

numpy's LAPACK (OpenBLAS) pivots, scales and propagates an inf or a NaN in its own way; PyTorch's
(MKL's) follows the reference algorithm: idamax's pivot (the first largest magnitude, a NaN never
larger), the column scaled by the pivot's reciprocal, a rank-1 update of the rest with no step
skipped for zeros, then forward and back substitution likewise.  det, slogdet, inv and solve take
these where the input is not finite (and det/slogdet for small matrices, where the order of the
roundings shows in the last bits), so that a NaN or an inf lands where PyTorch's does.
"""

from __future__ import annotations

import numpy as np


def column_major_strides(shape, rows=None):
    """The element strides of a batched column-major layout of ``shape`` (rows innermost, then columns,
    then the batch dims; a size 0 counted as 1, as PyTorch's); ``rows``: the buffer's rows per matrix."""
    n = len(shape)
    strides, step = [0] * n, 1
    for d in [n - 2, n - 1] + list(range(n - 3, -1, -1)):
        strides[d] = step
        step *= max(rows if d == n - 2 and rows is not None else shape[d], 1)
    return tuple(strides)


def column_major(a, rows=None):
    """``a`` laid out as PyTorch's LAPACK-backed results are: each matrix column-major (LAPACK's
    layout, strides (1, rows)), batch dims outermost.  With ``rows`` (more than ``a``'s), each matrix
    is the first rows of a column-major buffer of that many rows (lstsq's solution, a narrow of B's
    max(m, n)-row copy).  1-D and 0-D arrays are returned as they are."""
    if a.ndim < 2:
        return a
    m = a.shape[-2] if rows is None else max(rows, a.shape[-2])
    if not a.size:  # (no elements: PyTorch's strides all the same, a size 0 counted as 1; numpy's would be 0)
        strides = tuple(k * a.itemsize for k in column_major_strides(a.shape, m))
        return np.lib.stride_tricks.as_strided(np.empty(0, a.dtype), a.shape, strides)
    out = np.swapaxes(np.empty(a.shape[:-2] + (a.shape[-1], m), a.dtype), -1, -2)[..., :a.shape[-2], :]
    out[...] = a
    return out


def matrices(a):
    """``a``'s matrices along one batch dim: ``a.reshape(-1, m, n)``, which numpy cannot work out for
    an array of no elements (a 0 x 0 matrix, an empty batch)."""
    return a.reshape((int(np.prod(a.shape[:-2], dtype=np.int64)),) + a.shape[-2:])


def idamax(absx, nan_first=False):
    """BLAS idamax along the last axis of magnitudes: the first largest; a NaN is never larger,
    and a NaN in the first place stays the pivot.  ``nan_first``: MKL's getrf on a matrix with
    17 or more rows or columns, whose pivot search takes the first NaN of a column wherever it
    is, over any magnitude, inf too (probed under torch 2.13, float32 and float64, every column
    step, m x n from 3 x 17 to 40 x 40; 16 x 16 and smaller search as the reference does)."""
    nan = np.isnan(absx)
    at = np.argmax(np.where(nan, -1.0, absx), axis=-1)
    if nan_first:
        return np.where(nan.any(axis=-1), np.argmax(nan, axis=-1), at)
    return np.where(nan[..., 0], 0, at)


def getrf(a):
    """(LU, pivots, info) of each matrix of ``a`` (any batch shape): pivots 1-based as LAPACK's,
    info the first zero pivot (1-based) or 0; a matrix of 17 or more rows or columns pivots on a
    column's first NaN (:func:`idamax`).  The column is scaled by the pivot's reciprocal, but
    for a square matrix up to 4 x 4 one element below the pivot is divided by it, as MKL's kernels do
    (bit for bit on the checked square cases, 2 x 2 to 7 x 7, and on every m x n up to 6 x 6 apart)."""
    shape = a.shape
    lu = np.array(a, copy=True).reshape((int(np.prod(shape[:-2])),) + shape[-2:])
    b, m, n = lu.shape
    k = min(m, n)
    piv = np.zeros((b, k), np.int32)
    info = np.zeros(b, np.int64)
    rows = np.arange(b)
    small = m == n and m <= 4  # (a matrix that is not square: the reciprocal throughout)
    big = max(m, n) >= 17  # (MKL's other kernel: a NaN is the pivot, idamax's nan_first)
    with np.errstate(all="ignore"):
        for j in range(k):
            p = j + idamax(np.abs(lu[:, j:, j]), big)
            piv[:, j] = p + 1
            lu[rows, j], lu[rows, p] = lu[rows, p], lu[rows, j].copy()
            pivot = lu[:, j, j]
            zero = pivot == 0
            info = np.where(zero & (info == 0), j + 1, info)
            pivot = np.where(zero, 1, pivot)[:, None]
            if small and m - j - 1 == 1:
                lu[:, j + 1:, j] /= pivot
            else:
                lu[:, j + 1:, j] *= 1 / pivot
            lu[:, j + 1:, j + 1:] -= lu[:, j + 1:, j, None] * lu[:, j, None, j + 1:]
    return lu.reshape(shape), piv.reshape(shape[:-2] + (k,)), info.reshape(shape[:-2])


def pivot_sign(piv):
    """The sign of getrf's row permutation: -1 per pivot that swapped."""
    swaps = np.count_nonzero(piv != np.arange(1, piv.shape[-1] + 1), axis=-1)
    return 1 - 2 * (swaps % 2)


def _dot(terms):
    """The sum of ``terms`` one after another from the first (no +0.0 to start: a sum of -0.0s
    stays -0.0), as MKL's getrs adds the products of a row."""
    total = None
    for t in terms:
        total = t if total is None else total + t
    return total


def getrs(lu, piv, b, trans=False):
    """X with A X = B (A^T X = B with ``trans``) from getrf's (LU, pivots) of A, by forward and back
    substitution with no check for zero pivots (a zero gives an inf, as LAPACK's does).
    ``lu`` is (..., n, n) and ``b`` (..., n, r), batch shapes equal.  As MKL's getrs rounds it
    (bit for bit on the checked cases without ``trans``, most with it): each element takes off the
    sum of its row's products (L's from the first column on, U's from the last one back) and is
    scaled by the reciprocal of its pivot; a 2 x 2 system one column step at a time."""
    shape = np.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    n = lu.shape[-1]
    count = int(np.prod(shape))
    lu = np.broadcast_to(lu, shape + lu.shape[-2:]).reshape((count, n, n))
    piv = np.broadcast_to(piv, shape + piv.shape[-1:]).reshape((count, n))
    x = np.array(np.broadcast_to(b, shape + b.shape[-2:]), copy=True).reshape((count,) + b.shape[-2:])
    rows = np.arange(x.shape[0])
    with np.errstate(all="ignore"):
        if not trans:
            for j in range(n):  # P^T B, the swaps in order
                p = piv[:, j] - 1
                x[rows, j], x[rows, p] = x[rows, p], x[rows, j].copy()
            if n <= 2:
                for j in range(n):  # L (unit) forward
                    x[:, j + 1:] -= lu[:, j + 1:, j, None] * x[:, j, None]
                for j in range(n - 1, -1, -1):  # U backward
                    x[:, j] *= 1 / lu[:, j, j, None]
                    x[:, :j] -= lu[:, :j, j, None] * x[:, j, None]
            else:
                for i in range(1, n):  # L (unit) forward
                    x[:, i] -= _dot(lu[:, i, j, None] * x[:, j] for j in range(i))
                for i in range(n - 1, -1, -1):  # U backward
                    if i < n - 1:
                        x[:, i] -= _dot(lu[:, i, j, None] * x[:, j] for j in range(n - 1, i, -1))
                    x[:, i] *= 1 / lu[:, i, i, None]
        else:
            for i in range(n):  # U^T forward
                if i:
                    x[:, i] -= _dot(lu[:, j, i, None] * x[:, j] for j in range(i))
                x[:, i] *= 1 / lu[:, i, i, None]
            for i in range(n - 2, -1, -1):  # L^T (unit) backward
                x[:, i] -= _dot(lu[:, j, i, None] * x[:, j] for j in range(n - 1, i, -1))
            for j in range(n - 1, -1, -1):  # P B, the swaps in reverse
                p = piv[:, j] - 1
                x[rows, j], x[rows, p] = x[rows, p], x[rows, j].copy()
    return x.reshape(shape + b.shape[-2:])


# ---------------------------------------------------------------------------
# Householder QR (geqr2, org2r)
# ---------------------------------------------------------------------------

def _lapy2(x, y):
    """sqrt(x^2 + y^2) as MKL's lapy2: w sqrt(1 + (z/w)^2), so two infs give a NaN; its max and min
    are x86's, which give the second operand when one is NaN (a NaN x and 3 give 3 sqrt(2))."""
    ax, ay = np.abs(x), np.abs(y)
    either = np.isnan(ax) | np.isnan(ay)
    w = np.where(either, ay, np.maximum(ax, ay))
    z = np.where(either, ay, np.minimum(ax, ay))
    with np.errstate(all="ignore"):
        return np.where(z == 0, w, w * np.sqrt(1 + (z / w) ** 2))


def _nrm2_scaled(x):
    """BLAS nrm2 along the last axis as the reference (and MKL's float32) computes it: a running
    scale (the largest magnitude so far) and a sum of squares of the elements over it, one
    element at a time (zeros skipped), scale sqrt(ssq) at the end."""
    scale = np.zeros(x.shape[:-1], x.dtype)
    ssq = np.ones(x.shape[:-1], x.dtype)
    with np.errstate(all="ignore"):
        for r in range(x.shape[-1]):
            ax = np.abs(x[..., r])
            grow = scale < ax
            ratio = np.where(grow, scale / ax, ax / scale)
            ssq = np.where(x[..., r] == 0, ssq, np.where(grow, 1 + ssq * (ratio * ratio), ssq + ratio * ratio))
            scale = np.where(grow, ax, scale)
        return scale * np.sqrt(ssq)


def _larfg(alpha, x, nrm2=None, divide=None):
    """(beta, tau, v) of the reflector H with H [alpha; x] = [beta; 0], for a batch: alpha (b,),
    x (b, r).  No reflector (tau 0, x kept) where x is all zero; beta is -|.| for an alpha >= 0
    (MKL takes a -0.0 as positive), +|.| otherwise (a NaN included).  float32 rounds as MKL's
    sgeqrf does bit for bit (the scaled nrm2, x divided by alpha - beta); float64 as close as
    agrad got to dgeqrf (a plain norm, x times the reciprocal); ``nrm2`` and ``divide`` say otherwise
    (gebrd's: the scaled nrm2 and the reciprocal for both).  alpha and x may have any batch shape.  Where |beta| is below LAPACK's
    safmin (2^-102 float32, 2^-969 float64: slamch('S') / slamch('E')), alpha and x are scaled
    up by 1/safmin (up to 20 times) and beta recomputed, then scaled back one safmin at a time,
    as larfg does: a subnormal column gets an orthonormal reflector, as PyTorch's."""
    dt = alpha.dtype
    single = x.dtype == np.float32
    nrm2 = nrm2 or _xnorm
    divide = single if divide is None else divide
    xnorm = nrm2(x, alpha)
    none = xnorm == 0
    beta = _signed_beta(alpha, xnorm)
    safmin = np.asarray(np.finfo(dt).tiny / (np.finfo(dt).eps / 2), dt)
    knt = np.zeros(alpha.shape, np.int64)
    small = ~none & (np.abs(beta) < safmin)
    if small.any():
        rsafmn = np.asarray(1 / safmin, dt)
        x, alpha = x.copy(), alpha.copy()
        with np.errstate(all="ignore"):
            todo = small.copy()
            for _ in range(20):
                knt += todo
                x[todo] = x[todo] * rsafmn
                beta = np.where(todo, beta * rsafmn, beta)
                alpha = np.where(todo, alpha * rsafmn, alpha).astype(dt)
                todo &= np.abs(beta) < safmin
                if not todo.any():
                    break
        beta = np.where(small, _signed_beta(alpha, nrm2(x, alpha)), beta)
    with np.errstate(all="ignore"):
        tau = np.where(none, 0, (beta - alpha) / np.where(none, 1, beta))
        if divide:
            v = np.where(none[..., None], x, x / np.where(none, 1, alpha - beta)[..., None])
        else:
            scale = (np.ones((), dt) / np.where(none, 1, alpha - beta)).astype(dt)
            v = np.where(none[..., None], x, x * scale[..., None])
        for k in range(1, int(knt.max(initial=0)) + 1):
            beta = np.where(knt >= k, beta * safmin, beta).astype(dt)
    return np.where(none, alpha, beta), tau.astype(dt), v.astype(x.dtype)


def _xnorm(x, alpha):
    """BLAS nrm2 of each row of x (b, r) as larfg takes it: float32 MKL's scaled one, float64 a
    plain norm (one inf gives inf, two or more NaN, as nrm2's scaling does)."""
    if not x.shape[-1]:
        return np.zeros_like(alpha)
    if x.dtype == np.float32:
        return _nrm2_scaled(x)
    scaled = _nrm2_scaled(x)  # (MKL's dnrm2 in dgeqrf: 399 of 399 random columns bit for bit, a plain norm 293)
    with np.errstate(all="ignore"):
        xnorm = np.asarray(np.sqrt(np.sum(x * x, axis=-1)))
        # all below 2^-511 (Blue's tsml, as the reference dnrm2): the squares of x * 2^537, so they
        # do not underflow, the root scaled back
        tiny = np.all(np.abs(x) < 2.0 ** -511, axis=-1)
        if tiny.any():
            xs = x[tiny] * 2.0 ** 537
            xnorm[tiny] = np.sqrt(np.sum(xs * xs, axis=-1)) * 2.0 ** -537
        xnorm = np.where(tiny, xnorm, scaled)
    infs = np.isinf(x).sum(axis=-1)
    return np.where((infs == 1) & ~np.isnan(xnorm), np.inf, np.where(infs > 1, np.nan, xnorm))


def _nrm2_gebrd(x, alpha):
    """gebrd's nrm2: the scaled one; float64 where all of x is below 2^-511 as :func:`_xnorm`."""
    if not x.shape[-1]:
        return np.zeros_like(alpha)
    xnorm = _nrm2_scaled(x)
    if x.dtype == np.float64:
        tiny = np.all(np.abs(x) < 2.0 ** -511, axis=-1)
        if tiny.any():
            xnorm = np.where(tiny, _xnorm(x, alpha), xnorm)
    return xnorm


def _signed_beta(alpha, xnorm):
    return np.where(alpha >= 0, -_lapy2(alpha, xnorm), _lapy2(alpha, xnorm)).astype(alpha.dtype)


def _column_dots(v, c, first, pairs=False):
    """w = [1; v]^T c for a batch (v (b, r), c (b, r + 1, k)): float32 one row at a time from the
    top, as MKL's sgemv adds them (from +0.0: a -0.0 first row gives +0.0, and tau * w takes nothing
    off a -0.0 of c); float64 the rows past the first in order, the first added last (dorg2r's larf, as
    householder.py's ormqr: of 1,500 random float64 householder_products 553 differed, now 407, all of
    6 x 5 or more, MKL's blocked steps), or with ``pairs`` as MKL's dgemv
    in dgeqrf adds them: the even rows and the odd rows (of [1; v], ``first`` the row 0 term) each
    summed in order, the two sums added, an odd last row after (300 of 300 random float64 geqrf
    bit for bit, with :func:`_xnorm`'s scaled nrm2)."""
    if v.dtype != np.float32 and pairs:
        rows = v.shape[1] + 1
        if rows == 1:
            return first + np.zeros((), v.dtype)
        zero = np.zeros((), v.dtype)  # (the two lanes start from +0.0)
        even, odd = zero + first, zero + v[:, 0, None] * c[:, 1, :]
        for r in range(2, rows - 1, 2):
            even = even + v[:, r - 1, None] * c[:, r, :]
            odd = odd + v[:, r, None] * c[:, r + 1, :]
        w = even + odd
        if rows % 2:
            w = w + v[:, rows - 2, None] * c[:, rows - 1, :]
        return w
    if v.dtype != np.float32:  # (org2r's larf, as ormqr's: the rows past the first in order, the first last)
        if not v.shape[1]:
            return first + np.zeros((), v.dtype)
        w = v[:, 0, None] * c[:, 1, :]
        for r in range(1, v.shape[1]):
            w = w + v[:, r, None] * c[:, r + 1, :]
        return w + first
    w = first + np.float32(0.0)
    for r in range(v.shape[1]):
        w += v[:, r, None] * c[:, r + 1, :]
    return w


def _larf_left(v, tau, c, scan=False, sparse=False):
    """c <- (I - tau [1; v] [1; v]^T) c for a batch.  MKL's geqrf applies it even where tau is 0
    (an inf in c becomes 0 * inf = NaN there); ``sparse`` (its geqrf past 20 rows): not to the
    columns whose tau * w is zero.  With ``scan``, as LAPACK's larf (behind orgqr), it
    touches only the rows up to v's last nonzero and the columns up to the last one nonzero in
    them, and nothing where tau is 0."""
    with np.errstate(all="ignore"):
        if not scan:
            upd = tau[:, None] * _column_dots(v, c, c[:, 0, :], pairs=True)
            if sparse:
                skip = (upd == 0)[:, None, :]
                full = np.concatenate([np.ones((v.shape[0], 1), v.dtype), v], axis=1)
                c[...] = np.where(skip, c, c - full[:, :, None] * upd[:, None, :])
                return
            c[:, 0, :] -= upd
            c[:, 1:, :] -= v[:, :, None] * upd[:, None, :]
            return
        full = np.concatenate([np.ones((v.shape[0], 1), v.dtype), v], axis=1)
        rows = np.arange(full.shape[1])
        last_v = np.max(np.where(full != 0, rows, 0), axis=1)
        in_rows = (rows[None, :] <= last_v[:, None]) & (tau != 0)[:, None]
        cc = np.where(in_rows[:, :, None], c, 0)
        cols = np.arange(c.shape[2])
        last_c = np.max(np.where((cc != 0).any(axis=1), cols, -1), axis=1)
        touch = in_rows[:, :, None] & (cols[None, None, :] <= last_c[:, None, None])
        used = np.where(in_rows, full, 0)
        w = _column_dots(used[:, 1:], cc, used[:, 0, None] * cc[:, 0, :])
        touch &= (w != 0)[:, None, :]  # (BLAS ger skips a column whose w is zero: its -0.0s stay)
        c[...] = np.where(touch, c - full[:, :, None] * (tau[:, None] * w)[:, None, :], c)


#: MKL's geqrf applies each reflector to every column of the trailing matrix up to this many rows; past
#: it, only to the columns whose tau * w is not zero (a NaN is not), as BLAS ger skips a zero product
#: (a matrix of signed zeros keeps its -0.0s): found by experiment, 1,296 random 15..39-row matrices
#: of signed zeros (one column of normals in 30%), their signs 817 apart -> 0
_GEQRF_SPARSE_ROWS = 20


def geqr2(a):
    """(packed, tau) of each matrix of ``a`` (b, m, n) as LAPACK's geqrf leaves them: R on and above the
    diagonal, each reflector's vector v below it (its leading 1 implied), in MKL's arithmetic."""
    m, n = a.shape[-2:]
    r = np.array(a, copy=True)
    taus = np.zeros(r.shape[:-2] + (min(m, n),), a.dtype)
    for i in range(min(m, n)):
        beta, tau, v = _larfg(r[:, i, i], r[:, i + 1:, i])
        r[:, i, i], r[:, i + 1:, i] = beta, 0
        if i + 1 < n:
            _larf_left(v, tau, r[:, i:, i + 1:], sparse=m > _GEQRF_SPARSE_ROWS)
        r[:, i + 1:, i] = v
        taus[:, i] = tau
    return r, taus


def org2r(packed, taus):
    """Q's first n columns (b, m, n) from geqrf's reflectors (the first taus.shape[-1] columns of
    ``packed`` below the diagonal, b x m x n) as LAPACK's org2r builds them: from the last reflector,
    columns past the reflectors starting as the identity's."""
    m, n = packed.shape[-2:]
    k = taus.shape[-1]
    q = np.zeros(packed.shape, packed.dtype)
    q[:, np.arange(k, n), np.arange(k, n)] = 1
    for i in range(k - 1, -1, -1):
        tau, v = taus[:, i], packed[:, i + 1:, i]
        if i + 1 < n:
            q[:, i, i] = 1
            _larf_left(v, tau, q[:, i:, i + 1:], scan=True)
        with np.errstate(all="ignore"):
            q[:, i + 1:, i] = -tau[:, None] * v
            q[:, i, i] = 1 - tau
        q[:, :i, i] = 0
    return q


def householder_qr(a, complete=False):
    """(Q, R) of each matrix of ``a`` by Householder reflectors (geqr2, then org2r for Q), in the
    arithmetic of MKL's: signed zeros, infs and NaNs land where PyTorch's do."""
    shape = a.shape
    m, n = shape[-2:]
    k = min(m, n)
    packed, taus = geqr2(a.reshape((int(np.prod(shape[:-2])), m, n)))
    cols = m if complete else k
    vs = np.zeros(packed.shape[:-1] + (cols,), a.dtype)
    vs[..., :k] = packed[..., :k]
    q = org2r(vs, taus)
    r = packed if complete or m <= n else packed[:, :n, :]
    return q.reshape(shape[:-2] + (m, cols)), np.triu(r).reshape(shape[:-2] + r.shape[-2:])


def vector_svd(a, full_matrices=True, compute_uv=True):
    """The SVD of matrices of one row, (..., 1, n), as MKL's gesdd computes it: one reflector H with
    a H = [beta, 0, ...] (larfg as gebrd calls it: the scaled nrm2, x times the reciprocal of
    alpha - beta), S = |beta|, U = [[sign(beta)]] (+1 for a zero), Vh the first row (or all n rows)
    of H as ormbr applies it to the identity: I + [1; v] (-tau [1; v])^T, where a zero of v leaves
    +0.0 (bit for bit on 600 random rows, float32 and float64).  For one column, (..., m, 1), the
    singular value only (``compute_uv`` False): |beta| of the column, likewise."""
    row = a[..., 0, :] if a.shape[-2] == 1 else a[..., 0]
    dt = a.dtype
    # gesdd first scales a matrix whose largest magnitude is outside [sqrt(safmin) / eps, its
    # reciprocal] to that bound (lascl), and S back at the end
    finfo = np.finfo(dt)
    smlnum = np.asarray(np.sqrt(finfo.tiny) / (finfo.eps / 2), dt)
    bignum = np.asarray(1 / smlnum, dt)
    with np.errstate(all="ignore"):
        anrm = np.max(np.abs(row), axis=-1, initial=0)
    target = np.where((anrm > 0) & (anrm < smlnum), smlnum, np.where(anrm > bignum, bignum, anrm))
    scaled = target != anrm
    if scaled.any():
        row = np.where(scaled[..., None], _lascl(row, anrm[..., None], target[..., None]), row)
    alpha, x = row[..., 0], row[..., 1:]
    beta, tau, v = _larfg(alpha, x, _nrm2_gebrd, divide=False)
    s = np.abs(beta)[..., None]
    if scaled.any():
        s = np.where(scaled[..., None], _lascl(s, target[..., None], anrm[..., None]), s)
    if not compute_uv:
        return s
    n = a.shape[-1]
    full = np.concatenate([np.ones(v.shape[:-1] + (1,), dt), v], axis=-1)
    h = np.eye(n, dtype=dt) + full[..., :, None] * (-tau[..., None] * full)[..., None, :]
    u = np.where(beta < 0, -1, 1).astype(dt)[..., None, None]  # (+1 for a NaN)
    return u, s, h if full_matrices else h[..., :1, :]


def _lascl(a, cfrom, cto):
    """a * (cto / cfrom) as LAPACK's lascl multiplies it: in steps of safmin or 1/safmin while
    the quotient would under- or overflow (cfrom, cto nonzero, broadcasting with a)."""
    dt = a.dtype
    small = np.asarray(np.finfo(dt).tiny, dt)
    big = np.asarray(1 / small, dt)
    a, cfrom, cto = a.copy(), np.array(cfrom, dt), np.array(cto, dt)
    done = np.zeros(np.broadcast_shapes(cfrom.shape, cto.shape), bool)
    with np.errstate(all="ignore"):
        for _ in range(200):
            if done.all():
                break
            cfrom1, cto1 = cfrom * small, cto / big
            inf = ~done & (cfrom1 == cfrom)  # (an inf: multiplied by cto / inf, 0)
            down = ~done & ~inf & (np.abs(cfrom1) > np.abs(cto)) & (cto != 0)
            up = ~done & ~inf & ~down & (np.abs(cto1) > np.abs(cfrom))
            last = ~done & ~down & ~up
            mul = np.where(down, small, np.where(up, big, np.where(last, cto / cfrom, 1))).astype(dt)
            a = np.where(done, a, a * mul)
            cfrom = np.where(down, cfrom1, cfrom)
            cto = np.where(up, cto1, cto)
            done = done | last
    return a


# ---------------------------------------------------------------------------
# syevd's failure on a matrix that is not finite (sytd2, then sterf or steqr)
# ---------------------------------------------------------------------------

def _sytd2(a):
    """(d, e): the tridiagonal form of a symmetric matrix (float64) by sytd2's lower reflectors,
    in float arithmetic, so that its NaNs and exact zeros fall where LAPACK's do."""
    a = np.array(a, np.float64)
    n = a.shape[0]
    e = np.zeros(max(n - 1, 0))
    with np.errstate(all="ignore"):
        for i in range(n - 1):
            alpha, x = a[i + 1, i], a[i + 2:, i]
            xnorm = np.sqrt(np.sum(x * x))
            if xnorm == 0:  # no reflector
                e[i] = alpha
                continue
            beta = -np.copysign(np.hypot(alpha, xnorm), alpha)
            tau = (beta - alpha) / beta
            v = np.concatenate([[1.0], x / (alpha - beta)])
            w = tau * (a[i + 1:, i + 1:] @ v)
            w -= 0.5 * tau * (w @ v) * v
            a[i + 1:, i + 1:] -= np.outer(v, w) + np.outer(w, v)
            e[i] = beta
    return np.diagonal(a).copy(), e


def syevd_info(a, lower=True, vectors=True):
    """LAPACK syevd's info for one symmetric matrix (only its ``lower`` or upper triangle read):
    0, or the count of off-diagonal elements left unconverged when the matrix is not finite.
    An inf (without a NaN) is scaled by 0 first: NaN there, zeros elsewhere.  The tridiagonal
    form splits into blocks where an off-diagonal element is negligible (for the eigenvectors,
    steqr, also where it is exactly zero: sterf's test is false next to a NaN); the first block
    of 3 or more that holds a NaN never converges, and info counts its off-diagonal elements
    (one fewer for sterf) and the nonzero ones after it (checked against PyTorch's MKL on 6,000
    random matrices up to 8 x 8)."""
    used = np.tril(a) if lower else np.triu(a)
    if np.isfinite(used).all():
        return 0
    full = used + (np.tril(a, -1).T if lower else np.triu(a, 1).T)
    if not np.isnan(used).any():
        full = np.where(np.isinf(full), np.nan, 0.0)
    d, e = _sytd2(full)
    n, start = len(d), 0
    eps = np.finfo(np.float64).eps / 2
    with np.errstate(all="ignore"):
        for m in range(n):
            if m < n - 1 and not ((vectors and e[m] == 0)
                                  or abs(e[m]) <= np.sqrt(abs(d[m])) * np.sqrt(abs(d[m + 1])) * eps):
                continue
            if m - start >= 2 and (np.isnan(d[start:m + 1]).any() or np.isnan(e[start:m]).any()):
                return m - start + (0 if vectors else -1) + int(np.count_nonzero(e[m + 1:]))
            start = m + 1
    return 0


# ---------------------------------------------------------------------------
# gelsy as PyTorch calls it (no column pivoting)
# ---------------------------------------------------------------------------

def _gelsy_full_rank_f32(a, b):
    """X of a float32 A (m, n) of full column rank (m >= n) and B (m, k) as MKL's sgelsy computes it
    (measured against PyTorch): R and the reflectors by geqr2's steps; Q^T B by orm2r's larf, each
    column's w = [1; v]^T c added from the last row up and the first row last; R X = (Q^T B)[:n] by
    back substitution, dividing by R's diagonal for one column of B and multiplying by its reciprocal
    for more (random 2 x 1 to 6 x 3 problems: ~1 in 150 to ~2 in 3 apart, from nearly all)."""
    m, n = a.shape
    packed, taus = geqr2(a[None])
    r, taus = packed[0], taus[0]
    c = np.array(b, np.float32)
    with np.errstate(all="ignore"):
        for i in range(n):
            tau = taus[i]
            if tau == 0:
                continue
            v = r[i + 1:, i]
            w = np.zeros(c.shape[1], np.float32)
            for row in range(m - i - 1, 0, -1):
                w = w + v[row - 1] * c[i + row]
            w = w + c[i]
            scaled = tau * w
            touch = w != 0  # (ger skips a column whose w is zero)
            c[i, touch] -= scaled[touch]
            c[i + 1:, touch] -= v[:, None] * scaled[None, touch]
        x = c[:n]
        one = c.shape[1] == 1
        for k in range(n - 1, -1, -1):
            x[k] = x[k] / r[k, k] if one else x[k] * (np.float32(1) / r[k, k])
            x[:k] -= x[k][None, :] * r[:k, k, None]
    return x


def gelsy_unpivoted(a, b, rcond):
    """(X, rank) of min ||A X - B|| for each finite matrix of ``a`` (batch, m, n) and ``b``
    (batch, m, k) as LAPACK's gelsy computes them when every column is fixed in place: PyTorch
    hands gelsy a pivot array it never initialises, whose garbage is nearly always nonzero, so
    the QR keeps A's column order.  Its rank is where the condition estimate of R's leading
    triangles first exceeds 1/rcond (the exact singular values here, for LAPACK's incremental
    estimate); a first column of zeros is rank 0 and a zero solution.  The solution is the
    minimum-norm one of the first ``rank`` rows of R (gelsy's complete orthogonal factorisation)."""
    count, m, n = a.shape
    k = b.shape[-1]
    x = np.zeros((count, n, k), a.dtype)
    rank = np.zeros(count, np.int64)
    mn = min(m, n)
    for i in range(count):
        if not a[i].any() or mn == 0:
            continue
        q, r = np.linalg.qr(a[i])
        if r[0, 0] == 0:
            continue
        r_rank = 1
        while r_rank < mn:
            s = np.linalg.svd(r[:r_rank + 1, :r_rank + 1], compute_uv=False)
            if not s[0] * rcond <= s[-1]:
                break
            r_rank += 1
        if r_rank == n and a.dtype == np.float32:
            x[i] = _gelsy_full_rank_f32(a[i], b[i])
            rank[i] = n
            continue
        c = q[:, :r_rank].T @ b[i]
        if r_rank == n:
            x[i] = np.linalg.solve(r[:n, :n], c)
        else:
            x[i] = np.linalg.lstsq(r[:r_rank], c, rcond=None)[0]
        rank[i] = r_rank
    return x, rank
