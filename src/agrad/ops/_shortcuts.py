"""The short ways of an op's call (:class:`Shortcuts`, a base of ``_op.Op``): what ``Op.apply``
does, step by step in its order, for the calls a program makes most (a pointwise op on one
tensor and maybe a number, on two tensors; a reduction of one tensor), without apply's loops,
lists and calls.  Each takes apply's way for anything it does not cover (views, forward AD,
forward observers, pack hooks, an in-place snapshot, another backend's arrays) and tells the
record hooks (``agrad graph``'s origins) what apply tells them;
tests/autograd/test_hot_path.py checks both ways give the same result, node and metadata."""

from __future__ import annotations

import weakref

import numpy as np

from ..autograd import _dual as _forward_ad
from ..autograd import graph, inference
from ..tensor import Tensor
from ._layout import iterator_layout

_forward_observers = graph.forward_observers
_mode_state = graph._state
_fw_active = _forward_ad._ACTIVE
_inference_seen = inference.SEEN  # (once inference tensors exist, every call takes apply's way: autograd.inference)
_make = Tensor._make
_new_node = _new_tensor = object.__new__
_linked = graph._linked
_F64, _F32 = np.dtype(np.float64), np.dtype(np.float32)
_next_seq = graph._sequence.__next__
_record_op = graph.record_op
_META, _meta, _META0, _NO_EDGE, _KEPT = graph._META, graph._meta, graph.META0, graph._NO_EDGE, graph._KEPT
_recording_node, _SavedTensor, _SavedNumber = graph.recording_node, graph.SavedTensor, graph.SavedNumber
_AccumulateGrad = graph.AccumulateGrad
_weakref = weakref.ref
_NO_ATTRS: dict = {}  # (never mutated)
_pack_hooks = graph._PACK_HOOKS
_record_hooks = graph.record_hooks
_NodeHook = graph.NodeHook
_ONE_TENSOR = object()  # (_tell's ``b`` for a call of one tensor)
#: The snapshot of ``self`` an in-place op runs on while it is recorded (set by ``_op.inplace`` and
#: inplace_through_view).  PyTorch saves ``original_self = self.clone()`` for an in-place op whose
#: formula uses self: a CloneBackward0 a create_graph gradient passes through.
inplace_self = [None]


_META0_64, _META0_32 = _META0[_F64], _META0[_F32]
_META64: dict = {}  # shape -> graph's (shape, dtype) record of a float64 array of that shape
_META32: dict = {}  # ... of a float32 array


def _meta_of(data, by_shape):
    """graph's record of the array ``data``, kept in ``by_shape`` (its dtype's) too."""
    if len(by_shape) >= 4096:
        by_shape.clear()
    m = by_shape[data.shape] = (_META.get((data.shape, data.dtype)) or _meta(data)) if data.ndim \
        else _META0[data.dtype]  # (a 0-d array's: its dtype's constant, as before)
    return m


#: graph's records of a float64 and of a float32 array of shape (1,) (apply_one's ``one``), and the
#: input records of an op of such a tensor and a Python number
ONE64 = _meta_of(np.empty(1), _META64)
ONE32 = _meta_of(np.empty(1, np.float32), _META32)
_ONE64_NUMBER, _ONE32_NUMBER = (ONE64[0], None), (ONE32[0], None)
_ndarray = np.ndarray


class _Scratch:
    """The ctx of an op that is not recorded: takes what forward stores, keeps it briefly."""



class Shortcuts:
    """Op's short ways (see the module); an Op has the attributes they read."""

    def apply_single(self, t, attrs):
        """:meth:`apply` of an op with attributes, one tensor ``t`` and one output (a reduction:
        ``mean(x)``): the same result, node, attributes, edges and saved tensors on a shorter way
        when ``t``'s data is a numpy array, ``t`` is no view and nothing watches the call (as
        :meth:`apply_one`); apply's way otherwise."""
        a = t._data
        if t._base is not None or type(a) is not _ndarray or _fw_active[0] or _forward_observers \
                or _pack_hooks or inplace_self[0] is not None or self.keeps or _inference_seen[0]:
            return self.apply((t,), (a,), attrs)
        recorded = t._requires_grad and _mode_state["enabled"]
        if recorded:
            ctx = (self._node or self._make_node())()
            ctx._seq = _next_seq()
        else:
            ctx = _Scratch()
        try:
            out = self.forward(ctx, a, **attrs)
        except ValueError:
            if self.value_error is None:
                raise
            raise self.value_error((a,)) from None
        if type(out) is not _ndarray:
            out = np.asarray(out)  # (numpy's scalar of a full reduction: as Tensor._make wraps it)
        results = _new_tensor(Tensor)  # (Tensor._make: no larger than t, whose size was checked)
        results._data = out
        results._output_nr = 0
        results._grad = results._accumulator = results._base = None
        results._vc = [0]
        results._retains = False
        if not recorded:
            results._requires_grad = False
            results._grad_fn = None
            return results
        for k, v in attrs.items():  # (_set_attrs, inline)
            setattr(ctx, k, v)
        d = out.dtype
        if d is not _F64 and d is not _F32 and d.kind != "f":
            _not_differentiable(d)
        results._grad_fn = ctx
        results._requires_grad = True
        if self._save_plan:
            _record_op(ctx, (t,), (a,), results, self._save_plan)
            if _record_hooks:
                _tell(ctx, t, _ONE_TENSOR, results, self, (a,), attrs)
            return results
        # graph.record_op's work for one tensor and nothing saved, in its order
        fn = t._grad_fn
        if fn is None:
            fn = t._accumulator
            if fn.__class__ is not _AccumulateGrad:
                fn = _recording_node(t)
        ctx.next_functions = ((fn, t._output_nr),)
        ad = a.dtype  # (float64's and float32's records by shape alone, as in apply_one)
        if ad is _F64:
            ctx._input_meta = _META64.get(a.shape) or _meta_of(a, _META64)
        elif ad is _F32:
            ctx._input_meta = _META32.get(a.shape) or _meta_of(a, _META32)
        else:
            ctx._input_meta = _META.get((a.shape, ad)) or _meta(a)
        if not out.ndim:
            ctx._out_meta = _META0_64 if d is _F64 else _META0_32 if d is _F32 else _META0[d]
        else:
            ctx._out_meta = _META.get((out.shape, d)) or _meta(out)
        if _record_hooks:
            _tell(ctx, t, _ONE_TENSOR, results, self, (a,), attrs)
        return results

    def apply_one(self, t, arrays, kernel=None, operand=None, result=None, one=None):
        """:meth:`apply` of a pointwise op with a kernel, no attributes and one tensor ``t``
        (``arrays``: its array, prepared, and for an op of two operands the Python number
        after it): the same result, node, edges and saved tensors on a shorter way when ``t``
        is no view and nothing watches the call (forward AD, forward observers, pack hooks,
        an in-place snapshot); apply's way otherwise.  (The node's sequence number is taken
        after the kernel ran: numpy records nothing, so the order of the nodes is apply's.)
        What the op's kernel would run, where the caller knows it: ``kernel`` on the array (and
        ``operand``, the number as the kernel reads it), or ``result``, the kernel's result.
        ``one``: :data:`ONE64` (:data:`ONE32`) where the caller checked that ``t``'s data is a
        float64 (float32) ndarray of shape (1,) and knows the kernel's result is one too: the
        graph record of both, and nothing is read from either array again."""
        if t._base is not None or _fw_active[0] or _forward_observers or _pack_hooks \
                or inplace_self[0] is not None or self.keeps or _inference_seen[0]:
            return self.apply((t,) if len(arrays) == 1 else (t, None), arrays, _NO_ATTRS)
        single = len(arrays) == 1
        try:
            if result is not None:  # (the kernel's result: the caller ran its steps)
                out = result
            elif kernel is None:
                out = self.kernel(arrays[0]) if single else self.kernel(*arrays)
            elif single:
                out = kernel(arrays[0])
            else:
                out = kernel(arrays[0], operand)
        except ValueError:
            if self.value_error is None:
                raise
            raise self.value_error(arrays) from None
        if one is None:  # (else an ndarray of t's shape (1,) and dtype, float64 or float32: no layout to take)
            if type(out) is not _ndarray:
                if not isinstance(out, np.generic):  # (another backend's array: apply's way, run again)
                    return self.apply((t,) if single else (t, None), arrays, _NO_ATTRS)
                out = np.asarray(out)  # (numpy's scalar for a 0-d array: as Tensor._make wraps it)
            elif out.ndim > 1 and (not single or 1 in out.shape and self._one_iterated
                                   and type(a := arrays[0]) is _ndarray and not a.flags.c_contiguous):
                out = iterator_layout(out, arrays)  # (one operand: its dims of one element keep its strides)
        if not (t._requires_grad and _mode_state["enabled"]):
            return _make(out)
        if one is None:
            d = out.dtype
            if d is not _F64 and d is not _F32 and d.kind != "f":
                _not_differentiable(d)
        # the recording: graph.record_op's work for this case, its steps in its order
        node = (self._node or self._make_node())()
        node._seq = _next_seq()
        results = _new_tensor(Tensor)  # (the shape of t, whose size was checked: no check)
        results._data = out
        results._requires_grad = True
        results._grad_fn = node
        results._output_nr = 0
        results._retains = False
        results._grad = results._accumulator = results._base = None
        results._vc = [0]
        fn = t._grad_fn
        if fn is None:
            fn = t._accumulator
            if fn.__class__ is not _AccumulateGrad:
                fn = _recording_node(t)
        if one is not None:  # (t's data and out: arrays of shape (1,) and one dtype, one's)
            meta = one
            if single:
                node.next_functions = ((fn, t._output_nr),)
                node._input_meta = meta
            else:
                node.next_functions = ((fn, t._output_nr), _NO_EDGE)
                node._input_meta = _ONE64_NUMBER if meta is ONE64 else _ONE32_NUMBER
            node._out_meta = meta
        else:
            data = t._data
            dd = data.dtype
            if dd is _F64:  # (float64's and float32's records by shape alone: no dtype hash)
                meta = _META64.get(data.shape) or _meta_of(data, _META64)
            elif dd is _F32:
                meta = _META32.get(data.shape) or _meta_of(data, _META32)
            else:
                meta = _META.get((data.shape, dd)) or _meta(data)
            if single:
                node.next_functions = ((fn, t._output_nr),)
                node._input_meta = meta
            else:
                node.next_functions = ((fn, t._output_nr), _NO_EDGE)
                node._input_meta = (meta[0], None)
            node._out_meta = meta if d is dd else (_META.get((out.shape, d)) or _meta(out))
        kind = self._plan_kind
        if kind == 1:  # (the loop's work below for these plans, each name written out)
            slot = _SavedTensor()
            slot.name = "self"
            slot.tensor = t
            slot._history = t._grad_fn
            slot.version = t._vc[0]
            slot._meta = meta[0]
            node.self = t
            node._saved = {"self": slot}
        elif kind == 2:
            slot = _SavedTensor()
            slot.name = "result"
            slot.is_output = True
            slot._output = _weakref(results)
            kept_out = _new_tensor(Tensor)  # (graph._linked(results, None), inline)
            kept_out._data = out
            kept_out._requires_grad = True
            kept_out._grad_fn = None
            kept_out._output_nr = 0
            kept_out._grad = kept_out._accumulator = kept_out._base = None
            kept_out._vc = results._vc
            kept_out._retains = False
            slot.tensor = kept_out
            slot.version = 0
            slot._meta = node._out_meta[0]
            node.result = kept_out
            node._saved = {"result": slot}
        elif kind == 3:
            number = arrays[1]
            slot = _SavedNumber()
            slot.number = number
            slot.tensor = _KEPT
            slot.name = "other"
            slot.freed = False
            node.other = number
            node._saved = {"other": slot}
        elif plan := self._plan_one:
            kept = {}
            for name, i in plan:  # (SavedTensor.__init__'s work, attribute by attribute in its order)
                if i == 0:
                    slot = _SavedTensor()
                    slot.name = name
                    slot.tensor = t
                    slot._history = t._grad_fn
                    slot.version = t._vc[0]
                    slot._meta = meta[0]
                    setattr(node, name, t)
                elif i < 0:  # the output, kept as a second tensor object without history (graph._linked)
                    slot = _SavedTensor()
                    slot.name = name
                    slot.is_output = True
                    slot._output = _weakref(results)
                    slot.tensor = kept_out = _linked(results, None)
                    slot.version = 0
                    slot._meta = node._out_meta[0]
                    setattr(node, name, kept_out)
                else:  # the Python number: PyTorch saves it wrapped (SavedNumber.__init__'s work)
                    number = arrays[i]
                    slot = _SavedNumber()
                    slot.number = number
                    slot.tensor = _KEPT
                    slot.name = name
                    slot.freed = False
                    setattr(node, name, number)
                kept[name] = slot
            node._saved = kept
        if _record_hooks:  # (agrad graph's "which line made this": as apply tells them)
            if len(_record_hooks) == 1 and (h := _record_hooks[0]).__class__ is _NodeHook:
                h.fn(node)  # (_tell's work for the one hook, a NodeHook: one frame fewer)
            else:
                _tell(node, t, _ONE_TENSOR if single else None, results, self, arrays, _NO_ATTRS)
        return results

    def apply_two(self, a, b, arrays, kernel=None):
        """:meth:`apply` of a pointwise op with a kernel and no attributes on two tensors ``a`` and
        ``b`` (``arrays``: theirs, prepared; sizes already checked against the limit): the same
        result, node, edges and saved tensors on a shorter way when neither is a view and nothing
        watches the call (as :meth:`apply_one`); apply's way otherwise.  ``kernel``: what the
        op's kernel runs on these arrays, where the caller knows it (``Op.ufunc`` for two float32
        or two float64 arrays)."""
        if a._base is not None or b._base is not None or _fw_active[0] or _forward_observers \
                or _pack_hooks or inplace_self[0] is not None or self.keeps or _inference_seen[0]:
            return self.apply((a, b), arrays, _NO_ATTRS)
        x, y = arrays
        try:
            out = (kernel or self.kernel)(x, y)
        except ValueError:
            if self.value_error is None:
                raise
            raise self.value_error(arrays) from None
        if type(out) is not _ndarray:
            if not isinstance(out, np.generic):  # (another backend's array: apply's way, run again)
                return self.apply((a, b), arrays, _NO_ATTRS)
            out = np.asarray(out)  # (numpy's scalar for 0-d arrays: as Tensor._make wraps it)
        elif out.ndim > 1 and not (type(x) is _ndarray and x.strides == out.strides and 1 not in x.shape):
            # (iterator_layout's first test, inline: x's strides and, x broadcasting to out with no
            # dim of one element, its shape are the result's, so the result is laid out as x decides)
            out = iterator_layout(out, arrays)
        # the result: Tensor._make without its size check (the caller checked the broadcast)
        results = _new_tensor(Tensor)
        results._data = out
        results._output_nr = 0
        results._grad = results._accumulator = results._base = None
        results._vc = [0]
        results._retains = False
        if not ((a._requires_grad or b._requires_grad) and _mode_state["enabled"]):
            results._requires_grad = False
            results._grad_fn = None
            return results
        d = out.dtype
        if d is not _F64 and d is not _F32 and d.kind != "f":
            _not_differentiable(d)
        node = (self._node or self._make_node())()
        node._seq = _next_seq()
        results._grad_fn = node
        results._requires_grad = True
        _record_two(node, a, b, (a, b), results, self._plans_two[a._requires_grad, b._requires_grad])
        if _record_hooks:
            if len(_record_hooks) == 1 and (h := _record_hooks[0]).__class__ is _NodeHook:
                h.fn(node)  # (as in apply_one)
            else:
                _tell(node, a, b, results, self, arrays, _NO_ATTRS)
        return results


def _tell(node, a, b, results, op, arrays, attrs):
    """:data:`graph.record_hooks` told of the node a short way recorded, with what apply gives them:
    the tensors ``(a,)`` (``b`` :data:`_ONE_TENSOR`) or ``(a, b)``, the outputs ``(results,)`` and
    the call ``(op, arrays, attrs)``, built only for a hook that is no :class:`graph.NodeHook`."""
    for hook in _record_hooks:
        if hook.__class__ is _NodeHook:
            hook.fn(node)
        else:
            hook(node, (a,) if b is _ONE_TENSOR else (a, b), (results,), (op, arrays, attrs))


def _record_two(node, a, b, tensors, out, plan):
    """graph.record_op for a call with two tensors, neither a view (``x * w``): the same edges,
    metadata and saved tensors, linked one by one (no lists to grow).  ``out`` has its history;
    ``plan``: the op's ``_plans_two`` entry for which of ``a`` and ``b`` require grad."""
    x = a._data
    y = b._data
    data = out._data
    d = data.dtype
    # the metadata of both inputs and of the output, looked up once each: a 0-d array's from
    # the constants of its dtype, the output's taken over from the input of its shape and dtype
    xd = x.dtype  # (float64's and float32's records by shape alone, as in apply_one: no dtype hash)
    if xd is _F64:
        mx = _META64.get(x.shape) or _meta_of(x, _META64)
    elif xd is _F32:
        mx = _META32.get(x.shape) or _meta_of(x, _META32)
    else:
        mx = _META.get((x.shape, xd)) or _meta(x) if x.ndim else _META0[xd]
    if y.ndim:
        yd = y.dtype
        sy = y.shape
        if yd is _F64:
            my = _META64.get(sy) or _meta_of(y, _META64)
        elif yd is _F32:
            my = _META32.get(sy) or _meta_of(y, _META32)
        else:
            my = _META.get((sy, yd)) or _meta(y)
        # (the output's shape compared, not the inputs': cat, stack, outer, dist of two tensors of one shape)
        ds = data.shape
        if d is yd and ds == sy:
            out_meta = my
        elif d is xd and ds == x.shape:
            out_meta = mx
        else:
            out_meta = _META.get((data.shape, d)) or _meta(data)
    else:
        yd = y.dtype
        my = _META0_64 if yd is _F64 else _META0_32 if yd is _F32 else _META0[yd]
        out_meta = mx if d is xd and data.shape == x.shape else _META.get((data.shape, d)) or _meta(data)
    if a._requires_grad:
        fn = a._grad_fn
        if fn is None:
            fn = a._accumulator
            if fn.__class__ is not _AccumulateGrad:
                fn = _recording_node(a)
        ea = (fn, a._output_nr)
        ma = mx[0]
    else:
        ea = _NO_EDGE
        ma = None
    if b._requires_grad:
        fn = b._grad_fn
        if fn is None:
            fn = b._accumulator
            if fn.__class__ is not _AccumulateGrad:
                fn = _recording_node(b)
        eb = (fn, b._output_nr)
        mb = my[0]
    else:
        eb = _NO_EDGE
        mb = None
    node.next_functions = (ea, eb)
    node._input_meta = (ma, mb)
    node._out_meta = out_meta
    if plan:
        kept = {}
        for name, i in plan:
            if i < 0:  # the output, kept as a second tensor object without history (graph._linked)
                slot = _SavedTensor()
                slot.name = name
                slot.is_output = True
                slot._output = _weakref(out)
                slot.tensor = t = _linked(out, None)
                slot.version = t._vc[0]
                slot._meta = node._out_meta[0]
            else:
                t = tensors[i]
                slot = _SavedTensor()
                slot.name = name
                slot.tensor = t
                slot._history = t._grad_fn
                slot.version = t._vc[0]
                slot._meta = node._input_meta[i]  # (None where t needs no gradient: read at free())
            setattr(node, name, t)
            kept[name] = slot
        node._saved = kept


def _not_differentiable(np_dtype):
    """PyTorch's set_history refuses an op's output of a dtype autograd does not differentiate
    (x.sum(dtype=torch.long) of a tensor that requires grad); in-place ops record into any dtype."""
    from ..dtypes import _BY_NP
    from ..tensor import _scalar_name

    raise RuntimeError("Autograd not support dtype: " + _scalar_name(_BY_NP[np.dtype(np_dtype)]))
