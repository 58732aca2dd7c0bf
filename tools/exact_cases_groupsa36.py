"""Regression cases of session 36's groupsa36 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    # addmm / addmv / addbmm with alpha 0: BLAS scales C alone (beta * self), so a -0.0 in self stays -0.0 and
    # a NaN or inf in the product is not read
    case("addmm-alpha0-signed-zero", [
        "c = torch.tensor([[-0.0, 0.0], [float('nan'), 1.0]])",
        "a = torch.tensor([[float('nan'), 1.0], [float('inf'), 2.0]])",
        "b = torch.tensor([[1.0, -1.0], [2.0, 3.0]])",
    ], [
        "torch.addmm(c, a, b, alpha=0).tolist()",
        "torch.addmm(c, a, b, alpha=0, beta=-1).tolist()",
        "torch.addmm(c.double(), a.double(), b.double(), alpha=-0.0, beta=2).tolist()",
        "c.clone().addmm_(a, b, alpha=0).tolist()",
        "torch.addbmm(c, a[None], b[None], alpha=0).tolist()",
        "torch.addmv(c[0], a, b[0], alpha=0).tolist()",
        "torch.addmv(c[0], a, b[0], alpha=0, beta=-1).tolist()",
        "torch.baddbmm(c[None], a[None], b[None], alpha=0).tolist()",
    ]),
    # baddbmm with k = 1 at 400+ multiply-adds a matrix (MKL's gemm): the plain product, its -0.0 kept, alpha on
    # batch1 first (on the product for a single column); with beta 0 a zeroed C (+0.0) except for one matrix
    case("baddbmm-one-term-mkl", [
        "a = (torch.arange(40.) * 0.37 % 3 - 1.5).reshape(2, 20, 1)",
        "b = (torch.arange(40.) * 0.53 % 2 - 1).reshape(2, 1, 20)",
        "a[:, ::3] = 0.0",
        "b[:, :, ::4] = -0.0",
        "c = (torch.arange(800.) * 0.11 % 2 - 1).reshape(2, 20, 20)",
        "c[:, ::2] = -0.0",
        "def sig(r):\n    return [torch.signbit(r).sum().item(), r.sum().item(), r.flatten()[::7].tolist()]",
    ], [
        "[sig(torch.baddbmm(c.to(d), a.to(d), b.to(d), alpha=al, beta=be)) for d in (torch.float32, torch.float64) "
        "for al, be in ((0.3, 0.7), (1.7, 0), (-1, 0), (1, 1), (-2.1, -0.3))]",
        "[sig(torch.baddbmm(c[:1], a[:1], b[:1], alpha=al, beta=0)) for al in (1, -1.5, 1.7)]",
        "[sig(torch.baddbmm(c[:1, :, :1].expand(1, 400, 1), a.reshape(1, 40, 1).repeat(1, 10, 1), b[:1, :, :1], "
        "alpha=al, beta=be)) for al, be in ((1.7, 0), (0.3, 0.7))]",
        "sig(torch.baddbmm(c[:1].reshape(1, 1, 400), a[:1, :1], b.reshape(1, 1, 40).repeat(1, 1, 10), alpha=1.7, beta=0.7))",
    ]),
    # embedding_bag with include_last_offset: ATen's fast path (float32/half/bfloat16, weight.stride(1) == 1, no
    # padding_idx, not 'max') sums up to the last offset (mean: counted to the end); the others (padding_idx, 'max',
    # float64, a strided weight) run the last bag to the input's end
    case("embedding-bag-last-offset-paths", [
        "w = torch.tensor([[2.0, 1.0], [0.5, -1.0], [-2.75, 3.0], [8.0, 0.25], [-2.25, 1.5]])",
        "i = torch.tensor([1, 2, 2, 4])",
        "o = torch.tensor([0, 1, 3])",
        "def eb(w, mode, pi=None):\n    w = w.detach().requires_grad_()\n"
        "    r = F.embedding_bag(i, w, o, mode=mode, include_last_offset=True, padding_idx=pi)\n"
        "    if mode != 'sum' or pi is not None or w.dtype == torch.float64:\n"
        "        r.backward(torch.tensor([[1.0, 2.0], [3.0, -1.0]], dtype=w.dtype))\n"
        "    return [r.tolist(), None if w.grad is None else w.grad.tolist()]",
    ], [
        "[eb(w, m, pi) for m in ('sum', 'mean', 'max') for pi in (None, 2, 4)]",
        "[eb(w.double(), m) for m in ('sum', 'mean', 'max')]",
        "[eb(w.t().contiguous().t(), m) for m in ('sum', 'mean')]",
        "F.embedding_bag(torch.tensor([1, 2, 2]), w[:, :1], torch.tensor([0, 2]), mode='mean', include_last_offset=True, "
        "padding_idx=4).tolist()",
    ]),
    # scatter_add_ with a number as src: the parser's TypeError, before the kernel writes anything (an index
    # out of range after good ones no longer leaves their sums in the tensor)
    case("scatter-add-number-src-writes-nothing", [
        "x = torch.tensor([[0.25, 0.5, 0.75], [1.0, 2.0, 3.0]])",
        "v = x[::2]",
        "def err(f):\n    try:\n        f()\n    except Exception as e:\n        return [type(e).__name__, str(e)]",
    ], [
        "err(lambda: v.scatter_add_(0, torch.tensor([[0, 0, 1], [1, 1, 0]]), 0.5))",
        "x.tolist()",
        "err(lambda: v.scatter_add_(0, torch.tensor([[0, 0, 1]]), src=0.5))",
        "x.tolist()",
    ]),
    # unflatten checks its sizes are non-empty before it wraps the dim
    case("unflatten-empty-sizes-before-dim", [
        "x = torch.tensor(1.0)",
        "y = torch.ones(2, 3)",
        "def err(f):\n    try:\n        return f().shape\n    except Exception as e:\n        return [type(e).__name__, str(e)]",
    ], [
        "err(lambda: x.unflatten(1, ()))",
        "err(lambda: y.unflatten(5, ()))",
        "err(lambda: y.unflatten(5, (1,)))",
        "err(lambda: x.unflatten(1, (2, 2)))",
        "err(lambda: y.unflatten(-3, []))",
    ]),
    # conv with padding='same' and an odd total padding: the channel error shows the input as _convolution_same
    # padded it
    case("conv-same-odd-padding-channel-text", [
        "def err(f):\n    try:\n        return f().shape\n    except Exception as e:\n        return [type(e).__name__, str(e)]",
    ], [
        "err(lambda: torch.conv3d(torch.ones(4, 3, 3, 3), torch.ones(4, 2, 2, 1, 2), torch.ones(4), padding='same'))",
        "err(lambda: torch.conv2d(torch.ones(1, 4, 5, 5), torch.ones(4, 2, 2, 3), padding='same', dilation=2))",
        "err(lambda: torch.conv1d(torch.ones(4, 5), torch.ones(4, 2, 2), padding='same'))",
        "err(lambda: torch.conv1d(torch.ones(4, 5), torch.ones(4, 2, 3), padding='same'))",
    ]),
    # ctc_loss's node saves targets: changed in place before the backward, PyTorch's version error
    case("ctc-loss-targets-saved-version", [
        "x = torch.tensor([[[0.75, -1.5], [1.0, 2.0]], [[-2.5, -0.25], [-2.5, 2.0]], [[0.25, -0.5], [-0.75, -0.25]]]).log_softmax(2)",
        "x.requires_grad_()",
        "t = torch.tensor([[1, 1, 1], [1, 1, 1]])",
        "r = torch.ctc_loss(x, t, (1, 2), (1, 2), 0, zero_infinity=False)",
        "r6 = t.add_(0)",
        "def err(f):\n    try:\n        return f()\n    except Exception as e:\n        return [type(e).__name__, str(e)]",
    ], [
        "err(lambda: torch.autograd.grad(r.sum(), [x], create_graph=True, allow_unused=True))",
        "sorted(a for a in dir(r.grad_fn) if a.startswith('_saved_t'))",
    ]),
]
