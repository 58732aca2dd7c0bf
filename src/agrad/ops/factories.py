"""Factories: tensor, zeros, ones, arange, rand, ... and the legacy torch.Tensor(...)."""

from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes
from .._limits import check_numel
from ..tensor import Tensor, device as _device
from ._op import export

_rng = None  # made on first use: importing numpy.random costs start-up time


@export()
def manual_seed(seed):
    """Seed agrad's random generator (the stream differs from PyTorch's).

    Like PyTorch, a seed in [-2**63, 2**64) is accepted; a negative one is
    taken modulo 2**64."""
    global _rng
    seed = int(seed)
    if not -(1 << 63) <= seed < 1 << 64:
        raise ValueError("Overflow when unpacking long long")
    if seed < 0:
        seed += 1 << 64
    _rng = np.random.default_rng(seed)
    return _Generator(seed)


@export()
def seed():
    global _rng
    s = int(np.random.SeedSequence().entropy % (2**63))
    _rng = np.random.default_rng(s)
    return s


class _Generator:
    def __init__(self, seed):
        self._seed = seed

    def initial_seed(self):
        return self._seed

    def __repr__(self):
        return f"<torch._C.Generator object at {id(self):#x}>"


def _dtype_or_default(dtype):
    return dtypes.get_default_dtype() if dtype is None else dtypes.lookup(dtype)


def _shape(size):
    """Sizes given as f(2, 3), f((2, 3)), f([2, 3]) or f(torch.Size([2, 3]))."""
    if len(size) == 1 and not isinstance(size[0], numbers.Integral) and not isinstance(size[0], Tensor):
        size = tuple(size[0])
    out = []
    for s in size:
        if isinstance(s, Tensor):
            s = s.__index__()
        if isinstance(s, bool) or not isinstance(s, numbers.Integral):
            raise TypeError(f"expected a sequence of integers as the size, but got an element of type {type(s).__name__}")
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
        out.append(int(s))
    n = 1
    for s in out:
        n *= s
    check_numel(n)
    return tuple(out)


def _finish(data, requires_grad, device=None):
    if device is not None:
        _device(device)
    t = Tensor._make(data)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _infer_dtype(data):
    """The dtype torch.tensor gives data: an array's or tensor's own; for Python
    data bool, int64, or the default float."""
    t = type(data)
    if t is float:
        return dtypes.get_default_dtype()
    if t is int:
        return dtypes.int64
    if isinstance(data, np.ndarray):
        return dtypes.from_numpy(data.dtype)
    if isinstance(data, Tensor):
        return data.dtype
    if isinstance(data, (np.floating, np.integer, np.bool_)):
        return dtypes.from_numpy(np.asarray(data).dtype)
    kinds = set()
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, Tensor):
            kinds.add(x.dtype._kind)
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, np.ndarray):
            kinds.add(dtypes.from_numpy(x.dtype)._kind)
        elif isinstance(x, (bool, np.bool_)):
            kinds.add(0)
        elif isinstance(x, numbers.Integral):
            kinds.add(1)
        elif isinstance(x, numbers.Real):
            kinds.add(2)
        else:
            raise TypeError(f"Could not infer dtype of {type(x).__name__}")
    if 2 in kinds or not kinds:
        return dtypes.get_default_dtype()
    return dtypes.int64 if 1 in kinds else dtypes.bool_


def _to_array(data, dtype):
    if isinstance(data, Tensor):
        return data._data.astype(dtype.numpy, copy=True)
    if isinstance(data, np.ndarray):
        return data.astype(dtype.numpy, copy=True)
    if isinstance(data, (list, tuple)):
        _check_nested(data)
        data = [d._data if isinstance(d, Tensor) else d for d in data] if any(isinstance(d, Tensor) for d in data) else data
    try:
        arr = np.array(data, dtype=dtype.numpy)
    except (ValueError, TypeError) as e:
        raise ValueError(f"expected sequence of equal-length lists or numbers: {e}") from None
    except OverflowError:
        raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow") from None
    return arr


def _check_nested(data):
    stack = [data]
    count = 0
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            count += len(x)
            check_numel(count)
            stack.extend(x)


@export()
def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding a copy of ``data``."""
    if isinstance(data, Tensor):
        import warnings

        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
            "or sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
            UserWarning, stacklevel=2)
    d = _infer_dtype(data) if dtype is None else dtypes.lookup(dtype)
    return _finish(_to_array(data, d), requires_grad, device)


@export()
def as_tensor(data, dtype=None, device=None):
    """``data`` as a tensor, sharing memory when it already is one of that dtype."""
    if isinstance(data, Tensor) and (dtype is None or dtypes.lookup(dtype) is data.dtype):
        return data
    if isinstance(data, Tensor):
        return data.to(dtypes.lookup(dtype))
    if isinstance(data, np.ndarray):
        d = dtypes.from_numpy(data.dtype) if dtype is None else dtypes.lookup(dtype)
        return _finish(data if data.dtype == d.numpy else data.astype(d.numpy), False, device)
    return tensor(data, dtype=dtype, device=device)


@export()
def from_numpy(ndarray):
    """A tensor sharing memory with a numpy array."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    dtypes.from_numpy(ndarray.dtype)
    return Tensor._make(ndarray)


def legacy_tensor(*args, device=None, **kwargs):
    """torch.Tensor(data) or torch.Tensor(*sizes): always the default float dtype,
    never requires grad (PyTorch's error for a requires_grad= or dtype= keyword)."""
    if kwargs:
        got = ", ".join([type(a).__name__ for a in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        raise TypeError(
            f"new() received an invalid combination of arguments - got ({got}), but expected one of:\n"
            " * (*, torch.device device = None)\n"
            f"      didn't match because some of the keywords were incorrect: {', '.join(kwargs)}\n"
            " * (torch.Storage storage)\n * (Tensor other)\n"
            " * (tuple of ints size, *, torch.device device = None)\n"
            " * (object data, *, torch.device device = None)\n")
    d = dtypes.get_default_dtype()
    if device is not None:
        _device(device)
    if not args:
        return Tensor._make(np.empty((0,), d.numpy))
    src = args[0]
    if len(args) == 1 and not isinstance(src, numbers.Integral) and not type(src).__name__ == "Size":
        if isinstance(src, Tensor):
            return src if src.dtype is d else src.to(d)
        return Tensor._make(_to_array(src, d))
    return Tensor._make(np.zeros(_shape(args), d.numpy))


def _filled(fill, size, dtype, requires_grad, device):
    d = _dtype_or_default(dtype)
    return _finish(np.full(_shape(size), fill, d.numpy), requires_grad, device)


@export()
def zeros(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    return _filled(0, size, dtype, requires_grad, device)


@export()
def ones(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    return _filled(1, size, dtype, requires_grad, device)


@export()
def empty(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    # agrad fills "uninitialised" memory with zeros, so runs are repeatable.
    return _filled(0, size, dtype, requires_grad, device)


@export()
def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    if dtype is None:
        dtype = dtypes.scalar_dtype(fill_value)
    return _filled(fill_value, (size,), dtype, requires_grad, device)


@export()
def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    m = n if m is None else m
    _shape((n, m))
    return _finish(np.eye(n, m, dtype=_dtype_or_default(dtype).numpy), requires_grad, device)


def _is_float(x):
    return isinstance(x, float) or (isinstance(x, Tensor) and x.dtype.is_floating_point)


@export()
def arange(start, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    start, end, step = (s.item() if isinstance(s, Tensor) else s for s in (start, end, step))
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) / step < 0:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    if dtype is None:
        dtype = dtypes.get_default_dtype() if any(isinstance(v, float) for v in (start, end, step)) else dtypes.int64
    d = dtypes.lookup(dtype)
    n = int(np.ceil((end - start) / step))
    check_numel(n)
    # torch computes in double then casts
    data = (start + step * np.arange(n, dtype=np.float64)) if d.is_floating_point else np.arange(start, end, step)
    return _finish(data.astype(d.numpy), requires_grad, device)


@export()
def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    check_numel(int(steps))
    d = _dtype_or_default(dtype)
    return _finish(np.linspace(float(start), float(end), int(steps)).astype(d.numpy), requires_grad, device)


@export()
def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False):
    check_numel(int(steps))
    d = _dtype_or_default(dtype)
    return _finish(np.logspace(float(start), float(end), int(steps), base=base).astype(d.numpy), requires_grad, device)


@export()
def rand(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    d = _dtype_or_default(dtype)
    return _finish(rng().random(_shape(size)).astype(d.numpy), requires_grad, device)


@export()
def randn(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    d = _dtype_or_default(dtype)
    return _finish(rng().standard_normal(_shape(size)).astype(d.numpy), requires_grad, device)


@export()
def randint(low=0, high=None, size=None, *, generator=None, dtype=None, device=None, requires_grad=False):
    if size is None:  # randint(high, size)
        low, high, size = 0, low, high
    d = dtypes.int64 if dtype is None else dtypes.lookup(dtype)
    return _finish(rng().integers(low, high, _shape((size,))).astype(d.numpy), requires_grad, device)


@export()
def randperm(n, *, dtype=None, device=None, requires_grad=False):
    d = dtypes.int64 if dtype is None else dtypes.lookup(dtype)
    check_numel(int(n))
    return _finish(rng().permutation(int(n)).astype(d.numpy), requires_grad, device)


def _like(fill):
    def like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
        d = input.dtype if dtype is None else dtypes.lookup(dtype)
        return _finish(fill(input.shape, d), requires_grad, device)

    return like


zeros_like = export("zeros_like")(_like(lambda s, d: np.zeros(s, d.numpy)))
ones_like = export("ones_like")(_like(lambda s, d: np.ones(s, d.numpy)))
empty_like = export("empty_like")(_like(lambda s, d: np.zeros(s, d.numpy)))
rand_like = export("rand_like")(_like(lambda s, d: rng().random(s).astype(d.numpy)))
randn_like = export("randn_like")(_like(lambda s, d: rng().standard_normal(s).astype(d.numpy)))


@export()
def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    d = input.dtype if dtype is None else dtypes.lookup(dtype)
    return _finish(np.full(input.shape, fill_value, d.numpy), requires_grad, device)


@export()
def randint_like(input, low=0, high=None, *, dtype=None, device=None, requires_grad=False):
    if high is None:
        low, high = 0, low
    d = input.dtype if dtype is None else dtypes.lookup(dtype)
    return _finish(rng().integers(low, high, input.shape).astype(d.numpy), requires_grad, device)


def wrap(value, dtype) -> Tensor:
    """A Python number as a 0-d tensor of ``dtype`` (PyTorch's wrapped number)."""
    return Tensor._make(np.array(value, dtype.numpy))


def rng():
    """The generator behind rand/randn/dropout (reseeded by manual_seed)."""
    global _rng
    if _rng is None:
        _rng = np.random.default_rng()
    return _rng
