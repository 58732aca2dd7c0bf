"""Comparison (PyTorch's "Comparison Ops", first half): eq/ne/lt/..., logical and
bitwise ops, the tests (isnan, isinf, isclose, allclose, equal, ...) and
maximum/minimum/fmax/fmin.  Sorting and the order statistics are in ``sorting``.

Comparisons and tests have no gradient; maximum & co. carry PyTorch's nodes and
formulas (derivatives.yaml).
"""

from __future__ import annotations


import numpy as np

from .._dense import zero_strided
from .. import dtypes
from ..tensor import Tensor, _can_cast, _has_internal_overlap, _scalar_name
from ._overlap_loop import hidden_overlap as _hidden_overlap, tied_strides as _tied_strides
from ._layout import cast, empty_like, iterator_layout, laid_out_like
from ._op import Op, _check_partial_overlap, export, finish_out, inplace, method
from ._vector_loop import fmax_nans as _fmax_nans, keep_self as _keep_self, tie_by_loop as _tie_by_loop
from .pointwise import _mismatch_message, _require_tensor, binary, operands
from .selection import _scalar, where


# ---------------------------------------------------------------------------
# comparisons and logic: no gradient
# ---------------------------------------------------------------------------

#: Callables ``hook(name, operands, result)`` told of every comparison and logical op
#: (results that need no gradient, so the graph does not record them): tools that read
#: a backward formula's masks, such as ``agrad diff``.
mask_hooks: list = []


def _told(name, operands, result):
    for hook in mask_hooks:
        hook(name, operands, result)
    return result


def _compare(np_fn, name, aliases=()):
    def fn(input, other, *, out=None):
        ts, arrs = operands(input, other, name)
        try:
            r = np_fn(*arrs)
        except ValueError:
            raise RuntimeError(_mismatch_message(np.shape(arrs[0]), np.shape(arrs[1]))) from None
        if type(r) is np.ndarray and r.ndim > 1:
            r = iterator_layout(r, arrs)
        if mask_hooks and out is None:
            return _told(name, (input, other), Tensor._make(r))
        common = None  # (an out of another dtype than bool: the operands' dtype is cast into it)
        if out is not None and out.dtype is not dtypes.bool_:
            common = dtypes.from_numpy(np.result_type(*arrs))
        return finish_out(name, Tensor._make(r), out, common=common)

    fn.__name__ = name
    export(name, *aliases, method=True)(fn)
    return fn


eq = _compare(np.equal, "eq")
ne = _compare(np.not_equal, "ne", ("not_equal",))
lt = _compare(np.less, "lt", ("less",))
le = _compare(np.less_equal, "le", ("less_equal",))
gt = _compare(np.greater, "gt", ("greater",))
ge = _compare(np.greater_equal, "ge", ("greater_equal",))


def _zeros_for(meta):
    return None if meta is None else Tensor._make(np.zeros(meta[0], meta[1].numpy))


def _compare_inplace(np_fn, name):
    """``x.le_(y)``: the comparison written into x in x's dtype. Unlike ``le``, PyTorch
    records it (LeBackward0 for a number, LeBackward1 for a tensor) with zero gradients,
    so the history x had before is cut off."""
    node = name.capitalize() + "Backward"
    fwd = lambda ctx, *arrays, dtype: np_fn(*arrays).astype(dtype, copy=False)  # noqa: E731
    with_number = Op(node + "0", lambda ctx, a, other, dtype: fwd(ctx, a, other, dtype=dtype),
                     jvp="element_wise")
    with_tensor = Op(node + "1", fwd, inputs=("self", "other"), jvp="element_wise")
    with_number.derivative(lambda ctx, grad: _zeros_for(ctx._input_meta[0]))
    with_tensor.derivative(lambda ctx, grad: tuple(_zeros_for(m) for m in ctx._input_meta))

    def fn(input, other):
        ts, arrs = operands(input, other, name)
        dtype = input._data.dtype
        try:
            if ts[1] is None or not isinstance(other, Tensor):
                return with_number.apply((input,), (arrs[0],), {"other": arrs[1], "dtype": dtype})
            return with_tensor.apply((input, other), arrs, {"dtype": dtype})
        except ValueError:
            raise RuntimeError(_mismatch_message(np.shape(arrs[0]), np.shape(arrs[1]))) from None

    fn.__name__ = name
    return fn


eq_, ne_, lt_, le_, gt_, ge_ = (
    _compare_inplace(f, n) for f, n in ((np.equal, "eq"), (np.not_equal, "ne"), (np.less, "lt"),
                                         (np.less_equal, "le"), (np.greater, "gt"), (np.greater_equal, "ge")))


def _broadcasting(np_fn, arrs):
    try:
        r = np_fn(arrs[0], arrs[1])
    except ValueError:
        raise RuntimeError(_mismatch_message(np.shape(arrs[0]), np.shape(arrs[1]))) from None
    return iterator_layout(r, arrs) if type(r) is np.ndarray and r.ndim > 1 else r


def _unary_layout(r, a):
    """A one-input kernel's result laid out as TensorIterator lays it out: numpy's "K" order
    puts a broadcast (stride-0) dim of ``a`` innermost where TensorIterator's sort leaves it."""
    if type(r) is np.ndarray and r.ndim > 1 and (zero_strided(a) or not a.flags.c_contiguous and (
            1 in a.shape or _tied_strides(a))):
        return iterator_layout(r, (a,))  # (dims of one element: TensorIterator's fast set-up keeps a's strides)
    return r


def _logical(np_fn, name):
    if name == "logical_not":  # (unary: PyTorch's logical_not takes no other)
        def fn(input, *, out=None):
            r = Tensor._make(_unary_layout(np_fn(input._data), input._data))
            return _told(name, (input,), r) if mask_hooks and out is None else finish_out(name, r, out)

        fn.__name__ = name
        export(name, method=True)(fn)
        return fn

    def fn(input, other, *, out=None):
        ts, arrs = operands(input, other, name)
        r = Tensor._make(_broadcasting(np_fn, arrs))
        return _told(name, (input, other), r) if mask_hooks and out is None else finish_out(name, r, out)

    fn.__name__ = name
    export(name, method=True)(fn)
    return fn


logical_and = _logical(np.logical_and, "logical_and")
logical_or = _logical(np.logical_or, "logical_or")
logical_xor = _logical(np.logical_xor, "logical_xor")
logical_not = _logical(np.logical_not, "logical_not")


def _logical_inplace(fn, name):
    """``x.logical_and_(y)``: the result (0 or 1) written into x in x's dtype.  PyTorch records
    nothing (no derivative; its out= kernel writes into self): a leaf that requires grad may
    take it, and x keeps its history and requires_grad; only x's version moves."""
    def fn_(input, *args):
        data = input._data  # (TensorIterator's overlap checks of its output come before its shapes)
        if (not args or isinstance(args[0], Tensor)) and type(data) is np.ndarray and data.ndim \
                and 0 in data.strides and _has_internal_overlap(data):
            raise RuntimeError(
                "unsupported operation: more than one element of the written-to tensor refers to a single "
                "memory location. Please clone() the tensor before performing the operation.")
        _check_partial_overlap(input, args, {})  # (then an argument sharing some of its memory)
        if _hidden_overlap(data):  # (shared elements without a stride of 0: PyTorch's loop, element by element)
            from ._overlap_loop import in_sequence
            in_sequence(input, fn, args, {}, name, input._write_data)
            return input
        r = fn(input, *args)
        input._write_data(r)
        if mask_hooks:  # (the mask input now holds: ``agrad diff`` reads it as the logical op of both)
            _told(name.rstrip("_"), (input, *args), input)
        return input

    fn_.__name__ = fn_.__qualname__ = name
    method(name)(fn_)
    return fn_


def _other_tensor(fn, name):
    def checked(input, other):
        if not isinstance(other, Tensor):
            from ._pyargs import tp_name
            raise TypeError(f"{name}(): argument 'other' (position 1) must be Tensor, not {tp_name(other)}")
        return fn(input, other)

    return checked


logical_and_ = _logical_inplace(_other_tensor(logical_and, "logical_and_"), "logical_and_")
logical_or_ = _logical_inplace(_other_tensor(logical_or, "logical_or_"), "logical_or_")
logical_xor_ = _logical_inplace(_other_tensor(logical_xor, "logical_xor_"), "logical_xor_")
logical_not_ = _logical_inplace(logical_not, "logical_not_")


def _bitwise(np_fn, name, sym):
    def fn(input, other, *, out=None):
        ts, arrs = operands(input, other, name)
        try:  # shapes are checked before the dtype
            np.broadcast_shapes(np.shape(arrs[0]), np.shape(arrs[1]))
        except ValueError:
            raise RuntimeError(_mismatch_message(np.shape(arrs[0]), np.shape(arrs[1]))) from None
        if arrs[0].dtype.kind == "f":  # named by the promoted type (half ^ float: 'Float')
            from ._outs import out_before_kernel
            out_before_kernel(name, dtypes.from_numpy(arrs[0].dtype),
                              np.broadcast_shapes(np.shape(arrs[0]), np.shape(arrs[1])), out)
            raise NotImplementedError(f'"{name}_cpu" not implemented for \'{_scalar(dtypes.from_numpy(arrs[0].dtype))}\'')
        return finish_out(name, Tensor._make(_broadcasting(np_fn, arrs)), out)

    fn.__name__ = name
    export(name, method=True)(fn)
    return fn


bitwise_and = _bitwise(np.bitwise_and, "bitwise_and", "&")
bitwise_or = _bitwise(np.bitwise_or, "bitwise_or", "|")
bitwise_xor = _bitwise(np.bitwise_xor, "bitwise_xor", "^")


def into_self(fn, self, other):
    """``fn(self, other)`` for an in-place binary op, with TensorIterator's checks first: the
    operands' shapes, the result's shape against self's, the result type's cast to self's dtype."""
    arrs = operands(self, other, fn.__name__)[1]
    try:
        shape = np.broadcast_shapes(np.shape(arrs[0]), np.shape(arrs[1]))
    except ValueError:
        raise RuntimeError(_mismatch_message(np.shape(arrs[0]), np.shape(arrs[1]))) from None
    _check_into_self(self, shape, arrs)
    return fn(self, other)


def _check_into_self(self, shape, arrs):
    """TensorIterator's checks of an in-place result: its shape against self's, then the
    result type's cast to self's dtype."""
    if shape != self.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(shape)}")
    common = dtypes.from_numpy(np.result_type(arrs[0]))
    if not _can_cast(common, self.dtype):
        raise RuntimeError(f"result type {_scalar_name(common)} can't be cast to the desired output type "
                           f"{_scalar_name(self.dtype)}")


def _bitwise_(fn):
    def fn_(self, other):
        return into_self(fn, self, other)

    fn_.__name__ = fn.__name__
    return inplace(fn_, partial=True)


bitwise_and_, bitwise_or_, bitwise_xor_ = (_bitwise_(f) for f in (bitwise_and, bitwise_or, bitwise_xor))
method("bitwise_and_")(bitwise_and_)
method("bitwise_or_")(bitwise_or_)
method("bitwise_xor_")(bitwise_xor_)


@export(method=True)
def bitwise_not(input, *, out=None):
    from ._outs import same_dtype_out

    same_dtype_out("bitwise_not", input, out)
    if input.dtype.is_floating_point:
        from ._outs import out_before_kernel
        out_before_kernel("bitwise_not", input.dtype, input.shape, out)  # (``~x`` is refused before, agrad.ops.operators)
        raise NotImplementedError(f'"bitwise_not_cpu" not implemented for \'{_scalar_name(input.dtype)}\'')
    return finish_out("bitwise_not", Tensor._make(_unary_layout(np.invert(input._data), input._data)), out)


def _shift_arrays(a, b, left):
    """PyTorch's CPU shift kernels (BinaryOpsKernel.cpp) on integer arrays of one dtype:
    a shift by a negative amount or by the bit width or more gives 0 (left, and right
    of an unsigned value) or the sign (right of a signed value); a left shift works on
    the unsigned bits, so it wraps."""
    a, b = np.asarray(a), np.asarray(b)
    bits = a.dtype.itemsize * 8
    out_of_range = (b.astype(f"i{a.dtype.itemsize}") < 0) | (b >= bits)
    if left:
        unsigned = f"u{a.dtype.itemsize}"
        r = np.left_shift(a.astype(unsigned), np.where(out_of_range, 0, b).astype(unsigned)).astype(a.dtype)
        return np.where(out_of_range, np.zeros((), a.dtype), r)
    if a.dtype.kind == "i":
        return np.right_shift(a, np.where(out_of_range, bits - 1, b).astype(a.dtype))
    return np.where(out_of_range, np.zeros((), a.dtype), np.right_shift(a, np.where(out_of_range, 0, b).astype(a.dtype)))


def _shift(name, kernel, left):
    def arrays(input, other):
        if not isinstance(input, Tensor) and not isinstance(other, Tensor):  # PyTorch's parser message
            raise TypeError(f"{name}() received an invalid combination of arguments")
        arrs = operands(input, other, name)[1]
        try:  # shapes are checked before the dtype
            np.broadcast_shapes(np.shape(arrs[0]), np.shape(arrs[1]))
        except ValueError:
            raise RuntimeError(_mismatch_message(np.shape(arrs[0]), np.shape(arrs[1]))) from None
        return arrs

    def result(arrs, dtype):
        if dtype.kind not in "iu":  # named by the promoted type (int << 1.5: 'Float')
            raise NotImplementedError(f'"{kernel}_cpu" not implemented for \'{_scalar(dtypes.from_numpy(dtype))}\'')
        r = _shift_arrays(np.asarray(arrs[0], dtype), np.asarray(arrs[1], dtype), left)
        # (numpy's where/astype steps leave a broadcast dim innermost: TensorIterator's layout instead)
        return iterator_layout(r, arrs) if r.ndim > 1 else r

    def fn(input, other, *, out=None):
        arrs = arrays(input, other)
        if out is not None and np.result_type(arrs[0]).kind not in "iu":
            from ._outs import out_before_kernel
            out_before_kernel(name, dtypes.from_numpy(np.result_type(arrs[0])),
                              np.broadcast_shapes(np.shape(arrs[0]), np.shape(arrs[1])), out)
        return finish_out(name, Tensor._make(result(arrs, np.result_type(arrs[0]))), out)

    def fn_(self, other):
        arrs = arrays(self, other)
        _check_into_self(self, np.broadcast_shapes(np.shape(arrs[0]), np.shape(arrs[1])), arrs)
        return Tensor._make(result(arrs, np.result_type(arrs[0])))

    fn.__name__ = fn_.__name__ = name
    export(name, method=True)(fn)
    return fn, inplace(fn_, partial=True)


bitwise_left_shift, bitwise_left_shift_ = _shift("bitwise_left_shift", "lshift", left=True)
bitwise_right_shift, bitwise_right_shift_ = _shift("bitwise_right_shift", "rshift", left=False)
method("bitwise_left_shift_")(bitwise_left_shift_)
method("bitwise_right_shift_")(bitwise_right_shift_)
method("bitwise_not_")(inplace(bitwise_not))


# ---------------------------------------------------------------------------
# tests: no gradient
# ---------------------------------------------------------------------------

def _test(np_fn, fname, out_form=False):
    def fn(input):
        if not isinstance(input, Tensor):
            raise TypeError(f"{fname}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
        a = input._data
        if a.dtype.kind != "f":
            if fname in ("isinf", "isfinite"):  # (ATen: zeros_like / ones_like of an integral self)
                return Tensor._make(laid_out_like(a, np_fn(cast(a, np.float64))))
            return Tensor._make(_unary_layout(np_fn(cast(a, np.float64)) if fname != "signbit" else np_fn(a), a))
        return Tensor._make(_unary_layout(np_fn(a), a))

    if out_form:  # (isposinf, isneginf and signbit take out=; isnan, isinf and isfinite do not)
        test = fn

        def fn(input, *, out=None):
            return finish_out(fname, test(input), out)

    fn.__name__ = fname
    fn.__doc__ = f"Elementwise {fname} (a bool tensor, no gradient)."
    export(fname, method=True)(fn)
    return fn


isnan = _test(np.isnan, "isnan")
isinf = _test(np.isinf, "isinf")
isfinite = _test(np.isfinite, "isfinite")
isposinf = _test(np.isposinf, "isposinf", True)
isneginf = _test(np.isneginf, "isneginf", True)
signbit = _test(np.signbit, "signbit", True)


@export(method=True)
def isreal(input):
    out = empty_like(input._data, np.bool_)  # (PyTorch's ones_like: laid out like the input)
    out[...] = True
    return Tensor._make(out)


def _isclose_arrays(input, other, rtol, atol, equal_nan):
    _require_tensor("isclose", other)
    if input.dtype is not other.dtype:
        raise RuntimeError(f"{_scalar_name(input.dtype)} did not match {_scalar_name(other.dtype)}")
    if not rtol >= 0:  # (NaN too) printed as C++ prints a double
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {float(rtol):g}")
    if not atol >= 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {float(atol):g}")
    a, b = arrays = input._data, other._data
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise RuntimeError(_mismatch_message(a.shape, b.shape)) from None
    with np.errstate(all="ignore"):
        close = a == b
        if a.dtype.kind == "b":  # PyTorch measures the error of bools in the default float dtype
            if rtol == 0 and atol == 0:
                return close
            a, b = (a.astype(dtypes.get_default_dtype().numpy), b.astype(dtypes.get_default_dtype().numpy))
        if equal_nan and a.dtype.kind == "f":
            close = close | (np.isnan(a) & np.isnan(b))
        if a.dtype.kind == "f":
            diff = np.abs(a - b)
            tol = atol + rtol * np.abs(b)
            close = close | (np.isfinite(diff) & (diff <= tol))
        else:
            diff = np.abs(a.astype(np.float64) - b.astype(np.float64))
            close = close | (diff <= atol + rtol * np.abs(b.astype(np.float64)))
    # (laid out as its first step, self == other, whose result the others update in place)
    return iterator_layout(close, arrays) if close.ndim > 1 else close


@export(method=True)
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|input - other| <= atol + rtol * |other|, elementwise."""
    return Tensor._make(_isclose_arrays(input, other, rtol, atol, equal_nan))


@export(method=True)
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True when every element is close (a Python bool)."""
    return bool(np.all(_isclose_arrays(input, other, rtol, atol, equal_nan)))


@export(method=True)
def equal(input, other):
    """True when both tensors have the same shape and elements (a Python bool)."""
    _require_tensor("equal", other)
    if input.shape != other.shape:
        return False
    return bool(np.array_equal(input._data, other._data))


def _tie_split(ctx, grad, self_loses, other_loses):
    """where(self == other, grad / 2, grad).masked_fill_(loses, 0), made once per input that needs it
    (PyTorch's two formulas: two WhereBackward0 nodes under create_graph)."""
    a, b = ctx.self, ctx.other
    # (masked_fill_ in place, as derivatives.yaml's: the result keeps where's layout)
    return tuple(where(a == b, grad / 2, grad).masked_fill_(loses(a, b), 0) if ctx.needs(i) else None
                 for i, loses in enumerate((self_loses, other_loses)))


@binary(_tie_by_loop(np.maximum), "maximum", saves=("self", "other"))
def _maximum(ctx, grad):
    return _tie_split(ctx, grad, lambda a, b: a < b, lambda a, b: a > b)


@binary(_tie_by_loop(np.minimum), "minimum", saves=("self", "other"))
def _minimum(ctx, grad):
    return _tie_split(ctx, grad, lambda a, b: a > b, lambda a, b: a < b)


def _extremum_jvp(pick):
    def jvp(ctx, st, ot):
        # derivatives.yaml: other_t + where(self_p == other_p, 0.5, pick(self_p, other_p)) * (self_t - other_t)
        from ..autograd import _zero_terms as z
        a, b, res = ctx.self, ctx.other, ctx.result
        w = where(a == b, Tensor._make(np.array(0.5, res._data.dtype)), pick(a, b).to(res.dtype))
        st, ot = z.tangent(st), z.tangent(ot)
        return z.done(z.add(ot, z.mul(w, z.sub(st, ot))), res)
    return jvp


_maximum.forward_derivative(_extremum_jvp(lambda a, b: a > b))
_minimum.forward_derivative(_extremum_jvp(lambda a, b: a < b))


@export(method=True)
def maximum(input, other, *, out=None):
    """Elementwise maximum (NaN propagates); ties share the gradient."""
    _require_tensor("maximum", other)
    ts, arrs = operands(input, other, "maximum")
    return finish_out("maximum", _maximum.apply(ts, arrs, {}), out)


@export(method=True)
def minimum(input, other, *, out=None):
    """Elementwise minimum (NaN propagates); ties share the gradient."""
    _require_tensor("minimum", other)
    ts, arrs = operands(input, other, "minimum")
    return finish_out("minimum", _minimum.apply(ts, arrs, {}), out)


@binary(_fmax_nans(np.fmax), "fmax", saves=("self", "other"))
def _fmax(ctx, grad):
    a, b = ctx.self, ctx.other
    take_a = (a >= b) | isnan(b)
    return grad.masked_fill(take_a.logical_not(), 0), grad.masked_fill(take_a, 0)


@binary(_fmax_nans(np.fmin), "fmin", saves=("self", "other"))
def _fmin(ctx, grad):
    a, b = ctx.self, ctx.other
    take_a = (a <= b) | isnan(b)
    return grad.masked_fill(take_a.logical_not(), 0), grad.masked_fill(take_a, 0)


@export(method=True)
def fmax(input, other, *, out=None):
    """Elementwise maximum ignoring NaN."""
    _require_tensor("fmax", other)
    ts, arrs = operands(input, other, "fmax")
    return finish_out("fmax", _fmax.apply(ts, arrs, {}), out)


@export(method=True)
def fmin(input, other, *, out=None):
    """Elementwise minimum ignoring NaN."""
    _require_tensor("fmin", other)
    ts, arrs = operands(input, other, "fmin")
    return finish_out("fmin", _fmin.apply(ts, arrs, {}), out)
