"""``import numpy as np`` in agrad scripts: an allow-listed, read-only subset.

Every name a script can reach is written here (docs/language.md lists them):
array creation, maths ufuncs, reductions, products, joining and reshaping,
dtypes and constants, and ``np.random.seed``/``rand``/``randn`` (numpy's
legacy stream).  Each converts its inputs with :func:`guarded.to_array`,
checks the result's size before numpy allocates, and returns guarded arrays.
Nothing reaches files, pickles or ``ctypes``; any other name fails with
"module 'numpy' has no attribute ...".
"""

from __future__ import annotations

import math
import types

import numpy as np

from .guarded import (ScalarType, _axis, _call, _check_broadcast, _check_matmul, _check_numel,
                      _int, _numel, _operand, _shape_arg, _shape_of, _wrap, as_dtype,
                      ndarray, to_array)

def _ufunc(fn, nargs):
    def f(*args, out=None):
        if len(args) != nargs:
            raise TypeError(f"{fn.__name__}() takes {nargs} positional argument"
                            f"{'s' if nargs > 1 else ''} in agrad scripts "
                            f"({len(args)} given)")
        ops = [_operand(a) for a in args]
        _check_broadcast(*(_shape_of(o) for o in ops))
        if out is None:
            return _call(fn, *ops)
        # out=: an array of the script's (numpy writes into it, and so into a tensor sharing it)
        target = out[0] if type(out) is tuple and len(out) == 1 else out
        if type(target) is not ndarray:
            raise TypeError("return arrays must be of ArrayType")
        _call(fn, *ops, out=target._a)
        return out
    f.__name__ = fn.__name__
    return f


def _creation(shape, dtype, what):
    shape = _shape_arg(shape)
    _check_numel(_numel(shape), what)
    return shape, as_dtype(dtype) or np.dtype(np.float64)


def _zeros(shape, dtype=None):
    shape, dt = _creation(shape, dtype, "zeros")
    return ndarray(np.zeros(shape, dt))


def _ones(shape, dtype=None):
    shape, dt = _creation(shape, dtype, "ones")
    return ndarray(np.ones(shape, dt))


def _full(shape, fill_value, dtype=None):
    shape = _shape_arg(shape)
    _check_numel(_numel(shape), "full")
    v = _operand(fill_value)
    return _call(np.full, shape, v, as_dtype(dtype))


def _like(fn):
    def f(a, dtype=None):
        arr = to_array(a)
        return ndarray(fn(arr, as_dtype(dtype)))
    f.__name__ = fn.__name__
    return f


def _array(obj, dtype=None, copy=True):
    arr = to_array(obj, dtype)
    if copy and type(obj) is ndarray and arr is obj._a:
        arr = arr.copy()
    return ndarray(arr)


def _asarray(obj, dtype=None):
    return ndarray(to_array(obj, dtype))


def _scalar(x, what):
    if type(x) in (int, float, bool) or (isinstance(x, np.generic)
                                        and x.dtype.kind in "biuf"):
        return x
    raise TypeError(f"{what} must be a number, not {type(x).__name__}")


def _arange(start, stop=None, step=1, dtype=None):
    start, step = _scalar(start, "start"), _scalar(step, "step")
    if stop is None:
        start, stop = 0, start
    stop = _scalar(stop, "stop")
    if step == 0:
        raise ValueError("Maximum allowed size exceeded")
    n = math.ceil((stop - start) / step) if math.isfinite((stop - start) / step) else None
    if n is None:
        raise ValueError("arange: cannot compute length")
    _check_numel(max(n, 0), "arange")
    return _call(np.arange, start, stop, step, as_dtype(dtype))


def _linspace(start, stop, num=50, endpoint=True, dtype=None):
    num = _int(num, "num")
    _check_numel(num, "linspace")
    return _call(np.linspace, _scalar(start, "start"), _scalar(stop, "stop"), num,
                 bool(endpoint), dtype=as_dtype(dtype))


def _eye(N, M=None, k=0, dtype=None):
    n = _int(N, "N")
    m = n if M is None else _int(M, "M")
    _check_numel(max(n, 0) * max(m, 0), "eye")
    return _call(np.eye, n, m, _int(k, "k"), as_dtype(dtype) or np.float64)


def _reduce_fn(name):
    fn = getattr(np, name)

    def f(a, axis=None, keepdims=False, **kw):
        extra = {}
        if name in ("std", "var") and "ddof" in kw:
            extra["ddof"] = kw.pop("ddof")
        if "dtype" in kw and name in ("sum", "mean", "prod", "std", "var"):
            extra["dtype"] = as_dtype(kw.pop("dtype"))
        if kw:
            raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kw))}'")
        return _call(fn, to_array(a), axis=_axis(axis), keepdims=bool(keepdims), **extra)
    f.__name__ = name
    return f


def _dot(a, b):
    x, y = to_array(a), to_array(b)
    _check_matmul(x.shape, y.shape)
    return _call(np.dot, x, y)


def _matmul(a, b):
    x, y = to_array(a), to_array(b)
    _check_matmul(x.shape, y.shape)
    return _call(np.matmul, x, y)


def _outer(a, b):
    x, y = to_array(a), to_array(b)
    _check_numel(x.size * y.size, "outer")
    return _call(np.outer, x, y)


def _allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    x, y = to_array(a), to_array(b)
    _check_broadcast(x.shape, y.shape)
    return bool(_call(np.allclose, x, y, _scalar(rtol, "rtol"), _scalar(atol, "atol"),
                      bool(equal_nan)))


def _isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    x, y = to_array(a), to_array(b)
    _check_broadcast(x.shape, y.shape)
    return _call(np.isclose, x, y, _scalar(rtol, "rtol"), _scalar(atol, "atol"),
                 bool(equal_nan))


def _array_equal(a, b):
    return bool(np.array_equal(to_array(a), to_array(b)))


def _where(condition, x=None, y=None):
    c = to_array(condition)
    if x is None and y is None:
        return _call(np.nonzero, c)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    xa, ya = _operand(x), _operand(y)
    _check_broadcast(c.shape, _shape_of(xa), _shape_of(ya))
    return _call(np.where, c, xa, ya)


def _clip(a, a_min=None, a_max=None):
    x = to_array(a)
    lo = None if a_min is None else _operand(a_min)
    hi = None if a_max is None else _operand(a_max)
    _check_broadcast(x.shape, _shape_of(lo), _shape_of(hi))
    return _call(np.clip, x, lo, hi)


def _seq(arrays, what):
    if type(arrays) not in (list, tuple):
        raise TypeError(f"{what}() takes a list or tuple of arrays")
    items = [to_array(a) for a in arrays]
    _check_numel(sum(a.size for a in items), what)
    return items


def _concatenate(arrays, axis=0):
    return _call(np.concatenate, _seq(arrays, "concatenate"), _axis(axis))


def _stack(arrays, axis=0):
    return _call(np.stack, _seq(arrays, "stack"), _int(axis, "axis"))


def _vstack(arrays):
    return _call(np.vstack, _seq(arrays, "vstack"))


def _hstack(arrays):
    return _call(np.hstack, _seq(arrays, "hstack"))


def _reshape(a, shape):
    dims = shape if type(shape) in (tuple, list) else (shape,)
    return _call(np.reshape, to_array(a), tuple(_int(s, "shape") for s in dims))


def _transpose(a, axes=None):
    return _call(np.transpose, to_array(a), None if axes is None else
                 tuple(_int(x, "axes") for x in axes))


def _squeeze(a, axis=None):
    return _call(np.squeeze, to_array(a), _axis(axis))


def _expand_dims(a, axis):
    return _call(np.expand_dims, to_array(a), _axis(axis))


def _unary_fn(name):
    fn = getattr(np, name)

    def f(a, axis=-1):
        return _call(fn, to_array(a), _axis(axis))
    f.__name__ = name
    return f


def _round(a, decimals=0):
    return _call(np.round, to_array(a), _int(decimals, "decimals"))


def _shape_fn(a):
    return tuple(int(s) for s in to_array(a).shape)


# random: numpy's legacy global stream (np.random.seed / rand / randn)
_rs = None


def _random_state():
    global _rs
    if _rs is None:
        _rs = np.random.RandomState()
    return _rs


def _r_seed(seed=None):
    global _rs
    _rs = np.random.RandomState(None if seed is None else _int(seed, "seed"))


def _r_sized(name):
    def f(*shape):
        dims = _shape_arg(shape) if shape else ()
        _check_numel(_numel(dims), name)
        return _wrap(getattr(_random_state(), name)(*dims))
    f.__name__ = name
    return f


_UFUNCS_1 = """abs absolute negative positive sign sqrt square exp exp2 expm1 log log2 log10 log1p
    sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh floor ceil trunc rint
    isnan isinf isfinite reciprocal deg2rad rad2deg degrees radians logical_not
    cbrt fabs signbit""".split()
_UFUNCS_2 = """add subtract multiply divide true_divide floor_divide power mod remainder fmod
    maximum minimum fmax fmin arctan2 hypot logical_and logical_or logical_xor equal not_equal
    less less_equal greater greater_equal copysign""".split()
#: np.finfo(dtype): numpy's values as a read-only record (its fields are numpy scalars, an int and a dtype;
#: the class is admitted like a script's namedtuple: fields, count and index only)
_FINFO_FIELDS = ("bits", "dtype", "eps", "max", "min", "resolution", "smallest_normal", "tiny")
_FInfo = None


def _finfo(dtype):
    global _FInfo
    if _FInfo is None:
        import collections
        from .safety import NAMEDTUPLE_CLASSES
        _FInfo = collections.namedtuple("finfo", _FINFO_FIELDS)
        NAMEDTUPLE_CLASSES.add(_FInfo)
    fi = np.finfo(as_dtype(dtype))
    return _FInfo(*(getattr(fi, f) for f in _FINFO_FIELDS))


_REDUCTIONS = "sum mean std var prod max min amax amin median all any".split()
_ARG_FNS = "argmax argmin cumsum cumprod argsort sort".split()
_DTYPES = "float16 float32 float64 int8 int16 int32 int64 uint8 bool_ complex64 complex128".split()


def _build_numpy():
    ns: dict = {}
    for n in _UFUNCS_1:
        ns[n] = _ufunc(getattr(np, n), 1)
    for n in _UFUNCS_2:
        ns[n] = _ufunc(getattr(np, n), 2)
    for n in _REDUCTIONS:
        ns[n] = _reduce_fn(n)
    for n in _ARG_FNS:
        ns[n] = _unary_fn(n)
    for n in _DTYPES:
        ns[n] = ScalarType(n)
    ns["bool"] = ns["bool_"]
    ns["float_"] = ns["double"] = ns["float64"]
    ns["dtype"] = as_dtype
    ns.update(
        array=_array, asarray=_asarray, zeros=_zeros, ones=_ones, full=_full,
        zeros_like=_like(np.zeros_like), ones_like=_like(np.ones_like),
        arange=_arange, linspace=_linspace, eye=_eye, identity=lambda n, dtype=None: _eye(n, dtype=dtype),
        dot=_dot, matmul=_matmul, outer=_outer, allclose=_allclose, isclose=_isclose,
        array_equal=_array_equal, where=_where, clip=_clip, concatenate=_concatenate,
        stack=_stack, vstack=_vstack, hstack=_hstack, reshape=_reshape, transpose=_transpose,
        squeeze=_squeeze, expand_dims=_expand_dims, round=_round, around=_round,
        shape=_shape_fn, ndarray=ndarray, finfo=_finfo,
        pi=math.pi, e=math.e, inf=math.inf, nan=math.nan, newaxis=None,
    )
    ns["identity"].__name__ = "identity"
    random = {"seed": _r_seed, "rand": _r_sized("rand"), "randn": _r_sized("randn")}
    return ns, random


_ns = None


def numpy_namespaces():
    """(names of ``numpy``, names of ``numpy.random``) as scripts see them."""
    global _ns
    if _ns is None:
        _ns = _build_numpy()
    return _ns


def numpy_module():
    """The ``numpy`` module proxy of a script (``import numpy as np``)."""
    from .safety import ModuleProxy
    ns, random = numpy_namespaces()
    mod = types.ModuleType("numpy")
    mod.__dict__.update(ns)
    mod._agrad_allowed = sorted(ns)
    rmod = types.ModuleType("numpy.random")
    rmod.__dict__.update(random)
    rmod._agrad_allowed = sorted(random)
    note = ("agrad scripts have a subset of numpy: array creation, maths, reductions, products, "
            "joining and reshaping, dtypes, constants and numpy.random.seed/rand/randn; "
            "docs/language.md lists every name")
    return ModuleProxy("numpy", mod, {"random": ModuleProxy(
        "numpy.random", rmod, note="agrad scripts have numpy.random.seed, rand and randn only")},
        note=note)


