"""vmap's batched tensors: one tensor standing for a batch of tensors, and how ops reach their batching rules.

A :class:`BatchedTensor` is what ``func`` sees inside ``vmap(func)``: a tensor
whose shape, dtype and ops are those of one element of the batch, holding the
whole batch (its *physical* value) with the batch in dimension 0.  Its level is
the depth of the vmap that made it; nested vmaps wrap batched tensors of outer
levels, and an op runs at the highest level among its arguments (the others are
unbatched there).

How an op gets to its rule:

- Tensor methods and operators are the batched tensor's own (made from the op
  table's METHODS); a plain tensor on the left of ``+`` or ``@`` gives way to
  the batched one on the right, as Python does for a subclass;
- the free functions (``torch.*``, ``F.*``, ``torch.linalg.*``) read their
  arguments' data; a batched tensor's data reads as ``Unbatched``, which the
  function's public wrapper (agrad/ops/_argcheck.py) catches and hands here.

Then :func:`dispatch` runs the op's batching rule (agrad/func/_batching_rules.py)
or, where there is none, the op once per element on ``value.select(0, i)`` and
stacks the results (PyTorch's "fallback": correct, not vectorised).  What can
reach a batched tensor's data some other way (an in-place method of a plain
tensor, a transform inside vmap, a random draw vmap must repeat per element)
raises ``Unbatched`` to the vmap, which then runs ``func`` once per element.
"""

from __future__ import annotations

from ..ops import FUNCTIONS, METHODS
from ..ops._argcheck import BATCHED_CALL, Unbatched
from ..tensor import Size, Tensor, _wrap_dim

#: counters for tests and benchmarks: per-op fallbacks (an op run per element) and restarts (func per element)
STATS = {"fallback": 0, "restart": 0}

#: the randomness of each active vmap level (innermost last), and how many per-element op loops are running
_LEVELS: list = []
_IN_FALLBACK = [0]

_STORAGE = "Cannot access data pointer of Tensor that doesn't have storage"
_ITEM = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling .item() on a "
         "Tensor, please try to rewrite what you're doing with other operations. If error is occurring somewhere "
         "inside PyTorch internals, please file a bug report.")
_CONTROL_FLOW = ("vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow. We "
                 "don't support that yet, please file an issue at https://github.com/pytorch/pytorch/issues .")
_BACKWARD = ("backward() called inside a functorch transform. This is not supported, please use functorch.grad or "
             "functorch.vjp instead or call backward() outside of functorch transforms.")


def _unbatched(*_args, **_kwargs):
    raise Unbatched


#: a Tensor internal (data, autograd state) a batched tensor does not have: reading it means the op has no
#: batching rule here, so the vmap runs func per element
_INTERNAL = property(_unbatched, _unbatched)


def _raise(message):
    def fail(self, *args, **kwargs):
        raise RuntimeError(message)
    return fail


class BatchedTensor(Tensor):
    """One element's view of a batch: logical shape ``value.shape[1:]``, data ``value`` (batch in dim 0)."""

    __slots__ = ("_value", "_level")

    # ----------------------------------------------------------------- what one element looks like
    @property
    def shape(self):
        return Size(self._value.shape[1:])

    def size(self, dim=None):
        shape = self._value.shape[1:]
        if dim is None:
            return Size(shape)
        return shape[_wrap_dim(dim, len(shape))]

    def dim(self):
        return self._value.dim() - 1

    ndimension = dim

    @property
    def ndim(self):
        return self._value.dim() - 1

    def numel(self):
        n = 1
        for s in self._value.shape[1:]:
            n *= s
        return n

    nelement = numel

    @property
    def dtype(self):
        return self._value.dtype

    def element_size(self):
        return self._value.element_size()

    def is_floating_point(self):
        return self._value.is_floating_point()

    @property
    def requires_grad(self):
        return self._value.requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        raise Unbatched

    @property
    def grad_fn(self):
        return self._value.grad_fn

    @property
    def is_leaf(self):
        return self._value.is_leaf

    @property
    def grad(self):
        raise Unbatched

    @property
    def data(self):
        raise Unbatched

    def detach(self):
        return wrap(self._value.detach(), self._level)

    def __len__(self):
        if self._value.dim() == 1:
            raise TypeError("len() of a 0-d tensor")
        return self._value.shape[1]

    def __iter__(self):
        if self._value.dim() == 1:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __reversed__(self):
        return reversed(self.unbind(0))

    def __repr__(self, *, tensor_contents=None):
        inner = repr(self._value).replace("\n", "\n    ")
        return f"BatchedTensor(lvl={self._level}, bdim=0, value=\n    {inner}\n)"

    __str__ = __repr__

    def __format__(self, spec):
        if self._value.dim() == 1:
            raise RuntimeError(_ITEM)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return str(self)

    # ----------------------------------------------------------------- what vmap cannot do per batch
    item = __float__ = __int__ = __index__ = _raise(_ITEM)
    __bool__ = _raise(_CONTROL_FLOW)
    tolist = numpy = _raise(_STORAGE)
    backward = _raise(_BACKWARD)
    __array__ = _unbatched
    requires_grad_ = register_hook = retain_grad = detach_ = _unbatched

    @property
    def T(self):
        return dispatch("T", None, (self,), {})

    @property
    def mT(self):
        return dispatch("mT", None, (self,), {})


for _name in ("_data", "_requires_grad", "_grad_fn", "_output_nr", "_grad", "_accumulator", "_vc", "_base",
              "_view_meta", "_view_ver", "_retains", "_fw", "_version", "output_nr", "retains_grad", "H", "mH"):
    setattr(BatchedTensor, _name, _INTERNAL)
for _name in ("_add_inplace_raw", "_check_inplace", "_check_view_meta", "_make_view_of", "_own", "_refresh_view",
              "_scalar", "_snapshot", "_values", "_write", "_write_data"):
    setattr(BatchedTensor, _name, _unbatched)


def _method(name, fn):
    def method(*args, **kwargs):
        return dispatch(name, fn, args, kwargs)

    method.__name__ = method.__qualname__ = name
    return method


for _name, _fn in METHODS.items():
    setattr(BatchedTensor, _name, _method(_name, _fn))


def wrap(value, level):
    """``value`` (batch in dim 0) as a batched tensor of ``level``."""
    t = object.__new__(BatchedTensor)
    t._value = value
    t._level = level
    return t


def wrap_all(result, level):
    """An op's result on physical values, its tensors batched at ``level``."""
    if isinstance(result, Tensor):
        return wrap(result, level)
    if isinstance(result, tuple):
        items = [wrap_all(r, level) for r in result]
        return type(result)(*items) if hasattr(result, "_fields") else tuple(items)
    if isinstance(result, list):
        return [wrap_all(r, level) for r in result]
    return result


def batched_at(x, level) -> bool:
    return type(x) is BatchedTensor and x._level == level


def _level_of(args, kwargs):
    top = None
    for a in (*args, *kwargs.values()):
        t = type(a)
        if t is BatchedTensor:
            if top is None or a._level > top:
                top = a._level
        elif t is list or t is tuple:
            for b in a:
                if type(b) is BatchedTensor and (top is None or b._level > top):
                    top = b._level
    return top


def level_of(tensors):
    """(level, batch size) of the innermost level among ``tensors``' batched tensors, or None."""
    top = None
    for t in tensors:
        if type(t) is BatchedTensor and (top is None or t._level > top._level):
            top = t
    return None if top is None else (top._level, top._value.shape[0])


def dispatch(name, fn, args, kwargs):
    """``fn(*args, **kwargs)`` (the op ``name``) with batched arguments: its rule, else once per element."""
    level = _level_of(args, kwargs)
    if level is None:
        return fn(*args, **kwargs)
    from ._batching_rules import RULES
    rule = RULES.get(name)
    if rule is not None:
        out = rule(level, name, fn, args, kwargs)
        if out is not NotImplemented:
            return out
    if fn is None:
        fn = _PROPERTIES[name]
    return fallback(level, name, fn, args, kwargs)


#: the tensor properties with batching rules, as functions (for the per-element fallback)
_PROPERTIES = {"T": lambda t: t.T, "mT": lambda t: t.mT}


def _batched_call(fn, args, kwargs):
    """A public free function met a batched tensor (agrad/ops/_argcheck.py)."""
    if _level_of(args, kwargs) is None:
        raise Unbatched   # the batched tensor is deeper (a nested container): not an argument of this call
    return dispatch(fn.__name__, fn, args, kwargs)


BATCHED_CALL[0] = _batched_call


# ------------------------------------------------------------------ once per element

def _size(level, args, kwargs):
    for a in (*args, *kwargs.values()):
        if batched_at(a, level):
            return a._value.shape[0]
        if type(a) in (list, tuple):
            for b in a:
                if batched_at(b, level):
                    return b._value.shape[0]
    raise AssertionError("no batched argument")


def _element(x, level, i):
    if type(x) is BatchedTensor and x._level == level:
        return x._value.select(0, i)
    if type(x) is list or type(x) is tuple:
        if any(batched_at(b, level) for b in x):
            return type(x)(_element(b, level, i) for b in x)
    return x


_INPLACE_OPERATORS = frozenset(f"__i{op}__" for op in (
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor", "lshift", "rshift", "matmul"))


def _is_inplace(name) -> bool:
    if name.startswith("__"):
        return name in _INPLACE_OPERATORS or name == "__setitem__"
    return name.endswith("_")


def fallback(level, name, fn, args, kwargs):
    """The op once per element of the batch, the results stacked (an in-place op writes each element)."""
    STATS["fallback"] += 1
    size = _size(level, args, kwargs)
    inplace = _is_inplace(name)
    if inplace and not (args and batched_at(args[0], level)):
        raise RuntimeError(
            f"vmap: {name}(self, *extra_args) is not possible because there exists a Tensor `other` in extra_args "
            "that has more elements than `self`. This happened due to `other` being vmapped over but `self` not "
            f"being vmapped over in a vmap. Please try to use out-of-place operators instead of {name}. If said "
            "operator is being called inside the PyTorch framework, please file a bug report instead.")
    _IN_FALLBACK[0] += 1
    try:
        outs = []
        for i in range(size):
            a = tuple(_element(x, level, i) for x in args)
            k = {key: _element(v, level, i) for key, v in kwargs.items()}
            outs.append(dispatch(name, fn, a, k))
    finally:
        _IN_FALLBACK[0] -= 1
    if inplace:
        return None if name == "__setitem__" else args[0]
    return _rebatch(outs, level)


def stack(tensors, dim=0):
    return dispatch("stack", FUNCTIONS["stack"], (tensors,), {"dim": dim})


def _rebatch(outs, level):
    first = outs[0]
    if isinstance(first, Tensor):
        return wrap(stack(outs), level)
    if first is None and all(o is None for o in outs):
        return None
    if isinstance(first, (tuple, list)) and all(type(o) is type(first) and len(o) == len(first) for o in outs):
        items = [_rebatch([o[k] for o in outs], level) for k in range(len(first))]
        if hasattr(first, "_fields"):
            return type(first)(*items)
        return type(first)(items)
    if not isinstance(first, Tensor) and all(type(o) is type(first) for o in outs):
        try:
            if all(o == first for o in outs[1:]):
                return first
        except Exception:  # noqa: BLE001 - values that do not compare: not one value for the batch
            pass
    raise Unbatched   # a different non-tensor value per element: func runs once per element


# ------------------------------------------------------------------ randomness

def draw_check():
    """Before a random draw inside a batched call of func: PyTorch's error under randomness="error"; a
    draw vmap does not batch (any draw under "different", a per-element draw under "same") restarts func
    once per element, where the modes are exact."""
    if "error" in _LEVELS:
        from .vmap import _RANDOM_ERROR
        raise RuntimeError(_RANDOM_ERROR)
    if "different" in _LEVELS or _IN_FALLBACK[0]:
        raise Unbatched
