"""torch.histogramdd: ATen's Histogram.cpp and its CPU kernel (HistogramKernel.cpp) for D dimensions.

The input is read as (M, D) rows (its last dimension the D coordinates; at least 2 dimensions).
``bins`` an int (each dimension) or D ints: ``_histogramdd_bin_edges`` (the outer edges from
``range``, else the input's aminmax over the rows, a zero-width range widened by 0.5 each side, then
``linspace`` in the input's dtype) and ``_histogramdd_from_bin_cts`` (the same edges again, the
checks, and the kernel's linear interpolation with its local search); D tensors of edges:
``_histogramdd_from_bin_tensors`` (a binary search), and the result's ``bin_edges`` are those very
tensors.  A row counts when each coordinate lies inside its outer edges (the last bin keeps its right
edge); its weight (or 1) is added to its bin.  Rows are split as ``at::parallel_for`` splits them
(grain 200 / D, ``get_num_threads()`` chunks), each chunk's histogram accumulated in order, then the
chunks' histograms summed.  ``density``: divided by the histogram's sum, then by each dimension's
bin lengths.  An input or weight that requires grad gives NotImplemented nodes (the bin edges' one
node with D outputs, then the histogram's).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name
from ._op import Op, export, is_recording
from ._return_types import return_type
from .statistics import _bin_of, _c_name, _fmt, check_edges, threaded_sums

HistogramddResult = return_type("histogramdd", ("hist", "bin_edges"))
_GRAIN = 200  # HISTOGRAM_GRAIN_SIZE

_nodes = Op("torch::autograd::NotImplemented", lambda ctx, *arrays, value, aten: value, inputs=(), outputs=None,
            jvp="unsupported", internal=True)


@_nodes.derivative
def _(ctx, grad):
    raise RuntimeError(f"derivative for {ctx.aten} is not implemented")


_nodes._multi = True


def _recorded(values, tensors, aten):
    """Tensors of the arrays ``values`` as results of ``aten`` on ``tensors`` (a NotImplemented node
    when one requires grad)."""
    inputs = tuple(t for t in tensors if t is not None and t._requires_grad)
    if not is_recording(inputs):
        return tuple(Tensor._make(v) for v in values)
    out = _nodes.apply(inputs, [t._data for t in inputs], {"value": tuple(values), "aten": aten})
    return out if type(out) is tuple else (out,)


def _check_inputs(x, bins, weight):
    """histogramdd_check_inputs (bins: D arrays-or-tensors of edges, their dtypes)."""
    if x.ndim < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    n = x.shape[-1]
    if len(bins) != n:
        raise RuntimeError(f"torch.histogramdd: expected {n} sequences of bin edges for a {n}-dimensional histogram "
                           f"but got {len(bins)}")
    for dim, b in enumerate(bins):
        check_edges(x.dtype, b, dim)
    if weight is not None:
        if weight.dtype is not x.dtype:
            raise RuntimeError("torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should "
                               f"have the same dtype, but got input({_c_name(x.dtype)}), and weight("
                               f"{_c_name(weight.dtype)})")
        if list(x.shape[:-1]) != (list(weight.shape) or [1]):
            raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have the same shape as the "
                               "input tensor excluding its innermost dimension, but got input with shape "
                               f"{list(x.shape)} and weight with shape {list(weight.shape)}")
    for dim, b in enumerate(bins):  # (histogramdd_prepare_out)
        if b.numel() - 1 <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {b.numel() - 1} for dimension {dim}")


def _outer_edges(rows, range):
    """select_outer_bin_edges: each dimension's leftmost and rightmost edge (doubles)."""
    n = rows.shape[-1]
    lo, hi = [0.0] * n, [1.0] * n
    if range is not None:
        range = list(range)
        if len(range) != 2 * n:
            raise RuntimeError(f"torch.histogramdd: for a {n}-dimensional histogram range should have {2 * n} "
                               f"elements, but got {len(range)}")
        lo, hi = [float(v) for v in range[0::2]], [float(v) for v in range[1::2]]
    elif rows.numel() > 0:
        if rows.dtype not in (dtypes.float32, dtypes.float64):
            raise NotImplementedError(f"\"histogramdd\" not implemented for '{_scalar_name(rows.dtype)}'")
        mn, mx = rows.detach().aminmax(dim=0)
        lo, hi = [float(v) for v in mn._data], [float(v) for v in mx._data]
    for dim in builtins_range(n):
        if not (math.isfinite(lo[dim]) and math.isfinite(hi[dim])):
            raise RuntimeError(f"torch.histogramdd: dimension {dim}'s range [{_fmt(lo[dim])}, {_fmt(hi[dim])}] is "
                               "not finite")
        if not lo[dim] <= hi[dim]:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {_fmt(lo[dim])} max "
                               f"{_fmt(hi[dim])} for dimension {dim}")
        if lo[dim] == hi[dim]:
            lo[dim], hi[dim] = lo[dim] - 0.5, hi[dim] + 0.5
    return lo, hi


builtins_range = range


def _bin_edges(x, counts, range):
    """_histogramdd_bin_edges: linspace'd edges per dimension, in the input's dtype."""
    from .factories import linspace

    if x.ndim < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    rows = x.reshape(-1, x.shape[-1])
    lo, hi = _outer_edges(rows, range)
    if len(counts) != x.shape[-1]:
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost dimension of the input.")
    return [linspace(lo[d], hi[d], counts[d] + 1, dtype=x.dtype) for d in builtins_range(len(counts))]


def _kernel(x, edges, weight, density, search):
    """histogramdd_cpu_contiguous over the (M, D) rows, then density's divisions."""
    if x.dtype not in (dtypes.float32, dtypes.float64, dtypes.float16):
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{_scalar_name(x.dtype)}'")
    d = x.shape[-1]
    rows = np.asarray(x._data).reshape(-1, d)
    m = rows.shape[0]
    shape = tuple(e.shape[0] - 1 for e in edges)
    strides = np.array([int(np.prod(shape[k + 1:], dtype=np.int64)) for k in builtins_range(d)], np.int64)
    index = np.zeros(m, np.int64)
    keep = np.ones(m, bool)
    for k in builtins_range(d):
        pos = _bin_of(np.ascontiguousarray(rows[:, k]), edges[k], search, not search)
        keep &= pos >= 0
        index += np.where(pos >= 0, pos, 0) * strides[k]
    w = np.ones(m, rows.dtype) if weight is None else np.asarray(weight._data).reshape(-1)
    total = threaded_sums(np.where(keep, index, -1), w, int(np.prod(shape, dtype=np.int64)), max(1, _GRAIN // d))
    hist = Tensor._make(total.reshape(shape))
    if density:
        hist = hist / hist.sum().item()
        for k in builtins_range(d):
            lengths = Tensor._make(edges[k]).diff()
            hist = hist / lengths.reshape([-1 if j == k else 1 for j in builtins_range(d)])
    return hist._data


def _int_bins(bins):
    if isinstance(bins, Tensor) and bins.ndim == 0 and not bins.dtype.is_floating_point:
        return int(bins)
    if isinstance(bins, numbers.Integral) and not isinstance(bins, bool):
        return int(bins)
    return None


@export()
def histogramdd(input, bins, range=None, weight=None, density=False):
    """The D-dimensional histogram of the rows of ``input`` (see the module)."""
    n = _int_bins(bins)
    if n is not None or (isinstance(bins, (list, tuple)) and all(_int_bins(b) is not None for b in bins)):
        if n is not None and input.ndim == 0:  # (torch.histogramdd's [bins] * input.size(-1))
            raise IndexError("Dimension specified as -1 but tensor has no dimensions")
        counts = [n] * input.shape[-1] if n is not None else [_int_bins(b) for b in bins]
        for c in counts:
            if c + 1 < 0:
                raise RuntimeError("number of steps must be non-negative")
        if not counts and input.ndim and input.shape[-1] == 0:  # (no dimension: a 0-d empty sum, no edges)
            h, = _recorded([np.zeros((), input._data.dtype)], (input, weight), "aten::_histogramdd_from_bin_cts")
            return HistogramddResult(h, ())
        edges_t = _bin_edges(input, counts, range)
        edges = _recorded([e._data for e in edges_t], (input, weight), "aten::_histogramdd_bin_edges")
        again = [e._data for e in _bin_edges(input, counts, range)]
        _check_inputs(input, [Tensor._make(e) for e in again], weight)
        hist = _kernel(input, again, weight, density, False)
        h, = _recorded([hist], (input, weight), "aten::_histogramdd_from_bin_cts")
        return HistogramddResult(h, tuple(edges))
    if isinstance(bins, (list, tuple)) and all(isinstance(b, Tensor) for b in bins):
        _check_inputs(input, list(bins), weight)
        hist = _kernel(input, [np.asarray(b._data).copy() for b in bins], weight, density, True)
        h, = _recorded([hist], (input, weight), "aten::_histogramdd_from_bin_tensors")
        return HistogramddResult(h, tuple(bins))
    if isinstance(bins, (list, tuple)):  # (neither ints nor Tensors: the parser's last overload, Tensor[], says why)
        i, first = next((i, b) for i, b in enumerate(bins) if not isinstance(b, Tensor))
        raise TypeError(f"expected Tensor as element {i} in argument 1, but got {type(first).__name__}")
    raise TypeError(_invalid(input, bins))


def _invalid(input, bins):
    got = ", ".join(type(a).__name__ if not isinstance(a, Tensor) else "Tensor" for a in (input, bins))
    return ("histogramdd() received an invalid combination of arguments - got (" + got + "), but expected one of:\n"
            " * (Tensor input, int bins, tuple of floats range = None, Tensor weight = None, bool density = False)\n"
            " * (Tensor input, tuple of ints bins, tuple of floats range = None, Tensor weight = None, bool density "
            "= False)\n"
            " * (Tensor input, tuple of Tensors bins, tuple of floats range = None, Tensor weight = None, bool "
            "density = False)\n")
