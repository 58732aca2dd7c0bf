"""Tensor: numpy data plus PyTorch's autograd state.

The class holds state and the autograd API (``backward``, ``grad``, hooks,
``requires_grad``, version counter).  Its maths — operators and methods such
as ``sin`` or ``sum`` — are attached from the op table (``agrad.ops``), so
each op lives in one place.
"""

from __future__ import annotations


import numpy as np

from . import devices as _devices
from . import dtypes
from ._arrays import KEPT as _KEPT
from ._arrays import LAZY as _LAZY
from ._limits import check_numel
from ._zero import IMMUTABLE as _ZERO_IMMUTABLE
from ._zero import ZeroArray as _ZeroArray
from .autograd import _dual as forward_ad, engine as _engine, grad_mode, inference, view_errors
from .autograd.graph import RemovableHandle, leaf_node, move_retains_grad, recording_node
from .autograd.graph import version_observers as _version_observers
from ._warn_once import warn as _warn

_ndarray = np.ndarray  # (module globals: numpy's module __getattr__ keeps 3.11 from specialising np.X)
_new_object = object.__new__

_BY_NP = dtypes._BY_NP
_NOT_LEAF_TRUE = "you can only change requires_grad flags of leaf variables."
_NOT_LEAF_FALSE = (_NOT_LEAF_TRUE + " If you want to use a computed variable in a subgraph that doesn't require "
                   "differentiation use var_no_grad = var.detach().")
_fw_active = forward_ad._ACTIVE
_mode = grad_mode._state
_InfVersion = inference.Version

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)

LEAF_INPLACE_MESSAGE = "a leaf Variable that requires grad is being used in an in-place operation."


def _can_cast(src, dst) -> bool:
    """PyTorch's canCast: what an in-place op may write into a tensor of ``dst``
    (no complex to real, no floating to integral, nothing but bool to bool)."""
    if src.is_complex and not dst.is_complex:
        return False
    if src.is_floating_point and not (dst.is_floating_point or dst.is_complex):
        return False
    return dst is not dtypes.bool_ or src is dtypes.bool_


def _has_internal_overlap(data) -> bool:
    """Whether two elements of ``data`` share memory (a stride-0 dimension of size > 1)."""
    return data.size > 1 and any(stride == 0 and size > 1 for stride, size in zip(data.strides, data.shape))


class Size(tuple):
    """torch.Size: a tuple of ints that prints as ``torch.Size([2, 3])``."""

    __slots__ = ()

    def __repr__(self):
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, item):
        r = tuple.__getitem__(self, item)
        return Size(r) if isinstance(item, slice) else r

    def __add__(self, other):  # (PyTorch's: a Size, with a tuple on the left too; and so is a repeat)
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to torch.Size")
        return Size(tuple.__add__(self, other))

    __radd__ = lambda self, other: Size(other + tuple(self)) if isinstance(other, tuple) else NotImplemented  # noqa
    __mul__ = __rmul__ = lambda self, n: (lambda r: r if r is NotImplemented else Size(r))(tuple.__mul__(self, n))  # noqa

    def __reduce__(self):  # by agrad's own name: pickle must not look up "torch.Size"
        return _make_size, (tuple(self),)


# PyTorch's class is torch.Size (type(x.shape) prints <class 'torch.Size'>). The script sandbox
# admits this class by identity (agrad.lang.safety.is_engine_class), not by its module name.
Size.__module__ = "torch"


def _make_size(items):
    return Size(items)


class Tensor:
    """A multi-dimensional array that records the operations that made it."""

    __slots__ = (
        "_data", "_requires_grad", "_grad_fn", "_output_nr", "_grad", "_accumulator",
        "_vc", "_base", "_view_meta", "_view_ver", "_retains", "_fw", "__weakref__",
    )  # _fw: the tangent inside a forward-AD dual level (unset outside: autograd.forward_ad)
    __array_priority__ = 1000  # ndarray ⊕ Tensor defers to Tensor's reflected operators

    # construction ---------------------------------------------------------
    def __new__(cls, *args, **kwargs):
        # torch.Tensor(...): the legacy constructor (default dtype, no requires_grad).
        from .ops import factories

        return factories.legacy_tensor(*args, **kwargs)

    @classmethod
    def _make(cls, data, requires_grad=False):
        """Wrap a numpy array (not copied) as a new tensor with no history."""
        if type(data) is not _ndarray:
            if type(data) in _KEPT:  # a backend's array (dask, cupy): kept, limit-checked per chunk
                return cls._make_lazy(data, requires_grad)
            if type(data) is not _ZeroArray:  # (a ZeroTensor's zeros: agrad._zero)
                data = np.asarray(data)
        t = _new_object(cls)
        size = data.size
        if size > 100_000:
            check_numel(size)
        elif not size and data.ndim:  # (an empty array carries PyTorch's strides: _layout.carried)
            from .ops._layout import carried
            data = carried(data)
        t._data = data
        t._requires_grad = requires_grad
        t._grad_fn = None
        t._output_nr = 0
        t._grad = None
        t._accumulator = None
        t._vc = [0]
        t._base = None
        t._retains = False
        if _mode["inference"]:  # an inference tensor (autograd.inference)
            t._vc = _InfVersion((0,))
        return t

    @classmethod
    def _make_lazy(cls, data, requires_grad=False):
        from ._arrays import check_chunks
        check_chunks(data)
        t = object.__new__(cls)
        t._data = data
        t._requires_grad = requires_grad
        t._grad_fn = None
        t._output_nr = 0
        t._grad = None
        t._accumulator = None
        t._vc = [0]
        t._base = None
        t._retains = False
        if _mode["inference"]:
            t._vc = _InfVersion((0,))
        return t

    # metadata ---------------------------------------------------------------
    @property
    def dtype(self) -> dtypes.dtype:
        return _BY_NP[self._data.dtype]

    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim=None):
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[self._dim_arg(dim, "size")]

    def stride(self, dim=None):
        """The step in elements between neighbours along each dim, as PyTorch lays the tensor
        out (docs/semantics.md, "In place and views")."""
        strides = _element_strides(self._data)
        return strides if dim is None else strides[self._dim_arg(dim, "stride")]

    def _dim_arg(self, dim, name):
        """size(dim) and stride(dim): PyTorch's parser takes an int or an integer 0-d tensor."""
        if type(dim) is bool or not (isinstance(dim, int) or isinstance(dim, Tensor) and dim.ndim == 0
                                      and not dim.dtype.is_floating_point and dim.dtype is not dtypes.bool_):
            raise TypeError(f"{name}(): argument 'dim' (position 1) must be int, not {type(dim).__name__}")
        dim = int(dim)
        ndim = self._data.ndim
        if ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return _wrap_dim(dim, ndim)

    def dim(self) -> int:
        return self._data.ndim

    ndimension = dim

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return int(self._data.size)

    nelement = numel

    def element_size(self) -> int:
        return self._data.itemsize

    @property
    def device(self):
        return _devices.CPU

    def get_device(self) -> int:
        return -1

    @property
    def is_cuda(self) -> bool:
        return False

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    def is_complex(self) -> bool:
        return False

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    # autograd state ------------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        if not self._requires_grad and self._base is not None and self._base._requires_grad:
            try:
                self._refresh_view()  # its base took a history in place since the view was made
            except RuntimeError:  # a view PyTorch refuses to rebase: it answers from the base
                return True
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        # PyTorch's THPVariable_set_requires_grad: a bool, a leaf (either way), a float dtype
        if type(value) is not bool:
            raise RuntimeError("requires_grad must be a bool")
        if self._grad_fn is not None:
            raise RuntimeError(_NOT_LEAF_TRUE if value else _NOT_LEAF_FALSE)
        if value and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        inference.check_requires_grad(self, value)
        self._requires_grad = value

    def _new_requires_grad(self):
        """A new tensor made to require grad (factories' requires_grad=True, Parameter, Variable)."""
        if not self.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        inference.check_requires_grad(self, True)
        self._requires_grad = True
        return self

    def requires_grad_(self, requires_grad=True):
        if type(requires_grad) is not bool:
            from .ops._pyargs import tp_name

            raise TypeError("requires_grad_(): argument 'requires_grad' (position 1) must be bool, not "
                            + tp_name(requires_grad))
        if self._grad_fn is not None:
            if requires_grad:
                return self
            raise RuntimeError(_NOT_LEAF_FALSE)
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        inference.check_requires_grad(self, requires_grad)
        self._requires_grad = requires_grad
        return self

    @property
    def grad_fn(self):
        if self._base is not None:
            self._refresh_view()
        return self._grad_fn

    # views ------------------------------------------------------------------------
    def _make_view_of(self, input, multi=False):
        """Mark this tensor as a view of ``input``'s data (sharing its version counter).

        Also how PyTorch will judge an in-place change to it (its CreationMeta):
        ``"no_grad"`` for a view made with grad mode off, ``"multi"`` for an output
        of split/chunk/unbind (and views of it), ``"custom"`` for a view a custom Function
        returned (and views of it), else None."""
        base = input if input._base is None else input._base
        self._base = base
        self._vc = input._vc
        self._view_ver = input._vc[0]  # PyTorch's attr_version: a change since makes a new grad_fn
        prev = input._view_meta if input._base is not None else None
        if not _mode["enabled"]:  # (PyTorch's propagate_creation_meta: a view of an inference mode view is one)
            self._view_meta = "inference" if _mode["inference"] or prev == "inference" else "no_grad"
            if base._requires_grad:  # PyTorch: a leaf that requires grad, as its base does
                self._requires_grad = True
        elif multi and prev != "inference":
            self._view_meta = "multi"
        else:
            self._view_meta = prev

    def _refresh_view(self):
        """A view whose data changed in place since its grad_fn was made (through itself, its
        base or another view, with grad mode on or off: the shared version counter moved) is
        differentiated through the base, as PyTorch does (AsStridedBackward0); PyTorch refuses
        this for a view made in no_grad mode or by a multi-output op (split, unbind, ...)."""
        base = self._base
        if not base._requires_grad and self._grad_fn is None:
            return  # (a view with a grad_fn of a base detached in place since is regenerated too)
        if self._vc[0] != self._view_ver:
            if self._view_meta is not None:
                view_errors.check_rebase(self)
            from .ops.inplace_view import regenerate_view
            regenerate_view(self)

    @property
    def is_leaf(self) -> bool:
        if self._base is not None and self._base._requires_grad:
            self._refresh_view()
        return self._grad_fn is None

    @property
    def grad(self):
        if self._grad_fn is not None and not self._retains and self._grad is None:
            _warn(NON_LEAF_GRAD_WARNING, UserWarning)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type {type(value).__name__}")
            if value.dtype is not self.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_scalar_name(value.dtype)}' to a "
                    f"tensor with dtype '{_scalar_name(self.dtype)}'. Please ensure that the gradient "
                    "and the tensor have the same dtype"
                )
            if value.shape != self.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of size "
                    f"'{list(self.shape)}'. Please ensure that the gradient and the tensor are the same size"
                )
        self._grad = value

    @grad.deleter
    def grad(self):
        self._grad = None

    @property
    def _version(self) -> int:
        return self._vc[0] if type(self._vc) is list else inference.version(self)

    @property
    def output_nr(self) -> int:
        return self._output_nr

    @property
    def retains_grad(self) -> bool:
        return self._retains

    def retain_grad(self) -> None:
        if not (self._requires_grad or self._base is not None and self._base._requires_grad):
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        # (a view whose base took a history in place after it was made, its grad_fn not read
        # since, has none yet: PyTorch's is_leaf() reads that field and nothing is retained)
        if self._grad_fn is None or self._retains:
            return
        import weakref

        self._grad_fn._retain(self._output_nr, weakref.ref(self))
        self._retains = True

    def register_hook(self, hook):
        """Run ``hook(grad)`` when this tensor's gradient is computed; it may return a new one."""
        if self._base is not None:
            self._refresh_view()
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        node = self._grad_fn if self._grad_fn is not None else leaf_node(self)
        hooks = node._tensor_hooks(self._output_nr)
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        return handle

    def register_post_accumulate_grad_hook(self, hook):
        """Run ``hook(self)`` after backward accumulates into this leaf's ``.grad``."""
        from .autograd.accumulate_grad import register_post_accumulate_grad_hook
        return register_post_accumulate_grad_hook(self, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute the gradient of this tensor w.r.t. the graph leaves (accumulated into .grad)."""
        _engine.backward(self, gradient, retain_graph, create_graph, inputs)

    # views outside the graph ------------------------------------------------------
    def detach(self):
        t = Tensor._make(self._data)
        t._vc = inference.detached_version(self)  # a detached tensor shares data and version counter
        return t

    def detach_(self):
        if self._base is not None:  # any view, whatever its base (PyTorch's is_view check)
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
                "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of "
                "DDP buckets, and hence detach_() cannot be called on these gradients. To fix this error, "
                "please refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        if self._grad_fn is not None:  # (a saved input's formula raises PyTorch's error: autograd._detached)
            from .autograd._detached import mark
            mark(self)
        self._grad_fn = None
        self._output_nr = 0
        self._requires_grad = False
        return self

    @property
    def data(self):
        t = Tensor._make(self._data)  # shares storage; its own version counter, as in PyTorch
        t._vc = inference.detached_version(t if type(self._vc) is list else self)
        return t

    @data.setter
    def data(self, value):
        if not isinstance(value, Tensor):
            raise TypeError("data must be a Tensor")
        self._data = value._data
        if self._grad_fn is not None:  # (its node keeps the shape it recorded: autograd._resized)
            from .autograd import _resized
            _resized.note(self)

    def _own(self):
        """This tensor if nothing else holds its array, else a copy (for .grad)."""
        return self if self._base is None else Tensor._make(self._data.copy())

    def _add_inplace_raw(self, other):
        """self += other (an array) on the data, outside autograd (gradient accumulation); into
        the memory of a view too, as PyTorch's ``variable_grad += new_grad`` (a view of the caller's
        ``gradient=`` that the leaf took, see ``accumulate_grad._takes``)."""
        data = self._data
        if type(data) is not np.ndarray or not data.flags.writeable \
                or (data.base is not None and 0 in data.strides and _has_internal_overlap(data)):
            if type(data) is _ZeroArray:  # AccumulateGrad's ``grad += new`` on a ZeroTensor
                raise RuntimeError(_ZERO_IMMUTABLE)
            self._data = data + other
        else:
            np.add(self._data, other, out=self._data, casting="unsafe")
        self._vc[0] += 1

    # in-place machinery -----------------------------------------------------------
    def _check_inplace(self, recorded: bool, overlap: str = "error"):
        """PyTorch's errors for an in-place change that autograd cannot allow.

        ``recorded``: the change will be recorded in the graph (grad mode on, and
        this tensor or an argument requires grad). ``overlap``: what a write into
        a tensor whose elements share memory (an expanded view) does, as in
        PyTorch: ``"error"`` (TensorIterator's check), ``"allow"`` (fill_,
        zero_) or the op's name, which warns that this use is deprecated
        (index_put_, masked_fill_, index_fill_)."""
        if grad_mode._state["enabled"]:
            base = self._base
            if recorded and base is not None and self._view_meta is not None:
                view_errors.check_view_meta(self)
            if self._requires_grad and self._grad_fn is None:
                raise RuntimeError(LEAF_INPLACE_MESSAGE)
            if recorded and base is not None and base._grad_fn is None and (base._requires_grad or self._grad_fn is not None):
                raise RuntimeError(
                    "a view of a leaf Variable that requires grad is being used in an in-place operation.")
        data = self._data
        if type(data) is not np.ndarray:  # lazy (dask): an in-place op gives it a new lazy value
            if type(data) is _ZeroArray:
                raise RuntimeError(_ZERO_IMMUTABLE)
            return
        if data.ndim and 0 in data.strides and _has_internal_overlap(data):
            if overlap == "error":
                raise RuntimeError(
                    "unsupported operation: more than one element of the written-to tensor refers to a single "
                    "memory location. Please clone() the tensor before performing the operation.")
            if overlap != "allow":
                what = "tensor[indices] = tensor" if overlap == "index_put_" else "tensor[mask] = scalar"
                _warn(
                    f"Use of {overlap} on expanded tensors is deprecated. Please clone() the tensor before "
                    f"performing this operation. This also applies to advanced indexing e.g. {what}",
                    UserWarning)
        if not data.flags.writeable and self._base is None:
            # a read-only array that no other tensor shares (numpy's broadcast of a
            # gradient, say): PyTorch's tensor would be writable, so own the memory
            self._data = data.copy()

    def _snapshot(self):
        """A copy of this tensor at its current place in the graph (the value in-place ops save)."""
        if self._base is not None:
            self._refresh_view()
        # (in its own layout: an op on it, a random fill, visits the memory in PyTorch's order)
        data = self._data
        t = Tensor._make(data.copy(order="K") if type(data) is np.ndarray else data.copy(), self._requires_grad)
        t._grad_fn = self._grad_fn
        t._output_nr = self._output_nr
        if self._grad_fn is None and self._requires_grad:
            t._accumulator = recording_node(self)  # (t holds it: no cycle)
        if _fw_active[0]:
            tangent = forward_ad.tangent_of(self)
            if tangent is not None:
                forward_ad.set_tangent(t, tangent)
        return t

    def _write(self, result):
        """Take ``result``'s value and history in place (the second half of every in-place op)."""
        self._write_data(result)
        if _fw_active[0]:
            forward_ad.write_tangent(self, result)
        if result._grad_fn is not None:
            old_fn, old_nr = self._grad_fn, self._output_nr
            self._grad_fn = result._grad_fn
            self._output_nr = result._output_nr
            self._requires_grad = True
            if self._retains:
                move_retains_grad(self, old_fn, old_nr)
            # Saved references to the temporary result now mean this tensor.
            node = self._grad_fn
            saved = node._saved
            if saved:
                for s in saved.values():
                    t = s.tensor
                    if t is result:
                        s.tensor = self
                        s.version = self._vc[0]
                        s._meta = None  # (taken from this tensor when freed)
                    elif s.is_output and t is not None and t._vc is result._vc:  # the output's stand-in
                        node.__dict__[s.name] = s.retarget(self)
        return self

    def _write_data(self, result):
        """Copy ``result``'s values into this tensor's data, with PyTorch's checks; new version."""
        data = result._data
        if data.shape != self._data.shape:  # (TensorIterator's shapes come before its dtypes)
            try:
                np.broadcast_to(data, self._data.shape)
            except ValueError:
                raise RuntimeError(
                    f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(result.shape)}"
                ) from None
        if data.dtype != self._data.dtype:
            if not _can_cast(result.dtype, self.dtype):
                raise RuntimeError(
                    f"result type {_scalar_name(result.dtype)} can't be cast to the desired output "
                    f"type {_scalar_name(self.dtype)}"
                )
        target = self._data
        if type(target) is _ZeroArray:
            raise RuntimeError(_ZERO_IMMUTABLE)
        if type(target) is not np.ndarray:  # lazy (dask) data is immutable: it takes a new lazy value
            self._data = np.broadcast_to(data, target.shape).astype(target.dtype)
        elif 0 in target.strides and _has_internal_overlap(target):
            # elements share memory (a write through an expanded view, which PyTorch
            # allows for fill_ and index_put_): write only what the op changed
            data = np.broadcast_to(data, target.shape).astype(target.dtype, copy=False)
            if target.dtype.kind == "f":  # (by bits: a signed zero or a NaN's sign is a change too)
                bits = np.dtype(f"u{target.dtype.itemsize}")
                changed = target.view(bits) != data.view(bits)
            else:
                changed = target != data
            target[changed] = data[changed]
        else:
            target[...] = data
        self._vc[0] += 1
        if _version_observers:
            for obs in _version_observers:
                obs(self)

    # conversions ------------------------------------------------------------------
    def _values(self):
        """The data as a numpy array: lazy (dask) data is computed, and kept; a device's
        (cupy) is copied to the host."""
        kind = type(self._data)
        if kind in _KEPT:
            from . import _arrays
            if kind not in _LAZY:
                return _arrays.host(self._data)
            _arrays.compute([self])
        return self._data

    def item(self):
        if self._data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._values().reshape(()).item()

    def tolist(self):
        if type(self._data) is _ZeroArray:
            from ._zero import TOLIST
            raise RuntimeError(TOLIST)
        return self._values().tolist()

    def _is_zerotensor(self):
        """Whether this is a ZeroTensor (agrad._zero: sgn's gradient, for one)."""
        return type(self._data) is _ZeroArray

    def numpy(self, *, force=False):
        if self._requires_grad and not force:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        if type(self._data) is _ZeroArray:
            if not force:
                from ._zero import NUMPY
                raise RuntimeError(NUMPY)
            return self._data.copy()
        return self._values()

    def __array__(self, dtype=None, copy=None):
        data = self._values()
        if type(data) is _ZeroArray:
            data = data.copy()
        return data if dtype is None else data.astype(dtype)

    def __float__(self):
        if self._requires_grad:
            _warn_scalar_conversion()
        return float(self._scalar("float"))

    def __complex__(self):
        if self._requires_grad:
            _warn_scalar_conversion()
        return complex(self._scalar("complex"))

    def __int__(self):
        return int(self._scalar("int"))

    def __index__(self):
        if self.dtype.is_floating_point or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._values().reshape(()))

    def __bool__(self):
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous" if self._data.size == 0
                               else "Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._values().reshape(()))

    def _scalar(self, what):
        if self._data.size != 1:
            raise ValueError(f"only one element tensors can be converted to Python scalars")
        return self._values().reshape(()).item()

    def __hash__(self):
        return id(self)

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._data.shape[0]))

    def __reversed__(self):
        """PyTorch's: ``self.flip(0)`` (a tensor, FlipBackward0), a 0-d tensor itself."""
        return self if self._data.ndim == 0 else self.flip(0)

    def __contains__(self, item):
        return bool((self == item).any())

    # printing ------------------------------------------------------------------------
    def __repr__(self, *, tensor_contents=None):
        from . import printing

        try:
            fn = self.grad_fn
            name = type(fn).__name__ if fn is not None else None
        except RuntimeError:  # a view PyTorch refuses to rebase: its repr says so
            fn, name = None, "Invalid"
        tangent = forward_ad.tangent_of(self) if forward_ad._LEVEL[0] is not None else None
        return printing.tensor_repr(
            self._values(), self.dtype.name,
            requires_grad=self._requires_grad and name is None,
            grad_fn=name,
            default_dtype=dtypes.get_default_dtype().name,
            tangent=None if tangent is None else format(tangent, ""),
        )

    __str__ = __repr__

    def __format__(self, spec):
        # as PyTorch: a 0-d tensor formats as its Python number (f"{loss:.4f}", and f"{loss}" too);
        # any other tensor only with an empty spec (its str)
        if self._data.ndim == 0:
            return format(self._values().item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return str(self)


def device(spec="cpu", index=None):
    """The device a tensor may be placed on (agrad.devices.check): the CPU, or PyTorch's error."""
    return _devices.check(spec if index is None else _devices.device(spec, index))


_SCALAR_NAMES = {
    "float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
    "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
}


def _warn_scalar_conversion() -> None:
    """PyTorch's warning (once per process) when ``float()``/``complex()`` reads a tensor that requires grad
    with grad mode on (LBFGS's float(closure()) under no_grad does not warn).

    ``int()``, ``bool()``, ``__index__`` and ``item()`` do not give it."""
    if not grad_mode._state["enabled"]:
        return
    from ._warn_once import warn_once
    warn_once("Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
              "Consider using tensor.detach() first.", UserWarning)


def _scalar_name(d) -> str:
    return _SCALAR_NAMES[d.name]


def _element_strides(data) -> tuple:
    if type(data) is np.ndarray or type(data) is _ZeroArray:
        from .ops._layout import torch_strides  # (a ZeroTensor has its strides; an empty array carries them)
        return tuple(s // data.itemsize for s in torch_strides(data))
    strides, step = [], 1  # lazy arrays: contiguous
    for n in reversed(data.shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def _wrap_dim_no_scalar(dim, ndim):
    """_wrap_dim for ops that take no dim of a 0-d tensor (maybe_wrap_dim with wrap_scalar=False)."""
    if ndim == 0:
        raise IndexError(f"Dimension specified as {int(dim)} but tensor has no dimensions")
    return _wrap_dim(dim, ndim)


def _dim_int(dim):
    """A dim given as other than an int: a float (or float tensor) or a str is the parser's error (the
    wrapper's). (A bool tensor, numpy's bool stay: an int list's elements, which come here too, take them.)"""
    if isinstance(dim, (float, str)) or isinstance(dim, Tensor) and dim.dtype.is_floating_point:
        raise TypeError(f"dim {dim!r} is not an int")
    return int(dim)


def _wrap_dim(dim, ndim):
    """A possibly negative dim as an index, with PyTorch's IndexError."""
    if type(dim) is not int:
        dim = _dim_int(dim)
    n = max(ndim, 1)
    if dim < -n or dim >= n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim + n if dim < 0 else dim
