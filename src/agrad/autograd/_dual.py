"""Forward-mode AD's machinery: the dual level's state, tangents on tensors, and how an
op's outputs get theirs (the public API is ``agrad.autograd.forward_ad``).

Inside a dual level a tensor may carry a *tangent* (its forward gradient, in the
tensor's ``_fw`` slot).  Every op that reads a tensor with a tangent gives its
differentiable outputs the tangent ``J @ v`` as it runs, from the op's forward rule
(its ``jvp``, next to its backward in the op table: ``agrad.ops._op.Op``):

- ``"element_wise"``: the Jacobian is diagonal per input (pointwise ops with
  broadcasting), so the backward formula applied to the broadcast tangent is
  the tangent (derivatives.yaml's ``auto_element_wise``);
- ``"linear"``: the op is linear in its tensor inputs together, so the op
  applied to the tangents is the tangent (``auto_linear``; views give views);
- ``"symmetric"``: one input and a symmetric Jacobian (softmax): the backward formula;
- ``"multilinear"``: linear in each input (mm, bmm, dot): ``op(a_t, b) + op(a, b_t)``;
- ``"affine"``: multilinear plus one added input (addmm's self, conv's bias):
  ``op(s_t, 0, 0) + op(0, a_t, b) + op(0, a, b_t)``;
- a formula ``jvp(ctx, *tangents)`` written with agrad ops;
- none of these: the double-vjp construction (``J v`` as the gradient with
  respect to ``u`` of ``<J^T u, v>``), listed in docs/ops.md.

Formulas run with forward mode paused (one level only, as in PyTorch) and with
grad mode as the caller has it, so tangents of tensors that require grad are
differentiable.  When no level is entered the only cost to an op is one check
of :data:`_ACTIVE`.
"""

from __future__ import annotations

import weakref

import numpy as _np

from . import grad_mode as _grad_mode
from .._zero import ZeroArray as _ZeroArray
from ..dtypes import _BY_NP

#: the current level (0) or None
_LEVEL = [None]
#: [True] while a level is entered and no forward formula is running: the one check in Op.apply
_ACTIVE = [False]
#: weak references to the tensors given a tangent (or marked as having none) at this level
_DUALS: list = []
#: how a formula reads a primal that requires grad: through _fw_primal (torch::autograd::Identity), or
#: (["alias"]: torch.func.jvp's level) through an alias (AliasBackward0)
_PRIMAL_VIEW = [None]

_NOT_IMPLEMENTED = (
    "Trying to use forward AD with {} that does not support it because it has not been implemented yet.\n"
    "Please file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml "
    "so that we can prioritize its implementation or submit a PR adding the implementation to derivatives.yaml")


def drop_all():
    """Leaving the level: every tangent made in it is dropped."""
    for ref in _DUALS:
        t = ref()
        if t is not None:
            try:
                del t._fw
            except AttributeError:
                pass
    _DUALS.clear()
    _LEVEL[0] = None
    _ACTIVE[0] = False


# tangents ---------------------------------------------------------------------------

def tangent_of(t):
    """The tangent of ``t`` at the current level, or None.  A view whose base got a tangent
    after the view was made sees the matching part of the base's tangent (as in PyTorch)."""
    try:
        return t._fw
    except AttributeError:
        pass
    base = t._base
    if base is not None and _LEVEL[0] is not None:
        try:
            bt = base._fw
        except AttributeError:
            return None
        if bt is not None:
            vt = _view_of_tangent(t, base, bt)
            set_tangent(t, vt)
            return vt
    return None


def set_tangent(t, tangent):
    t._fw = tangent
    _DUALS.append(weakref.ref(t))


def _view_of_tangent(view, base, bt):
    """The part of the base's tangent that ``view`` covers, as a view of it where the layouts allow."""
    from ..tensor import Tensor

    bd, vd, td = base._data, view._data, bt._data
    offset = vd.__array_interface__["data"][0] - bd.__array_interface__["data"][0]
    if td.strides == bd.strides and td.dtype == bd.dtype:
        start = td.__array_interface__["data"][0] + offset
        arr = _np.lib.stride_tricks.as_strided(td, shape=vd.shape, strides=vd.strides, writeable=True)
        if arr.__array_interface__["data"][0] == start:
            return Tensor._make(arr)
        arr = _np.lib.stride_tricks.as_strided(
            td.reshape(-1)[offset // td.itemsize:] if td.flags.c_contiguous else td,
            shape=vd.shape, strides=vd.strides, writeable=True)
        if arr.__array_interface__["data"][0] == start:
            return Tensor._make(arr)
    from ..ops.inplace_view import flat_index
    # the layouts differ: the view's tangent is a copy of its part (in-place changes through it
    # then reach the base's tangent only through write_tangent)
    return Tensor._make(_np.ascontiguousarray(td).reshape(-1)[flat_index(view, base)].astype(vd.dtype))


def _ensure_tangent(t):
    """``t``'s tangent, made (zeros) when it has none; for a view, on its base too."""
    from ..tensor import Tensor

    tt = tangent_of(t)
    if tt is not None:
        return tt
    base = t._base
    if base is None:
        tt = Tensor._make(_np.zeros_like(t._data))
        set_tangent(t, tt)
        return tt
    bt = tangent_of(base)
    if bt is None:
        set_tangent(base, Tensor._make(_np.zeros_like(base._data)))
    try:
        del t._fw  # marked as having none: look again through the base
    except AttributeError:
        pass
    return tangent_of(t)


def write_tangent(self, result):
    """After an in-place op wrote ``result`` into ``self``: ``self``'s tangent takes the result's
    (in place, so views of the tangent see it; a view without a tangent gets one through its base)."""
    try:
        rt = result._fw
    except AttributeError:
        return
    if rt is None or result is self:
        return
    if rt._data.dtype != self._data.dtype:
        with _paused():
            rt = rt.to(self.dtype)
    st = tangent_of(self)
    if st is None and self._base is None:
        set_tangent(self, rt if rt._data.shape == self._data.shape else rt.expand(self.shape).clone())
        return
    if rt._requires_grad and _grad_mode._state["enabled"] and (st is None or st._base is None):
        if st is None:
            st = _ensure_tangent(self)
        if not (st._requires_grad and st._grad_fn is None):
            with _paused():
                st.copy_(rt)  # recorded, so the tangent stays differentiable
            return
        set_tangent(self, rt)
        return
    if st is None:
        st = _ensure_tangent(self)
    st._data[...] = rt._data
    st._vc[0] += 1
    base = self._base
    if base is not None:  # a copied (not aliased) view tangent: write it back into the base's
        bt = tangent_of(base)
        if bt is not None and not _np.shares_memory(bt._data, st._data):
            from ..ops.inplace_view import flat_index
            flat = bt._data.reshape(-1)
            if _np.shares_memory(flat, bt._data):
                flat[flat_index(self, base)] = st._data


def setitem_tangent(self, index, value):
    """``self[index] = value`` outside the graph: the tangent's part takes value's tangent (or 0)."""
    vt = tangent_of(value) if value is not None else None
    if vt is None and tangent_of(self) is None:
        return
    st = _ensure_tangent(self)
    st._data[index] = 0 if vt is None else vt._data
    st._vc[0] += 1


class _paused:
    """Forward propagation off while a formula (or the API's own ops) runs."""

    def __enter__(self):
        self.prev = _ACTIVE[0]
        _ACTIVE[0] = False

    def __exit__(self, *exc):
        _ACTIVE[0] = self.prev
        return False


# propagation through an op --------------------------------------------------------

class _JvpCtx:
    """What a forward formula sees: the primal inputs by name, ``result``, the attributes, and
    what the forward stored; ``needs(i)``: input ``i`` has a tangent."""

    def __init__(self, op, tensors, arrays, attrs, results, fwd_ctx, tangents):
        d = self.__dict__
        fd = getattr(fwd_ctx, "__dict__", None)
        if fd:
            d.update(fd)
        d.update(attrs)
        for name, t, a in zip(op.inputs, tensors, arrays):
            d[name] = t if t is not None else a
        d["result"] = results
        self._tangents = tangents
        self._shapes = [None if a is None else _np.shape(a) for a in arrays]
        self._input_meta = [(_np.shape(a), _BY_NP.get(getattr(a, "dtype", None))) for a in arrays]

    def needs(self, i):
        return self._tangents[i] is not None

    @property
    def input_shape(self):
        return self._shapes[0]


class _Only(_JvpCtx):
    """The backward's context restricted to one input (element_wise rules)."""

    def __init__(self, ctx, i):
        self.__dict__.update(ctx.__dict__)
        self._i = i

    def needs(self, i):
        return i == self._i


def propagate(op, tensors, arrays, attrs, results, fwd_ctx):
    """Give ``results`` (the outputs of ``op``) their tangents, if an input has one."""
    tangents = []
    found = False
    for t in tensors:
        tt = None if t is None else tangent_of(t)
        found = found or tt is not None
        tangents.append(tt)
    if not found:
        return
    if len(tensors) < len(arrays):  # an op given fewer tensors than arrays: the rest are plain values
        tensors = tuple(tensors) + (None,) * (len(arrays) - len(tensors))
        tangents += [None] * (len(arrays) - len(tangents))
    outs = results if type(results) is tuple else (results,)
    diff = outs if op.n_diff_outputs is None else outs[: op.n_diff_outputs]
    if not any(o._data.dtype.kind == "f" for o in diff):
        return
    _ACTIVE[0] = False
    state = _grad_mode._state
    outer = state["formula"]
    state["formula"] = True  # (formulas are C++: a number in their arithmetic is a Scalar, MulBackward1...)
    try:
        new = _tangents(op, tensors, arrays, attrs, results, fwd_ctx, tangents, diff)
    finally:
        _ACTIVE[0] = True
        state["formula"] = outer
    if type(new) is not tuple:
        new = (new,)
    for o, t in zip(diff, new):
        if t is None or o._data.dtype.kind != "f":
            continue
        if t._data.dtype != o._data.dtype:
            t = t.to(o.dtype)
        if t._data.shape != o._data.shape:
            t = t.expand(o.shape)
        set_tangent(o, t)
        _to_saved_output(fwd_ctx, o, t)


def _to_saved_output(node, output, tangent):
    """The node keeps a stand-in of a saved output (agrad.autograd.graph.SavedTensor): it
    carries the output's tangent too, as PyTorch's SavedVariable saves the forward grad."""
    saved = getattr(node, "_saved", None)
    if saved:
        for slot in saved.values():
            ref = slot._output
            if ref is not None and ref() is output and slot.tensor is not None:
                set_tangent(slot.tensor, tangent)


def _tangents(op, tensors, arrays, attrs, results, fwd_ctx, tangents, diff):
    kind = op.jvp_kind
    if kind is None:
        return double_vjp(op, tensors, arrays, attrs, tangents, diff)
    if kind == "unsupported":
        name = op.jvp_name or attrs.get("aten") or op.name
        if name.startswith("aten::"):  # a result PyTorch records as NotImplemented
            raise NotImplementedError(f"Trying to use forward AD with {name} that does not support it.")
        raise NotImplementedError(_NOT_IMPLEMENTED.format(name))
    if kind == "linear":
        return _apply_to(op, tensors, arrays, attrs, tangents, range(len(tensors)))
    tensors = _primals(tensors)
    # As PyTorch's formulas, where a missing tangent is a zero tensor: when an input requires
    # grad, the terms of the inputs without a tangent are kept (zero, but on the graph), so the
    # tangent requires grad as PyTorch's does.
    terms = _terms(tensors, tangents)
    if kind == "multilinear":
        return _combine([(_apply_to(op, tensors, arrays, attrs, tangents, (i,)), tangents[i] is None)
                         for i in terms])
    if kind == "affine":  # multilinear in the inputs but one, which is added (addmm's self, conv's bias)
        k = op.jvp_additive
        parts = []
        if tangents[k] is not None:  # op(0, .., b_t): the added input's tangent
            others = [i for i in range(len(tensors)) if i != k]
            parts.append((_apply_to(op, tensors, arrays, attrs, tangents, (k,), zero=others), False))
        for i in terms:
            if i != k:
                parts.append((_apply_to(op, tensors, arrays, attrs, tangents, (i,), zero=(k,)), tangents[i] is None))
        return _combine(parts)
    ctx = _JvpCtx(op, tensors, arrays, attrs, results, fwd_ctx, tangents)
    if kind == "symmetric":  # one input, a symmetric Jacobian: J v = J^T v, the backward formula
        res = op._formula(_Only(ctx, 0), tangents[0])
        return res[0] if type(res) is tuple else res
    if kind == "element_wise":
        out_shape = diff[0]._data.shape
        parts = []
        order = op.jvp_order
        if order is not None:  # (the formula's own order of terms; a Python number is a tensor there too,
            # whose zero tangent's term joins the graph as the others')
            live = _grad_mode._state["enabled"] and any(
                t is not None and t._requires_grad for t in tuple(tensors) + tuple(tangents))
            terms = [i for i in order
                     if i in terms or (live and tensors[i] is None and type(arrays[i]) in (int, float))]
        for i in terms:
            tt = tangents[i]
            if tt is None:
                tt = _zeros_tangent(tensors[i]) if tensors[i] is not None else \
                    _zeros_tangent(diff[0])
            if tt._data.shape != out_shape:
                tt = tt.expand(out_shape)
            res = op._formula(_Only(ctx, i), tt)
            term = res[i] if type(res) is tuple else res
            if term is None:
                continue
            if term._data.shape != out_shape:
                raise RuntimeError(f"internal error: {op.name}'s backward is not element-wise")
            if type(term._data) is _ZeroArray:  # a tangent is never a ZeroTensor in PyTorch (sgn's)
                term = type(term)._make(term._data.copy())
            parts.append((term, tangents[i] is None))
        return _combine(parts, ordered=order is not None)
    return op._jvp(ctx, *tangents)


def _primals(tensors):
    """The primals as a formula reads them (PyTorch's toNonOptPrimal: ``_fw_primal``): a view that is on
    the graph (torch::autograd::Identity; AliasBackward0 at torch.func.jvp's level) where the input
    requires grad, else the input itself."""
    if not _grad_mode._state["enabled"]:
        return tensors
    out = None
    for i, t in enumerate(tensors):
        if t is not None and t._requires_grad:
            if out is None:
                out = list(tensors)
            if _PRIMAL_VIEW[0] == "alias":
                from ..ops.indexing import alias
                out[i] = alias(t)
            else:
                out[i] = _alias(t)
    return tensors if out is None else tuple(out)


def _combine(parts, ordered=False):
    """The sum of the (term, from a zero tangent) pairs (the real terms first, unless ``ordered``: the
    formula's order).  The terms of zero tangents add nothing to the values (not even the sign of a zero,
    as PyTorch's zero tensors) but join the graph (AddBackward0), so the tangent requires grad where
    PyTorch's does."""
    from ..ops.pointwise import _add
    total = None
    total_zero = False
    for term, zero in (parts if ordered else sorted(parts, key=lambda p: p[1])):
        if total is None:
            total, total_zero = term, zero
        elif not zero and not total_zero:
            total = total + term
        elif zero:
            total = _add.apply((total, term), (total._data, _np.full_like(term._data, -0.0)), {})
        else:  # (a zero term first: the sum's value is the real term's)
            total = _add.apply((total, term), (_np.full_like(total._data, -0.0), term._data), {})
            total_zero = False
    return total


def _terms(tensors, tangents):
    """The inputs whose term a formula adds: those with a tangent, and, when an input or a tangent
    requires grad (and grad mode is on), the other floating inputs too (with zero tangents)."""
    with_t = [i for i, tt in enumerate(tangents) if tt is not None]
    if not _grad_mode._state["enabled"]:
        return with_t
    for t in tuple(tensors) + tuple(tangents):  # (a tangent that requires grad: the sum is on the graph too)
        if t is not None and t._requires_grad:
            break
    else:
        return with_t
    return [i for i, (t, tt) in enumerate(zip(tensors, tangents))
            if tt is not None or (t is not None and t._data.dtype.kind == "f")]


def _zeros_tangent(t):
    from ..tensor import Tensor
    return Tensor._make(_np.zeros_like(t._data))


def _apply_to(op, tensors, arrays, attrs, tangents, which, zero=()):
    """``op`` applied with the tangents of the inputs in ``which`` in place of their primals
    (zeros for those without one), and zeros in place of the inputs in ``zero``."""
    from ..tensor import Tensor

    ts, arrs = [], []
    for i, (t, a, tt) in enumerate(zip(tensors, arrays, tangents)):
        if (i not in which and i not in zero) or (t is not None and t._data.dtype.kind != "f"):
            ts.append(t)  # primals; indices stay as they are
            arrs.append(a)
        elif tt is not None and i not in zero:
            ts.append(tt)
            d = tt._data
            arrs.append(d if not hasattr(a, "dtype") or d.dtype == a.dtype else d.astype(a.dtype))
        elif t is None:  # a Python number in place of a tensor
            ts.append(None)
            arrs.append(a if a is None or isinstance(a, bool) else 0 * a)
        else:
            z = _np.zeros_like(a)
            ts.append(Tensor._make(z))
            arrs.append(z)
    out = op.apply(ts, arrs, attrs)
    if type(out) is tuple and op.n_diff_outputs is not None:
        out = out[: op.n_diff_outputs]
    return out


def _alias(t):
    from ..ops.views import _fw_primal
    return _fw_primal(t)


def double_vjp(op, tensors, arrays, attrs, tangents, diff):
    """``J v`` through the backward formula: ``u -> J^T u`` is linear, and its transpose
    applied to ``v`` is the gradient of ``<J^T u, v>`` with respect to ``u``."""
    from ..tensor import Tensor
    from .engine import grad

    enabled = _grad_mode._state["enabled"]
    outer = enabled and any(t is not None and t._requires_grad for t in tensors) or any(
        tt is not None and tt._requires_grad for tt in tangents)
    with _grad_mode.enable_grad():
        xs, ins = [], []
        for t, tt in zip(tensors, tangents):
            if t is not None and tt is not None:
                # an alias per input (its own edge, still differentiable back to t) or a new leaf
                x = _alias(t) if (t._requires_grad and enabled) else t.detach().requires_grad_()
                xs.append(x)
                ins.append(x)
            else:
                ins.append(t)
        out = op.apply(ins, [x._data if x is not None else a for x, a in zip(ins, arrays)], attrs)
        outs = out if type(out) is tuple else (out,)
        outs = outs[: len(diff)]
        pairs = [(k, o, Tensor._make(_np.zeros_like(o._data), requires_grad=True)) for k, o in enumerate(outs)
                 if o._requires_grad and o._data.dtype.kind == "f"]
        us = [u for _, _, u in pairs]
        jv = [None] * len(pairs)
        if pairs:
            gs = grad([o for _, o, _ in pairs], xs, us, create_graph=True, allow_unused=True)
            # a gradient that does not depend on u (a zero derivative: floor, sign) adds nothing
            used = [(g, tt) for g, tt in zip(gs, [tt for tt in tangents if tt is not None])
                    if g is not None and g._requires_grad]
            if used:
                vs = [tt if tt._data.dtype == g._data.dtype else tt.to(g.dtype) for g, tt in used]
                jv = grad([g for g, _ in used], us, vs, create_graph=outer, allow_unused=True)
    res = [None] * len(diff)
    for k, o in enumerate(diff):  # a floating output of a differentiable op always gets a tangent
        if o._data.dtype.kind == "f":
            res[k] = Tensor._make(_np.zeros_like(o._data))
    for (k, o, _), g in zip(pairs, jv):
        if g is not None:
            res[k] = g
    if not outer:
        res = [None if r is None else r.detach() for r in res]
    return tuple(res)
