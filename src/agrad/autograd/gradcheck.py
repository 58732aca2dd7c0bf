"""gradcheck and gradgradcheck: analytic gradients against central differences.

Follows PyTorch's slow-mode gradcheck: the numerical Jacobian of every
differentiable output w.r.t. every input that requires grad, by central
differences of size ``eps`` in the inputs' own dtype; the analytical one by
backward passes with one-hot output gradients; compared elementwise with
``|a - n| <= atol + rtol * |n|``.
"""

from __future__ import annotations


import numpy as np
from .._warn_once import warn as _warn


class GradcheckError(RuntimeError):
    """Raised by gradcheck / gradgradcheck when a check fails (PyTorch's type)."""


def _tensor():
    from ..tensor import Tensor
    return Tensor


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,) if not isinstance(x, list) else tuple(x)


def _differentiable_outputs(out):
    Tensor = _tensor()
    return [o for o in _as_tuple(out) if isinstance(o, Tensor) and o.requires_grad]


def _fail(msg, raise_exception):
    if raise_exception:
        raise GradcheckError(msg)
    return False


def _numerical_jacobians(func, inputs, eps):
    """For each (input requiring grad, output) pair: a (numel_in, numel_out) array."""
    Tensor = _tensor()
    # Grad mode stays on: gradgradcheck's function itself takes gradients.
    outs = [o for o in _as_tuple(func(*inputs)) if isinstance(o, Tensor)]
    result = {}
    for i, x in enumerate(inputs):
        if not (isinstance(x, Tensor) and x.requires_grad):
            continue
        flat = x._data.reshape(-1) if x._data.flags.c_contiguous else None
        if flat is None:
            raise GradcheckError("gradcheck needs contiguous inputs")
        cols = [np.zeros((x.numel(), o.numel()), dtype=o._data.dtype if o.dtype.is_floating_point else np.float64)
                for o in outs]
        for k in range(x.numel()):
            orig = flat[k].item()
            flat[k] = orig - eps  # raw writes: no version bump, nothing recorded
            lo = [o._data.copy() for o in _as_tuple(func(*inputs)) if isinstance(o, Tensor)]
            flat[k] = orig + eps
            hi = [o._data.copy() for o in _as_tuple(func(*inputs)) if isinstance(o, Tensor)]
            flat[k] = orig
            for j, (a, b) in enumerate(zip(lo, hi)):
                cols[j][k] = ((b.astype(np.float64) - a.astype(np.float64)) / (2 * eps)).reshape(-1)
        for j in range(len(outs)):
            result[(i, j)] = cols[j]
    return result, outs


def _analytical_jacobians(func, inputs):
    from . import engine
    from ..ops.factories import zeros_like

    Tensor = _tensor()
    out = func(*inputs)
    outs = [o for o in _as_tuple(out) if isinstance(o, Tensor)]
    diff_inputs = [(i, x) for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    result = {}
    for j, o in enumerate(outs):
        for i, x in diff_inputs:
            result[(i, j)] = np.zeros((x.numel(), o.numel()), dtype=x._data.dtype)
        if not o.requires_grad:
            continue
        for k in range(o.numel()):
            seed = zeros_like(o)
            seed._data.reshape(-1)[k] = 1
            grads = engine.grad([o], [x for _, x in diff_inputs], [seed], retain_graph=True, allow_unused=True)
            for (i, x), g in zip(diff_inputs, grads):
                if g is not None:
                    result[(i, j)][:, k] = g._data.reshape(-1)
    return result


def _fmt(arr, dtype):
    from ..tensor import Tensor
    return repr(Tensor._make(arr.astype(dtype.numpy)))


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False, masked=None):
    """Check ``func``'s gradients at ``inputs`` against finite differences (PyTorch's gradcheck)."""
    Tensor = _tensor()
    inputs = _as_tuple(inputs)
    if not any(isinstance(x, Tensor) and x.requires_grad for x in inputs):
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of the them have "
            "requires_grad=True.")
    for idx, x in enumerate(inputs):
        if isinstance(x, Tensor) and x.requires_grad and x.dtype.name != "float64":
            _warn(
                f"Input #{idx} requires gradient and is not a double precision floating point or complex. "
                "This check will likely fail if all the inputs are not of double precision floating point "
                "or complex. ", UserWarning)
    out = func(*inputs)
    outs = [o for o in _as_tuple(out) if isinstance(o, Tensor)]
    if not outs:
        return _fail("gradcheck expects the function to return at least one Tensor", raise_exception)
    if not _differentiable_outputs(out):
        # PyTorch checks that the numerical gradient is zero for non-differentiable outputs
        numerical, _ = _numerical_jacobians(func, inputs, eps)
        for (i, j), n in numerical.items():
            if not np.allclose(n, 0, rtol=rtol, atol=atol):
                return _fail("Numerical gradient for function expected to be zero", raise_exception)
        return True
    numerical = None
    if check_backward_ad:
        numerical = _check_backward(func, inputs, eps, atol, rtol, nondet_tol, raise_exception)
        if numerical is False:
            return False
    if check_forward_ad:
        if numerical is None:
            numerical, _ = _numerical_jacobians(func, inputs, eps)
        forward = _forward_jacobians(func, inputs)
        for (i, j), n in numerical.items():
            a = forward[(i, j)]
            if not np.allclose(a, n, rtol=rtol, atol=atol, equal_nan=False):
                dtype = inputs[i].dtype
                return _fail(
                    f"Jacobian computed with forward mode mismatch for output {j:d} with respect to input {i:d},\n"
                    f"numerical:{_fmt(n, dtype)}\nanalytical:{_fmt(a, dtype)}\n", raise_exception)
    return True


def _forward_jacobians(func, inputs):
    """The Jacobians by forward mode: one dual pass per input element (a one-hot tangent)."""
    from . import forward_ad

    Tensor = _tensor()
    result = {}
    for i, x in enumerate(inputs):
        if not (isinstance(x, Tensor) and x.requires_grad):
            continue
        cols = None
        for k in range(x.numel()):
            tangent = np.zeros(x._data.shape, x._data.dtype)
            tangent.reshape(-1)[k] = 1
            with forward_ad.dual_level():
                args = list(inputs)
                args[i] = forward_ad.make_dual(x, Tensor._make(tangent))
                outs = [o for o in _as_tuple(func(*args)) if isinstance(o, Tensor)]
                if cols is None:
                    cols = [np.zeros((x.numel(), o.numel()), dtype=o._data.dtype if o.dtype.is_floating_point
                                     else np.float64) for o in outs]
                for j, o in enumerate(outs):
                    t = forward_ad.unpack_dual(o).tangent
                    if t is not None:
                        cols[j][k] = t._data.reshape(-1)
        for j, col in enumerate(cols or ()):
            result[(i, j)] = col
    return result


def _check_backward(func, inputs, eps, atol, rtol, nondet_tol, raise_exception):
    """The backward-mode check; the numerical Jacobians when it passes, else False (or raises)."""
    analytical = _analytical_jacobians(func, inputs)
    again = _analytical_jacobians(func, inputs)
    for key, a in analytical.items():
        if np.abs(a - again[key]).max(initial=0) > nondet_tol:
            return _fail(
                "Backward is not reentrant, i.e., running backward with same input and grad_output multiple "
                "times gives different values, although analytical gradient matches numerical gradient."
                f"The tolerance for nondeterminism was {nondet_tol}.", raise_exception)
    numerical, _ = _numerical_jacobians(func, inputs, eps)
    for (i, j), n in numerical.items():
        a = analytical[(i, j)]
        if not np.allclose(a, n, rtol=rtol, atol=atol, equal_nan=False):
            dtype = inputs[i].dtype
            return _fail(
                f"Jacobian mismatch for output {j:d} with respect to input {i:d},\n"
                f"numerical:{_fmt(n, dtype)}\nanalytical:{_fmt(a, dtype)}\n", raise_exception)
    return numerical


def _random_grad_output(out, noncontiguous):
    """A random gradient for ``out`` as PyTorch's gradgradcheck makes it (torch.testing.make_tensor
    with low=-1, high=1): an empty tensor of its shape (the last dim doubled, then every second
    element from 1, if ``noncontiguous`` and it has more than one element) filled by uniform_."""
    import agrad

    dtype = out.dtype if (out.dtype.is_floating_point or out.dtype.is_complex) else agrad.float64
    shape = tuple(out.shape)
    noncontiguous = noncontiguous and int(np.prod(shape, dtype=np.int64)) > 1
    if noncontiguous:
        shape = shape[:-1] + (2 * shape[-1],)
    result = agrad.empty(shape, dtype=dtype)
    (agrad.view_as_real(result) if dtype.is_complex else result).uniform_(-1, 1)
    if noncontiguous:
        result = result[..., 1::2]
    return result.requires_grad_(True)


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    """Check second derivatives: gradcheck of the function that computes ``func``'s gradients."""
    from . import engine

    Tensor = _tensor()
    inputs = _as_tuple(inputs)
    outs = _differentiable_outputs(func(*inputs))
    if grad_outputs is None:  # (torch.testing.make_tensor's: uniform in [-1, 1) from the global generator)
        grad_outputs = tuple(_random_grad_output(o, gen_non_contig_grad_outputs) for o in outs)
    else:
        grad_outputs = _as_tuple(grad_outputs)
    n_in = len(inputs)
    diff_idx = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]

    def first_grads(*args):
        ins, gos = args[:n_in], args[n_in:]
        o = _differentiable_outputs(func(*ins))
        grads = engine.grad(o, [ins[i] for i in diff_idx], gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_grads, inputs + tuple(grad_outputs), eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol)
