"""The differential tester's rule ``onednn-grouped-padding`` (tools/difftest.py, docs/semantics.md): a
channels-last float32 grouped or depthwise convolution (plain layouts: agrad follows oneDNN's kernel choice,
src/agrad/ops/_conv_groups.py) that PyTorch hands to oneDNN runs a direct kernel
(``jit:avx2``, ``jit_dw:avx2``) or a gemm one (``x64:gemm:jit``) by oneDNN's own heuristics; the
direct kernels never read the padding, so an inf or NaN weight times a padded zero adds nothing
there, where the gemm kernel's (and agrad's) im2col sum is NaN. The rule replays the statement under
PyTorch, takes the convolution's arguments, and accepts the difference when PyTorch's result is NaN
exactly where the padding-free sum is (computed here in float64) and agrees with agrad's elsewhere."""

from __future__ import annotations

import difftest_watch

#: the statements' names of the op
CONV_OPS = {"conv1d", "conv2d", "conv3d"}


def _nan_sums(x, w, stride, padding, dilation, groups):
    """Where the float64 sums are NaN: over the taps that read the input only (the direct kernels'),
    and over all taps, padded zeros included (the gemm kernel's and agrad's)."""
    import numpy as np

    from agrad.ops.convolution import _valid_cols, blocks, im2col_np

    sp = x.ndim - 2
    pads = tuple((p, p) for p in padding)
    k = w.shape[2:]
    o = blocks(x.shape[2:], k, dilation, pads, stride)
    n, g = x.shape[0], groups
    cols = im2col_np(x, k, dilation, pads, stride, o).reshape(n, g, -1, int(np.prod(o)))
    valid = _valid_cols(x, k, dilation, pads, stride, o).reshape(g, 1, -1, int(np.prod(o)))
    wg = w.reshape(g, w.shape[0] // g, -1)
    with np.errstate(all="ignore"):
        prod = wg[None, :, :, :, None] * cols[:, :, None, :, :]
        direct = np.where(valid[None], prod, 0).sum(axis=3)
        gemm = prod.sum(axis=3)
    shape = (n, w.shape[0]) + tuple(o)
    return np.isnan(direct.reshape(shape)), np.isnan(gemm.reshape(shape))


def _channels_last(t, torch) -> bool:
    """Whether a 4-d or 5-d tensor is laid out channels-last (and not also contiguous)."""
    fmt = {4: torch.channels_last, 5: torch.channels_last_3d}.get(t.dim())
    return fmt is not None and t.is_contiguous(memory_format=fmt) and not t.is_contiguous()


def padding_free_explains(lines: list[str], i: int, stmt: str, want: dict, got: dict, agree_once) -> bool:
    """True when statement ``i`` calls one grouped (groups > 1) float32 convolution with padding and a
    non-finite weight, the one variable that differs is the tensor it assigns, PyTorch's value is NaN
    exactly where the padding-free sum is, agrad's where the sum with the padded zeros is, and the two
    are within 1e-5 (relative past 1) where neither is NaN."""
    import numpy as np
    import torch
    import torch.nn.functional as F

    mine = difftest_watch.assigned_tensor(stmt, want)
    if mine is None or mine["dtype"] != "torch.float32":
        return False
    seen = []

    def watcher(fn, sp):
        def watch(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
            seen.append((input, weight, stride, padding, dilation, groups, sp))
            return fn(input, weight, bias, stride, padding, dilation, groups)
        return watch

    patches = []
    for sp, name in ((1, "conv1d"), (2, "conv2d"), (3, "conv3d")):
        fn = getattr(torch, name)
        patches += [(torch, name, watcher(fn, sp)), (F, name, watcher(fn, sp))]
    difftest_watch.replay(lines, i, patches)
    if len(seen) != 1:
        return False
    x, w, stride, padding, dilation, groups, sp = seen[0]
    if groups < 2 or isinstance(padding, str) or x.dtype != torch.float32 or bool(torch.isfinite(w).all()):
        return False
    if not any(_channels_last(t, torch) for t in (x, w)):  # (plain layouts: agrad names the kernel, _conv_groups)
        return False

    def tup(v):
        return tuple(v) if isinstance(v, (tuple, list)) else (v,) * sp
    stride, padding, dilation = tup(stride), tup(padding), tup(dilation)
    if not any(padding):
        return False
    xa = x.detach().double().numpy()
    unbatched = xa.ndim == sp + 1
    nan, gemm = _nan_sums(xa[None] if unbatched else xa, w.detach().double().numpy(), stride, padding, dilation,
                          groups)
    nan, gemm = (nan[0], gemm[0]) if unbatched else (nan, gemm)

    def neutral(wd, gd):
        if wd is not mine or gd["kind"] != "tensor" or gd["dtype"] != wd["dtype"] or gd["shape"] != wd["shape"]:
            return None
        a, b = np.asarray(wd["data"], np.float64), np.asarray(gd["data"], np.float64)
        if a.shape != nan.shape or not (np.isnan(a) == nan).all() or not (np.isnan(b) == gemm).all():
            return None
        rest = ~np.isnan(a) & ~np.isnan(b)
        close = (a[rest] == b[rest]) | (np.abs(a[rest] - b[rest]) <= 1e-5 * np.maximum(1.0, np.abs(a[rest])))
        return (wd, dict(gd, data=wd["data"], repr=wd["repr"])) if close.all() else None
    return agree_once(want, got, neutral)
