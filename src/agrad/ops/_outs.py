"""``out=``: PyTorch's checks of an out tensor's dtype (which op raises which text), ATen's
resize_output with its deprecation warning, and the copy of a result into ``out``."""

from __future__ import annotations

from ..autograd import graph
from . import _layout


#: ``out=`` decides the dtype: factories, and the reductions that take out's dtype as their ``dtype``
_OUT_GIVES_DTYPE = frozenset({"sum", "prod", "nansum", "cumsum", "cumprod", "arange", "range", "linspace",
                              "logspace", "eye", "zeros", "ones", "full", "empty", "rand", "randn", "randint",
                              "randperm", "bernoulli", "normal", "multinomial", "searchsorted", "bucketize",
                              "frexp", "tensor", "polar", "complex"})
#: ops whose ``out`` must have the result's dtype: TensorIterator's check_all_same_dtype ("Found dtype")
_OUT_SAME_FOUND = frozenset({"abs", "absolute", "neg", "negative", "floor", "ceil", "round", "trunc", "fix",
                             "frac", "sign", "sgn", "bitwise_not", "clamp", "clip", "clamp_min", "clamp_max"})
#: ... or the kernel's own "Expected out tensor to have dtype" (checkSameType-like)
_OUT_SAME_EXPECTED = frozenset({"mm", "matmul", "bmm", "mv", "addmm", "addmv", "baddbmm", "addbmm", "index_add",
                                "gather", "take_along_dim", "diag", "tril", "triu", "linalg_cross", "linalg_vector_norm",
                                "linalg_matrix_norm", "cross", "frobenius_norm"})


def _check_out_dtype(fname, result, out):
    """PyTorch's refusal of an ``out=`` tensor whose dtype the result cannot go to (by op family)."""
    from ..tensor import _can_cast, _scalar_name

    r, o = result.dtype, out.dtype
    if fname in _OUT_SAME_FOUND:
        raise RuntimeError(f"Found dtype {_scalar_name(o)} but expected {_scalar_name(r)}")
    if fname in _OUT_SAME_EXPECTED:
        raise RuntimeError(f"Expected out tensor to have dtype {_C_TYPE[r.name]}, but got {_C_TYPE[o.name]} instead")
    if fname in ("signbit", "isposinf", "isneginf"):
        raise RuntimeError(f"{fname} does not support non-boolean outputs.")
    if fname == "where":
        raise RuntimeError(f"Expected out type to be {_scalar_name(r)} but got {_scalar_name(o)}")
    if fname in ("amax", "amin"):
        raise RuntimeError(f"Expected the dtype for input and out to match, but got {_scalar_name(r)} for input's "
                           f"dtype and {_scalar_name(o)} for out's dtype.")
    if fname in ("dot", "vdot"):
        raise RuntimeError(f"result dtype {_scalar_name(o)} does not match input dtype {_scalar_name(r)}")
    if fname in ("index_select", "masked_select"):
        raise RuntimeError(f"{fname}(): self and result must have the same scalar type")
    if fname == "take":
        raise RuntimeError(f"take(): self and out expected to have the same dtype, but got self.dtype = "
                           f"{_scalar_name(r)} and out.dtype = {_scalar_name(o)}")
    if fname == "nonzero":
        raise RuntimeError(f"nonzero: Expected out tensor to have scalar type Long but got scalar type{_scalar_name(o)}")
    if fname == "logsumexp" and not o.is_floating_point:
        raise RuntimeError(f"logsumexp(): Expected floating point type for result tensor, but got: {_scalar_name(o)}")
    if not _can_cast(r, o):  # TensorIterator's common dtype into the output
        raise RuntimeError(f"result type {_scalar_name(r)} can't be cast to the desired output type "
                           f"{_scalar_name(o)}")


def cast_error(fname):
    """``_check_out_dtype``'s refusal as a value: a function of (result, out) giving the exception (or None)."""
    def check(result, out):
        try:
            _check_out_dtype(fname, result, out)
        except RuntimeError as e:
            return e
        return None
    return check


def same_dtype_out(fname, input, out):
    """A unary op that keeps its dtype (TensorIterator's check_all_same_dtype): an ``out=`` of another
    dtype is refused as the iterator is built, before the kernel's own refusal of the dtype
    (``frac`` of an integer tensor, ``abs`` of a bool one); the iterator's check of out's internal overlap
    comes before, and autograd's refusal before both."""
    if out is not None:
        from ..autograd import grad_mode

        if grad_mode._state["enabled"] and (input._requires_grad or out._requires_grad and fname not in NO_GRAD_OUTS):
            raise RuntimeError(f"{_GRAD_NAME.get(fname, fname)}(): functions with out=... arguments don't support "
                               "automatic differentiation, but one of the arguments requires grad.")
        iterator_overlap(out)
    if out is not None and out.dtype is not input.dtype:
        from ..tensor import _scalar_name

        raise RuntimeError(f"Found dtype {_scalar_name(out.dtype)} but expected {_scalar_name(input.dtype)}")


def warn_resized(shape, wanted):
    """ATen's resize_output: an ``out=`` with elements and another shape is resized, with a warning
    (attributed to the first caller outside agrad, as PyTorch's C++ warning is to the Python line)."""
    from .._warn_once import warn

    warn(f"An output with one or more elements was resized since it had shape {list(shape)}, which does "
         f"not match the required output shape {list(wanted)}. This behavior is deprecated, and in a "
         "future PyTorch release outputs will not be resized unless they have zero elements. You can "
         "explicitly reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).",
         UserWarning)


#: structured TensorIterator ops that cast their common dtype into ``out`` (cast_common_dtype_to_outputs):
#: an ``out`` of another dtype gives way to a temporary of the common dtype (empty_like of out, its old
#: shape), which resize_output resizes as well: an ``out`` with elements and another shape warns twice
_TEMPORARY_OUT = frozenset("""
    acos acosh add addcdiv addcmul asin asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_or
    bitwise_right_shift bitwise_xor copysign cos cosh deg2rad digamma div eq erf erfc erfinv exp exp2 expm1
    fmax fmin fmod gcd ge gt hypot i0 igamma igammac lcm ldexp le lgamma log log10 log1p log2 logaddexp
    logaddexp2 lt maximum minimum mul ne nextafter polygamma pow rad2deg reciprocal remainder rsqrt sigmoid
    sin sinc sinh special_entr special_i0e special_i1 special_log_ndtr special_ndtri special_xlog1py
    special_zeta sqrt square sub tan tanh true_divide xlogy outer ger
""".split())
#: ops without a derivative (derivatives.yaml: none, or output_differentiability False): their out= overloads
#: have no autograd check, an ``out`` that requires grad is written as it is (no grad_fn, still requiring grad)
NO_GRAD_OUTS = frozenset(("eq ne lt le gt ge logical_and logical_or logical_xor logical_not argmax argmin "
                          "isneginf isposinf signbit histc special_airy_ai special_bessel_j0 special_bessel_j1 "
                          "special_bessel_y0 special_bessel_y1 special_modified_bessel_i0 special_modified_bessel_i1 "
                          "special_modified_bessel_k0 special_modified_bessel_k1 special_scaled_modified_bessel_k0 "
                          "special_scaled_modified_bessel_k1 special_spherical_bessel_j0 "
                          "special_chebyshev_polynomial_t special_chebyshev_polynomial_u special_chebyshev_polynomial_v "
                          "special_chebyshev_polynomial_w special_shifted_chebyshev_polynomial_t "
                          "special_shifted_chebyshev_polynomial_u special_shifted_chebyshev_polynomial_v "
                          "special_shifted_chebyshev_polynomial_w special_hermite_polynomial_h "
                          "special_hermite_polynomial_he special_laguerre_polynomial_l special_legendre_polynomial_p"
                          ).split())
#: reductions whose meta function resizes ``out`` (resize_reduction) before the iterator checks its dtype
_RESIZED_BEFORE_CHECK = frozenset({"var", "std"})


_OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
            "single memory location. Please clone() the tensor before performing the operation.")


def no_overlap(out, *inputs):
    """ATen's assert_no_overlap(out, input) for each input (a tensor, or a list of them): an out that
    shares memory with one (the very tensor too) is refused (index_select, gather, cat, cross, ...)."""
    from ..tensor import Tensor

    for a in inputs:
        for t in (a if isinstance(a, (list, tuple)) else (a,)):
            if isinstance(t, Tensor) and _layout.overlaps(out._data, t._data):
                raise RuntimeError(_OVERLAP)


#: the op whose out= overload autograd refuses, where it is not the op's own: the composites' (inv is
#: linalg_inv_ex's out, diff sub's, kron mul's, square pow's, ...)
_GRAD_NAME = {"linalg_cholesky": "linalg_cholesky_ex", "linalg_det": "_linalg_det", "linalg_inv": "linalg_inv_ex",
              "diff": "sub", "kron": "mul", "matrix_power": "matmul", "msort": "sort",
              "linalg_solve": "_linalg_solve_ex", "square": "pow", "linalg_svdvals": "_linalg_svd",
              "linalg_vecdot": "sum", "float_power": "pow", "take_along_dim": "gather", "linalg_svd": "_linalg_svd",
              "svd": "_linalg_svd", "linalg_lu_factor": "linalg_lu_factor_ex", "linalg_slogdet": "_linalg_slogdet",
              "linalg_solve_ex": "_linalg_solve_ex", "log_sigmoid": "log_sigmoid_forward", "linalg_multi_dot": "mm",
              "outer": "mul", "linalg_ldl_factor": "linalg_ldl_factor_ex", "frobenius_norm": "norm",
              "qr": "linalg_qr"}


#: other TensorIterator ops whose ``out`` is checked for internal overlap first (compute_mem_overlaps)
_ITERATOR_OUTS = frozenset({"special_erfcx", "special_i1e", "angle", "logit", "nan_to_num", "floor_divide", "logical_and",
                            "logical_or", "logical_xor", "heaviside", "addr"})
#: ... after out's resize (the cumulative kernels' iterator): an out of another shape is a new one, no refusal
_RESIZED_ITERATOR_OUTS = frozenset({"cumsum", "cumprod", "logcumsumexp"})


def iterator_overlap(out):
    """TensorIterator's compute_mem_overlaps of ``out`` (before the shapes and the dtypes): an out whose
    elements share memory (a stride 0) is refused."""
    if out._data.ndim and 0 in out._data.strides and _has_overlap(out._data):
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a single "
                           "memory location. Please clone() the tensor before performing the operation.")


def _has_overlap(a):
    from ..tensor import _has_internal_overlap
    return _has_internal_overlap(a)


def finish_out(fname, result, out, quiet_resize=False, common=None, cast=None, inputs=()):
    """Write ``result`` into ``out=`` (in place), with PyTorch's checks.  ``quiet_resize``: the
    kernel resizes ``out`` itself (factories, samplers, narrow_copy): no resize_output warning.
    ``common``: the dtype the op computes in where it is not the result's (a comparison's operands'
    dtype); ``cast``: True for a TensorIterator op that casts into ``out`` (:data:`_TEMPORARY_OUT`'s
    rule and check) under a name that does not always (clamp with tensor bounds). ``inputs``: those
    ``out`` must not share memory with (:func:`no_overlap`)."""
    if out is None:
        return result
    from ..autograd import grad_mode

    if grad_mode._state["enabled"] and (result._requires_grad or out._requires_grad and fname not in NO_GRAD_OUTS):
        raise RuntimeError(
            f"{_GRAD_NAME.get(fname, fname)}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    if inputs:
        if out.dtype is result.dtype and out.shape == result.shape:  # (assert_no_internal_overlap(out) first;
            iterator_overlap(out)  # another dtype: its check first; another shape: resized first, a new one)
        no_overlap(out, *inputs)
    if fname in _TEMPORARY_OUT or fname in _OUT_SAME_FOUND or fname in _ITERATOR_OUTS \
            or fname in NO_GRAD_OUTS and fname.startswith("special_") \
            or fname in _RESIZED_ITERATOR_OUTS and out.shape == result.shape:
        iterator_overlap(out)
    if out._data.dtype != result._data.dtype and fname not in _OUT_GIVES_DTYPE:
        if fname in _RESIZED_BEFORE_CHECK and out.shape != result.shape:
            if out._data.size:
                warn_resized(out.shape, result.shape)
            _resize_out(out, result._data)
        _check_out_dtype(None if cast else fname, result, out)
    if out.shape != result.shape:
        if out._data.size and not (quiet_resize or fname == "narrow_copy"):
            warn_resized(out.shape, result.shape)
            if (cast or fname in _TEMPORARY_OUT) and out.dtype is not (common or result.dtype):
                warn_resized(out.shape, result.shape)  # (the temporary's resize)
        _resize_out(out, result._data)
    out._data[...] = result._data
    out._vc[0] += 1
    for obs in graph.version_observers:
        obs(out)
    return out


def copied_out(result, out, dtype_error=None):
    """A composite's out= (tensordot_out): the result computed as without out, out's dtype checked
    (``dtype_error(result, out)``: the exception), ATen's resize_output (contiguous, with its warning),
    then ``out.copy_(result)``, which autograd records (CopyBackwards; CopySlices for a view): no refusal
    of an input that requires grad."""
    import numpy as np

    if dtype_error is not None and result.dtype is not out.dtype:
        raise dtype_error(result, out)
    if out.shape != result.shape:
        if out._data.size:
            warn_resized(out.shape, result.shape)
        _resize_out(out, np.empty(result.shape, out._data.dtype))
    out.copy_(result)
    return out


def out_before_kernel(fname, dtype, shape, out, common=None, same=False):
    """What a TensorIterator op does to ``out=`` before its kernel refuses a dtype (``"gcd_cpu" not
    implemented for 'Float'``): the check of out's dtype against the result's ``dtype`` (``same``:
    check_all_same_dtype's "Found dtype"), then out's resize to ``shape`` (with the warning, twice
    where a temporary takes the cast), so the caller's error comes after both, out resized."""
    if out is None:
        return
    import numpy as np

    from ..tensor import Tensor

    like = Tensor._make(np.empty(tuple(shape), dtype.numpy))
    if out.dtype is not dtype:
        if same:
            from ..tensor import _scalar_name
            raise RuntimeError(f"Found dtype {_scalar_name(out.dtype)} but expected {_scalar_name(dtype)}")
        _check_out_dtype(fname, like, out)
    if out.shape != like.shape:
        if out._data.size:
            warn_resized(out.shape, like.shape)
            if fname in _TEMPORARY_OUT and out.dtype is not (common or dtype):
                warn_resized(out.shape, like.shape)
        _resize_out(out, like._data)


def matrix_out(fname, inputs, dtype, shape, out):
    """The structured matrix products' meta functions (mm, bmm, addmm, addmv, baddbmm, mv's addmv):
    autograd's refusal of ``out=``, then out's dtype must be ``dtype`` (the operand whose options the
    meta function gives the result: mm's self, bmm's batch2, ...), then out is resized (resize_output,
    with its warning) -- all before the kernel's own checks of the inputs' dtypes and its refusal of bool."""
    if out is None:
        return
    import numpy as np

    from ..autograd import grad_mode

    if grad_mode._state["enabled"] and any(t is not None and t._requires_grad for t in (*inputs, out)):
        raise RuntimeError(f"{fname}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    if out.dtype is not dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {_C_TYPE[dtype.name]}, but got "
                           f"{_C_TYPE[out.dtype.name]} instead")
    shape = tuple(shape)
    if tuple(out.shape) != shape:
        if out._data.size:
            warn_resized(out.shape, shape)
        _resize_out(out, np.empty(shape, dtype.numpy))
    elif fname in _OVERLAP_CHECKED_PRODUCTS:
        iterator_overlap(out)


#: the structured products whose kept out is checked for elements sharing memory (mv's addmv and bmm
#: are not)
_OVERLAP_CHECKED_PRODUCTS = frozenset({"mm", "addmm", "addmv", "baddbmm"})


def unary_into(fname, input, out, compute, written=True):
    """A structured unary op into ``out=`` (F.gelu, softplus, softshrink, hardshrink): autograd's refusal,
    check_all_same_dtype's "Found dtype", out resized to the input's shape (warning; the input's layout),
    then the op's own checks and kernel (``compute()``) and the write (``written`` False: the kernel
    wrote elsewhere, F.gelu's oneDNN path into an out that is not contiguous)."""
    same_dtype_out(fname, input, out)  # (autograd's refusal first)
    if tuple(out.shape) != tuple(input.shape):
        if out._data.size:
            warn_resized(out.shape, input.shape)
        _resize_out(out, _layout.resized_by_iterator(input._data, (input._data,)))  # (empty: its fast set-up's)
    result = compute(out) if not written else compute()
    return out if not written else finish_out(fname, result, out)


def _resize_out(out, like):
    """ATen's resize_output, then the meta function's restride: ``out`` keeps its storage (resize_:
    from its offset on; grown past the storage's end as agrad's resize_ grows, a new buffer that starts
    with the old bytes) and takes the result's layout, TensorIterator's or the kernel's, over it.  (A
    node that made ``out`` keeps the shape it recorded: the engine checks gradients against it.)"""
    from ..autograd import _resized

    _resize_into(out, like)
    _resized.note(out)


def _resize_into(out, like):
    import numpy as np

    from .storage import storage_of

    laid = _layout.empty_like(like, out._data.dtype)
    n = laid.size
    try:
        flat, offset = storage_of(out)
    except RuntimeError:  # (not one buffer: a new one)
        out._data = laid
        return
    if offset + n > flat.size:
        grown = np.zeros(offset + n, flat.dtype)
        grown[:flat.size] = flat
        flat = grown
    part = flat[offset:offset + n]
    if not n:  # (empty: the result's strides carried, _layout.carried)
        out._data = _layout.with_empty_strides(part.reshape(laid.shape), _layout.torch_strides(laid))
        return
    out._data = np.lib.stride_tricks.as_strided(part, laid.shape, laid.strides)


_C_TYPE = {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
           "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
           "bool": "bool", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}


def _out_dtype_error(fname, check, i, result, out):
    """The error PyTorch's ``fname(..., out=)`` raises when ``out`` (the ``i``-th) has another dtype
    than its result, or None where PyTorch casts into it.  ``check``: "exact" (checkSameType /
    the linalg and sort kernels), "cast" (cat/stack: any dtype the result can be cast to), None
    (composites that write through copy_), or a function of (i, result, out) for an op's own text."""
    from ..tensor import _can_cast, _scalar_name

    rd, od = result.dtype, out.dtype
    if check is None or rd is od:
        return None
    if check == "can_cast":  # (max/min of all elements: max_unary_out's TORCH_CHECK)
        if _can_cast(rd, od):
            return None
        return RuntimeError("Expected canCast( typeMetaToScalarType(self.dtype()), typeMetaToScalarType(out.dtype())) "
                            "to be true, but got false.  (Could this error message be improved?  If so, please "
                            "report an enhancement request to PyTorch.)")
    if check == "cast":
        if _can_cast(rd, od):
            return None
        return TypeError(f"torch.cat(): input types can't be cast to the desired output type {_scalar_name(od)}")
    if callable(check):
        error = check(i, result, out)
        if error is not None:
            return error
    return RuntimeError(f"Expected out tensor to have dtype {_C_TYPE[rd.name]}, but got {_C_TYPE[od.name]} instead")


#: tuple outs a structured meta function resizes one by one: those before a later out's dtype error are resized
_RESIZED_BEFORE_LATER_CHECK = frozenset({"max", "min", "sort", "topk", "aminmax"})
_RESIZED_LIKE_RESULT = frozenset({"linalg_lu_factor", "linalg_lu_factor_ex", "linalg_lu", "linalg_qr", "qr"})


def write_outs(fname, result, out, check="exact", inputs=(), contiguous=False):
    """Write ``result`` (a tensor, or a tuple of them such as torch.return_types.sort) into the
    tensors of ``out=`` and return them as PyTorch does: ``out`` itself, or the same return type
    holding the ``out`` tensors.  Autograd's refusal comes first, then the dtype checks, then the
    writes (each resized as ``finish_out`` does; ``contiguous``: C-ordered, as a kernel that computes
    the result apart and then does resize_output and copy_; ``"filled"``: so when the out has elements,
    else the kernel writes into it directly, resized as its result is laid out: cholesky_inverse)."""
    results = tuple(result) if isinstance(result, tuple) else (result,)
    outs = tuple(out) if isinstance(result, tuple) else (out,)
    if len(outs) != len(results):
        raise TypeError(f"{fname}(): argument 'out' must be tuple of Tensors of length {len(results)}")
    from ..autograd import grad_mode

    enabled = grad_mode._state["enabled"]
    fallback = fname in FALLBACK_OUTS
    if fallback:
        enabled = fallback_refusal(fname, results, outs)
    if enabled and not fallback and any(r._requires_grad or o._requires_grad and fname not in NO_GRAD_OUTS
                                        for r, o in zip(results, outs)):
        raise RuntimeError(
            f"{_GRAD_NAME.get(fname, fname)}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad.")
    for r, o in zip(results, outs) if inputs else ():
        if o.shape == r.shape:  # (assert_no_internal_overlap(out) first; another shape: resized first, a new one)
            iterator_overlap(o)
        no_overlap(o, *inputs)
    for i, (r, o) in enumerate(zip(results, outs)):
        error = _out_dtype_error(fname, check, i, r, o)
        if error is not None:
            if fname in _RESIZED_BEFORE_LATER_CHECK or fname in _RESIZED_LIKE_RESULT:  # (the structured meta
                import numpy as np  # sets the outputs in turn; the LU factorizations' with their strides)
                for r0, o0 in zip(results[:i], outs[:i]):
                    if o0.shape != r0.shape:
                        if o0._data.size:
                            warn_resized(o0.shape, r0.shape)
                        like = r0._data if fname in _RESIZED_LIKE_RESULT else np.empty(r0.shape, o0._data.dtype)
                        _resize_out(o0, like)
            raise error
    if fallback and enabled:
        results = _fallback_node(fname, results, outs)
    for r, o in zip(results, outs):
        if contiguous and o.shape != r.shape and (contiguous is True or o._data.size):
            import numpy as np
            if o._data.size:
                warn_resized(o.shape, r.shape)
            _resize_out(o, np.empty(r.shape, o._data.dtype))
        if fallback and enabled and r._requires_grad:
            _take_history(fname, r, o)
        else:
            finish_out(fname, r, o)
    if type(result) is tuple:
        return outs
    return _out_type(type(result))(*outs) if isinstance(result, tuple) else outs[0]


#: out overloads autograd's not-implemented fallback runs (no derivative): an input that requires grad is
#: no refusal, the out takes the result's NotImplemented node (:func:`fallback_refusal` for the outs)
FALLBACK_OUTS = frozenset({"linalg_ldl_factor_ex", "linalg_ldl_factor", "linalg_ldl_solve", "histogram"})
#: ... and the out overloads ATen generates for the view ops' copies (``view_copy.out``, ...) and for
#: diag_embed (torch.diag's of a vector): their functional forms have derivatives, these have none
FALLBACK_COPIES = frozenset("""
    view_copy permute_copy transpose_copy t_copy unsqueeze_copy squeeze_copy select_copy slice_copy
    diagonal_copy expand_copy alias_copy detach_copy unfold_copy as_strided_copy diag_embed""".split())
FALLBACK_OUTS |= FALLBACK_COPIES


def fallback_out(fname, fn, args, kwargs, out):
    """``fn(*args, **kwargs)`` into ``out=`` as autograd's not-implemented fallback runs an out overload:
    computed without a graph, then (an input requiring grad) a NotImplemented node for ``aten::fname``."""
    from ..autograd import grad_mode
    from ..tensor import Tensor
    from ._not_implemented import not_implemented

    tensors = [a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]
    if not fallback_refusal(fname, tensors, (out,)):  # (an out refused before the kernel runs)
        return write_outs(fname, fn(*args, **kwargs), out)
    with grad_mode.no_grad():
        result = fn(*args, **kwargs)
    return write_outs(fname, not_implemented(result._data, tensors, f"aten::{fname}"), out)  # (out: write_outs)


def fallback_refusal(fname, tensors, outs):
    """Autograd's not-implemented fallback before an out= kernel: when grad mode is on and a tensor
    among ``tensors`` (the inputs, or results that carry their history) or ``outs`` requires grad,
    an out that its in-place check refuses (a leaf that requires grad, a view of one, a view made
    under no_grad) raises the out= text under the aten name.  Returns whether the call is recorded."""
    from ..autograd import grad_mode
    from ..tensor import Tensor

    recorded = grad_mode._state["enabled"] and any(
        isinstance(t, Tensor) and t._requires_grad for t in (*tensors, *outs))
    for o in outs if recorded else ():
        try:
            o._check_inplace(True, overlap="allow")
        except RuntimeError:
            raise RuntimeError(f"aten::{_GRAD_NAME.get(fname, fname)}(): functions with out=... arguments don't "
                               "support automatic differentiation, but one of the arguments requires grad.") from None
    return recorded


def _fallback_node(fname, results, outs):
    """The results of autograd's not-implemented fallback: one NotImplemented node whose edges are every
    tensor argument that requires grad, in the schema's order -- the inputs (the results' own node's
    edges), then the outs (their histories before the call) -- which every floating result takes."""
    from ..autograd.graph import _link_inputs
    from ..tensor import Tensor
    from ._not_implemented import not_implemented

    extra = [o for o in outs if o._requires_grad]
    node = next((r._grad_fn for r in results if r._requires_grad and r._grad_fn is not None), None)
    if node is not None:
        if extra:
            class _Edges:
                pass
            more = _Edges()
            _link_inputs(more, extra)
            node.next_functions = tuple(node.next_functions) + more.next_functions
            node._input_meta = tuple(node._input_meta) + more._input_meta
        return results
    floats = [i for i, r in enumerate(results) if r.dtype.is_floating_point or r.dtype.is_complex]
    if not extra or not floats:
        return results
    first = not_implemented(results[floats[0]]._data, extra, f"aten::{fname}")
    made = list(results)
    for k, i in enumerate(floats):
        if k == 0:
            made[i] = first
            continue
        t = Tensor._make(results[i]._data, True)
        t._grad_fn, t._output_nr = first._grad_fn, k  # (rebased onto output 0 by _take_history)
        made[i] = t
    return tuple(made)


def _take_history(fname, result, out):
    """``out`` written in place with ``result``'s value and its (NotImplemented) node, resized first.
    Autograd's fallback rebases every out onto output 0 of its node (rebase_history's edge
    ``{grad_fn, 0}``), whose metadata is the first out's: histogram's bin_edges point at output 0."""
    from ..tensor import Tensor
    from ._op import inplace

    if out.shape != result.shape:
        if out._data.size:
            warn_resized(out.shape, result.shape)
        _resize_out(out, result._data)
    first_output = None
    if result._output_nr:
        first = Tensor._make(result._data, True)
        first._grad_fn = result._grad_fn
        result = first_output = first

    def write(o, r):
        return r

    write.__name__ = fname
    inplace(write, overlap="allow")(out, result)
    if first_output is not None:  # (its shape is not output 0's: the engine checks gradients against output 0's)
        from ..autograd import _resized
        _resized.note(out)


def _out_type(cls):
    """The return type of an ``out=`` call: ``torch.return_types.sort_out`` for sort's (PyTorch's out
    overloads have their own structseq); a plain tuple stays one."""
    if getattr(cls, "__module__", None) != "torch.return_types" or not hasattr(cls, "_fields"):
        return cls
    from ._return_types import CLASSES, return_type
    name = cls.__name__ + "_out"
    return CLASSES.get(name) or return_type(name, cls._fields)


def with_out(fname, check="exact", apart=0, contiguous=False):
    """Give ``fn`` PyTorch's ``out=`` keyword: the result is computed as without it, then written
    into ``out`` by ``write_outs`` (with ``check``'s dtype rule and ``contiguous``'s resize); ``apart``: the
    positional arguments (how many leading ones, or their positions) ``out`` must not share memory with
    (:func:`no_overlap`)."""
    import functools

    def wrap(fn):
        @functools.wraps(fn)
        def with_out_(*args, out=None, **kwargs):
            if out is not None and fname in FALLBACK_COPIES:
                return fallback_out(fname, fn, args, kwargs, out)
            # (``fn.sees_out``: a composite whose last kernel writes out, given it to see which operand it is)
            result = fn(*args, out=out, **kwargs) if getattr(fn, "sees_out", False) else fn(*args, **kwargs)
            if out is None:
                return result
            at = range(apart) if isinstance(apart, int) else apart
            return write_outs(fname, result, out, check, tuple(args[i] for i in at if i < len(args)),
                              contiguous=contiguous)
        return with_out_
    return wrap
