"""Ops that change a tensor's own sizes and strides in place: ``squeeze_``, ``unsqueeze_``,
``t_``, ``as_strided_`` (``transpose_`` is in ``views``), and ``resize_``/``resize_as_``
with the deprecated out-of-place ``resize``/``resize_as``.

As PyTorch's in-place view ops, the first four change the tensor's view of its memory (here
the tensor's numpy view), move its version, and when recorded give it their own node
(SqueezeBackward3/4/5, UnsqueezeBackward1, TBackward1, AsStridedBackward1) in place of its
grad_fn; outside autograd the history stays.  A leaf that requires grad, or a view of one,
is refused with grad mode on.

``resize_`` gives the tensor contiguous strides over its storage from its storage offset
(``storage.storage_of``); a tensor that requires grad cannot be resized (PyTorch's error,
in any grad mode).  Growing past the storage's end gives the tensor a new, larger buffer
that starts with the old storage's bytes: PyTorch grows the storage itself, so other
tensors sharing it see the new memory too, while here they keep the old buffer
(docs/semantics.md); the new elements are zeros, where PyTorch's are uninitialised.
"""

from __future__ import annotations


import numpy as np

from ..autograd import _dual, graph
from ..autograd.function import Function
from ..tensor import LEAF_INPLACE_MESSAGE, Tensor, _wrap_dim
from ._op import Op, method
from .views import _sizes, _squeeze4, _squeeze_fwd, _unsqueeze1, _unsqueeze_back
from .._warn_once import warn as _warn

_squeeze3 = Op("SqueezeBackward3", _squeeze_fwd, jvp="linear")  # squeeze_()
_squeeze5 = Op("SqueezeBackward5", _squeeze_fwd, jvp="linear")  # squeeze_(dims)
for _op in (_squeeze3, _squeeze5):
    _op.derivative(_unsqueeze_back)

_t1 = Op("TBackward1", lambda ctx, a: a.T, jvp="linear")  # t_()
_t1.derivative(lambda ctx, grad: grad.t())


def _shape_in_place(input, steps):
    """``input`` takes the view an op makes of it (transpose_'s steps): PyTorch's autograd
    checks first, then ``steps()`` -> (op, attrs, again, view): the op's own checks and its
    node, ``again(t)`` the same op on a forward-AD tangent, ``view`` the new view when the op's
    forward does not make it; then the new view, the node when recorded, the version."""
    recorded = graph._state["enabled"] and input._requires_grad
    if recorded and input._grad_fn is None:
        raise RuntimeError(LEAF_INPLACE_MESSAGE)
    base = input._base
    if recorded and base is not None and base._grad_fn is None and (base._requires_grad or input._grad_fn is not None):
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    op, attrs, again, view = steps()
    tangent = _dual.tangent_of(input) if _dual._LEVEL[0] is not None else None
    if recorded:
        with _dual._paused():  # the tangent is turned below, once
            out = op.apply((input,), (input._data,), attrs)
        input._data = out._data if view is None else view
        input._grad_fn, input._output_nr = out._grad_fn, out._output_nr
    else:  # outside autograd the view changes and the history stays, as in PyTorch
        input._data = op.forward(None, input._data, **attrs) if view is None else view
    if tangent is not None:
        _dual.set_tangent(input, again(tangent))
    input._vc[0] += 1
    for obs in graph.version_observers:
        obs(input)
    if recorded and input._base is not None:
        input._view_ver = input._vc[0]  # its new grad_fn is current
    return input


@method("squeeze_")
def squeeze_(input, dim=None):
    def steps():
        shape, n = input._data.shape, input.ndim
        if dim is None:
            return _squeeze3, {"axes": tuple(i for i, s in enumerate(shape) if s == 1)}, lambda t: t.squeeze(), None
        if isinstance(dim, (list, tuple)):
            wrapped = [_wrap_dim(d, n) for d in dim]
            for i, d in enumerate(wrapped):
                if d in wrapped[:i]:
                    raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
            axes = tuple(a for a in sorted(set(wrapped)) if n and shape[a] == 1)
            return _squeeze5, {"axes": axes}, lambda t: t.squeeze(tuple(dim)), None
        d = _wrap_dim(dim, n)
        return _squeeze4, {"axes": (d,) if n and shape[d] == 1 else ()}, lambda t: t.squeeze(dim), None

    return _shape_in_place(input, steps)


@method("unsqueeze_")
def unsqueeze_(input, dim):
    return _shape_in_place(input, lambda: (_unsqueeze1, {"dim": _wrap_dim(dim, input.ndim + 1)},
                                           lambda t: t.unsqueeze(dim), None))


@method("t_")
def t_(input):
    def steps():
        if input.ndim > 2:
            raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
        return _t1, {}, lambda t: t.t(), None

    return _shape_in_place(input, steps)


# as_strided_ ----------------------------------------------------------------------------

def _gather(ctx, a, idx):
    from .inplace_view import gather
    return gather(a, idx)


_as_strided1 = Op("AsStridedBackward1", _gather, jvp="linear")


@_as_strided1.derivative
def _(ctx, grad):
    from .inplace_view import _take
    return _take._formula(ctx, grad)


@method("as_strided_")
def as_strided_(input, size, stride, storage_offset=None):
    from .strided import _reads_of, _strided_view

    def steps():
        view, positions, flat, own = _strided_view(input, size, stride, storage_offset)
        idx = _reads_of(input, flat, positions) if graph._state["enabled"] and input._requires_grad else None
        return _as_strided1, {"idx": idx}, lambda t: t.as_strided(size, stride, storage_offset), view

    return _shape_in_place(input, steps)


# resize_ --------------------------------------------------------------------------------

_GRAD_RESIZE = "cannot resize variables that require grad"


def _resize_sizes(size):
    size = _sizes(size)
    if any(s < 0 for s in size):  # (PyTorch's numel check; with a 0 among the sizes it makes a tensor of
        raise RuntimeError("numel: integer multiplication overflow")  # negative size, which agrad does not)
    return size


def _resize_to(input, size, memory_format):
    from .. import _limits
    from .storage import storage_of
    from ._layout import view_at

    if input.requires_grad:
        raise RuntimeError(_GRAD_RESIZE)
    data = input._values()
    dims = rank_error = None
    if memory_format is not None:  # (the storage's first elements restrided in that format)
        from .memory_format import checked, order, preserve_format
        try:  # (PyTorch resizes first, C-contiguous, then restrides: preserve_format's and the rank's errors
            if checked(memory_format, "resize_") is preserve_format:  # come with the new shape, no new version)
                raise RuntimeError("Unsupported memory formatPreserve")
            dims = order(tuple(size), memory_format)  # (contiguous_format too: empty_tensor_restride)
        except RuntimeError as e:
            rank_error = e
        else:
            if dims is None:
                dims = list(range(len(size)))
    n = int(np.prod(size, dtype=np.int64)) if size else 1
    _limits.check_numel(n)
    resized = tuple(size) != data.shape  # (only a new shape is a new version: PyTorch's, a format's restride too)
    if resized or dims is not None:
        flat, offset = storage_of(input)
        if offset + n > flat.size:  # PyTorch grows the storage: here a new buffer with the old bytes first
            grown = np.zeros(offset + n, data.dtype)
            grown[:flat.size] = flat
            flat = grown
        part = flat[offset:offset + n]
        out = part.reshape(size) if dims is None else \
            part.reshape([size[d] for d in dims]).transpose(np.argsort(dims))
        if not n and offset:  # (empty: at its storage offset still, past the storage's end too)
            out = view_at(flat.reshape(-1).view(np.uint8), offset * data.itemsize, out.shape, out.strides, out.dtype)
        input._data = out
    if rank_error is not None:
        raise rank_error
    if resized:
        input._vc[0] += 1
        for obs in graph.version_observers:
            obs(input)
    return input


@method("resize_")
def resize_(input, *size, memory_format=None):
    if not size:  # (the parser's own plural)
        raise TypeError('resize_() missing 1 required positional arguments: "size"')
    if input.requires_grad:  # (before the sizes are read, as PyTorch's check)
        raise RuntimeError(_GRAD_RESIZE)
    return _resize_to(input, _resize_sizes(size), memory_format)


@method("resize_as_")
def resize_as_(input, the_template, *, memory_format=None):
    if not isinstance(the_template, Tensor):
        from ._pyargs import tp_name
        raise TypeError(f"resize_as_(): argument 'the_template' (position 1) must be Tensor, not "
                        f"{tp_name(the_template)}")
    if memory_format is not None:
        from .memory_format import _is_contiguous_in, channels_last, channels_last_3d, checked, contiguous_format, \
            preserve_format
        if checked(memory_format, "resize_as_") is preserve_format:  # (the template's suggested format)
            a = the_template._data
            memory_format = contiguous_format
            for nd, fmt in ((4, channels_last), (5, channels_last_3d)):
                if a.ndim == nd and not a.flags.c_contiguous and _is_contiguous_in(a, fmt):
                    memory_format = fmt
    return _resize_to(input, tuple(the_template.shape), memory_format)


class Resize(Function):
    """PyTorch's deprecated out-of-place ``resize``: a Python Function (ResizeBackward) that
    only reshapes (torch/autograd/_functions/tensor.py)."""

    @staticmethod
    def forward(ctx, tensor, sizes):
        ctx.sizes = sizes
        ctx.numel = int(np.prod(sizes, dtype=np.int64)) if sizes else 1
        if tensor.numel() != ctx.numel:
            raise RuntimeError(
                f"requested resize to {'x'.join(map(str, sizes))} ({ctx.numel} elements in total), but the given "
                f"tensor has a size of {'x'.join(map(str, tensor.size()))} ({tensor.numel()} elements). autograd's "
                "resize can only change the shape of a given tensor, while preserving the number of elements. ")
        ctx.input_sizes = tensor.size()
        if tensor.is_contiguous():
            return tensor.new(tensor).contiguous().view(*sizes)
        return tensor.contiguous().view(*sizes)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.contiguous().view(ctx.input_sizes), None


@method("resize")
def resize(input, *sizes):
    _warn("non-inplace resize is deprecated", UserWarning)
    return Resize.apply(input, sizes)


@method("resize_as")
def resize_as(input, tensor):
    _warn("non-inplace resize_as is deprecated", UserWarning)
    return Resize.apply(input, tensor.size())
