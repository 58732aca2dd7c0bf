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


#: the losses whose Python front (torch/nn/functional.py) turns a legacy ``size_average``/``reduce``
#: into a reduction, with its deprecation warning, before anything reads its tensors (mse_loss,
#: l1_loss and smooth_l1_loss compare ``target.size()`` first: not these)
LEGACY_FIRST = frozenset({
    "F.cross_entropy", "F.nll_loss", "F.binary_cross_entropy", "F.binary_cross_entropy_with_logits",
    "F.hinge_embedding_loss", "F.poisson_nll_loss", "F.margin_ranking_loss", "F.cosine_embedding_loss",
    "F.multilabel_margin_loss", "F.soft_margin_loss", "F.multilabel_soft_margin_loss", "F.multi_margin_loss",
    "F.triplet_margin_loss"})


def _legacy_warning(fn, args, kwargs) -> None:
    """The loss front's legacy reduction (and its warning) when the call gives size_average or reduce."""
    import inspect

    from .nn import legacy_reduction
    try:
        bound = inspect.signature(fn).bind_partial(*args, **kwargs).arguments
    except TypeError:
        return
    size_average, reduce = bound.get("size_average"), bound.get("reduce")
    if size_average is not None or reduce is not None:
        legacy_reduction(size_average, reduce)


def _binding_first(fn, key, args, kwargs) -> None:
    """A call of a Python-level nn.functional (one without a parser signature) that does not bind
    fails there, before the body's first read of an argument: Python's own TypeError
    (``huber_loss() got an unexpected keyword argument 'size_average'``)."""
    if key is None or not key.startswith("F."):
        return
    import inspect

    from ._pyargs import _signatures
    if _signatures(key) is not None:
        return
    try:
        signature = inspect.signature(fn)
        signature.bind(*args, **kwargs)
    except TypeError:
        try:
            fn(*args, **kwargs)  # (raises the binding's error before the body runs)
        except TypeError as e:
            name = fn.__name__
            if name in _DISPATCHED:  # boolean_dispatch's choice by return_indices: _max_pool2d or ..._with_indices
                at = list(signature.parameters).index("return_indices")
                chosen = kwargs["return_indices"] if "return_indices" in kwargs else (
                    args[at] if len(args) > at else False)
                e.args = (f"{name + '_with_indices' if chosen else '_' + name}{e.args[0][len(name):]}",)
            raise
    except ValueError:
        return


#: nn.functionals that PyTorch defines by boolean_dispatch (torch/_jit_internal.py): a call runs
#: ``_name`` or ``name_with_indices``, whose names its binding errors give
_DISPATCHED = frozenset(f"{kind}max_pool{n}d" for kind in ("", "adaptive_", "fractional_") for n in (1, 2, 3)) \
    - {"fractional_max_pool1d"}


def _renamed(key, kwargs):
    """The call's keywords with numpy's names (axis=, keepdims=, x=, ...) renamed to the parameters'
    own, where ``key`` is a built-in function that takes them (python_arg_parser.cpp); else None.
    Asked only once the call has failed (a call that works pays nothing)."""
    if not kwargs or key is None:
        return None
    for k in kwargs:
        if k in _NUMPY_ALIASES:
            from ._pyargs import numpy_keywords  # (imported only then: a run that needs none never loads it)
            return numpy_keywords(key, kwargs)
    return None


#: the keyword names python_arg_parser.cpp takes for others (agrad/ops/_pyargs.py's NUMPY_ALIASES)
_NUMPY_ALIASES = frozenset(("axis", "keepdims", "x", "a", "x1", "x2"))


def _retry(fn, key, args, kwargs, renamed):
    """``fn`` called again with numpy's keyword names renamed; its failure is PyTorch's parser error
    for the call as written (``sum() got an unexpected keyword argument 'axis'`` beside another
    unknown keyword), else ``fn``'s own."""
    try:
        return fn(*args, **renamed)
    except Exception:
        _raise_parser_error(key, args, kwargs)
        raise


#: the types PyTorch's parser takes for a parameter without a closer look
_PLAIN = {"bool": (bool,), "float": (int, float), "Number": (int, float), "int": (int,)}


def passed_on(fname: str, params: tuple) -> None:
    """A Python-level function's call of ATen's ``fname`` (``torch.unique``'s ``_unique2``, ``F.dropout``'s
    ``dropout``): ``params`` are ``(name, type name, position or None for a keyword, value)`` as that call
    passes them, and the first that PyTorch's parser refuses is its TypeError."""
    for name, type_name, position, value in params:
        if type(value) in _PLAIN[type_name]:
            if type(value) is int and type_name in ("int", "Number", "float"):
                _unpack(value, type_name)
            continue
        from ._pyargs import check, tp_name

        if not check(type_name, value):
            where = "" if position is None else f" (position {position})"
            raise TypeError(f"{fname}(): argument '{name}'{where} must be {type_name}, not {tp_name(value)}")


def type_name(value) -> str:
    return "NoneType" if value is None else type(value).__name__


def checked(fn, checks, key=None, scalars=None):
    """``fn`` with its tensor arguments checked first: ``checks`` as in the table; a failure
    of ``fn`` is PyTorch's parser error where its signatures refuse the call (``key``); ``scalars``: its
    Number / float parameters (:func:`_scalar_params`)."""
    at, by_name = _scalar_params(key, scalars)
    if len(checks) == 1 and checks[0][2] == "tensor":
        index, name, _, message, _ = checks[0]

        if index == 0 and name == "input":
            def first(input=_MISSING, *args, **kwargs):
                if type(input) is Tensor and not args and not kwargs:  # f(tensor): no tuple to unpack
                    try:
                        return fn(input)
                    except Unbatched:
                        return BATCHED_CALL[0](fn, (input,), {})
                    except Exception:
                        _raise_parser_error(key, (input,), {})
                        raise
                if input is not _MISSING:
                    args = (input, *args)
                return one(*args, **kwargs)

            functools.update_wrapper(first, fn)

        @functools.wraps(fn)
        def one(*args, **kwargs):
            value = args[index] if len(args) > index else kwargs.get(name, _MISSING)
            if value is not _MISSING and not isinstance(value, Tensor):
                _binding_first(fn, key, args, kwargs)
                if key in LEGACY_FIRST:
                    _legacy_warning(fn, args, kwargs)
                _raise_parser_error(key, args, kwargs)  # PyTorch's own parse, where it has one
                raise wrong_type(message, value)
            if kwargs or at:  # (out= and the scalar parameters as ATen's parser takes them)
                args, kwargs = _prepared(key, args, kwargs, at, by_name)
            try:
                return fn(*args, **kwargs)
            except Unbatched:
                return BATCHED_CALL[0](fn, args, kwargs)
            except Exception:
                if (renamed := _renamed(key, kwargs)) is not None:
                    return _retry(fn, key, args, kwargs, renamed)
                _raise_parser_error(key, args, kwargs)
                raise

        if index == 0 and name == "input":
            own = getattr(fn, "checked_first", None)  # (fn's own copy of first, its short way inline)
            return first if own is None else functools.update_wrapper(own(one, key), fn)
        return one

    @functools.wraps(fn)
    def many(*args, **kwargs):
        try:
            for check in checks:
                check_argument(check, args, kwargs)
        except (TypeError, AttributeError):
            _binding_first(fn, key, args, kwargs)
            if key in LEGACY_FIRST:
                _legacy_warning(fn, args, kwargs)
            _raise_parser_error(key, args, kwargs)  # PyTorch's own parse, where it has one
            raise
        if kwargs or at:  # (out= and the scalar parameters as ATen's parser takes them)
            args, kwargs = _prepared(key, args, kwargs, at, by_name)
        try:
            return fn(*args, **kwargs)
        except Unbatched:
            return BATCHED_CALL[0](fn, args, kwargs)
        except Exception:
            if (renamed := _renamed(key, kwargs)) is not None:
                return _retry(fn, key, args, kwargs, renamed)
            _raise_parser_error(key, args, kwargs)
            raise

    return many


#: the free functions (by their own name) with a batching rule in agrad/func/_batching_rules.py and no
#: argument check here (tests/func/test_vmap_batched.py keeps the two lists in step)
BATCHABLE = frozenset("""
    add sub mul div pow remainder floor_divide float_power xlogy bitwise_and bitwise_or bitwise_xor where
    full_like reshape permute movedim select flip conv1d conv2d conv3d max_pool1d max_pool2d max_pool3d
    max_pool1d_with_indices max_pool2d_with_indices avg_pool1d avg_pool2d avg_pool3d adaptive_avg_pool1d
    adaptive_avg_pool2d adaptive_avg_pool3d embedding nll_loss cross_entropy
""".split())


def batchable(fn, key=None, scalars=None):
    """``fn`` handing its call to vmap's batching when an argument is a batched tensor (no type check);
    ``scalars``: its Number / float parameters (:func:`_scalar_params`)."""
    at, by_name = _scalar_params(key, scalars)

    def free(*args, **kwargs):
        if kwargs or at:  # (out= and the scalar parameters as ATen's parser takes them)
            args, kwargs = _prepared(key, args, kwargs, at, by_name)
        try:
            return fn(*args, **kwargs)
        except Unbatched:
            return BATCHED_CALL[0](fn, args, kwargs)
        except Exception:
            if (renamed := _renamed(key, kwargs)) is not None:
                return _retry(fn, key, args, kwargs, renamed)
            _raise_parser_error(key, args, kwargs)
            raise

    return _like(free, fn)


def parsed(fn, key, scalars=None):
    """``fn`` whose failure is PyTorch's parser error where its signatures refuse the call
    (agrad/ops/_pyargs.py: only asked once ``fn`` has raised, so a call that works pays a ``try``);
    ``scalars``: its Number / float parameters (:func:`_scalar_params`)."""
    at, by_name = _scalar_params(key, scalars)

    def call(*args, **kwargs):
        if kwargs or at:  # (out= and the scalar parameters as ATen's parser takes them)
            args, kwargs = _prepared(key, args, kwargs, at, by_name)
        try:
            return fn(*args, **kwargs)
        except Exception:
            if (renamed := _renamed(key, kwargs)) is not None:
                return _retry(fn, key, args, kwargs, renamed)
            _raise_parser_error(key, args, kwargs)
            raise

    call = _like(call, fn)
    call._parsed = fn  # the function itself, for parsed_first's wrapper that takes this one's place
    return call


def parsed_unless_ints(fn, key):
    """``fn`` parsed before it runs unless its arguments are plain ints (and index tensors) and its
    keywords ints, bools or None (:data:`PARSED_UNLESS_INTS`): numpy would take a bool, a float or a
    0-d tensor where PyTorch's parser refuses it (or converts it and fails)."""
    method = key.startswith("method.")

    def call(*args, **kwargs):
        if kwargs and (renamed := _renamed(key, kwargs)) is not None:
            kwargs = renamed
        for a in args[method:]:
            if type(a) is not int and not (type(a) is Tensor and a._data.ndim and a.dtype._kind == 1):
                _raise_parser_error(key, args, kwargs)
                break
        else:
            for v in kwargs.values():
                if v is not None and type(v) is not int and type(v) is not bool:
                    _raise_parser_error(key, args, kwargs)
                    break
        return fn(*args, **kwargs)

    return _like(call, fn)


def parsed_if_not_bool(fn, key, positions, names):
    """``fn`` parsed before it runs when a call gives one of its ``bool`` parameters (at ``positions``,
    after self for a method, or by one of ``names``) anything but a bool: PyTorch's parser refuses an
    int or a tensor there (agrad/ops/_bool_params_table.py; another signature may take it: the parse
    decides)."""
    shift = key.startswith("method.")
    positions = tuple(i + shift for i in positions)

    def call(*args, **kwargs):
        if any(len(args) > i and type(args[i]) is not bool for i in positions) or kwargs and any(
                k in kwargs and type(kwargs[k]) is not bool for k in names):
            _raise_parser_error(key, args, kwargs)
        return fn(*args, **kwargs)

    return _like(call, fn)


#: the types that pass a ``Number`` / ``float`` parameter without a parse
_NUMBERS = (float, int)


def _scalar_params(key, found):
    """(positions, {keyword: type}) of the ``Number`` / ``float`` parameters of ``key`` (``found``: its entry of
    agrad/ops/_scalar_params_table.py, or None): a call that gives one of them anything but an int or a float
    is parsed before it runs (PyTorch's parser refuses a one-element 1-d tensor, one that requires grad, a
    str), and what the parser takes reaches the function as the parser makes it (:func:`_plain`)."""
    if found is None:
        return (), {}
    shift = key.startswith("method.")
    return (tuple((i + shift, _PLAIN_TYPES[t, none], t) for i, t, none in found[0]),
            {n: (_PLAIN_TYPES[t, none], t) for n, t, none in found[1]})


#: the types that pass a parameter without a parse, by (type, takes None)
_PLAIN_TYPES = {("Number", False): (float, int), ("float", False): (float, int), ("int", False): (int,),
                ("Number", True): (float, int, type(None)), ("float", True): (float, int, type(None)),
                ("int", True): (int, type(None))}


def _prepared(key, args, kwargs, at, by_name):
    """A call's arguments as ATen's parser hands them on: a call giving out= parsed first (:func:`_out_first`);
    scalar parameters (``at`` by position, ``by_name`` by keyword) that are not plain numbers parsed and
    converted (:func:`_plain`); otherwise the call's own."""
    if kwargs and "out" in kwargs:
        _out_first(key, args, kwargs)
    for i, ok, _ in at:
        if len(args) > i and type(args[i]) not in ok:
            return _unpacked(_plain(key, args, kwargs, at, by_name), at, by_name)
    if kwargs and by_name:
        for k in kwargs:
            if k in by_name and type(kwargs[k]) not in by_name[k][0]:
                return _unpacked(_plain(key, args, kwargs, at, by_name), at, by_name)
    return _unpacked((args, kwargs), at, by_name)


_LONG, _ULONG = 2 ** 63, 2 ** 64


def _unpacked(call, at, by_name):
    """``call`` once the parser's unpacking of its Python ints has passed: an ``int`` parameter takes an
    int64, a ``Number`` one an int64 or, past it, a uint64, a ``float`` one what a double holds (before the
    op's own checks, so before an in-place op's overlap error)."""
    args, kwargs = call
    for i, _, t in at:
        if len(args) > i and type(args[i]) is int:
            _unpack(args[i], t)
    if kwargs and by_name:
        for k, v in kwargs.items():
            if type(v) is int and k in by_name:
                _unpack(v, by_name[k][1])
    return call


def _unpack(value, type_name):
    if type_name == "int":
        if not -_LONG <= value < _LONG:
            raise ValueError("Overflow when unpacking long long")
    elif type_name == "Number":
        if not -_LONG <= value < _ULONG:
            from .pointwise import unpack_overflow
            unpack_overflow(value)
    else:
        float(value)  # (Python's OverflowError past a double)


def _plain(key, args, kwargs, at, by_name):
    """The call parsed (PyTorch's TypeError where it refuses it), its numbers as the parser converts them."""
    _raise_parser_error(key, args, kwargs)
    args = list(args)
    for i, _, t in at:
        if len(args) > i:
            args[i] = _converted(args[i], t)
    kwargs = {k: _converted(v, by_name[k][1]) if k in by_name else v for k, v in kwargs.items()}
    return tuple(args), kwargs


def _converted(value, type_name):
    """A Number's or float's value as the parser passes it on: a tensor's item() (a float's as a float),
    numpy's bool as a double (a Scalar of it is no bool), other numpy scalars as Python's."""
    import numpy as np

    if isinstance(value, Tensor):
        value = value.item()
        return float(value) if type_name == "float" else value
    if isinstance(value, np.bool_):
        return float(value)
    if isinstance(value, np.generic):
        return float(value) if type_name == "float" else value.item()
    return value


def parsed_first(fn, key, fewer_than=None, unless_sequence=False, keyword=None):
    """``fn`` with its arguments parsed by PyTorch's signatures before it runs (:data:`PARSED_FIRST`);
    with ``fewer_than``, only calls with fewer positional arguments (a missing size or dim); with
    ``unless_sequence``, calls other than ``f(tensor, sequence)`` (also those with fewer arguments);
    with ``keyword``, calls that give it (and, with ``fewer_than`` too, those with fewer arguments)."""

    if keyword is not None:  # (in place of parsed()'s wrapper, not around it: the same cost per call)
        fewer_than = fewer_than or 0
        positional = _POSITIONAL_BY_KEYWORD.get(key)
        fn = getattr(fn, "_parsed", fn)

        def call(*args, **kwargs):
            if len(args) < fewer_than or kwargs and (keyword in kwargs or "out" in kwargs):
                _raise_parser_error(key, args, kwargs)
                if positional and len(args) == 1 and positional in kwargs:  # x.reshape(shape=(3, 2)): parsed
                    args, kwargs = (args[0], kwargs.pop(positional)), kwargs
            try:
                return fn(*args, **kwargs)
            except Exception:
                if (renamed := _renamed(key, kwargs)) is not None:
                    return _retry(fn, key, args, kwargs, renamed)
                _raise_parser_error(key, args, kwargs)
                raise
    elif unless_sequence:
        def call(*args, **kwargs):
            if len(args) != 2 or not isinstance(args[1], (tuple, list)):
                _raise_parser_error(key, args, kwargs)
                if len(args) == 1 and len(kwargs) == 1:  # torch.reshape(x, shape=(3, 2)): parsed
                    return fn(args[0], *kwargs.values())
            return fn(*args, **kwargs)
    elif fewer_than is None:
        def call(*args, **kwargs):
            _raise_parser_error(key, args, kwargs)
            if kwargs and (renamed := _renamed(key, kwargs)) is not None:
                kwargs = renamed
            return fn(*args, **kwargs)
    else:
        def call(*args, **kwargs):
            if len(args) < fewer_than:
                _raise_parser_error(key, args, kwargs)
            if kwargs and (renamed := _renamed(key, kwargs)) is not None:
                kwargs = renamed
            return fn(*args, **kwargs)

    return _like(call, fn)


#: functions whose arguments PyTorch refuses where agrad's would work or warn first: parsed before the call
PARSED_FIRST = frozenset("""
    torch.cholesky method.cholesky linalg.cholesky linalg.cholesky_ex torch.range
    torch.tril torch.triu method.tril method.triu method.tril_ method.triu_
    method.scatter_ method.scatter torch.scatter method.logical_not torch.permute
    torch.moveaxis method.moveaxis torch.movedim method.movedim torch.cov method.cov
    torch.histc method.histc
""".split())
#: ... and those where only a call without its size or dim (agrad's defaults) needs the parse
PARSED_IF_FEWER = {"torch.ones": 1, "torch.zeros": 1, "torch.empty": 1, "torch.rand": 1, "torch.randn": 1,
                   "torch.full": 2, "method.sum_to_size": 2, "method.new_zeros": 2, "method.new_ones": 2,
                   "method.new_empty": 2, "method.flip": 2, "torch.flip": 2, "method.tile": 2, "torch.arange": 1,
                   "method.reshape": 2, "method.expand": 2}
#: ... and those where only a call giving this keyword needs the parse (sort's keyword-only ``stable``
#: refuses a positional dim; arange's ``step`` needs ``start`` and ``end``; a method's only parameter
#: given by name, which agrad's varargs do not take: :data:`_POSITIONAL_BY_KEYWORD`)
PARSED_WITH_KEYWORD = {"method.sort": "stable", "torch.sort": "stable", "method.argsort": "stable",
                       "torch.argsort": "stable", "torch.arange": "step", "method.reshape": "shape",
                       "method.new_zeros": "size", "method.new_ones": "size", "method.new_empty": "size",
                       "method.view": "size", "method.repeat": "repeats", "torch.randint_like": "low"}
_POSITIONAL_BY_KEYWORD = {"method.reshape": "shape", "method.new_zeros": "size", "method.new_ones": "size",
                          "method.new_empty": "size", "method.view": "size", "method.repeat": "repeats"}
#: ... and those that take ints where numpy would take other types too (select(0, True), topk(1.0), a bool
#: 0-d tensor for a SymInt: the parser's conversion assert), unless every argument is an int
PARSED_UNLESS_INTS = frozenset("""
    method.select torch.select method.topk torch.topk method.kthvalue torch.kthvalue method.narrow torch.narrow
    method.unsqueeze torch.unsqueeze method.transpose torch.transpose method.flatten torch.flatten
    method.chunk torch.chunk method.diagonal torch.diagonal method.unbind torch.unbind method.argmax
    torch.argmax method.argmin torch.argmin method.gather torch.gather method.index_select torch.index_select
    method.softmax method.log_softmax
""".split())
#: ... and those whose free function takes one sequence where agrad's (shared with the method) takes varargs
PARSED_UNLESS_SEQUENCE = frozenset({"torch.reshape", "torch.flip", "torch.tile"})


def _like(wrapper, fn):
    # functools.wraps, by hand (it costs four times as much, at start-up)
    wrapper.__name__, wrapper.__qualname__, wrapper.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
    wrapper.__module__, wrapper.__wrapped__ = fn.__module__, fn
    return wrapper


def _raise_parser_error(key, args, kwargs) -> None:
    """Raise PyTorch's TypeError for a call its signatures refuse; return when they take it."""
    if key is None:
        return
    from ._pyargs import parser_error

    if key.startswith("method."):
        args = args[1:]
    message = parser_error(key, args, kwargs)
    if message is not None:
        raise TypeError(message) from None


#: out= overloads autograd refuses (an input or out that requires grad) before any check of the kernel's
#: (a dim out of range, a shape, an index dtype): the function -> the op named
_EARLY_OUT_GRAD = {"torch.bmm": "bmm", "torch.clamp": "clamp", "torch.clip": "clamp", "linalg.cross": "linalg_cross",
                   "torch.cumprod": "cumprod", "torch.cumsum": "cumsum", "torch.logcumsumexp": "logcumsumexp",
                   "torch.logsumexp": "logsumexp", "special.logsumexp": "logsumexp",
                   "torch.masked_select": "masked_select", "torch.mv": "mv", "torch.prod": "prod", "torch.sum": "sum",
                   "torch.take": "take",
                   # (natives with a derivative, and composites that hand out= on before checking anything:
                   # their out overload's VariableType refuses first; the meta's and kernel's checks follow)
                   "torch.sort": "sort", "torch.msort": "sort", "torch.topk": "topk", "torch.aminmax": "aminmax",
                   "torch.kthvalue": "kthvalue", "torch.mode": "mode", "torch.median": "median",
                   "torch.nanmedian": "nanmedian", "torch.cummax": "cummax", "torch.cummin": "cummin",
                   "torch.var": "var", "torch.std": "std", "torch.mean": "mean", "torch.amax": "amax",
                   "torch.amin": "amin", "torch.index_select": "index_select", "torch.gather": "gather",
                   "torch.index_add": "index_add", "torch.index_copy": "index_copy", "torch.narrow_copy": "narrow_copy",
                   "torch.mm": "mm", "torch.addmm": "addmm", "torch.baddbmm": "baddbmm", "torch.addbmm": "addbmm",
                   "torch.addmv": "addmv", "torch.addr": "addr", "torch.renorm": "renorm", "torch.lerp": "lerp",
                   "torch.tril": "tril", "torch.triu": "triu", "torch.nan_to_num": "nan_to_num",
                   "torch.logaddexp": "logaddexp", "torch.xlogy": "xlogy", "torch.hypot": "hypot", "torch.fmod": "fmod",
                   "torch.atan2": "atan2", "torch.mvlgamma": "mvlgamma", "torch.polygamma": "polygamma",
                   "torch.geqrf": "geqrf", "torch.ormqr": "ormqr", "torch.lu_unpack": "lu_unpack",
                   "torch.cholesky": "cholesky", "torch.cholesky_solve": "cholesky_solve",
                   "torch.cholesky_inverse": "cholesky_inverse", "torch.triangular_solve": "triangular_solve",
                   "torch.slogdet": "_linalg_slogdet", "linalg.householder_product": "linalg_householder_product",
                   "linalg.lu_factor": "linalg_lu_factor_ex", "linalg.lu_factor_ex": "linalg_lu_factor_ex",
                   "linalg.lu": "linalg_lu", "linalg.lu_solve": "linalg_lu_solve",
                   "linalg.cholesky": "linalg_cholesky_ex", "linalg.cholesky_ex": "linalg_cholesky_ex",
                   "linalg.qr": "linalg_qr", "linalg.eigh": "_linalg_eigh", "linalg.eigvalsh": "_linalg_eigh",
                   "linalg.slogdet": "_linalg_slogdet", "linalg.inv_ex": "linalg_inv_ex", "linalg.inv": "linalg_inv_ex",
                   "linalg.solve_ex": "_linalg_solve_ex", "linalg.solve": "_linalg_solve_ex", "linalg.det": "_linalg_det",
                   "linalg.solve_triangular": "linalg_solve_triangular",
                   "torch.pow": "pow", "torch.ldexp": "ldexp", "torch.where": "where", "torch.max": "max",
                   "torch.min": "min"}
#: ... whose overload with a second tensor refuses under another name
_EARLY_OUT_GRAD_BINARY = {"torch.max": "maximum", "torch.min": "minimum"}


def _out_first(key, args, kwargs) -> None:
    """A call giving ``out=``, parsed before it runs: agrad's functions share their ``out`` with the
    Tensor methods (which take none in PyTorch) and with the signatures that have none
    (``sum(input)`` without a dim, ``relu``); then autograd's refusal where it comes first."""
    _raise_parser_error(key, args, kwargs)
    if key is not None:
        from ._pyargs import unexpected_out

        message = unexpected_out(key)
        if message is not None:
            raise TypeError(message) from None
        if key in _FACTORY_OUTS and kwargs.get("dtype") is not None:
            _check_out_type_matches(kwargs["dtype"], kwargs.get("out"))
        name = _EARLY_OUT_GRAD.get(key)
        if key in _EARLY_OUT_GRAD_BINARY and len(args) > 1 and isinstance(args[1], Tensor):
            name = _EARLY_OUT_GRAD_BINARY[key]
        if name is not None and _grads(args, kwargs):
            raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic differentiation, "
                               "but one of the arguments requires grad.")


#: the factories whose Python binding checks a dtype= given beside out= (check_out_type_matches)
_FACTORY_OUTS = frozenset({"torch.arange", "torch.range", "torch.linspace", "torch.logspace", "torch.zeros",
                           "torch.ones", "torch.full", "torch.empty", "torch.eye", "torch.rand", "torch.randn",
                           "torch.randint", "torch.randperm", "torch.normal"})


def _check_out_type_matches(dtype, out) -> None:
    """The binding's refusal of a dtype= that is not out's own, before the op runs."""
    from .. import dtypes
    from ..tensor import _scalar_name

    if isinstance(out, Tensor) and isinstance(dtype, dtypes.dtype) and dtype is not out.dtype:
        raise RuntimeError(f"dtype {_scalar_name(dtype)} does not match dtype of out parameter "
                           f"({_scalar_name(out.dtype)})")


def _grads(args, kwargs) -> bool:
    """Whether grad mode is on and a tensor among the arguments (or in a sequence of them) requires grad."""
    from ..autograd import grad_mode

    if not grad_mode._state["enabled"]:
        return False
    for a in (*args, *kwargs.values()):
        for t in (a if isinstance(a, (list, tuple)) else (a,)):
            if isinstance(t, Tensor) and t._requires_grad:
                return True
    return False


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
            raise wrong_type(message, value)
        _check_elements(value, element)
        return
    if isinstance(value, Tensor) or (kind == "optional" and value is None):
        return
    raise wrong_type(message, value)


def wrong_type(message: str, value) -> Exception:
    """The table's error for ``value``: PyTorch's AttributeError where a Python-level function of
    it reads an attribute first (the message starts "AttributeError: "), else its TypeError."""
    if message.startswith("AttributeError: "):
        return AttributeError(message[16:].format(type_name(value)))
    return TypeError(message.format(type_name(value)))


def _check_elements(values, element: str) -> None:
    for i, value in enumerate(values):
        if not isinstance(value, Tensor):
            raise TypeError(element.format(i, type_name(value)))


#: "torch.erf" -> the function the table held before install() wrapped it (see :func:`unchecked`)
UNCHECKED: dict = {}


def unchecked(functions: dict, name: str):
    """``functions[name]`` as registered, without its argument checks: what an op family that
    registers it under another name too (torch.special.erf) takes, so that install() wraps it
    once, for that name -- also when ``name``'s own family loaded (and was checked) first."""
    fn = functions[name]
    return UNCHECKED.get(f"torch.{name}", fn)


def install(functions: dict, methods: dict, functional: dict, linalg: dict, special: dict, only=None) -> None:
    """Replace the table's entries of the five namespaces by checked wrappers; with ``only``
    ({"FUNCTIONS": names, "METHODS": ..., "FUNCTIONAL": ..., "LINALG": ..., "SPECIAL": ...}),
    just those entries (the names an op family registered when it loaded: agrad/ops/_families.py)."""
    tables = {"torch": functions, "F": functional, "linalg": linalg, "special": special, "method": methods}
    from ._scalar_params_table import TABLE as scalars
    if only is None:
        chosen = {form: list(dict.keys(names)) for form, names in tables.items()}
    else:
        chosen = {form: list(only.get(key, ())) for form, key in (("torch", "FUNCTIONS"), ("F", "FUNCTIONAL"),
                  ("linalg", "LINALG"), ("special", "SPECIAL"), ("method", "METHODS"))}
    for form in ("torch", "F", "linalg", "special"):
        names = tables[form]
        for name in chosen[form]:
            fn = dict.__getitem__(names, name)
            key = f"{form}.{name}"
            UNCHECKED[key] = fn
            checks = TABLE.get(key)
            if checks:
                names[name] = checked(fn, checks, key, scalars.get(key))
            elif isinstance(fn, type) or not callable(fn):
                continue
            elif getattr(fn, "__name__", None) in BATCHABLE:
                names[name] = batchable(fn, key, scalars.get(key))
            else:
                names[name] = parsed(fn, key, scalars.get(key))
    for name in chosen["method"]:
        if name.startswith("__"):
            continue  # operators: Python's protocol (NotImplemented), not PyTorch's parser
        fn = dict.__getitem__(methods, name)
        key = f"method.{name}"
        checks = TABLE.get(key)
        if checks:  # positions count after self, as PyTorch counts them
            methods[name] = checked(fn, tuple((i + 1, *rest) for i, *rest in checks), key, scalars.get(key))
        else:
            methods[name] = parsed(fn, key, scalars.get(key))
    chosen = {form: set(v) for form, v in chosen.items()}
    for key in _PARSED_KEYS:
        form, name = key.split(".", 1)
        names = tables[form]
        if name in chosen[form]:
            names[name] = parsed_first(dict.__getitem__(names, name), key, PARSED_IF_FEWER.get(key),
                                       key in PARSED_UNLESS_SEQUENCE, PARSED_WITH_KEYWORD.get(key))
    for key in PARSED_UNLESS_INTS:
        form, name = key.split(".", 1)
        names = functions if form == "torch" else methods
        if name in chosen["torch" if form == "torch" else "method"]:
            names[name] = parsed_unless_ints(dict.__getitem__(names, name), key)
    from ._bool_params_table import TABLE as bools
    for form, names in tables.items():
        for name in chosen[form]:
            found = bools.get(f"{form}.{name}")
            if found and not name.startswith("__") and callable(fn := dict.__getitem__(names, name)):
                names[name] = parsed_if_not_bool(fn, f"{form}.{name}", *found)


#: (in the order the eager install used: a frozenset's, for the same wrappers)
_PARSED_KEYS = PARSED_FIRST | set(PARSED_IF_FEWER) | PARSED_UNLESS_SEQUENCE | set(PARSED_WITH_KEYWORD)
