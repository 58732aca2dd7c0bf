"""Regression cases of the groups of the session-33 second difftest run (seed 33050000) handed to helper
"groupsd" in session 33.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


CASES = [
    case("max-pool1d-no-grad-not-a-view",  # (grad_fn:addcmul_) without grad ATen's max_pool1d runs its own
         # 1-D kernel into a fresh tensor (no view of max_pool2d's output): an in-place op on it records its
         # own node, not CopySlices; with grad (or return_indices) the squeezed max_pool2d output, a view
         [GRAPH, "x = torch.tensor([[[-0.0, float('-inf'), 1.25, 0.5]]])",
          "def h(y):\n    r = y.addcmul_(torch.tensor([[[-1.25]]]), torch.tensor(-0.25, requires_grad=True))\n"
          "    return r, graph(r.grad_fn)",
          "def v(r):\n    return r._base is not None, r.stride(), r.grad_fn is None",
          "def nog(y):\n    with torch.no_grad():\n        return v(F.max_pool1d(y, 2))"],
         ["h(torch.max_pool1d(x, 3, dilation=1, ceil_mode=True))", "v(F.max_pool1d(x, 2))",
          "v(F.max_pool1d(x[0], 2))", "v(F.max_pool1d(x, 2, return_indices=True)[0])",
          "v(F.max_pool1d(x.clone().requires_grad_(), 2))",
          "nog(x.clone().requires_grad_())"]),
    case("nan-backward-scalar-loop-by-rows",  # (grad-value:backward) the backward kernels whose vector and
         # scalar code disagree at a NaN (hardshrink with a NaN lambd; hardtanh, elu, hardswish, leaky_relu,
         # shrink at a NaN input): the scalar loop runs each row's last row % block elements, a row being the
         # coalesced inner dims of (grad, self): an expanded or strided input is cut in short rows or runs
         # the scalar loop throughout, not one flat loop
         ["nan = float('nan')",
          "def g(f, dt, lay, gk):\n"
          "    b = torch.tensor([nan if i % 3 == 0 else (i % 7) - 3.0 for i in range(40)], dtype=dt)\n"
          "    x = b.clone().requires_grad_()\n    r = f(lay(x))\n"
          "    if gk: r.sum().backward()\n"
          "    else: r.backward(torch.arange(r.numel(), dtype=dt).reshape(r.shape) - 3)\n"
          "    return x.grad",
          "L = [lambda b: b[:20].reshape(4, 5), lambda b: b[:10].expand(3, 10), lambda b: b[:10].reshape(10, 1).expand(10, 3), "
          "lambda b: b[:36].reshape(6, 6).t(), lambda b: b[::2], lambda b: b, lambda b: b[:20].expand(2, 20)]",
          "Fs = [lambda v: F.hardtanh(v), lambda v: F.elu(v, 1.5), F.hardswish, lambda v: F.hardshrink(v, nan), "
          "lambda v: F.softshrink(v, 0.5), lambda v: F.leaky_relu(v, 0.2)]"],
         ["[[g(f, dt, lay, gk) for lay in L for gk in (0, 1)] for f in Fs for dt in (torch.float64, torch.float32)]",
          "(lambda x: (x.expand(2, 4).hardshrink(nan).backward(torch.tensor([[1.75, 2.75, 0.0, -1.0], "
          "[-2.25, -1.0, -0.75, 0.0]], dtype=torch.float64)), x.grad)[1])"
          "(torch.tensor([1.5, 0.75, 1.0, 0.5], dtype=torch.float64, requires_grad=True))"]),
    case("trilinear-gradients-contiguous",  # (stride:grad) _trilinear adds into zeros(output_size): every
         # gradient of bilinear (the weight's: a _trilinear summing over the batch) is C-contiguous, whatever
         # order the sum of products takes
         ["def g(n, i1, i2, o, cg):\n"
          "    x1 = torch.arange(n * i1, dtype=torch.float64).reshape(n, i1).requires_grad_()\n"
          "    x2 = (torch.arange(n * i2, dtype=torch.float64).reshape(n, i2) - 2).requires_grad_()\n"
          "    w = (torch.arange(o * i1 * i2, dtype=torch.float64).reshape(o, i1, i2) / 3).requires_grad_()\n"
          "    gs = torch.autograd.grad(F.bilinear(x1, x2, w).sum(), [x1, x2, w], create_graph=cg)\n"
          "    return [(t, t.stride()) for t in gs]"],
         ["[g(*s, cg) for s in [(3, 3, 4, 2), (1, 2, 2, 3), (2, 3, 3, 1), (4, 1, 5, 2)] for cg in (False, True)]",
          "(lambda x, w: (lambda gs: [t.stride() for t in gs])(torch.autograd.grad(F.bilinear(x[..., :3], x, w).sum(), "
          "[w], create_graph=True)))(torch.ones(2, 3, 4, requires_grad=True), torch.ones(2, 3, 4, requires_grad=True))"]),
    case("max-pool-saved-indices-version",  # (error-type:grad) max/adaptive/fractional max pooling save the
         # indices they return (result1): a change to them in place, even under no_grad, fails the backward
         # with the version error, not a wrong scatter; the node shows _saved_result1
         ["def g(f, x):\n    x = x.requires_grad_()\n    a, i = f(x)\n    n = a.grad_fn\n"
          "    while n.name().startswith('Squeeze'):\n        n = n.next_functions[0][0]\n"
          "    s = n._saved_result1.shape\n"
          "    with torch.no_grad():\n        i.narrow(0, 0, 1).add_(1)\n"
          "    try:\n        return s, torch.autograd.grad(a.sum(), [x], create_graph=True)\n"
          "    except RuntimeError as e:\n        return s, str(e).split(' Hint')[0]"],
         ["g(lambda x: F.max_pool3d(x, 1, 1, 0, return_indices=True), torch.arange(12.).reshape(1, 1, 2, 3, 2))",
          "g(lambda x: F.max_pool2d(x, 1, 1, 0, return_indices=True), torch.arange(12.).reshape(1, 2, 3, 2))",
          "g(lambda x: F.max_pool1d(x, 1, 1, 0, return_indices=True), torch.arange(6.).reshape(1, 2, 3))",
          "g(lambda x: F.adaptive_max_pool2d(x, 1, return_indices=True), torch.arange(12.).reshape(1, 2, 3, 2))",
          "g(lambda x: F.adaptive_max_pool1d(x, 1, return_indices=True), torch.arange(6.).reshape(1, 2, 3))",
          "g(lambda x: F.fractional_max_pool2d(x, 1, output_size=(2, 2), return_indices=True, "
          "_random_samples=torch.full((1, 2, 2), 0.5)), torch.arange(12.).reshape(1, 2, 3, 2))",
          "(lambda x: torch.autograd.grad(F.max_pool2d(x, 2, return_indices=True)[0].sum(), [x], create_graph=True)[0]"
          ".grad_fn._saved_indices)(torch.arange(16.).reshape(1, 1, 4, 4).requires_grad_())"]),
]
