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
    """(dX, dgamma, dbeta) arrays as ATen's CPU GroupNormBackward kernel computes them (no graph):
    ds = sum dY X and db = sum dY per channel, c2 = (db_g mean - ds_g) rstd^3 s and
    c3 = -c2 mean - db_g rstd s from the gamma-weighted group sums, dX = rstd gamma dY + c2 X + c3,
    so an infinite gamma spreads as the kernel spreads it (not through a mean of gamma dY)."""
    import numpy as np

    n, c = x.shape[0], x.shape[1]
    hxw = x.size // (n * c) if n * c else 0
    d = c // groups
    t = x.dtype.type
    x4 = x.reshape(n, groups, d, hxw)
    dy4 = dy.reshape(n, groups, d, hxw)
    m, r = mean.reshape(n, groups), rstd.reshape(n, groups)
    with np.errstate(all="ignore"):
        ds = (dy4 * x4).sum(3, dtype=x.dtype)
        db = dy4.sum(3, dtype=x.dtype)
        dx = dgamma = dbeta = None
        if mask[0]:
            s = t(1.0 / (d * hxw)) if d * hxw else t(np.inf)
            g = gamma.reshape(1, groups, d) if gamma is not None else None
            ds_val = (ds * g).sum(2) if g is not None else ds.sum(2)
            db_val = (db * g).sum(2) if g is not None else db.sum(2)
            c2 = (db_val * m - ds_val) * r * r * r * s
            c3 = -c2 * m - db_val * r * s
            c1 = r[:, :, None] * g if g is not None else np.broadcast_to(r[:, :, None], (n, groups, d))
            dx = (c1[..., None] * dy4 + c2[:, :, None, None] * x4 + c3[:, :, None, None]).reshape(x.shape)
        if mask[1] and gamma is not None:
            dgamma = ((ds - db * m[:, :, None]) * r[:, :, None]).sum(0).reshape(gamma.shape)
        if mask[2]:
            dbeta = db.sum(0).reshape(c)
    return dx, dgamma, dbeta
