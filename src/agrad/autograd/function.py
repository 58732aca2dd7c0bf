"""Custom autograd Functions: ``class F(Function)`` with static forward/backward.

As in PyTorch, ``ctx`` *is* the graph node (its class is ``<Name>Backward``):
forward runs with grad mode off and stores what backward needs on it.
"""

from __future__ import annotations

import inspect

from . import _dual as forward_ad, graph, grad_mode
from .graph import FREED_MESSAGE, Node, SavedTensor

_fw_active = forward_ad._ACTIVE


def _tensor_type():
    from ..tensor import Tensor
    return Tensor


class FunctionCtx:
    """What ``forward`` and ``backward`` receive as ``ctx``."""

    def save_for_backward(self, *tensors):
        Tensor = _tensor_type()
        for t in tensors:
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(
                    "save_for_backward can only save variables, but argument "
                    f"{tensors.index(t)} is of type {type(t).__name__}")
        self._to_save = tensors

    def save_for_forward(self, *tensors):
        self._to_save_forward = tensors

    def mark_dirty(self, *tensors):
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = tensors

    def set_materialize_grads(self, value: bool):
        self._materialize = bool(value)

    @property
    def saved_tensors(self):
        slots = self.__dict__.get("_saved_list")
        if slots is None:
            if "_to_save" in self.__dict__ and (not isinstance(self, Node) or "_in_jvp" in self.__dict__):
                return tuple(self._to_save)
            return ()
        if self.__dict__.get("_released"):
            raise RuntimeError(FREED_MESSAGE)
        fn = getattr(type(self), "_function", None)
        if fn is not None and fn.clear_saved_tensors_on_access:
            if self.__dict__.get("_saved_accessed"):
                raise RuntimeError(
                    "saved_tensors can only be accessed once when clear_saved_tensors_on_access=True is set on the "
                    "autograd.Function. Either access saved_tensors only once, or set "
                    "clear_saved_tensors_on_access=False.")
            self._saved_accessed = True
        return tuple(None if s is None else s.unpack(self) for s in slots)

    @property
    def saved_variables(self):
        return self.saved_tensors


class BackwardCFunction(Node, FunctionCtx):
    """The node of one call of a custom Function."""

    _custom = True
    _function = None  # the Function subclass

    def apply(self, grads):
        Tensor = _tensor_type()
        if self.__dict__.get("_materialize", True):
            grads = [g if g is not None or meta is None else _zeros_like_meta(meta)
                     for g, meta in zip(grads, self._out_meta)]
        result = self._function.backward(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        n_args = len(self._is_tensor_arg)
        if len(result) != n_args:
            if len(result) > n_args and all(r is None for r in result[n_args:]):
                result = result[:n_args]
            else:
                raise RuntimeError(
                    f"function {self.name()} returned an incorrect number of gradients "
                    f"(expected {n_args}, got {len(result)})")
        out = []
        for r, is_tensor, meta in zip(result, self._is_tensor_arg, self._arg_meta):
            if not is_tensor:
                continue
            if r is not None and not isinstance(r, Tensor):
                raise TypeError(
                    f"function {self.name()} returned a gradient different than None at position "
                    f"{len(out) + 1}, but the corresponding forward input was not a Variable")
            if r is not None and meta is not None and r.shape != meta[0]:
                try:
                    r = r.sum_to_size(meta[0])
                except RuntimeError:
                    raise RuntimeError(
                        f"Function {self.name()} returned an invalid gradient at index {len(out)} - got "
                        f"{list(r.shape)} but expected shape compatible with {list(meta[0])}") from None
            out.append(r)
        return tuple(out)

    def release(self):
        self._released = True
        super().release()

    def __repr__(self):
        return f"<torch.autograd.function.{type(self).__name__} object at {id(self):#x}>"


def _zeros_like_meta(meta):
    from ..ops.factories import zeros
    shape, dtype = meta
    return zeros(shape, dtype=dtype)


class _FunctionMeta(type):
    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        cls._backward_cls = type(
            name + "Backward", (BackwardCFunction,),
            {"_name": name + "Backward", "_function": cls, "__module__": "torch.autograd.function"})


class Function(FunctionCtx, metaclass=_FunctionMeta):
    """Base class for custom differentiable operations (PyTorch's torch.autograd.Function)."""

    #: access ctx.saved_tensors only once in backward (a second access raises, as in PyTorch)
    clear_saved_tensors_on_access = False

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom autograd.Function "
            "to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with forward mode AD.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        return NotImplemented

    @classmethod
    def apply(cls, *args, **kwargs):
        Tensor = _tensor_type()
        if cls.setup_context is not Function.setup_context:  # (PyTorch binds forward's defaults then)
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        tensor_args = [a for a in args if isinstance(a, Tensor)]
        recording = graph.is_recording(tensor_args)
        ctx = cls._backward_cls()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        ctx._is_tensor_arg = tuple(isinstance(a, Tensor) for a in args)
        ctx._args = args
        # what a record hook (agrad check's replay) needs: the inputs as forward saw them
        before = [a._data.copy() if isinstance(a, Tensor) else None for a in args] if graph.record_hooks else None
        with grad_mode.no_grad():
            own_setup = cls.setup_context is not Function.setup_context
            if own_setup:
                output = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)
        single = not isinstance(output, tuple)
        outputs = (output,) if single else output
        for o in outputs:
            if o is not None and not isinstance(o, Tensor) and not isinstance(o, (int, float, bool, str)):
                raise TypeError(
                    f"{cls.__name__}.forward returned {type(o).__name__}; a custom Function's forward must "
                    "return tensors (or a tuple of them)")
        for o in outputs:  # (PyTorch's CreationMeta::IN_CUSTOM_FUNCTION: no in-place change of them)
            if isinstance(o, Tensor) and o._base is not None and o.dtype.is_floating_point:
                o._view_meta = "custom"
        if not recording:
            if _fw_active[0]:
                _set_tangents(outputs, _forward_tangents(cls, ctx, args, outputs))
            return output
        non_diff = {id(t) for t in ctx.__dict__.get("_non_differentiable", ())}
        dirty = {id(t) for t in ctx.__dict__.get("_dirty", ())}
        input_ids = {id(a) for a in tensor_args}
        wrapped = []
        diff_outputs = []
        for o in outputs:
            if not isinstance(o, Tensor):
                wrapped.append(o)
                continue
            if id(o) in input_ids and id(o) not in dirty:
                o = _alias(o)  # an input returned as is: a new tensor
            if id(o) in non_diff or not o.dtype.is_floating_point:
                wrapped.append(o)
                continue
            diff_outputs.append(o)
            wrapped.append(o)
        graph.record(ctx, [a for a in args if isinstance(a, Tensor)], diff_outputs, None,
                     (cls, before, args, kwargs))
        # backward receives one gradient per forward output (zeros for the
        # non-differentiable ones, None for non-tensors): index by position
        for pos, o in enumerate(wrapped):
            if any(o is d for d in diff_outputs):
                o._output_nr = pos
        ctx._out_meta = [(o._data.shape, o.dtype) if isinstance(o, Tensor) else None for o in wrapped]
        ctx._arg_meta = [(a.shape, a.dtype) if isinstance(a, Tensor) else None for a in args]
        saved = ctx.__dict__.pop("_to_save", None)
        if saved is not None:
            ctx._saved_list = [None if t is None else SavedTensor.of(t, f"saved_{i}", any(t is o for o in diff_outputs))
                               for i, t in enumerate(saved)]
            ctx._saved = {s.name: s for s in ctx._saved_list if s is not None}
        if _fw_active[0]:  # after recording, as PyTorch: jvp sees the outputs with their history
            _set_tangents(wrapped, _forward_tangents(cls, ctx, args, outputs))
        return wrapped[0] if single else tuple(wrapped)


def _forward_tangents(cls, ctx, args, outputs):
    """Forward mode through a custom Function: its ``jvp(ctx, *tangents)`` (one per forward input,
    None where there is none), as PyTorch requires; None when no input has a tangent."""
    tangents = [forward_ad.tangent_of(a) if isinstance(a, _tensor_type()) else None for a in args]
    if all(t is None for t in tangents):
        return None
    if cls.jvp is Function.jvp:
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with forward mode AD.")
    ctx.__dict__["_in_jvp"] = True
    try:
        with forward_ad._paused():
            res = cls.jvp(ctx, *tangents)
    finally:
        ctx.__dict__.pop("_in_jvp", None)
    res = res if isinstance(res, tuple) else (res,)
    n = sum(1 for o in outputs)
    if len(res) != n:
        raise RuntimeError(f"function {cls.__name__}_jvp returned an incorrect number of gradients (expected {n}, "
                           f"got {len(res)})")
    return res


def _set_tangents(outputs, tangents):
    if tangents is None:
        return
    Tensor = _tensor_type()
    for o, t in zip(outputs, tangents):
        if isinstance(o, Tensor) and isinstance(t, Tensor) and o.dtype.is_floating_point:
            forward_ad.set_tangent(o, t)


def _alias(t):
    from ..tensor import Tensor
    a = Tensor._make(t._data)
    a._vc = t._vc
    return a


class InplaceFunction(Function):
    def __init__(self, inplace=False):
        self.inplace = inplace


class NestedIOFunction(Function):
    pass


def once_differentiable(fn):
    """Decorator for backward: runs it with grad mode off; where grad mode is on and a gradient
    it got requires grad, its results come out behind PyTorch's DelayedError node
    (``torch::autograd::Error``), whose own backward raises."""
    import functools

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with grad_mode.no_grad():
            outputs = fn(ctx, *args)
        Tensor = _tensor_type()
        if not grad_mode.is_grad_enabled() or not any(isinstance(a, Tensor) and a.requires_grad for a in args):
            return outputs
        from ..ops.scatter_reduce import _delayed_error
        message = "trying to differentiate twice a function that was marked with @once_differentiable"
        single = not isinstance(outputs, tuple)
        wrapped = []
        for o in ((outputs,) if single else outputs):
            if isinstance(o, Tensor):
                o = o.detach().requires_grad_(True)
                o = _delayed_error.apply((o,), (o._data,), {"message": message})
            wrapped.append(o)
        return wrapped[0] if single else tuple(wrapped)

    return wrapper
