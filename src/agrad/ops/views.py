"""Views and reshaping: view/reshape, flatten/unflatten, transpose/permute, squeeze/
unsqueeze, expand, narrow, unbind; and copies (clone, contiguous, zero_/fill_/copy_).
Casts and ``new_*`` are in ``casts``.

View ops return tensors sharing data with their input, as PyTorch's do; the
result remembers its base so in-place changes through a view are caught.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._warn_once import warn_once
from .. import _arrays, dtypes
from .._limits import check_numel
from .._zero import ZeroArray
from ..autograd.engine import reduce_to
from ..tensor import Tensor, _wrap_dim
from . import _layout
from ._op import Op, export, method, zeros_like_grad


def _view(op, input, array, attrs):
    if not array.size:  # (an empty array with PyTorch's strides in numpy's, which numpy's view arithmetic keeps)
        array = _layout.carried(array)
    out = op.apply((input,), (array,), attrs)
    out._make_view_of(input)  # views share data and the version counter
    return out


def _sizes(size):
    if len(size) == 1:
        first = size[0]
        if type(first) is tuple:
            size = first
        elif type(first) is not int and not isinstance(first, numbers.Integral):
            size = tuple(first)
    for s in size:
        if type(s) is not int:
            return tuple(_size_int(s) for s in size)
    return tuple(size)


def _size_int(s):
    """A size given as other than an int: a float (or float tensor) is the parser's error (the wrapper's)."""
    if isinstance(s, float) or isinstance(s, Tensor) and s.dtype.is_floating_point:
        raise TypeError(f"size {s!r} is not an int")
    return int(s)


def _infer_shape(shape, numel):
    shape = list(shape)
    infer, known = None, 1
    for i, s in enumerate(shape):  # (one pass, as PyTorch's infer_size checks)
        if s == -1:
            if infer is not None:
                raise RuntimeError("only one dimension can be inferred")
            infer = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape {_fmt(shape)}")
        else:
            known *= s
    if infer is not None:
        if known == 0 and numel == 0:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {_fmt(shape)} because the "
                               "unspecified dimension size -1 can be any value and is ambiguous")
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{_fmt(shape)}' is invalid for input of size {numel}")
        shape[infer] = numel // known
    elif known != numel:
        raise RuntimeError(f"shape '{_fmt(shape)}' is invalid for input of size {numel}")
    return tuple(shape)


def _fmt(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


# view / reshape ----------------------------------------------------------------

_view_op = Op("ViewBackward0", lambda ctx, a, shape: _layout.reshaped(a, shape), jvp="linear")


@_view_op.derivative
def _(ctx, grad):
    return grad.reshape(ctx.input_shape)


_view_op.raw_derivative(lambda ctx, g: _layout.reshaped(g, ctx.input_shape))  # (computeStride's strides, as reshape's)


_unsafe_view = Op("UnsafeViewBackward0", lambda ctx, a, shape: _layout.reshaped(a, shape), jvp="linear")
_unsafe_view.derivative(lambda ctx, grad: grad.reshape(ctx.input_shape))
_reshape_alias = Op("ReshapeAliasBackward0", lambda ctx, a, shape: _layout.reshaped(a, shape), jvp="linear")
_reshape_alias.derivative(lambda ctx, grad: grad.reshape(ctx.input_shape))
for _op in (_unsafe_view, _reshape_alias):
    _op.raw_derivative(lambda ctx, g: _layout.reshaped(g, ctx.input_shape))


# forward AD's unpack_dual: the primal, a view of the dual tensor without its tangent
_fw_primal_op = Op("torch::autograd::Identity", lambda ctx, a: a.view(), internal=True, jvp="linear")  # reached via unpack_dual
_fw_primal_op.derivative(lambda ctx, grad: grad)


def _fw_primal(input):
    return _view(_fw_primal_op, input, input._data, {})


def _viewable(a, shape):
    """A numpy view of ``a`` with ``shape`` if strides allow (torch's view rule), else None."""
    if not isinstance(a, np.ndarray):  # a lazy (dask) array has no strides: any reshape will do
        return a.reshape(shape)
    try:
        v = a.view()
        v.shape = shape
        return v
    except AttributeError:
        return None
    except ValueError:
        return None


@method("view")
def view(input, *shape, dtype=None):
    if dtype is not None and not shape:  # view(dtype=...): the bytes read as another dtype
        shape = (dtype,)
    elif not shape or dtype is not None:  # neither view(dtype) nor view(size): the parser's "invalid combination"
        raise TypeError("view() takes a dtype or a size")
    if len(shape) == 1 and isinstance(shape[0], dtypes.dtype):
        from ._view_dtype import view_dtype
        return view_dtype(input, shape[0])
    shape = _infer_shape(_sizes(shape), input.numel())
    v = _viewable(input._data, shape)
    if v is None:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one dimension spans "
            "across two contiguous subspaces). Use .reshape(...) instead.")
    return _view(_view_op, input, input._data, {"shape": shape})


@export(method=True)
def reshape(input, *shape):
    shape = _infer_shape(_sizes(shape), input.numel())
    if _viewable(input._data, shape) is not None:
        # PyTorch: a view of a contiguous tensor is ViewBackward0; of a strided one, an alias
        op = _view_op if not isinstance(input._data, np.ndarray) or input._data.flags.c_contiguous \
            else _reshape_alias
        return _view(op, input, input._data, {"shape": shape})
    # not expressible as a view: PyTorch copies (clone(contiguous_format): C order), then views the copy
    return _unsafe_view.apply((c := _clone(input, contiguous=True),), (c._data,), {"shape": shape})


@method("view_as")
def view_as(input, other):
    return view(input, other.shape)


@method("reshape_as")
def reshape_as(input, other):
    return reshape(input, other.shape)


@export(method=True)
def flatten(input, start_dim=0, end_dim=-1):
    if input.ndim == 0:
        _wrap_dim(start_dim, 0), _wrap_dim(end_dim, 0)  # PyTorch wraps both dims of a 0-d input first
        return reshape(input, 1)
    s = _wrap_dim(start_dim, input.ndim)
    e = _wrap_dim(end_dim, input.ndim)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    shape = input.shape
    n = 1
    for d in shape[s:e + 1]:
        n *= d
    return reshape(input, shape[:s] + (n,) + shape[e + 1:])


@export(method=True)
def ravel(input):
    return input.contiguous().view(-1)  # PyTorch's: a clone only when not contiguous, then a view


# transpose / permute ------------------------------------------------------------

_t = Op("TBackward0", lambda ctx, a: a.T, jvp="linear")
_t.derivative(lambda ctx, grad: grad.t())
_t.raw_derivative(lambda ctx, g: _layout.carried(g).T)  # (an empty gradient's strides turned too)


@export(method=True)
def t(input):
    if input.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    return _view(_t, input, input._data, {})


def _swap(ctx, a, dim0, dim1):
    return np.swapaxes(a, dim0, dim1) if a.ndim else a.view()


_transpose = Op("TransposeBackward0", _swap, jvp="linear")
_transpose.derivative(lambda ctx, grad: grad.transpose(ctx.dim0, ctx.dim1))
_transpose.raw_derivative(lambda ctx, g: _swap(None, _layout.carried(g), ctx.dim0, ctx.dim1))


@export(method=True)  # (swapaxes, swapdims: aliases.py)
def transpose(input, dim0, dim1):
    n = input.ndim
    d0, d1 = _wrap_dim(dim0, n), _wrap_dim(dim1, n)
    return _view(_transpose, input, input._data, {"dim0": d0, "dim1": d1})


# transpose_ changes the tensor's own shape: its node (TransposeBackward1) takes the
# place of the tensor's grad_fn, as PyTorch's in-place view ops do
_transpose_ = Op("TransposeBackward1", _swap, jvp="linear")
_transpose_.derivative(lambda ctx, grad: grad.transpose(ctx.dim0, ctx.dim1))


@method("transpose_", "swapaxes_", "swapdims_")
def transpose_(input, dim0, dim1):
    from ..autograd import graph
    from ..tensor import LEAF_INPLACE_MESSAGE
    n = input.ndim
    recorded = graph._state["enabled"] and input._requires_grad
    if recorded and input._grad_fn is None:  # (before the dims: PyTorch's autograd check comes first)
        raise RuntimeError(LEAF_INPLACE_MESSAGE)
    base = input._base
    if recorded and base is not None and base._grad_fn is None and (base._requires_grad or input._grad_fn is not None):
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    d0, d1 = _wrap_dim(dim0, n), _wrap_dim(dim1, n)
    from ..autograd import _dual
    tangent = _dual.tangent_of(input) if _dual._LEVEL[0] is not None else None
    if recorded:
        with _dual._paused():  # the tangent is turned below, once
            out = _transpose_.apply((input,), (input._data,), {"dim0": d0, "dim1": d1})
        input._data = out._data
        input._grad_fn, input._output_nr = out._grad_fn, out._output_nr
    else:   # outside autograd the shape changes and the history stays, as in PyTorch
        input._data = _swap(None, input._data, d0, d1)
    if tangent is not None:   # a dual tensor's tangent turns with it
        _dual.set_tangent(input, tangent.transpose(d0, d1))
    input._vc[0] += 1
    if input._base is not None and recorded:  # its grad_fn is new (a change not recorded leaves it stale)
        input._view_ver = input._vc[0]
    return input


_permute = Op("PermuteBackward0", lambda ctx, a, dims: np.transpose(a, dims), jvp="linear")
_permute.derivative(lambda ctx, grad: grad.permute(tuple(np.argsort(ctx.dims))))
_permute.raw_derivative(lambda ctx, g: np.transpose(_layout.carried(g), tuple(np.argsort(ctx.dims))))


@export(method=True)
def permute(input, *dims, **kw):
    if "dims" in kw and not dims:
        dims = (kw.pop("dims"),)
    if kw:
        raise TypeError(f"permute() got an unexpected keyword argument '{next(iter(kw))}'")
    if not dims:  # (PyTorch's parser wants dims, even of a 0-d tensor)
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    if len(dims) == 1 and not isinstance(dims[0], numbers.Integral):
        dims = tuple(dims[0])
    if len(dims) != input.ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
            f"desired ordering of dimensions i.e. input.dim() = {input.ndim} is not equal to len(dims) = {len(dims)}")
    d = tuple(_wrap_dim(x, input.ndim) for x in dims) if input.ndim else ()
    if len(set(d)) != len(d):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return _view(_permute, input, input._data, {"dims": d})


def _T(self):
    if self.ndim != 2 and self.ndim != 0:
        warn_once(
            "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it "
            "will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
            "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.",
            UserWarning)
    return permute(self, tuple(range(self.ndim - 1, -1, -1)))


def _mT(self, name="mT"):
    if self.ndim == 0:  # the identity, with PyTorch's once-per-process warning
        warn_once("Tensor.mT is deprecated on 0-D tensors. This function is the identity in these cases."
                  if name == "mT" else f"Tensor.{name} is deprecated on 0-D tensors. Consider using x.conj().",
                  UserWarning)
        return self
    if self.ndim < 2:
        raise RuntimeError(f"tensor.{name} is only supported on matrices or batches of matrices. Got {self.ndim}-D tensor.")
    return transpose(self, -2, -1)


def _H(self):
    if self.ndim == 0:
        return _mT(self, "H")
    if self.ndim != 2:
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self.ndim}-D tensor."
                           + (" For batches of matrices, consider using tensor.mH" if self.ndim > 2 else ""))
    return _T(self)


Tensor.T = property(_T)
Tensor.mT = property(_mT)
Tensor.H = property(_H)
Tensor.mH = property(lambda self: _mT(self, "mH"))


@export(method=True)
def adjoint(input):
    """The conjugate transpose of the last two dims (real tensors: ``mT``); a 0-d tensor is
    itself, with PyTorch's deprecation warning."""
    if input.ndim == 0:
        warn_once("adjoint() is deprecated on 0-D tensors. Consider using x.conj().", UserWarning)
        return input
    if input.ndim == 1:
        raise RuntimeError(
            "tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor.")
    return _mT(input)


def _int_arg(v):
    """An ``int`` argument as PyTorch's parser takes it: a 0-d integer tensor counts as its value."""
    if isinstance(v, Tensor):
        if v.ndim or v.dtype.is_floating_point or v.dtype.name == "bool":
            raise TypeError(f"expected an int, got a {v.dtype} tensor")  # (the parser's own message replaces it)
        return int(v.item())
    return v


@export(method=True)
def movedim(input, source, destination):
    source, destination = _int_arg(source), _int_arg(destination)
    if isinstance(source, numbers.Integral) != isinstance(destination, numbers.Integral):
        raise TypeError("movedim: an int and a sequence")  # (the wrapper gives the parser's error)
    src = [source] if isinstance(source, numbers.Integral) else list(source)
    dst = [destination] if isinstance(destination, numbers.Integral) else list(destination)
    n = input.ndim
    if n == 0:  # dims 0 and -1 name the one "dimension" of a 0-d tensor: nothing moves
        for d in src + dst:
            _wrap_dim(d, n)
        from .indexing import _alias
        return _view(_alias, input, input._data, {})
    order = [d for d in range(n) if d not in [_wrap_dim(s, n) for s in src]]
    for s, d in sorted(zip((_wrap_dim(s, n) for s in src), (_wrap_dim(d, n) for d in dst)), key=lambda p: p[1]):
        order.insert(d, s)
    return permute(input, tuple(order))


export("moveaxis", method=True)(movedim)


# squeeze / unsqueeze -------------------------------------------------------------

def _squeeze_fwd(ctx, a, axes):
    return np.squeeze(a, axis=axes) if axes else a.view()


def _unsqueeze_back(ctx, grad):
    """ATen's unsqueeze_to: one unsqueeze per squeezed dim, in order (UnsqueezeBackward0 nodes
    under create_graph); none squeezed, the gradient itself (a leaf then copies it, not takes it)."""
    for d in ctx.axes:
        grad = grad.unsqueeze(d)
    return grad


_squeeze0 = Op("SqueezeBackward0", _squeeze_fwd, jvp="linear")
_squeeze1 = Op("SqueezeBackward1", _squeeze_fwd, jvp="linear")
_squeeze2 = Op("SqueezeBackward2", _squeeze_fwd, jvp="linear")
_squeeze4 = Op("SqueezeBackward4", _squeeze_fwd, jvp="linear")  # squeeze_(dim), as matmul uses it
for _op in (_squeeze0, _squeeze1, _squeeze2, _squeeze4):
    _op.derivative(_unsqueeze_back)
    _op.raw_derivative(lambda ctx, g: _unsqueezed(g, ctx.axes))


def _unsqueezed(g, axes):
    """_unsqueeze_back on arrays: unsqueeze's strides (a reshape strides a new dim of one element numpy's way)."""
    for d in axes:
        g = _unsqueeze_fwd(None, g, d)
    return g


@export(method=True)
def squeeze(input, dim=None):
    shape = input._data.shape
    if dim is None:
        op, axes = _squeeze0, tuple(i for i, s in enumerate(shape) if s == 1)
    elif isinstance(dim, (list, tuple)):
        op = _squeeze2
        wrapped = [_wrap_dim(d, input.ndim) for d in dim]
        for i, d in enumerate(wrapped):
            if d in wrapped[:i]:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        axes = tuple(sorted({d for d in wrapped if input.ndim}))
        axes = tuple(a for a in axes if shape[a] == 1)
    else:
        op = _squeeze1
        d = _wrap_dim(dim, input.ndim)
        axes = (d,) if input.ndim and shape[d] == 1 else ()
    return _view(op, input, input._data, {"axes": axes})


def squeeze_inplace_dim(input, dim):
    """matmul's final squeeze_(dim) on its fresh product: recorded as SqueezeBackward4, the
    product itself changed (no view of it: an in-place op through a view of the result then
    gives it CopySlices, not AsStridedBackward0), its version 1."""
    return view_in_place(input, _squeeze4, {"axes": (dim,)})


def _unsqueeze_fwd(ctx, a, dim):
    """np.expand_dims, with PyTorch's stride for the new dim (the next dim's size times its
    stride, one element at the end), which numpy picks otherwise for a non-contiguous input."""
    if type(a) is np.ndarray and not a.size:  # (a raw gradient too: its strides PyTorch's)
        a = _layout.carried(a)
    out = np.expand_dims(a, dim)
    if type(a) is np.ndarray:
        have = _layout.torch_strides(a)
        step = a.shape[dim] * have[dim] if dim < a.ndim else a.itemsize
        # (the other dims keep the input's strides: numpy's expand_dims reshapes, which may give
        # a dim of size 1 another one, and suggest_memory_format reads them; a new dim of stride 0
        # keeps it through a permute: ZERO1)
        strides = a.strides[:dim] + (_layout.ZERO1 if step == 0 else step,) + a.strides[dim:]
        if out.strides != strides:
            out = np.lib.stride_tricks.as_strided(out, out.shape, strides, writeable=out.flags.writeable)
    return out


_unsqueeze = Op("UnsqueezeBackward0", _unsqueeze_fwd, jvp="linear")


@_unsqueeze.derivative
def _(ctx, grad):
    return grad.squeeze(ctx.dim)


_unsqueeze.raw_derivative(lambda ctx, g: np.squeeze(g, axis=ctx.dim))
_unsqueeze1 = Op("UnsqueezeBackward1", _unsqueeze_fwd, internal=True, jvp="linear")  # unsqueeze_: unsqueeze's strides
_unsqueeze1.derivative(lambda ctx, grad: grad.squeeze(ctx.dim))


def view_in_place(input, op, attrs):
    """PyTorch's in-place view ops (``unsqueeze_`` as ``_unsqueeze1``, ``squeeze_(dim)`` as
    ``_squeeze4``): the tensor's data becomes the op's numpy view of itself, its history the
    op's node, and its version moves.  A view stays a view of its base, with its new shape
    (an in-place op through it later writes the base, and regenerates it over the base's
    history: AsStridedBackward0), its history current as of this version, as PyTorch's."""
    from ..autograd.graph import version_observers
    out = op.apply((input,), (input._data,), attrs)
    input._data = out._data
    if out._grad_fn is not None:
        input._grad_fn, input._output_nr = out._grad_fn, out._output_nr
    input._vc[0] += 1
    if input._base is not None and out._grad_fn is not None:  # (a change not recorded leaves it stale)
        input._view_ver = input._vc[0]
    for obs in version_observers:
        obs(input)
    from ..autograd import _dual

    if _dual._ACTIVE[0]:  # (forward AD: the tangent takes the view's shape too)
        tangent = _dual.tangent_of(out)
        if tangent is not None:
            _dual.set_tangent(input, tangent)
    return input


@export(method=True)
def unsqueeze(input, dim):
    d = _wrap_dim(dim, input.ndim + 1)
    return _view(_unsqueeze, input, input._data, {"dim": d})


# expand --------------------------------------------------------------------------

def _expand_fwd(ctx, a, shape):
    return expand_array(a, shape)


def expand_array(a, shape):
    """A view of ``a`` (of a shape it broadcasts to) with stride 0 along the expanded dimensions, writable when
    ``a`` is (PyTorch lets fill_ and index_put_ write through it), with ATen's strides
    (infer_expand_geometry) where numpy's broadcast_to would put 0: a dim kept keeps its
    stride, a new dim of size 1 gets the next size times its stride, and everything
    expanded from a 0-d tensor has stride 0.  (A leaf takes an expanded gradient as its
    ``.grad`` only with the strides PyTorch's expand gives, see autograd.accumulate_grad._takes.)"""
    if type(a) is not np.ndarray:  # lazy (dask): chunked along the new axes like the data
        return _arrays.broadcast_to(a, shape)
    have = a.shape
    if have == shape:
        return a.view()  # (a new view, as PyTorch's expand to the same size)
    n = len(shape)
    strides = [0] * n
    if have:
        lead = n - len(have)
        a_strides = _layout.torch_strides(a)
        inner = a.itemsize
        for i in range(n - 1, -1, -1):
            s = shape[i]
            if i >= lead:
                stride = a_strides[i - lead] if have[i - lead] == s else 0
            else:
                stride = inner if s == 1 else 0
            strides[i] = stride
            inner = s * stride
    return np.lib.stride_tricks.as_strided(a, shape, _layout.numpy_strides(shape, strides))


_expand = Op("ExpandBackward0", _expand_fwd, jvp="linear")


@_expand.derivative
def _(ctx, grad):
    return grad.sum_to_size(ctx.input_shape)


_expand.raw_derivative(lambda ctx, g: reduce_to(g, ctx.input_shape))


@method("expand")
def expand(input, *sizes, **kw):
    if "size" in kw and not sizes:
        sizes = (kw.pop("size"),)
    kw.pop("implicit", None)  # (a tracing detail of PyTorch's: no effect)
    if kw:
        raise TypeError(f"expand() got an unexpected keyword argument '{next(iter(kw))}'")
    # (x.expand() of a 0-d x is PyTorch's missing-argument TypeError, but agrad's own calls expand a 0-d
    # value to the shape () of a 0-d target: it passes)
    sizes = _sizes(sizes)
    shape = input._data.shape
    if len(sizes) < len(shape):
        raise RuntimeError(
            f"expand({_legacy(input)}{{{list(shape)}}}, size={list(sizes)}): the number of sizes provided "
            f"({len(sizes)}) must be greater or equal to the number of dimensions in the tensor ({len(shape)})")
    lead = len(sizes) - len(shape)
    out = []
    for i in range(len(sizes) - 1, -1, -1):  # from the last dim, as ATen's infer_expand_geometry checks
        s = sizes[i]
        if i < lead:
            if s < 0:
                raise RuntimeError(
                    f"The expanded size of the tensor ({s}) isn't allowed in a leading, non-existing dimension {i}")
            out.append(s)
            continue
        cur = shape[i - lead]
        if s == -1:
            s = cur
        if cur != s and cur != 1:
            raise RuntimeError(
                f"The expanded size of the tensor ({s}) must match the existing size ({cur}) at non-singleton "
                f"dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: {list(shape)}")
        out.append(s)
    out = tuple(reversed(out))
    n = 1
    for s in out:
        n *= s
    check_numel(n)
    return _view(_expand, input, input._data, {"shape": out})


def _legacy(t):
    """The type in expand's message: the legacy name, CPUBoolType for bool (which has none in c10's table)."""
    from .._cpp_print import cpp_type_name
    return cpp_type_name(t.dtype)


@method("expand_as")
def expand_as(input, other):
    return expand(input, other.shape)


@export()
def broadcast_to(input, size):
    return expand(input, size)


@export()
def broadcast_tensors(*tensors):
    from .pointwise import broadcast_all_error
    try:
        shape = np.broadcast_shapes(*(t._data.shape for t in tensors))
    except ValueError:
        raise broadcast_all_error([t._data for t in tensors]) from None
    return tuple(t if t._data.shape == shape else expand(t, shape) for t in tensors)


@export()
def broadcast_shapes(*shapes):
    """PyTorch's Python broadcast_shapes (torch._refs._broadcast_shapes), with its errors."""
    from ..tensor import Size
    shapes = [(x,) if isinstance(x, int) else x for x in shapes if x is not None]
    for shape in shapes:
        if not isinstance(shape, (tuple, list, str)):  # (a Sequence, as PyTorch checks)
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {shape}")
    common = [1] * max((len(shape) for shape in shapes), default=0)
    for arg, shape in enumerate(shapes):
        for idx in range(-1, -1 - len(shape), -1):
            if shape[idx] == common[idx]:
                continue
            if common[idx] == 1:
                if shape[idx] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[idx] = shape[idx]
            if shape[idx] != 1 and common[idx] != shape[idx]:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {shape[idx]} at {idx}! Mismatching argument at "
                    f"index {arg} had {shape}; but expected shape should be broadcastable to {common}")
    return Size(common)


# copies and casts -------------------------------------------------------------------

def _clone_fwd(ctx, a, contiguous=False, fmt=None):
    """A copy laid out like ``a`` (PyTorch's preserve_format), in C order for ``contiguous()``, or
    in the memory format ``fmt`` ("channels_last(_3d)", ops/memory_format.py)."""
    if fmt is not None and type(a) is np.ndarray:
        return _layout.in_order(a.copy(), [0, *range(2, a.ndim), 1]) if a.ndim > 2 else a.copy()
    if contiguous or type(a) is not np.ndarray or a.size and (a.ndim < 2 and a.shape != (1,) or a.flags.c_contiguous
                                                             and 1 not in a.shape):
        return a.copy()
    out = _layout.empty_like(a)
    out[...] = a
    return out


_clone = Op("CloneBackward0", _clone_fwd, jvp="linear")
_clone.derivative(lambda ctx, grad: grad)


# (clone, contiguous and is_contiguous, which take a memory format: ops/memory_format.py)


# zero_ / fill_ / copy_ ---------------------------------------------------------------

@method("zero_")
def zero_(input):
    from ._op import inplace
    return inplace(lambda s: _zero.apply((s,), (s._data,), {}), overlap="allow")(input)


_zero = Op("ZeroBackward0", lambda ctx, a: np.zeros_like(a), jvp="linear")
_zero.derivative(lambda ctx, grad: zeros_like_grad(grad))


@method("fill_")
def fill_(input, value):
    """Fill in place: FillBackward2 for a number, FillBackward3 for a 0-d tensor (which
    then gets the summed gradient)."""
    from ._op import inplace

    if isinstance(value, Tensor):  # a 0-d tensor is copied (copy_'s check of an expanded self)
        return inplace(_fill_tensor, overlap="error" if value.ndim == 0 else "allow")(input, value)
    return inplace(lambda s, v: _fill2.apply((s,), (s._data,), {"value": v}), overlap="allow")(input, value)


def _fill_tensor(s, v):  # (the value's rank is checked after autograd's check of the write, as in PyTorch)
    if v.ndim:
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {v.ndim} dimensions.")
    return _fill3.apply((s, v), (s._data, v._data), {})


_fill2 = Op("FillBackward2", lambda ctx, a, value: np.full_like(a, dtypes.fill_scalar(value, a.dtype, a.size)),
             jvp="element_wise")
_fill2.derivative(lambda ctx, grad: zeros_like_grad(grad))
_fill3 = Op("FillBackward3", lambda ctx, a, v: np.full_like(a, dtypes.via_float(v, a.dtype)), inputs=("self", "value"),
            jvp="linear")  # (a half from a double through float32, as c10::Half is made)
_fill3.derivative(lambda ctx, grad: (zeros_like_grad(grad), grad.sum()))

def _copy_error(arrays):
    """copy_'s TensorIterator: shapes that do not broadcast, or a broadcast larger than self."""
    a, b = arrays[0].shape, arrays[1].shape
    try:
        shape = np.broadcast_shapes(a, b)
    except ValueError:
        from .pointwise import _mismatch_message
        return RuntimeError(_mismatch_message(a, b))
    return RuntimeError(f"output with shape {list(a)} doesn't match the broadcast shape {list(shape)}")


_copy = Op("CopyBackwards", lambda ctx, a, src: np.broadcast_to(src, a.shape).astype(a.dtype),
           inputs=("self", "src"), value_error=_copy_error, jvp="linear")
_copy.node._name = "torch::autograd::CopyBackwards"


@_copy.derivative
def _(ctx, grad):
    # CopyBackwards: zeros_like(grad) for self; src's gradient cast to src's dtype by the node itself
    # (grad.to(src_options)), so a broadcast src's sum comes after the cast (SumBackward1 over ToCopyBackward0)
    meta = ctx._input_meta[1]
    g_src = grad if meta is None or grad._data.dtype == meta[1].numpy else grad.to(meta[1])
    return zeros_like_grad(grad), g_src


def _wrapped_number(value, dest):
    """A Python number given for a tensor, as PyTorch's parser wraps it: a 0-d tensor of the
    number's own type (float64 for a float, not the default dtype: ``copy_(0.001)`` is
    float64's 0.001); an int past int64 is unpacked as uint64 or refused."""
    from . import factories
    if isinstance(value, bool):
        return factories.wrap(value, dtypes.bool_)
    if isinstance(value, int):
        if value >= 1 << 64:
            raise OverflowError("int too big to convert")
        if value < -(1 << 63):
            raise OverflowError("can't convert negative int to unsigned")
        if value >= 1 << 63:  # uint64: its bits as int64 for an integer destination
            return factories.wrap(float(value), dtypes.float64) if dest.is_floating_point \
                else factories.wrap(value - (1 << 64), dtypes.int64)
        return factories.wrap(value, dtypes.int64)
    if isinstance(value, float):
        return factories.wrap(value, dtypes.float64)
    return factories.tensor(value)


@method("copy_")
def copy_(input, src, non_blocking=False):
    from ._op import inplace
    if type(input._data) is ZeroArray:  # copy_'s own wording of the ZeroTensor check
        raise RuntimeError("ZeroTensors are immutable. Please materialize the tensor using `.clone()`, if you want "
                           "a mutable zero tensor.")
    if not isinstance(src, Tensor):
        src = _wrapped_number(src, input.dtype)
    elif not input.dtype.is_floating_point and src._requires_grad:
        src = src.detach()  # PyTorch records copy_ only into a differentiable dtype
    same = _same_data(input._data, src._data)  # (copy_'s early exit comes before TensorIterator's checks)
    if not input.dtype.is_floating_point and input._requires_grad:  # (an integer tensor a node gave requires_grad)
        from ..autograd import grad_mode

        with grad_mode.no_grad():  # not recorded: its history stays (copy_'s requires_grad &= isDifferentiableType)
            return inplace(lambda s, v: _copy.apply((s, v), (s._data, _layout.promote(v._data, s._data.dtype)), {}),
                           overlap="allow" if same else "error", partial=not same)(input, src)
    return inplace(lambda s, v: _copy.apply((s, v), (s._data, _layout.promote(v._data, s._data.dtype)), {}),
                   overlap="allow" if same else "error", partial=not same)(  # (TensorIterator's overlap checks)
        input, src)


def _same_data(a, b) -> bool:
    """copy_'s early exit: self and src are views of the very same elements, laid out alike."""
    from ._layout import torch_strides
    return type(a) is np.ndarray and type(b) is np.ndarray and a.dtype == b.dtype and a.shape == b.shape \
        and a.__array_interface__["data"][0] == b.__array_interface__["data"][0] and torch_strides(a) == torch_strides(b)


# narrow / unbind (used by formulas; breadth adds split, chunk, ...) ---------------------------

@export(method=True)
def narrow(input, dim, start, length):
    if isinstance(start, Tensor):  # (narrow.Tensor, the overload the parser tries first)
        if start.ndim or start.dtype._kind != 1:
            raise RuntimeError("start must be an 0-dim integral Tensor.")
        start = int(start)
    if isinstance(length, Tensor):  # (a SymInt: the parser takes a one-element integral tensor)
        length = int(length)
    if input.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:  # (before the dim's wrap, as ATen's narrow_symint)
        raise RuntimeError("narrow(): length must be non-negative.")
    d = _wrap_dim(dim, input.ndim)
    size = input._data.shape[d]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    if start < 0:
        start += size
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    # always a SliceBackward0, a full range too (PyTorch's narrow is at::slice; x[:, 0:] is an alias)
    from .indexing import _slice
    return _view(_slice, input, input._data, {"index": (slice(None),) * d + (slice(start, start + length, 1),)})


_unbind = Op("UnbindBackward0", lambda ctx, a, dim: tuple(m[i, ...] for m in (np.moveaxis(a, dim, 0),)
                                                         for i in range(m.shape[0])), outputs=None,
             multi_grad=True, jvp="linear")


@_unbind.derivative
def _(ctx, grads):
    from .joining import stack
    return stack(grads, ctx.dim)


@export(method=True)
def unbind(input, dim=0):
    d = _wrap_dim(dim, input.ndim)
    if input.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    outs = _unbind.apply((input,), (input._data,), {"dim": d})
    for o in outs:
        o._make_view_of(input, multi=True)
    return outs
