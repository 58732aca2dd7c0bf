"""``autograd.grad(..., is_grads_batched=True)``: one backward pass for a batch of seeds.

The first dimension of every seed is the batch.  The pass walks the graph
once, in the engine's order, carrying gradients of shape ``(B, *shape)``:

* a node whose formula only combines the gradient elementwise with its saved
  tensors (:data:`ELEMENTWISE`) runs its own formula on the batched gradient
  (broadcasting puts the batch in front);
* a node with a batching rule (:data:`RULES`: matrix products, views,
  reductions, indexing, cat/stack, softmax) runs the rule, which shifts its
  dimensions past the batch;
* any other node runs its formula once per batch element and the results are
  stacked -- correct for every node, only slower.

Gradients are reduced to each input's shape behind the batch dimension once,
here.  A graph with hooks (tensor or node hooks, ``retain_grad``) or under
anomaly detection is differentiated one seed at a time by the ordinary
engine, so hooks see what they see in a plain backward pass.
"""

from __future__ import annotations

import heapq

import numpy as np

from . import grad_mode
from .anomaly_mode import _anomaly
from .engine import _Tie
from .graph import AccumulateGrad, edge
from .graph import _state as graph_state

#: Nodes whose formula is elementwise in the gradient (checked against the
#: one-seed-at-a-time result by tests/autograd/test_batched_grad.py).
ELEMENTWISE = frozenset("""
    AddBackward0 SubBackward0 MulBackward0 DivBackward0 NegBackward0 PowBackward0 PowBackward1
    AddBackward1 SubBackward1 MulBackward1 DivBackward1 RsubBackward1 ReciprocalBackward0
    ExpBackward0 LogBackward0 SinBackward0 CosBackward0 TanBackward0 TanhBackward0 SigmoidBackward0
    SqrtBackward0 RsqrtBackward0 AbsBackward0 ReluBackward0 Expm1Backward0 Log1PBackward0
    SinhBackward0 CoshBackward0 AsinBackward0 AcosBackward0 AtanBackward0 ErfBackward0
    TanhBackwardBackward0 SigmoidBackwardBackward0 ThresholdBackwardBackward0 WhereBackward0
    CloneBackward0 AliasBackward0 ToCopyBackward0
""".split())


def _saved(node):
    """The node's saved tensors, checked and unpacked as OpNode.apply does."""
    if node._saved is not None:
        node._unpack_saved(False)
    return node


def _run_rule(rule, node, g, B):
    """A batching rule run as OpNode.apply runs a formula: saved tensors checked, a saved output linked
    to the node for the call under create_graph (so the rule's graph differentiates through it), a
    formula's Scalar overloads."""
    linked = node._saved is not None and node._unpack_saved(graph_state["enabled"])
    outer = graph_state["formula"]
    graph_state["formula"] = True
    try:
        return rule(node, g, B)
    finally:
        graph_state["formula"] = outer
        if linked:
            node._unlink_saved()


def _mm(node, g, B):
    n = _saved(node)
    return (g.matmul(n.mat2.t()) if n.needs(0) else None,
            n.self.t().matmul(g) if n.needs(1) else None)


def _mv(node, g, B):
    n = _saved(node)
    return (g.unsqueeze(-1) * n.vec if n.needs(0) else None,
            g.matmul(n.self) if n.needs(1) else None)


def _dot(node, g, B):
    n = _saved(node)
    g = g.unsqueeze(-1)
    return (g * n.tensor if n.needs(0) else None, g * n.self if n.needs(1) else None)


def _addmm(node, g, B):
    n = _saved(node)
    beta, alpha = n.beta, n.alpha
    g1 = g.matmul(n.mat2.t()) if n.needs(1) else None
    g2 = n.mat1.t().matmul(g) if n.needs(2) else None
    return (g * beta if beta != 1 else g,
            g1 * alpha if g1 is not None and alpha != 1 else g1,
            g2 * alpha if g2 is not None and alpha != 1 else g2)


def _reshape(node, g, B):
    return g.reshape((B,) + tuple(node.input_shape))


def _t(node, g, B):
    return g.transpose(1, 2) if g.ndim == 3 else g


def _transpose(node, g, B):
    return g.transpose(node.dim0 + 1, node.dim1 + 1) if g.ndim > 1 else g


def _permute(node, g, B):
    inv = np.argsort(node.dims)
    return g.permute((0,) + tuple(int(i) + 1 for i in inv))


def _unsqueeze(node, g, B):
    return g.squeeze(node.dim + 1)


def _expand_back(g, B, shape, axes, keepdim):
    kept = list(shape)
    if not keepdim:
        for a in axes:
            kept[a] = 1
        g = g.reshape((B,) + tuple(kept))
    return g.expand((B,) + tuple(shape))


def _sum0(node, g, B):
    shape = tuple(node.input_shape)
    return g.reshape((B,) + (1,) * len(shape)).expand((B,) + shape)


def _sum1(node, g, B):
    return _expand_back(g, B, node.input_shape, node.axes, node.keepdim)


def _mean0(node, g, B):
    return _sum0(node, g, B) / node.n


def _mean1(node, g, B):
    return _sum1(node, g, B) / node.n


def _shift(dim):
    """A dimension of the unbatched tensor as a dimension of the batched one."""
    return dim + 1 if dim >= 0 else dim


def _embed(node, g, B):
    from ..ops.indexing import embed
    idx = node.index if type(node.index) is tuple else (node.index,)
    return embed(g, (B,) + tuple(node.input_shape), (slice(None),) + idx)


def _cat(node, g, B):
    out, start, d = [], 0, _shift(node.dim)
    for n in node.sizes:
        if n is None:  # a legacy empty input (ops.joining.cat)
            out.append(g.new_zeros((B, 0)))
            continue
        out.append(g.narrow(d, start, n))
        start += n
    return tuple(out)


def _unbind(node, g, B):
    return tuple(g.unbind(_shift(node.dim)))


def _softmax(node, g, B):
    y = _saved(node).result
    if y.ndim == 0:
        return g * 0
    return y * (g - (g * y).sum(_shift(node.dim), keepdim=True))


def _log_softmax(node, g, B):
    y = _saved(node).result
    if y.ndim == 0:
        return g * 0
    return g - y.exp() * g.sum(_shift(node.dim), keepdim=True)


def _identity(node, g, B):
    return g   # ExpandBackward0: the reduction to the input's shape is the engine's


#: Batching rules: node name -> rule(node, batched gradient, B) -> gradients per input.
RULES = {
    "MmBackward0": _mm, "MvBackward0": _mv, "DotBackward0": _dot, "AddmmBackward0": _addmm,
    "ViewBackward0": _reshape, "UnsafeViewBackward0": _reshape, "ReshapeAliasBackward0": _reshape,
    "SqueezeBackward0": _reshape, "SqueezeBackward1": _reshape, "SqueezeBackward2": _reshape,
    "SqueezeBackward4": _reshape, "TBackward0": _t, "TransposeBackward0": _transpose,
    "PermuteBackward0": _permute, "UnsqueezeBackward0": _unsqueeze, "ExpandBackward0": _identity,
    "SumBackward0": _sum0, "SumBackward1": _sum1, "MeanBackward0": _mean0, "MeanBackward1": _mean1,
    "SelectBackward0": _embed, "SliceBackward0": _embed, "CatBackward0": _cat, "StackBackward0": _unbind,
    "SoftmaxBackward0": _softmax, "LogSoftmaxBackward0": _log_softmax,
}


def vectorised(node) -> bool:
    """Whether ``node`` runs once for the whole batch (else once per batch element)."""
    name = type(node).__name__
    return (name in ELEMENTWISE or name in RULES) and type(node).__module__ == "agrad.autograd.nodes"


def _fit(g, B, meta):
    """A batched gradient reduced to ``(B, *shape)`` of the input and cast to its dtype."""
    shape, dtype = meta
    want = (B,) + tuple(shape)
    have = tuple(g._data.shape)
    if have != want:
        if len(have) == 0 or have[0] != B:   # no batch dimension (a formula that ignored the gradient)
            g = g.expand((B,) + have)
            have = tuple(g._data.shape)
        extra = len(have) - len(want)
        if extra > 0:
            g = g.sum(tuple(range(1, 1 + extra)))
            have = tuple(g._data.shape)
        dims = tuple(i for i in range(1, len(want)) if want[i] == 1 and have[i] != 1)
        if dims:
            g = g.sum(dims, keepdim=True)
        if tuple(g._data.shape) != want:
            g = g.expand(want)
    if g._data.dtype != dtype.numpy:
        g = g.to(dtype)
    return g


def _stack_rows(grads, meta_shape, like):
    """Per-element results of one input stacked along a new first dimension (zeros for None)."""
    from ..ops import FUNCTIONS
    if all(g is None for g in grads):
        return None
    filled = [g if g is not None else FUNCTIONS["zeros"](meta_shape, dtype=like.dtype) for g in grads]
    return FUNCTIONS["stack"](filled)


def _per_element(node, out_grads, B):
    """Run the node's formula for each batch element; stack each input's gradients."""
    results = []
    for b in range(B):
        results.append(node.apply([g[b] if g is not None else None for g in out_grads]))
    n_in = len(node.next_functions)
    metas = node._input_meta
    stacked = []
    for k in range(n_in):
        col = [r[k] for r in results]
        like = next((c for c in col if c is not None), None)
        if like is None:
            stacked.append(None)
            continue
        shape = metas[k][0] if metas[k] is not None else tuple(like.shape)
        col = [c if c is None or tuple(c.shape) == tuple(shape) else c.sum_to_size(shape) for c in col]
        stacked.append(_stack_rows(col, shape, like))
    return tuple(stacked)


def _has_hooks(nodes) -> bool:
    for n in nodes:
        if n._pre_hooks or getattr(n, "_hooks", None) or getattr(n, "_retained", None):
            return True
    return False


def batched_grad(outputs, inputs, grad_outputs, *, retain_graph, create_graph, allow_unused, one_pass):
    """The gradients of ``outputs`` w.r.t. ``inputs`` for each seed in the batch (shape ``(B, *input)``).

    ``one_pass(grad_outputs, retain_graph)``: the engine's ordinary autograd.grad for one seed each.
    """
    from . import engine

    sizes = [g.shape[0] if g.ndim else None for g in grad_outputs]
    B = sizes[0]
    roots = [edge(t) for t in outputs]
    capture = [edge(t) for t in inputs]
    deps, nodes = engine._collect([n for n, _ in roots])
    needed = engine._needed(nodes, [n for n, _ in capture])
    if _has_hooks(needed) or _anomaly["enabled"] or B == 0:
        return _looped(inputs, grad_outputs, B, retain_graph, allow_unused, one_pass)

    engine.runs += 1
    capture_at = {}
    for k, (n, i) in enumerate(capture):
        capture_at.setdefault(n, []).append((i, k))
    buffers = {}
    for (node, idx), g in zip(roots, grad_outputs):
        buf = buffers.setdefault(node, {})
        buf[idx] = g if idx not in buf else buf[idx] + g
    captured = [None] * len(capture)
    heap = []
    for node in dict.fromkeys(n for n, _ in roots):
        if deps.get(node, 0) == 0:
            heapq.heappush(heap, (-node._seq, _Tie(node)))
    state = grad_mode._state
    prev = state["enabled"]
    state["enabled"] = bool(create_graph) and not state["inference"]  # (inference mode records nothing)
    try:
        while heap:
            node = heapq.heappop(heap)[1].node
            grads = buffers.pop(node, None) or {}
            for i, k in capture_at.get(node, ()):
                captured[k] = grads.get(i)
            if type(node) is not AccumulateGrad and node in needed:
                n_out = len(node._out_meta)
                out_grads = [grads.get(i) for i in range(n_out)]
                if all(g is None for g in out_grads):
                    in_grads = (None,) * len(node.next_functions)
                elif vectorised(node):
                    name = type(node).__name__
                    if name in RULES:
                        res = _run_rule(RULES[name], node, out_grads[0], B)
                    else:
                        res = node.apply(out_grads)
                    in_grads = res if type(res) is tuple else (res,)
                else:
                    in_grads = _per_element(node, out_grads, B)
                if not retain_graph and node._saved is not None:
                    node.release()
                for k, g in enumerate(in_grads):
                    if g is None:
                        continue
                    nxt, idx = node.next_functions[k]
                    if nxt is None:
                        continue
                    g = _fit(g, B, node._input_meta[k])
                    buf = buffers.setdefault(nxt, {})
                    buf[idx] = buf[idx] + g if idx in buf else g
            for nxt, _ in node.next_functions:
                if nxt is not None:
                    deps[nxt] -= 1
                    if deps[nxt] == 0:
                        heapq.heappush(heap, (-nxt._seq, _Tie(nxt)))
    finally:
        state["enabled"] = prev
    result = []
    for i, g in enumerate(captured):
        if g is None and not allow_unused:
            raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in the "
                               "graph. Set allow_unused=True if this is the desired behavior.")
        if g is not None:
            g = _fit(g, B, (tuple(inputs[i].shape), inputs[i].dtype))
            if not create_graph:
                g = g.detach()
        result.append(g)
    return tuple(result)


def _looped(inputs, grad_outputs, B, retain_graph, allow_unused, one_pass):
    """One ordinary backward pass per seed, stacked (the pass keeps the graph until the last seed)."""
    from ..ops import FUNCTIONS
    per_seed = []
    for b in range(B):
        keep = True if b < B - 1 else retain_graph
        per_seed.append(one_pass([g[b] for g in grad_outputs], keep))
    out = []
    for i, inp in enumerate(inputs):
        col = [r[i] for r in per_seed]
        if B == 0 or all(c is None for c in col):
            if B and not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in the "
                                   "graph. Set allow_unused=True if this is the desired behavior.")
            out.append(FUNCTIONS["zeros"]((0,) + tuple(inp.shape), dtype=inp.dtype) if B == 0 else None)
            continue
        out.append(_stack_rows(col, tuple(inp.shape), inp))
    return tuple(out)


def check_seeds(outputs, grad_outputs):
    """The batched seeds, checked as PyTorch checks them (a batch dimension in front of each output's shape)."""
    from ..ops import factories
    from ..tensor import Tensor
    if grad_outputs is None or isinstance(grad_outputs, Tensor):
        grad_outputs = (grad_outputs,)
    grad_outputs = tuple(grad_outputs)
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grad_outputs)} gradients")
    seeds = []
    for k, (t, g) in enumerate(zip(outputs, grad_outputs)):
        if not t.requires_grad:
            raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
        if g is None:   # PyTorch's implicit seed: ones, then read as batched like any other
            if t.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if t.ndim:   # ones of shape [1, ...]: a batch of one seed of shape [...]
                raise RuntimeError(f"invalid gradient at index {k} - got {list(t.shape[1:])} but expected shape "
                                   f"compatible with {list(t.shape)}")
            g = factories.ones_like(t)
        if not isinstance(g, Tensor):
            g = factories.tensor(g, dtype=t.dtype)
        if g.ndim == 0:
            raise ValueError("vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, but that input is a "
                             "Tensor of dimensionality 0 so expected in_dim to satisfy 0 <= in_dim < 0.")
        if tuple(g.shape[1:]) != tuple(t.shape):
            shown = list(g.shape[2:])   # PyTorch shows the shape of grad_output[k][0] past its first dim
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the batch "
                "dimension. The sizes of the remaining dimensions are expected to match the shape of "
                f"corresponding output, but a mismatch was detected: grad_output[{k}] has a shape of "
                f"torch.Size({shown}) and output[{k}] has a shape of torch.Size({list(t.shape)}). If you only "
                "want some tensors in `grad_output` to be considered batched, consider using vmap.")
        if g.dtype is not t.dtype:
            g = g.to(t.dtype)
        seeds.append(g)
    sizes = [g.shape[0] for g in seeds]
    if len(set(sizes)) > 1:
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                         f"{sizes} for the mapped dimension")
    return tuple(seeds)
