"""The ``*_copy`` functions: a view op's result as a new contiguous tensor (``permute_copy``,
``split_copy``, ``narrow_copy``, ...), as PyTorch's functionalization makes them.

Each runs the view itself (its checks and errors are the view's) and copies the result in
C order.  Its node is PyTorch's: the view node's name with ``_copy`` (``PermuteBackward0_copy``;
``narrow_copy`` has its own ``NarrowCopyBackward0``, ``detach_copy`` torch::autograd::NotImplemented),
and its formula is the view's: the node of the view made in the forward does the backward
(derivatives.yaml gives each ``_copy`` variant its view's formula).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _wrap_dim
from ._not_implemented import not_implemented
from ._op import OPS, Op, export, with_out


def _copied(ctx, a, view, node):
    if type(view) is tuple:
        return tuple([np.array(v, order="C") for v in view])
    return np.array(view, order="C")


def _copy_op(view_name, name=None):
    """The op ``<view node>_copy``: the view's values copied; the view's node's formula."""
    view_op = OPS[view_name]
    multi = view_op._multi
    op = Op(name or f"{view_name}_copy", _copied, outputs=view_op.n_diff_outputs,
            multi_grad="undefined" if view_op._undefined_grads else multi)

    @op.derivative
    def _(ctx, grad):
        return ctx.node.apply(grad if multi else [grad])[0]

    return op


_COPIES = {n: _copy_op(n) for n in (
    "ViewBackward0", "PermuteBackward0", "TransposeBackward0", "TBackward0", "UnsqueezeBackward0", "SqueezeBackward0",
    "SqueezeBackward1", "SqueezeBackward2", "SelectBackward0", "SliceBackward0", "DiagonalBackward0",
    "ExpandBackward0", "AliasBackward0", "SplitBackward0", "SplitWithSizesBackward0", "UnbindBackward0",
    "UnfoldBackward0", "AsStridedBackward0")}
_COPIES["narrow"] = _copy_op("SliceBackward0", "NarrowCopyBackward0")


def _copy_of(input, view, key=None):
    """``view`` (a view of ``input``, or a tuple of them) as its ``_copy`` function returns it."""
    views = view if isinstance(view, tuple) else (view,)
    node = views[0].grad_fn if views and views[0]._requires_grad else None
    if key is None:
        key = node.name() if node is not None else None
    arrays = tuple([v._data for v in views]) if isinstance(view, tuple) else view._data
    if node is None:  # (nothing recorded: the copy alone)
        if isinstance(view, tuple):
            return tuple([Tensor._make(a) for a in _copied(None, None, arrays, None)])
        return Tensor._make(_copied(None, None, arrays, None))
    out = _COPIES[key].apply((input,), (input._data,), {"view": arrays, "node": node})
    return out if not isinstance(view, tuple) else tuple(out)


@export()
@with_out("view_copy")
def view_copy(input, size=None, dtype=None):
    if (dtype is None) == (size is None) or isinstance(size, dtypes.dtype) and dtype is not None:
        raise TypeError("view_copy() takes a dtype or a size")  # (the parser's "invalid combination")
    if dtype is not None or isinstance(size, dtypes.dtype):
        from ._view_dtype import view_copy_dtype
        return view_copy_dtype(input, size if dtype is None else dtype)
    if isinstance(size, int) or not isinstance(size, (tuple, list)) and not hasattr(size, "__len__"):
        raise TypeError("view_copy(): argument 'size' must be tuple of ints")
    return _copy_of(input, input.contiguous().view(size) if not input.is_contiguous() else input.view(size))


@export()
@with_out("permute_copy")
def permute_copy(input, dims):
    return _copy_of(input, input.permute(dims))


@export()
@with_out("transpose_copy")
def transpose_copy(input, dim0, dim1):
    return _copy_of(input, input.transpose(dim0, dim1))


@export()
@with_out("t_copy")
def t_copy(input):
    return _copy_of(input, input.t())


@export()
@with_out("unsqueeze_copy")
def unsqueeze_copy(input, dim):
    return _copy_of(input, input.unsqueeze(dim))


@export()
@with_out("squeeze_copy")
def squeeze_copy(input, dim=None):
    return _copy_of(input, input.squeeze() if dim is None else input.squeeze(dim))


@export()
@with_out("select_copy")
def select_copy(input, dim, index):
    return _copy_of(input, input.select(dim, index))


@export()
@with_out("slice_copy")
def slice_copy(input, dim=0, start=None, end=None, step=1):
    if input.ndim == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    d = _wrap_dim(dim, input.ndim)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    # (the slice op itself, as narrow's, even over all of the dim: its gradient is slice_backward's, zeros
    # with the slice copied in, never the incoming gradient as it is)
    from .indexing import _slice
    from .views import _view
    bounds = slice(start, end, step).indices(input.shape[d])
    view = _view(_slice, input, input._data, {"index": (slice(None),) * d + (slice(*bounds),)})
    return _copy_of(input, view, "SliceBackward0")


@export()
@with_out("diagonal_copy")
def diagonal_copy(input, offset=0, dim1=0, dim2=1):
    return _copy_of(input, input.diagonal(offset, dim1, dim2))


@export()
@with_out("expand_copy")
def expand_copy(input, size, *, implicit=False):
    return _copy_of(input, input.expand(size))


@export()
@with_out("alias_copy")
def alias_copy(input):
    from .indexing import alias
    return _copy_of(input, alias(input))


@export()
@with_out("detach_copy")
def detach_copy(input):
    return not_implemented(np.array(input._data, order="C"), (input,), "aten::detach_copy")


@export()
def split_copy(input, split_size, dim=0):
    if isinstance(split_size, (list, tuple)):  # (the parser's error: argcheck's wrapper gives its text)
        raise TypeError("split_copy(): argument 'split_size' must be int")
    return _copy_of(input, tuple(input.split(split_size, dim)))


@export()
def split_with_sizes_copy(input, split_sizes, dim=0):
    return _copy_of(input, tuple(input.split(list(split_sizes), dim)))


@export()
def unbind_copy(input, dim=0):
    return _copy_of(input, tuple(input.unbind(dim)))


@export()
@with_out("unfold_copy")
def unfold_copy(input, dimension, size, step):
    return _copy_of(input, input.unfold(dimension, size, step))


@export(method=True)
@with_out("narrow_copy")
def narrow_copy(input, dim, start, length):
    """narrow's copy, with narrow_copy_dense_cpu_out's own checks (which differ from narrow's)."""
    if isinstance(input, Tensor) and input.ndim:
        dim, size = int(dim), None
        if dim >= input.ndim:
            raise RuntimeError("Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, but got false.  "
                               "(Could this error message be improved?  If so, please report an enhancement "
                               "request to PyTorch.)")
        size = input.shape[_wrap_dim(dim, input.ndim)]
        start, length = int(start), int(length)
        if not -size <= start <= size:
            raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
        wrapped = start + size if start < 0 else start
        if length < 0 or wrapped > size - length:
            raise RuntimeError(f"start ({wrapped}) + length ({length}) exceeds dimension size ({size}).")
        input.narrow(dim, wrapped, length)  # (narrow's own checks)
        # (the start as given: NarrowCopyBackward0's formula reads it unwrapped)
        d = _wrap_dim(dim, input.ndim)
        return _narrow_copy.apply((input,), (input._data,), {"dim": d, "start": start, "length": length})
    return _copy_of(input, input.narrow(dim, start, length), "narrow")


def _narrow_copy_fwd(ctx, a, dim, start, length):
    start = start + a.shape[dim] if start < 0 else start
    return np.array(a[(slice(None),) * dim + (slice(start, start + length),)], order="C")


_narrow_copy = Op("NarrowCopyBackward0", _narrow_copy_fwd, jvp="linear")


@_narrow_copy.derivative
def _(ctx, grad):
    """slice_backward(grad, sizes, dim, start, start + length, 1) with the start as given: a negative
    start is wrapped but start + length is not, so a negative start whose end is 0 gives an empty
    slice (the gradient broadcast into it: zeros, or copy_'s error for a length above 1)."""
    from .indexing import embed
    shape, d = tuple(ctx.input_shape), ctx.dim
    lo, hi, _ = slice(ctx.start, ctx.start + ctx.length).indices(shape[d])
    n = max(hi - lo, 0)
    if grad.shape[d] not in (n, 1):
        raise RuntimeError(f"The size of tensor a ({n}) must match the size of tensor b ({grad.shape[d]}) at "
                           f"non-singleton dimension {d}")
    return embed(grad, shape, (slice(None),) * d + (slice(lo, lo + n),))


@export()
@with_out("as_strided_copy")
def as_strided_copy(input, size, stride, storage_offset=None):
    from .strided import as_strided
    return _copy_of(input, as_strided(input, size, stride, storage_offset))
