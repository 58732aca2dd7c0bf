"""numpy in agrad scripts: a guarded array type and an allow-listed ``numpy`` module.

A script never holds a real ``numpy.ndarray``.  ``Tensor.numpy()`` (and any
other engine call that returns an array) gives it an :class:`ndarray` of this
module: a wrapper that holds a numeric array and exposes only values and
safe methods (no ``ctypes``, ``data``, ``base``, ``view``, ``tofile``, no
``__array_*__`` reach, ``astype`` only to numeric dtypes).  Its operators and
methods return guarded arrays again, and print exactly as numpy prints.

``import numpy as np`` gives the module of :mod:`agrad.lang.numpy_module`,
built on this type.

Everything a script hands to numpy goes through :func:`to_array` first:
numbers, bools, nested lists/tuples of them, tensors and guarded arrays are
converted by agrad; any other object is refused, so numpy never sees a
script object and never builds an object, string or void array.  Every
result size is checked against ``--max-elements`` before numpy allocates.
"""

from __future__ import annotations

import numbers
import operator

import numpy as np

from .._limits import LimitError, get_max_elements

#: dtype kinds a script's arrays may have: bool, signed, unsigned, float, complex
_NUMERIC_KINDS = frozenset("biufc")


def _check_numel(n, what="array"):
    limit = get_max_elements()
    if limit is not None and n > limit:
        raise LimitError(f"{what} of {n:,} elements exceeds the limit of {limit:,} elements "
                         f"(--max-elements)")


def _numel(shape):
    n = 1
    for s in shape:
        n *= int(s)
    return n


# ------------------------------------------------------------------ dtypes

class ScalarType:
    """``np.float32``, ``np.int64`` ...: callable like numpy's scalar types
    (on converted input only) and usable wherever a dtype is expected."""

    __slots__ = ("_dtype",)

    def __init__(self, name):
        self._dtype = np.dtype(name)

    def __call__(self, value=0):
        arr = to_array(value, self._dtype)
        return _wrap(arr[()] if arr.ndim == 0 else arr)

    def __repr__(self):
        return f"<class 'numpy.{self._dtype.name}'>"

    def __eq__(self, other):
        try:
            return self._dtype == as_dtype(other)
        except (TypeError, ValueError):
            return False

    def __hash__(self):
        return hash(self._dtype)


_PY_TYPES = {float: np.dtype(np.float64), int: np.dtype(np.int64), bool: np.dtype(np.bool_),
             complex: np.dtype(np.complex128)}


def as_dtype(d):
    """A numeric numpy dtype from what a script may write: None, ``np.float32``,
    ``float``, ``'float32'``, ``'f4'``, an array's ``.dtype``.  Object, string,
    unicode, void and datetime dtypes are refused before anything is allocated."""
    if d is None:
        return None
    if isinstance(d, ScalarType):
        return d._dtype
    if isinstance(d, type) and d in _PY_TYPES:
        return _PY_TYPES[d]
    if isinstance(d, np.dtype):
        out = d
    elif isinstance(d, str) and len(d) <= 16:
        try:
            out = np.dtype(d)
        except TypeError:
            raise TypeError(f"data type '{d}' not understood") from None
    else:
        name = getattr(type(d), "__name__", "object")
        if type(d).__module__ == "agrad.dtypes":
            return np.dtype(d.numpy)
        raise TypeError(f"Cannot interpret '{name}' object as a data type in agrad scripts")
    if out.kind not in _NUMERIC_KINDS or out.fields is not None or out.subdtype is not None:
        raise TypeError(f"dtype '{out.str}' is not available in agrad scripts (only bool, "
                        f"integer, float and complex dtypes)")
    return out


# -------------------------------------------------------------- conversion

def _tensor_class():
    import agrad
    return agrad.Tensor


def to_array(data, dtype=None):
    """``data`` as a numeric numpy array, converted by agrad: numbers, bools,
    nested lists/tuples of them, tensors and guarded arrays.  Anything else is
    refused before numpy sees it."""
    dt = as_dtype(dtype)
    t = type(data)
    if t is ndarray:
        a = data._a
        return a if dt is None or a.dtype == dt else _astype(a, dt)
    if t in (float, int, bool, complex):
        return np.array(data, dt)
    if t is np.ndarray:   # engine-made (never reachable from a script)
        if data.dtype.kind not in _NUMERIC_KINDS:
            raise TypeError(f"arrays of dtype {data.dtype} are not available in agrad scripts")
        return data if dt is None or data.dtype == dt else _astype(data, dt)
    return np.array(_clean(data), dt)


def _astype(a, dt):
    return a.astype(dt)


def _leaf(x, Tensor):
    t = type(x)
    if t in (float, int, bool, complex):
        return x
    if t is ndarray:
        return x._a
    if isinstance(x, np.generic) and x.dtype.kind in _NUMERIC_KINDS:
        return x
    if isinstance(x, Tensor):
        return x.detach()._data
    if isinstance(x, numbers.Number) and isinstance(x, (int, float)):
        return float(x) if isinstance(x, float) else int(x)
    raise TypeError(f"agrad's numpy cannot convert '{type(x).__name__}' objects (it takes "
                    f"numbers, bools, nested lists or tuples of them, arrays and tensors)")


def _clean(data):
    """A copy of nested lists/tuples with every leaf checked (and tensors and
    guarded arrays replaced by their numbers); counts elements as it goes."""
    Tensor = _tensor_class()
    if type(data) not in (list, tuple):
        return _leaf(data, Tensor)
    limit = get_max_elements()
    count = 0
    root: list = []
    stack = [(data, root)]
    while stack:
        src, dst = stack.pop()
        count += len(src)
        if limit is not None and count > limit:
            _check_numel(count)
        for x in src:
            if type(x) in (list, tuple):
                sub: list = []
                dst.append(sub)
                stack.append((x, sub))
            else:
                v = _leaf(x, Tensor)
                if type(v) is np.ndarray:
                    count += v.size
                dst.append(v)
        if limit is not None and count > limit:
            _check_numel(count)
    return root


def _operand(x):
    """The numpy side of an operand of an arithmetic operator or a maths function."""
    t = type(x)
    if t is ndarray:
        return x._a
    if t in (float, int, bool, complex):
        return x
    if isinstance(x, np.generic) and x.dtype.kind in _NUMERIC_KINDS:
        return x
    return to_array(x)


def _wrap(x):
    """A numpy result as a script sees it."""
    if type(x) is np.ndarray or isinstance(x, np.ndarray):
        if x.dtype.kind not in _NUMERIC_KINDS:
            raise TypeError(f"arrays of dtype {x.dtype} are not available in agrad scripts")
        return ndarray(x if type(x) is np.ndarray else np.asarray(x))
    if isinstance(x, np.generic) and x.dtype.kind not in _NUMERIC_KINDS:
        raise TypeError(f"values of dtype {x.dtype} are not available in agrad scripts")
    if type(x) is tuple:
        return tuple(_wrap(v) for v in x)
    return x


def _plain_error(e):
    """numpy's exception as a plain TypeError/ValueError with only its text
    (numpy's own exceptions carry ufunc and dtype objects in ``args``)."""
    for kind in (IndexError, ValueError, TypeError, ZeroDivisionError, OverflowError):
        if isinstance(e, kind):
            return kind(str(e))
    return RuntimeError(str(e))


def _call(fn, *args, **kwargs):
    try:
        return _wrap(fn(*args, **kwargs))
    except (LimitError, MemoryError):
        raise
    except Exception as e:
        raise _plain_error(e) from None


def _check_broadcast(*shapes, what="array"):
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        return   # numpy's own error follows
    _check_numel(_numel(shape), what)


def _shape_of(x):
    return np.shape(x) if not isinstance(x, (int, float, bool, complex)) else ()


# -------------------------------------------------------- the array type

def _axis(axis):
    if axis is None or type(axis) is int:
        return axis
    if type(axis) in (tuple, list) and all(type(a) is int for a in axis):
        return tuple(axis)
    raise TypeError(f"axis must be an int, a tuple of ints or None, not "
                    f"{type(axis).__name__}")


def _int(x, what):
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(x).__name__}") from None


def _shape_arg(shape, what="shape"):
    if type(shape) in (tuple, list):
        out = tuple(_int(s, what) for s in shape)
    else:
        out = (_int(shape, what),)
    if any(s < 0 for s in out):
        raise ValueError("negative dimensions are not allowed")
    return out


def _reduction(name):
    fn = getattr(np, name)

    def method(self, axis=None, dtype=None, keepdims=False, **kw):
        extra = {}
        if "ddof" in kw:
            extra["ddof"] = kw.pop("ddof")
        if kw:
            raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kw))}'")
        if dtype is not None:
            extra["dtype"] = as_dtype(dtype)
        return _call(fn, self._a, axis=_axis(axis), keepdims=bool(keepdims), **extra)
    method.__name__ = name
    return method


def _arg_reduction(name):
    fn = getattr(np, name)

    def method(self, axis=None, keepdims=False):
        return _call(fn, self._a, axis=_axis(axis), keepdims=bool(keepdims))
    method.__name__ = name
    return method


def _binary(fn, reflected=False):
    def op(self, other):
        if isinstance(other, _tensor_class()):
            return NotImplemented      # the tensor's own operator answers
        try:
            b = _operand(other)
        except TypeError:
            return NotImplemented      # the other side's reflected operator, or Python's error
        a = self._a
        if reflected:
            a, b = b, a
        if fn is operator.matmul:
            _check_matmul(np.shape(a), np.shape(b))
        else:
            _check_broadcast(np.shape(a), _shape_of(b))
        return _call(fn, a, b)
    return op


def _inplace(fn):
    def op(self, other):
        if isinstance(other, _tensor_class()):
            raise TypeError("agrad scripts cannot update a numpy array in place with a tensor")
        b = _operand(other)
        _check_broadcast(self._a.shape, _shape_of(b))
        try:
            fn(self._a, b, out=self._a, casting="same_kind")
        except Exception as e:
            raise _plain_error(e) from None
        return self
    return op


def _check_matmul(sa, sb):
    if len(sa) == 0 or len(sb) == 0:
        return
    n = sa[-2] if len(sa) >= 2 else 1
    m = sb[-1] if len(sb) >= 2 else 1
    try:
        batch = _numel(np.broadcast_shapes(tuple(sa[:-2]), tuple(sb[:-2])))
    except ValueError:
        return
    _check_numel(batch * n * m)


class ndarray:
    """A numpy array as agrad scripts see it (``Tensor.numpy()``, ``np.array``).

    Every public name here is what a script may use; nothing else is
    reachable (``agrad.lang.safety`` lets scripts see exactly the public
    names of this class)."""

    __slots__ = ("_a",)

    def __init__(self, array):
        if type(array) is not np.ndarray or array.dtype.kind not in _NUMERIC_KINDS:
            # also what np.ndarray(...) in a script gets
            raise TypeError("numpy.ndarray() cannot be called in agrad scripts; make arrays with "
                            "np.array, np.zeros, np.ones, np.full, np.arange ...")
        self._a = array

    # values -----------------------------------------------------------
    shape = property(lambda self: tuple(int(s) for s in self._a.shape))
    ndim = property(lambda self: self._a.ndim)
    size = property(lambda self: int(self._a.size))
    itemsize = property(lambda self: self._a.itemsize)
    nbytes = property(lambda self: int(self._a.nbytes))
    dtype = property(lambda self: self._a.dtype)
    T = property(lambda self: ndarray(self._a.T))
    real = property(lambda self: ndarray(self._a.real))
    imag = property(lambda self: ndarray(self._a.imag))

    def tolist(self):
        return self._a.tolist()

    def item(self, *args):
        return _call(self._a.item, *(_int(a, "index") for a in args))

    def copy(self):
        return ndarray(self._a.copy())

    def astype(self, dtype, copy=True):
        return ndarray(self._a.astype(as_dtype(dtype), copy=bool(copy)))

    # shape ----------------------------------------------------------------
    def reshape(self, *shape):
        if len(shape) == 1 and type(shape[0]) in (tuple, list):
            shape = shape[0]
        return _call(self._a.reshape, tuple(_int(s, "shape") for s in shape))

    def transpose(self, *axes):
        if len(axes) == 1 and type(axes[0]) in (tuple, list):
            axes = axes[0]
        return _call(self._a.transpose, *(_int(a, "axes") for a in axes))

    def flatten(self):
        return ndarray(self._a.flatten())

    def ravel(self):
        return ndarray(self._a.ravel())

    def squeeze(self, axis=None):
        return _call(self._a.squeeze, _axis(axis))

    def swapaxes(self, axis1, axis2):
        return _call(self._a.swapaxes, _int(axis1, "axis1"), _int(axis2, "axis2"))

    def diagonal(self, offset=0, axis1=0, axis2=1):
        return _call(self._a.diagonal, _int(offset, "offset"), _int(axis1, "axis1"),
                     _int(axis2, "axis2"))

    # maths -------------------------------------------------------------------
    sum = _reduction("sum")
    mean = _reduction("mean")
    std = _reduction("std")
    var = _reduction("var")
    prod = _reduction("prod")
    min = _arg_reduction("min")
    max = _arg_reduction("max")
    all = _arg_reduction("all")
    any = _arg_reduction("any")
    argmax = _arg_reduction("argmax")
    argmin = _arg_reduction("argmin")

    def cumsum(self, axis=None):
        return _call(self._a.cumsum, _axis(axis))

    def cumprod(self, axis=None):
        return _call(self._a.cumprod, _axis(axis))

    def round(self, decimals=0):
        return _call(self._a.round, _int(decimals, "decimals"))

    def clip(self, min=None, max=None):
        lo = None if min is None else _operand(min)
        hi = None if max is None else _operand(max)
        return _call(np.clip, self._a, lo, hi)

    def dot(self, other):
        b = _operand(other)
        _check_matmul(self._a.shape, np.shape(b))
        return _call(np.dot, self._a, b)

    def nonzero(self):
        return _call(self._a.nonzero)

    def argsort(self, axis=-1):
        return _call(self._a.argsort, _axis(axis))

    def sort(self, axis=-1):
        try:
            self._a.sort(_axis(axis))
        except Exception as e:
            raise _plain_error(e) from None

    def trace(self):
        return _call(self._a.trace)

    def conj(self):
        return ndarray(self._a.conj())

    conjugate = conj

    def fill(self, value):
        self._a.fill(_operand(value) if not isinstance(value, ndarray) else value._a)

    # the Python protocols numpy arrays have ---------------------------------------
    def __repr__(self):
        return repr(self._a)

    def __str__(self):
        return str(self._a)

    def __format__(self, spec):
        return format(self._a, spec)

    def __len__(self):
        return len(self._a)

    def __iter__(self):
        for i in range(len(self._a)):
            yield _wrap(self._a[i])

    def __bool__(self):
        return bool(self._a)

    def __float__(self):
        return float(self._a)

    def __int__(self):
        return int(self._a)

    def __index__(self):
        return operator.index(self._a)

    def __contains__(self, x):
        return bool((self._a == _operand(x)).any())

    def __getitem__(self, index):
        return _call(self._a.__getitem__, _index(index, self._a.shape))

    def __setitem__(self, index, value):
        v = _operand(value)
        try:
            self._a[_index(index, self._a.shape)] = v
        except Exception as e:
            raise _plain_error(e) from None

    def __array__(self, dtype=None, copy=None):
        """For the engine (``torch.from_numpy``, ``torch.tensor``): the numbers."""
        a = self._a
        return a if dtype is None else a.astype(dtype)

    __hash__ = None

    def __neg__(self):
        return _call(np.negative, self._a)

    def __pos__(self):
        return _call(np.positive, self._a)

    def __abs__(self):
        return _call(np.absolute, self._a)

    def __invert__(self):
        return _call(np.invert, self._a)


_OPERATORS = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "truediv": np.true_divide,
    "floordiv": np.floor_divide, "mod": np.remainder, "pow": np.power,
    "matmul": operator.matmul, "and": np.bitwise_and, "or": np.bitwise_or,
    "xor": np.bitwise_xor, "lshift": np.left_shift, "rshift": np.right_shift,
}
for _name, _fn in _OPERATORS.items():
    setattr(ndarray, f"__{_name}__", _binary(_fn))
    setattr(ndarray, f"__r{_name}__", _binary(_fn, reflected=True))
    if _fn is not operator.matmul:
        setattr(ndarray, f"__i{_name}__", _inplace(_fn))
for _name, _fn in {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
                   "gt": np.greater, "ge": np.greater_equal}.items():
    setattr(ndarray, f"__{_name}__", _binary(_fn))
del _name, _fn

#: what scripts may reach on a guarded array
NDARRAY_NAMES = frozenset(n for n in vars(ndarray) if not n.startswith("_"))


def _index(index, shape):
    """An index for a guarded array, checked: ints, slices, None, Ellipsis,
    bool/int arrays, lists and tensors; the result's size is checked too."""
    items = index if type(index) is tuple else (index,)
    out = []
    Tensor = None
    for it in items:
        t = type(it)
        if it is None or it is Ellipsis or t in (int, bool, slice):
            if t is slice:
                for part in (it.start, it.stop, it.step):
                    if part is not None and type(part) is not int:
                        _int(part, "slice index")
            out.append(it)
            continue
        if t is ndarray:
            arr = it._a
        elif isinstance(it, np.generic) and it.dtype.kind in "biu":
            out.append(it)
            continue
        else:
            Tensor = Tensor or _tensor_class()
            if isinstance(it, Tensor):
                arr = it.detach()._data
            elif t in (list, tuple):
                arr = to_array(it)
            else:
                raise IndexError("only integers, slices (`:`), ellipsis (`...`), "
                                 "numpy.newaxis (`None`) and integer or boolean arrays are "
                                 "valid indices")
        if arr.dtype.kind not in "biu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        out.append(arr)
    _check_index_size(shape, out)
    return tuple(out) if type(index) is tuple else out[0]


def _check_index_size(shape, items):
    """Advanced indexing can make a result far bigger than the array; bound it:
    the broadcast of the integer index arrays times the dimensions left over."""
    adv = [a for a in items if type(a) is np.ndarray and a.dtype.kind != "b"]
    if not adv:
        return
    try:
        n = _numel(np.broadcast_shapes(*(a.shape for a in adv)))
    except ValueError:
        return
    used = sum(a.ndim if a.dtype.kind == "b" else 1 for a in items
               if type(a) is np.ndarray) + sum(1 for a in items if type(a) is int)
    rest = _numel(shape[used:]) if used < len(shape) else 1
    _check_numel(n * rest)


def guard(value):
    """Values the engine hands back to a script: real numpy arrays become
    guarded arrays (also inside a returned tuple or list)."""
    t = type(value)
    if t is np.ndarray or (t is not ndarray and isinstance(value, np.ndarray)):
        return _wrap(value)
    if (t is tuple or t is list) and len(value) <= 64 and any(
            isinstance(v, np.ndarray) for v in value):
        out = [guard(v) for v in value]
        return tuple(out) if t is tuple else out
    return value
