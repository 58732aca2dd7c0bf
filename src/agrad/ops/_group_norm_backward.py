"""group_norm's backward under create_graph: ATen's infinitely_differentiable_native_group_norm_backward.

native_group_norm has three outputs (the result, each group's mean and rstd); its backward
formula reads the saved mean and rstd, so a gradient taken with create_graph=True links back to
the node's outputs 1 and 2 (``ViewBackward0`` of ``(NativeGroupNormBackward0, 2)``), and a
gradient reaching those outputs (double backward) comes in as ``dmean``/``drstd``, through
var_mean_backward.  The steps and their order are FunctionsManual.cpp's, written with agrad ops.
"""

from __future__ import annotations

from types import SimpleNamespace


def group_norm_backward(dY, dmean, drstd, X, mean, rstd, gamma, groups, eps, mask):
    """(d input, d weight, d bias) of native_group_norm; None where not asked or not reached."""
    from .variance import _pair_sum, _var_backward
    from .views import _unsqueeze1, view_in_place

    def unsqueeze_(t, dim):  # Tensor.unsqueeze_ on a temporary (UnsqueezeBackward1)
        return view_in_place(t, _unsqueeze1, {"dim": dim % (t.ndim + 1)})

    n, c = X.shape[0], X.shape[1]
    hxw = X.numel() // (n * c) if n * c else 0
    d = c // groups
    s = 1.0 / (d * hxw) if d * hxw else float("inf")
    x4 = X.reshape(n, groups, d, hxw)
    mean4 = mean.reshape(n, groups, 1, 1)
    rstd4 = rstd.reshape(n, groups, 1, 1)
    dx = dgamma = dbeta = ds = db = dy4 = None
    if dY is not None:
        dy4 = dY.reshape(n, groups, d, hxw)
        ds = unsqueeze_((dy4 * x4).sum(3), -1)
        db = unsqueeze_(dy4.sum(3), -1)
    # var_mean_backward over each group's (D, HxW) elements, kept dims, no correction
    stats = SimpleNamespace(correction=0, full=False, keepdim=True, n=d * hxw, axes=(2, 3))
    if mask[0]:
        gamma4 = gamma.reshape(1, groups, d, 1) if gamma is not None else None
        rstd_cube = rstd4 * rstd4 * rstd4
        dvar = -0.5 * rstd_cube * drstd.view(n, groups, 1, 1) if drstd is not None else None
        both = dmean is not None and drstd is not None
        if dy4 is not None:
            a = rstd4 * gamma4 if gamma4 is not None else rstd4
            b = unsqueeze_((ds * gamma4).sum(2) if gamma4 is not None else ds.sum(2), -2)
            cc = unsqueeze_((db * gamma4).sum(2) if gamma4 is not None else db.sum(2), -2)
            b = (cc * mean4 - b) * rstd_cube * s
            # (GCC evaluates the right operand of a binary operator first)
            right = cc * rstd4 * s
            cc = -b * mean4 - right
            right = b * x4
            dx = a * dy4 + right + cc
            if both:
                dx += _pair_sum(_var_backward(dvar, x4, stats), dmean.view(n, groups, 1, 1), x4, stats)
            dx = dx.reshape_as(X)
        elif both:
            dx = _pair_sum(_var_backward(dvar, x4, stats), dmean.view(n, groups, 1, 1), x4, stats).reshape_as(X)
    if mask[1] and dY is not None:
        dgamma = ((ds - db * mean4) * rstd4).sum(0).reshape_as(gamma)
    if mask[2] and dY is not None:
        if gamma is None:  # (reshape_as of the undefined weight: its shape is [0])
            raise RuntimeError(f"shape '[0]' is invalid for input of size {c}")
        dbeta = db.sum(0).reshape_as(gamma)
    return dx, dgamma, dbeta


def group_norm_kernel_grads(dy, x, mean, rstd, gamma, groups, mask):
    """(dX, dgamma, dbeta) arrays as ATen's CPU GroupNormBackward kernel computes them (no graph; float32 and
    float64, contiguous): ds = sum dY X and db = sum dY per channel (map2_reduce_all and reduce_all over HxW; a
    float32 row's partial last vector multiplied, then added, a double's fused), then per group the
    gamma-weighted sums (CalcDsDb: register-wide lanes, fused, summed in order, then the channels past them
    fused one by one), c2 = fma(db, mean, -ds) rstd^3 s, c3 = fma(-db rstd, s, -c2 mean) and
    dX = fma(c1, dY, c2 X) + c3 with c1 = rstd gamma, so an infinite gamma spreads as the kernel spreads it.
    With one group in all (N * G == 1: parallel_for runs its body inline, compiled apart from the OpenMP
    copy) the channels past the lanes go in unfused blocks of half a register, the rest fused.  dgamma sums
    fma(fma(-db, mean, ds), rstd, acc) over the batch, dbeta db from +0.0 (GammaBackward, BetaBackward)."""
    import numpy as np

    from ._norm_moments import _fma, _lanes, _row_sum

    n, c = x.shape[0], x.shape[1]
    hxw = x.size // (n * c) if n * c else 0
    d = c // groups
    t = x.dtype.type
    k = _lanes(x.dtype)
    rows_x = np.ascontiguousarray(x).reshape(n * c, hxw)
    rows_dy = np.ascontiguousarray(dy).reshape(n * c, hxw)
    m, r = mean.reshape(n, groups), rstd.reshape(n, groups)
    with np.errstate(all="ignore"):
        ds = (_row_sum(rows_dy * rows_x) if x.dtype == np.float32 and hxw >= k else _row_sum(rows_dy, rows_x))
        ds, db = ds.reshape(n, groups, d), _row_sum(rows_dy).reshape(n, groups, d)
        dx = dgamma = dbeta = None
        if mask[0]:
            s = t(1.0) / t(d * hxw) if d * hxw else t(np.inf)
            g = np.broadcast_to(np.ones((1, groups, d), x.dtype) if gamma is None
                                else gamma.reshape(1, groups, d).astype(t), ds.shape)
            ds_val, db_val = np.zeros((n, groups), x.dtype), np.zeros((n, groups), x.dtype)
            full = d // k * k
            if full:  # (the lanes, each the sum of its channels, then added in order)
                acc_s, acc_b = ds[..., :k] * g[..., :k], db[..., :k] * g[..., :k]
                for j in range(k, full, k):
                    acc_s = _fma(ds[..., j:j + k], g[..., j:j + k], acc_s)
                    acc_b = _fma(db[..., j:j + k], g[..., j:j + k], acc_b)
                for lane in range(k):
                    ds_val, db_val = ds_val + acc_s[..., lane], db_val + acc_b[..., lane]
            half = k // 2
            block = (d - full) // half * half if n * groups == 1 else 0
            for j in range(full, full + block):
                ds_val, db_val = ds_val + ds[..., j] * g[..., j], db_val + db[..., j] * g[..., j]
            for j in range(full + block, d):
                ds_val, db_val = _fma(ds[..., j], g[..., j], ds_val), _fma(db[..., j], g[..., j], db_val)
            c2 = _fma(db_val, m, -ds_val) * r * r * r * s
            c3 = _fma(-(db_val * r), s, -(c2 * m))
            c1 = r[:, :, None] * g
            shape = (n, groups, d, hxw)
            x4, dy4 = x.reshape(shape), dy.reshape(shape)
            dx = _fma(np.broadcast_to(c1[..., None], shape), dy4, c2[:, :, None, None] * x4) + c3[:, :, None, None]
            dx = dx.reshape(x.shape).astype(t, copy=False)
        if mask[1] and gamma is not None:
            acc = np.zeros((groups, d), x.dtype)
            for i in range(n):
                acc = _fma(_fma(-db[i], m[i, :, None], ds[i]), r[i, :, None], acc)
            dgamma = acc.reshape(gamma.shape)
        if mask[2]:
            acc = np.zeros(c, x.dtype)
            for i in range(n):
                acc = acc + db[i].reshape(c)
            dbeta = acc
    return dx, dgamma, dbeta
