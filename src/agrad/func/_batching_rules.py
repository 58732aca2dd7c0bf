"""vmap's batching rules: an op on batched tensors as one op on their physical values.

A rule gets ``(level, name, fn, args, kwargs)`` -- the op's public function and
its arguments, batched tensors of ``level`` among them -- and returns the
batched result, or NotImplemented to run the op once per element (the
fallback in agrad/func/_batched.py: always correct).  The physical value of a
batched tensor has the batch in dimension 0, so a rule

- pads batched operands of pointwise ops with size-1 dimensions behind the
  batch to the largest logical rank (broadcasting then lines up as it does per
  element) -- ``_pointwise``;
- shifts the dimensions of reductions, views, softmax, cat/stack... by one,
  wrapping them against the logical rank first (PyTorch's IndexError texts);
- turns vectors into matrices for ``matmul`` and friends, so the batch is a
  batch dimension of the product.

Rules call ops through :func:`dispatch` (or tensor methods), so a physical
value that is itself batched at an outer level goes through that level's rules.
"""

from __future__ import annotations

from ..ops import FUNCTIONAL, FUNCTIONS, METHODS
from ..tensor import Tensor, _wrap_dim
from ._batched import BatchedTensor, batched_at, dispatch, wrap, wrap_all

RULES: dict = {}


def _rule(*names):
    def deco(fn):
        for n in names:
            RULES[n] = fn
        return fn
    return deco


def _phys(x, level):
    """The physical value of ``x`` if it is batched at ``level``, else None."""
    return x._value if type(x) is BatchedTensor and x._level == level else None


def _pad(value, have, want):
    """A physical value of logical rank ``have`` with size-1 dimensions behind the batch up to ``want``."""
    if have >= want:
        return value
    return value[(slice(None),) + (None,) * (want - have)]


def _expand(x, size):
    """An unbatched tensor as a physical value: the batch in front, expanded (a view)."""
    return x.unsqueeze(0).expand((size,) + tuple(x.shape))


def _arg(args, kwargs, pos, key, default=None):
    if len(args) > pos:
        return args[pos]
    return kwargs.get(key, default)


def _put(args, kwargs, pos, key, value):
    """(args, kwargs) with the argument at ``pos``/``key`` replaced (set as keyword if it was not given)."""
    if len(args) > pos:
        args = args[:pos] + (value,) + args[pos + 1:]
    else:
        kwargs = dict(kwargs)
        kwargs[key] = value
    return args, kwargs


# ------------------------------------------------------------------ pointwise

POINTWISE = """
    abs absolute neg negative exp exp2 expm1 log log2 log10 log1p sin cos tan asin acos atan arcsin arccos arctan
    sinh cosh tanh asinh acosh atanh arcsinh arccosh arctanh sigmoid relu sqrt rsqrt square reciprocal sign sgn
    floor ceil round trunc fix frac erf erfc erfinv lgamma digamma logit nan_to_num sinc deg2rad rad2deg signbit
    isnan isinf isfinite isposinf isneginf logical_not bitwise_not
    add sub subtract mul multiply div divide true_divide floor_divide remainder fmod pow float_power atan2 arctan2
    maximum minimum fmax fmin hypot copysign xlogy logaddexp logaddexp2 heaviside lerp addcmul addcdiv
    clamp clip clamp_min clamp_max eq ne lt le gt ge greater less greater_equal less_equal not_equal
    logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor
    relu6 elu selu celu gelu silu mish softplus softsign tanhshrink hardtanh hardsigmoid hardswish leaky_relu
    logsigmoid threshold hardshrink softshrink
    __add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __floordiv__ __rfloordiv__
    __mod__ __rmod__ __pow__ __rpow__ __neg__ __pos__ __abs__ __invert__ __eq__ __ne__ __lt__ __le__ __gt__ __ge__
    __and__ __rand__ __or__ __ror__ __xor__ __rxor__
    clone contiguous float double half long int short char byte bool
    zeros_like ones_like empty_like full_like
""".split()


@_rule(*POINTWISE)
def _pointwise(level, name, fn, args, kwargs):
    if "out" in kwargs:
        return NotImplemented
    tensors = [a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]
    rank = max(t.dim() for t in tensors)
    if len({t.dtype for t in tensors}) > 1 and any(batched_at(t, level) and t.dim() == 0 for t in tensors):
        return NotImplemented   # a 0-d element would promote as a dimensioned physical value does not
    args = tuple(_pad(a._value, a.dim(), rank) if batched_at(a, level) else a for a in args)
    kwargs = {k: _pad(v._value, v.dim(), rank) if batched_at(v, level) else v for k, v in kwargs.items()}
    return wrap_all(dispatch(name, fn, args, kwargs), level)


def _inplace(level, name, fn, args, kwargs):
    """An in-place pointwise op on a batched tensor: the same op on its physical value."""
    self = args[0]
    if not batched_at(self, level) or "out" in kwargs:
        return NotImplemented   # an unbatched tensor cannot take a batch in place: the fallback's error
    tensors = [a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]
    if max(t.dim() for t in tensors) > self.dim():
        return NotImplemented
    rank = self.dim()
    if len({t.dtype for t in tensors}) > 1 and any(batched_at(t, level) and t.dim() == 0 for t in tensors):
        return NotImplemented
    a = tuple(_pad(x._value, x.dim(), rank) if batched_at(x, level) else x for x in args)
    k = {key: _pad(v._value, v.dim(), rank) if batched_at(v, level) else v for key, v in kwargs.items()}
    dispatch(name, fn, a, k)
    return self


_INPLACE_OPERATORS = {"__iadd__": "add", "__isub__": "sub", "__imul__": "mul", "__itruediv__": "div",
                      "__ipow__": "pow", "__ifloordiv__": "floor_divide", "__imod__": "remainder"}
for _name in POINTWISE:
    if _name + "_" in METHODS:
        RULES[_name + "_"] = _inplace
for _name in _INPLACE_OPERATORS:
    RULES[_name] = _inplace


@_rule("masked_fill")
def _masked_fill(level, name, fn, args, kwargs):
    x, mask = args[0], _arg(args, kwargs, 1, "mask")
    value = _arg(args, kwargs, 2, "value")
    if len(args) + len(kwargs) != 3 or not isinstance(mask, Tensor) or batched_at(value, level) or \
            mask.dim() > x.dim():
        return NotImplemented
    rank = x.dim()
    size = (x if batched_at(x, level) else mask)._value.shape[0]
    px = x._value if batched_at(x, level) else _expand(x, size)
    pm = _pad(mask._value, mask.dim(), rank) if batched_at(mask, level) else mask
    return wrap(dispatch(name, fn, (px, pm, value), {}), level)


@_rule("where")
def _where(level, name, fn, args, kwargs):
    if len(args) + len(kwargs) != 3:
        return NotImplemented   # where(condition) is nonzero: a shape per element
    return _pointwise(level, name, fn, args, kwargs)


@_rule("max", "min")
def _max(level, name, fn, args, kwargs):
    other = _arg(args, kwargs, 1, "other")
    if isinstance(other, Tensor):
        return _pointwise(level, name, fn, args, kwargs)
    if _arg(args, kwargs, 1, "dim") is None:   # the whole element: as amax/amin (ties share the gradient)
        x = _phys(args[0], level)
        if x is None or len(args) + len(kwargs) != 1:
            return NotImplemented
        return wrap(getattr(x.reshape(x.shape[0], -1), "a" + name)(1), level)
    return _reduction(level, name, fn, args, kwargs)


@_rule("to", "type", "type_as")
def _cast(level, name, fn, args, kwargs):
    if any(isinstance(a, Tensor) for a in (*args[1:], *kwargs.values())) and name != "type_as":
        return NotImplemented
    x = _phys(args[0], level)
    if x is None:
        return NotImplemented
    if name == "type_as":
        return wrap(x.to(args[1].dtype), level) if len(args) == 2 and not kwargs else NotImplemented
    return wrap_all(dispatch(name, fn, (x,) + args[1:], kwargs), level)


# ------------------------------------------------------------------ reductions and dims

def _shift(dim, rank):
    return _wrap_dim(dim, rank) + 1


def _shift_dims(dims, rank):
    if isinstance(dims, (tuple, list)):
        return tuple(_shift(d, rank) for d in dims)
    return _shift(dims, rank)


#: name -> whether dim=None means "every dimension" (else the op needs a dim)
_REDUCTIONS = {"sum": True, "nansum": True, "mean": True, "nanmean": True, "prod": True, "amax": True,
               "amin": True, "argmax": True, "argmin": True, "all": True, "any": True, "count_nonzero": True,
               "var": True, "std": True, "logsumexp": False, "max": False, "min": False, "median": False,
               "nanmedian": False, "mode": False, "kthvalue": False}


@_rule(*(n for n in _REDUCTIONS if n not in ("max", "min")))
def _reduction(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    if x is None or "out" in kwargs:
        return NotImplemented
    rank = args[0].dim()
    pos = 2 if name == "kthvalue" else 1
    dim = _arg(args, kwargs, pos, "dim")
    if type(dim) is bool:
        return NotImplemented   # var(x, True): the unbiased flag in the dim's place
    if dim is None or (dim == () and name in ("amax", "amin")):
        if not _REDUCTIONS[name] or _arg(args, kwargs, pos + (name in ("var", "std")) + 1, "keepdim"):
            return NotImplemented
        x = x.reshape(x.shape[0], -1)   # the whole element: its elements in one dimension
        new = 1
    else:
        if rank == 0:
            return NotImplemented
        new = _shift_dims(dim, rank)
    a, k = _put((x,) + args[1:], kwargs, pos, "dim", new)
    return wrap_all(dispatch(name, fn, a, k), level)


#: ops with one dim argument (position after the input, keyword name, default when not given)
_DIM_OPS = {"softmax": (1, "dim"), "log_softmax": (1, "dim"), "cumsum": (1, "dim"), "cumprod": (1, "dim"),
            "logcumsumexp": (1, "dim"), "cummax": (1, "dim"), "cummin": (1, "dim"), "select": (1, "dim"),
            "narrow": (1, "dim"), "unbind": (1, "dim", 0), "split": (2, "dim", 0), "chunk": (2, "dim", 0),
            "tensor_split": (2, "dim", 0), "sort": (1, "dim", -1), "argsort": (1, "dim", -1),
            "topk": (2, "dim", -1), "index_select": (1, "dim"), "unflatten": (1, "dim"), "msort": None}


@_rule(*_DIM_OPS)
def _dim_op(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    rank = args[0].dim()
    if x is None or rank == 0 or "out" in kwargs or any(
            type(a) is BatchedTensor for a in (*args[1:], *kwargs.values())):
        return NotImplemented
    if name in ("select", "narrow") and not all(type(a) is int for a in args[2:]):
        return NotImplemented
    spec = _DIM_OPS[name]
    if spec is None:   # msort: sort along dim 0
        return wrap_all(dispatch("sort", METHODS["sort"], (x, 1), {}).values, level)
    pos, key = spec[0], spec[1]
    dim = _arg(args, kwargs, pos, key, spec[2] if len(spec) > 2 else None)
    if dim is None and name in ("softmax", "log_softmax"):
        # F.softmax without dim (its first call already warned): PyTorch's implicit choice, by the element's rank
        dim = 0 if rank in (0, 1, 3) else 1
    a, k = _put((x,) + args[1:], kwargs, pos, key, _shift(dim, rank))
    return wrap_all(dispatch(name, fn, a, k), level)


# ------------------------------------------------------------------ views

def _sizes(args):
    """view(2, 3) or view((2, 3))."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(args)


@_rule("view", "reshape")
def _view(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    if x is None or kwargs or not all(type(s) is int for s in _sizes(args[1:])):
        return NotImplemented
    return wrap(dispatch(name, fn, (x, (x.shape[0],) + _sizes(args[1:])), {}), level)


@_rule("view_as", "reshape_as", "expand_as")
def _as(level, name, fn, args, kwargs):
    if kwargs or len(args) != 2 or _phys(args[0], level) is None:
        return NotImplemented
    target = {"view_as": "view", "reshape_as": "reshape", "expand_as": "expand"}[name]
    return dispatch(target, METHODS[target], (args[0], tuple(args[1].shape)), {})


@_rule("expand")
def _expand_rule(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    sizes = _sizes(args[1:])
    if x is None or kwargs or not all(type(s) is int for s in sizes) or len(sizes) < args[0].dim():
        return NotImplemented
    x = _pad(x, args[0].dim(), len(sizes))
    return wrap(x.expand((x.shape[0],) + sizes), level)


@_rule("flatten")
def _flatten(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    rank = args[0].dim()
    if x is None or rank == 0:
        return NotImplemented
    start = _shift(_arg(args, kwargs, 1, "start_dim", 0), rank)
    end = _shift(_arg(args, kwargs, 2, "end_dim", -1), rank)
    return wrap(x.flatten(start, end), level)


@_rule("squeeze")
def _squeeze(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    rank = args[0].dim()
    if x is None or rank == 0:
        return NotImplemented
    dim = _arg(args, kwargs, 1, "dim")
    if dim is None:
        dims = tuple(d + 1 for d, s in enumerate(args[0].shape) if s == 1)
    else:
        dims = _shift_dims(dim, rank)
    return wrap(x.squeeze(dims) if dims != () else x, level)


@_rule("unsqueeze")
def _unsqueeze(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    if x is None:
        return NotImplemented
    return wrap(x.unsqueeze(_shift(_arg(args, kwargs, 1, "dim"), args[0].dim() + 1)), level)


@_rule("transpose", "swapaxes", "swapdims")
def _transpose(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    rank = args[0].dim()
    if x is None or rank == 0:
        return NotImplemented
    d0, d1 = _arg(args, kwargs, 1, "dim0"), _arg(args, kwargs, 2, "dim1")
    return wrap(x.transpose(_shift(d0, rank), _shift(d1, rank)), level)


@_rule("t", "T", "mT", "adjoint")
def _t(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    rank = args[0].dim()
    if x is None or len(args) != 1 or kwargs:
        return NotImplemented
    if name == "T":
        return wrap(x.permute(0, *range(rank, 0, -1)), level)
    if rank < 2 or (name == "t" and rank != 2):
        return NotImplemented   # t() of a vector, or PyTorch's error
    return wrap(x.transpose(-2, -1), level)


@_rule("permute")
def _permute(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    dims = _sizes(args[1:]) if not kwargs else tuple(kwargs.get("dims", ()))
    rank = args[0].dim()
    if x is None or len(dims) != rank:
        return NotImplemented
    return wrap(x.permute(0, *(_shift(d, rank) for d in dims)), level)


@_rule("movedim", "moveaxis")
def _movedim(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    rank = args[0].dim()
    if x is None or rank == 0:
        return NotImplemented
    src, dst = _arg(args, kwargs, 1, "source"), _arg(args, kwargs, 2, "destination")
    return wrap(x.movedim(_shift_dims(src, rank), _shift_dims(dst, rank)), level)


@_rule("flip")
def _flip(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    dims = _sizes(args[1:]) if not kwargs else kwargs.get("dims")
    rank = args[0].dim()
    if x is None or rank == 0 or dims is None:
        return NotImplemented
    dims = (dims,) if type(dims) is int else tuple(dims)
    return wrap(x.flip(_shift_dims(dims, rank)), level)


@_rule("diagonal")
def _diagonal(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    rank = args[0].dim()
    if x is None or rank < 2:
        return NotImplemented
    offset = _arg(args, kwargs, 1, "offset", 0)
    d1, d2 = _arg(args, kwargs, 2, "dim1", 0), _arg(args, kwargs, 3, "dim2", 1)
    return wrap(x.diagonal(offset, _shift(d1, rank), _shift(d2, rank)), level)


@_rule("tril", "triu")
def _last_two(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    if x is None or args[0].dim() < 2 or any(isinstance(a, Tensor) for a in args[1:]) or "out" in kwargs:
        return NotImplemented
    return wrap(dispatch(name, fn, (x,) + args[1:], kwargs), level)


def _basic(index) -> bool:
    return index is None or index is Ellipsis or type(index) in (int, slice)


@_rule("__getitem__")
def _getitem(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    index = args[1]
    index = index if type(index) is tuple else (index,)
    if x is None or args[0].dim() == 0 and index != (Ellipsis,):
        return NotImplemented
    if not all(_basic(i) for i in index):
        # one unbatched integer index tensor among slices: its dimensions stay where they are
        tensors = [i for i in index if isinstance(i, Tensor)]
        if (len(tensors) != 1 or type(tensors[0]) is BatchedTensor or tensors[0].dtype.is_floating_point
                or tensors[0].dtype.name == "bool"
                or not all(isinstance(i, Tensor) or type(i) is slice or i is Ellipsis for i in index)):
            return NotImplemented
    return wrap(x[(slice(None),) + index], level)


# ------------------------------------------------------------------ products

def _matrices(level, a, b):
    """a @ b with either batched: vectors as matrices, batched operands padded to the other's rank."""
    ra, rb = a.dim(), b.dim()
    if ra == 0 or rb == 0 or a.dtype != b.dtype:
        return NotImplemented
    pa, pb = _phys(a, level), _phys(b, level)
    A = pa if pa is not None else a
    B = pb if pb is not None else b
    if ra == 1:
        A = A.unsqueeze(-2)
    if rb == 1:
        B = B.unsqueeze(-1)
    na, nb = max(ra, 2), max(rb, 2)
    n = max(na, nb)
    if pa is not None:
        A = _pad(A, na, n)
    if pb is not None:
        B = _pad(B, nb, n)
    out = dispatch("matmul", FUNCTIONS["matmul"], (A, B), {})
    if ra == 1:
        out = out.squeeze(-2)
    if rb == 1:
        out = out.squeeze(-1)
    return wrap(out, level)


#: name -> the logical ranks the op takes (None: any), its operands' positions
_PRODUCTS = {"matmul": None, "__matmul__": None, "mm": (2, 2), "mv": (2, 1), "dot": (1, 1), "vdot": (1, 1),
             "inner": (1, 1), "bmm": (3, 3)}


@_rule(*_PRODUCTS, "__rmatmul__")
def _product(level, name, fn, args, kwargs):
    if len(args) != 2 or kwargs:
        return NotImplemented
    a, b = (args[1], args[0]) if name == "__rmatmul__" else args
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)):
        return NotImplemented
    ranks = _PRODUCTS.get(name)
    if ranks is not None and (a.dim(), b.dim()) != ranks:
        if name in ("mm", "mv", "bmm"):   # PyTorch's batching rule checks the elements' ranks first
            raise RuntimeError(f"Shape mismatch: Got incorrect dims for {name}(a, b). a has dim {a.dim()}and b has "
                               f"dim {b.dim()}but expected them to have dim {ranks[0]} and dim {ranks[1]}")
        return NotImplemented
    if name in ("dot", "vdot", "inner") and a.shape != b.shape:
        return NotImplemented
    return _matrices(level, a, b)


@_rule("outer", "ger")
def _outer(level, name, fn, args, kwargs):
    if len(args) != 2 or kwargs or args[0].dim() != 1 or args[1].dim() != 1 or args[0].dtype != args[1].dtype:
        return NotImplemented
    return args[0].unsqueeze(-1) * args[1]


@_rule("linear")
def _linear(level, name, fn, args, kwargs):
    x, weight = args[0], _arg(args, kwargs, 1, "weight")
    bias = _arg(args, kwargs, 2, "bias")
    if not isinstance(weight, Tensor) or x.dim() == 0 or (bias is not None and not isinstance(bias, Tensor)):
        return NotImplemented
    if not batched_at(weight, level) and not batched_at(bias, level) and batched_at(x, level):
        return wrap(dispatch(name, fn, (x._value, weight, bias), {}), level)
    if weight.dim() != 2 or x.dtype != weight.dtype:
        return NotImplemented
    out = x @ weight.mT
    return out + bias if bias is not None else out


# ------------------------------------------------------------------ joining

def _physicals(level, tensors):
    size = next(t._value.shape[0] for t in tensors if batched_at(t, level))
    return [t._value if batched_at(t, level) else _expand(t, size) for t in tensors]


@_rule("cat", "concat", "concatenate")
def _cat(level, name, fn, args, kwargs):
    tensors = _arg(args, kwargs, 0, "tensors")
    if not isinstance(tensors, (list, tuple)) or not tensors or "out" in kwargs or \
            not all(isinstance(t, Tensor) for t in tensors) or len({t.dim() for t in tensors}) != 1 or \
            len({t.dtype for t in tensors}) != 1 or tensors[0].dim() == 0:
        return NotImplemented
    dim = _shift(_arg(args, kwargs, 1, "dim", 0), tensors[0].dim())
    return wrap(dispatch("cat", FUNCTIONS["cat"], (_physicals(level, tensors),), {"dim": dim}), level)


@_rule("stack")
def _stack(level, name, fn, args, kwargs):
    tensors = _arg(args, kwargs, 0, "tensors")
    if not isinstance(tensors, (list, tuple)) or not tensors or "out" in kwargs or \
            not all(isinstance(t, Tensor) for t in tensors) or len({t.dtype for t in tensors}) != 1:
        return NotImplemented
    dim = _shift(_arg(args, kwargs, 1, "dim", 0), tensors[0].dim() + 1)
    return wrap(dispatch("stack", FUNCTIONS["stack"], (_physicals(level, tensors),), {"dim": dim}), level)


# ------------------------------------------------------------------ losses

@_rule("mse_loss")
def _mse_loss(level, name, fn, args, kwargs):
    x, target = args[0], _arg(args, kwargs, 1, "target")
    reduction = _arg(args, kwargs, 4, "reduction", "mean")
    if len(args) > 2 or set(kwargs) - {"target", "reduction"} or not isinstance(target, Tensor) or \
            x.shape != target.shape or x.dtype != target.dtype or reduction not in ("mean", "sum", "none"):
        return NotImplemented
    sq = (x - target) ** 2
    return sq if reduction == "none" else getattr(sq, reduction)()


def _loss_args(args, kwargs, names):
    """The loss's arguments by name (PyTorch's positional order), or None for the legacy size_average/reduce."""
    bound = {n: _arg(args, kwargs, i, n, d) for i, (n, d) in enumerate(names)}
    if len(args) > len(names) or set(kwargs) - {n for n, _ in names} or \
            bound.get("size_average") is not None or bound.get("reduce") is not None:
        return None
    return bound


_NLL = (("input", None), ("target", None), ("weight", None), ("size_average", None), ("ignore_index", -100),
        ("reduce", None), ("reduction", "mean"))


@_rule("nll_loss")
def _nll_loss(level, name, fn, args, kwargs):
    a = _loss_args(args, kwargs, _NLL)
    if a is None:
        return NotImplemented
    x, target, weight, reduction = a["input"], a["target"], a["weight"], a["reduction"]
    if not isinstance(target, Tensor) or x.dim() not in (1, 2) or target.dim() != x.dim() - 1 or \
            type(a["ignore_index"]) is not int or reduction not in ("mean", "sum", "none") or \
            batched_at(weight, level) or target.dtype.is_floating_point:
        return NotImplemented
    size = (x if batched_at(x, level) else target)._value.shape[0]
    px = x._value if batched_at(x, level) else _expand(x, size)
    pt = target._value if batched_at(target, level) else _expand(target, size)
    if x.dim() == 1:
        px, pt = px.unsqueeze(1), pt.unsqueeze(1)
    n, classes = px.shape[1], px.shape[2]
    # every element's rows as one batch of rows, unreduced; then each element's reduction
    rows = fn(px.reshape(size * n, classes), pt.reshape(size * n), weight=weight, ignore_index=a["ignore_index"],
              reduction="none").reshape(size, n)
    if reduction == "none":
        out = rows if x.dim() == 2 else rows.squeeze(1)
    elif reduction == "sum":
        out = rows.sum(1)
    else:
        kept = (pt != a["ignore_index"]).to(rows.dtype)
        if weight is not None:
            kept = kept * weight[pt.clamp(0, classes - 1)]
        total = kept.sum(1)
        none = total == 0   # every target ignored: NaN, as PyTorch's mean; a zero gradient, as its backward
        nan = FUNCTIONS["zeros_like"](total).masked_fill(none, float("nan"))
        out = rows.sum(1) / total.masked_fill(none, 1.0) + nan
    return wrap(out, level)


@_rule("cross_entropy")
def _cross_entropy(level, name, fn, args, kwargs):
    a = _loss_args(args, kwargs, _NLL + (("label_smoothing", 0.0),))
    if a is None or a["label_smoothing"] != 0.0 or not isinstance(a["target"], Tensor) or \
            a["target"].dtype.is_floating_point or a["input"].dim() not in (1, 2):
        return NotImplemented   # class probabilities or label smoothing: the loss per element
    logp = a["input"].log_softmax(0 if a["input"].dim() == 1 else 1)
    return dispatch("nll_loss", FUNCTIONAL["nll_loss"], (logp, a["target"]),
                    {"weight": a["weight"], "ignore_index": a["ignore_index"], "reduction": a["reduction"]})


# ------------------------------------------------------------------ convolution, pooling, normalisation

_CONVS = {"conv1d": 1, "conv2d": 2, "conv3d": 3}
_CONV_ARGS = (("input", None), ("weight", None), ("bias", None), ("stride", 1), ("padding", 0), ("dilation", 1),
              ("groups", 1))


@_rule(*_CONVS)
def _conv(level, name, fn, args, kwargs):
    """A batch of inputs (with or without their own batch dimension) through one weight: the batches
    merged; batched weights (per-sample gradients): one grouped convolution, a group per element."""
    k = _CONVS[name]
    a = _loss_args(args, kwargs, _CONV_ARGS)
    if a is None:
        return NotImplemented
    x, w, bias, groups = a["input"], a["weight"], a["bias"], a["groups"]
    if not isinstance(w, Tensor) or x.dim() not in (k + 1, k + 2) or w.dim() != k + 2 or type(groups) is not int \
            or (bias is not None and not isinstance(bias, Tensor)) or len({t.dtype for t in (x, w)}) != 1:
        return NotImplemented
    size = next(t._value.shape[0] for t in (x, w, bias) if batched_at(t, level))
    px = x._value if batched_at(x, level) else _expand(x, size)
    if x.dim() == k + 1:
        px = px.unsqueeze(1)   # an element without a batch dimension: a batch of one
    n = px.shape[1]
    opts = {"stride": a["stride"], "padding": a["padding"], "dilation": a["dilation"]}
    if not batched_at(w, level) and not batched_at(bias, level):
        out = dispatch(name, fn, (px.flatten(0, 1), w, bias), dict(opts, groups=groups)).unflatten(0, (size, n))
    else:
        pw = w._value if batched_at(w, level) else _expand(w, size)
        pb = None if bias is None else bias._value if batched_at(bias, level) else _expand(bias, size)
        channels = pw.shape[1]
        merged = px.movedim(0, 1).flatten(1, 2)   # (n, size * in_channels, *spatial)
        out = dispatch(name, fn, (merged, pw.flatten(0, 1), None if pb is None else pb.flatten()),
                       dict(opts, groups=groups * size))
        out = out.unflatten(1, (size, channels)).movedim(1, 0)
    return wrap(out.squeeze(1) if x.dim() == k + 1 else out, level)


_POOLS = {f"{kind}{k}d": k for k in (1, 2, 3)
          for kind in ("max_pool", "avg_pool", "adaptive_avg_pool", "adaptive_max_pool")}
_POOLS.update({f"max_pool{k}d_with_indices": k for k in (1, 2)})


@_rule(*_POOLS)
def _pool(level, name, fn, args, kwargs):
    """Pooling acts on the last dimensions, per (element, channel): the batch merged with the element's."""
    k = _POOLS[name]
    x = _phys(args[0], level)
    if x is None or args[0].dim() not in (k + 1, k + 2) or any(
            isinstance(v, Tensor) for v in (*args[1:], *kwargs.values())):
        return NotImplemented
    if args[0].dim() == k + 1:   # (channels, *spatial): the batch is the batch dimension
        return wrap_all(dispatch(name, fn, (x,) + args[1:], kwargs), level)
    size, n = x.shape[0], x.shape[1]
    out = dispatch(name, fn, (x.flatten(0, 1),) + args[1:], kwargs)
    if isinstance(out, tuple):
        return wrap_all(type(out)(o.unflatten(0, (size, n)) for o in out), level)
    return wrap(out.unflatten(0, (size, n)), level)


@_rule("layer_norm")
def _layer_norm(level, name, fn, args, kwargs):
    """Normalises the last dimensions: the same op on the physical value (parameters unbatched)."""
    x = _phys(args[0], level)
    shape = _arg(args, kwargs, 1, "normalized_shape")
    if x is None or any(type(v) is BatchedTensor for v in (*args[1:], *kwargs.values())) or \
            not isinstance(shape, (list, tuple)) or len(shape) > args[0].dim():
        return NotImplemented
    return wrap(dispatch(name, fn, (x,) + args[1:], kwargs), level)


@_rule("embedding")
def _embedding(level, name, fn, args, kwargs):
    """Rows of an unbatched weight picked by batched indices: any index shape works."""
    idx, weight = _phys(args[0], level), _arg(args, kwargs, 1, "weight")
    if idx is None or not isinstance(weight, Tensor) or any(
            type(v) is BatchedTensor for v in (*args[1:], *kwargs.values())):
        return NotImplemented
    return wrap(dispatch(name, fn, (idx,) + args[1:], kwargs), level)


# ------------------------------------------------------------------ more shapes

@_rule("einsum")
def _einsum(level, name, fn, args, kwargs):
    """A new subscript letter for the batch, in front of every batched operand and of the result."""
    if kwargs or not args or type(args[0]) is not str:
        return NotImplemented
    operands = list(args[1:])
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = list(operands[0])
    equation = args[0].replace(" ", "")
    ins, arrow, out = equation.partition("->")
    terms = ins.split(",")
    if len(terms) != len(operands) or not all(isinstance(t, Tensor) for t in operands):
        return NotImplemented
    letters = [c for c in equation if c.isalpha()]
    if not arrow:   # the implicit output: the ellipsis, then the letters used once, in order
        out = ("..." if "..." in ins else "") + "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    free = next((c for c in "ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsrqponmlkjihgfedcba" if c not in letters), None)
    if free is None:
        return NotImplemented
    terms = [free + t if batched_at(o, level) else t for t, o in zip(terms, operands)]
    physical = [o._value if batched_at(o, level) else o for o in operands]
    return wrap(dispatch(name, fn, (",".join(terms) + "->" + free + out, *physical), {}), level)


@_rule("repeat")
def _repeat(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    sizes = _sizes(args[1:])
    if x is None or kwargs or len(sizes) < args[0].dim() or not all(type(s) is int for s in sizes):
        return NotImplemented
    return wrap(_pad(x, args[0].dim(), len(sizes)).repeat((1,) + sizes), level)


@_rule("roll")
def _roll(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    shifts, dims = _arg(args, kwargs, 1, "shifts"), _arg(args, kwargs, 2, "dims")
    if x is None or args[0].dim() == 0:
        return NotImplemented
    if dims is None:   # the element flattened, rolled, and put back in shape
        return wrap(x.reshape(x.shape[0], -1).roll(shifts, 1).reshape(x.shape), level)
    return wrap(x.roll(shifts, _shift_dims(dims, args[0].dim())), level)


@_rule("gather", "take_along_dim")
def _gather(level, name, fn, args, kwargs):
    x, index = args[0], _arg(args, kwargs, 2 if name == "gather" else 1, "index" if name == "gather" else "indices")
    dim = _arg(args, kwargs, 1 if name == "gather" else 2, "dim")
    if not isinstance(index, Tensor) or dim is None or x.dim() == 0 or x.dim() != index.dim() or \
            set(kwargs) - {"dim", "index", "indices"}:
        return NotImplemented
    size = (x if batched_at(x, level) else index)._value.shape[0]
    px = x._value if batched_at(x, level) else _expand(x, size)
    pi = index._value if batched_at(index, level) else _expand(index, size)
    d = _shift(dim, x.dim())
    return wrap(px.gather(d, pi) if name == "gather" else dispatch(name, fn, (px, pi, d), {}), level)


@_rule("trace")
def _trace(level, name, fn, args, kwargs):
    x = _phys(args[0], level)
    if x is None or args[0].dim() != 2 or len(args) != 1 or kwargs:
        return NotImplemented
    return wrap(x.diagonal(0, 1, 2).sum(-1), level)


@_rule("new_zeros", "new_ones", "new_empty", "new_full", "new_tensor")
def _new(level, name, fn, args, kwargs):
    """A new tensor of the given size: unbatched (vmap expands it if returned), as in PyTorch."""
    x = _phys(args[0], level)
    if x is None or any(type(v) is BatchedTensor for v in (*args[1:], *kwargs.values())):
        return NotImplemented
    return dispatch(name, fn, (x,) + args[1:], kwargs)
