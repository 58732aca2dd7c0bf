"""torch.func.vmap (and torch.vmap): map a function over a dimension of its inputs.

``func`` runs once, on batched tensors (agrad/func/_batched.py): each looks
like one element of the batch and holds the whole batch, and each op on it
runs its batching rule (agrad/func/_batching_rules.py: pointwise ops,
reductions, views, softmax, matrix products, cat/stack, ...) -- one op on the
batch -- or, for an op without a rule, runs once per element and stacks the
results.  ``func`` runs once per element of the batch instead (the values of
PyTorch's batching rules, only slower) when a batched tensor reaches code that
has neither: a transform inside vmap (``vmap(grad(f))``), an in-place method
of an unbatched tensor, a random draw vmap must repeat per element; the
random state is rewound first.  ``vmap(vjp_fn)`` with the batch in front of
every cotangent is one batched backward pass.  The graph through the batched
ops keeps the result differentiable.

``randomness``: ``"error"`` (PyTorch's default) raises PyTorch's error at the
first random draw inside ``func``; ``"different"`` draws anew for each
element; ``"same"`` gives every element the same draws (the generator is
reset before each one and left where the last one left it).
"""

from __future__ import annotations

from ..ops._argcheck import Unbatched
from ..tensor import Tensor
from . import _pytree
from .transforms import Transformed

_RANDOM_ERROR = ("vmap: called random operation while in randomness error mode. Please either use the 'same' or "
                 "'different' randomness flags on vmap or perform the randomness operation out of vmap")


def _name(func) -> str:
    n = getattr(func, "__name__", None)
    return n if isinstance(n, str) else type(func).__name__


def _shown_type(v) -> str:
    """``<class 'torch.dtype'>`` for agrad's own classes, as PyTorch's message names them."""
    t = type(v)
    if t.__module__.startswith("agrad"):
        return f"<class 'torch.{t.__qualname__}'>"
    return str(t)


def _no_random():
    raise RuntimeError(_RANDOM_ERROR)


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """A function mapping ``func`` over dimension ``in_dims`` of its inputs, stacking results at ``out_dims``."""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got "
                           f"{randomness}")
    if chunk_size is not None and not (type(chunk_size) is int and chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")
    name = _name(func)

    def wrapped(*args, **kwargs):
        dims, size = _check_inputs(name, in_dims, args)
        batched = getattr(func, "_batched", None) if isinstance(func, Transformed) else None
        if batched is not None and not kwargs and out_dims == 0 and all(d == 0 for d in dims):
            result = batched(*args)       # e.g. vmap(vjp_fn): one batched backward pass
            if result is not None:
                return result
        if size == 0:
            raise ValueError(f"vmap({name}): agrad cannot map over a dimension of size 0 (it calls {name} once per "
                             "element)")
        leaves, spec = _pytree.flatten(args)
        from .. import _generator
        g = _generator.default_generator()
        rng = g.get_state() if randomness != "error" else None   # under "error" nothing is drawn
        try:
            return _batched_run(func, name, leaves, spec, dims, size, kwargs, out_dims, randomness)
        except Unbatched:
            if rng is not None:
                g.set_state(rng)   # func once per element, from the random state it started with
            _batched().STATS["restart"] += 1
        results, state = [], {}
        for b in range(size):
            sample = [x.select(d, b) if d is not None else x for x, d in zip(leaves, dims)]
            results.append(_run(func, _pytree.unflatten(sample, spec), kwargs, randomness, state))
        return _stack(name, results, out_dims, size)

    return Transformed(wrapped, name)


def _batched():
    from . import _batched as b
    from . import _batching_rules  # noqa: F401  (the rules register themselves)
    return b


def _batched_run(func, name, leaves, spec, dims, size, kwargs, out_dims, randomness):
    """func once, on batched tensors of a new level; its outputs with the batch at ``out_dims``."""
    from .. import _generator
    b = _batched()
    level = len(b._LEVELS) + 1
    inputs = [b.wrap(x.movedim(d, 0) if d else x, level) if d is not None else x for x, d in zip(leaves, dims)]
    b._LEVELS.append(randomness)
    outer_fallback, b._IN_FALLBACK[0] = b._IN_FALLBACK[0], 0
    _generator.draw_checks.append(b.draw_check)
    try:
        out = func(*_pytree.unflatten(inputs, spec), **kwargs)
    finally:
        _generator.draw_checks.remove(b.draw_check)
        b._IN_FALLBACK[0] = outer_fallback
        b._LEVELS.pop()
    return _unbatch(name, out, out_dims, size, level)


def _check_out_dims(name, out, out_dims):
    if type(out_dims) not in (int, tuple, list, dict) and out_dims is not None:
        raise ValueError(f"vmap({name}, ..., out_dims={out_dims}): `out_dims` must be an int, None or a python "
                         "collection of ints representing where in the outputs the vmapped dimension should appear.")
    dims = _pytree.broadcast_prefix(out_dims, out, "out_dims")
    if dims is None:
        raise ValueError(f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible with the "
                         f"structure of `outputs`. out_dims has structure "
                         f"{_pytree.describe(_pytree.flatten(out_dims)[1])} but outputs has structure "
                         f"{_pytree.describe(_pytree.flatten(out)[1])}.")
    return dims


def _unbatch(name, out, out_dims, size, level):
    """The outputs of a batched run: physical values with the batch moved to ``out_dims``; an output that
    does not depend on the batch is expanded (out_dims None keeps it as it is)."""
    b = _batched()
    leaves, spec = _pytree.flatten(out)
    for v in leaves:
        if not isinstance(v, Tensor):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {_shown_type(v)}. "
                             "Did you mean to set out_dims= to None for output?")
    dims = _check_out_dims(name, out, out_dims)
    result = []
    for v, d in zip(leaves, dims):
        batched = b.batched_at(v, level)
        if d is None:
            if batched:
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is None")
            result.append(v)
            continue
        n = v.dim() + 1
        if type(d) is not int or not -n <= d < n:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
        value = v._value if batched else v.unsqueeze(0).expand((size,) + tuple(v.shape))
        d = d + n if d < 0 else d
        result.append(value.movedim(0, d) if d else value)
    return _pytree.unflatten(result, spec)


def _check_inputs(name, in_dims, args):
    if type(in_dims) not in (int, tuple):
        raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int or a "
                         f"(potentially nested) tuple matching the structure of inputs, got: {type(in_dims)}.")
    if not args:
        raise ValueError(f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are "
                         "trying to vmap over a function with no inputs. The latter is unsupported.")
    dims = _pytree.broadcast_prefix(in_dims, args, "in_dims")
    if dims is None:
        raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the "
                         f"structure of `inputs`. in_dims has structure {_pytree.describe(_pytree.flatten(in_dims)[1])}"
                         f" but inputs has structure {_pytree.describe(_pytree.flatten(args)[1])}.")
    leaves = _pytree.flatten(args)[0]
    wrapped, sizes = [], []
    for x, d in zip(leaves, dims):
        if d is not None and type(d) is not int:
            raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for an input but "
                             "in_dim must be either an integer dimension or None.")
        if d is not None and not isinstance(x, Tensor):
            raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for an input but the "
                             f"input is of type {type(x)}. We cannot vmap over non-Tensor arguments, please use "
                             "None as the respective in_dim")
        if d is not None:
            n = x.dim()
            if not -n <= d < n:
                raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for some input, "
                                 f"but that input is a Tensor of dimensionality {n} so expected in_dim to satisfy "
                                 f"-{n} <= in_dim < {n}.")
            d = d + n if d < 0 else d
            sizes.append(x.shape[d])
        wrapped.append(d)
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if len(set(sizes)) > 1:
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                         f"{sizes} for the mapped dimension")
    return wrapped, sizes[0]


def _run(func, sample, kwargs, randomness, state):
    from .. import _generator
    if randomness == "error":
        _generator.draw_checks.append(_no_random)
        try:
            return func(*sample, **kwargs)
        finally:
            _generator.draw_checks.remove(_no_random)
    if randomness == "same":
        g = _generator.default_generator()
        if "rng" not in state:
            state["rng"] = g.get_state()
        else:
            g.set_state(state["rng"])
    return func(*sample, **kwargs)


def _stack(name, results, out_dims, size):
    from ..ops import FUNCTIONS
    flat0, spec = _pytree.flatten(results[0])
    dims = _check_out_dims(name, results[0], out_dims)
    columns = [[] for _ in flat0]
    for r in results:
        leaves, s = _pytree.flatten(r)
        if s != spec:
            raise ValueError(f"vmap({name}, ...): `{name}` must return the same structure for every element")
        for k, v in enumerate(leaves):
            if not isinstance(v, Tensor):
                raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {_shown_type(v)}. "
                                 "Did you mean to set out_dims= to None for output?")
            columns[k].append(v)
    out = []
    for col, d in zip(columns, dims):
        if d is None:   # PyTorch: only an output that does not depend on the mapped inputs
            first = col[0]
            if any(c.shape != first.shape or not bool((c == first).all()) for c in col[1:]):
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is None")
            out.append(first)
            continue
        n = col[0].dim() + 1
        if type(d) is not int or not -n <= d < n:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
        out.append(FUNCTIONS["stack"](col, dim=d))
    return _pytree.unflatten(out, spec)
