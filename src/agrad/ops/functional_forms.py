"""``torch.*`` forms of Tensor methods, and small top-level functions scripts call.

- the in-place methods PyTorch also has at top level (``torch.abs_(x)``, ``torch.zero_(x)``,
  ``torch.clamp_(x, min=0)``, ...): the method on the first argument (:func:`export_inplace_forms`,
  called once every op family is loaded);
- ``torch.fill``: a new tensor of ``input``'s shape, dtype and layout filled with a number
  (FillBackward0) or a 0-d tensor (FillBackward1, which gets the summed gradient);
- ``torch.rsub(input, other, alpha=1)``: ``other - alpha * input`` (RsubBackward0 of two tensors,
  RsubBackward1 of a tensor and a number);
- ``torch.detach``, ``torch.is_complex``, ``torch.scalar_tensor`` and ``torch.typename``.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..tensor import Tensor
from . import _layout
from ._alpha import nan_of_other
from ._layout import iterator_layout
from ._op import FUNCTIONS, Op, export, inplace, zeros_like_grad
from .pointwise import _alpha_fma, _check_alpha, _fma_operands, _materialised, _rsub, _times_alpha, broadcast_error, check_sub, operands

#: PyTorch's ``torch.<name>_`` functions whose Tensor method agrad has (torch 2.13's dir(torch))
INPLACE_FORMS = (
    "abs_ acos_ acosh_ addmv_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_ arctanh_ asin_ asinh_ atan_ atanh_ "
    "ceil_ clamp_ clamp_max_ clamp_min_ clip_ conj_physical_ cos_ cosh_ deg2rad_ detach_ erf_ erfc_ exp2_ exp_ "
    "expm1_ fill_ fix_ floor_ frac_ i0_ ldexp_ log10_ log1p_ log2_ log_ logit_ nan_to_num_ neg_ negative_ "
    "rad2deg_ reciprocal_ round_ rsqrt_ sigmoid_ sin_ sinc_ sinh_ sqrt_ square_ tan_ tanh_ trunc_ xlogy_ "
    "zero_ resize_as_ as_strided_").split()


def _inplace_form(name):
    def form(input, *args, **kwargs):
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
        return getattr(input, name)(*args, **kwargs)

    form.__name__ = form.__qualname__ = name
    form.__doc__ = f"``input.{name}(...)``: in place, returns ``input``."
    return form


def export_inplace_forms():
    """Register ``torch.<name>_`` for each in-place method of :data:`INPLACE_FORMS` no op family
    exports (loaded or not: ``in`` asks the index too)."""
    for name in INPLACE_FORMS:
        if name not in FUNCTIONS:
            FUNCTIONS[name] = _inplace_form(name)


# conj_physical_: a real tensor's physical conjugate is itself, but PyTorch still runs the in-place op:
# a new version, ConjPhysicalBackward1 (whose formula, grad.conj_physical(), is the gradient itself),
# a leaf that requires grad refused
_conj_physical1 = Op("ConjPhysicalBackward1", lambda ctx, a: a.copy(order="K"), jvp="linear")
_conj_physical1.derivative(lambda ctx, grad: grad)


def conj_physical(input):
    return _conj_physical1(input)


Tensor.conj_physical_ = inplace(conj_physical, overlap="allow")  # (no kernel runs: no overlap check)


# fill -------------------------------------------------------------------------------------

_fill0 = Op("FillBackward0", lambda ctx, a, value: _filled(a, dtypes.fill_scalar(value, a.dtype, a.size)),
            jvp="element_wise")
_fill0.derivative(lambda ctx, grad: zeros_like_grad(grad))
_fill1 = Op("FillBackward1", lambda ctx, a, v: _filled(a, v), inputs=("self", "value"), jvp="linear")
_fill1.derivative(lambda ctx, grad: (zeros_like_grad(grad), grad.sum()))


def _filled(a, value):
    """empty_like(a) (its layout) filled with ``value``."""
    out = _layout.empty_like(a)
    out[...] = value
    return out


@export()
def fill(input, value):
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.ndim} "
                               "dimensions.")
        return _fill1(input, value)
    return _fill0.apply((input,), (input._data,), {"value": value})


# rsub -------------------------------------------------------------------------------------

def _rsub_fwd(ctx, a, b, alpha=1):
    # (ATen's rsub is sub(other, input): ``other`` is TensorIterator's first operand, its layout decides)
    if alpha != 1 and _fma_operands(b, a):  # (sub's kernel: fma(self, -alpha, other))
        return nan_of_other(iterator_layout(_alpha_fma(b, a, -alpha), (b, a)), b, a)
    return nan_of_other(iterator_layout(np.subtract(b, a if alpha == 1 else _times_alpha(a, b, alpha)), (b, a)), b, a)


_rsub0 = Op("RsubBackward0", _rsub_fwd, inputs=("self", "other"), jvp="linear", defaults={"alpha": 1},
            value_error=lambda arrays: broadcast_error(arrays[::-1]))  # (ATen's sub(other, self): other is a)


@_rsub0.derivative
def _(ctx, grad):
    alpha = ctx.alpha
    g_other = grad if ctx.needs(1) else None
    return (-grad if alpha == 1 else -grad * alpha) if ctx.needs(0) else None, g_other


@export()
def rsub(input, other, *positional, alpha=1):
    """``other - alpha * input`` (sub with the operands swapped). A positional alpha selects PyTorch's
    ``(Tensor input, Number other, Number alpha)`` overload: a tensor ``other`` must then be a 0-d one
    that needs no grad, and is taken as its number (RsubBackward1)."""
    if not isinstance(input, Tensor):  # (the parser's error: argcheck's wrapper gives its text)
        raise TypeError(f"rsub(): argument 'input' must be Tensor, not {type(input).__name__}")
    if positional:
        if len(positional) > 1 or isinstance(other, Tensor) and (other.ndim or other.requires_grad):
            raise TypeError("rsub(): no overload takes these arguments")  # (the parser's text replaces it)
        alpha = positional[0]
        if isinstance(other, Tensor):
            other = other.item()
    check_sub(input, other)
    ts, arrs = operands(input, other, "rsub")
    arrs = _materialised(arrs)  # (no ZeroTensor kernel: 0 - t is +0.0 for t = 0)
    if type(alpha) is not int:
        _check_alpha(arrs, alpha, swapped=True)
    attrs = {"alpha": alpha} if alpha != 1 or type(alpha) is bool else {}
    if isinstance(other, Tensor):
        return _rsub0.apply(ts, arrs, attrs)
    return _rsub.apply((ts[0],), arrs, attrs)


# small functions ----------------------------------------------------------------------------

@export()
def detach(input):
    return input.detach()


@export()
def is_complex(input):
    if not isinstance(input, Tensor):
        raise TypeError(f"is_complex(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return False


@export()
def scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False):
    if isinstance(s, Tensor) or not isinstance(s, (bool, int, float, np.number, np.bool_)):
        raise TypeError(f"scalar_tensor(): argument 's' (position 1) must be Number, not {type(s).__name__}")
    from .factories import full
    return full((), s, dtype=dtype or dtypes.get_default_dtype(), layout=layout, device=device,
                pin_memory=pin_memory, requires_grad=requires_grad)


@export()
def typename(obj):
    """The type's name as PyTorch prints it: ``torch.FloatTensor`` for a tensor, else the
    object's module and qualified name (``torch.nn.modules.linear.Linear``, ``int``)."""
    if isinstance(obj, Tensor):
        return obj.type()
    if isinstance(obj, dtypes.dtype):
        return "torch.dtype"
    module = getattr(obj, "__module__", "") or ""
    qualname = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if qualname is None:
        module, qualname = type(obj).__module__, type(obj).__qualname__
    if module in ("", "builtins"):
        return qualname
    if module == "agrad" or module.startswith("agrad."):
        module = "torch" + module[5:]
    return f"{module}.{qualname}"
