"""Index sets and block constructions: tril_indices / triu_indices (factories), block_diag
(BlockDiagBackward0), and ATen's composites cartesian_prod (meshgrid "ij", flatten, stack) and
combinations (meshgrid of r copies, masked_select of the i < j < ... mask, stack), so their
graphs are PyTorch's (ViewBackward0, ExpandBackward0, CloneBackward0 / UnsafeViewBackward0 or
MaskedSelectBackward0, StackBackward0); vander (ATen's composite: ones, copy_, cumprod in place,
flip) and unique_consecutive (runs of equal elements or slices; UniqueConsecutiveBackward0).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name
from ._op import Op, export, method

# tril_indices / triu_indices ----------------------------------------------------------------------


def _indices(name, row, col, offset, dtype, device, layout, requires_grad, pin_memory):
    from .factories import _check_options, _finish

    _check_options(layout, pin_memory)
    d = dtypes.int64 if dtype is None else dtypes.lookup(dtype)
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    if d not in (dtypes.int64, dtypes.int32):  # (AT_DISPATCH_INDEX_TYPES)
        raise NotImplementedError(f"\"{name}\" not implemented for '{_scalar_name(d)}'")
    r, c = np.indices((row, col)).reshape(2, -1)
    keep = (c - r <= offset) if name == "tril_indices" else (c - r >= offset)
    data = np.ascontiguousarray(np.stack([r[keep], c[keep]]).astype(d.numpy))
    if requires_grad:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    return _finish(data, False, device)


@export()
def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None, requires_grad=False,
                 pin_memory=False):
    """The (row, column) indices of the lower triangle of a row x col matrix (row by row)."""
    return _indices("tril_indices", row, col, offset, dtype, device, layout, requires_grad, pin_memory)


@export()
def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None, requires_grad=False,
                 pin_memory=False):
    """The (row, column) indices of the upper triangle of a row x col matrix (row by row)."""
    return _indices("triu_indices", row, col, offset, dtype, device, layout, requires_grad, pin_memory)


# block_diag -------------------------------------------------------------------------------------------

def _block_diag_fwd(ctx, *arrays, dtype, shapes):
    shapes = [(1, 1) if a.ndim == 0 else (1, a.shape[0]) if a.ndim == 1 else a.shape for a in arrays]
    out = np.zeros((sum(s[0] for s in shapes), sum(s[1] for s in shapes)), dtype)
    i = j = 0
    for a, (n, m) in zip(arrays, shapes):
        out[i:i + n, j:j + m] = np.reshape(a, (n, m))
        i, j = i + n, j + m
    return out


_block_diag = Op("BlockDiagBackward0", _block_diag_fwd, inputs=(), jvp="linear")


@_block_diag.derivative
def _(ctx, grad):
    # block_diag_backward: each input's block of the gradient; a 1-d input's stays (1, n) (its
    # squeeze(-1) is of the last dim), and the engine sums it to the input's shape
    grads = []
    i = j = 0
    for k, shape in enumerate(ctx.shapes):
        if len(shape) == 1 and shape[0] == 0:  # (an empty input's gradient: zeros((0,)))
            grads.append(grad.new_zeros((0,)) if ctx.needs(k) else None)
            continue
        n, m = (1, 1) if len(shape) == 0 else (1, shape[0]) if len(shape) == 1 else shape
        if ctx.needs(k):
            part = grad.narrow(0, i, n).narrow(1, j, m)  # (grad.slice(0, ...).slice(1, ...): SliceBackward0 twice,
            # a full range too)
            if len(shape) == 1:
                part = part.squeeze(-1)
            elif len(shape) == 0:
                part = part.squeeze(-1).squeeze(-1)
            grads.append(part)
        else:
            grads.append(None)
        i, j = i + n, j + m
    return tuple(grads)


@export()
def block_diag(*tensors):
    """A block-diagonal matrix of the tensors (0-d and 1-d ones as one row)."""
    from .factories import empty

    if not tensors:
        return empty(1, 0)
    _tensors(tensors)
    for k, t in enumerate(tensors):
        if t.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {k} has "
                               f"{t.ndim} dimensions")
    result_dtype = dtypes.result_type(*tensors)
    return _block_diag.apply(tuple(tensors), [t._data for t in tensors],
                             {"dtype": result_dtype.numpy, "shapes": [tuple(t.shape) for t in tensors]})


# cartesian_prod / combinations ------------------------------------------------------------------------

def _tensors(tensors):
    """The parser's check of a TensorList argument."""
    for k, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {k} in argument 0, but got {type(t).__name__}")


def _vector(t):
    if t.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")


@export()
def cartesian_prod(*tensors):
    """The Cartesian product of 1-D tensors, one row per combination (itertools.product's order)."""
    from .joining import meshgrid, stack

    _tensors(tensors)
    for t in tensors:
        _vector(t)
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return stack([g.flatten() for g in grids], 1)


@export()
def combinations(input, r=2, with_replacement=False):
    """The length-``r`` combinations of a 1-D tensor's elements (itertools' order), one a row."""
    from .factories import arange, empty, full
    from .joining import meshgrid, stack

    _vector(input)
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return empty(0, dtype=input.dtype)
    grids = meshgrid(*([input] * r), indexing="ij")
    index = meshgrid(*([arange(input.numel())] * r), indexing="ij")
    mask = full(index[0].shape, True, dtype=dtypes.bool_)
    for a, b in zip(index, index[1:]):
        mask = mask * ((a <= b) if with_replacement else (a < b))
    return stack([g.masked_select(mask) for g in grids], 1)


# vander / unique_consecutive ---------------------------------------------------------------------------

@export()
def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of a 1-D tensor: columns x^(N-1) ... x^0 (increasing: reversed), as ATen's
    composite builds it (a column of ones, x copied in, cumprod in place, flip)."""
    from .cumulative import cumprod
    from .factories import empty

    if x.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0]
    if N is not None:
        n = N
        if n < 0:
            raise RuntimeError("N must be non-negative.")
    result = empty(x.shape[0], n, dtype=dtypes.promote_types(x.dtype, dtypes.int64))
    if n > 0:
        result.select(1, 0).fill_(1)
        if n > 1:
            result[:, 1:].copy_(x.unsqueeze(1))
            result[:, 1:].copy_(cumprod(result[:, 1:], 1))
    return result if increasing else result.flip(1)


def _unique_consecutive_fwd(ctx, a, result):
    return result


_unique_consecutive_op = Op("UniqueConsecutiveBackward0", _unique_consecutive_fwd, outputs=1, jvp="unsupported")


@_unique_consecutive_op.derivative
def _(ctx, grad):
    raise NotImplementedError("the derivative for 'unique_consecutive' is not implemented.")


def _runs(keys):
    """Where each of ``keys`` (a sequence of comparable rows) starts a new run (NaN never equal)."""
    n = keys.shape[0]
    new = np.ones(n, bool)
    if n > 1:
        same = keys[1:] == keys[:-1]
        new[1:] = ~same.reshape(n - 1, -1).all(axis=1) if same.ndim > 1 else ~same
    return new


def _unique_consecutive(input, return_inverse, return_counts, dim):
    """(values, inverse, counts) as ATen's kernels give them: without a dim, the inverse and the
    counts only when asked for (empty otherwise); along a dim, both always."""
    from ..tensor import _wrap_dim_no_scalar
    from ._op import is_recording

    a = input._data
    if dim is None or (input.ndim == 1 and dim == 0):  # (ATen: a 1-d input along dim 0 is the no-dim case)
        flat = a.reshape(-1)
        new = _runs(flat)
        values = np.ascontiguousarray(flat[new])
        inverse_shape = a.shape
    else:
        from .sorting import unique_dim_zeros
        d = _wrap_dim_no_scalar(dim, input.ndim)
        unique_dim_zeros(a.shape, d)
        moved = np.moveaxis(a, d, 0)
        new = _runs(moved.reshape(moved.shape[0], -1)) if moved.shape[0] else np.zeros(0, bool)
        values = np.moveaxis(np.ascontiguousarray(moved[new]), 0, d)  # (laid out with dim first, as ATen's)
        inverse_shape = (a.shape[d],)
        return_inverse = return_counts = True
    empty = np.zeros(0, np.int64)
    inverse = (np.cumsum(new) - 1).astype(np.int64).reshape(inverse_shape) if return_inverse else empty
    starts = np.flatnonzero(new)
    counts = np.diff(np.append(starts, new.shape[0])).astype(np.int64) if return_counts else empty
    if input._requires_grad and is_recording((input,)):
        out = _unique_consecutive_op.apply((input,), (a,), {"result": values})
    else:
        out = Tensor._make(values)
    return out, Tensor._make(inverse), Tensor._make(counts)


def _pick(result, inverse, counts):
    out, inv, cnt = result
    if inverse and counts:
        return out, inv, cnt
    if inverse:
        return out, inv
    return (out, cnt) if counts else out


def unique_consecutive(*args, **kwargs):
    """The input's elements (or slices along ``dim``) with each run of equal ones kept once;
    with the index of each element's run and each run's length.  Which of them come back is
    decided as torch.functional's boolean_dispatch decides it: by ``return_inverse`` given by
    name or the third positional argument, and ``return_counts`` by name or the second."""
    inverse = kwargs["return_inverse"] if "return_inverse" in kwargs else (args[2] if len(args) > 2 else False)
    counts = kwargs["return_counts"] if "return_counts" in kwargs else (args[1] if len(args) > 1 else False)
    return _pick(_impl(*args, **kwargs), bool(inverse), bool(counts))


def _impl(input, return_inverse=False, return_counts=False, dim=None):
    return _unique_consecutive(input, bool(return_inverse), bool(return_counts), dim)


unique_consecutive.__signature__ = __import__("inspect").signature(_impl)
export()(unique_consecutive)


@method("unique_consecutive")
def _unique_consecutive_method(input, return_inverse=False, return_counts=False, dim=None):
    return _pick(_unique_consecutive(input, bool(return_inverse), bool(return_counts), dim),
                 bool(return_inverse), bool(return_counts))
