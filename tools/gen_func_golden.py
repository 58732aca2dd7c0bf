"""Regenerate tests/golden/func.json: torch.autograd.functional and torch.func under PyTorch.

Usage: python tools/gen_func_golden.py

Each case is a few statements run in a fresh namespace (``torch``, ``F``,
``fn`` = torch.autograd.functional, ``func`` = torch.func, and seeded inputs)
and expressions whose printed value -- or the error they raise, type and
text -- is recorded.  tests/autograd/test_functional_golden.py runs the same
under agrad and compares text for text.
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "func.json"
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")

SETUP = [
    "x = torch.tensor([0.5, -1.0, 2.0])",
    "y = torch.tensor([1.5, 0.25, -0.75])",
    "M = torch.tensor([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]])",
    "s = torch.tensor(0.7)",
    "def cubic(a): return (a ** 3).sum()",
    "def mix(a, b): return (a.sin() * b.exp()).sum()",
    "def pair(a, b): return a * b, a + b.cos()",
    "def lin(a): return M @ a",
    "def sq(a): return a * a",
]

# (name, statements, expressions)
CASES = [
    # torch.autograd.functional.jacobian
    ("jacobian_single", [], ["fn.jacobian(torch.sin, x)", "fn.jacobian(lin, x)"]),
    ("jacobian_tuple", [], ["fn.jacobian(pair, (x, y))", "fn.jacobian(mix, (x, y))"]),
    ("jacobian_vectorize", [], ["fn.jacobian(pair, (x, y), vectorize=True)",
                                "fn.jacobian(lambda a: (M @ a).tanh(), x, vectorize=True)",
                                "fn.jacobian(lambda a: a.sum(), x, vectorize=True)",
                                "fn.jacobian(lambda a: a.reshape(3, 1) * M.t(), x, vectorize=True)"]),
    ("jacobian_forward_mode", [], ["fn.jacobian(pair, (x, y), vectorize=True, strategy='forward-mode')",
                                   "fn.jacobian(lin, x, vectorize=True, strategy='forward-mode')"]),
    ("jacobian_create_graph", ["J = fn.jacobian(torch.sin, x.clone().requires_grad_(), create_graph=True)"],
     ["J.requires_grad", "J.grad_fn is not None", "fn.jacobian(torch.sin, x).requires_grad"]),
    ("jacobian_unused_input", [], ["fn.jacobian(lambda a, b: a * 2, (x, y))",
                                   "fn.jacobian(lambda a, b: a * 2, (x, y), vectorize=True)"]),
    ("jacobian_scalar", [], ["fn.jacobian(lambda a: a * a, s)", "fn.jacobian(cubic, x)"]),
    ("jacobian_errors", [], [
        "fn.jacobian(lambda a, b: a * 2, (x, y), strict=True)",
        "fn.jacobian(lambda a: a.detach() * 2, x, strict=True)",
        "fn.jacobian(torch.sin, x, strict=True, vectorize=True)",
        "fn.jacobian(torch.sin, x, strategy='sideways')",
        "fn.jacobian(torch.sin, x, strategy='forward-mode')",
        "fn.jacobian(torch.sin, x, strategy='forward-mode', create_graph=True)",
        "fn.jacobian(torch.sin, x, strategy='forward-mode', vectorize=True, strict=True)",
        "fn.jacobian(torch.sin, [x])",
        "fn.jacobian(torch.sin, 3.0)",
        "fn.jacobian(torch.sin, (x, 3.0))",
        "fn.jacobian(lambda a: 3.0, x)",
    ]),
    # hessian
    ("hessian", [], ["fn.hessian(cubic, x)", "fn.hessian(mix, (x, y))",
                     "fn.hessian(mix, (x, y), vectorize=True)",
                     "fn.hessian(cubic, x, vectorize=True, outer_jacobian_strategy='forward-mode')"]),
    ("hessian_errors", [], [
        "fn.hessian(torch.sin, x)",
        "fn.hessian(pair, (x, y))",
        "fn.hessian(lambda a: (a * 2).sum(), x, strict=True)",
        "fn.hessian(cubic, x, outer_jacobian_strategy='x')",
    ]),
    # vjp, jvp, vhp, hvp
    ("vjp", [], ["fn.vjp(torch.sin, x, y)", "fn.vjp(cubic, x)", "fn.vjp(pair, (x, y), (y, x))"]),
    ("jvp", [], ["fn.jvp(torch.sin, x, y)", "fn.jvp(pair, (x, y), (y, x))", "fn.jvp(lambda a: a * 3, s)"]),
    ("vhp_hvp", [], ["fn.vhp(cubic, x, y)", "fn.hvp(cubic, x, y)", "fn.vhp(mix, (x, y), (y, x))",
                     "fn.hvp(mix, (x, y), (y, x))"]),
    ("products_errors", [], [
        "fn.vjp(torch.sin, x)",
        "fn.vjp(torch.sin, x, torch.ones(2))",
        "fn.vjp(pair, (x, y), (x,))",
        "fn.vjp(pair, (x, y), (x, torch.ones(2)))",
        "fn.jvp(torch.sin, x)",
        "fn.jvp(lambda a: a.detach(), x, y, strict=True)",
        "fn.vjp(lambda a: a.detach(), x, y, strict=True)",
        "fn.vjp(lambda a, b: a * 2, (x, y), x, strict=True)",
        "fn.hvp(torch.sin, x, y)",
        "fn.vhp(pair, (x, y), (x, y))",
        "fn.hvp(lambda a: (a * 2).sum(), x, y, strict=True)",
        "fn.vhp(lambda a: (a * 2).sum(), x, y, strict=True)",
    ]),
    ("products_create_graph", ["xr = x.clone().requires_grad_()",
                               "o, v = fn.vjp(torch.sin, xr, y, create_graph=True)"],
     ["v.requires_grad", "fn.vjp(torch.sin, xr, y)[1].requires_grad",
      "torch.autograd.grad(fn.hvp(cubic, xr, y, create_graph=True)[1].sum(), xr)"]),
    # autograd.grad with is_grads_batched
    ("grads_batched", ["xr = x.clone().requires_grad_()", "out = (M @ xr).exp()"],
     ["torch.autograd.grad(out, xr, torch.eye(2), is_grads_batched=True, retain_graph=True)",
      "torch.autograd.grad(out, xr, torch.ones(2), is_grads_batched=True, retain_graph=True)",
      "torch.autograd.grad(out, xr, torch.ones(4, 3), is_grads_batched=True, retain_graph=True)",
      "torch.autograd.grad(out.sum(), xr, is_grads_batched=True, retain_graph=True)",
      "torch.autograd.grad(out, xr, is_grads_batched=True, retain_graph=True)",
      "torch.autograd.grad(out[:1], xr, is_grads_batched=True, retain_graph=True)",
      "torch.autograd.grad(out, xr, torch.ones(3, 2), is_grads_batched=True, retain_graph=True, create_graph=True)"
      "[0].requires_grad",
      "torch.autograd.grad(out, xr, torch.ones(3, 2), is_grads_batched=True, retain_graph=True)[0].shape"]),
    # torch.func
    ("func_grad", [], ["func.grad(cubic)(x)", "func.grad(mix, argnums=1)(x, y)", "func.grad(mix, argnums=(0, 1))(x, y)",
                       "func.grad(lambda a: (a * 2).sum(), has_aux=False)(x)",
                       "func.grad(lambda a: ((a * a).sum(), a.mean()), has_aux=True)(x)",
                       "func.grad_and_value(cubic)(x)",
                       "func.grad(func.grad(lambda a: a.sin()))(s)",
                       "func.grad(lambda d: (d['w'] * d['b']).sum())({'w': x, 'b': y})"]),
    ("func_grad_errors", [], ["func.grad(torch.sin)(x)", "func.grad(lambda a: 3.0)(x)",
                              "func.grad(cubic, argnums=2)(x)", "func.grad(cubic, argnums=(0, 0))(x)",
                              "func.grad(cubic, argnums=[0])(x)", "func.grad(cubic, has_aux=True)(x)",
                              "func.grad(cubic, argnums=())(x)"]),
    ("func_vjp_jvp", ["o, vf = func.vjp(pair, x, y)"],
     ["o", "vf((x, y))", "func.vjp(torch.sin, x)[1](y)", "func.jvp(torch.sin, (x,), (y,))",
      "func.jvp(pair, (x, y), (y, x))", "func.jvp(lambda a: (a.sin(), a.sum()), (x,), (y,), has_aux=True)"]),
    ("forward_ad_errors", [], ["func.jvp(lambda a: torch.unique(a), (x,), (y,))",
                               "func.jacfwd(lambda a: torch.unique(a))(x)",
                               "fn.jacobian(lambda a: torch.unique(a), x, vectorize=True, strategy='forward-mode')",
                               "func.jacrev(lambda a: torch.unique(a))(x)",
                               "func.jvp(lambda a: F.scaled_dot_product_attention(a, a, a), (M.unsqueeze(0),), "
                               "(M.unsqueeze(0),))"]),
    ("func_vjp_jvp_errors", [], ["func.jvp(torch.sin, x, y)", "func.jvp(torch.sin, (x,), (y, y))",
                                 "func.jvp(torch.sin, (x,), (torch.ones(2),))",
                                 "func.vjp(pair, x, y)[1](x)"]),
    ("func_jac", [], ["func.jacrev(torch.sin)(x)", "func.jacfwd(torch.sin)(x)", "func.jacrev(pair, argnums=(0, 1))(x, y)",
                      "func.jacfwd(pair, argnums=(0, 1))(x, y)", "func.jacrev(lin)(x)", "func.jacfwd(lin)(x)",
                      "func.jacrev(lambda a: (a.sin(), a.sum()), has_aux=True)(x)",
                      "func.hessian(cubic)(x)", "func.hessian(mix, argnums=1)(x, y)",
                      "func.jacrev(func.jacrev(cubic))(x)", "func.jacfwd(func.jacfwd(cubic))(x)",
                      "func.jacrev(lambda d: d['a'] * d['b'])({'a': x, 'b': y})",
                      "func.hessian(lambda a: F.softmax(a, 0)[0])(x)",
                      "func.jacrev(func.jacrev(lambda a: (M @ a).tanh().sum() + a.exp().log_softmax(0)[1]))(x)"]),
    ("func_vmap", [], ["func.vmap(torch.dot)(M, M)", "func.vmap(torch.mv, in_dims=(None, 0))(M, torch.stack([x, y]))",
                       "func.vmap(lambda a: a * 2, in_dims=1)(M)", "func.vmap(lambda a: a.sum(0), out_dims=0)(M)",
                       "func.vmap(lambda a: a * 2, in_dims=1, out_dims=1)(M)",
                       "func.vmap(func.vmap(torch.mul))(M, M)",
                       "func.vmap(lambda a, b: a * b, in_dims=(0, None))(M, y)",
                       "func.vmap(lambda a: (a, a.sum()))(M)",
                       "func.vmap(lambda d: d['k'] + 1)({'k': M})",
                       "func.vmap(func.grad(cubic))(M)",
                       "func.vmap(func.jacrev(torch.sin))(M)",
                       "torch.vmap(torch.sum)(M)",
                       "func.vmap(lambda a: a + torch.rand(3), randomness='different')(M).shape"]),
    ("func_vmap_errors", [], ["func.vmap(lambda a: a + torch.rand(3))(M)",
                              "func.vmap(torch.sin, randomness='x')(M)",
                              "func.vmap(torch.sin, in_dims=2)(M)",
                              "func.vmap(torch.mul)(M, x)",
                              "func.vmap(torch.sin, in_dims=(0, 0))(M)",
                              "func.vmap(lambda a, b: a, in_dims=(0, 0))(M, 3.0)",
                              "func.vmap(lambda a: 3.0)(M)",
                              "func.vmap(torch.sin, in_dims=None)(M)",
                              "func.vmap(torch.sin, in_dims='a')(M)",
                              "func.vmap(lambda a: a * 2, out_dims=None)(M)",
                              "func.vmap(lambda a: (a * 2, torch.ones(2)), out_dims=(0, None))(M)",
                              "func.vmap(lambda a: a * 2, out_dims=5)(M)",
                              "func.vmap(lambda a: a * 2, out_dims='a')(M)"]),
    # gradients taken inside a forward-AD dual level carry tangents (how jacfwd(jacrev(f)) works)
    ("dual_level_grads", [
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(x.clone().requires_grad_(), y)\n"
        "    g1, = torch.autograd.grad(cubic(d), d, create_graph=True)\n"
        "    t1 = fwAD.unpack_dual(g1).tangent\n"
        "    g2, = torch.autograd.grad(mix(d, x), d)\n"
        "    t2, p2 = fwAD.unpack_dual(g2).tangent, fwAD.unpack_dual(g2).primal\n"
        "    g3, = torch.autograd.grad((M @ d).tanh().sum(), d)\n"
        "    t3 = fwAD.unpack_dual(g3).tangent\n"
        "    q = x.clone().requires_grad_()\n"
        "    g4, = torch.autograd.grad((d * q).sum(), q)\n"
        "    t4 = fwAD.unpack_dual(g4).tangent\n"
        "    g5, = torch.autograd.grad(F.log_softmax(M @ d, 0).sum() + d.prod(), d)\n"
        "    t5 = fwAD.unpack_dual(g5).tangent\n"
        "    pl = x.clone().requires_grad_()\n"
        "    dl = fwAD.make_dual(pl, y)\n"
        "    (dl * dl).sum().backward()\n"
        "    t6 = (pl.grad, fwAD.unpack_dual(pl.grad).tangent)"],
     ["t1", "t1.requires_grad", "t2", "p2", "g2.requires_grad", "t3", "t4", "t5", "t6"]),
    # vmap's batching rules: the element's view (shape, len, iteration), ops with rules and without, nesting
    ("func_vmap_batched", ["B = torch.stack([x, y, x * y, y - x])", "W = torch.tensor([[0.5, -1.0, 2.0], "
                           "[1.5, 0.25, -0.5]])", "b = torch.tensor([0.1, -0.2])"],
     ["func.vmap(lambda a: torch.tanh(W @ a + b))(B)", "func.vmap(lambda a: F.linear(a, W, b).relu().sum())(B)",
      "func.vmap(lambda a: F.softmax(a, dim=0) + a.log_softmax(-1))(B)",
      "func.vmap(lambda a: (a.sum(), a.mean(0), a.amax(), a.argmax(), a.var(), a.std(0, keepdim=True)))(B)",
      "func.vmap(lambda a: a.max(0))(B)", "func.vmap(lambda a: a.sort(descending=True))(B)",
      "func.vmap(lambda a: a.topk(2))(B)", "func.vmap(lambda a: (a.shape, a.dim()) and a * len(a))(B)",
      "func.vmap(lambda a: torch.stack([v * 2 for v in a]))(B)",
      "func.vmap(lambda a: a.view(3, 1) * a)(B)", "func.vmap(lambda a: a.reshape(1, 3).t().expand(3, 2).sum(1))(B)",
      "func.vmap(lambda a: a[1:] - a[0])(B)", "func.vmap(lambda a: a[None, ..., ::2])(B)",
      "func.vmap(lambda a: a[torch.tensor([2, 0])])(B)",
      "func.vmap(lambda a, c: torch.cat([a, c]) * torch.stack([a, c], 1).sum(0).repeat(2))(B, B.flip(0))",
      "func.vmap(lambda a: torch.where(a > 0, a, a * 0.1).clamp(-0.05, 1.0))(B)",
      "func.vmap(lambda a: a.unsqueeze(0).mT.squeeze(-1).flatten().unflatten(0, (3, 1)).permute(1, 0))(B)",
      "func.vmap(lambda a: a.cumsum(0) + a.flip(0) + a.exp().log1p())(B)",
      "func.vmap(lambda a, c: torch.dot(a, c) + torch.outer(a, c).trace())(B, B)",
      "func.vmap(lambda a: a.masked_fill(a < 0, 0.0) ** 2 + 2 ** a)(B)",
      "func.vmap(lambda a: a.clone().mul_(2).add_(1))(B)",
      "func.vmap(lambda a: F.mse_loss(a, x) + F.mse_loss(a, y, reduction='sum'))(B)",
      "func.vmap(lambda a: a.norm() + a.new_zeros(a.shape).sum())(B)",
      "func.vmap(func.vmap(lambda a, c: a * c + a.sum()))(B.reshape(2, 2, 3), B.reshape(2, 2, 3))",
      "func.vmap(lambda r: func.vmap(lambda c: (r * c).sum())(M))(B)",
      "func.vmap(func.vmap(torch.dot, in_dims=(0, None)), in_dims=(None, 0))(B, M)",
      "func.vmap(lambda a: a.sum(0), in_dims=1)(B)", "func.vmap(lambda a: a * 2, in_dims=1, out_dims=1)(B)",
      "func.vmap(lambda a: (a * 2, M), out_dims=(0, None))(B)", "func.vmap(lambda a: M)(B)",
      "func.vmap(torch.mm)(B.reshape(2, 2, 3), B.reshape(2, 3, 2))", "func.vmap(lambda a: a.sum())(B.long())",
      "func.vmap(lambda a, d: a.double() * d)(B, B[:, 0].double())",
      "func.vmap(func.grad(lambda a: (a.sin() * a).sum()))(B)",
      "func.vmap(func.jacrev(lambda a: a.tanh() * a.sum()))(B[:2])",
      "func.vmap(lambda a, k=2: a * k)(B, k=3)",
      "func.vmap(lambda a, t: F.cross_entropy(a, t))(B, torch.tensor([0, 2, 1, 1]))",
      "func.vmap(lambda a, t: F.nll_loss(a.log_softmax(-1), t, weight=y.abs(), ignore_index=1))(B, "
      "torch.tensor([0, 2, 1, 1]))",
      "func.vmap(lambda a, t: F.cross_entropy(a.view(1, 3).expand(2, 3), t, reduction='none'))(B, "
      "torch.tensor([[0, 2], [1, 1], [2, 2], [0, 0]]))",
      "func.vmap(func.grad(lambda w, a, t: F.cross_entropy(W @ (w * a), t)), in_dims=(None, 0, 0))(x, B, "
      "torch.tensor([0, 1, 1, 0]))",
      "func.vmap(func.grad_and_value(lambda a, c: (a * c).sum(), argnums=(0, 1)), in_dims=(0, None))(B, y)",
      "func.vmap(func.jacrev(lambda a, c: (a * c, a.sum() * c, M.sum()), argnums=(0, 1)), in_dims=(0, None))(B, y)",
      "func.vmap(lambda a, u: func.vjp(lambda t: (W @ t).exp(), a)[1](u))(B, B[:, :2])",
      "func.vmap(lambda a: func.vjp(lambda t: t.sin() * y, a)[1](x))(B)",
      "func.vmap(func.hessian(lambda a: (a ** 3).sum() * a[0]))(B[:2])",
      "func.vmap(lambda a, t: func.jvp(lambda u: (W @ u).tanh(), (a,), (t,)))(B, B.flip(0))",
      "func.vmap(func.jacfwd(lambda a, c: (a * c).exp(), argnums=(0, 1)), in_dims=(0, None))(B, y)",
      "func.vmap(func.vmap(func.grad(lambda a, c: (a * c).sum()), in_dims=(0, None)), in_dims=(0, None))("
      "B.reshape(2, 2, 3), y)",
      "func.vmap(lambda a: F.max_pool1d(F.conv1d(a.view(1, 1, 3), M.view(2, 1, 3), padding=1), 2))(B)",
      "func.vmap(lambda a, w: F.conv1d(a.view(1, 3), w.view(1, 1, 3), y[:1], padding='same'))(B, B.flip(0))",
      "func.vmap(func.grad(lambda w, a: F.avg_pool1d(F.conv1d(a.view(1, 1, 3), w, padding=1), 2).sum()), "
      "in_dims=(None, 0))(M.view(2, 1, 3), B)",
      "func.vmap(lambda a: F.layer_norm(a, (3,)) + F.embedding(torch.tensor([1, 0, 1]), M).sum(1))(B)",
      "func.vmap(lambda a, c: torch.einsum('i,j->ij', a, c) + torch.einsum('ij,j', M.t() @ M, a))(B, B)",
      "func.vmap(lambda a: a.repeat(2).roll(1) + a.gather(0, torch.tensor([2, 2, 0, 1, 1, 0])))(B)",
      "func.vmap(lambda a: a.outer(a).trace() + a.new_ones(3))(B)"]),
    ("func_vmap_batched_errors", ["B = torch.stack([x, y, x * y, y - x])"], [
        "func.vmap(lambda a: a if a.sum() > 0 else -a)(B)", "func.vmap(lambda a: a.item())(B)",
        "func.vmap(lambda a: a.tolist())(B)", "func.vmap(lambda a: float(a[0]))(B)",
        "func.vmap(lambda a: a.backward())(B)", "func.vmap(lambda a: a.sum(5))(B)",
        "func.vmap(lambda a: a + torch.ones(4))(B)", "func.vmap(lambda a: a.view(2, 2))(B)",
        "func.vmap(lambda a: a.unsqueeze(3))(B)", "func.vmap(lambda a: a.transpose(0, 2))(B)",
        "func.vmap(lambda a: a.mv(a))(B)", "func.vmap(lambda a, c: a.mm(c))(B, M)",
        "func.vmap(lambda a: (a.sum(), 1))(B)", "func.vmap(lambda a: a.dtype)(B)"]),
    ("functional_call", ["torch.manual_seed(0)", "lin2 = torch.nn.Linear(3, 2)",
                         "p = {'weight': M, 'bias': torch.tensor([1.0, -1.0])}"],
     ["func.functional_call(lin2, p, (x,))", "func.functional_call(lin2, p, x)",
      "lin2.weight.shape", "func.grad(lambda p, a: func.functional_call(lin2, p, (a,)).sum())(p, x)",
      "func.functional_call(lin2, {'weight': M}, (x,), strict=True)",
      "func.functional_call(lin2, ({'weight': M}, {'weight': M}), (x,))",
      "func.functional_call(lin2, 3, (x,))"]),
]


def shown(value) -> str:
    return _ADDRESS.sub("", repr(value))


def _run(torch, statements, expressions) -> list[str]:
    ns = {"torch": torch, "F": torch.nn.functional, "fn": torch.autograd.functional, "func": torch.func,
          "fwAD": torch.autograd.forward_ad}
    for stmt in SETUP + list(statements):
        exec(stmt, ns)
    out = []
    for expr in expressions:
        try:
            out.append(shown(eval(expr, ns)))
        except Exception as e:  # noqa: BLE001 - recorded as the expected outcome
            out.append(f"Error: {type(e).__name__}: {e}")
    return out


#: the test runs the same code under agrad
run_case = _run


def main() -> int:
    import torch
    import torch.autograd.functional  # noqa: F401
    import torch.autograd.forward_ad  # noqa: F401
    import torch.func  # noqa: F401
    if not torch.__version__.startswith("2.13"):
        print(f"warning: golden files are meant to come from torch 2.13, this is {torch.__version__}",
              file=sys.stderr)
    cases = [{"name": n, "setup": SETUP, "statements": st, "expressions": ex, "expected": _run(torch, st, ex)}
             for n, st, ex in CASES]
    GOLDEN.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, indent=1) + "\n")
    print(f"wrote {GOLDEN.relative_to(ROOT)}: {len(cases)} cases, "
          f"{sum(len(c['expressions']) for c in cases)} expressions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
