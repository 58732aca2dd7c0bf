"""The memory format of a convolution's result and of its backward's input and weight gradients
(ATen's determine_backend_memory_format, and the 1-D convolution's 2-D view)."""

from __future__ import annotations

import numpy as np

from ._layout import in_memory_format, suggest_memory_format, suggested_format, torch_strides


def _conv_format(x, w, geo):
    """determine_backend_memory_format: channels-last where the input or the weight suggests it, for the
    2-D backends (oneDNN's, the slow ones: float64 too); a 3-D convolution's only on oneDNN (float32: its
    slow float64 kernels are contiguous). A 1-D convolution runs as a 2-D one of its contiguous input
    (ATen's view4d, "avoid accidentally going through NHWC for permuted 3d input") and its weight
    unsqueezed at dim 2, so there the weight alone decides ("channels_last_1d": strides (C L, 1, C))."""
    if type(x) is not np.ndarray or type(w) is not np.ndarray:
        return None
    if x.ndim == 3 and w.ndim == 3:
        s = torch_strides(w)
        return "channels_last_1d" if suggest_memory_format(
            w.shape[:2] + (1,) + w.shape[2:], s[:2] + (w.shape[2] * s[2],) + s[2:]) else None
    fmt = suggested_format(x) or suggested_format(w)
    from .convolution import _uses_mkldnn
    if x.ndim == 5 and fmt and not _uses_mkldnn(x.dtype == np.float32, x.shape, w.shape, geo["stride"],
                                                 geo["dilation"], geo["transposed"], geo["output_padding"],
                                                 geo["groups"]):
        return None
    return fmt


def _fits(a, fmt):
    """Whether ``a`` is contiguous in the channels-last order ``fmt`` (dims of one element skipped)."""
    expected = a.itemsize
    for d in (1, 3, 2, 0) if fmt == "channels_last" else (1, 4, 3, 2, 0):
        if a.shape[d] != 1:
            if a.strides[d] != expected:
                return False
            expected *= a.shape[d]
    return True


def _in_format(out, fmt):
    if type(out) is not np.ndarray:
        return out
    if fmt == "channels_last_1d":
        return np.ascontiguousarray(out.transpose(0, 2, 1)).transpose(0, 2, 1) if out.ndim == 3 else out
    return in_memory_format(out, fmt) if fmt is None or out.ndim in (4, 5) else out


def in_conv_format(forward):
    """The forward's result in _conv_format's memory format."""
    def conv(ctx, x, w, b, **geo):
        return _in_format(forward(ctx, x, w, b, **geo), _conv_format(x, w, geo))

    return conv


def _on_onednn(x, w, geo):
    from .convolution import _uses_mkldnn
    return _uses_mkldnn(x.dtype == np.float32, x.shape, w.shape, geo["stride"], geo["dilation"], geo["transposed"],
                        geo["output_padding"], geo["groups"])


def backward_format(forward):
    """convolution_backward's input and weight gradients in the backend's memory format, as the forward's
    result."""
    def run(ctx, g, x, w, mask, bias_sizes, **geo):
        out = list(forward(ctx, g, x, w, mask, bias_sizes, **geo))
        fmt = _conv_format(x, w, geo)
        for i in (0, 1):
            if mask[i] and type(out[i]) is np.ndarray and out[i].ndim == x.ndim:
                if i == 1 and fmt in ("channels_last", "channels_last_3d") and _fits(out[1], fmt) \
                        and not _on_onednn(x, w, geo):
                    # (the slow kernels' weight gradient, already in that order but for dims of one, kept so;
                    # oneDNN's is allocated channels-last: c10's strides for those dims too)
                    continue
                out[i] = _in_format(out[i], fmt)
        return tuple(out)

    return run
