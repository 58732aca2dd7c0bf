"""The one argument-type check of the public functions: PyTorch's TypeError for a non-Tensor.

``relu(1.0)`` in PyTorch fails in its argument parser with ``relu(): argument
'input' (position 1) must be Tensor, not float``; agrad's ops read ``._data``
of their arguments and would fail deeper with an internal message. The table
(agrad/ops/_argcheck_table.py, generated from PyTorch by
tools/gen_arg_checks.py) lists, per public name, the positional parameters
PyTorch requires to be Tensors; :func:`install` wraps exactly those entries of
the torch namespace, the Tensor methods, nn.functional and linalg, so
internal calls between ops pay nothing.

The same wrappers are where ``torch.func.vmap`` meets the free functions: a
batched tensor (agrad/func/_batched.py) reads as :class:`Unbatched` when an
op takes its data, and the wrapper of the public function hands the call to
vmap's batching rules (:data:`BATCHED_CALL`).  The free functions without a
type check that vmap has a rule for (:data:`BATCHABLE`) get a wrapper for
that alone (a try costs nothing until it catches); any other free function
meeting a batched tensor makes vmap run its function once per element.
Tensor methods are the batched tensor's own.
"""

from __future__ import annotations

import functools

from ..tensor import Tensor
from ._argcheck_table import TABLE

_MISSING = object()


class Unbatched(BaseException):
    """An op read the data of a vmap batched tensor (agrad.func._batched): its batching rule, or the
    loop over the batch, must run instead.  A BaseException, so no op's ``except Exception`` takes it."""


#: [f(fn, args, kwargs)]: the batched call of a public function (set by agrad.func._batched when loaded)
BATCHED_CALL: list = [None]


def type_name(value) -> str:
    return "NoneType" if value is None else type(value).__name__


def checked(fn, checks):
    """``fn`` with its tensor arguments checked first: ``checks`` as in the table."""
    if len(checks) == 1 and checks[0][2] == "tensor":
        index, name, _, message, _ = checks[0]

        @functools.wraps(fn)
        def one(*args, **kwargs):
            value = args[index] if len(args) > index else kwargs.get(name, _MISSING)
            if value is not _MISSING and not isinstance(value, Tensor):
                raise TypeError(message.format(type_name(value)))
            try:
                return fn(*args, **kwargs)
            except Unbatched:
                return BATCHED_CALL[0](fn, args, kwargs)

        return one

    @functools.wraps(fn)
    def many(*args, **kwargs):
        for check in checks:
            check_argument(check, args, kwargs)
        try:
            return fn(*args, **kwargs)
        except Unbatched:
            return BATCHED_CALL[0](fn, args, kwargs)

    return many


#: the free functions (by their own name) with a batching rule in agrad/func/_batching_rules.py and no
#: argument check here (tests/func/test_vmap_batched.py keeps the two lists in step)
BATCHABLE = frozenset("""
    add sub mul div pow remainder floor_divide float_power xlogy bitwise_and bitwise_or bitwise_xor where
    full_like reshape permute movedim select flip conv1d conv2d conv3d max_pool1d max_pool2d max_pool3d
    max_pool1d_with_indices max_pool2d_with_indices avg_pool1d avg_pool2d avg_pool3d adaptive_avg_pool1d
    adaptive_avg_pool2d adaptive_avg_pool3d
""".split())


def batchable(fn):
    """``fn`` handing its call to vmap's batching when an argument is a batched tensor (no type check)."""

    def free(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Unbatched:
            return BATCHED_CALL[0](fn, args, kwargs)

    # functools.wraps, by hand (it costs four times as much, at start-up)
    free.__name__, free.__qualname__, free.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
    free.__module__, free.__wrapped__ = fn.__module__, fn
    return free


def check_argument(check, args, kwargs) -> None:
    index, name, kind, message, element = check
    if kind == "vararg":
        values = args[index:]
        if len(values) == 1 and isinstance(values[0], (list, tuple)):
            values = values[0]  # meshgrid([a, b]) as well as meshgrid(a, b)
        _check_elements(values, element)
        return
    value = args[index] if len(args) > index else kwargs.get(name, _MISSING)
    if value is _MISSING:
        return
    if kind == "tensors":
        if not isinstance(value, (list, tuple)):
            raise TypeError(message.format(type_name(value)))
        _check_elements(value, element)
        return
    if isinstance(value, Tensor) or (kind == "optional" and value is None):
        return
    raise TypeError(message.format(type_name(value)))


def _check_elements(values, element: str) -> None:
    for i, value in enumerate(values):
        if not isinstance(value, Tensor):
            raise TypeError(element.format(i, type_name(value)))


def install(functions: dict, methods: dict, functional: dict, linalg: dict) -> None:
    """Replace the table's entries of the four namespaces by checked wrappers."""
    for form, names in (("torch", functions), ("F", functional), ("linalg", linalg)):
        for name, fn in list(names.items()):
            checks = TABLE.get(f"{form}.{name}")
            if checks:
                names[name] = checked(fn, checks)
            elif getattr(fn, "__name__", None) in BATCHABLE and not isinstance(fn, type):
                names[name] = batchable(fn)
    for name, fn in list(methods.items()):
        checks = TABLE.get(f"method.{name}")
        if checks:  # positions count after self, as PyTorch counts them
            methods[name] = checked(fn, tuple((i + 1, *rest) for i, *rest in checks))
