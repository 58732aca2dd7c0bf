"""``torch.matmul(a, b, out=)`` as ATen's _matmul_impl with an out: each case hands ``out`` to the
product it dispatches to (dot_out, mv_out, mm_out, or bmm_out over out reshaped), so their checks, in
their order, are the ones a call meets (out's dtype against that product's operand, out resized before
the kernel refuses a dtype)."""

from __future__ import annotations

import numpy as np


def matmul_out(input, other, out):
    from ..autograd import grad_mode
    from . import linalg
    from ._outs import _resize_out, warn_resized

    if grad_mode._state["enabled"] and (input._requires_grad or other._requires_grad or out._requires_grad):
        raise RuntimeError("matmul(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    d1, d2 = input.ndim, other.ndim
    if d1 == 1 and d2 == 1:
        return linalg.dot(input, other, out=out)
    if d1 == 2 and d2 == 1:
        return linalg.mv(input, other, out=out)
    if d1 == 1 and d2 == 2:
        linalg.mm(input.unsqueeze(0), other, out=out)
        return out.squeeze_(0)
    if d1 == 2 and d2 == 2:
        return linalg.mm(input, other, out=out)

    def resized(shape):
        shape = tuple(shape)
        if tuple(out.shape) != shape:
            if out._data.size:
                warn_resized(out.shape, shape)
            _resize_out(out, np.empty(shape, out._data.dtype))

    if linalg._should_fold(input, other, has_out=True):
        transpose = d2 > d1
        t1 = other.mT if transpose else input
        t2 = (input.t() if d1 == 2 else input) if transpose else other
        rows_shape = tuple(t1.shape[:-1])
        rows = int(np.prod(rows_shape))
        matrix = t2.ndim == 2
        resized(rows_shape + ((t2.shape[1],) if matrix else ()))
        reshaped = out.reshape(rows, t2.shape[-1]) if matrix else out.reshape(rows)
        folded = t1.reshape(rows, t1.shape[-1])
        if matrix:
            linalg.mm(folded, t2, out=reshaped)
        else:
            linalg.mv(folded, t2, out=reshaped)
        if not _aliases(reshaped, out):
            out.copy_(reshaped)  # (out's shape, not reshaped's: a broadcast error where they differ, as ATen's)
        return out
    left, right, shape = linalg.batched_operands(input, other)
    resized(shape)
    reshaped = out.reshape(left.shape[0], left.shape[1], right.shape[2])
    linalg.bmm(left, right, out=reshaped)
    if d2 == 1:
        reshaped = reshaped.squeeze(-1)
    if not _aliases(reshaped, out):
        out.copy_(reshaped.view_as(out))
    return out


def _aliases(view, out) -> bool:
    """Whether ``view`` (out.reshape's result) shares out's memory (a view, not a copy)."""
    from .storage import storage_of

    try:
        return storage_of(view)[0] is storage_of(out)[0] or np.shares_memory(view._data, out._data)
    except RuntimeError:
        return np.shares_memory(view._data, out._data)



def addbmm_out_prepared(input, batch1, batch2, beta, out):
    """addbmm_out's addbmm_impl_ with ``out`` as its result (shapes already checked): autograd's refusal,
    then ``out.resize_as_(self expanded)`` (quiet, contiguous) and, beta not 0, ``out.copy_(self)`` (a
    cast), then each batch's ``out.addmm_``, whose checks read out's dtype as self's ("self and mat2
    must have the same dtype") and whose kernel refuses a bool out.  Returns self as the product is to
    read it: in out's dtype."""
    from ..autograd import grad_mode
    from ..tensor import _has_internal_overlap, _scalar_name
    from ._outs import _resize_out
    from .linalg import _no_bool

    if grad_mode._state["enabled"] and any(t._requires_grad for t in (input, batch1, batch2, out)):
        raise RuntimeError("addbmm(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    (b, n, m), p = batch1._data.shape, batch2._data.shape[2]
    expanded = input.expand(n, p)
    if tuple(out.shape) != (n, p):  # (resize_as_: sizes only, an out of the shape keeps its strides)
        _resize_out(out, np.empty((n, p), out._data.dtype))
    if beta != 0:
        out.copy_(expanded)
    if b:
        for a, c, names in ((out, batch2, "self and mat2"), (batch1, batch2, "mat1 and mat2")):
            if a.dtype is not c.dtype:
                raise RuntimeError(f"{names} must have the same dtype, but got {_scalar_name(a.dtype)} and "
                                   f"{_scalar_name(c.dtype)}")
        if 0 in out._data.strides and _has_internal_overlap(out._data):  # (addmm_'s output, after its meta's checks)
            raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                               "single memory location. Please clone() the tensor before performing the operation.")
    _no_bool(out, "addmm_impl_cpu_", b, n, m, p)
    return input if input.dtype is out.dtype else input.to(out.dtype)
