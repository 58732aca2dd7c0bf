"""``Tensor.view(dtype)``: the tensor's bytes read as another dtype, sharing its storage
(ATen's ``view_dtype``, aten/src/ATen/native/TensorConversions.cpp), and ``torch.view_copy``'s
dtype form, a copy of that view.

The same element size keeps the sizes, strides and storage offset; a smaller one scales the
last dim up (the other strides and the offset scale with it), a larger one scales it down,
with ATen's checks in ATen's order (a 0-d tensor, the last dim's size, the storage offset,
the last stride, the other strides).

Autograd: ``view.dtype`` is not differentiable (derivatives.yaml's ``output_differentiability:
[False]``): the result is no autograd view (``_base`` is None, ``_is_view()`` False) and never
requires grad, whatever the input, but it shares the input's version counter
(``make_variable_non_differentiable_view``), so an in-place change through either is seen
by every tensor saved from the other.  Made in inference mode it is an inference tensor; made
outside it from an inference tensor, a normal one with a counter of its own.
"""

from __future__ import annotations

import numpy as np

from ..autograd import inference
from ..tensor import _SCALAR_NAMES, Tensor
from ._layout import numpy_strides, storage_of, view_at


def _message(input, dtype, what):
    return f"{what} to view {_SCALAR_NAMES[input.dtype.name]} as {_SCALAR_NAMES[dtype.name]} (different element sizes)"


def _layout(input, dtype):
    """(sizes, element strides, storage offset) of the view in ``dtype``'s elements, or ATen's error."""
    sizes, strides = list(input.shape), list(input.stride())
    old, new = input._data.itemsize, dtype.itemsize
    offset = input.storage_offset()
    if old == new:
        return sizes, strides, offset
    if not sizes:
        raise RuntimeError(_message(input, dtype, "self.dim() cannot be 0"))
    if old > new:
        ratio = old // new
        if strides[-1] != 1:
            raise RuntimeError(_message(input, dtype, "self.stride(-1) must be 1") + f", but got {strides[-1]}")
        sizes[-1] *= ratio
        return sizes, [s * ratio for s in strides[:-1]] + [1], offset * ratio
    ratio = new // old
    if sizes[-1] % ratio:
        raise RuntimeError(_message(input, dtype, f"self.size(-1) must be divisible by {ratio}") +
                           f", but got {sizes[-1]}")
    if offset % ratio:
        raise RuntimeError(_message(input, dtype, f"self.storage_offset() must be divisible by {ratio}") +
                           f", but got {offset}")
    if strides[-1] != 1:
        raise RuntimeError(_message(input, dtype, "self.stride(-1) must be 1") + f", but got {strides[-1]}")
    for d, s in enumerate(strides[:-1]):
        if s % ratio:
            raise RuntimeError(_message(input, dtype, f"self.stride({d}) must be divisible by {ratio}") +
                               f", but got {s}")
    sizes[-1] //= ratio
    return sizes, [s // ratio for s in strides[:-1]] + [1], offset // ratio


def _reinterpreted(input, dtype):
    """The numpy array of the view: ``input``'s storage's bytes at the new layout."""
    a = input._values()
    nd = dtype.numpy
    if input.dtype is dtype:
        return a.view()
    if input._data.ndim == 0 or a.itemsize == nd.itemsize:
        return a.view(nd)  # (numpy's view of the same element size keeps any layout)
    sizes, strides, offset = _layout(input, dtype)
    found = storage_of(a) if type(a) is np.ndarray else None
    if found is None:  # (not one buffer: numpy's own view, whose last dim scales as ATen's)
        return a.view(nd)
    flat = found[0].reshape(-1).view(np.uint8)
    nbytes = nd.itemsize
    if 0 in sizes:  # (at its offset, past the storage's end too)
        out = view_at(flat, offset * nbytes, tuple(sizes), numpy_strides(sizes, [s * nbytes for s in strides]), nd)
        if not a.flags.writeable:
            out.flags.writeable = False
        return out
    else:  # (never past the storage, whatever the strides: a script reads no other memory)
        low = offset + sum(min(0, (n - 1) * s) for n, s in zip(sizes, strides))
        high = offset + sum(max(0, (n - 1) * s) for n, s in zip(sizes, strides)) + 1
        if low < 0 or high * nbytes > flat.size:
            raise RuntimeError("agrad: view(dtype) would read past the tensor's storage")
    out = np.ndarray(tuple(sizes), nd, buffer=flat, offset=offset * nbytes, strides=numpy_strides(sizes, [s * nbytes for s in strides]))
    if not a.flags.writeable:
        out.flags.writeable = False
    return out


def view_dtype(input, dtype):
    """``input.view(dtype)``: see the module's text."""
    _layout(input, dtype)  # (ATen's checks, also for an input whose data is no one buffer)
    t = Tensor._make(_reinterpreted(input, dtype))  # (in inference mode: an inference tensor, whatever the input)
    if not inference.is_inference(t) and not inference.is_inference(input):
        t._vc = input._vc  # (of an inference tensor outside inference mode: a normal tensor, a counter of its own)
    return t


def view_copy_dtype(input, dtype):
    """``torch.view_copy(input, dtype)``: a copy (contiguous) of the view; not differentiable either."""
    v = view_dtype(input, dtype)
    return Tensor._make(np.array(v._data, order="C", copy=True))
