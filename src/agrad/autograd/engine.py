"""The backward pass: iterative, dependency-counted, PyTorch's order.

Every node runs once, after all gradients bound for it have arrived; among
ready nodes the one made last runs first (PyTorch's CPU order, which fixes
the order in which hooks print).  Nothing here recurses, so a chain of any
length runs.  Gradients are reduced to each input's recorded shape and cast
to its dtype once, here, not in the formulas.
"""

from __future__ import annotations

import gc
import heapq

import numpy as np

from .._dense import zero_strided
from . import _dual, _empty_sum, _grad_views, _resized, grad_mode, graph
from .anomaly_mode import _anomaly, nan_message
from ._detached import DETACHES as _DETACHES
from .graph import _KEPT, AccumulateGrad, SavedNumber, SavedTensor, edge
from .accumulate_grad import _NP_SCALARS, _accumulate, _accumulate_array, _lazy_grads, _new_grad, run_post_hooks_of
from .._arrays import KEPT, LAZY
from .._cascade import cascade_sum
from .._warn_once import warn_once
from .._zero import ZeroArray, materialized


#: Whether passes that record nothing run the ops' array formulas where they have one
#: (off: every formula on tensors; tests compare the two).
ARRAY_FORMULAS = True

#: Incremented by every backward() / autograd.grad() call; the CLI reads it to
#: know whether a script ran a backward pass of its own.
runs = 0
#: How many backward passes are running now (nested: a hook may call grad()); tools
#: that watch forward ops (``--anomaly``) ignore the ops of backward formulas.
active = 0

CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter and its "
    "gradient which can cause a memory leak. We recommend using autograd.grad when creating the graph to avoid "
    "this. If you have to use this function, make sure to reset the .grad fields of your parameters to None "
    "after use to break the cycle and avoid the leak.")

#: Callables ``observer(node)`` told when a backward pass starts, of the node it runs
#: first (one of its roots; the command line's target rule).  Unlike ``observers``
#: they leave the pass its array formulas.
start_observers: list = []

#: Callables ``observer(node, grads_in)`` told of the gradients arriving at each
#: node during any backward pass (the graph view's ``--grads``).
observers: list = []

#: Callables ``observer(node, grads_out, grads_in)`` told of what each node's
#: backward formula returned (after its hooks): ``grads_out`` the gradients of
#: its outputs it was given, ``grads_in`` one gradient (or None) per input edge.
apply_observers: list = []

#: Callables ``observer(node, kind, index, fn, returned)`` told of each hook the
#: engine runs (``agrad trace``): ``kind`` "tensor" (``register_hook`` of the
#: tensor that is output ``index``), "pre" (``node.register_prehook``) or "post"
#: (``node.register_hook``); ``returned`` what the hook returned (None: kept).
#: Only nodes with hooks pay for it.
hook_observers: list = []

#: Callables ``observer(node, grad)`` told after an AccumulateGrad node added the
#: arriving ``grad`` into its leaf's ``.grad``.
accumulate_observers: list = []


class _Tie:
    """A ready node in the heap: nodes of one sequence number (leaves' AccumulateGrad) compare equal.

    PyTorch's ready queue is a ``std::priority_queue`` ordered by sequence number alone, and
    heapq moves items as libstdc++'s ``push_heap``/``pop_heap`` do (a tie: the right child, no
    swap with the parent), so with ties left equal the leaves run in PyTorch's order (which hook
    raises first, which ``.grad`` is set before it).
    """

    __slots__ = ("node",)

    def __init__(self, node):
        self.node = node

    def __eq__(self, other):
        return True

    __hash__ = None


#: ``capture_at`` of a pass that captures nothing (read only)
_NONE_CAPTURED: dict = {}


def _collect(roots):
    """Dependency counts of every node reachable from ``roots``, iteratively (a root's count:
    how many edges lead to it from other roots), and the nodes reached: the same dict's keys."""
    deps = {}
    stack = []
    for n in roots:  # a root given twice (grad([a, a], ...)) is walked once
        if n is not None and n not in deps:
            deps[n] = 0
            stack.append(n)
    push = stack.append
    pop = stack.pop
    while stack:
        for nxt, _ in pop().next_functions:
            if nxt is not None:
                if nxt in deps:
                    deps[nxt] += 1
                else:
                    deps[nxt] = 1
                    push(nxt)
    return deps, deps


def _needed(nodes, targets):
    """The nodes from which a target node can be reached (others need not run).  A target itself
    runs only when another target lies beyond it: PyTorch takes a captured gradient at the node's
    input, then neither runs the node nor frees its graph (its tensor hooks still run)."""
    needed = set()
    # Reverse edges, then walk back from the targets.
    parents = {}
    for node in nodes:
        for nxt, _ in node.next_functions:
            if nxt is not None:
                parents.setdefault(nxt, []).append(node)
    stack = list(set(targets))
    while stack:
        n = stack.pop()
        for p in parents.get(n, ()):
            if p not in needed:
                needed.add(p)
                stack.append(p)
    return needed


#: What PyTorch's engine says when a gradient would flow into an integer or bool tensor: only
#: an in-place op of such a tensor with an argument that requires grad (``x.ge_(w)``) records one
_NOT_DIFFERENTIABLE = ('isDifferentiableType(grad.scalar_type()) INTERNAL ASSERT FAILED at '
                       '"/__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp":998, please report a bug to PyTorch. ')


def _fit(grad, meta):
    """Reduce a broadcast gradient to the input's shape and cast it to its dtype."""
    shape, dtype = meta
    data = grad._data
    if data.shape != shape:
        grad = grad.sum_to_size(shape)
    if data.dtype != dtype.numpy:
        if dtype.numpy.kind not in "fc":
            raise RuntimeError(_NOT_DIFFERENTIABLE)
        grad = grad.to(dtype)
    return grad


def _run_tensor_hooks(node, idx, grad):
    hooks = node._pre_hooks.get(idx) if node._pre_hooks else None
    if hooks:
        for fn in list(hooks.values()):
            new = fn(grad)
            for obs in hook_observers:
                obs(node, "tensor", idx, fn, new)
            if new is not None:
                _check_hook_value(grad, new, fn)
                grad = new
    return grad


def _hook_name(fn) -> str:
    name = getattr(fn, "__name__", None)
    return name if type(name) is str else "<unknown>"


def _check_hook_value(old, new, fn):
    """PyTorch's check of a gradient a hook returned in place of ``old`` (python_hook.cpp's
    check_single_result, then check_variable_result): a tensor of the same dtype and size."""
    if new is None:
        return
    if old is None:
        raise RuntimeError("can't replace a None gradient with a non-None value")
    if not _is_tensor(new):
        from ..ops._pyargs import tp_name
        raise TypeError(f"expected Variable, but hook returned '{tp_name(new)}'")
    if new.dtype is not old.dtype:
        from .._cpp_print import cpp_type_name
        raise RuntimeError(f"hook '{_hook_name(fn)}' has changed the type of value "
                           f"(was {cpp_type_name(old.dtype)} got {cpp_type_name(new.dtype)})")
    if new._data.shape != old._data.shape:
        raise RuntimeError(f"hook '{_hook_name(fn)}' has changed the size of value")


def _check_hook_values(old, new, fn):
    """check_result: what a node's hook (or pre-hook) returned in place of the tuple ``old``."""
    if type(new) is not tuple:
        from ..ops._pyargs import tp_name
        raise TypeError(f"expected tuple, but hook returned '{tp_name(new)}'")
    if len(new) != len(old):
        raise RuntimeError(f"hook '{_hook_name(fn)}' has returned an incorrect number of values "
                           f"(got {len(new)}, but expected {len(old)})")
    for o, n in zip(old, new):
        _check_hook_value(o, n, fn)


def execute(roots, grad_roots, *, keep_graph, create_graph, accumulate=True, capture=()):
    """Run backward from ``roots`` (list of (node, index)) with seed gradients.

    With ``accumulate`` gradients land in the leaves' ``.grad``; ``capture``
    lists (node, index) edges whose arriving gradient is returned instead
    (``autograd.grad``), in order.
    """
    global runs, active
    runs += 1
    root_nodes = [n for n, _ in roots]
    deps, nodes = _collect(root_nodes)
    capture_at = _NONE_CAPTURED
    if capture:
        capture_at = {}
        for k, (n, i) in enumerate(capture):
            capture_at.setdefault(n, []).append((i, k))
    needed = wanted = None
    if not accumulate:
        needed = _needed(nodes, [n for n, _ in capture])
        # the nodes PyTorch's engine queues (exec_info's should_execute: needed or captured); others
        # would only take places in the heap, and those decide the order of leaves that tie
        wanted = needed | capture_at.keys()

    check_nan = _anomaly["enabled"] and _anomaly["check_nan"]
    watched = bool(observers or apply_observers or capture_at or check_nan)
    # Without create_graph, nothing is recorded: gradients travel as arrays and the hot
    # ops' array formulas run (others see tensors).  Watchers, lazy data and forward-mode
    # tangents (a gradient taken inside a dual level has one) see tensors.
    raw = ARRAY_FORMULAS and not create_graph and not (observers or apply_observers or check_nan or KEPT) \
        and _dual._LEVEL[0] is None  # inside a dual level, formulas on tensors carry the tangents

    stale = _resized.NODES or None  # (nodes whose output was resized: their records checked, _resized.py)
    if stale is not None:
        grad_roots = _resized.roots(roots, grad_roots)
    buffers = {}
    heap = []
    # the node to run next when it is the only one ready (a chain): it skips the heap; ``carried``
    # its gradient (of output 0) when that is the only one it was sent: never buffered
    ready = carried = None
    if len(roots) == 1:  # (backward() of one tensor: it runs first, nothing buffered)
        node, idx = roots[0]
        g = grad_roots[0]._data
        # arrays a leaf does not take: the caller's (True: a view of one may be taken) and, as the
        # pass goes, those leaves took (False: nor views of them) and the bases of taken views (True)
        seeds = {id(g): True}
        if not raw:
            g = grad_roots[0]
        ready = node
        if idx == 0:
            carried = g
        else:
            buffers[node] = {idx: g}
    else:
        seeds = dict.fromkeys(map(id, [g._data for g in grad_roots]), True)
        for (node, idx), g in zip(roots, grad_roots):
            if raw:
                g = g._data
            buf = buffers.setdefault(node, {})
            buf[idx] = g if idx not in buf else _plus(buf[idx], g)
        pushed = set()
        for node in root_nodes:
            if deps.get(node, 0) == 0 and node not in pushed and (wanted is None or node in wanted):
                pushed.add(node)
                heapq.heappush(heap, (-node._seq, _Tie(node)))

    captured = [None] * len(capture)
    if start_observers and (ready is not None or heap):
        for obs in start_observers:
            obs(ready if ready is not None else heap[0][1].node)

    state = grad_mode._state
    prev_enabled = state["enabled"]
    state["enabled"] = bool(create_graph) and not state["inference"]  # (inference mode records nothing)
    heappop, heappush = heapq.heappop, heapq.heappush
    active += 1
    # (a formula asks whether an input's gradient is wanted: its edge runs or is captured)
    was_needed, graph.needed_now[0] = graph.needed_now[0], wanted
    # Nothing a backward pass makes is cyclic (without create_graph); the collector
    # would only walk the whole graph again and again while its gradients come and go.
    paused = not create_graph and gc.isenabled()
    if paused:
        gc.disable()
    try:
        while True:
            if ready is not None:
                node = ready
                ready = None
                if carried is not None:
                    g = carried
                    carried = grads = None
                else:
                    grads = buffers.pop(node, None) or {}
                    g = grads.get(0)
            elif heap:
                node = heappop(heap)[1].node
                grads = buffers.pop(node, None) or {}
                g = grads.get(0)
            else:
                break
            nexts = node.next_functions
            # (node._raw read once, bound; None on a node that is watched)
            if raw and (formula := node._raw) is not None and (not capture_at or node not in capture_at):
                # the hot path: an array formula (or a leaf's accumulation), nothing watching
                if type(node) is AccumulateGrad:
                    # (a leaf that no longer requires grad, detach_() or requires_grad_(False) after it was
                    # used, takes nothing: PyTorch's AccumulateGrad returns first)
                    if accumulate and g is not None and (node.variable is None or node.variable._requires_grad):
                        if type(g) in _NP_SCALARS and node.variable is not None and node.variable._grad is None:
                            node.variable._grad = _make(g)  # (a reduction's scalar: no one else holds it)
                        else:
                            _accumulate_array(node, g, seeds, buffers)
                        if accumulate_observers:
                            g = node.variable._grad
                            for obs in accumulate_observers:
                                obs(node, g)
                    grads = g = None
                    continue  # (an AccumulateGrad node has no edges)
                if needed is None or node in needed:
                    saved = node._saved
                    if g is None:
                        in_grads = node.apply((None,)) if getattr(node, "_runs_undefined", False) else (None,) * len(nexts)
                    else:  # OpNode.apply_raw, inlined (one Python frame less for every node of the pass)
                        if saved is not None and _DETACHES[0]:  # (a saved input detached in place? autograd._detached)
                            node._unpack_saved(False)
                        elif saved is not None:  # each checked against its version
                            for slot in saved.values():
                                t = slot.tensor
                                if t is not _KEPT and (t is None or t._vc[0] != slot.version):  # (_KEPT: a number's)
                                    node._unpack_saved(False)  # (every one that needs it, in PyTorch's order)
                                    break
                        in_grads = formula(g)
                        if type(in_grads) is not tuple:
                            in_grads = node._raw_fallback(g) if in_grads is NotImplemented else (in_grads,)
                        if g.base is not None and g.ndim > 1 and not g.flags.c_contiguous \
                                and not zero_strided(g) and node._grad_first:
                            in_grads = _like_grad(in_grads, g)
                        if len(in_grads) != len(nexts):  # (every edge counts down below, with or without one)
                            in_grads = (in_grads + (None,) * len(nexts))[:len(nexts)]
                    grads = g = None
                    # _route_arrays and the scheduling below, inlined and in one loop (one Python
                    # frame less for every node of the pass): a gradient that is the only one its
                    # node gets, and that node runs next, is handed over without a buffer
                    metas = node._input_meta if stale is None else _resized.metas(node, in_grads, nexts)
                    for g, (nxt, idx), meta in zip(in_grads, nexts, metas):
                        if nxt is None:
                            continue
                        left = deps[nxt] - 1
                        deps[nxt] = left
                        if g is not None:
                            npd = meta[1].numpy
                            if g.shape != meta[0] or (g.dtype is not npd and g.dtype != npd):
                                if meta[0] or g.dtype is not npd or g.size > 4 or type(g) is not _ndarray:
                                    g = _fit_array(g, meta)
                                else:  # (reduce_to of a few elements to a 0-d input, inlined)
                                    g = _add_reduce(g, axis=None)
                            buf = buffers.get(nxt)
                            if buf is None:
                                if left == 0 and idx == 0 and ready is None and not heap \
                                        and (wanted is None or nxt in wanted):
                                    ready = nxt
                                    carried = g
                                    continue
                                buffers[nxt] = {idx: g}
                            elif idx in buf:
                                buf[idx] = _plus(buf[idx], g)
                            else:
                                buf[idx] = g
                        if left == 0 and (wanted is None or nxt in wanted):
                            if ready is None and not heap:
                                ready = nxt
                            else:
                                if ready is not None:
                                    if carried is not None:
                                        buffers[ready] = {0: carried}
                                        carried = None
                                    heappush(heap, (-ready._seq, _Tie(ready)))
                                    ready = None
                                heappush(heap, (-nxt._seq, _Tie(nxt)))
                    if saved is not None and not keep_graph:  # (after the routing's checks: PyTorch releases
                        # after validate_outputs, so a failed check keeps them for the next pass)
                        # node.release() of an op's node (whose class keeps Node.release), with the
                        # slots' free() inline for a plain saved tensor and a saved number
                        for s in saved.values():
                            t = s.tensor
                            ts = type(s)
                            if t is not None and ts is SavedTensor:  # (a slot a pack hook packed holds no tensor)
                                if s._meta is None:
                                    data = t._data
                                    s._meta = (data.shape, data.dtype)
                                s.tensor = None
                                s._history = None  # (and the input's history: its nodes may die now)
                                s.freed = True
                            elif ts is SavedNumber:
                                s.tensor = None
                                s.freed = True
                            else:
                                s.free()
                            try:
                                delattr(node, s.name)
                            except AttributeError:
                                pass
                    in_grads = g = None
                    continue
            else:
                if grads is None:
                    grads = {0: g}
                if raw and grads:  # formulas on tensors, or something watching, see tensors
                    grads = {i: _make(g) for i, g in grads.items()}
                if node._watched:  # (PyTorch runs no other node's hooks; a captured one's tensor hooks only)
                    if needed is None or node in needed:
                        grads = _inspect(node, grads, create_graph)
                    elif node in capture_at:
                        grads = _inspect(node, grads, create_graph, node_hooks=False)
                if watched:
                    if capture_at:
                        for i, k in capture_at.get(node, ()):
                            captured[k] = grads.get(i)
                    for obs in observers:
                        obs(node, grads)

                if type(node) is AccumulateGrad:
                    if accumulate and 0 in grads and (node.variable is None or node.variable._requires_grad):
                        g = grads[0]
                        _accumulate(node, g, create_graph, seeds, buffers)
                        for obs in accumulate_observers:
                            obs(node, g)
                elif needed is None or node in needed:
                    out_meta = node._out_meta
                    out_grads = [grads.get(0)] if len(out_meta) == 1 else [grads.get(i) for i in range(len(out_meta))]
                    in_grads = node.apply(out_grads)
                    if node._hooks:
                        in_grads = _computed_only(node, in_grads, nexts, wanted)
                        for fn in list(node._hooks.values()):
                            in_grads = tuple(in_grads)
                            new = fn(in_grads, tuple(out_grads))
                            for obs in hook_observers:
                                obs(node, "post", None, fn, new)
                            if new is not None:
                                _check_hook_values(in_grads, new, fn)
                                in_grads = new
                    if watched:
                        for obs in apply_observers:
                            obs(node, out_grads, in_grads)
                        if check_nan:
                            _check_nan(node, in_grads)
                    if raw:
                        _route_arrays(node, nexts, [None if g is None else g._data for g in in_grads], buffers)
                    else:
                        _route(node, nexts, in_grads, buffers)
                    if not keep_graph and node._saved is not None:  # (after validate_outputs' checks: _route's)
                        node.release()
                    # let go of this node's gradients now, not when the next node has run
                    # (a chain of large arrays would otherwise hold one more at its peak)
                    out_grads = in_grads = g = None
            grads = None
            for nxt, _ in nexts:
                if nxt is not None:
                    left = deps[nxt] - 1
                    deps[nxt] = left
                    if left == 0 and (wanted is None or nxt in wanted):
                        if ready is None and not heap:
                            ready = nxt
                        else:
                            if ready is not None:
                                heappush(heap, (-ready._seq, _Tie(ready)))
                                ready = None
                            heappush(heap, (-nxt._seq, _Tie(nxt)))
    finally:
        state["enabled"] = prev_enabled
        active -= 1
        graph.needed_now[0] = was_needed
        if paused:
            gc.enable()
    return captured


def _route_arrays(node, nexts, in_grads, buffers):
    """Each input's gradient (an array, or None) into the buffer of the node it flows to,
    summed to the input's shape and cast to its dtype; added to what is there."""
    for g, (nxt, idx), meta in zip(in_grads, nexts, _resized.metas_of(node, in_grads, nexts)):
        if g is None or nxt is None:
            continue
        npd = meta[1].numpy
        if g.shape != meta[0] or (g.dtype is not npd and g.dtype != npd):
            g = _fit_array(g, meta)
        buf = buffers.get(nxt)
        if buf is None:
            buffers[nxt] = {idx: g}
        elif idx in buf:
            buf[idx] = _plus(buf[idx], g)
        else:
            buf[idx] = g


def _route(node, nexts, in_grads, buffers):
    """:func:`_route_arrays` for gradients that are tensors: every gradient is fitted to its
    input (its reduction recorded) before any is added into a buffer, as PyTorch's engine
    validates all of a node's outputs before accumulating them (the recorded order of a
    ``create_graph`` graph)."""
    fitted = []
    for g, nxt_idx, meta in zip(in_grads, nexts, _resized.metas_of(node, in_grads, nexts)):
        if g is None or nxt_idx[0] is None:
            continue
        data = g._data
        npd = meta[1].numpy
        if data.shape != meta[0] or (data.dtype is not npd and data.dtype != npd):
            g = _fit(g, meta)
        fitted.append((g, nxt_idx))
    for g, (nxt, idx) in fitted:
        buf = buffers.get(nxt)
        if buf is None:
            buffers[nxt] = {idx: g}
        elif idx in buf:
            buf[idx] = _plus_tensors(buf[idx], g)
        else:
            buf[idx] = g


def _make(array):
    """Tensor._make (bound on first use: the engine is imported before the tensor class)."""
    global _make
    from ..tensor import Tensor
    _make = Tensor._make
    return _make(array)


def _fit_array(grad, meta):
    """:func:`_fit` on an array: summed down to the input's shape, cast to its dtype."""
    shape, dtype = meta
    if grad.shape != shape:
        grad = reduce_to(grad, shape)
    npd = dtype.numpy
    if grad.dtype != npd:
        if npd.kind not in "fc":
            raise RuntimeError(_NOT_DIFFERENTIABLE)
        if grad.dtype.kind == "c" or npd.kind == "c":
            return _fit(_make(grad), meta)._data
        grad = grad.astype(npd)
    return grad


_add_reduce = np.add.reduce


def _plus(a, b):
    """InputBuffer's accumulation of two gradient arrays in a pass that records nothing: a ZeroTensor that
    arrives second is added in place (``old.add_(z)``: no ZeroTensor kernel, -0.0 + 0 is +0.0); one that
    arrives first gives the other as it is (the ufunc's ``z + t``)."""
    if type(b) is ZeroArray and type(a) is not ZeroArray:
        return np.add(a, materialized(b))
    out = a + b
    if type(out) is _ndarray and not out.size and out.ndim and type(a) is _ndarray and a is not b \
            and _empty_sum.in_place(a, b):
        return _empty_sum.kept(a)  # (old.add_(var): old's strides)
    if type(out) is _ndarray and out.ndim > 1 and type(a) is _ndarray and a.strides != getattr(b, "strides", None):
        from ..ops._layout import iterator_layout  # (laid out as ATen's old.add_(var) / old + var: old first)
        out = iterator_layout(out, (a, b))
    return out


def _plus_tensors(a, b):
    """:func:`_plus` for gradients that are tensors: out of place while a graph is recorded (add's
    ZeroTensor kernel: ``t + z`` is t, a -0.0 kept), else as :func:`_plus`."""
    if not grad_mode._state["enabled"] and type(b._data) is ZeroArray and type(a._data) is not ZeroArray:
        return type(a)._make(_plus(a._data, b._data))
    return a + b


_ndarray = np.ndarray


def reduce_to(a, shape):
    """``a`` summed over the axes along which ``shape`` was broadcast to ``a.shape``
    (``Tensor.sum_to_size``'s maths; shapes already known to be compatible)."""
    if not shape:  # a 0-d input (a scalar weight): everything summed
        # in PyTorch's order, where it is known (up to 4 elements numpy's is PyTorch's: one after the other)
        out = cascade_sum(a, tuple(range(a.ndim)), False) if a.size > 4 or type(a) is not np.ndarray else None
        return _add_reduce(a, axis=None) if out is None else out
    have = a.shape
    lead = len(have) - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape) if s == 1 and have[i + lead] != 1)
    if not axes:  # nothing broadcast: the gradient itself, as ATen's sum_to (a leaf copies it)
        return a
    out = cascade_sum(a, axes, True)
    if out is None:
        out = np.add.reduce(a, axis=axes, keepdims=True)
    if not out.flags.c_contiguous and type(out) is np.ndarray:  # (ATen's sum_to: a sum, contiguous)
        out = out.copy()
    return out.reshape(shape)


def _check_nan(node, in_grads):
    """Anomaly mode: PyTorch's error when a backward formula returned NaN."""
    for i, g in enumerate(in_grads):
        if g is not None and g._data.dtype.kind in "fc" and np.isnan(g._data).any():
            raise RuntimeError(nan_message(node, i))


def _computed_only(node, in_grads, nexts, wanted):
    """What a node's post-hooks see: PyTorch's generated nodes compute an input's gradient only where
    task_should_compute_output says so (an edge, to a node this pass executes); a formula over a list
    of tensors (cat's, stack's) and a custom Function's backward give them all; each one fitted to its input
    first (validate_outputs)."""
    if getattr(getattr(node, "_op", None), "inputs", ()):
        in_grads = tuple([None if nxt is None or wanted is not None and nxt not in wanted else g
                          for g, (nxt, _) in zip(in_grads, nexts)]) + tuple(in_grads[len(nexts):])
    # (validate_outputs runs before the post-hooks: each gradient summed to its input's shape, cast to its dtype)
    metas = node._input_meta
    return tuple([g if g is None or meta is None or g._data.shape == meta[0] and g._data.dtype == meta[1].numpy
                  else _fit(g, meta) for g, meta in zip(in_grads, metas)]) + tuple(in_grads[len(metas):])


def _like_grad(in_grads, g):
    """An elementwise op's input gradients laid out as PyTorch's backward kernels lay them out: like
    the gradient ``g`` (dense, not C-ordered), their first operand (numpy's leans to C order); ``g``
    itself passed through (add's, clone's) as it is."""
    from ..ops._layout import iterator_layout
    return tuple([iterator_layout(r, (g,)) if type(r) is np.ndarray and r.shape == g.shape and r is not g else r
                  for r in in_grads])


def _inspect(node, grads, create_graph, node_hooks=True):
    """Tensor hooks (which may replace a gradient), retain_grad (which sees what they made), then
    the node's pre-hooks: PyTorch's call_tensor_pre_hooks, then call_pre_hooks."""
    pre = node._pre_hooks
    if pre:
        for idx in list(pre):  # each tensor's hooks, None where no gradient arrived
            if idx >= 0:
                g = _run_tensor_hooks(node, idx, grads.get(idx))
                if g is not None:
                    grads[idx] = g
    if node._retained:
        for idx, ref in node._retained.items():
            t = ref()
            if t is not None and idx in grads:
                g = grads[idx] if create_graph else grads[idx].detach()
                # (PyTorch's retain_grad hook: clone(MemoryFormat::Contiguous) of the first gradient)
                if t._grad is None:
                    from ..ops.memory_format import contiguous_format
                    t._grad = g.clone(memory_format=contiguous_format)  # (an empty one: contiguous strides too)
                else:
                    t._grad = t._grad + g
    hooks = pre.get(-1) if pre and node_hooks else None
    if hooks:
        for fn in list(hooks.values()):
            old = tuple(grads.get(i) for i in range(len(node._out_meta)))
            new = fn(old)
            for obs in hook_observers:
                obs(node, "pre", None, fn, new)
            if new is not None:
                _check_hook_values(old, new, fn)
                grads = {i: g for i, g in enumerate(new) if g is not None}
    return grads


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """torch.autograd.backward: accumulate gradients of ``tensors`` into the leaves."""
    tensors, grad_tensors = _prepare(tensors, grad_tensors)
    if retain_graph is None:
        retain_graph = create_graph
    roots = [edge(t) for t in tensors]
    if inputs is not None:
        inputs = _inputs_tuple(inputs, "backward")
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        for t in inputs:
            if not t.requires_grad:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
        if create_graph:
            warn_once(CREATE_GRAPH_WARNING, UserWarning)
        # Gradients are computed only for `inputs`: route through grad() and accumulate.
        grads = _grad_impl(tensors, inputs, grad_tensors, retain_graph, create_graph, True, roots)
        seeds = dict.fromkeys(map(id, [s._data for s in grad_tensors]), True)
        for t, g in zip(inputs, grads):
            if g is None:
                continue
            if t.grad_fn is not None and not t.retains_grad:
                continue
            t._grad = _new_grad(t._grad, g, create_graph, seeds, t._data)
            if t._grad_fn is None:
                run_post_hooks_of(t)
        if LAZY:
            _compute_lazy(tensors, [t._grad for t in inputs
                                    if t._grad is not None and type(t._data) not in LAZY])
        return
    if create_graph:  # TORCH_WARN_ONCE in Engine::execute
        warn_once(CREATE_GRAPH_WARNING, UserWarning)
    _lazy_grads.clear()  # (left by a pass that raised)
    execute(roots, grad_tensors, keep_graph=retain_graph, create_graph=create_graph)
    if _lazy_grads:
        _compute_lazy(tensors, ())


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """torch.autograd.grad: the gradients of ``outputs`` w.r.t. ``inputs``, not accumulated
    (a dict of them for a dict of ``inputs``, as PyTorch 2.13)."""
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    keys = tuple(inputs) if type(inputs) is dict else None
    inputs = _inputs_tuple(inputs, "grad")
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if is_grads_batched:
        outputs = (outputs,) if _is_tensor(outputs) else tuple(outputs)
    else:
        outputs, grad_outputs = _prepare(outputs, grad_outputs)
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    if is_grads_batched:
        from .batched import batched_grad, check_seeds
        grad_outputs = check_seeds(outputs, grad_outputs)

        def one_pass(seeds, keep):
            return _grad_impl(outputs, inputs, _prepare(outputs, seeds)[1], keep, create_graph, True,
                              [edge(t) for t in outputs])

        result = batched_grad(outputs, inputs, grad_outputs, retain_graph=retain_graph, create_graph=create_graph,
                              allow_unused=allow_unused, one_pass=one_pass)
    else:
        roots = [edge(t) for t in outputs]
        result = _grad_impl(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, roots)
        if LAZY:
            _compute_lazy(outputs, [g for g, t in zip(result, inputs)
                                    if g is not None and type(t._data) not in LAZY])
    if materialize_grads:
        from ..ops import factories
        lead = (grad_outputs[0].shape[0],) if is_grads_batched else ()
        result = [g if g is not None else factories.zeros(lead + tuple(t.shape), dtype=t.dtype,
                                                          requires_grad=bool(create_graph))
                  for g, t in zip(result, inputs)]
    return tuple(result) if keys is None else dict(zip(keys, result))


def _inputs_tuple(inputs, fn):
    """The ``inputs`` of ``backward``/``grad`` as a tuple: one tensor, the values of a dict, or a sequence."""
    if _is_tensor(inputs):
        return (inputs,)
    if type(inputs) is dict:
        return tuple(inputs.values())
    from collections.abc import Mapping
    if isinstance(inputs, Mapping):
        raise TypeError(f"`inputs` argument to `{fn}()` must be a dict, not {type(inputs).__name__}. "
                        "Other Mapping types are not supported.")
    return tuple(inputs)


def _compute_lazy(outputs, grads) -> None:
    """Lazy (dask) data: the gradients of numpy leaves and the outputs the pass started
    from are computed in one go, so the data behind them is read once."""
    from .. import _arrays
    todo = list(grads) + _lazy_grads
    _lazy_grads.clear()
    todo += [t for t in outputs if t._data.size <= _arrays.SMALL]
    _arrays.compute(todo)


def _grad_impl(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, roots):
    capture = [edge(t) for t in inputs]
    captured = execute(roots, grad_outputs, keep_graph=retain_graph, create_graph=create_graph,
                       accumulate=False, capture=capture)
    result = []
    for i, g in enumerate(captured):
        if g is None and not allow_unused:
            raise RuntimeError(
                f"The differentiated Tensor at index {i} appears to not have been used in the graph. "
                "Set allow_unused=True if this is the desired behavior."
            )
        if g is not None and not create_graph:
            g = _grad_views._detached(g)
        result.append(g)
    if not create_graph and any(g is not None and getattr(g._data, "base", None) is not None for g in result):
        # (PyTorch's formulas' views, _grad_views: a numpy view at least)
        result = _grad_views.as_views(result, capture, _collect([n for n, _ in roots])[1], roots, grad_outputs)
    return result


_Tensor = None  # agrad.tensor imports this module: the class is looked up once, on first use


def _is_tensor(x):
    global _Tensor
    if _Tensor is None:
        from ..tensor import Tensor as _Tensor
    return isinstance(x, _Tensor)


from ._seeds import prepare as _prepare  # noqa: E402  (torch.autograd's _make_grads; it uses this module)

