"""Regression cases of helper "surface40" (session 40): inference tensors (torch.inference_mode's rules),
torch.poisson, torch.histogramdd.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case, outcomes

_INF = ["with torch.inference_mode():\n    x = torch.ones(3)\n    y = x * 2\n    m = torch.arange(6.).reshape(2, 3)",
        "w = torch.ones(3, requires_grad=True)"]

CASES = [
    case("inference-tensor-flags",  # tensors made in inference mode are inference tensors, views of them too;
         # a clone, an op's result outside and a view of a normal tensor are not
         _INF + ["n = torch.ones(3)", "with torch.inference_mode():\n    v = n[1:]\n    v0 = w[1:]",
                 "flags = [x.is_inference(), y.is_inference(), x[1:].is_inference(), m.t().is_inference(),"
                 " m.t().reshape(6).is_inference(), x.clone().is_inference(), (x + 1).is_inference(),"
                 " x.detach().is_inference(), n.is_inference(), v.is_inference(), torch.is_inference(x)]",
                 "meta = [x.requires_grad, y.grad_fn, v0.requires_grad, v0.is_leaf, v0.grad_fn]"],
         ["flags", "meta", "x", "y"]),
    case("inference-tensor-refusals",  # outside inference mode: in place (after the write), _version,
         # requires_grad=True, saved for backward (before the op), an inference view of a normal tensor
         _INF + outcomes(["x.add_(1)", "x._version", "x[1:]._version", "x.requires_grad_()", "w * x", "x @ w",
                          "torch.nn.functional.mse_loss(w, x)", "(w + x).grad_fn.name()", "x.mul_(w)",
                          "torch.is_inference(1)", "torch.nn.Parameter(x)", "x.detach()._version"])
         + ["def f():\n    x[0] = 5\ntry:\n    f()\nexcept RuntimeError as e:\n    out.append(str(e)[:40])"],
         ["out", "x"]),
    case("inference-mode-state",  # grad mode inside inference mode records nothing; no_grad and enable_grad
         # inside keep inference mode on; inference_mode(False) turns grad mode on; the bare decorator
         ["w = torch.ones(3, requires_grad=True)", "s = []",
          "with torch.inference_mode():\n    with torch.enable_grad():\n        k = w * 2\n"
          "        s.append((torch.is_grad_enabled(), k.requires_grad, k.is_inference()))\n"
          "    with torch.no_grad():\n        s.append(torch.is_inference_mode_enabled())\n"
          "    with torch.inference_mode(False):\n        k2 = w * 2\n"
          "        s.append((torch.is_grad_enabled(), k2.grad_fn.name(), k2.is_inference()))",
          "with torch.no_grad():\n    with torch.inference_mode(False):\n        s.append(torch.is_grad_enabled())",
          "@torch.inference_mode\ndef g(a):\n    return a * 2", "s.append(g(w).is_inference())",
          "@torch.inference_mode(mode=False)\ndef h():\n    return torch.is_inference_mode_enabled()",
          "with torch.inference_mode():\n    s.append(h())", "s.append(torch.is_inference_mode_enabled())"],
         ["s"]),
    case("inference-mode-views-of-normal",  # a view made in inference mode of a normal tensor: PyTorch's
         # INFERENCE_MODE CreationMeta refusals (and the no_grad "view of a view" texts alike)
         ["w = torch.ones(3, requires_grad=True)", "b = w.clone()",
          "with torch.inference_mode():\n    v = b[1:]", "v2 = v[1:]",
          "with torch.no_grad():\n    u = b[1:]", "u2 = u[1:]"]
         + outcomes(["v.mul_(2)", "v2.mul_(2)", "u2.mul_(2)", "b.mul_(2).grad_fn.name()", "v2.grad_fn", "v.grad_fn"])
         + ["def f():\n    u[0] = 5\ntry:\n    f()\nexcept RuntimeError as e:\n    out.append(str(e)[:70])"],
         ["out"]),
    case("inference-module-and-backward",  # a module made in inference mode trains until its step; a loss
         # made in inference mode has no graph; grad with create_graph in inference mode records nothing
         ["torch.manual_seed(0)", "with torch.inference_mode():\n    lin = torch.nn.Linear(3, 1)",
          "opt = torch.optim.SGD(lin.parameters(), lr=0.1)", "lin(torch.ones(2, 3)).sum().backward()",
          "w = torch.ones(3, requires_grad=True)", "y = (w * w).sum()",
          "with torch.inference_mode():\n    g, = torch.autograd.grad(y, w, create_graph=True)\n    loss = (w * 2).sum()"]
         + outcomes(["opt.step()", "loss.backward()", "(g.is_inference(), g.requires_grad)",
                     "lin.weight.is_inference()"]),
         ["out", "lin.weight.grad"]),
    case("poisson-draws",  # ATen's sampler draw for draw: Knuth's product below 10, PTRS from 10 on, 0 draws
         # nothing; an infinite or too large rate samples INT64_MIN (its draws as the kernel's double tests take
         # them); float16 through float; the generator where the kernel leaves it
         ["g = torch.Generator().manual_seed(12345)",
          "a = torch.poisson(torch.tensor([0., 1e-300, 0.5, 3., 9.999999, 10., 12.5, 150., 1e6, 4.5e15], "
          "dtype=torch.float64), g)",
          "b = torch.poisson(torch.tensor([[1., 20.], [3., 40.]]).t(), g)",
          "c = torch.poisson(torch.tensor([float('inf'), 1e19, 9.3e18, 9.2e18], dtype=torch.float64), g)",
          "d = torch.poisson(torch.tensor([3., 100., 1e5], dtype=torch.float16), g)",
          "e = torch.rand(2, generator=g, dtype=torch.float64)"],
         ["a.tolist()", "b", "b.stride()", "c.tolist()", "d", "e.tolist()"]),
    case("poisson-errors-and-grad",  # the rate check as the loop reaches it (earlier elements drew), dtypes,
         # arguments; PoissonBackward0's zero gradient and forward derivative
         ["g = torch.Generator().manual_seed(7)", "x = torch.tensor([1., 2.], requires_grad=True)",
          "y = torch.poisson(x * 3, g)", "(y * x).sum().backward()",
          "fw = torch.autograd.forward_ad",
          "with fw.dual_level():\n    t = fw.unpack_dual(torch.poisson(fw.make_dual(torch.tensor([1., 2.]), "
          "torch.ones(2)), g)).tangent"]
         + outcomes(["torch.poisson(torch.tensor([5., 12., -1.]), g)", "torch.rand(1, generator=g)",
                     "torch.poisson(torch.tensor([3., float('nan')]), g)", "torch.poisson(torch.tensor([1, 2]))",
                     "torch.poisson(torch.empty(0, dtype=torch.bool))", "torch.poisson(torch.empty(0), g)",
                     "torch.poisson(torch.tensor(4.), g)", "torch.poisson(1.)",
                     "torch.poisson(torch.tensor([1.]), generator=1)", "torch.poisson(torch.tensor([-0.]), g)"]),
         ["out", "y", "x.grad", "t"]),
    case("histogramdd-forms",  # bins as an int, ints, 0-d tensor, tensors (returned as they are), range (also
         # positional), weight, density; the return type's printing; an input of more dimensions
         ["x = torch.tensor([[0., 1.], [1., 0.], [2., 0.], [2., 2.], [0.5, 0.25]])",
          "b0 = torch.tensor([0., 1., 2.])", "b1 = torch.tensor([0., .5, 3.])",
          "r1 = torch.histogramdd(x, bins=[3, 3], weight=torch.tensor([1., 2., 4., 8., 16.]))",
          "r2 = torch.histogramdd(x, 2, [0., 1., 0., 2.], density=True)",
          "r3 = torch.histogramdd(x, [b0, b1], weight=torch.tensor([0.1, 0.2, 0.3, 0.7, 1.9]), density=True)",
          "r4 = torch.histogramdd(torch.arange(24.).reshape(2, 3, 4), [2, 1, 3, 2], weight=torch.ones(2, 3))",
          "r5 = torch.histogramdd(x, torch.tensor(2))", "r6 = torch.histogramdd(torch.empty(0, 3), [2, 1, 1], density=True)",
          "same = [r3.bin_edges[0] is b0, r3.bin_edges[1] is b1, type(r1.bin_edges).__name__]"],
         ["r1", "r2", "r3", "r4", "r5", "r6", "same"]),
    case("histogramdd-errors-and-grad",  # PyTorch's checks in its order; NotImplemented nodes (the edges' one node
         # with two outputs) whose backward raises
         ["x = torch.tensor([[0., 1.], [1., 0.], [2., 0.]])", "b0 = torch.tensor([0., 1., 2.])",
          "xr = x.clone().requires_grad_()", "r = torch.histogramdd(xr, 2)",
          "meta = [r.hist.grad_fn.name(), r.bin_edges[0].grad_fn is r.bin_edges[1].grad_fn, r.bin_edges[1].output_nr]"]
         + outcomes(["r.hist.sum().backward()", "r.bin_edges[0].sum().backward()",
                     "torch.histogramdd(xr, [b0, b0]).hist.sum().backward()",
                     "torch.histogramdd(x, [2, 2, 2])", "torch.histogramdd(x[:, 0], 2)",
                     "torch.histogramdd(x, 2, range=[0., 1.])", "torch.histogramdd(x.long(), 2)",
                     "torch.histogramdd(x.long(), 2, range=[0., 1., 0., 1.])", "torch.histogramdd(x, [b0])",
                     "torch.histogramdd(x, [-1, 2])", "torch.histogramdd(x, [-2, 2])", "torch.histogramdd(x, [2, 0])",
                     "torch.histogramdd(x, 2, weight=torch.ones(4))", "torch.histogramdd(x, 2, weight=torch.tensor(1.))",
                     "torch.histogramdd(x, 2, weight=torch.ones(3, dtype=torch.float64))",
                     "torch.histogramdd(torch.tensor([[float('nan'), 1.]]), 2)",
                     "torch.histogramdd(x, 2, range=[1., 0., 0., 1.])", "torch.histogramdd(x, [b0, b0.double()])",
                     "torch.histogramdd(x, [b0, b0[None]])", "torch.histogramdd(x, [b0, b0[:0]])",
                     "torch.histogramdd(x, [2.5, 2])", "torch.histogramdd(x, torch.tensor([0., 1., 2.]))"]),
         ["meta", "out"]),
    case("histogram-weights-threads",  # torch.histogram's weighted sums split as parallel_for splits the elements
         # (two threads past 200), and density's sum and divisions in the dtype (was float64 then rounded)
         ["g = torch.Generator().manual_seed(3000)", "x = torch.randn(3000, generator=g)",
          "w = torch.rand(3000, generator=g)", "h1 = torch.histogram(x, 7, weight=w).hist",
          "h2 = torch.histogram(x, torch.tensor([-2., -0.5, 0., 0.3, 2.]), weight=w, density=True).hist",
          "h3 = torch.histogramdd(torch.stack([x, w], 1)[:700], [3, 4], weight=w[:700], density=True).hist"],
         ["h1.tolist()", "h2.tolist()", "h3.tolist()"]),
    case("sdpa-flash-double-backward-any-output",  # (raises-only-torch, own run 40400000) the flash path's backward
         # node has no derivative: a second backward through dk or dv alone (dq unused) raises PyTorch's error too
         ["q = torch.tensor([[[[-1.75], [-0.75]], [[1.25], [-3.0]]]], dtype=torch.float64, requires_grad=True)",
          "k = torch.tensor([[[[0.75], [1.25], [0.25]], [[0.0], [0.0], [1.5]]]], dtype=torch.float64, requires_grad=True)",
          "v = torch.tensor([[[[-0.5], [1.0], [2.5]], [[0.0], [2.25], [1.75]]]], dtype=torch.float64, requires_grad=True)",
          "r = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.zeros(2, 3, dtype=torch.float64), scale=0.5)",
          "dk, dv = torch.autograd.grad(r.sum(), [k, v], create_graph=True)"]
         + outcomes(["dk.pow(2).sum().backward()", "dv.sum().backward()", "dk.grad_fn.name()"]),
         ["out"]),
    case("index-select-empty-self",  # (error-type:index_select, own run 40410000) an empty self of 2+ dims checks
         # its indices as ATen's check_indexarray_range (no negative index), after its own dim-size check
         ["e = torch.ones(2, 0)"]
         + outcomes(["e.index_select(0, torch.tensor([-1, 1]))", "e.index_select(0, torch.tensor([2]))",
                     "e.index_select(0, torch.tensor([1, 0])).shape", "e.index_select(1, torch.tensor([0]))",
                     "torch.ones(2, 0, 3).index_select(2, torch.tensor([3]))",
                     "torch.ones(0).index_select(0, torch.tensor([0]))",
                     "torch.ones(2, 3).index_select(0, torch.tensor([-1]))"]),
         ["out"]),
]
