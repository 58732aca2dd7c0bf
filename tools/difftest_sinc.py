"""The differential tester's rule ``vml-sinc-gradient`` past its bound (tools/difftest.py, docs/semantics.md):
sinc's backward, ``grad * ((x pi cos(x pi) - sin(x pi)) / (x^2 pi))``, takes PyTorch's cos and sin kernels
(MKL VML's, within an ulp, not always the correctly rounded values agrad takes), and the subtraction
cancels as x nears 0, so that cos's last bit moves the gradient by ~eps / |x| relative (float32
sinc at 0.0044879: 0.028892089 against 0.028920922 after gammaln's digamma; run 42503000). No fixed
bound holds near 0. The rule re-runs the program under PyTorch with sinc's backward taking agrad's cos and
sin (the formula's other steps PyTorch's own, bit for bit: ``grad * (... / x_sq_pi)``, zero where x^2 pi
is 0): a backward whose gradients that replay gives is explained; any other difference stays one."""

from __future__ import annotations

import math
import re
import warnings

#: a statement that calls sinc (function, method, in place, torch.special's)
_SINC = re.compile(r"\bsinc_?\(")
_BACKWARD = re.compile(r"\.backward\(|\bautograd\.grad\(")


def _exact_sinc_mode(torch, agrad):
    """A TorchFunctionMode under which sinc (``torch.sinc``, ``torch.special.sinc``, ``Tensor.sinc``,
    ``Tensor.sinc_`` on a tensor that records history) records a node whose backward is PyTorch's
    formula with agrad's cos and sin of x pi (their difference to PyTorch's added to PyTorch's, so a
    double backward still sees cos and sin in the graph)."""

    def rounded(t, name):
        """PyTorch's cos/sin of ``t`` (in the graph) made agrad's value: exact - own is exact (Sterbenz)."""
        own = getattr(t, name)()
        theirs = getattr(agrad.from_numpy(t.detach().numpy().copy()), name)().numpy()
        return own + (torch.from_numpy(theirs) - own.detach())

    class ExactSinc(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return torch.sinc(x)

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            x_pi = x * math.pi
            sq_pi = x * x * math.pi
            out = grad * ((x_pi * rounded(x_pi, "cos") - rounded(x_pi, "sin")) / sq_pi)
            return torch.where(sq_pi == 0.0, torch.zeros((), dtype=out.dtype), out)

    functions = {torch.sinc, torch.special.sinc, torch.Tensor.sinc}

    class Mode(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            x = args[0] if args else kwargs.get("input")
            records = isinstance(x, torch.Tensor) and x.requires_grad and torch.is_grad_enabled() \
                and x.dtype in (torch.float32, torch.float64)
            if func in functions and records and len(args) == 1 and not kwargs:
                return ExactSinc.apply(x)
            if func is torch.Tensor.sinc_ and records and len(args) == 1 and not kwargs:
                return x.copy_(ExactSinc.apply(x.clone()))  # (a leaf's in-place refusal: copy_'s, the same)
            return func(*args, **kwargs)
    return Mode()


def _replayed(torch, agrad, lines, i):
    """PyTorch's namespace after ``lines[:i + 1]`` under the mode; None when statement ``i`` raises."""
    ns = {"torch": torch, "F": torch.nn.functional}
    torch.manual_seed(0)
    with warnings.catch_warnings(), _exact_sinc_mode(torch, agrad):
        warnings.simplefilter("ignore")
        for j, stmt in enumerate(lines[:i + 1]):
            try:
                exec(stmt, ns)
            except Exception:  # noqa: BLE001 - as in the tester's run
                if j == i:
                    return None
    return ns


def _with_values(desc, value, torch):
    """PyTorch's description ``desc`` with the replay's ``value``'s data and repr (and .grad's), or None."""
    if desc["kind"] == "tensor":
        if not isinstance(value, torch.Tensor) or list(value.shape) != desc["shape"]:
            return None
        out = dict(desc, data=value.detach().numpy().copy(), repr=repr(value))
        if desc.get("grad") is not None:
            if value.grad is None:
                return None
            out["grad"] = dict(desc["grad"], data=value.grad.detach().numpy().copy(), repr=repr(value.grad))
        return out
    if desc["kind"] == "seq" and isinstance(value, (tuple, list)) and len(value) == len(desc["items"]):
        items = [item if item["kind"] == "py" else _with_values(item, v, torch) for item, v in zip(desc["items"], value)]
        return None if any(it is None for it in items) else dict(desc, items=items, repr=repr(value))
    return None


def exact_cos_explains(lines, i, want_i, got_i, compare_desc) -> bool:
    """True when statement ``i`` is (or ends in) a ``backward``/``grad`` after a sinc, and every variable
    that differs is, in PyTorch's replay with agrad's cos and sin inside sinc's backward, agrad's: its
    data and .grad (and their reprs) the replay's, all else PyTorch's own (the replay's graph names are not compared)."""
    import agrad
    import torch

    if not _BACKWARD.search(lines[i].strip().splitlines()[-1]) or not any(_SINC.search(s) for s in lines[:i]) \
            or set(want_i["vars"]) != set(got_i["vars"]):
        return False
    differing = [k for k, w in want_i["vars"].items() if compare_desc(w, got_i["vars"][k], k) is not None]
    if not differing:
        return False
    ns = _replayed(torch, agrad, lines, i)
    if ns is None:
        return False
    for k in differing:
        replayed = _with_values(want_i["vars"][k], ns.get(k), torch)
        if replayed is None or compare_desc(replayed, got_i["vars"][k], k) is not None:
            return False
    return True
