"""Dropout: F.dropout, the channel-wise dropout1d/2d/3d, the alpha dropouts of SELU
networks, and their torch.* forms, drawing from PyTorch's random stream.

As ATen's ``_dropout_impl``: the noise is ``empty_like(input).bernoulli_(1 - p)`` (laid out
like the input) or one draw per (batch, channel) for the feature forms, scaled by
``1 / (1 - p)``; the alpha forms scale it by ``a`` and add ``b`` so that the result keeps
SELU's mean and variance.  The input is multiplied by the noise (``MulBackward0``), the
alpha forms then add ``b`` in place (``AddBackward0``).
"""

from __future__ import annotations

import math

import numpy as np

from ._op import export
from ._argcheck import passed_on
from ..tensor import _scalar_name
from .nn import const
from .._warn_once import warn as _warn

def _python_p(p):
    """F.dropout*'s own check of p (NaN passes it; ATen's _aten_p refuses it)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _keep_mask(input, p, feature):
    """ATen's noise drawn with bernoulli_(1 - p) in the input's dtype: laid out like the input
    (empty_like), or one draw per (batch, channel) for the feature forms."""
    from .random import bernoulli_mask

    d = input._data.dtype
    if not feature:
        return bernoulli_mask(input._data.shape, d, 1 - p, like=input._data)
    if input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    return bernoulli_mask(input.shape[:2] + (1,) * (input.ndim - 2), d, 1 - p)


def _dropout_noise(input, p):
    d = input._data.dtype
    if p == 1:
        return const(np.zeros(input.shape, d))
    # ATen's _dropout: empty_like(input).bernoulli_(1 - p).div_(1 - p)
    keep = _keep_mask(input, p, False)
    _check_noise_dtype(input)
    return const(keep / d.type(1 - p))


def _check_noise_dtype(input):
    """ATen's noise.div_(1 - p) on a noise tensor of an integer input's dtype (after its bernoulli_ draw)."""
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"result type Float can't be cast to the desired output type {_scalar_name(input.dtype)}")


def _dropout(input, p, train, inplace):
    _python_p(p)
    passed_on("dropout_" if inplace else "dropout", (("p", "float", 2, p), ("train", "bool", 3, train)))
    _aten_p(p)  # (NaN passes the Python check, not ATen's)
    if p == 0 or not train or input.numel() == 0:
        return input
    noise = _dropout_noise(input, p)
    return input.mul_(noise) if inplace else input * noise


@export(functional=True, torch=False)
def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability ``p`` (PyTorch's random stream) and scale by 1/(1-p)."""
    return _dropout(input, p, training, inplace)


def _aten_p(p):
    """ATen's own check of p (torch.dropout, torch.feature_dropout): a RuntimeError, p printed as C++ does."""
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {float(p):g}")


@export("dropout")
def torch_dropout(input, p, train):
    _aten_p(p)
    return _dropout(input, p, train, False)


@export("dropout_")
def torch_dropout_(input, p, train):
    _aten_p(p)
    return _dropout(input, p, train, True)


def _feature_dropout(input, p, train, inplace):
    """ATen's _dropout_impl<feature_dropout>: one draw per (batch, channel), broadcast
    over the remaining dimensions."""
    _python_p(p)
    passed_on("feature_dropout_" if inplace else "feature_dropout", (("p", "float", 2, p), ("train", "bool", 3, train)))
    _aten_p(p)  # (NaN passes the Python check, not ATen's)
    if p == 0 or not train or input.numel() == 0:
        return input
    d = input._data.dtype
    if p == 1:  # before the noise's shape is checked, as ATen's _dropout_impl
        noise = const(np.zeros((), d))
    else:
        keep = _keep_mask(input, p, True)
        _check_noise_dtype(input)
        noise = const(keep / d.type(1 - p))
    return input.mul_(noise) if inplace else input * noise


@export("feature_dropout")
def feature_dropout(input, p, train):
    _aten_p(p)
    return _feature_dropout(input, p, train, False)


@export(functional=True, torch=False)
def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, L) or (C, L) input (one draw per channel)."""
    _python_p(p)
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.ndim}D input. Note that "
            "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, "
            "a channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    return _feature_dropout_nd(input, p, training, inplace, input.ndim == 3)


def _feature_dropout_nd(input, p, training, inplace, is_batched):
    if is_batched:
        return _feature_dropout(input, p, training, inplace)
    if inplace:   # PyTorch: input.unsqueeze_(0), the batched dropout in place, input.squeeze_(0)
        # (autograd's checks of an in-place change, even untrained)
        from ..autograd import grad_mode
        from .views import _squeeze4, _unsqueeze1, view_in_place
        input._check_inplace(grad_mode._state["enabled"] and input._requires_grad, "allow")
        view_in_place(input, _unsqueeze1, {"dim": 0})  # (an error below leaves it unsqueezed, as PyTorch)
        _feature_dropout(input, p, training, True)
        return view_in_place(input, _squeeze4, {"axes": (0,)})
    return _feature_dropout(input.unsqueeze(0), p, training, False).squeeze(0)


def _nd_warning(n, ndim):
    _warn(
        f"dropout{n}d: Received a {ndim}-D input to dropout{n}d, which is deprecated and will "
        "result in an error in a future release. To retain the behavior and silence this warning, "
        f"please use dropout instead. Note that dropout{n}d exists to provide channel-wise "
        f"dropout on inputs with {n} spatial dimensions, a channel dimension, and an optional "
        f"batch dimension (i.e. {n + 1}D or {n + 2}D inputs).")


@export(functional=True, torch=False)
def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, H, W) or (C, H, W) input (a 3-D input is taken as
    (N, C, L), with PyTorch's warning)."""
    _python_p(p)
    if input.ndim not in (3, 4):
        _nd_warning(2, input.ndim)
    if input.ndim == 3:
        _warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
            "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel "
            "dim. This behavior will change in a future release to interpret the input as one "
            "without a batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise "
            "dropout behavior, please switch to using dropout1d instead.")
    return _feature_dropout(input, p, training, inplace)


@export(functional=True, torch=False)
def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W) input."""
    _python_p(p)
    if input.ndim not in (4, 5):
        _nd_warning(3, input.ndim)
    return _feature_dropout_nd(input, p, training, inplace, input.ndim == 5)


# ---------------------------------------------------------------------------
# alpha dropout (SELU's): the result keeps the input's mean and variance
# ---------------------------------------------------------------------------

_SELU_ALPHA_PRIME = 1.7580993408473766  # ATen's alpha: SELU's scale * alpha


def _alpha_dropout(input, p, train, inplace, feature):
    """ATen's _dropout_impl<feature, alpha>: noise = bernoulli(1 - p); b = (noise - 1) * alpha * a
    + alpha * a * p; input * (noise * a) + b, each step in the input's dtype (float16's in float)."""
    name = ("feature_alpha_dropout" if feature else "alpha_dropout") + ("_" if inplace else "")
    passed_on(name, (("p", "float", 2, p), ("train", "bool", 3, train)))
    _aten_p(p)
    if p == 0 or not train or input.numel() == 0:
        return input
    d = input._data.dtype
    if p == 1:
        noise = const(np.zeros((), d))
        return input.mul_(noise) if inplace else input * noise
    keep = _keep_mask(input, p, feature)
    if not input.dtype.is_floating_point:  # b = noise.add(-1).mul_(a double): bool + int is int64
        name = "Long" if d == np.bool_ else _scalar_name(input.dtype)
        raise RuntimeError(f"result type Float can't be cast to the desired output type {name}")
    a = 1.0 / math.sqrt((_SELU_ALPHA_PRIME * _SELU_ALPHA_PRIME * p + 1) * (1 - p))
    op = np.float32 if d == np.float16 else d.type  # the kernels' opmath type and its scalars
    b = ((keep - d.type(1)).astype(op) * op(_SELU_ALPHA_PRIME * a)).astype(d)
    b = (b.astype(op) + op(_SELU_ALPHA_PRIME * a * p)).astype(d)
    noise = (keep.astype(op) * op(a)).astype(d)
    out = input.mul_(const(noise)) if inplace else input * const(noise)
    return out.add_(const(b))


@export(functional=True, torch=False)
def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout for SELU networks: dropped elements take SELU's negative saturation value, and the
    result is scaled and shifted to keep the input's mean and variance."""
    _python_p(p)
    return _alpha_dropout(input, p, training, inplace, False)


@export(functional=True, torch=False)
def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of whole channels (one draw per batch and channel)."""
    _python_p(p)
    return _alpha_dropout(input, p, training, inplace, True)


def _torch_alpha(name, feature, inplace):
    def fn(input, p, train):
        return _alpha_dropout(input, p, train, inplace, feature)

    fn.__name__ = fn.__qualname__ = name
    export(name)(fn)


for _name, _feature, _inplace in (("alpha_dropout", False, False), ("alpha_dropout_", False, True),
                                  ("feature_alpha_dropout", True, False), ("feature_alpha_dropout_", True, True)):
    _torch_alpha(_name, _feature, _inplace)
