"""MKL's order of additions in PyTorch's small float32 matrix products (what tools/gemm_order.py measured).

PyTorch hands ``a @ b`` (m x k times k x n, a row-major result) to MKL's sgemm, whose kernels sum each
element's k products in an order of their own; numpy's BLAS (OpenBLAS) sums in another, so the last
bits differ. Measured on this machine class (AMD EPYC, AVX2; docs/semantics.md "float32 matrix
products"), for m >= 2 unless said:

- ``b`` row-major (``x @ w``, and ``g.t() @ x``, nn.Linear's weight gradient): n from 2 to 11, and 1
  when ``a`` is transposed, a plain sequential float32 sum over k, but for a C row off a 16-byte
  boundary's first columns (_peel_blocks); m = 1 the same;
- ``b`` transposed (``x @ w.t()``, nn.Linear's forward): n from 2 to 11, k split over SSE/AVX lanes
  (lane l sums the products k = l mod L, unfused), the lanes added by halves ((l0 + l2) + (l1 + l3)),
  then the k % L remaining products one by one: L = 4 for the first 4 * (n // 4) columns (each row's
  products before its first 16-byte boundary summed first, into lane 0: lanes_aligned), 8 for the
  rest (the same peel);
- n of 12 or more, any layout: a fused multiply-add chain over k (each step's product exact, one
  rounding), started from zero (below 12 rows, the m % 4 last rows are sequential sums, or 4 lanes for a
  transposed b, over the whole of k), for k up to 192; two such chains over k // 2 each (the second
  added to the first; an odd k's last product, rounded, added after) for k up to 384; above, chains
  over K-blocks of 192 and the rest, added in order;
- n = 1 with a row-major ``a`` (MKL's gemv): gemv_lanes below (its m % 4 last rows _gemv_tail's); with a
  transposed ``a``: sequential;
- m = 1 with a transposed b (n > 1): gemv_lanes of b's rows.

A beta * C (addmm's bias) starts the sequential kernels' sums and is added after the others'; an alpha
!= 1 scales a (sequential kernels) or b (FMA chains, gemv of a transposed a) before, or the sum after
(the lane kernels, gemv). Vectorised: one
np.cumsum for a sequential chain (an m x k x n array of products), a k-step loop over the m x n result
for an FMA chain; products above the cost caps keep numpy's BLAS (issue 12's speed).
"""
from __future__ import annotations

import numpy as np

SEQ_CAP = 1 << 20      # m * k * n products materialised for np.cumsum
FMA_CAP = 1 << 20      # m * k * n multiply-adds of the k-step FMA loop (a numpy pass per k)
FMA_MAX_K = 512        # (so at most 512 passes: ~20 ms)
KBLOCK = 192           # MKL's K-block


def _transposed(x):
    """Whether PyTorch passes this matrix to BLAS transposed: column-major strides (1, rows), also for a
    single column that is a transposed row (``w.t()`` of a 1 x k weight: strides (1, k))."""
    f = x.flags
    if f.c_contiguous and f.f_contiguous:
        return x.shape[0] > 1 and x.strides[0] == x.itemsize and x.strides[1] != x.itemsize
    if f.f_contiguous:
        return True
    # (a column-major slice, a leading dimension past its rows: ATen passes it transposed as it is, where a
    # row-major one does not come first; anything else it copies row-major)
    it = x.itemsize
    rows, cols = x.shape
    if x.strides[1] == it and x.strides[0] >= max(1, cols) * it:
        return False
    return x.strides[0] == it and x.strides[1] >= max(1, rows) * it


def sequential(a, b, c=None, row0=None, off=0):
    """Each element's products summed left to right in a's dtype (product rounded, then added), from c.
    With row0 (b row-major, a's rows those of C from row0 on), the elements of the peeled columns of a
    C row off a 16-byte boundary take their kernel's order (_peel_blocks) in the same pass."""
    p = a[:, :, None] * b[None, :, :]
    if c is not None and p.shape[1]:
        p[:, 0] += c  # (the first step of the sum from c)
    if row0 is not None:
        _peel_blocks(p, row0, off)
    return np.cumsum(p, axis=1, dtype=p.dtype)[:, -1, :]


def _peel_blocks(p, row0, off=0):
    """b row-major (n from 5 to 11, or the m % 4 last rows below 12): a row of C (row-major, row i at
    element offset o = off + i n, off a batch's matrix's) that does not start on a 16-byte boundary has
    its first h = -o mod w columns summed by another kernel when the other n - h columns hold a vector
    of w (w = 4 float32s or 2 float64s, 16 bytes): per block of 8
    products the first 4 added one by one, then the other 4's own sequential sum; the k % 8 last
    products one by one. Written into p (m x k x n products) for one sequential pass: each block's
    product 4 becomes that sum, products 5-7 -0.0 (x + -0.0 is x, also for x = +-0.0)."""
    m, k, n = p.shape
    nb = k // 8
    w = 16 // p.itemsize
    if n <= w or n % w == 0 or not nb:
        return
    blocks = p[:, :nb * 8].reshape(m, nb, 8, n)  # (a view)
    for i in range(min(m, w)):  # (the rows i, i + w, ...: the same peel)
        h = (-(off + (row0 + i) * n)) % w
        if h and n - h >= w:
            q = blocks[i::w, :, :, :h]
            q[:, :, 4] = ((q[:, :, 4] + q[:, :, 5]) + q[:, :, 6]) + q[:, :, 7]
            q[:, :, 5:] = -0.0


def fma_chain(a, b):
    """acc = fma(a[:, j], b[j, :], acc) for j in order, from +0.0: the float64 product is exact and
    the float64 sum rounds to float32 once, except where it lies exactly halfway between two float32
    values with the float64 sum itself inexact (double rounding), fixed by rounding that sum to odd."""
    m, k = a.shape
    n = b.shape[1]
    a64 = a.astype(np.float64)
    b64 = b.astype(np.float64)
    acc = np.zeros((m, n), np.float64)
    for j in range(k):
        p = a64[:, j:j + 1] * b64[j:j + 1, :]
        s = acc + p
        r = s.astype(np.float32)
        half = (s.view(np.int64) & 0x1FFFFFFF) == 0x10000000
        if half.any():  # (rare) a tie in float32: decide it with the exact sum's sign of error
            bp = s - acc
            e = (acc - (s - bp)) + (p - bp)
            fix = half & (e != 0)
            if fix.any():
                s = s.copy()
                s[fix] = np.nextafter(s[fix], np.where(e[fix] > 0, np.inf, -np.inf))
                r = s.astype(np.float32)
        acc = r.astype(np.float64)
    return acc.astype(np.float32)


def _split_rows(a, b, batched):
    """How many of a's rows the FMA kernel takes: all from 12 rows (or in a batched bmm, or from 4 rows
    with k up to 4, or up to 16 with n up to 16 too), else four at a time (the m % 4 last rows another
    kernel's, over the whole of k, not K-blocked)."""
    m, k = a.shape
    if m >= 12 or batched or (m >= 4 and (k <= 4 or (k <= 16 and b.shape[1] <= 16))):
        return m
    return m - m % 4


def _tail_rows(a, b, c, row0, alpha=None):
    """The m % 4 last rows below 12 (row0 on): as for n below 12, a sequential sum from c (b row-major,
    _peel_blocks), or transposed_lanes (b transposed)."""
    if _transposed(b):
        r = _scaled(transposed_lanes(a, b), alpha)
        return r if c is None else r + c
    return sequential(_scaled(a, alpha), b, c, row0)


def fma_blocks(a, b, c=None, batched=False, alpha=None):
    """The FMA kernel's rows (_split_rows; the others _tail_rows): FMA chains over K-blocks, each from
    zero, their results added in order (to c, beta * C, when there is one): one block up to 192, two
    halves of k // 2 up to 384 (an odd k's last product, rounded, added after them), then blocks of
    192 and the rest."""
    m, k = a.shape
    q = _split_rows(a, b, batched)
    tail = _tail_rows(a[q:], b, None if c is None else c[q:], q, alpha) if q < m else None
    if not q:
        return tail
    a = a[:q]
    b = _scaled(b, alpha)
    out = None if c is None else c[:q]
    if k <= KBLOCK:
        cuts = [0, k]
    elif k <= 2 * KBLOCK:
        cuts = [0, k // 2, k - k % 2]
    else:
        cuts = list(range(0, k, KBLOCK)) + [k]
    for s, e in zip(cuts, cuts[1:]):
        part = fma_chain(a[:, s:e], b[s:e])
        out = part if out is None else out + part
    if cuts[-1] < k:
        out = out + a[:, k - 1:] * b[k - 1:]
    return out if tail is None else np.concatenate([out, tail])


def gemv_lanes(a, v, c=None, alpha=None):
    """MKL's sgemv of a row-major a (each y_i a dot of a contiguous row), rows four at a time: the
    first h = (k - 1) % 4 + 1 products summed in order, that sum the start of lane 0 of four lanes
    over the other k - h (lane l sums k = h + l mod 4 in order), the lanes added by halves
    ((l0 + l2) + (l1 + l3)); the m % 4 last rows _gemv_tail's; a c (beta * y) added last. Found with
    FPRev's probes (+-2**40 at two places, ones elsewhere: the ones that survive count the leaves
    outside the two places' smallest common subtree)."""
    m, k = a.shape
    q = m - m % 4
    p = a[:q] * v[None, :]
    h = (k - 1) % 4 + 1
    head = np.cumsum(p[:, :h], axis=1, dtype=np.float32)[:, -1]
    if k > h:
        rest = p[:, h:].reshape(q, (k - h) // 4, 4)
        rest[:, 0, 0] = head + rest[:, 0, 0]
        ln = np.cumsum(rest, axis=1, dtype=np.float32)[:, -1]
        head = (ln[:, 0] + ln[:, 2]) + (ln[:, 1] + ln[:, 3])
    if q < m:
        head = np.concatenate([head, _gemv_tail(a[q:], v)])
    head = _scaled(head, alpha)
    return head if c is None else head + c


def _gemv_tail(a, v):
    """sgemv's m % 4 last rows, each its own kernel: the first 4 products summed in order, the start of
    lane 0 of 8 lanes (4 for the second of these rows) over the next 8 ((k - 4) // 8) products (lane l
    sums k = 4 + l mod L), the lanes added by halves, then the rest one by one (FPRev-probed)."""
    m, k = a.shape
    p = a * v[None, :]
    n8 = 8 * ((k - 4) // 8)
    if n8 <= 0:
        return np.cumsum(p, axis=1, dtype=np.float32)[:, -1]
    out = np.empty(m, np.float32)
    head = np.cumsum(p[:, :4], axis=1, dtype=np.float32)[:, -1]
    for rows, L in ((slice(0, None, 2), 8), (slice(1, 2), 4)):
        blocks = p[rows, 4:4 + n8].reshape(-1, n8 // L, L)
        if not blocks.shape[0]:
            continue
        blocks[:, 0, 0] = head[rows] + blocks[:, 0, 0]
        ln = np.cumsum(blocks, axis=1, dtype=np.float32)[:, -1]
        while ln.shape[1] > 1:
            ln = ln[:, :ln.shape[1] // 2] + ln[:, ln.shape[1] // 2:]
        tail = np.concatenate([ln, p[rows, 4 + n8:]], axis=1)
        out[rows] = np.cumsum(tail, axis=1, dtype=np.float32)[:, -1]
    return out


def dot_lanes(x, y):
    """MKL's sdot (FPRev-probed as gemv_lanes): blocks of four lanes, four at a time into accumulators
    0-3, then two at a time into 0-1, then one into 0; the k % 4 last products added to lane 0 of
    accumulator 0 one by one; the accumulators added in order, then the lanes by halves."""
    k = x.shape[0]
    p = x * y
    if k < 4:
        return np.cumsum(p, dtype=np.float32)[-1] if k else np.float32(0)
    nb = k // 4
    blocks = p[:nb * 4].reshape(nb, 4)
    acc = [None] * 4
    i = 0
    for width in (4, 2, 1):
        while nb - i >= width:
            for j in range(width):
                acc[j] = blocks[i + j].copy() if acc[j] is None else acc[j] + blocks[i + j]
            i += width
    acc0 = acc[0]
    for j in range(nb * 4, k):
        acc0[0] = acc0[0] + p[j]
    total = acc0
    for a in acc[1:]:
        if a is not None:
            total = total + a
    return (total[0] + total[2]) + (total[1] + total[3])


def sdot_aligned(x, y):
    """MKL's sdot of contiguous float32 vectors by their 16-byte alignment (numpy's buffers and PyTorch's
    storages both aligned: the same offsets), n below 8192: the h = -(y's offset) mod 4 products before y's
    boundary summed in order; x on the same offset: that sum added to the next product, the rest as
    dot_lanes; x on another: one vector of the next 4 products, the sum and then every later product added
    in order to its lane 0, the lanes added as (l0 + l2) + (l1 + l3) (fewer than 4 left: all in order)."""
    k = x.shape[0]
    h = (-(y.ctypes.data // 4)) % 4
    if not h and not (x.ctypes.data // 4) % 4:
        return dot_lanes(x, y)
    p = x * y
    if (x.ctypes.data - y.ctypes.data) % 16 == 0:
        if h >= k:
            return np.cumsum(p, dtype=np.float32)[-1]
        q = p[h:].copy()
        q[0] = np.cumsum(p[:h + 1], dtype=np.float32)[-1]
        return dot_lanes(q, np.ones_like(q))
    if k - h < 4:
        return np.cumsum(p, dtype=np.float32)[-1]
    l0 = np.cumsum(np.concatenate([p[:h + 1], p[h + 4:]]), dtype=np.float32)[-1]
    return (l0 + p[h + 2]) + (p[h + 1] + p[h + 3])


#: from this many doubles on MKL's ddot splits the sum between its threads (an order not found): numpy's
DDOT_MAX = 4095


def ddot_lanes(x, y):
    """MKL's ddot (FPRev-probed), n up to DDOT_MAX. Contiguous vectors: blocks of two lanes, four at a
    time into accumulators 0-3, the n // 2 % 4 last blocks into accumulator 0 one by one, an odd n's last
    product into its lane 0; the accumulators added in order, then the two lanes; a y off a 16-byte
    boundary (numpy's buffers and PyTorch's storages both aligned: the same offsets) has its first product
    added to the second, the rest as if aligned. Strided (either one):
    two lanes (even and odd places) each summed in order, then added."""
    k = x.shape[0]
    p = x * y
    if k < 2:
        return p[0] if k else np.float64(0)
    if not (x.flags.c_contiguous and y.flags.c_contiguous):
        return np.cumsum(p[0::2])[-1] + np.cumsum(p[1::2])[-1]
    if (y.ctypes.data // 8) % 2:  # (y off a 16-byte boundary: its first product starts lane 0, the rest as aligned)
        p = p[1:].copy()
        p[0] = x[0] * y[0] + p[0]
        k -= 1
        if k < 2:
            return p[0]
    nb = k // 2
    blocks = p[:nb * 2].reshape(nb, 2)
    m = nb - nb % 4
    acc = list(np.cumsum(blocks[:m].reshape(m // 4, 4, 2), axis=0)[-1]) if m else []
    rest = blocks[m:]
    if len(rest):
        acc0 = np.cumsum(np.concatenate([np.reshape(acc[:1], (-1, 2)), rest]), axis=0)[-1]
        acc = [acc0] + acc[1:]
    if k % 2:
        acc[0] = acc[0].copy()
        acc[0][0] = acc[0][0] + p[-1]
    total = np.cumsum(acc, axis=0)[-1] if len(acc) > 1 else acc[0]
    return total[0] + total[1]


def _lanes_from(a, b, L, h):
    """lanes() after a head of h products summed in order, which starts lane 0."""
    m, k = a.shape
    n = b.shape[1]
    p = a[:, :, None] * b[None, :, :]
    nb = (k - h) // L if k > h else 0
    if nb <= 0:
        return np.cumsum(p, axis=1, dtype=np.float32)[:, -1, :]
    blocks = p[:, h:h + nb * L].reshape(m, nb, L, n).copy()
    if h:
        blocks[:, 0, 0] += np.cumsum(p[:, :h], axis=1, dtype=np.float32)[:, -1]
    acc = np.cumsum(blocks, axis=1, dtype=np.float32)[:, -1]
    while acc.shape[1] > 1:
        half = acc.shape[1] // 2
        acc = acc[:, :half] + acc[:, half:]
    total = acc[:, 0]
    for j in range(h + nb * L, k):
        total = total + p[:, j]
    return total


def lanes_aligned(a, b, L=4):
    """The lane kernels (4 or 8 lanes) peel the products before each row of a's first 16-byte boundary (summed in
    order, the start of lane 0): row i's head is -(address / 4) mod 4 elements (PyTorch's storage and
    numpy's buffers both 16-byte aligned, so the same for a row at the same offset)."""
    m = a.shape[0]
    if a.strides[1] != a.itemsize or not m:
        return lanes(a, b, L)
    peel = (-((a.ctypes.data + np.arange(m) * a.strides[0]) // a.itemsize)) % 4
    if not peel.any():
        return lanes(a, b, L)
    out = np.empty((m, b.shape[1]), np.float32)
    for h in np.unique(peel):
        rows = np.nonzero(peel == h)[0]
        out[rows] = _lanes_from(a[rows], b, L, int(h))
    return out


def lanes(a, b, L):
    """k over L lanes (unfused), the lanes added by halves, then the k % L rest one by one."""
    m, k = a.shape
    n = b.shape[1]
    nb = k // L
    p = a[:, :, None] * b[None, :, :]
    if not nb:
        return np.cumsum(p, axis=1, dtype=np.float32)[:, -1, :]
    acc = np.cumsum(p[:, :nb * L].reshape(m, nb, L, n), axis=1, dtype=np.float32)[:, -1]
    while acc.shape[1] > 1:
        h = acc.shape[1] // 2
        acc = acc[:, :h] + acc[:, h:]
    total = acc[:, 0]
    for j in range(nb * L, k):
        total = total + p[:, j]
    return total


def transposed_lanes(a, b):
    """A transposed b's lane kernels: 4 lanes for the first 4 (n // 4) columns, 8 for the rest."""
    n = b.shape[1]
    q = 4 * (n // 4)
    if q == n:
        return lanes_aligned(a, b, 4)
    if not q:
        return lanes_aligned(a, b, 8)
    return np.concatenate([lanes_aligned(a, b[:, :q], 4), lanes_aligned(a, b[:, q:], 8)], axis=1)


def _dlanes(p, lanes):
    """float64 sums of an m x k x n array of products over k: ``lanes`` 2 (an SSE register: lane l sums the
    products k = l mod 2 in order, then lane 0 + lane 1) or 8 (two AVX registers: lanes l and l + 4 of
    k = l mod 8, added as ((l0 + l2) + (l4 + l6)) + ((l1 + l3) + (l5 + l7))), then the k % lanes last
    products one by one; fewer than ``lanes`` products: a sequential sum."""
    m, k, n = p.shape
    nb = k // lanes
    if not nb:
        return np.cumsum(p, axis=1)[:, -1, :]
    acc = np.cumsum(p[:, :nb * lanes].reshape(m, nb, lanes, n), axis=1)[:, -1]
    if lanes == 2:
        total = acc[:, 0] + acc[:, 1]
    else:
        total = ((acc[:, 0] + acc[:, 2]) + (acc[:, 4] + acc[:, 6])) + ((acc[:, 1] + acc[:, 3]) + (acc[:, 5] + acc[:, 7]))
    for j in range(nb * lanes, k):
        total = total + p[:, j]
    return total


def _dlanes_from(p, h, lanes, count):
    """float64 sums of rows of products: the first h in order, the start of lane 0 of ``lanes`` lanes over the
    next ``count`` (lane l sums k = h + l mod lanes), the lanes added as _dlanes' (4: (l0 + l2) + (l1 + l3)),
    then the rest one by one; no whole block of lanes: a sequential sum."""
    rows, k = p.shape
    if count < lanes:
        return np.cumsum(p, axis=1)[:, -1]
    blocks = p[:, h:h + count].reshape(rows, count // lanes, lanes).copy()
    blocks[:, 0, 0] = np.cumsum(p[:, :h], axis=1)[:, -1] + blocks[:, 0, 0]
    acc = np.cumsum(blocks, axis=1)[:, -1]
    if lanes == 2:
        total = acc[:, 0] + acc[:, 1]
    elif lanes == 4:
        total = (acc[:, 0] + acc[:, 2]) + (acc[:, 1] + acc[:, 3])
    else:
        total = ((acc[:, 0] + acc[:, 2]) + (acc[:, 4] + acc[:, 6])) + ((acc[:, 1] + acc[:, 3]) + (acc[:, 5] + acc[:, 7]))
    for j in range(h + count, k):
        total = total + p[:, j]
    return total + 0.0  # (the lanes start from +0.0: a sum of -0.0 products is +0.0, before beta * y)


#: dgemv's kernels for the m % 4 last rows, of a contiguous x (a strided one: 8 lanes each)
_DGEMV_TAIL = {0: (), 1: (8,), 2: (4, 2), 3: (4, 2, 8)}


def dgemv_lanes(a, v):
    """MKL's dgemv of a row-major float64 a (m >= 2; session 40, FPRev-probed): rows four at a time, the first
    2 products in order (1 where a's first element's offset and its row stride differ in parity: a contiguous
    a of odd k), the start of lane 0 of 2 lanes over the next even count, lane 0 + lane 1, the last one
    after; each of
    the m % 4 last rows the first 2 products in order, the start of lane 0 of 4, 2 or 8 lanes (_DGEMV_TAIL;
    a strided x: 8 each, the second's head that of the main rows) over the next 8 ((k - 2) // 8) products,
    then the rest one by one; None where not found."""
    m, k = a.shape
    p = a * v[None, :]
    q = m - m % 4
    out = np.empty(m, np.float64)
    # (the main rows' head: 2 where a's first element and its row stride, in elements, have the same parity;
    # numpy's buffers and PyTorch's storages are both 16-byte aligned, so the same for the same offset)
    head = 2 if (a.ctypes.data // a.itemsize + a.strides[0] // a.itemsize) % 2 == 0 else 1
    if q:
        out[:q] = _dlanes_from(p[:q], head, 2, 2 * ((k - head) // 2))
    strided = v.strides[0] != v.itemsize and k > 1
    if strided and (a.ctypes.data // a.itemsize) % 2:  # (a strided x and a's first element off a 16-byte
        return None  # boundary: not found)
    for i, lanes in enumerate((8,) * (m % 4) if strided else _DGEMV_TAIL[m % 4]):
        h = head if strided and i == 1 else 2  # (a strided x's second row: the main rows' head)
        out[q + i] = _dlanes_from(p[q + i:q + i + 1], h, lanes, 8 * ((k - h) // 8))[0]
    return out


def dtransposed_lanes(a, b):
    """MKL's dgemm of a row-major float64 a (m >= 2) and a transposed b, n from 2 to 11 (FPRev-probed,
    session 40): the first 4 (n // 4) columns of C in 2 lanes, the rest in 8 (_dlanes); a row of a off a
    16-byte boundary (odd address / 8: numpy's buffers and PyTorch's storages both aligned) adds its first
    product to its second, which starts lane 0, and sums the rest as an aligned row."""
    m, k = a.shape
    n = b.shape[1]
    p = a[:, :, None] * b[None, :, :]
    odd = ((a.ctypes.data + np.arange(m) * a.strides[0]) // a.itemsize) % 2 == 1
    groups = [(~odd, p[~odd])]
    if odd.any():
        po = p[odd]
        if k > 1:
            po = po[:, 1:].copy()
            po[:, 0] = p[odd, 0] + po[:, 0]
        groups.append((odd, po))
    q4 = 4 * (n // 4)
    out = np.empty((m, n), np.float64)
    for rows, prods in groups:
        if not prods.shape[0]:
            continue
        if q4:
            out[rows, :q4] = _dlanes(prods[:, :, :q4], 2)
        if q4 < n:
            out[rows, q4:] = _dlanes(prods[:, :, q4:], 8)
    return out + 0.0  # (its sums start from +0.0, also the short ones: a sum of -0.0 products is +0.0, before C)


def _scaled(x, alpha):
    """x * alpha in float32 (addmm's alpha where a kernel's packing applies it; None: 1), x's layout kept."""
    return x if alpha is None else np.multiply(x, np.float32(alpha), order="K")


def _mkl_product(a, b, c=None, batched=False, alpha=None, c_off=0):
    """a @ b (+ c, an m x n float32 beta * C, for addmm) of two float32 numpy matrices in MKL's order, or
    None where that order is not known (or the product is above the cost caps): the caller then takes
    numpy's BLAS. The sequential kernels start their sums from c, the others add it to their result."""
    m, k = a.shape
    n = b.shape[1]
    if k < 2 or not m or not n:
        return None
    cost = m * k * n
    if a.dtype == np.float64:  # (dgemm: n from 2 to 11 only; b row-major: sequential, as sgemm's, 2-double
        tb = _transposed(b) if n > 1 else True  # vectors, a beta * C starts the sums; b transposed: dlanes)
        if n == 1 and m > 1 and alpha is None and cost <= SEQ_CAP and not _transposed(a) \
                and a.strides[1] == a.itemsize and a.strides[0] >= k * a.itemsize:
            r = dgemv_lanes(a, b[:, 0])
            if r is None:
                return None
            return r[:, None] if c is None else r[:, None] + c
        if n < 2 or n > 11 or alpha is not None or cost > SEQ_CAP:
            return None
        if tb:
            if m < 2 or a.strides[1] != a.itemsize or a.strides[0] < k * a.itemsize:
                return None
            r = dtransposed_lanes(a, b)
            return r if c is None else r + c
        return sequential(a, b, c, 0, c_off)
    tb = _transposed(b)
    if m == 1:
        if cost > SEQ_CAP:
            return None
        if tb:  # (x @ w.t() of one row, w packed: sgemv of w, a dot per row of w, alpha and the bias after;
            if b.strides[1] != k * b.itemsize:  # a w of longer rows (w[:, :k]): not found; the sequential
                if b.flags.f_contiguous or b.flags.c_contiguous:  # sum is PyTorch's for 10% of them, numpy's
                    return None  # 3%; a single column's stride means nothing: numpy's)
                return sequential(_scaled(a, alpha), b, c)
            return gemv_lanes(b.T, a[0], None if c is None else c[0], alpha)[None, :]
        return sequential(_scaled(a, alpha), b, c)
    if n >= 12:
        return None if cost > FMA_CAP or k > FMA_MAX_K else fma_blocks(a, b, c, batched, alpha)
    if cost > SEQ_CAP:
        return None
    if n == 1:
        if _transposed(a):
            return sequential(a, _scaled(b, alpha), c)
        return gemv_lanes(a, b[:, 0], None if c is None else c[:, 0], alpha)[:, None]
    if not tb:
        return sequential(_scaled(a, alpha), b, c, 0, c_off)
    r = _scaled(transposed_lanes(a, b), alpha)
    return r if c is None else r + c


def mkl_product(a, b, c=None, batched=False, alpha=None, c_off=0):
    """a @ b (+ c, an m x n float32 beta * C, for addmm) of two float32 numpy matrices in MKL's order, a
    C-ordered result; None where that order is not known or the product is above the cost caps (the
    caller then takes numpy's BLAS)."""
    r = _mkl_product(a, b, c, batched, alpha, c_off)
    if r is None or r.flags.c_contiguous and r.flags.owndata:
        return r
    # (a memory of its own, C strides: the kernels' last step can be a slice of a scratch buffer, whose
    # other elements as_strided / as_strided_scatter / untyped_storage would otherwise see, as PyTorch's never)
    return np.array(r, order="C")


def dgemm_zero_signs(r, a, b, c, alpha=1):
    """numpy's float64 a @ b + c (``r``, C-ordered, written in place) with the zero signs of MKL's dgemm for a
    row-major a and b, where every product of an element and its C are -0.0 (numpy's sum of them starts from
    +0.0: +0.0): -0.0, as MKL's sums start from C, except (measured) for n = 1 (dgemv) the rows of its blocks
    of 4 (all rows from m = 2 on for k >= 10) for k >= 3, and for n >= 12 the elements of its 4 x 12 blocks
    for an odd k >= 3 (n from 2 to 11: mkl_product's sequential sums).  An ``alpha`` (``r``: alpha * (a @ b) + c)
    scales the terms as they are packed: the zeros take the signs of (alpha * a) @ b + c's sums (n >= 2)."""
    if alpha != 1:
        if b.shape[1] > 1 and _transposed(b):  # (measured: numpy's alpha * (a @ b) + c signs are closer there)
            return r
        a = a * alpha  # (keeps a's layout)
        signs = dgemm_zero_signs(np.ascontiguousarray(a @ b + c), a, b, c)
        zero = (r == 0) & (signs == 0)
        r[zero] = signs[zero]
        return r
    m, k = a.shape
    n = b.shape[1]
    if _transposed(a) and not 2 <= n <= 11 or n > 1 and _transposed(b):
        return r  # (a column-major a with n from 2 to 11, b row-major: every such element, measured)
    rows, cols = np.nonzero((r == 0) & np.signbit(c))
    if not rows.size:
        return r
    p = a[rows] * b[:, cols].T
    neg = ((p == 0) & np.signbit(p)).all(axis=1)
    tail = rows >= 4 * (m // 4)
    if n == 1:
        neg &= (m == 1) | (k <= 2) | (tail & (k <= 9))
    elif n >= 12:
        neg &= (k % 2 == 0) | (k < 3) | tail | (cols >= 12 * (n // 12))
    r[rows[neg], cols[neg]] = -0.0
    return r


def mkl_gemv(a, v, c=None, alpha=None):
    """mv (addmv: alpha, + c, beta * y) of a float32 matrix and vector in MKL's sgemv order (also a single
    row, which a 1 x k @ k x 1 product is not: that is sequential), or None (numpy's)."""
    m, k = a.shape
    if m == 1 and 2 <= k <= SEQ_CAP:  # (a column-major row, strides (1, 1) in PyTorch: the transposed gemv)
        if a.strides[0] == a.itemsize:
            return sequential(a, _scaled(v, alpha)[:, None], None if c is None else c[:, None])[:, 0]
        return gemv_lanes(a, v, c, alpha)
    r = mkl_product(a, v[:, None], None if c is None else c[:, None], alpha=alpha)
    return None if r is None else r[:, 0]


def gemv_one_column(s, a, v, beta, alpha):
    """addmv of a one-column matrix (float32 and float64): gemv's y = beta * y (zeroed with beta 0), then
    y += (alpha * x[0]) * A[:, 0], each product rounded (3,120 random calls: all PyTorch's; -0.0 + -0.0
    stays -0.0); None otherwise."""
    if not (a.ndim == 2 and a.shape[1] == 1 and alpha != 0 and a.dtype.kind == "f" and type(a) is np.ndarray):
        return None
    y = np.zeros(a.shape[0], a.dtype) if beta == 0 else np.broadcast_to(
        s * a.dtype.type(beta) if beta != 1 else s, (a.shape[0],))
    return (y + (a.dtype.type(alpha) * v[0]) * a[:, 0]).astype(a.dtype, copy=False)


def mkl_addmv(s, a, v, beta, alpha):
    """addmv's float32 sgemv: beta * s + alpha * a @ v, alpha and beta * y where MKL applies them (a
    zero +0.0 with beta 0: y zeroed first); None: not float32 numpy arrays, or no known order."""
    if not (alpha != 0 and a.dtype == np.float32 == v.dtype == s.dtype and type(a) is np.ndarray
            and type(v) is np.ndarray and type(s) is np.ndarray and a.shape[0] and a.shape[1] > 1):
        return None
    c = None if beta == 0 else np.ascontiguousarray(
        np.broadcast_to(s * np.float32(beta) if beta != 1 else s, (a.shape[0],)), np.float32)
    r = mkl_gemv(a, v, c, None if alpha == 1 else alpha)
    return None if r is None else (r + np.float32(0) if beta == 0 else r)


def baddbmm_f32(s, a, b, beta, alpha):
    """baddbmm of float32 (or float64) numpy arrays as PyTorch makes it, or None: below 400 multiply-adds a
    matrix its own loop (a sequential sum, then self * beta + alpha * sum, or alpha * sum with beta 0), else
    MKL's batched sgemm/dgemm per matrix (alpha and beta * self where its kernels apply them)."""
    if not (a.dtype == b.dtype == s.dtype and a.dtype.char in "fd" and type(a) is type(b) is type(s) is np.ndarray):
        return None
    nb, m, k = a.shape
    n = b.shape[2]
    if not (nb and m and n and k) or alpha == 0:
        return None
    c = np.broadcast_to(s, (nb, m, n))
    t = a.dtype.type
    if m * k * n < 400:
        if nb * m * k * n > SEQ_CAP:
            return None
        p = a[:, :, :, None] * b[:, None, :, :]
        # (the loop's sum starts from +0.0: a sum of -0.0 products is +0.0, then times alpha)
        acc = (np.cumsum(p, axis=2, dtype=a.dtype)[:, :, -1, :] + t(0)) * t(alpha)
        return acc if beta == 0 else c * t(beta) + acc
    if nb > 64:
        return None
    out = []
    for i in range(nb):
        ci = None if beta == 0 else np.ascontiguousarray(c[i] * t(beta), t)
        r = mkl_product(a[i], b[i], ci, nb > 1, None if alpha == 1 else alpha, i * m * n)
        if r is None:
            return None
        out.append(r)
    r = np.stack(out)
    return r + t(0) if beta == 0 else r


def baddbmm_one_term(s, a, b, beta, alpha):
    """baddbmm of float32/float64 arrays with k = 1 at 400 multiply-adds a matrix or more, as MKL's gemm makes
    it: the plain product (its -0.0 kept), alpha on batch1 first (on the product for a single column), then
    + beta * self; with beta 0 a zeroed C (+0.0) except for a lone matrix of 2+ rows and columns (gemm, not
    gemm_batch). None: another case."""
    nb, m, k = a.shape
    n = b.shape[2]
    if not (k == 1 and m * n >= 400 and alpha != 0 and a.dtype == b.dtype and a.dtype.char in "fd"):
        return None
    al = a.dtype.type(alpha)
    r = a * al * b if n > 1 else a * b * al
    if beta == 0:
        return r if nb == 1 and m > 1 and n > 1 else r + a.dtype.type(0)
    return np.asarray(r + s * a.dtype.type(beta), a.dtype)


def bmm_product(a, b, c_off=0):
    """A batch of float32 or float64 products as PyTorch's bmm makes them: below 400 multiply-adds a matrix
    its own loop (a sequential sum from zero per element), else MKL's sgemm/dgemm per matrix; None: numpy's.
    ``c_off``: the result's offset in its storage, in elements (a bmm_out into a slice of a buffer)."""
    nb, m, k = a.shape
    n = b.shape[2]
    if not (nb and m and n):
        return None
    if m * k * n < 400:
        if nb * m * k * n > SEQ_CAP:
            return None
        p = a[:, :, :, None] * b[:, None, :, :]
        return np.ascontiguousarray(np.cumsum(p, axis=2, dtype=a.dtype)[:, :, -1, :])
    if nb > 64:
        return None
    out = []
    for i in range(nb):
        r = mkl_product(a[i], b[i], batched=nb > 1, c_off=c_off + i * m * n)
        if r is None:
            return None
        out.append(r)
    return np.stack(out)
