"""Regression cases of session 36's groupsb36 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("saved-input-detached-in-place-which-unpacks",  # SavedVariable::unpack: a non-leaf input saved, grad_fn gone
         ["x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)",
          "def attempt(f):\n    x.grad = None\n    try:\n        f()\n        return x.grad\n"
          "    except RuntimeError as e:\n        return str(e)",
          "def norm_of_abs():\n    r = x * 1\n    n = torch.norm(r.abs_(), dtype=torch.float64)\n"
          "    torch.detach_(r)\n    torch.autograd.grad(n, [x], create_graph=True)",
          "def output_saved():\n    r = x * 1\n    y = r.exp()\n    z = y * 2\n    y.detach_()\n    z.sum().backward()",
          "def leaf_saved_then_rebased():\n    a = torch.ones(3)\n    y = a * x\n    a.add_(x)\n    a.detach_()\n"
          "    y.sum().backward()",
          "def changed_then_detached():\n    r = x * 1\n    y = r * x\n    r.add_(1)\n    r.detach_()\n"
          "    y.sum().backward()",
          "def by_name():\n    a = x * 1\n    b = x * 2\n    y = a * b\n    b.add_(1)\n    a.detach_()\n"
          "    y.sum().backward()",
          "def saved_after_detach():\n    r = x * 1\n    r.detach_()\n    y = r * x\n    y.sum().backward()",
          "def second_pass():\n    r = x * 1\n    y = r.sin()\n    y.sum().backward(retain_graph=True)\n"
          "    r.detach_()\n    y.sum().backward()",
          "def custom_function():\n    class Fn(torch.autograd.Function):\n        @staticmethod\n"
          "        def forward(ctx, a):\n            ctx.save_for_backward(a)\n            return a * 2\n"
          "        @staticmethod\n        def backward(ctx, g):\n            (a,) = ctx.saved_tensors\n"
          "            return g * a\n    r = x * 1\n    y = Fn.apply(r)\n    r.detach_()\n    y.sum().backward()",
          "def view_of_it_saved():\n    r = x * 1\n    y = r[1:].sin()\n    r.detach_()\n    y.sum().backward()",
          "def packed():\n    r = x * 1\n    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):\n"
          "        y = r.sin()\n    r.detach_()\n    y.sum().backward()",
          "out = [attempt(f) for f in (norm_of_abs, output_saved, leaf_saved_then_rebased, changed_then_detached, by_name,"
          " saved_after_detach, second_pass, custom_function, view_of_it_saved, packed)]",
          "r = x * 1", "y = r.sin()", "r.detach_()", "s = y.grad_fn._saved_self"],
         ["out", "s", "s.grad_fn"]),
    case("rad2deg-deg2rad-half-in-float",  # mul by a wrapped number: float16 computed in float32, then rounded
         ["x = torch.tensor([-2.75, 2.75, -1.0, 3.0, -0.5, 0.75, 1e3, -2e4], dtype=torch.float16)",
          "y = torch.linspace(-400, 400, 33, dtype=torch.float16)"],
         ["torch.rad2deg(x)", "torch.deg2rad(y)", "x.clone().rad2deg_()", "torch.rad2deg(x).sin()"]),
    case("rms-norm-int-weight-warning-names",  # layer_norm.cpp's TORCH_WARN_ONCE: ATen's C type names
         ["torch.set_warn_always(True)", "x = torch.tensor([[0.0, -2.0], [1.5, 0.25]], requires_grad=True)",
          "r = F.rms_norm(x, (2,), weight=torch.tensor([4, 1], dtype=torch.int32), eps=-1.5)",
          "r2 = F.rms_norm(x, (2,), weight=torch.tensor([True, False]))", "torch.set_warn_always(False)"],
         ["r", "r2"]),
    case("mean-backward-of-zerotensor-with-history-is-ordinary",  # mean_backward's / n: div.Scalar's fallback
         ["x = torch.tensor([[[[-2.75, 0.0, -0.25], [0.5, 0.25, 1.0]]]], requires_grad=True)",
          "w = torch.tensor([[[[1.0]]]], requires_grad=True)", "out = []",
          "for f in (lambda x: x.mean((-1, -2), keepdim=True) / w, lambda x: x.mean() * w,\n"
          "          lambda x: F.adaptive_avg_pool2d(x, 1) * w, lambda x: x.sum(-1) * w):\n"
          "    for cg in (True, False):\n        g = torch.autograd.grad(torch.sgn(f(x)).sum(), x, create_graph=cg)[0]\n"
          "        out.append((g._is_zerotensor(), g.grad_fn))",
          "g = torch.autograd.grad(torch.sgn(x.mean((-1, -2), keepdim=True) / w).sum(), x, create_graph=True)[0]"],
         ["out", "g.detach().numpy()", "(g * -1).detach()"]),
    case("scatter-reduce-bad-index-leaves-what-the-kernel-wrote",  # its loop combines in C order; without
         ["out = []",                                                # self, scatter_ of the initial value first
          "for reduce in ('sum', 'prod', 'mean', 'amax', 'amin'):\n    for include_self in (True, False):\n"
          "        for view in (lambda b: b, lambda b: b[::2], lambda b: b.t()):\n"
          "            b = torch.arange(24.).reshape(4, 6) * 1\n"
          "            try:\n                view(b).scatter_reduce_(1, torch.tensor([[1, 0], [2, 9]]), torch.full((2, 2), 3.),"
          " reduce, include_self=include_self)\n            except RuntimeError as e:\n                out.append(str(e))\n"
          "            out.append(b.tolist())",
          "i = torch.arange(6, dtype=torch.int32).reshape(2, 3)",
          "try:\n    i.scatter_reduce_(1, torch.tensor([[2, 7]]), torch.tensor([[5, 5]], dtype=torch.int32), 'amax',"
          " include_self=False)\nexcept RuntimeError as e:\n    out.append(str(e))"],
         ["out", "i"]),
    case("index-put-accumulate-bad-index-leaves-what-the-kernel-added",  # index_put's visits, each added
         ["out = []",
          "for view in (lambda b: b, lambda b: b[::2], lambda b: b.t()):\n"
          "    b = torch.arange(24.).reshape(4, 6) * 1\n"
          "    try:\n        view(b).index_put_((torch.tensor([1, 0, 9]),), torch.tensor(50.), accumulate=True)\n"
          "    except IndexError as e:\n        out.append(str(e))\n    out.append(b.tolist())"],
         ["out"]),
    case("index-reduce-bad-index-leaves-the-reduced-slices",  # its loop: each index's slice reduced in turn
         ["import warnings", "warnings.simplefilter('ignore')", "out = []",
          "for reduce in ('prod', 'mean', 'amax', 'amin'):\n    for dim in (0, 1):\n"
          "        for view in (lambda b: b, lambda b: b[::2], lambda b: b.t()):\n"
          "            b = torch.arange(24.).reshape(4, 6) * 1 - 7\n            v = view(b)\n"
          "            shape = list(v.shape)\n            shape[dim] = 3\n"
          "            try:\n                v.index_reduce_(dim, torch.tensor([1, 0, 9]), torch.full(shape, 2.5), reduce)\n"
          "            except IndexError as e:\n                out.append(str(e))\n            out.append(b.tolist())"],
         ["out"]),
]
