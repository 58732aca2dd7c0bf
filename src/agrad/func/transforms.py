"""torch.func's derivative transforms: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian.

PyTorch lifts tensors to a new "level" per transform; agrad gets the same
values from its one tape.  Each transform differentiates with respect to
fresh tensors standing for its inputs (a view of the input when the input
already requires grad, so an enclosing transform or ``backward()`` still
sees through it) and always builds the derivative's graph
(``create_graph=True``), which is what lets transforms nest: ``hessian`` is
``jacfwd(jacrev(f))`` as in PyTorch.  At the outermost level, when no input
required grad, results are detached (PyTorch drops the level's graph).

``jacrev`` is one batched backward pass (``is_grads_batched``); ``jvp`` and
``jacfwd`` use the double-backward construction (``J v`` as the gradient of
``u -> (J^T u) . v``), exact and batched over the basis for ``jacfwd``.
"""

from __future__ import annotations

from ..autograd import _dual, grad_mode
from ..autograd.engine import grad as _autograd_grad
from ..tensor import Tensor
from . import _pytree

_state = {"depth": 0}

#: calling these hands arguments to script code (agrad.lang keeps guarded arrays guarded)
CALLS_SCRIPT = True


def _ops():
    from .. import ops
    return ops.FUNCTIONS


def _name(func) -> str:
    n = getattr(func, "__name__", None)
    return n if isinstance(n, str) else type(func).__name__


class Transformed:
    """What a transform returns: a callable that prints as the function it wraps (as
    ``functools.wraps`` makes PyTorch's print) and has no public attributes."""

    __slots__ = ("_fn", "_name", "_batched", "__weakref__")
    _agrad_calls_script = True   # its arguments go to script code: agrad.lang keeps guarded arrays guarded

    def __init__(self, fn, name, batched=None):
        self._fn = fn
        self._name = name
        self._batched = batched   # the same function over a batch in dim 0 of every argument (vmap uses it), or None

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    @property
    def __name__(self):
        return self._name

    def __repr__(self):
        return f"<function {self._name}>"


def _mark(fn, func):
    return Transformed(fn, _name(func))


# ------------------------------------------------------------------ argnums

def _wrap_argnum(argnum, n):
    if type(argnum) is not int:
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if 0 <= argnum < n:
        return argnum
    if -n <= argnum < 0:
        return argnum + n
    raise RuntimeError(f"Got argnum={argnum}, but only {n} positional inputs")


def _argnums(argnums, n):
    if type(argnums) is int:
        return _wrap_argnum(argnums, n)
    if type(argnums) is not tuple:
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    wrapped = tuple(_wrap_argnum(a, n) for a in argnums)
    if not wrapped:
        raise RuntimeError("argnums must be non-empty")
    if len(set(wrapped)) != len(wrapped):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    return wrapped


def _lift(x, batch=None):
    """The tensor a transform differentiates against, standing for ``x``: a view when ``x`` requires grad
    (the enclosing graph sees through it), else a new leaf -- which keeps ``x``'s forward-mode tangent, so
    a forward transform around this one (``jacfwd(jacrev(f))``) differentiates through it.

    ``batch`` (level, size): the transform runs inside vmap on its batched tensors; the lifted tensor is
    batched at that level -- an unbatched ``x`` gets one copy per element (expanded), so each element's
    derivative is its own."""
    if not isinstance(x, Tensor):
        raise RuntimeError(f"Expected tensors, got unsupported type {type(x)}")
    if batch is not None:
        from ._batched import batched_at, wrap
        level, size = batch
        value = x._value if batched_at(x, level) else x.unsqueeze(0).expand((size,) + tuple(x.shape))
        return wrap(_lift(value), level)
    if x.requires_grad:
        return x.view_as(x)
    leaf = x.detach().requires_grad_(True)
    if _dual._LEVEL[0] is not None:
        t = _dual.tangent_of(x)
        if t is not None:
            _dual.set_tangent(leaf, t)
    return leaf


class _Inputs:
    """The arguments with the differentiated ones (``argnums``) replaced by lifted tensors."""

    def __init__(self, args, argnums, batch=None, lift=None):
        self.argnums = _argnums(argnums, len(args))
        self.outer_grad = any(isinstance(t, Tensor) and t.requires_grad
                              for t in _pytree.flatten(list(args))[0])
        idx = (self.argnums,) if type(self.argnums) is int else self.argnums
        args = list(args)
        self.leaves, self.specs = [], []
        for i in idx:
            leaves, spec = _pytree.flatten(args[i])
            lifted = [(lift or _lift)(t, batch) for t in leaves]
            args[i] = _pytree.unflatten(lifted, spec)
            self.leaves.append(lifted)
            self.specs.append(spec)
        self.args = tuple(args)
        self.flat = [t for ls in self.leaves for t in ls]

    def structure(self, flat_values):
        """Values per lifted leaf, in the structure of the differentiated arguments."""
        it = iter(flat_values)
        per_arg = [_pytree.unflatten([next(it) for _ in ls], spec) for ls, spec in zip(self.leaves, self.specs)]
        return per_arg[0] if type(self.argnums) is int else tuple(per_arg)

    def keep_graph(self) -> bool:
        return _state["depth"] > 0 or self.outer_grad


def _call(func, args, kwargs):
    _state["depth"] += 1
    try:
        return func(*args, **kwargs)
    finally:
        _state["depth"] -= 1


def _finish(value, keep):
    """Detach every tensor of ``value`` unless the graph is wanted."""
    if keep:
        return value
    leaves, spec = _pytree.flatten(value)
    return _pytree.unflatten([v.detach() if isinstance(v, Tensor) else v for v in leaves], spec)


def _grads(outputs, inputs, seeds, batched=False, batch=None):
    """autograd.grad with a graph, zeros for inputs the outputs do not use.  ``batch`` (level, size):
    inside vmap, with lifted batched inputs (see :func:`_vmap_grads`)."""
    if batch is not None:
        return _vmap_grads(outputs, inputs, seeds, batched, batch)
    zeros_like = _ops()["zeros_like"]
    keep = [(o, s) for o, s in zip(outputs, seeds) if o.requires_grad]
    if not keep or not inputs:
        res = [None] * len(inputs)
    else:
        res = _autograd_grad([o for o, _ in keep], inputs, [s for _, s in keep], create_graph=True,
                             retain_graph=True, allow_unused=True, is_grads_batched=batched)
    out = []
    for g, x in zip(res, inputs):
        if g is None:
            g = zeros_like(x)
            if batched:
                g = g.expand((seeds[0].shape[0],) + tuple(x.shape))
        out.append(g)
    return out


# ------------------------------------------------------------------ grad

def _aux_split(output, has_aux, api):
    if not has_aux:
        return output, None
    if not (type(output) is tuple and len(output) == 2):
        raise RuntimeError(f"{api}(f)(*args): output of function f should be a tuple: (output, aux) "
                           "if has_aux is True")
    return output


def _vmap_batch(args):
    """(level, size) of the innermost vmap whose batched tensors are among ``args``, or None."""
    from ._batched import level_of
    return level_of(_pytree.flatten(list(args))[0])


def grad_and_value(func, argnums=0, has_aux=False):
    """A function returning (gradient of func's scalar output w.r.t. ``argnums``, the output)."""

    def wrapper(*args, **kwargs):
        with grad_mode.enable_grad():
            batch = _vmap_batch(args)
            inp = _Inputs(args, argnums, batch)
            output = _call(func, inp.args, kwargs)
            output, aux = _aux_split(output, has_aux, "grad_and_value")
            if not isinstance(output, Tensor):
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got "
                                   f"{type(output)}")
            if output.dim() != 0:
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                                   f"tensor with {output.dim()} dims. Maybe you wanted to use the vjp or jacrev "
                                   "APIs instead?")
            g = _grads([output], inp.flat, [_ops()["ones_like"](output)], batch=batch)
        keep = inp.keep_graph()
        result = (_finish(inp.structure(g), keep), _finish(output, keep))
        if has_aux:
            return result[0], (result[1], _finish(aux, keep))
        return result

    return _mark(wrapper, func)


def grad(func, argnums=0, has_aux=False):
    """A function returning the gradient of func's scalar output w.r.t. argument ``argnums``."""
    gv = grad_and_value(func, argnums, has_aux)

    def wrapper(*args, **kwargs):
        g, value = gv(*args, **kwargs)
        if has_aux:
            return g, value[1]
        return g

    return _mark(wrapper, func)


def _vmap_grads(outputs, lifted, seeds, batched, batch):
    """:func:`_grads` inside vmap: the elements of the batch are independent, so one backward pass from
    the physical outputs (each element's seed in its place) to the physical lifted inputs gives every
    element's gradient.  ``batched``: the seeds' first dimension is a batch of seeds, kept in front."""
    from ._batched import batched_at, wrap
    level, size = batch
    outs, phys_seeds = [], []
    for o, s in zip(outputs, seeds):
        if not batched_at(o, level):
            continue   # an output the batch does not reach: no gradient w.r.t. the lifted inputs
        if batched_at(s, level):
            s = s._value.movedim(1, 0) if batched else s._value
        elif batched:
            s = s.unsqueeze(1).expand((s.shape[0], size) + tuple(s.shape[1:]))
        else:
            s = s.unsqueeze(0).expand((size,) + tuple(s.shape))
        outs.append(o._value)
        phys_seeds.append(s)
    inputs = [x._value for x in lifted]
    if outs:
        values = _grads(outs, inputs, phys_seeds, batched)
    else:
        zeros_like = _ops()["zeros_like"]
        values = [zeros_like(x).expand((seeds[0].shape[0],) + tuple(x.shape)) if batched else zeros_like(x)
                  for x in inputs]
    return [wrap(v.movedim(1, 0) if batched else v, level) for v in values]


# ------------------------------------------------------------------ vjp

def _tensor_outputs(output, api, what="outputs"):
    leaves, spec = _pytree.flatten(output)
    for o in leaves:
        if not isinstance(o, Tensor):
            raise RuntimeError(f"{api}: Expected f to be a function that has non-empty output (got output = "
                               f"{output})" if not leaves else
                               f"{api}: expected f(*primals) to return only tensors, got unsupported type {type(o)}")
    if not leaves:
        raise RuntimeError(f"{api}: Expected f to be a function that has non-empty output (got output = {output})")
    return leaves, spec


def vjp(func, *primals, has_aux=False):
    """(func(*primals), vjp_fn[, aux]): vjp_fn(cotangents) gives one gradient per primal."""
    with grad_mode.enable_grad():
        batch = _vmap_batch(primals)
        inp = _Inputs(primals, tuple(range(len(primals))), batch)
        output = _call(func, inp.args, {})
        output, aux = _aux_split(output, has_aux, "vjp")
        outs, out_spec = _tensor_outputs(output, "vjp")
    keep = inp.keep_graph()

    def vjp_fn(cotangents):
        leaves, spec = _pytree.flatten(cotangents)
        if spec != out_spec:
            raise RuntimeError("Expected pytree structure of cotangents to be the same as pytree structure of "
                               f"outputs to the function. cotangents: {_pytree.pprint(spec)}, primal output: "
                               f"{_pytree.pprint(out_spec)}")
        for c, o in zip(leaves, outs):
            if not isinstance(c, Tensor):
                raise RuntimeError(f"Expected tensors, got unsupported type {type(c)}")
            if tuple(c.shape) != tuple(o.shape):
                raise RuntimeError(f"Mismatch in shape: grad_output[0] has a shape of torch.Size({list(c.shape)}) "
                                   f"and output[0] has a shape of torch.Size({list(o.shape)}).")
        with grad_mode.enable_grad():
            g = _grads(outs, inp.flat, leaves, batch=batch)
        return _finish(inp.structure(g), keep or _state["depth"] > 0)

    def batched_vjp_fn(cotangents):
        """vmap(vjp_fn): every cotangent with a batch dimension in front, one batched backward pass; None when
        the cotangents do not fit (vmap then calls vjp_fn per element and raises its errors)."""
        leaves, spec = _pytree.flatten(cotangents)
        if spec != out_spec or not all(isinstance(c, Tensor) and c.ndim == o.ndim + 1 and
                                       tuple(c.shape[1:]) == tuple(o.shape) for c, o in zip(leaves, outs)):
            return None
        if len({c.shape[0] for c in leaves}) != 1 or leaves[0].shape[0] == 0 or batch is not None:
            return None
        with grad_mode.enable_grad():
            g = _grads(outs, inp.flat, leaves, batched=True)
        return _finish(inp.structure(g), keep or _state["depth"] > 0)

    vjp_fn = Transformed(vjp_fn, "vjp_fn", batched_vjp_fn)
    if has_aux:
        return _finish(output, keep), vjp_fn, _finish(aux, keep)
    return _finish(output, keep), vjp_fn


# ------------------------------------------------------------------ jvp

def _forward_lift(x, batch=None):
    """jvp's stand-in for ``x``: an alias (AliasBackward0 when ``x`` requires grad, as PyTorch's graph
    shows), which carries the tangent itself; it requires grad only when ``x`` does."""
    if not isinstance(x, Tensor):
        raise RuntimeError(f"Expected tensors, got unsupported type {type(x)}")
    from ..ops.indexing import alias
    return alias(x)


def _forward_ad_call(func, inp, kwargs, tangents, has_aux, api, own_duals=False):
    """func at the lifted inputs with ``tangents`` on them, by forward-mode AD:
    (output, aux, flat outputs, output spec, their tangents).  ``own_duals``: the lifted inputs are
    jvp's own aliases (:func:`_forward_lift`) and carry the tangents themselves; the primal outputs
    are aliases of the outputs and aux is returned as computed (PyTorch's graphs)."""
    from ..autograd import forward_ad as fwAD
    zeros_like = _ops()["zeros_like"]
    with fwAD.dual_level():
        view = _dual._PRIMAL_VIEW[0]
        if own_duals:  # (torch.func's level: its formulas read primals through aliases)
            _dual._PRIMAL_VIEW[0] = "alias"
        try:
            return _forward_ad_run(func, inp, kwargs, tangents, has_aux, api, own_duals, fwAD, zeros_like)
        finally:
            _dual._PRIMAL_VIEW[0] = view


def _forward_ad_run(func, inp, kwargs, tangents, has_aux, api, own_duals, fwAD, zeros_like):
    """_forward_ad_call's body, inside its dual level."""
    if own_duals:
        duals = list(inp.flat)
        for x, t in zip(duals, tangents):
            _dual.set_tangent(x, fwAD._checked_tangent(x, t))
    else:
        duals = [fwAD.make_dual(x, t) for x, t in zip(inp.flat, tangents)]
    args = list(inp.args)
    it = iter(duals)
    idx = (inp.argnums,) if type(inp.argnums) is int else inp.argnums
    for i, ls, spec in zip(idx, inp.leaves, inp.specs):
        args[i] = _pytree.unflatten([next(it) for _ in ls], spec)
    output = _call(func, tuple(args), kwargs)
    output, aux = _aux_split(output, has_aux, api.split("(")[0])
    outs, out_spec = _tensor_outputs(output, api)
    primals, jv = [], []
    for o in outs:
        p, t = fwAD.unpack_dual(o)
        if own_duals:
            from ..ops.indexing import alias
            with _dual._paused():
                p = alias(o)
            _dual.set_tangent(p, None)
        primals.append(p)
        jv.append(t if t is not None else zeros_like(p))
    if has_aux and not own_duals:
        aux_leaves, aux_spec = _pytree.flatten(aux)
        aux = _pytree.unflatten([fwAD.unpack_dual(a).primal if isinstance(a, Tensor) else a
                                 for a in aux_leaves], aux_spec)
    return _pytree.unflatten(primals, out_spec), aux, primals, out_spec, jv


def _forward_products(outs, xs, tangents, batched, batch=None):
    """J·t for every output, by double backward: grad of (J^T u)·t with respect to u.  ``batch`` (level,
    size): inside vmap, with lifted batched inputs -- the same on the physical values, every element's
    tangent in its place."""
    if batch is not None:
        return _vmap_forward_products(outs, xs, tangents, batched, batch)
    zeros_like = _ops()["zeros_like"]
    u = [zeros_like(o, requires_grad=True) for o in outs]
    gi = _autograd_grad(outs, xs, u, create_graph=True, allow_unused=True)
    pairs = [(g, t) for g, t in zip(gi, tangents) if g is not None and g.requires_grad]
    if not pairs:
        lead = (tangents[0].shape[0],) if batched else ()
        return [zeros_like(o).expand(lead + tuple(o.shape)) if batched else zeros_like(o) for o in outs]
    res = _autograd_grad([g for g, _ in pairs], u, [t for _, t in pairs], create_graph=True, retain_graph=True,
                         allow_unused=True, is_grads_batched=batched)
    out = []
    for r, o in zip(res, outs):
        if r is None:
            r = zeros_like(o)
            if batched:
                r = r.expand((tangents[0].shape[0],) + tuple(o.shape))
        out.append(r)
    return out


def _vmap_forward_products(outs, xs, tangents, batched, batch):
    from ._batched import batched_at, wrap
    level, size = batch
    zeros_like = _ops()["zeros_like"]

    def physical(t):   # a tangent (a batch of them in front when ``batched``) with the vmap's batch
        if batched_at(t, level):
            return t._value.movedim(1, 0) if batched else t._value
        if batched:
            return t.unsqueeze(1).expand((t.shape[0], size) + tuple(t.shape[1:]))
        return t.unsqueeze(0).expand((size,) + tuple(t.shape))

    live = [o._value for o in outs if batched_at(o, level)]
    res = iter(_forward_products(live, [x._value for x in xs], [physical(t) for t in tangents], batched)
               if live else ())
    out = []
    for o in outs:
        if batched_at(o, level):
            r = next(res)
            out.append(wrap(r.movedim(1, 0) if batched else r, level))
        else:   # an output the batch does not reach: its tangent is zero
            z = zeros_like(o)
            out.append(z.expand((tangents[0].shape[0],) + tuple(o.shape)) if batched else z)
    return out


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """(func(*primals), J·tangents): a Jacobian-vector product."""
    api = "jvp(f, primals, tangents)"
    if type(primals) is not tuple:
        raise RuntimeError(f"{api}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals).")
    p_leaves, p_spec = _pytree.flatten(primals)
    t_leaves, t_spec = _pytree.flatten(tangents)
    if p_spec != t_spec:
        raise RuntimeError(f"{api}: Expected primals and tangents to have the same python structure. For example, "
                           "if primals is a tuple of 3 tensors, tangents also must be. Got primals with structure "
                           f"{_pytree.describe(p_spec)} and tangents with structure {_pytree.describe(t_spec)}")
    for what, leaves in (("primals", p_leaves), ("tangents", t_leaves)):
        if not leaves:
            raise RuntimeError(f"{api}: Expected {what} to contain at least one Tensor.")
        for x in leaves:
            if not isinstance(x, Tensor):
                raise RuntimeError(f"{api}: Expected {what} to only contain Tensors, got {type(x)}")
    for k, (p, t) in enumerate(zip(p_leaves, t_leaves)):
        if tuple(p.shape) != tuple(t.shape):
            raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                               f"Tensor, this is not supported. Tensor is of size {list(p.shape)} while the given "
                               f"forward gradient is of size {list(t.shape)}.")
    with grad_mode.enable_grad():
        batch = _vmap_batch(primals)
        forward = _dual._LEVEL[0] is None and batch is None  # forward-mode AD, as PyTorch
        inp = _Inputs(primals, tuple(range(len(primals))), batch, _forward_lift if forward else None)
        if forward:
            output, aux, outs, out_spec, jv = _forward_ad_call(func, inp, {}, t_leaves, has_aux, api, True)
        else:   # inside another forward transform (one dual level at a time) or inside vmap (on the batch):
            # the double-backward construction
            output = _call(func, inp.args, {})
            output, aux = _aux_split(output, has_aux, "jvp")
            outs, out_spec = _tensor_outputs(output, api)
            jv = _forward_products(outs, inp.flat, t_leaves, batched=False, batch=batch)
    # (a tensor from outside that requires grad keeps its graph in PyTorch; agrad cannot tell it from an inner
    # transform's own graph (jvp(grad(f)): PyTorch's levels unwrap that), so only the tangents' decide)
    keep = inp.keep_graph() or any(t.requires_grad for t in t_leaves)
    result = (_finish(output, keep), _finish(_pytree.unflatten(jv, out_spec), keep))
    return result + (_finish(aux, keep),) if has_aux else result


# ------------------------------------------------------------------ jacobians

def _basis(tensors):
    """The standard basis over the concatenated elements, one block per tensor: (total, *shape)."""
    import numpy as np
    from .._limits import check_shape
    numels = [t.numel() for t in tensors]
    total = sum(numels)
    for n in numels:
        check_shape((total, n))   # before allocating: outputs (or inputs) x elements
    blocks, start = [], 0
    for t, n in zip(tensors, numels):
        arr = np.zeros((total, n), dtype=t.dtype.numpy)
        arr[start:start + n] = np.eye(n, dtype=t.dtype.numpy)
        blocks.append(Tensor._make(arr.reshape((total,) + tuple(t.shape))))
        start += n
    return blocks, numels


def _jacobian_tree(output_spec, outs, inp, piece):
    """For each output (in its structure), the structure of the inputs with ``piece(o, j)`` at input leaf j."""
    per_out = [inp.structure([piece(o, j) for j in range(len(inp.flat))]) for o in range(len(outs))]
    return _pytree.unflatten(per_out, output_spec)


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """A function returning the Jacobian of func w.r.t. ``argnums``, by reverse mode (one batched pass)."""
    if chunk_size is not None and not (type(chunk_size) is int and chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    def wrapper(*args, **kwargs):
        with grad_mode.enable_grad():
            batch = _vmap_batch(args)
            inp = _Inputs(args, argnums, batch)
            output = _call(func, inp.args, kwargs)
            output, aux = _aux_split(output, has_aux, "jacrev")
            outs, out_spec = _tensor_outputs(output, "jacrev(f, ...)(*args)")
            flat = [o.reshape(-1) for o in outs]
            basis, numels = _basis(flat)
            vj = _grads(flat, inp.flat, basis, batched=True, batch=batch)
        starts = [sum(numels[:k]) for k in range(len(numels))]

        def piece(o, j):
            x = inp.flat[j]
            return vj[j][starts[o]:starts[o] + numels[o]].reshape(tuple(outs[o].shape) + tuple(x.shape))

        keep = inp.keep_graph()
        jac = _finish(_jacobian_tree(out_spec, outs, inp, piece), keep)
        return (jac, _finish(aux, keep)) if has_aux else jac

    return _mark(wrapper, func)


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """A function returning the Jacobian of func w.r.t. ``argnums``, column by column (forward products)."""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got "
                           f"{randomness}")

    def wrapper(*args, **kwargs):
        with grad_mode.enable_grad():
            batch = _vmap_batch(args)
            inp = _Inputs(args, argnums, batch)
            basis, numels = _basis(inp.flat)
            if _dual._LEVEL[0] is None and batch is None and basis and basis[0].shape[0]:
                # forward-mode AD along the first basis vector: PyTorch's errors for an op without a forward
                # formula, and what f does with dual tensors, come from here
                _probe(func, inp, kwargs, basis, has_aux, randomness)
            # the columns: the double-backward construction, one pass batched over the basis (exact; a forward
            # pass per column would cost as much as the function times its inputs)
            output = _call(func, inp.args, kwargs)
            output, aux = _aux_split(output, has_aux, "jacfwd")
            outs, out_spec = _tensor_outputs(output, "jacfwd(f, ...)(*args)")
            cols = _forward_products(outs, inp.flat, basis, batched=True, batch=batch)   # (total_in, *out.shape)
        starts = [sum(numels[:k]) for k in range(len(numels))]

        def piece(o, j):
            x, c = inp.flat[j], cols[o][starts[j]:starts[j] + numels[j]]
            c = c.permute(*range(1, c.ndim), 0)
            return c.reshape(tuple(outs[o].shape) + tuple(x.shape))

        keep = inp.keep_graph()
        jac = _finish(_jacobian_tree(out_spec, outs, inp, piece), keep)
        return (jac, _finish(aux, keep)) if has_aux else jac

    return _mark(wrapper, func)


def _probe(func, inp, kwargs, basis, has_aux, randomness):
    """jacfwd's first column by forward-mode AD (its value is not used: the errors are what matter)."""
    from .. import _generator
    g = _generator.default_generator()
    state = g.get_state() if randomness == "same" else None
    checks = _generator.draw_checks
    if randomness == "error":
        checks.append(_no_random)
    try:
        _forward_ad_call(func, inp, kwargs, [b[0] for b in basis], has_aux, "jacfwd(f, ...)(*args)")
    finally:
        if randomness == "error":
            checks.remove(_no_random)
        if state is not None:
            g.set_state(state)


def _no_random():
    from .vmap import _RANDOM_ERROR
    raise RuntimeError(_RANDOM_ERROR)


def hessian(func, argnums=0):
    """A function returning the Hessian of func w.r.t. ``argnums``: jacfwd(jacrev(func))."""
    return jacfwd(jacrev(func, argnums), argnums)
