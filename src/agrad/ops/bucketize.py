"""searchsorted and bucketize (ATen's BucketizationUtils.h and Bucketization.cpp): int64 (or
int32) positions, no gradient.

The search is ATen's binary search, vectorised: for ``side='left'`` a position moves right while
``not (boundary >= value)``, for ``'right'`` while ``not (boundary > value)`` — so a NaN value
lands past the end, and a NaN boundary is passed over.  Boundaries and values are compared in
their common dtype (a Python number is a wrapped number).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from .._warn_once import warn_once
from ..tensor import Tensor, _scalar_name
from ._op import export, finish_out


def _sizes(t) -> str:
    return "[" + ", ".join(str(s) for s in t.shape) + "]"


def _non_contiguous(t, what):
    if not t.is_contiguous():
        warn_once(f"torch.searchsorted(): {what} tensor is non-contiguous, this will lower the performance due "
                  "to extra data copy when converting non-contiguous tensor to contiguous, please use contiguous "
                  f"{what} tensor if possible. This message will only appear once per program.", UserWarning)


def _search(boundaries, values, out_int32, right, side, sorter, out):
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side != "right":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side "
                               f"of {side} while right was True")
    if sorter is not None:
        if sorter.shape != boundaries.shape:
            raise RuntimeError("torch.searchsorted(): boundary and sorter must have the same size, but got boundary "
                               f"tensor {_sizes(boundaries)}and got sorter tensor {_sizes(sorter)}")
        if sorter.dtype is not dtypes.int64:
            raise RuntimeError("torch.searchsorted(): sorter must be a tensor of long dtype but got dtype "
                               + _scalar_name(sorter.dtype))
        srt = sorter._data
        if srt.size and (int(srt.max()) >= boundaries.shape[-1] or int(srt.min()) < 0):
            raise RuntimeError("torch.searchsorted(): sorter index out of range")
    if not (values.ndim > 0 or (values.numel() == 1 and boundaries.ndim == 1)):
        raise RuntimeError("torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension "
                           f"is 1, but we got boundaries tensor dim({boundaries.ndim}) and input value's "
                           f"dim({values.ndim}) numel({values.numel()})")
    if boundaries.ndim == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension")
    if boundaries.ndim != 1 and (boundaries.ndim != values.ndim or boundaries.shape[:-1] != values.shape[:-1]):
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions "
                           "of boundaries tensor and input value tensor must match, but we got boundaries tensor "
                           f"{_sizes(boundaries)} and input value tensor {_sizes(values)}")
    result_dtype = dtypes.int32 if out_int32 else dtypes.int64
    if out is not None and out.dtype is not result_dtype:
        raise RuntimeError(
            "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or Long(int64) depending "
            f"on whether out_int32 flag is True, but we got output tensor's dtype {_scalar_name(out.dtype)} and "
            f"out_int32 flag is {out_int32}")
    if values.numel() == 0 or boundaries.shape[-1] == 0:  # (no boundaries: every position is 0)
        return finish_out("searchsorted", Tensor._make(np.zeros(values.shape, result_dtype.numpy)), out)
    is_right = side == "right" or right
    _non_contiguous(values, "input value")
    _non_contiguous(boundaries, "boundary")
    if sorter is not None:
        _non_contiguous(sorter, "sorter")
    common = dtypes.result_type(boundaries, values) if values.dtype is not boundaries.dtype else values.dtype
    if common is dtypes.bool_:
        raise NotImplementedError("\"searchsorted_out_cpu\" not implemented for 'Bool'")
    bd = boundaries._data.astype(common.numpy, copy=False)
    n = bd.shape[-1]
    bd = bd.reshape(-1, n)
    v = np.asarray(values._data, common.numpy).reshape(bd.shape[0] if boundaries.ndim > 1 else 1, -1)
    order = None if sorter is None else sorter._data.reshape(-1, n)
    rows = np.arange(v.shape[0])[:, None]
    start = np.zeros(v.shape, np.int64)
    end = np.full(v.shape, n, np.int64)
    with np.errstate(invalid="ignore"):
        while True:
            active = start < end
            if not active.any():
                break
            mid = (start + end) // 2
            at = np.minimum(mid, n - 1)
            if order is not None:
                at = order[rows, at]
            m = bd[rows, at]
            go_right = ~(m > v) if is_right else ~(m >= v)
            start = np.where(active & go_right, mid + 1, start)
            end = np.where(active & ~go_right, mid, end)
    return finish_out("searchsorted", Tensor._make(start.reshape(values.shape).astype(result_dtype.numpy)), out)


def _tensor(x, like):
    if isinstance(x, Tensor):
        return x
    # a Python number: a wrapped number (it takes part in the common dtype as one)
    d = dtypes.result_type(like, x)
    return Tensor._make(np.asarray(x, d.numpy))


@export()
def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None, out=None):
    """The index of each value of ``input`` in the last dim of ``sorted_sequence`` (left or right of ties)."""
    return _search(sorted_sequence, _tensor(input, sorted_sequence), bool(out_int32), bool(right), side, sorter, out)


@export()
def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    """searchsorted(boundaries, input, right=right) with 1-D ``boundaries``."""
    if boundaries.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.ndim})")
    return _search(boundaries, _tensor(input, boundaries), bool(out_int32), bool(right), None, None, out)
