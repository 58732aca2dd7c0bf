"""How an op is defined: forward on arrays, backward formula on tensors, node name.

An :class:`Op` is one entry of PyTorch's ``derivatives.yaml``: it names the
node (``MulBackward0``), runs the forward on numpy arrays, says which tensors
the backward needs (``saves``), and holds the backward formula.  Formulas are
written with agrad's own tensor ops, so under ``create_graph=True`` they are
recorded like any other computation and give higher derivatives; otherwise
the engine runs them with grad mode off.

Public functions (``agrad.sin``, ``Tensor.sin``, ``F.relu``) are thin
argument-parsing wrappers around ops, registered with :func:`export`.
"""

from __future__ import annotations

import types as _types

import numpy as np

from .._dense import zero_strided
from ..autograd import _dual as _forward_ad
from ..autograd import _detached, graph, inference as _inference
from ..autograd.graph import Node
from ..autograd.node_attrs import add_torch_saved
from ..tensor import Tensor
from ._families import LazyList, LazyTable
from ._layout import _partial_overlap, c_order, iterator_layout, laid_out_like
from ._overlap_loop import argument_overlap as _argument_overlap, hidden_overlap as _hidden_overlap, \
    tied_strides as _tied_strides, FRESH_ARGUMENT as _FRESH_ARGUMENT
from ._outs import _C_TYPE, finish_out, with_out, write_outs  # noqa: F401 (imported from here by the op families)
from ._shortcuts import Shortcuts, _not_differentiable, _record_two, _Scratch, inplace_self

is_recording = graph.is_recording
_forward_observers = graph.forward_observers
_mode_state = graph._state
_fw_active = _forward_ad._ACTIVE
_fw_level = _forward_ad._LEVEL
_inference_seen = _inference.SEEN

# Names exported to the torch namespace, Tensor methods and nn.functional.
# (LazyTables: a name of an op family not loaded yet loads it; a listing loads them all)
FUNCTIONS: dict = LazyTable("FUNCTIONS")
METHODS: dict = LazyTable("METHODS")
FUNCTIONAL: dict = LazyTable("FUNCTIONAL")
LINALG: dict = LazyTable("LINALG")
SPECIAL: dict = LazyTable("SPECIAL")  # torch.special
#: Ops by node name (the last one made wins where several share a name, e.g.
#: torch::autograd::NotImplemented); ALL_OPS keeps every one, for docs and tests.
OPS: dict = LazyTable("OPS")
ALL_OPS: list = LazyList()


def export(*names, method=None, functional=None, linalg=None, special=None, torch=True):
    """Register a function under torch-level ``names`` (default: its own name).

    ``method`` names a Tensor method (True: each of ``names``, as PyTorch's aliases
    ``swapaxes``/``divide``/``ger`` are methods too); ``functional``
    an ``nn.functional`` name; ``linalg`` a ``torch.linalg`` name; ``special`` a
    ``torch.special`` name (True: the function's own).
    """

    def deco(fn):
        own = names or (fn.__name__,)
        _public_name(fn, own[0])
        if torch:
            for n in own:
                FUNCTIONS[n] = fn
        if method is True:
            for n in own:
                METHODS[n] = fn
        elif method:
            METHODS[method] = fn
        if functional:
            FUNCTIONAL[own[0] if functional is True else functional] = fn
        if linalg:
            LINALG[own[0] if linalg is True else linalg] = fn
        if special:
            SPECIAL[own[0] if special is True else special] = fn
        return fn

    return deco


def method(*names):
    """Register a Tensor-only method."""

    def deco(fn):
        for n in names or (fn.__name__,):
            METHODS[n] = fn
        _public_name(fn, (names or (fn.__name__,))[0])
        return fn

    return deco


def _public_name(fn, name):
    """Give a function made inside a factory its public name, so Python's own
    argument errors read ``sin() takes 1 positional argument ...`` as PyTorch's do."""
    if "<locals>" in getattr(fn, "__qualname__", ""):
        fn.__qualname__ = name


class OpNode(Node):
    """Base of every built-in op's node: runs the op's formula."""

    # (object's __init__, not Node's: a class whose __init__ is object's makes its instances
    # without calling Python code; the recording sets the node's sequence number)
    __init__ = object.__init__
    _formula = None
    _raw = None  # the same formula on numpy arrays, for passes that record nothing (optional)
    _multi = False  # the formula takes the list of output gradients
    _undefined_grads = False  # ... with None for an output no gradient reached (else zeros)
    _runs_undefined = False  # the formula runs for an undefined gradient too (a not-implemented derivative raises)

    @property
    def input_shape(self):
        """The shape of the (first) input, as recorded: what most formulas expand back to."""
        return self._input_meta[0][0]

    def needs(self, i: int) -> bool:
        """Whether input ``i`` wants a gradient (formulas skip the others)."""
        return self.next_functions[i][0] is not None

    def apply(self, grads):
        linked = self._saved is not None and self._unpack_saved(
            _mode_state["enabled"] or _fw_level[0] is not None)
        if self._multi:
            if all(g is None for g in grads):
                return (None,) * len(self.next_functions)
            if not self._undefined_grads:
                grads = [g if g is not None else _zeros(meta) for g, meta in zip(grads, self._out_meta)]
        else:
            grads = grads[0]
            if grads is None and not self._runs_undefined:
                return (None,) * len(self.next_functions)
        state = _mode_state
        outer = state["formula"]
        state["formula"] = True
        try:
            res = self._formula(grads)
        finally:
            state["formula"] = outer
            if linked:
                self._unlink_saved()
        return res if type(res) is tuple else (res,)

    def apply_raw(self, grad):
        """The formula on arrays (``_raw``): ``grad`` the array of the one output's gradient
        (not None); what a pass that records nothing runs (the engine decides).  An array
        formula returns NotImplemented for cases it leaves to the formula on tensors."""
        saved = self._saved
        if saved is not None and _detached.DETACHES[0]:  # (a saved input detached in place? autograd._detached)
            self._unpack_saved(False)
        elif saved is not None:  # each checked against its version (_unpack_saved without a link)
            for slot in saved.values():
                t = slot.tensor
                if t is None or t._vc[0] != slot.version:
                    self._unpack_saved(False)  # (every one that needs it, in PyTorch's order)
                    break
        res = type(self)._raw(self, grad)  # (the class's: a watched node has None of its own)
        if res is NotImplemented:
            return self._raw_fallback(grad)
        return res if type(res) is tuple else (res,)

    def _raw_fallback(self, grad):
        """What an array formula that returned NotImplemented leaves to the formula on tensors."""
        return tuple([None if g is None else g._data for g in self.apply([_make(grad)])])


def _set_attrs(ctx, attrs):
    """A recorded call's attributes on its node, one by one: reading ctx.__dict__ would make
    Python build the instance's dict, one more object per node for the garbage collector.
    (Attributes must not be named like Node's API: name, apply, ...)"""
    for k, v in attrs.items():
        setattr(ctx, k, v)


def _view_requires_grad(t):
    """Whether a view whose base took a history in place after the view was made (``x.mul_(w)``
    on a leaf that did not require grad) now requires grad: it is differentiated through the base."""
    t._refresh_view()
    return t._requires_grad


def _zeros(meta):
    shape, dtype = meta
    return Tensor._make(np.zeros(shape, dtype.numpy))


def zeros_like_grad(grad):
    """``zeros_like(grad)`` of a formula (sign, fill_, copy_'s self, the samplers): zeros of its
    shape and dtype, recorded nowhere (``grad * 0`` would keep an inf or NaN gradient's NaN and
    record a MulBackward0 under create_graph)."""
    data = grad._data
    if not data.size and data.ndim and type(data) is np.ndarray:  # (empty: its very strides, as empty_like)
        from ._layout import empty_like
        return Tensor._make(empty_like(data))
    return Tensor._make(np.zeros_like(data))


_make = Tensor._make
_new_node = _new_tensor = object.__new__
_F64, _F32 = np.dtype(np.float64), np.dtype(np.float32)


def _saved_original(t):
    return OPS["CloneBackward0"](t)


_next_seq = graph._sequence.__next__
_record_op = graph.record_op
_pack_hooks = graph._PACK_HOOKS
_record_hooks = graph.record_hooks


def _own_copy(fn, op):
    """``fn`` bound to ``op`` with a code object of its own.  CPython 3.11 specialises an
    attribute read or write for the one class it saw there, in the code object: a short way
    shared by every op (apply_one) writes sin's node, then mul's, then tanh's, and misses
    each time; a copy per op sees one node class only."""
    code = fn.__code__.replace()  # (a new code object, with its own specialisations)
    return _types.MethodType(_types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__,
                                                 fn.__closure__), op)


def _c_ordered(forward, like=False):
    """``forward`` whose every array result is in C order (Op's ``contiguous``), or with ``like``
    laid out as ``empty_like`` of its first input."""

    def run(ctx, *arrays, **attrs):
        out = forward(ctx, *arrays, **attrs)
        if like:
            return laid_out_like(arrays[0], out)
        if type(out) is tuple:
            return tuple([c_order(o) for o in out])
        return c_order(out)

    run.__name__ = getattr(forward, "__name__", "forward")
    return run


class Op(Shortcuts):
    """A differentiable op. Call it with tensors (differentiable inputs) and attributes.

    - ``name``: PyTorch's node name, e.g. ``"MulBackward0"``.
    - ``forward(ctx, *arrays, **attrs)``: numpy arrays in, array (or tuple) out;
      may store what backward needs on ``ctx``.
    - ``inputs``: names of the tensor inputs (for ``saves`` and ``_saved_<name>``).
    - ``saves``: names of inputs, or ``"result"`` (or a name of ``output_names``: that output of
      several), kept for backward;
      ``saves_for`` maps a saved name to the inputs whose gradient needs it, so it
      is kept only when one of them requires grad (as PyTorch does: ``x * 2`` keeps
      nothing of ``x``).
    - ``outputs``: how many outputs are differentiable (the rest, e.g. indices, are not);
      None: all of them.
    - ``multi_grad``: the formula takes the list of the outputs' gradients, zeros where none
      reached an output; ``"undefined"``: None there (PyTorch's undefined gradient).
    - ``value_error(arrays)``: the exception to raise when numpy's forward raises
      ValueError (e.g. PyTorch's broadcasting message).
    - ``kernel``: ``forward`` without its ctx, for a call without attributes (a numpy ufunc,
      or a function of the arrays alone: the call skips a Python frame).
    - ``pointwise``: elementwise on tensors of one shape, with Python numbers beside them
      (unary maths, arithmetic): a call with one tensor gives that tensor's shape, so its
      output needs no size check and shares the input's metadata.
    - ``iterated``: an elementwise op of several tensors (PyTorch's TensorIterator): its
      result is laid out as the first input whose strides decide (``pointwise`` implies it;
      with one tensor, so does ``jvp="element_wise"``).
    - ``number``: an elementwise op of one tensor and a Python number that PyTorch wraps as a
      TensorIterator operand (remainder, fmod, xlogy, copysign with a number): operands of
      different shapes, so the dims are sorted, never TensorIterator's fast set-up.
    - ``contiguous``: an op whose results PyTorch allocates in C order whatever its inputs'
      layouts (a reduction over dims: ATen's resize_reduction; masked_fill, number ** tensor):
      each array its forward returns is made C-ordered, and never re-laid out as TensorIterator's;
      ``"like"``: as ``empty_like(input)`` (ATen allocates it first: hardtanh, nan_to_num).
    - ``internal``: the op only appears inside other ops' formulas (double backward),
      so it needs no golden case of its own.
    - ``defaults``: attribute values a node has unless the call gave its own (``alpha``: 1).
    - ``jvp``: its forward-mode rule (see ``agrad.autograd._dual``): ``"element_wise"``
      (its backward applied to the tangent), ``"linear"``, ``"multilinear"`` (mul, mm, ...),
      ``"affine"`` (multilinear plus one added input, ``jvp_additive``: addmm, conv),
      ``"unsupported"`` (PyTorch has none: its error), or set a formula with
      :meth:`forward_derivative`; None: the double-vjp fallback.
    """

    jvp_name = None  # the aten name PyTorch's "not implemented" error gives, for jvp="unsupported"
    # True: the backward formula runs when no gradient reached the node (None), as PyTorch's generated
    # code runs a not_implemented formula (the others are ``any_grad_defined ? ... : Tensor()``)
    runs_undefined = False
    jvp_additive = 0  # for jvp="affine": the input that is added (addmm's self, conv's bias)
    jvp_order = None  # for jvp="element_wise": the order of the formula's terms by input (mul's: other's first)

    def __init__(self, name, forward, *, inputs=("self",), saves=(), saves_for=None, outputs=1,
                 multi_grad=False, value_error=None, internal=False, jvp=None, defaults=None, keeps=None,
                 keeps_for=None, pointwise=False, kernel=None, output_names=(), iterated=False, contiguous=False,
                 number=False, kept_outputs=None):
        self.name = name
        self.number = number
        self.pointwise = pointwise
        self.iterated = pointwise or iterated
        # an elementwise op of one tensor lays out its result as TensorIterator does too (numpy's
        # astype and copy would put a broadcast, stride-0 dim innermost)
        # (``contiguous``: PyTorch writes a fresh C-ordered result whatever the input's layout, as
        # number ** tensor and log_sigmoid do, and the forward gives it so)
        self._one_iterated = (self.iterated or jvp == "element_wise") and not contiguous
        if contiguous:
            forward = _c_ordered(forward, contiguous == "like")
        # True: its formulas lay their gradients out themselves (relu's kernel takes the result first,
        # mse_loss_backward's output is contiguous); else, an elementwise op's array formula results
        # are laid out by the engine like the incoming gradient (TensorIterator's first operand)
        self.own_grad_layout = False
        self.kernel = kernel
        self.ufunc = getattr(kernel, "ufunc", None)  # the kernel on two float arrays of one dtype
        # attributes that are tensors PyTorch saves ({"idx": "index"}): freed with the graph as its
        # saved tensors are (a second backward through the node fails), shown as node._saved_index;
        # a call's attribute, or one the forward set on ctx (sort's indices).  ``keeps_for`` maps
        # one to the inputs whose gradient needs it (scatter_add's index: src's only); a public
        # name None: freed with the graph, not shown (getitem's numpy index of slices and arrays)
        self.keeps = tuple((keeps or {}).items())
        self._keeps_for = keeps_for or {}
        # kept attributes that are outputs too ({"indices": 1}: sort's): PyTorch saves that output, so the
        # node keeps the output tensor in the slot (a change in place before the backward is its error)
        self._kept_out = tuple((kept_outputs or {}).items())
        self.internal = internal  # a helper of other ops' formulas, not user-facing
        self.forward = forward
        self.inputs = inputs
        self.saves = tuple(saves)
        saves_for = saves_for or {}
        # (name, input index or -1 - k for output k (the result: -1), inputs whose gradient needs it or None)
        self._save_plan = tuple(
            (n, -1 if n == "result" else -1 - output_names.index(n) if n in output_names else inputs.index(n),
             saves_for.get(n)) for n in self.saves)
        # the plan of a call with one tensor, the first, and numbers (apply_one): those kept for it
        self._plan_one = tuple((n, i) for n, i, users in self._save_plan if users is None or 0 in users)
        # ... the commonest of them, which apply_one writes out with their names: sin's input "self",
        # tanh's output "result", the number "other" of x * c (0: another plan)
        self._plan_kind = {(("self", 0),): 1, (("result", -1),): 2, (("other", 1),): 3}.get(self._plan_one, 0)
        # the plans of a call with two tensors (_record_two) by which of them require grad: those kept
        self._plans_two = {(ga, gb): tuple((n, i) for n, i, users in self._save_plan
                                           if users is None or any(u < 2 and (ga, gb)[u] for u in users))
                           for ga in (False, True) for gb in (False, True)}
        self.value_error = value_error
        self.n_diff_outputs = outputs
        self._multi = bool(multi_grad)
        self._undefined_grads = multi_grad == "undefined"
        self._formula = None
        self._raw = None
        self.jvp_kind = jvp
        self._jvp = None
        self._defaults = defaults or {}
        self._node = None  # the node class, once made (``node``; read by every recorded call)
        OPS[name] = self
        ALL_OPS.append(self)
        if pointwise:  # (the ops that take the short ways of a pointwise call: their own copies)
            self.apply_one = _own_copy(Shortcuts.apply_one, self)
            self.apply_two = _own_copy(Shortcuts.apply_two, self)

    @property
    def node(self):
        """The op's node class, made when first needed (most ops of a run are never
        recorded; making some 300 classes at import is a few ms of start-up).  Named as
        PyTorch's: NotImplemented for torch::autograd::NotImplemented."""
        return self._node or self._make_node()

    def _make_node(self):
        # (kept as an instance attribute the interpreter reads fast, which a property or a
        # descriptor that fills the instance's dict is not)
        node = self._node = type(self.name.rsplit("::", 1)[-1], (OpNode,), {
            "_name": self.name, "_multi": self._multi, "_undefined_grads": self._undefined_grads,
            "_op": self, "_formula": self._formula, "_runs_undefined": self.runs_undefined,
            "_raw": self._raw, "__module__": "agrad.autograd.nodes", **self._defaults,
            "_grad_first": self._one_iterated and not self.own_grad_layout,
            **{"_saved_" + n: graph.saved_property(n) for n in self.saves + tuple(p for _, p in self.keeps if p)}})
        add_torch_saved(node, self.inputs)
        return node

    def derivative(self, fn):
        """Set the backward formula: ``fn(ctx, grad)`` -> a gradient per input (tuple or one)."""
        self._formula = fn
        node = self._node
        if node is not None:
            node._formula = fn
        return fn

    def raw_derivative(self, fn):
        """Set the backward formula's array form, ``fn(ctx, grad_array)`` -> an array (or None)
        per input: the formula of :meth:`derivative` written with numpy, giving the same bits
        (tests/autograd/test_raw_formulas.py checks that on every op that has one).  The
        engine runs it when nothing is recorded and nothing watches the pass; hot ops have
        one because a formula on tensors pays an op's dispatch for each of its steps."""
        if self._multi:
            raise TypeError(f"{self.name}: an array formula takes one output's gradient")
        self._raw = fn
        node = self._node
        if node is not None:
            node._raw = fn
        return fn

    def forward_derivative(self, fn):
        """Set the forward formula: ``fn(ctx, *tangents)`` -> the output's tangent (a tuple for
        several outputs).  ``ctx`` holds the primal inputs by name, ``result`` and the attributes;
        a tangent is None where its input has none (``ctx.needs(i)`` says which)."""
        self._jvp = fn
        self.jvp_kind = "formula"
        return fn

    def __call__(self, *tensors, **attrs):
        return self.apply(tensors, [t._data for t in tensors], attrs)

    def apply(self, tensors, arrays, attrs):
        """Run on ``tensors`` whose data the caller already prepared as ``arrays``
        (e.g. cast to the promoted dtype: the graph still sees the original tensors).
        A tensor may be None where a Python number stands in its place (in ``arrays``).
        Recorded (grad mode on, an input requires grad): a node, its edges and what
        backward needs.  (One method for both: a call pays one Python frame, not two.)"""
        recorded = False
        if _mode_state["enabled"]:
            for t in tensors:
                if t is not None and (t._requires_grad or t._base is not None and t._base._requires_grad
                                      and _view_requires_grad(t)):
                    recorded = True
                    break
            if recorded and _inference_seen[0]:  # (PyTorch's autograd kernel and inference tensors)
                recorded = _inference.records(self, tensors, attrs)
        if recorded:
            ctx = (self._node or self._make_node())()  # (OpNode has no __init__: the sequence number is set here)
            ctx._seq = _next_seq()
        else:
            ctx = _Scratch()
        try:
            if attrs:
                out = self.forward(ctx, *arrays, **attrs)
            elif self.kernel is not None:
                out = self.kernel(arrays[0]) if len(arrays) == 1 else self.kernel(*arrays)
            else:
                out = self.forward(ctx, *arrays)
        except ValueError:
            if self.value_error is None:
                raise
            raise self.value_error(arrays) from None
        if type(out) is np.ndarray and out.ndim > 1 and (
                len(arrays) > 1 and self.iterated
                or len(arrays) == 1 and self._one_iterated and type(a := arrays[0]) is np.ndarray
                and (a.size and zero_strided(a) or not a.flags.c_contiguous and (out.flags.c_contiguous or 1 in a.shape
                                                                         or _tied_strides(a))
                     or self.number and (1 in a.shape or not a.size))):
            # (a kernel that built its result from fresh arrays, np.full or np.where's, wrote it in C order)
            out = iterator_layout(out, (*arrays, 0) if self.number else arrays)  # (the first decides)
        if not recorded:
            results = tuple([_make(o) for o in out]) if type(out) is tuple else _make(out)
        elif type(out) is tuple or self.keeps or inplace_self[0] is not None or _pack_hooks:
            if attrs:
                _set_attrs(ctx, attrs)
            results = self._record(ctx, out, tensors, arrays, attrs)
        else:  # the common call: one output, no saved-tensor hooks, no in-place snapshot
            if attrs:
                _set_attrs(ctx, attrs)
            d = out.dtype
            if d is not _F64 and d is not _F32 and d.kind != "f":
                _not_differentiable(d)
            if self.pointwise and type(out) is np.ndarray and (len(tensors) == 1 or tensors[1] is None):
                # the shape of its one tensor, whose size was checked: Tensor._make without the check
                results = _new_tensor(Tensor)
                results._data = out
                results._requires_grad = True
                results._grad_fn = ctx
                results._output_nr = 0
                results._retains = False
                results._grad = results._accumulator = results._base = None
                results._vc = [0]
                _record_op(ctx, tensors, arrays, results, self._save_plan, True)
            else:
                results = _make(out)
                results._grad_fn = ctx
                results._requires_grad = True
                if len(tensors) == 2 and (a := tensors[0]) is not None and (b := tensors[1]) is not None \
                        and a._base is None and b._base is None:
                    _record_two(ctx, a, b, tensors, results, self._plans_two[a._requires_grad, b._requires_grad])
                else:
                    _record_op(ctx, tensors, arrays, results, self._save_plan)
            if _record_hooks:  # (agrad graph's "which line made this": on every op it records)
                call = (self, arrays, attrs)
                for hook in _record_hooks:
                    hook(ctx, tensors, (results,), call)
        if _fw_active[0]:
            _forward_ad.propagate(self, tensors, arrays, attrs, results, ctx)
        if _forward_observers:
            for obs in _forward_observers:
                obs(self, tensors, arrays, attrs, results)
        return results

    def _record(self, ctx, out, tensors, arrays, attrs):
        """The recording of apply in full: several outputs, an in-place op's
        snapshot, attributes kept as saved tensors, saved-tensor hooks."""
        if type(out) is tuple:
            results = tuple([_make(o) for o in out])
            outs = results if self.n_diff_outputs is None else results[: self.n_diff_outputs]
            for o in outs:
                if o._data.dtype.kind != "f" and inplace_self[0] is None:
                    _not_differentiable(o._data.dtype)
        else:
            results = _make(out)
            outs = (results,)
            if out.dtype.kind != "f" and inplace_self[0] is None:
                _not_differentiable(out.dtype)
        saves = None
        if self._save_plan:
            saves = {}
            for name, i, users in self._save_plan:
                if users is not None:
                    for u in users:
                        if tensors[u] is not None and tensors[u]._requires_grad:
                            break
                    else:
                        continue  # no input that needs this one requires grad
                if i < 0:  # (an output: a differentiable one, or one that is not, as lu_factor's pivots)
                    saves[name] = outs[-1 - i] if -1 - i < len(outs) else results[-1 - i]
                elif tensors[i] is not None:
                    t = tensors[i]
                    if i == 0 and t is inplace_self[0] and t._requires_grad:
                        if t._data.dtype.kind != "f":  # PyTorch saves self.clone(), a node for an integer tensor
                            _not_differentiable(t._data.dtype)
                        t = _saved_original(t)
                    saves[name] = t
                else:  # a Python number given in place of a tensor: PyTorch saves it wrapped
                    setattr(ctx, name, arrays[i])
                    saves[name] = graph.SavedNumber.of(arrays[i], name)
        if self.keeps:
            if saves is None:
                saves = {}
            for attr, public in self.keeps:
                users = self._keeps_for.get(attr)
                if users is not None and not any(tensors[u] is not None and tensors[u]._requires_grad
                                                 for u in users):
                    continue  # kept only for an input's gradient, and that input does not require grad
                saves[public or attr] = graph.SavedNumber.of(attrs[attr] if attr in attrs else getattr(ctx, attr), attr)
        graph.record(ctx, tensors, outs, saves, (self, arrays, attrs))
        for name, k in self._kept_out:
            if name in ctx._saved:
                graph.save_extra(ctx, name, results[k], output=True)
        return results

    def __repr__(self):
        return f"<op {self.name}>"


def node_name(op_name: str, overload: int = 0) -> str:
    """PyTorch's node name for an op: CamelCase + 'Backward' + overload index."""
    return "".join(p[:1].upper() + p[1:] for p in op_name.split("_")) + f"Backward{overload}"


def keep_tensor(result, op, name, tensor):
    """``result`` of ``op``, whose node keeps ``name`` (an index the formula reads as an array): the
    node saves ``tensor`` itself in that slot, as PyTorch saves the index, so a change in place
    before the backward is PyTorch's error.  Returns ``result``."""
    fn = result._grad_fn
    if fn is not None and type(fn) is op.node and type(tensor) is Tensor and fn._saved and name in fn._saved:
        graph.save_extra(fn, name, tensor)
    return result


def _unpacked_first(args, kwargs):
    """The parser's unpacking of a Python int given for a Scalar, which comes before an op's overlap
    errors: past int64 it is read as a uint64 (PyTorch's OverflowError for what neither holds)."""
    for v in (*args, *kwargs.values()):
        if type(v) is int and not -2 ** 63 <= v < 2 ** 64:
            from .pointwise import unpack_overflow
            unpack_overflow(v)


def inplace(fn, overlap="error", name=None, partial=False, first=None, checks=None):
    """The in-place form of ``fn(self, *args)``: same maths, written into ``self``.

    When the op is recorded, the node sees a snapshot of ``self`` as it was, so
    a formula that needs the old value gets it; ``self`` then takes the result's
    value, history and a new version.  ``partial``: the op is one of PyTorch's
    TensorIterator ops, which refuse an argument that partly overlaps ``self``'s
    memory (``x[1:].add_(x[:-1])``), after autograd's checks and before any other.
    ``first``: the op's own check that comes before TensorIterator's overlap errors
    (relu_'s of a bool), asked only once one of those has been raised.  ``checks``: the op's own
    checks of ``self`` itself (not its snapshot) and the arguments, after autograd's.
    """

    code = getattr(fn, "__code__", None)
    # PyTorch parses the arguments before any autograd check: a wrong count fails first
    most = code.co_argcount - 1 if code is not None and not code.co_flags & 0x04 else None
    required = () if most is None else code.co_varnames[1:1 + most - len(fn.__defaults__ or ())]
    name = (name or fn.__name__) + "_"

    def method_(self, *args, **kwargs):
        if most is not None and len(args) > most:
            _too_many(name, most, len(args))
        if len(args) < len(required):
            _missing(name, required[len(args):], kwargs)
        recorded = graph._state["enabled"] and (self._requires_grad or _any_requires_grad(args, kwargs))
        try:
            self._check_inplace(recorded, overlap)
            if recorded and self._requires_grad and name in CLONES_SELF and self._data.dtype.kind != "f":
                _not_differentiable(self._data.dtype)  # (VariableType's self.clone(), before the kernel's checks)
            if partial and partial != "shapes":  # ("shapes": TensorIterator's shape errors, no overlap check)
                _check_partial_overlap(self, args, kwargs)
            if checks is not None:
                checks(self, *args, **kwargs)
        except RuntimeError as e:
            _unpacked_first(args, kwargs)  # (the parser's, before autograd's checks and the overlap errors)
            if str(e).startswith("unsupported operation"):
                if first is not None:
                    first(self, *args, **kwargs)
            raise
        try:
            if recorded and self._base is not None:
                from .inplace_view import inplace_through_view
                return inplace_through_view(self, fn, args, kwargs)
            if not recorded:
                lead = _argument_overlap(self, args, kwargs) if partial and name not in _FRESH_ARGUMENT else None
                if lead is not None or _hidden_overlap(self._data):
                    from ._overlap_loop import in_sequence
                    _broadcast_fits(self, fn, args, kwargs)
                    return in_sequence(self, fn, args, kwargs, name, lead=lead or 0)
                return self._write(fn(self, *args, **kwargs))
            src = inplace_self[0] = self._snapshot()
            try:
                result = fn(src, *args, **kwargs)
            finally:
                inplace_self[0] = None
            return self._write(result)
        except Exception as e:
            written = getattr(e, "written_before", None)  # (a kernel that stops at a bad index: _written_before)
            if written is not None and type(self._data) is np.ndarray:
                written(self._data)
            if partial and isinstance(e, (NotImplementedError, ValueError, RuntimeError)):
                _output_shape_first(self, args, kwargs, e)
            raise

    method_.__name__ = method_.__qualname__ = name
    method_.__doc__ = f"In-place version of :meth:`{fn.__name__}`."
    return method_


#: in-place ops whose formula reads self as it was: PyTorch's VariableType saves self.clone() before the
#: kernel runs, which refuses a self that requires grad but is no float ("Autograd not support dtype")
#: ahead of the op's own checks (the others' refusal comes from the recording, as agrad's does)
CLONES_SELF = frozenset({"renorm_", "abs_", "absolute_", "square_", "cumprod_", "nan_to_num_", "mvlgamma_"})


#: errors of a TensorIterator op's kernel or of checks made after its shapes (add's alpha)
_AFTER_SHAPES = frozenset({"ZeroDivisionError", "For integral input tensors, argument alpha must not be a floating point "
                           "number.", "Boolean alpha only supported for Boolean results."})


def _written_broadcast(self, args, kwargs):
    """(the tensor arguments' shapes, their broadcast shape with the written ``self``'s, None where they do
    not broadcast)."""
    shapes = [a.shape for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]
    try:
        return shapes, np.broadcast_shapes(tuple(self.shape), *shapes)
    except ValueError:
        return shapes, None


def _outgrown(self, shape):
    return RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(shape)}")


def _broadcast_fits(self, fn, args, kwargs):
    """TensorIterator's error for arguments that broadcast beyond the written ``self``, after the op's
    own checks (addcdiv_'s of an integer division: ``fn`` run whole, only on this error's path)."""
    shape = _written_broadcast(self, args, kwargs)[1]
    if shape is not None and shape != tuple(self.shape):  # (None: the op's own mismatch error, from its kernel)
        fn(self, *args, **kwargs)
        raise _outgrown(self, shape)


def _output_shape_first(self, args, kwargs, error):
    """TensorIterator's own error when the arguments broadcast beyond the written ``self``: it comes
    before the kernel's dtype and zero-division errors (only asked once the op has failed)."""
    if type(error) is RuntimeError and str(error) not in _AFTER_SHAPES:  # (not NotImplementedError)
        return
    shapes, shape = _written_broadcast(self, args, kwargs)
    if shape is None:
        if type(error) is NotImplementedError and len(shapes) == 1 and "not implemented for" in str(error):
            from .pointwise import _mismatch_message  # (the kernel's dispatch comes after TensorIterator's shapes)
            raise RuntimeError(_mismatch_message(tuple(self.shape), tuple(shapes[0]))) from None
        return
    if shape != tuple(self.shape):
        raise _outgrown(self, shape) from None
    if type(error) is NotImplementedError:  # ... and its cast check before the kernel's dtypes
        from .. import dtypes
        from ..tensor import _can_cast, _scalar_name

        operands = [a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]
        if args and isinstance(args[0], (bool, int, float)):
            operands.append(args[0])
        d = dtypes.result_type(self, *operands)
        if not _can_cast(d, self.dtype):
            raise RuntimeError(f"result type {_scalar_name(d)} can't be cast to the desired output type "
                               f"{_scalar_name(self.dtype)}") from None


def _check_partial_overlap(self, args, kwargs):
    """TensorIterator's assert_no_partial_overlap between the written tensor and each argument
    (cheap unless one of them is a view: only views share memory)."""
    for a in (*args, *kwargs.values()):
        if type(a) is Tensor and a is not self and (a._base is not None or self._base is not None) \
                and _partial_overlap(self._data, a._data):
            raise RuntimeError(
                "unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
                "single memory location. Please clone() the tensor before performing the operation.")


def _too_many(name, most, given):
    if most == 0:
        raise TypeError(f"TensorBase.{name}() takes no arguments ({given} given)")
    raise TypeError(f"{name}() takes {most + 1} positional argument{'s' if most else ''} but {given + 1} were given")


def _missing(name, names, kwargs):
    missing = [n for n in names if n not in kwargs]
    if missing:  # (PyTorch's own plurals, "1 ... arguments"; the parser's text replaces this where it has several)
        plural = "s" if len(missing) == 1 else ""
        raise TypeError(f"{name}() missing {len(missing)} required positional argument{plural}: "
                        + ", ".join(f'"{n}"' for n in missing))


def _any_requires_grad(args, kwargs):
    for a in args:
        if type(a) is Tensor and a._requires_grad:
            return True
    for a in kwargs.values():
        if type(a) is Tensor and a._requires_grad:
            return True
    return False
