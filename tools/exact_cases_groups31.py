"""Regression cases of the groups of run dt20k-30 (values, graphs, random ops; helper "groupsb", session 31).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


CASES = [
    case("dropout-nd-inplace-on-a-view-changes-the-view",  # (grad_fn:dropout1d, shape:dropout3d) F's
         # unsqueeze_/squeeze_ change the view's own metadata: SqueezeBackward4 over the regenerated view
         # (AsStridedBackward0), an error in between leaves it unsqueezed; in no_grad mode its grad_fn goes stale
         [GRAPH, "def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
          "torch.manual_seed(3)", "b = torch.rand(4, 6, requires_grad=True)", "x = b * 1", "v = x[:, 1:]",
          "r = F.dropout1d(v, p=0.3, inplace=True)", "(r * torch.arange(5.)).sum().backward()",
          "b2 = torch.rand(4, 6, requires_grad=True)", "x2 = b2 * 1", "v2 = x2[:, 1:].t()",
          "r2 = F.dropout3d(v2, p=0.3, inplace=True)", "x2.mul_(2)", "(v2 * torch.arange(4.)).sum().backward()",
          "v3 = torch.arange(24).reshape(4, 6)[:, 1:]", "e3 = err(lambda: F.dropout1d(v3, inplace=True))",
          "x4 = torch.rand(4, 6, requires_grad=True) * 1", "v4 = x4[:, 1:]",
          "with torch.no_grad():\n    r4 = F.dropout1d(v4, inplace=True)",
          "x5 = torch.rand(4, 6, requires_grad=True) * 1", "v5 = x5[1:]",
          "with torch.no_grad():\n    v5.transpose_(0, 1)",
          "v6 = torch.rand(3, 4, 5).transpose(0, 1)", "r6 = F.dropout3d(v6, training=True, inplace=True)"],
         ["r", "(v._version, x._version)", "b.grad", "graph(r.grad_fn)", "r.stride()", "r2", "v2._version", "b2.grad",
          "graph(v2.grad_fn)", "(v2.shape, v2.stride())", "e3", "(v3.shape, v3._version)",
          "(v4.shape, v4._version)", "graph(v4.grad_fn)", "graph(v5.grad_fn)", "r6", "v6.shape"]),
    case("gelu-double-backward-as-functionsmanual",  # (numeric:grad gelu) gelu_double_backward's ops in its
         # order (its graph too); the tanh kernels' fused multiply-adds and Sleef's/glibc's tanh per element;
         # float64 exact-erf backward: glibc's erf and exp in the scalar loop, Sleef's exp and a fused add in
         # the vector code
         [GRAPH, "def d2(x, approximate, n=1):\n    x = x.detach().requires_grad_()\n"
          "    y = F.gelu(x[::n], approximate=approximate)\n"
          "    g, = torch.autograd.grad(y, x, torch.linspace(-2, 3, y.numel(), dtype=x.dtype).reshape(y.shape),"
          " create_graph=True)\n    gg, = torch.autograd.grad((g * g).sum(), x, create_graph=True)\n"
          "    return y.tolist(), g.tolist(), gg.tolist(), gg",
          "x32 = torch.tensor([-3.63, -0.7, -1.2, 2.72, 3.1, 0.95, 5.3, 1.31, -4.97, -9.49, -5.24, -4.64,"
          " -7.98, -2.9, 9.46, 4.88, -3.85, -3.77, 11.64, 0.5, -0.02])",
          "x64 = x32.double()"],
         ["d2(x32, 'tanh')[:3]", "d2(x64, 'tanh')[:3]", "d2(x32, 'none', 2)[:3]",
          "d2(x64, 'none', 2)[:3]", "d2(x32[:3], 'tanh')[:3]", "d2(x64[:5], 'none')[:3]",
          "graph(d2(x32[:2], 'tanh')[3].grad_fn)", "graph(d2(x64[:2], 'none')[3].grad_fn)"]),
    case("polygamma-float16-as-c10-half",  # (numeric:polygamma float16) calc_polygamma<Half>: zeta in float
         # (its acc_type; powf), rounded to half, times n! in float, rounded once
         ["x = torch.tensor([2.5625, 0.4197, -2.143, 3.789, 0.503, -0.5283, 5.215, -2.492, -1.122, 7.0, -3.0, 0.0,"
          " 65504.0, 1e-3, float('inf'), float('nan')], dtype=torch.float16, requires_grad=True)"],
         ["[torch.polygamma(n, x).tolist() for n in (2, 3, 4, 7, 12)]", "torch.special.polygamma(5, x[::3])",
          "x.detach().clone().polygamma_(3)", "torch.autograd.grad(torch.polygamma(3, x).sum(), x)[0].tolist()"]),
    case("float16-full-min-max-short-signed-zeros",  # (float16 max()/min() signed-zero ties) reduce_all of 8 to
         # 15 halves: elements 8 on folded into lanes 0-7, then the lanes in order (the later wins a tie)
         ["def lcg(k):\n    while True:\n        k = (k * 1103515245 + 12345) % 2 ** 31\n        yield k >> 16",
          "g = lcg(7)", "rows = [[[0.0, -0.0, 0.0, -0.0, 1.0][next(g) % 5] for i in range(8 + k % 8)] for k in range(160)]",
          "def pick(f):\n    out = []\n    for r in rows:\n        v = f(torch.tensor(r, dtype=torch.float16))\n"
          "        out.append(None if v != 0 else bool(v.signbit()))\n    return out"],
         ["pick(torch.min)", "pick(torch.max)", "pick(lambda t: t.flip(0).min())", "pick(lambda t: (-t).max())"]),
    case("ldl-factor-nan-inf-as-mkl",  # (value:ldl_factor_ex, raises-only-agrad:ldl_factor) MKL's sytf2 with
         # NaN/inf: the first NaN is the largest, maxsd's MAX, no NaN test of the pivot, dsyr's quick returns
         ["n = float('nan'); i = float('inf')",
          "def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
          "ms = [[[n, 1.0], [1.0, 2.0]], [[i, i], [i, i]], [[1.0, 2.0, n], [2.0, -1.0, 0.5], [n, 0.5, 3.0]],"
          " [[n, n, 0.3], [n, 0.6, 0.0], [0.3, 0.0, -i]], [[0.2, 1.1, 0.0, i], [1.1, -i, 0.8, -i], [0.0, 0.8, -0.6, n],"
          " [i, -i, n, 0.1]], [[0.01, 5.0, n, 1.0], [5.0, 0.1, 0, 0], [n, 0, 0.1, 0], [1.0, 0, 0, 0.1]]]",
          "g = torch.Generator().manual_seed(5)", "r = torch.randn(7, 7, generator=g, dtype=torch.float64)"],
         ["[torch.linalg.ldl_factor_ex(torch.tensor(m)) for m in ms]",
          "[torch.linalg.ldl_factor_ex(torch.tensor(m, dtype=torch.float64), hermitian=True) for m in ms]",
          "[err(lambda: torch.linalg.ldl_factor(torch.tensor(m))) for m in ms]",
          "[v.tolist() for v in torch.linalg.ldl_factor_ex(r + r.mT)[:2]]",
          "[v.tolist() for v in torch.linalg.ldl_factor_ex((r + r.mT).float())[:2]]"]),
    case("cholesky-inverse-upper-own-order",  # (repr:cholesky_inverse) potri('U') in the upper triangle's
         # own order (trti2 from the first column, U U^T); lauu2's sums without a +0.0 start
         ["i = float('inf')",
          "ms = [[[-i, -0.0, -0.7], [1.3, -0.6, 0.8], [-i, -0.7, 1.3]], [[2.0, -1.0, 0.0, 1.0], [0.0, -i, 2.0, 0.5], [0.0, 0.0, 1.5, -0.0], [0.0, 0.0, 0.0, 0.7]],"
          " [[0.5, 0.3, -1.2], [0.2, -1.1, 0.4], [0.9, -0.6, 1.7]]]"],
         ["[torch.cholesky_inverse(torch.tensor(m), upper=True) for m in ms]",
          "[torch.cholesky_inverse(torch.tensor(m).t()) for m in ms]",
          "[torch.cholesky_inverse(torch.tensor(m, dtype=torch.float64), upper=True).tolist() for m in ms]"]),
    case("softmax-backward-float64-lanes-in-order",  # (dt31 grad-numeric:backward) vec_reduce_all of doubles
         # folds the 4 lanes one after another (no AVX2 shuffles for double): sum(g * y) of softmax's backward
         ["x1 = torch.tensor([[1.5, 1.25, 0.25, float('-inf')], [0.25, -1.75, -1.0, 2.0], [-2.5, 1.5, float('nan'), 1.75],"
          " [-2.25, 1.0, -3.0, -1.0]], dtype=torch.float64, requires_grad=True)",
          "torch.special.softmax(x1, -1).sum().backward()",
          "y = torch.linspace(-3, 2, 26, dtype=torch.float64).reshape(2, 13).requires_grad_()",
          "g = torch.cos(torch.arange(26, dtype=torch.float64)).reshape(2, 13)"],
         ["x1.grad.tolist()", "torch.autograd.grad(torch.log_softmax(y, -1), y, g)[0].tolist()",
          "torch.autograd.grad(torch.log_softmax(y[:, :4], -1), y, g[:, :4])[0].tolist()",
          "torch.softmax(y, -1).tolist()", "torch.log_softmax(y, -1).tolist()",
          "torch.autograd.grad(torch.softmax(y, -1), y, g)[0].tolist()",
          "torch.softmax(torch.tensor([[1.0, float('inf'), 2.0], [float('-inf'), 0.5, float('nan')]], dtype=torch.float64), -1)"]),
]
