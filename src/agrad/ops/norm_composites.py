"""Normalisations ATen and torch.nn.functional build from other ops: rms_norm, local_response_norm.

``rms_norm`` is ATen's CompositeImplicit ``rms_norm``: the input is raised to
its opmath dtype (float16/bfloat16 -> float32), ``rsqrt(pow(x, 2).mean(dims,
keepdim).add_(eps))`` multiplies it, then the weight, and the product goes
back to the input's dtype; its graph shows those ops' nodes (ToCopyBackward0,
PowBackward0, MeanBackward1, AddBackward1, RsqrtBackward0, MulBackward0).
``eps=None`` is the opmath dtype's machine epsilon.

``local_response_norm`` is torch.nn.functional's Python composite: the square
of the input averaged over a window of channels (a padded avg_pool2d/3d),
``input / (k + alpha * avg) ** beta``.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from .._warn_once import warn_once
from ._argcheck import _raise_parser_error
from ._layout import suggested_format
from ._op import _C_TYPE, export
from .nn import add_scalar, check_floating


def _shape_text(shape) -> str:
    return "[" + ", ".join(str(int(n)) for n in shape) + "]"


def _check_rms_norm(input, normalized_shape, weight):
    """ATen's _check_rms_norm_inputs, in its order."""
    ns = tuple(int(n) for n in normalized_shape)
    if len(ns) < 1:
        raise RuntimeError(f"Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           f"element, but got normalized_shape = {_shape_text(ns)}")
    if weight is not None and tuple(weight.shape) != ns:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
                           f"{_shape_text(weight.shape)} and normalized_shape = {_shape_text(ns)}")
    if input.ndim < len(ns):
        raise ValueError(f"Input tensor must have at least {len(ns)} dimensions, but got {input.ndim}")
    if tuple(input.shape[input.ndim - len(ns):]) != ns:
        raise RuntimeError(f"Given normalized_shape={_shape_text(ns)}, expected input with shape "
                           f"[*{', '.join(str(n) for n in ns)}], but got input of "
                           f"size{_shape_text(input.shape)}")
    return ns


@export(functional=True)
def rms_norm(input, normalized_shape, weight=None, eps=None):
    """Root mean square layer normalisation over the trailing ``normalized_shape`` dims."""
    if not isinstance(normalized_shape, (list, tuple)) or not all(isinstance(n, int) for n in normalized_shape):
        _raise_parser_error("torch.rms_norm", (input, normalized_shape, weight, eps), {})
    if eps is not None and type(eps) is not float:  # (its parse: a tensor that requires grad)
        _raise_parser_error("torch.rms_norm", (input, normalized_shape, weight, eps), {})
    try:
        return _rms_norm(input, normalized_shape, weight, eps)
    except Exception:  # (F.rms_norm calls torch.rms_norm: its parser's TypeError, F's too)
        _raise_parser_error("torch.rms_norm", (input, normalized_shape, weight, eps), {})
        raise


def _rms_norm(input, normalized_shape, weight, eps):
    ns = _check_rms_norm(input, normalized_shape, weight)
    d = input.dtype
    check_floating(input, "rms_norm")
    channels_last = suggested_format(input._data) is not None  # (rms_norm_symint: the composite, before the warning)
    if weight is not None and weight.dtype != d and not channels_last:
        warn_once(f"Mismatch dtype between input and weight: input dtype = {_C_TYPE[d.name]}, weight dtype = "
                  f"{_C_TYPE[weight.dtype.name]}, Cannot dispatch to fused implementation.")  # (int32: 'int')
    opmath = dtypes.float32 if d == dtypes.float16 else d
    if eps is None:
        eps = float(np.finfo(opmath.numpy).eps)
    elif opmath == dtypes.float32:  # (the scalar as the opmath type holds it)
        eps = float(np.float32(eps))
    x = input.to(opmath) if opmath != d else input
    dims = [input.ndim - 1 - i for i in range(len(ns))]
    scale = add_scalar(x.pow(2).mean(dims, keepdim=True), eps).rsqrt()  # (add_ of a Scalar: AddBackward1)
    out = x * scale
    if weight is not None:
        out = out * weight
    if not channels_last:  # (a strided input's result: CloneBackward0; a channels-last one's stays as it is)
        out = out.contiguous()
    return out.to(d) if out.dtype != d else out


@export(functional=True, torch=False)
def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """Normalise each channel by the mean square of its ``size`` neighbouring channels (F's composite)."""
    from ._op import FUNCTIONAL

    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {dim} "
                         f"dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    pad = FUNCTIONAL["pad"]
    if dim == 3:
        div = div.unsqueeze(1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = FUNCTIONAL["avg_pool2d"](div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = FUNCTIONAL["avg_pool3d"](div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div
