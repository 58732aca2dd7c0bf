"""Drawing values as ATen's CPU samplers draw them: the numpy arrays behind
agrad.ops.random (uniform, normal, integer ranges, permutations) and the
argument checks with PyTorch's messages."""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from . import _rng_math as M
from ._layout import like_layout
from .._warn_once import warn as _warn

_U64 = np.uint64

def _scalar(d):
    from ..tensor import _scalar_name
    return _scalar_name(d)


def _contiguous(a):
    return a.flags.c_contiguous


# ------------------------------------------------------------------ uniform

def uniform_values(g, n, dtype, low=0.0, high=1.0, top_to_low=True):
    """n draws of ``uniform_(low, high)`` on a tensor of ``dtype``: its opmath type's
    uniform_real_distribution (``x * (to - from) + from``, which GCC fuses into one
    multiply-add), rounded to ``dtype``; a value that rounds to ``to`` becomes ``from``
    (uniform_'s kernel; not ``top_to_low``: the distribution alone, as rrelu draws it)."""
    if dtype is dtypes.float64:
        x = M.unit_float64(g._random64(n))
        lo, hi = float(low), float(high)
        if (lo, hi) == (0.0, 1.0):
            return x
        x = M.fma64(x, hi - lo, lo)
    elif dtype is dtypes.float32 or dtype is dtypes.float16:
        x = M.unit_float32(g._random32(n))
        lo, hi = np.float32(low), np.float32(high)
        if (lo, hi) == (0, 1) and dtype is dtypes.float32:
            return x
        x = M.fma32(x, hi - lo, lo).astype(dtype.numpy, copy=False)
    else:
        raise NotImplementedError(f'"check_uniform_bounds" not implemented for \'{_scalar(dtype)}\'')
    if not top_to_low:
        return x
    top = np.array(high, dtype.numpy)
    return np.where(x == top, np.array(low, dtype.numpy), x) if (x == top).any() else x


def _uniform_fill(a, g, low, high):
    d = dtypes.from_numpy(a.dtype)
    low, high = check_uniform(d, low, high)
    return like_layout(a, uniform_values(g, a.size, d, low, high).astype(a.dtype, copy=False))


def check_uniform(d, low, high):
    """uniform_'s checks of the dtype and the range (before TensorIterator's overlap check)."""
    if not d.is_floating_point:
        raise NotImplementedError(f'"check_uniform_bounds" not implemented for \'{_scalar(d)}\'')
    low, high = float(low), float(high)
    finfo = np.finfo(d.numpy)
    for name, value in (("from", low), ("to", high)):  # (a NaN is out of them too)
        if not float(finfo.min) <= value <= float(finfo.max):
            raise RuntimeError(f"{name} is out of bounds for {_ctype(d)}")
    if not low <= high:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={_num(low)} > "
                           f"to={_num(high)}")
    if high - low > float(finfo.max):
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<{_scalar(d)}>::max(), but found "
                           f"to={_num(high)} and from={_num(low)} which result in to-from to exceed the limit")
    return low, high


def _num(x):
    """A double as C++'s ``<<`` prints it (six significant digits, %g)."""
    return f"{float(x):g}"


def _ctype(d):
    return {"float32": "float", "float64": "double", "float16": "c10::Half"}.get(d.name, d.name)


# ------------------------------------------------------------------ normal

def normal_values(g, n, dtype, mean=0.0, std=1.0, contiguous=True):
    """n draws of ``normal_(mean, std)`` on a tensor of ``dtype`` (ATen's normal_kernel)."""
    if n == 0:
        return np.empty(0, dtype.numpy)
    if n >= 16 and contiguous:
        m = n - n % 16
        if dtype is dtypes.float16:
            # float16 draws 16 float32 uniforms per block (and 16 for the tail), fills in
            # float32 and rounds; float32/float64 draw all n uniforms first
            u = M.unit_float32(g._random32(m + (16 if m != n else 0)))
            out = M.box_muller16_float32(u.reshape(-1, 16), mean, std).reshape(-1)
            if m != n:
                out = np.concatenate([out[:n - 16], out[-16:]])
            return out.astype(np.float16)
        if dtype is dtypes.float64:
            u = M.unit_float64(g._random64(n))
            fill = M.box_muller16_float64
            tail = lambda: M.unit_float64(g._random64(16))  # noqa: E731
        elif dtype is dtypes.float32:
            u = M.unit_float32(g._random32(n))
            fill = M.box_muller16_float32
            tail = lambda: M.unit_float32(g._random32(16))  # noqa: E731
        else:
            raise NotImplementedError(f'"normal_kernel_cpu" not implemented for \'{_scalar(dtype)}\'')
        out = np.empty(n, u.dtype)
        out[:m] = fill(u[:m].reshape(-1, 16), mean, std).reshape(-1)
        if m != n:
            out[n - 16:] = fill(tail().reshape(1, 16), mean, std).reshape(-1)
        return out
    if not dtype.is_floating_point:
        raise NotImplementedError(f'"normal_kernel_cpu" not implemented for \'{_scalar(dtype)}\'')
    mean, std = float(mean), float(std)
    draw = g._draw_normal_double
    vals = np.array([draw() for _ in range(n)], dtype=np.float64)
    if (mean, std) != (0.0, 1.0):
        vals = M.fma64(vals, std, mean)
    return from_double(vals, dtype.numpy)


def from_double(vals, np_dtype):
    """A kernel's ``static_cast<scalar_t>(double)``: to half through float (c10::Half's constructor takes a
    float: two roundings, which differ from numpy's one now and then)."""
    if np_dtype == np.float16:
        vals = vals.astype(np.float32)
    return vals.astype(np_dtype)


def _check_std(std):
    if not std >= 0:  # (a NaN std too)
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_fmt_double(std)}")


def _fmt_double(x):
    x = float(x)
    if x == 0 and str(x).startswith("-"):
        return "-0"  # (C++ prints the sign of a negative zero)
    return str(int(x)) if x.is_integer() else repr(x)


def _normal_fill(a, g, mean, std, contiguous=None):
    _check_std(std)
    if not a.size:  # the kernel's dtype is only dispatched on for an element to draw
        return a.copy()
    d = dtypes.from_numpy(a.dtype)
    vals = normal_values(g, a.size, d, mean, std, contiguous=_contiguous(a) if contiguous is None else contiguous)
    return like_layout(a, vals)


# ------------------------------------------------------------------ integers

_INT_MAX = {"uint8": 255, "int8": 127, "int16": 32767, "int32": 2**31 - 1, "int64": 2**63 - 1,
            "bool": 1, "float16": 2**11, "float32": 2**24, "float64": 2**53}


def _float_bounds(low, high, dtype):
    """ATen's update_from/update_to: float bounds beyond the exact integers move
    inwards to the nearest representable ones."""
    digits = _DIGITS[dtype.name]

    def rounded(v):
        f = float(np.array(v, dtype.numpy))
        return int(f) if math.isfinite(f) else v

    up = rounded(low + 1)
    if up < low:
        n = abs(low + 1).bit_length() - 1
        low = up + (1 << (n - digits + 1))
    down = rounded(high - 1)
    if down >= high:
        n = abs(high - 1).bit_length() - 1
        high = down - (1 << (n - digits + 1))
    return low, high


def int_values(g, n, low, high, dtype):
    """n draws of uniform_int_from_to_distribution: [low, high)."""
    span = high - low
    if span >= 1 << 28:   # torch 2.13 draws random64() from a range of 2**28 on (measured)
        r = g._random64(n)
    else:
        r = g._random32(n)
    v = (r % _U64(span)).astype(np.int64) + np.int64(low) if span < 1 << 63 else \
        ((r % _U64(span)) + _U64(low & (2**64 - 1))).view(np.int64)
    return v.astype(dtype.numpy)


def _random_full(g, n, dtype):
    """random_() with no bounds: [0, max] of an integer dtype, [0, 2**mantissa] of a float one."""
    name = dtype.name
    if name == "bool":
        return (g._random32(n) & _U64(1)).astype(np.bool_)
    if name in ("int64", "float64"):
        r = g._random64(n)
    else:
        r = g._random32(n)
    if dtype.is_floating_point:
        mod = (1 << np.finfo(dtype.numpy).nmant + 1) + 1
    else:
        mod = _INT_MAX[name] + 1
    return (r % _U64(mod)).astype(dtype.numpy)


_CTYPE = {"uint8": "unsigned char", "int8": "signed char", "int16": "short int", "int32": "int",
          "int64": "long int", "bool": "bool", "float16": "c10::Half", "float32": "float",
          "float64": "double"}
_DIGITS = {"float16": 11, "float32": 24, "float64": 53}


def _check_range(low, high, dtype):
    """ATen's random_from_to checks (DistributionTemplates.h): errors for bounds outside the
    dtype, PyTorch's warning for float bounds beyond its exact integers."""
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    name = dtype.name
    ctype = _CTYPE[name]
    if dtype.is_floating_point:
        low, high = _float_bounds(low, high, dtype)
        if low >= high:
            raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, "
                               f"but got from={low} >= to={high}")
        big = float(np.finfo(dtype.numpy).max)
        digits = _DIGITS[name]
        for what, v in (("from", low), ("to - 1", high - 1)):
            if not -big <= v <= big:
                raise RuntimeError(f"{what} is out of bounds for {ctype}")
        for what, v in (("from", low), ("to - 1", high - 1)):
            if not -(1 << digits) <= v <= 1 << digits:
                _warn(f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                      f"limitations {ctype} can support discrete uniform distribution only within this "
                      "range. This warning will become an error in version 1.7 release, please fix "
                      "the code in advance", UserWarning)
        return low, high
    lo, hi = (0, 1) if name == "bool" else (int(np.iinfo(dtype.numpy).min), int(np.iinfo(dtype.numpy).max))
    if not lo <= low <= hi:
        raise RuntimeError(f"from is out of bounds for {ctype}")
    if not lo <= high - 1 <= hi:
        raise RuntimeError(f"to - 1 is out of bounds for {ctype}")
    return low, high


def _check_randperm(n, d):
    """ATen's check_supported_max_int_with_precision."""
    name = d.name
    if name == "bool":
        raise NotImplementedError("\"randperm\" not implemented for 'Bool'")
    if not d.is_floating_point and name != "int64":
        info = np.iinfo(d.numpy)
        if n - 1 > int(info.max):
            raise RuntimeError(f"value cannot be converted to type {name}_t without overflow")
    limits = {"float16": ("2049", (1 << 11) + 1), "float32": ("2^24+1", (1 << 24) + 1),
              "float64": ("2^53+1", (1 << 53) + 1)}
    if name in limits and n > limits[name][1]:
        kind = {"float16": "Half", "float32": "Float", "float64": "Double"}[name]
        raise RuntimeError(f"n cannot be greater than {limits[name][0]} for {kind} type.")


def permutation(g, n):
    """ATen's randperm_cpu: swaps driven by random() % (n - i) (random64() % (i + 1),
    the inside-out shuffle, from n >= 2**32 / 20 on)."""
    if n < (2**32 - 1) // 20:
        perm = list(range(n))
        if n > 1:
            z = (g._random32(n - 1) % np.arange(n, 1, -1, dtype=_U64)).astype(np.int64)
            z += np.arange(n - 1, dtype=np.int64)
            for i, j in enumerate(z.tolist()):
                perm[i], perm[j] = perm[j], perm[i]
        return np.array(perm, dtype=np.int64)
    r = g._random64(n) % np.arange(1, n + 1, dtype=_U64)
    perm = np.empty(n, dtype=np.int64)
    for i, z in enumerate(r.tolist()):
        perm[i] = perm[z]
        perm[z] = i
    return perm
