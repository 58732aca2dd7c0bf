"""CTC loss: ``torch.ctc_loss`` / ``F.ctc_loss`` (ATen's ``_ctc_loss``, node CtcLossBackward0).

ATen's CPU kernel (LossCTC.cpp) is Graves et al.'s forward-backward algorithm in log space, one
batch element at a time, in the input's dtype with scalar ``std::exp``/``std::log`` (glibc's).
Here the same recursions run a time step at a time over the whole batch (and over the extended
target's states), each element's arithmetic in the kernel's order, so the bits are the kernel's:

- alpha[t, s] = log(e^(a1 - m) + e^(a2 - m) + e^(a3 - m)) + m + log_probs[t, l'(s)], a1..a3 the
  states s, s - 1 and (where l'(s - 2) != l'(s)) s - 2 of step t - 1, m their maximum (0 when all
  are -inf); the loss -log(e^(l1 - m) + e^(l2 - m)) - m of the last two states (the last one
  alone for an empty target; 0 or inf for an empty input).
- the backward's beta the same way from the end; the log-sums of alpha + beta collected per
  character in the kernel's order of states (descending), then
  grad = (exp(lp) - exp(collected + nll - lp)) * grad_out, zeros past each input length (and for
  a whole element whose loss is inf under ``zero_infinity``).

The wrapper is ATen's ``ctc_loss_impl``: an unbatched input unsqueezed (UnsqueezeBackward0) and
squeezed back (SqueezeBackward1), ``zero_infinity`` a ``where`` (WhereBackward0), 'mean' the losses
divided by the target lengths clamped to 1 (DivBackward0) and averaged, 'sum' summed.  The
backward has no derivative in PyTorch (a NotImplemented node under create_graph).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name
from . import _glibc_float, _sleef
from ._argcheck import _raise_parser_error
from ._not_implemented import not_implemented
from ._op import FUNCTIONS, Op, export
from .nn import aten_reduction, reduction_arg

_C = "ctc_loss_allocate_outputs"


def _maths(dtype):
    """(exp, log) as the scalar loop's std::exp / std::log of ``dtype`` give them."""
    if dtype == np.float32:
        return _glibc_float.expf, _glibc_float.logf
    return (lambda a: _sleef.libm("exp", a)), (lambda a: _sleef.libm("log", a))


def _target_primes(targets, offsets, lengths, blank, width):
    """l' of each batch element: blank at even states, the targets at odd ones ((B, width) ints)."""
    tp = np.full((len(lengths), width), blank, np.int64)
    for b, (off, n) in enumerate(zip(offsets, lengths)):
        if n:
            tp[b, 1:2 * n:2] = targets[off:off + n] if targets.ndim == 1 else targets[b, :n]
    return tp


def _lse3(x1, x2, x3, exp, log, neginf):
    """log(e^(x1-m) + e^(x2-m) + e^(x3-m)) + m, m the maximum of the three (0 if -inf), as the kernel."""
    m = np.where(x2 > x1, x2, x1)
    m = np.where(x3 > m, x3, m)
    m = np.where(m == neginf, m.dtype.type(0), m)
    return log(exp(x1 - m) + exp(x2 - m) + exp(x3 - m)) + m


def _shifted(a, k, fill):
    """``a`` (B, S) moved k states up (k > 0: out[s] = a[s - k]) or down (k < 0), ``fill`` where none."""
    out = np.full(a.shape, fill, a.dtype)
    if k > 0:
        out[:, k:] = a[:, :a.shape[1] - k]
    else:
        out[:, :a.shape[1] + k] = a[:, -k:]
    return out


def _gather_lp(lp_t, tp):
    """log_probs[t][b][l'(s)] for every (b, s)."""
    return np.take_along_axis(lp_t, tp, axis=1)


def _alpha(lp, tp, il, tl, blank):
    """(neg_log_likelihood (B,), log_alpha (B, T, S)) of the kernel."""
    T, B, _ = lp.shape
    S = tp.shape[1]
    dt = lp.dtype
    neginf = dt.type(-np.inf)
    exp, log = _maths(dt)
    alpha = np.full((B, T, S), neginf, dt)
    rows = np.arange(B)
    has = il > 0
    if T:
        alpha[has, 0, 0] = lp[0, rows[has], blank]
        two = has & (tl > 0)
        if two.any():
                alpha[two, 0, 1] = lp[0, rows[two], tp[two, 1]]
    skip = np.zeros((B, S), bool)  # (s > 1 and l'(s - 2) != l'(s): state s - 2 reaches s)
    skip[:, 2:] = tp[:, :-2] != tp[:, 2:]
    with np.errstate(all="ignore"):
        for t in range(1, int(il.max(initial=0))):
            prev = alpha[:, t - 1]
            a2 = _shifted(prev, 1, neginf)
            a3 = np.where(skip, _shifted(prev, 2, neginf), neginf)
            new = _lse3(prev, a2, a3, exp, log, neginf) + _gather_lp(lp[t], tp)
            live = t < il
            alpha[live, t] = new[live]
        nll = np.empty(B, dt)
        for b in range(B):
            n_in, n_tg = int(il[b]), int(tl[b])
            if n_in == 0:
                nll[b] = -(dt.type(0) if n_tg == 0 else neginf)
            elif n_tg == 0:
                nll[b] = -alpha[b, n_in - 1, 0]
            else:
                l1, l2 = alpha[b, n_in - 1, 2 * n_tg], alpha[b, n_in - 1, 2 * n_tg - 1]
                m = l2 if l1 < l2 else l1
                m = dt.type(0) if m == neginf else m
                pair = exp(np.array([l1 - m, l2 - m], dt))
                nll[b] = -(log(np.array([pair[0] + pair[1]], dt))[0] + m)
    return nll, alpha


def _ctc_backward_array(g_out, lp, tp, il, tl, nll, alpha, blank, zero_infinity):
    """ATen's ctc_loss_backward_cpu_template on arrays: the gradient of log_probs (T, B, C)."""
    T, B, C = lp.shape
    S = tp.shape[1]
    dt = lp.dtype
    neginf = dt.type(-np.inf)
    exp, log = _maths(dt)
    beta = np.full((B, T, S), neginf, dt)
    coll = np.full((B, T, C), neginf, dt)  # the log-sums of alpha * beta per character
    rows = np.arange(B)
    s_idx = np.arange(S)
    ends = 2 * tl
    with np.errstate(all="ignore"):
        for b in range(B):
            n_in, n_tg = int(il[b]), int(tl[b])
            if n_in == 0:
                continue
            last = n_in - 1
            beta[b, last, 2 * n_tg] = lp[last, b, blank]
            coll[b, last, blank] = alpha[b, last, 2 * n_tg] + beta[b, last, 2 * n_tg]
            if n_tg:
                c = tp[b, 2 * n_tg - 1]
                beta[b, last, 2 * n_tg - 1] = lp[last, b, c]
                coll[b, last, c] = alpha[b, last, 2 * n_tg - 1] + beta[b, last, 2 * n_tg - 1]
        in2 = s_idx[None, :] < ends[:, None]  # s < 2L: state s + 1 reaches s
        skip = np.zeros((B, S), bool)  # s < 2L - 1 and l'(s + 2) != l'(s)
        skip[:, :-2] = (s_idx[None, :-2] < ends[:, None] - 1) & (tp[:, 2:] != tp[:, :-2])
        for t in range(int(il.max(initial=0)) - 2, -1, -1):
            nxt = beta[:, t + 1]
            b2 = np.where(in2, _shifted(nxt, -1, neginf), neginf)
            b3 = np.where(skip, _shifted(nxt, -2, neginf), neginf)
            new = _lse3(nxt, b2, b3, exp, log, neginf) + _gather_lp(lp[t], tp)
            live = (t < il - 1)[:, None] & (s_idx[None, :] <= ends[:, None])
            beta[:, t] = np.where(live, new, beta[:, t])
        # collected[b, t, l'(s)] "log+=" alpha[t, s] + beta[t, s], states in descending order
        ts = np.arange(T)
        for s in range(S - 1, -1, -1):
            live = (ts[None, :] < (il - 1)[:, None]) & (s <= ends)[:, None]  # (B, T)
            if not live.any():
                continue
            bb, tt = np.nonzero(live)
            cc = tp[bb, s]
            lab = alpha[bb, tt, s] + beta[bb, tt, s]
            cur = coll[bb, tt, cc]
            m = np.where(cur < lab, lab, cur)
            summed = log(exp(cur - m) + exp(lab - m)) + m
            coll[bb, tt, cc] = np.where(cur == neginf, lab, summed)
        lp_b = np.transpose(lp, (1, 0, 2))
        gr = g_out.astype(dt, copy=False)[:, None, None]
        res = (exp(lp_b) - exp(coll + nll[:, None, None] - lp_b)) * gr
        keep = ts[None, :] < il[:, None]
        if zero_infinity:
            keep = keep & (nll != np.inf)[:, None]
        res = np.where(keep[:, :, None], res, dt.type(0))
    return np.ascontiguousarray(np.transpose(res, (1, 0, 2)))


def _ctc_fwd(ctx, lp, targets, il, tl, offsets, blank, zero_infinity):
    S = 2 * int(tl.max(initial=0)) + 1
    tp = _target_primes(targets, offsets, tl, blank, S)
    nll, alpha = _alpha(lp, tp, il, tl, blank)
    ctx.tp, ctx.alpha = tp, alpha
    return nll, alpha


# (log_alpha, the second output, is not differentiable: kept on the node for the backward)
_ctc = Op("CtcLossBackward0", _ctc_fwd, inputs=("log_probs",), saves=("log_probs", "result0"),
          output_names=("result0", "result1"), outputs=1, jvp="unsupported")
_ctc.jvp_name = "_ctc_loss"


@_ctc.derivative
def _(ctx, grad):
    lp, nll = ctx.log_probs, ctx.result0
    g = _ctc_backward_array(grad._data, lp._data, ctx.tp, ctx.il, ctx.tl, nll._data, ctx.alpha,
                            ctx.blank, ctx.zero_infinity)
    return not_implemented(g, (grad, lp, nll), "aten::_ctc_loss_backward")


# ---------------------------------------------------------------------------
# the checks of ctc_loss_allocate_outputs, in ATen's order
# ---------------------------------------------------------------------------

def _check(lp, targets, il, tl, blank):
    if lp.dtype.name not in ("float32", "float64"):
        raise NotImplementedError(f'"ctc_loss_cpu" not implemented for \'{_scalar_name(lp.dtype)}\'')
    if lp.numel() == 0:
        raise RuntimeError("log_probs tensor must not be empty")
    if lp.ndim != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {lp.ndim}-dimensional tensor for argument #1 "
                           f"'log_probs' (while checking arguments for {_C})")
    if not 1 <= targets.ndim <= 2:
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {targets.ndim}-dimensional tensor for argument #2 "
                           f"'targets' (while checking arguments for {_C})")
    B, C = lp.shape[1], lp.shape[2]
    if not 0 <= blank < C:
        raise RuntimeError("blank must be in label range")
    if len(il) != B:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(tl) != B:
        raise RuntimeError("target_lengths must be of size batch_size")
    for n in tl:
        if n < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got value {n} (while checking "
                               f"arguments for {_C})")
    if targets.ndim == 1:
        offsets = np.concatenate([[0], np.cumsum(tl)[:-1]]).astype(np.int64) if B else np.zeros(0, np.int64)
        _size(targets, 0, int(sum(tl)))
    else:
        offsets = np.zeros(B, np.int64)
        _size(targets, 0, B)
        most = max(tl, default=0)
        if targets.shape[1] < most:
            raise RuntimeError(f"Expected tensor to have size at least {most} at dimension 1, but got size "
                               f"{targets.shape[1]} for argument #2 'targets' (while checking arguments for {_C})")
    for n in il:
        if n < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got value {n} (while checking "
                               f"arguments for {_C})")
        if n > lp.shape[0]:
            raise RuntimeError(f"Expected input_lengths to have value at most {lp.shape[0]}, but got value {n} (while "
                               f"checking arguments for {_C})")
    return offsets


def _size(t, dim, want):
    if t.shape[dim] != want:
        raise RuntimeError(f"Expected tensor to have size {want} at dimension {dim}, but got size {t.shape[dim]} for "
                           f"argument #2 'targets' (while checking arguments for {_C})")


def _check_targets_in_range(targets, offsets, tl, C):
    """A target outside [0, C) makes ATen's kernel read outside the row (undefined): refused here."""
    for b, (off, n) in enumerate(zip(offsets, tl)):
        row = targets[off:off + n] if targets.ndim == 1 else targets[b, :n]
        bad = row[(row < 0) | (row >= C)]
        if bad.size:
            raise IndexError(f"ctc_loss: target {int(bad[0])} is out of range for {C} classes (PyTorch's kernel reads "
                             "outside log_probs' row there; agrad refuses it)")


# ---------------------------------------------------------------------------
# the public functions
# ---------------------------------------------------------------------------

def _lengths(value):
    """A length argument as ints: a Tensor's (flattened), or a sequence of ints."""
    if isinstance(value, Tensor):
        return [int(v) for v in value._data.reshape(-1)]
    return [int(v) for v in value]


def _is_int_seq(v):
    if isinstance(v, Tensor) or not isinstance(v, (list, tuple)):
        return False
    for x in v:
        if isinstance(x, bool) or not (isinstance(x, int) or isinstance(x, Tensor) and x.ndim == 0
                                       and not x.dtype.is_floating_point and not x.dtype.is_complex):
            return False
    return True


def _ctc_impl(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity):
    batched = log_probs.ndim == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    il = np.array(_lengths(input_lengths), np.int64)
    tl = np.array(_lengths(target_lengths), np.int64)
    offsets = _check(lp, targets, il, tl, blank)
    tg = targets._data.astype(np.int64)
    _check_targets_in_range(tg, offsets, tl, lp.shape[2])
    res = _ctc(lp, targets=tg, il=il, tl=tl, offsets=offsets, blank=int(blank), zero_infinity=bool(zero_infinity))[0]
    if res._grad_fn is not None and type(res._grad_fn) is _ctc.node:  # (PyTorch's node saves targets: its version checked)
        from ..autograd.graph import save_extra
        save_extra(res._grad_fn, "targets", targets, after="log_probs")
    if zero_infinity:
        zero = Tensor._make(np.zeros((), res._data.dtype))
        res = FUNCTIONS["where"](res == float("inf"), zero, res)
    if reduction == "mean":
        lengths = FUNCTIONS["tensor"](tl.tolist(), dtype=res.dtype).clamp_min(1)
        return (res / lengths).mean()
    if reduction == "sum":
        return res.sum()
    return res if batched else res.squeeze(0)


@export("ctc_loss")
def torch_ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=0, zero_infinity=False):
    """The CTC loss of each sequence (reduction: 0 none, 1 mean over lengths, 2 sum).  Omitted, the
    reduction is 0, not the signature's ``at::Reduction::Mean``: PyTorch's argument parser reads that
    default with ``atol`` (as for torch.kl_div, torch.hinge_embedding_loss, ...)."""
    args = (log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)
    tensors = isinstance(input_lengths, Tensor) and isinstance(target_lengths, Tensor)
    if not (isinstance(log_probs, Tensor) and isinstance(targets, Tensor)
            and (tensors or _is_int_seq(input_lengths) and _is_int_seq(target_lengths))
            and type(blank) is int and type(reduction) is int and type(zero_infinity) is bool):
        _raise_parser_error("torch.ctc_loss", args, {})
    if tensors:
        for t, name in ((input_lengths, "input_lengths"), (target_lengths, "target_lengths")):
            if t.dtype.is_floating_point or t.dtype.is_complex or t.dtype is dtypes.bool_:
                raise RuntimeError(f"{name} must be integral")
    return _ctc_impl(log_probs, targets, input_lengths, target_lengths, blank, aten_reduction(reduction),
                     zero_infinity)


@export(functional="ctc_loss", torch=False)
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """The Connectionist Temporal Classification loss (F's front: the reduction's name to its enum)."""
    enum = {"none": 0, "mean": 1, "sum": 2}[reduction_arg(reduction)]
    return torch_ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, enum, zero_infinity)
