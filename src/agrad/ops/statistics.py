"""cov and corrcoef: ATen's composites (Correlation.cpp), so their graphs are PyTorch's.

``cov``: the input viewed as (variables, observations) (ViewBackward0 for a 1-D input), the
weighted mean ``(in * w).sum(1) / w.sum()`` (``in.sum(1) / n`` unweighted, n a 0-d int64 tensor),
``in - avg.unsqueeze(1)``, ``mm(in, (in * w).t())`` divided by the normalization factor
(``w_sum - correction``, or ``w_sum - correction * (w * aweights).sum() / w_sum``; 0 with a
warning when not positive), squeezed.  ``corrcoef``: cov divided by the square roots of its
diagonal along rows and columns, clipped to [-1, 1] (``c / c`` for a single variable).
"""

from __future__ import annotations

import warnings

from .. import dtypes
from ..tensor import _scalar_name
from ._op import export

_DOF = ("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
        "observations.")


def _check_weights(w, name, num_observations, integral):
    if w.ndim > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got {name} with "
                           f"{w.ndim} dimensions")
    ok = (not w.dtype.is_floating_point and w.dtype is not dtypes.bool_) if integral else w.dtype.is_floating_point
    if not ok:
        kind = "integral" if integral else "floating point"
        raise RuntimeError(f"cov(): expected {name} to have {kind} dtype but got {name} with "
                           f"{_scalar_name(w.dtype)} dtype")
    if w.numel() != num_observations:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are observations in the input "
                           f"but got {w.numel()} != {num_observations}")
    if num_observations != 0 and not bool(w.min() >= 0):
        raise RuntimeError(f"cov(): {name} cannot be negative")


@export(method=True)
def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables (rows) of ``input`` over its observations (columns)."""
    from .factories import tensor
    from .linalg import mm
    from .nn import mul_scalar, sub_scalar

    if input.ndim > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.ndim} dimensions")
    if input.dtype is dtypes.bool_:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input.view(1, -1) if input.ndim < 2 else input
    n = x.shape[1]
    w = None
    if fweights is not None:
        _check_weights(fweights, "fweights", n, True)
        w = fweights
    if aweights is not None:
        _check_weights(aweights, "aweights", n, False)
        w = aweights if w is None else w * aweights
    w_sum = w.sum() if w is not None else tensor(n, dtype=dtypes.int64)
    if w is not None and not bool(w_sum != 0):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x * w if w is not None else x).sum(1) / w_sum
    if w is None:
        norm = tensor(n - correction, dtype=dtypes.int64)
    elif correction == 0:
        norm = w_sum
    elif aweights is None:
        norm = sub_scalar(w_sum, correction)
    elif fweights is None and n == 1 and correction == 1:  # (ATen's corner case, as numpy)
        norm = tensor(0, dtype=dtypes.int64)
    else:
        norm = w_sum - mul_scalar((w * aweights).sum(), correction) / w_sum
    if bool(norm <= 0):
        warnings.warn(_DOF, UserWarning, stacklevel=3)
        norm.zero_()
    if n == 1 and (fweights is None) != (aweights is None):
        x.zero_()  # (ATen zeroes the input itself: the weighted mean of one observation is it)
        if not x.dtype.is_floating_point:
            x = x.float()
    else:
        x = x - avg.unsqueeze(1)
    c = mm(x, (x * w if w is not None else x).t())
    return c.true_divide(norm).squeeze()


@export(method=True)
def corrcoef(input):
    """Pearson's correlation coefficients of the variables (rows) of ``input``."""
    if input.ndim > 2:
        raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.ndim} dimensions")
    c = cov(input)
    if c.ndim == 0:
        return c / c
    stddev = c.diagonal().sqrt()
    c = c / stddev.view(-1, 1)
    c = c / stddev.view(1, -1)
    return c.clip(-1, 1)
