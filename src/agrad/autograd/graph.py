"""The autograd graph: nodes, saved tensors, hooks, and the one recording point.

A node is made for each differentiable op that ran on a tensor requiring
grad while grad mode was on.  Its class is named as PyTorch names it
(``MulBackward0``); ``next_functions`` points at the nodes of its inputs.
Leaves that require grad hang from an :class:`AccumulateGrad` node that
adds arriving gradients into ``.grad``.
"""

from __future__ import annotations

import itertools
import weakref
from weakref import ref as _weakref

from . import grad_mode
from .hooks import STRANDED_RETAIN, NodeHook, RemovableHandle, _HookDict  # noqa: F401 (imported from here by tensors, nodes, modules, ops)
from .saved_hooks import (_HOOKS_DISABLED, _PACK_HOOKS, disable_saved_tensors_hooks,  # noqa: F401 (torch.autograd.graph's)
                          save_on_cpu, saved_tensors_hooks)
from ._detached import DETACHES as _DETACHES, check as _check_detached, detached as _detached
from ._dual import _LEVEL as _DUAL_LEVEL
from .node_attrs import NodeAPI, pack_order as _pack_order, unpack_key as _unpack_key
from ..dtypes import _BY_NP, dtype as _DTYPE
from .inference import SEEN as _INFERENCE_SEEN, check_saved as _check_inference

_sequence = itertools.count()
_state = grad_mode._state

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)

_LEGACY_TYPE = {"float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor", "int64": "LongTensor",
                "int32": "IntTensor", "int16": "ShortTensor", "int8": "CharTensor", "uint8": "ByteTensor", "bool": "BoolTensor"}


_NOT_PACKED = object()


class SavedTensor:
    """A tensor kept for backward, with the version it had when saved.

    Under ``torch.autograd.graph.saved_tensors_hooks`` the tensor is handed to the pack
    hook when saved and only what it returned is kept; every unpack calls the unpack
    hook and gives a new tensor with the saved tensor's autograd identity (as
    PyTorch's SavedVariable does; no version check then, as in PyTorch).
    """

    # No __slots__: what most saved tensors never set keeps its class default, and an
    # instance stores only what it set (CPython keeps those values inline, no dict object).
    is_output = False
    late = False  # a kept output that is not differentiable (sort's indices): see save_extra
    freed = False
    _output = None  # a weak reference to the saved output, while it lives
    _meta = None  # (shape, dtype): recorded with the node's metadata, or taken when the tensor is let go
    packed = _NOT_PACKED
    _unpack = None
    _identity = None
    _view_fn = None  # the view an in-place op on a view saved (save_view)
    _history = None  # a saved input's grad_fn when saved (None: a leaf): autograd._detached
    _leaf_node = None  # a packed leaf's AccumulateGrad (a weak reference)

    # (no __init__: the recording makes a slot with SavedTensor() and sets its fields, which a
    # class without one makes without calling Python code)

    @classmethod
    def of(cls, tensor, name: str, is_output: bool):
        """The slot of ``tensor`` saved as ``name`` (``is_output``: an output of the node)."""
        # A saved output is kept as a second tensor object on the same data and version
        # counter, without history (as PyTorch's SavedVariable does): the output itself would
        # point back at the node, a reference cycle that only the garbage collector frees.
        # A weak reference finds the output while it lives (its forward-AD tangent, identity).
        self = cls()
        if _INFERENCE_SEEN[0]:  # (PyTorch's SavedVariable refuses an inference tensor)
            _check_inference(tensor)
        self.name = name
        if is_output:
            self.is_output = True
            if tensor._base is None:
                self._output = weakref.ref(tensor)
                tensor = _linked(tensor, None)
        else:
            self._history = tensor._grad_fn
        self.tensor = tensor
        self.version = tensor._vc[0]
        if _PACK_HOOKS:
            pack, self._unpack = _PACK_HOOKS[-1]
            self._meta = (tuple(tensor._data.shape), tensor.dtype)
            # requires_grad, grad_fn (None for outputs: the node itself), output_nr
            self._identity = (tensor._requires_grad, None if is_output else tensor._grad_fn, tensor._output_nr)
            if not is_output and tensor._requires_grad and tensor._grad_fn is None:  # (a leaf: PyTorch's
                self._leaf_node = _weakref(recording_node(tensor))  # SavedVariable's grad_accumulator_)
            self.tensor = None
            self.packed = pack(tensor)
        return self

    @property
    def meta(self):
        """(shape, dtype) of the saved tensor, also after it was freed."""
        meta = self._meta
        if meta is None:
            return (tuple(self.tensor._data.shape), self.tensor.dtype)
        shape, dtype = meta
        return meta if type(dtype) is _DTYPE else (shape, _BY_NP[dtype])  # (free() keeps numpy's)

    def unpack(self, node):
        """The saved tensor, checked against its version; a saved output comes back with
        ``node`` as its ``grad_fn`` (what a formula under ``create_graph`` differentiates)."""
        if self.packed is not _NOT_PACKED:
            return self._unpack_hooked(node)
        t = self.tensor
        if t is None:
            raise RuntimeError(FREED_MESSAGE)
        if t._vc[0] != self.version:
            self._stale(node, t)
        if self._view_fn is not None:  # the view an in-place op saved (see save_view)
            return _linked(t, self._view_fn() or node)
        if self._output is not None:
            out = self._output()
            if out is not None and out._grad_fn is node and out._data is t._data and (
                    not _state["enabled"] or _DUAL_LEVEL[0] is not None):
                # the output itself, while it lives and is still this node's, unless a formula under
                # create_graph may save it: a new object then (PyTorch's), whose grad_fn stays this
                # node when an in-place op later rebases the output (the saved input's error names it)
                return out
            out = _linked(t, node)
            fw = getattr(t, "_fw", None)  # the output's forward-AD tangent (agrad.autograd._dual)
            if fw is not None:
                from ._dual import set_tangent
                set_tangent(out, fw)
            return out
        return t

    def _stale(self, node, t):
        now = t._vc[0]
        if now != self.version:
            kind = "CPUBoolType" if t.dtype.name == "bool" else "torch." + _LEGACY_TYPE.get(t.dtype.name, "Tensor")
            dims = ", ".join(str(s) for s in t.shape)
            where = ""
            fn = (self._view_fn() or node) if self._view_fn is not None else node if self.is_output else t.grad_fn
            if fn is not None:
                short = forward_op_name(fn.name())
                where = f", which is output {t._output_nr} of {short},"
            err = RuntimeError(
                "one of the variables needed for gradient computation has been modified by an "
                f"inplace operation: [{kind} [{dims}]]{where} is at version {now}; expected "
                f"version {self.version} instead. Hint: enable anomaly detection to find the "
                "operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False)."
            )
            err.agrad_stale = (node, self.name, self.version, t)  # for tools: which slot, which tensor
            raise err

    def _unpack_hooked(self, node):
        if self.freed:
            raise RuntimeError(FREED_MESSAGE)
        data = self._unpack(self.packed)
        if type(data).__name__ not in ("Tensor", "Parameter", "Buffer") or not hasattr(data, "_data"):
            raise TypeError(f"Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                            f"{type(data).__name__}")
        requires_grad, grad_fn, output_nr = self._identity
        out = type(data)._make(data._data) if type(data).__name__ == "Tensor" else _plain(data)
        out._vc = data._vc
        out._requires_grad = requires_grad
        out._grad_fn = node if self.is_output else grad_fn
        out._output_nr = output_nr
        if self._leaf_node is not None:
            out._accumulator = self._leaf_node
        return out

    def output_alias(self, node):
        """``node._saved_result``: a new tensor object for the saved output (PyTorch does not hand
        back the output itself, which would make a reference cycle), with its data and history."""
        t = self.unpack(node)
        if self.packed is not _NOT_PACKED:
            return t
        return _linked(t, t._grad_fn)

    def save_view(self, view):
        """An in-place op on a view saved its result: PyTorch's SavedVariable then keeps the view's
        grad_fn after the rebase (AsStridedBackward0) by a weak reference; unpacked, the result
        has that grad_fn while something else keeps it alive, else the op's own node."""
        self._output = None
        self._meta = None
        self.tensor = _alias(view)
        self.version = view._vc[0]
        self._view_fn = weakref.ref(view._grad_fn)
        self.is_output = True  # unpacked with its history under create_graph

    def retarget(self, output):
        """An in-place op's output took the place of the temporary one saved: ``output`` now."""
        self._output = weakref.ref(output)
        self._meta = None
        self.tensor = _alias(output)
        self.version = output._vc[0]
        return self.tensor

    def free(self):
        t = self.tensor
        if t is not None and self._meta is None:
            data = t._data
            self._meta = (data.shape, data.dtype)
        self.tensor = self._history = None  # (PyTorch's reset_data: the saved input and its history go)
        if self.packed is not _NOT_PACKED:
            self.packed = None
        self.freed = True


class _Kept:
    """What a :class:`SavedNumber` has for a tensor until freed: a version that never moves."""

    __slots__ = ()
    _vc = (0,)


_KEPT = _Kept()


class SavedNumber:
    """A Python number an op was given where it saves a tensor (``other`` of ``x * 2``).

    PyTorch wraps the number in a 0-d tensor and saves that, so it is freed with the
    graph: a second backward through the node fails like one through a saved tensor, and
    ``node._saved_other`` is ``tensor(2)``.  The formula reads the number itself (an
    attribute of the node, as the op set it); the slot keeps it for ``_saved_<name>``.
    """

    __slots__ = ("number", "tensor", "name", "freed")
    version = 0
    is_output = False
    packed = _NOT_PACKED
    _output = None

    # (no __init__, as SavedTensor)

    @classmethod
    def of(cls, number, name: str):
        self = cls()
        self.number = number
        self.tensor = _KEPT
        self.name = name
        self.freed = False
        return self

    def _wrapped(self):
        """The 0-d tensor PyTorch saved: bool, int64, float64 or complex128 (also for numpy scalars)."""
        from ..tensor import Tensor
        import numpy as np

        v = self.number
        if type(v) is tuple:  # getitem's numpy index (kept only to be freed): its first index array
            v = next((i for i in v if isinstance(i, np.ndarray)), np.zeros(0, np.int64))
        kind = np.asarray(v).dtype.kind
        dtype = {"b": np.bool_, "i": np.int64, "u": np.int64, "f": np.float64}.get(kind, np.complex128)
        return Tensor._make(np.asarray(v, dtype=dtype))

    @property
    def meta(self):
        w = self._wrapped()
        return ((), w.dtype)

    def unpack(self, node):
        if self.tensor is None:
            raise RuntimeError(FREED_MESSAGE)
        return self.number

    def free(self):
        self.tensor = None
        self.freed = True


def forward_op_name(name: str) -> str:
    """PyTorch's Node::forward_op_name: ``ExpBackward0`` -> ``Exp``, ``PowBackward2`` -> ``Pow2``."""
    head, sep, number = name.rpartition("Backward")
    if not sep or not number.isdigit() and number:
        return name
    return head if number in ("", "0") else head + number


def _plain(t):
    from ..tensor import Tensor
    return Tensor._make(t._data)


def _linked(t, grad_fn):
    """A new tensor object on ``t``'s data and version counter, with ``grad_fn``
    (None: a saved output's stand-in, without history).  Made field by field: this
    runs for every recorded op that saves its output."""
    out = _new(type(t))
    out._data = t._data
    out._requires_grad = t._requires_grad
    out._grad_fn = grad_fn
    out._output_nr = t._output_nr
    out._grad = out._accumulator = out._base = None  # (_view_*: set for views only)
    out._vc = t._vc
    out._retains = False
    return out


def saved_property(name: str) -> property:
    """``node._saved_<name>``: the saved tensor (checked against its version; through the
    unpack hook if one packed it); a saved output is a new tensor object with its history."""

    def get(node):
        slot = node._saved.get(name) if node._saved else None
        if slot is None:  # not kept for this call (no input that needs it requires grad): PyTorch's
            return None   # undefined SavedVariable reads as None
        if type(slot) is SavedNumber:
            slot.unpack(node)  # freed?
            return None if slot.number is None else slot._wrapped()  # an optional tensor not given: None
        return slot.output_alias(node) if slot.is_output else slot.unpack(node)

    get.__name__ = "_saved_" + name
    return property(get)


def _alias(t):
    """A saved output's stand-in: the same data and version counter, no history."""
    return _linked(t, None)


_new = object.__new__


class Node(NodeAPI):
    """A backward function in the graph (PyTorch's ``torch.autograd.graph.Node``)."""

    _name = "Node"
    #: True for nodes whose formula needs the graph of its inputs (custom Functions).
    _custom = False
    # an op's backward formula on arrays (see agrad.ops._op.OpNode.apply_raw); a node that is
    # watched (hooks, retain_grad) sets None of its own: the engine reads this one attribute
    # (a class attribute costs CPython 3.11 a generic lookup each time, two cost twice that)
    _raw = None
    # Rarely set state lives on the class until a node sets its own.
    next_functions = ()
    _saved = None  # dict name -> SavedTensor
    _pre_hooks = None  # tensor hooks by output index: {idx: _HookDict}; -1: node pre-hooks
    _hooks = None  # node post hooks
    _retained = None  # {output index: weakref to the tensor that retains grad}
    _watched = False  # True once any of the three above was set: the engine's one test
    # an elementwise op's node whose array formula's results (of the gradient's shape) PyTorch lays
    # out as the gradient, its kernels' first operand (grad * f'(x)): the engine re-lays numpy's
    _grad_first = False
    _input_meta = ()  # (shape, dtype) per input, None where no grad flows
    _out_meta = ()  # (shape, dtype) per output

    def __init__(self):
        self._seq = next(_sequence)

    # PyTorch's API -------------------------------------------------------
    def name(self) -> str:
        return self._name

    @property
    def metadata(self) -> dict:
        md = self.__dict__.get("_metadata")
        if md is None:
            md = self.__dict__["_metadata"] = {}
        return md

    def _retain(self, index: int, ref) -> None:
        """Keep the gradient of output ``index`` in the tensor ``ref`` (a weak reference) points at."""
        if self._retained is None:
            self._retained = {}
            self._watched = True
            self._raw = None  # (the engine's one test: no array formula for a watched node)
        self._retained[index] = ref

    def register_hook(self, fn):
        """fn(grad_inputs, grad_outputs) runs after this node; may return new grad_inputs."""
        if self._hooks is None:
            self._hooks = _HookDict()
            self._watched = True
            self._raw = None  # (the engine's one test: no array formula for a watched node)
        handle = RemovableHandle(self._hooks)
        self._hooks[handle.id] = fn
        return handle

    def register_prehook(self, fn):
        """fn(grad_outputs) runs before this node; may return new grad_outputs."""
        hooks = self._tensor_hooks(-1)
        handle = RemovableHandle(hooks)
        hooks[handle.id] = fn
        return handle

    def __call__(self, *grads):
        return self.apply(list(grads))

    def __repr__(self):
        return f"<{type(self).__name__} object at {id(self):#x}>"

    # saved tensors ------------------------------------------------------
    # A formula reads its saved tensors as plain attributes (node.self, node.result): set
    # when the op is recorded, checked (or unpacked by a hook) by _unpack_saved before the
    # formula runs.  PyTorch's public spelling node._saved_self is a property of the op's
    # node class (saved_property).  Node has no __getattr__: a class with one has every
    # attribute read go through it, never through CPython's specialised fast path.

    def saved_tensors_info(self):
        """(name, shape, dtype, version, freed) for each saved tensor, for the graph view."""
        out = []
        for s in (self._saved or {}).values():
            shape, dtype = s.meta
            out.append((s.name, tuple(shape), dtype.name, s.version, s.freed))
        return out

    def _unpack_saved(self, link: bool) -> bool:
        """Before a formula reads its saved tensors as plain attributes: each checked once
        against its version (PyTorch's error; or the unpack hook).  With ``link``, a saved
        output is handed over with this node as its history (what a formula under
        create_graph, or in a dual level, differentiates through), for one call only:
        True when one was; :meth:`_unlink_saved` puts the stand-ins back (no lasting cycle)."""
        linked = False
        for slot in self._saved.values():
            t = slot.tensor
            if t is None or t._vc[0] != slot.version or _DETACHES[0] and _detached(self, slot):
                if t is not None:  # a changed or detached tensor (an error): PyTorch unpacks, and checks, by name
                    slot = min((s for s in self._saved.values() if s.tensor is not None and (
                        s.tensor._vc[0] != s.version or _DETACHES[0] and _detached(self, s))), key=_unpack_key(self))
                    _check_detached(self, slot)  # (checked before the version)
                value = slot.unpack(self)
                setattr(self, slot.name, value._data if slot.late else value)
            elif link and slot.is_output:
                setattr(self, slot.name, slot.unpack(self))
                linked = True
        return linked

    def _unlink_saved(self) -> None:
        for slot in self._saved.values():
            if slot.is_output and slot.tensor is not None:
                setattr(self, slot.name, slot.tensor)

    def release(self) -> None:
        """Free saved tensors after a backward pass that does not retain the graph."""
        saved = self._saved
        if saved:
            for s in saved.values():
                s.free()
                try:
                    delattr(self, s.name)
                except AttributeError:
                    pass

    def _tensor_hooks(self, index: int):
        if self._pre_hooks is None:
            self._pre_hooks = {}
            self._watched = True
            self._raw = None  # (the engine's one test: no array formula for a watched node)
        hooks = self._pre_hooks.get(index)
        if hooks is None:
            hooks = self._pre_hooks[index] = _HookDict()
        return hooks

    # the backward formula -------------------------------------------------
    def apply(self, grads):
        """Gradients for each input from the gradients of each output."""
        raise NotImplementedError


class AccumulateGrad(Node):
    """The node of a leaf that requires grad: adds arriving gradients into ``.grad``.

    It holds its leaf, as PyTorch's does: a graph keeps the leaves it reaches alive, so a
    backward pass through a graph whose leaf the script no longer names still adds into
    that leaf's ``.grad`` (which may be a view of a ``gradient=`` the caller passed and still
    holds).  The leaf holds its node weakly, as PyTorch's does (``_accumulator`` is a weak
    reference): a graph and its leaves are freed by reference counts, with no cycle for the
    collector to find (a leaf made and used in each run of a loop left three objects of
    cyclic garbage a run).  Once the node holds state of the leaf's (a tensor hook: PyTorch
    keeps those on the tensor; :func:`leaf_node`), the leaf holds it strongly: the pair is
    then a cycle, freed by the cycle collector."""

    _name = "torch::autograd::AccumulateGrad"
    _dir_extra = ("variable",)  # (PyTorch's AccumulateGrad lists its leaf)
    _raw = True  # in a pass that records nothing, takes its gradient as an array (accumulate_grad._accumulate_array)

    def __init__(self, variable):
        self._seq = _INF  # PyTorch runs accumulation as soon as it is ready
        self.variable = variable
        data = variable._data
        self._out_meta = _META.get((data.shape, data.dtype)) or _meta(data)

    def apply(self, grads):
        return ()


_INF = float("inf")


def _new_leaf_node(tensor):
    node = _new(AccumulateGrad)  # (AccumulateGrad.__init__'s steps, without type.__call__)
    node._seq = _INF
    node.variable = tensor
    data = tensor._data
    node._out_meta = _META.get((data.shape, data.dtype)) or _meta(data)
    return node


def recording_node(tensor):
    """The AccumulateGrad node of a leaf for a graph being recorded: the one the leaf's live
    graphs share, or a new one (held weakly by the leaf: see AccumulateGrad)."""
    acc = tensor._accumulator
    if acc is not None:
        if acc.__class__ is not _weakref:
            return acc
        node = acc()
        if node is not None:
            return node
    node = _new_leaf_node(tensor)
    tensor._accumulator = _weakref(node)
    return node


def accumulator_of(tensor):
    """The AccumulateGrad node a leaf has now (None if it has none, or none is alive)."""
    acc = tensor._accumulator
    return acc() if acc.__class__ is _weakref else acc


def leaf_node(tensor):
    """The AccumulateGrad node of a leaf, held strongly by the leaf from now on (the leaf's
    tensor hooks live there)."""
    node = tensor._accumulator
    if node.__class__ is _weakref:
        node = node()
    if node is None:
        node = _new_leaf_node(tensor)
    tensor._accumulator = node
    return node


def edge(tensor):
    """(node, output index) through which a gradient reaches ``tensor``; None if none does."""
    if tensor._base is not None:
        tensor._refresh_view()
    if not tensor._requires_grad:
        return None
    fn = tensor._grad_fn
    if fn is not None:
        return (fn, tensor._output_nr)
    return (recording_node(tensor), 0)


#: the nodes the running backward pass needs (autograd.grad's walk back from its inputs);
#: None: every node it reaches (set by the engine for the length of a pass)
needed_now = [None]


def should_compute_output(node, i: int) -> bool:
    """PyTorch's ``task_should_compute_output``: whether the running pass wants the gradient
    of ``node``'s input ``i`` (it has an edge, and autograd.grad needs where the edge leads)."""
    nxt = node.next_functions[i][0]
    needed = needed_now[0]
    return nxt is not None and (needed is None or nxt in needed)


def is_recording(inputs) -> bool:
    """True when an op on ``inputs`` must be recorded: grad mode on, an input requires grad."""
    if not _state["enabled"]:
        return False
    for t in inputs:
        if t is not None and t._requires_grad:
            return True
    return False


_NO_EDGE = (None, 0)


def _is_one_of(t, tensors):
    for o in tensors:
        if o is t:
            return True
    return False

#: Callables ``hook(node, inputs, outputs, call)`` told of every node as it is
#: recorded (tools that inspect graphs: the graph view's "which line made this",
#: ``agrad check``'s replay).  ``call`` says how the node was made: for a
#: built-in op ``(op, arrays, attrs)``, for a custom Function
#: ``(cls, values_before_forward, args, kwargs)``.  A hook that reads only the node is a
#: :class:`NodeHook`: the ops' short ways then build no tuples of arguments for it.
record_hooks: list = []


#: Callables ``observer(op, tensors, arrays, attrs, results)`` told of every
#: forward op's result (``agrad eval --anomaly``): ``op`` an ops ``Op`` or, for a
#: tensor made from data (``tensor``, ``full``), the string ``"tensor"``.
#: Empty unless a tool installs one; the ops test the list before calling.
forward_observers: list = []

#: Callables ``observer(tensor)`` told after an in-place change (an in-place op,
#: an indexed assignment, ``out=``, an optimizer step) gave ``tensor`` (and every
#: view sharing its version counter) a new version: ``agrad graph --versions``.
version_observers: list = []


#: (shape, numpy dtype) -> ``((shape, dtype),)``: the metadata a node keeps of an input or
#: output, made once and shared by every node (immutable), so that recording an op leaves
#: three objects fewer for the garbage collector to walk.
_META: dict = {}


def _meta(data):
    if len(_META) >= 4096:
        _META.clear()
    m = _META[(data.shape, data.dtype)] = ((data.shape, _BY_NP[data.dtype]),)
    return m


#: the metadata of a 0-d array by its numpy dtype (``_meta`` of it, without building a key)
META0 = {np_dtype: (((), dtype),) for np_dtype, dtype in _BY_NP.items()}


def record(node: Node, inputs, outputs, saves=None, call=None) -> None:
    """Attach ``node`` to the graph: the one place where graph edges are made.

    ``inputs`` are the tensors the op read (None for non-tensor arguments),
    ``outputs`` the differentiable tensors it made, ``saves`` a mapping of
    name -> tensor to keep for backward (outputs are recognised as such),
    ``call`` what :data:`record_hooks` are given.  Callers check
    :func:`is_recording` first.
    """
    _link_inputs(node, inputs)
    if len(outputs) == 1:
        out = outputs[0]
        out._grad_fn = node
        out._output_nr = 0
        out._requires_grad = True
        data = out._data
        node._out_meta = _META.get((data.shape, data.dtype)) or _meta(data)
    else:
        out_meta = []
        i = 0
        for out in outputs:
            out._grad_fn = node
            out._output_nr = i
            out._requires_grad = True
            data = out._data
            out_meta.append((_META.get((data.shape, data.dtype)) or _meta(data))[0])
            i += 1
        node._out_meta = tuple(out_meta)
    if saves:
        kept = {}
        plain = not _PACK_HOOKS  # formulas read saved tensors as plain attributes (checked in apply)
        out0 = outputs[0] if len(outputs) == 1 else None
        for name, t in (saves.items() if plain else _pack_order(node, saves)):
            if type(t) is SavedNumber:  # the op has set the number as the node's attribute
                kept[name] = t
                continue
            slot = kept[name] = SavedTensor.of(t, name, t is out0 if out0 is not None else _is_one_of(t, outputs))
            if plain:
                setattr(node, name, slot.tensor)
        node._saved = kept
    if record_hooks:
        for hook in record_hooks:
            hook(node, inputs, outputs, call)


def save_extra(node, name, tensor, after=None, output=False):
    """Save ``tensor``, not one of the op's inputs or outputs (lu_solve's pivots, linalg.lu's P), on
    ``node`` as ``name`` (after the saved ``after``, PyTorch's order of unpacking): checked against
    its version when the formula runs, as the op's own saved tensors are (None: ``_saved_<name>`` is None).
    ``output``: an output not differentiable, whose array the formula reads (sort's indices; unpacked with the outputs)."""
    if tensor is None:
        node._none_saved = getattr(node, "_none_saved", ()) + (name,)
        return
    slot = SavedTensor.of(tensor, name, False)
    if output:
        slot.late = True
    kept = {k: v for k, v in (node._saved or {}).items() if k != name}
    if name in (node._saved or {}):  # (a slot the op kept as an array: the tensor in its place)
        kept = {k: slot if k == name else v for k, v in node._saved.items()}
    elif after in kept:
        items = list(kept.items())
        at = [k for k, _ in items].index(after) + 1
        kept = dict(items[:at] + [(name, slot)] + items[at:])
    else:
        kept[name] = slot
    node._saved = kept
    if not _PACK_HOOKS and not output:
        setattr(node, name, slot.tensor)


def _link_inputs(node, inputs):
    """A node's edges to its inputs (``next_functions``) and their metadata (``_input_meta``).
    (:func:`record_op` links a node with one tensor input itself.)"""
    nexts = []
    meta = []
    for t in inputs:
        if t is not None and not t._requires_grad and t._base is not None and t._base._requires_grad:
            t._refresh_view()  # a view whose base took a history in place since it was made
        if t is None or not t._requires_grad:
            nexts.append(_NO_EDGE)
            meta.append(None)
        else:
            if t._base is not None:
                t._refresh_view()
            fn = t._grad_fn
            if fn is None:
                fn = t._accumulator
                if fn.__class__ is not AccumulateGrad:
                    fn = recording_node(t)
            nexts.append((fn, t._output_nr))
            data = t._data
            meta.append((_META.get((data.shape, data.dtype)) or _meta(data))[0])
    node.next_functions = tuple(nexts)
    node._input_meta = tuple(meta)


def record_op(node, inputs, arrays, out, plan, pointwise=False) -> None:
    """:func:`record` for a built-in op's call with one output, no saved-tensor hooks and no
    in-place snapshot (the caller tells :data:`record_hooks` itself): the same
    edges, metadata and saved tensors, the saved ones made straight from the op's save
    plan (``(name, input index or -1 for the output, inputs whose gradient needs it)``).
    ``pointwise``: the output has the shape of the op's one tensor input (the other
    operands are numbers), so it shares that input's metadata when it has its dtype too.
    The caller has given ``out`` its history (``grad_fn`` the node, output 0, requires grad)."""
    n = len(inputs)
    t = inputs[0] if n else None
    if (n == 1 or n == 2 and inputs[1] is None) and t is not None and t._requires_grad:
        # one tensor input (unary ops, views, reductions; a tensor and a number): no lists to grow
        if t._base is not None:
            t._refresh_view()
        fn = t._grad_fn
        if fn is None:
            fn = t._accumulator
            if fn.__class__ is not AccumulateGrad:
                fn = recording_node(t)
        data = t._data
        meta = _META.get((data.shape, data.dtype)) or _meta(data)
        if n == 1:
            node.next_functions = ((fn, t._output_nr),)
            node._input_meta = meta
        else:
            node.next_functions = ((fn, t._output_nr), _NO_EDGE)
            node._input_meta = (meta[0], None)
    else:
        _link_inputs(node, inputs)
        meta = None
    data = out._data
    if pointwise and meta is not None and data.dtype is meta[0][1].numpy:
        node._out_meta = meta  # (a shape read from numpy and a key hashed: a tenth of a recording)
    else:
        meta = node._out_meta = _META.get((data.shape, data.dtype)) or _meta(data)
    if plan:
        kept = {}
        for name, i, users in plan:
            if users is not None:
                for u in users:
                    if inputs[u] is not None and inputs[u]._requires_grad:
                        break
                else:
                    continue  # no input that needs this one requires grad
            # SavedTensor.of's work, attribute by attribute in its order, without its call;
            # its (shape, dtype) is the node's record of it (free() need not read it from numpy)
            if i < 0:
                slot = SavedTensor()
                slot.name = name
                slot.is_output = True
                slot._output = _weakref(out)
                slot.tensor = t = _linked(out, None)
                slot.version = t._vc[0]
                slot._meta = meta[0]
            else:
                t = inputs[i]
                if t is None:  # a Python number given in place of a tensor: PyTorch saves it wrapped
                    t = arrays[i]
                    slot = SavedNumber()  # (SavedNumber.of's work)
                    slot.number = t
                    slot.tensor = _KEPT
                    slot.name = name
                    slot.freed = False
                else:
                    slot = SavedTensor()
                    slot.name = name
                    slot.tensor = t
                    slot._history = t._grad_fn
                    slot.version = t._vc[0]
                    slot._meta = node._input_meta[i]  # (None where t needs no gradient: read at free())
            setattr(node, name, t)
            kept[name] = slot
        if kept:
            node._saved = kept


def move_retains_grad(t, old_fn, old_nr: int) -> None:
    """``t``'s history was rebased from ``old_fn``'s output ``old_nr`` (update_tensor_hooks_on_new_gradfn): its
    retain_grad moves to the new grad_fn; none there (left by squeeze_, t_...): PyTorch's assert."""
    if t._retains and old_fn is not None and t._grad_fn is not old_fn:
        if (ref := old_fn._retained.pop(old_nr, None) if old_fn._retained else None) is None:
            raise RuntimeError(STRANDED_RETAIN)
        if t._grad_fn is not None:
            t._grad_fn._retain(t._output_nr, ref)
