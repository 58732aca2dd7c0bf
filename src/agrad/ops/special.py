"""Special functions: lgamma, digamma, polygamma, mvlgamma, erfinv and i0 (``torch.*`` and Tensor
methods), igamma and igammac (torch.special.gammainc, gammaincc; methods, in-place),
torch.special's own ops (i0e, i1, i1e, ndtr, ndtri, erfcx, log_ndtr, entr, xlog1py, zeta), and
the torch.special names of existing ops (erf, expit, gammaln, psi, multigammaln, softmax, ...).

Each op is one entry: the kernel (agrad/ops/_special_math.py: ATen's Math.h steps), PyTorch's
node name and the derivative of derivatives.yaml written with agrad ops.
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..autograd import grad_mode
from ..autograd.graph import should_compute_output
from ..tensor import Tensor
from . import _erfcx_math as E
from . import _igamma_math as G
from . import _special_math as S
from . import _vec_math
from ._argcheck import unchecked
from ._layout import iterator_layout, promote
from ._sleef_gamma import sleef_lgamma, sleef_lgammaf
from ._op import FUNCTIONS, SPECIAL, Op, export, finish_out, inplace, method
from .factories import arange, full
from .pointwise import (_float_array, _float_operands, _not_implemented_for, _require_tensor, binary, broadcast_error,
                        check_operand, check_shapes, operands)
from .selection import where
from ._vector_loop import unary_lanes
from .unary import unary
from .views import _int_arg

_result_type = dtypes.result_type


def _laid_out(kernel):
    """``kernel`` whose result (built in C order from fresh arrays) is laid out as TensorIterator
    lays out a new output of a unary op: like its input (a transposed input, a transposed result)."""

    def run(a):
        out = kernel(a)
        if type(a) is np.ndarray and type(out) is np.ndarray and out.ndim > 1 and not a.flags.c_contiguous:
            return iterator_layout(out, (a,))
        return out

    return run


def _in_float(fn):
    """``fn`` of a float32 or float64 array; float16 computed in float32 and rounded (ATen's
    upcast to the op math type)."""

    def kernel(a):
        a = np.asarray(a)
        if a.dtype == np.float16:
            return fn(a.astype(np.float32)).astype(np.float16)
        return fn(a)

    return kernel


def _no_half(fn, kernel_name):
    """``fn`` of a float32 or float64 array; float16 refused as the kernel's dispatch refuses it."""

    def kernel(a):
        a = np.asarray(a)
        if a.dtype == np.float16:
            _not_implemented_for(kernel_name, dtypes.float16)
        return fn(a)

    return kernel


# ---------------------------------------------------------------------------
# torch.lgamma, digamma, erfinv, i0 (and their methods, in-place methods)
# ---------------------------------------------------------------------------

def _lgamma_kernel(a):
    """Vectorized<T>::lgamma, which at::vml's lgamma maps over every element: Sleef's lgammad4_u10
    and lgammaf8_u10 (float16 through the float one). A float64 tensor of GRAIN_SIZE elements or
    more takes glibc's lgamma (as agrad's other emulated kernels keep numpy's faster arithmetic
    there): Sleef's double-double steps cost some 10 us an element with emulated fused
    multiply-adds."""
    a = np.asarray(a)
    if a.dtype == np.float64:  # (from GRAIN_SIZE elements on, glibc's steps: 5x faster, within 2 ulp)
        return sleef_lgamma(a) if a.size < _vec_math.GRAIN_SIZE else S.lgamma(a)
    if a.dtype == np.float16:
        return sleef_lgammaf(a.astype(np.float32)).astype(np.float16)
    return sleef_lgammaf(a)


@unary(_laid_out(_lgamma_kernel))
def lgamma(ctx, grad):
    return grad * digamma(ctx.self)


@unary(_laid_out(_in_float(S.digamma)))
def digamma(ctx, grad):
    return grad * polygamma(1, ctx.self)


def _erfinv_kernel(a):
    """float32/float64: MKL's erfinv (at::vml); float16: calc_erfinv's steps in float (the generic
    vector code's), rounded to half."""
    a = np.asarray(a)
    if a.dtype == np.float16:
        return S.erfinv(a.astype(np.float32)).astype(np.float16)
    return S.erfinv_vml(a)


@unary(_laid_out(_erfinv_kernel))
def erfinv(ctx, grad):
    return 0.5 * math.sqrt(math.pi) * ctx.self.erfinv().pow(2).exp() * grad


@unary(_laid_out(_in_float(S.i0)))
def i0(ctx, grad):
    return grad * i1(ctx.self)


# ---------------------------------------------------------------------------
# polygamma: torch.polygamma(n, input), Tensor.polygamma(n), Tensor.polygamma_(n)
# ---------------------------------------------------------------------------

def _polygamma_kernel(ctx, a, n):
    if n >= 2:  # (calc_polygamma in the input's type: float16 as c10::Half computes it)
        return _laid_out(lambda v: S.polygamma(n, v))(a)
    return _laid_out(_in_float(lambda v: S.polygamma(n, v)))(a)


_polygamma = Op("PolygammaBackward0", _polygamma_kernel, saves=("self",), jvp="element_wise")
_polygamma_inplace = Op("PolygammaBackward1", _polygamma_kernel, saves=("self",), jvp="element_wise")


@_polygamma.derivative
@_polygamma_inplace.derivative
def _polygamma_backward(ctx, grad):
    return grad * polygamma(ctx.n + 1, ctx.self)


def _check_n(n):
    n = _int_arg(n)
    if type(n) is not int:
        raise TypeError("polygamma(): argument 'n' must be int")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return n


@export(special=True)
def polygamma(n, input, *, out=None):
    """The n-th derivative of digamma (node PolygammaBackward0)."""
    n = _check_n(n)
    return finish_out("polygamma", _polygamma.apply((input,), (_float_array(input),), {"n": n}), out)


@method("polygamma")
def _polygamma_method(self, n):
    return polygamma(n, self)


def _polygamma_into(self, n):  # (what polygamma_ writes into self: its own node, PolygammaBackward1)
    n = _check_n(n)
    return _polygamma_inplace.apply((self,), (_float_array(self),), {"n": n})


_polygamma_into.__name__ = "polygamma"
method("polygamma_")(inplace(_polygamma_into, partial=True))


# ---------------------------------------------------------------------------
# mvlgamma: sum over i < p of lgamma(x - i/2), plus p(p-1)/4 log(pi) (ATen's composite steps)
# ---------------------------------------------------------------------------

def _mvlgamma_args(x, p):
    """arange(-p/2 + 1/2, 1/2, 1/2) + x.unsqueeze(-1), in x's dtype."""
    return arange(-p * 0.5 + 0.5, 0.5, 0.5, dtype=x.dtype) + x.unsqueeze(-1)


def _mvlgamma_fwd(ctx, a, p):
    with grad_mode.no_grad():
        x = Tensor._make(a)
        return (_mvlgamma_args(x, p).lgamma().sum(-1) + p * (p - 1) * math.log(math.pi) * 0.25)._data


_mvlgamma = Op("MvlgammaBackward0", _mvlgamma_fwd, saves=("self",), jvp="element_wise", contiguous=True)  # (sum(-1): C order)


@_mvlgamma.derivative
def _(ctx, grad):
    return grad * _mvlgamma_args(ctx.self, ctx.p).digamma_().sum(-1)  # (in place, as mvlgamma_backward)


def _mvlgamma_checked(input, p):
    p = _int_arg(p)  # (a 0-d integer tensor is its value, as PyTorch's parser reads an int)
    if type(p) is not int:
        raise TypeError("mvlgamma(): argument 'p' must be int")
    if input.dtype is dtypes.bool_:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    return _mvlgamma.apply((input,), (_float_array(input),), {"p": p})


def _mvlgamma_cast(input, result, target):
    """mvlgamma_out's check (also mvlgamma_'s): its text names the input's type, then the result's."""
    from ..tensor import _can_cast, _scalar_name

    if not _can_cast(result.dtype, target.dtype):
        raise RuntimeError(f"mvlgamma: result type {_scalar_name(input.dtype)} can't be cast to the desired "
                           f"output type {_scalar_name(result.dtype)}")


@export("mvlgamma", method=True, special="multigammaln")
def mvlgamma(input, p, *, out=None):
    """The multivariate log-gamma function of dimension p (node MvlgammaBackward0)."""
    result = _mvlgamma_checked(input, p)
    if out is not None and not (grad_mode._state["enabled"] and (result._requires_grad or out._requires_grad)):
        _mvlgamma_cast(input, result, out)
    return finish_out("mvlgamma", result, out)


def _mvlgamma_into(self, p):  # (mvlgamma_: the value computed, checked against self's type, copied in)
    result = _mvlgamma_checked(self, p)
    _mvlgamma_cast(self, result, self)
    return result


_mvlgamma_into.__name__ = "mvlgamma"
method("mvlgamma_")(inplace(_mvlgamma_into, partial=True, first=_mvlgamma_into))


# ---------------------------------------------------------------------------
# torch.special's own unary ops
# ---------------------------------------------------------------------------

def _special_unary(kernel, fname, node, saves=("self",)):
    """torch.special.<fname> (input, *, out=None): ints and bools computed in the default float."""

    def deco(derivative):
        laid = _laid_out(kernel)
        op = Op(node, lambda ctx, a: laid(a), saves=saves, jvp="element_wise", pointwise=True)
        op.derivative(derivative)

        def api(input, *, out=None):
            return finish_out(f"special_{fname}", op.apply((input,), (_float_array(input),), {}), out)

        api.__name__ = fname
        api.__doc__ = f"torch.special.{fname} (node {node})."
        api.op = op
        export(fname, torch=False, special=True)(api)
        return api

    return deco


def _i0e_kernel(a):
    """calc_i0e; float16: the vector code's lanes in float (rounded once), the scalar loop's in
    c10::Half's steps."""
    a = np.asarray(a)
    if a.dtype != np.float16:
        return S.i0e(a)
    lanes = unary_lanes(a)
    if lanes is False:
        return S.i0e_half_steps(a)
    vec = S.i0e(a.astype(np.float32)).astype(np.float16)
    return vec if lanes is True else np.where(lanes, vec, S.i0e_half_steps(a))


@_special_unary(_i0e_kernel, "i0e", "SpecialI0EBackward0", saves=("self", "result"))
def i0e(ctx, grad):
    rhs = ctx.self.sgn() * ctx.result  # (the C++ operands' order of evaluation: right to left)
    return grad * (i1e(ctx.self) - rhs)


def _tiny_guard(x, name):
    """(|x| > eps, x with eps where it is not): i1_backward's and i1e_backward's safe argument
    (their dispatch has no float16: PyTorch's error)."""
    if x.dtype is dtypes.float16:
        raise NotImplementedError(f'"{name}" not implemented for \'Half\'')
    eps = float(np.finfo(x._data.dtype).eps)
    not_tiny = x.abs() > eps
    return not_tiny, where(not_tiny, x, full((), eps, dtype=x.dtype))


@_special_unary(_in_float(S.i1), "i1", "SpecialI1Backward0", saves=("self", "result"))
def i1(ctx, grad):
    not_tiny, safe = _tiny_guard(ctx.self, "i1_backward")
    rhs = ctx.result * safe.reciprocal()  # (the C++ operands' order of evaluation: right to left)
    gradx = i0(safe) - rhs
    return grad * where(not_tiny, gradx, full((), 0.5, dtype=ctx.self.dtype))


@_special_unary(_in_float(S.i1e), "i1e", "SpecialI1EBackward0", saves=("self", "result"))
def i1e(ctx, grad):
    not_tiny, safe = _tiny_guard(ctx.self, "i1e_backward")
    recip = safe.reciprocal()  # (the C++ operands' order of evaluation: right to left)
    rhs = ctx.result * (safe.sgn() + recip)
    gradx = i0e(safe) - rhs
    return grad * where(not_tiny, gradx, full((), 0.5, dtype=ctx.self.dtype))


@_special_unary(_no_half(S.ndtri, "ndtri"), "ndtri", "SpecialNdtriBackward0", saves=("result",))
def ndtri(ctx, grad):
    return grad * math.sqrt(2 * math.pi) * (ctx.result.square() / 2).exp()


@_special_unary(_no_half(E.erfcx, "erfcx"), "erfcx", "SpecialErfcxBackward0", saves=("self", "result"))
def erfcx(ctx, grad):
    return (2.0 * ctx.self * ctx.result - 2.0 / math.sqrt(math.pi)) * grad


@_special_unary(_no_half(E.log_ndtr, "log_ndtr"), "log_ndtr", "SpecialLogNdtrBackward0", saves=("self", "result"))
def log_ndtr(ctx, grad):
    return grad / math.sqrt(2 * math.pi) * (ctx.result + ctx.self.pow(2) / 2).neg().exp()


@_special_unary(S.entr, "entr", "SpecialEntrBackward0")  # (float16: log rounded to half, then -x * it)
def entr(ctx, grad):
    return grad * (-(1 + ctx.self.log()))


@export("ndtr", torch=False, special=True)
def ndtr(input, *, out=None):
    """ATen's composite: (1 + erf(x * sqrt(1/2))) * 0.5 (its nodes: MulBackward1, AddBackward1,
    ErfBackward0, MulBackward1)."""
    from .nn import add_scalar, mul_scalar
    from .unary import erf

    # (an integral input is promoted by the first multiplication, no cast node: a comparison's result
    # that requires grad keeps its GtBackward1 as the Mul's edge)
    result = mul_scalar(add_scalar(erf(mul_scalar(input, 0.7071067811865476)), 1), 0.5)
    if out is None:
        return result
    # special_ndtr_out: the result computed, its cast into out checked, out resized (resize_output), then
    # out.copy_(result): copy_'s in-place checks and its CopyBackwards, no refusal of out= itself
    from ..tensor import _can_cast, _scalar_name
    from ._outs import _resize_out, warn_resized
    if not _can_cast(result.dtype, out.dtype):
        raise RuntimeError(f"result type {_scalar_name(result.dtype)} can't be cast to the desired output type "
                           f"{_scalar_name(out.dtype)}")
    if tuple(out.shape) != tuple(result.shape):
        if out._data.size:
            warn_resized(out.shape, result.shape)
        _resize_out(out, np.empty(result._data.shape, out._data.dtype))  # (resize_output: contiguous)
    return out.copy_(result)


# ---------------------------------------------------------------------------
# xlog1py and zeta: (tensor, tensor), (number, tensor), (tensor, number)
# ---------------------------------------------------------------------------

def _pair_kernel(fn, name, half=True, half_steps=False):
    """fn of two arrays in ``dtype``; float16 refused (``half`` False), computed in float32 and
    rounded, or (``half_steps``) in c10::Half's steps (each rounded to half)."""
    def kernel(x, y, dtype):
        x = np.asarray(x, dtype)
        y = np.asarray(y, dtype)
        if dtype == np.float16 and not half_steps:
            if not half:
                _not_implemented_for(name, dtypes.float16)
            return fn(x.astype(np.float32), y.astype(np.float32)).astype(np.float16)
        return fn(x, y)

    return kernel


_xlog1py_kernel = _pair_kernel(S.xlog1py, "xlog1py", half_steps=True)  # (as entr)
_zeta_kernel = _pair_kernel(S.zeta, "zeta", half=False)


def _pair_ops(stem, kernel, saves0, saves1, saves2, saves_for0):
    def two(ctx, a, b):
        return kernel(a, b, np.result_type(a, b))

    return (Op(f"{stem}Backward0", two, inputs=("self", "other"), saves=saves0, saves_for=saves_for0,
               jvp="element_wise", pointwise=True, value_error=broadcast_error),
            Op(f"{stem}Backward1", lambda ctx, b, x: kernel(x, b, b.dtype), inputs=("other",), saves=saves1,
               jvp="element_wise", number=True),
            Op(f"{stem}Backward2", lambda ctx, a, other: kernel(a, other, a.dtype), saves=saves2,
               jvp="element_wise", number=True))


# (PyTorch saves a tensor only one input's formula reads only when that input needs its gradient: zeta's
# both for other's, self's being not_implemented; xlog1py's formulas both read both)
_xlog1py0, _xlog1py1, _xlog1py2 = _pair_ops("SpecialXlog1Py", _xlog1py_kernel, ("self", "other"), ("other",), ("self",),
                                            None)
_zeta0, _zeta1, _zeta2 = _pair_ops("SpecialZeta", _zeta_kernel, ("self", "other"), ("other",), (),
                                   {"self": (1,), "other": (1,)})


@_xlog1py0.derivative
def _(ctx, grad):
    x, y = ctx.self, ctx.other
    g_other = None
    if ctx.needs(1):  # (other's first, as PyTorch's node; (other + 1) before grad * self)
        y1 = y + 1
        g_other = grad * x / y1
    return (xlog1py(grad, y).masked_fill((x == 0.0) & (y <= -1.0), 0.0) if ctx.needs(0) else None), g_other


@_xlog1py1.derivative
def _(ctx, grad):
    y1 = ctx.other + 1
    return grad * ctx.x / y1


@_xlog1py2.derivative
def _(ctx, grad):
    g = xlog1py(grad, ctx.other)  # (PyTorch's: not other > -1, so a NaN other masks self's zeros too)
    return g if float(ctx.other) > -1.0 else g.masked_fill(ctx.self == 0.0, 0.0)


_zeta0.runs_undefined = True  # (self's not_implemented raises with no gradient too)


def _zeta_self_grad():
    raise NotImplementedError("the derivative for 'zeta' is not implemented.")


@_zeta0.derivative
def _(ctx, grad):
    if ctx.needs(0):
        _zeta_self_grad()
    if grad is None:
        return None, None
    x = ctx.self
    return None, grad * -x * zeta(x + 1.0, ctx.other)


@_zeta1.derivative
def _(ctx, grad):
    return grad * -ctx.x * zeta(ctx.x + 1.0, ctx.other)


@_zeta2.derivative
def _(ctx, grad):
    _zeta_self_grad()


def _pair(fname, ops, input, other, out):
    """The three overloads of a binary special op, promoted as xlogy (integers to the default float)."""
    two, scalar_self, scalar_other = ops
    if not isinstance(input, Tensor):
        check_operand(input, fname)
        if not isinstance(other, Tensor):
            raise TypeError(f"{fname}(): expected a Tensor")
        d = _result_type(input, other)
        if not d.is_floating_point:
            d = dtypes.get_default_dtype()
        result = scalar_self.apply((other,), (promote(other._data, d.numpy),), {"x": input})
    elif isinstance(other, Tensor):
        ts, arrs = _float_operands(input, other, fname)
        result = two.apply(ts, arrs, {})
    else:
        check_operand(other, fname)
        d = _result_type(input, other)
        if not d.is_floating_point:
            d = dtypes.get_default_dtype()
        result = scalar_other.apply((input,), (promote(input._data, d.numpy),), {"other": other})
    return finish_out(fname, result, out)


@export(torch=False, special=True)
def xlog1py(input, other, *, out=None):
    """input * log1p(other), taken as 0 where input == 0 (unless other is NaN)."""
    return _pair("special_xlog1py", (_xlog1py0, _xlog1py1, _xlog1py2), input, other, out)


@export(torch=False, special=True)
def zeta(input, other, *, out=None):
    """The Hurwitz zeta function zeta(input, other)."""
    return _pair("special_zeta", (_zeta0, _zeta1, _zeta2), input, other, out)


# ---------------------------------------------------------------------------
# igamma, igammac (torch.special.gammainc, gammaincc): tensors only, no integer kernel
# ---------------------------------------------------------------------------

def _igamma_kernel(fn, name):
    def kernel(a, b):
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype.kind != "f":
            _not_implemented_for(name, dtypes._BY_NP[a.dtype])
        if a.dtype == np.float16:  # (calc_igamma<Half>: in float, rounded)
            return fn(a.astype(np.float32), b.astype(np.float32)).astype(np.float16)
        return fn(a, b)

    return kernel


def _igamma_other(ctx):
    """exp((self - 1) log(other) - other - lgamma(self)): d/d other of the regularized functions."""
    x, y = ctx.self, ctx.other
    return ((x - 1) * y.log() - y - lgamma(x)).exp()


# (self's derivative is not_implemented: both are saved for other's only, so only when other needs it, and a
# backward through self alone meets no saved tensor's version check before the error)
@binary(_igamma_kernel(G.igamma, "igamma"), "igamma", saves=("self", "other"), saves_for={"self": (1,), "other": (1,)},
        jvp="unsupported")
def _igamma(ctx, grad):
    if should_compute_output(ctx, 0):  # (autograd.grad of other alone: not asked, as PyTorch's output_mask)
        raise NotImplementedError("the derivative for 'igamma: input' is not implemented.")
    return None, None if grad is None else grad * _igamma_other(ctx)


@binary(_igamma_kernel(G.igammac, "igammac"), "igammac", saves=("self", "other"),
        saves_for={"self": (1,), "other": (1,)}, jvp="unsupported")
def _igammac(ctx, grad):
    if should_compute_output(ctx, 0):  # (autograd.grad of other alone: not asked, as PyTorch's output_mask)
        raise NotImplementedError("the derivative for 'igammac: input' is not implemented.")
    return None, None if grad is None else -grad * _igamma_other(ctx)


_igamma.jvp_name = "igamma"  # (derivatives.yaml has no forward formula: PyTorch's "not implemented yet")
_igammac.jvp_name = "igammac"
_igamma.runs_undefined = _igammac.runs_undefined = True  # (self's not_implemented raises with no gradient too)


def _igamma_call(op, fname, input, other, out):
    _require_tensor(fname, input, "input", 1)
    _require_tensor(fname, other)
    ts, arrs = operands(input, other, fname)
    check_shapes(arrs)
    if out is not None and arrs[0].dtype.kind != "f":  # (out checked and resized before the kernel's refusal)
        from ._outs import out_before_kernel
        out_before_kernel(fname, dtypes._BY_NP[arrs[0].dtype], np.broadcast_shapes(*(np.shape(a) for a in arrs)), out)
    return finish_out(fname, op.apply(ts, arrs, {}), out)


@export(method=True, special="gammainc")
def igamma(input, other, *, out=None):
    """The regularized lower incomplete gamma function P(input, other) (node IgammaBackward0)."""
    return _igamma_call(_igamma, "igamma", input, other, out)


@export(method=True, special="gammaincc")
def igammac(input, other, *, out=None):
    """The regularized upper incomplete gamma function Q(input, other) (node IgammacBackward0)."""
    return _igamma_call(_igammac, "igammac", input, other, out)


method("igamma_")(inplace(igamma, partial=True))
method("igammac_")(inplace(igammac, partial=True))


# ---------------------------------------------------------------------------
# torch.special's names of existing ops
# ---------------------------------------------------------------------------

def _alias(special_name, fn):
    SPECIAL[special_name] = fn


for _name, _torch_name in {"erf": "erf", "erfc": "erfc", "erfinv": "erfinv", "expit": "sigmoid", "exp2": "exp2",
                           "expm1": "expm1", "log1p": "log1p", "sinc": "sinc", "gammaln": "lgamma",
                           "psi": "digamma", "digamma": "digamma", "i0": "i0", "logit": "logit",
                           "xlogy": "xlogy", "logsumexp": "logsumexp"}.items():
    _alias(_name, unchecked(FUNCTIONS, _torch_name))


@export("round", torch=False, special=True)
def _special_round(input, *, decimals=0, out=None):
    """torch.special.round: decimals=0 by default (node RoundBackward1)."""
    return FUNCTIONS["round"](input, decimals=decimals, out=out)


@export("softmax", torch=False, special=True)
def _special_softmax(input, dim, dtype=None):
    return FUNCTIONS["softmax"](input, dim, dtype=dtype)


@export("log_softmax", torch=False, special=True)
def _special_log_softmax(input, dim, *, dtype=None):
    return FUNCTIONS["log_softmax"](input, dim, dtype=dtype)


# (Python's own argument errors name them as PyTorch's: special_softmax() got an unexpected keyword 'out')
_special_softmax.__qualname__, _special_log_softmax.__qualname__ = "special_softmax", "special_log_softmax"

