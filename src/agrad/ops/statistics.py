"""cov and corrcoef: ATen's composites (Correlation.cpp), so their graphs are PyTorch's.

``cov``: the input viewed as (variables, observations) (ViewBackward0 for a 1-D input), the
weighted mean ``(in * w).sum(1) / w.sum()`` (``in.sum(1) / n`` unweighted, n a 0-d int64 tensor),
``in - avg.unsqueeze(1)``, ``mm(in, (in * w).t())`` divided by the normalization factor
(``w_sum - correction``, or ``w_sum - correction * (w * aweights).sum() / w_sum``; 0 with a
warning when not positive), squeezed.  ``corrcoef``: cov divided by the square roots of its
diagonal along rows and columns, clipped to [-1, 1] (``c / c`` for a single variable).
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name
from ._op import Op, export, is_recording as _is_recording
from ._return_types import return_type as _return_type
from .._warn_once import warn as _warn

def _histogram_dtype(i, result, out):
    from ._op import _C_TYPE

    which = ("hist", "bin_edges")[i]
    return RuntimeError(f"torch.histogram: input tensor and {which} tensor should have the same dtype, but got "
                        f"input {_C_TYPE[result.dtype.name]} and {which} {_C_TYPE[out.dtype.name]}"
                        + (" for dimension 0" if i else ""))


_DOF = ("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
        "observations.")


def _check_weights(w, name, num_observations, integral):
    if w.ndim > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got {name} with "
                           f"{w.ndim} dimensions")
    ok = (not w.dtype.is_floating_point and w.dtype is not dtypes.bool_) if integral else w.dtype.is_floating_point
    if not ok:
        kind = "integral" if integral else "floating point"
        raise RuntimeError(f"cov(): expected {name} to have {kind} dtype but got {name} with "
                           f"{_scalar_name(w.dtype)} dtype")
    if w.numel() != num_observations:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are observations in the input "
                           f"but got {w.numel()} != {num_observations}")
    if num_observations != 0 and not bool(w.min() >= 0):
        raise RuntimeError(f"cov(): {name} cannot be negative")


@export(method=True)
def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables (rows) of ``input`` over its observations (columns)."""
    from .factories import tensor
    from .linalg import mm
    from .nn import mul_scalar, sub_scalar

    if input.ndim > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.ndim} dimensions")
    if input.dtype is dtypes.bool_:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input.view(1, -1) if input.ndim < 2 else input
    n = x.shape[1]
    w = None
    if fweights is not None:
        _check_weights(fweights, "fweights", n, True)
        w = fweights
    if aweights is not None:
        _check_weights(aweights, "aweights", n, False)
        w = aweights if w is None else w * aweights
    w_sum = w.sum() if w is not None else tensor(n, dtype=dtypes.int64)
    if w is not None and not bool(w_sum != 0):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x * w if w is not None else x).sum(1) / w_sum
    if w is None:
        norm = tensor(n - correction, dtype=dtypes.int64)
    elif correction == 0:
        norm = w_sum
    elif aweights is None:
        norm = sub_scalar(w_sum, correction)
    elif fweights is None and n == 1 and correction == 1:  # (ATen's corner case, as numpy)
        norm = tensor(0, dtype=dtypes.int64)
    else:
        norm = w_sum - mul_scalar((w * aweights).sum(), correction) / w_sum
    if bool(norm <= 0):
        _warn(_DOF, UserWarning)
        norm.zero_()
    if n == 1 and (fweights is None) != (aweights is None):
        x.zero_()  # (ATen zeroes the input itself: the weighted mean of one observation is it)
        if not x.dtype.is_floating_point:
            x = x.float()
    else:
        x = x - avg.unsqueeze(1)
    c = mm(x, (x * w if w is not None else x).t())
    return c.true_divide(norm).squeeze()


@export(method=True)
def corrcoef(input):
    """Pearson's correlation coefficients of the variables (rows) of ``input``."""
    if input.ndim > 2:
        raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.ndim} dimensions")
    c = cov(input)
    if c.ndim == 0:
        return c / c
    stddev = c.diagonal().sqrt()
    c = c / stddev.view(-1, 1)
    c = c / stddev.view(1, -1)
    return c.clip(-1, 1)


# histc / histogram ---------------------------------------------------------------------------------
# ATen's Histogram.cpp: the outer edges (given, or the input's aminmax), linspace'd bin edges in the
# input's dtype, then its CPU kernel: each element inside [edges[0], edges[-1]] (NaN is not) goes to
# the bin ``(x - lo) * bins / (hi - lo)`` (in the input's dtype, truncated; torch.histogram checks
# the neighbouring edges too) or, for given edges, to ``upper_bound(edges, x) - 1``; the last bin
# keeps its right edge.  The weights (or ones) are added in order.

HistogramResult = _return_type("histogram", ("hist", "bin_edges"))
_histogram_node = Op("torch::autograd::NotImplemented", lambda ctx, *arrays, value: value, inputs=(),
                     outputs=None, jvp="unsupported", internal=True)


@_histogram_node.derivative
def _(ctx, grad):
    raise RuntimeError("derivative for aten::histogram is not implemented")


def _fmt(v):
    """A double as C++'s ostream prints it (a NaN's sign shown: aminmax's is its kernel's)."""
    if math.isnan(v):
        return "-nan" if math.copysign(1.0, v) < 0 else "nan"
    return f"{v:g}"


def _bin_of(a, edges, search, local):
    """Each element's bin (-1 where it is skipped), as the kernel picks it."""
    t = a.dtype.type
    n_edges = edges.shape[0]
    lo, hi = edges[0], edges[-1]
    inside = (a >= lo) & (a <= hi)
    with np.errstate(all="ignore"):
        if search:
            pos = np.searchsorted(edges, a, side="right").astype(np.int64) - 1
        else:
            scaled = ((a - lo) * t(n_edges - 1)) / (hi - lo)
            pos = np.where(inside, np.nan_to_num(scaled), 0).astype(np.int64)
            if local:
                for i in np.flatnonzero(inside):
                    first, last = max(0, pos[i] - 1), min(pos[i] + 2, n_edges)
                    pos[i] = first + np.searchsorted(edges[first:last], a[i], side="right") - 1
    pos = np.where(pos == n_edges - 1, pos - 1, pos)
    return np.where(inside, pos, -1)


def _histogram_kernel(a, edges, weight, search, local):
    pos = _bin_of(a, edges, search, local)
    return threaded_sums(pos, weight if weight is not None else np.ones(a.shape[0], a.dtype), edges.shape[0] - 1, 200)


def threaded_sums(pos, w, bins, grain):
    """The kernel's sums of the weights ``w`` into ``bins`` bins at ``pos`` (-1: skipped): the elements
    split as at::parallel_for splits them (``get_num_threads()`` chunks once there are more than
    ``grain``), each chunk's histogram added up in order, then the chunks' histograms summed."""
    from ..settings import get_num_threads

    m = pos.shape[0]
    tasks = min(get_num_threads(), -(-m // grain)) if m > grain else 1
    chunk = -(-m // tasks) if m else 1
    total = None
    for start in range(0, max(m, 1), chunk):
        part = np.zeros(bins, w.dtype)
        p, v = pos[start:start + chunk], w[start:start + chunk]
        keep = p >= 0
        np.add.at(part, p[keep], v[keep])
        total = part if total is None else total + part
    return total


def _check_bins(bins):
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")


def _histc_widen(v, dtype):
    """histc's range around a single value: one below and one above it; for a float or double input,
    an end that rounds back onto the value in the input's type is the next representable number
    instead (so a large value, or a lone -inf, still gets a range: [-inf, -3.40282e+38])."""
    lo, hi = v - 1, v + 1
    if not dtype.is_floating_point:  # (the ends are converted to the input's type, checked: uint8's -1)
        dtypes.checked_scalar(lo, dtype.numpy)
        dtypes.checked_scalar(hi, dtype.numpy)
    if dtype in (dtypes.float32, dtypes.float64):
        t = dtype.numpy.type
        if t(lo) == t(v):
            lo = float(np.nextafter(t(v), t(-math.inf)))
        if t(hi) == t(v):
            hi = float(np.nextafter(t(v), t(math.inf)))
    return lo, hi


@export(method=True)
def histc(input, bins=100, min=0, max=0, *, out=None):
    """Counts of the input's elements in ``bins`` equal bins between ``min`` and ``max`` (the input's
    smallest and largest element when they are equal)."""
    from .factories import linspace
    from ._op import finish_out
    from ._outs import _C_TYPE

    if out is not None and out.dtype is not input.dtype:  # (histogram_histc_out's first check)
        raise RuntimeError(f"torch.histogram: input tensor and hist tensor should have the same dtype, but got input "
                           f"{_C_TYPE[input.dtype.name]} and hist {_C_TYPE[out.dtype.name]}")
    bins = int(bins)
    _check_bins(bins)
    lo, hi = float(min), float(max)
    if lo == hi and input.numel() > 0:
        lo, hi = (float(v) for v in input.detach().aminmax())
    if lo == hi:
        lo, hi = _histc_widen(lo, input.dtype)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise RuntimeError(f"torch.histc: range of [{_fmt(lo)}, {_fmt(hi)}] is not finite")
    if not lo < hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    edges = linspace(lo, hi, bins + 1, dtype=input.dtype)._data
    if input.dtype not in (dtypes.float32, dtypes.float64, dtypes.float16):
        if out is not None and tuple(out.shape) != (bins,):  # (histogramdd_prepare_out resized it first)
            from ._outs import _resize_out, warn_resized
            if out.numel():
                warn_resized(out.shape, (bins,))
            _resize_out(out, np.empty(bins, out._data.dtype))
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{_scalar_name(input.dtype)}'")
    hist = _histogram_kernel(input._data.reshape(-1), edges, None, False, False)
    return finish_out("histc", Tensor._make(hist), out)


@export(method=True)
def histogram(input, bins=100, *, range=None, weight=None, density=False, out=None):
    """The histogram of the input's elements: ``bins`` equal bins over ``range`` (or the data's), or
    the bins between the given edges; the bins' weights summed, or a density.  ATen's order of checks:
    for edges given, the edges' and the weight's (histogramdd_check_inputs) before the outs'
    (histogramdd_prepare_out: their dtypes, the bin count, then the outs resized); for a bin count,
    the outs' first, then the outer edges', then the weight's."""
    from .factories import linspace
    from ._op import write_outs

    outs = _histogram_outs(out, (input, bins, weight))
    flat = input.reshape(input.numel(), 1)
    if isinstance(bins, Tensor):
        check_edges(input.dtype, bins, 0)
        _check_weight(flat, input, weight)
        _prepare_outs(input.dtype, bins.numel() - 1, outs)
        edges = bins._data.copy()
        search, local = True, False
    else:
        bins = int(bins)
        _prepare_outs(input.dtype, bins, outs)
        lo, hi = 0.0, 1.0
        if range is not None:
            if len(range) != 2:
                raise RuntimeError("torch.histogramdd: for a 1-dimensional histogram range should have 2 elements, "
                                   f"but got {len(range)}")
            lo, hi = float(range[0]), float(range[1])
        elif input.numel() > 0:  # (the edges from the data: float and double only)
            if input.dtype not in (dtypes.float32, dtypes.float64):
                raise NotImplementedError(f"\"histogramdd\" not implemented for '{_scalar_name(input.dtype)}'")
            lo, hi = (float(v) for v in flat.detach().aminmax(dim=0))
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise RuntimeError(f"torch.histogramdd: dimension 0's range [{_fmt(lo)}, {_fmt(hi)}] is not finite")
        if not lo <= hi:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {_fmt(lo)} max {_fmt(hi)} "
                               "for dimension 0")
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges = linspace(lo, hi, bins + 1, dtype=input.dtype)._data
        _check_weight(flat, input, weight)
        search, local = False, True
    if input.dtype not in (dtypes.float32, dtypes.float64, dtypes.float16):
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{_scalar_name(input.dtype)}'")
    w = weight._data.reshape(-1) if weight is not None else None
    hist = _histogram_kernel(input._data.reshape(-1), edges, w, search, local)
    if density:  # (hist.div_(hist.sum().item()), then by the bin lengths: in the dtype's own sum and divisions)
        h = Tensor._make(hist)
        hist = ((h / h.sum().item()) / Tensor._make(edges).diff())._data
    grads = [t for t in (input, weight) if t is not None and t._requires_grad]
    if grads and _is_recording(grads):
        r, e = _histogram_node.apply(tuple(grads), [t._data for t in grads], {"value": (hist, edges)})
        result = HistogramResult(r, e)
    else:
        result = HistogramResult(Tensor._make(hist), Tensor._make(edges))
    return result if outs is None else write_outs("histogram", result, outs)


def _histogram_outs(out, tensors):
    """``out=``'s two tensors (the argument parser's length check), and autograd's fallback refusing
    one before the kernel runs (``tensors``: the inputs, :func:`_outs.fallback_refusal`)."""
    if out is None:
        return None
    from ._outs import fallback_refusal

    outs = tuple(out)
    if len(outs) != 2:
        raise TypeError("histogram(): argument 'out' must be tuple of Tensors of length 2")
    fallback_refusal("histogram", tensors, outs)
    return outs


def _prepare_outs(dtype, bins, outs):
    """histogramdd_prepare_out: hist's dtype, bin_edges' dtype, the bin count, then bin_edges and hist
    resized (resize_output, with its warning); without outs the bin count only."""
    if outs is not None:
        from ._outs import _resize_out, warn_resized

        for i, o in enumerate(outs[:2]):
            if o.dtype is not dtype:
                raise _histogram_dtype(i, Tensor._make(np.empty(0, dtype.numpy)), o)
    _check_bins(bins)
    if outs is not None:
        for o, shape in ((outs[1], (bins + 1,)), (outs[0], (bins,))):
            if o.shape != shape:
                if o._data.size:
                    warn_resized(o.shape, shape)
                _resize_out(o, np.empty(shape, o._data.dtype))


def check_edges(input_dtype, b, dim):
    """histogramdd_check_inputs on the bin edges of dimension ``dim`` (torch.histogram's too)."""
    if b.dtype is not input_dtype:
        raise RuntimeError("torch.histogramdd: input tensor and bins tensors should have the same dtype, but got "
                           f"input with dtype {_c_name(input_dtype)} and bins for dimension {dim} with dtype "
                           f"{_c_name(b.dtype)}")
    if b.ndim != 1:
        raise RuntimeError("torch.histogramdd: bins tensor should have one dimension, but got "
                           f"{b.ndim} dimensions in the bins tensor for dimension {dim}")
    if b.numel() == 0:
        raise RuntimeError("torch.histogramdd: bins tensor should have at least 1 element, but got 0 elements "
                           f"in the bins tensor for dimension {dim}")


def _c_name(dtype):
    """ATen's dtype name in messages (``float``, ``double``)."""
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
            "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
            "uint8": "unsigned char", "bool": "bool"}.get(dtype.name, dtype.name)


def _check_weight(flat, input, weight):
    if weight is None:
        return
    if weight.dtype is not input.dtype:
        raise RuntimeError("torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should have "
                           f"the same dtype, but got input({_c_name(input.dtype)}), and weight({_c_name(weight.dtype)})")
    if weight.numel() != flat.shape[0]:
        raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have the same shape as the input "
                           f"tensor excluding its innermost dimension, but got input with shape {list(flat.shape)} and "
                           f"weight with shape [{weight.numel()}]")
