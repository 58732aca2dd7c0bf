"""Sorting and order statistics (PyTorch's "Comparison Ops", second half): sort, argsort,
msort, topk, median/nanmedian, kthvalue, mode, unique and bincount.

Their values and indices are PyTorch's, ties included (CPU topk's libstdc++ selection
and sorting are reproduced); sort, topk and the order statistics carry PyTorch's nodes
and formulas (derivatives.yaml), unique has none.
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..autograd import graph
from ..tensor import Tensor, _scalar_name, _wrap_dim, _wrap_dim_no_scalar
from ._layout import c_order, laid_out_like
from ._argcheck import passed_on
from ._op import Op, export, with_out, write_outs
from ._return_types import return_type as _return_type
from .indexing import scatter_into
from .reductions import _check_int_dim, _check_nonempty_dim, _even_split, _select_back, select_along

SortResult = _return_type("sort")
TopkResult = _return_type("topk")
MedianResult = _return_type("median")
NanmedianResult = _return_type("nanmedian")
KthvalueResult = _return_type("kthvalue")
ModeResult = _return_type("mode")

# sort / topk / argsort -------------------------------------------------------------------------------------
# PyTorch's CPU topk runs libstdc++'s nth_element / sort / partial_sort on (value, index)
# pairs; how they order tied values is part of the result, so they are reproduced here.

def _kthvalue_dtype(i, result, out):
    return RuntimeError("output values must be of same type as input" if i == 0 else
                        "output indices must be of scalar type Long")


def _mode_dtype(i, result, out):
    from ..tensor import _scalar_name

    return RuntimeError(f"expected scalar type '{_scalar_name(result.dtype)}' but got "
                        f"'{_scalar_name(out.dtype)}' for {'values' if i == 0 else 'indices'} output")


def _median_dtype(i, result, out):
    names = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
             "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool", "bfloat16": "BFloat16"}
    if i == 0:
        return RuntimeError(
            "Expected tensor for 'values' to have the same type as tensor for argument #2 'self'; but type "
            f"torch.{names[out.dtype.name]}Tensor does not equal torch.{names[result.dtype.name]}Tensor "
            "(while checking arguments for median)")
    return RuntimeError(f"Expected tensor for argument #1 'indices' to have scalar type Long; but got "
                        f"torch.{names[out.dtype.name]}Tensor instead (while checking arguments for median)")


def _lg(n):
    return n.bit_length() - 1


def _insertion_sort(v, first, last, comp):
    if first == last:
        return
    for i in range(first + 1, last):
        if comp(v[i], v[first]):
            val = v[i]
            v[first + 1:i + 1] = v[first:i]
            v[first] = val
        else:
            _unguarded_linear_insert(v, i, comp)


def _unguarded_linear_insert(v, last, comp):
    val = v[last]
    nxt = last - 1
    while comp(val, v[nxt]):
        v[last] = v[nxt]
        last = nxt
        nxt -= 1
    v[last] = val


def _move_median_to_first(v, result, a, b, c, comp):
    if comp(v[a], v[b]):
        if comp(v[b], v[c]):
            pick = b
        elif comp(v[a], v[c]):
            pick = c
        else:
            pick = a
    elif comp(v[a], v[c]):
        pick = a
    elif comp(v[b], v[c]):
        pick = c
    else:
        pick = b
    v[result], v[pick] = v[pick], v[result]


def _unguarded_partition(v, first, last, pivot, comp):
    while True:
        while comp(v[first], v[pivot]):
            first += 1
        last -= 1
        while comp(v[pivot], v[last]):
            last -= 1
        if not first < last:
            return first
        v[first], v[last] = v[last], v[first]
        first += 1


def _partition_pivot(v, first, last, comp):
    mid = first + (last - first) // 2
    _move_median_to_first(v, first, first + 1, mid, last - 1, comp)
    return _unguarded_partition(v, first + 1, last, first, comp)


def _adjust_heap(v, first, hole, length, value, comp):
    top = second = hole
    while second < (length - 1) // 2:
        second = 2 * (second + 1)
        if comp(v[first + second], v[first + second - 1]):
            second -= 1
        v[first + hole] = v[first + second]
        hole = second
    if length % 2 == 0 and second == (length - 2) // 2:
        second = 2 * (second + 1)
        v[first + hole] = v[first + second - 1]
        hole = second - 1
    parent = (hole - 1) // 2
    while hole > top and comp(v[first + parent], value):
        v[first + hole] = v[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    v[first + hole] = value


def _heap_select(v, first, middle, last, comp):
    length = middle - first
    if length >= 2:
        parent = (length - 2) // 2
        while True:
            _adjust_heap(v, first, parent, length, v[first + parent], comp)
            if parent == 0:
                break
            parent -= 1
    for i in range(middle, last):
        if comp(v[i], v[first]):
            value = v[i]
            v[i] = v[first]
            _adjust_heap(v, first, 0, length, value, comp)


def _partial_sort(v, first, middle, last, comp):
    _heap_select(v, first, middle, last, comp)
    while middle - first > 1:
        middle -= 1
        value = v[middle]
        v[middle] = v[first]
        _adjust_heap(v, first, 0, middle - first, value, comp)


def _std_sort(v, first, last, comp):
    if last - first < 2:
        return

    def loop(first, last, depth):
        while last - first > 16:
            if depth == 0:
                _partial_sort(v, first, last, last, comp)
                return
            depth -= 1
            cut = _partition_pivot(v, first, last, comp)
            loop(cut, last, depth)
            last = cut

    loop(first, last, _lg(last - first) * 2)
    if last - first > 16:
        _insertion_sort(v, first, first + 16, comp)
        for i in range(first + 16, last):
            _unguarded_linear_insert(v, i, comp)
    else:
        _insertion_sort(v, first, last, comp)


def _nth_element(v, first, nth, last, comp):
    if first == last or nth == last:
        return
    depth = _lg(last - first) * 2
    while last - first > 3:
        if depth == 0:
            _heap_select(v, first, nth + 1, last, comp)
            v[first], v[nth] = v[nth], v[first]
            return
        depth -= 1
        cut = _partition_pivot(v, first, last, comp)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(v, first, last, comp)


def _greater(x, y):
    return (x[0] != x[0] and y[0] == y[0]) or x[0] > y[0]


def _less(x, y):
    return (x[0] == x[0] and y[0] != y[0]) or x[0] < y[0]


def _topk_row(row, k, largest, is_sorted):
    """Indices of the top ``k`` of a 1-D array, in the order PyTorch's CPU kernel gives them."""
    n = row.size
    if k == 0:
        return np.zeros(0, np.int64)
    v = [(x, j) for j, x in enumerate(row.tolist())]
    comp = _greater if largest else _less
    if k * 64 <= n:
        _partial_sort(v, 0, k, n, comp)
    else:
        _nth_element(v, 0, k - 1, n, comp)
        if is_sorted:
            _std_sort(v, 0, k - 1, comp)
    return np.array([j for _, j in v[:k]], np.int64)


def _stable_argsort(a, descending=False, axis=-1):
    """Stable argsort with NaN as the largest value (PyTorch's order)."""
    if a.dtype == np.bool_:
        a = a.astype(np.int8)
    if not descending:
        return np.argsort(a, axis=axis, kind="stable")
    rev = np.flip(a, axis)
    n = a.shape[axis]
    return np.flip(n - 1 - np.argsort(rev, axis=axis, kind="stable"), axis)


def _argsort(a, descending, axis, stable):
    """PyTorch's CPU sort order: a stable sort, or (``stable`` False) libstdc++'s std::sort on
    (value, index) pairs, which moves tied values of rows longer than 16 (its introsort; up to 16
    it is an insertion sort, stable).  A 1-D integer tensor of 32768 or more elements sorted
    ascending takes the radix sort, stable."""
    order = _stable_argsort(a, descending, axis)
    n = a.shape[axis]
    if stable or n <= 16 or (a.ndim == 1 and n >= 32768 and a.dtype.kind in "iub" and not descending):
        return order
    keys = np.moveaxis(np.take_along_axis(a, order, axis), axis, -1)
    rows = keys.reshape(-1, n)
    nan = rows != rows
    tied = ((rows[:, 1:] == rows[:, :-1]) | (nan[:, 1:] & nan[:, :-1])).any(axis=1)
    if not tied.any():
        return order
    moved = np.moveaxis(order, axis, -1).copy()
    flat = moved.reshape(-1, n)
    values = np.moveaxis(a, axis, -1).reshape(-1, n)
    comp = _greater if descending else _less
    for r in np.flatnonzero(tied):
        v = [(x, j) for j, x in enumerate(values[r].tolist())]
        _std_sort(v, 0, n, comp)
        flat[r] = [j for _, j in v]
    return np.moveaxis(flat.reshape(moved.shape), -1, axis)


def _sort_fwd(ctx, a, dim, descending, stable=False):
    if a.ndim == 0:
        ctx.indices = np.zeros((), np.int64)
        return a.copy(), ctx.indices
    idx = laid_out_like(a, _argsort(a, descending, dim, stable).astype(np.int64))  # (values and indices
    ctx.indices = idx  # are laid out like the input, as PyTorch allocates them)
    return laid_out_like(a, np.take_along_axis(a, idx, axis=dim)), idx


def _sort_select_back(ctx, grad):
    # value_selecting_reduction_backward: each value's gradient goes back to where it came from
    return scatter_into(grad, ctx.input_shape, ctx.indices, ctx.dim)


_sort = Op("SortBackward0", _sort_fwd, outputs=1, keeps={"indices": "indices"}, kept_outputs={"indices": 1})
_sort.derivative(_sort_select_back)
_sort_stable = Op("SortBackward1", _sort_fwd, outputs=1, keeps={"indices": "indices"}, kept_outputs={"indices": 1})
_sort_stable.derivative(_sort_select_back)
_UNSET = object()


@export(method=True)
@with_out("sort")
def sort(input, dim=-1, descending=False, *, stable=_UNSET, out=None):
    """Sorted values and indices; ties in PyTorch's order (stable, or std::sort's: :func:`_argsort`)."""
    d = _wrap_dim(dim, input.ndim)
    op = _sort if stable is _UNSET else _sort_stable
    values, indices = op.apply((input,), (input._data,), {"dim": d, "descending": bool(descending),
                                                          "stable": bool(stable) and stable is not _UNSET})
    if out is not None:
        from ._out_alias import sorted_into_one
        one = sorted_into_one(input, d, descending, out)
        values, indices = (one, one) if one is not None else (values, indices)
    return SortResult(values, indices)


sort.__wrapped__.sees_out = True


@export(method=True)
def argsort(input, dim=-1, descending=False, *, stable=False):
    d = _wrap_dim(dim, input.ndim)
    if input.ndim == 0:
        return Tensor._make(np.zeros((), np.int64))
    a = input._data
    return Tensor._make(laid_out_like(a, _argsort(a, bool(descending), d, bool(stable)).astype(np.int64)))


@export(method=True)
@with_out("msort")
def msort(input, *, out=None):
    return sort(input, 0).values


def _topk_fwd(ctx, a, k, dim, largest, is_sorted):
    if a.ndim == 0:
        ctx.indices = np.zeros((), np.int64)
        return a.copy(), ctx.indices
    moved = np.moveaxis(a, dim, -1)
    rows = moved.reshape(math.prod(moved.shape[:-1]), moved.shape[-1])  # (-1 is ambiguous for an empty row)
    idx = np.zeros((rows.shape[0], k), np.int64)
    if k:
        # rows without ties have one answer when sorted: take it from a stable argsort at once
        fast = np.zeros(rows.shape[0], bool)
        if is_sorted and rows.shape[1]:
            srt = np.sort(rows.astype(np.int8) if rows.dtype == np.bool_ else rows, axis=-1)
            same = srt[:, 1:] == srt[:, :-1]
            if srt.dtype.kind == "f":
                same |= np.isnan(srt[:, 1:]) & np.isnan(srt[:, :-1])
            fast = ~same.any(-1)
            idx[fast] = _stable_argsort(rows[fast], descending=largest)[:, :k]
        for r in np.flatnonzero(~fast):
            idx[r] = _topk_row(rows[r], k, largest, is_sorted)
    # (topk's meta function allocates both results contiguous, whatever the input's layout)
    idx = c_order(np.moveaxis(idx.reshape(moved.shape[:-1] + (k,)), -1, dim))
    ctx.indices = idx
    return c_order(np.take_along_axis(a, idx, axis=dim)), idx


_topk = Op("TopkBackward0", _topk_fwd, outputs=1, keeps={"indices": "indices"}, kept_outputs={"indices": 1})
_topk.derivative(_sort_select_back)


@export(method=True)
@with_out("topk")
def topk(input, k, dim=-1, largest=True, sorted=True, *, out=None):
    d = _wrap_dim(dim, input.ndim)
    size = input._data.shape[d] if input.ndim else 1
    if k < 0 or k > size:
        raise RuntimeError("selected index k out of range")
    if input.dtype is dtypes.bool_:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    values, indices = _topk.apply((input,), (input._data,),
                                  {"k": int(k), "dim": d, "largest": bool(largest), "is_sorted": bool(sorted)})
    return TopkResult(values, indices)


# ---------------------------------------------------------------------------
# median / nanmedian / kthvalue / mode
# ---------------------------------------------------------------------------

def _median_full_fwd(ctx, a, ignore_nan):
    flat = a.reshape(-1)
    if flat.size == 0:
        # PyTorch fills NaN, converted as C converts it: INT_MIN for int32, 0 for int16, True for bool
        with np.errstate(invalid="ignore"):
            return np.asarray(np.nan).astype(a.dtype)
    size = flat.size
    if a.dtype.kind == "f":
        nan = np.isnan(flat)
        if nan.any():
            if not ignore_nan:
                return np.asarray(np.nan, a.dtype)
            size -= int(nan.sum())
            if size == 0:
                return np.asarray(np.nan, a.dtype)
    s = np.sort(flat)  # (NaN last)
    k = (size - 1) // 2
    if s[k] == 0 and a.dtype.kind == "f" and len(set(np.signbit(flat[flat == 0]).tolist())) == 2:
        # which zero: PyTorch's std::nth_element on a copy of the input (NaN the largest) decides, the
        # copy laid out as clone() lays it out (a transposed input keeps its memory order)
        from ._layout import dense_order
        order = dense_order(a)
        mem = flat if order is None else np.transpose(a, order).reshape(-1)
        v = [(x, j) for j, x in enumerate(mem.tolist())]
        _nth_element(v, 0, k, len(v), _less)
        return np.asarray(mem[v[k][1]])
    return np.asarray(s[k])


_median0 = Op("MedianBackward0", _median_full_fwd, saves=("self", "result"))
_nanmedian0 = Op("NanmedianBackward0", _median_full_fwd, saves=("self", "result"))
_median0.derivative(_even_split)
_nanmedian0.derivative(_even_split)


def _median_dim_fwd(ctx, a, dim, keepdim, ignore_nan, fname):
    _check_nonempty_dim("median", a, dim)  # (nanmedian's message names median too)
    if a.ndim == 0:
        idx = np.zeros((), np.int64)
        ctx.indices = idx
        return a.copy(), idx
    moved = np.moveaxis(a, dim, -1)
    n = moved.shape[-1]
    order = np.argsort(moved, axis=-1, kind="stable")  # ties by index; NaN last
    if a.dtype.kind == "f":
        nan = np.isnan(moved)
        n_nan = nan.sum(-1)
    else:
        nan = None
        n_nan = np.zeros(moved.shape[:-1], np.int64)
    if ignore_nan:
        m = n - n_nan
        pos = np.where(m > 0, (m - 1) // 2, 0)
    else:
        pos = np.full(moved.shape[:-1], (n - 1) // 2)
    idx = np.take_along_axis(order, pos[..., None], axis=-1)[..., 0]
    if not ignore_nan and nan is not None:
        idx = np.where(n_nan > 0, np.argmax(nan, axis=-1), idx)
    elif ignore_nan and (m == 0).any():
        # a row of NaNs only: ATen's std::nth_element (its NaNs all equivalent) leaves one at the front
        v = list(range(n))
        _nth_element(v, 0, 0, n, lambda x, y: False)
        idx = np.where(m == 0, v[0], idx)
    return select_along(ctx, a, np.expand_dims(idx, dim), dim, keepdim)


_median1, _nanmedian1 = (Op(name, _median_dim_fwd, outputs=1, keeps={"indices": "indices"}, kept_outputs={"indices": 1},
                            contiguous=True) for name in ("MedianBackward1", "NanmedianBackward1"))
_median1.derivative(_select_back)
_nanmedian1.derivative(_select_back)


class _NoKeepdim:  # keepdim not given (x.median(keepdim=True) has no overload without dim)
    def __repr__(self):
        return "False"


_NO_KEEPDIM = _NoKeepdim()


def _median_family(full_op, dim_op, fname, ignore_nan, result_type):
    def fn(input, dim=None, keepdim=_NO_KEEPDIM, *, out=None):
        if dim is None:
            if keepdim is not _NO_KEEPDIM:  # only the dim overload has keepdim: PyTorch's parser error
                raise TypeError(f'{fname}() missing 1 required positional arguments: "dim"')
            if input.dtype is dtypes.bool_ and input.numel():
                raise NotImplementedError('"median_cpu" not implemented for \'Bool\'')
            if out is not None:  # (the full overload has no out=: PyTorch's parser asks for the dim)
                raise TypeError(f'{fname}() missing 1 required positional arguments: "dim"')
            return full_op.apply((input,), (input._data,), {"ignore_nan": ignore_nan})
        _check_int_dim(fname, dim)
        keepdim = False if keepdim is _NO_KEEPDIM else keepdim
        d = _wrap_dim(dim, input.ndim)
        if input.dtype is dtypes.bool_:  # (after ATen's zero_numel_check_dims)
            _check_nonempty_dim("median", input._data, d)
            raise NotImplementedError('"median_out" not implemented for \'Bool\'')
        vals, idx = dim_op.apply((input,), (input._data,), {"dim": d, "keepdim": bool(keepdim),
                                                             "ignore_nan": ignore_nan, "fname": fname})
        result = result_type(vals, idx)
        return result if out is None else write_outs(fname, result, out, _median_dtype)

    fn.__name__ = fname
    fn.__doc__ = (f"{fname}(input): the lower median (gradient shared by equal elements); "
                  f"{fname}(input, dim, keepdim): (values, indices).")
    return export(method=True)(fn)


median = _median_family(_median0, _median1, "median", False, MedianResult)
nanmedian = _median_family(_nanmedian0, _nanmedian1, "nanmedian", True, NanmedianResult)


def _gt_or_nan(x, y):
    return (x != x and y == y) or x > y


def _quick_select(values, k):
    """PyTorch's CPU quickselect (Sedgewick), to pick the same index among ties."""
    arr = list(values)
    ind = list(range(len(arr)))

    def swap(i, j):
        arr[i], arr[j] = arr[j], arr[i]
        ind[i], ind[j] = ind[j], ind[i]

    lo, hi = 0, len(arr) - 1
    while True:
        if hi <= lo:
            break
        if hi == lo + 1:
            if _gt_or_nan(arr[lo], arr[hi]):
                swap(lo, hi)
            break
        p = (lo + hi) >> 1
        swap(p, lo + 1)
        if _gt_or_nan(arr[lo + 1], arr[hi]):
            swap(lo + 1, hi)
        if _gt_or_nan(arr[lo], arr[hi]):
            swap(lo, hi)
        if _gt_or_nan(arr[lo + 1], arr[lo]):
            swap(lo + 1, lo)
        i, j = lo + 1, hi
        piv = arr[lo]
        while True:
            i += 1
            while _gt_or_nan(piv, arr[i]):
                i += 1
            j -= 1
            while _gt_or_nan(arr[j], piv):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return ind[k]


def _kthvalue_fwd(ctx, a, k, dim, keepdim):
    if a.ndim == 0:
        idx = np.zeros((), np.int64)
        ctx.indices = idx
        return a.copy(), idx
    moved = np.moveaxis(a, dim, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    order = np.argsort(rows, axis=-1, kind="stable")
    idx = order[:, k - 1].copy()
    srt = np.take_along_axis(rows, order, axis=-1)
    for r in range(rows.shape[0]):
        row = srt[r]
        # only ties (or NaN) make the index depend on the algorithm
        if row.size > 1 and ((row[1:] == row[:-1]).any() or (row != row).any()):
            idx[r] = _quick_select(rows[r].tolist(), k - 1)
    return select_along(ctx, a, np.expand_dims(idx.reshape(moved.shape[:-1]), dim), dim, keepdim)


_kthvalue = Op("KthvalueBackward0", _kthvalue_fwd, outputs=1, keeps={"indices": "indices"}, kept_outputs={"indices": 1})
_kthvalue.derivative(_select_back)


@export(method=True)
def kthvalue(input, k, dim=-1, keepdim=False, *, out=None):
    """The k-th smallest element along ``dim``: (values, indices)."""
    _check_int_dim("kthvalue", dim)
    d = _wrap_dim(dim, input.ndim)
    _check_nonempty_dim("kthvalue", input._data, d)
    size = input.shape[d] if input.ndim else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    _resize_keepdim_outs(input, d, keepdim, out, False)
    if input.dtype is dtypes.bool_ and input.ndim:  # (a 0-d input is its own k-th value)
        raise NotImplementedError('"kthvalue_cpu" not implemented for \'Bool\'')
    vals, idx = _kthvalue.apply((input,), (input._data,), {"k": int(k), "dim": d, "keepdim": bool(keepdim)})
    result = KthvalueResult(vals, idx)
    return result if out is None else write_outs("kthvalue", result, out, _kthvalue_dtype)


def _resize_keepdim_outs(input, d, keepdim, out, mode):
    """_reduction_with_indices_allocate_or_resize_output (kthvalue's; ``mode``: its kernel's, which checks both
    dtypes first and unsqueezes wherever ``d`` is a place of the out's dims): each out, its dtype right, is
    unsqueezed at ``d`` when not keepdim (kthvalue's: when it has one dim less than the input) and resized to the keepdim shape, whose
    warning shows those shapes; the final squeeze_ leaves the reduced shape. (A wrong dtype and autograd's
    refusal: write_outs' errors, after the outs before it were resized.)"""
    if out is None or not (input.ndim or mode) or not isinstance(out, (tuple, list)) or len(out) != 2 or (
            graph.is_recording((input, *out))):
        return  # (mode of a 0-d input, its trivial case: resize_({}) of both outs, quietly)
    from ._outs import _resize_out, warn_resized
    kept = list(input.shape)
    kept[d:d + 1] = [1][:input.ndim]
    wanted = (input.dtype, dtypes.int64)
    if mode and any(not isinstance(o, Tensor) or o.dtype is not w for o, w in zip(out, wanted)):
        return
    # (an out of the wrong dtype stops it: those before stay unsqueezed, of the kept shape, as it left them)
    stopped = any(not isinstance(o, Tensor) or o.dtype is not w for o, w in zip(out, wanted))
    for o, dtype in zip(out, wanted):
        if not isinstance(o, Tensor) or o.dtype is not dtype:
            return
        shape = list(o.shape)
        if not input.ndim:
            _resize_out(o, np.empty((), o._data.dtype))
            continue
        if not keepdim and (d <= len(shape) if mode else len(shape) == input.ndim - 1):  # (mode's: where it can)
            shape.insert(d, 1)
            if stopped and type(o._data) is np.ndarray:  # (unsqueeze_'s stride: the next dim's extent, else 1)
                a = o._data
                at = a.shape[d] * a.strides[d] if d < a.ndim else a.itemsize
                o._data = np.lib.stride_tricks.as_strided(a, a.shape[:d] + (1,) + a.shape[d:],
                                                          a.strides[:d] + (at,) + a.strides[d:])
        if shape != kept:
            if o._data.size:
                warn_resized(shape, kept)
            _resize_out(o, np.empty(kept if keepdim or stopped else kept[:d] + kept[d + 1:], o._data.dtype))
        elif not keepdim and o.ndim == input.ndim and not stopped:  # (the kernel's squeeze_ of an out of the kept shape)
            o._data = np.squeeze(o._data, d)


def _mode_fwd(ctx, a, dim, keepdim):
    if a.ndim == 0:
        idx = np.zeros((), np.int64)
        ctx.indices = idx
        return a.copy(), idx
    moved = np.moveaxis(a, dim, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    idx = np.empty(rows.shape[0], np.int64)
    for r in range(rows.shape[0]):
        # PyTorch's CPU kernel: std::sort the (value, index) pairs by value, then the last pair of
        # the first run of equal values (by ==) longest of all: -0.0 and 0.0 are one value, each
        # NaN a run of its own
        pairs = [(x, j) for j, x in enumerate(rows[r].tolist())]
        _std_sort(pairs, 0, len(pairs), _value_less)
        best = run = 0
        for i, (x, j) in enumerate(pairs):
            run += 1
            if i == len(pairs) - 1 or x != pairs[i + 1][0]:
                if run > best:
                    best, idx[r] = run, j
                run = 0
    return select_along(ctx, a, np.expand_dims(idx.reshape(moved.shape[:-1]), dim), dim, keepdim)


def _value_less(x, y):
    return x[0] < y[0]


_mode = Op("ModeBackward0", _mode_fwd, outputs=1, keeps={"indices": "indices"}, kept_outputs={"indices": 1})
_mode.derivative(_select_back)


@export(method=True)
def mode(input, dim=-1, keepdim=False, *, out=None):
    """The most frequent value along ``dim`` (the smallest on ties) and its index: (values, indices)."""
    _check_int_dim("mode", dim)
    d = _wrap_dim(dim, input.ndim)
    _check_nonempty_dim("mode", input._data, d)
    _resize_keepdim_outs(input, d, keepdim, out, True)
    vals, idx = _mode.apply((input,), (input._data,), {"dim": d, "keepdim": bool(keepdim)})
    result = ModeResult(vals, idx)
    return result if out is None else write_outs("mode", result, out, _mode_dtype)


# ---------------------------------------------------------------------------


def _no_derivative(name):
    def formula(ctx, grad):
        raise NotImplementedError(f"the derivative for '{name}' is not implemented.")

    return formula


def _unique_fwd(ctx, a, result):
    return result


_unique2 = Op("Unique2Backward0", _unique_fwd, outputs=1, jvp="unsupported")
_unique2.derivative(_no_derivative("_unique2"))
_unique2.jvp_name = "_unique2"
_unique_dim = Op("UniqueDimBackward0", _unique_fwd, outputs=1, jvp="unsupported")
_unique_dim.derivative(_no_derivative("unique_dim"))
_unique_dim.jvp_name = "unique_dim"


def _unique_dim_nan(a, d):
    """unique(dim=d) of slices holding NaN, as PyTorch's CPU kernel does it: std::sort of the slice
    numbers with a lexicographic "<" on which a NaN compares as neither less nor greater (so it does
    not order its slices; libstdc++ sorts up to 16 elements by insertion sort, which this follows),
    then runs of consecutive slices equal elementwise merged (a slice with a NaN equals none)."""
    moved = np.moveaxis(a, d, 0)
    flat = moved.reshape(moved.shape[0], -1)

    def less(i, j):
        for x, y in zip(flat[i], flat[j]):
            if x < y:
                return True
            if x > y:
                return False
        return False

    order = list(range(flat.shape[0]))
    for k in range(1, len(order)):  # libstdc++'s __insertion_sort
        v = order[k]
        if less(v, order[0]):
            order[1:k + 1] = order[:k]
            order[0] = v
            continue
        j = k
        while less(v, order[j - 1]):
            order[j] = order[j - 1]
            j -= 1
        order[j] = v
    keep, inverse, counts = [], np.zeros(len(order), np.int64), []
    for i in order:
        if not keep or not np.array_equal(flat[keep[-1]], flat[i]):
            keep.append(i)
            counts.append(0)
        inverse[i] = len(keep) - 1
        counts[-1] += 1
    values = np.moveaxis(moved[keep], 0, d)
    return values, inverse, np.asarray(counts, np.int64)


def _unique_zero(flat, values):
    """``values`` with the zero PyTorch keeps, of zeros of both signs: the first of the run that
    its std::sort of the input leaves."""
    v = [(x, j) for j, x in enumerate(flat.tolist())]
    _std_sort(v, 0, len(v), _less)
    zero = next(x for x, _ in v if x == 0)
    values = values.copy()
    values[values == 0] = zero
    return values


def unique_dim_zeros(shape, d) -> bool:
    """_unique_dim_cpu_template's check of a tensor with a 0-sized dim (unique and unique_consecutive
    along ``d``): True when ``d`` itself is the one (the result: an empty tensor of the input's sizes)."""
    zeros = list(shape).count(0)
    if shape[d] == 0 and zeros != 1:
        raise RuntimeError("Number of zero sized dimensions is more than one, so unique cannot be applied ")
    if shape[d] != 0 and zeros:
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
    return shape[d] == 0


@export(method=True)
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    flags = (("sorted", "bool", None, sorted), ("return_inverse", "bool", None, return_inverse),
             ("return_counts", "bool", None, return_counts))
    passed_on("_unique2", flags) if dim is None else passed_on("unique_dim", (("dim", "int", 2, dim),) + flags)
    a = input._data
    if dim is None:
        # NaNs stay apart, as PyTorch's sort-then-compare (nan != nan) leaves them
        values, inverse, counts = np.unique(a.reshape(-1), return_inverse=True, return_counts=True,
                                            equal_nan=False)
        inverse = inverse.reshape(a.shape)
        op = _unique2
        if a.dtype.kind == "f" and len(set(np.signbit(a[a == 0]).tolist())) == 2:
            values = _unique_zero(a.reshape(-1), values)
    else:
        d = _wrap_dim_no_scalar(dim, input.ndim)
        if unique_dim_zeros(a.shape, d):  # (an empty result of the input's sizes, contiguous; no inverse, counts)
            values, inverse, counts = np.zeros(a.shape, a.dtype), np.zeros(0, np.int64), np.zeros(0, np.int64)
        elif a.dtype.kind == "f" and np.isnan(a).any():
            values, inverse, counts = _unique_dim_nan(a, d)
        else:
            values, inverse, counts = np.unique(a, return_inverse=True, return_counts=True, axis=d)
        # (ATen's output: the moved dim first, contiguous, moved back)
        values = np.moveaxis(np.ascontiguousarray(np.moveaxis(values, d, 0)), 0, d)
        inverse = inverse.reshape(-1)
        op = _unique_dim
    out = op.apply((input,), (input._data,), {"result": values})
    outs = [out]
    if return_inverse:
        outs.append(Tensor._make(inverse.astype(np.int64)))
    if return_counts:
        outs.append(Tensor._make(counts.astype(np.int64)))
    return outs[0] if len(outs) == 1 else tuple(outs)


# bincount ---------------------------------------------------------------------------------------

@export(method=True)
def bincount(input, weights=None, minlength=0):
    """Counts (int64), or the sums of ``weights`` added one by one in input order: in float32 for
    float32 weights, else in double (ATen's _bincount_cpu); with weights that require grad, a
    NotImplemented node (aten::bincount)."""
    if type(minlength) is bool or not hasattr(minlength, "__index__"):
        raise TypeError("minlength")  # (the parser's error replaces it: agrad/ops/_argcheck.py)
    minlength = minlength.__index__()
    d = input.dtype
    if d.is_floating_point or d is dtypes.bool_:
        raise NotImplementedError(f'"bincount_cpu" not implemented for \'{_scalar_name(d)}\'')
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    a = input._data
    if a.ndim == 1 and a.size == 0:
        return Tensor._make(np.zeros(minlength, np.int64))
    if a.ndim != 1 or a.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    n = max(minlength, int(a.max()) + 1)
    if weights is None:
        return Tensor._make(np.bincount(a, minlength=n).astype(np.int64, copy=False))
    w = weights._data
    if w.ndim != 1 or w.shape[0] != a.shape[0]:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    out = np.zeros(n, np.float32 if w.dtype == np.float32 else np.float64)
    np.add.at(out, a.astype(np.intp, copy=False), w.astype(out.dtype, copy=False))
    from ._not_implemented import not_implemented
    return not_implemented(out, (weights,), "aten::bincount")
