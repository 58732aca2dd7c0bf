"""Random sampling, on PyTorch's own CPU stream (bit-exact with torch 2.13 on x86-64).

Every sampler draws from a :class:`agrad._generator.Generator` (the default one
unless ``generator=`` names another) and transforms the raw mt19937 outputs
as ATen's CPU kernels do, vectorised with numpy:

* ``uniform_``/``rand``: ``random()`` (float32, float16) or ``random64()``
  (float64) masked to the mantissa width and scaled, then ``x * (to - from) + from``.
* ``normal_``/``randn``: contiguous float tensors of >= 16 elements use the
  16-at-a-time Box-Muller fill (all uniforms first; each block of 16 turns its
  first 8 into radii and its last 8 into angles; a tail recomputes the last 16
  values from 16 fresh uniforms); float32 uses the AVX2 kernel's own log and
  sincos (:mod:`agrad.ops._rng_math`).  Smaller or strided tensors draw
  one double normal at a time, with the cached second value of each pair.
* ``random_``/``randint``: ``random()`` or, for a range of 2**32 or more,
  ``random64()``, modulo the range.
* ``bernoulli``: a uniform (double, or float for a float ``p`` tensor)
  compared with ``p``; ``exponential_``: ``-1/lambd * log1p(-u)``;
  ``multinomial``: a binary search of the normalised cumulative sum (with
  replacement) or ``topk(p / Exp(1))`` (without); ``randperm``: ATen's swaps.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .. import _generator, dtypes
from .._limits import check_numel
from ..tensor import Tensor, device as _device
from . import _rng_math as M
from ._layout import dense_order, like_layout
from ._sampling import (_CTYPE, _check_randperm, _check_range, _check_std, _fmt_double,
                        _normal_fill, _random_full, _scalar, _uniform_fill, check_uniform, from_double, int_values,
                        normal_values, permutation, uniform_values)
from ._not_implemented import not_implemented
from ._op import FUNCTIONS, Op, _zeros, export, finish_out, inplace, method, zeros_like_grad

_U64 = np.uint64


# ------------------------------------------------------------------ helpers

def _gen(generator):
    return _generator.get(generator)


def _size(size, kw_size, fname):
    """The shape from f(2, 3), f((2, 3)), f([2, 3]), f(size=(2, 3)) or f(size=())."""
    from .factories import _shape
    if kw_size is not None:
        if size:
            raise TypeError(f"{fname}() received an invalid combination of arguments - got both "
                            f"positional sizes and size=")
        size = (kw_size,) if not isinstance(kw_size, numbers.Integral) else (kw_size,)
    return _shape(size)


def _float_dtype(dtype, fname, numel=1):
    """The dtype a sampler fills; an integer one is refused by the kernel, which an empty
    result never reaches."""
    d = dtypes.get_default_dtype() if dtype is None else dtypes.lookup(dtype)
    if not d.is_floating_point and (numel or fname != "normal_kernel_cpu"):
        raise NotImplementedError(f'"{fname}" not implemented for \'{_scalar(d)}\'')
    return d


def _new(data, requires_grad=False, device=None, out=None, fname=""):
    if device is not None:
        _device(device)
    t = Tensor._make(data)
    if requires_grad:
        t._new_requires_grad()
    return finish_out(fname, t, out, quiet_resize=True) if out is not None else t


# ------------------------------------------------------------------ factories

@export()
def rand(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False, **kw):
    shape = _size(size, kw.pop("size", None), "rand")
    _no_extra(kw, "rand")
    d = _float_dtype(out.dtype if out is not None and dtype is None else dtype, "check_uniform_bounds")
    if (a := _drawn_into(out, shape, d)) is not None:
        return _new(_uniform_fill(a, _gen(generator), 0.0, 1.0), requires_grad, device, out, "rand")
    data = uniform_values(_gen(generator), int(np.prod(shape, dtype=np.int64)), d).astype(d.numpy, copy=False)
    return _new(data.reshape(shape), requires_grad, device, out, "rand")


@export()
def randn(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False, **kw):
    shape = _size(size, kw.pop("size", None), "randn")
    _no_extra(kw, "randn")
    n = int(np.prod(shape, dtype=np.int64))
    d = _float_dtype(out.dtype if out is not None and dtype is None else dtype, "normal_kernel_cpu", n)
    if (a := _drawn_into(out, shape, d)) is not None:
        return _new(_normal_fill(a, _gen(generator), 0.0, 1.0), requires_grad, device, out, "randn")
    data = normal_values(_gen(generator), n, d)
    return _new(data.reshape(shape), requires_grad, device, out, "randn")


def _drawn_into(out, shape, d):
    """The array of an ``out=`` that rand/randn/randint/normal fill in place as it is laid out (their out
    variants ``resize_`` it, which keeps an out of that size, then draw into it: in its memory order),
    where that differs from a new tensor's C order; else None."""
    if out is None or out.dtype is not d or tuple(out.shape) != tuple(shape):
        return None
    a = out._data
    return a if type(a) is np.ndarray and not a.flags.c_contiguous else None


def _no_extra(kw, fname):
    if kw:
        k = next(iter(kw))
        raise TypeError(f"{fname}() got an unexpected keyword argument '{k}'")


@export()
def randint(*args, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
            pin_memory=False, **kw):
    """randint(high, size) or randint(low, high, size); size= may be a keyword."""
    size = kw.pop("size", None)
    low = kw.pop("low", None)
    high = kw.pop("high", None)
    _no_extra(kw, "randint")
    args = list(args)
    if size is None and args and not isinstance(args[-1], (numbers.Number, Tensor)):
        size = args.pop()
    if high is None:
        if not args:
            raise TypeError("randint() missing required argument 'high'")
        high = args.pop()
    if low is None:
        low = args.pop() if args else 0
    if args or size is None:
        raise TypeError("randint() received an invalid combination of arguments")
    shape = _size((), size, "randint")
    low, high = _as_int(low), _as_int(high)
    d = dtypes.int64 if dtype is None else dtypes.lookup(dtype)
    if out is not None and dtype is None:
        d = out.dtype
    low, high = _check_range(low, high, d)
    if requires_grad and not d.is_floating_point:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    data = int_values(_gen(generator), int(np.prod(shape, dtype=np.int64)), low, high, d)
    if (a := _drawn_into(out, shape, d)) is not None:
        return _new(like_layout(a, data), requires_grad, device, out, "randint")
    return _new(data.reshape(shape), requires_grad, device, out, "randint")


def _as_int(x):
    if isinstance(x, Tensor):
        x = x.item()
    if isinstance(x, float):
        return int(x)
    return int(x)


@export()
def randperm(n, *, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False):
    n = _as_int(n)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    check_numel(n)
    d = dtypes.int64 if dtype is None else dtypes.lookup(dtype)
    if out is not None and dtype is None:
        d = out.dtype
    _check_randperm(n, d)
    perm = permutation(_gen(generator), n)
    return _new(perm.astype(d.numpy), requires_grad, device, out, "randperm")


# ------------------------------------------------------------------ *_like

def _like_dtype(input, dtype):
    return input.dtype if dtype is None else dtypes.lookup(dtype)


@export()
def rand_like(input, *, generator=None, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None):
    d = _like_dtype(input, dtype)
    _format_rank(input, memory_format, "rand_like")
    if not d.is_floating_point:
        raise NotImplementedError(f'"check_uniform_bounds" not implemented for \'{_scalar(d)}\'')
    data = uniform_values(_gen(generator), input.numel(), d).astype(d.numpy, copy=False)
    return _new(_like_in(input, data, memory_format, "rand_like"), requires_grad, device)


@export()
def randn_like(input, *, generator=None, dtype=None, layout=None, device=None, requires_grad=False,
               memory_format=None):
    d = _like_dtype(input, dtype)
    _format_rank(input, memory_format, "randn_like")
    if not d.is_floating_point and input.numel():
        raise NotImplementedError(f'"normal_kernel_cpu" not implemented for \'{_scalar(d)}\'')
    # (laid out like a non-contiguous input, or in a format that is not C order, the result takes
    # the kernel's element-by-element path)
    probe = _like_in(input, np.empty(input.numel(), np.int8), memory_format, "randn_like")
    contiguous = probe.flags.c_contiguous if probe.ndim else True
    data = normal_values(_gen(generator), input.numel(), d, contiguous=contiguous)
    return _new(_like_in(input, data, memory_format, "randn_like"), requires_grad, device)


@export()
def randint_like(input, low=0, high=None, *, generator=None, dtype=None, layout=None, device=None,
                 requires_grad=False, memory_format=None):
    if high is None:
        low, high = 0, low
    low, high = _as_int(low), _as_int(high)
    d = _like_dtype(input, dtype)
    _format_rank(input, memory_format, "randint_like")
    low, high = _check_range(low, high, d)
    data = int_values(_gen(generator), input.numel(), low, high, d)
    return _new(_like_in(input, data, memory_format, "randint_like"), requires_grad, device)


def _format_rank(input, memory_format, fname):
    """empty_like's error for a format of another rank, which comes before the kernel's own checks."""
    from .memory_format import explicit, order
    fmt = explicit(memory_format, fname)
    if fmt is not None:
        order(input.shape, fmt)


def _like_in(input, data, memory_format, fname):
    """The numbers drawn for a tensor like ``input``, placed in its layout (preserve_format) or in
    ``memory_format``'s."""
    from .memory_format import drawn_in, explicit
    fmt = explicit(memory_format, fname)
    return like_layout(input._data, data) if fmt is None else drawn_in(data, input.shape, fmt)


# ------------------------------------------------------------------ in-place samplers

def _zero_grad(ctx, grad):
    return zeros_like_grad(grad)


def _sampler(name, fill):
    op = Op(name, lambda ctx, a, **kw: fill(a, **kw), jvp="element_wise")  # a zero derivative
    op.derivative(_zero_grad)
    return op


_uniform = _sampler("UniformBackward0", lambda a, g, low, high: _uniform_fill(a, g, low, high))
_normal = _sampler("NormalBackward0", lambda a, g, mean, std, contiguous=None: _normal_fill(a, g, mean, std,
                                                                                         contiguous))


def _random_fill(a, g, low, high):
    d = dtypes.from_numpy(a.dtype)
    if low is None:
        vals = _random_full(g, a.size, d)
    else:
        vals = int_values(g, a.size, low, high, d)
    return like_layout(a, vals)


_random = [_sampler(f"RandomBackward{i}", _random_fill) for i in range(3)]


def _exponential_fill(a, g, lambd):
    d = dtypes.from_numpy(a.dtype)
    if not d.is_floating_point and a.size:  # (no element to draw: no kernel, no dtype check)
        raise RuntimeError("Exponential distribution is a continuous probability distribution. dtype must be "
                           f"a floating point but you specified {_scalar(d)}")
    u = M.unit_float64(g._random64(a.size))
    vals = (-1.0 / lambd) * np.log1p(-u)
    return like_layout(a, from_double(vals, a.dtype))


_exponential = _sampler("ExponentialBackward0", _exponential_fill)


@method("uniform_")
def uniform_(input, from_=0.0, /, to=1.0, *, generator=None, **kw):
    """uniform_(from, to); ``from`` by keyword only as ``**{'from': v}`` (PyTorch's name is a Python keyword)."""
    low = kw.pop("from", from_)
    _no_extra(kw, "uniform_")
    g = _gen(generator)
    return inplace(lambda s: _uniform.apply((s,), (s._data,), {"g": g, "low": low, "high": to}), name="uniform",
                   first=lambda s: check_uniform(s.dtype, low, to))(input)


@method("normal_")
def normal_(input, mean=0.0, std=1.0, *, generator=None):
    g = _gen(generator)
    # (the kernel's choice of its vector path reads the tensor written: a strided view's own layout, not
    # that of the copy an in-place op through a view works on)
    flags = getattr(input._data, "flags", None)
    contiguous = None if flags is None else bool(flags.c_contiguous)
    return inplace(lambda s: _normal.apply((s,), (s._data,), {"g": g, "mean": mean, "std": std,
                                                              "contiguous": contiguous}),
                   name="normal", first=lambda s: _normal_first(s.dtype, std))(input)


def _normal_first(d, std):
    """normal_'s own checks before TensorIterator's overlap check: std, then the kernel's dtype."""
    _check_std(std)
    if not d.is_floating_point:
        raise NotImplementedError(f'"normal_kernel_cpu" not implemented for \'{_scalar(d)}\'')


@method("random_")
def random_(input, from_=None, /, to=None, *, generator=None, **kw):
    """random_(), random_(to), random_(from, to); ``from`` and ``to`` by keyword too (``from`` as
    ``**{'from': v}``: PyTorch's name is a Python keyword, ``from_`` is no keyword of its)."""
    low = kw.pop("from", from_)
    _no_extra(kw, "random_")
    g = _gen(generator)
    d = input.dtype
    if low is None and to is None:
        op, low_, high = _random[2], None, None
    elif low is None or to is None:
        op, low_, high = _random[1], 0, _as_int(to if low is None else low)
    else:
        op, low_, high = _random[0], _as_int(low), _as_int(to)
    def run(s):  # (the range is checked after autograd's check of the in-place write, as in PyTorch)
        lo, hi = (low_, high) if low_ is None else _check_range(low_, high, d)
        return op.apply((s,), (s._data,), {"g": g, "low": lo, "high": hi})

    return inplace(run, name="random")(input)


@method("exponential_")
def exponential_(input, lambd=1.0, *, generator=None):
    lambd = float(lambd)
    g = _gen(generator)

    def check(s):  # (after autograd's check of the in-place write, before the overlap check, as in PyTorch)
        if not lambd > 0:  # (an infinite rate draws zeros)
            raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_fmt_double(lambd)}")

    def run(s):
        check(s)
        return _exponential.apply((s,), (s._data,), {"g": g, "lambd": lambd})

    return inplace(run, name="exponential", first=check)(input)


def _cauchy_dtype(d):
    if not d.is_floating_point:
        raise RuntimeError("Cauchy distribution is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified {_CTYPE[d.name]}")


def _cauchy_fill(a, g, median, sigma):
    _cauchy_dtype(dtypes.from_numpy(a.dtype))
    u = M.unit_float64(g._random64(a.size))
    vals = M.fma64(sigma, np.tan(math.pi * (u - 0.5)), median)   # median + sigma * tan(pi (u - 1/2))
    return like_layout(a, from_double(vals, a.dtype))


def _log_normal_fill(a, g, mean, std):
    d = dtypes.from_numpy(a.dtype)
    if not d.is_floating_point and a.size:
        raise NotImplementedError(f'"log_normal_cpu" not implemented for \'{_scalar(d)}\'')
    draw = g._draw_normal_double
    vals = np.exp(M.fma64(np.array([draw() for _ in range(a.size)], np.float64), std, mean))
    return like_layout(a, from_double(vals, a.dtype))


def _geometric_fill(a, g, p):
    if a.dtype == np.bool_ and a.size:
        raise NotImplementedError('"geometric_cpu" not implemented for \'Bool\'')
    u = M.unit_float64(g._random64(a.size))
    vals = np.ceil(np.log(u) / math.log(1.0 - p))
    return like_layout(a, vals.astype(a.dtype))


_cauchy = _sampler("CauchyBackward0", _cauchy_fill)
_log_normal = _sampler("LogNormalBackward0", _log_normal_fill)
_geometric = _sampler("GeometricBackward0", _geometric_fill)


@method("cauchy_")
def cauchy_(input, median=0.0, sigma=1.0, *, generator=None):
    g = _gen(generator)
    attrs = {"g": g, "median": float(median), "sigma": float(sigma)}

    def check(s):
        if not attrs["sigma"] > 0:
            raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_fmt_double(sigma)}")

    def first(s):  # (the kernel's dtype check too comes before TensorIterator's overlap check)
        check(s)
        _cauchy_dtype(s.dtype)

    def run(s):
        check(s)
        return _cauchy.apply((s,), (s._data,), attrs)

    return inplace(run, name="cauchy", first=first)(input)


@method("log_normal_")
def log_normal_(input, mean=1.0, std=2.0, *, generator=None):
    g = _gen(generator)
    attrs = {"g": g, "mean": float(mean), "std": float(std)}

    def check(s):
        if not attrs["std"] > 0:
            raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_fmt_double(std)}")

    def run(s):
        check(s)
        return _log_normal.apply((s,), (s._data,), attrs)

    return inplace(run, name="log_normal", first=check)(input)


@method("geometric_")
def geometric_(input, p, *, generator=None):
    p_ = float(p)
    g = _gen(generator)

    def check(s):
        if not 0 < p_ < 1:
            raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_fmt_double(p)}")

    def run(s):
        check(s)
        return _geometric.apply((s,), (s._data,), {"g": g, "p": p_})

    return inplace(run, name="geometric", first=check)(input)


# ------------------------------------------------------------------ bernoulli

def _bernoulli_float(a, g, p):
    u = M.unit_float64(g._random64(a.size))
    return like_layout(a, (u < p).astype(a.dtype))


def bernoulli_mask(shape, np_dtype, p, generator=None, like=None):
    """``empty(shape).bernoulli_(p)`` as an array (nn's dropout masks), or
    ``empty_like(like).bernoulli_(p)`` laid out like the array ``like``.  ATen draws one
    double uniform per element and compares it with p (its MKL path is for Intel CPUs only)."""
    u = M.unit_float64(_gen(generator)._random64(int(np.prod(shape, dtype=np.int64))))
    mask = (u < p).astype(np_dtype)
    return mask.reshape(shape) if like is None else like_layout(like, mask)


def _bernoulli_tensor(a, p, g):
    p = np.broadcast_to(p, a.shape)
    if p.dtype == np.float64:
        u = M.unit_float64(g._random64(a.size))
    else:
        u = M.unit_float32(g._random32(a.size))
    pv = np.ascontiguousarray(p).reshape(-1) if a.flags.c_contiguous else p.reshape(-1)
    return (u.reshape(a.shape) < pv.reshape(a.shape)).astype(a.dtype)


_bernoulli2 = Op("BernoulliBackward2", lambda ctx, a, g, p: _bernoulli_float(a, g, p), jvp="element_wise")
_bernoulli2.derivative(_zero_grad)
_bernoulli1 = Op("BernoulliBackward1", lambda ctx, a, p, g: _bernoulli_tensor(a, p, g),
                 inputs=("self", "p"))
_bernoulli1.derivative(lambda ctx, grad: (zeros_like_grad(grad), _zeros(ctx._input_meta[1])))
# (bernoulli(p): ATen draws into empty_like(p, LEGACY_CONTIGUOUS_MEMORY_FORMAT): a C-ordered result)
_bernoulli0 = Op("BernoulliBackward0", lambda ctx, p, g: _bernoulli_tensor(np.empty(p.shape, p.dtype), p, g),
                 jvp="element_wise", contiguous=True)
_bernoulli0.derivative(_zero_grad)


def _check_p_float(p):
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_fmt_double(p)}")


def _check_p_tensor(p, g, shape=None):
    """The kernel checks each p as it draws for it (bernoulli_distribution's TORCH_CHECK): the
    elements before the first p outside [0, 1] (or NaN), in C order (its output is contiguous),
    have taken their draws from ``g`` when it raises."""
    if not p.dtype.is_floating_point:
        raise NotImplementedError(f'"bernoulli_tensor_cpu_p_" not implemented for \'{_scalar(p.dtype)}\'')
    data = p._data if shape is None else np.broadcast_to(p._data, shape)
    if data.size and not ((data >= 0) & (data <= 1)).all():
        flat = data.reshape(-1)
        drawn = int(np.argmin((flat >= 0) & (flat <= 1)))
        if drawn:
            g._random64(drawn) if data.dtype == np.float64 else g._random32(drawn)
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
                           "message be improved?  If so, please report an enhancement request to PyTorch.)")


@method("bernoulli_")
def bernoulli_(input, p=0.5, *, generator=None):
    g = _gen(generator)
    if isinstance(p, Tensor):
        def run1(s, q):  # (p is checked after autograd's check of the in-place write, as in PyTorch)
            _check_p_tensor(q, g, s._data.shape)
            return _bernoulli1.apply((s, q), (s._data, q._data), {"g": g})

        return inplace(run1, name="bernoulli")(input, p)
    p_ = float(p)

    def run2(s):
        _check_p_float(p_)
        return _bernoulli2.apply((s,), (s._data,), {"g": g, "p": p_})

    return inplace(run2, name="bernoulli", first=lambda s: _check_p_float(p_))(input)


@export(method=True)
def bernoulli(input, p=None, *, generator=None, out=None):
    """bernoulli(input): draws with probabilities ``input``; bernoulli(input, p): with probability p."""
    g = _gen(generator)
    if p is None:
        if input.numel():  # (an empty result reaches no kernel and no check)
            _check_p_tensor(input, g)
        if not input.dtype.is_floating_point and input.numel():
            raise NotImplementedError(f'"bernoulli_tensor_cpu_self_" not implemented for \'{_scalar(input.dtype)}\'')
        res = _bernoulli0.apply((input,), (input._data,), {"g": g})
    else:
        _check_p_float(float(p))
        # bernoulli.p: ATen draws into a contiguous tensor (not one laid out like the input), and
        # autograd has no formula for it
        value = _bernoulli_float(np.empty(input.shape, input._data.dtype), g, float(p))
        res = not_implemented(value, (input,), "aten::bernoulli")
    return finish_out("bernoulli", res, out, quiet_resize=True) if out is not None else res


# ------------------------------------------------------------------ normal (functional)

_normal_t = [None] + [Op(f"NormalBackward{i}", (lambda ctx, *arrays, vals: vals), inputs=ins)
                      for i, ins in ((1, ("mean",)), (2, ("std",)), (3, ("mean", "std")))]
# (derivatives.yaml: at::zeros(mean.sizes(), grad.options()), contiguous whatever grad's layout)
_normal_t[1].derivative(lambda ctx, grad: _zeros(ctx._input_meta[0]))
_normal_t[2].derivative(lambda ctx, grad: _zeros(ctx._input_meta[0]))
_normal_t[3].derivative(lambda ctx, grad: tuple(None if m is None else _zeros(m) for m in ctx._input_meta))


#: normal's std when the call gives none (told apart by identity: only normal(Tensor mean) may leave it out)
_STD_OMITTED = float("1.0")


@export()
def normal(mean=None, std=_STD_OMITTED, size=None, *, generator=None, out=None, dtype=None, layout=None,
           device=None, requires_grad=False, pin_memory=False):
    """normal(mean, std) with tensor mean and/or std, or normal(mean, std, size) with numbers."""
    if mean is None:
        raise TypeError('normal() missing 1 required positional arguments: "mean"')
    mt, st = isinstance(mean, Tensor), isinstance(std, Tensor)
    if (mt or st) and (size is not None or dtype is not None or layout is not None or device is not None
                       or requires_grad or pin_memory) or not (mt or st) and std is _STD_OMITTED:
        raise TypeError("normal(): no overload takes these arguments")  # (the parser's text replaces it)
    g = _gen(generator)
    if not mt and not st:
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments - got (float, float), "
                            "but expected one of:\n * (Tensor mean, Tensor std, *, torch.Generator generator "
                            "= None, Tensor out = None)\n * (Tensor mean, float std = 1, *, torch.Generator "
                            "generator = None, Tensor out = None)\n * (float mean, Tensor std, *, "
                            "torch.Generator generator = None, Tensor out = None)\n * (float mean, float std, "
                            "tuple of ints size, *, torch.Generator generator = None, Tensor out = None, "
                            "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
                            "bool pin_memory = False, bool requires_grad = False)\n")
        _check_std(float(std))
        shape = _size((), size, "normal")
        n = int(np.prod(shape, dtype=np.int64))
        d = _float_dtype(out.dtype if out is not None and dtype is None else dtype, "normal_kernel_cpu", n)
        if (a := _drawn_into(out, shape, d)) is not None:
            return _new(_normal_fill(a, g, mean, std), requires_grad, device, out, "normal")
        data = normal_values(g, n, d, mean, std)
        return _new(data.reshape(shape), requires_grad, device, out, "normal")
    if st and std.numel() and not (std._data >= 0).all():  # (ATen's std.min().ge(0): a NaN's min is NaN)
        raise RuntimeError("normal expects all elements of std >= 0.0")
    if mt and not st:
        _check_std(float(std))
    if out is not None:
        return _normal_out(g, mean, std, mt, st, out)
    if mt and not st:
        d = mean.dtype
        vals = normal_values(g, mean.numel(), d, 0.0, std).reshape(mean._data.shape)
        vals = (vals + mean._data).astype(d.numpy)
        res = _normal_t[1].apply((mean,), (mean._data,), {"vals": vals})
    else:
        ref = mean if mt else std
        d = ref.dtype
        if not d.is_floating_point:
            raise NotImplementedError(f'"normal_kernel_cpu" not implemented for \'{_scalar(d)}\'')
        shape = np.broadcast_shapes(mean._data.shape, std._data.shape) if mt else std._data.shape
        n = normal_values(g, int(np.prod(shape, dtype=np.int64)), d).reshape(shape)
        n = (n * std._data).astype(d.numpy, copy=False)
        m = mean._data if mt else np.array(mean, d.numpy)
        vals = (n + m).astype(d.numpy, copy=False)
        if mt:
            res = _normal_t[3].apply((mean, std), (mean._data, std._data), {"vals": vals})
        else:
            res = _normal_t[2].apply((std,), (std._data,), {"vals": vals})
    return finish_out("normal", res, out, quiet_resize=True) if out is not None else res


def _normal_out(g, mean, std, mt, st, out):
    """normal(Tensor mean, float std) / normal(mean, Tensor std) with ``out=`` (normal_out_impl): the
    shape broadcasts mean with out's own shape (a float std: infer_size with an empty_like of out) or
    mean with std; out is resized (resize_output, with its warning), drawn into in its own dtype and
    layout, then scaled by std and shifted by mean in place."""
    from ..autograd import grad_mode
    from .pointwise import _mismatch_message

    if grad_mode._state["enabled"] and any(isinstance(t, Tensor) and t._requires_grad for t in (mean, std, out)):
        raise RuntimeError("normal(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    a, b = (mean.shape, out.shape) if not st else (mean.shape, std.shape) if mt else ((), std.shape)
    try:
        shape = tuple(np.broadcast_shapes(a, b))
    except ValueError:
        raise RuntimeError(_mismatch_message(a, b)) from None
    d = out.dtype
    if not d.is_floating_point and int(np.prod(shape, dtype=np.int64)):
        raise NotImplementedError(f'"normal_kernel_cpu" not implemented for \'{_scalar(d)}\'')
    template = out._data if tuple(out.shape) == shape else np.empty(shape, d.numpy)
    from ._out_alias import is_input
    # (out drawn into first, then ``mul_(std).add_(mean)`` in place: a mean or std that is out reads the draws)
    if not st:
        noise = _normal_fill(template, g, 0.0, float(std))
        vals = (noise + (noise if is_input(out, mean) else mean._data)).astype(d.numpy, copy=False)
    else:
        noise = _normal_fill(template, g, 0.0, 1.0)
        vals = (noise * (noise if is_input(out, std) else std._data)).astype(d.numpy, copy=False)
        vals = (vals + (vals if mt and is_input(out, mean) else mean._data if mt else np.array(mean, d.numpy))
                ).astype(d.numpy, copy=False)
    return finish_out("normal", Tensor._make(np.asarray(vals)), out)


# ------------------------------------------------------------------ multinomial

@export(method=True)
def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    g = _gen(generator)
    if input.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{_scalar(input.dtype)}")
    if out is not None and out.dtype is not dtypes.int64:  # (multinomial_out's check, before the count's)
        raise RuntimeError(f"multinomial expects Long tensor out, got: {_scalar(out.dtype)}")
    n = int(num_samples)
    if n <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    k = input.shape[-1]
    if not replacement and n > k:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if k > 1 << 24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    p = input._data.reshape(-1, k) if input.ndim == 2 else input._data.reshape(1, k)
    if p.size == 0 or p.shape[0] == 0:
        res = np.zeros(input.shape[:-1] + (n,), np.int64)
    elif not replacement or n == 1:
        # ATen's fast path (also for one sample with replacement): its checks, then topk of p / Exp(1)
        if not (np.all(p < np.inf) and np.all(p >= 0)):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if (p.sum(axis=1) == 0).any():
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        # q = empty_like(p).exponential_(1): drawn in the memory order of the input's layout
        u = like_layout(input._data, M.unit_float64(g._random64(p.size))).reshape(p.shape)
        q = from_double((-1.0) * np.log1p(-u), p.dtype)
        q = p / q
        # topk: largest first; among equal keys the lower index first
        order = np.argsort(-q, axis=1, kind="stable")
        res = order[:, :n].astype(np.int64)
    else:
        res = np.empty((p.shape[0], n), np.int64)
        for i, row in enumerate(p):  # (row by row: a bad row fails after the rows before it drew)
            bad = ~(row >= 0) | ~np.isfinite(row)
            if bad.any():  # (each entry checked in turn: not >= 0 (NaN too), then finite)
                if not row[np.argmax(bad)] >= 0:
                    raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
                raise RuntimeError("invalid multinomial distribution (encountering probability entry = "
                                   "infinity or NaN)")
            if row.dtype == np.float16:  # (half sums in float)
                row = row.astype(np.float32)
            cum = np.cumsum(row, dtype=row.dtype)
            total = cum[-1]
            if not total > 0:
                raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
            cum = cum / total
            cum[-1] = 1
            u = M.unit_float64(g._random64(n))
            res[i] = np.searchsorted(cum.astype(np.float64), u, side="left")
    res = res.reshape(input.shape[:-1] + (n,))
    t = Tensor._make(res)
    return finish_out("multinomial", t, out, quiet_resize=True) if out is not None else t


# ------------------------------------------------------------------ seeding (torch.*)

Generator = _generator.Generator
export("Generator")(Generator)


@export()
def manual_seed(seed):
    """Seed the default generator; returns it."""
    return _generator.default_generator().manual_seed(int(seed))


@export()
def seed():
    return _generator.default_generator().seed()


@export()
def initial_seed():
    return _generator.default_generator().initial_seed()


FUNCTIONS["default_generator"] = _generator.default_generator()


@export()
def get_rng_state():
    return _generator.default_generator().get_state()


@export()
def set_rng_state(new_state):
    _generator.default_generator().set_state(new_state)
