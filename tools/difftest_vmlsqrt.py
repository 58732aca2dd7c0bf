"""The differential tester's rule ``vml-sqrt-inside`` (tools/difftest.py, docs/semantics.md): ATen's
``cosine_embedding_loss`` takes ``sqrt_`` of the squared magnitudes' product, and ``corrcoef``
``at::sqrt`` of its covariance's diagonal, whose float32/float64 kernel is MKL VML's
``vsSqrt``/``vdSqrt`` (an ulp from the correctly rounded root in 16% / 1% of values): ``1 - cos``
near cos = 1 turns that ulp into a ``numeric`` difference of the loss, ``clip(-1, 1)`` of a
correlation an ulp past +-1 a zero gradient where PyTorch's is 1.
The rule runs the statement again under PyTorch with the op (``ROOT_OPS``) replaced by
ATen's composite written out step for step, only its root correctly rounded (what agrad computes),
and accepts the difference when that replay gives agrad's values bit for bit. A later
``backward``/``autograd.grad`` (:func:`rounded_root_gradient`) likewise: the program replayed with that
composite (its root an autograd function with SqrtBackward0's formula) must give agrad's gradients."""

from __future__ import annotations

import re

import difftest_watch

#: the statements' names of the op
COSINE_OPS = {"cosine_embedding_loss"}
#: the ops whose composite takes a VML root (see ``_patches``)
ROOT_OPS = COSINE_OPS | {"corrcoef"}
_EPSILON = 9.999999960041972e-13  # (Loss.cpp's float EPSILON = 1e-12, added as a Scalar: the float's value)


def _rounded_root_loss(input1, input2, target, margin=0.0, reduction=1):
    """at::cosine_embedding_loss (aten/src/ATen/native/Loss.cpp) with a correctly rounded sqrt."""
    import numpy as np
    import torch

    tdim = target.dim()
    prod_sum = (input1 * input2).sum(tdim)
    mag_square1 = (input1 * input1).sum(tdim) + _EPSILON
    mag_square2 = (input2 * input2).sum(tdim) + _EPSILON
    denom = _root_function().apply(mag_square1 * mag_square2)
    cos = prod_sum / denom
    zeros = torch.zeros_like(cos)
    pos = 1 - cos
    neg = (cos - margin).clamp_min_(0)
    output = torch.where(target == 1, pos, zeros) + torch.where(target == -1, neg, zeros)
    return output if reduction == 0 else output.mean() if reduction == 1 else output.sum()


def _rounded_root_corrcoef(input):
    """at::corrcoef (aten/src/ATen/native/Correlation.cpp) with a correctly rounded sqrt."""
    import torch

    c = torch.cov(input)
    if c.ndim == 0:
        return c / c
    d = c.diagonal()
    stddev = _root_function().apply(d.real if d.is_complex() else d)
    c = c / stddev.view(-1, 1)
    c = c / stddev.view(1, -1)
    if c.is_complex():
        return torch.complex(c.real.clip(-1, 1), c.imag.clip(-1, 1))
    return c.clip(-1, 1)


def _patches(ops, seen=None):
    """(owner, name, replacement) triples that put the composites of ``ops`` with a rounded root in
    place of PyTorch's (function and method; ``seen`` collects their results)."""
    import torch

    def keep(value):
        if seen is not None:
            seen.append(value)
        return value

    # (torch.cosine_embedding_loss without a reduction reduces nothing: its schema's default "Mean"
    # is not an int to Python's argument parser, which takes 0, none; F.cosine_embedding_loss calls it)
    def loss(input1, input2, target, margin=0.0, reduction=0):
        return keep(_rounded_root_loss(input1, input2, target, margin, reduction))

    def corrcoef(input):
        return keep(_rounded_root_corrcoef(input))

    out = []
    if ops & COSINE_OPS:
        out.append((torch, "cosine_embedding_loss", loss))
    if "corrcoef" in ops:
        out += [(torch, "corrcoef", corrcoef), (torch.Tensor, "corrcoef", corrcoef)]
    return out


_ROOT = []


def _root_function():
    """sqrt as an autograd function: IEEE's correctly rounded root forward, SqrtBackward0's
    ``grad / (2 * result.conj())`` backward (the result saved: a double backward differentiates it)."""
    import numpy as np
    import torch

    if not _ROOT:
        class RoundedRoot(torch.autograd.Function):
            @staticmethod
            def forward(ctx, square):
                root = torch.from_numpy(np.asarray(np.sqrt(square.detach().numpy())))
                ctx.save_for_backward(root)
                return root

            @staticmethod
            def backward(ctx, grad):
                root, = ctx.saved_tensors
                return grad / (2 * root.conj())
        _ROOT.append(RoundedRoot)
    return _ROOT[0]


def rounded_root_explains(lines: list[str], i: int, stmt: str, want: dict, got: dict, agree_once) -> bool:
    """True when the one variable that differs is the float32/float64 tensor statement ``i`` assigns
    and PyTorch's replay with the correctly rounded root gives agrad's values for it exactly."""
    import numpy as np
    import torch

    mine = difftest_watch.assigned_tensor(stmt, want)
    if mine is None or mine["dtype"] not in ("torch.float32", "torch.float64"):
        return False
    seen = []
    difftest_watch.replay(lines, i, _patches(ROOT_OPS, seen))
    if len(seen) != 1 or not isinstance(seen[0], torch.Tensor):
        return False
    value = seen[0].detach().numpy()
    return _only_replayed_value_differs(want, got, mine, value, agree_once)


_BACKWARD = re.compile(r"\.backward\(|\bautograd\.grad\(")


def _tensors(w, g, out):
    """(agrad's observation, the replay's tensor) pairs of a variable's tensors (its items, its .grad)."""
    import torch

    if w["kind"] == "seq" and g["kind"] == "seq" and isinstance(out, (tuple, list)) and len(out) == len(g["items"]):
        return [p for wi, gi, oi in zip(w["items"], g["items"], out) for p in _tensors(wi, gi, oi)]
    if w["kind"] != "tensor" or g["kind"] != "tensor" or not isinstance(out, torch.Tensor):
        return [(g, None)]
    pairs = [(g, out.detach())]
    if g.get("grad") is not None:
        pairs.append((g["grad"], out.grad if out.grad is None else out.grad.detach()))
    return pairs


def _with_data(w, g):
    """``w`` with agrad's values in place (those only: graphs, reprs, layouts stay PyTorch's)."""
    if w["kind"] == "seq" and g["kind"] == "seq" and len(w["items"]) == len(g["items"]):
        out = dict(w, items=[_with_data(a, b) for a, b in zip(w["items"], g["items"])])
        if "repr" in w and "repr" in g:  # (a tuple's repr prints its items': agrad's values, PyTorch's rest)
            out["repr"] = g["repr"]
        return out
    if w["kind"] != "tensor" or g["kind"] != "tensor":
        return w
    out = dict(w, data=g["data"], repr=g["repr"])
    if w.get("grad") is not None and g.get("grad") is not None:
        out["grad"] = dict(w["grad"], data=g["grad"]["data"], repr=g["grad"]["repr"])
    return out


def rounded_root_gradient(lines, i, want_i, got_i, op_of, compare_desc) -> bool:
    """``vml-sqrt-inside`` for a gradient: statement ``i`` is (or ends in) a ``backward``/``grad`` after a
    ``cosine_embedding_loss`` or ``corrcoef``, and PyTorch's program replayed with their composites (a
    correctly rounded root) gives, bit for bit, agrad's values of every variable that differs (a create_graph
    gradient, 0.0060996858 against PyTorch's 0.0060997158, run dt37e; corrcoef's clip of a float64
    correlation 1 - 2^-53 in PyTorch, 1 + 2^-52 in agrad: the gradient 0 against 4.4e-16, run 39906000),
    nothing else differing."""
    import numpy as np

    if not _BACKWARD.search(lines[i].strip().splitlines()[-1]) or set(want_i["vars"]) != set(got_i["vars"]):
        return False
    ops = {op_of(lines[j]) for j in range(i)} & ROOT_OPS
    if not ops:
        return False
    differing = [k for k, w in want_i["vars"].items() if compare_desc(w, got_i["vars"][k], k) is not None]
    if not differing:
        return False

    ns = difftest_watch.replay(lines, i, _patches(ops), every=True)
    for k in differing:
        w, g = want_i["vars"][k], got_i["vars"][k]
        for desc, out in _tensors(w, g, ns.get(k)):
            data = desc.get("data")
            if out is None or not isinstance(data, np.ndarray):
                return False
            mine = out.numpy()
            if mine.shape != data.shape or mine.dtype != data.dtype or not np.array_equal(mine, data, equal_nan=True):
                return False
        if compare_desc(_with_data(w, g), g, k) is not None:
            return False
    return True


#: F.gaussian_nll_loss takes ``torch.log(var)``, MKL VML's float32/float64 log (vsLn/vdLn)
LOG_OPS = {"gaussian_nll_loss"}


def rounded_log_explains(lines: list[str], i: int, stmt: str, want: dict, got: dict, agree_once) -> bool:
    """``vml-log-inside`` for gaussian_nll_loss: the one variable that differs is the float tensor statement
    ``i`` assigns, and PyTorch's replay of the statement with ``torch.log`` giving the correctly rounded
    log (agrad's) gives agrad's values bit for bit (log(0.40546510): VML's -0.90272045, the
    correctly rounded -0.90272051; the loss -0.015475929 against -0.015475959, run 38100000)."""
    import numpy as np
    import torch

    mine = difftest_watch.assigned_tensor(stmt, want)
    if mine is None or mine["dtype"] not in ("torch.float32", "torch.float64"):
        return False
    real_log = torch.log

    def rounded_log(t, *args, **kwargs):
        if args or kwargs or not isinstance(t, torch.Tensor) or t.dtype not in (torch.float32, torch.float64):
            return real_log(t, *args, **kwargs)
        a = t.detach().numpy()
        with np.errstate(all="ignore"):  # (float32: the double log rounded once; numpy's float32 log is not)
            return torch.from_numpy(np.asarray(np.log(a.astype(np.float64)).astype(a.dtype)))

    ns = difftest_watch.replay(lines, i, [(torch, "log", rounded_log)])
    name = re.match(r"^\s*(\w+)\s*=", stmt.strip().splitlines()[-1])
    out = ns.get(name.group(1)) if name else None
    if not isinstance(out, torch.Tensor):
        return False
    value = out.detach().numpy()
    return _only_replayed_value_differs(want, got, mine, value, agree_once)


def _only_replayed_value_differs(want, got, mine, value, agree_once) -> bool:
    """Whether the one variable ``mine`` (PyTorch's observation) is all that differs, and agrad's value of
    it is ``value`` (the replay's), bit for bit (NaNs in the same places)."""
    import numpy as np

    def neutral(w, g):
        if w is not mine or g["kind"] != "tensor" or g["dtype"] != w["dtype"] or g["shape"] != w["shape"]:
            return None
        data = np.asarray(g["data"])
        same = data.shape == value.shape and bool(((data == value) | (np.isnan(data) & np.isnan(value))).all())
        return (w, dict(g, data=w["data"], repr=w["repr"])) if same else None
    return agree_once(want, got, neutral)


#: torch.linalg.slogdet / torch.slogdet / torch.logdet: the log of the diagonal of the LU factors is MKL VML's
SLOGDET_OPS = {"slogdet", "logdet"}


def rounded_log_slogdet_explains(lines: list[str], i: int, stmt: str, want: dict, got: dict, agree_once) -> bool:
    """``vml-log-inside`` for slogdet and logdet: PyTorch factorises the matrix's row-major buffer (A^T,
    of the same determinant) and sums VML's float32/float64 log of the diagonal's magnitudes. The one
    variable that differs is what statement ``i`` assigns (a tensor, or slogdet's (sign, logabsdet)),
    and PyTorch's replay of the statement with that log correctly rounded gives agrad's values bit for
    bit (a det-1 matrix [[1, 1.5], [-0.5, .25]]: VML's log(1.5) 0.40546513, the correctly rounded
    0.40546510; logabsdet 5.96e-8 against 2.98e-8, run dt40c)."""
    import numpy as np
    import torch

    name = re.match(r"^\s*(\w+)\s*=", stmt.strip().splitlines()[-1])
    mine = want["vars"].get(name.group(1)) if name else None
    if mine is None:
        return False
    real_slogdet = torch.linalg.slogdet

    def rounded_slogdet(A, *args, **kwargs):
        sign, logabs = real_slogdet(A, *args, **kwargs)
        if not isinstance(A, torch.Tensor) or A.dtype not in (torch.float32, torch.float64) or A.numel() == 0:
            return sign, logabs
        LU, _ = torch.linalg.lu_factor(A.detach().mT)
        d = LU.diagonal(dim1=-2, dim2=-1).abs().numpy()
        with np.errstate(all="ignore"):  # (the double log rounded once to float32)
            logs = torch.from_numpy(np.asarray(np.log(d.astype(np.float64)).astype(d.dtype)))
        return type(real_slogdet(A))((sign, logs.sum(-1)))

    def rounded_logdet(A):
        sign, logabs = rounded_slogdet(A)
        return torch.where(sign < 0, torch.full_like(logabs, float("nan")), logabs)

    patches = [(torch.linalg, "slogdet", rounded_slogdet), (torch, "slogdet", rounded_slogdet),
               (torch, "logdet", rounded_logdet), (torch.Tensor, "slogdet", rounded_slogdet),
               (torch.Tensor, "logdet", rounded_logdet)]
    out = difftest_watch.replay(lines, i, patches).get(name.group(1))
    if mine["kind"] == "tensor" and isinstance(out, torch.Tensor):
        return _only_replayed_value_differs(want, got, mine, out.detach().numpy(), agree_once)
    if mine["kind"] != "seq" or not isinstance(out, tuple) or len(out) != len(mine["items"]):
        return False
    values = [o.detach().numpy() for o in out]

    def neutral(w, g):  # (each tensor of the pair: agrad's bit for bit the replay's)
        if w is not mine or g["kind"] != "seq" or len(g["items"]) != len(values):
            return None
        for item, v in zip(g["items"], values):
            data = np.asarray(item.get("data"))
            if item.get("kind") != "tensor" or data.shape != v.shape or not bool(
                    ((data == v) | (np.isnan(data) & np.isnan(v))).all()):
                return None
        return w, dict(g, items=mine["items"], repr=w["repr"])
    return agree_once(want, got, neutral)
